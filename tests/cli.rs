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

/// `nogo ARGS`'s output.
fn nogo(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_nogo")).args(args).stdin(Stdio::null()).output().expect("nogo runs")
}

/// `--set help` lists every tunable, with its default and range, wherever `--set` is taken,
/// and exits with success; a name that is not a tunable's points to it.
#[test]
fn set_help_lists_the_tunables() {
    for tool in [&[][..], &["bench"], &["gtp"], &["play"], &["selfplay"]] {
        let output = nogo(&[tool, &["--set", "help"]].concat());
        assert!(output.status.success(), "{tool:?}: {}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(String::from_utf8_lossy(&output.stderr), "", "{tool:?}");
        let table = String::from_utf8(output.stdout).unwrap();
        for tunable in nogo::Params::TUNABLES {
            let row = table.lines().find(|l| l.split_whitespace().next() == Some(tunable.name));
            let row = row.unwrap_or_else(|| panic!("{tool:?}: no row for {}: {table}", tunable.name));
            let range = format!("{} to {}", tunable.min, tunable.max);
            assert!(row.contains(&format!(" {}  {range} ", tunable.default)), "{row}");
        }
    }
    for bad in ["foo=1", "foo"] {
        let stderr = String::from_utf8(nogo(&["--set", bad]).stderr).unwrap();
        assert!(stderr.contains("--set help lists the names"), "{stderr}");
    }
}

/// Numbers outside what an option takes are refused with what it does take.
#[test]
fn numeric_options_say_what_they_take() {
    for (args, expected) in [
        (&["--time", "0"][..], "'0' is not a number of seconds above 0 and at most 86400"),
        (&["--time", "-1"], "'-1' is not a number of seconds above 0"),
        (&["play", "--time", "86401"], "'86401' is not a number of seconds above 0"),
        (&["--nodes", "0"], "'0' is not a whole number of at least 1"),
        (&["gtp", "--nodes", "-5"], "'-5' is not a whole number of at least 1"),
        (&["bench", "--nodes", "0"], "'0' is not a whole number of at least 1"),
        (&["bench", "--playouts", "0"], "'0' is not a whole number of at least 1"),
        (&["--memory-mb", "0"], "'0' is not a whole number of megabytes from 1 to 65536"),
        (&["gtp", "--memory-mb", "65537"], "'65537' is not a whole number of megabytes from 1 to 65536"),
    ] {
        let output = nogo(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

/// The command line of every tool, the bot's (empty) first: the subcommands, nested ones
/// included, as clap knows them.
fn tool_paths() -> Vec<Vec<String>> {
    fn walk(command: &clap::Command, path: Vec<String>, paths: &mut Vec<Vec<String>>) {
        for sub in command.get_subcommands().filter(|sub| sub.get_name() != "help") {
            let mut below = path.clone();
            below.push(sub.get_name().to_string());
            walk(sub, below, paths);
        }
        paths.push(path);
    }
    let mut paths = Vec::new();
    walk(&<nogo::cli::Cli as clap::CommandFactory>::command(), Vec::new(), &mut paths);
    paths
}

/// The help clap builds from doc comments reads as help: no rustdoc links, no Rust item names
/// in backticks, no source paths.
#[test]
fn help_texts_hold_no_rustdoc_or_source_paths() {
    let paths = tool_paths();
    assert!(paths.len() >= 6, "{paths:?}");
    for path in paths {
        for flag in ["--help", "-h"] {
            let args: Vec<&str> = path.iter().map(String::as_str).chain([flag]).collect();
            let output = nogo(&args);
            assert!(output.status.success(), "{args:?}");
            let help = String::from_utf8(output.stdout).unwrap();
            assert!(help.contains("Usage: nogo"), "{args:?}: {help}");
            assert!(!help.contains("[`"), "{args:?}: a rustdoc link: {help}");
            assert!(!help.contains("src/"), "{args:?}: a source path: {help}");
            // Between backticks (the odd pieces): no Rust path or type name.
            for quoted in help.split('`').skip(1).step_by(2) {
                let type_name = quoted.starts_with(|c: char| c.is_ascii_uppercase())
                    && quoted.contains(|c: char| c.is_ascii_lowercase());
                assert!(!quoted.contains("::") && !type_name, "{args:?}: `{quoted}` in {help}");
            }
        }
    }
}

/// A pseudo-terminal (Linux): the tests write and read its controller; a child gets its
/// device as a terminal.
#[cfg(target_os = "linux")]
struct Terminal {
    controller: std::fs::File,
    device: std::path::PathBuf,
}

#[cfg(target_os = "linux")]
impl Terminal {
    fn open() -> Terminal {
        use std::os::fd::FromRawFd;
        // SAFETY: no precondition; the result is checked before use.
        let fd = unsafe { libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY) };
        assert!(fd >= 0, "no pseudo-terminal: {}", std::io::Error::last_os_error());
        // SAFETY: `fd` is an open descriptor that nothing else owns; the file closes it.
        let controller = unsafe { std::fs::File::from_raw_fd(fd) };
        let mut name: [libc::c_char; 128] = [0; 128];
        // SAFETY: `fd` is a pseudo-terminal controller and `name` has the length given.
        let ready = unsafe {
            libc::grantpt(fd) == 0
                && libc::unlockpt(fd) == 0
                && libc::ptsname_r(fd, name.as_mut_ptr(), name.len()) == 0
        };
        assert!(ready, "{}", std::io::Error::last_os_error());
        // SAFETY: `ptsname_r` wrote a NUL-terminated name into `name`.
        let device = unsafe { std::ffi::CStr::from_ptr(name.as_ptr()) };
        Terminal { controller, device: device.to_str().unwrap().into() }
    }

    /// The device, opened for a child (without making it the tests' controlling terminal).
    fn device(&self) -> Stdio {
        use std::os::unix::fs::OpenOptionsExt;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_NOCTTY)
            .open(&self.device)
            .unwrap();
        Stdio::from(file)
    }

    /// What the children wrote to the device, until the last of them closed it.
    fn read_to_end(&mut self) -> String {
        use std::io::Read;
        let mut out = Vec::new();
        let mut buffer = [0u8; 4096];
        // Linux answers EIO once no process has the device open.
        while let Ok(n @ 1..) = self.controller.read(&mut buffer) {
            out.extend_from_slice(&buffer[..n]);
        }
        String::from_utf8(out).unwrap()
    }
}

/// Started by hand at a terminal, the bot says on stderr what it waits for, then answers as
/// ever; from a pipe it says nothing.
#[cfg(target_os = "linux")]
#[test]
fn the_bot_at_a_terminal_says_what_it_expects() {
    use std::io::Write;
    let mut terminal = Terminal::open();
    let child = Command::new(env!("CARGO_BIN_EXE_nogo"))
        .args(["--no-keep-running", "--nodes", "50"])
        .stdin(terminal.device())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nogo starts");
    terminal.controller.write_all(b"1\n-1 -1\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.starts_with("nogo: waiting for a Botzone request on stdin, in JSON"), "{stderr}");
    assert!(stderr.ends_with("; nogo --help lists the tools\n") && stderr.lines().count() == 1, "{stderr}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 2, "a move, then the debug line: {stdout}");

    let mut child = Command::new(env!("CARGO_BIN_EXE_nogo"))
        .args(["--no-keep-running", "--nodes", "50"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nogo starts");
    child.stdin.take().unwrap().write_all(b"1\n-1 -1\n").unwrap();
    let output = child.wait_with_output().unwrap();
    let from_a_pipe = String::from_utf8(output.stdout).unwrap();
    assert_eq!(from_a_pipe.lines().next(), stdout.lines().next(), "the same move");
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

/// `nogo play` colours its board on a terminal, unless NO_COLOR is set.
#[cfg(target_os = "linux")]
#[test]
fn play_colours_a_terminal_unless_no_color() {
    use std::io::Write;
    for no_color in [None, Some("1")] {
        let mut terminal = Terminal::open();
        let mut command = Command::new(env!("CARGO_BIN_EXE_nogo"));
        command.args(["play", "--colour", "black", "--nodes", "50"]).env_remove("NO_COLOR");
        if let Some(value) = no_color {
            command.env("NO_COLOR", value);
        }
        let mut child = command.stdin(Stdio::piped()).stdout(terminal.device()).spawn().expect("nogo starts");
        // The child holds the device now: the tests' copy goes with the command.
        drop(command);
        child.stdin.take().unwrap().write_all(b"E5\nquit\n").unwrap();
        let out = terminal.read_to_end();
        assert!(child.wait().unwrap().success());
        assert!(out.contains("Bye."), "{out}");
        let black_stone = "\x1b[1;33mX\x1b[0m";
        match no_color {
            None => assert!(out.contains(black_stone), "{out}"),
            Some(_) => assert!(!out.contains('\x1b'), "{out}"),
        }
    }
}
