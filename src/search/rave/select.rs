//! Selection: the child to descend to, by its blend of its own mean and its all-moves-as-first
//! mean (MC-RAVE, Gelly and Silver 2011, kept up to date in each node) plus an exploration term
//! weighted, as in HaHaNoGo, by the child's own share of its evidence.

use super::tree::{Node, NodeId, Tree};
use crate::search::engine::Proof;
use crate::search::params::Params;

/// The child of `parent` (expanded, with children) with the best score for the side to move
/// there, `value + rave_exploration * sqrt(ln N * n) / (n + n')` (`n` its simulations, `n'` its
/// all-moves-as-first ones, `N` the parent's simulations): a child proven won at once;
/// children proven lost only when all are.
#[inline]
pub fn best_child(tree: &Tree, parent: NodeId, params: &Params) -> NodeId {
    let node = &tree[parent];
    if params.rave_exploration == 0.0 {
        return best_by(tree, node.children(), |c| c.value());
    }
    let exploration = params.rave_exploration * ((node.visits() + 1) as f32).ln().sqrt();
    best_by(tree, node.children(), |c| c.value() + exploration * c.exploration())
}

/// The child of `children` with the best `score`, read as above.
#[inline(always)]
fn best_by(tree: &Tree, children: impl Iterator<Item = NodeId>, score: impl Fn(&Node) -> f32) -> NodeId {
    let mut best = None;
    let mut best_score = f32::NEG_INFINITY;
    for child in children {
        let c = &tree[child];
        let score = match c.proof {
            Proof::Unknown => score(c),
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
