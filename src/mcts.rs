//! Monte Carlo tree search scored by evaluation, not playouts.
//!
//! The tree is an arena (`Vec<Node>`, index links) allocated once at the memory cap. A node's
//! children are one contiguous block, allocated when the node is first revisited and tried in
//! board order; once all are tried, UCB picks among them. A new node is scored by
//! [`eval::value`] and the value is backed up, flipped at each level. Between moves the subtree
//! of the position reached is kept and slid to the front of the arena in place, so memory never
//! passes the cap however many turns are played.

use crate::bitboard::Bitboard;
use crate::engine::{Budget, Engine, Report};
use crate::eval;
use crate::params::Params;
use crate::point::Point;
use crate::position::Position;
use std::time::Instant;

/// One tree node: the move that reached it and its statistics from the point of view of the
/// player who made that move.
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Node {
    /// Mean value in `[0, 1]` for the player who made `mv`.
    mean: f32,
    /// `1 / sqrt(visits)`, kept so selection needs no square root per child.
    inv_sqrt_visits: f32,
    visits: u32,
    /// Index of the first child; meaningful when `children > 0`.
    first_child: u32,
    /// Bitboard index of the move.
    mv: u8,
    /// Size of the children block (0 until expanded).
    children: u8,
    /// Children tried so far, in block order.
    tried: u8,
    /// The side to move here has no legal move: the mover won.
    terminal: bool,
}

impl Node {
    fn leaf(mv: Point) -> Node {
        Node { mv: mv.index() as u8, ..Node::default() }
    }

    #[inline]
    fn update(&mut self, value: f32) {
        self.visits += 1;
        self.mean += (value - self.mean) / self.visits as f32;
        self.inv_sqrt_visits = (self.visits as f32).sqrt().recip();
    }

    fn point(&self) -> Point {
        Point::from_index(self.mv).expect("node moves are board points")
    }

    fn child_range(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + self.children as usize
    }
}

/// Deepest path an iteration can take: one move per board point, plus the root.
const MAX_DEPTH: usize = 82;
/// Iterations between clock reads: reading the clock costs as much as a short iteration.
const CLOCK_INTERVAL: u64 = 256;

/// The search: tree, parameters, and what it needs to reuse the tree next move.
pub struct Mcts {
    params: Params,
    nodes: Vec<Node>,
    capacity: usize,
    /// The position at the root of `nodes`, if a tree is kept.
    root_position: Option<Position>,
    rng: fastrand::Rng,
}

impl Mcts {
    pub fn new(params: Params, seed: u64) -> Mcts {
        let capacity = (params.memory_bytes / std::mem::size_of::<Node>()).max(MAX_DEPTH * 82);
        Mcts { params, nodes: Vec::new(), capacity, root_position: None, rng: fastrand::Rng::with_seed(seed) }
    }

    /// Nodes in the tree now.
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// Bytes the tree's arena holds (allocated, whether used or not).
    pub fn reserved_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
    }

    /// Makes the root hold `position`, keeping the subtree already searched when `position`
    /// is the root or two moves below it (our move and the reply); otherwise starts afresh.
    fn set_root(&mut self, position: &Position) {
        if self.nodes.capacity() < self.capacity {
            self.nodes = Vec::with_capacity(self.capacity);
        }
        let kept = self.root_position.as_ref().and_then(|old| self.find_descendant(old, position, 2));
        match kept {
            Some(0) => {}
            Some(index) => self.compact_to(index),
            None => {
                self.nodes.clear();
                self.nodes.push(Node::default());
            }
        }
        self.root_position = Some(position.clone());
    }

    /// The node at most `depth` moves below the root whose position is `target`.
    fn find_descendant(&self, from: &Position, target: &Position, depth: usize) -> Option<usize> {
        self.find_below(0, from, target, depth)
    }

    fn find_below(&self, index: usize, at: &Position, target: &Position, depth: usize) -> Option<usize> {
        if at.hash() == target.hash() && at == target {
            return Some(index);
        }
        if depth == 0 || at.moves_played() >= target.moves_played() {
            return None;
        }
        let node = self.nodes[index];
        for child in node.child_range().take(node.tried as usize) {
            let mut next = at.clone();
            next.play_unchecked(self.nodes[child].point());
            if let Some(found) = self.find_below(child, &next, target, depth - 1) {
                return Some(found);
            }
        }
        None
    }

    /// Keeps only the subtree under `root`, slid to the front of the arena in place. Children
    /// are always allocated after their parent, so sliding live nodes down in index order
    /// never overwrites one not yet moved, and the subtree's root lands at index 0.
    fn compact_to(&mut self, root: usize) {
        let words = self.nodes.len().div_ceil(64);
        let mut live = vec![0u64; words];
        let mut stack = vec![root];
        live[root / 64] |= 1 << (root % 64);
        while let Some(index) = stack.pop() {
            for child in self.nodes[index].child_range() {
                live[child / 64] |= 1 << (child % 64);
                stack.push(child);
            }
        }
        let mut before = Vec::with_capacity(words);
        let mut total = 0u32;
        for word in &live {
            before.push(total);
            total += word.count_ones();
        }
        let new_index = |old: usize| -> u32 {
            let below = live[old / 64] & ((1u64 << (old % 64)) - 1);
            before[old / 64] + below.count_ones()
        };
        for (w, &word) in live.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let old = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let mut node = self.nodes[old];
                if node.children > 0 {
                    node.first_child = new_index(node.first_child as usize);
                }
                self.nodes[new_index(old) as usize] = node;
            }
        }
        self.nodes.truncate(total as usize);
    }

    /// One iteration: descend by UCB, score one new node, back its value up.
    #[inline]
    fn iterate(&mut self, root: &Position) {
        let mut path = [0u32; MAX_DEPTH];
        let mut depth = 0;
        let mut position = root.clone();
        let mut index = 0usize;
        let value = loop {
            path[depth] = index as u32;
            depth += 1;
            let node = self.nodes[index];
            if node.visits == 0 {
                let value = eval::value(&position, self.params.eval_slope);
                if value == 1.0 {
                    self.nodes[index].terminal = true;
                }
                break value;
            }
            if node.terminal {
                break 1.0;
            }
            if node.children == 0 && !self.expand(index, &position) {
                // The arena is full: refine what is there by backing the node's value up again.
                break node.mean;
            }
            let child = self.select(index);
            position.play_unchecked(self.nodes[child].point());
            index = child;
        };
        let mut value = value;
        for &i in path[..depth].iter().rev() {
            self.nodes[i as usize].update(value);
            value = 1.0 - value;
        }
    }

    /// Allocates the children of a node whose position is `position`; false when full.
    fn expand(&mut self, index: usize, position: &Position) -> bool {
        let legal = position.legal_moves();
        let count = legal.count() as usize;
        if self.nodes.len() + count > self.capacity {
            return false;
        }
        let first = self.nodes.len();
        self.nodes.extend(legal.iter().map(Node::leaf));
        let node = &mut self.nodes[index];
        node.first_child = first as u32;
        node.children = count as u8;
        true
    }

    /// The child to descend into: the next untried one, else the best by UCB.
    #[inline]
    fn select(&mut self, index: usize) -> usize {
        let node = self.nodes[index];
        let first = node.first_child as usize;
        if node.tried < node.children {
            self.nodes[index].tried += 1;
            return first + node.tried as usize;
        }
        let explore = self.params.exploration * (node.visits as f32).ln().sqrt();
        let children = &self.nodes[node.child_range()];
        let mut best = 0;
        let mut best_score = f32::NEG_INFINITY;
        for (i, child) in children.iter().enumerate() {
            let score = child.mean + explore * child.inv_sqrt_visits;
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        first + best
    }

    /// The most visited tried child of a node.
    fn most_visited(&self, index: usize) -> Option<usize> {
        let node = self.nodes[index];
        node.child_range()
            .take(node.tried as usize)
            .max_by_key(|&c| (self.nodes[c].visits, std::cmp::Reverse(c)))
    }

    /// Visits of the root's child playing `mv` (0 when not searched).
    pub fn root_child_visits(&self, mv: Point) -> u32 {
        let root = self.nodes.first().copied().unwrap_or_default();
        root.child_range()
            .map(|c| self.nodes[c])
            .find(|child| child.mv as usize == mv.index())
            .map_or(0, |child| child.visits)
    }

    /// The root's searched children after a search: each move with its visits and mean value
    /// for the side to move at the root. For analysis displays; meaningful only after a
    /// [`Engine::think`] that searched (a decisive move is answered without a search).
    pub fn root_children(&self) -> Vec<(Point, u32, f32)> {
        let root = self.nodes.first().copied().unwrap_or_default();
        root.child_range()
            .take(root.tried as usize)
            .map(|c| self.nodes[c])
            .map(|n| (n.point(), n.visits, n.mean))
            .collect()
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

/// A move that leaves the opponent no legal move, if there is one: it wins at once.
pub fn decisive_move(position: &Position) -> Option<Point> {
    let opponent = !position.to_move();
    position.legal_moves().iter().find(|&p| {
        let mut next = position.clone();
        next.play_unchecked(p);
        next.legal(opponent).is_empty()
    })
}

impl Engine for Mcts {
    fn name(&self) -> &'static str {
        "mcts"
    }

    fn think(&mut self, position: &Position, budget: &Budget) -> Report {
        let started = Instant::now();
        if let Some(win) = decisive_move(position) {
            let mut report = Report::instant(win, 1.0, started);
            report.proven = Some(true);
            return report;
        }
        self.set_root(position);
        let mut iterations = 0u64;
        let max = budget.nodes.unwrap_or(u64::MAX);
        while iterations < max {
            self.iterate(position);
            iterations += 1;
            if iterations.is_multiple_of(CLOCK_INTERVAL) && budget.expired() {
                break;
            }
        }
        let best_child = self.most_visited(0);
        let (best, win_rate) = match best_child {
            Some(child) => (self.nodes[child].point(), self.nodes[child].mean as f64),
            None => {
                // No iteration ran (an expired budget): any legal move beats none.
                let legal: Bitboard = position.legal_moves();
                let pick = legal.nth(self.rng.u32(..legal.count())).expect("non-terminal");
                (pick, 0.5)
            }
        };
        Report {
            best,
            iterations,
            elapsed: started.elapsed(),
            win_rate,
            pv: self.principal_variation(),
            proven: None,
        }
    }

    fn new_game(&mut self) {
        self.root_position = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_out(moves: &[(u8, u8)]) -> Position {
        Position::from_moves(moves.iter().map(|&(x, y)| Point::from_xy(x, y).unwrap())).unwrap()
    }

    #[test]
    fn fixed_nodes_are_reproducible_and_legal() {
        let position = play_out(&[(4, 4), (2, 2), (6, 6)]);
        let a = Mcts::new(Params::default(), 1).think(&position, &Budget::nodes(5000));
        let b = Mcts::new(Params::default(), 2).think(&position, &Budget::nodes(5000));
        assert_eq!(a.best, b.best, "search does not depend on the seed when it needs no randomness");
        assert_eq!(a.iterations, 5000);
        assert!(position.legal_moves().has(a.best));
        assert_eq!(a.pv.first(), Some(&a.best));
    }

    #[test]
    fn plays_a_decisive_move_at_once() {
        let mut rng = fastrand::Rng::with_seed(5);
        let mut found = 0;
        while found < 20 {
            let mut position = Position::new();
            while !position.is_terminal() {
                if decisive_move(&position).is_some() {
                    let report = Mcts::new(Params::default(), 0).think(&position, &Budget::nodes(1000));
                    assert_eq!(report.proven, Some(true));
                    let mut next = position.clone();
                    next.play(report.best).unwrap();
                    assert!(next.is_terminal(), "the reported win ends the game");
                    found += 1;
                    break;
                }
                let legal = position.legal_moves();
                position.play(legal.nth(rng.u32(..legal.count())).unwrap()).unwrap();
            }
        }
    }

    #[test]
    fn tree_is_reused_two_moves_later_and_stays_under_the_cap() {
        let params = Params { memory_bytes: 400_000, ..Params::default() };
        let mut mcts = Mcts::new(params, 0);
        let cap = mcts.capacity;
        let mut position = Position::new();
        let mut rng = fastrand::Rng::with_seed(9);
        for turn in 0..12 {
            let report = mcts.think(&position, &Budget::nodes(30_000));
            assert!(mcts.tree_size() <= cap);
            assert!(position.legal_moves().has(report.best));
            position.play(report.best).unwrap();
            if position.is_terminal() {
                break;
            }
            let reply = position.legal_moves().nth(rng.u32(..position.legal_moves().count())).unwrap();
            let searched_reply = {
                let child = mcts.most_visited(0).unwrap();
                mcts.nodes[child].tried > 0
            };
            position.play(reply).unwrap();
            if position.is_terminal() {
                break;
            }
            let before = mcts.find_descendant(mcts.root_position.as_ref().unwrap(), &position, 2);
            if turn > 0 && searched_reply {
                // Whether this exact reply was searched depends on the tree; when it was, the
                // next search starts from its statistics.
                if let Some(index) = before {
                    let visits = mcts.nodes[index].visits;
                    mcts.set_root(&position);
                    assert_eq!(mcts.nodes[0].visits, visits, "root keeps the reused statistics");
                }
            }
        }
    }

    #[test]
    fn compaction_keeps_the_subtree_intact() {
        let mut mcts = Mcts::new(Params::default(), 0);
        let root = Position::new();
        mcts.think(&root, &Budget::nodes(20_000));
        let child = mcts.most_visited(0).unwrap();
        let grandchild = mcts.most_visited(child).unwrap();
        let mut target = root.clone();
        target.play_unchecked(mcts.nodes[child].point());
        target.play_unchecked(mcts.nodes[grandchild].point());
        let sum_before = subtree_visits(&mcts, grandchild);
        let size_before = subtree_size(&mcts, grandchild);
        mcts.set_root(&target);
        assert_eq!(subtree_visits(&mcts, 0), sum_before);
        assert_eq!(subtree_size(&mcts, 0), size_before);
        assert_eq!(mcts.tree_size(), size_before);
    }

    fn subtree_visits(mcts: &Mcts, index: usize) -> u64 {
        mcts.nodes[index].visits as u64
            + mcts.nodes[index].child_range().map(|c| subtree_visits(mcts, c)).sum::<u64>()
    }

    fn subtree_size(mcts: &Mcts, index: usize) -> usize {
        1 + mcts.nodes[index].child_range().map(|c| subtree_size(mcts, c)).sum::<usize>()
    }
}
