//! A GTP engine as a player: one process per game, told the board size and every move with
//! `play`, asked with `genmove`. Only `genmove` is timed; the setup and `play` commands get a
//! generous limit of their own. `genmove` answering `resign` is a resignation; `pass` is an
//! illegal off-board move. `time_settings` goes only to engines that list it in their answer
//! to `list_commands` (asked once, at the start): engines with a loose GTP reader take each
//! argument of a command they don't know for a command of its own, and fall out of step.

use super::player::{Answer, Fault, FaultKind, Player, Turn};
use super::process::{BotProcess, ReadResult};
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
        // A command without arguments: engines that don't know it stay in step. An error
        // answer lists nothing.
        let commands = match command(process, "list_commands", SETUP_LIMIT) {
            Ok(list) => list,
            Err(fault) if fault.kind == FaultKind::Malformed => String::new(),
            Err(fault) => return Err(fault),
        };
        command(process, "boardsize 9", SETUP_LIMIT)?;
        command(process, "clear_board", SETUP_LIMIT)?;
        // Engines that know it keep to the judge's limit (byo-yomi of one move). GTP counts
        // whole seconds: a shorter limit must be set on the engine's own command line.
        let seconds = self.turn_limit.as_secs();
        if seconds >= 1 && lists(&commands, "time_settings") {
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
                return Err(Fault::new(
                    FaultKind::Crash,
                    process.crash_detail(&format!("after '{command}'")),
                ));
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

/// Whether the answer to `list_commands` (one command a line) names `name`.
fn lists(commands: &str, name: &str) -> bool {
    commands.lines().any(|line| line.trim() == name)
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

/// The answer to `genmove`: a vertex; `pass` is an off-board answer (illegal in NoGo), `resign`
/// a resignation.
fn parse_vertex(reply: &str) -> Result<Answer, Fault> {
    match reply.to_ascii_lowercase().as_str() {
        "pass" => Ok(Answer { x: -1, y: -1 }),
        "resign" => Err(Fault::new(FaultKind::Resign, "genmove answered resign")),
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

    #[test]
    fn resign_is_a_resignation_and_pass_an_off_board_move() {
        assert_eq!(parse_vertex("resign").unwrap_err().kind, FaultKind::Resign);
        assert_eq!(parse_vertex("Resign").unwrap_err().kind, FaultKind::Resign);
        assert_eq!(parse_vertex("pass"), Ok(Answer { x: -1, y: -1 }));
        // A loose engine's answer without a space after `=`.
        let (ok, body) = parse_response("=resign").unwrap();
        assert!(ok);
        assert_eq!(parse_vertex(&body).unwrap_err().kind, FaultKind::Resign);
        assert_eq!(parse_response("=A1"), Some((true, "A1".into())));
    }

    /// A GTP engine in Python reading words as HaHaNoGo does: in `loose` and `resign` modes
    /// every word it doesn't know (`time_settings` and each of its arguments) gets an empty
    /// success of its own; in `listed` mode it lists `time_settings` and answers `genmove`
    /// with E5 only once it was told the time.
    const ENGINE: &str = r#"
import sys
mode = sys.argv[1]
timed = False
for line in sys.stdin:
    words = line.split()
    while words:
        word = words.pop(0)
        if word == "list_commands" and mode == "listed":
            reply = "= genmove\ntime_settings"
        elif word == "time_settings" and mode == "listed":
            timed, words = True, words[3:]
            reply = "="
        elif word in ("boardsize", "komi"):
            words = words[1:]
            reply = "="
        elif word == "play":
            words = words[2:]
            reply = "="
        elif word == "genmove":
            words = words[1:]
            if mode == "resign":
                reply = "=resign"
            else:
                reply = "=E5" if timed or mode == "loose" else "=A1"
        else:
            reply = "="
        print(reply + "\n", flush=True)
"#;

    fn engine_turn(mode: &str) -> Result<Answer, Fault> {
        let script = std::env::temp_dir().join(format!("nogo-gtp-loose-{}.py", std::process::id()));
        std::fs::write(&script, ENGINE).unwrap();
        let mut player =
            GtpPlayer::new(&format!("python3 {} {mode}", script.display()), Duration::from_secs(1));
        let e5: Point = "E5".parse().unwrap();
        let mut position = Position::new();
        position.play(e5).unwrap();
        let turn = player.turn(&position, &[e5], Duration::from_secs(10));
        drop(player);
        let _ = std::fs::remove_file(&script);
        turn.outcome
    }

    #[test]
    fn loose_engines_stay_in_step_and_listed_ones_get_the_time() {
        let e5 = Answer::from("E5".parse::<Point>().unwrap());
        assert_eq!(engine_turn("loose"), Ok(e5), "no time_settings to an engine that does not list it");
        assert_eq!(engine_turn("listed"), Ok(e5), "time_settings to an engine that lists it");
        assert_eq!(engine_turn("resign").unwrap_err().kind, FaultKind::Resign);
    }

    #[test]
    fn time_settings_only_when_listed() {
        let listed = "protocol_version\nname\ntime_settings\ngenmove";
        assert!(lists(listed, "time_settings"));
        assert!(!lists("", "time_settings"));
        assert!(!lists("time_settings_extra\nkgs-time_settings", "time_settings"));
    }
}
