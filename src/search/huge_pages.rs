//! Transparent huge pages for the search's big tables: the tree arena and the endgame solver's
//! table are read at random, so with 4 KiB pages most reads also miss the TLB.

/// Asks the kernel to back the capacity of `table` with 2 MiB pages where it can, before
/// the pages are first touched (Linux `madvise(MADV_HUGEPAGE)`; elsewhere, or when refused,
/// nothing changes but the speed).
pub(crate) fn advise<T>(table: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = table.as_ptr() as usize;
        let end = start + table.capacity() * size_of::<T>();
        let first = start.next_multiple_of(PAGE);
        if end > first + PAGE {
            // SAFETY: an advice on whole pages inside the vector's own allocation; it changes
            // how the memory is backed, never its contents.
            unsafe {
                libc::madvise(first as *mut libc::c_void, (end - first) / PAGE * PAGE, libc::MADV_HUGEPAGE);
            }
        }
    }
}
