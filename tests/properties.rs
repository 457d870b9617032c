//! Property tests of what users feed the binary: any input on the bot's stdin, any legal
//! history in either protocol (restarted or kept running), and any sequence of GTP commands.
//! CI runs `CASES` cases a property; `PROPTEST_CASES=100000 cargo test --release --test
//! properties` is the long run (the variable overrides `CASES`, see `config`).

use nogo::protocols::gtp::COMMANDS;
use nogo::{Color, Point, Position};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

const NOGO: &str = env!("CARGO_BIN_EXE_nogo");
const MARKER: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// Cases a property in the default run: short enough for CI on two cores.
const CASES: u32 = 256;

/// `CASES` cases unless `PROPTEST_CASES` says otherwise. (`ProptestConfig::with_cases`
/// would silently ignore the variable: it overrides the count the default config read.)
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(CASES);
    ProptestConfig { cases, ..ProptestConfig::default() }
}

/// Runs `nogo ARGS` on `input` (written from a thread: a long input's replies would fill the
/// pipe) to its exit.
fn run_nogo(args: &[&str], input: Vec<u8>) -> std::process::Output {
    let mut child = Command::new(NOGO)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // The program may answer before reading everything: a closed pipe is not the test's failure.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

/// The bot answering one input and exiting: exit code, stdout, stderr.
fn bot_once(input: &[u8]) -> (i32, String, String) {
    let output = run_nogo(&["--no-keep-running", "--nodes", "50"], input.to_vec());
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (output.status.code().unwrap_or(-1), text(&output.stdout), text(&output.stderr))
}

/// The move of one answer in either format, if the text is one.
fn answered_move(stdout: &str) -> Option<(i64, i64)> {
    let first = stdout.lines().next()?;
    if first.starts_with('{') {
        let value: Value = serde_json::from_str(first).ok()?;
        Some((value["response"]["x"].as_i64()?, value["response"]["y"].as_i64()?))
    } else {
        let mut words = first.split_whitespace().map(|w| w.parse::<i64>());
        match (words.next(), words.next(), words.next()) {
            (Some(Ok(x)), Some(Ok(y)), None) => Some((x, y)),
            _ => None,
        }
    }
}

/// What any input must get: no panic, a clean exit, one line of error or one answer.
fn assert_answered_or_refused(code: i32, stdout: &str, stderr: &str) -> Result<(), TestCaseError> {
    prop_assert!(code == 0 || code == 1, "exit {code}, stderr {stderr}");
    prop_assert!(!stderr.contains("panicked") && !stderr.contains("internal error"), "{stderr}");
    if code == 0 {
        prop_assert!(answered_move(stdout).is_some(), "an answer: {stdout:?}");
        let (x, y) = answered_move(stdout).unwrap();
        prop_assert!(Point::from_botzone(x, y).is_some(), "on the board: {stdout:?}");
    } else {
        prop_assert!(stdout.is_empty(), "no answer with a refusal: {stdout:?}");
        prop_assert_eq!(stderr.lines().count(), 1, "one line of error: {:?}", stderr);
        prop_assert!(stderr.starts_with("nogo: "), "{:?}", stderr);
    }
    Ok(())
}

/// Any JSON value, nested a few levels.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-20i64..20).prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        ".{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            prop::collection::btree_map(
                prop_oneof![
                    Just("requests".to_string()),
                    Just("responses".to_string()),
                    Just("x".to_string()),
                    Just("y".to_string()),
                    Just("time_limit".to_string()),
                    Just("data".to_string()),
                    ".{0,4}"
                ],
                inner,
                0..5
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A random legal game cut where a side is to move: the moves and that side.
fn legal_history() -> impl Strategy<Value = (Vec<Point>, Color)> {
    (any::<u64>(), 0usize..80).prop_map(|(seed, cut)| {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut position = Position::new();
        let mut moves = Vec::new();
        while moves.len() < cut {
            let legal = position.legal_moves();
            let Some(p) = legal.choose(&mut rng) else { break };
            let mut next = position.clone();
            next.play(p).unwrap();
            if next.is_terminal() {
                break;
            }
            position = next;
            moves.push(p);
        }
        (moves, position.to_move())
    })
}

/// Botzone's input for the side to move after `moves`: JSON (requests as objects or as
/// strings) or the simplified text protocol.
fn botzone_input(moves: &[Point], format: u8) -> String {
    let us = if moves.len().is_multiple_of(2) { Color::Black } else { Color::White };
    let xy = |p: &Point| (p.x() as i64, p.y() as i64);
    let theirs: Vec<(i64, i64)> =
        moves.iter().skip(usize::from(us == Color::White) ^ 1).step_by(2).map(xy).collect();
    let ours: Vec<(i64, i64)> =
        moves.iter().skip(usize::from(us == Color::White)).step_by(2).map(xy).collect();
    let mut requests = theirs;
    if us == Color::Black {
        requests.insert(0, (-1, -1));
    }
    match format {
        0 | 1 => {
            let entry = |&(x, y): &(i64, i64)| {
                let object = json!({ "x": x, "y": y });
                if format == 1 {
                    Value::from(object.to_string())
                } else {
                    object
                }
            };
            let requests: Vec<Value> = requests.iter().map(entry).collect();
            let responses: Vec<Value> = ours.iter().map(entry).collect();
            json!({ "requests": requests, "responses": responses }).to_string()
        }
        _ => {
            let mut text = format!("{}\n", requests.len());
            for (i, (x, y)) in requests.iter().enumerate() {
                text += &format!("{x} {y}\n");
                if let Some((x, y)) = ours.get(i) {
                    text += &format!("{x} {y}\n");
                }
            }
            text
        }
    }
}

/// Checks the answer `(x, y)` is a legal move in `position`, and plays it.
fn play_answer(position: &mut Position, answer: Option<(i64, i64)>) -> Result<(), TestCaseError> {
    let (x, y) = answer.ok_or_else(|| TestCaseError::fail("no answer"))?;
    let p =
        Point::from_botzone(x, y).ok_or_else(|| TestCaseError::fail(format!("({x}, {y}) off the board")))?;
    prop_assert!(position.play(p).is_ok(), "{p} is illegal in\n{position}");
    Ok(())
}

/// Inputs close to valid ones: `requests`/`responses` arrays of random entries (objects,
/// strings holding JSON, wrong types, big or off-board numbers), missing or extra fields.
fn near_valid_json() -> impl Strategy<Value = Value> {
    let number = prop_oneof![
        4 => (-2i64..10).prop_map(Value::from),
        1 => any::<i64>().prop_map(Value::from),
        1 => Just(json!(u64::MAX)),
        1 => Just(json!(1e300)),
        1 => Just(json!(2.5)),
        1 => Just(json!("3")),
        1 => Just(Value::Null),
    ];
    let object = (prop::option::of(number.clone()), prop::option::of(number)).prop_map(|(x, y)| {
        let mut o = serde_json::Map::new();
        if let Some(x) = x {
            o.insert("x".into(), x);
        }
        if let Some(y) = y {
            o.insert("y".into(), y);
        }
        Value::Object(o)
    });
    let entry = prop_oneof![
        6 => object.clone(),
        3 => object.prop_map(|o| Value::from(o.to_string())),
        1 => any_json(),
        1 => ".{0,6}".prop_map(Value::from),
    ];
    let list = prop_oneof![
        8 => prop::collection::vec(entry, 0..8).prop_map(Value::from),
        1 => any_json(),
    ];
    (prop::option::of(list.clone()), prop::option::of(list), prop::option::of(any_json())).prop_map(
        |(requests, responses, extra)| {
            let mut o = serde_json::Map::new();
            if let Some(r) = requests {
                o.insert("requests".into(), r);
            }
            if let Some(r) = responses {
                o.insert("responses".into(), r);
            }
            if let Some(e) = extra {
                o.insert("data".into(), e);
            }
            Value::Object(o)
        },
    )
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_bytes_on_stdin_are_answered_or_refused(input in prop::collection::vec(any::<u8>(), 0..300)) {
        let (code, stdout, stderr) = bot_once(&input);
        assert_answered_or_refused(code, &stdout, &stderr)?;
    }

    #[test]
    fn any_json_on_stdin_is_answered_or_refused(value in any_json()) {
        let (code, stdout, stderr) = bot_once(value.to_string().as_bytes());
        assert_answered_or_refused(code, &stdout, &stderr)?;
    }

    #[test]
    fn near_valid_json_on_stdin_is_answered_or_refused(value in near_valid_json()) {
        let (code, stdout, stderr) = bot_once(value.to_string().as_bytes());
        assert_answered_or_refused(code, &stdout, &stderr)?;
    }

    #[test]
    fn any_legal_history_gets_a_legal_answer((moves, _) in legal_history(), format in 0u8..3) {
        let (code, stdout, stderr) = bot_once(botzone_input(&moves, format).as_bytes());
        prop_assert_eq!(code, 0, "{}", stderr);
        let mut position = Position::from_moves(moves.iter().copied()).unwrap();
        play_answer(&mut position, answered_move(&stdout))?;
    }

    #[test]
    fn kept_running_the_bot_answers_every_turn_legally(
        (moves, _) in legal_history(), format in 0u8..3, seed in any::<u64>()
    ) {
        let mut child = Reaped(
            Command::new(NOGO)
                .args(["--nodes", "50"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .unwrap(),
        );
        let mut stdin = child.0.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.0.stdout.take().unwrap());
        let mut position = Position::from_moves(moves.iter().copied()).unwrap();
        let mut rng = fastrand::Rng::with_seed(seed);
        writeln!(stdin, "{}", botzone_input(&moves, format).trim_end()).unwrap();
        for _ in 0..4 {
            // The answer (text answers have a debug line too), then the marker.
            let mut lines = Vec::new();
            loop {
                let mut line = String::new();
                prop_assert!(stdout.read_line(&mut line).unwrap() > 0, "the bot stopped: {lines:?}");
                if line.trim() == MARKER {
                    break;
                }
                lines.push(line);
            }
            play_answer(&mut position, answered_move(&lines.concat()))?;
            let Some(reply) = position.legal_moves().choose(&mut rng) else { break };
            position.play(reply).unwrap();
            if position.is_terminal() {
                break;
            }
            let (x, y) = (reply.x(), reply.y());
            let line = if format < 2 { json!({ "x": x, "y": y }).to_string() } else { format!("{x} {y}") };
            writeln!(stdin, "{line}").unwrap();
        }
        drop(stdin);
        prop_assert!(child.0.wait().unwrap().success());
    }

    #[test]
    fn any_gtp_commands_get_well_formed_replies(lines in prop::collection::vec(gtp_line(), 0..25)) {
        let output = run_nogo(&["gtp", "--nodes", "50"], (lines.join("\n") + "\n").into_bytes());
        let stderr = String::from_utf8_lossy(&output.stderr);
        prop_assert!(output.status.success(), "{}", stderr);
        prop_assert!(!stderr.contains("panicked") && !stderr.contains("internal error"), "{}", stderr);
        let stdout = String::from_utf8(output.stdout).unwrap();
        prop_assert!(stdout.is_empty() || stdout.ends_with("\n\n"), "{:?}", stdout);
        let mut answered = 0;
        for block in stdout.split_terminator("\n\n") {
            prop_assert!(block.starts_with('=') || block.starts_with('?'), "{:?}", block);
            prop_assert!(!block.lines().any(str::is_empty));
            answered += 1;
        }
        // One reply for each command up to `quit`: lines with no command get none.
        let commands: Vec<&String> = lines.iter().filter(|l| gtp_command_name(l).is_some()).collect();
        let until_quit = commands.iter().position(|l| gtp_command_name(l) == Some("quit")).map_or(commands.len(), |q| q + 1);
        prop_assert_eq!(answered, until_quit, "{:?}\n{}", lines, stdout);
    }
}

/// A child process killed and reaped however the test ends.
struct Reaped(std::process::Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The command name of a GTP line, after an optional id; `None` for a line with none.
fn gtp_command_name(line: &str) -> Option<&str> {
    let line = line.split('#').next().unwrap_or("");
    let mut words = line.split_whitespace();
    let first = words.next()?;
    if first.chars().all(|c| c.is_ascii_digit()) {
        words.next()
    } else {
        Some(first)
    }
}

/// A GTP line: a known command (or a junk word) with arguments valid or not, an optional id,
/// or a comment or blank line.
fn gtp_line() -> impl Strategy<Value = String> {
    let name = prop_oneof![prop::sample::select(COMMANDS.to_vec()).prop_map(String::from), "[a-z_]{1,8}",];
    let argument = prop_oneof![
        prop::sample::select(vec![
            "b",
            "w",
            "black",
            "white",
            "x",
            "9",
            "19",
            "0",
            "-1",
            "1e9",
            "pass",
            "E5",
            "J1",
            "A9",
            "I5",
            "K3",
            "/no/such.sgf"
        ])
        .prop_map(String::from),
        "[A-HJ][1-9]",
        "[ -~]{0,6}",
    ];
    prop_oneof![
        8 => (prop::option::of(0u32..100), name, prop::collection::vec(argument, 0..4)).prop_map(|(id, name, args)| {
            let id = id.map(|id| format!("{id} ")).unwrap_or_default();
            format!("{id}{name} {}", args.join(" ")).trim_end().to_string()
        }),
        1 => Just("# a comment".to_string()),
        1 => Just(String::new()),
    ]
}
