//! The tree of the playout search: an arena of nodes addressed by [`NodeId`]; a node's
//! children are one contiguous block, made all at once when the node is expanded. Between
//! turns the subtree of the position reached is kept and moved to the front in place, so the
//! arena never holds more than its cap.

use crate::rules::point::MAX_MOVES;
use crate::rules::{Bitboard, Point};
use crate::search::engine::Proof;

/// A node's place in the [`Tree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeId(u32);

impl NodeId {
    /// The root, always the first node.
    pub const ROOT: NodeId = NodeId(0);
}

/// One node: the move that reached it, and its statistics from the point of view of the
/// player who made that move (the mover).
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// Simulations through this node.
    visits: u32,
    /// Those the mover won.
    wins: f32,
    /// Simulations through the parent in which the mover played this node's move later on
    /// (all moves as first), with a prior of virtual ones.
    rave_visits: f32,
    /// Those the mover won.
    rave_wins: f32,
    /// The blend of the two means that selection reads, kept up to date by every update.
    value: f32,
    /// `1 / (n + n')`, `n` the simulations and `n'` the all-moves-as-first ones.
    inv_evidence: f32,
    /// The first child; meaningful once the node is expanded.
    first_child: u32,
    /// Bitboard index of the move.
    mv: u8,
    /// Children in the block (the legal moves here), once expanded.
    children: u8,
    /// Whether the children exist; an expanded node without children is terminal.
    expanded: bool,
    /// What is proven for the mover.
    pub proof: Proof,
}

/// How a node's two means are blended: `(1 - beta) * mean + beta * rave_mean` with
/// `beta = n' / (n + n' + bias * n * n')`, `bias` being `4 b^2` (MC-RAVE).
#[derive(Clone, Copy, Debug)]
pub struct Blend {
    /// `4 b^2`.
    pub bias: f32,
}

impl Node {
    /// A new node for the move `mv`, with `prior` virtual all-moves-as-first simulations won
    /// at the rate `prior_mean`.
    fn new(mv: Point, prior: f32, prior_mean: f32) -> Node {
        Node {
            visits: 0,
            wins: 0.0,
            rave_visits: prior,
            rave_wins: prior * prior_mean,
            value: prior_mean,
            inv_evidence: if prior > 0.0 { prior.recip() } else { 0.0 },
            first_child: 0,
            mv: mv.index() as u8,
            children: 0,
            expanded: false,
            proof: Proof::Unknown,
        }
    }

    /// The move that reached this node.
    #[inline]
    pub fn point(&self) -> Point {
        Point::from_index_unchecked(self.mv)
    }

    /// Whether the node's children exist.
    #[inline]
    pub fn is_expanded(&self) -> bool {
        self.expanded
    }

    /// Simulations through the node.
    #[inline]
    pub fn visits(&self) -> u32 {
        self.visits
    }

    /// The mover's share of wins, 0.5 before any visit.
    #[inline]
    pub fn mean(&self) -> f32 {
        if self.visits == 0 {
            0.5
        } else {
            self.wins / self.visits as f32
        }
    }

    /// The blended value selection reads (see [`Blend`]).
    #[inline]
    pub fn value(&self) -> f32 {
        self.value
    }

    /// `sqrt(n) / (n + n')`, `n` the simulations and `n'` the all-moves-as-first ones: the
    /// exploration term's share, which shrinks as either kind of evidence grows.
    #[inline]
    pub fn exploration(&self) -> f32 {
        (self.visits as f32).sqrt() * self.inv_evidence
    }

    /// Counts a simulation through the node, won by the mover or not.
    #[inline]
    pub fn count(&mut self, won: bool, blend: Blend) {
        self.visits += 1;
        self.wins += won as u32 as f32;
        self.reblend(blend);
    }

    /// Counts a simulation in which the mover played this move later on, won or not.
    #[inline]
    pub fn count_rave(&mut self, won: bool, blend: Blend) {
        self.rave_visits += 1.0;
        self.rave_wins += won as u32 as f32;
        self.reblend(blend);
    }

    #[inline]
    fn reblend(&mut self, blend: Blend) {
        let n = self.visits as f32;
        self.inv_evidence = (n + self.rave_visits).recip();
        self.value = if blend.bias == 0.0 {
            // beta = n' / (n + n'): the two kinds of simulation counted alike, one division.
            (self.wins + self.rave_wins) * self.inv_evidence
        } else if self.visits == 0 {
            self.rave_wins / self.rave_visits
        } else {
            let rave_mean = self.rave_wins / self.rave_visits;
            let beta = self.rave_visits / (n + self.rave_visits + blend.bias * n * self.rave_visits);
            let mean = self.wins / n;
            mean + beta * (rave_mean - mean)
        };
    }

    /// The children's ids.
    #[inline]
    pub fn children(&self) -> impl Iterator<Item = NodeId> {
        (self.first_child..self.first_child + self.children as u32).map(NodeId)
    }

    /// The child that plays `p`, given `moves`, the legal moves at this node (its children's
    /// moves in board order); `p` must be one of them.
    #[inline]
    pub fn child_playing(&self, moves: Bitboard, p: Point) -> NodeId {
        NodeId(self.first_child + moves.count_below(p))
    }
}

/// The arena, bounded by a number of nodes.
pub struct Tree {
    nodes: Vec<Node>,
    capacity: usize,
}

/// A children block to keep when the tree is re-rooted: where it is, and where its owner went.
#[derive(Clone, Copy)]
struct Kept {
    first: u32,
    len: u32,
    owner: u32,
}

impl Tree {
    /// An empty tree that will hold at most `memory_bytes` of nodes (at least one full
    /// expansion of the root). The arena is reserved whole at once, so it never grows past the
    /// cap by doubling; only the pages the search touches become resident. When the system
    /// refuses that much, the cap is halved until it is granted.
    pub fn new(memory_bytes: usize) -> Tree {
        let least = 1 + MAX_MOVES;
        let mut capacity = (memory_bytes / std::mem::size_of::<Node>()).max(least);
        let mut nodes = Vec::new();
        while nodes.try_reserve_exact(capacity).is_err() && capacity > least {
            capacity = (capacity / 2).max(least);
        }
        Tree { nodes, capacity }
    }

    /// Clears the tree to a lone root (its move is meaningless).
    pub fn reset(&mut self) {
        self.nodes.clear();
        self.nodes.push(Node::new(Point::from_index_unchecked(0), 0.0, 0.5));
    }

    /// The child of `id` that plays `p`, if `id` is expanded and `p` is one of its moves.
    pub fn child(&self, id: NodeId, p: Point) -> Option<NodeId> {
        self[id].children().find(|&c| self[c].point() == p)
    }

    /// Makes `id` the root, keeping its subtree and dropping the rest: the kept children blocks
    /// move to the front in the order they were made, which keeps every block after its owner,
    /// so each move only goes down the arena.
    pub fn reroot(&mut self, id: NodeId) {
        let mut kept: Vec<Kept> = Vec::new();
        let mut stack = vec![id];
        while let Some(node) = stack.pop() {
            let node = self[node];
            if node.is_expanded() && node.children > 0 {
                kept.push(Kept { first: node.first_child, len: node.children as u32, owner: u32::MAX });
                stack.extend(node.children());
            }
        }
        kept.sort_unstable_by_key(|block| block.first);
        self.nodes[0] = self[id];
        if let Some(first) = kept.first_mut() {
            first.owner = 0;
        }
        let mut write = 1;
        for i in 0..kept.len() {
            let Kept { first, len, owner } = kept[i];
            let (first, len) = (first as usize, len as usize);
            self.nodes.copy_within(first..first + len, write);
            self.nodes[owner as usize].first_child = write as u32;
            for moved in write..write + len {
                let node = self.nodes[moved];
                if node.is_expanded() && node.children > 0 {
                    let block =
                        kept.binary_search_by_key(&node.first_child, |b| b.first).expect("a kept block");
                    kept[block].owner = moved as u32;
                }
            }
            write += len;
        }
        self.nodes.truncate(write);
    }

    /// Nodes in the tree.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree is empty (before [`Tree::reset`]).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Gives `id` the children `moves`, each with `prior` virtual all-moves-as-first
    /// simulations won at the rate `prior_mean` gives its move; false, leaving it unexpanded,
    /// when the arena has no room for them. With no moves the node becomes terminal: proven won
    /// for its mover.
    pub fn expand(
        &mut self,
        id: NodeId,
        moves: Bitboard,
        prior: f32,
        prior_mean: impl Fn(Point) -> f32,
    ) -> bool {
        if self.nodes.len() + moves.count() as usize > self.capacity {
            return false;
        }
        let first = self.nodes.len() as u32;
        self.nodes.extend(moves.iter().map(|p| Node::new(p, prior, prior_mean(p))));
        let node = &mut self.nodes[id.0 as usize];
        node.first_child = first;
        node.children = moves.count() as u8;
        node.expanded = true;
        if moves.is_empty() {
            node.proof = Proof::Win;
        }
        true
    }
}

impl std::ops::Index<NodeId> for Tree {
    type Output = Node;
    #[inline]
    fn index(&self, id: NodeId) -> &Node {
        &self.nodes[id.0 as usize]
    }
}

impl std::ops::IndexMut<NodeId> for Tree {
    #[inline]
    fn index_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.0 as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_blend_weighs_the_means_by_beta() {
        let blend = Blend { bias: 0.0 };
        let mut node = Node::new(Point::from_index_unchecked(0), 2.0, 0.5);
        node.count_rave(true, blend);
        node.count_rave(true, blend);
        assert_eq!(node.value(), 3.0 / 4.0, "before a visit, the all-moves-as-first mean");
        node.count(false, blend);
        // beta = 4 / (1 + 4): 0.8 of the rave mean 3/4, 0.2 of the mean 0.
        assert!((node.value() - 0.6).abs() < 1e-6, "{}", node.value());
        let biased = Blend { bias: 1.0 };
        node.count(false, biased);
        // beta = 4 / (2 + 4 + 8) = 2/7: the mean 0 and the rave mean 3/4.
        assert!((node.value() - 3.0 / 14.0).abs() < 1e-6, "{}", node.value());
        // Two simulations and four all-moves-as-first ones: sqrt(2) / 6.
        assert!((node.exploration() - 2f32.sqrt() / 6.0).abs() < 1e-6);
    }

    #[test]
    fn rerooting_keeps_the_subtree_with_its_statistics() {
        let blend = Blend { bias: 0.0 };
        let mut tree = Tree::new(1 << 20);
        tree.reset();
        let moves: Bitboard = Bitboard::FULL.iter().take(5).collect();
        tree.expand(NodeId::ROOT, moves, 2.0, |_| 0.5);
        let children: Vec<NodeId> = tree[NodeId::ROOT].children().collect();
        // Grow the second and fourth children two levels deep, with distinct counts.
        for (k, &child) in children.iter().enumerate() {
            if k % 2 == 1 {
                tree.expand(child, moves, 2.0, |_| 0.5);
                let grandchildren: Vec<NodeId> = tree[child].children().collect();
                for (j, &g) in grandchildren.iter().enumerate() {
                    for _ in 0..(10 * k + j) {
                        tree[g].count(j % 2 == 0, blend);
                    }
                    if j == 2 {
                        tree.expand(g, moves, 2.0, |_| 0.5);
                        tree[g].proof = Proof::Loss;
                    }
                }
            }
        }
        let describe = |tree: &Tree, id: NodeId| {
            let mut lines = Vec::new();
            let mut stack = vec![(id, 0)];
            while let Some((node, depth)) = stack.pop() {
                let n = tree[node];
                lines.push((depth, n.point(), n.visits(), n.value(), n.proof, n.is_expanded()));
                stack.extend(n.children().map(|c| (c, depth + 1)));
            }
            lines
        };
        let new_root = children[3];
        let before = describe(&tree, new_root);
        tree.reroot(new_root);
        assert_eq!(describe(&tree, NodeId::ROOT), before);
        assert_eq!(tree.len(), 1 + 5 + 5, "the new root, its children and one grandchild's children");
        let leaf = tree[NodeId::ROOT].children().next().unwrap();
        assert!(!tree[leaf].is_expanded());
        tree.reroot(leaf);
        assert_eq!(tree.len(), 1);
    }

    #[test]
    fn expansion_makes_one_child_per_move_until_the_arena_is_full() {
        let mut tree = Tree::new(0);
        tree.reset();
        let moves = Bitboard::FULL;
        assert!(tree.expand(NodeId::ROOT, moves, 4.0, |_| 0.5));
        let children: Vec<Point> = tree[NodeId::ROOT].children().map(|c| tree[c].point()).collect();
        assert_eq!(children, moves.iter().collect::<Vec<_>>());
        for p in moves.iter() {
            assert_eq!(tree[tree[NodeId::ROOT].child_playing(moves, p)].point(), p);
        }
        let first = tree[NodeId::ROOT].children().next().unwrap();
        assert_eq!((tree[first].visits(), tree[first].value(), tree[first].mean()), (0, 0.5, 0.5));
        assert!(!tree.expand(first, moves, 4.0, |_| 0.5), "no room for another full expansion");
        assert!(!tree[first].is_expanded());
        assert!(tree.expand(first, Bitboard::EMPTY, 4.0, |_| 0.5));
        assert_eq!(
            tree[first].proof,
            Proof::Win,
            "a node whose side to move has no move is won for its mover"
        );
    }
}
