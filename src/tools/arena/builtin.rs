//! A built-in engine as a player, searching in the arena's process.

use super::player::{Answer, Fault, FaultKind, Player, Turn};
use crate::rules::{Point, Position};
use crate::search::engine::{Budget, Engine};
use crate::search::time;
use std::time::{Duration, Instant};

/// A built-in engine, given the same clock as the bot: the deadline the bot would set itself
/// for the turn's limit.
pub struct BuiltinPlayer {
    engine: Box<dyn Engine>,
}

impl BuiltinPlayer {
    /// The player that moves with `engine`.
    pub fn new(engine: Box<dyn Engine>) -> BuiltinPlayer {
        BuiltinPlayer { engine }
    }
}

impl Player for BuiltinPlayer {
    fn turn(&mut self, position: &Position, _moves: &[Point], limit: Duration) -> Turn {
        let start = Instant::now();
        let report = self.engine.think(position, &Budget::until(time::deadline(start, limit)));
        let elapsed = start.elapsed();
        let outcome = if elapsed > limit {
            Err(Fault::new(FaultKind::Timeout, format!("answered after {} ms", elapsed.as_millis())))
        } else {
            Ok(Answer::from(report.best))
        };
        Turn { outcome, elapsed, proof: report.proof }
    }
}
