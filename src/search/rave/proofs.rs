//! Proofs as in MCTS-Solver: a node whose side to move has no move is won for its mover, and
//! proofs climb the descent that found them.

use super::backup::Step;
use super::node::RaveStats;
use crate::search::engine::Proof;
use crate::search::tree::Nodes;

/// Carries a proof found at the end of `path` up it: a node whose side to move has a child
/// proven won is lost for its mover, and one whose children are all proven lost is won.
pub fn prove_up(tree: &mut impl Nodes<RaveStats>, path: &[Step]) {
    for pair in path.windows(2).rev() {
        let (parent, child) = (pair[0].id, pair[1].id);
        let proof = match tree.proof(child) {
            Proof::Unknown => return,
            Proof::Win => Proof::Loss,
            Proof::Loss => {
                if tree.all_children_lost(parent) {
                    Proof::Win
                } else {
                    return;
                }
            }
        };
        tree.set_proof(parent, proof);
    }
}
