//! Points of the 9x9 board, colours, and the coordinate systems users write them in:
//! Botzone's `(x, y)` (column, row, 0-based from the top-left) and GTP's `E5`
//! (columns A-J without I, rows 1-9 counted from the bottom).

use std::fmt;
use std::str::FromStr;

/// Side length of the board.
pub const SIZE: usize = 9;
/// Bits per row in the bitboard layout: 9 columns and one always-empty guard.
pub const STRIDE: usize = SIZE + 1;
/// Number of indices a point may take (the highest point is 8 * 10 + 8 = 88).
pub const INDEX_COUNT: usize = SIZE * STRIDE;
/// Most moves a game can have: stones never leave the board, so one per point.
pub const MAX_MOVES: usize = SIZE * SIZE;
/// Most positions a line of play passes through: the first and one after each move. Bounds
/// every search path.
pub const MAX_POSITIONS: usize = MAX_MOVES + 1;

/// A point on the board. Always on the board once constructed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

/// GTP's column letters: no `I`.
const GTP_COLUMNS: &[u8; SIZE] = b"ABCDEFGHJ";

impl Point {
    /// The point in column `x`, row `y` (Botzone coordinates), if on the board.
    #[inline]
    pub const fn from_xy(x: u8, y: u8) -> Option<Point> {
        if (x as usize) < SIZE && (y as usize) < SIZE {
            Some(Point(y * STRIDE as u8 + x))
        } else {
            None
        }
    }

    /// The point for Botzone coordinates given as any integers; `None` when off the board
    /// (Botzone's `-1 -1` included).
    pub fn from_botzone(x: i64, y: i64) -> Option<Point> {
        match (u8::try_from(x), u8::try_from(y)) {
            (Ok(x), Ok(y)) => Point::from_xy(x, y),
            _ => None,
        }
    }

    /// The point with bitboard index `index`, if that index is on the board.
    pub const fn from_index(index: u8) -> Option<Point> {
        Point::from_xy(index % STRIDE as u8, index / STRIDE as u8)
    }

    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Point {
        Point(index)
    }

    /// The bitboard index, `row * 10 + column`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The point's number in row-major order, `y * 9 + x`, 0 to 80: self-play records and
    /// the policy network's planes number points so.
    #[inline]
    pub const fn cell(self) -> usize {
        self.y() as usize * SIZE + self.x() as usize
    }

    /// The point numbered `cell` in row-major order ([`Point::cell`]), if it is below 81.
    pub fn from_cell(cell: usize) -> Option<Point> {
        let cell = u8::try_from(cell).ok()?;
        Point::from_xy(cell % SIZE as u8, cell / SIZE as u8)
    }

    /// Column, 0-based from the left (Botzone's `x`).
    #[inline]
    pub const fn x(self) -> u8 {
        self.0 % STRIDE as u8
    }

    /// Row, 0-based from the top (Botzone's `y`).
    #[inline]
    pub const fn y(self) -> u8 {
        self.0 / STRIDE as u8
    }

    /// The on-board points adjacent to this one (2 to 4 of them).
    pub fn neighbors(self) -> impl Iterator<Item = Point> {
        let (x, y) = (self.x() as i16, self.y() as i16);
        [(x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1)]
            .into_iter()
            .filter_map(|(x, y)| Point::from_botzone(x.into(), y.into()))
    }
}

impl fmt::Display for Point {
    /// GTP vertex, e.g. `A9` for the top-left corner.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let column = GTP_COLUMNS[self.x() as usize] as char;
        write!(f, "{}{}", column, SIZE as u8 - self.y())
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}({},{})", self, self.x(), self.y())
    }
}

/// A coordinate that names no point of the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoordError(pub String);

impl fmt::Display for CoordError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "'{}' is not a point of the 9x9 board", self.0)
    }
}

impl std::error::Error for CoordError {}

impl FromStr for Point {
    type Err = CoordError;
    /// Parses a GTP vertex (`e5`, `J1`; case-insensitive, no `I` column).
    fn from_str(s: &str) -> Result<Point, CoordError> {
        let err = || CoordError(s.to_string());
        let mut chars = s.trim().chars();
        let letter = chars.next().ok_or_else(err)?.to_ascii_uppercase();
        let x = GTP_COLUMNS.iter().position(|&c| c as char == letter).ok_or_else(err)?;
        let row: usize = chars.as_str().parse().map_err(|_| err())?;
        if !(1..=SIZE).contains(&row) {
            return Err(err());
        }
        Point::from_xy(x as u8, (SIZE - row) as u8).ok_or_else(err)
    }
}

/// A player's colour. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Moves first; index 0.
    Black = 0,
    /// Moves second; index 1.
    White = 1,
}

impl Color {
    /// The other colour.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: an index into per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Parses a GTP colour (`b`, `black`, `w`, `white`; case-insensitive).
    pub fn from_gtp(s: &str) -> Option<Color> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.opponent()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn botzone_round_trip_for_every_point() {
        for y in 0..9u8 {
            for x in 0..9u8 {
                let p = Point::from_xy(x, y).unwrap();
                assert_eq!((p.x(), p.y()), (x, y));
                assert_eq!(Point::from_botzone(x.into(), y.into()), Some(p));
                assert_eq!(Point::from_index(p.index() as u8), Some(p));
            }
        }
    }

    #[test]
    fn gtp_round_trip_for_every_point() {
        for y in 0..9u8 {
            for x in 0..9u8 {
                let p = Point::from_xy(x, y).unwrap();
                assert_eq!(p.to_string().parse::<Point>(), Ok(p));
                assert_eq!(p.to_string().to_lowercase().parse::<Point>(), Ok(p));
            }
        }
    }

    #[test]
    fn gtp_corners_and_letters() {
        assert_eq!(Point::from_xy(0, 0).unwrap().to_string(), "A9");
        assert_eq!(Point::from_xy(0, 8).unwrap().to_string(), "A1");
        assert_eq!(Point::from_xy(8, 8).unwrap().to_string(), "J1");
        assert_eq!(Point::from_xy(7, 0).unwrap().to_string(), "H9");
        assert_eq!("E5".parse::<Point>(), Ok(Point::from_xy(4, 4).unwrap()));
        for bad in ["I5", "K1", "A0", "A10", "", "5E", "pass", "A-1"] {
            assert!(bad.parse::<Point>().is_err(), "{bad}");
        }
    }

    #[test]
    fn off_board_coordinates_are_rejected() {
        for (x, y) in [(-1, -1), (9, 0), (0, 9), (-1, 3), (i64::MAX, 0), (300, 300)] {
            assert_eq!(Point::from_botzone(x, y), None);
        }
        assert_eq!(Point::from_index(9), None, "guard column");
        assert_eq!(Point::from_index(90), None);
    }

    #[test]
    fn neighbours_of_corner_edge_and_centre() {
        let count = |x, y| Point::from_xy(x, y).unwrap().neighbors().count();
        assert_eq!(count(0, 0), 2);
        assert_eq!(count(8, 8), 2);
        assert_eq!(count(4, 0), 3);
        assert_eq!(count(0, 4), 3);
        assert_eq!(count(4, 4), 4);
    }
}
