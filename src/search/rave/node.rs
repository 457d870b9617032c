//! A node of the playout search: its simulations and all-moves-as-first simulations, from the
//! point of view of the player who made its move (the mover), and the score selection reads,
//! kept up to date by every update.

use crate::search::engine::Proof;
use crate::search::tree::Stats;

/// A node's statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RaveStats {
    /// Simulations through this node.
    visits: u32,
    /// Those the mover won.
    wins: f32,
    /// Simulations through the parent in which the mover played this node's move later on
    /// (all moves as first), with a prior of virtual ones.
    rave_visits: f32,
    /// Those the mover won.
    rave_wins: f32,
}

/// What selection reads of a child: its value and its share of the exploration term. A
/// proven child's value is above every other score when it is won for its mover (the side
/// to move at the parent) and below every other when it is lost, with no exploration.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Score {
    /// The blend of the child's two means (see [`Blend`]).
    pub value: f32,
    /// `sqrt(n) / (n + n')`, `n` the simulations and `n'` the all-moves-as-first ones: the
    /// exploration term's share, which shrinks as either kind of evidence grows.
    pub explore: f32,
}

impl Score {
    /// Whether the score holds a proof rather than statistics.
    #[inline]
    fn is_proven(&self) -> bool {
        self.value.abs() > 1.0
    }
}

impl Stats for RaveStats {
    type Score = Score;

    #[inline]
    fn visits(&self) -> u32 {
        self.visits
    }

    /// The mover's share of wins, 0.5 before any visit.
    #[inline]
    fn mean(&self) -> f32 {
        if self.visits == 0 {
            0.5
        } else {
            self.wins / self.visits as f32
        }
    }

    #[inline]
    fn prove_score(score: &mut Score, proof: Proof) {
        let value = match proof {
            Proof::Win => f32::MAX,
            Proof::Loss => f32::MIN,
            Proof::Unknown => return,
        };
        *score = Score { value, explore: 0.0 };
    }
}

/// How a node's two means are blended: `(1 - beta) * mean + beta * rave_mean` with
/// `beta = n' / (n + n' + bias * n * n')`, `bias` being `4 b^2` (MC-RAVE).
#[derive(Clone, Copy, Debug)]
pub struct Blend {
    /// `4 b^2`.
    pub bias: f32,
}

impl RaveStats {
    /// A new node's statistics and score: `prior` virtual all-moves-as-first simulations won
    /// at the rate `prior_mean`.
    pub fn new(prior: f32, prior_mean: f32) -> (RaveStats, Score) {
        let stats = RaveStats { visits: 0, wins: 0.0, rave_visits: prior, rave_wins: prior * prior_mean };
        (stats, Score { value: prior_mean, explore: 0.0 })
    }

    /// Counts a simulation through the node, won by the mover or not.
    #[inline]
    pub fn count(&mut self, score: &mut Score, won: bool, blend: Blend) {
        self.visits += 1;
        self.wins += won as u32 as f32;
        self.rescore(score, blend);
    }

    /// Counts a simulation in which the mover played this move later on, won or not.
    #[inline]
    pub fn count_rave(&mut self, score: &mut Score, won: bool, blend: Blend) {
        self.rave_visits += 1.0;
        self.rave_wins += won as u32 as f32;
        self.rescore(score, blend);
    }

    #[inline]
    fn rescore(&self, score: &mut Score, blend: Blend) {
        if score.is_proven() {
            return;
        }
        let n = self.visits as f32;
        let inv_evidence = (n + self.rave_visits).recip();
        score.explore = n.sqrt() * inv_evidence;
        score.value = if blend.bias == 0.0 {
            // beta = n' / (n + n'): the two kinds of simulation counted alike, one division.
            (self.wins + self.rave_wins) * inv_evidence
        } else if self.visits == 0 {
            self.rave_wins / self.rave_visits
        } else {
            let rave_mean = self.rave_wins / self.rave_visits;
            let beta = self.rave_visits / (n + self.rave_visits + blend.bias * n * self.rave_visits);
            let mean = self.wins / n;
            mean + beta * (rave_mean - mean)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_blend_weighs_the_means_by_beta() {
        let blend = Blend { bias: 0.0 };
        let (mut node, mut score) = RaveStats::new(2.0, 0.5);
        node.count_rave(&mut score, true, blend);
        node.count_rave(&mut score, true, blend);
        assert_eq!(score.value, 3.0 / 4.0, "before a visit, the all-moves-as-first mean");
        node.count(&mut score, false, blend);
        // beta = 4 / (1 + 4): 0.8 of the rave mean 3/4, 0.2 of the mean 0.
        assert!((score.value - 0.6).abs() < 1e-6, "{}", score.value);
        let biased = Blend { bias: 1.0 };
        node.count(&mut score, false, biased);
        // beta = 4 / (2 + 4 + 8) = 2/7: the mean 0 and the rave mean 3/4.
        assert!((score.value - 3.0 / 14.0).abs() < 1e-6, "{}", score.value);
        // Two simulations and four all-moves-as-first ones: sqrt(2) / 6.
        assert!((score.explore - 2f32.sqrt() / 6.0).abs() < 1e-6);
        assert_eq!((node.visits(), node.mean()), (2, 0.0));
    }

    #[test]
    fn a_proven_score_stays_proven_as_the_node_is_counted() {
        let blend = Blend { bias: 0.0 };
        for (proof, value) in [(Proof::Win, f32::MAX), (Proof::Loss, f32::MIN)] {
            let (mut node, mut score) = RaveStats::new(20.0, 0.5);
            RaveStats::prove_score(&mut score, proof);
            node.count(&mut score, true, blend);
            node.count_rave(&mut score, false, blend);
            assert_eq!(score, Score { value, explore: 0.0 });
            assert_eq!((node.visits(), node.mean()), (1, 1.0), "the statistics are still counted");
        }
    }
}
