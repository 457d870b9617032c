//! Backup: each node of the descent counts the simulation for its mover, and the children of
//! each node whose move its side to move played later in the simulation count it as all
//! moves as first.

use super::node::RaveStats;
use crate::rules::{Bitboard, Color};
use crate::search::tree::{NodeId, Tree};

/// A node of a descent and the legal moves of the side to move there (its children's moves
/// once it has children).
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
/// stone of that side on. A node's children are its legal moves in board order, so the child
/// of move `p` is the one after as many children as there are moves below `p`.
pub fn backup(
    tree: &mut Tree<RaveStats>,
    path: &[Step],
    to_move: Color,
    winner: Color,
    played: [Bitboard; 2],
) {
    let mut side = to_move;
    for (depth, step) in path.iter().enumerate() {
        // The mover of a node below the root is the side that was to move above it.
        tree.stats_mut(step.id).count(depth > 0 && winner == !side);
        if tree.has_children(step.id) {
            let won = winner == side;
            let children = tree.child_stats_mut(step.id);
            debug_assert_eq!(children.len(), step.moves.count() as usize, "a child per legal move");
            // The rank of a move among `moves`, a machine word at a time.
            let hits = played[side.index()] & step.moves;
            let words = |set: Bitboard| [set.0 as u64, (set.0 >> 64) as u64];
            let (moves, mut hits, mut below) = (words(step.moves), words(hits), 0);
            for word in 0..2 {
                while hits[word] != 0 {
                    let rank = below + (moves[word] & ((1 << hits[word].trailing_zeros()) - 1)).count_ones();
                    hits[word] &= hits[word] - 1;
                    // SAFETY: a hit is one of the node's legal moves, whose children are its legal
                    // moves in board order, so its rank is below their number.
                    unsafe { children.get_unchecked_mut(rank as usize) }.count_rave(won);
                }
                below = moves[word].count_ones();
            }
        }
        side = !side;
    }
}
