//! Players: how the judge asks a bot for a move, whatever the bot is. A player is made once
//! per game (from its spec), so dropping it ends the game for that player
//! (external processes are killed).

use crate::rules::{Point, Position};
use crate::search::engine::Proof;
use std::time::Duration;

/// A move as the player wrote it: any integers, checked by the judge against the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Column, 0-based from the left (Botzone's `x`) when on the board.
    pub x: i64,
    /// Row, 0-based from the top (Botzone's `y`) when on the board.
    pub y: i64,
}

impl From<Point> for Answer {
    fn from(p: Point) -> Answer {
        Answer { x: p.x().into(), y: p.y().into() }
    }
}

/// A turn that ended without a usable answer; the player loses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Which way the turn failed.
    pub kind: FaultKind,
    /// What exactly happened, for the record.
    pub detail: String,
}

/// The ways a turn can fail, as Botzone's judge tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// No complete answer within the time limit.
    Timeout,
    /// An answer, then neither the keep-running marker nor an exit within the time limit:
    /// Botzone counts it as a timeout.
    NoMarker,
    /// The process ended (or could not start) without answering.
    Crash,
    /// Output that is not a move in the expected format.
    Malformed,
    /// The player resigned (GTP `genmove` answered `resign`): no failure, but the turn has no
    /// move and the player loses all the same.
    Resign,
}

impl Fault {
    /// A fault of `kind`, `detail` saying what happened.
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Fault {
        Fault { kind, detail: detail.into() }
    }
}

/// What a turn produced, and how long the player took.
#[derive(Clone, Debug)]
pub struct Turn {
    /// The move answered, or why there is none.
    pub outcome: Result<Answer, Fault>,
    /// How long the turn took.
    pub elapsed: Duration,
    /// The result the player said its search proved for itself (`Unknown` when it said
    /// nothing, or cannot say).
    pub proof: Proof,
}

/// Anything that can play a game of NoGo under the judge.
pub trait Player: Send {
    /// Asks for a move in `position`, reached by `moves` from the empty board (the opening
    /// included), within `limit`. The player to move has a legal move.
    fn turn(&mut self, position: &Position, moves: &[Point], limit: Duration) -> Turn;
}
