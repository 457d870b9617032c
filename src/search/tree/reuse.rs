//! The tree kept between turns: the node of the position reached, found from the last search's
//! position by the stones added, becomes the root with its subtree; and a full tree pruned
//! of its least visited nodes' children, so that it grows again.

use super::{NodeId, Stats, Tree};
use crate::rules::{Bitboard, Color, Point, Position};

impl<S: Stats> Tree<S> {
    /// Sets the tree up for a search of `position`: the subtree of the position kept from the
    /// last search when it is that position or one or two moves after it (the mover's, then
    /// the opponent's), else a lone root.
    pub fn set_root(&mut self, position: &Position) {
        self.reserve();
        let old = self.root.take();
        let kept = old.as_ref().and_then(|old| self.node_of(old, position));
        match kept {
            Some(NodeId::ROOT) => {}
            Some(id) => self.reroot(id),
            None => self.reset(),
        }
        if old.as_ref() != Some(position) {
            self.root_last_move = old.and_then(|old| last_move(&old, position));
        }
        self.root = Some(position.clone());
    }

    /// The node of `position` in a tree rooted at `old`: `old` itself, or the node of the one
    /// or two moves (the mover's, then the opponent's) that lead from it to `position`. NoGo
    /// removes no stones, so the moves are the stones `position` adds.
    fn node_of(&self, old: &Position, position: &Position) -> Option<NodeId> {
        let mover = old.to_move();
        let (own, theirs) = (added(old, position, mover)?, added(old, position, !mover)?);
        match (own.count(), theirs.count()) {
            (0, 0) if position.to_move() == mover => Some(NodeId::ROOT),
            (1, 0) if position.to_move() != mover => self.child(NodeId::ROOT, own.first()?),
            (1, 1) if position.to_move() == mover => {
                let child = self.child(NodeId::ROOT, own.first()?)?;
                self.child(child, theirs.first()?)
            }
            _ => None,
        }
    }

    /// Makes `id` the root, keeping its subtree and dropping the rest.
    pub(super) fn reroot(&mut self, id: NodeId) {
        self.keep(id, 0);
    }

    /// Drops the children of the least visited nodes, so that the tree holds at most `target`
    /// nodes (the root's children are always kept): the blocks of the nodes simulated fewer
    /// times than the least power of two that fits. Those nodes become leaves with their
    /// statistics and proofs, to be expanded afresh when the search comes back to them.
    pub fn prune(&mut self, target: usize) {
        // Slots of the blocks below the root, by the bit length of their owner's visits. A
        // child has no more visits than its parent, so keeping the owners of at least
        // `2^(k-1)` visits keeps at most the blocks of bit length `k` or more.
        let mut slots_by_length = [0usize; 33];
        let mut stack: Vec<NodeId> = self.children(NodeId::ROOT).collect();
        while let Some(node) = stack.pop() {
            let slots = self.slots(node);
            if slots > 0 {
                slots_by_length[(32 - self.stats(node).visits().leading_zeros()) as usize] += slots;
                stack.extend(self.children(node));
            }
        }
        let mut kept = 1 + self.slots(NodeId::ROOT) + slots_by_length.iter().sum::<usize>();
        let mut length = 0;
        while kept > target && length < slots_by_length.len() {
            kept -= slots_by_length[length];
            length += 1;
        }
        let least = if length == 0 { 0 } else { (1u64 << (length - 1)).min(u32::MAX.into()) as u32 };
        self.keep(NodeId::ROOT, least);
    }

    /// Keeps the subtree of `id` as the tree, with the children of `id` and of its nodes
    /// simulated at least `least` times, and drops the rest: the kept children blocks slide
    /// to the front in arena order, so each node only moves down and no block overwrites one
    /// not yet moved.
    fn keep(&mut self, id: NodeId, least: u32) {
        // The kept blocks as (old first, new first), in arena order, and their lengths.
        let mut blocks: Vec<(u32, u32)> = Vec::new();
        let mut stack = vec![id];
        while let Some(node) = stack.pop() {
            let links = self.links(node);
            if links.slots > 0 && (node == id || self.stats(node).visits() >= least) {
                blocks.push((links.first, links.slots as u32));
                stack.extend(self.children(node));
            }
        }
        blocks.sort_unstable();
        let mut write = 1;
        let moves: Vec<(u32, u32)> = blocks
            .iter()
            .map(|&(first, len)| {
                let to = write;
                write += len;
                (first, to)
            })
            .collect();
        let relink = |links: &mut super::Links| {
            if links.slots > 0 {
                match moves.binary_search_by_key(&links.first, |m| m.0) {
                    Ok(block) => links.first = moves[block].1,
                    Err(_) => (links.first, links.slots, links.children) = (0, 0, 0),
                }
            }
        };
        self.columns.copy_within(id.index()..id.index() + 1, 0);
        relink(&mut self.columns.links[0]);
        for (&(first, len), &(_, to)) in blocks.iter().zip(&moves) {
            let (first, len, to) = (first as usize, len as usize, to as usize);
            self.columns.copy_within(first..first + len, to);
            self.columns.links[to..to + len].iter_mut().for_each(relink);
        }
        self.columns.truncate(write as usize);
    }
}

/// The stones of `colour` that `now` adds to `before`, if it keeps all of them.
fn added(before: &Position, now: &Position, colour: Color) -> Option<Bitboard> {
    let (before, now) = (before.stones(colour), now.stones(colour));
    before.is_subset(now).then_some(now - before)
}

/// The last move of the game at `now`, when `now` follows `before` by a move or two: the one
/// stone of the side that just moved that `before` lacks.
fn last_move(before: &Position, now: &Position) -> Option<Point> {
    let mover = !now.to_move();
    let mine = added(before, now, mover)?;
    added(before, now, !mover)?;
    mine.has_at_most_one().then(|| mine.first()).flatten()
}
