//! The playout search on two threads, each growing a tree of its own from the same root (root
//! parallelization, Chaslot, Winands and van den Herik 2008): the threads share nothing while
//! they search, so each runs at one thread's speed. The search runs in rounds: after the
//! first, one tree deepens the move surest so far and the other searches the rest, so that
//! the move likely played is read deeper than either tree alone reads it. At the end the other
//! tree's root children are added to this tree's (their simulations, and their proofs), so that
//! the move and the analysis are read off this tree as on one thread; the additions are taken
//! back before this tree searches again.

use super::backup::Step;
use super::select::RootRule;
use super::{proofs, Rave, RaveStats};
use crate::rules::point::MAX_MOVES;
use crate::rules::{Bitboard, Point, Position};
use crate::search::driver::{self, prepare, run_serial};
use crate::search::engine::{Budget, Proof};
use crate::search::params::Params;
use crate::search::tree::{NodeId, Tree, Words};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// What this tree's root and its children held before the other tree's were added, at the
/// position searched.
pub(super) struct Added {
    root: Position,
    root_stats: RaveStats,
    pub(super) children: Vec<(Point, RaveStats)>,
}

/// The other thread's search: one thread's, on its own tree, from a seed of its own.
pub(super) fn other_search(params: &Params, seed: u64) -> Rave {
    Rave::new(Params { threads: 1, ..*params }, seed ^ 0x9e37_79b9_7f4a_7c15)
}

/// Simulations of a round when the budget has neither a clock nor a number of simulations.
const UNBOUNDED_ROUND: u64 = 16_384;

/// Simulations a tree takes at a time from a later round's count, which both trees draw on so
/// that the faster runs more of it and neither waits long for the other at the round's end.
const DRAW: u64 = 128;

/// Runs simulations of `search`, prepared for `position`, and of `other` on its own tree on a
/// second thread, in [`Params::rave_focus_rounds`] rounds that split the budget evenly: the
/// first round each tree searches freely, half its simulations each (so that for a seed the
/// move focused on is the same every run); in each later one this tree deepens only the move
/// of [`surest`] and the other searches the rest, both drawing on the round's simulations.
/// Adds the other's root children to this tree's: how many simulations ran.
pub(super) fn run(search: &mut Rave, other: &mut Rave, position: &Position, budget: &Budget) -> u64 {
    other.short = search.short;
    other.core.leaf_clock = search.core.leaf_clock.fork();
    let rounds = u64::from(search.core.params.rave_focus_rounds.max(1));
    let mut simulations = 0;
    for round in 0.. {
        let rounds_left = rounds.saturating_sub(round).max(1);
        let (mut this_budget, mut other_budget) = (*budget, *budget);
        if let Some(deadline) = budget.deadline {
            let left = deadline.saturating_duration_since(Instant::now());
            let end = Some(deadline - (left - left / rounds_left as u32));
            (this_budget.deadline, other_budget.deadline) = (end, end);
        }
        let round_nodes = match budget.nodes {
            Some(nodes) => Some((nodes - simulations).div_ceil(rounds_left)),
            None => budget.deadline.is_none().then_some(UNBOUNDED_ROUND),
        };
        let count = AtomicU64::new(round_nodes.unwrap_or(0));
        let shared = match round_nodes {
            Some(nodes) if round == 0 => {
                (this_budget.nodes, other_budget.nodes) = (Some(nodes - nodes / 2), Some(nodes / 2));
                None
            }
            Some(_) => Some(&count),
            None => None,
        };
        let ran = std::thread::scope(|scope| {
            // The other tree keeps its subtree of `position` there, at once with this one's search.
            let others = scope.spawn(|| {
                if round == 0 {
                    prepare(other, position);
                }
                run_round(other, position, &other_budget, shared, budget)
            });
            run_round(search, position, &this_budget, shared, budget)
                + others.join().expect("the other search ends")
        });
        simulations += ran;
        let (tree, other_tree) = (&search.core.tree, &other.core.tree);
        let proven = tree.proof(NodeId::ROOT).is_known() || other_tree.proof(NodeId::ROOT).is_known();
        if ran == 0 || proven || budget.expired() || budget.nodes.is_some_and(|nodes| simulations >= nodes) {
            break;
        }
        let focus = if rounds > 1 { surest(tree, Some(other_tree)) } else { None };
        (search.root_rule, other.root_rule) = match focus.map(|child| tree.point(child)) {
            Some(point) => (RootRule::Only(point), RootRule::Not(point)),
            None => (RootRule::Free, RootRule::Free),
        };
    }
    (search.root_rule, other.root_rule) = (RootRule::Free, RootRule::Free);
    search.core.leaf_clock.add(&other.core.leaf_clock);
    search.added = add(&mut search.core.tree, &other.core.tree, position);
    simulations
}

/// Runs simulations of `search`, prepared for `position`, for a `round` of the move's budget
/// `whole`, [`DRAW`] at a time from the `shared` count where there is one: how many. What a
/// draw did not run (the root proven, the time out) goes back to the count for the other tree.
fn run_round(
    search: &mut Rave,
    position: &Position,
    round: &Budget,
    shared: Option<&AtomicU64>,
    whole: &Budget,
) -> u64 {
    let Some(left) = shared else { return run_part(search, position, round, whole) };
    let mut ran = 0;
    while let Ok(before) =
        left.fetch_update(Relaxed, Relaxed, |left| (left > 0).then(|| left.saturating_sub(DRAW)))
    {
        let draw = before.min(DRAW);
        let part = run_part(search, position, &Budget { nodes: Some(draw), ..*round }, whole);
        ran += part;
        if part < draw {
            left.fetch_add(draw - part, Relaxed);
            break;
        }
    }
    ran
}

/// Runs simulations of `search`, prepared for `position`, for a part of a round of the move's
/// budget `whole`: how many. A tree full within it is pruned while `whole` leaves time for it
/// (a round is too short to judge that), and the part goes on.
fn run_part(search: &mut Rave, position: &Position, round: &Budget, whole: &Budget) -> u64 {
    let mut ran = 0;
    while driver::make_room(search, position, whole) {
        ran +=
            run_serial(search, position, &Budget { nodes: round.nodes.map(|nodes| nodes - ran), ..*round });
        let tree = &search.core.tree;
        let over = round.expired() || round.nodes.is_some_and(|nodes| ran >= nodes);
        if over || tree.proof(NodeId::ROOT).is_known() || tree.has_room(MAX_MOVES) {
            break;
        }
    }
    ran
}

/// The root's child of `tree` whose mean over its simulations there and in `other`'s same
/// child, less `1 / sqrt(n)` for its `n` of them, is highest (the surest), a child proven won
/// for its mover in either tree before any; none proven lost or not yet simulated.
pub(super) fn surest(tree: &Tree<RaveStats>, other: Option<&Tree<RaveStats>>) -> Option<NodeId> {
    let (mut best, mut best_bound) = (None, f32::NEG_INFINITY);
    for child in tree.children(NodeId::ROOT) {
        let theirs = other.and_then(|other| Some((other, other.child(NodeId::ROOT, tree.point(child))?)));
        let proofs = [tree.proof(child), theirs.map_or(Proof::Unknown, |(other, t)| other.proof(t))];
        if proofs.contains(&Proof::Win) {
            return Some(child);
        }
        let mut stats = *tree.stats(child);
        if let Some((other, theirs)) = theirs {
            stats.add(other.stats(theirs));
        }
        if proofs.contains(&Proof::Loss) || stats.visits == 0 {
            continue;
        }
        let n = stats.visits as f32;
        let bound = stats.wins / n - 1.0 / n.sqrt();
        if bound > best_bound {
            (best, best_bound) = (Some(child), bound);
        }
    }
    best
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
