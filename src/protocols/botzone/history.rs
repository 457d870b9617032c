//! A match history as Botzone sends it (our opponent's moves and our own), replayed through
//! [`Position`] into the position we must answer, with a sound recovery from broken histories.
//!
//! Recovery, when the history is not a legal game:
//! - `requests` must hold one entry more than `responses`. Otherwise only the first
//!   `k + 1` requests and `k` responses are used, `k = min(responses, requests - 1)`: that is
//!   the longest stretch in which both lists agree on whose turn it is.
//! - The moves are replayed in game order up to the first entry that is not a move (wrong
//!   shape, non-integer or off-board coordinates) or not a legal one (occupied, capture,
//!   suicide). If that prefix ends with the opponent to move, its last move is dropped too.
//! - The answer is then a legal move in a position that occurred in the game the history
//!   describes. Botzone's real position may differ, but a move that may be legal beats a
//!   certain forfeit. Without such a position (our colour unknown, nothing left, or the game
//!   over) there is no answer.

use crate::rules::point::{Color, Point};
use crate::rules::position::Position;

/// One move as the input wrote it: Botzone coordinates, or why the entry is not a move.
pub type Entry = Result<(i64, i64), String>;

/// The requests (opponent's moves) and responses (ours) of the match so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct History {
    /// The opponent's moves, one a turn; the first is `(-1, -1)` when we play black.
    pub requests: Vec<Entry>,
    /// Our own moves, one a turn already answered.
    pub responses: Vec<Entry>,
    /// Faults the parser found outside the entries (a short input, for instance).
    pub faults: Vec<String>,
}

/// The position to answer, our colour, and what was wrong with the history.
#[derive(Clone, Debug)]
pub struct Replayed {
    /// The position we must answer.
    pub position: Position,
    /// Our colour, the one to move in `position`.
    pub colour: Color,
    /// One phrase per fault found; empty for a legal game.
    pub faults: Vec<String>,
}

impl History {
    /// Replays the history into the position we must answer; `Err` names why none can be
    /// built (after any faults met on the way).
    pub fn replay(&self) -> Result<Replayed, String> {
        let first = self.requests.first().ok_or("requests is empty: no turn to answer")?;
        let colour = match first {
            Ok((-1, -1)) => Color::Black,
            Ok(_) => Color::White,
            Err(fault) => return Err(format!("request 0: {fault}; cannot tell our colour")),
        };
        let mut faults = self.faults.clone();
        let (requests, responses) = (self.requests.len(), self.responses.len());
        let used = responses.min(requests - 1);
        if responses != requests - 1 {
            faults.push(format!(
                "inconsistent lengths: {requests} requests and {responses} responses, expected one \
                 request more than responses; using the first {} requests and {used} responses",
                used + 1
            ));
        }

        let mut moves = Vec::new();
        let mut position = Position::new();
        'replay: for i in 0..=used {
            let request = (i > 0 || colour == Color::White).then(|| ("request", &self.requests[i]));
            let response = (i < used).then(|| ("response", &self.responses[i]));
            for (list, entry) in request.into_iter().chain(response) {
                match play_entry(&mut position, entry) {
                    Ok(p) => moves.push(p),
                    Err(fault) => {
                        faults.push(format!("{list} {i} {fault}"));
                        break 'replay;
                    }
                }
            }
        }

        if position.to_move() != colour {
            let Some(_) = moves.pop() else {
                return Err(join(faults, "no position with us to move remains"));
            };
            position =
                Position::from_moves(moves.iter().copied()).expect("a prefix of a legal game is legal");
        }
        if position.is_terminal() {
            return Err(join(faults, &format!("the game is over: {colour} has no legal move")));
        }
        if !faults.is_empty() {
            faults.push(format!(
                "answering after the first {} moves of the game ({colour} to move)",
                moves.len()
            ));
        }
        Ok(Replayed { position, colour, faults })
    }
}

/// The faults and the final reason as one phrase.
fn join(mut faults: Vec<String>, last: &str) -> String {
    faults.push(last.to_string());
    faults.join("; ")
}

/// Plays one more move given as an entry (a keep-running request) on `position`.
pub fn play_entry(position: &mut Position, entry: &Entry) -> Result<Point, String> {
    let &(x, y) = entry.as_ref().map_err(Clone::clone)?;
    let p = Point::from_botzone(x, y).ok_or_else(|| format!("({x}, {y}): the point is off the board"))?;
    position.play(p).map(|()| p).map_err(|e| format!("({x}, {y}): {e}"))
}

/// At most `max` characters of untrusted input, for quoting it in a one-line message.
pub fn excerpt(input: &str, max: usize) -> String {
    let mut out: String = input
        .chars()
        .take(max)
        .map(|c| match c {
            c if c.is_control() => ' ',
            char::REPLACEMENT_CHARACTER => '?',
            c => c,
        })
        .collect();
    if input.chars().nth(max).is_some() {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn history(requests: &[(i64, i64)], responses: &[(i64, i64)]) -> History {
        History {
            requests: requests.iter().map(|&m| Ok(m)).collect(),
            responses: responses.iter().map(|&m| Ok(m)).collect(),
            faults: Vec::new(),
        }
    }

    fn position(moves: &[(u8, u8)]) -> Position {
        Position::from_moves(moves.iter().map(|&(x, y)| Point::from_xy(x, y).unwrap())).unwrap()
    }

    #[test]
    fn black_and_white_histories_replay_in_game_order() {
        let black = history(&[(-1, -1), (2, 3)], &[(4, 4)]).replay().unwrap();
        assert_eq!(black.colour, Color::Black);
        assert_eq!(black.position, position(&[(4, 4), (2, 3)]));
        assert!(black.faults.is_empty());

        let white = history(&[(4, 4), (2, 3)], &[(5, 5)]).replay().unwrap();
        assert_eq!(white.colour, Color::White);
        assert_eq!(white.position, position(&[(4, 4), (5, 5), (2, 3)]));
        assert!(white.faults.is_empty());
    }

    #[test]
    fn an_illegal_move_keeps_the_prefix_ending_with_us_to_move() {
        // White's request 1 repeats black's (4, 4): keep black's first move, drop to before it.
        let replayed = history(&[(-1, -1), (4, 4)], &[(4, 4)]).replay().unwrap();
        assert_eq!(replayed.position, Position::new());
        assert_eq!(replayed.faults.len(), 2, "{:?}", replayed.faults);
        assert_eq!(replayed.faults[0], "request 1 (4, 4): the point is occupied");
        assert_eq!(replayed.faults[1], "answering after the first 0 moves of the game (black to move)");

        // Our own response 1 is off the board: the position after request 1 is ours to answer.
        let replayed = history(&[(-1, -1), (2, 3), (6, 6)], &[(4, 4), (9, 0)]).replay().unwrap();
        assert_eq!(replayed.position, position(&[(4, 4), (2, 3)]));
        assert_eq!(replayed.faults[0], "response 1 (9, 0): the point is off the board");
    }

    #[test]
    fn inconsistent_lengths_use_the_stretch_both_lists_cover() {
        let replayed = history(&[(-1, -1), (2, 3)], &[(4, 4), (5, 5), (6, 6)]).replay().unwrap();
        assert_eq!(replayed.position, position(&[(4, 4), (2, 3)]));
        assert!(replayed.faults[0].starts_with("inconsistent lengths: 2 requests and 3 responses"));

        let replayed = history(&[(-1, -1), (2, 3), (6, 6)], &[(4, 4)]).replay().unwrap();
        assert_eq!(replayed.position, position(&[(4, 4), (2, 3)]));
    }

    #[test]
    fn unanswerable_histories_say_why() {
        assert!(History::default().replay().unwrap_err().contains("requests is empty"));
        let bad_first = History { requests: vec![Err("x is not an integer".into())], ..History::default() };
        assert!(bad_first.replay().unwrap_err().contains("cannot tell our colour"));
        // White whose first request (black's move) is off the board: nothing with white to move.
        let err = history(&[(9, 9)], &[]).replay().unwrap_err();
        assert!(err.contains("request 0 (9, 9): the point is off the board"), "{err}");
        assert!(err.ends_with("no position with us to move remains"), "{err}");
    }

    #[test]
    fn excerpt_bounds_and_flattens_quoted_input() {
        assert_eq!(excerpt("ab\ncd", 10), "ab cd");
        assert_eq!(excerpt(&String::from_utf8_lossy(b"a\xFFb"), 10), "a?b");
        assert_eq!(excerpt("abcdef", 3), "abc...");
    }
}
