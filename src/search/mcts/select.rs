//! Selection: UCB among the children tried, the first of the highest scores, scanned in lanes
//! and remembered for busy nodes while no other child can have overtaken the one chosen.

use super::node::McStats;
use super::Mcts;
use crate::search::engine::Proof;
use crate::search::tree::{sqrt_ln, Links, NodeId};
use crate::search::walk::Walk;

/// The UCB score of a tried child: its mean plus `explore` times `1 / sqrt(visits)`; -1, below
/// every other score, when it is proven lost.
#[inline]
fn ucb(child: &McStats, links: &Links, explore: f32) -> f32 {
    let score = child.mean + explore * child.inv_sqrt_visits;
    if links.proof() == Proof::Loss {
        -1.0
    } else {
        score
    }
}

/// The children of a node as selection reads them: their statistics and links, in order.
#[derive(Clone, Copy)]
pub(super) struct Children<'a> {
    pub(super) stats: &'a [McStats],
    pub(super) links: &'a [Links],
}

impl Children<'_> {
    #[inline]
    fn len(&self) -> usize {
        self.stats.len()
    }

    #[inline]
    fn ucb(&self, i: usize, explore: f32) -> f32 {
        ucb(&self.stats[i], &self.links[i], explore)
    }
}

/// Lanes of [`best_by_ucb`]: independent running maxima, so that each comparison need not wait
/// for the one before (evidence: `docs/performance-log.md`, the four-lane selection).
const UCB_LANES: usize = 4;

/// Each lane's highest [`ucb`] score and the index of its first child with it (minus infinity
/// and 0 for an empty lane). Child `i` goes to lane `i % UCB_LANES`.
#[inline]
fn lane_bests(children: Children, explore: f32) -> ([f32; UCB_LANES], [usize; UCB_LANES]) {
    let mut best = [f32::NEG_INFINITY; UCB_LANES];
    let mut at = [0usize; UCB_LANES];
    let whole = children.len() - children.len() % UCB_LANES;
    // Written out for whole chunks and the rest: one loop taking `i % UCB_LANES` for both is
    // slower (`docs/performance-log.md`, the four-lane selection).
    for k in (0..whole).step_by(UCB_LANES) {
        for lane in 0..UCB_LANES {
            let score = children.ucb(k + lane, explore);
            if score > best[lane] {
                best[lane] = score;
                at[lane] = k + lane;
            }
        }
    }
    for (lane, i) in (whole..children.len()).enumerate() {
        let score = children.ucb(i, explore);
        if score > best[lane] {
            best[lane] = score;
            at[lane] = i;
        }
    }
    (best, at)
}

/// The lane holding the first of the highest scores: the highest, then the lowest index.
#[inline]
fn winning_lane(best: &[f32; UCB_LANES], at: &[usize; UCB_LANES]) -> usize {
    let mut winner = 0;
    for lane in 1..UCB_LANES {
        if best[lane] > best[winner] || (best[lane] == best[winner] && at[lane] < at[winner]) {
            winner = lane;
        }
    }
    winner
}

/// Below this many children a plain scan inlined in the selection beats the lanes' setup and
/// call (`docs/performance-log.md`, the plain scan of small nodes).
const LANED_CHILDREN: usize = 8;

/// The index in `children` of the highest [`ucb`] score, the first of equal scores (0 when
/// there are none): a plain scan of a few children, else of the lanes' first bests the
/// highest, then the lowest index.
#[inline]
pub(super) fn best_by_ucb(children: Children, explore: f32) -> usize {
    if children.len() < LANED_CHILDREN {
        let (mut best, mut best_score) = (0, f32::NEG_INFINITY);
        for i in 0..children.len() {
            let score = children.ucb(i, explore);
            if score > best_score {
                (best, best_score) = (i, score);
            }
        }
        return best;
    }
    let (best, at) = lane_bests(children, explore);
    at[winning_lane(&best, &at)]
}

/// [`best_by_ucb`], and the highest score of the other children (minus infinity when there
/// are none): the other lanes' bests, and the winning lane's other children scored again.
#[inline]
pub(super) fn best_and_runner_up(children: Children, explore: f32) -> (usize, f32) {
    let (best, at) = lane_bests(children, explore);
    let winner = winning_lane(&best, &at);
    let mut runner_up = f32::NEG_INFINITY;
    for lane in (0..UCB_LANES).filter(|&lane| lane != winner) {
        if best[lane] > runner_up {
            runner_up = best[lane];
        }
    }
    for i in (winner..children.len()).step_by(UCB_LANES) {
        let score = children.ucb(i, explore);
        if score > runner_up && i != at[winner] {
            runner_up = score;
        }
    }
    (at[winner], runner_up)
}

/// Slots of [`Mcts::choices`], a power of two: enough for the nodes busy at one time.
pub(super) const CHOICES: usize = 1 << 12;

/// Nodes with fewer tried children are always scanned: remembering saves little there.
const CHOICE_MIN_TRIED: usize = 8;

/// Slack for rounding in [`Choice`]'s bound: scores are below 2, each computed to within a
/// few units of 2^-24 of its exact value, so 1e-5 covers every rounding with room to spare.
const CHOICE_MARGIN: f32 = 1e-5;

/// A busy node's last full UCB scan. Until the node is next selected only the child chosen
/// changes, and every other child's score grows by at most the growth of `explore` (its
/// `1 / sqrt(visits)` is at most 1); while the chosen child still beats the runner-up's
/// score plus that growth, it is the first best again and the scan is skipped.
#[derive(Clone, Copy)]
pub(super) struct Choice {
    /// The node, `None` for an empty slot.
    node: Option<NodeId>,
    /// Its tried children then: a new one forces a scan.
    tried: u8,
    /// The child chosen, as an offset into the block.
    child: u8,
    explore: f32,
    runner_up: f32,
}

/// An empty slot of [`Mcts::choices`].
pub(super) const NO_CHOICE: Choice = Choice { node: None, tried: 0, child: 0, explore: 0.0, runner_up: 0.0 };

impl Mcts {
    /// The child to descend into from the visited node at the end of `path`: the next untried
    /// child while there is one (and room for it), else the best tried child by UCB among
    /// those not proven lost. `None` when a child is needed and the arena is full.
    #[inline]
    pub(super) fn select(&mut self, path: &[NodeId], walk: &mut Walk) -> Option<NodeId> {
        let id = *path.last().expect("a path holds the root");
        let tree = &self.core.tree;
        let (stats, tried) = (*tree.stats(id), tree.child_count(id));
        // Progressive widening: a node visited n times may have ceil(w * sqrt(n)) children,
        // that is, one more while fewer than w * sqrt(n) are tried.
        let widest = self.core.params.widening * (stats.visits as f32).sqrt();
        if tried < stats.legal as usize && (tried as f32) < widest {
            let position = walk.to(tree, path);
            if let Some(child) = self.try_next(id, position, path.len() - 1) {
                if let Some(solver) = &self.core.solver {
                    // The new node's position is looked up in the solver's table (`known_proof`).
                    solver.prefetch(position.hash_after(self.core.tree.point(child)));
                }
                return Some(child);
            }
        }
        let tree = &self.core.tree;
        let explore = self.core.params.exploration * sqrt_ln(stats.visits);
        if tried == 0 {
            return None;
        }
        let children = Children { stats: tree.child_stats(id), links: tree.child_links(id) };
        if tried < CHOICE_MIN_TRIED {
            return Some(tree.child_at(id, best_by_ucb(children, explore)));
        }
        let slot = &mut self.choices[id.index() & (CHOICES - 1)];
        if slot.node == Some(id) && slot.tried as usize == tried && explore >= slot.explore {
            let bound = slot.runner_up + (explore - slot.explore) + CHOICE_MARGIN;
            let child = slot.child as usize;
            if children.ucb(child, explore) > bound {
                debug_assert_eq!(best_by_ucb(children, explore), child, "a remembered choice");
                return Some(tree.child_at(id, child));
            }
        }
        let (best, runner_up) = best_and_runner_up(children, explore);
        *slot = Choice { node: Some(id), tried: tried as u8, child: best as u8, explore, runner_up };
        Some(tree.child_at(id, best))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_by_ucb_is_the_first_highest_score() {
        // Children of every count up to 81, with scores often tied (few distinct means and
        // visits) and some proven lost, against the plain scan for the first maximum.
        let mut rng = fastrand::Rng::with_seed(3);
        for _ in 0..2000 {
            let count = rng.usize(0..=81);
            let mut stats = Vec::new();
            let mut links = Vec::new();
            for _ in 0..count {
                let mut node = McStats { mean: rng.u8(0..4) as f32 / 4.0, ..McStats::default() };
                for _ in 0..rng.u32(1..4) {
                    node.update(node.mean);
                }
                stats.push(node);
                let proof = match rng.u8(0..16) {
                    0 => Proof::Loss,
                    1 => Proof::Win,
                    _ => Proof::Unknown,
                };
                links.push(Links::with_proof(proof));
            }
            let children = Children { stats: &stats, links: &links };
            let explore = rng.f32() * 0.3;
            let mut first_best = 0;
            for i in 0..count {
                if children.ucb(i, explore) > children.ucb(first_best, explore) {
                    first_best = i;
                }
            }
            assert_eq!(best_by_ucb(children, explore), first_best, "{count} children");
            let others = (0..count).filter(|&i| i != first_best);
            let runner_up = others.map(|i| children.ucb(i, explore)).fold(f32::NEG_INFINITY, f32::max);
            assert_eq!(best_and_runner_up(children, explore), (first_best, runner_up), "{count} children");
        }
    }
}
