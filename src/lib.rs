//! nogo: a 9x9 NoGo (不围棋) engine and Botzone bot.
//!
//! The modules follow the data's way through the program:
//! [`rules`] (bitboards, points, positions) -> [`search`] (evaluation, policy network, tree search, endgame
//! solver, parameters, time) -> [`engines`] (the registry of move choosers) -> [`protocols`]
//! (Botzone, GTP, SGF) -> [`tools`] (arena, terminal game, bench). Each layer uses only the
//! layers before it; one implementation of the rules serves the engine, the judge and the tests.

pub mod cli;
pub mod engines;
pub mod protocols;
pub mod rules;
pub mod search;
pub mod tools;

pub use engines::{EngineArgs, EngineKind};
pub use rules::{Bitboard, Color, Game, HistoryError, PlayError, Point, Position, SetupError};
pub use search::{Budget, Engine, Mcts, Params, Proof, Rave, Report, Solver};
