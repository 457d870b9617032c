//! `nogo play`: a person plays the bot in the terminal.
//!
//! Lines are read from stdin, so a game can be scripted (`nogo play < moves.txt`); when stdin
//! is not a terminal each line read is echoed after its prompt, so the transcript reads like a
//! session. End of input ends the program cleanly. The board is drawn in colour (ANSI) only
//! when stdout is a terminal and `NO_COLOR` is not set, so piped transcripts are plain text.

use crate::engines::{parse_seconds, EngineArgs};
use crate::protocols::sgf::GameRecord;
use crate::rules::{Color, Game, Point};
use crate::search::engine::Engine;
use std::io::{self, BufRead, IsTerminal, Write};
use std::time::Instant;

/// `nogo play` options.
#[derive(clap::Args, Debug, Clone)]
pub struct PlayArgs {
    /// Your colour (black moves first); asked when omitted at a terminal, else black.
    #[arg(long, alias = "color", value_parser = parse_colour)]
    pub colour: Option<Color>,
    /// The engine and its limits.
    #[command(flatten)]
    pub engine: EngineArgs,
}

fn parse_colour(s: &str) -> Result<Color, String> {
    Color::from_gtp(s).ok_or_else(|| format!("'{s}' is not a colour: black or white"))
}

const HELP: &str = "\
Moves: a point as in GTP, column letter and row number (E5, c3; there is no I column),
       or Botzone's `x y`, column and row counted from 0 at the top-left (4 4 is E5).
Commands:
  undo       take back your last move and the bot's reply
  hint       the bot's suggestion for you, with its win estimate
  board      draw the board again
  save FILE  write the game as SGF
  load FILE  continue from an SGF game (you keep your colour)
  new        start again
  quit       leave (end of input does too)
  help       this text";

/// What the terminal allows.
#[derive(Clone, Copy, Debug)]
pub struct Terminal {
    /// Input is typed by a person: ask what the options leave open, and do not echo.
    pub interactive: bool,
    /// Output shows ANSI colours.
    pub colour: bool,
}

/// ANSI styles: black's stones, white's, empty points, the last move (added to its stone's),
/// the hint, a win and a loss.
const BLACK_STYLE: &str = "1;33";
const WHITE_STYLE: &str = "1;36";
const EMPTY_STYLE: &str = "2";
const LAST_MOVE_STYLE: &str = "7";
const HINT_STYLE: &str = "1;32";
const WIN_STYLE: &str = "1;32";
const LOSS_STYLE: &str = "1;31";

/// Whether output in colour is wanted: stdout is a terminal and `NO_COLOR` is unset or empty
/// (<https://no-color.org>).
fn colour_wanted(stdout_is_terminal: bool, no_color: Option<std::ffi::OsString>) -> bool {
    stdout_is_terminal && no_color.is_none_or(|value| value.is_empty())
}

/// Runs a game on stdin and stdout; the exit code.
pub fn run(args: PlayArgs) -> i32 {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let terminal = Terminal {
        interactive: stdin.is_terminal(),
        colour: colour_wanted(stdout.is_terminal(), std::env::var_os("NO_COLOR")),
    };
    let args = PlayArgs { engine: args.engine.on_every_core(), ..args };
    let result = play(args, &mut stdin.lock(), &mut stdout.lock(), terminal);
    match result {
        Ok(()) => 0,
        // stdout closed under us (`nogo play | head`): nothing more can be shown.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("nogo play: {e}");
            1
        }
    }
}

/// What to do after a line of input.
enum Next {
    Continue,
    Quit,
}

struct Session<'a, R: BufRead, W: Write> {
    input: &'a mut R,
    out: &'a mut W,
    /// Echo input lines after their prompt (input is not a terminal, so it did not show).
    echo: bool,
    /// Draw in ANSI colours.
    colour: bool,
    args: EngineArgs,
    engine: Box<dyn Engine>,
    game: Game,
    person: Color,
}

/// Plays a game reading `input` and writing `out`, as `terminal` allows.
pub fn play<R: BufRead, W: Write>(
    args: PlayArgs,
    input: &mut R,
    out: &mut W,
    terminal: Terminal,
) -> io::Result<()> {
    let mut session = Session {
        input,
        out,
        echo: !terminal.interactive,
        colour: terminal.colour,
        engine: args.engine.create_player(),
        args: args.engine,
        game: Game::new(),
        person: args.colour.unwrap_or(Color::Black),
    };
    if terminal.interactive && !session.ask_settings(args.colour.is_none())? {
        return Ok(());
    }
    writeln!(
        session.out,
        "NoGo 9x9: you are {}, nogo is {} ({}).\n\
         Rules: no captures and no suicide; whoever cannot move loses. Type help for the commands.",
        session.person,
        !session.person,
        session.args.describe()
    )?;
    session.show_board()?;
    loop {
        if session.bot_to_move() {
            session.bot_move()?;
        }
        let prompt = match session.game.result() {
            Some(_) => "Game over (undo, new, save FILE, load FILE, quit): ".to_string(),
            None => format!("Your move ({}): ", session.person),
        };
        let Some(line) = session.read_line(&prompt)? else {
            writeln!(session.out)?;
            return Ok(());
        };
        if let Next::Quit = session.handle(&line)? {
            return Ok(());
        }
    }
}

impl<R: BufRead, W: Write> Session<'_, R, W> {
    /// Shows `prompt` and reads a line; `None` at the end of input.
    fn read_line(&mut self, prompt: &str) -> io::Result<Option<String>> {
        write!(self.out, "{prompt}")?;
        self.out.flush()?;
        let mut bytes = Vec::new();
        if self.input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(None);
        }
        let line = String::from_utf8_lossy(&bytes).trim().to_string();
        if self.echo {
            writeln!(self.out, "{line}")?;
        }
        Ok(Some(line))
    }

    /// Asks for the colour (when `colour` is open) and the thinking time (when neither
    /// `--time` nor `--nodes` was given); false when the input ended.
    fn ask_settings(&mut self, colour: bool) -> io::Result<bool> {
        if colour {
            loop {
                let Some(answer) = self.read_line("Play black (moves first) or white? [black] ")? else {
                    return Ok(false);
                };
                if answer.is_empty() {
                    break;
                }
                match Color::from_gtp(&answer) {
                    Some(c) => {
                        self.person = c;
                        break;
                    }
                    None => writeln!(self.out, "Please answer black or white (b or w).")?,
                }
            }
        }
        while self.args.time.is_none() && self.args.nodes.is_none() {
            let Some(answer) = self.read_line("Bot's thinking time per move in seconds? [1] ")? else {
                return Ok(false);
            };
            if answer.is_empty() {
                break;
            }
            match parse_seconds(&answer) {
                Ok(seconds) => self.args.time = Some(seconds),
                Err(e) => writeln!(self.out, "{e}; for example 0.5 or 3.")?,
            }
        }
        Ok(true)
    }

    fn bot_to_move(&self) -> bool {
        self.game.result().is_none() && self.game.position().to_move() != self.person
    }

    /// `text` in the ANSI `style` when drawing in colour, else as it is.
    fn paint(&self, style: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{style}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// Draws the board with the side to move, or, once the game is over, with who won: the
    /// one announcement of the end.
    fn show_board(&mut self) -> io::Result<()> {
        let Some(result) = self.game.result() else {
            let diagram = self.paint_board(&self.game.diagram());
            return writeln!(self.out, "{diagram}");
        };
        let board = self.paint_board(&self.game.position().diagram(self.game.last_move()));
        let moves = self.game.moves().len();
        let loser = !result.winner;
        let verdict = if result.winner == self.person {
            self.paint(WIN_STYLE, &format!("You won: nogo ({loser}) has no legal move after {moves} moves."))
        } else {
            self.paint(
                LOSS_STYLE,
                &format!("You lost: you ({loser}) have no legal move after {moves} moves."),
            )
        };
        writeln!(self.out, "{board}\n{verdict}")
    }

    /// A diagram with its stones, empty points and last move painted (as it is without colour).
    fn paint_board(&self, diagram: &str) -> String {
        if !self.colour {
            return diagram.to_string();
        }
        let mut painted = String::with_capacity(diagram.len() * 4);
        for line in diagram.split_inclusive('\n') {
            // Only the rows, which start with their number, hold points.
            if !line.starts_with(|c: char| c.is_ascii_digit()) {
                painted += line;
                continue;
            }
            let mut last_move = false;
            for c in line.chars() {
                let style = match c {
                    'X' => BLACK_STYLE,
                    'O' => WHITE_STYLE,
                    '.' => EMPTY_STYLE,
                    _ => {
                        // The last move's stone is the one after the opening parenthesis.
                        last_move = c == '(';
                        painted.push(c);
                        continue;
                    }
                };
                let style = if last_move { format!("{style};{LAST_MOVE_STYLE}") } else { style.to_string() };
                painted += &self.paint(&style, &c.to_string());
            }
        }
        painted
    }

    fn bot_move(&mut self) -> io::Result<()> {
        let position = self.game.position().clone();
        let budget = self.args.move_budget(Instant::now());
        let report = self.engine.think(&position, &budget);
        if let Err(e) = self.game.play(report.best) {
            // The engines promise legal moves; should one break it, say so rather than crash.
            writeln!(self.out, "nogo chose the illegal move {}: {e}. Please report this.", report.best)?;
            return Ok(());
        }
        // Without a deadline (--nodes alone) the time says nothing of the search and would
        // make transcripts differ from run to run.
        let took = match budget.deadline {
            Some(_) => format!(" in {:.2} s", report.elapsed.as_secs_f64()),
            None => String::new(),
        };
        writeln!(
            self.out,
            "nogo plays {} (its win estimate {:.0}%, {} iterations{took})",
            report.best,
            100.0 * report.win_rate,
            report.iterations,
        )?;
        self.show_board()
    }

    fn handle(&mut self, line: &str) -> io::Result<Next> {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else { return Ok(Next::Continue) };
        let rest = line[first.len()..].trim();
        match first.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => {
                writeln!(self.out, "Bye.")?;
                return Ok(Next::Quit);
            }
            "help" | "?" => writeln!(self.out, "{HELP}")?,
            "board" => self.show_board()?,
            "new" => {
                self.game = Game::new();
                self.engine.new_game();
                writeln!(self.out, "New game.")?;
                self.show_board()?;
            }
            "undo" => self.undo()?,
            "hint" => self.hint()?,
            "save" if !rest.is_empty() => self.save(rest)?,
            "load" if !rest.is_empty() => self.load(rest)?,
            "save" | "load" => writeln!(self.out, "Usage: {first} FILE")?,
            "pass" => writeln!(self.out, "NoGo has no pass: choose a point (type help for how).")?,
            _ => match parse_move(line) {
                Some(Ok(p)) => self.person_move(p)?,
                Some(Err(message)) => writeln!(self.out, "{message}")?,
                None => writeln!(self.out, "Unknown command '{line}'. Type help for the commands.")?,
            },
        }
        Ok(Next::Continue)
    }

    fn person_move(&mut self, p: Point) -> io::Result<()> {
        if let Some(result) = self.game.result() {
            let who = if result.winner == self.person { "you" } else { "nogo" };
            return writeln!(self.out, "The game is over: {who} won. Type new to play again.");
        }
        match self.game.play(p) {
            Err(e) => writeln!(self.out, "Illegal move {p}: {e}."),
            // The bot has no reply to show the board with: show the end here.
            Ok(()) if self.game.result().is_some() => self.show_board(),
            Ok(()) => Ok(()),
        }
    }

    /// Takes back moves up to and including the person's last one, so it is their turn again.
    fn undo(&mut self) -> io::Result<()> {
        let person_moved = (0..self.game.moves().len()).any(|i| self.game.colour_of_move(i) == self.person);
        if !person_moved {
            return writeln!(self.out, "Nothing to undo.");
        }
        let mut taken = Vec::new();
        while let Some(p) = self.game.undo() {
            taken.push(p);
            if self.game.colour_of_move(self.game.moves().len()) == self.person {
                break;
            }
        }
        let taken: Vec<String> = taken.iter().rev().map(|p| p.to_string()).collect();
        writeln!(self.out, "Took back {}.", taken.join(" "))?;
        self.show_board()
    }

    fn hint(&mut self) -> io::Result<()> {
        if self.game.result().is_some() {
            return writeln!(self.out, "The game is over: no hint needed.");
        }
        let report = self.engine.think(self.game.position(), &self.args.move_budget(Instant::now()));
        writeln!(
            self.out,
            "Hint: {} (your win estimate {:.0}%; in Botzone coordinates {} {})",
            self.paint(HINT_STYLE, &report.best.to_string()),
            100.0 * report.win_rate,
            report.best.x(),
            report.best.y()
        )
    }

    fn save(&mut self, file: &str) -> io::Result<()> {
        let bot = format!("nogo ({})", self.engine.name());
        let (black, white) =
            if self.person == Color::Black { ("you", bot.as_str()) } else { (bot.as_str(), "you") };
        let text = GameRecord::from_game(&self.game, black, white).to_sgf();
        match std::fs::write(file, text) {
            Ok(()) => writeln!(self.out, "Saved {} moves to {file}.", self.game.moves().len()),
            Err(e) => writeln!(self.out, "Cannot save to {file}: {e}."),
        }
    }

    fn load(&mut self, file: &str) -> io::Result<()> {
        let record = match std::fs::read_to_string(file) {
            Ok(text) => GameRecord::from_sgf(&text).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        let game = record.and_then(|record| record.game().map_err(|e| e.to_string()));
        match game {
            Ok(game) => {
                self.game = game;
                self.engine.new_game();
                writeln!(self.out, "Loaded {} moves from {file}.", self.game.moves().len())?;
                self.show_board()
            }
            Err(e) => writeln!(self.out, "Cannot load {file}: {e}."),
        }
    }
}

/// A move typed as a GTP point (`E5`) or as Botzone's `x y`; `None` when the line is neither,
/// `Some(Err)` for a point off the board.
fn parse_move(line: &str) -> Option<Result<Point, String>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        [x, y] => {
            let (x, y) = (x.parse::<i64>().ok()?, y.parse::<i64>().ok()?);
            Some(
                Point::from_botzone(x, y).ok_or(format!("{x} {y} is off the board: x and y go from 0 to 8.")),
            )
        }
        [word] => {
            let starts_like_a_point = word.starts_with(|c: char| c.is_ascii_alphabetic())
                && word.len() <= 3
                && word[1..].chars().all(|c| c.is_ascii_digit())
                && word.len() >= 2;
            starts_like_a_point
                .then(|| word.parse::<Point>().map_err(|e| format!("{e}: columns A-J (no I), rows 1-9.")))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::{EngineKind, SearchSettings};

    const AT_A_TERMINAL: Terminal = Terminal { interactive: true, colour: false };

    #[test]
    fn moves_in_both_notations() {
        let e5 = Point::from_xy(4, 4).unwrap();
        assert_eq!(parse_move("E5"), Some(Ok(e5)));
        assert_eq!(parse_move("e5"), Some(Ok(e5)));
        assert_eq!(parse_move("4 4"), Some(Ok(e5)));
        assert_eq!(parse_move(" 0  8 "), Some(Ok("A1".parse::<Point>().unwrap())));
        assert!(matches!(parse_move("9 0"), Some(Err(_))));
        assert!(matches!(parse_move("-1 -1"), Some(Err(_))));
        assert!(matches!(parse_move("I5"), Some(Err(_))));
        assert!(matches!(parse_move("A10"), Some(Err(_))));
        assert_eq!(parse_move("hello"), None);
        assert_eq!(parse_move("a b"), None);
    }

    #[test]
    fn at_a_terminal_colour_and_time_are_asked() {
        let args = PlayArgs {
            colour: None,
            engine: EngineArgs {
                time: None,
                nodes: None,
                seed: 0,
                engine: EngineKind::Mcts,
                search: SearchSettings::default(),
                book: false,
                threads: None,
                memory_mb: None,
            },
        };
        let mut input: &[u8] = b"purple\nw\nsoon\n1e300\n0.02\nquit\n";
        let mut out = Vec::new();
        play(args, &mut input, &mut out, AT_A_TERMINAL).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("Please answer black or white"), "{out}");
        assert!(out.contains("'soon' is not a number of seconds above 0 and at most 86400"), "{out}");
        assert!(out.contains("'1e300' is not a number of seconds"), "{out}");
        assert!(out.contains("you are white, nogo is black (mcts, 0.02 s per move)"), "{out}");
        assert!(out.contains("nogo plays "), "the bot opens for black: {out}");
        assert!(!out.contains("purple\n"), "a terminal shows what is typed: no echo");
        assert!(out.ends_with("Bye.\n"));
    }

    #[test]
    fn at_a_terminal_enter_takes_the_defaults_and_end_of_input_stops() {
        let args = PlayArgs {
            colour: None,
            engine: EngineArgs {
                time: None,
                nodes: Some(10),
                seed: 0,
                engine: EngineKind::Random,
                search: SearchSettings::default(),
                book: false,
                threads: None,
                memory_mb: None,
            },
        };
        let mut input: &[u8] = b"\n";
        let mut out = Vec::new();
        play(args.clone(), &mut input, &mut out, AT_A_TERMINAL).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("you are black, nogo is white (random, 10 iterations per move)"), "{out}");
        assert!(!out.contains("thinking time"), "--nodes settles the budget: {out}");
        let mut nothing: &[u8] = b"";
        let mut out = Vec::new();
        play(args, &mut nothing, &mut out, AT_A_TERMINAL).unwrap();
        assert!(!String::from_utf8(out).unwrap().contains("NoGo 9x9"), "no input, no game");
    }

    #[test]
    fn colour_needs_a_terminal_and_no_no_color() {
        assert!(colour_wanted(true, None));
        assert!(colour_wanted(true, Some("".into())), "an empty NO_COLOR counts as unset");
        assert!(!colour_wanted(true, Some("1".into())));
        assert!(!colour_wanted(false, None));
    }

    /// `text` without its ANSI styles.
    fn without_styles(text: &str) -> String {
        let mut plain = String::new();
        let mut rest = text;
        while let Some(at) = rest.find("\x1b[") {
            plain += &rest[..at];
            rest = &rest[at..][rest[at..].find('m').unwrap() + 1..];
        }
        plain + rest
    }

    #[test]
    fn colour_paints_stones_and_the_last_move_and_changes_no_text() {
        let args = PlayArgs {
            colour: Some(Color::Black),
            engine: EngineArgs {
                time: None,
                nodes: Some(10),
                seed: 4,
                engine: EngineKind::Random,
                search: SearchSettings::default(),
                book: false,
                threads: None,
                memory_mb: None,
            },
        };
        let transcript = |colour: bool| {
            let mut input: &[u8] = b"E5\nhint\nquit\n";
            let mut out = Vec::new();
            play(args.clone(), &mut input, &mut out, Terminal { interactive: false, colour }).unwrap();
            String::from_utf8(out).unwrap()
        };
        let (plain, painted) = (transcript(false), transcript(true));
        assert!(!plain.contains('\x1b'), "{plain}");
        assert_eq!(without_styles(&painted), plain);
        let row5 = painted.lines().filter(|l| l.starts_with("5 ")).nth(1).unwrap();
        assert!(row5.contains("\x1b[1;33mX\x1b[0m"), "black's E5: {row5}");
        assert_eq!(painted.matches(";7mO").count(), 1, "white's reply is the last move: {painted}");
        assert!(painted.contains("Hint: \x1b[1;32m"), "{painted}");
    }
}
