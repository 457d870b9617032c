//! The tools around the bot: the arena (a local judge for matches), the terminal game, the
//! fixed-iteration bench, and self-play games as training data.

pub mod arena;
pub mod bench;
pub mod play;
pub mod selfplay;
