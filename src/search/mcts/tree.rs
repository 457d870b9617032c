//! The search tree's storage: an arena of nodes (`Vec<Node>`, index links) reserved once at
//! the memory cap. A node's children are one contiguous block, created as the search tries
//! them; the block grows by doubling, so the arena holds little more than the nodes searched.
//! Between moves the subtree of the position reached is kept and slid to the front of the
//! arena in place, so memory never passes the cap however many turns are played.

use crate::rules::point::{MAX_MOVES, MAX_POSITIONS};
use crate::rules::{Point, Position};
use crate::search::engine::Proof;

/// One tree node: the move that reached it and its statistics from the point of view of the
/// player who made that move.
#[derive(Clone, Copy, Default)]
#[repr(C)]
pub(super) struct Node {
    /// Mean value in `[0, 1]` for the player who made `mv`.
    pub mean: f32,
    /// `1 / sqrt(visits)`, kept so selection needs no square root per child.
    pub inv_sqrt_visits: f32,
    pub visits: u32,
    /// Index of the first child; meaningful when `tried > 0`.
    pub first_child: u32,
    /// Bitboard index of the move.
    pub mv: u8,
    /// Number of legal moves here, recorded when the node is scored.
    pub children: u8,
    /// Children tried so far: the first `tried` of the block, in move order.
    pub tried: u8,
    /// Game-theoretic value for the player who made `mv`.
    pub proof: Proof,
}

impl Node {
    #[inline]
    pub fn update(&mut self, value: f32) {
        self.visits += 1;
        self.mean += (value - self.mean) / self.visits as f32;
        self.inv_sqrt_visits = (self.visits as f32).sqrt().recip();
    }

    pub fn point(&self) -> Point {
        Point::from_index(self.mv).expect("node moves are board points")
    }

    /// The tried children's indices.
    pub fn child_range(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + self.tried as usize
    }

    /// The whole children block, untried slots included.
    pub fn block_range(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + block_capacity(self.tried as usize, self.children as usize)
    }
}

/// Slots in the children block of a node with `legal` moves once `tried` are tried: doubling
/// from 4, so growing costs little and the block is at most twice what is used.
#[inline]
pub(super) fn block_capacity(tried: usize, legal: usize) -> usize {
    if tried == 0 {
        0
    } else {
        legal.min(tried.next_power_of_two().max(4))
    }
}

/// Smallest arena: room for one path of fully expanded nodes (the node and its children).
const MIN_CAPACITY: usize = MAX_POSITIONS * (MAX_MOVES + 1);

/// The arena of nodes, with the position at its root.
pub(super) struct Tree {
    pub nodes: Vec<Node>,
    /// Most nodes the arena may hold.
    capacity: usize,
    /// The position at the root of `nodes`, if a tree is kept.
    root_position: Option<Position>,
    /// The move that reached the root, when the position before it was searched too.
    root_last_move: Option<Point>,
    /// Nodes of the arena whose memory is already written to (see [`Tree::populate`]).
    populated: usize,
}

impl Tree {
    /// An empty tree of at most `memory_bytes`; the arena is reserved on first use.
    pub fn new(memory_bytes: usize) -> Tree {
        let capacity = (memory_bytes / size_of::<Node>()).max(MIN_CAPACITY);
        Tree { nodes: Vec::new(), capacity, root_position: None, root_last_move: None, populated: 0 }
    }

    /// Most nodes the arena may hold.
    #[cfg(test)]
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The position at the root, if a tree is kept.
    pub fn root_position(&self) -> Option<&Position> {
        self.root_position.as_ref()
    }

    /// The move that reached the root, when known.
    pub fn root_last_move(&self) -> Option<Point> {
        self.root_last_move
    }

    /// Drops the kept tree: the next root starts afresh.
    pub fn forget(&mut self) {
        self.root_position = None;
    }

    /// Reserves the arena at the cap, halving the cap while the system refuses the memory.
    fn reserve_arena(&mut self) {
        let mut nodes = Vec::new();
        while nodes.try_reserve_exact(self.capacity).is_err() && self.capacity > MIN_CAPACITY {
            self.capacity = (self.capacity / 2).max(MIN_CAPACITY);
            eprintln!(
                "nogo: search tree memory refused; trying {} MB",
                (self.capacity * size_of::<Node>()) >> 20
            );
        }
        if nodes.capacity() < self.capacity {
            nodes.reserve_exact(self.capacity);
        }
        self.nodes = nodes;
        self.populated = 0;
    }

    /// Makes sure the memory of the first `end` nodes of the arena is backed, a megabyte beyond
    /// at a time: one system call (Linux's `MADV_POPULATE_WRITE`) instead of a page fault for
    /// every 4 KiB the growing tree first touches. Elsewhere, or when refused, the pages are
    /// faulted in as they are touched.
    #[inline]
    fn populate(&mut self, end: usize) {
        if end <= self.populated {
            return;
        }
        const AHEAD: usize = (1 << 20) / size_of::<Node>();
        let (from, to) = (self.populated, (end + AHEAD).min(self.nodes.capacity()));
        self.populated = to;
        #[cfg(target_os = "linux")]
        {
            const PAGE: usize = 4096;
            const MADV_POPULATE_WRITE: libc::c_int = 23;
            let base = self.nodes.as_mut_ptr() as usize;
            let first = (base + from * size_of::<Node>()).next_multiple_of(PAGE);
            let last = (base + to * size_of::<Node>()) / PAGE * PAGE;
            if last > first {
                // SAFETY: whole pages inside the arena's own allocation, written with zeros by the
                // kernel only where not yet backed; nothing there is read before it is written.
                unsafe {
                    libc::madvise(first as *mut libc::c_void, last - first, MADV_POPULATE_WRITE);
                }
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = from;
    }

    /// Makes the root hold `position`, keeping the subtree already searched when `position`
    /// is the root or two moves below it (our move and the reply); otherwise starts afresh.
    pub fn set_root(&mut self, position: &Position) {
        if self.nodes.capacity() < self.capacity {
            self.reserve_arena();
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
        self.root_last_move = match &self.root_position {
            Some(old) if old == position => self.root_last_move,
            Some(old) => last_move(old, position),
            None => None,
        };
        self.root_position = Some(position.clone());
    }

    /// The node at most `depth` moves below the root whose position is `target`.
    pub fn find_descendant(&self, from: &Position, target: &Position, depth: usize) -> Option<usize> {
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
        for child in node.child_range() {
            let mut next = at.clone();
            next.play_unchecked(self.nodes[child].point());
            if let Some(found) = self.find_below(child, &next, target, depth - 1) {
                return Some(found);
            }
        }
        None
    }

    /// Keeps only the subtree under `root` (whole children blocks, so they can keep growing in
    /// place), with `root` at index 0 and its descendants slid down in place behind it. Sliding live nodes down in index order never overwrites one
    /// not yet moved: each goes to one plus its rank among the live descendants, and the
    /// dead old root at index 0 is below all of them.
    fn compact_to(&mut self, root: usize) {
        let words = self.nodes.len().div_ceil(64);
        let mut live = vec![0u64; words];
        let mut stack = vec![root];
        while let Some(index) = stack.pop() {
            let node = self.nodes[index];
            for slot in node.block_range() {
                live[slot / 64] |= 1 << (slot % 64);
            }
            stack.extend(node.child_range());
        }
        let mut before = Vec::with_capacity(words);
        let mut total = 1u32;
        for word in &live {
            before.push(total);
            total += word.count_ones();
        }
        let new_index = |old: usize| -> u32 {
            let below = live[old / 64] & ((1u64 << (old % 64)) - 1);
            before[old / 64] + below.count_ones()
        };
        let relink = |mut node: Node| {
            if node.tried > 0 {
                node.first_child = new_index(node.first_child as usize);
            }
            node
        };
        let new_root = relink(self.nodes[root]);
        for (w, &word) in live.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let old = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.nodes[new_index(old) as usize] = relink(self.nodes[old]);
            }
        }
        self.nodes[0] = new_root;
        self.nodes.truncate(total as usize);
    }

    /// Whether the arena has room for a block of `size` more nodes.
    pub fn has_room(&self, size: usize) -> bool {
        self.nodes.len() + size <= self.capacity
    }

    /// Moves the children block of node `index` to the end of the arena, its tried children
    /// first, then new children playing `moves`; the block's new first index. The arena must
    /// have room ([`Tree::has_room`]).
    pub fn grow_block(&mut self, index: usize, moves: &[u8]) -> usize {
        let node = self.nodes[index];
        let new_first = self.nodes.len();
        self.populate(new_first + node.tried as usize + moves.len());
        self.nodes.extend_from_within(node.child_range());
        self.nodes.extend(moves.iter().map(|&mv| Node { mv, ..Node::default() }));
        self.nodes[index].first_child = new_first as u32;
        new_first
    }
}

/// The last move of the game at `now`, when `now` follows `before` by a move or two: the one
/// stone of the side that just moved that `before` lacks.
fn last_move(before: &Position, now: &Position) -> Option<Point> {
    let mover = !now.to_move();
    let added = now.stones(mover) - before.stones(mover);
    let follows = before.stones(mover).is_subset(now.stones(mover))
        && before.stones(!mover).is_subset(now.stones(!mover));
    (follows && added.has_at_most_one()).then(|| added.first()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::test_support::play_out;

    #[test]
    fn last_move_is_found_one_or_two_moves_later() {
        let before = play_out(&[(4, 4), (2, 2)]);
        let one = play_out(&[(4, 4), (2, 2), (6, 6)]);
        let two = play_out(&[(4, 4), (2, 2), (6, 6), (0, 8)]);
        assert_eq!(last_move(&before, &one), Point::from_xy(6, 6));
        assert_eq!(last_move(&before, &two), Point::from_xy(0, 8));
        assert_eq!(last_move(&one, &two), Point::from_xy(0, 8));
        assert_eq!(last_move(&before, &before), None);
        let elsewhere = play_out(&[(4, 3), (2, 2), (6, 6)]);
        assert_eq!(last_move(&before, &elsewhere), None, "not reached from `before`");
        let three = play_out(&[(4, 4), (2, 2), (6, 6), (0, 8), (8, 0)]);
        assert_eq!(last_move(&one, &three), Point::from_xy(8, 0));
        assert_eq!(last_move(&before, &three), None, "two new stones of the mover");
    }
}
