//! An external bot speaking Botzone's protocol (`docs/botzone.md`), emulated as Botzone runs
//! it: a fresh process given the whole history each turn, unless the bot ends its answer with
//! the keep-running marker; then its process group is stopped until its next turn, continued,
//! and given only the new request line. A bot that exits after answering is restarted with the
//! full history next turn.

use super::player::{Answer, Fault, FaultKind, Player, Turn};
use super::process::{BotProcess, ReadResult};
use crate::protocols::botzone::{proof_in_debug, Format, KEEP_RUNNING_MARKER};
use crate::rules::{Point, Position};
use crate::search::engine::Proof;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Botzone's memory limit in MB, passed in JSON requests.
const MEMORY_LIMIT_MB: u64 = 256;
/// How long a bot silent at its deadline is watched for an exit that makes it a crash.
const CRASH_GRACE: Duration = Duration::from_secs(1);

/// A Botzone bot for one game.
pub struct BotzonePlayer {
    command: String,
    format: Format,
    /// The bot's process while it is kept running (stopped between turns).
    kept: Option<BotProcess>,
    /// `data` and `globaldata` the bot wrote last, given back on a restart as Botzone does.
    data: String,
    globaldata: String,
}

impl BotzonePlayer {
    /// The bot `command` (run on its first turn), spoken to in `format`.
    pub fn new(command: &str, format: Format) -> BotzonePlayer {
        BotzonePlayer {
            command: command.to_string(),
            format,
            kept: None,
            data: String::new(),
            globaldata: String::new(),
        }
    }

    /// Reads the turn's output until the marker, the end of output, or the deadline. Returns
    /// the answer with the proof its debug states, the process if it is to be kept running,
    /// and when the turn was judged to end.
    fn collect(&mut self, mut process: BotProcess, deadline: Instant) -> Collected {
        let mut output: Vec<String> = Vec::new();
        let answered = |output: &[String]| output.iter().any(|l| !l.trim().is_empty());
        loop {
            match process.read_line(deadline) {
                ReadResult::Line(line) if line.trim() == KEEP_RUNNING_MARKER => {
                    process.pause();
                    return (self.parse(&output), Some(process), Instant::now());
                }
                ReadResult::Line(line) => output.push(line),
                ReadResult::Closed if !answered(&output) => {
                    let ended = Instant::now();
                    let fault = Fault::new(FaultKind::Crash, process.crash_detail("without answering"));
                    return (Err(fault), None, ended);
                }
                ReadResult::Closed => {
                    let ended = Instant::now();
                    // Output that is no move, from a process that failed, is the failure's.
                    let parsed = self.parse(&output).map_err(|fault| {
                        if process.failed() {
                            let doing = format!("after writing {}", shorten(&output.join("\n")));
                            Fault::new(FaultKind::Crash, process.crash_detail(&doing))
                        } else {
                            fault
                        }
                    });
                    return (parsed, None, ended);
                }
                ReadResult::TimedOut if answered(&output) => {
                    let fault = Fault::new(
                        FaultKind::NoMarker,
                        "answered but neither printed the keep-running marker nor exited",
                    );
                    return (Err(fault), None, Instant::now());
                }
                ReadResult::TimedOut => {
                    let (fault, ended) = silent_at_deadline(process);
                    return (Err(fault), None, ended);
                }
            }
        }
    }

    /// The move in a turn's output and the proof its debug states (in the form this project's
    /// bot writes), keeping `data` and `globaldata` for the next restart.
    fn parse(&mut self, output: &[String]) -> Result<Claimed, Fault> {
        let parsed = match self.format {
            Format::Json => parse_json_output(&output.join("\n")),
            Format::Text => parse_text_output(output),
        };
        parsed.map(|parsed| {
            if let Some(data) = parsed.data {
                self.data = data;
            }
            if let Some(globaldata) = parsed.globaldata {
                self.globaldata = globaldata;
            }
            (parsed.answer, parsed.debug.as_deref().map_or(Proof::Unknown, proof_in_debug))
        })
    }
}

impl Player for BotzonePlayer {
    fn turn(&mut self, _position: &Position, moves: &[Point], limit: Duration) -> Turn {
        // A bot that printed the marker is stopped at once, but one that exited before the stop
        // landed is restarted, as Botzone (whose stop can come late) would.
        let kept = self.kept.take().and_then(|mut process| process.is_alive().then_some(process));
        let (start, process) = match kept {
            Some(mut process) => {
                process.resume();
                let start = Instant::now();
                let request = moves.last().copied().map(request_xy).unwrap_or((-1, -1));
                let _ = process.write(&keep_running_request(self.format, request));
                (start, process)
            }
            None => {
                let start = Instant::now();
                let mut process = match BotProcess::spawn(&self.command) {
                    Ok(process) => process,
                    Err(e) => {
                        let detail = format!("could not start '{}': {e}", self.command);
                        return Turn {
                            outcome: Err(Fault::new(FaultKind::Crash, detail)),
                            elapsed: start.elapsed(),
                            proof: Proof::Unknown,
                        };
                    }
                };
                let input = full_request(self.format, moves, &self.data, &self.globaldata, limit);
                // A write error means the bot has already gone: the read reports it.
                let _ = process.write(&input);
                (start, process)
            }
        };
        let (parsed, kept, ended) = self.collect(process, start + limit);
        let elapsed = ended.duration_since(start);
        self.kept = kept;
        let proof = parsed.as_ref().map_or(Proof::Unknown, |&(_, proof)| proof);
        Turn { outcome: parsed.map(|(answer, _)| answer), elapsed, proof }
    }
}

/// The fault of a bot that wrote nothing by its deadline, and when its turn was judged to end:
/// a crash if it exits without answering within `CRASH_GRACE` (a bot that fails as it starts,
/// its interpreter slower than a short limit), else a timeout at the deadline.
fn silent_at_deadline(mut process: BotProcess) -> (Fault, Instant) {
    let deadline = Instant::now();
    loop {
        match process.read_line(deadline + CRASH_GRACE) {
            ReadResult::Line(line) if line.trim().is_empty() => {}
            ReadResult::Closed => {
                let ended = Instant::now();
                let detail = process.crash_detail("without answering, past the deadline");
                return (Fault::new(FaultKind::Crash, detail), ended);
            }
            ReadResult::Line(_) | ReadResult::TimedOut => {
                return (Fault::new(FaultKind::Timeout, "no answer within the time limit"), deadline);
            }
        }
    }
}

/// Botzone coordinates `(x, y)`, `(-1, -1)` standing for "no move yet".
type Xy = (i64, i64);

/// A request's coordinates for the opponent's move `p`.
fn request_xy(p: Point) -> Xy {
    (p.x().into(), p.y().into())
}

/// The requests (the opponent's moves, Black's first being `-1 -1`) and responses (the bot's
/// own moves) of the player to move after `moves`.
fn history(moves: &[Point]) -> (Vec<Xy>, Vec<Xy>) {
    let own_parity = moves.len() % 2;
    let mut requests = Vec::new();
    if own_parity == 0 {
        requests.push((-1, -1));
    }
    let mut responses = Vec::new();
    for (i, &p) in moves.iter().enumerate() {
        if i % 2 == own_parity {
            responses.push(request_xy(p));
        } else {
            requests.push(request_xy(p));
        }
    }
    (requests, responses)
}

/// The whole input of a restarted bot.
fn full_request(format: Format, moves: &[Point], data: &str, globaldata: &str, limit: Duration) -> String {
    let (requests, responses) = history(moves);
    match format {
        Format::Json => {
            let xy = |&(x, y): &(i64, i64)| json!({ "x": x, "y": y });
            let input = json!({
                "requests": requests.iter().map(xy).collect::<Vec<_>>(),
                "responses": responses.iter().map(xy).collect::<Vec<_>>(),
                "data": data,
                "globaldata": globaldata,
                "time_limit": limit.as_millis() as u64,
                "memory_limit": MEMORY_LIMIT_MB,
            });
            format!("{input}\n")
        }
        Format::Text => {
            let mut input = format!("{}\n", requests.len());
            for (i, (x, y)) in requests.iter().enumerate() {
                input.push_str(&format!("{x} {y}\n"));
                if let Some((x, y)) = responses.get(i) {
                    input.push_str(&format!("{x} {y}\n"));
                }
            }
            // The data line and globaldata always follow, empty or not, so a bot reading them
            // line by line never waits for input that will not come.
            input.push_str(&format!("{}\n{}\n", one_line(data), globaldata.trim_end_matches('\n')));
            input
        }
    }
}

fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

/// The only input a kept-running bot gets: the opponent's last move.
fn keep_running_request(format: Format, (x, y): (i64, i64)) -> String {
    match format {
        Format::Json => format!("{}\n", json!({ "x": x, "y": y })),
        Format::Text => format!("{x} {y}\n"),
    }
}

/// A move and the proof (see [`Turn::proof`]) the bot's debug states with it.
type Claimed = (Answer, Proof);

/// A turn's answer, the process to keep running, and when the turn was judged to end.
type Collected = (Result<Claimed, Fault>, Option<BotProcess>, Instant);

/// A turn's output: the move and the optional fields.
#[derive(Debug, PartialEq)]
struct Parsed {
    answer: Answer,
    debug: Option<String>,
    data: Option<String>,
    globaldata: Option<String>,
}

/// `{"response":{"x":..,"y":..},"debug":..,"data":..,"globaldata":..}`; `x` and `y` must be
/// integers.
fn parse_json_output(text: &str) -> Result<Parsed, Fault> {
    let malformed = |why: &str| Fault::new(FaultKind::Malformed, format!("{why}: {}", shorten(text)));
    let value: Value = serde_json::from_str(text.trim()).map_err(|_| malformed("not JSON"))?;
    let response = value.get("response").ok_or_else(|| malformed("no \"response\""))?;
    let coordinate = |name: &str| response.get(name).and_then(Value::as_i64);
    let (Some(x), Some(y)) = (coordinate("x"), coordinate("y")) else {
        return Err(malformed("\"response\" lacks integer \"x\" and \"y\""));
    };
    let text_field = |name: &str| value.get(name).and_then(Value::as_str).map(str::to_string);
    Ok(Parsed {
        answer: Answer { x, y },
        debug: text_field("debug"),
        data: text_field("data"),
        globaldata: text_field("globaldata"),
    })
}

/// Line 1 `x y`, then optional debug, data and globaldata lines.
fn parse_text_output(lines: &[String]) -> Result<Parsed, Fault> {
    let first = lines.first().map(String::as_str).unwrap_or("");
    let numbers: Vec<&str> = first.split_whitespace().collect();
    let parsed = match numbers[..] {
        [x, y] => x.parse().ok().zip(y.parse().ok()),
        _ => None,
    };
    let Some((x, y)) = parsed else {
        return Err(Fault::new(FaultKind::Malformed, format!("expected 'x y': {}", shorten(first))));
    };
    let globaldata = (lines.len() > 3).then(|| lines[3..].join("\n"));
    Ok(Parsed {
        answer: Answer { x, y },
        debug: lines.get(1).cloned(),
        data: lines.get(2).cloned(),
        globaldata,
    })
}

/// Output quoted in a verdict, cut to a readable length.
fn shorten(text: &str) -> String {
    let text = text.trim();
    let short: String = text.chars().take(80).collect();
    if short.len() < text.len() {
        format!("'{short}...'")
    } else {
        format!("'{short}'")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(xy: &[(u8, u8)]) -> Vec<Point> {
        xy.iter().map(|&(x, y)| Point::from_xy(x, y).unwrap()).collect()
    }

    #[test]
    fn black_and_white_see_their_own_history() {
        let moves = points(&[(4, 4), (2, 3), (6, 6)]);
        let white = full_request(Format::Json, &moves, "", "", Duration::from_secs(1));
        let value: Value = serde_json::from_str(&white).unwrap();
        assert_eq!(value["requests"], json!([{"x":4,"y":4},{"x":6,"y":6}]));
        assert_eq!(value["responses"], json!([{"x":2,"y":3}]));
        assert_eq!(value["time_limit"], json!(1000));

        let black = full_request(Format::Text, &moves[..2], "d", "g1\ng2", Duration::from_secs(1));
        assert_eq!(black, "2\n-1 -1\n4 4\n2 3\nd\ng1\ng2\n");
        let first = full_request(Format::Text, &[], "", "", Duration::from_secs(2));
        assert_eq!(first, "1\n-1 -1\n\n\n");
    }

    #[test]
    fn keep_running_requests_hold_only_the_new_move() {
        assert_eq!(keep_running_request(Format::Json, (3, 4)), "{\"x\":3,\"y\":4}\n");
        assert_eq!(keep_running_request(Format::Text, (3, 4)), "3 4\n");
    }

    #[test]
    fn json_answers_and_their_data() {
        let parsed = parse_json_output(r#"{"response":{"x":4,"y":5},"debug":"d","data":"memo"}"#).unwrap();
        let expected = Parsed {
            answer: Answer { x: 4, y: 5 },
            debug: Some("d".into()),
            data: Some("memo".into()),
            globaldata: None,
        };
        assert_eq!(parsed, expected);
        let off = parse_json_output(r#"{"response":{"x":-1,"y":-1}}"#).unwrap().answer;
        assert_eq!(off, Answer { x: -1, y: -1 }, "off-board answers are the judge's business");
        for bad in [
            "hello",
            r#"{"x":4,"y":5}"#,
            r#"{"response":{"x":"4","y":5}}"#,
            r#"{"response":{"x":4.5,"y":5}}"#,
            "",
        ] {
            assert_eq!(parse_json_output(bad).unwrap_err().kind, FaultKind::Malformed, "{bad}");
        }
    }

    #[test]
    fn text_answers_and_their_data() {
        let lines: Vec<String> = ["4 5", "debug", "memo", "g1", "g2"].map(String::from).to_vec();
        let parsed = parse_text_output(&lines).unwrap();
        assert_eq!(parsed.answer, Answer { x: 4, y: 5 });
        assert_eq!(parsed.debug.as_deref(), Some("debug"));
        assert_eq!((parsed.data.as_deref(), parsed.globaldata.as_deref()), (Some("memo"), Some("g1\ng2")));
        for bad in [vec!["4"], vec!["4 5 6"], vec!["a b"], vec![], vec!["{\"response\":{}}"]] {
            let lines: Vec<String> = bad.iter().map(|s| s.to_string()).collect();
            assert_eq!(parse_text_output(&lines).unwrap_err().kind, FaultKind::Malformed, "{bad:?}");
        }
    }

    #[test]
    fn the_proof_stated_in_debug_is_read_in_both_formats() {
        let answer = Answer { x: 4, y: 5 };
        let mut json = BotzonePlayer::new("unused", Format::Json);
        let line = r#"{"response":{"x":4,"y":5},"debug":"mcts win=1.000 proven=win pv=4,5"}"#;
        assert_eq!(json.parse(&[line.to_string()]), Ok((answer, Proof::Win)));
        let mut text = BotzonePlayer::new("unused", Format::Text);
        assert_eq!(text.parse(&["4 5".into(), "mcts proven=loss pv=4,5".into()]), Ok((answer, Proof::Loss)));
        assert_eq!(text.parse(&["4 5".into()]), Ok((answer, Proof::Unknown)));
    }

    #[test]
    fn verdict_quotes_are_short() {
        assert_eq!(shorten(" ab "), "'ab'");
        assert_eq!(shorten(&"z".repeat(500)).len(), 85);
    }
}
