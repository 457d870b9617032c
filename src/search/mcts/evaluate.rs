//! Scoring a new node: by the evaluation, from its parent's position where that is enough, or
//! proven (no move, a decisive move, the endgame solver's table or a small proof of its own).

use super::Mcts;
use crate::rules::tactics::{can_be_closed, find_decisive};
use crate::rules::{Bitboard, Position};
use crate::search::driver::tree_proof;
use crate::search::engine::Proof;
use crate::search::eval;
use crate::search::tree::NodeId;
use crate::search::walk::Walk;

/// The value of a proven node for the player who moved into it.
#[inline]
pub(super) fn proof_value(proof: Proof) -> f32 {
    if proof == Proof::Win {
        1.0
    } else {
        0.0
    }
}

impl Mcts {
    /// Scores the new node at the end of `path`: from its parent's position and its move, when
    /// that is enough (below), else from its own position.
    ///
    /// Away from the end of the game only the evaluation can score a node: with more than
    /// [`Params::endgame_points`] points live the solver and its table are not consulted, and
    /// an opponent with many legal points cannot be left without one, so there is no decisive
    /// move. The evaluation needs only the legal sets after the move, which the parent's
    /// [`Position::move_effects`] gives, and the stones: the move is then neither played nor,
    /// at the next descent, taken back.
    ///
    /// [`Params::endgame_points`]: crate::search::params::Params::endgame_points
    #[inline]
    pub(super) fn evaluate_new(&mut self, path: &[NodeId], walk: &mut Walk) -> f32 {
        let (id, depth) = (*path.last().expect("a new node below the root"), path.len());
        if depth >= 2 {
            let parent = walk.to(&self.core.tree, &path[..depth - 1]);
            if self.scored_from_parent(parent) {
                let mv = self.core.tree.point(id);
                let after = match self.first_ranked.take() {
                    Some((first, after)) if first == id => after,
                    _ => parent.move_effects().legal_both_after(mv),
                };
                let mover = parent.to_move();
                let (own, theirs) = (after[(!mover).index()], after[mover.index()]);
                let params = &self.core.params;
                if !own.is_empty() && !can_be_closed(theirs) && (own | theirs).count() > params.endgame_points
                {
                    self.core.tree.stats_mut(id).legal = own.count() as u8;
                    let value = self.values.value_after(parent, mv, after, params);
                    debug_assert_eq!(value, {
                        let mut leaf = parent.clone();
                        leaf.play_unchecked(mv);
                        assert!(find_decisive(&leaf, own, theirs).is_none() && leaf.legal_both() == after);
                        eval::value(&leaf, theirs, own, params)
                    });
                    return value;
                }
            }
        }
        self.evaluate(id, walk.to(&self.core.tree, path))
    }

    /// Whether the children of a node at `position` may be scored from it
    /// ([`Mcts::evaluate_new`]): only where a child may keep more than
    /// [`Params::endgame_points`] points live (live points are empty, and one is filled).
    ///
    /// [`Params::endgame_points`]: crate::search::params::Params::endgame_points
    #[inline]
    pub(super) fn scored_from_parent(&self, position: &Position) -> bool {
        position.empty().count() > self.core.params.endgame_points + 1
    }

    /// Scores a new node from its position, proving it when the side to move has no move
    /// (the mover won) or has a move that leaves the mover none (the mover lost).
    #[inline]
    fn evaluate(&mut self, id: NodeId, position: &Position) -> f32 {
        let to_move = position.to_move().index();
        let legal = position.legal_both();
        let (own, theirs) = (legal[to_move], legal[1 - to_move]);
        let (proof, value) = if own.is_empty() {
            (Proof::Win, 1.0)
        } else if find_decisive(position, own, theirs).is_some() {
            (Proof::Loss, 0.0)
        } else if let Some(proof) = self.known_proof(id, own | theirs, position.hash()) {
            (proof, proof_value(proof))
        } else if let Some(proof) = self.solve_small_endgame(id, own | theirs, position) {
            (proof, proof_value(proof))
        } else {
            (Proof::Unknown, self.values.value(position, theirs, own, &self.core.params))
        };
        let tree = &mut self.core.tree;
        tree.set_proof(id, proof);
        tree.stats_mut(id).legal = own.count() as u8;
        value
    }

    /// The proof of the position of node `id` (for the player who moved into it) whose live
    /// points (legal for either side) are `live` and whose hash is `key`, when the endgame
    /// solver's table holds it. A failed attempt of the solver at the root still proves many
    /// positions of the tree; without this, the search could choose a move the solver had
    /// proven to lose. Only endgames are probed: the solver runs once at most
    /// `endgame_points` points are live, and live points never come back. The root is left to
    /// its children's proofs, so that a lost root is still searched for the move that resists
    /// longest. Evidence: the rows "proofs from the solver's table" of
    /// `docs/strength-log.md#changes-tried`.
    fn known_proof(&self, id: NodeId, live: Bitboard, key: u64) -> Option<Proof> {
        if id == NodeId::ROOT || live.count() > self.core.params.endgame_points {
            return None;
        }
        // The table's proof is for the side to move; the node's, for the player who moved.
        let proof = self.core.solver.as_ref()?.known(key).flip();
        proof.is_known().then_some(proof)
    }

    /// The proof of a new node (not the root) whose position has at most `tree_solve_points`
    /// live points, by the endgame solver within `tree_solve_nodes` nodes: the evaluation
    /// misjudges small endgames that a few hundred solver nodes settle, and the proof then
    /// reaches the nodes above it.
    #[inline(never)]
    fn solve_small_endgame(&mut self, id: NodeId, live: Bitboard, position: &Position) -> Option<Proof> {
        if id == NodeId::ROOT || live.count() > self.core.params.tree_solve_points {
            return None;
        }
        let nodes = self.core.params.tree_solve_nodes;
        let core = &mut self.core;
        tree_proof(&mut core.solver, position, nodes, &mut core.unclocked_solver_nodes)
    }

    /// Proves the root's children from the solver's table: a kept tree scored them before
    /// this turn's solver ran.
    pub(super) fn prove_root_children(&mut self, position: &Position) {
        let [black, white] = position.legal_both();
        let children: Vec<NodeId> = self.core.tree.children(NodeId::ROOT).collect();
        for c in children {
            if !self.core.tree.proof(c).is_known() {
                let key = position.hash_after(self.core.tree.point(c));
                if let Some(proof) = self.known_proof(c, black | white, key) {
                    self.core.tree.set_proof(c, proof);
                }
            }
        }
    }
}
