//! A tree that threads search together (`--threads`), without locks, after Enzenberger and
//! Müller 2009 (Fuego's `SgUctSearch`). The arena is the [`Tree`]'s own, reserved whole at the
//! cap, shared for the simulations of one search and handed back after. A node's links are one
//! 8-byte word and its statistics 4-byte words, each read and written atomically: a
//! simulation's own counts exactly (compare and swap), the all-moves-as-first counts by plain
//! atomic stores that may lose a count made at the same instant; below busy nodes each thread
//! gathers those counts in its [`Handle`] and adds them every few simulations. A leaf is expanded by one
//! thread: it claims the node, takes a block at the arena's end, writes the children there,
//! then publishes them (release; readers acquire). A simulation counts its visit on the way
//! down, so a node other threads are in looks to the next as if they had lost there (a virtual
//! loss), and draws it elsewhere.

use super::memory::{populate, populate_ahead};
use super::nodes::Nodes;
use super::{Links, NodeId, Stats, Tree};
use crate::rules::point::MAX_MOVES;
use crate::rules::{Bitboard, Point};
use crate::search::engine::Proof;
use std::mem::MaybeUninit;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// Statistics made of plain 4-byte words, which threads can share.
///
/// # Safety
///
/// `Self` is `repr(C)` of 4-byte fields with no padding, and every bit pattern of each field
/// is a valid value of it.
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

/// A block's `slots` while a thread makes its children (a block holds at most 81).
const CLAIMED: u8 = u8::MAX;

/// A [`Tree`] shared by the threads of one search ([`Tree::share`]); each thread changes it
/// through its own `&Shared` ([`Nodes`]).
pub struct Shared<'t, S: Words> {
    tree: &'t mut Tree<S>,
    links: *mut Links,
    stats: *mut S,
    /// Most nodes the arena holds.
    capacity: usize,
    /// Nodes taken: written, or being written by the thread that took them.
    len: AtomicUsize,
    /// Nodes whose memory is backed.
    populated: AtomicUsize,
    /// The nodes proven meanwhile, whose statistics are marked when the share ends.
    proven: Mutex<Vec<NodeId>>,
    root_last_move: Option<Point>,
}

// SAFETY: while shared, every node is read and written atomically, but for a new block, which
// the one thread that took it writes before it publishes it.
unsafe impl<S: Words> Sync for Shared<'_, S> {}

impl<S: Words> Tree<S> {
    /// The tree, set up by [`Tree::set_root`], shared by threads for one search; every node
    /// made meanwhile is in the tree once the share is dropped.
    pub fn share(&mut self) -> Shared<'_, S> {
        const { assert!(size_of::<S>().is_multiple_of(4) && align_of::<S>() >= 4 && size_of::<Links>() == 8) };
        self.reserve();
        let columns = &mut self.columns;
        let capacity = self.capacity.min(columns.links.capacity()).min(columns.stats.capacity());
        Shared {
            links: columns.links.as_mut_ptr(),
            stats: columns.stats.as_mut_ptr(),
            capacity,
            len: AtomicUsize::new(columns.links.len()),
            populated: AtomicUsize::new(columns.populated),
            proven: Mutex::default(),
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
        let len = *self.len.get_mut();
        let columns = &mut self.tree.columns;
        // SAFETY: within the capacity, and every node taken was written before its block was
        // published (an expansion takes and writes its block at once).
        unsafe {
            columns.links.set_len(len);
            columns.stats.set_len(len);
        }
        columns.populated = columns.populated.max(*self.populated.get_mut());
        let proven = std::mem::take(self.proven.get_mut().unwrap_or_else(PoisonError::into_inner));
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

/// Field `w` of `stats`, as bits.
#[inline]
fn word<S: Words>(stats: &S, w: usize) -> u32 {
    // SAFETY: `S` is made of 4-byte fields (`Words`); `w` is one of them.
    unsafe { (stats as *const S).cast::<u32>().add(w).read() }
}

/// Sets field `w` of `stats` to the bits `bits`.
#[inline]
fn set_word<S: Words>(stats: &mut S, w: usize, bits: u32) {
    // SAFETY: as in `word`; every bit pattern is a valid field (`Words`).
    unsafe { (stats as *mut S).cast::<u32>().add(w).write(bits) }
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
    fn words(&self, id: NodeId) -> &[AtomicU32] {
        debug_assert!(id.index() < self.capacity);
        // SAFETY: a node of the arena, made of 4-byte words aligned to 4 at least (`Words`),
        // accessed atomically while shared, as for the links.
        unsafe { std::slice::from_raw_parts(self.stats.add(id.index()).cast(), size_of::<S>() / 4) }
    }

    #[inline]
    fn load(&self, id: NodeId) -> S {
        let mut stats = MaybeUninit::<S>::uninit();
        let target = stats.as_mut_ptr().cast::<u32>();
        for (w, atomic) in self.words(id).iter().enumerate() {
            // SAFETY: field `w` of the value being made.
            unsafe { target.add(w).write(atomic.load(Relaxed)) };
        }
        // SAFETY: every field written, each valid whatever its bits (`Words`).
        unsafe { stats.assume_init() }
    }

    /// Takes a block of `count` nodes at the arena's end, backing its memory ahead: its first
    /// node, or none when the arena is full.
    #[inline]
    fn take(&self, count: usize) -> Option<usize> {
        let capacity = self.capacity;
        let first =
            self.len.fetch_update(Relaxed, Relaxed, |len| (len + count <= capacity).then_some(len + count));
        let first = first.ok()?;
        let end = first + count;
        if end > self.populated.load(Relaxed) {
            let to = populate_ahead::<S>(end, capacity);
            let from = self.populated.fetch_max(to, Relaxed);
            if from < to {
                populate(self.links, from..to, capacity);
                populate(self.stats, from..to, capacity);
            }
        }
        Some(first)
    }
}

/// One thread's hand on a [`Shared`] tree ([`Shared::handle`]): its all-moves-as-first
/// counts for the children of busy nodes (simulated `BUSY_VISITS` times) are gathered and added to the tree
/// by [`Handle::flush`], which the thread calls every few simulations (and dropping it does).
pub struct Handle<'s, 't, S: Words> {
    shared: &'s Shared<'t, S>,
    /// The counts gathered for a node (`u32::MAX`: none), by its number modulo the slots.
    gathered: Box<[(u32, S)]>,
    /// The slots in use.
    used: Vec<usize>,
}

impl<'t, S: Words> Shared<'t, S> {
    /// A hand on the tree for one thread.
    pub fn handle(&self) -> Handle<'_, 't, S> {
        Handle {
            shared: self,
            gathered: vec![(u32::MAX, S::default()); GATHERED_SLOTS].into_boxed_slice(),
            used: Vec::with_capacity(GATHERED_SLOTS),
        }
    }

    /// Adds `delta` to the statistics of `id`, a field at a time (a change made at the same
    /// instant by another thread may be lost).
    #[inline]
    fn add_lossy(&self, id: NodeId, delta: impl Fn(&mut S)) {
        let old = self.load(id);
        let mut new = old;
        delta(&mut new);
        for (w, atomic) in self.words(id).iter().enumerate() {
            if word(&new, w) != word(&old, w) {
                atomic.store(word(&new, w), Relaxed);
            }
        }
    }
}

impl<S: Words> Handle<'_, '_, S> {
    /// Adds the gathered counts to the tree.
    pub fn flush(&mut self) {
        for slot in self.used.drain(..) {
            let (id, delta) = std::mem::replace(&mut self.gathered[slot], (u32::MAX, S::default()));
            self.shared.add_lossy(NodeId(id), |stats| stats.add(&delta));
        }
    }
}

impl<S: Words> Drop for Handle<'_, '_, S> {
    fn drop(&mut self) {
        self.flush();
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

    #[inline]
    fn stats(&self, id: NodeId) -> S {
        self.shared.load(id)
    }

    /// Reads copies, each child's proof marked in its copy: a count stored by another thread
    /// may have overwritten the mark in the arena.
    #[inline]
    fn with_child_stats<R>(&self, id: NodeId, f: impl FnOnce(&[S]) -> R) -> R {
        let links = self.shared.links_of(id);
        let count = links.children as usize;
        let mut copies = [MaybeUninit::<S>::uninit(); MAX_MOVES];
        for (offset, copy) in copies[..count].iter_mut().enumerate() {
            let child = NodeId(links.first).at(offset);
            let mut stats = self.shared.load(child);
            stats.prove(self.shared.links_of(child).proof);
            copy.write(stats);
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

    #[inline]
    fn update(&mut self, id: NodeId, count: impl Fn(&mut S)) {
        let old = self.shared.load(id);
        let mut new = old;
        count(&mut new);
        for (w, atomic) in self.shared.words(id).iter().enumerate() {
            let (mut seen, mut wanted) = (word(&old, w), word(&new, w));
            while seen != wanted {
                match atomic.compare_exchange_weak(seen, wanted, Relaxed, Relaxed) {
                    Ok(_) => break,
                    Err(now) => {
                        // Counted again from the field's new value (`count` changes each field
                        // by its own old value alone).
                        let mut again = old;
                        set_word(&mut again, w, now);
                        count(&mut again);
                        (seen, wanted) = (now, word(&again, w));
                    }
                }
            }
        }
    }

    /// The children of a busy node (`BUSY_VISITS`) gather their counts in this hand; the
    /// others' are stored at once.
    #[inline]
    fn update_children(&mut self, id: NodeId, offsets: impl Iterator<Item = usize>, count: impl Fn(&mut S)) {
        let links = self.shared.links_of(id);
        let busy = self.shared.load(id).visits() >= BUSY_VISITS;
        for offset in offsets {
            debug_assert!(offset < links.children as usize);
            let child = NodeId(links.first).at(offset);
            if !busy {
                self.shared.add_lossy(child, &count);
                continue;
            }
            let slot = child.index() % GATHERED_SLOTS;
            let (gathered_id, gathered) = &mut self.gathered[slot];
            if *gathered_id != child.0 {
                // The slot's node: none yet, or another, whose counts go to the tree first.
                if *gathered_id == u32::MAX {
                    self.used.push(slot);
                } else {
                    self.shared.add_lossy(NodeId(*gathered_id), |stats| stats.add(gathered));
                }
                (*gathered_id, *gathered) = (child.0, S::default());
            }
            count(gathered);
        }
    }

    fn set_proof(&mut self, id: NodeId, proof: Proof) {
        self.shared.change_links(id, Release, |links| links.proof = proof);
        self.shared.proven.lock().unwrap_or_else(PoisonError::into_inner).push(id);
    }

    #[inline]
    fn has_room(&self, nodes: usize) -> bool {
        self.shared.len.load(Relaxed) + nodes <= self.shared.capacity
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
        let Some(first) = self.shared.take(count) else {
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
        true
    }

    #[inline]
    fn root_last_move(&self) -> Option<Point> {
        self.shared.root_last_move
    }
}
