//! Selection: the child to descend to, by its blend of its own mean and its all-moves-as-first
//! mean (MC-RAVE, Gelly and Silver 2011, kept up to date in each node) plus an exploration term.

use super::tree::{NodeId, Tree};
use crate::search::engine::Proof;
use crate::search::params::Params;

/// The child of `parent` (expanded, with children) with the best score for the side to move
/// there, `value + rave_exploration * sqrt(ln N / (n + 1))`: a child proven won at once;
/// children proven lost only when all are.
#[inline]
pub fn best_child(tree: &Tree, parent: NodeId, params: &Params) -> NodeId {
    let node = &tree[parent];
    let exploration = params.rave_exploration * ((node.visits() + 1) as f32).ln().sqrt();
    let mut best = None;
    let mut best_score = f32::NEG_INFINITY;
    for child in node.children() {
        let c = &tree[child];
        let score = match c.proof {
            Proof::Unknown => c.value() + exploration * c.inv_sqrt_visits(),
            Proof::Win => return child,
            Proof::Loss => f32::MIN,
        };
        if score > best_score || best.is_none() {
            best = Some(child);
            best_score = score;
        }
    }
    best.expect("an expanded node with children")
}
