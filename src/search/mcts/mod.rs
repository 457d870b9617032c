//! Monte Carlo tree search scored by evaluation, not playouts.
//!
//! A node's children are made best first (`grow`, `ordering`) as the search tries them.
//! Progressive widening bounds the children tried by the node's visits ([`Params::widening`]);
//! UCB picks among those tried (`select`; trying every child first, and first-play urgencies,
//! measured worse: `docs/strength-log.md#changes-tried`). A new node is scored by
//! [`eval::value`] (or proven won or lost: at once, or by the endgame solver's table;
//! `evaluate`) and the value is backed up, flipped at each level; proofs propagate as in
//! MCTS-Solver. The tree, the think loop and the reading of the result are the shared
//! [`crate::search::tree`], [`crate::search::driver`] and [`crate::search::analysis`].
//!
//! [`eval::value`]: crate::search::eval::value

mod evaluate;
mod grow;
mod node;
mod ordering;
mod select;

use crate::rules::point::{INDEX_COUNT, MAX_POSITIONS};
use crate::rules::{Bitboard, Color, Position};
use crate::search::driver::{Core, Simulate};
use crate::search::engine::Proof;
use crate::search::eval;
use crate::search::params::Params;
use crate::search::tree::NodeId;
use crate::search::walk::Walk;
pub use node::McStats;
use ordering::{PointStats, FRESH_HISTORY};
use select::{Choice, CHOICES, NO_CHOICE};
use std::collections::HashMap;

/// The evaluation search.
pub struct Mcts {
    core: Core<McStats>,
    /// Per colour, how each point has done this turn wherever it was played in the tree (the
    /// "history heuristic"); the ranking of children breaks ties by it.
    history: [[PointStats; INDEX_COUNT]; 2],
    /// The policy network's order of the moves of positions whose nodes use it, by their
    /// position and last move ([`grow`]): computed once per position, not per growth, node,
    /// transposition or turn; emptied when it reaches [`grow::POLICY_ORDERS`] entries.
    policy_orders: HashMap<u64, (Bitboard, Vec<u8>)>,
    /// The busy nodes' last full scans, by node modulo [`CHOICES`].
    choices: Vec<Choice>,
    /// The evaluation's values by mobility, for these parameters.
    values: eval::ValueTable,
    /// The node made for the first move of the last ranking, and the legal sets after it.
    first_ranked: Option<(NodeId, [Bitboard; 2])>,
    /// The positions of the last descent, kept for the next (taken during an iteration).
    walk: Option<Box<Walk>>,
    /// Room for the nodes of a descent, from the root down.
    path: Vec<NodeId>,
}

impl Mcts {
    /// A search with `params`, an empty tree, and random choices drawn from `seed`.
    pub fn new(params: Params, seed: u64) -> Mcts {
        Mcts {
            core: Core::new(params, seed),
            history: FRESH_HISTORY,
            policy_orders: HashMap::new(),
            choices: vec![NO_CHOICE; CHOICES],
            values: eval::ValueTable::new(&params),
            first_ranked: None,
            walk: None,
            path: Vec::with_capacity(MAX_POSITIONS),
        }
    }

    /// Backs `value` (for the player who moved into the last node of `path`) up the path,
    /// flipping it at each level, and propagates proofs: a node is lost for its mover when a
    /// child is won for the side to move there, won when every child is lost. Each move below
    /// the root (where `to_move` is to play) goes into the history of the colour that played it.
    #[inline]
    fn backup(&mut self, path: &[NodeId], mut value: f32, to_move: Color) {
        let mut child_proof = Proof::Unknown;
        // The colour that moved into the last node: `to_move` at odd depths.
        let mut mover = to_move.index() ^ (path.len() % 2 == 1) as usize;
        for (level, &id) in path.iter().enumerate().rev() {
            let tree = &mut self.core.tree;
            if child_proof == Proof::Win {
                tree.set_proof(id, Proof::Loss);
            } else if child_proof == Proof::Loss && all_children_lost(tree, id) {
                tree.set_proof(id, Proof::Win);
            }
            tree.stats_mut(id).update(value);
            child_proof = tree.proof(id);
            if level > 0 {
                self.history[mover][tree.point(id).index()].record(value);
            }
            value = 1.0 - value;
            mover ^= 1;
        }
    }
}

/// Whether every child of `id` is made and proven lost.
fn all_children_lost(tree: &crate::search::tree::Tree<McStats>, id: NodeId) -> bool {
    tree.child_count(id) == tree.stats(id).legal as usize && tree.child_proofs(id).all(|p| p == Proof::Loss)
}

impl Simulate for Mcts {
    type Stats = McStats;
    const NAME: &'static str = "mcts";

    fn core(&self) -> &Core<McStats> {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core<McStats> {
        &mut self.core
    }

    fn start(&mut self, position: &Position) {
        // The tree's nodes may have moved.
        self.choices.fill(NO_CHOICE);
        self.prove_root_children(position);
        self.history = FRESH_HISTORY;
        self.walk = Some(Box::new(Walk::new(position)));
    }

    /// One iteration: descend by UCB, score one new node, back its value up.
    #[inline(never)]
    fn simulate(&mut self, position: &Position, _most: u64) -> u64 {
        // Both are taken for the iteration and put back: the descent's helpers borrow the search.
        let mut path = std::mem::take(&mut self.path);
        let mut walk = self.walk.take().expect("a walk from the start of the search");
        path.clear();
        let mut id = NodeId::ROOT;
        let value = loop {
            path.push(id);
            let tree = &self.core.tree;
            let proof = tree.proof(id);
            if proof.is_known() {
                break evaluate::proof_value(proof);
            }
            let stats = *tree.stats(id);
            if stats.visits == 0 {
                let clock = self.core.leaf_clock.start();
                let value = self.evaluate_new(&path, &mut walk);
                self.core.leaf_clock.stop(clock);
                break value;
            }
            let Some(child) = self.select(&path, &mut walk) else {
                // The arena is full: refine what is there by backing the node's value up again.
                break stats.mean;
            };
            id = child;
        };
        self.backup(&path, value, position.to_move());
        (self.path, self.walk) = (path, Some(walk));
        1
    }
}

#[cfg(test)]
mod tests;
