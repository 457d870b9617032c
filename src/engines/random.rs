//! Uniformly random among legal moves.

use crate::rules::position::Position;
use crate::search::engine::{Budget, Engine, Report};
use std::time::Instant;

/// Plays a uniformly random legal move.
pub struct RandomEngine {
    rng: fastrand::Rng,
}

impl RandomEngine {
    /// An engine whose choices are drawn from `seed`.
    pub fn new(seed: u64) -> RandomEngine {
        RandomEngine { rng: fastrand::Rng::with_seed(seed) }
    }
}

impl Engine for RandomEngine {
    fn name(&self) -> &'static str {
        "random"
    }

    fn think(&mut self, position: &Position, _budget: &Budget) -> Report {
        let started = Instant::now();
        let legal = position.legal_moves();
        let best = legal.choose(&mut self.rng).expect("a non-terminal position");
        Report::instant(best, 0.5, started)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_only_legal_moves_and_uses_all_of_them() {
        let mut engine = RandomEngine::new(1);
        let mut position = Position::new();
        let mut seen = crate::Bitboard::EMPTY;
        for _ in 0..2000 {
            let report = engine.think(&position, &Budget::default());
            seen |= crate::Bitboard::from(report.best);
        }
        assert_eq!(seen, position.legal_moves(), "every legal move is reachable");
        while !position.is_terminal() {
            let report = engine.think(&position, &Budget::default());
            position.play(report.best).expect("random plays legal moves");
        }
    }
}
