//! The search tree both tree searches grow: an arena of nodes addressed by [`NodeId`], each
//! node's children one contiguous block. A node is its links (the move that reached it, its
//! children block, its proof) and the search's statistics `S`, each kept in an array of its
//! own so that choosing a child reads nothing but its siblings' statistics. The arena is
//! reserved once at the memory cap (`memory`);
//! between turns the subtree of the position reached is kept and slid to the front
//! ([`Tree::set_root`]), so the arena never holds more than its cap. A search's simulations
//! use it through [`Nodes`], owned by one thread or [`Shared`] by several.

mod log_table;
mod memory;
mod nodes;
mod reuse;
mod shared;

use crate::rules::point::{MAX_MOVES, MAX_POSITIONS};
use crate::rules::{Bitboard, Point, Position};
use crate::search::engine::Proof;
pub use log_table::sqrt_ln;
use memory::Columns;
pub use nodes::Nodes;
pub(crate) use shared::Padded;
pub use shared::{Handle, Shared, Words};

/// A node's place in its [`Tree`]. Valid until the tree is re-rooted or reset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeId(u32);

impl NodeId {
    /// The root, always the first node.
    pub const ROOT: NodeId = NodeId(0);

    /// A number for the node in tables of the search's own (a cache slot, for instance).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    fn at(self, offset: usize) -> NodeId {
        NodeId(self.0 + offset as u32)
    }
}

/// What a search keeps in each node besides its links.
pub trait Stats: Copy + Default {
    /// Simulations through the node.
    fn visits(&self) -> u32;

    /// The share of them won by the player who moved into the node.
    fn mean(&self) -> f32;

    /// Records `proof` in the statistics too, for searches whose selection reads proofs from
    /// the statistics alone.
    #[inline]
    fn prove(&mut self, _proof: Proof) {}
}

/// A node's links: the move that reached it, its children block and its proof; one 8-byte
/// word, which threads read and write atomically ([`Shared`]).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(8))]
pub struct Links {
    /// The block's first node; meaningful while `slots > 0`.
    first: u32,
    /// Bitboard index of the move.
    mv: u8,
    /// Nodes in the block: its children, then room for children still to be made.
    slots: u8,
    /// The block's first `children` nodes are the node's children.
    children: u8,
    /// What is proven for the player who moved into the node.
    proof: Proof,
}

impl Links {
    /// What is proven for the player who moved into the node.
    #[inline]
    pub fn proof(&self) -> Proof {
        self.proof
    }

    /// The links of a node without children, with `proof`.
    #[cfg(test)]
    pub fn with_proof(proof: Proof) -> Links {
        Links { proof, ..Links::default() }
    }
}

/// The arena, bounded by a number of nodes, and the position at its root.
pub struct Tree<S: Stats> {
    columns: Columns<S>,
    /// Most nodes the arena may hold.
    capacity: usize,
    /// The position at the root, while a tree is kept.
    root: Option<Position>,
    /// The move that reached the root's position, when it followed the last one searched.
    root_last_move: Option<Point>,
}

impl<S: Stats> Tree<S> {
    /// Bytes of one node, all columns together.
    pub const NODE_BYTES: usize = size_of::<Links>() + size_of::<S>();

    /// The fewest nodes a tree holds: a path of fully expanded nodes through the game.
    const LEAST: usize = MAX_POSITIONS * (1 + MAX_MOVES);

    /// An empty tree of at most `memory_bytes`, reserved when first searched.
    pub fn new(memory_bytes: usize) -> Tree<S> {
        let capacity = (memory_bytes / Self::NODE_BYTES).max(Self::LEAST);
        Tree { columns: Columns::default(), capacity, root: None, root_last_move: None }
    }

    /// Most nodes the arena may hold.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Nodes in the tree now.
    pub fn len(&self) -> usize {
        self.columns.links.len()
    }

    /// Whether the tree holds no node (before its first search).
    pub fn is_empty(&self) -> bool {
        self.columns.links.is_empty()
    }

    /// Whether the arena has room for `nodes` more.
    #[inline]
    pub fn has_room(&self, nodes: usize) -> bool {
        self.len() + nodes <= self.capacity
    }

    /// Whether the tree holds the last search, of `position`.
    pub fn holds(&self, position: &Position) -> bool {
        self.root.as_ref() == Some(position)
    }

    /// The move that reached the root's position, when known.
    pub fn root_last_move(&self) -> Option<Point> {
        self.root_last_move
    }

    /// Drops the kept tree: the next search starts afresh.
    pub fn forget(&mut self) {
        self.root = None;
        self.root_last_move = None;
    }

    /// Clears the tree to a lone root.
    fn reset(&mut self) {
        self.columns.truncate(0);
        self.columns.push(Links::default(), S::default());
    }

    /// The move that reached `id` (meaningless at the root).
    #[inline]
    pub fn point(&self, id: NodeId) -> Point {
        Point::from_index_unchecked(self.links(id).mv)
    }

    /// What is proven for the player who moved into `id`.
    #[inline]
    pub fn proof(&self, id: NodeId) -> Proof {
        self.links(id).proof
    }

    /// Records `proof` for the player who moved into `id`.
    #[inline]
    pub fn set_proof(&mut self, id: NodeId, proof: Proof) {
        self.columns.links[id.index()].proof = proof;
        self.columns.stats[id.index()].prove(proof);
    }

    /// The statistics of `id`.
    #[inline]
    pub fn stats(&self, id: NodeId) -> &S {
        &self.columns.stats[id.index()]
    }

    /// The statistics of `id`, to update.
    #[inline]
    pub fn stats_mut(&mut self, id: NodeId) -> &mut S {
        &mut self.columns.stats[id.index()]
    }

    /// Whether `id` has children.
    #[inline]
    pub fn has_children(&self, id: NodeId) -> bool {
        self.links(id).children > 0
    }

    /// How many children `id` has.
    #[inline]
    pub fn child_count(&self, id: NodeId) -> usize {
        self.links(id).children as usize
    }

    /// The slots of `id`'s children block: its children and the room after them.
    #[inline]
    pub fn slots(&self, id: NodeId) -> usize {
        self.links(id).slots as usize
    }

    /// The children of `id`, in the order they were made.
    #[inline]
    pub fn children(&self, id: NodeId) -> impl DoubleEndedIterator<Item = NodeId> + Clone {
        let links = self.links(id);
        (links.first..links.first + links.children as u32).map(NodeId)
    }

    /// The child `offset` places into `id`'s block.
    #[inline]
    pub fn child_at(&self, id: NodeId, offset: usize) -> NodeId {
        NodeId(self.links(id).first).at(offset)
    }

    /// The child of `id` that plays `p`, if there is one.
    pub fn child(&self, id: NodeId, p: Point) -> Option<NodeId> {
        self.children(id).find(|&c| self.point(c) == p)
    }

    /// The statistics of `id`'s children, in order.
    #[inline]
    pub fn child_stats(&self, id: NodeId) -> &[S] {
        &self.columns.stats[self.child_range(id)]
    }

    /// The proofs of `id`'s children, in order.
    #[inline]
    pub fn child_proofs(&self, id: NodeId) -> impl Iterator<Item = Proof> + '_ {
        self.child_links(id).iter().map(|l| l.proof)
    }

    /// The links of `id`'s children, in order.
    #[inline]
    pub fn child_links(&self, id: NodeId) -> &[Links] {
        &self.columns.links[self.child_range(id)]
    }

    /// The statistics of `id`'s children, to update.
    #[inline]
    pub fn child_stats_mut(&mut self, id: NodeId) -> &mut [S] {
        let range = self.child_range(id);
        &mut self.columns.stats[range]
    }

    /// Gives `id`, which has no block, the children `moves`, in board order, each with the
    /// statistics `new` gives its move; false, changing nothing, when the arena has no room
    /// for them.
    pub fn expand(&mut self, id: NodeId, moves: Bitboard, new: impl Fn(Point) -> S) -> bool {
        let count = moves.count() as usize;
        if !self.has_room(count) {
            return false;
        }
        let first = self.len() as u32;
        self.columns.populate(self.len() + count);
        for p in moves {
            self.columns.push(Links { mv: p.index() as u8, ..Links::default() }, new(p));
        }
        let links = &mut self.columns.links[id.index()];
        (links.first, links.slots, links.children) = (first, count as u8, count as u8);
        true
    }

    /// Moves `id`'s children to a new block at the end of the arena, followed by fresh slots
    /// for the moves `more` (bitboard indices), children still to be made by
    /// [`Tree::add_child`]; false, changing nothing, when the arena has no room.
    pub fn grow_block(&mut self, id: NodeId, more: &[u8]) -> bool {
        let links = *self.links(id);
        let size = links.children as usize + more.len();
        if !self.has_room(size) {
            return false;
        }
        let first = self.len();
        self.columns.populate(first + size);
        self.columns.extend_from_within(self.child_range(id));
        for &mv in more {
            self.columns.push(Links { mv, ..Links::default() }, S::default());
        }
        let links = &mut self.columns.links[id.index()];
        (links.first, links.slots) = (first as u32, size as u8);
        true
    }

    /// Makes the next slot of `id`'s block a child (there must be one) and returns it.
    #[inline]
    pub fn add_child(&mut self, id: NodeId) -> NodeId {
        let links = &mut self.columns.links[id.index()];
        debug_assert!(links.children < links.slots, "a free slot");
        links.children += 1;
        NodeId(links.first).at(links.children as usize - 1)
    }

    #[inline]
    fn links(&self, id: NodeId) -> &Links {
        &self.columns.links[id.index()]
    }

    #[inline]
    fn child_range(&self, id: NodeId) -> std::ops::Range<usize> {
        let links = self.links(id);
        links.first as usize..links.first as usize + links.children as usize
    }
}

#[cfg(test)]
mod tests;
