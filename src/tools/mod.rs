//! The tools around the bot: the arena (a local judge for matches), the terminal game, the
//! fixed-iteration bench, self-play games as training data, and the board in the browser.

pub mod arena;
pub mod bench;
pub mod book;
pub mod play;
pub mod selfplay;
pub mod serve;
