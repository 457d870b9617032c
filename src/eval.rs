//! Leaf evaluation: scores a position without playing it out.

use crate::bitboard::Bitboard;

/// The seed bot's mobility: points only the side that just moved may play, minus points only
/// the side to move may play, given the two sides' legal sets.
#[inline]
pub fn mobility(mover: Bitboard, to_move: Bitboard) -> i32 {
    (mover - to_move).count() as i32 - (to_move - mover).count() as i32
}

/// Probability that the side that just moved wins: the mobility squashed by a logistic of
/// slope `slope`. For positions where the side to move still has a move.
#[inline]
pub fn value(mover: Bitboard, to_move: Bitboard, slope: f32) -> f32 {
    1.0 / (1.0 + (-slope * mobility(mover, to_move) as f32).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Color, Point, Position};

    #[test]
    fn mobility_counts_exclusive_points() {
        // Black B9 and A8 make A9 black-only; white to move.
        let black =
            Bitboard::from(Point::from_xy(1, 0).unwrap()) | Bitboard::from(Point::from_xy(0, 1).unwrap());
        let p = Position::from_stones(black, Bitboard::EMPTY, Color::White).unwrap();
        let [b, w] = p.legal_both();
        assert_eq!(mobility(b, w), 1);
        assert_eq!(mobility(w, b), -1);
        assert!(value(b, w, 0.4) > 0.5);
        assert_eq!(value(Bitboard::FULL, Bitboard::FULL, 0.4), 0.5);
    }
}
