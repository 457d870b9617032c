//! The board as each colour's stones alone: a move's legality is found by flood fills from the
//! point's neighbours that stop at the first liberty, so placing a stone is setting one bit.
//!
//! Random playouts place about 74 stones and test about 90 points from the empty board, and
//! most tests end at the point's own neighbours; [`Position`] keeps group bookkeeping instead,
//! which pays where whole legal sets are read at every node (the tree, the solver).

use super::bitboard::{Bitboard, ADJACENT};
use super::point::{Color, Point, INDEX_COUNT, SIZE, STRIDE};
use super::position::Position;

/// Each colour's stones, `[black, white]`, of a position reached by legal moves (every group
/// has a liberty).
///
/// ```
/// use nogo::rules::stones::Stones;
/// use nogo::{bitboard, Color, Point, Position};
/// let white = bitboard! {
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
/// let board = Stones::of(&Position::from_stones(Default::default(), white, Color::Black).unwrap());
/// let corner = Point::from_xy(0, 0).unwrap();
/// assert!(!board.is_legal(Color::Black, corner), "suicide");
/// assert!(board.is_legal(Color::White, corner));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stones([Bitboard; 2]);

impl Stones {
    /// The stones of `position`.
    #[inline]
    pub fn of(position: &Position) -> Stones {
        Stones([position.stones(Color::Black), position.stones(Color::White)])
    }

    /// Each colour's stones, `[black, white]`.
    #[inline]
    pub fn both(self) -> [Bitboard; 2] {
        self.0
    }

    /// Whether `p` holds a stone.
    #[inline(always)]
    pub fn is_occupied(&self, p: Point) -> bool {
        (self.0[0] | self.0[1]).has(p)
    }

    /// Whether `colour` may play `p`: it is empty, takes no opponent group's last liberty, and
    /// its own group keeps one.
    #[inline]
    pub fn is_legal(&self, colour: Color, p: Point) -> bool {
        !self.is_occupied(p) && self.is_legal_empty(colour, p)
    }

    /// [`Stones::is_legal`] for a point known to be empty (a playout's drawn points).
    ///
    /// The answer needs no flood for most points: where each stone next to `p` reaches a
    /// liberty in a few steps, or `p` has an empty neighbour. That is read from the rows around
    /// `p`, taken into a `u64` window where every operation is one instruction.
    #[inline(always)]
    pub fn is_legal_empty(&self, colour: Color, p: Point) -> bool {
        let own = self.0[colour.index()];
        let theirs = self.0[1 - colour.index()];
        debug_assert!(!(own | theirs).has(p), "{p} is occupied");
        let Window { shift, adjacent, bit, edge } = WINDOWS[p.index()];
        let (own_near, theirs_near) = (window(own, shift), window(theirs, shift));
        // The liberties that remain once `p` is filled, and the points next to one (right only
        // for the rows next to `p`, all that is read of them).
        let liberties = !(own_near | theirs_near | bit) & WINDOW_FULL;
        let near_liberty = spread_near(liberties);
        // Opponent stones next to `p` with no liberty near: their groups need a search.
        let theirs_free = reach_near(theirs_near, near_liberty);
        let unsure = adjacent & theirs_near & !theirs_free;
        let own_adjacent = adjacent & own_near;
        // Whether the group of `start` among `stones` (`near` in the window) has a liberty:
        // settled in the window where it can be, else by a flood over the whole board.
        let reaches_liberty = |stones: Bitboard, near: u64, start: u64| {
            reaches_near(near, start, liberties, edge).unwrap_or_else(|| {
                reaches(stones, unwindow(start, shift), !(own | theirs | Bitboard::from(p)))
            })
        };
        if unsure != 0 {
            // Lowest stone first, by bit arithmetic: `Points` and a table load were slower here.
            let mut unsure = unsure;
            while unsure != 0 {
                let stone = unsure & unsure.wrapping_neg();
                unsure &= unsure - 1;
                if !reaches_liberty(theirs, theirs_near, stone) {
                    return false;
                }
            }
        }
        adjacent & liberties != 0
            || own_adjacent & reach_near(own_near, near_liberty) != 0
            || (own_adjacent != 0 && reaches_liberty(own, own_near, own_adjacent))
    }

    /// The points that would finish an eye of `colour` next to `p`, a stone of its own: the
    /// one empty neighbour of an empty point next to `p` whose other neighbours are all stones
    /// of `colour`. A finished eye is a point only its owner may play (the other colour's
    /// stone there would have no liberty, or take the last of a group around it); the
    /// opponent spoils the eye by playing the same point first.
    ///
    /// ```
    /// use nogo::rules::stones::Stones;
    /// use nogo::{bitboard, Bitboard, Color, Point, Position};
    /// let black = bitboard! {
    ///     . X . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    /// };
    /// let board = Stones::of(&Position::from_stones(black, Bitboard::EMPTY, Color::White).unwrap());
    /// // Black at A2 would make A1 an eye.
    /// assert_eq!(board.eye_points_after(Color::Black, Point::from_xy(1, 0).unwrap()), bitboard! {
    ///     . . . . . . . . .
    ///     X . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .
    /// });
    /// ```
    #[inline(always)]
    pub fn eye_points_after(&self, colour: Color, p: Point) -> Bitboard {
        let (own, theirs) = (self.0[colour.index()], self.0[1 - colour.index()]);
        let Window { shift, adjacent, .. } = WINDOWS[p.index()];
        let (own_near, theirs_near) = (window(own, shift), window(theirs, shift));
        let empty = !(own_near | theirs_near) & WINDOW_FULL;
        let candidates = adjacent & empty & !spread_near(theirs_near);
        if candidates == 0 {
            return Bitboard::EMPTY;
        }
        // The empty points with exactly one empty neighbour, counted a direction at a time.
        let (mut ones, mut twos) = (0, 0);
        for next in [empty << 1, empty >> 1, empty << STRIDE, empty >> STRIDE] {
            twos |= ones & next;
            ones |= next;
        }
        unwindow(spread_near(candidates & ones & !twos) & empty, shift)
    }

    /// Places a stone of `colour` on `p`, which must be legal for it.
    #[inline]
    pub fn place(&mut self, colour: Color, p: Point) {
        debug_assert!(self.is_legal(colour, p), "{colour} may not play {p}");
        self.0[colour.index()] |= Bitboard::from(p);
    }
}

/// The rows around a point that decide most tests of it: `shift` is the first row's bit, and
/// the point and its neighbours are given as bits of the window.
#[derive(Clone, Copy)]
struct Window {
    shift: u32,
    adjacent: u64,
    bit: u64,
    /// Its rows with a board row beyond the window: a group in the window that reaches one
    /// may go on outside.
    edge: u64,
}

/// Rows in a window: those within two of the point, and one more where the board allows.
const WINDOW_ROWS: usize = 6;
const WINDOW_FULL: u64 = (Bitboard::FULL.0 & ((1 << (WINDOW_ROWS * STRIDE)) - 1)) as u64;

const WINDOWS: [Window; INDEX_COUNT] = {
    let mut table = [Window { shift: 0, adjacent: 0, bit: 0, edge: 0 }; INDEX_COUNT];
    let row_bits = (1u64 << SIZE) - 1;
    let mut i = 0;
    while i < INDEX_COUNT {
        let row = i / STRIDE;
        let first = if row < 2 {
            0
        } else if row > SIZE - WINDOW_ROWS + 2 {
            SIZE - WINDOW_ROWS
        } else {
            row - 2
        };
        let shift = (first * STRIDE) as u32;
        let mut edge = 0;
        if first > 0 {
            edge |= row_bits;
        }
        if first + WINDOW_ROWS < SIZE {
            edge |= row_bits << ((WINDOW_ROWS - 1) * STRIDE);
        }
        let (adjacent, bit) = ((ADJACENT[i].0 >> shift) as u64, (1u128 << i >> shift) as u64);
        table[i] = Window { shift, adjacent, bit, edge };
        i += 1;
    }
    table
};

/// [`Bitboard::spread`] in a window.
#[inline(always)]
fn spread_near(set: u64) -> u64 {
    (set << 1) | (set >> 1) | (set << STRIDE) | (set >> STRIDE)
}

/// The `stones` of a window that reach a liberty in at most two steps through stones of their
/// colour: their groups have one, so a flood from them is not needed.
#[inline(always)]
fn reach_near(stones: u64, near_liberty: u64) -> u64 {
    let one = stones & near_liberty;
    let two = one | (spread_near(one) & stones);
    two | (spread_near(two) & stones)
}

/// Whether the group of `stones` (a window's) that holds `start` touches a point of
/// `liberties` (the window's), found inside the window: `None` where the group reaches an
/// `edge` row without a liberty, beyond which it may go on.
#[inline(always)]
fn reaches_near(stones: u64, start: u64, liberties: u64, edge: u64) -> Option<bool> {
    let stones = stones & WINDOW_FULL;
    let mut group = start;
    loop {
        let next = spread_near(group);
        if next & liberties != 0 {
            return Some(true);
        }
        let grown = group | (next & stones);
        if grown == group {
            return if group & edge == 0 { Some(false) } else { None };
        }
        group = grown;
    }
}

/// The window of `set` from bit `shift` (under 64).
#[inline(always)]
fn window(set: Bitboard, shift: u32) -> u64 {
    let (low, high) = (set.0 as u64, (set.0 >> 64) as u64);
    // The high word moves up by `64 - shift`, done as two shifts: with `shift` 0 one shift by
    // 64 would overflow (a panic in debug builds, any value in release), while two give 0.
    (low >> shift) | ((high << 1) << (63 - shift))
}

/// The points of a window, from bit `shift`, back on the board.
#[inline(always)]
fn unwindow(set: u64, shift: u32) -> Bitboard {
    Bitboard((set as u128) << shift)
}

/// Whether the groups of `stones` that hold `start` touch a point of `liberties`: grows them a
/// step at a time and stops at the first liberty.
#[inline]
fn reaches(stones: Bitboard, start: Bitboard, liberties: Bitboard) -> bool {
    let mut group = start;
    loop {
        let next = group.spread();
        if !(next & liberties).is_empty() {
            return true;
        }
        let grown = group | (next & stones);
        if grown == group {
            return false;
        }
        group = grown;
    }
}
