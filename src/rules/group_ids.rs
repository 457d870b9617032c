//! The group id of every point, 96 bytes: a group's stones are found by comparing all ids
//! with its own at once (six 16-byte SSE2 comparisons on x86-64), so a position needs no
//! per-group table of stones and stays small enough to copy cheaply.

use super::bitboard::Bitboard;
use super::point::{Point, INDEX_COUNT};

/// The id of no group: that of the empty points and of the padding.
pub const NO_GROUP: u8 = u8::MAX;

/// Ids per point index, padded from [`INDEX_COUNT`] to whole 16-byte lanes.
const SLOTS: usize = 96;
const _: () = assert!(SLOTS >= INDEX_COUNT && SLOTS.is_multiple_of(16) && SLOTS <= 128);

/// The group id of each point, by point index: any number below [`NO_GROUP`] names a group;
/// [`NO_GROUP`] marks an empty point.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(16))]
pub struct GroupIds([u8; SLOTS]);

impl GroupIds {
    /// Every point empty.
    pub const NONE: GroupIds = GroupIds([NO_GROUP; SLOTS]);

    /// The id on `p`.
    #[inline]
    pub fn get(&self, p: Point) -> u8 {
        self.0[p.index()]
    }

    /// Gives `p` the id `id`.
    #[inline]
    pub fn set(&mut self, p: Point, id: u8) {
        self.0[p.index()] = id;
    }

    /// The points with id `id`.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub fn members(&self, id: u8) -> Bitboard {
        use std::arch::x86_64::*;
        let lanes = self.0.as_ptr() as *const __m128i;
        let mut bits = 0u128;
        // SAFETY: SSE2 is part of every x86-64 CPU, and the array is 16-byte aligned and
        // `SLOTS` bytes long, a whole number of 16-byte lanes.
        unsafe {
            let key = _mm_set1_epi8(id as i8);
            for lane in 0..SLOTS / 16 {
                let ids = _mm_load_si128(lanes.add(lane));
                bits |= u128::from(_mm_movemask_epi8(_mm_cmpeq_epi8(ids, key)) as u16) << (16 * lane);
            }
        }
        Bitboard(bits)
    }

    /// Gives the points with an id in `from` the id `into` (repeat an id to merge fewer than
    /// three groups), returning all the points that now have it.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub fn merge(&mut self, from: [u8; 3], into: u8) -> Bitboard {
        use std::arch::x86_64::*;
        let lanes = self.0.as_mut_ptr() as *mut __m128i;
        let mut bits = 0u128;
        // SAFETY: as in `members`.
        unsafe {
            let key = |id: u8| _mm_set1_epi8(id as i8);
            let (a, b, c, target) = (key(from[0]), key(from[1]), key(from[2]), key(into));
            for lane in 0..SLOTS / 16 {
                let ids = _mm_load_si128(lanes.add(lane));
                let hit = _mm_or_si128(
                    _mm_or_si128(_mm_cmpeq_epi8(ids, a), _mm_cmpeq_epi8(ids, b)),
                    _mm_or_si128(_mm_cmpeq_epi8(ids, c), _mm_cmpeq_epi8(ids, target)),
                );
                let relabelled = _mm_or_si128(_mm_andnot_si128(hit, ids), _mm_and_si128(hit, target));
                _mm_store_si128(lanes.add(lane), relabelled);
                bits |= u128::from(_mm_movemask_epi8(hit) as u16) << (16 * lane);
            }
        }
        Bitboard(bits)
    }

    /// The points with id `id`.
    #[cfg(not(target_arch = "x86_64"))]
    pub fn members(&self, id: u8) -> Bitboard {
        let mut bits = 0u128;
        for (index, &slot) in self.0.iter().enumerate() {
            bits |= u128::from(slot == id) << index;
        }
        Bitboard(bits)
    }

    /// Gives the points with an id in `from` the id `into` (repeat an id to merge fewer than
    /// three groups), returning all the points that now have it.
    #[cfg(not(target_arch = "x86_64"))]
    pub fn merge(&mut self, from: [u8; 3], into: u8) -> Bitboard {
        for slot in self.0.iter_mut() {
            if from.contains(slot) {
                *slot = into;
            }
        }
        self.members(into)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The points with an id in `ids`, one by one.
    fn reference_members(ids: &GroupIds, wanted: &[u8]) -> Bitboard {
        let mut bits = 0u128;
        for (index, id) in ids.0.iter().enumerate() {
            if wanted.contains(id) {
                bits |= 1 << index;
            }
        }
        Bitboard(bits)
    }

    #[test]
    fn members_and_merge_agree_with_a_point_by_point_scan() {
        let mut rng = fastrand::Rng::with_seed(3);
        for _ in 0..2000 {
            // Few distinct ids, so that groups have many members; NO_GROUP is one of them.
            let palette: Vec<u8> = (0..5).map(|_| rng.u8(..)).chain([NO_GROUP]).collect();
            let mut ids = GroupIds::NONE;
            for index in 0..INDEX_COUNT {
                ids.0[index] = palette[rng.usize(..palette.len())];
            }
            let id = palette[rng.usize(..5)];
            assert_eq!(ids.members(id), reference_members(&ids, &[id]));
            let (from, into) = ([palette[0], palette[1], palette[1]], palette[2]);
            let mut expected = ids;
            for slot in expected.0.iter_mut() {
                if from.contains(slot) {
                    *slot = into;
                }
            }
            let members = ids.merge(from, into);
            assert_eq!(ids, expected);
            assert_eq!(members, reference_members(&ids, &[into]));
        }
    }
}
