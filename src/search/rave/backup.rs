//! Backup: each node of the descent counts the simulation for its mover, and the children of
//! each node whose move its side to move played later in the simulation count it as all
//! moves as first. Proofs climb the path as in MCTS-Solver.

use super::tree::{Blend, NodeId, Tree};
use crate::rules::{Bitboard, Color};
use crate::search::engine::Proof;
use crate::search::playout::Outcome;

/// A node of a descent and the legal moves of the side to move there (its children's moves
/// once it is expanded).
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// The node.
    pub id: NodeId,
    /// The legal moves of its side to move.
    pub moves: Bitboard,
}

/// Counts `outcome` along `path` (the root first); `to_move` is the side to move at the root.
///
/// NoGo removes no stones, so the moves a side played from a node on are its stones on the
/// final board that were empty there: the node's legal moves that the final board holds a
/// stone of that side on.
pub fn backup(tree: &mut Tree, path: &[Step], to_move: Color, outcome: &Outcome, blend: Blend) {
    let mut side = to_move;
    for (depth, step) in path.iter().enumerate() {
        let node = &mut tree[step.id];
        // The mover of a node below the root is the side that was to move above it.
        node.count(depth > 0 && outcome.winner == !side, blend);
        if node.is_expanded() {
            let node = *node;
            let won = outcome.winner == side;
            for p in (outcome.stones[side.index()] & step.moves).iter() {
                tree[node.child_playing(step.moves, p)].count_rave(won, blend);
            }
        }
        side = !side;
    }
}

/// Carries a proof found at the end of `path` up it: a node whose side to move has a child
/// proven won is lost for its mover, and one whose children are all proven lost is won.
pub fn prove_up(tree: &mut Tree, path: &[Step]) {
    for pair in path.windows(2).rev() {
        let (parent, child) = (pair[0].id, pair[1].id);
        let proof = match tree[child].proof {
            Proof::Unknown => return,
            Proof::Win => Proof::Loss,
            Proof::Loss => {
                if tree[parent].children().all(|c| tree[c].proof == Proof::Loss) {
                    Proof::Win
                } else {
                    return;
                }
            }
        };
        tree[parent].proof = proof;
    }
}
