//! A GTP engine as a player: one process per game, told the board size and every move with
//! `play`, asked with `genmove`. Only `genmove` is timed; the setup and `play` commands get a
//! generous limit of their own.

use super::player::{Answer, Fault, FaultKind, Player, Turn};
use super::process::{describe_exit, BotProcess, ReadResult};
use crate::rules::{Color, Point, Position};
use crate::search::engine::Proof;
use std::time::{Duration, Instant};

/// Limit for commands other than `genmove` (engine start included).
const SETUP_LIMIT: Duration = Duration::from_secs(10);

/// A GTP engine for one game.
pub struct GtpPlayer {
    command: String,
    /// The per-turn limit, told to the engine.
    turn_limit: Duration,
    process: Option<BotProcess>,
    /// Moves of the game the engine already knows.
    known: usize,
}

impl GtpPlayer {
    /// The engine `command` (started on its first turn), told `turn_limit` for each move.
    pub fn new(command: &str, turn_limit: Duration) -> GtpPlayer {
        GtpPlayer { command: command.to_string(), turn_limit, process: None, known: 0 }
    }

    /// Starts the engine and sets up an empty 9x9 board, on the first turn.
    fn start(&mut self) -> Result<(), Fault> {
        if self.process.is_some() {
            return Ok(());
        }
        let process = BotProcess::spawn(&self.command)
            .map_err(|e| Fault::new(FaultKind::Crash, format!("could not start '{}': {e}", self.command)))?;
        let process = self.process.insert(process);
        command(process, "boardsize 9", SETUP_LIMIT)?;
        command(process, "clear_board", SETUP_LIMIT)?;
        // Engines that know it keep to the judge's limit (byo-yomi of one move). GTP counts
        // whole seconds: a shorter limit must be set on the engine's own command line.
        let seconds = self.turn_limit.as_secs();
        if seconds >= 1 {
            let _ = command(process, &format!("time_settings 0 {seconds} 1"), SETUP_LIMIT);
        }
        Ok(())
    }

    fn try_turn(
        &mut self,
        position: &Position,
        moves: &[Point],
        limit: Duration,
        start: &mut Instant,
    ) -> Result<Answer, Fault> {
        self.start()?;
        let process = self.process.as_mut().expect("started");
        for (i, p) in moves.iter().enumerate().skip(self.known) {
            // Arena games start from the empty board: black plays the even moves.
            let colour = if i % 2 == 0 { Color::Black } else { Color::White };
            command(process, &format!("play {} {p}", gtp_colour(colour)), SETUP_LIMIT)?;
        }
        self.known = moves.len();
        let colour = position.to_move();
        *start = Instant::now();
        let reply = command(process, &format!("genmove {}", gtp_colour(colour)), limit)?;
        self.known += 1;
        parse_vertex(&reply)
    }
}

impl Player for GtpPlayer {
    fn turn(&mut self, position: &Position, moves: &[Point], limit: Duration) -> Turn {
        let mut start = Instant::now();
        let outcome = self.try_turn(position, moves, limit, &mut start);
        // GTP has no standard way to state a proven result.
        Turn { outcome, elapsed: start.elapsed(), proof: Proof::Unknown }
    }
}

impl Drop for GtpPlayer {
    fn drop(&mut self) {
        if let Some(process) = &mut self.process {
            let _ = process.write("quit\n");
        }
    }
}

fn gtp_colour(colour: Color) -> &'static str {
    match colour {
        Color::Black => "b",
        Color::White => "w",
    }
}

/// Sends one command and returns the text of its successful response.
fn command(process: &mut BotProcess, command: &str, limit: Duration) -> Result<String, Fault> {
    let deadline = Instant::now() + limit;
    let _ = process.write(&format!("{command}\n"));
    let mut response: Vec<String> = Vec::new();
    loop {
        match process.read_line(deadline) {
            // A response ends with an empty line; empty lines before it are ignored.
            ReadResult::Line(line) if line.trim().is_empty() => {
                if !response.is_empty() {
                    break;
                }
            }
            ReadResult::Line(line) => response.push(line),
            ReadResult::Closed => {
                let status = process.exit_status(Duration::from_millis(200));
                let mut detail = format!("{} after '{command}'", describe_exit(status));
                if let Some(line) = process.last_stderr_line() {
                    detail.push_str(&format!(" (stderr: {line})"));
                }
                return Err(Fault::new(FaultKind::Crash, detail));
            }
            ReadResult::TimedOut => {
                return Err(Fault::new(FaultKind::Timeout, format!("no response to '{command}' in time")));
            }
        }
    }
    let text = response.join("\n");
    match parse_response(&text) {
        Some((true, body)) => Ok(body),
        Some((false, error)) => Err(Fault::new(FaultKind::Malformed, format!("'{command}' failed: {error}"))),
        None => Err(Fault::new(FaultKind::Malformed, format!("not a GTP response to '{command}': {text}"))),
    }
}

/// Splits `=id text` or `?id text` into success and text.
fn parse_response(text: &str) -> Option<(bool, String)> {
    let success = match text.chars().next()? {
        '=' => true,
        '?' => false,
        _ => return None,
    };
    let body = text[1..].trim_start_matches(|c: char| c.is_ascii_digit()).trim();
    Some((success, body.to_string()))
}

/// The answer to `genmove`: a vertex; `pass` and `resign` are off-board answers.
fn parse_vertex(reply: &str) -> Result<Answer, Fault> {
    match reply.to_ascii_lowercase().as_str() {
        "pass" | "resign" => Ok(Answer { x: -1, y: -1 }),
        _ => reply
            .parse::<Point>()
            .map(Answer::from)
            .map_err(|e| Fault::new(FaultKind::Malformed, format!("genmove answered {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_with_and_without_ids() {
        assert_eq!(parse_response("= E5"), Some((true, "E5".into())));
        assert_eq!(parse_response("=12 J1"), Some((true, "J1".into())));
        assert_eq!(parse_response("? unknown command"), Some((false, "unknown command".into())));
        assert_eq!(parse_response("E5"), None);
    }

    #[test]
    fn vertices_become_botzone_coordinates() {
        assert_eq!(parse_vertex("A9"), Ok(Answer { x: 0, y: 0 }));
        assert_eq!(parse_vertex("e5"), Ok(Answer { x: 4, y: 4 }));
        assert_eq!(parse_vertex("PASS"), Ok(Answer { x: -1, y: -1 }));
        assert_eq!(parse_vertex("Z99").unwrap_err().kind, FaultKind::Malformed);
    }
}
