//! End-to-end tests of the Botzone bot: the built binary on every fixture in
//! `fixtures/botzone/`, on generated garbage, and through whole keep-running games over pipes.

use nogo::{Color, Point, Position};
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const MARKER: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";
/// Iterations per search: enough to exercise the search, small enough for a fast suite.
const NODES: &str = "2000";

/// What the bot must do with a fixture.
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// A legal game: answer in its position, silently on stderr.
    Answer,
    /// A broken history: one stderr line, and an answer legal after the first `n` moves of
    /// the game (the longest sound prefix with the bot to move).
    AnswerAfter(usize),
    /// Unanswerable: one stderr line, no answer, a non-zero exit.
    Refuse,
}

const FIXTURES: &[(&str, Expect)] = &[
    ("black-first-turn.json", Expect::Answer),
    ("white-first-turn.json", Expect::Answer),
    ("middle-game.json", Expect::Answer),
    ("middle-game.txt", Expect::Answer),
    ("white-middle-game.txt", Expect::Answer),
    ("requests-as-strings.json", Expect::Answer),
    ("extra-fields.json", Expect::Answer),
    ("one-legal-move.json", Expect::Answer),
    ("one-move-from-end.json", Expect::Answer),
    ("non-integer.json", Expect::AnswerAfter(10)),
    ("off-board.json", Expect::AnswerAfter(14)),
    ("illegal-move.json", Expect::AnswerAfter(18)),
    ("inconsistent-lengths.json", Expect::AnswerAfter(30)),
    ("text-truncated.txt", Expect::AnswerAfter(18)),
    ("empty.json", Expect::Refuse),
    ("truncated.json", Expect::Refuse),
    ("wrong-shape.json", Expect::Refuse),
    ("game-over.json", Expect::Refuse),
];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/botzone").join(name)
}

/// Runs the bot with `args` on `input`.
fn run(args: &[&str], input: Vec<u8>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nogo"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the bot starts");
    let mut stdin = child.stdin.take().unwrap();
    // The bot may stop reading early (garbage): a broken pipe is expected then.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().expect("the bot runs");
    writer.join().unwrap();
    output
}

fn point(x: i64, y: i64) -> Point {
    Point::from_botzone(x, y).unwrap_or_else(|| panic!("({x}, {y}) is off the board"))
}

/// A move entry of a JSON fixture: an object or a string holding one.
fn json_move(value: &Value) -> Option<(i64, i64)> {
    let object = match value {
        Value::String(text) => serde_json::from_str(text).ok()?,
        other => other.clone(),
    };
    Some((object["x"].as_i64()?, object["y"].as_i64()?))
}

/// A fixture's move entries, `None` where an entry is not a move.
type Entries = Vec<Option<(i64, i64)>>;

/// The fixture's requests and responses.
fn lists(input: &str) -> (Entries, Entries) {
    if input.trim_start().starts_with('{') {
        let value: Value = serde_json::from_str(input).unwrap();
        let list = |key: &str| value[key].as_array().unwrap().iter().map(json_move).collect();
        (list("requests"), list("responses"))
    } else {
        let mut requests = Vec::new();
        let mut responses = Vec::new();
        for (i, line) in input.lines().skip(1).enumerate() {
            let numbers: Vec<i64> = line.split_whitespace().map(|t| t.parse().unwrap()).collect();
            let list = if i % 2 == 0 { &mut requests } else { &mut responses };
            list.push(Some((numbers[0], numbers[1])));
        }
        (requests, responses)
    }
}

/// The first `count` moves of the fixture's game in playing order (all when `None`), and the
/// bot's colour.
fn game(input: &str, count: Option<usize>) -> (Position, Color) {
    let (requests, responses) = lists(input);
    let colour = if requests[0] == Some((-1, -1)) { Color::Black } else { Color::White };
    let mut moves = Vec::new();
    for (i, request) in requests.iter().enumerate() {
        if i > 0 || colour == Color::White {
            moves.push(request.unwrap());
        }
        if let Some(response) = responses.get(i) {
            moves.push(response.unwrap_or((-1, -1)));
        }
    }
    moves.truncate(count.unwrap_or(moves.len()));
    let position = Position::from_moves(moves.iter().map(|&(x, y)| point(x, y))).expect("a legal prefix");
    assert_eq!(position.to_move(), colour, "the bot is to move");
    (position, colour)
}

/// The bot's move from its stdout in either format, after checking the format.
fn answer(stdout: &str, json: bool) -> Point {
    let lines: Vec<&str> = stdout.lines().collect();
    if json {
        assert_eq!(lines.len(), 1, "one JSON line: {stdout}");
        let value: Value = serde_json::from_str(lines[0]).expect("the answer is JSON");
        let debug = value["debug"].as_str().expect("a debug string");
        assert!(debug.len() <= 1024, "debug within 1 KB");
        for field in ["iterations=", "ms=", "win=", "pv="] {
            assert!(debug.contains(field), "debug has {field}: {debug}");
        }
        point(value["response"]["x"].as_i64().unwrap(), value["response"]["y"].as_i64().unwrap())
    } else {
        assert_eq!(lines.len(), 2, "a move line and a debug line: {stdout}");
        assert!(lines[1].contains("iterations="), "debug line: {}", lines[1]);
        let numbers: Vec<i64> = lines[0].split(' ').map(|t| t.parse().unwrap()).collect();
        assert_eq!(numbers.len(), 2, "`x y`: {}", lines[0]);
        point(numbers[0], numbers[1])
    }
}

fn assert_no_panic(stderr: &str) {
    assert!(!stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"), "a panic: {stderr}");
}

#[test]
fn every_fixture_is_listed() {
    let mut files: Vec<String> = std::fs::read_dir(fixture(""))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".json") || name.ends_with(".txt"))
        .collect();
    files.sort();
    let mut listed: Vec<String> = FIXTURES.iter().map(|(name, _)| name.to_string()).collect();
    listed.sort();
    assert_eq!(files, listed);
}

#[test]
fn every_fixture_is_answered_legally_or_refused_in_one_line() {
    for &(name, expect) in FIXTURES {
        let input = std::fs::read_to_string(fixture(name)).unwrap();
        let output = run(&["--nodes", NODES, "--no-keep-running"], input.clone().into_bytes());
        let (stdout, stderr) =
            (String::from_utf8(output.stdout).unwrap(), String::from_utf8(output.stderr).unwrap());
        assert_no_panic(&stderr);
        let count = match expect {
            Expect::Answer => {
                assert_eq!(stderr, "", "{name}: no complaint about a legal game");
                None
            }
            Expect::AnswerAfter(count) => {
                assert_eq!(stderr.lines().count(), 1, "{name}: one error line: {stderr}");
                assert!(stderr.starts_with("nogo: bad input: "), "{name}: {stderr}");
                Some(count)
            }
            Expect::Refuse => {
                assert_eq!(output.status.code(), Some(1), "{name}: refused");
                assert_eq!(stdout, "", "{name}: no answer");
                assert_eq!(stderr.lines().count(), 1, "{name}: one error line: {stderr}");
                assert!(stderr.starts_with("nogo: cannot answer: "), "{name}: {stderr}");
                continue;
            }
        };
        assert!(output.status.success(), "{name}: {stderr}");
        let (position, _) = game(&input, count);
        let best = answer(&stdout, name.ends_with(".json"));
        assert_eq!(position.check(best), Ok(()), "{name}: {best} is legal in\n{position}");
    }
}

#[test]
fn special_positions_get_their_only_or_winning_move() {
    let input = std::fs::read_to_string(fixture("one-legal-move.json")).unwrap();
    let (position, colour) = game(&input, None);
    assert_eq!((position.legal_moves().count(), colour), (1, Color::White), "the fixture's premise");
    let only = position.legal_moves().first().unwrap();
    let mut after = position.clone();
    after.play(only).unwrap();
    assert!(!after.is_terminal(), "the fixture's premise: the only move does not end the game");
    let output = run(&["--nodes", NODES, "--no-keep-running"], input.into_bytes());
    assert_eq!(answer(&String::from_utf8_lossy(&output.stdout), true), only);

    let input = std::fs::read_to_string(fixture("one-move-from-end.json")).unwrap();
    let (position, _) = game(&input, None);
    assert!(position.legal_moves().count() > 1, "the fixture's premise");
    let output = run(&["--nodes", NODES, "--no-keep-running"], input.into_bytes());
    let mut after = position.clone();
    after.play(answer(&String::from_utf8_lossy(&output.stdout), true)).unwrap();
    assert!(after.is_terminal(), "the bot ends the game at once");
}

#[test]
fn json_and_text_forms_of_a_position_get_the_same_answer() {
    let answers: Vec<Point> = ["middle-game.json", "middle-game.txt"]
        .iter()
        .map(|name| {
            let output = run(&["--nodes", NODES, "--seed", "7"], std::fs::read(fixture(name)).unwrap());
            assert!(output.status.success());
            let stdout = String::from_utf8(output.stdout).unwrap();
            let (answer_part, marker) = stdout.rsplit_once(MARKER).expect("keep-running by default");
            assert_eq!(marker, "\n", "the marker ends the output");
            answer(answer_part, name.ends_with(".json"))
        })
        .collect();
    assert_eq!(answers[0], answers[1]);
}

#[test]
fn garbage_of_ten_megabytes_is_refused_in_one_line() {
    const SIZE: usize = 10 << 20;
    let mut rng = fastrand::Rng::with_seed(1);
    let random: Vec<u8> = (0..SIZE).map(|_| rng.u8(..)).filter(|&b| b != b'\n').collect();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("random bytes", [b"\x01".as_slice(), &random].concat()),
        ("a brace then random bytes", [b"{".as_slice(), &random].concat()),
        ("a digit then random bytes", [b"7".as_slice(), &random].concat()),
        ("nested braces", vec![b'{'; SIZE]),
        ("nested arrays in requests", [br#"{"requests":"#.as_slice(), &vec![b'['; SIZE]].concat()),
        ("an unterminated string", [br#"{"requests":[],"data":""#.as_slice(), &vec![b'x'; SIZE]].concat()),
        ("digits", vec![b'9'; SIZE]),
    ];
    for (what, mut input) in cases {
        input.push(b'\n');
        let started = std::time::Instant::now();
        let output = run(&["--nodes", NODES], input);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_no_panic(&stderr);
        assert_eq!(output.status.code(), Some(1), "{what}: refused: {stderr}");
        assert!(output.stdout.is_empty(), "{what}: no answer");
        assert_eq!(stderr.lines().count(), 1, "{what}: one line");
        assert!(stderr.len() < 300, "{what}: the line quotes little of the input: {stderr}");
        eprintln!("{what}: refused in {:?}: {}", started.elapsed(), stderr.trim_end());
    }
}

#[test]
fn a_ten_megabyte_data_field_is_ignored() {
    let data = "x".repeat(10 << 20);
    let input = format!(r#"{{"requests":[{{"x":-1,"y":-1}}],"responses":[],"data":"{data}"}}"#);
    let output = run(&["--nodes", NODES, "--no-keep-running"], input.into_bytes());
    assert!(output.status.success());
    assert!(output.stderr.is_empty());
    let best = answer(&String::from_utf8(output.stdout).unwrap(), true);
    assert_eq!(Position::new().check(best), Ok(()));
}

/// The bot in keep-running mode over pipes, as Botzone drives it.
struct Session {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
    json: bool,
}

impl Session {
    fn start(json: bool, seed: u64) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nogo"))
            .args(["--nodes", "300", "--seed", &seed.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the bot starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Session { child, stdin, stdout, json }
    }

    /// Sends `request` and reads one turn's output up to the marker; the move.
    fn ask(&mut self, request: &str) -> Point {
        let turn = self.turn(request);
        answer(&turn, self.json)
    }

    /// Sends `request`; one turn's output up to the marker.
    fn turn(&mut self, request: &str) -> String {
        self.stdin.write_all(request.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
        let mut turn = String::new();
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "the bot ended its turn early: {turn}");
            if line.trim_end() == MARKER {
                break;
            }
            turn += &line;
        }
        turn
    }

    fn mv(&self, p: Point) -> String {
        if self.json {
            format!("{{\"x\":{},\"y\":{}}}\n", p.x(), p.y())
        } else {
            format!("{} {}\n", p.x(), p.y())
        }
    }

    /// Closes stdin; the bot must exit cleanly and silently.
    fn finish(mut self) {
        drop(self.stdin);
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.stdout, &mut rest).unwrap();
        assert_eq!(rest, "", "nothing after the last turn");
        let output = self.child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "a clean exit at end of input: {stderr}");
        assert_eq!(stderr, "");
    }
}

/// Plays one whole game: the bot (keep-running) against a seeded random player.
fn play_game(json: bool, bot: Color, seed: u64) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut session = Session::start(json, seed);
    let mut position = Position::new();
    let random_move = |position: &Position, rng: &mut fastrand::Rng| {
        let legal = position.legal_moves();
        legal.choose(rng).unwrap()
    };
    let mut request = match (bot, json) {
        (Color::Black, true) => r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#.to_string() + "\n",
        (Color::Black, false) => "1\n-1 -1\n".to_string(),
        (Color::White, _) => {
            let first = random_move(&position, &mut rng);
            position.play(first).unwrap();
            if json {
                format!(r#"{{"requests":["{{\"x\":{},\"y\":{}}}"],"responses":[]}}"#, first.x(), first.y())
                    + "\n"
            } else {
                format!("1\n{} {}\n", first.x(), first.y())
            }
        }
    };
    loop {
        let best = session.ask(&request);
        assert_eq!(position.check(best), Ok(()), "{best} is legal in\n{position}");
        position.play(best).unwrap();
        if position.is_terminal() {
            break;
        }
        let reply = random_move(&position, &mut rng);
        position.play(reply).unwrap();
        if position.is_terminal() {
            break;
        }
        request = session.mv(reply);
    }
    session.finish();
}

#[test]
fn keep_running_plays_whole_json_games_against_a_random_player() {
    play_game(true, Color::Black, 1);
    play_game(true, Color::White, 2);
}

#[test]
fn keep_running_plays_whole_text_games_against_a_random_player() {
    play_game(false, Color::Black, 3);
    play_game(false, Color::White, 4);
}

#[test]
fn a_bad_keep_running_request_is_refused_in_one_line() {
    for (json, request) in
        [(true, "{\"x\":4,\"y\":4}\n"), (true, "{\"x\":\n"), (false, "9 9\n"), (false, "a b\n")]
    {
        let mut session = Session::start(json, 1);
        let first = if json { "{\"requests\":[{\"x\":-1,\"y\":-1}]}\n" } else { "1\n-1 -1\n" };
        let best = session.ask(first);
        // Re-playing the bot's own point is occupied; the others are off the board or not moves.
        let request = if request.starts_with("{\"x\":4") { session.mv(best) } else { request.to_string() };
        session.stdin.write_all(request.as_bytes()).unwrap();
        drop(session.stdin);
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut session.stdout, &mut rest).unwrap();
        assert_eq!(rest, "", "{request}: no further answer");
        let output = session.child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_no_panic(&stderr);
        assert_eq!(output.status.code(), Some(1), "{request}: refused: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{request}: one line: {stderr}");
    }
}

#[test]
fn keep_running_accepts_a_whole_new_input_between_moves() {
    for (json, name) in [(true, "middle-game.json"), (false, "white-middle-game.txt")] {
        let mut session = Session::start(json, 5);
        let first = if json { "{\"requests\":[{\"x\":-1,\"y\":-1}]}\n" } else { "1\n-1 -1\n" };
        let best = session.ask(first);
        assert_eq!(Position::new().check(best), Ok(()));
        let input = std::fs::read_to_string(fixture(name)).unwrap();
        let (position, _) = game(&input, None);
        let best = session.ask(&input);
        assert_eq!(position.check(best), Ok(()), "{name}: {best} is legal in\n{position}");
        session.finish();
    }
}

#[test]
fn keep_running_turns_keep_the_time_limit_of_the_first_input() {
    // A later turn's request is one move; the match's time_limit still holds for it.
    let mut session = Session::start(true, 7);
    let first = session.turn("{\"requests\":[{\"x\":-1,\"y\":-1}],\"time_limit\":300}\n");
    assert!(first.contains("limit_ms=300"), "{first}");
    let mut position = Position::new();
    position.play(answer(&first, true)).unwrap();
    let reply = position.legal_moves().into_iter().next().unwrap();
    position.play(reply).unwrap();
    let second = session.turn(&session.mv(reply));
    assert!(second.contains("limit_ms=300"), "{second}");
    assert_eq!(position.check(answer(&second, true)), Ok(()));
    session.finish();
}

#[test]
fn time_caps_a_turn_that_the_inputs_time_limit_would_allow_longer() {
    // A first turn's input allows 2 s; `--time 0.05` is what the user asked for.
    for (limit, expected) in [("2000", "limit_ms=50"), ("0.03", "limit_ms=30")] {
        let input = format!("{{\"requests\":[{{\"x\":-1,\"y\":-1}}],\"time_limit\":{limit}}}\n");
        let output = run(&["--no-keep-running", "--time", "0.05"], input.into_bytes());
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains(expected), "time_limit {limit}: {stdout}");
        assert_eq!(Position::new().check(answer(&stdout, true)), Ok(()));
    }
}

#[test]
fn with_book_the_first_moves_come_from_the_book_after_the_search() {
    let book = nogo::engines::book::Book::embedded();
    for name in ["black-first-turn.json", "white-first-turn.json"] {
        let input = std::fs::read_to_string(fixture(name)).unwrap();
        let output = run(&["--book", "--no-keep-running", "--nodes", NODES], input.clone().into_bytes());
        let stdout = String::from_utf8_lossy(&output.stdout);
        let position = game(&input, None).0;
        assert_eq!(answer(&stdout, true), book.lookup(&position).expect("a book position").best, "{name}");
        // The search runs all the same, growing the tree the next turns keep.
        assert!(stdout.contains(&format!("iterations={NODES} ")), "{stdout}");
    }
}
