//! The board as each colour's stones alone: a move's legality is found by flood fills from the
//! point's neighbours that stop at the first liberty, so placing a stone is setting one bit.
//!
//! Random playouts place about 74 stones and test about 90 points from the empty board, and
//! most tests end at the point's own neighbours; [`Position`] keeps group bookkeeping instead,
//! which pays where whole legal sets are read at every node (the tree, the solver).

use super::bitboard::{Bitboard, ADJACENT};
use super::point::{Color, Point};
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

    /// Whether `colour` may play `p`: it is empty, takes no opponent group's last liberty, and
    /// its own group keeps one.
    #[inline]
    pub fn is_legal(&self, colour: Color, p: Point) -> bool {
        let own = self.0[colour.index()];
        let theirs = self.0[1 - colour.index()];
        let bit = Bitboard::from(p);
        if !((own | theirs) & bit).is_empty() {
            return false;
        }
        // The liberties that remain once `p` is filled, and the points next to one.
        let liberties = !(own | theirs | bit);
        let near_liberty = liberties.neighbors();
        let adjacent = ADJACENT[p.index()];
        // Opponent stones next to `p` with no liberty of their own: their groups need a search.
        for stone in (adjacent & theirs) - near_liberty {
            if !reaches(theirs, Bitboard::from(stone), liberties) {
                return false;
            }
        }
        let own_adjacent = adjacent & own;
        !(adjacent & liberties).is_empty()
            || !(own_adjacent & near_liberty).is_empty()
            || (!own_adjacent.is_empty() && reaches(own, own_adjacent, liberties))
    }

    /// Places a stone of `colour` on `p`, which must be legal for it.
    #[inline]
    pub fn place(&mut self, colour: Color, p: Point) {
        debug_assert!(self.is_legal(colour, p), "{colour} may not play {p}");
        self.0[colour.index()] |= Bitboard::from(p);
    }
}

/// Whether the groups of `stones` that hold `start` touch a point of `liberties`: grows them a
/// step at a time and stops at the first liberty.
#[inline]
fn reaches(stones: Bitboard, start: Bitboard, liberties: Bitboard) -> bool {
    let mut group = start;
    loop {
        let next = group.neighbors();
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
