//! Leaf evaluation: scores a position without playing it out.

use crate::bitboard::Bitboard;
use crate::params::Params;
use crate::position::Position;

/// The seed bot's mobility: points only the side that just moved may play, minus points only
/// the side to move may play, given the two sides' legal sets.
#[inline]
pub fn mobility(mover: Bitboard, to_move: Bitboard) -> i32 {
    (mover - to_move).count() as i32 - (to_move - mover).count() as i32
}

/// Eyes of the side owning `stones`: empty points whose every neighbour is one of its stones.
/// The opponent can never play there (it would be suicide, and capturing is illegal), so an
/// eye is a lasting reserve even while its owner cannot play it yet.
#[inline]
pub fn eyes(empty: Bitboard, opponent_stones: Bitboard) -> Bitboard {
    empty - (empty | opponent_stones).neighbors()
}

/// Probability that the side that just moved wins, for a position where the side to move
/// still has a move: the mobility plus `eye_weight` per eye of difference, squashed by a
/// logistic of slope `params.eval_slope`. `legal` is both sides' legal sets.
#[inline]
pub fn value(position: &Position, legal: [Bitboard; 2], params: &Params) -> f32 {
    let to_move = position.to_move();
    let (mover, opponent) = (legal[(!to_move).index()], legal[to_move.index()]);
    let mut score = mobility(mover, opponent) as f32;
    if params.eye_weight != 0.0 {
        let empty = position.empty();
        let own_eyes = eyes(empty, position.stones(to_move)).count() as f32;
        let their_eyes = eyes(empty, position.stones(!to_move)).count() as f32;
        score += params.eye_weight * (own_eyes - their_eyes);
    }
    1.0 / (1.0 + (-params.eval_slope * score).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Color, Point};

    #[test]
    fn mobility_counts_exclusive_points() {
        // Black B9 and A8 make A9 black-only; white to move.
        let black =
            Bitboard::from(Point::from_xy(1, 0).unwrap()) | Bitboard::from(Point::from_xy(0, 1).unwrap());
        let p = Position::from_stones(black, Bitboard::EMPTY, Color::White).unwrap();
        let [b, w] = p.legal_both();
        assert_eq!(mobility(b, w), 1);
        assert_eq!(mobility(w, b), -1);
        let params = Params::default();
        assert!(value(&p, p.legal_both(), &params) > 0.5);
        let empty = Position::new();
        assert_eq!(value(&empty, empty.legal_both(), &params), 0.5);
    }

    #[test]
    fn eyes_are_empty_points_surrounded_by_one_colour() {
        let black =
            Bitboard::from(Point::from_xy(1, 0).unwrap()) | Bitboard::from(Point::from_xy(0, 1).unwrap());
        let p = Position::from_stones(black, Bitboard::EMPTY, Color::White).unwrap();
        assert_eq!(eyes(p.empty(), p.stones(Color::White)), Bitboard::from(Point::from_xy(0, 0).unwrap()));
        assert_eq!(eyes(p.empty(), p.stones(Color::Black)), Bitboard::EMPTY);
        let weighted = Params { eye_weight: 2.0, ..Params::default() };
        assert!(value(&p, p.legal_both(), &weighted) > value(&p, p.legal_both(), &Params::default()));
    }
}
