//! Monte Carlo tree search with random playouts and RAVE, the method of the strongest NoGo
//! programs known (HappyNoGo, HaHaNoGo): each simulation descends the tree by
//! `select::best_child`, expands a leaf visited often enough (`expand`), plays the game
//! out by the NoGo-aware policy of [`playout`], and counts the result for every node of the
//! descent and, as all moves as first, for the children whose move was played later
//! (`backup::backup`). Positions proven (a side without a move) climb the tree as in
//! MCTS-Solver (`proofs`).
//!
//! The tree, the think loop and the reading of the result are the shared
//! [`crate::search::tree`], [`crate::search::driver`] and [`crate::search::analysis`]; this
//! module holds the node (`node`) and the policy.

mod backup;
mod expand;
mod node;
mod proofs;
mod select;

use crate::rules::point::MAX_POSITIONS;
use crate::rules::Bitboard;
use crate::rules::{Color, Position};
use crate::search::driver::{Core, Simulate};
use crate::search::engine::Proof;
use crate::search::eval::ValueTable;
use crate::search::params::Params;
use crate::search::playout::{playout, Outcome, OwnPoint};
use crate::search::tree::{NodeId, Stats};
use crate::search::walk::Walk;
use backup::Step;
pub use node::RaveStats;

/// The playout search.
pub struct Rave {
    core: Core<RaveStats>,
    /// The evaluation's values by mobility, for [`Params::rave_eval_weight`].
    values: ValueTable,
    /// The nodes of the current descent, from the root down.
    path: Vec<Step>,
    /// The positions of the last descent, kept for the next (taken during a simulation).
    walk: Option<Box<Walk>>,
}

impl Rave {
    /// A search with `params`, its random choices drawn from `seed`.
    pub fn new(params: Params, seed: u64) -> Rave {
        Rave {
            values: ValueTable::new(&params),
            core: Core::new(params, seed),
            path: Vec::with_capacity(MAX_POSITIONS),
            walk: None,
        }
    }

    /// The proof, for its mover, of a leaf whose `position` has at most
    /// [`Params::rave_solve_points`] live points, by the endgame solver within
    /// [`Params::tree_solve_nodes`] nodes: a playout misjudges small endgames that the solver
    /// settles.
    fn solve_small_endgame(&mut self, position: &Position) -> Option<Proof> {
        let points = self.core.params.rave_solve_points;
        if points == 0 || position.live_points() > points {
            return None;
        }
        let nodes = self.core.params.tree_solve_nodes;
        self.core.solver().mover_proof(position, nodes)
    }

    /// Descends from the root to a leaf, expanding a leaf visited often enough, and records
    /// the descent in `self.path`, whose last node is the leaf; `walk` holds the positions.
    fn descend(&mut self, walk: &mut Walk) {
        self.path.clear();
        let mut id = NodeId::ROOT;
        loop {
            let depth = self.path.len();
            let (position, moves) = walk.at(depth);
            self.path.push(Step { id, moves });
            let tree = &self.core.tree;
            if tree.proof(id).is_known() {
                return;
            }
            if !tree.has_children(id) {
                let ready =
                    id == NodeId::ROOT || tree.stats(id).visits() >= self.core.params.rave_expand_visits;
                if !ready || !self.expand(id, position, moves, depth) {
                    return;
                }
                if self.core.tree.proof(id).is_known() {
                    proofs::prove_up(&mut self.core.tree, &self.path);
                    return;
                }
            }
            id = select::best_child(&self.core.tree, id, &self.core.params);
            walk.enter(&self.core.tree, depth + 1, id);
        }
    }
}

impl Simulate for Rave {
    type Stats = RaveStats;
    const NAME: &'static str = "rave";

    fn core(&self) -> &Core<RaveStats> {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core<RaveStats> {
        &mut self.core
    }

    fn start(&mut self, position: &Position) {
        self.walk = Some(Box::new(Walk::new(position)));
    }

    /// Descends, expands, plays out and backs up.
    fn simulate(&mut self, root: &Position) {
        let mut walk = self.walk.take().expect("a walk from the start of the search");
        self.descend(&mut walk);
        let leaf = self.path.last().expect("a descent holds the root").id;
        let position = walk.at(self.path.len() - 1).0;
        if leaf != NodeId::ROOT && !self.core.tree.proof(leaf).is_known() {
            if let Some(proof) = self.solve_small_endgame(position) {
                self.core.tree.set_proof(leaf, proof);
                proofs::prove_up(&mut self.core.tree, &self.path);
            }
        }
        let core = &mut self.core;
        let outcome = match core.tree.proof(leaf) {
            // A proven node's result needs no playout; its stones are those on the board.
            Proof::Unknown => {
                let clock = core.leaf_clock.start();
                let outcome = playout(position, &mut core.rng, OwnPoint::of(&core.params));
                core.leaf_clock.stop(clock);
                outcome
            }
            proof => {
                let mover = !position.to_move();
                let winner = if proof == Proof::Win { mover } else { !mover };
                let stones = [position.stones(Color::Black), position.stones(Color::White)];
                Outcome { winner, stones, reserves: [Bitboard::EMPTY; 2] }
            }
        };
        let amaf = if core.params.rave_amaf_reserves == 0 {
            [outcome.stones[0] - outcome.reserves[0], outcome.stones[1] - outcome.reserves[1]]
        } else {
            outcome.stones
        };
        backup::backup(&mut core.tree, &self.path, root.to_move(), outcome.winner, amaf);
        self.walk = Some(walk);
    }
}

#[cfg(test)]
mod tests;
