//! The Botzone bot: reads a match in Botzone's JSON or simplified text protocol (told apart
//! by the first non-blank character), answers one move, and in keep-running mode (the
//! default) prints the keep-running marker and waits for the opponent's next move.
//!
//! The contract is `docs/botzone.md`. stdout carries only the protocol; each fault in the
//! input is reported as one line on stderr, and a legal move is still answered whenever a
//! position can be built (see `history` for how).

mod history;
mod json;
mod text;

pub use history::{Entry, History, Replayed};

use crate::engines::{self, EngineArgs};
use crate::rules::{Color, Position};
use crate::search::engine::{Engine, Proof, Report};
use crate::search::time;
use std::io::{self, BufRead, IsTerminal, Write};
use std::time::{Duration, Instant};

/// The line that asks Botzone to keep the process for the next turn.
pub const KEEP_RUNNING_MARKER: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";
/// Botzone's cap on the `debug` field, in bytes.
pub const DEBUG_LIMIT: usize = 1024;
/// The `debug` words stating that the search proved a win, or a loss, for the bot's side.
const PROVEN_WIN: &str = "proven=win";
const PROVEN_LOSS: &str = "proven=loss";

/// The bot's options (the command line without a subcommand).
#[derive(clap::Args, Clone, Debug)]
pub struct Options {
    /// --engine, --time, --nodes, --seed, --set, --threads and --memory-mb, as for nogo gtp and
    /// nogo play.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Answer once and exit (Botzone then restarts the bot with the full history each turn).
    #[arg(long)]
    pub no_keep_running: bool,
}

/// What the bot says on stderr when a person starts it at a terminal, where it would otherwise
/// wait in silence.
const AT_A_TERMINAL: &str = "nogo: waiting for a Botzone request on stdin, in JSON \
     ({\"requests\":[{\"x\":-1,\"y\":-1}]}) or simplified text (a line 1, then -1 -1); nogo --help lists the tools";

impl Options {
    /// The turn's time limit: the shorter of the input's `time_limit` and `--time`, else
    /// Botzone's default for the turn (2 s on our first turn of a match, 1 s after); `None`
    /// when `--nodes` alone bounds the search.
    fn turn_limit(&self, first_turn: bool, input_limit: Option<Duration>) -> Option<Duration> {
        let default = if first_turn { time::FIRST_TURN_LIMIT } else { time::TURN_LIMIT };
        self.engine.limit_under(input_limit, default)
    }

    /// The limit of a keep-running turn, whose request is only the opponent's move: the
    /// `time_limit` of the match's full input (`kept`) still holds, but never past the limit
    /// of a later turn without it, in case that input gave a first turn's longer limit.
    fn keep_running_turn_limit(&self, kept: Option<Duration>) -> Option<Duration> {
        kept.into_iter().chain(self.turn_limit(false, None)).min()
    }
}

/// What one read of the input asks for.
#[derive(Debug)]
pub enum Request {
    /// A whole match so far (the first turn, or a restart).
    Full {
        /// The requests and responses so far.
        history: History,
        /// The input's `time_limit` field: its number, or why it is not one.
        time_limit: Option<Result<f64, String>>,
    },
    /// The opponent's one new move (keep-running).
    Move(Entry),
}

/// The protocol of a match, fixed by the first input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One line of JSON in, one out.
    Json,
    /// Botzone's "simplified interaction": `x y` lines.
    Text,
}

/// Runs the bot on stdin and stdout; the exit code. `started` is when the process started:
/// the first turn's clock.
pub fn run(options: &Options, started: Instant) -> i32 {
    let stdin = io::stdin();
    if stdin.is_terminal() {
        eprintln!("{AT_A_TERMINAL}");
    }
    let mut input = stdin.lock();
    let (format, mut request) = match read_first(&mut input) {
        Ok(first) => first,
        Err(message) => return fail(&message),
    };
    let params = options.engine.params();
    let mut bot = Bot {
        options,
        engine: engines::player(options.engine.engine, options.engine.seed, params, options.engine.book),
        format,
        out: io::stdout().lock(),
        game: None,
        input_limit: None,
    };
    let mut start = started;
    loop {
        if let Err(message) = bot.turn(request, start) {
            return fail(&message);
        }
        if options.no_keep_running {
            // Exit at once: the OS frees the tree faster than its destructor would.
            std::process::exit(0);
        }
        match bot.next_request(&mut input) {
            None => std::process::exit(0),
            Some(Err(message)) => return fail(&message),
            Some(Ok(next)) => {
                start = Instant::now();
                request = next;
            }
        }
    }
}

fn fail(message: &str) -> i32 {
    eprintln!("nogo: cannot answer: {message}");
    1
}

/// Reads the first input, telling the format by its first non-blank character.
fn read_first(input: &mut impl BufRead) -> Result<(Format, Request), String> {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let unreadable = |e: io::Error| format!("cannot read the input: {e}");
    if input.fill_buf().map_err(unreadable)?.starts_with(BOM) {
        input.consume(BOM.len());
    }
    let first = loop {
        let buffer = input.fill_buf().map_err(unreadable)?;
        if buffer.is_empty() {
            return Err("empty input".to_string());
        }
        match buffer.iter().position(|b| !b.is_ascii_whitespace()) {
            Some(at) => {
                let first = buffer[at];
                input.consume(at);
                break first;
            }
            None => {
                let blank = buffer.len();
                input.consume(blank);
            }
        }
    };
    match first {
        b'{' => Ok((Format::Json, json::read_full(input)?)),
        b'0'..=b'9' => {
            let mut line = Vec::new();
            read_line(input, &mut line).map_err(unreadable)?;
            Ok((Format::Text, text::read_full(&line, input)?))
        }
        other => Err(format!(
            "unrecognised input: it starts with {}, expected '{{' (JSON) or a digit (text)",
            std::ascii::escape_default(other)
        )),
    }
}

/// Reads one line without its end (`\n` or `\r\n`); false at end of input.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<bool> {
    line.clear();
    if input.read_until(b'\n', line)? == 0 {
        return Ok(false);
    }
    while line.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
        line.pop();
    }
    Ok(true)
}

/// A bot session: the engine (and its tree) live across keep-running turns.
struct Bot<'a> {
    options: &'a Options,
    engine: Box<dyn Engine>,
    format: Format,
    out: io::StdoutLock<'static>,
    /// Our colour and the position after our last answer, which the next move continues.
    game: Option<(Color, Position)>,
    /// The `time_limit` of the last full input, for the keep-running turns after it.
    input_limit: Option<Duration>,
}

impl Bot<'_> {
    /// Answers one request whose clock started at `start`; `Err` when it cannot be answered.
    fn turn(&mut self, request: Request, start: Instant) -> Result<(), String> {
        let mut faults = Vec::new();
        let (colour, position, limit) = match request {
            Request::Full { history, time_limit } => {
                let input_limit = match time_limit {
                    None => None,
                    Some(Ok(value)) => time::limit_from_input(value)
                        .filter(|limit| limit.as_secs_f64() <= time::MAX_MOVE_SECONDS)
                        .or_else(|| {
                            faults.push(format!(
                                "time_limit {value} is not a duration above 0 and at most a day; ignored"
                            ));
                            None
                        }),
                    Some(Err(fault)) => {
                        faults.push(format!("{fault}; ignored"));
                        None
                    }
                };
                let replayed = history.replay().map_err(|reason| {
                    faults.push(reason);
                    faults.join("; ")
                })?;
                faults.extend(replayed.faults);
                self.input_limit = input_limit;
                let first_turn = history.requests.len() == 1;
                (replayed.colour, replayed.position, self.options.turn_limit(first_turn, input_limit))
            }
            Request::Move(entry) => {
                let (colour, mut position) = self.game.take().ok_or("a move arrived before any match")?;
                history::play_entry(&mut position, &entry).map_err(|fault| format!("request {fault}"))?;
                if position.is_terminal() {
                    return Err(format!("the game is over: {colour} has no legal move"));
                }
                (colour, position, self.options.keep_running_turn_limit(self.input_limit))
            }
        };
        if !faults.is_empty() {
            eprintln!("nogo: bad input: {}", faults.join("; "));
        }

        let report = self.engine.think(&position, &self.options.engine.budget(start, limit));

        let mut after = position;
        after.play(report.best).map_err(|e| format!("the engine chose {}: {e}", report.best))?;
        let debug = debug(self.engine.name(), &report, start.elapsed(), limit);
        let answer = match self.format {
            Format::Json => json::answer(report.best, &debug),
            Format::Text => text::answer(report.best, &debug),
        };
        self.write(&answer).map_err(|e| format!("cannot write the answer: {e}"))?;
        self.game = Some((colour, after));
        Ok(())
    }

    fn write(&mut self, answer: &str) -> io::Result<()> {
        writeln!(self.out, "{answer}")?;
        if !self.options.no_keep_running {
            writeln!(self.out, "{KEEP_RUNNING_MARKER}")?;
        }
        self.out.flush()
    }

    /// Blocks for the next non-blank line; `None` at end of input.
    fn next_request(&mut self, input: &mut impl BufRead) -> Option<Result<Request, String>> {
        let mut line = Vec::new();
        loop {
            match read_line(input, &mut line) {
                Ok(false) => return None,
                Err(e) => return Some(Err(format!("cannot read the input: {e}"))),
                Ok(true) if line.iter().all(u8::is_ascii_whitespace) => continue,
                Ok(true) => break,
            }
        }
        Some(match self.format {
            Format::Json => json::parse_line(&line),
            Format::Text => text::parse_line(&line, input),
        })
    }
}

/// The `debug` field: engine, iterations, turn and search time, the limit, the win estimate
/// and the expected continuation in Botzone `x,y` pairs; at most [`DEBUG_LIMIT`] bytes.
fn debug(engine: &str, report: &Report, turn: Duration, limit: Option<Duration>) -> String {
    let mut debug = format!(
        "{engine} iterations={} ms={} search_ms={}",
        report.iterations,
        turn.as_millis(),
        report.elapsed.as_millis()
    );
    if let Some(limit) = limit {
        debug += &format!(" limit_ms={}", limit.as_millis());
    }
    debug += &format!(" win={:.3}", report.win_rate);
    match report.proof {
        Proof::Win => debug += &format!(" {PROVEN_WIN}"),
        Proof::Loss => debug += &format!(" {PROVEN_LOSS}"),
        Proof::Unknown => {}
    }
    debug += " pv=";
    for (i, p) in report.pv.iter().enumerate() {
        let pair = format!("{}{},{}", if i == 0 { "" } else { " " }, p.x(), p.y());
        if debug.len() + pair.len() > DEBUG_LIMIT {
            break;
        }
        debug += &pair;
    }
    debug
}

/// The proven result a `debug` field written by this bot states for the bot's side (read by
/// the arena from external players).
pub fn proof_in_debug(debug: &str) -> Proof {
    let proof = debug.split_whitespace().find_map(|word| match word {
        PROVEN_WIN => Some(Proof::Win),
        PROVEN_LOSS => Some(Proof::Loss),
        _ => None,
    });
    proof.unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::point::Point;

    #[test]
    fn debug_holds_the_figures_and_stays_under_the_cap() {
        let pv: Vec<Point> = (0..81).map(|i| Point::from_xy(i % 9, i / 9).unwrap()).collect();
        let report = Report {
            best: pv[0],
            iterations: 12345,
            elapsed: Duration::from_millis(800),
            win_rate: 0.625,
            pv: pv.repeat(5),
            proof: Proof::Win,
        };
        let line = debug("mcts", &report, Duration::from_millis(812), Some(time::TURN_LIMIT));
        assert!(line.starts_with(
            "mcts iterations=12345 ms=812 search_ms=800 limit_ms=1000 win=0.625 proven=win pv=0,0 1,0"
        ));
        assert!(line.len() <= DEBUG_LIMIT && line.len() > DEBUG_LIMIT - 8, "{}", line.len());
    }

    #[test]
    fn the_proof_in_debug_reads_back() {
        let pv = vec![Point::from_xy(2, 3).unwrap()];
        let report = |proof| Report {
            best: pv[0],
            iterations: 7,
            elapsed: Duration::from_millis(5),
            win_rate: 0.5,
            pv: pv.clone(),
            proof,
        };
        for proof in [Proof::Win, Proof::Loss, Proof::Unknown] {
            let line = debug("mcts", &report(proof), Duration::from_millis(6), None);
            assert_eq!(proof_in_debug(&line), proof, "{line}");
        }
        assert_eq!(proof_in_debug("other-bot proven=winning"), Proof::Unknown);
        assert_eq!(proof_in_debug(""), Proof::Unknown);
    }

    #[test]
    fn the_format_follows_the_first_non_blank_character() {
        let (format, _) = read_first(&mut &b"\n  {\"requests\":[{\"x\":-1,\"y\":-1}]}"[..]).unwrap();
        assert_eq!(format, Format::Json);
        let (format, _) = read_first(&mut &b"\xEF\xBB\xBF\r\n1\n-1 -1\n"[..]).unwrap();
        assert_eq!(format, Format::Text);
        assert_eq!(read_first(&mut &b" \n\t"[..]).unwrap_err(), "empty input");
        assert!(read_first(&mut &b"garbage"[..]).unwrap_err().contains("starts with g"));
    }

    /// The options parsed from a command line's arguments after the program's name.
    fn options(args: &[&str]) -> Options {
        use clap::Parser;
        #[derive(Parser)]
        struct Args {
            #[command(flatten)]
            options: Options,
        }
        Args::parse_from([&["nogo"], args].concat()).options
    }

    #[test]
    fn the_turn_limit_is_the_shorter_of_the_input_and_the_options_else_the_turns() {
        let ms = Duration::from_millis;
        let defaults = options(&[]);
        assert_eq!(defaults.turn_limit(true, None), Some(ms(2000)));
        assert_eq!(defaults.turn_limit(false, None), Some(ms(1000)));
        assert_eq!(defaults.turn_limit(true, Some(ms(300))), Some(ms(300)));
        let timed = options(&["--time", "0.25"]);
        assert_eq!(timed.turn_limit(true, None), Some(ms(250)));
        assert_eq!(timed.turn_limit(false, Some(ms(300))), Some(ms(250)));
        assert_eq!(timed.turn_limit(true, Some(ms(2000))), Some(ms(250)), "a first turn's 2 s too");
        assert_eq!(timed.turn_limit(false, Some(ms(100))), Some(ms(100)));
        let counted = options(&["--nodes", "10"]);
        assert_eq!(counted.turn_limit(true, None), None);
        assert_eq!(counted.turn_limit(true, Some(ms(300))), Some(ms(300)));
        assert_eq!(options(&["--nodes", "10", "--time", "0.25"]).turn_limit(false, None), Some(ms(250)));
    }

    #[test]
    fn keep_running_turns_keep_the_inputs_limit_up_to_a_later_turns() {
        let ms = Duration::from_millis;
        let defaults = options(&[]);
        assert_eq!(defaults.keep_running_turn_limit(None), Some(ms(1000)));
        assert_eq!(defaults.keep_running_turn_limit(Some(ms(200))), Some(ms(200)));
        assert_eq!(defaults.keep_running_turn_limit(Some(ms(2000))), Some(ms(1000)));
        let timed = options(&["--time", "0.25"]);
        assert_eq!(timed.keep_running_turn_limit(Some(ms(300))), Some(ms(250)));
        let counted = options(&["--nodes", "10"]);
        assert_eq!(counted.keep_running_turn_limit(None), None);
        assert_eq!(counted.keep_running_turn_limit(Some(ms(300))), Some(ms(300)));
    }
}
