//! Opening positions for matches.
//!
//! File format: one opening per line, its moves from the empty board as GTP points separated
//! by spaces (`E5 C3 G7`), Black first. `#` starts a comment; blank lines are skipped. Each
//! opening must be legal and leave the side to move a legal move. An empty line of moves is
//! not an opening: use `--openings none` to start every game from the empty board.

use crate::rules::point::Point;
use crate::rules::position::Position;

/// The openings the arena uses unless told otherwise (`fixtures/openings/standard.txt`).
pub const STANDARD: &str = include_str!("../../../fixtures/openings/standard.txt");

/// One move for each side (`fixtures/openings/two-move.txt`), made like the standard set.
pub const TWO_MOVE: &str = include_str!("../../../fixtures/openings/two-move.txt");

/// One opening: where it came from, and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// `file:line`, or `empty board`.
    pub source: String,
    /// The moves from the empty board, in order.
    pub moves: Vec<Point>,
}

/// Parses an openings file; `name` labels errors and sources.
pub fn parse(name: &str, text: &str) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let content = line.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let moves = content
            .split_whitespace()
            .map(|word| word.parse::<Point>().map_err(|e| format!("{name}:{line_no}: {e}")))
            .collect::<Result<Vec<Point>, String>>()?;
        let position =
            Position::from_moves(moves.iter().copied()).map_err(|e| format!("{name}:{line_no}: {e}"))?;
        if position.is_terminal() {
            return Err(format!("{name}:{line_no}: the game is already over"));
        }
        openings.push(Opening { source: format!("{name}:{line_no}"), moves });
    }
    if openings.is_empty() {
        return Err(format!("{name}: no openings"));
    }
    Ok(openings)
}

/// The openings `--openings` names: a file, `standard` or `two-move` (built in), or `none`.
pub fn load(choice: &str) -> Result<Vec<Opening>, String> {
    match choice {
        "none" => Ok(vec![Opening { source: "empty board".into(), moves: Vec::new() }]),
        "standard" => parse("standard", STANDARD),
        "two-move" => parse("two-move", TWO_MOVE),
        path => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("cannot read openings '{path}': {e}"))?;
            parse(path, &text)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_moves_comments_and_blank_lines() {
        let openings = parse("t", "# header\n\nE5 C3  # centre\nA9 J1 B2 H8\n").unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].source, "t:3");
        assert_eq!(openings[0].moves, [Point::from_xy(4, 4).unwrap(), Point::from_xy(2, 6).unwrap()]);
        assert_eq!(openings[1].moves.len(), 4);
    }

    #[test]
    fn rejects_bad_points_illegal_moves_and_empty_files() {
        assert!(parse("t", "E5 Z9").unwrap_err().starts_with("t:1: 'Z9'"));
        assert!(parse("t", "\nE5 E5").unwrap_err().contains("t:2: move 1 is illegal"));
        assert!(parse("t", "# nothing\n").unwrap_err().contains("no openings"));
        assert!(load("/nonexistent/openings.txt").unwrap_err().contains("cannot read"));
    }

    #[test]
    fn the_built_in_openings_are_legal_and_distinct() {
        for (name, moves) in [("standard", 4), ("two-move", 2)] {
            let openings = load(name).unwrap();
            assert_eq!(openings.len(), 100, "{name}");
            assert!(openings.iter().all(|o| o.moves.len() == moves), "{name}: {moves} moves each");
            let mut positions: Vec<u64> = openings
                .iter()
                .map(|o| Position::from_moves(o.moves.iter().copied()).unwrap().hash())
                .collect();
            positions.sort_unstable();
            positions.dedup();
            assert_eq!(positions.len(), openings.len(), "{name}: no opening repeats another");
        }
        assert_eq!(load("none").unwrap()[0].moves, []);
    }
}
