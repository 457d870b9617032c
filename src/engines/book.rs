//! The opening book: for the positions the bot reaches in its first moves, the move a long
//! search chose (`nogo book` builds it), looked up under the board's eight symmetries. The
//! book is embedded in the binary; [`Booked`] answers from it before searching.

use crate::rules::symmetry::{canonical, Key};
use crate::rules::{Point, Position};
use crate::search::engine::{Budget, BusyNode, Engine, Report};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The book built for the default engine (`nogo book`).
const EMBEDDED: &str = include_str!("book.txt");

/// A book move and what its search found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// The move.
    pub best: Point,
    /// The simulations of the search that chose it.
    pub simulations: u64,
    /// Its win estimate for the side to move.
    pub win: f64,
}

/// Book moves by position, each kept for the position's canonical image.
#[derive(Debug, Default)]
pub struct Book {
    entries: HashMap<Key, Entry>,
}

impl Entry {
    /// The report of playing this move after `searched`: the book's move and estimate, the
    /// search's effort, its line where it chose the same move.
    pub fn report(&self, searched: Report) -> Report {
        let pv = if searched.best == self.best { searched.pv } else { vec![self.best] };
        Report { best: self.best, win_rate: self.win, pv, ..searched }
    }
}

impl Book {
    /// Reads a book: a position a line, the moves that reach it from the empty board (GTP
    /// points, `-` for none), `:`, then the move, its simulations and its win estimate; `#`
    /// starts a comment. Every move is checked.
    pub fn parse(text: &str) -> Result<Book, String> {
        let mut book = Book::default();
        for (number, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = |what: String| format!("book line {}: {what}", number + 1);
            let (path, answer) = line.split_once(':').ok_or_else(|| at("no ':'".into()))?;
            let moves = path
                .split_whitespace()
                .filter(|&m| m != "-")
                .map(|m| m.parse::<Point>().map_err(|e| at(e.to_string())))
                .collect::<Result<Vec<_>, _>>()?;
            let position = Position::from_moves(moves).map_err(|e| at(e.to_string()))?;
            let fields: Vec<&str> = answer.split_whitespace().collect();
            let [best, simulations, win] = fields[..] else {
                return Err(at(format!("'{answer}' is not a move, simulations and a win estimate")));
            };
            let best: Point = best.parse().map_err(|e: crate::rules::CoordError| at(e.to_string()))?;
            position.check(best).map_err(|e| at(format!("{best}: {e}")))?;
            let simulations =
                simulations.parse().map_err(|_| at(format!("'{simulations}' is not a count")))?;
            let win = win
                .parse()
                .ok()
                .filter(|w| (0.0..=1.0).contains(w))
                .ok_or_else(|| at(format!("'{win}' is not from 0 to 1")))?;
            let (key, symmetry) = canonical(&position);
            book.entries.insert(key, Entry { best: symmetry.point(best), simulations, win });
        }
        Ok(book)
    }

    /// The embedded book (checked by the tests; an unreadable one would be reported once and
    /// left empty).
    pub fn embedded() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        BOOK.get_or_init(|| {
            Book::parse(EMBEDDED).unwrap_or_else(|e| {
                eprintln!("nogo: the opening book is unreadable, playing without it: {e}");
                Book::default()
            })
        })
    }

    /// The book's move for `position`, if it has one.
    pub fn lookup(&self, position: &Position) -> Option<Entry> {
        let (key, symmetry) = canonical(position);
        let entry = self.entries.get(&key)?;
        let best = symmetry.inverse().point(entry.best);
        // The key is the position up to symmetry, so the move is legal; checked all the same.
        position.check(best).is_ok().then_some(Entry { best, ..*entry })
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// An engine that plays the book's move where it has one, and searches elsewhere.
pub struct Booked {
    engine: Box<dyn Engine>,
    book: &'static Book,
}

impl Booked {
    /// `engine`, answering from `book` first.
    pub fn new(engine: Box<dyn Engine>, book: &'static Book) -> Booked {
        Booked { engine, book }
    }
}

impl Engine for Booked {
    fn name(&self) -> &'static str {
        self.engine.name()
    }

    /// A book move is played after the search all the same, so the tree the next turns reuse
    /// is grown as it would be without the book.
    fn think(&mut self, position: &Position, budget: &Budget) -> Report {
        let searched = self.engine.think(position, budget);
        match self.book.lookup(position) {
            Some(entry) => entry.report(searched),
            None => searched,
        }
    }

    fn new_game(&mut self) {
        self.engine.new_game();
    }

    fn root_children(&self, position: &Position) -> Vec<(Point, u32, f32)> {
        self.engine.root_children(position)
    }

    fn busy_nodes(&self, position: &Position, min_visits: u32) -> Vec<BusyNode> {
        self.engine.busy_nodes(position, min_visits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::symmetry::Symmetry;
    use crate::rules::Color;

    fn after(moves: &[&str]) -> Position {
        Position::from_moves(moves.iter().map(|m| m.parse().unwrap())).unwrap()
    }

    #[test]
    fn the_embedded_book_reads_and_answers_each_of_its_positions_legally() {
        let book = Book::parse(EMBEDDED).unwrap();
        assert!(!book.is_empty());
        for line in EMBEDDED.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let path = line.split(':').next().unwrap();
            let moves: Vec<&str> = path.split_whitespace().filter(|&m| m != "-").collect();
            let position = after(&moves);
            let entry = book.lookup(&position).unwrap_or_else(|| panic!("no answer for {line}"));
            assert!(position.legal_moves().has(entry.best), "{line}");
        }
    }

    #[test]
    fn a_position_is_found_in_every_orientation_with_the_move_turned_alike() {
        // No symmetry but the identity maps black A1 and white C1 to themselves, so each
        // image has one right answer.
        let book = Book::parse("A1 C1 : D2 100 0.4\n").unwrap();
        let original = after(&["A1", "C1"]);
        for s in Symmetry::ALL {
            let [black, white] = [Color::Black, Color::White].map(|c| s.set(original.stones(c)));
            let position = Position::from_stones(black, white, Color::Black).unwrap();
            let entry = book.lookup(&position).expect("found");
            assert_eq!(
                (entry.best, entry.simulations, entry.win),
                (s.point("D2".parse().unwrap()), 100, 0.4)
            );
        }
        assert_eq!(book.lookup(&after(&["A1", "D1"])), None);
        assert_eq!(book.lookup(&Position::new()), None);
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        for (text, error) in [
            ("- E5 10 0.5", "book line 1: no ':'"),
            ("# fine\nE5 E5 : D4 1 0.5", "book line 2: move 1 is illegal"),
            ("- : Z9 1 0.5", "'Z9' is not a point"),
            ("E5 : E5 1 0.5", "E5: the point is occupied"),
            ("- : E5 many 0.5", "'many' is not a count"),
            ("- : E5 1 1.5", "'1.5' is not from 0 to 1"),
            ("- : E5 1", "is not a move, simulations and a win estimate"),
        ] {
            let message = Book::parse(text).unwrap_err();
            assert!(message.contains(error), "{text}: {message}");
        }
    }

    #[test]
    fn a_booked_engine_searches_and_plays_the_books_move_where_it_has_one() {
        let book: &'static Book = Box::leak(Box::new(Book::parse("- : J1 1000 0.52").unwrap()));
        let mut engine = Booked::new(crate::engines::create(crate::engines::EngineKind::Rave, 1), book);
        // The book's move, after a search all the same.
        let report = engine.think(&Position::new(), &Budget::nodes(500));
        assert_eq!((report.best, report.iterations), ("J1".parse().unwrap(), 500));
        assert!(!engine.root_children(&Position::new()).is_empty());
        let elsewhere = after(&["J1"]);
        let report = engine.think(&elsewhere, &Budget::nodes(500));
        assert_eq!(report.iterations, 500);
        assert!(!engine.root_children(&elsewhere).is_empty());
    }
}
