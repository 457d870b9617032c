//! The positions along the last descent, kept for the next one.

use super::node::McStats;
use crate::rules::point::MAX_POSITIONS;
use crate::rules::Position;
use crate::search::tree::{NodeId, Tree};

/// The positions along the last descent and the nodes that reached them. The next descent
/// keeps the positions down to the node where its path leaves the last one and plays only its
/// own moves below it, each on a copy of the position above (consecutive paths share 4.6 of
/// their 7.8 moves in `nogo bench`'s middle game).
pub(super) struct Walk {
    /// `positions[i]` after `i` moves from the root, for `i <= depth`.
    positions: Box<[Position]>,
    /// Moves played from the root.
    depth: usize,
    /// The nodes of the last path: `nodes[i]` reached after `i` moves, `nodes[0]` the root.
    nodes: [NodeId; MAX_POSITIONS],
}

impl Walk {
    /// A walk standing at `root`.
    pub(super) fn new(root: &Position) -> Walk {
        Walk {
            positions: vec![root.clone(); MAX_POSITIONS].into_boxed_slice(),
            depth: 0,
            nodes: [NodeId::ROOT; MAX_POSITIONS],
        }
    }

    /// The position after the moves of `path`, the nodes from the root (`path[0]`) down.
    #[inline]
    pub(super) fn to(&mut self, tree: &Tree<McStats>, path: &[NodeId]) -> &Position {
        let last = &self.nodes[1..=self.depth];
        self.depth = last.iter().zip(&path[1..]).take_while(|(a, b)| a == b).count();
        for &next in &path[self.depth + 1..] {
            let (above, below) = self.positions.split_at_mut(self.depth + 1);
            let position = &mut below[0];
            position.clone_from(&above[self.depth]);
            position.play_unchecked(tree.point(next));
            self.depth += 1;
            self.nodes[self.depth] = next;
        }
        &self.positions[self.depth]
    }
}
