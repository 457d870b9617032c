//! The eight symmetries of the square board (rotations and reflections), under which NoGo's
//! rules, and so a position's worth, do not change: the opening book looks positions up by
//! the least of their eight images ([`canonical`]).

use crate::rules::point::SIZE;
use crate::rules::{Bitboard, Color, Point, Position};

/// A symmetry of the board: a transpose (x and y swapped), then mirrors of x and of y, each
/// done or not (bits 0, 1 and 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry(u8);

/// The largest coordinate, which a mirror maps 0 to.
const LAST: u8 = SIZE as u8 - 1;

impl Symmetry {
    /// The identity.
    pub const IDENTITY: Symmetry = Symmetry(0);

    /// All eight, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// The image of `p`.
    pub fn point(self, p: Point) -> Point {
        let (mut x, mut y) = (p.x(), p.y());
        if self.0 & 1 != 0 {
            (x, y) = (y, x);
        }
        if self.0 & 2 != 0 {
            x = LAST - x;
        }
        if self.0 & 4 != 0 {
            y = LAST - y;
        }
        Point::from_xy(x, y).expect("a symmetry keeps points on the board")
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        if self.0 & 1 == 0 {
            return self;
        }
        // Mirroring x after a transpose is mirroring y before it: the mirrors trade places.
        Symmetry(1 | (self.0 & 2) << 1 | (self.0 & 4) >> 1)
    }

    /// The image of a set of points.
    pub fn set(self, set: Bitboard) -> Bitboard {
        set.iter().map(|p| self.point(p)).collect()
    }
}

/// What identifies a position up to symmetry: its stones and the side to move.
pub type Key = (u128, u128, bool);

/// The key of `position`'s image under `symmetry`.
fn key(position: &Position, symmetry: Symmetry) -> Key {
    let black = symmetry.set(position.stones(Color::Black));
    let white = symmetry.set(position.stones(Color::White));
    (black.0, white.0, position.to_move() == Color::White)
}

/// The least key of `position`'s eight images, and a symmetry that maps the position to it.
pub fn canonical(position: &Position) -> (Key, Symmetry) {
    Symmetry::ALL
        .into_iter()
        .map(|s| (key(position, s), s))
        .min_by_key(|&(k, _)| k)
        .expect("eight symmetries")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::test_support::random_positions;

    /// The position with every stone moved by `symmetry`.
    fn image(position: &Position, symmetry: Symmetry) -> Position {
        let [black, white] = [Color::Black, Color::White].map(|c| symmetry.set(position.stones(c)));
        Position::from_stones(black, white, position.to_move()).unwrap()
    }

    #[test]
    fn each_symmetry_is_a_permutation_undone_by_its_inverse() {
        for s in Symmetry::ALL {
            let images: Bitboard = (0..81).filter_map(Point::from_cell).map(|p| s.point(p)).collect();
            assert_eq!(images.count(), 81, "{s:?} maps two points to one");
            for p in (0..81).filter_map(Point::from_cell) {
                assert_eq!(s.inverse().point(s.point(p)), p, "{s:?} at {p}");
            }
        }
        let corner = Point::from_xy(0, 0).unwrap();
        let corners: Bitboard = Symmetry::ALL.iter().map(|s| s.point(corner)).collect();
        assert_eq!(corners.count(), 4, "the corner's images are the four corners");
    }

    #[test]
    fn the_rules_commute_with_every_symmetry() {
        for position in random_positions(11, |p| p.moves_played() % 9 == 5) {
            for s in Symmetry::ALL {
                let moved = image(&position, s);
                for colour in [Color::Black, Color::White] {
                    assert_eq!(moved.legal(colour), s.set(position.legal(colour)), "{s:?}\n{position}");
                }
            }
        }
    }

    #[test]
    fn the_images_of_a_position_share_its_canonical_key() {
        for position in random_positions(12, |p| p.moves_played() % 5 == 2) {
            let (key, to_canonical) = canonical(&position);
            for s in Symmetry::ALL {
                let moved = image(&position, s);
                let (moved_key, moved_to_canonical) = canonical(&moved);
                assert_eq!(moved_key, key);
                // Both roads lead to the same stones (a symmetric position may take either).
                let there = image(&moved, moved_to_canonical);
                assert_eq!(there.stones(Color::Black), image(&position, to_canonical).stones(Color::Black));
            }
        }
        let after = |moves: &[&str]| Position::from_moves(moves.iter().map(|m| m.parse().unwrap())).unwrap();
        assert_eq!(canonical(&after(&["A1"])).0, canonical(&after(&["J9"])).0);
        assert_ne!(canonical(&after(&["A1"])).0, canonical(&after(&["B1"])).0);
    }
}
