//! Choosing a move: the engine interface, the leaf evaluation, the policy network, the tree search, the exact
//! endgame solver, the tunable parameters and time management.

pub mod analysis;
pub mod driver;
pub mod endgame;
pub mod engine;
pub mod eval;
pub mod mcts;
pub mod params;
pub mod playout;
pub mod policy;
pub mod rave;
pub mod time;
pub mod tree;
pub mod walk;

pub use endgame::Solver;
pub use engine::{Budget, Engine, Proof, Report};
pub use mcts::Mcts;
pub use params::Params;
pub use rave::Rave;
