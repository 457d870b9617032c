//! The tools around the bot: the arena (a local judge for matches), the terminal game, the
//! fixed-iteration bench, self-play games as training data, the board in the browser, and SPSA tuning.

pub mod arena;
pub mod bench;
pub mod book;
pub mod play;
pub mod selfplay;
pub mod serve;
pub mod tune;
