//! What a tree search found, read the same way for both searches: the move to play, the
//! expected line, the root's children and the busiest nodes.

use crate::rules::point::MAX_POSITIONS;
use crate::rules::Point;
use crate::search::engine::{BusyNode, Proof};
use crate::search::tree::{NodeId, Stats, Tree};

/// The child of `id` to play: the first proven won for the side to move there; else the most
/// simulated of those not proven lost, ties to the better mean, then to the first made; else
/// (every child lost) the same among all. `None` when `id` has no children.
pub fn best_move<S: Stats>(tree: &Tree<S>, id: NodeId) -> Option<NodeId> {
    if let Some(win) = tree.children(id).find(|&c| tree.proof(c) == Proof::Win) {
        return Some(win);
    }
    let rank = |c: NodeId| {
        let stats = tree.stats(c);
        (tree.proof(c) != Proof::Loss, stats.visits(), stats.mean())
    };
    let mut children = tree.children(id);
    let first = children.next()?;
    Some(children.fold(first, |best, c| if rank(c) > rank(best) { c } else { best }))
}

/// The expected line from the root: the best move of each node down while it has children,
/// ending after a node no simulation went through.
pub fn principal_variation<S: Stats>(tree: &Tree<S>) -> Vec<Point> {
    best_move(tree, NodeId::ROOT).map_or_else(Vec::new, |first| line_from(tree, first))
}

/// The expected line from the root's child `first`: its move, then the best move of each
/// node down as in [`principal_variation`].
pub fn line_from<S: Stats>(tree: &Tree<S>, first: NodeId) -> Vec<Point> {
    let mut pv = Vec::new();
    let mut child = Some(first);
    while let Some(id) = child {
        pv.push(tree.point(id));
        if tree.stats(id).visits() == 0 || pv.len() == MAX_POSITIONS {
            break;
        }
        child = best_move(tree, id);
    }
    pv
}

/// The root's children with their simulations and mean for the side to move.
pub fn root_children<S: Stats>(tree: &Tree<S>) -> Vec<(Point, u32, f32)> {
    tree.children(NodeId::ROOT)
        .map(|c| (tree.point(c), tree.stats(c).visits(), tree.stats(c).mean()))
        .collect()
}

/// The nodes below the root that have children, depth first, entering only children
/// simulated at least `min_visits` times: the moves from the root to each, and its children's
/// simulations and means.
pub fn busy_nodes<S: Stats>(tree: &Tree<S>, min_visits: u32) -> Vec<BusyNode> {
    let mut found = Vec::new();
    let mut stack = vec![(NodeId::ROOT, Vec::new())];
    while let Some((id, line)) = stack.pop() {
        if id != NodeId::ROOT && tree.has_children(id) {
            let children = tree
                .children(id)
                .map(|c| (tree.point(c), tree.stats(c).visits(), tree.stats(c).mean()))
                .collect();
            found.push(BusyNode { line: line.clone(), children });
        }
        for child in tree.children(id).rev().filter(|&c| tree.stats(c).visits() >= min_visits) {
            let mut next = line.clone();
            next.push(tree.point(child));
            stack.push((child, next));
        }
    }
    found
}
