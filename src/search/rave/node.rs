//! A node of the playout search: its simulations and all-moves-as-first simulations, from the
//! point of view of the player who made its move (the mover). A backup only counts; selection
//! computes each child's blend and exploration from the counts (`super::select`), for all of
//! a node's children at once.

use crate::search::engine::Proof;
use crate::search::tree::{Stats, Words};

/// A node's statistics, 16 bytes: selection reads four children a cache line.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(16))]
pub struct RaveStats {
    /// `w + w'`: the simulations through the node that the mover won, and the simulations
    /// through its parent in which the mover played this node's move later on (all moves as
    /// first) and won, with a prior of virtual ones; infinite once the node is proven (below
    /// every score when lost, above every score when won).
    pub sum: f32,
    /// `n + n'`: the simulations of both kinds, won or not.
    pub evidence: f32,
    /// `n`: the simulations through the node.
    pub visits: u32,
    /// `w`: those the mover won.
    pub wins: f32,
}

impl Stats for RaveStats {
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

    /// A proven node's sum becomes infinite: its blend, and so its score, is then above every
    /// other when won for its mover and below every other when lost.
    #[inline]
    fn prove(&mut self, proof: Proof) {
        match proof {
            Proof::Win => self.sum = f32::INFINITY,
            Proof::Loss => self.sum = f32::NEG_INFINITY,
            Proof::Unknown => {}
        }
    }
}

/// Simulations in which a side played a move later on, as counted for all moves as first:
/// laid out as a node's first two fields, which it adds to.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub struct AmafCount {
    /// Those the side won.
    pub won: f32,
    /// All of them.
    pub played: f32,
}

/// How a node's two means are blended: `(1 - beta) * mean + beta * rave_mean` with
/// `beta = n' / (n + n' + bias * n * n')`, `bias` being `4 b^2` (MC-RAVE).
#[derive(Clone, Copy, Debug)]
pub struct Blend {
    /// `4 b^2`.
    pub bias: f32,
}

// SAFETY: `repr(C, align(16))` of four 4-byte fields, f32 and u32, valid whatever their bits:
// two 8-byte words without padding.
unsafe impl Words for RaveStats {
    #[inline]
    fn add(&mut self, delta: &RaveStats) {
        self.sum += delta.sum;
        self.evidence += delta.evidence;
        self.visits += delta.visits;
        self.wins += delta.wins;
    }
}

impl RaveStats {
    /// A new node: `prior` virtual all-moves-as-first simulations won at the rate
    /// `prior_mean`.
    #[inline]
    pub fn new(prior: f32, prior_mean: f32) -> RaveStats {
        RaveStats { sum: prior * prior_mean, evidence: prior, ..RaveStats::default() }
    }

    /// Counts `simulations` entering the node. Until [`RaveStats::win`] counts their results
    /// they are losses for the mover: with threads, virtual losses that draw the others
    /// elsewhere.
    #[inline]
    pub fn visit(&mut self, simulations: u32) {
        self.visits += simulations;
        self.evidence += simulations as f32;
    }

    /// Counts `simulations` that [`RaveStats::visit`] counted as won by the mover.
    #[inline]
    pub fn win(&mut self, simulations: u32) {
        self.wins += simulations as f32;
        self.sum += simulations as f32;
    }

    /// Counts the simulations in which the mover played this move later on (`count`).
    #[inline]
    pub fn count_rave(&mut self, count: AmafCount) {
        self.sum += count.won;
        self.evidence += count.played;
    }

    /// The all-moves-as-first simulations, with the prior, and those won.
    #[inline]
    pub fn rave(&self) -> (f32, f32) {
        (self.evidence - self.visits as f32, self.sum - self.wins)
    }

    /// The blend of the two means (see `Blend`); with no bias, `(w + w') / (n + n')`.
    #[inline]
    pub fn value(&self, blend: Blend) -> f32 {
        if blend.bias == 0.0 {
            return self.sum / self.evidence;
        }
        let (rave_visits, rave_wins) = self.rave();
        if self.visits == 0 {
            return rave_wins / rave_visits;
        }
        let n = self.visits as f32;
        let rave_mean = rave_wins / rave_visits;
        let beta = rave_visits / (n + rave_visits + blend.bias * n * rave_visits);
        let mean = self.wins / n;
        mean + beta * (rave_mean - mean)
    }

    /// `sqrt(n) / (n + n')`: the exploration term's share, which shrinks as either kind of
    /// evidence grows.
    #[inline]
    pub fn exploration(&self) -> f32 {
        (self.visits as f32).sqrt() / self.evidence
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_blend_weighs_the_means_by_beta() {
        let blend = Blend { bias: 0.0 };
        let mut node = RaveStats::new(2.0, 0.5);
        node.count_rave(AmafCount { won: 2.0, played: 2.0 });
        assert_eq!(node.value(blend), 3.0 / 4.0, "before a visit, the all-moves-as-first mean");
        node.visit(1);
        // beta = 4 / (1 + 4): 0.8 of the rave mean 3/4, 0.2 of the mean 0.
        assert!((node.value(blend) - 0.6).abs() < 1e-6, "{}", node.value(blend));
        node.visit(1);
        // beta = 4 / (2 + 4 + 8) = 2/7: the mean 0 and the rave mean 3/4.
        let biased = Blend { bias: 1.0 };
        assert!((node.value(biased) - 3.0 / 14.0).abs() < 1e-6, "{}", node.value(biased));
        // Two simulations and four all-moves-as-first ones: sqrt(2) / 6.
        assert!((node.exploration() - 2f32.sqrt() / 6.0).abs() < 1e-6);
        assert_eq!((node.visits(), node.mean(), node.rave()), (2, 0.0, (4.0, 3.0)));
    }

    #[test]
    fn a_proven_node_scores_beyond_every_other_as_it_is_counted() {
        for (proof, value) in [(Proof::Win, f32::INFINITY), (Proof::Loss, f32::NEG_INFINITY)] {
            let mut node = RaveStats::new(20.0, 0.5);
            node.prove(proof);
            node.visit(1);
            node.win(1);
            node.count_rave(AmafCount { won: 0.0, played: 1.0 });
            for bias in [0.0, 1.0] {
                assert_eq!(node.value(Blend { bias }), value, "{proof:?}, bias {bias}");
            }
            assert!(node.exploration().is_finite());
            assert_eq!((node.visits(), node.mean()), (1, 1.0), "the statistics are still counted");
        }
    }
}
