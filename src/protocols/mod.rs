//! How the engine talks to the world: Botzone's protocols (the bot), GTP (Go software), and
//! SGF game records.

pub mod botzone;
pub mod gtp;
pub mod sgf;
