//! The command line's tools, run as a user runs them.

use std::process::{Command, Stdio};

/// `nogo bench | head` closes the pipe early: the bench stops quietly, with success and nothing
/// on stderr, instead of reporting an internal error.
#[test]
fn bench_into_a_closed_pipe_exits_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nogo"))
        .args(["bench", "--nodes", "1000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nogo starts");
    // Close the reading end before the first line is written.
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("nogo finishes");
    assert!(output.status.success(), "exit status {}", output.status);
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

/// Into an open pipe the bench writes every line: a header, one per position, the signature,
/// the total with the shares of the tree and the leaves.
#[test]
fn bench_reports_each_position_and_the_signature() {
    for (engine, leaves) in [("rave", "playouts"), ("mcts", "evaluations")] {
        let output = Command::new(env!("CARGO_BIN_EXE_nogo"))
            .args(["bench", "--nodes", "1000", "--engine", engine])
            .output()
            .expect("nogo runs");
        assert!(output.status.success());
        let text = String::from_utf8(output.stdout).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 7, "{text}");
        assert!(lines[0].starts_with("position") && lines[0].ends_with(leaves), "{text}");
        assert!(lines[1].starts_with("empty board") && lines[1].ends_with('%'), "{text}");
        assert!(lines[5].starts_with("signature "), "{text}");
        assert!(
            lines[6].starts_with("4000 simulations in ") && lines[6].ends_with(&format!("in the {leaves}")),
            "{text}"
        );
    }
}

/// `--set` takes the tunables by name, within their ranges, for the bench as for the bot.
#[test]
fn settings_of_the_search_are_checked() {
    let run =
        |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_nogo")).args(args).output().expect("nogo runs");
    let output = run(&["bench", "--nodes", "1000", "--set", "policy_depth=0", "--set", "policy_visits=0"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    for bad in ["no_such_thing=1", "widening=100", "widening"] {
        for args in [&["bench", "--set", bad][..], &["--no-keep-running", "--set", bad]] {
            let output = run(args);
            assert_eq!(output.status.code(), Some(2), "{args:?}");
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(stderr.contains("invalid value") && stderr.contains("--set"), "{args:?}: {stderr}");
        }
    }
}

/// Self-play records by game, then in play order within a game (games come as they finish).
fn by_game(mut lines: Vec<String>) -> Vec<String> {
    lines.sort_by_key(|line| {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        (record["game"].as_u64(), record["ply"].as_u64())
    });
    lines
}

#[test]
fn selfplay_records_do_not_depend_on_jobs_or_shards() {
    let selfplay = |extra: &[&str]| -> Vec<String> {
        let output = Command::new(env!("CARGO_BIN_EXE_nogo"))
            .args(["selfplay", "--games", "4", "--nodes", "200", "--seed", "5"])
            .args(extra)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap().lines().map(String::from).collect()
    };
    let whole = by_game(selfplay(&["-j", "1"]));
    assert!(whole.len() > 4 * 20, "{} records", whole.len());
    assert_eq!(by_game(selfplay(&["-j", "2"])), whole);
    let mut shards = selfplay(&["--shard", "1/2"]);
    shards.extend(selfplay(&["--shard", "2/2"]));
    assert_eq!(by_game(shards), whole);
}
