//! Backup: each node of the descent counts the simulations' results for its mover (their
//! visits were counted on the way down), and the children of each node whose move its side to
//! move played later in a simulation count it as all moves as first.

use super::node::{AmafCount, RaveStats};
use crate::rules::point::INDEX_COUNT;
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

/// The results of the simulations from one leaf, gathered for one backup: a node's children
/// are then read and written once, not once a simulation.
#[derive(Clone, Debug)]
pub struct Results {
    /// The simulations each colour won, `[black, white]`.
    won: [u32; 2],
    /// The points each colour played in any of them that count as all moves as first.
    played: [Bitboard; 2],
    /// Each colour's all-moves-as-first counts of each point.
    amaf: [[AmafCount; INDEX_COUNT]; 2],
}

impl Results {
    /// No simulation yet.
    pub fn new() -> Results {
        Results { won: [0; 2], played: [Bitboard::EMPTY; 2], amaf: [[AmafCount::default(); INDEX_COUNT]; 2] }
    }

    /// Adds a simulation won by `winner`, in which each colour played the points `played` that
    /// count as all moves as first.
    ///
    /// The counts are whole numbers, so adding them up before the backup gives the nodes the
    /// same statistics as a backup a simulation would, wherever a node's sum is between 4 and
    /// 2^22 (the default prior's are from 5 on).
    pub fn add(&mut self, winner: Color, played: [Bitboard; 2]) {
        self.won[winner.index()] += 1;
        for color in [Color::Black, Color::White] {
            let won = (winner == color) as u32 as f32;
            let counts = &mut self.amaf[color.index()];
            played[color.index()].iter().for_each(|p| {
                counts[p.index()].won += won;
                counts[p.index()].played += 1.0;
            });
            self.played[color.index()] |= played[color.index()];
        }
    }
}

/// Counts `results` along `path` (the root first), whose nodes counted their visits on the
/// way down; `to_move` is the side to move at the root.
///
/// NoGo removes no stones, so the moves a side played from a node on are its stones on the
/// final board that were empty there: the node's legal moves that the final board holds a
/// stone of that side on. A node's children are its legal moves in board order, so the child
/// of move `p` is the one after as many children as there are moves below `p`.
pub fn backup(tree: &mut impl Nodes<RaveStats>, path: &[Step], to_move: Color, results: &Results) {
    let mut side = to_move;
    for (depth, step) in path.iter().enumerate() {
        // The mover of a node below the root is the side that was to move above it.
        let mover_won = results.won[(!side).index()];
        if depth > 0 && mover_won > 0 {
            tree.update(step.id, |stats| stats.win(mover_won));
        }
        if tree.has_children(step.id) {
            let counts = &results.amaf[side.index()];
            let ranks = Ranks::new(step.moves, results.played[side.index()] & step.moves);
            tree.update_children(step.id, ranks, |child, point| child.count_rave(counts[point]));
        }
        side = !side;
    }
}

/// The ranks among a set of moves of some of them (`hits`), in order, each with its point's
/// index, a machine word at a time: the word in hand in scalars (the loop's registers), the
/// high word waiting.
struct Ranks {
    /// The moves and hits of the word in hand.
    moves: u64,
    hits: u64,
    /// The moves below the word in hand.
    below: u32,
    /// The index of the word in hand's first point.
    base: usize,
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
            base: 0,
            high_moves: (moves.0 >> 64) as u64,
            high_hits: (hits.0 >> 64) as u64,
        }
    }
}

impl Iterator for Ranks {
    type Item = (usize, usize);

    #[inline]
    fn next(&mut self) -> Option<(usize, usize)> {
        if self.hits == 0 {
            if self.high_hits == 0 {
                return None;
            }
            (self.below, self.base) = (self.moves.count_ones(), 64);
            (self.moves, self.hits, self.high_hits) = (self.high_moves, self.high_hits, 0);
        }
        let hit = (
            rank_of_lowest(self.below, self.moves, self.hits),
            self.base + self.hits.trailing_zeros() as usize,
        );
        self.hits &= self.hits - 1;
        Some(hit)
    }

    /// A loop a word, for `for_each`: one test a hit, as tight as the loop written out.
    #[inline]
    fn fold<B, F: FnMut(B, (usize, usize)) -> B>(self, init: B, mut f: F) -> B {
        let high_below = self.below + self.moves.count_ones();
        let words = [
            (self.below, self.base, self.moves, self.hits),
            (high_below, 64, self.high_moves, self.high_hits),
        ];
        let mut acc = init;
        for (below, base, moves, mut hits) in words {
            while hits != 0 {
                acc = f(acc, (rank_of_lowest(below, moves, hits), base + hits.trailing_zeros() as usize));
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
    use super::*;
    use crate::rules::{Point, Position};
    use crate::search::tree::Tree;

    /// Random legal-looking sets: a node's moves, and points played within them.
    fn random_set(rng: &mut fastrand::Rng, within: Bitboard) -> Bitboard {
        within.iter().filter(|_| rng.bool()).collect()
    }

    /// A tree holding a descent of three nodes with children, from `seed`: priors from 5 on,
    /// as the default's.
    fn descent(seed: u64) -> (Tree<RaveStats>, Vec<Step>) {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut tree = Tree::new(1 << 20);
        tree.set_root(&Position::new());
        let mut path = Vec::new();
        let mut id = NodeId::ROOT;
        for _ in 0..3 {
            let moves = random_set(&mut rng, Bitboard::FULL) | Bitboard::FULL.iter().take(1).collect();
            let mean = |p: Point| 0.25 + ((p.index() as u64 * 7919 + seed) % 97) as f32 / 194.0;
            tree.expand(id, moves, |p| RaveStats::new(20.0, mean(p)));
            path.push(Step { id, moves });
            id = tree.children(id).nth(rng.usize(..moves.count() as usize)).unwrap();
        }
        (tree, path)
    }

    #[test]
    fn gathered_results_count_as_one_backup_a_simulation() {
        let mut rng = fastrand::Rng::with_seed(3);
        for seed in 0..300 {
            let (mut gathered_tree, path) = descent(seed);
            let (mut one_by_one, _) = descent(seed);
            let simulations: Vec<(Color, [Bitboard; 2])> = (0..rng.usize(1..=8))
                .map(|_| {
                    let winner = if rng.bool() { Color::Black } else { Color::White };
                    (winner, [random_set(&mut rng, Bitboard::FULL), random_set(&mut rng, Bitboard::FULL)])
                })
                .collect();
            let mut gathered = Results::new();
            for &(winner, played) in &simulations {
                gathered.add(winner, played);
                let mut alone = Results::new();
                alone.add(winner, played);
                backup(&mut one_by_one, &path, Color::Black, &alone);
            }
            backup(&mut gathered_tree, &path, Color::Black, &gathered);
            for step in &path {
                assert_eq!(gathered_tree.stats(step.id), one_by_one.stats(step.id), "{simulations:?}");
                for (child, other) in gathered_tree.children(step.id).zip(one_by_one.children(step.id)) {
                    assert_eq!(gathered_tree.stats(child), one_by_one.stats(other), "{simulations:?}");
                }
            }
        }
    }

    #[test]
    fn ranks_are_each_hits_place_among_the_moves_with_its_point() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..2000 {
            // Sparse and dense sets over both words of the board's 128 bits.
            let density = rng.u32(1..8);
            let random = |rng: &mut fastrand::Rng| (0..density).fold(u128::MAX, |set, _| set & rng.u128(..));
            let moves = random(&mut rng);
            let hits = moves & random(&mut rng);
            let expected: Vec<(usize, usize)> = (0..128)
                .filter(|&bit| moves >> bit & 1 == 1)
                .enumerate()
                .filter(|&(_, bit)| hits >> bit & 1 == 1)
                .collect();
            let mut stepped = Ranks::new(Bitboard(moves), Bitboard(hits));
            let ranks: Vec<(usize, usize)> = std::iter::from_fn(|| stepped.next()).collect();
            assert_eq!(ranks, expected, "one by one: moves {moves:#x}, hits {hits:#x}");
            let mut folded = Vec::new();
            Ranks::new(Bitboard(moves), Bitboard(hits)).for_each(|hit| folded.push(hit));
            assert_eq!(folded, expected, "in a loop: moves {moves:#x}, hits {hits:#x}");
            // A loop taken up after the first steps.
            let mut rest = Ranks::new(Bitboard(moves), Bitboard(hits));
            let first: Vec<(usize, usize)> = rest.by_ref().take(expected.len() / 2).collect();
            let mut after = first.clone();
            rest.for_each(|hit| after.push(hit));
            assert_eq!(after, expected, "taken up: moves {moves:#x}, hits {hits:#x}");
        }
    }
}
