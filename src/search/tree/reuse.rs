//! The tree kept between turns: the node of the position reached, found from the last search's
//! position by the stones added, becomes the root with its subtree; and a full tree pruned
//! of its least visited nodes' children, so that it grows again.

use super::{NodeId, Stats, Tree};
use crate::rules::{Bitboard, Color, Point, Position};
use std::ops::Range;

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
        let owners = self.owners();
        self.keep(id, 0, &owners);
    }

    /// Drops the children of the least visited nodes, so that the tree holds at most `target`
    /// nodes (the root's children are always kept): the blocks of the nodes simulated fewer
    /// times than the least power of two that fits. Those nodes become leaves with their
    /// statistics and proofs, to be expanded afresh when the search comes back to them.
    pub fn prune(&mut self, target: usize) {
        // Slots of the blocks below the root, by the bit length of their owner's visits: a
        // block no node reaches any longer (a thread's lost expansion, a grown block's old
        // place) only makes the count drop more. A child has no more visits than its parent,
        // so keeping the owners of at least `2^(k-1)` visits keeps at most the blocks of bit
        // length `k` or more.
        let owners = self.owners();
        let mut slots_by_length = [0usize; 33];
        for owner in owners.iter().filter(|owner| owner.node != 0) {
            slots_by_length[(32 - owner.visits.leading_zeros()) as usize] += owner.block.len();
        }
        let mut kept = 1 + self.slots(NodeId::ROOT) + slots_by_length.iter().sum::<usize>();
        let mut length = 0;
        while kept > target && length < slots_by_length.len() {
            kept -= slots_by_length[length];
            length += 1;
        }
        let least = if length == 0 { 0 } else { (1u64 << (length - 1)).min(u32::MAX.into()) as u32 };
        self.keep(NodeId::ROOT, least, &owners);
    }

    /// The nodes with a block, in arena order: found in one pass over the links, then read
    /// each at once, all that a prune reads of the arena besides the nodes it moves.
    fn owners(&self) -> Vec<Owner> {
        let links = &self.columns.links;
        let nodes: Vec<u32> =
            (0..links.len() as u32).filter(|&node| links[node as usize].slots > 0).collect();
        nodes
            .into_iter()
            .map(|node| {
                let links = &links[node as usize];
                let first = links.first as usize;
                let visits = self.columns.stats[node as usize].visits();
                Owner { node, block: first..first + links.slots as usize, visits }
            })
            .collect()
    }

    /// Keeps the subtree of `id` as the tree, with the children of `id` and of its nodes
    /// simulated at least `least` times, and drops the rest: `id` becomes the first node and
    /// the kept blocks' nodes slide to the front in arena order, each to its rank among them,
    /// so that no node overwrites one not yet moved. `owners` are the nodes with a block.
    fn keep(&mut self, id: NodeId, least: u32, owners: &[Owner]) {
        // The kept blocks, found from their owners in arena order: a block is made after its
        // owner, so a kept owner is marked kept by the time the scan reaches it, unless its
        // block is a grown block's children moved past their own blocks: the owners in a block
        // behind the scan are visited at once, depth first. The new root is kept, with its
        // block, whatever its visits.
        let is_root = |owner: &Owner| owner.node as usize == id.index();
        let keeps = |owner: &Owner| is_root(owner) || owner.visits >= least;
        // Whether `owner` is in the kept tree (its block's fate is `keeps`).
        let is_kept = |kept: &Ranks, owner: &Owner| is_root(owner) || kept.has(owner.node as usize);
        let mut kept = Ranks::new(self.len());
        let mut behind = Vec::new();
        for owner in owners {
            let scan = owner.node as usize + 1;
            if !is_kept(&kept, owner) || !keeps(owner) {
                continue;
            }
            behind.push(owner.block.clone());
            while let Some(block) = behind.pop() {
                kept.insert(block.clone());
                if block.start < scan {
                    for inner in &owners[within(owners, &block)] {
                        if keeps(inner) {
                            behind.push(inner.block.clone());
                        }
                    }
                }
            }
        }
        let total = kept.count();
        // The kept owners' links changed in place, in arena order, then the root moved first
        // and each run of kept nodes to its rank: the other nodes have no block to relink.
        for owner in owners.iter().filter(|owner| is_kept(&kept, owner)) {
            let links = &mut self.columns.links[owner.node as usize];
            if keeps(owner) {
                links.first = 1 + kept.rank(owner.block.start) as u32;
            } else {
                (links.first, links.slots, links.children) = (0, 0, 0);
            }
        }
        self.columns.copy_within(id.index()..id.index() + 1, 0);
        for run in kept.runs() {
            let to = 1 + kept.rank(run.start);
            self.columns.copy_within(run, to);
        }
        self.columns.truncate(1 + total);
    }
}

/// A node with a block, as [`Tree::owners`] finds it.
struct Owner {
    /// The node.
    node: u32,
    /// Its block.
    block: Range<usize>,
    /// Its simulations.
    visits: u32,
}

/// The indices of the owners (in arena order) that lie in `nodes`.
fn within(owners: &[Owner], nodes: &Range<usize>) -> Range<usize> {
    owners.partition_point(|o| (o.node as usize) < nodes.start)
        ..owners.partition_point(|o| (o.node as usize) < nodes.end)
}

/// A set of the arena's nodes, one bit each, that tells each member's rank (the members
/// before it) once [`Ranks::count`]ed.
struct Ranks {
    words: Vec<u64>,
    /// Members in the words before each word.
    before: Vec<u32>,
}

impl Ranks {
    fn new(nodes: usize) -> Ranks {
        Ranks { words: vec![0; nodes.div_ceil(64)], before: Vec::new() }
    }

    fn insert(&mut self, nodes: Range<usize>) {
        let mut start = nodes.start;
        while start < nodes.end {
            // The bits `from..to` of the word of `start`.
            let (word, from) = (start / 64, start % 64);
            let to = (nodes.end - word * 64).min(64);
            self.words[word] |= (u64::MAX >> (64 - (to - from))) << from;
            start = word * 64 + to;
        }
    }

    /// Ranks the members, and returns how many there are: call after the last insertion,
    /// before [`Ranks::rank`].
    fn count(&mut self) -> usize {
        let mut total = 0;
        self.before = self
            .words
            .iter()
            .map(|w| {
                let before = total;
                total += w.count_ones();
                before
            })
            .collect();
        total as usize
    }

    /// Whether `node` is a member.
    fn has(&self, node: usize) -> bool {
        self.words[node / 64] >> (node % 64) & 1 == 1
    }

    /// Members before `node`.
    fn rank(&self, node: usize) -> usize {
        let below = (1u64 << (node % 64)) - 1;
        self.before[node / 64] as usize + (self.words[node / 64] & below).count_ones() as usize
    }

    /// The first node from `from` on that is a member (`member`) or not, or the end of the
    /// last word.
    fn next(&self, from: usize, member: bool) -> usize {
        let word = |i: usize| if member { self.words[i] } else { !self.words[i] };
        let mut i = from / 64;
        if i >= self.words.len() {
            return from;
        }
        let mut bits = word(i) & (!0 << (from % 64));
        while bits == 0 {
            i += 1;
            if i == self.words.len() {
                return i * 64;
            }
            bits = word(i);
        }
        i * 64 + bits.trailing_zeros() as usize
    }

    /// The runs of consecutive members, in order.
    fn runs(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        let mut from = 0;
        std::iter::from_fn(move || {
            let start = self.next(from, true);
            (start < self.words.len() * 64).then(|| {
                from = self.next(start, false);
                start..from
            })
        })
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

#[cfg(test)]
mod tests {
    use super::Ranks;

    #[test]
    fn ranges_inserted_are_the_members_in_runs_each_ranked() {
        let mut rng = fastrand::Rng::with_seed(3);
        for _ in 0..500 {
            let nodes = rng.usize(1..400);
            let mut set = Ranks::new(nodes);
            let mut members = vec![false; nodes];
            for _ in 0..rng.usize(0..8) {
                let start = rng.usize(0..nodes);
                let end = rng.usize(start..=nodes);
                set.insert(start..end);
                members[start..end].fill(true);
            }
            let expected: Vec<usize> = (0..nodes).filter(|&n| members[n]).collect();
            assert_eq!(set.count(), expected.len());
            for (rank, &node) in expected.iter().enumerate() {
                assert_eq!(set.rank(node), rank, "node {node}");
            }
            assert_eq!(set.runs().flatten().collect::<Vec<_>>(), expected);
        }
    }
}
