//! Botzone's simplified text interaction: line 1 the turn number `n`, then `2n - 1` lines
//! `x y` alternating request, response, ..., request; `data` and `globaldata` lines may follow
//! and are ignored. The answer is `x y` and a debug line.

use super::history::{excerpt, Entry, History};
use super::{read_line, Request};
use crate::rules::point::Point;
use std::io::BufRead;

/// Parses the full input whose first line (the turn number) is `first`, reading the move
/// lines from `input`.
pub fn read_full(first: &[u8], input: &mut impl BufRead) -> Result<Request, String> {
    let turn = std::str::from_utf8(first).ok().and_then(|s| s.trim().parse::<u64>().ok()).filter(|&n| n > 0);
    let Some(turn) = turn else {
        return Err(format!(
            "line 1 must be the turn number (a positive integer), found \"{}\"",
            excerpt(&lossy_start(first), 40)
        ));
    };
    let mut history = History::default();
    let mut line = Vec::new();
    let expected = turn.saturating_mul(2) - 1;
    for i in 0..expected {
        match read_line(input, &mut line) {
            Ok(true) => {}
            Ok(false) => {
                history
                    .faults
                    .push(format!("the input ends after {i} of the {expected} move lines turn {turn} needs"));
                break;
            }
            Err(e) => return Err(format!("cannot read the input: {e}")),
        }
        let list = if i % 2 == 0 { &mut history.requests } else { &mut history.responses };
        list.push(entry(&line));
    }
    Ok(Request::Full { history, time_limit: None })
}

/// Parses one keep-running line: `x y`, or a turn number that starts a new full input.
pub fn parse_line(line: &[u8], input: &mut impl BufRead) -> Result<Request, String> {
    if std::str::from_utf8(line).is_ok_and(|text| text.split_whitespace().count() == 1) {
        read_full(line, input)
    } else {
        Ok(Request::Move(entry(line)))
    }
}

/// A move line `x y`.
fn entry(line: &[u8]) -> Entry {
    let text = std::str::from_utf8(line).unwrap_or("");
    let numbers: Vec<Option<i64>> = text.split_whitespace().map(|t| t.parse().ok()).collect();
    match numbers[..] {
        [Some(x), Some(y)] => Ok((x, y)),
        _ => Err(format!("is not two integers \"x y\": \"{}\"", excerpt(&lossy_start(line), 40))),
    }
}

/// The start of a line as text, for quoting.
fn lossy_start(line: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(&line[..line.len().min(4 * 40)])
}

/// The answer: the move line and the debug line.
pub fn answer(best: Point, debug: &str) -> String {
    format!("{} {}\n{}", best.x(), best.y(), debug.replace('\n', " "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Request, String> {
        let mut input = text.as_bytes();
        let mut first = Vec::new();
        read_line(&mut input, &mut first).unwrap();
        read_full(&first, &mut input)
    }

    #[test]
    fn reads_the_turn_and_move_lines_and_ignores_data() {
        let Ok(Request::Full { history, .. }) = parse("2\n-1 -1\n3 1\n4 6\ndata line\nglobal\n") else {
            panic!("a full input")
        };
        assert_eq!(history.requests, vec![Ok((-1, -1)), Ok((4, 6))]);
        assert_eq!(history.responses, vec![Ok((3, 1))]);
    }

    #[test]
    fn bad_lines_are_localised_and_a_short_input_is_kept() {
        let Ok(Request::Full { history, .. }) = parse("2\r\n-1 -1\r\n3.5 1\r\n") else {
            panic!("a full input")
        };
        assert_eq!(history.requests, vec![Ok((-1, -1))]);
        assert!(history.responses[0].as_ref().unwrap_err().contains("3.5 1"));
        assert_eq!(history.faults, vec!["the input ends after 2 of the 3 move lines turn 2 needs"]);
        assert!(parse("0\n").is_err());
        assert!(parse("x\n").is_err());
    }

    #[test]
    fn keep_running_lines_are_moves_or_full_inputs() {
        assert!(matches!(parse_line(b"3 4", &mut &b""[..]), Ok(Request::Move(Ok((3, 4))))));
        assert!(matches!(parse_line(b"3 4 5", &mut &b""[..]), Ok(Request::Move(Err(_)))));
        let mut rest = &b"-1 -1\n"[..];
        assert!(matches!(parse_line(b"1", &mut rest), Ok(Request::Full { .. })));
    }
}
