//! A tree that threads search together (`--threads`), without locks, after Enzenberger and
//! Müller 2009 (Fuego's `SgUctSearch`). The arena is the [`Tree`]'s own, reserved whole at the
//! cap, shared for the simulations of one search and handed back after. A node's links are one
//! 8-byte word and its statistics 8-byte words, each read and written atomically: a
//! simulation's own counts exactly (compare and swap), the all-moves-as-first counts by plain
//! atomic stores that may lose a count made at the same instant. Where every thread's
//! simulations pass, each thread counts in its [`Handle`] and adds its counts to the tree every
//! few simulations: the root and its children, which it keeps a copy of, and the
//! all-moves-as-first counts of busy nodes' children. A leaf is expanded by one thread, in a
//! chunk of the arena that thread took: it claims the node, writes the children, then
//! publishes them (release; readers acquire). Below the root's children a simulation counts its
//! visit on the way down, so a node other threads are in looks to the next as if they had lost
//! there (a virtual loss), and draws it elsewhere.

use super::memory::{populate, populate_ahead};
use super::nodes::Nodes;
use super::{Links, NodeId, Stats, Tree};
use crate::rules::point::MAX_MOVES;
use crate::rules::{Bitboard, Point};
use crate::search::engine::Proof;
use std::mem::MaybeUninit;
use std::ops::Range;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// Statistics made of plain 8-byte words, which threads can share.
///
/// # Safety
///
/// `Self` is `repr(C)` with no padding, aligned to 8 bytes at least, its size a multiple of
/// 8, and every bit pattern of each of its 8-byte words is a valid value of it.
pub unsafe trait Words: Stats + Send + Sync {
    /// Adds `delta` field by field: counts gathered elsewhere ([`Handle`]).
    fn add(&mut self, delta: &Self);
}

/// Gathered counts a thread keeps ([`Handle`]), one slot per node number modulo this.
const GATHERED_SLOTS: usize = 1024;

/// Simulations through a node from which its children's all-moves-as-first counts are
/// gathered by each thread rather than stored at once: there, every thread's simulations
/// change the same children, and each store would take the cache lines from the others.
const BUSY_VISITS: u32 = 64;

/// Nodes a thread takes from the arena at a time, for the blocks it makes (about 100 KB).
const CHUNK: usize = 4096;

/// A block's `slots` while a thread makes its children (a block holds at most 81).
const CLAIMED: u8 = u8::MAX;

/// The arena's ends while shared.
struct Ends {
    /// Nodes taken: written, or being written by the thread that took them.
    len: AtomicUsize,
    /// Nodes whose memory is backed.
    populated: AtomicUsize,
}

/// A value on cache lines of its own (128 bytes: processors fetch lines in pairs), so that
/// writing it takes no line another thread reads other fields from.
#[repr(align(128))]
pub(crate) struct Padded<T>(pub(crate) T);

/// A [`Tree`] shared by the threads of one search ([`Tree::share`]); each thread changes it
/// through its own `&Shared` ([`Nodes`]).
pub struct Shared<'t, S: Words> {
    tree: &'t mut Tree<S>,
    links: *mut Links,
    stats: *mut S,
    /// Most nodes the arena holds.
    capacity: usize,
    /// Nodes taken and backed, on a cache line of their own (the fields above are read by
    /// every access to a node).
    ends: Padded<Ends>,
    /// The nodes proven meanwhile, whose statistics are marked when the share ends (on lines
    /// of their own: locked at each proof).
    proven: Padded<Mutex<Vec<NodeId>>>,
    root_last_move: Option<Point>,
}

// SAFETY: while shared, every node is read and written atomically, but for a new block, which
// the one thread that took it writes before it publishes it.
unsafe impl<S: Words> Sync for Shared<'_, S> {}

impl<S: Words> Tree<S> {
    /// The tree, set up by [`Tree::set_root`], shared by threads for one search; every node
    /// made meanwhile is in the tree once the share is dropped.
    pub fn share(&mut self) -> Shared<'_, S> {
        const { assert!(size_of::<S>().is_multiple_of(8) && align_of::<S>() >= 8 && size_of::<Links>() == 8) };
        self.reserve();
        let columns = &mut self.columns;
        let capacity = self.capacity.min(columns.links.capacity()).min(columns.stats.capacity());
        Shared {
            links: columns.links.as_mut_ptr(),
            stats: columns.stats.as_mut_ptr(),
            capacity,
            ends: Padded(Ends {
                len: AtomicUsize::new(columns.links.len()),
                populated: AtomicUsize::new(columns.populated),
            }),
            proven: Padded(Mutex::default()),
            root_last_move: self.root_last_move,
            tree: self,
        }
    }
}

impl<S: Words> Drop for Shared<'_, S> {
    /// Hands the nodes made back to the tree, the proven ones marked as [`Tree::set_proof`]
    /// marks them. After a thread's panic, a block may be half written: the tree is forgotten.
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.tree.forget();
            return;
        }
        let len = *self.ends.0.len.get_mut();
        let columns = &mut self.tree.columns;
        // SAFETY: within the capacity, and every node taken was written before its block was
        // published (an expansion takes and writes its block at once).
        unsafe {
            columns.links.set_len(len);
            columns.stats.set_len(len);
        }
        columns.populated = columns.populated.max(*self.ends.0.populated.get_mut());
        let proven = std::mem::take(self.proven.0.get_mut().unwrap_or_else(PoisonError::into_inner));
        for id in proven {
            let proof = self.tree.proof(id);
            self.tree.columns.stats[id.index()].prove(proof);
        }
    }
}

/// The bits of `links`.
#[inline]
fn to_bits(links: Links) -> u64 {
    // SAFETY: `Links` is 8 bytes without padding (`repr(C)`: a u32 and four bytes).
    unsafe { std::mem::transmute::<Links, u64>(links) }
}

/// The links whose bits [`to_bits`] gave.
#[inline]
fn from_bits(bits: u64) -> Links {
    // SAFETY: every links word of the arena holds a `Links`' bits.
    unsafe { std::mem::transmute::<u64, Links>(bits) }
}

/// Word `w` of `stats`, as bits.
#[inline]
fn word<S: Words>(stats: &S, w: usize) -> u64 {
    // SAFETY: `S` is made of 8-byte words (`Words`); `w` is one of them.
    unsafe { (stats as *const S).cast::<u64>().add(w).read() }
}

/// Sets word `w` of `stats` to the bits `bits`.
#[inline]
fn set_word<S: Words>(stats: &mut S, w: usize, bits: u64) {
    // SAFETY: as in `word`; every bit pattern is a valid word (`Words`).
    unsafe { (stats as *mut S).cast::<u64>().add(w).write(bits) }
}

impl<S: Words> Shared<'_, S> {
    /// The links word of `id`.
    #[inline]
    fn link(&self, id: NodeId) -> &AtomicU64 {
        debug_assert!(id.index() < self.capacity);
        // SAFETY: a node of the arena; `Links` is 8-byte aligned; while shared, links are only
        // accessed atomically (a new block's before it is published, by its one thread).
        unsafe { AtomicU64::from_ptr(self.links.add(id.index()).cast()) }
    }

    #[inline]
    fn links_of(&self, id: NodeId) -> Links {
        from_bits(self.link(id).load(Acquire))
    }

    /// Changes the links of `id` by `change`, atomically.
    #[inline]
    fn change_links(&self, id: NodeId, order: Ordering, change: impl Fn(&mut Links)) {
        let _ = self.link(id).fetch_update(order, Acquire, |bits| {
            let mut links = from_bits(bits);
            change(&mut links);
            Some(to_bits(links))
        });
    }

    /// The statistics of `id`, a word at a time.
    #[inline]
    fn words(&self, id: NodeId) -> &[AtomicU64] {
        debug_assert!(id.index() < self.capacity);
        // SAFETY: a node of the arena, made of 8-byte words aligned to 8 at least (`Words`),
        // accessed atomically while shared, as for the links.
        unsafe { std::slice::from_raw_parts(self.stats.add(id.index()).cast(), size_of::<S>() / 8) }
    }

    #[inline]
    fn load(&self, id: NodeId) -> S {
        let mut stats = MaybeUninit::<S>::uninit();
        let target = stats.as_mut_ptr().cast::<u64>();
        for (w, atomic) in self.words(id).iter().enumerate() {
            // SAFETY: field `w` of the value being made.
            unsafe { target.add(w).write(atomic.load(Relaxed)) };
        }
        // SAFETY: every field written, each valid whatever its bits (`Words`).
        unsafe { stats.assume_init() }
    }

    /// Takes a chunk of `size` nodes at the arena's end (fewer when the arena has fewer left,
    /// but at least `least`), backing its memory ahead; none when the arena is full.
    #[inline]
    fn take(&self, least: usize, size: usize) -> Option<Range<usize>> {
        let capacity = self.capacity;
        let taken = |len: usize| (len + least <= capacity).then(|| (len + size).min(capacity));
        let first = self.ends.0.len.fetch_update(Relaxed, Relaxed, taken).ok()?;
        let end = taken(first).expect("taken once");
        if end > self.ends.0.populated.load(Relaxed) {
            let to = populate_ahead::<S>(end, capacity);
            let from = self.ends.0.populated.fetch_max(to, Relaxed);
            if from < to {
                populate(self.links, from..to, capacity);
                populate(self.stats, from..to, capacity);
            }
        }
        Some(first..end)
    }
}

/// One thread's hand on a [`Shared`] tree ([`Shared::handle`]): its counts of the root and
/// its children (`Top`) and its all-moves-as-first counts for the children of busy nodes
/// (simulated `BUSY_VISITS` times) are added to the tree by [`Handle::flush`], which the thread
/// calls every few simulations (and dropping it does).
pub struct Handle<'s, 't, S: Words> {
    shared: &'s Shared<'t, S>,
    /// The counts gathered for a node (`u32::MAX`: none), by its number modulo the slots.
    gathered: Box<[(u32, S)]>,
    /// The slots in use.
    used: Vec<usize>,
    /// The root and its children as this hand sees them, once the root has children.
    top: Option<Top<S>>,
    /// The nodes this hand took and has not used yet: each thread makes its blocks in chunks
    /// of its own, so that the threads seldom meet on the arena's end, nor on the cache lines
    /// of each other's new nodes.
    chunk: Range<usize>,
}

impl<'t, S: Words> Shared<'t, S> {
    /// A hand on the tree for one thread.
    pub fn handle(&self) -> Handle<'_, 't, S> {
        let mut handle = Handle {
            shared: self,
            gathered: vec![(u32::MAX, S::default()); GATHERED_SLOTS].into_boxed_slice(),
            used: Vec::with_capacity(GATHERED_SLOTS),
            top: None,
            chunk: 0..0,
        };
        handle.read_top();
        handle
    }

    /// Adds `delta` to the statistics of `id`, a field at a time (a change made at the same
    /// instant by another thread may be lost).
    #[inline]
    fn add_lossy(&self, id: NodeId, delta: impl Fn(&mut S)) {
        let (old, new) = self.changed(id, delta);
        for (w, atomic) in self.words(id).iter().enumerate() {
            if word(&new, w) != word(&old, w) {
                atomic.store(word(&new, w), Relaxed);
            }
        }
    }

    /// The statistics of `id`, and what `change` makes of them.
    #[inline]
    fn changed(&self, id: NodeId, change: impl Fn(&mut S)) -> (S, S) {
        let old = self.load(id);
        let mut new = old;
        change(&mut new);
        (old, new)
    }

    /// Adds `counts` gathered elsewhere to the statistics of `id`, exactly.
    #[inline]
    fn add_exact(&self, id: NodeId, counts: &S) {
        self.update_exact(id, |stats| stats.add(counts));
    }

    /// Changes the statistics of `id` by `count`, which changes each field by its own old
    /// value alone, a field at a time without losing a change another thread makes meanwhile.
    #[inline]
    fn update_exact(&self, id: NodeId, count: impl Fn(&mut S)) {
        let (old, new) = self.changed(id, &count);
        for (w, atomic) in self.words(id).iter().enumerate() {
            let (mut seen, mut wanted) = (word(&old, w), word(&new, w));
            while seen != wanted {
                match atomic.compare_exchange_weak(seen, wanted, Relaxed, Relaxed) {
                    Ok(_) => break,
                    Err(now) => {
                        // Counted again from the field's new value.
                        let mut again = old;
                        set_word(&mut again, w, now);
                        count(&mut again);
                        (seen, wanted) = (now, word(&again, w));
                    }
                }
            }
        }
    }
}

/// The root and its children as one thread sees them: the tree's statistics when it last read
/// them, and its own counts since, which it adds to the tree at each flush. Every simulation
/// passes the root: counted in the tree, the root's cache lines would pass from thread to
/// thread at each one.
struct Top<S> {
    /// The root's first child.
    first: u32,
    /// The root's statistics, then its children's, with this hand's counts.
    stats: Vec<S>,
    /// This hand's counts, in the same order, not yet in the tree.
    counts: Vec<S>,
}

impl<S> Top<S> {
    /// The place of `id` in `stats`, if the root or a child of it.
    #[inline]
    fn index(&self, id: NodeId) -> Option<usize> {
        if id == NodeId::ROOT {
            return Some(0);
        }
        let offset = id.0.wrapping_sub(self.first) as usize;
        (offset + 1 < self.stats.len()).then_some(offset + 1)
    }

    /// The statistics of `id` as this hand sees them, if the root or a child of it.
    #[inline]
    fn get(&self, id: NodeId) -> Option<&S> {
        self.index(id).map(|index| &self.stats[index])
    }

    /// The node at `index` in `stats`.
    fn node(&self, index: usize) -> NodeId {
        if index == 0 {
            NodeId::ROOT
        } else {
            NodeId(self.first).at(index - 1)
        }
    }

    /// Counts by `count` at `index`, in the statistics seen and in this hand's counts.
    #[inline]
    fn count(&mut self, index: usize, count: impl Fn(&mut S)) {
        count(&mut self.stats[index]);
        count(&mut self.counts[index]);
    }
}

impl<S: Words> Handle<'_, '_, S> {
    /// Adds the gathered counts to the tree, and reads the root and its children again.
    pub fn flush(&mut self) {
        self.add_gathered();
        self.read_top();
    }

    /// Adds the gathered counts to the tree.
    fn add_gathered(&mut self) {
        for slot in self.used.drain(..) {
            let (id, delta) = std::mem::replace(&mut self.gathered[slot], (u32::MAX, S::default()));
            self.shared.add_exact(NodeId(id), &delta);
        }
        if let Some(top) = &mut self.top {
            for index in 0..top.counts.len() {
                let counts = std::mem::take(&mut top.counts[index]);
                self.shared.add_exact(top.node(index), &counts);
            }
        }
    }

    /// Reads the root and its children from the tree again, once the root has children (a
    /// block that stays the same for the search).
    fn read_top(&mut self) {
        if self.top.is_none() {
            let links = self.shared.links_of(NodeId::ROOT);
            if links.children == 0 {
                return;
            }
            let len = 1 + links.children as usize;
            self.top = Some(Top {
                first: links.first,
                stats: vec![S::default(); len],
                counts: vec![S::default(); len],
            });
        }
        let top = self.top.as_mut().expect("a top");
        for index in 0..top.stats.len() {
            top.stats[index] = self.shared.load(top.node(index));
        }
    }

    /// The counts gathered for `id`, made room for: those of another node in its slot go to
    /// the tree first.
    #[inline]
    fn gathered(&mut self, id: NodeId) -> &mut S {
        let slot = id.index() % GATHERED_SLOTS;
        let (gathered_id, gathered) = &mut self.gathered[slot];
        if *gathered_id != id.0 {
            if *gathered_id == u32::MAX {
                self.used.push(slot);
            } else {
                self.shared.add_exact(NodeId(*gathered_id), gathered);
            }
            (*gathered_id, *gathered) = (id.0, S::default());
        }
        gathered
    }

    /// A block of `count` nodes from this hand's chunk, after taking a new chunk when it has
    /// too few: its first node, or none when the arena is full.
    #[inline]
    fn take(&mut self, count: usize) -> Option<usize> {
        if self.chunk.len() < count {
            self.fill_chunk();
            self.chunk = self.shared.take(count, CHUNK.max(count))?;
        }
        let first = self.chunk.start;
        self.chunk.start += count;
        Some(first)
    }

    /// Writes the nodes left in the chunk as nodes no other links to, so that every node taken
    /// is written when the share ends.
    fn fill_chunk(&mut self) {
        for i in std::mem::replace(&mut self.chunk, 0..0) {
            // SAFETY: nodes of this hand's chunk, which no other thread reads or writes.
            unsafe {
                self.shared.links.add(i).write(Links::default());
                self.shared.stats.add(i).write(S::default());
            }
        }
    }
}

impl<S: Words> Drop for Handle<'_, '_, S> {
    fn drop(&mut self) {
        self.add_gathered();
        self.fill_chunk();
    }
}

impl<S: Words> Nodes<S> for Handle<'_, '_, S> {
    #[inline]
    fn proof(&self, id: NodeId) -> Proof {
        self.shared.links_of(id).proof
    }

    #[inline]
    fn point(&self, id: NodeId) -> Point {
        Point::from_index_unchecked(self.shared.links_of(id).mv)
    }

    #[inline]
    fn has_children(&self, id: NodeId) -> bool {
        self.shared.links_of(id).children > 0
    }

    #[inline]
    fn child_at(&self, id: NodeId, offset: usize) -> NodeId {
        NodeId(self.shared.links_of(id).first).at(offset)
    }

    /// The root's and its children's as this hand sees them (`Top`).
    #[inline]
    fn stats(&self, id: NodeId) -> S {
        match self.top.as_ref().and_then(|top| top.get(id)) {
            Some(stats) => *stats,
            None => self.shared.load(id),
        }
    }

    /// The root's children as this hand sees them (`Top`); other nodes' children copied.
    /// A proof's mark in a child's statistics ([`Nodes::set_proof`]) may rarely be lost to an
    /// all-moves-as-first count stored at the same instant: the child is then chosen by its
    /// counts, as if unproven, until the share ends and marks it again.
    #[inline]
    fn with_child_stats<R>(&self, id: NodeId, f: impl FnOnce(&[S]) -> R) -> R {
        if let (Some(top), NodeId::ROOT) = (&self.top, id) {
            return f(&top.stats[1..]);
        }
        let links = self.shared.links_of(id);
        let count = links.children as usize;
        let mut copies = [MaybeUninit::<S>::uninit(); MAX_MOVES];
        for (offset, copy) in copies[..count].iter_mut().enumerate() {
            copy.write(self.shared.load(NodeId(links.first).at(offset)));
        }
        // SAFETY: the first `count` copies are written.
        f(unsafe { std::slice::from_raw_parts(copies.as_ptr().cast::<S>(), count) })
    }

    #[inline]
    fn all_children_lost(&self, id: NodeId) -> bool {
        let links = self.shared.links_of(id);
        (0..links.children as usize)
            .all(|k| self.shared.links_of(NodeId(links.first).at(k)).proof == Proof::Loss)
    }

    /// The root's and its children's counts are kept in this hand (`Top`).
    #[inline]
    fn update(&mut self, id: NodeId, count: impl Fn(&mut S)) {
        if let Some(top) = &mut self.top {
            if let Some(index) = top.index(id) {
                return top.count(index, count);
            }
        }
        self.shared.update_exact(id, count);
    }

    /// The root's children's counts are kept in this hand (`Top`), and those of the
    /// children of other busy nodes (`BUSY_VISITS`) gathered; the others' are stored at once.
    #[inline]
    fn update_children<T: Copy + Default + PartialEq>(
        &mut self,
        id: NodeId,
        changes: impl Iterator<Item = T>,
        count: impl Fn(&mut S, T),
    ) {
        let changes = changes.enumerate().filter(|(_, change)| *change != T::default());
        if let (Some(top), NodeId::ROOT) = (&mut self.top, id) {
            changes.for_each(|(offset, change)| top.count(offset + 1, |stats| count(stats, change)));
            return;
        }
        let links = self.shared.links_of(id);
        let busy = self.shared.load(id).visits() >= BUSY_VISITS;
        changes.for_each(|(offset, change)| {
            debug_assert!(offset < links.children as usize);
            let child = NodeId(links.first).at(offset);
            if busy {
                count(self.gathered(child), change);
            } else {
                self.shared.add_lossy(child, |stats| count(stats, change));
            }
        });
    }

    /// Records the proof in the links, and marks it in the statistics for selection.
    fn set_proof(&mut self, id: NodeId, proof: Proof) {
        self.shared.change_links(id, Release, |links| links.proof = proof);
        self.shared.update_exact(id, |stats| stats.prove(proof));
        if let Some(top) = &mut self.top {
            if let Some(index) = top.index(id) {
                top.stats[index].prove(proof);
            }
        }
        self.shared.proven.0.lock().unwrap_or_else(PoisonError::into_inner).push(id);
    }

    #[inline]
    fn has_room(&self, nodes: usize) -> bool {
        self.chunk.len() >= nodes || self.shared.ends.0.len.load(Relaxed) + nodes <= self.shared.capacity
    }

    fn expand(&mut self, id: NodeId, moves: Bitboard, new: impl Fn(Point) -> S) -> bool {
        let claim = self.shared.link(id).fetch_update(Acquire, Acquire, |bits| {
            let links = from_bits(bits);
            (links.slots == 0).then(|| to_bits(Links { slots: CLAIMED, ..links }))
        });
        if claim.is_err() {
            return false;
        }
        let count = moves.count() as usize;
        let Some(first) = self.take(count) else {
            self.shared.change_links(id, Release, |links| links.slots = 0);
            return false;
        };
        for (offset, p) in moves.into_iter().enumerate() {
            // SAFETY: nodes of the block just taken, which no other thread reads or writes
            // before it is published below.
            unsafe {
                self.shared
                    .links
                    .add(first + offset)
                    .write(Links { mv: p.index() as u8, ..Links::default() });
                self.shared.stats.add(first + offset).write(new(p));
            }
        }
        self.shared.change_links(id, Release, |links| {
            (links.first, links.slots, links.children) = (first as u32, count as u8, count as u8)
        });
        if id == NodeId::ROOT {
            self.read_top();
        }
        true
    }

    #[inline]
    fn root_last_move(&self) -> Option<Point> {
        self.shared.root_last_move
    }
}
