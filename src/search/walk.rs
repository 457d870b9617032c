//! The positions along the last descent of a tree, kept for the next one: consecutive
//! descents share their first moves, whose positions need not be played again.

use crate::rules::point::MAX_POSITIONS;
use crate::rules::{Bitboard, Point, Position};
use crate::search::tree::{NodeId, Stats, Tree};

/// The positions of the nodes of the last descent, with their side to move's legal moves.
pub struct Walk {
    /// `positions[i]`, the position `i` moves below the root, for `i <= last`.
    positions: Box<[Position]>,
    /// The legal moves of the side to move of each of those positions.
    moves: [Bitboard; MAX_POSITIONS],
    /// The node of each, `nodes[0]` the root.
    nodes: [NodeId; MAX_POSITIONS],
    /// The deepest position held.
    last: usize,
}

impl Walk {
    /// A walk standing at `root`, the position of the tree's root.
    pub fn new(root: &Position) -> Walk {
        let mut moves = [Bitboard::EMPTY; MAX_POSITIONS];
        moves[0] = root.legal_moves();
        Walk {
            positions: vec![root.clone(); MAX_POSITIONS].into_boxed_slice(),
            moves,
            nodes: [NodeId::ROOT; MAX_POSITIONS],
            last: 0,
        }
    }

    /// The position of the node entered at `depth` (0: the root) and the legal moves there.
    #[inline]
    pub fn at(&self, depth: usize) -> (&Position, Bitboard) {
        (&self.positions[depth], self.moves[depth])
    }

    /// Enters `id`, the child playing `point` of the node entered at `depth - 1`, `depth`
    /// (at least 1) moves below the root: its position and the legal moves there, played from
    /// the position above unless the last descent went through it too.
    #[inline]
    pub fn enter(&mut self, depth: usize, id: NodeId, point: Point) -> (&Position, Bitboard) {
        debug_assert!(depth > 0, "the root is always entered");
        if depth > self.last || self.nodes[depth] != id {
            let (above, below) = self.positions.split_at_mut(depth);
            let position = &mut below[0];
            position.clone_from(&above[depth - 1]);
            position.play_unchecked(point);
            self.moves[depth] = position.legal_moves();
            self.nodes[depth] = id;
            self.last = depth;
        }
        self.at(depth)
    }

    /// The position after the moves of `path`, the nodes from the root (`path[0]`) down.
    #[inline]
    pub fn to<S: Stats>(&mut self, tree: &Tree<S>, path: &[NodeId]) -> &Position {
        for (depth, &id) in path.iter().enumerate().skip(1) {
            self.enter(depth, id, tree.point(id));
        }
        &self.positions[path.len() - 1]
    }
}
