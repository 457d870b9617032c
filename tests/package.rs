//! The Botzone artefacts of `scripts/package-botzone`: the static executable, the Python zip
//! and the C++ source, each wrapper checked against the bare executable on every fixture,
//! through bots kept running, and through whole games in the local judge; the C++ one also
//! where exec is forbidden, starting the bot inside its own process.
//!
//! Slow (a static release build, a g++ compile of the 1.4 MB source, games that start a
//! process per turn), so every test is #[ignore]: run them with `scripts/test-package`, or
//! `cargo test --release --test package -- --ignored`. They need `python3`, `g++`, `file`
//! and `ldd`; `NOGO_TEST_PYTHON` names another Python to run the zip with.

use serde_json::Value;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;

const MARKER: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";
/// Iterations per search: the answers are then reproducible, and the games fast.
const NODES: &str = "300";

struct Artefacts {
    dir: PathBuf,
    /// The C++ wrapper, compiled with `g++ -O2` as Botzone compiles it.
    cpp_bot: PathBuf,
}

/// Packages once per test run, into a directory of its own.
fn artefacts() -> &'static Artefacts {
    static ARTEFACTS: OnceLock<Artefacts> = OnceLock::new();
    ARTEFACTS.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = test_dir("package-test");
        let packaged = Command::new(root.join("scripts/package-botzone"))
            .arg("--out")
            .arg(&dir)
            .stderr(Stdio::piped())
            .output()
            .expect("scripts/package-botzone runs");
        let report = String::from_utf8_lossy(&packaged.stderr);
        assert!(packaged.status.success(), "scripts/package-botzone failed: {report}");
        // The routes in order of preference: the bare executable (elfbin) first.
        let routes: Vec<&str> =
            report.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit())).collect();
        assert_eq!(routes.len(), 3, "{report}");
        for (route, (file, language)) in routes.iter().zip([
            ("nogo ", "elfbin"),
            ("nogo-botzone.cpp", "C++"),
            ("nogo-botzone-python.zip", "Python"),
        ]) {
            assert!(route.contains(file) && route.contains(language), "{route}");
        }
        let cpp_bot = dir.join("nogo-botzone-cpp");
        let status = Command::new("g++")
            .arg("-O2")
            .arg("-o")
            .arg(&cpp_bot)
            .arg(dir.join("nogo-botzone.cpp"))
            .status()
            .expect("g++ runs");
        assert!(status.success(), "g++ -O2 rejects dist/nogo-botzone.cpp");
        // The zip as a host that unpacks it would leave it.
        let status = Command::new("python3")
            .args(["-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])"])
            .arg(dir.join("nogo-botzone-python.zip"))
            .arg(dir.join("unzipped"))
            .status()
            .expect("python3 runs");
        assert!(status.success());
        Artefacts { dir, cpp_bot }
    })
}

#[derive(Clone, Copy, Debug)]
enum Wrapper {
    /// `python3 nogo-botzone-python.zip`
    Python,
    /// `python3 __main__.py` in the unpacked zip
    PythonUnzipped,
    Cpp,
}

const WRAPPERS: [Wrapper; 3] = [Wrapper::Python, Wrapper::PythonUnzipped, Wrapper::Cpp];

/// The command line that starts a wrapper.
fn wrapper_command(wrapper: Wrapper) -> Vec<String> {
    let a = artefacts();
    let python = std::env::var("NOGO_TEST_PYTHON").unwrap_or_else(|_| "python3".into());
    match wrapper {
        Wrapper::Python => vec![python, a.dir.join("nogo-botzone-python.zip").display().to_string()],
        Wrapper::PythonUnzipped => vec![python, a.dir.join("unzipped/__main__.py").display().to_string()],
        Wrapper::Cpp => vec![a.cpp_bot.display().to_string()],
    }
}

fn command(words: &[String]) -> Command {
    let mut command = Command::new(&words[0]);
    command.args(&words[1..]);
    command
}

fn run(mut command: Command, args: &[&str], envs: &[(&str, &str)], input: &[u8]) -> Output {
    let mut child = command
        .args(args)
        .envs(envs.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the bot starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // A bot refusing its input may exit before reading all of it.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().expect("the bot runs");
    writer.join().unwrap();
    output
}

/// The answer in a bot's output without the debug text (which holds timings): the JSON
/// `response`, or the text protocol's first line.
fn answer(stdout: &[u8]) -> String {
    let text = String::from_utf8_lossy(stdout);
    let first = text.lines().next().unwrap_or("").to_string();
    match serde_json::from_str::<Value>(&first) {
        Ok(json) => json["response"].to_string(),
        Err(_) => first,
    }
}

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/botzone");
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json" || e == "txt"))
        .collect();
    files.sort();
    files
}

#[test]
#[ignore = "slow: static release build; run scripts/test-package"]
fn the_executable_is_static_and_asks_for_no_newer_kernel_than_ubuntu_16_04() {
    let binary = artefacts().dir.join("nogo");
    let file = Command::new("file").arg("-b").arg(&binary).output().expect("file runs");
    let description = String::from_utf8_lossy(&file.stdout).to_string();
    assert!(description.contains("ELF 64-bit") && description.contains("x86-64"), "{description}");
    assert!(description.contains("statically linked"), "{description}");
    let kernel: Vec<u32> = description
        .split("for GNU/Linux ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .unwrap_or_else(|| panic!("no minimum kernel in {description}"))
        .split('.')
        .map(|n| n.parse().unwrap())
        .collect();
    assert!(kernel <= vec![4, 4], "needs Linux {kernel:?}, Ubuntu 16.04 has 4.4");
    let ldd = Command::new("ldd").arg(&binary).output().expect("ldd runs");
    let said = String::from_utf8_lossy(&ldd.stdout).to_string() + &String::from_utf8_lossy(&ldd.stderr);
    assert!(said.contains("not a dynamic executable"), "ldd: {said}");
}

#[test]
#[ignore = "slow: static release build; run scripts/test-package"]
fn the_zip_holds_the_entry_and_the_very_executable() {
    let dir = &artefacts().dir;
    let script = "import sys, zipfile\n\
                  z = zipfile.ZipFile(sys.argv[1])\n\
                  print(sorted(z.namelist()))\n\
                  sys.stdout.flush()\n\
                  sys.stdout.buffer.write(z.read('nogo'))";
    let output = Command::new("python3")
        .args(["-c", script])
        .arg(dir.join("nogo-botzone-python.zip"))
        .output()
        .expect("python3 runs");
    assert!(output.status.success());
    let names_end = output.stdout.iter().position(|&b| b == b'\n').unwrap();
    assert_eq!(&output.stdout[..names_end], b"['__main__.py', 'nogo']");
    assert!(output.stdout[names_end + 1..] == fs::read(dir.join("nogo")).unwrap());
}

/// The packaged executable is this crate's bot: same answers as the test build.
#[test]
#[ignore = "slow: static release build; run scripts/test-package"]
fn the_packaged_executable_answers_as_the_crate_bot() {
    let packaged = artefacts().dir.join("nogo");
    for fixture in fixtures() {
        let input = fs::read(&fixture).unwrap();
        let args = ["--no-keep-running", "--nodes", NODES];
        let ours = run(Command::new(env!("CARGO_BIN_EXE_nogo")), &args, &[], &input);
        let theirs = run(Command::new(&packaged), &args, &[], &input);
        assert_eq!(answer(&theirs.stdout), answer(&ours.stdout), "{}", fixture.display());
        assert_eq!(theirs.status.code(), ours.status.code(), "{}", fixture.display());
    }
}

/// stdin, stdout, stderr, arguments and the exit code pass through each wrapper unchanged, by
/// every way of starting the executable (the C++ one's in-process start included).
#[test]
#[ignore = "slow: static release build; run scripts/test-package"]
fn each_wrapper_answers_every_fixture_as_the_bare_executable() {
    let bare = artefacts().dir.join("nogo");
    let cache = wrapper_cache();
    let from_file = [("NOGO_WRAPPER_NO_MEMFD", "1"), ("NOGO_WRAPPER_TMPDIR", cache.as_str())];
    let in_process = [("NOGO_WRAPPER_IN_PROCESS", "only")];
    let args = ["--no-keep-running", "--nodes", NODES];
    for fixture in fixtures() {
        let input = fs::read(&fixture).unwrap();
        let expected = run(Command::new(&bare), &args, &[], &input);
        for wrapper in WRAPPERS {
            let ways: &[&[(&str, &str)]] = match wrapper {
                Wrapper::Cpp => &[&[], &from_file, &in_process],
                _ => &[&[], &from_file],
            };
            for &envs in ways {
                let got = run(command(&wrapper_command(wrapper)), &args, envs, &input);
                let case = format!("{wrapper:?} {envs:?} {}", fixture.display());
                assert_eq!(answer(&got.stdout), answer(&expected.stdout), "{case}");
                assert_eq!(got.stderr, expected.stderr, "{case}");
                assert_eq!(got.status.code(), expected.status.code(), "{case}");
            }
        }
    }
}

/// A kept-running bot, read line by line.
struct KeptBot {
    child: Child,
    out: BufReader<std::process::ChildStdout>,
}

impl KeptBot {
    /// Starts `wrapper` behind the command-line `prefix` (which runs the rest).
    fn start(prefix: &[String], wrapper: Wrapper, envs: &[(&str, &str)]) -> KeptBot {
        let words: Vec<String> = prefix.iter().cloned().chain(wrapper_command(wrapper)).collect();
        let mut child = command(&words)
            .args(["--nodes", NODES])
            .envs(envs.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the wrapper starts");
        let out = BufReader::new(child.stdout.take().unwrap());
        KeptBot { child, out }
    }

    /// Sends one line; the answer's move, after checking the keep-running marker follows it.
    fn ask(&mut self, line: &str) -> (i64, i64) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        self.out.read_line(&mut answer).unwrap();
        let mut marker = String::new();
        self.out.read_line(&mut marker).unwrap();
        assert_eq!(marker.trim_end(), MARKER, "after {answer:?}");
        let json: Value = serde_json::from_str(&answer).unwrap_or_else(|e| panic!("{answer:?}: {e}"));
        (json["response"]["x"].as_i64().unwrap(), json["response"]["y"].as_i64().unwrap())
    }

    /// What the wrapper's process now runs: its name and its bytes.
    fn executable(&self) -> (String, Vec<u8>) {
        let exe = format!("/proc/{}/exe", self.child.id());
        (fs::read_link(&exe).unwrap().display().to_string(), fs::read(&exe).unwrap())
    }
}

/// Runs the rest of a command line with only the system calls of an older kernel
/// (`scripts/botzone/old-kernel.py`): `without` lists more to deny.
fn old_kernel(without: &str) -> Vec<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/botzone/old-kernel.py");
    vec!["python3".into(), script.display().to_string(), "--without".into(), without.into(), "--".into()]
}

/// Each wrapper replaces its own process with the bot (no process in between), byte for byte
/// the packaged executable, which keeps running across turns; end of input ends it cleanly.
/// Also with the system calls of Linux 4.4 only (Ubuntu 16.04), and of a kernel before 3.17
/// (no memfd_create nor execveat), where the wrappers fall back to a file.
#[test]
#[ignore = "slow: static release build; run scripts/test-package"]
fn each_wrapper_becomes_the_bot_and_keeps_running() {
    let cache = wrapper_cache();
    let cache_str = cache.as_str();
    let packaged = fs::read(artefacts().dir.join("nogo")).unwrap();
    let to_cache = [("NOGO_WRAPPER_TMPDIR", cache_str)];
    let no_memfd = [("NOGO_WRAPPER_NO_MEMFD", "1"), ("NOGO_WRAPPER_TMPDIR", cache_str)];
    // (command-line prefix, environment, where the running executable must come from)
    type Case<'a> = (Vec<String>, &'a [(&'a str, &'a str)], &'a str);
    let cases: [Case; 4] = [
        (vec![], &[], "/memfd:nogo"),
        (vec![], &no_memfd, cache_str),
        (old_kernel(""), &[], "/memfd:nogo"),
        (old_kernel("319,322"), &to_cache, cache_str),
    ];
    for wrapper in WRAPPERS {
        for (prefix, envs, runs_from) in &cases {
            let case = format!("{wrapper:?} {prefix:?} {envs:?}");
            let mut bot = KeptBot::start(prefix, wrapper, envs);
            let first = bot.ask(r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#);
            let (executable, bytes) = bot.executable();
            assert!(executable.starts_with(runs_from), "{case} runs {executable}");
            assert!(bytes == packaged, "{case}: {executable} differs from dist/nogo");
            // Answer with any other point; the bot must then answer a third one.
            let reply = if first == (0, 0) { (8, 8) } else { (0, 0) };
            let second = bot.ask(&format!(r#"{{"x":{},"y":{}}}"#, reply.0, reply.1));
            assert!(second != first && second != reply, "{case}: {second:?}");
            drop(bot.child.stdin.take());
            assert!(bot.child.wait().unwrap().success(), "{case}");
        }
    }
}

/// Plays `games` judged games (`nogo arena`) of the Botzone bot started by the command line
/// `words`, named "wrapper", kept running or restarted, against a random player. Checks every
/// game ended with a side that had no legal move (no illegal, late or malformed answer), and
/// counts the starts of `words`: once per game when kept running, once per move when
/// restarted. The summary goes to `dir/case.json`.
fn judged_games(words: &[String], keep_running: bool, games: u64, dir: &Path, case: &str) -> Value {
    let starts = dir.join(format!("{case}.starts"));
    let summary = dir.join(format!("{case}.json"));
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let player = format!(
        "echo >> '{}'; exec {} --nodes {NODES}{}",
        starts.display(),
        quoted.join(" "),
        if keep_running { "" } else { " --no-keep-running" }
    );
    let status = Command::new(env!("CARGO_BIN_EXE_nogo"))
        .args(["arena", "--player1", &player, "--name1", "wrapper", "--player2", "builtin:random"])
        .args(["--games", &games.to_string(), "--openings", "none", "--seed", "7", "--quiet"])
        .arg("--json")
        .arg(&summary)
        .status()
        .expect("nogo arena runs");
    assert!(status.success(), "{case}: nogo arena failed");
    let result: Value = serde_json::from_str(&fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(result["games"], games, "{case}");
    for (name, verdicts) in result["losses_by_verdict"].as_object().unwrap() {
        for (verdict, count) in verdicts.as_object().unwrap() {
            if verdict != "no-legal-move" {
                assert_eq!(count, 0, "{case}: {name} lost by {verdict}");
            }
        }
    }
    let moves = result["move_time"]["wrapper"]["moves"].as_u64().unwrap();
    assert!(moves >= games * 5, "{case}: {moves} moves");
    let started = fs::read_to_string(&starts).unwrap().lines().count() as u64;
    assert_eq!(started, if keep_running { games } else { moves }, "{case}");
    result
}

/// A fresh directory for a test's files.
fn test_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Whole games against a random player in the local judge (`nogo arena`), which rejects any
/// illegal, late or malformed answer, in both of Botzone's modes, with the system calls of
/// Linux 4.4 only.
#[test]
#[ignore = "slow: static release build; run scripts/test-package"]
fn each_wrapper_plays_whole_legal_games_kept_running_and_restarted() {
    let dir = test_dir("package-test-games");
    for wrapper in WRAPPERS {
        for keep_running in [true, false] {
            let case = format!("{wrapper:?}-{}", if keep_running { "kept" } else { "restarted" });
            let words: Vec<String> = old_kernel("").into_iter().chain(wrapper_command(wrapper)).collect();
            judged_games(&words, keep_running, 2, &dir, &case);
        }
    }
}

/// A wrapper that cannot start the bot still answers, in the input's protocol, with the
/// reason in the debug text that Botzone keeps in the match log.
#[test]
#[ignore = "slow: static release build; run scripts/test-package"]
fn a_wrapper_that_cannot_start_the_bot_says_why() {
    let nowhere = [
        ("NOGO_WRAPPER_NO_MEMFD", "1"),
        ("NOGO_WRAPPER_TMPDIR", "/nonexistent/nogo-test"),
        ("NOGO_WRAPPER_IN_PROCESS", "never"),
    ];
    let json = br#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#;
    for wrapper in WRAPPERS {
        // Botzone keeps stdin open while it waits for the answer.
        let mut child = command(&wrapper_command(wrapper))
            .envs(nowhere)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        child.stdin.as_mut().unwrap().write_all(b"\n{\"requests\":[{\"x\":-1,\"y\":-1}]}\n").unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = out.read_line(&mut line);
            let _ = sender.send(line);
        });
        let line = receiver.recv_timeout(std::time::Duration::from_secs(20));
        let _ = child.kill();
        let _ = child.wait();
        let line = line.unwrap_or_else(|_| panic!("{wrapper:?}: no answer while stdin stays open"));
        assert!(line.contains("cannot start the bot"), "{wrapper:?}: {line}");

        let got = run(command(&wrapper_command(wrapper)), &[], &nowhere, json);
        assert_eq!(got.status.code(), Some(1), "{wrapper:?}");
        let answer: Value = serde_json::from_slice(&got.stdout).unwrap();
        assert_eq!(answer["response"], serde_json::json!({"x": -1, "y": -1}), "{wrapper:?}");
        let debug = answer["debug"].as_str().unwrap();
        assert!(
            debug.contains("cannot start the bot") && debug.contains("/nonexistent/nogo-test"),
            "{debug}"
        );
        assert!(String::from_utf8_lossy(&got.stderr).contains(debug), "{wrapper:?}");

        let text = run(command(&wrapper_command(wrapper)), &[], &nowhere, b"1\n-1 -1\n");
        let stdout = String::from_utf8_lossy(&text.stdout).to_string();
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 2, "{wrapper:?}: {stdout}");
        assert_eq!(lines[0], "-1 -1");
        assert!(lines[1].contains("cannot start the bot"), "{wrapper:?}: {stdout}");
    }
}

/// `--args` bakes options into both wrappers, before the options a wrapper is started with.
#[test]
#[ignore = "slow: static release build; run scripts/test-package"]
fn baked_options_come_before_the_wrappers_own() {
    let bare = artefacts().dir.join("nogo");
    let dir = test_dir("package-test-baked");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let status = Command::new(root.join("scripts/package-botzone"))
        .arg("--out")
        .arg(&dir)
        .args(["--args", "--seed 5 --nodes 700"])
        .status()
        .unwrap();
    assert!(status.success());
    let cpp_bot = dir.join("nogo-botzone-cpp");
    let status =
        Command::new("g++").arg("-O2").arg("-o").arg(&cpp_bot).arg(dir.join("nogo-botzone.cpp")).status();
    assert!(status.unwrap().success());
    let python = std::env::var("NOGO_TEST_PYTHON").unwrap_or_else(|_| "python3".into());
    let wrappers = [
        vec![python, dir.join("nogo-botzone-python.zip").display().to_string()],
        vec![cpp_bot.display().to_string()],
    ];
    for fixture in fixtures().iter().filter(|f| f.to_str().unwrap().contains("middle-game")) {
        let input = fs::read(fixture).unwrap();
        let expected =
            run(Command::new(&bare), &["--seed", "5", "--nodes", "700", "--no-keep-running"], &[], &input);
        assert!(expected.status.success());
        for words in &wrappers {
            let got = run(command(words), &["--no-keep-running"], &[], &input);
            assert_eq!(answer(&got.stdout), answer(&expected.stdout), "{words:?} {}", fixture.display());
            assert!(got.status.success());
            // The baked --nodes, not the clock, ended the search.
            let stdout = String::from_utf8_lossy(&got.stdout);
            assert!(stdout.contains("iterations=700 "), "{words:?}: {stdout}");
        }
    }
}

/// Runs the rest of a command line where exec is forbidden (`scripts/botzone/no-exec.py`):
/// once it has started, execve, execveat and memfd_create fail with EPERM. With the system
/// calls of Linux 4.4 only, as on Botzone's kernel.
fn no_exec() -> Vec<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/botzone/no-exec.py");
    old_kernel("").into_iter().chain(["python3".into(), script.display().to_string(), "--".into()]).collect()
}

/// The wrapper's cached copies go here, not to /tmp.
fn wrapper_cache() -> String {
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("package-test-cache");
    fs::create_dir_all(&cache).unwrap();
    cache.display().to_string()
}

/// The C++ wrapper compiled with `g++ -O2` and `flags`, into the artefacts' directory.
fn compile_wrapper(name: &str, flags: &[&str]) -> PathBuf {
    let dir = &artefacts().dir;
    let exe = dir.join(name);
    let status = Command::new("g++")
        .arg("-O2")
        .args(flags)
        .arg("-o")
        .arg(&exe)
        .arg(dir.join("nogo-botzone.cpp"))
        .status()
        .expect("g++ runs");
    assert!(status.success(), "g++ -O2 {flags:?} rejects dist/nogo-botzone.cpp");
    exe
}

const FIRST_TURN: &[u8] = br#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#;

/// The sandbox works: under it a shell cannot start another program, and the C++ wrapper's
/// exec routes all fail.
#[test]
#[ignore = "slow: static release build; run scripts/test-package"]
fn no_exec_forbids_exec() {
    let probe = run(command(&no_exec()), &["sh", "-c", "exec /bin/true"], &[], b"");
    assert_eq!(probe.status.code(), Some(126), "{}", String::from_utf8_lossy(&probe.stderr));
    assert!(String::from_utf8_lossy(&probe.stderr).contains("Operation not permitted"));

    let cache = wrapper_cache();
    let envs = [("NOGO_WRAPPER_IN_PROCESS", "never"), ("NOGO_WRAPPER_TMPDIR", &cache)];
    let words: Vec<String> = no_exec().into_iter().chain(wrapper_command(Wrapper::Cpp)).collect();
    let got = run(command(&words), &[], &envs, FIRST_TURN);
    let answer: Value = serde_json::from_slice(&got.stdout).unwrap();
    assert_eq!(answer["response"], serde_json::json!({"x": -1, "y": -1}));
    let debug = answer["debug"].as_str().unwrap();
    assert!(debug.contains("memfd_create: Operation not permitted"), "{debug}");
    assert!(
        debug.contains(&format!("execv {cache}/nogo-")) && debug.ends_with("Operation not permitted"),
        "{debug}"
    );
}

/// Where exec is forbidden the C++ wrapper starts the bot inside its own process: the process
/// still runs the wrapper's executable, with the bot's code mapped at its link address (1.5 GB),
/// keeps running across turns and ends cleanly at end of input. Compiled as a PIE (g++'s
/// default here), as a classic executable at 4 MB, and statically, it answers every fixture as
/// the bare executable does.
#[test]
#[ignore = "slow: static release build; run scripts/test-package"]
fn the_cpp_wrapper_starts_the_bot_in_its_own_process_where_exec_is_forbidden() {
    let cache = wrapper_cache();
    let to_cache = [("NOGO_WRAPPER_TMPDIR", cache.as_str())];
    let mut bot = KeptBot::start(&no_exec(), Wrapper::Cpp, &to_cache);
    let first = bot.ask(std::str::from_utf8(FIRST_TURN).unwrap());
    let (executable, _) = bot.executable();
    assert_eq!(Path::new(&executable), artefacts().cpp_bot, "runs {executable}");
    let maps = fs::read_to_string(format!("/proc/{}/maps", bot.child.id())).unwrap();
    let bot_code = maps.lines().any(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let start = u64::from_str_radix(fields[0].split('-').next().unwrap(), 16).unwrap();
        (0x6000_0000..0x7000_0000).contains(&start) && fields[1] == "r-xp" && fields.len() == 5
    });
    assert!(bot_code, "no anonymous executable mapping at 1.5 GB:\n{maps}");
    let reply = if first == (0, 0) { (8, 8) } else { (0, 0) };
    let second = bot.ask(&format!(r#"{{"x":{},"y":{}}}"#, reply.0, reply.1));
    assert!(second != first && second != reply, "{second:?}");
    drop(bot.child.stdin.take());
    assert!(bot.child.wait().unwrap().success());

    let bare = artefacts().dir.join("nogo");
    let args = ["--no-keep-running", "--nodes", NODES];
    for (name, flags) in [("default", &[][..]), ("no-pie", &["-no-pie"][..]), ("static", &["-static"][..])] {
        let exe = compile_wrapper(&format!("nogo-botzone-cpp-{name}"), flags);
        let file = Command::new("file").arg("-b").arg(&exe).output().expect("file runs");
        let description = String::from_utf8_lossy(&file.stdout).to_string();
        assert_eq!(description.contains("pie executable"), name == "default", "{name}: {description}");
        let words: Vec<String> = no_exec().into_iter().chain([exe.display().to_string()]).collect();
        for fixture in fixtures() {
            let input = fs::read(&fixture).unwrap();
            let expected = run(Command::new(&bare), &args, &[], &input);
            let got = run(command(&words), &args, &to_cache, &input);
            let case = format!("{name} {}", fixture.display());
            assert_eq!(answer(&got.stdout), answer(&expected.stdout), "{case}");
            assert_eq!(got.stderr, expected.stderr, "{case}");
            assert_eq!(got.status.code(), expected.status.code(), "{case}");
        }
    }
}

/// A wrapper whose own image lies where the bot is linked cannot start it in its process: it
/// says so in one line and answers the illegal move, and still starts the bot by exec.
#[test]
#[ignore = "slow: static release build; run scripts/test-package"]
fn the_cpp_wrapper_refuses_an_in_process_start_over_its_own_image() {
    let exe = compile_wrapper("nogo-botzone-cpp-at-1536mb", &["-no-pie", "-Wl,-Ttext-segment=0x60000000"]);
    let got = run(Command::new(&exe), &[], &[("NOGO_WRAPPER_IN_PROCESS", "only")], FIRST_TURN);
    assert_eq!(got.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&got.stderr).to_string();
    assert_eq!(
        stderr,
        "nogo wrapper: cannot start the bot: in-process start: the executable's addresses are in use\n"
    );
    let answer: Value = serde_json::from_slice(&got.stdout).unwrap();
    assert_eq!(answer["response"], serde_json::json!({"x": -1, "y": -1}));
    let by_exec = run(Command::new(&exe), &["--no-keep-running", "--nodes", NODES], &[], FIRST_TURN);
    assert!(by_exec.status.success() && by_exec.stdout.starts_with(br#"{"response":{"x":"#));
}

/// Where exec is forbidden, the C++ wrapper plays whole judged games against a random player,
/// kept running and restarted, every move legal and in time.
#[test]
#[ignore = "slow: static release build; run scripts/test-package"]
fn the_cpp_wrapper_plays_whole_games_where_exec_is_forbidden() {
    let dir = test_dir("package-test-no-exec");
    let cache = format!("NOGO_WRAPPER_TMPDIR={}", wrapper_cache());
    let words: Vec<String> =
        ["env".into(), cache].into_iter().chain(no_exec()).chain(wrapper_command(Wrapper::Cpp)).collect();
    for keep_running in [true, false] {
        let case = if keep_running { "kept" } else { "restarted" };
        let result = judged_games(&words, keep_running, 2, &dir, case);
        eprintln!("no exec, {case}: wrapper move time {}", result["move_time"]["wrapper"]);
    }
}
