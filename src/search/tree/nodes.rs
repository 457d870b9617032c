//! What a simulation reads and changes in a tree, the same for a tree one thread owns
//! ([`Tree`]) and for one that threads search together ([`super::Shared`]), so that a
//! search's policy is written once for both.

use super::{NodeId, Stats, Tree};
use crate::rules::{Bitboard, Point};
use crate::search::engine::Proof;

/// A tree as a simulation uses it.
pub trait Nodes<S: Stats> {
    /// What is proven for the player who moved into `id`.
    fn proof(&self, id: NodeId) -> Proof;

    /// The move that reached `id` (meaningless at the root).
    fn point(&self, id: NodeId) -> Point;

    /// Whether `id` has children.
    fn has_children(&self, id: NodeId) -> bool;

    /// The child `offset` places into `id`'s block.
    fn child_at(&self, id: NodeId, offset: usize) -> NodeId;

    /// The statistics of `id`.
    fn stats(&self, id: NodeId) -> S;

    /// `f` of the statistics of `id`'s children, in order, each proven child's marked by
    /// [`Stats::prove`].
    fn with_child_stats<R>(&self, id: NodeId, f: impl FnOnce(&[S]) -> R) -> R;

    /// Whether every child of `id` is proven lost for its mover.
    fn all_children_lost(&self, id: NodeId) -> bool;

    /// Changes the statistics of `id` by `count`, which adds to each field a value of its own
    /// (it counts): threads lose none of these changes, though they may gather them a while.
    fn update(&mut self, id: NodeId, count: impl Fn(&mut S));

    /// Changes the statistics of the children of `id` by `count` of `changes`, one a child in
    /// order, which adds to each field a value of its own (`T::default()` none, which threads
    /// skip): with threads the change may come later (gathered for a while), and one made at
    /// the same instant as another thread's may be lost. For the many all-moves-as-first
    /// counts, which an exact update would slow down more than an occasional lost count matters.
    fn update_children<T: Copy + Default + PartialEq>(
        &mut self,
        id: NodeId,
        changes: impl Iterator<Item = T>,
        count: impl Fn(&mut S, T),
    );

    /// Records `proof` for the player who moved into `id`.
    fn set_proof(&mut self, id: NodeId, proof: Proof);

    /// Whether the arena has room for `nodes` more.
    fn has_room(&self, nodes: usize) -> bool;

    /// Gives `id`, which has no block, the children `moves`, in board order, each with the
    /// statistics `new` gives its move; false, changing nothing, when the arena has no room
    /// for them, or (threads) when another thread is expanding `id`.
    fn expand(&mut self, id: NodeId, moves: Bitboard, new: impl Fn(Point) -> S) -> bool;

    /// The move that reached the root's position, when known.
    fn root_last_move(&self) -> Option<Point>;
}

impl<S: Stats> Nodes<S> for Tree<S> {
    #[inline]
    fn proof(&self, id: NodeId) -> Proof {
        Tree::proof(self, id)
    }

    #[inline]
    fn point(&self, id: NodeId) -> Point {
        Tree::point(self, id)
    }

    #[inline]
    fn has_children(&self, id: NodeId) -> bool {
        Tree::has_children(self, id)
    }

    #[inline]
    fn child_at(&self, id: NodeId, offset: usize) -> NodeId {
        Tree::child_at(self, id, offset)
    }

    #[inline]
    fn stats(&self, id: NodeId) -> S {
        *Tree::stats(self, id)
    }

    /// A proven node's statistics are marked when it is proven ([`Tree::set_proof`]).
    #[inline]
    fn with_child_stats<R>(&self, id: NodeId, f: impl FnOnce(&[S]) -> R) -> R {
        f(self.child_stats(id))
    }

    #[inline]
    fn all_children_lost(&self, id: NodeId) -> bool {
        self.child_proofs(id).all(|p| p == Proof::Loss)
    }

    #[inline]
    fn update(&mut self, id: NodeId, count: impl Fn(&mut S)) {
        count(self.stats_mut(id));
    }

    #[inline]
    fn update_children<T: Copy + Default + PartialEq>(
        &mut self,
        id: NodeId,
        changes: impl Iterator<Item = T>,
        count: impl Fn(&mut S, T),
    ) {
        // `for_each`, which a set's points run as a loop a word.
        let children = self.child_stats_mut(id);
        changes.enumerate().for_each(|(offset, change)| count(&mut children[offset], change));
    }

    #[inline]
    fn set_proof(&mut self, id: NodeId, proof: Proof) {
        Tree::set_proof(self, id, proof);
    }

    #[inline]
    fn has_room(&self, nodes: usize) -> bool {
        Tree::has_room(self, nodes)
    }

    #[inline]
    fn expand(&mut self, id: NodeId, moves: Bitboard, new: impl Fn(Point) -> S) -> bool {
        Tree::expand(self, id, moves, new)
    }

    #[inline]
    fn root_last_move(&self) -> Option<Point> {
        Tree::root_last_move(self)
    }
}
