//! Selection: the child to descend to, by its blend of its own mean and its all-moves-as-first
//! mean (MC-RAVE, Gelly and Silver 2011, kept up to date in each child's [`Score`]) plus an
//! exploration term weighted, as in HaHaNoGo, by the child's own share of its evidence.

use super::node::{RaveStats, Score};
use crate::search::params::Params;
use crate::search::tree::{NodeId, Stats, Tree};

/// The child of `parent` (with children) with the best score for the side to move there,
/// `value + rave_exploration * sqrt(ln N * n) / (n + n')` (`n` its simulations, `n'` its
/// all-moves-as-first ones, `N` the parent's simulations), the first of equal scores: a child
/// proven won before any other; children proven lost only when all are.
#[inline]
pub fn best_child(tree: &Tree<RaveStats>, parent: NodeId, params: &Params) -> NodeId {
    let visits = tree.stats(parent).visits();
    let exploration = params.rave_exploration * ((visits + 1) as f32).ln().sqrt();
    tree.child_at(parent, first_best(tree.child_scores(parent), exploration))
}

/// The index of the first of the highest `value + exploration * explore` in `scores`.
#[inline]
fn first_best(scores: &[Score], exploration: f32) -> usize {
    let mut best = 0;
    let mut best_score = f32::NEG_INFINITY;
    for (i, s) in scores.iter().enumerate() {
        let score = s.value + exploration * s.explore;
        if score > best_score {
            best = i;
            best_score = score;
        }
    }
    best
}
