//! The playout search on two threads, each growing a tree of its own from the same root (root
//! parallelization, Chaslot, Winands and van den Herik 2008): the threads share nothing while
//! they search, so each runs at one thread's speed. At the end the other tree's root children
//! are added to this tree's (their simulations, and their proofs), so that the move and the
//! analysis are read off this tree as on one thread; the additions are taken back before this
//! tree searches again.

use super::backup::Step;
use super::{proofs, Rave, RaveStats};
use crate::rules::{Bitboard, Point, Position};
use crate::search::driver::{prepare, run_serial};
use crate::search::engine::{Budget, Proof};
use crate::search::params::Params;
use crate::search::tree::{NodeId, Tree, Words};

/// What this tree's root and its children held before the other tree's were added, at the
/// position searched.
pub(super) struct Added {
    root: Position,
    root_stats: RaveStats,
    children: Vec<(Point, RaveStats)>,
}

/// The other thread's search: one thread's, on its own tree, from a seed of its own.
pub(super) fn other_search(params: &Params, seed: u64) -> Rave {
    Rave::new(Params { threads: 1, ..*params }, seed ^ 0x9e37_79b9_7f4a_7c15)
}

/// Runs simulations of `search`, prepared for `position`, and of `other` on its own tree on a
/// second thread, each half of a budget of simulations; adds the other's root children to the
/// search's tree: how many simulations ran.
pub(super) fn run(search: &mut Rave, other: &mut Rave, position: &Position, budget: &Budget) -> u64 {
    other.short = search.short;
    other.core.leaf_clock = search.core.leaf_clock.fork();
    let (mut this_budget, mut other_budget) = (*budget, *budget);
    if let Some(nodes) = budget.nodes {
        (this_budget.nodes, other_budget.nodes) = (Some(nodes - nodes / 2), Some(nodes / 2));
    }
    let simulations = std::thread::scope(|scope| {
        // The other tree keeps its subtree of `position` there, at once with this one's search.
        let others = scope.spawn(|| {
            prepare(other, position);
            run_serial(other, position, &other_budget)
        });
        run_serial(search, position, &this_budget) + others.join().expect("the other search ends")
    });
    search.core.leaf_clock.add(&other.core.leaf_clock);
    search.added = add(&mut search.core.tree, &other.core.tree, position);
    simulations
}

/// Adds the statistics and proofs of `other`'s root children to those of the same moves in
/// `tree`, and its root's simulations to the root's: what they were before, if the
/// root has children.
fn add(tree: &mut Tree<RaveStats>, other: &Tree<RaveStats>, position: &Position) -> Option<Added> {
    if !tree.has_children(NodeId::ROOT) {
        return None;
    }
    let mut added =
        Added { root: position.clone(), root_stats: *tree.stats(NodeId::ROOT), children: Vec::new() };
    tree.stats_mut(NodeId::ROOT).add(other.stats(NodeId::ROOT));
    for theirs in other.children(NodeId::ROOT) {
        let Some(child) = tree.child(NodeId::ROOT, other.point(theirs)) else { continue };
        added.children.push((other.point(theirs), *tree.stats(child)));
        tree.stats_mut(child).add(other.stats(theirs));
        // Marks a proven child's statistics again, whichever tree proved it.
        let proof = match other.proof(theirs) {
            Proof::Unknown => tree.proof(child),
            proof => proof,
        };
        tree.set_proof(child, proof);
        let step = |id| Step { id, moves: Bitboard::EMPTY };
        proofs::prove_up(tree, &[step(NodeId::ROOT), step(child)]);
    }
    Some(added)
}

/// Takes back what [`add`] added to `tree`, now rooted at `position`: at the same root, the
/// root's and its children's statistics as they were; at the child of one move played since,
/// that child's (now the root's). Proofs stay: they hold whoever found them.
pub(super) fn take_back(tree: &mut Tree<RaveStats>, added: Added, position: &Position) {
    let restore = |tree: &mut Tree<RaveStats>, id: NodeId, stats: RaveStats| {
        *tree.stats_mut(id) = stats;
        tree.set_proof(id, tree.proof(id));
    };
    if added.root == *position {
        restore(tree, NodeId::ROOT, added.root_stats);
        for (point, stats) in added.children {
            let child = tree.child(NodeId::ROOT, point).expect("the root's children stay");
            restore(tree, child, stats);
        }
    } else if let Some(&(_, stats)) = added.children.iter().find(|&&(point, _)| {
        let mut after = added.root.clone();
        after.play(point).is_ok() && after == *position
    }) {
        restore(tree, NodeId::ROOT, stats);
    }
}
