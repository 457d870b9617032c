//! What a search found: the move to play, the expected line, and the root's children and the
//! busiest nodes for analysis views and self-play.

use super::tree::{NodeId, Tree};
use crate::rules::point::MAX_POSITIONS;
use crate::rules::Point;
use crate::search::engine::{BusyNode, Proof};

/// The child of `id` to play: one proven won for the side to move there, else the most
/// simulated not proven lost (ties to the better mean), else the most simulated.
pub fn best_move(tree: &Tree, id: NodeId) -> Option<NodeId> {
    let node = &tree[id];
    if let Some(win) = node.children().find(|&c| tree[c].proof == Proof::Win) {
        return Some(win);
    }
    let rank = |c: NodeId| {
        let child = &tree[c];
        (child.proof != Proof::Loss, child.visits(), (child.mean() * 1e6) as u32)
    };
    node.children().max_by_key(|&c| rank(c))
}

/// The expected line from the root: the best move of each node down while it has one.
pub fn principal_variation(tree: &Tree) -> Vec<Point> {
    let mut pv = Vec::new();
    let mut id = NodeId::ROOT;
    while let Some(child) = tree[id].is_expanded().then(|| best_move(tree, id)).flatten() {
        pv.push(tree[child].point());
        if tree[child].visits() == 0 || pv.len() == MAX_POSITIONS {
            break;
        }
        id = child;
    }
    pv
}

/// The root's children with their simulations and mean for the side to move (the tree holds a
/// search).
pub fn root_children(tree: &Tree) -> Vec<(Point, u32, f32)> {
    tree[NodeId::ROOT].children().map(|c| (tree[c].point(), tree[c].visits(), tree[c].mean())).collect()
}

/// The expanded nodes below the root simulated at least `min_visits` times, depth first, with
/// the moves that lead to each and its children's simulations (the tree holds a search).
pub fn busy_nodes(tree: &Tree, min_visits: u32) -> Vec<BusyNode> {
    BusyNode::below(NodeId::ROOT, min_visits, |id| {
        tree[id].children().map(|c| (c, tree[c].point(), tree[c].visits())).collect()
    })
}
