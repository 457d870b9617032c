//! Backup: each node of the descent counts the simulation's result for its mover (its visit was
//! counted on the way down), and the children of each node whose move its side to move played
//! later in the simulation count it as all moves as first.

use super::node::RaveStats;
use crate::rules::{Bitboard, Color};
use crate::search::tree::{NodeId, Nodes};

/// A node of a descent and the legal moves of the side to move there (its children's moves
/// once it has children).
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// The node.
    pub id: NodeId,
    /// The legal moves of its side to move.
    pub moves: Bitboard,
}

/// Counts a simulation won by `winner` along `path` (the root first), whose nodes counted
/// their visit on the way down; `to_move` is the side to move at the root, and `played` the
/// points each colour played in the simulation that count as all moves as first.
///
/// NoGo removes no stones, so the moves a side played from a node on are its stones on the
/// final board that were empty there: the node's legal moves that the final board holds a
/// stone of that side on. A node's children are its legal moves in board order, so the child
/// of move `p` is the one after as many children as there are moves below `p`.
pub fn backup(
    tree: &mut impl Nodes<RaveStats>,
    path: &[Step],
    to_move: Color,
    winner: Color,
    played: [Bitboard; 2],
) {
    let mut side = to_move;
    for (depth, step) in path.iter().enumerate() {
        // The mover of a node below the root is the side that was to move above it.
        if depth > 0 && winner == !side {
            tree.update(step.id, RaveStats::win);
        }
        if tree.has_children(step.id) {
            let won = winner == side;
            let ranks = Ranks::new(step.moves, played[side.index()] & step.moves);
            tree.update_children(step.id, ranks, |child| child.count_rave(won));
        }
        side = !side;
    }
}

/// The ranks among a set of moves of some of them (`hits`), in order, a machine word at a
/// time.
struct Ranks {
    moves: [u64; 2],
    hits: [u64; 2],
    word: usize,
}

impl Ranks {
    #[inline]
    fn new(moves: Bitboard, hits: Bitboard) -> Ranks {
        let words = |set: Bitboard| [set.0 as u64, (set.0 >> 64) as u64];
        Ranks { moves: words(moves), hits: words(hits), word: 0 }
    }
}

impl Iterator for Ranks {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.hits[self.word] == 0 {
            if self.word == 1 {
                return None;
            }
            self.word = 1;
        }
        let hits = &mut self.hits[self.word];
        let below_word = if self.word == 1 { self.moves[0].count_ones() } else { 0 };
        let rank = below_word + (self.moves[self.word] & ((1 << hits.trailing_zeros()) - 1)).count_ones();
        *hits &= *hits - 1;
        Some(rank as usize)
    }
}
