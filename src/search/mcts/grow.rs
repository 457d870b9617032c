//! Children made as the search tries them, best first: by the policy network near the root and
//! at busy nodes, elsewhere by the mobility ranking ([`super::ordering`]).

use super::node::block_capacity;
use super::ordering::ranked_moves;
use super::Mcts;
use crate::rules::hash;
use crate::rules::point::MAX_MOVES;
use crate::rules::{Bitboard, Point, Position};
use crate::search::policy;
use crate::search::tree::NodeId;

/// Most positions whose policy order [`Mcts`] keeps: each takes about 150 bytes.
pub(super) const POLICY_ORDERS: usize = 1 << 16;

/// The key of the policy's order for `position` reached by `last_move`: the network reads both.
fn policy_key(position: &Position, last_move: Option<Point>) -> u64 {
    let last = last_move.map_or(0, |p| p.index() as u64 + 1);
    hash::combine(position.hash(), last)
}

/// The points within `radius` of `last_move`, whose children are tried first among equal
/// mobilities; none when the last move is unknown.
pub(super) fn near_last_move(last_move: Option<Point>, radius: u32) -> Bitboard {
    last_move.map_or(Bitboard::EMPTY, |p| Bitboard::from(p).within(radius))
}

impl Mcts {
    /// The move that reached `id`; unknown at a root whose last move is unknown.
    fn last_move(&self, id: NodeId) -> Option<Point> {
        let tree = &self.core.tree;
        if id == NodeId::ROOT {
            tree.root_last_move()
        } else {
            Some(tree.point(id))
        }
    }

    /// Whether `id`, `depth` moves below the root, orders its new children by the policy
    /// network ([`Params::policy_depth`], [`Params::policy_visits`]).
    ///
    /// [`Params::policy_depth`]: crate::search::params::Params::policy_depth
    /// [`Params::policy_visits`]: crate::search::params::Params::policy_visits
    fn uses_policy(&self, id: NodeId, depth: usize) -> bool {
        let params = &self.core.params;
        let visits = params.policy_visits;
        depth < params.policy_depth as usize || (visits > 0 && self.core.tree.stats(id).visits >= visits)
    }

    /// Makes the next untried child of `id`, `depth` moves below the root, growing its block
    /// when full; `None` when the arena has no room.
    pub(super) fn try_next(&mut self, id: NodeId, position: &Position, depth: usize) -> Option<NodeId> {
        let tree = &self.core.tree;
        let (tried, legal) = (tree.child_count(id), tree.stats(id).legal as usize);
        if tried == tree.slots(id) {
            let grown = block_capacity(tried + 1, legal);
            if !tree.has_room(grown) {
                return None;
            }
            // The new slots take the next moves of the ranking, computed again on each
            // growth (every doubling of the block) rather than stored per node.
            // The ranking's ties change with the history, so the tried moves are left out and
            // the new slots take the best of the rest.
            let mut after_first = None;
            let tried_moves =
                tree.children(id).fold(Bitboard::EMPTY, |set, c| set | Bitboard::from(tree.point(c)));
            let last_move = self.last_move(id);
            let moves = if self.uses_policy(id, depth) {
                self.policy_order(position, last_move, tried_moves)
            } else {
                let near = near_last_move(last_move, self.core.params.last_move_radius);
                let history = &self.history[position.to_move().index()];
                let from_parent = self.scored_from_parent(position);
                let ranking = ranked_moves(position, grown - tried, near, history, tried_moves, from_parent);
                after_first = ranking.after_first;
                ranking.moves
            };
            let tree = &mut self.core.tree;
            tree.grow_block(id, &moves[..grown - tried]);
            self.first_ranked = after_first.map(|after| (tree.child_at(id, tried), after));
        }
        Some(self.core.tree.add_child(id))
    }

    /// The moves of `position` reached by `last_move` but `tried`, in the policy network's
    /// order (bitboard indices), computed once per position and kept.
    fn policy_order(
        &mut self,
        position: &Position,
        last_move: Option<Point>,
        tried: Bitboard,
    ) -> [u8; MAX_MOVES] {
        if self.policy_orders.len() >= POLICY_ORDERS {
            self.policy_orders.clear();
        }
        // The legal moves are kept with the order: a position whose key collides with
        // another's but whose moves differ is ranked again, so no order holds an illegal move.
        let legal = position.legal_moves();
        let kept = self.policy_orders.entry(policy_key(position, last_move)).or_default();
        if kept.0 != legal {
            *kept = (legal, policy::Network::embedded().ranked(position, last_move));
        }
        let mut moves = [0u8; MAX_MOVES];
        let untried = kept.1.iter().filter(|&&mv| !tried.has(Point::from_index_unchecked(mv)));
        for (slot, &mv) in moves.iter_mut().zip(untried) {
            *slot = mv;
        }
        moves
    }
}
