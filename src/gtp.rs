//! `nogo gtp`: the Go Text Protocol, version 2, on stdin and stdout, with GoGui's rules
//! commands so GoGui, gogui-twogtp and course frameworks play NoGo with the engine.
//!
//! NoGo has a side to move and no pass, so a position is only ever reached by alternating
//! moves. `play` and `genmove` are therefore accepted only for the colour whose turn it is;
//! for the other colour they fail with the reason (GTP allows either colour because Go has a
//! pass, which NoGo does not). Controllers that follow `gogui-rules_side_to_move` never
//! hit this. `genmove` answers `resign` when the colour to move has no legal move.

use crate::engine::{self, Budget, Engine, EngineKind, Report};
use crate::game::Game;
use crate::mcts::Mcts;
use crate::params::Params;
use crate::point::{Color, Point};
use crate::sgf::GameRecord;
use crate::time;
use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// The engine options shared by `nogo gtp` and `nogo play`; the same names as the bot's.
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    /// Thinking time per move in seconds [default: 1, the Botzone bot's first turn 2; none
    /// when only --nodes is given]. A controller's limits take precedence: GTP's
    /// time_settings/time_left, Botzone's time_limit.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time: Option<f64>,
    /// Iterations per move; with no time given, the only limit, so moves are reproducible.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Seed of the engine's random choices.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The engine that chooses the moves.
    #[arg(long, value_enum, default_value_t = EngineKind::Mcts)]
    pub engine: EngineKind,
}

/// The longest think for one move: a day, so any time given stays a valid instant.
pub const MAX_MOVE_SECONDS: f64 = 86_400.0;

/// A thinking time per move: a positive number of seconds, at most a day.
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v <= MAX_MOVE_SECONDS => Ok(v),
        _ => Err(format!("'{s}' is not a number of seconds between 0 and {MAX_MOVE_SECONDS} (a day)")),
    }
}

impl EngineArgs {
    /// A new engine as the options choose it.
    pub fn create(&self) -> Box<dyn Engine> {
        engine::create(self.engine, self.seed)
    }

    /// The budget of a move whose clock started at `start`. `allotted` is what a game clock
    /// gives the move; without one, `--time`, else 1 s unless `--nodes` alone limits the search.
    pub fn budget(&self, start: Instant, allotted: Option<Duration>) -> Budget {
        let default = if self.nodes.is_some() { None } else { Some(time::TURN_LIMIT) };
        let limit = allotted.or(self.time.map(Duration::from_secs_f64)).or(default);
        Budget { deadline: limit.map(|limit| time::deadline(start, limit)), nodes: self.nodes }
    }

    /// How the engine thinks, for people: `mcts, 1 s per move`.
    pub fn describe(&self) -> String {
        let mut limits = Vec::new();
        if let Some(seconds) = self.time.or(self.nodes.is_none().then_some(time::TURN_LIMIT.as_secs_f64())) {
            limits.push(format!("{seconds} s"));
        }
        if let Some(nodes) = self.nodes {
            limits.push(format!("{nodes} iterations"));
        }
        format!("{}, {} per move", self.engine.name(), limits.join(" or "))
    }
}

/// `nogo gtp` options.
#[derive(clap::Args, Debug, Clone)]
pub struct GtpArgs {
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
    "nogo-visits",
    "nogo-winrates",
];

/// The analysis views offered to GoGui (`gogui-analyze_commands`).
const ANALYZE_COMMANDS: &str = "gfx/Visits/nogo-visits\ngfx/Win estimate/nogo-winrates";

/// One command line: the optional numeric id, the command name and its arguments.
#[derive(Debug, PartialEq)]
pub struct Command {
    pub id: Option<u64>,
    pub name: String,
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

/// `time_settings`: main time, then Canadian byo-yomi periods of `byo_time` seconds for
/// `byo_stones` moves. Absolute time has no byo-yomi (`byo_time` 0).
#[derive(Clone, Copy, Debug, PartialEq)]
struct TimeSettings {
    main: f64,
    byo_time: f64,
    byo_stones: u32,
}

impl TimeSettings {
    fn has_byo_yomi(&self) -> bool {
        self.byo_time > 0.0 && self.byo_stones > 0
    }

    /// A player's clock at the start of a game.
    fn start(&self) -> Remaining {
        if self.main <= 0.0 && self.has_byo_yomi() {
            Remaining { seconds: self.byo_time, stones: self.byo_stones }
        } else {
            Remaining { seconds: self.main, stones: 0 }
        }
    }
}

/// A player's clock as `time_left` gives it: seconds left, and moves left in the byo-yomi
/// period (0 while in main time).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Remaining {
    seconds: f64,
    stones: u32,
}

/// Own moves still to come in main time, estimated from the empty points: a 9x9 NoGo game
/// ends with a good part of the board still empty, each player filling about a third of it.
fn moves_to_come(empty_points: u32) -> u32 {
    (empty_points / 3).max(8)
}

/// The game clock a GTP controller sets; without `time_settings` or `time_left` the engine
/// thinks for its per-move budget.
#[derive(Clone, Debug, Default)]
struct Clock {
    settings: Option<TimeSettings>,
    left: [Option<Remaining>; 2],
}

impl Clock {
    /// `time_settings`; byo-yomi time with no stones means no time limit (GTP 4.2).
    fn set(&mut self, settings: TimeSettings) {
        let unlimited = settings.byo_time > 0.0 && settings.byo_stones == 0;
        self.settings = (!unlimited).then_some(settings);
        self.restart();
    }

    /// Both clocks back to the start of a game.
    fn restart(&mut self) {
        let start = self.settings.map(|s| s.start());
        self.left = [start, start];
    }

    /// The time to spend on `colour`'s move, if a clock runs.
    fn allot(&self, colour: Color, empty_points: u32) -> Option<Duration> {
        let left = self.left[colour.index()]?;
        let seconds = if left.stones > 0 {
            left.seconds / left.stones as f64
        } else {
            let share = left.seconds / moves_to_come(empty_points) as f64;
            match self.settings.filter(TimeSettings::has_byo_yomi) {
                // Main time ending flows into a full byo-yomi period: its pace is the floor.
                Some(s) => share.max(s.byo_time / s.byo_stones as f64),
                None => share,
            }
        };
        Some(Duration::from_secs_f64(seconds.clamp(0.0, MAX_MOVE_SECONDS)))
    }

    /// Counts `used` against `colour`'s clock, so the allotment stays sound when the
    /// controller sends no `time_left`.
    fn charge(&mut self, colour: Color, used: Duration) {
        let byo = self.settings.filter(TimeSettings::has_byo_yomi);
        let Some(left) = &mut self.left[colour.index()] else { return };
        left.seconds = (left.seconds - used.as_secs_f64()).max(0.0);
        let in_byo_yomi = left.stones > 0;
        if in_byo_yomi {
            left.stones -= 1;
        }
        // Main time used up, or a period's stones all played: a fresh byo-yomi period.
        let period_over = if in_byo_yomi { left.stones == 0 } else { left.seconds == 0.0 };
        if let (true, Some(s)) = (period_over, byo) {
            *left = Remaining { seconds: s.byo_time, stones: s.byo_stones };
        }
    }
}

/// The engine's state between commands.
pub struct Gtp {
    args: EngineArgs,
    engine: Box<dyn Engine>,
    /// The search behind the analysis views, made on first use.
    analysis: Option<Mcts>,
    game: Game,
    clock: Clock,
}

/// Why an argument list does not fit a command.
fn syntax(usage: &str) -> String {
    format!("syntax error: usage {usage}")
}

fn colour_arg(word: &str) -> Result<Color, String> {
    Color::from_gtp(word).ok_or_else(|| format!("syntax error: invalid color '{word}'"))
}

fn points(points: impl Iterator<Item = Point>) -> String {
    points.map(|p| p.to_gtp()).collect::<Vec<_>>().join(" ")
}

impl Gtp {
    pub fn new(args: EngineArgs) -> Gtp {
        Gtp { engine: args.create(), args, analysis: None, game: Game::new(), clock: Clock::default() }
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
            ("boardsize", [size]) => match size.parse::<i64>() {
                Ok(9) => {
                    self.new_game();
                    Ok(String::new())
                }
                Ok(_) => Err("unacceptable size: NoGo is played on 9x9 only".into()),
                Err(_) => Err(syntax("boardsize 9")),
            },
            ("boardsize", _) => Err(syntax("boardsize 9")),
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
                self.clock.left[colour.index()] = Some(remaining);
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
            ("gogui-rules_board_size", _) => Ok("9".into()),
            ("gogui-rules_legal_moves", _) => Ok(points(position.legal_moves().iter())),
            ("gogui-rules_side_to_move", _) => Ok(position.to_move().to_string()),
            ("gogui-rules_board", _) => Ok(self.board_rows()),
            ("gogui-rules_final_result", _) => Ok(match self.game.result() {
                Some(result) => format!("{} wins ({})", result.winner, result.reason),
                None => "unknown".into(),
            }),
            ("gogui-analyze_commands", _) => Ok(ANALYZE_COMMANDS.into()),
            ("nogo-visits", _) => Ok(self.analyse(View::Visits)),
            ("nogo-winrates", _) => Ok(self.analyse(View::WinRates)),
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
        let record = GameRecord::from_sgf(&text).map_err(|e| format!("cannot load file: {e}"))?;
        let keep = number.map_or(record.moves.len(), |n| n.saturating_sub(1).min(record.moves.len()));
        let game =
            Game::from_moves(record.moves[..keep].to_vec()).map_err(|e| format!("cannot load file: {e}"))?;
        self.new_game();
        self.game = game;
        Ok(String::new())
    }

    fn play(&mut self, colour: Color, vertex: &str) -> Result<String, String> {
        if vertex.eq_ignore_ascii_case("pass") {
            return Err("illegal move: NoGo has no pass".into());
        }
        let p = Point::from_gtp(vertex).map_err(|e| format!("syntax error: {e}"))?;
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
        let report = self.engine.think(&position, &self.args.budget(start, allotted));
        self.clock.charge(colour, start.elapsed());
        log_report(&format!("genmove {colour}"), &report);
        self.game.play(report.best).map_err(|e| format!("engine error: it chose {} but {e}", report.best))?;
        Ok(report.best.to_gtp())
    }

    /// The board for `gogui-rules_board`: rows from the top, `X` black, `O` white, `.` empty.
    fn board_rows(&self) -> String {
        let position = self.game.position();
        let mut rows = Vec::new();
        for y in 0..9 {
            let row: Vec<&str> = (0..9)
                .map(|x| match position.stone_at(Point::from_xy(x, y).expect("on board")) {
                    Some(Color::Black) => "X",
                    Some(Color::White) => "O",
                    None => ".",
                })
                .collect();
            rows.push(row.join(" "));
        }
        rows.join("\n")
    }

    /// A GoGui `gfx` reply: a search of the position, shown per point.
    fn analyse(&mut self, view: View) -> String {
        let position = self.game.position().clone();
        if let Some(result) = self.game.result() {
            return format!("TEXT game over: {} wins, {}", result.winner, result.reason);
        }
        let search = self.analysis.get_or_insert_with(|| Mcts::new(Params::default(), self.args.seed));
        let report = search.think(&position, &self.args.budget(Instant::now(), None));
        log_report("analysis", &report);
        let to_move = position.to_move();
        if report.iterations == 0 {
            return format!("LABEL {} win\nTEXT {to_move} wins at once with {}", report.best, report.best);
        }
        let children = search.root_children();
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
    let pv: Vec<String> = report.pv.iter().take(8).map(|p| p.to_gtp()).collect();
    eprintln!(
        "nogo: {what}: {} win {:.0}% iterations {} time {:.2}s pv {}",
        report.best,
        100.0 * report.win_rate,
        report.iterations,
        report.elapsed.as_secs_f64(),
        pv.join(" ")
    );
}

/// Runs the protocol until `quit` or the end of input; the exit code.
pub fn run(args: GtpArgs) -> i32 {
    let mut gtp = Gtp::new(args.engine);
    let mut input = std::io::stdin().lock();
    let mut output = std::io::stdout().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => return 0,
            Ok(_) => {}
            Err(e) => {
                eprintln!("nogo gtp: cannot read the input: {e}");
                return 1;
            }
        }
        let Some(command) = parse_line(&String::from_utf8_lossy(&line)) else { continue };
        let result = gtp.execute(&command.name, &command.args);
        let reply = format_reply(command.id, &result);
        if output.write_all(reply.as_bytes()).and_then(|()| output.flush()).is_err() {
            // The controller has gone: nobody is left to answer.
            return 0;
        }
        if command.name == "quit" {
            return 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn settings(main: f64, byo_time: f64, byo_stones: u32) -> Clock {
        let mut clock = Clock::default();
        clock.set(TimeSettings { main, byo_time, byo_stones });
        clock
    }

    #[test]
    fn clock_allotments() {
        // No time_settings, or byo-yomi time with no stones: no clock.
        assert_eq!(Clock::default().allot(Color::Black, 81), None);
        assert_eq!(settings(0.0, 10.0, 0).allot(Color::Black, 81), None);
        // Absolute time: a share of what is left, never all of it.
        let absolute = settings(60.0, 0.0, 0).allot(Color::Black, 81).unwrap();
        assert_eq!(absolute, Duration::from_secs_f64(60.0 / 27.0));
        assert_eq!(
            settings(60.0, 0.0, 0).allot(Color::White, 3).unwrap(),
            Duration::from_secs_f64(60.0 / 8.0)
        );
        // Byo-yomi only: the period divided by its stones.
        assert_eq!(settings(0.0, 30.0, 10).allot(Color::Black, 81).unwrap(), Duration::from_secs(3));
        // Main time nearly gone, byo-yomi next: the byo-yomi pace.
        let mut clock = settings(1.0, 30.0, 10);
        assert_eq!(clock.allot(Color::Black, 81).unwrap(), Duration::from_secs(3));
        // time_left overrides.
        clock.left[Color::White.index()] = Some(Remaining { seconds: 8.0, stones: 4 });
        assert_eq!(clock.allot(Color::White, 40).unwrap(), Duration::from_secs(2));
        // However much time a controller gives, a move's think is a valid duration.
        let huge = settings(1e300, 0.0, 0).allot(Color::Black, 81).unwrap();
        assert_eq!(huge, Duration::from_secs_f64(MAX_MOVE_SECONDS));
    }

    #[test]
    fn the_clock_is_charged_for_own_moves() {
        let mut clock = settings(10.0, 0.0, 0);
        clock.charge(Color::Black, Duration::from_secs(4));
        assert_eq!(clock.left[0], Some(Remaining { seconds: 6.0, stones: 0 }));
        clock.charge(Color::Black, Duration::from_secs(9));
        assert_eq!(clock.left[0], Some(Remaining { seconds: 0.0, stones: 0 }));
        assert_eq!(clock.left[1], Some(Remaining { seconds: 10.0, stones: 0 }));
        // Main time over: a byo-yomi period starts; a period's last stone starts the next.
        let mut clock = settings(2.0, 30.0, 2);
        clock.charge(Color::White, Duration::from_secs(3));
        assert_eq!(clock.left[1], Some(Remaining { seconds: 30.0, stones: 2 }));
        clock.charge(Color::White, Duration::from_secs(5));
        assert_eq!(clock.left[1], Some(Remaining { seconds: 25.0, stones: 1 }));
        clock.charge(Color::White, Duration::from_secs(5));
        assert_eq!(clock.left[1], Some(Remaining { seconds: 30.0, stones: 2 }));
    }

    #[test]
    fn budget_follows_clock_then_time_then_nodes() {
        let start = Instant::now();
        let args = |time: Option<f64>, nodes: Option<u64>| EngineArgs {
            time,
            nodes,
            seed: 0,
            engine: EngineKind::Mcts,
        };
        let only_nodes = args(None, Some(100)).budget(start, None);
        assert_eq!((only_nodes.deadline, only_nodes.nodes), (None, Some(100)));
        let default = args(None, None).budget(start, None);
        assert_eq!(default.deadline, Some(time::deadline(start, time::TURN_LIMIT)));
        let timed = args(Some(3.0), Some(100)).budget(start, None);
        assert_eq!(
            (timed.deadline, timed.nodes),
            (Some(time::deadline(start, Duration::from_secs(3))), Some(100))
        );
        let clocked = args(Some(3.0), None).budget(start, Some(Duration::from_secs(7)));
        assert_eq!(clocked.deadline, Some(time::deadline(start, Duration::from_secs(7))));
        assert_eq!(args(None, None).describe(), "mcts, 1 s per move");
        assert_eq!(args(Some(0.5), Some(100)).describe(), "mcts, 0.5 s or 100 iterations per move");
    }

    #[test]
    fn every_listed_command_is_answered() {
        let args = EngineArgs { time: None, nodes: Some(50), seed: 0, engine: EngineKind::Mcts };
        let mut gtp = Gtp::new(args);
        for command in COMMANDS {
            if let Err(e) = gtp.execute(command, &[]) {
                assert_ne!(e, "unknown command", "{command}");
            }
        }
        assert_eq!(gtp.execute("no_such_command", &[]), Err("unknown command".into()));
    }

    #[test]
    fn analysis_labels_searched_points_only() {
        let args = EngineArgs { time: None, nodes: Some(2000), seed: 0, engine: EngineKind::Mcts };
        let mut gtp = Gtp::new(args);
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
}
