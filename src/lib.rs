//! nogo: a 9x9 NoGo (不围棋) engine and Botzone bot.
//!
//! The rules live in [`bitboard`], [`point`] and [`position`]; everything else (the search,
//! the protocols, the judge and the tests) plays through this one implementation.

pub mod arena;
pub mod bench;
pub mod bitboard;
pub mod botzone;
pub mod cli;
pub mod endgame;
pub mod engine;
pub mod engines;
pub mod eval;
pub mod game;
pub mod gtp;
pub mod mcts;
pub mod params;
pub mod play;
pub mod point;
pub mod position;
pub mod sgf;
pub mod time;

pub use bitboard::Bitboard;
pub use point::{Color, Point};
pub use position::{HistoryError, PlayError, Position, SetupError};
