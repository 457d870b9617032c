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

/// Into an open pipe the bench writes every line: one per position, the signature, the total.
#[test]
fn bench_reports_each_position_and_the_signature() {
    let output = Command::new(env!("CARGO_BIN_EXE_nogo"))
        .args(["bench", "--nodes", "1000"])
        .output()
        .expect("nogo runs");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert!(lines[4].starts_with("signature "), "{text}");
    assert!(lines[5].starts_with("4000 iterations "), "{text}");
}
