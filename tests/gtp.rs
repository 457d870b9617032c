//! `nogo gtp` end to end: scripted sessions through the binary, every reply checked, and the
//! rules commands compared with an independent flood-fill reference on random games.

use nogo::{PlayError, Point};
use std::collections::BTreeSet;
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `nogo gtp` with `args` on `script`; its stdout, after checking it exited cleanly.
fn run_gtp(args: &[&str], script: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nogo"))
        .arg("gtp")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().unwrap();
    let script = script.to_string();
    // Write from a thread: a long script's replies would otherwise fill the pipe and block.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(script.as_bytes());
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "exit {:?}, stderr {stderr}", output.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
    String::from_utf8(output.stdout).unwrap()
}

/// One reply: its id and its text, `Ok` for `=` and `Err` for `?`.
#[derive(Debug, PartialEq)]
struct Reply {
    id: Option<u64>,
    result: Result<String, String>,
}

/// Splits the output into replies, checking each is `=id text` or `?id text` and ends with an
/// empty line.
fn replies(output: &str) -> Vec<Reply> {
    assert!(output.is_empty() || output.ends_with("\n\n"), "output ends with an empty line: {output:?}");
    output
        .split_terminator("\n\n")
        .map(|block| {
            let ok = match block.chars().next() {
                Some('=') => true,
                Some('?') => false,
                _ => panic!("a reply starts with = or ?: {block:?}"),
            };
            let rest = &block[1..];
            let digits = rest.chars().take_while(char::is_ascii_digit).count();
            let id = (digits > 0).then(|| rest[..digits].parse().unwrap());
            let text = &rest[digits..];
            assert!(text.is_empty() || text.starts_with([' ', '\n']), "id and text are separated: {block:?}");
            let text = text.strip_prefix(' ').unwrap_or(text).to_string();
            Reply { id, result: if ok { Ok(text) } else { Err(text) } }
        })
        .collect()
}

fn points(text: &str) -> BTreeSet<Point> {
    text.split_whitespace().map(|w| w.parse().unwrap_or_else(|e| panic!("{e}"))).collect()
}

/// What a scripted command must answer.
enum Expect {
    Ok(&'static str),
    Err(String),
    /// An error reply starting with this text (the rest is the system's message).
    ErrStartingWith(&'static str),
    /// Checked by the test after the session.
    Later,
}

#[test]
fn scripted_session_every_reply() {
    let capture = PlayError::Capture.to_string();
    let suicide = PlayError::Suicide.to_string();
    let dir = std::env::temp_dir();
    let sgf = dir.join(format!("nogo-gtp-test-{}.sgf", std::process::id()));
    std::fs::write(&sgf, "(;GM[1]SZ[9];B[ee];W[cc];B[gg])").unwrap();
    let bad_sgf = dir.join(format!("nogo-gtp-test-{}-bad.sgf", std::process::id()));
    std::fs::write(&bad_sgf, "(;SZ[9];B[ee];W[ee])").unwrap();
    let missing = dir.join(format!("nogo-gtp-test-{}-missing.sgf", std::process::id()));
    let load_two = format!("loadsgf {} 3", sgf.display());
    let load_all = format!("loadsgf {}", sgf.display());
    let load_bad = format!("loadsgf {}", bad_sgf.display());
    let load_missing = format!("loadsgf {}", missing.display());
    let script: Vec<(&str, Expect)> = vec![
        ("protocol_version", Expect::Ok("2")),
        ("name", Expect::Ok("nogo")),
        ("version", Expect::Ok(env!("CARGO_PKG_VERSION"))),
        ("known_command genmove", Expect::Ok("true")),
        ("known_command gogui-rules_legal_moves", Expect::Ok("true")),
        ("known_command frobnicate", Expect::Ok("false")),
        ("list_commands", Expect::Later),
        ("boardsize 19", Expect::Err("unacceptable size: NoGo is played on 9x9 only".into())),
        ("boardsize nine", Expect::Err("syntax error: usage boardsize 9".into())),
        ("boardsize 9", Expect::Ok("")),
        ("clear_board", Expect::Ok("")),
        ("komi 6.5", Expect::Ok("")),
        ("komi lots", Expect::Err("syntax error: usage komi NUMBER".into())),
        ("gogui-rules_game_id", Expect::Ok("NoGo")),
        ("gogui-rules_board_size", Expect::Ok("9")),
        ("gogui-rules_side_to_move", Expect::Ok("black")),
        ("gogui-rules_final_result", Expect::Ok("unknown")),
        ("final_score", Expect::Err("cannot score: the game is not over".into())),
        ("undo", Expect::Err("cannot undo".into())),
        // White's A9 is a suicide once black holds B9 and A8.
        ("play b B9", Expect::Ok("")),
        ("play b J1", Expect::Err("illegal move: it is white's turn".into())),
        ("play w B9", Expect::Err(format!("illegal move: {}", PlayError::Occupied))),
        ("play w pass", Expect::Err("illegal move: NoGo has no pass".into())),
        ("play w Z9", Expect::Err("syntax error: 'Z9' is not a point of the 9x9 board".into())),
        ("play w I5", Expect::Err("syntax error: 'I5' is not a point of the 9x9 board".into())),
        ("play purple A1", Expect::Err("syntax error: invalid color 'purple'".into())),
        ("play w", Expect::Err("syntax error: usage play COLOR VERTEX".into())),
        ("play white j1", Expect::Ok("")),
        ("play B A8", Expect::Ok("")),
        ("play w A9", Expect::Err(format!("illegal move: {suicide}"))),
        ("legal_moves white", Expect::Later),
        ("legal_moves b", Expect::Later),
        ("gogui-rules_legal_moves", Expect::Later),
        (
            "gogui-rules_board",
            Expect::Ok(concat!(
                ". X . . . . . . .\n",
                "X . . . . . . . .\n",
                ". . . . . . . . .\n",
                ". . . . . . . . .\n",
                ". . . . . . . . .\n",
                ". . . . . . . . .\n",
                ". . . . . . . . .\n",
                ". . . . . . . . .\n",
                ". . . . . . . . O",
            )),
        ),
        // Black's A9 would now capture nothing, but white at B8 then A9... start afresh for a
        // capture: black A9, white B9, black J1; white A8 takes black's last liberty.
        ("clear_board", Expect::Ok("")),
        ("play b A9", Expect::Ok("")),
        ("play w B9", Expect::Ok("")),
        ("play b J1", Expect::Ok("")),
        ("play w A8", Expect::Err(format!("illegal move: {capture}"))),
        ("genmove b", Expect::Err("it is white's turn: NoGo has no pass, so black cannot move".into())),
        ("genmove", Expect::Err("syntax error: usage genmove COLOR".into())),
        ("genmove w", Expect::Later),
        ("gogui-rules_side_to_move", Expect::Ok("black")),
        ("showboard", Expect::Later),
        ("undo", Expect::Ok("")),
        ("gogui-rules_side_to_move", Expect::Ok("white")),
        ("time_settings 30 0 0", Expect::Ok("")),
        ("time_left w 10 0", Expect::Ok("")),
        ("time_settings 30 soon 0", Expect::Err("syntax error: 'soon' is not a number of seconds".into())),
        (
            "time_settings 30",
            Expect::Err("syntax error: usage time_settings MAIN BYO_TIME BYO_STONES".into()),
        ),
        ("time_left green 10 0", Expect::Err("syntax error: invalid color 'green'".into())),
        ("time_left w -1 0", Expect::Err("syntax error: '-1' is not a number of seconds".into())),
        ("genmove white", Expect::Later),
        (
            "gogui-analyze_commands",
            Expect::Ok(
                "gfx/Visits/nogo-visits\ngfx/Win estimate/nogo-winrates\nparam/Search parameters/nogo-param",
            ),
        ),
        ("nogo-param", Expect::Ok("[string] threads 1")),
        ("nogo-param threads 2", Expect::Ok("")),
        ("nogo-param threads 0", Expect::Err("'0' is not a number of threads from 1 to 256".into())),
        ("nogo-visits", Expect::Later),
        ("nogo-winrates", Expect::Later),
        ("undo", Expect::Ok("")),
        ("undo", Expect::Ok("")),
        ("undo", Expect::Ok("")),
        ("undo", Expect::Ok("")),
        ("undo", Expect::Err("cannot undo".into())),
        // loadsgf FILE N: the position before move N.
        (&load_two, Expect::Ok("")),
        ("gogui-rules_side_to_move", Expect::Ok("black")),
        ("undo", Expect::Ok("")),
        ("undo", Expect::Ok("")),
        ("undo", Expect::Err("cannot undo".into())),
        (&load_all, Expect::Ok("")),
        ("gogui-rules_side_to_move", Expect::Ok("white")),
        (
            &load_bad,
            Expect::Err(format!(
                "cannot load file: W[ee] at move 2: illegal in NoGo: {}",
                PlayError::Occupied
            )),
        ),
        (&load_missing, Expect::ErrStartingWith("cannot load file: ")),
        ("loadsgf", Expect::Err("syntax error: usage loadsgf FILE [MOVE_NUMBER]".into())),
        ("gogui-rules_side_to_move", Expect::Ok("white")),
        ("frobnicate", Expect::Err("unknown command".into())),
    ];
    let mut text = String::new();
    for (i, (command, _)) in script.iter().enumerate() {
        text.push_str(&format!("{} {command}\n", i + 1));
        if i == 3 {
            // Comments, blank lines, tabs and control characters are handled as the spec says.
            text.push_str("# a comment line\n\n   \n\tname\x01 # trailing comment\n");
        }
    }
    text.push_str("9999 quit\nname\n");
    let replies = replies(&run_gtp(&["--nodes", "300"], &text));
    assert_eq!(replies.len(), script.len() + 2, "one reply per command; none after quit");
    let mut replies = replies.into_iter();
    let mut by_id = std::collections::HashMap::new();
    for (i, (command, expect)) in script.iter().enumerate() {
        let reply = replies.next().unwrap();
        assert_eq!(reply.id, Some(i as u64 + 1), "{command}");
        match expect {
            Expect::Ok(text) => assert_eq!(reply.result, Ok(text.to_string()), "{command}"),
            Expect::Err(text) => assert_eq!(reply.result, Err(text.clone()), "{command}"),
            Expect::ErrStartingWith(text) => {
                assert!(
                    reply.result.as_ref().is_err_and(|e| e.starts_with(text)),
                    "{command}: {:?}",
                    reply.result
                )
            }
            Expect::Later => {
                assert!(reply.result.is_ok(), "{command}: {:?}", reply.result);
            }
        }
        by_id.insert(*command, reply.result.clone().unwrap_or_default());
        if i == 3 {
            assert_eq!(replies.next().unwrap(), Reply { id: None, result: Ok("nogo".into()) });
        }
    }
    assert_eq!(replies.next().unwrap(), Reply { id: Some(9999), result: Ok(String::new()) });
    for file in [sgf, bad_sgf] {
        let _ = std::fs::remove_file(file);
    }

    let listed: BTreeSet<&str> = by_id["list_commands"].lines().collect();
    for required in [
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
        "legal_moves",
        "gogui-rules_game_id",
        "gogui-rules_board_size",
        "gogui-rules_legal_moves",
        "gogui-rules_side_to_move",
        "gogui-rules_board",
        "gogui-rules_final_result",
        "gogui-analyze_commands",
        "nogo-visits",
    ] {
        assert!(listed.contains(required), "list_commands has {required}");
    }

    // After black B9, white J1, black A8: white may not play A9 (suicide); black may.
    let board = reference_board(&["B9", "J1", "A8"]);
    assert_eq!(points(&by_id["legal_moves white"]), reference_legal(&board, WHITE));
    assert_eq!(points(&by_id["legal_moves b"]), reference_legal(&board, BLACK));
    assert!(!points(&by_id["legal_moves white"]).contains(&"A9".parse().unwrap()));
    assert_eq!(points(&by_id["gogui-rules_legal_moves"]), reference_legal(&board, WHITE));

    // Both genmoves answered a legal point of the position after A9 B9 J1.
    let board = reference_board(&["A9", "B9", "J1"]);
    for command in ["genmove w", "genmove white"] {
        let mv: Point = by_id[command].parse().unwrap();
        assert!(reference_legal(&board, WHITE).contains(&mv), "{command} answered {mv}");
    }
    let genmove: Point = by_id["genmove w"].parse().unwrap();
    let showboard = &by_id["showboard"];
    assert!(showboard.starts_with('\n'), "the diagram starts on its own line");
    assert!(showboard.contains("(O)"), "the last move is marked: {showboard}");
    assert!(showboard.contains(&format!("last white {genmove}")));
    assert!(showboard.contains("black to move, 4 moves played"));

    for view in ["nogo-visits", "nogo-winrates"] {
        let lines: Vec<&str> = by_id[view].lines().collect();
        assert_eq!(lines.len(), 3, "{view}: {lines:?}");
        assert!(lines[0].starts_with("INFLUENCE "));
        assert!(lines[1].starts_with("LABEL "));
        assert!(lines[2].starts_with("TEXT black to move: "), "{}", lines[2]);
        let labelled: BTreeSet<Point> =
            lines[1].split_whitespace().skip(1).step_by(2).map(|w| w.parse().unwrap()).collect();
        let mut position = reference_board(&["A9", "B9", "J1"]);
        position.play(by_id["genmove white"].parse().unwrap());
        assert!(labelled.is_subset(&reference_legal(&position, BLACK)));
        assert!(!labelled.is_empty());
    }
}

#[test]
fn replies_without_ids_and_a_clean_end_of_input() {
    let replies =
        replies(&run_gtp(&["--nodes", "50"], "protocol_version\nplay b e5\nplay w e5\ngenmove w\n"));
    assert_eq!(replies.len(), 4);
    assert_eq!(replies[0], Reply { id: None, result: Ok("2".into()) });
    assert_eq!(replies[1], Reply { id: None, result: Ok(String::new()) });
    assert_eq!(replies[2], Reply { id: None, result: Err(format!("illegal move: {}", PlayError::Occupied)) });
    assert!(replies[3].result.is_ok(), "no quit needed: end of input ends the session");
    assert_eq!(run_gtp(&[], ""), "", "empty input, no output");
}

#[test]
fn the_search_takes_every_core_unless_told_or_bound_by_nodes_alone() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = |args: &[&str]| replies(&run_gtp(args, "nogo-param\n")).remove(0).result;
    assert_eq!(threads(&[]), Ok(format!("[string] threads {cores}")));
    assert_eq!(threads(&["--time", "0.5", "--nodes", "50"]), Ok(format!("[string] threads {cores}")));
    assert_eq!(threads(&["--nodes", "50"]), Ok("[string] threads 1".into()), "reproducible moves");
    assert_eq!(threads(&["--threads", "3"]), Ok("[string] threads 3".into()));
}

// ---- The reference rules: a plain board and a per-point flood fill, independent of nogo's. ----

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;

#[derive(Clone)]
struct Board {
    cells: [[u8; 9]; 9],
    to_move: u8,
}

fn neighbours(x: usize, y: usize) -> impl Iterator<Item = (usize, usize)> {
    let (x, y) = (x as i32, y as i32);
    [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
        .into_iter()
        .filter(|&(x, y)| (0..9).contains(&x) && (0..9).contains(&y))
        .map(|(x, y)| (x as usize, y as usize))
}

impl Board {
    fn new() -> Board {
        Board { cells: [[EMPTY; 9]; 9], to_move: BLACK }
    }

    /// Whether the group on `(x, y)` touches an empty point.
    fn has_liberty(&self, x: usize, y: usize) -> bool {
        let colour = self.cells[y][x];
        let mut seen = [[false; 9]; 9];
        let mut stack = vec![(x, y)];
        seen[y][x] = true;
        while let Some((x, y)) = stack.pop() {
            for (nx, ny) in neighbours(x, y) {
                match self.cells[ny][nx] {
                    EMPTY => return true,
                    c if c == colour && !seen[ny][nx] => {
                        seen[ny][nx] = true;
                        stack.push((nx, ny));
                    }
                    _ => {}
                }
            }
        }
        false
    }

    /// Why `colour` may not play `(x, y)`: occupied, then capture, then suicide.
    fn check(&self, x: usize, y: usize, colour: u8) -> Result<(), PlayError> {
        if self.cells[y][x] != EMPTY {
            return Err(PlayError::Occupied);
        }
        let mut after = self.clone();
        after.cells[y][x] = colour;
        let opponent = 3 - colour;
        if neighbours(x, y).any(|(nx, ny)| after.cells[ny][nx] == opponent && !after.has_liberty(nx, ny)) {
            return Err(PlayError::Capture);
        }
        if !after.has_liberty(x, y) {
            return Err(PlayError::Suicide);
        }
        Ok(())
    }

    fn play(&mut self, p: Point) {
        let (x, y) = (p.x() as usize, p.y() as usize);
        assert_eq!(self.check(x, y, self.to_move), Ok(()));
        self.cells[y][x] = self.to_move;
        self.to_move = 3 - self.to_move;
    }
}

fn reference_board(moves: &[&str]) -> Board {
    let mut board = Board::new();
    for m in moves {
        board.play(m.parse().unwrap());
    }
    board
}

fn all_points() -> impl Iterator<Item = Point> {
    (0..9u8).flat_map(|y| (0..9u8).map(move |x| Point::from_xy(x, y).unwrap()))
}

fn reference_legal(board: &Board, colour: u8) -> BTreeSet<Point> {
    all_points().filter(|p| board.check(p.x() as usize, p.y() as usize, colour).is_ok()).collect()
}

fn colour_name(colour: u8) -> &'static str {
    if colour == BLACK {
        "black"
    } else {
        "white"
    }
}

/// Random games played through `play`: after every move the rules commands must agree with
/// the reference; illegal moves are tried on the way and must be refused with the reference's
/// reason; at the end `genmove` resigns and the result names the winner.
#[test]
fn rules_commands_match_the_reference_on_random_games() {
    let mut rng = fastrand::Rng::with_seed(2024);
    let mut script = String::new();
    // Expected replies in order: (command, expected result); `None` for a set of points
    // compared as a set.
    let mut expected: Vec<(String, Result<String, String>)> = Vec::new();
    let mut push = |script: &mut String, command: String, result: Result<String, String>| {
        script.push_str(&command);
        script.push('\n');
        expected.push((command, result));
    };
    let mut positions = 0;
    let mut illegal_tried = [0usize; 3];
    while positions < 1200 {
        let mut board = Board::new();
        push(&mut script, "clear_board".into(), Ok(String::new()));
        loop {
            positions += 1;
            let to_move = board.to_move;
            let legal = reference_legal(&board, to_move);
            let join =
                |set: &BTreeSet<Point>| set.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" ");
            push(&mut script, "gogui-rules_legal_moves".into(), Ok(join(&legal)));
            push(&mut script, "gogui-rules_side_to_move".into(), Ok(colour_name(to_move).into()));
            let other = 3 - to_move;
            push(
                &mut script,
                format!("legal_moves {}", colour_name(other)),
                Ok(join(&reference_legal(&board, other))),
            );
            if legal.is_empty() {
                let winner = colour_name(other);
                push(&mut script, format!("genmove {}", colour_name(to_move)), Ok("resign".into()));
                push(
                    &mut script,
                    "gogui-rules_final_result".into(),
                    Ok(format!("{winner} wins ({} has no legal move)", colour_name(to_move))),
                );
                push(&mut script, "final_score".into(), Ok(if other == BLACK { "B+" } else { "W+" }.into()));
                break;
            }
            // Now and then an illegal point: occupied, capture or suicide per the reference.
            let illegal: Vec<(Point, PlayError)> = all_points()
                .filter_map(|p| board.check(p.x() as usize, p.y() as usize, to_move).err().map(|e| (p, e)))
                .collect();
            if !illegal.is_empty() && rng.u32(..3) == 0 {
                let (p, error) = illegal[rng.usize(..illegal.len())];
                illegal_tried[error as usize] += 1;
                push(
                    &mut script,
                    format!("play {} {p}", colour_name(to_move)),
                    Err(format!("illegal move: {error}")),
                );
            }
            let legal: Vec<Point> = legal.into_iter().collect();
            let p = legal[rng.usize(..legal.len())];
            push(&mut script, format!("play {} {p}", colour_name(to_move)), Ok(String::new()));
            board.play(p);
        }
    }
    assert!(positions >= 1000);
    assert!(
        illegal_tried.iter().all(|&n| n > 0),
        "occupied, capture and suicide all tried: {illegal_tried:?}"
    );

    let replies = replies(&run_gtp(&["--nodes", "20"], &script));
    assert_eq!(replies.len(), expected.len());
    for (reply, (command, result)) in replies.iter().zip(&expected) {
        if command.contains("legal_moves") {
            let got = reply.result.as_ref().map(|t| points(t));
            let want = result.as_ref().map(|t| points(t));
            assert_eq!(got, want, "{command}");
        } else {
            assert_eq!(&reply.result, result, "{command}");
        }
    }
}

#[test]
fn an_interrupt_answers_the_running_genmove_at_once() {
    // GoGui's Interrupt: `# interrupt` while genmove thinks (here for up to a minute) makes
    // the engine answer with the best move so far; the session goes on afterwards.
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_nogo"))
        .args(["gtp", "--time", "60"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut reply = |stdin: &mut std::process::ChildStdin, command: &str, interrupt: bool| {
        stdin.write_all(format!("{command}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
        if interrupt {
            std::thread::sleep(std::time::Duration::from_millis(300));
            stdin.write_all(b"# interrupt\n").unwrap();
            stdin.flush().unwrap();
        }
        let mut text = String::new();
        while !text.ends_with("\n\n") {
            assert!(stdout.read_line(&mut text).unwrap() > 0, "the engine stopped: {text}");
        }
        let mut parsed = replies(&text);
        assert_eq!(parsed.len(), 1, "{text}");
        parsed.remove(0).result.unwrap()
    };
    let started = std::time::Instant::now();
    let listed = reply(&mut stdin, "list_commands", false);
    assert!(listed.lines().any(|c| c == "gogui-interrupt") && listed.lines().any(|c| c == "cputime"));
    let black: Point = reply(&mut stdin, "genmove b", true).parse().unwrap();
    let cpu: f64 = reply(&mut stdin, "cputime", false).parse().unwrap();
    let white: Point = reply(&mut stdin, "genmove w", true).parse().unwrap();
    // Far from the minute each genmove may take: both were interrupted.
    let elapsed = started.elapsed();
    assert!(elapsed.as_secs() < 30, "answered after {elapsed:?}");
    assert_ne!(black, white, "both moves are played on the board");
    assert!(cpu > 0.0, "the interrupted search used the CPU: {cpu}");
    // An interrupt with no command running changes nothing.
    stdin.write_all(b"# interrupt\n").unwrap();
    assert_eq!(reply(&mut stdin, "gogui-rules_side_to_move", false), "black");
    drop(stdin);
    assert!(child.wait().unwrap().success());
}
