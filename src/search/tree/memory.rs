//! The arena's memory: the columns of nodes, reserved whole at the cap so they never
//! grow past it by doubling, and backed a megabyte ahead of the nodes written.

use super::{Links, Stats, Tree};
use std::ops::Range;

/// The columns of the nodes: `links[i]` and `stats[i]` are node `i`.
#[derive(Default)]
pub(super) struct Columns<S: Stats> {
    pub(super) links: Vec<Links>,
    pub(super) stats: Vec<S>,
    /// Nodes whose memory is backed ([`Columns::populate`]).
    pub(super) populated: usize,
}

impl<S: Stats> Columns<S> {
    /// Reserves room for `nodes` nodes in every column; false, holding nothing, when the
    /// system refuses.
    fn try_reserve(&mut self, nodes: usize) -> bool {
        *self = Columns::default();
        let granted =
            self.links.try_reserve_exact(nodes).is_ok() && self.stats.try_reserve_exact(nodes).is_ok();
        if !granted {
            *self = Columns::default();
        }
        granted
    }

    #[inline]
    pub(super) fn push(&mut self, links: Links, stats: S) {
        self.links.push(links);
        self.stats.push(stats);
    }

    pub(super) fn truncate(&mut self, len: usize) {
        self.links.truncate(len);
        self.stats.truncate(len);
    }

    /// Copies the nodes of `from` to `to` onwards, as `slice::copy_within`.
    pub(super) fn copy_within(&mut self, from: Range<usize>, to: usize) {
        self.links.copy_within(from.clone(), to);
        self.stats.copy_within(from, to);
    }

    /// Appends copies of the nodes of `from`.
    pub(super) fn extend_from_within(&mut self, from: Range<usize>) {
        self.links.extend_from_within(from.clone());
        self.stats.extend_from_within(from);
    }

    /// Makes sure the memory of the first `end` nodes is backed, a megabyte of nodes beyond at
    /// a time: one system call (Linux's `MADV_POPULATE_WRITE`) instead of a page fault for
    /// every 4 KiB the growing tree first touches. Elsewhere, or when refused, the pages are
    /// faulted in as they are touched.
    #[inline]
    pub(super) fn populate(&mut self, end: usize) {
        if end <= self.populated {
            return;
        }
        let to = populate_ahead::<S>(end, self.links.capacity());
        let from = std::mem::replace(&mut self.populated, to);
        populate(self.links.as_mut_ptr(), from..to, self.links.capacity());
        populate(self.stats.as_mut_ptr(), from..to, self.stats.capacity());
    }
}

/// Where the backed nodes are to end when the first `end` of `capacity` must be backed: a
/// megabyte of nodes beyond.
#[inline]
pub(super) fn populate_ahead<S: Stats>(end: usize, capacity: usize) -> usize {
    (end + (1 << 20) / Tree::<S>::NODE_BYTES).min(capacity)
}

/// Backs the whole pages of the elements `range` of a column reserved for `capacity`
/// elements from `base` (see [`Columns::populate`]).
pub(super) fn populate<T>(base: *mut T, range: Range<usize>, capacity: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        const MADV_POPULATE_WRITE: libc::c_int = 23;
        let base = base as usize;
        let first = (base + range.start * size_of::<T>()).next_multiple_of(PAGE);
        let last = (base + range.end.min(capacity) * size_of::<T>()) / PAGE * PAGE;
        if last > first {
            // SAFETY: whole pages inside the column's own allocation, written with zeros by the
            // kernel only where not yet backed; nothing there is read before it is written.
            unsafe {
                libc::madvise(first as *mut libc::c_void, last - first, MADV_POPULATE_WRITE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (base, range, capacity);
}

impl<S: Stats> Tree<S> {
    /// Reserves the arena at the cap the first time, halving the cap while the system refuses
    /// the memory.
    pub(super) fn reserve(&mut self) {
        if self.columns.links.capacity() >= self.capacity {
            return;
        }
        while !self.columns.try_reserve(self.capacity) {
            if self.capacity == Self::LEAST {
                // The least tree refused too: let the allocator's own failure report it.
                self.columns.links.reserve_exact(self.capacity);
                break;
            }
            self.capacity = (self.capacity / 2).max(Self::LEAST);
            eprintln!(
                "nogo: search tree memory refused; trying {} MB",
                (self.capacity * Self::NODE_BYTES) >> 20
            );
        }
    }
}
