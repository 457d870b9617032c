//! Backup: each node of the descent counts the simulation for its mover, and the children of
//! each node whose move its side to move played later in the simulation count it as all
//! moves as first.

use super::tree::{Blend, NodeId, Tree};
use crate::rules::{Bitboard, Color};

/// A node of a descent and the legal moves of the side to move there (its children's moves
/// once it is expanded).
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// The node.
    pub id: NodeId,
    /// The legal moves of its side to move.
    pub moves: Bitboard,
}

/// Counts a simulation won by `winner` along `path` (the root first); `to_move` is the side to
/// move at the root, and `played` the points each colour played in the simulation that count
/// as all moves as first.
///
/// NoGo removes no stones, so the moves a side played from a node on are its stones on the
/// final board that were empty there: the node's legal moves that the final board holds a
/// stone of that side on.
pub fn backup(
    tree: &mut Tree,
    path: &[Step],
    to_move: Color,
    winner: Color,
    played: [Bitboard; 2],
    blend: Blend,
) {
    let mut side = to_move;
    for (depth, step) in path.iter().enumerate() {
        let node = &mut tree[step.id];
        // The mover of a node below the root is the side that was to move above it.
        node.count(depth > 0 && winner == !side, blend);
        if node.is_expanded() {
            let node = *node;
            let won = winner == side;
            for p in (played[side.index()] & step.moves).iter() {
                tree[node.child_playing(step.moves, p)].count_rave(won, blend);
            }
        }
        side = !side;
    }
}
