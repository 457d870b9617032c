//! `scripts/level-gtp`, the proxy that runs a GTP engine taking a simulation count with the
//! count that fills a time per move: its own answers, the counts it passes, engine failures, and
//! a match through `nogo arena`.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

const NOGO: &str = env!("CARGO_BIN_EXE_nogo");

fn path(relative: &str) -> String {
    format!("{}/{relative}", env!("CARGO_MANIFEST_DIR"))
}

/// An engine answering every command with `= E5` and writing its last argument (the count) to
/// stderr.
const ECHO_ENGINE: &[&str] = &["sh", "-c", "echo count=$0 >&2; while read l; do printf '= E5\\n\\n'; done"];

/// Runs the proxy with `args` (the engine's command included) on `input`; returns stdout and
/// stderr.
fn level_gtp(args: &[&str], input: &str) -> (String, String) {
    let mut child = Command::new("python3")
        .arg(path("scripts/level-gtp"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    (String::from_utf8_lossy(&output.stdout).into(), String::from_utf8_lossy(&output.stderr).into())
}

fn replies(stdout: &str) -> Vec<String> {
    stdout.split("\n\n").filter(|r| !r.trim().is_empty()).map(|r| r.trim().to_string()).collect()
}

#[test]
fn the_proxy_answers_setup_itself_and_passes_the_count_for_the_stones() {
    let mut args = vec!["--time", "0.05", "--rates", "20,10@0,10", "--engine-stderr", "--"];
    args.extend_from_slice(ECHO_ENGINE);
    let input = "1 protocol_version\nlist_commands\ntime_settings 0 1 1\nboardsize 9\nclear_board\n\
                 genmove b\nplay w A1\nplay b B2\nplay w C3\nplay b D4\ngenmove w\nboardsize 19\nfoo\nquit\n";
    let (stdout, stderr) = level_gtp(&args, input);
    let replies = replies(&stdout);
    assert_eq!(replies[0], "=1 2");
    assert!(replies[1].starts_with('=') && replies[1].contains("genmove"), "{}", replies[1]);
    assert!(!replies[1].contains("time_settings"), "time_settings is not listed");
    assert_eq!(&replies[2..5], ["=", "=", "="]);
    // 50 ms at 20 µs per simulation on the empty board; at 5 stones, 15 µs.
    assert_eq!(replies[5], "= E5");
    assert_eq!(replies[10], "= E5");
    assert!(stderr.contains("count=2500") && stderr.contains("count=3333"), "{stderr}");
    assert!(replies[11].starts_with('?') && replies[12].starts_with('?'), "{replies:?}");
    assert_eq!(replies[13], "=");
}

#[test]
fn an_engine_that_dies_gets_an_error_answer() {
    let (stdout, _) =
        level_gtp(&["--time", "0.05", "--rates", "10", "--quiet", "--", "false"], "genmove b\nname\n");
    let replies = replies(&stdout);
    assert!(replies[0].starts_with("? engine closed its output"), "{replies:?}");
    assert_eq!(replies[1], "= level-gtp");
}

#[test]
fn a_match_through_the_proxy_is_clean() {
    let player = format!(
        "gtp:python3 {} --time 0.05 --rates 10 --quiet -- python3 {}",
        path("scripts/level-gtp"),
        path("fixtures/bots/gtp.py")
    );
    let json = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("level-gtp-match.json");
    let args =
        ["arena", "--quiet", "--player1", "random", "--player2", &player, "--games", "2", "--time", "2"];
    let output = Command::new(NOGO).args(args).arg("--json").arg(&json).output().expect("nogo runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let summary: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(summary["games"], 2, "{summary:#}");
    for name in ["random", "level-gtp"] {
        for (verdict, count) in summary["losses_by_verdict"][name].as_object().unwrap() {
            assert!(verdict == "no-legal-move" || count == 0, "{name} lost by {verdict}:\n{stderr}");
        }
    }
}
