//! `nogo play` end to end: a person's lines written to the binary's stdin one at a time, the
//! transcript checked after each, moves chosen from the position the transcript describes.

use nogo::protocols::sgf::GameRecord;
use nogo::{Color, PlayError, Point, Position};
use std::io::{BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

/// Prompts end with `): ` ("Your move (black): ", "Game over (undo, ...): ").
const PROMPT_END: &str = "): ";

impl Session {
    /// Starts `nogo play ARGS`; the output up to the first prompt.
    fn start(args: &[&str]) -> (Session, String) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nogo"))
            .arg("play")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            // The pipe alone keeps the output plain, whatever the environment says.
            .env_remove("NO_COLOR")
            .spawn()
            .expect("the binary starts");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut session = Session { child, stdin, stdout };
        let first = session.read_to_prompt();
        (session, first)
    }

    /// Output up to the next prompt (or the end of output), checked to be plain text: stdout
    /// is a pipe, so no colour.
    fn read_to_prompt(&mut self) -> String {
        let mut out = Vec::new();
        let mut byte = [0u8];
        while !out.ends_with(PROMPT_END.as_bytes()) {
            if self.stdout.read(&mut byte).unwrap() == 0 {
                break;
            }
            out.push(byte[0]);
        }
        assert!(!out.contains(&0x1b), "no ANSI escapes into a pipe: {}", String::from_utf8_lossy(&out));
        String::from_utf8(out).unwrap()
    }

    /// Types a line; the output it causes, up to the next prompt.
    fn send(&mut self, line: &str) -> String {
        writeln!(self.stdin.as_mut().unwrap(), "{line}").unwrap();
        self.read_to_prompt()
    }

    /// Closes the input; the rest of the output, after checking a clean exit.
    fn finish(mut self) -> String {
        drop(self.stdin.take());
        let mut rest = String::new();
        self.stdout.read_to_string(&mut rest).unwrap();
        assert!(self.child.wait().unwrap().success());
        rest
    }
}

/// The point in `nogo plays E5 (...` lines.
fn bot_move(output: &str) -> Point {
    let after = output.split("nogo plays ").nth(1).unwrap_or_else(|| panic!("the bot moved: {output}"));
    after.split_whitespace().next().unwrap().parse().unwrap()
}

fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("nogo-play-test-{}-{name}", std::process::id()))
}

/// The board block of a transcript piece: the lines from the first column header to the
/// status line.
fn board_block(output: &str) -> String {
    let start = output.find("   A B C").expect("a board");
    let end = start + output[start..].find(" moves played").expect("a status line");
    output[start..end].to_string()
}

#[test]
fn illegal_moves_hint_undo_and_end_of_input() {
    let (mut s, intro) = Session::start(&["--colour", "black", "--nodes", "300"]);
    assert!(intro.contains("you are black, nogo is white (rave, 300 iterations per move)"), "{intro}");
    assert!(intro.contains("black to move, 0 moves played"));
    assert!(intro.ends_with("Your move (black): "));

    let out = s.send("E5");
    assert!(out.starts_with("E5\n"), "scripted input is echoed: {out}");
    let reply = bot_move(&out);
    assert!(out.contains("300 iterations)\n"), "no time when --nodes alone bounds the search: {out}");
    let mut position = Position::from_moves(["E5".parse().unwrap(), reply]).unwrap();
    assert!(out.contains(&format!("last white {reply}")));
    assert!(out.contains("(O)"), "the last move is marked: {out}");
    let row5 = out.lines().find(|l| l.starts_with("5 ")).unwrap();
    assert_eq!(row5.matches('X').count(), 1, "{row5}");

    assert!(s.send("E5").contains(&format!("Illegal move E5: {}.", PlayError::Occupied)));
    assert!(s.send("9 9").contains("9 9 is off the board"));
    assert!(s.send("I5").contains("'I5' is not a point of the 9x9 board"));
    assert!(s.send("pass").contains("NoGo has no pass"));
    assert!(s.send("dance").contains("Unknown command 'dance'"));
    assert!(s.send("help").contains("hint       the bot's suggestion"));

    let hint = s.send("hint");
    let suggested: Point =
        hint.split("Hint: ").nth(1).unwrap().split_whitespace().next().unwrap().parse().unwrap();
    assert!(position.legal_moves().has(suggested), "{hint}");
    assert!(hint.contains("your win estimate "), "{hint}");
    assert!(hint.contains(&format!("in Botzone coordinates {} {}", suggested.x(), suggested.y())));

    // A move in Botzone coordinates, then undo takes it and the reply back.
    let mine = position.legal_moves().iter().last().unwrap();
    let out = s.send(&format!("{} {}", mine.x(), mine.y()));
    let reply = bot_move(&out);
    position.play(mine).unwrap();
    position.play(reply).unwrap();
    assert!(out.contains("black to move, 4 moves played"), "{out}");
    let out = s.send("undo");
    assert!(out.contains(&format!("Took back {mine} {reply}.")), "{out}");
    assert!(out.contains("black to move, 2 moves played"), "{out}");
    assert!(s.send("undo").contains("black to move, 0 moves played"));
    assert!(s.send("undo").contains("Nothing to undo."));

    assert_eq!(s.finish(), "\n", "end of input ends the game cleanly");
}

#[test]
fn bot_opens_when_the_person_is_white_and_quit_says_bye() {
    let (mut s, intro) = Session::start(&["--color", "w", "--nodes", "200"]);
    let opening = bot_move(&intro);
    assert!(intro.contains("white to move, 1 moves played"), "{intro}");
    assert!(intro.ends_with("Your move (white): "));
    assert!(s.send("undo").contains("Nothing to undo."), "the bot's move alone is not the person's to undo");
    let out = s.send("quit");
    assert!(out.contains("Bye."));
    assert_eq!(s.finish(), "");
    assert!(Position::new().legal_moves().has(opening));
}

/// A random game that black wins: black makes the last move.
fn game_black_wins() -> Vec<Point> {
    (0..)
        .map(|seed| {
            let mut moves = Vec::new();
            nogo::rules::random_game(&mut fastrand::Rng::with_seed(seed), |p| moves.push(p));
            moves
        })
        .find(|moves| moves.len() % 2 == 1)
        .unwrap()
}

fn write_record(name: &str, moves: &[Point]) -> PathBuf {
    let path = temp_file(name);
    let record = GameRecord { moves: moves.to_vec(), ..GameRecord::default() };
    std::fs::write(&path, record.to_sgf()).unwrap();
    path
}

#[test]
fn save_and_load_round_trip() {
    let path = temp_file("round-trip.sgf");
    let (mut s, _) = Session::start(&["--colour", "black", "--nodes", "200", "--seed", "3"]);
    let mut rng = fastrand::Rng::with_seed(11);
    let mut position = Position::new();
    let mut last = String::new();
    for _ in 0..3 {
        let legal = position.legal_moves();
        let mine = legal.choose(&mut rng).unwrap();
        last = s.send(&mine.to_string());
        position.play(mine).unwrap();
        position.play(bot_move(&last)).unwrap();
    }
    let out = s.send(&format!("save {}", path.display()));
    assert!(out.contains(&format!("Saved 6 moves to {}.", path.display())), "{out}");
    assert!(s.send("save").contains("Usage: save FILE"));
    s.send("quit");
    s.finish();

    let record = GameRecord::from_sgf(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(record.position().unwrap(), position);
    assert_eq!((record.black.as_str(), record.white.as_str()), ("you", "nogo (rave)"));
    assert_eq!(record.result, None, "the game goes on");

    let (mut s, _) = Session::start(&["--colour", "black", "--nodes", "200"]);
    let out = s.send(&format!("load {}", path.display()));
    assert!(out.contains(&format!("Loaded 6 moves from {}.", path.display())), "{out}");
    assert_eq!(board_block(&out), board_block(&last), "the loaded board is the saved one");
    // The loaded position is the one played on: its last move is occupied, a free point is not.
    let occupied = record.moves[5];
    assert!(s
        .send(&occupied.to_string())
        .contains(&format!("Illegal move {occupied}: {}", PlayError::Occupied)));
    let free = position.legal_moves().first().unwrap();
    assert!(s.send(&free.to_string()).contains("nogo plays"));

    let missing = temp_file("missing.sgf");
    assert!(s
        .send(&format!("load {}", missing.display()))
        .contains(&format!("Cannot load {}", missing.display())));
    let bad = temp_file("bad.sgf");
    std::fs::write(&bad, "(;SZ[9];B[ee];W[ee])").unwrap();
    let out = s.send(&format!("load {}", bad.display()));
    assert!(out.contains(&format!("W[ee] at move 2: illegal in NoGo: {}", PlayError::Occupied)), "{out}");
    s.finish();
    for file in [path, bad] {
        let _ = std::fs::remove_file(file);
    }
}

#[test]
fn the_person_wins_and_the_end_is_announced() {
    let moves = game_black_wins();
    let path = write_record("person-wins.sgf", &moves[..moves.len() - 1]);
    let (mut s, _) = Session::start(&["--colour", "black", "--nodes", "100"]);
    s.send(&format!("load {}", path.display()));
    let winning = moves[moves.len() - 1];
    let out = s.send(&winning.to_string());
    let verdict = format!("H J\nYou won: nogo (white) has no legal move after {} moves.\n", moves.len());
    assert!(out.contains(&verdict), "the board, then the verdict: {out}");
    assert_eq!(out.matches("no legal move").count(), 1, "the end is announced once: {out}");
    assert!(!out.contains("wins"), "{out}");
    assert!(out.ends_with("Game over (undo, new, save FILE, load FILE, quit): "));
    assert!(s.send("hint").contains("The game is over"));
    assert!(s.send("E5").contains("The game is over: you won."));

    let saved = temp_file("person-wins-saved.sgf");
    s.send(&format!("save {}", saved.display()));
    let record = GameRecord::from_sgf(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    assert_eq!(record.moves, moves);
    assert_eq!(record.result.map(|r| r.winner), Some(Color::Black));

    let out = s.send("undo");
    assert!(out.contains(&format!("Took back {winning}.")), "{out}");
    assert!(out.ends_with("Your move (black): "));
    s.finish();
    let _ = std::fs::remove_file(path);
    let _ = std::fs::remove_file(saved);
}

#[test]
fn the_bot_wins_and_the_end_is_announced() {
    let moves = game_black_wins();
    let path = write_record("bot-wins.sgf", &moves[..moves.len() - 1]);
    let (mut s, _) = Session::start(&["--colour", "white", "--nodes", "100"]);
    // Loading a position with black (the bot) to move: it plays the win at once.
    let out = s.send(&format!("load {}", path.display()));
    let win = bot_move(&out);
    let mut position = Position::from_moves(moves[..moves.len() - 1].iter().copied()).unwrap();
    position.play(win).unwrap();
    assert!(position.is_terminal());
    let verdict = format!("You lost: you (white) have no legal move after {} moves.", moves.len());
    assert!(out.contains(&verdict), "{out}");
    assert_eq!(out.matches("no legal move").count(), 1, "the end is announced once: {out}");
    assert!(s.send("board").contains(&verdict), "the board at the end comes with the verdict");
    assert!(s.send("E5").contains("The game is over: nogo won."));
    let out = s.send("new");
    assert!(out.contains("New game."));
    bot_move(&out);
    s.finish();
    let _ = std::fs::remove_file(path);
}
