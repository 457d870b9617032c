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
#[derive(Debug)]
pub struct Results {
    /// The simulations each colour won, `[black, white]`.
    won: [u32; 2],
    /// Each colour's all-moves-as-first counts of each point.
    amaf: [[AmafCount; INDEX_COUNT]; 2],
}

impl Results {
    /// No simulation yet.
    pub fn new() -> Results {
        Results { won: [0; 2], amaf: [[AmafCount::default(); INDEX_COUNT]; 2] }
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
        }
    }
}

/// Counts `results` along `path` (the root first), whose nodes counted their visits on the
/// way down; `to_move` is the side to move at the root.
///
/// NoGo removes no stones, so the moves a side played from a node on are its stones on the
/// final board that were empty there: the node's legal moves that the final board holds a
/// stone of that side on. A node's children are its legal moves in board order, so each child
/// adds the counts of its move's point, none where the side did not play it: one pass over
/// the children without a branch a child, faster than finding the children played.
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
            let changes = step.moves.iter().map(|p| counts[p.index()]);
            tree.update_children(step.id, changes, RaveStats::count_rave);
        }
        side = !side;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Point, Position};
    use crate::search::tree::Tree;

    /// A random set of the board's points, each in it at even odds.
    fn random_set(rng: &mut fastrand::Rng) -> Bitboard {
        Bitboard::FULL.iter().filter(|_| rng.bool()).collect()
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
            // At least one move, for the child the descent goes on to.
            let moves = random_set(&mut rng) | Bitboard::FULL.iter().take(1).collect();
            let mean = |p: Point| 0.25 + ((p.index() as u64 * 7919 + seed) % 97) as f32 / 194.0;
            tree.expand(id, moves, |p| RaveStats::new(20.0, mean(p)));
            path.push(Step { id, moves });
            id = tree.children(id).nth(rng.usize(..moves.count() as usize)).unwrap();
        }
        (tree, path)
    }

    #[test]
    fn a_backup_counts_each_simulation_as_one_at_a_time_would() {
        let mut rng = fastrand::Rng::with_seed(3);
        for seed in 0..300 {
            let (mut tree, path) = descent(seed);
            let (mut expected, _) = descent(seed);
            let simulations: Vec<(Color, [Bitboard; 2])> = (0..rng.usize(1..=8))
                .map(|_| {
                    let winner = if rng.bool() { Color::Black } else { Color::White };
                    (winner, [random_set(&mut rng), random_set(&mut rng)])
                })
                .collect();
            // One simulation at a time, field by field, Black to move at the root.
            let mut results = Results::new();
            for &(winner, played) in &simulations {
                results.add(winner, played);
                let mut side = Color::Black;
                for (depth, step) in path.iter().enumerate() {
                    if depth > 0 && winner == !side {
                        let node = expected.stats_mut(step.id);
                        node.wins += 1.0;
                        node.sum += 1.0;
                    }
                    let children: Vec<NodeId> = expected.children(step.id).collect();
                    for child in children {
                        if played[side.index()].has(expected.point(child)) {
                            let stats = expected.stats_mut(child);
                            stats.sum += if winner == side { 1.0 } else { 0.0 };
                            stats.evidence += 1.0;
                        }
                    }
                    side = !side;
                }
            }
            backup(&mut tree, &path, Color::Black, &results);
            for step in &path {
                assert_eq!(tree.stats(step.id), expected.stats(step.id), "{simulations:?}");
                for child in tree.children(step.id) {
                    assert_eq!(tree.stats(child), expected.stats(child), "{simulations:?}");
                }
            }
        }
    }
}
