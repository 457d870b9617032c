//! Move patterns: a legal move described by its 3x3 neighbourhood, each point in one of seven
//! states for the side to move (off the board, own stone, opponent's stone, or empty and legal
//! for both sides, for the mover only, for the opponent only, for neither), with whether the
//! move's own point is contested; one code for all eight symmetries of the board.

use crate::rules::{Bitboard, Point, Position};

/// States a neighbour can be in.
pub const STATES: u32 = 7;
/// Distinct codes [`pattern`] can return (before the symmetries merge some).
pub const CODES: u32 = 2 * STATES.pow(8);

/// The eight neighbours of a point, as `(dx, dy)`, in reading order.
const OFFSETS: [(i8, i8); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

/// For each symmetry of the square, the slot of `OFFSETS` each slot moves to.
const SYMMETRIES: [[usize; 8]; 8] = {
    let mut table = [[0; 8]; 8];
    let mut s = 0;
    while s < 8 {
        let mut slot = 0;
        while slot < 8 {
            let (dx, dy) = OFFSETS[slot];
            // Transpose when bit 2 is set, then mirror x (bit 0) and y (bit 1).
            let (mut x, mut y) = if s & 4 != 0 { (dy, dx) } else { (dx, dy) };
            if s & 1 != 0 {
                x = -x;
            }
            if s & 2 != 0 {
                y = -y;
            }
            let mut to = 0;
            while OFFSETS[to].0 != x || OFFSETS[to].1 != y {
                to += 1;
            }
            table[s][slot] = to;
            slot += 1;
        }
        s += 1;
    }
    table
};

/// The pattern code of the side to move's legal move `p`, given both sides' legal sets
/// `[black, white]`: the least of its codes under the eight symmetries, so symmetric
/// neighbourhoods share one code, below [`CODES`].
pub fn pattern(position: &Position, legal: [Bitboard; 2], p: Point) -> u32 {
    let mover = position.to_move();
    let (own, theirs) = (legal[mover.index()], legal[(!mover).index()]);
    let (own_stones, their_stones) = (position.stones(mover), position.stones(!mover));
    let mut states = [0u32; 8];
    for (slot, &(dx, dy)) in OFFSETS.iter().enumerate() {
        let q = Point::from_botzone(p.x() as i64 + dx as i64, p.y() as i64 + dy as i64);
        states[slot] = match q {
            None => 0,
            Some(q) if own_stones.has(q) => 1,
            Some(q) if their_stones.has(q) => 2,
            Some(q) => match (own.has(q), theirs.has(q)) {
                (true, true) => 3,
                (true, false) => 4,
                (false, true) => 5,
                (false, false) => 6,
            },
        };
    }
    let code = |symmetry: &[usize; 8]| {
        let mut moved = [0u32; 8];
        for (slot, &to) in symmetry.iter().enumerate() {
            moved[to] = states[slot];
        }
        moved.iter().fold(0, |code, &state| code * STATES + state)
    };
    let least = SYMMETRIES.iter().map(code).min().expect("eight symmetries");
    2 * least + theirs.has(p) as u32
}

/// Steps (up, down, left, right) from `p` to `other`, capped at 4; 5 when there is none.
pub fn distance(p: Point, other: Option<Point>) -> u32 {
    other.map_or(5, |q| (p.x().abs_diff(q.x()) + p.y().abs_diff(q.y())).min(4) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::test_support::random_positions;
    use crate::rules::Color;

    /// `position` turned by the symmetry `(transpose, mirror x, mirror y)`.
    fn turned(position: &Position, s: usize) -> Position {
        let map = |p: Point| {
            let (mut x, mut y) = if s & 4 != 0 { (p.y(), p.x()) } else { (p.x(), p.y()) };
            if s & 1 != 0 {
                x = 8 - x;
            }
            if s & 2 != 0 {
                y = 8 - y;
            }
            Point::from_xy(x, y).unwrap()
        };
        let stones = |c: Color| position.stones(c).iter().map(map).collect::<Bitboard>();
        let black = stones(Color::Black);
        Position::from_stones(black, stones(Color::White), position.to_move()).unwrap()
    }

    #[test]
    fn symmetric_positions_give_their_moves_the_same_pattern() {
        for position in random_positions(17, |p| p.moves_played() >= 20) {
            let legal = position.legal_both();
            for s in 0..8 {
                let other = turned(&position, s);
                let other_legal = other.legal_both();
                let mut codes: Vec<u32> =
                    position.legal_moves().iter().map(|p| pattern(&position, legal, p)).collect();
                let mut other_codes: Vec<u32> =
                    other.legal_moves().iter().map(|p| pattern(&other, other_legal, p)).collect();
                codes.sort();
                other_codes.sort();
                assert_eq!(codes, other_codes, "symmetry {s}\n{position}");
            }
        }
    }

    #[test]
    fn codes_tell_neighbourhoods_apart() {
        // The empty board's corner, edge and centre points differ; a stone next to a point
        // changes its code; the side to move matters.
        let empty = Position::new();
        let legal = empty.legal_both();
        let code = |p: &Position, x, y| pattern(p, p.legal_both(), Point::from_xy(x, y).unwrap());
        let (corner, edge, centre) = (code(&empty, 0, 0), code(&empty, 4, 0), code(&empty, 4, 4));
        assert!(corner != edge && edge != centre && corner != centre);
        assert_eq!(code(&empty, 8, 8), corner);
        assert_eq!(pattern(&empty, legal, Point::from_xy(0, 4).unwrap()), edge);
        let one = Position::from_moves([Point::from_xy(4, 4).unwrap()]).unwrap();
        assert_ne!(code(&one, 4, 3), centre);
        let two =
            Position::from_moves([Point::from_xy(4, 4).unwrap(), Point::from_xy(0, 0).unwrap()]).unwrap();
        assert_ne!(code(&one, 4, 3), code(&two, 4, 3), "own stone and opponent's stone differ");
        assert!(centre < CODES && corner < CODES);
    }

    #[test]
    fn distances_are_steps_capped_at_four() {
        let p = Point::from_xy(4, 4).unwrap();
        assert_eq!(distance(p, None), 5);
        assert_eq!(distance(p, Some(p)), 0);
        assert_eq!(distance(p, Point::from_xy(5, 5)), 2);
        assert_eq!(distance(p, Point::from_xy(0, 0)), 4);
    }
}
