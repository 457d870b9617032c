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
/// time: the word in hand in scalars (the loop's registers), the high word waiting.
struct Ranks {
    /// The moves and hits of the word in hand.
    moves: u64,
    hits: u64,
    /// The moves below the word in hand.
    below: u32,
    /// The high word's moves and hits, until it is in hand.
    high_moves: u64,
    high_hits: u64,
}

impl Ranks {
    #[inline]
    fn new(moves: Bitboard, hits: Bitboard) -> Ranks {
        Ranks {
            moves: moves.0 as u64,
            hits: hits.0 as u64,
            below: 0,
            high_moves: (moves.0 >> 64) as u64,
            high_hits: (hits.0 >> 64) as u64,
        }
    }
}

impl Iterator for Ranks {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.hits == 0 {
            if self.high_hits == 0 {
                return None;
            }
            self.below = self.moves.count_ones();
            (self.moves, self.hits, self.high_hits) = (self.high_moves, self.high_hits, 0);
        }
        let rank = rank_of_lowest(self.below, self.moves, self.hits);
        self.hits &= self.hits - 1;
        Some(rank)
    }

    /// A loop a word, for `for_each`: one test a hit, as tight as the loop written out.
    #[inline]
    fn fold<B, F: FnMut(B, usize) -> B>(self, init: B, mut f: F) -> B {
        let high_below = self.below + self.moves.count_ones();
        let words = [(self.below, self.moves, self.hits), (high_below, self.high_moves, self.high_hits)];
        let mut acc = init;
        for (below, moves, mut hits) in words {
            while hits != 0 {
                acc = f(acc, rank_of_lowest(below, moves, hits));
                hits &= hits - 1;
            }
        }
        acc
    }
}

/// The rank of the lowest of `hits` (not empty) among a word's `moves`, `below` of which are
/// in the words before it.
#[inline(always)]
fn rank_of_lowest(below: u32, moves: u64, hits: u64) -> usize {
    (below + (moves & ((1 << hits.trailing_zeros()) - 1)).count_ones()) as usize
}

#[cfg(test)]
mod tests {
    use super::Ranks;
    use crate::rules::Bitboard;

    #[test]
    fn ranks_are_each_hits_place_among_the_moves() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..2000 {
            // Sparse and dense sets over both words of the board's 128 bits.
            let density = rng.u32(1..8);
            let random = |rng: &mut fastrand::Rng| (0..density).fold(u128::MAX, |set, _| set & rng.u128(..));
            let moves = random(&mut rng);
            let hits = moves & random(&mut rng);
            let expected: Vec<usize> = (0..128)
                .filter(|&bit| moves >> bit & 1 == 1)
                .enumerate()
                .filter(|&(_, bit)| hits >> bit & 1 == 1)
                .map(|(rank, _)| rank)
                .collect();
            let mut stepped = Ranks::new(Bitboard(moves), Bitboard(hits));
            let ranks: Vec<usize> = std::iter::from_fn(|| stepped.next()).collect();
            assert_eq!(ranks, expected, "one by one: moves {moves:#x}, hits {hits:#x}");
            let mut folded = Vec::new();
            Ranks::new(Bitboard(moves), Bitboard(hits)).for_each(|rank| folded.push(rank));
            assert_eq!(folded, expected, "in a loop: moves {moves:#x}, hits {hits:#x}");
            // A loop taken up after the first steps.
            let mut rest = Ranks::new(Bitboard(moves), Bitboard(hits));
            let first: Vec<usize> = rest.by_ref().take(expected.len() / 2).collect();
            let mut after = first.clone();
            rest.for_each(|rank| after.push(rank));
            assert_eq!(after, expected, "taken up: moves {moves:#x}, hits {hits:#x}");
        }
    }
}
