//! The tools around the bot: the arena (a local judge for matches), the terminal game, and
//! the fixed-iteration bench.

pub mod arena;
pub mod bench;
pub mod play;
