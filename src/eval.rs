//! Leaf evaluation: scores a position without playing it out.

use crate::position::Position;

/// The seed bot's mobility: points only the side that just moved may play, minus points only
/// the side to move may play. Also returns whether the side to move has no legal move.
#[inline]
pub fn mobility(position: &Position) -> (i32, bool) {
    let to_move = position.to_move().index();
    let legal = position.legal_both();
    let (mover, opponent) = (legal[1 - to_move], legal[to_move]);
    let score = (mover - opponent).count() as i32 - (opponent - mover).count() as i32;
    (score, opponent.is_empty())
}

/// Probability that the side that just moved wins, from the mobility squashed by a logistic
/// of slope `slope`; exactly 1 when the side to move has no legal move.
#[inline]
pub fn value(position: &Position, slope: f32) -> f32 {
    let (score, terminal) = mobility(position);
    if terminal {
        1.0
    } else {
        1.0 / (1.0 + (-slope * score as f32).exp())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bitboard, Color, Point};

    #[test]
    fn mobility_counts_exclusive_points() {
        // Black B9 and A8 make A9 black-only; white to move.
        let black =
            Bitboard::from(Point::from_xy(1, 0).unwrap()) | Bitboard::from(Point::from_xy(0, 1).unwrap());
        let p = Position::from_stones(black, Bitboard::EMPTY, Color::White).unwrap();
        assert_eq!(mobility(&p), (1, false));
        assert!(value(&p, 0.4) > 0.5);
        assert_eq!(mobility(&Position::new()), (0, false));
        assert_eq!(value(&Position::new(), 0.4), 0.5);
    }

    #[test]
    fn terminal_is_a_certain_win_for_the_mover() {
        let white = Bitboard::FULL
            - Bitboard::from(Point::from_xy(0, 0).unwrap())
            - Bitboard::from(Point::from_xy(1, 0).unwrap());
        let black = Bitboard::from(Point::from_xy(1, 0).unwrap());
        let p = Position::from_stones(black, white, Color::Black).unwrap();
        assert!(p.is_terminal());
        assert_eq!(value(&p, 0.4), 1.0);
    }
}
