//! The rules of 9x9 NoGo, implemented once for the engine, the judge and the tests.
//!
//! A move may neither capture nor be suicide; the player left without a legal move loses.
//! [`Bitboard`] is a set of points, [`Position`] a validated position with both sides' legal
//! sets in closed form, [`stones::Stones`] the bare stones that playouts place, [`tactics`] the
//! decisive moves and eyes, [`Game`] a game in progress with its move list, [`symmetry`] the
//! board's eight symmetries.

pub mod bitboard;
pub mod game;
mod group_ids;
pub mod hash;
pub mod point;
pub mod position;
pub mod stones;
pub mod symmetry;
pub mod tactics;

pub use bitboard::Bitboard;
pub use game::{Game, GameResult};
pub use point::{Color, CoordError, Point};
pub use position::{HistoryError, MoveEffects, PlayError, Position, SetupError};

/// Plays a random game from the empty board, uniform among the legal moves until the side to
/// move has none, calling `on_move` with each move; returns the final position. The rules
/// benchmark, the examples and the tests draw their positions from it.
pub fn random_game(rng: &mut fastrand::Rng, mut on_move: impl FnMut(Point)) -> Position {
    let mut position = Position::new();
    loop {
        let legal = position.legal_moves();
        if legal.is_empty() {
            return position;
        }
        let p = legal.choose(rng).expect("a non-terminal position has a legal move");
        position.play_unchecked(p);
        on_move(p);
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    use super::{Bitboard, Point, Position};

    /// White stones on every other point, corners included: every empty point is a white eye.
    pub fn white_checkerboard() -> Bitboard {
        crate::bitboard! {
            . X . X . X . X .
            X . X . X . X . X
            . X . X . X . X .
            X . X . X . X . X
            . X . X . X . X .
            X . X . X . X . X
            . X . X . X . X .
            X . X . X . X . X
            . X . X . X . X .
        }
    }

    /// The position `moves` (Botzone `(x, y)`, legal) reach from the empty board.
    pub fn play_out(moves: &[(u8, u8)]) -> Position {
        Position::from_moves(moves.iter().map(|&(x, y)| Point::from_xy(x, y).unwrap())).unwrap()
    }

    /// Twenty positions met in seeded random games for which `keep` holds (the first such
    /// position of each game).
    pub fn random_positions(seed: u64, mut keep: impl FnMut(&Position) -> bool) -> Vec<Position> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut found = Vec::new();
        while found.len() < 20 {
            let mut position = Position::new();
            while !position.is_terminal() {
                if keep(&position) {
                    found.push(position.clone());
                    break;
                }
                position.play(position.legal_moves().choose(&mut rng).unwrap()).unwrap();
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_games_are_legal_and_end_when_the_side_to_move_has_no_move() {
        let mut rng = fastrand::Rng::with_seed(1);
        for _ in 0..50 {
            let mut moves = Vec::new();
            let end = random_game(&mut rng, |p| moves.push(p));
            assert!(end.is_terminal());
            assert_eq!(end.moves_played(), moves.len());
            assert_eq!(Position::from_moves(moves), Ok(end));
        }
    }
}
