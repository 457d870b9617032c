//! A set of points of the 9x9 board, stored in a `u128`.
//!
//! Layout: 9 rows of 10 bits (`index = row * 10 + column`). Column 9 of every row is a guard
//! that is always empty, so a shift by one moves a whole row sideways without wrapping into the
//! next row, and every neighbour shift costs one shift and one mask.
//!
//! ```
//! use nogo::{bitboard, Bitboard, Point};
//! let corner = Bitboard::from(Point::from_xy(0, 0).unwrap());
//! assert_eq!(corner.neighbors(), bitboard! {
//!     . X . . . . . . .
//!     X . . . . . . . .
//!     . . . . . . . . .
//!     . . . . . . . . .
//!     . . . . . . . . .
//!     . . . . . . . . .
//!     . . . . . . . . .
//!     . . . . . . . . .
//!     . . . . . . . . .
//! });
//! ```

use super::point::{Point, INDEX_COUNT, SIZE, STRIDE};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign};

/// A set of board points.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

/// The on-board neighbours of each point, by index: one load instead of four shifts.
pub(crate) const ADJACENT: [Bitboard; INDEX_COUNT] = {
    let mut table = [Bitboard::EMPTY; INDEX_COUNT];
    let mut i = 0;
    while i < INDEX_COUNT {
        table[i] = Bitboard(1 << i).neighbors();
        i += 1;
    }
    table
};

/// Bits of one row: the 9 on-board columns, not the guard.
const ROW: u128 = (1 << SIZE) - 1;

const fn board_mask() -> u128 {
    let mut mask = 0;
    let mut row = 0;
    while row < SIZE {
        mask |= ROW << (row * STRIDE);
        row += 1;
    }
    mask
}

impl Bitboard {
    /// No points.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 points of the board.
    pub const FULL: Bitboard = Bitboard(board_mask());

    /// Parses a diagram of 81 cells, `X` (or `x`, `#`) for a member and `.` for a non-member,
    /// separated by any whitespace, top row first. Other characters are an error; used by the
    /// [`bitboard!`](crate::bitboard!) macro, where an error stops compilation.
    pub const fn from_diagram(diagram: &str) -> Bitboard {
        let bytes = diagram.as_bytes();
        let mut bits = 0u128;
        let mut cell = 0usize;
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            i += 1;
            let member = match b {
                b'X' | b'x' | b'#' => true,
                b'.' => false,
                b' ' | b'\n' | b'\t' | b'\r' => continue,
                _ => panic!("bitboard diagram: use 'X' or '.' for cells"),
            };
            assert!(cell < SIZE * SIZE, "bitboard diagram: more than 81 cells");
            if member {
                bits |= 1 << ((cell / SIZE) * STRIDE + cell % SIZE);
            }
            cell += 1;
        }
        assert!(cell == SIZE * SIZE, "bitboard diagram: fewer than 81 cells");
        Bitboard(bits)
    }

    /// Whether the set has no point.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of points in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// How many points of the set come before `p` in board order: the rank of `p` among them.
    ///
    /// ```
    /// use nogo::{Bitboard, Point};
    /// let set: Bitboard = [(0, 0), (3, 0), (1, 1)].into_iter().map(|(x, y)| Point::from_xy(x, y).unwrap()).collect();
    /// assert_eq!(set.count_below(Point::from_xy(1, 1).unwrap()), 2);
    /// assert_eq!(set.count_below(Point::from_xy(0, 0).unwrap()), 0);
    /// ```
    #[inline]
    pub fn count_below(self, p: Point) -> u32 {
        (self.0 & (SINGLES[p.index()].0 - 1)).count_ones()
    }

    /// Whether `p` is in the set.
    #[inline]
    pub const fn has(self, p: Point) -> bool {
        self.0 & SINGLES[p.index()].0 != 0
    }

    /// Whether the set has at most one point; cheaper than `count() <= 1` on CPUs without a
    /// popcount instruction (the baseline x86-64 target has none).
    #[inline]
    pub const fn has_at_most_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) == 0
    }

    /// Whether every point of `self` is in `other`.
    #[inline]
    pub const fn is_subset(self, other: Bitboard) -> bool {
        self.0 & !other.0 == 0
    }

    /// The lowest point of the set (the first in board order), if any.
    #[inline]
    pub const fn first(self) -> Option<Point> {
        if self.0 == 0 {
            None
        } else {
            Some(Point::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The points adjacent (up, down, left, right) to some point of the set, on the board.
    /// Points of the set itself are included only when adjacent to another member.
    #[inline]
    pub const fn neighbors(self) -> Bitboard {
        Bitboard(self.spread().0 & Bitboard::FULL.0)
    }

    /// [`Bitboard::neighbors`] without the mask: also the bits shifted off the board (the guard
    /// column, the row below it). Enough, and one mask cheaper, for a set that is only
    /// intersected with points on the board, as a flood's next step is.
    #[inline(always)]
    pub const fn spread(self) -> Bitboard {
        let b = self.0;
        Bitboard((b << 1) | (b >> 1) | (b << STRIDE) | (b >> STRIDE))
    }

    /// The points adjacent to at least two points of the set.
    ///
    /// ```
    /// use nogo::bitboard;
    /// let set = bitboard! {
    ///     . X . . . . . . .
    ///     X . X . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    /// };
    /// assert_eq!(set.neighbors_twice(), bitboard! {
    ///     X . X . . . . . .
    ///     . X . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    /// });
    /// ```
    #[inline]
    pub const fn neighbors_twice(self) -> Bitboard {
        let b = self.0;
        let full = Bitboard::FULL.0;
        let (l, r, u, d) = ((b << 1) & full, (b >> 1) & full, (b << STRIDE) & full, (b >> STRIDE) & full);
        Bitboard((l & r) | ((l | r) & (u | d)) | (u & d))
    }

    /// The set and every point at most `steps` steps (up, down, left or right) from it.
    ///
    /// ```
    /// use nogo::bitboard;
    /// let corner = bitboard! {
    ///     X . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    /// };
    /// assert_eq!(corner.within(2), bitboard! {
    ///     X X X . . . . . .
    ///     X X . . . . . . .
    ///     X . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    /// });
    /// assert_eq!(corner.within(0), corner);
    /// ```
    #[inline]
    pub fn within(self, steps: u32) -> Bitboard {
        (0..steps).fold(self, |set, _| set | set.neighbors())
    }

    /// The `n`-th point of the set in board order, `n < count()`. Random playouts call this
    /// once per move, so it selects without a loop over the set's points.
    pub fn nth(self, n: u32) -> Option<Point> {
        let (lo, hi) = (self.0 as u64, (self.0 >> 64) as u64);
        let lo_count = lo.count_ones();
        let (word, n, base) = if n < lo_count { (lo, n, 0) } else { (hi, n - lo_count, 64) };
        if n >= word.count_ones() {
            return None;
        }
        Some(Point::from_index_unchecked(base + select(word, n) as u8))
    }

    /// A uniformly random point of the set, if any.
    pub fn choose(self, rng: &mut fastrand::Rng) -> Option<Point> {
        if self.is_empty() {
            None
        } else {
            self.nth(rng.u32(..self.count()))
        }
    }

    /// The points of the set in board order.
    #[inline]
    pub fn iter(self) -> Points {
        Points { low: self.0 as u64, high: (self.0 >> 64) as u64 }
    }
}

/// The index of the `n`-th set bit of `word`, `n < word.count_ones()` (broadword select): the
/// byte is found from prefix sums of the bytes' counts, then at most 7 bits are skipped.
const fn select(word: u64, n: u32) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut counts = word - ((word >> 1) & 0x5555_5555_5555_5555);
    counts = (counts & 0x3333_3333_3333_3333) + ((counts >> 2) & 0x3333_3333_3333_3333);
    counts = (counts + (counts >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    // Byte i of `prefix`: the set bits in bytes 0..=i (at most 64, so no byte overflows).
    let prefix = counts.wrapping_mul(ONES);
    // High bit of byte i set when prefix_i > n; no borrow crosses bytes as n < 64 < 128.
    let above = ((prefix | HIGHS) - ONES * (n as u64 + 1)) & HIGHS;
    let byte = above.trailing_zeros() / 8;
    let before = ((prefix << 8) >> (8 * byte)) as u32 & 0xFF;
    let mut bits = (word >> (8 * byte)) & 0xFF;
    let mut skip = n - before;
    while skip > 0 {
        bits &= bits - 1;
        skip -= 1;
    }
    8 * byte + bits.trailing_zeros()
}

/// The one-point set of each point, by index: a load, where a 128-bit shift by a variable
/// count takes several instructions.
const SINGLES: [Bitboard; INDEX_COUNT] = {
    let mut table = [Bitboard::EMPTY; INDEX_COUNT];
    let mut i = 0;
    while i < INDEX_COUNT {
        table[i] = Bitboard(1 << i);
        i += 1;
    }
    table
};

impl From<Point> for Bitboard {
    #[inline]
    fn from(p: Point) -> Bitboard {
        SINGLES[p.index()]
    }
}

impl FromIterator<Point> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, |b, p| b | Bitboard::from(p))
    }
}

/// Iterator over the points of a [`Bitboard`], in board order: the low 64 bits, then the
/// high ones (one machine word at a time is cheaper than 128-bit steps).
#[derive(Clone)]
pub struct Points {
    low: u64,
    high: u64,
}

impl Iterator for Points {
    type Item = Point;
    #[inline]
    fn next(&mut self) -> Option<Point> {
        let index = if self.low != 0 {
            let index = self.low.trailing_zeros();
            self.low &= self.low - 1;
            index
        } else if self.high != 0 {
            let index = 64 + self.high.trailing_zeros();
            self.high &= self.high - 1;
            index
        } else {
            return None;
        };
        Some(Point::from_index_unchecked(index as u8))
    }
    /// A loop over each word in turn, without `next`'s test of which word is left.
    #[inline(always)]
    fn fold<B, F: FnMut(B, Point) -> B>(self, init: B, mut f: F) -> B {
        let mut acc = init;
        for (mut word, base) in [(self.low, 0), (self.high, 64)] {
            while word != 0 {
                acc = f(acc, Point::from_index_unchecked((base + word.trailing_zeros()) as u8));
                word &= word - 1;
            }
        }
        acc
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.low.count_ones() + self.high.count_ones()) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Points {}

impl IntoIterator for Bitboard {
    type Item = Point;
    type IntoIter = Points;
    fn into_iter(self) -> Points {
        self.iter()
    }
}

macro_rules! binary_op {
    ($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binary_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binary_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binary_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference.
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl SubAssign for Bitboard {
    #[inline]
    fn sub_assign(&mut self, rhs: Bitboard) {
        self.0 &= !rhs.0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the board (the guard column stays empty).
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

impl fmt::Display for Bitboard {
    /// The diagram form accepted by [`Bitboard::from_diagram`].
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for y in 0..SIZE as u8 {
            for x in 0..SIZE as u8 {
                let p = Point::from_xy(x, y).expect("on board");
                let sep = if x + 1 == SIZE as u8 { "\n" } else { " " };
                write!(f, "{}{}", if self.has(p) { 'X' } else { '.' }, sep)?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Bitboard {{\n{self}}}")
    }
}

/// A count from 0 to 15 (one more wraps to 0) at every point, as four bit planes (bit `i` of a
/// point's count is its bit in plane `i`): adding a set to every point's count at once costs a
/// dozen word operations, however many points it has.
///
/// ```
/// use nogo::rules::bitboard::Counts;
/// use nogo::{bitboard, Point};
/// let stones = bitboard! {
///     . X . . . . . . .
///     X . . . . . . . .
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . . . . . . .
/// };
/// let mut counts = Counts::default();
/// counts.add_neighbors_in(stones);
/// assert_eq!(counts.get(Point::from_xy(0, 0).unwrap()), 2);
/// assert_eq!(counts.get(Point::from_xy(1, 1).unwrap()), 2);
/// assert_eq!(counts.greatest(stones).0, 0);
/// assert_eq!(counts.greatest(!stones).1.count(), 2);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Counts([u128; 4]);

impl Counts {
    /// Adds one to the count of every point of `set`.
    #[inline]
    pub fn add(&mut self, set: Bitboard) {
        let mut carry = set.0;
        for plane in &mut self.0 {
            let sum = *plane ^ carry;
            carry &= *plane;
            *plane = sum;
        }
    }

    /// Adds to each point's count the number of its neighbours (up, down, left, right) in `set`.
    #[inline]
    pub fn add_neighbors_in(&mut self, set: Bitboard) {
        let (b, full) = (set.0, Bitboard::FULL.0);
        for shifted in [b << 1, b >> 1, b << STRIDE, b >> STRIDE] {
            self.add(Bitboard(shifted & full));
        }
    }

    /// The largest count among the points of `among` (which must not be empty), and the
    /// points of `among` that have it: from the top plane down, keep the points with the bit
    /// set whenever any has it.
    #[inline]
    pub fn greatest(self, among: Bitboard) -> (u32, Bitboard) {
        let (mut set, mut value) = (among.0, 0);
        for (i, plane) in self.0.iter().enumerate().rev() {
            if set & plane != 0 {
                set &= plane;
                value |= 1 << i;
            }
        }
        (value, Bitboard(set))
    }

    /// The count of `p`.
    #[inline]
    pub fn get(self, p: Point) -> u32 {
        self.0.iter().enumerate().map(|(i, plane)| ((plane >> p.index()) as u32 & 1) << i).sum()
    }
}

/// A [`Bitboard`] literal drawn as a 9x9 diagram, top row first: `X` a member, `.` not.
///
/// ```
/// use nogo::{bitboard, Bitboard};
/// let diagonal = bitboard! {
///     X . . . . . . . .
///     . X . . . . . . .
///     . . X . . . . . .
///     . . . X . . . . .
///     . . . . X . . . .
///     . . . . . X . . .
///     . . . . . . X . .
///     . . . . . . . X .
///     . . . . . . . . X
/// };
/// assert_eq!(diagonal.count(), 9);
/// assert!(diagonal.is_subset(Bitboard::FULL));
/// ```
#[macro_export]
macro_rules! bitboard {
    ($($cell:tt)*) => {{
        const BOARD: $crate::Bitboard = $crate::Bitboard::from_diagram(stringify!($($cell)*));
        BOARD
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_neighbors(b: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for p in b {
            for q in p.neighbors() {
                out |= Bitboard::from(q);
            }
        }
        out
    }

    #[test]
    fn counts_add_sets_and_neighbours_point_by_point() {
        let mut rng = fastrand::Rng::with_seed(9);
        for _ in 0..500 {
            let (mut counts, mut expected) = (Counts::default(), [0u32; 128]);
            for _ in 0..rng.usize(0..4) {
                let set = Bitboard(rng.u128(..)) & Bitboard::FULL;
                counts.add(set);
                set.iter().for_each(|p| expected[p.index()] += 1);
            }
            for _ in 0..rng.usize(0..3) {
                let set = Bitboard(rng.u128(..)) & Bitboard::FULL;
                counts.add_neighbors_in(set);
                for p in Bitboard::FULL {
                    expected[p.index()] += (naive_neighbors(Bitboard::from(p)) & set).count();
                }
            }
            for p in Bitboard::FULL {
                assert_eq!(counts.get(p), expected[p.index()], "{p}");
            }
            let mut among = Bitboard(rng.u128(..)) & Bitboard::FULL;
            while !among.is_empty() {
                let (value, with_value) = counts.greatest(among);
                let most = among.iter().map(|p| expected[p.index()]).max();
                assert_eq!(Some(value), most);
                let expected_with_value: Bitboard =
                    among.iter().filter(|p| expected[p.index()] == value).collect();
                assert_eq!(with_value, expected_with_value);
                among -= with_value;
            }
        }
    }

    #[test]
    fn full_board_has_81_points_and_no_guard() {
        assert_eq!(Bitboard::FULL.count(), 81);
        assert_eq!((!Bitboard::EMPTY), Bitboard::FULL);
        assert_eq!(Bitboard::FULL.iter().count(), 81);
        assert!(Bitboard::FULL.iter().all(|p| p.x() < 9 && p.y() < 9));
    }

    #[test]
    fn neighbors_twice_counts_adjacent_members() {
        let mut rng = fastrand::Rng::with_seed(8);
        for _ in 0..2000 {
            let b = Bitboard(rng.u128(..)) & Bitboard::FULL;
            let twice = b.neighbors_twice();
            for p in Bitboard::FULL {
                let adjacent = (naive_neighbors(Bitboard::from(p)) & b).count();
                assert_eq!(twice.has(p), adjacent >= 2, "{p} has {adjacent} members beside it");
            }
        }
    }

    #[test]
    fn neighbors_match_point_by_point_dilation() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..2000 {
            let b = Bitboard(rng.u128(..)) & Bitboard::FULL;
            assert_eq!(b.neighbors(), naive_neighbors(b));
        }
        for p in Bitboard::FULL {
            let b = Bitboard::from(p);
            assert_eq!(b.neighbors(), naive_neighbors(b));
        }
    }

    #[test]
    fn fold_visits_the_points_in_the_order_next_gives() {
        let mut rng = fastrand::Rng::with_seed(12);
        for _ in 0..2000 {
            let b = Bitboard(rng.u128(..) & rng.u128(..)) & Bitboard::FULL;
            let by_next: Vec<Point> = std::iter::from_fn({
                let mut points = b.iter();
                move || points.next()
            })
            .collect();
            let by_fold = b.iter().fold(Vec::new(), |mut seen, p| {
                seen.push(p);
                seen
            });
            assert_eq!(by_fold, by_next, "{b:?}");
            assert_eq!(by_fold.len(), b.count() as usize);
        }
    }

    #[test]
    fn nth_matches_iteration() {
        let mut rng = fastrand::Rng::with_seed(11);
        for round in 0..3000 {
            // Sparse, dense and uniform sets.
            let bits = match round % 3 {
                0 => rng.u128(..) & rng.u128(..) & rng.u128(..),
                1 => rng.u128(..) | rng.u128(..),
                _ => rng.u128(..),
            };
            let b = Bitboard(bits) & Bitboard::FULL;
            for (n, p) in b.iter().enumerate() {
                assert_eq!(b.nth(n as u32), Some(p), "{b:?} n {n}");
            }
            assert_eq!(b.nth(b.count()), None);
            assert_eq!(b.nth(u32::MAX), None);
        }
    }

    #[test]
    fn edges_do_not_wrap() {
        let right_edge = bitboard! {
            . . . . . . . . X
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
        };
        assert_eq!(
            right_edge.neighbors(),
            bitboard! {
                . . . . . . . X .
                . . . . . . . . X
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
            }
        );
    }

    #[test]
    fn set_operators_and_iteration() {
        let a = Bitboard::from(Point::from_xy(1, 2).unwrap()) | Bitboard::from(Point::from_xy(8, 8).unwrap());
        let b = Bitboard::from(Point::from_xy(8, 8).unwrap());
        assert_eq!((a & b), b);
        assert_eq!((a - b).count(), 1);
        assert_eq!((a ^ b).first(), Point::from_xy(1, 2));
        assert!(b.is_subset(a) && !a.is_subset(b));
        assert_eq!(a.iter().collect::<Bitboard>(), a);
        assert_eq!(a.nth(1), Point::from_xy(8, 8));
        assert!(!a.has_at_most_one() && b.has_at_most_one() && Bitboard::EMPTY.has_at_most_one());
        assert!(!Bitboard::FULL.has_at_most_one());
        assert_eq!(a.nth(2), None);
        assert_eq!(Bitboard::FULL.nth(80), Point::from_xy(8, 8));
    }

    #[test]
    fn display_round_trips_through_the_diagram() {
        let mut rng = fastrand::Rng::with_seed(3);
        for _ in 0..100 {
            let b = Bitboard(rng.u128(..)) & Bitboard::FULL;
            assert_eq!(Bitboard::from_diagram(&b.to_string()), b);
        }
    }
}
