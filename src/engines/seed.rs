//! The seed bot: evaluation-only MCTS, faithfully reimplementing the student bot this project
//! started from (top 3 of a Botzone NoGo Swiss tournament, rank 15 on the ladder).
//!
//! - Selection: the child maximising `Q/N + 2C * sqrt(ln(2 * N_parent) / N)`, `C = 0.1`, where
//!   `Q` is the plain sum of the mobility values backed up through the child (no squashing into
//!   a win rate, so the exploration term is small beside `Q/N`: the search is nearly greedy).
//! - Expansion: a node's untried children are tried one per visit in board order, with no
//!   randomness; UCB chooses only once all are tried.
//! - No playouts: a new node is scored by [`eval::mobility`] (points legal only for the side that
//!   just moved minus points legal only for the side to move), negated at each level on the way
//!   up.
//! - Final choice: the most visited root child. The reference does not say how the seed chose;
//!   the most visited child is the usual MCTS answer and, with a near-greedy UCB, agrees with
//!   the best mean except in a close race between two children.
//!
//! Terminal positions (the side to move has no legal move: the mover has won) are scored
//! [`WIN`], one more than any mobility can reach, so a decisive move outranks every heuristic
//! score on the seed's own scale. The tree is built afresh for every move, as the reference
//! describes no reuse.

use crate::rules::point::{MAX_MOVES, MAX_POSITIONS};
use crate::rules::{Bitboard, Point, Position};
use crate::search::engine::{Budget, Engine, Proof, Report};
use crate::search::eval;
use crate::search::time::CLOCK_INTERVAL;
use std::time::Instant;

/// The seed's exploration constant `C`.
pub const EXPLORATION: f64 = 0.1;
/// The value of a won position for the side that just moved. A non-terminal mobility counts
/// at most the 80 empty points left after a stone, so 81 is above all of them.
pub const WIN: i64 = MAX_MOVES as i64;
/// Tree nodes kept at most (24 bytes each, about 100 MB); the search stops when full. One node
/// is added per iteration, so this is several seconds of search.
const MAX_NODES: usize = 4_000_000;
/// No node: the end of a sibling list.
const NONE: u32 = u32::MAX;

/// A tree node: the move that reached it and its statistics from the point of view of the
/// player who made that move. Children are created one per visit, as the seed did, and kept
/// as a list (newest first) so memory grows by one node per iteration.
#[derive(Clone, Copy)]
struct Node {
    /// Sum of the mobility values backed up through this node.
    q: i64,
    visits: u32,
    /// The newest child (the last tried in board order), or [`NONE`].
    first_child: u32,
    /// The next older sibling, or [`NONE`].
    next_sibling: u32,
    /// Bitboard index of the move.
    mv: u8,
    /// Legal moves here (0 until the node is first expanded).
    children: u8,
    /// Children created so far.
    tried: u8,
    /// The side to move here has no legal move.
    terminal: bool,
}

impl Node {
    fn new(mv: u8, next_sibling: u32) -> Node {
        Node { q: 0, visits: 0, first_child: NONE, next_sibling, mv, children: 0, tried: 0, terminal: false }
    }

    fn point(&self) -> Point {
        Point::from_index(self.mv).expect("node moves are board points")
    }

    fn mean(&self) -> f64 {
        self.q as f64 / self.visits as f64
    }
}

/// The seed's value of a position for the side that just moved: [`WIN`] when the side to move
/// has no legal move, else the mobility.
pub fn leaf_value(position: &Position) -> i64 {
    let to_move = position.to_move().index();
    let legal = position.legal_both();
    if legal[to_move].is_empty() {
        WIN
    } else {
        eval::mobility(legal[1 - to_move], legal[to_move]) as i64
    }
}

/// The seed bot's search.
#[derive(Default)]
pub struct SeedEngine {
    nodes: Vec<Node>,
}

impl SeedEngine {
    /// An engine with an empty tree.
    pub fn new() -> SeedEngine {
        SeedEngine::default()
    }

    /// The children of a node, newest (last in board order) first.
    fn children(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        let mut next = self.nodes[index].first_child;
        std::iter::from_fn(move || {
            (next != NONE).then(|| {
                let child = next as usize;
                next = self.nodes[child].next_sibling;
                child
            })
        })
    }

    /// One iteration: descend by UCB, score one new node, back its value up. False when the
    /// tree is full and nothing was added.
    fn iterate(&mut self, root: &Position, path: &mut Vec<usize>) -> bool {
        path.clear();
        let mut position = root.clone();
        let mut index = 0;
        let value = loop {
            path.push(index);
            let node = self.nodes[index];
            if node.visits == 0 {
                let value = leaf_value(&position);
                self.nodes[index].terminal = value == WIN;
                break value;
            }
            if node.terminal {
                break WIN;
            }
            match self.select(index, &position) {
                Some(child) => index = child,
                None => return false,
            }
            position.play_unchecked(self.nodes[index].point());
        };
        let mut value = value;
        for &i in path.iter().rev() {
            self.nodes[i].q += value;
            self.nodes[i].visits += 1;
            value = -value;
        }
        true
    }

    /// The child of `index` (whose position is `position`) to descend into: a new one for the
    /// next untried move in board order, else the best by the seed's UCB. `None` when the tree
    /// is full.
    fn select(&mut self, index: usize, position: &Position) -> Option<usize> {
        let node = self.nodes[index];
        if node.children == 0 || node.tried < node.children {
            let legal = position.legal_moves();
            let mut untried = legal;
            if node.first_child != NONE {
                // Children are tried in board order: skip up to the newest one's move.
                let last = self.nodes[node.first_child as usize].mv;
                untried = Bitboard(untried.0 & !((2u128 << last) - 1));
            }
            if self.nodes.len() >= MAX_NODES {
                return None;
            }
            let mv = untried.first().expect("an untried legal move remains");
            let child = self.nodes.len();
            self.nodes.push(Node::new(mv.index() as u8, node.first_child));
            let node = &mut self.nodes[index];
            node.children = legal.count() as u8;
            node.first_child = child as u32;
            node.tried += 1;
            return Some(child);
        }
        let log_parent = (2.0 * node.visits as f64).ln();
        let ucb = |child: &Node| child.mean() + 2.0 * EXPLORATION * (log_parent / child.visits as f64).sqrt();
        // Ties go to the first child in board order, as a scan of an array in that order would.
        self.children(index).max_by(|&a, &b| {
            let (a, b) = (&self.nodes[a], &self.nodes[b]);
            ucb(a).total_cmp(&ucb(b)).then(b.mv.cmp(&a.mv))
        })
    }

    /// The most visited child of a node (the first in board order on a tie).
    fn most_visited(&self, index: usize) -> Option<usize> {
        self.children(index).max_by_key(|&c| (self.nodes[c].visits, std::cmp::Reverse(self.nodes[c].mv)))
    }

    fn principal_variation(&self) -> Vec<Point> {
        let mut pv = Vec::new();
        let mut index = 0;
        while let Some(child) = self.most_visited(index) {
            pv.push(self.nodes[child].point());
            index = child;
        }
        pv
    }
}

/// A rough win probability from a mean mobility, for display only: the seed has none.
fn win_rate(mean: f64) -> f64 {
    1.0 / (1.0 + (-crate::search::params::Params::default().eval_slope as f64 * mean).exp())
}

impl Engine for SeedEngine {
    fn name(&self) -> &'static str {
        "seed"
    }

    fn think(&mut self, position: &Position, budget: &Budget) -> Report {
        let started = Instant::now();
        self.nodes.clear();
        self.nodes.push(Node::new(0, NONE));
        let max = budget.nodes.unwrap_or(u64::MAX);
        let mut path = Vec::with_capacity(MAX_POSITIONS);
        let mut iterations = 0;
        while iterations < max && self.iterate(position, &mut path) {
            iterations += 1;
            if iterations.is_multiple_of(CLOCK_INTERVAL) && budget.expired() {
                break;
            }
        }
        let (best, win_rate, proof) = match self.most_visited(0) {
            Some(child) => {
                let child = self.nodes[child];
                let proof = if child.terminal { Proof::Win } else { Proof::Unknown };
                (child.point(), if child.terminal { 1.0 } else { win_rate(child.mean()) }, proof)
            }
            // Too small a budget to reach the children: the first legal move beats none.
            None => (position.legal_moves().first().expect("a non-terminal position"), 0.5, Proof::Unknown),
        };
        let mut pv = self.principal_variation();
        if pv.is_empty() {
            pv.push(best);
        }
        Report { best, iterations, elapsed: started.elapsed(), win_rate, pv, proof }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tactics::decisive_move;
    use crate::rules::test_support::random_positions;
    use crate::{Bitboard, Color};

    fn point(x: u8, y: u8) -> Point {
        Point::from_xy(x, y).unwrap()
    }

    #[test]
    fn leaf_value_is_the_movers_mobility_and_win_on_terminal() {
        // Black B9 and A8 make A9 a black-only point; black just moved, white to move.
        let black = Bitboard::from(point(1, 0)) | Bitboard::from(point(0, 1));
        let p = Position::from_stones(black, Bitboard::EMPTY, Color::White).unwrap();
        assert_eq!(leaf_value(&p), 1);
        // The same stones with black to move: white just moved and is one point behind.
        let p = Position::from_stones(black, Bitboard::EMPTY, Color::Black).unwrap();
        assert_eq!(leaf_value(&p), -1);
        // White fills all but A9 and B9, black on B9: black may not play A9 (it would take the
        // white group's last liberty), so black has lost.
        let white = Bitboard::FULL - Bitboard::from(point(0, 0)) - Bitboard::from(point(1, 0));
        let p = Position::from_stones(Bitboard::from(point(1, 0)), white, Color::Black).unwrap();
        assert!(p.is_terminal());
        assert_eq!(leaf_value(&p), WIN);
    }

    fn children_count(position: &Position) -> u64 {
        position.legal_moves().count() as u64
    }

    #[test]
    fn root_children_hold_their_movers_mobility_after_one_pass() {
        // White has a black-only point to fear at A9; black to move. After the root's own
        // evaluation and one visit per child, each child's Q is the mobility its move gives
        // black (the mover), so the sign is the mover's.
        let black = Bitboard::from(point(1, 0)) | Bitboard::from(point(0, 1));
        let white = Bitboard::from(point(8, 8));
        let root = Position::from_stones(black, white, Color::Black).unwrap();
        let mut engine = SeedEngine::new();
        engine.think(&root, &Budget::nodes(1 + children_count(&root)));
        let mut children: Vec<usize> = engine.children(0).collect();
        children.reverse();
        assert_eq!(children.len() as u64, children_count(&root));
        for (&child, p) in children.iter().zip(root.legal_moves()) {
            let child = engine.nodes[child];
            assert_eq!(child.point(), p, "children tried in board order");
            assert_eq!(child.visits, 1);
            let mut next = root.clone();
            next.play(p).unwrap();
            assert_eq!(child.q, leaf_value(&next), "child {p} holds the mover's value");
        }
        let root_node = engine.nodes[0];
        let sum: i64 = children.iter().map(|&c| engine.nodes[c].q).sum();
        assert_eq!(root_node.q, leaf_value(&root) - sum, "values are negated on the way up");
    }

    #[test]
    fn fixed_nodes_are_deterministic_and_legal() {
        let position = Position::from_moves([point(4, 4), point(2, 2), point(6, 6)]).unwrap();
        let a = SeedEngine::new().think(&position, &Budget::nodes(20_000));
        let b = SeedEngine::new().think(&position, &Budget::nodes(20_000));
        assert_eq!(a.best, b.best);
        assert_eq!(a.pv, b.pv);
        assert_eq!(a.iterations, 20_000);
        assert!(position.legal_moves().has(a.best));
        assert_eq!(a.pv.first(), Some(&a.best));
    }

    #[test]
    fn plays_a_decisive_move() {
        for position in random_positions(11, |p| decisive_move(p).is_some()) {
            let report = SeedEngine::new().think(&position, &Budget::nodes(2000));
            let mut next = position.clone();
            next.play(report.best).unwrap();
            assert!(next.is_terminal(), "the seed takes the win:\n{position}");
            assert_eq!(report.proof, Proof::Win);
        }
    }

    #[test]
    fn a_tiny_budget_still_answers_a_legal_move() {
        let position = Position::from_moves([point(4, 4)]).unwrap();
        for nodes in [0, 1, 2] {
            let report = SeedEngine::new().think(&position, &Budget::nodes(nodes));
            assert!(position.legal_moves().has(report.best));
        }
    }
}
