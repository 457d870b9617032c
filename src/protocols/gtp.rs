//! `nogo gtp`: the Go Text Protocol, version 2, on stdin and stdout, with GoGui's rules
//! commands so GoGui, gogui-twogtp and course frameworks play NoGo with the engine.
//!
//! NoGo has a side to move and no pass, so a position is only ever reached by alternating
//! moves. `play` and `genmove` are therefore accepted only for the colour whose turn it is;
//! for the other colour they fail with the reason (GTP allows either colour because Go has a
//! pass, which NoGo does not). Controllers that follow `gogui-rules_side_to_move` never
//! hit this. `genmove` answers `resign` when the colour to move has no legal move.

use crate::engines::{parse_threads, EngineArgs};
use crate::protocols::sgf::GameRecord;
use crate::rules::point::SIZE;
use crate::rules::{Color, Game, Point};
use crate::search::engine::{Budget, Engine, Report};
use crate::search::time::{self, GameClock, Remaining, TimeSettings};
use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

/// `nogo gtp` options.
#[derive(clap::Args, Debug, Clone)]
pub struct GtpArgs {
    /// The engine and its limits.
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Every command this engine answers, in `list_commands` order.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "time_settings",
    "time_left",
    "final_score",
    "loadsgf",
    "legal_moves",
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_board",
    "gogui-rules_final_result",
    "gogui-analyze_commands",
    "gogui-interrupt",
    "cputime",
    "nogo-visits",
    "nogo-winrates",
    "nogo-param",
];

/// The line GoGui sends while a command runs to have it answered at once (`gogui-interrupt`).
const INTERRUPT: &str = "# interrupt";

/// The analysis views offered to GoGui (`gogui-analyze_commands`).
const ANALYZE_COMMANDS: &str =
    "gfx/Visits/nogo-visits\ngfx/Win estimate/nogo-winrates\nparam/Search parameters/nogo-param";

/// One command line: the optional numeric id, the command name and its arguments.
#[derive(Debug, PartialEq)]
pub struct Command {
    /// The id the reply repeats, if the line gave one.
    pub id: Option<u64>,
    /// The command name.
    pub name: String,
    /// The arguments, split at whitespace.
    pub args: Vec<String>,
}

/// Parses one input line as the specification says: control characters other than tab and
/// newline are removed, tabs become spaces, `#` starts a comment; `None` for an empty line.
pub fn parse_line(line: &str) -> Option<Command> {
    let cleaned: String = line
        .chars()
        .filter(|c| !c.is_control() || *c == '\t' || *c == '\n')
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let text = cleaned.split('#').next().unwrap_or("");
    let mut words = text.split_whitespace();
    let first = words.next()?;
    let (id, name) = match first.parse::<u64>() {
        Ok(id) => (Some(id), words.next()?.to_string()),
        Err(_) => (None, first.to_string()),
    };
    Some(Command { id, name, args: words.map(str::to_string).collect() })
}

/// A reply as sent: `=id text` or `?id text`, ended by an empty line.
pub fn format_reply(id: Option<u64>, result: &Result<String, String>) -> String {
    let (mark, text) = match result {
        Ok(text) => ('=', text),
        Err(text) => ('?', text),
    };
    let id = id.map(|id| id.to_string()).unwrap_or_default();
    let text = text.trim_end();
    if text.is_empty() || text.starts_with('\n') {
        // A reply that starts on its own line (a diagram) needs no separating space.
        format!("{mark}{id}{text}\n\n")
    } else {
        format!("{mark}{id} {text}\n\n")
    }
}

/// The engine's state between commands.
pub struct Gtp {
    args: EngineArgs,
    engine: Box<dyn Engine>,
    /// The search behind the analysis views, made on first use.
    analysis: Option<Box<dyn Engine>>,
    game: Game,
    clock: GameClock,
    /// Raised to stop the running search (see [`run`]).
    interrupt: Option<&'static AtomicBool>,
}

/// Why an argument list does not fit a command.
fn syntax(usage: &str) -> String {
    format!("syntax error: usage {usage}")
}

fn colour_arg(word: &str) -> Result<Color, String> {
    Color::from_gtp(word).ok_or_else(|| format!("syntax error: invalid color '{word}'"))
}

fn points(points: impl Iterator<Item = Point>) -> String {
    points.map(|p| p.to_string()).collect::<Vec<_>>().join(" ")
}

impl Gtp {
    /// An empty board, played by the engine `args` describes.
    pub fn new(args: EngineArgs) -> Gtp {
        Gtp {
            engine: args.create_player(),
            args,
            analysis: None,
            game: Game::new(),
            clock: GameClock::default(),
            interrupt: None,
        }
    }

    /// Executes one command; the reply text, or the error text. `quit` is the caller's.
    pub fn execute(&mut self, name: &str, args: &[String]) -> Result<String, String> {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let position = self.game.position();
        match (name, args.as_slice()) {
            ("protocol_version", _) => Ok("2".into()),
            ("name", _) => Ok("nogo".into()),
            ("version", _) => Ok(env!("CARGO_PKG_VERSION").into()),
            ("known_command", [command]) => Ok(COMMANDS.contains(command).to_string()),
            ("known_command", _) => Err(syntax("known_command COMMAND")),
            ("list_commands", _) => Ok(COMMANDS.join("\n")),
            ("quit", _) => Ok(String::new()),
            ("boardsize", [size]) => match size.parse::<usize>() {
                Ok(SIZE) => {
                    self.new_game();
                    Ok(String::new())
                }
                Ok(_) => Err(format!("unacceptable size: NoGo is played on {SIZE}x{SIZE} only")),
                Err(_) => Err(syntax(&format!("boardsize {SIZE}"))),
            },
            ("boardsize", _) => Err(syntax(&format!("boardsize {SIZE}"))),
            ("clear_board", _) => {
                self.new_game();
                Ok(String::new())
            }
            // NoGo has no score, so komi changes nothing; it is accepted for controllers.
            ("komi", [komi]) if komi.parse::<f64>().is_ok() => Ok(String::new()),
            ("komi", _) => Err(syntax("komi NUMBER")),
            ("play", [colour, vertex]) => self.play(colour_arg(colour)?, vertex),
            ("play", _) => Err(syntax("play COLOR VERTEX")),
            ("genmove", [colour]) => self.genmove(colour_arg(colour)?),
            ("genmove", _) => Err(syntax("genmove COLOR")),
            ("undo", _) => self.game.undo().map(|_| String::new()).ok_or_else(|| "cannot undo".into()),
            ("showboard", _) => Ok(format!("\n{}", self.game.diagram())),
            ("time_settings", [main, byo_time, byo_stones]) => {
                let settings = TimeSettings {
                    main: seconds_arg(main)?,
                    byo_time: seconds_arg(byo_time)?,
                    byo_stones: byo_stones
                        .parse()
                        .map_err(|_| syntax("time_settings MAIN BYO_TIME BYO_STONES"))?,
                };
                self.clock.set(settings);
                Ok(String::new())
            }
            ("time_settings", _) => Err(syntax("time_settings MAIN BYO_TIME BYO_STONES")),
            ("time_left", [colour, seconds, stones]) => {
                let colour = colour_arg(colour)?;
                let remaining = Remaining {
                    seconds: seconds_arg(seconds)?,
                    stones: stones.parse().map_err(|_| syntax("time_left COLOR SECONDS STONES"))?,
                };
                self.clock.set_left(colour, remaining);
                Ok(String::new())
            }
            ("time_left", _) => Err(syntax("time_left COLOR SECONDS STONES")),
            ("final_score", _) => match self.game.result() {
                Some(result) => Ok(if result.winner == Color::Black { "B+" } else { "W+" }.into()),
                None => Err("cannot score: the game is not over".into()),
            },
            ("loadsgf", [file]) => self.load_sgf(file, None),
            ("loadsgf", [file, number]) => {
                let number = number.parse().map_err(|_| syntax("loadsgf FILE [MOVE_NUMBER]"))?;
                self.load_sgf(file, Some(number))
            }
            ("loadsgf", _) => Err(syntax("loadsgf FILE [MOVE_NUMBER]")),
            ("legal_moves", [colour]) => Ok(points(position.legal(colour_arg(colour)?).iter())),
            ("legal_moves", _) => Err(syntax("legal_moves COLOR")),
            ("gogui-rules_game_id", _) => Ok("NoGo".into()),
            ("gogui-rules_board_size", _) => Ok(SIZE.to_string()),
            ("gogui-rules_legal_moves", _) => Ok(points(position.legal_moves().iter())),
            ("gogui-rules_side_to_move", _) => Ok(position.to_move().to_string()),
            ("gogui-rules_board", _) => Ok(self.board_rows()),
            ("gogui-rules_final_result", _) => Ok(match self.game.result() {
                Some(result) => format!("{} wins ({})", result.winner, result.reason),
                None => "unknown".into(),
            }),
            ("gogui-analyze_commands", _) => Ok(ANALYZE_COMMANDS.into()),
            // Announced so GoGui offers Interrupt; the interrupt itself is the line INTERRUPT.
            ("gogui-interrupt", _) => Ok(String::new()),
            ("cputime", _) => Ok(format!("{:.3}", cpu_seconds())),
            ("nogo-visits", _) => Ok(self.analyse(View::Visits)),
            ("nogo-winrates", _) => Ok(self.analyse(View::WinRates)),
            // GoGui's parameter commands: without arguments the settings, one a line, else
            // one set.
            ("nogo-param", []) => Ok(format!("[string] threads {}", self.args.params().threads)),
            ("nogo-param", ["threads", threads]) => {
                self.args.threads = Some(parse_threads(threads)?);
                // The search is made anew on the threads; the game goes on.
                self.engine = self.args.create_player();
                self.analysis = None;
                Ok(String::new())
            }
            ("nogo-param", _) => Err(syntax("nogo-param [threads N]")),
            _ => Err("unknown command".into()),
        }
    }

    fn new_game(&mut self) {
        self.game = Game::new();
        self.engine.new_game();
        self.clock.restart();
    }

    /// `loadsgf`: the game of an SGF file, up to the position before move `number` (1-based).
    fn load_sgf(&mut self, file: &str, number: Option<usize>) -> Result<String, String> {
        let text = std::fs::read_to_string(file).map_err(|e| format!("cannot load file: {e}"))?;
        let mut record = GameRecord::from_sgf(&text).map_err(|e| format!("cannot load file: {e}"))?;
        let keep = number.map_or(record.moves.len(), |n| n.saturating_sub(1).min(record.moves.len()));
        record.moves.truncate(keep);
        let game = record.game().map_err(|e| format!("cannot load file: {e}"))?;
        self.new_game();
        self.game = game;
        Ok(String::new())
    }

    fn play(&mut self, colour: Color, vertex: &str) -> Result<String, String> {
        if vertex.eq_ignore_ascii_case("pass") {
            return Err("illegal move: NoGo has no pass".into());
        }
        let p = vertex.parse::<Point>().map_err(|e| format!("syntax error: {e}"))?;
        let to_move = self.game.position().to_move();
        if colour != to_move {
            return Err(format!("illegal move: it is {to_move}'s turn"));
        }
        self.game.play(p).map(|()| String::new()).map_err(|e| format!("illegal move: {e}"))
    }

    fn genmove(&mut self, colour: Color) -> Result<String, String> {
        let position = self.game.position().clone();
        if colour != position.to_move() {
            return Err(format!(
                "it is {}'s turn: NoGo has no pass, so {colour} cannot move",
                position.to_move()
            ));
        }
        if position.is_terminal() {
            return Ok("resign".into());
        }
        let start = Instant::now();
        let allotted = self.clock.allot(colour, position.empty().count());
        let limit = self.args.limit_under(allotted, time::TURN_LIMIT);
        let budget = Budget { stop: self.interrupt, ..self.args.budget(start, limit) };
        let report = self.engine.think(&position, &budget);
        self.clock.charge(colour, start.elapsed());
        log_report(&format!("genmove {colour}"), &report);
        self.game.play(report.best).map_err(|e| format!("engine error: it chose {} but {e}", report.best))?;
        Ok(report.best.to_string())
    }

    /// The board for `gogui-rules_board`: rows from the top, `X` black, `O` white, `.` empty.
    fn board_rows(&self) -> String {
        let position = self.game.position();
        let row = |y| position.row(y).map(|(_, symbol)| String::from(symbol)).collect::<Vec<_>>().join(" ");
        (0..SIZE as u8).map(row).collect::<Vec<_>>().join("\n")
    }

    /// A GoGui `gfx` reply: a search of the position, shown per point.
    fn analyse(&mut self, view: View) -> String {
        let position = self.game.position().clone();
        if let Some(result) = self.game.result() {
            return format!("TEXT game over: {} wins, {}", result.winner, result.reason);
        }
        let search = self.analysis.get_or_insert_with(|| self.args.create());
        let budget = Budget { stop: self.interrupt, ..self.args.move_budget(Instant::now()) };
        let report = search.think(&position, &budget);
        log_report("analysis", &report);
        let to_move = position.to_move();
        if report.iterations == 0 {
            return format!("LABEL {} win\nTEXT {to_move} wins at once with {}", report.best, report.best);
        }
        let children = search.root_children(&position);
        let most = children.iter().map(|c| c.1).max().unwrap_or(1).max(1);
        // GoGui draws positive influence as black, negative as white.
        let sign = if to_move == Color::Black { 1.0 } else { -1.0 };
        let mut influence = String::from("INFLUENCE");
        let mut label = String::from("LABEL");
        for &(p, visits, mean) in &children {
            let (value, text) = match view {
                View::Visits => (visits as f32 / most as f32, visits_label(visits)),
                View::WinRates => (2.0 * mean - 1.0, format!("{:.0}", 100.0 * mean)),
            };
            let _ = write!(influence, " {p} {:.2}", sign * value);
            let _ = write!(label, " {p} {text}");
        }
        format!(
            "{influence}\n{label}\nTEXT {to_move} to move: {} ({:.0}% win estimate), {} iterations, {:.2} s",
            report.best,
            100.0 * report.win_rate,
            report.iterations,
            report.elapsed.as_secs_f64()
        )
    }
}

/// The analysis views.
#[derive(Clone, Copy, Debug)]
enum View {
    Visits,
    WinRates,
}

/// Visit counts short enough for a board label: `950`, `12k`.
fn visits_label(visits: u32) -> String {
    if visits >= 10_000 {
        format!("{}k", visits / 1000)
    } else {
        visits.to_string()
    }
}

fn seconds_arg(word: &str) -> Result<f64, String> {
    match word.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("syntax error: '{word}' is not a number of seconds")),
    }
}

/// One line on stderr per search, for GoGui's log and for people reading along.
fn log_report(what: &str, report: &Report) {
    let pv: Vec<String> = report.pv.iter().take(8).map(|p| p.to_string()).collect();
    eprintln!(
        "nogo: {what}: {} win {:.0}% iterations {} time {:.2}s pv {}",
        report.best,
        100.0 * report.win_rate,
        report.iterations,
        report.elapsed.as_secs_f64(),
        pv.join(" ")
    );
}

/// When the engine started: `cputime` counts from here where the platform has no CPU clock.
#[cfg(not(unix))]
static STARTED: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();

/// CPU time the process has used, user and system, in seconds (GoGui's `cputime`).
#[cfg(unix)]
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage writes the struct it is given and nothing else.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Without `getrusage`, `cputime` is the time since the engine started: it searches on one
/// thread and waits for commands between searches, so this bounds the CPU time from above.
#[cfg(not(unix))]
fn cpu_seconds() -> f64 {
    STARTED.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// Runs the protocol until `quit` or the end of input; the exit code.
///
/// A thread reads the input, so GoGui's interrupt (the line `# interrupt`, sent while a
/// command runs) stops the search at once: the command is answered with the best move found.
pub fn run(args: GtpArgs) -> i32 {
    #[cfg(not(unix))]
    STARTED.get_or_init(Instant::now);
    let mut gtp = Gtp::new(args.engine.on_every_core());
    let interrupt: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
    gtp.interrupt = Some(interrupt);
    // Commands read and not yet answered: an interrupt counts only while there is one.
    let unanswered = Arc::new(AtomicUsize::new(0));
    let (lines, commands) = mpsc::channel();
    let reader_unanswered = Arc::clone(&unanswered);
    std::thread::spawn(move || {
        let mut input = std::io::stdin().lock();
        loop {
            let mut line = Vec::new();
            let read = input.read_until(b'\n', &mut line);
            let text = String::from_utf8_lossy(&line).into_owned();
            match read {
                Ok(0) => break,
                Ok(_) if text.trim() == INTERRUPT => {
                    if reader_unanswered.load(Ordering::SeqCst) > 0 {
                        interrupt.store(true, Ordering::SeqCst);
                    }
                }
                Ok(_) => {
                    let Some(command) = parse_line(&text) else { continue };
                    reader_unanswered.fetch_add(1, Ordering::SeqCst);
                    if lines.send(Ok(command)).is_err() {
                        break;
                    }
                }
                Err(e) => {
                    let _ = lines.send(Err(e));
                    break;
                }
            }
        }
    });
    let mut output = std::io::stdout().lock();
    for command in commands {
        let command = match command {
            Ok(command) => command,
            Err(e) => {
                eprintln!("nogo gtp: cannot read the input: {e}");
                return 1;
            }
        };
        let result = gtp.execute(&command.name, &command.args);
        unanswered.fetch_sub(1, Ordering::SeqCst);
        interrupt.store(false, Ordering::SeqCst);
        let reply = format_reply(command.id, &result);
        if output.write_all(reply.as_bytes()).and_then(|()| output.flush()).is_err() {
            // The controller has gone: nobody is left to answer.
            return 0;
        }
        if command.name == "quit" {
            return 0;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::{EngineKind, SearchSettings};
    use crate::rules::Position;
    use crate::search::mcts::Mcts;
    use crate::search::params::Params;

    /// `engine` searching `nodes` iterations a move, with the default settings.
    fn fixed_nodes(engine: EngineKind, nodes: u64) -> EngineArgs {
        EngineArgs {
            time: None,
            nodes: Some(nodes),
            seed: 0,
            engine,
            search: SearchSettings::default(),
            book: false,
            threads: None,
            memory_mb: None,
        }
    }

    #[test]
    fn the_threads_are_a_gogui_parameter_and_the_game_goes_on() {
        let mut gtp = Gtp::new(fixed_nodes(EngineKind::Rave, 4000));
        assert_eq!(gtp.execute("nogo-param", &[]), Ok("[string] threads 1".into()));
        gtp.execute("play", &["b".into(), "E5".into()]).unwrap();
        assert_eq!(gtp.execute("nogo-param", &["threads".into(), "3".into()]), Ok(String::new()));
        assert_eq!(gtp.execute("nogo-param", &[]), Ok("[string] threads 3".into()));
        let reply = gtp.execute("genmove", &["w".into()]).unwrap();
        assert!(Position::from_moves(["E5".parse().unwrap(), reply.parse().unwrap()]).is_ok(), "{reply}");
        for bad in [&["threads", "0"][..], &["threads", "many"], &["memory", "1"], &["threads"]] {
            let args: Vec<String> = bad.iter().map(|a| a.to_string()).collect();
            assert!(gtp.execute("nogo-param", &args).is_err(), "{bad:?}");
        }
        assert!(gtp.execute("gogui-analyze_commands", &[]).unwrap().contains("param/"));
    }

    #[test]
    fn lines_are_cleaned_as_the_specification_says() {
        let command = parse_line("12\tplay  b\x07 E5 # a comment\r\n").unwrap();
        assert_eq!(
            command,
            Command { id: Some(12), name: "play".into(), args: vec!["b".into(), "E5".into()] }
        );
        assert_eq!(parse_line("   # only a comment\n"), None);
        assert_eq!(parse_line("\n"), None);
        assert_eq!(parse_line("7\n"), None, "an id without a command is no command");
        assert_eq!(parse_line("name").unwrap().id, None);
    }

    #[test]
    fn replies_carry_the_id_and_end_with_an_empty_line() {
        assert_eq!(format_reply(Some(3), &Ok("2".into())), "=3 2\n\n");
        assert_eq!(format_reply(None, &Ok(String::new())), "=\n\n");
        assert_eq!(format_reply(Some(4), &Err("cannot undo".into())), "?4 cannot undo\n\n");
        assert_eq!(format_reply(Some(5), &Ok("\n X\n O".into())), "=5\n X\n O\n\n");
    }

    #[test]
    fn every_listed_command_is_answered() {
        let mut gtp = Gtp::new(fixed_nodes(EngineKind::Mcts, 50));
        for command in COMMANDS {
            if let Err(e) = gtp.execute(command, &[]) {
                assert_ne!(e, "unknown command", "{command}");
            }
        }
        assert_eq!(gtp.execute("no_such_command", &[]), Err("unknown command".into()));
    }

    #[test]
    fn analysis_labels_searched_points_only() {
        let mut gtp = Gtp::new(fixed_nodes(EngineKind::Mcts, 2000));
        gtp.execute("play", &["b".into(), "E5".into()]).unwrap();
        let reply = gtp.execute("nogo-visits", &[]).unwrap();
        let lines: Vec<&str> = reply.lines().collect();
        assert_eq!(lines.len(), 3, "{reply}");
        let label: Vec<&str> = lines[1].split_whitespace().collect();
        assert_eq!(label[0], "LABEL");
        let legal = gtp.game.position().legal_moves();
        let mut total = 0;
        for pair in label[1..].chunks(2) {
            assert!(legal.has(pair[0].parse().unwrap()), "{}", pair[0]);
            total += pair[1].parse::<u32>().unwrap();
        }
        assert!((1999..=2000).contains(&total), "root children share the iterations: {total}");
        // White to move: the most visited point has influence -1.
        assert!(lines[0].split_whitespace().any(|w| w == "-1.00"), "{}", lines[0]);
        assert!(lines[2].starts_with("TEXT white to move"));
    }

    /// The labels of an analysis reply: (point, text) pairs.
    fn labels(reply: &str) -> Vec<(String, String)> {
        let line = reply.lines().find(|l| l.starts_with("LABEL")).expect("a LABEL line");
        let words: Vec<&str> = line.split_whitespace().skip(1).collect();
        words.chunks(2).map(|pair| (pair[0].to_string(), pair[1].to_string())).collect()
    }

    #[test]
    fn analysis_searches_with_the_command_line_settings() {
        let settings = vec![("exploration".to_string(), 1.0), ("policy_depth".to_string(), 0.0)];
        let args = EngineArgs {
            seed: 7,
            search: SearchSettings { settings },
            ..fixed_nodes(EngineKind::Mcts, 3000)
        };
        let mut gtp = Gtp::new(args.clone());
        gtp.execute("play", &["b".into(), "E5".into()]).unwrap();
        let shown = labels(&gtp.execute("nogo-visits", &[]).unwrap());

        let visits = |params: Params| {
            let mut search = Mcts::new(params, args.seed);
            search.think(gtp.game.position(), &Budget::nodes(3000));
            let mut children: Vec<(String, String)> = search
                .root_children(gtp.game.position())
                .iter()
                .map(|&(p, n, _)| (p.to_string(), visits_label(n)))
                .collect();
            children.sort();
            children
        };
        let mut shown_sorted = shown.clone();
        shown_sorted.sort();
        assert_eq!(shown_sorted, visits(args.params()), "the analysis searches as genmove would");
        assert_ne!(shown_sorted, visits(Params::default()), "the settings change the search");
    }

    #[test]
    fn analysis_searches_with_the_engine_chosen() {
        let mut gtp = Gtp::new(fixed_nodes(EngineKind::Rave, 2000));
        gtp.execute("play", &["b".into(), "E5".into()]).unwrap();
        let reply = gtp.execute("nogo-visits", &[]).unwrap();
        let total: u32 = labels(&reply).iter().map(|(_, n)| n.parse::<u32>().unwrap()).sum();
        // Every simulation of the playout search goes through a child of the root.
        assert_eq!(total, 2000, "{reply}");
        assert!(reply.contains("2000 iterations"), "{reply}");
    }
}
