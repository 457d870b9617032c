//! `nogo play`: a person plays the bot in the terminal.
//!
//! Lines are read from stdin, so a game can be scripted (`nogo play < moves.txt`); when stdin
//! is not a terminal each line read is echoed after its prompt, so the transcript reads like a
//! session. End of input ends the program cleanly.

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

/// Runs a game on stdin and stdout; the exit code.
pub fn run(args: PlayArgs) -> i32 {
    let stdin = io::stdin();
    let interactive = stdin.is_terminal();
    let result = play(args, &mut stdin.lock(), &mut io::stdout().lock(), interactive);
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
    args: EngineArgs,
    engine: Box<dyn Engine>,
    game: Game,
    person: Color,
}

/// Plays a game reading `input` and writing `out`; asks what the options leave open when
/// `interactive`.
pub fn play<R: BufRead, W: Write>(
    args: PlayArgs,
    input: &mut R,
    out: &mut W,
    interactive: bool,
) -> io::Result<()> {
    let mut session = Session {
        input,
        out,
        echo: !interactive,
        engine: args.engine.create(),
        args: args.engine,
        game: Game::new(),
        person: args.colour.unwrap_or(Color::Black),
    };
    if interactive && !session.ask_settings(args.colour.is_none())? {
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

    fn show_board(&mut self) -> io::Result<()> {
        writeln!(self.out, "{}", self.game.diagram())
    }

    /// Announces the end of the game, if it is over.
    fn announce_result(&mut self) -> io::Result<()> {
        if let Some(result) = self.game.result() {
            let verdict = if result.winner == self.person { "You win!" } else { "nogo wins." };
            writeln!(self.out, "Game over: {} wins, {}. {verdict}", result.winner, result.reason)?;
        }
        Ok(())
    }

    fn bot_move(&mut self) -> io::Result<()> {
        let position = self.game.position().clone();
        let report = self.engine.think(&position, &self.args.move_budget(Instant::now()));
        if let Err(e) = self.game.play(report.best) {
            // The engines promise legal moves; should one break it, say so rather than crash.
            writeln!(self.out, "nogo chose the illegal move {}: {e}. Please report this.", report.best)?;
            return Ok(());
        }
        writeln!(
            self.out,
            "nogo plays {} (its win estimate {:.0}%, {} iterations in {:.2} s)",
            report.best,
            100.0 * report.win_rate,
            report.iterations,
            report.elapsed.as_secs_f64()
        )?;
        self.show_board()?;
        self.announce_result()
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
            return writeln!(self.out, "The game is over: {} won. Type new to play again.", result.winner);
        }
        match self.game.play(p) {
            Err(e) => writeln!(self.out, "Illegal move {p}: {e}."),
            Ok(()) if self.game.result().is_some() => {
                self.show_board()?;
                self.announce_result()
            }
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
            report.best,
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
                self.show_board()?;
                self.announce_result()
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
            },
        };
        let mut input: &[u8] = b"purple\nw\nsoon\n1e300\n0.02\nquit\n";
        let mut out = Vec::new();
        play(args, &mut input, &mut out, true).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("Please answer black or white"), "{out}");
        assert_eq!(out.matches("is not a number of seconds").count(), 2, "{out}");
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
            },
        };
        let mut input: &[u8] = b"\n";
        let mut out = Vec::new();
        play(args.clone(), &mut input, &mut out, true).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("you are black, nogo is white (random, 10 iterations per move)"), "{out}");
        assert!(!out.contains("thinking time"), "--nodes settles the budget: {out}");
        let mut nothing: &[u8] = b"";
        let mut out = Vec::new();
        play(args, &mut nothing, &mut out, true).unwrap();
        assert!(!String::from_utf8(out).unwrap().contains("NoGo 9x9"), "no input, no game");
    }
}
