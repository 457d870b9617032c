//! End-to-end tests of `nogo arena`: the verdicts broken bots get, the Botzone protocol as the
//! fixture bots check it (restart, keep-running, both formats, GTP), records and summaries.

use nogo::protocols::sgf::GameRecord;
use nogo::Color;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const NOGO: &str = env!("CARGO_BIN_EXE_nogo");

fn fixture(path: &str) -> String {
    format!("{}/fixtures/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// What a run of `nogo arena` left.
struct Run {
    code: i32,
    /// The JSON summary written to `--json`'s file (`Null` when none was).
    summary: Value,
    /// stdout: the result table.
    table: String,
    stderr: String,
    /// How long the command took.
    took: Duration,
}

/// Runs `nogo arena` (any arguments, `merge` included) with `--json json`.
fn run(args: &[&str], json: &Path) -> Run {
    let _ = std::fs::remove_file(json);
    let start = Instant::now();
    let output =
        Command::new(NOGO).arg("arena").args(args).arg("--json").arg(json).output().expect("nogo runs");
    let summary = std::fs::read_to_string(json).ok().and_then(|t| serde_json::from_str(&t).ok());
    Run {
        code: output.status.code().unwrap_or(-1),
        summary: summary.unwrap_or(Value::Null),
        table: String::from_utf8_lossy(&output.stdout).into(),
        stderr: String::from_utf8_lossy(&output.stderr).into(),
        took: start.elapsed(),
    }
}

/// Runs a match, `nogo arena --quiet` with `args`, its summary in a file of its own.
fn arena(args: &[&str]) -> Run {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("arena-summaries");
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join(format!("{}-{}.json", std::process::id(), RUNS.fetch_add(1, Ordering::Relaxed)));
    run(&[&["--quiet"], args].concat(), &json)
}

/// A fresh directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Plays `bot` (a broken-bot fixture) against builtin random and checks it lost every game
/// with `verdict`.
fn assert_broken_bot(bot: &str, verdict: &str, limits: &[&str]) {
    let command = format!("python3 {}", fixture(&format!("broken-bots/{bot}.py")));
    let mut args = vec!["--player1", &command, "--player2", "random", "--games", "2", "--seed", "5"];
    args.extend_from_slice(limits);
    let Run { code, summary, stderr, .. } = arena(&args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!((summary["games"].as_u64(), summary["wins"].as_u64()), (Some(2), Some(0)), "{summary:#}");
    let losses = &summary["losses_by_verdict"][bot];
    assert_eq!(losses[verdict], 2, "{bot}: {losses:#}\n{stderr}");
}

#[test]
fn a_bot_that_never_answers_loses_on_time() {
    assert_broken_bot("timeout", "timeout", &["--time", "0.3", "--first-time", "0.3"]);
}

#[test]
fn a_bot_playing_on_a_stone_loses_by_an_occupied_point() {
    assert_broken_bot("occupied", "illegal-occupied", &["--time", "5"]);
}

#[test]
fn a_bot_playing_suicide_loses_by_suicide() {
    assert_broken_bot("suicide", "illegal-suicide", &["--time", "5"]);
}

#[test]
fn a_bot_taking_a_last_liberty_loses_by_capture() {
    assert_broken_bot("capture", "illegal-capture", &["--time", "5"]);
}

#[test]
fn a_bot_printing_junk_loses_by_malformed_output() {
    assert_broken_bot("junk", "malformed-output", &["--time", "5"]);
}

#[test]
fn a_bot_dying_without_an_answer_loses_by_crash() {
    assert_broken_bot("crash", "crash", &["--time", "5"]);
}

#[test]
fn a_kept_bot_forgetting_the_marker_loses_on_time() {
    // The first turn (with the marker) has plenty of time; the second waits for the marker.
    assert_broken_bot(
        "no_marker",
        "timeout-no-keep-running-marker",
        &["--time", "0.5", "--first-time", "10"],
    );
}

/// Plays a well-behaved fixture against builtin random and checks that no game ended by a
/// fault, that every game has a replayable record agreeing with the summary.
fn assert_clean_match(player: &str, games: u64, extra: &[&str], dir: &str) {
    let sgf_dir = scratch(dir);
    let games_text = games.to_string();
    let mut args = vec![
        "--player1",
        player,
        "--player2",
        "random",
        "--games",
        &games_text,
        "--time",
        "10",
        "--seed",
        "3",
    ];
    args.extend_from_slice(&["--sgf-dir", sgf_dir.to_str().unwrap()]);
    args.extend_from_slice(extra);
    let Run { code, summary, stderr, .. } = arena(&args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(summary["games"], games, "{summary:#}\n{stderr}");
    for name in [summary["player1"]["name"].as_str().unwrap(), "random"] {
        for (verdict, count) in summary["losses_by_verdict"][name].as_object().unwrap() {
            assert!(verdict == "no-legal-move" || count == 0, "{name} lost by {verdict}:\n{stderr}");
        }
    }
    let mut black_wins = 0;
    for number in 1..=games {
        let text = std::fs::read_to_string(sgf_dir.join(format!("game-{number:04}.sgf"))).unwrap();
        let record = GameRecord::from_sgf(&text).expect("records replay through the rules");
        let position = record.position().unwrap();
        assert!(position.is_terminal(), "game {number} ends with the loser unable to move");
        let result = record.result.unwrap();
        assert_eq!(result.winner, !position.to_move());
        black_wins += u64::from(result.winner == Color::Black);
    }
    assert_eq!(summary["black_wins"], black_wins);
}

#[test]
fn keep_running_json_bots_get_one_request_per_turn() {
    let player = format!("python3 {} json keep", fixture("bots/good.py"));
    assert_clean_match(&player, 2, &[], "keep-json");
}

#[test]
fn text_bots_alternating_restart_and_keep_running_see_a_consistent_game() {
    let player = format!("text:python3 {} text alternate", fixture("bots/good.py"));
    assert_clean_match(&player, 2, &[], "alternate-text");
}

#[test]
fn restarted_bots_get_the_full_history_and_their_data_back() {
    let player = format!("python3 {} json restart strict", fixture("bots/good.py"));
    assert_clean_match(&player, 1, &["--openings", "none"], "restart-json");
}

#[test]
fn gtp_engines_play_through_genmove_and_play() {
    let player = format!("gtp:python3 {}", fixture("bots/gtp.py"));
    assert_clean_match(&player, 2, &[], "gtp");
}

#[test]
fn builtin_engines_play_from_the_openings_file() {
    let openings = scratch("openings-file");
    std::fs::create_dir_all(&openings).unwrap();
    let file = openings.join("two.txt");
    std::fs::write(&file, "# two openings\nE5 D4\nA1 J9 C3\n").unwrap();
    let sgf_dir = scratch("builtin");
    let args = [
        "--player1",
        "builtin:mcts",
        "--player2",
        "random",
        "--games",
        "4",
        "--time",
        "0.05",
        "--openings",
        file.to_str().unwrap(),
        "--sgf-dir",
        sgf_dir.to_str().unwrap(),
    ];
    let Run { code, summary, stderr, .. } = arena(&args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(summary["games"], 4);
    assert_eq!(
        summary["player1_as_black"]["wins"].as_u64().unwrap()
            + summary["player1_as_black"]["losses"].as_u64().unwrap(),
        2
    );
    let first_moves = |n: u32| {
        let text = std::fs::read_to_string(sgf_dir.join(format!("game-000{n}.sgf"))).unwrap();
        let record = GameRecord::from_sgf(&text).unwrap();
        (record.black, record.moves.iter().take(3).map(|p| p.to_string()).collect::<Vec<_>>())
    };
    // Games 1 and 2 share the first opening with colours swapped; games 3 and 4 the second.
    let (black1, moves1) = first_moves(1);
    let (black2, moves2) = first_moves(2);
    assert_eq!((black1.as_str(), black2.as_str()), ("mcts", "random"));
    assert_eq!(
        (&moves1[..2], &moves2[..2]),
        (&["E5".to_string(), "D4".into()][..], &["E5".to_string(), "D4".into()][..])
    );
    assert_eq!(first_moves(3).1, ["A1", "J9", "C3"]);
    assert_eq!(first_moves(4).0, "random");
}

#[test]
fn proven_wins_are_recorded_for_builtin_and_botzone_players_and_never_lost() {
    // Built-in mcts against this project's bot over the Botzone protocol, whose proofs come
    // from its `debug` field. A game whose loser is left without a legal move ends with the
    // winner's decisive move, which it reports as a proven win; a turn over the limit (a stall
    // of a loaded machine) ends a game without one.
    let sgf_dir = scratch("proofs");
    let bot = format!("{NOGO} --time 0.02");
    let args = [
        "--player1",
        "mcts",
        "--player2",
        &bot,
        "--games",
        "2",
        "--time",
        "0.1",
        "--seed",
        "11",
        "--sgf-dir",
        sgf_dir.to_str().unwrap(),
    ];
    let Run { code, summary, stderr, .. } = arena(&args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(summary["games"], 2, "{summary:#}");
    for name in ["mcts", "nogo"] {
        let proofs = &summary["proofs"][name];
        assert_eq!(proofs["lost_after_proven_win"], 0, "{name}: {proofs:#}\n{stderr}");
    }
    let games = summary["games_list"].as_array().expect("the games");
    let decided: Vec<&Value> = games.iter().filter(|game| game["verdict"] == "no-legal-move").collect();
    assert!(!decided.is_empty(), "no game ended without a legal move: {summary:#}");
    for game in &decided {
        let winner = game["winner"].as_str().expect("a winner");
        assert!(game["proofs"][winner]["win"].is_u64(), "the winner reported no proven win: {game:#}");
    }
    assert!(stderr.contains("mcts: lost after a proven win: 0 of"), "{stderr}");

    // Each record names the proofs; a move number is that of a move its player chose.
    let mut claims = 0;
    for number in 1..=2 {
        let text = std::fs::read_to_string(sgf_dir.join(format!("game-{number:04}.sgf"))).unwrap();
        let record = GameRecord::from_sgf(&text).unwrap();
        for line in record.comment.lines().filter(|line| line.contains(" reported a proven ")) {
            let black = line.contains("(black)");
            let at: usize = line.rsplit(' ').next().unwrap().parse().unwrap();
            assert!(at >= 1 && at <= record.moves.len(), "{line}");
            assert_eq!(at % 2 == 1, black, "black chooses the odd moves: {line}");
            let winner = record.result.as_ref().unwrap().winner;
            if line.contains("proven win") {
                assert_eq!(winner == Color::Black, black, "a proven win was lost: {line}");
            }
            claims += 1;
        }
    }
    assert!(claims >= decided.len(), "{stderr}");
}

#[test]
fn a_text_botzone_bot_reports_its_proofs_on_the_debug_line() {
    let bot = format!("text:{NOGO} --time 0.02");
    let args = ["--player1", &bot, "--player2", "random", "--games", "2", "--time", "0.05", "--seed", "2"];
    let Run { code, summary, stderr, .. } = arena(&args);
    assert_eq!(code, 0, "{stderr}");
    let proofs = &summary["proofs"]["nogo"];
    assert!(summary["wins"].as_u64().unwrap() >= 1, "{summary:#}");
    assert!(proofs["proven_win_games"].as_u64() >= summary["wins"].as_u64(), "{proofs:#}");
    assert_eq!(proofs["lost_after_proven_win"], 0, "{proofs:#}");
    assert_eq!(summary["proofs"]["random"]["proven_win_games"], 0);
}

#[test]
fn sprt_stops_a_decided_match() {
    let junk = format!("python3 {}", fixture("broken-bots/junk.py"));
    let args = [
        "--player1",
        "random",
        "--player2",
        &junk,
        "--games",
        "200",
        "--time",
        "5",
        "--sprt",
        "0,200,0.05,0.05",
    ];
    let Run { code, summary, table, stderr, .. } = arena(&args);
    assert_eq!(code, 0, "{stderr}");
    // Every win adds ln(p1/p0) = 0.419 to the LLR: H1 after 8 straight wins.
    assert_eq!(summary["games"], 8, "{summary:#}");
    assert_eq!(summary["sprt"]["result"], "H1");
    assert!(table.contains("\nSPRT      H1 accepted after 8 games: LLR 3.35 left [-2.94, 2.94]"), "{table}");
}

#[test]
fn bad_options_get_one_clear_line() {
    let cases: [(&[&str], &str); 4] = [
        (&["--player1", "builtin:nope", "--player2", "random"], "no built-in engine 'nope'"),
        (
            &["--player1", "mcts", "--player2", "random", "--openings", "/no/such/file"],
            "cannot read openings",
        ),
        (&["--player1", "mcts", "--player2", "random", "--time", "0"], "--time must be a positive"),
        (&["--player1", "mcts", "--player2", "random", "--sprt", "1,2"], "four values"),
    ];
    for (args, message) in cases {
        let Run { code, stderr, .. } = arena(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn a_missing_program_is_a_crash_not_an_arena_failure() {
    let Run { code, summary, stderr, .. } =
        arena(&["--player1", "/no/such/bot", "--player2", "random", "--games", "2"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(summary["losses_by_verdict"]["bot"]["crash"], 2, "{summary:#}");
}

/// Plays `bot` as black from the empty board against random, one game; checks that it lost
/// by a crash at `move_number` with `words` of its stderr quoted in the record and on stderr,
/// and returns the run.
fn assert_crash(bot: &str, time: &str, move_number: u32, words: &[&str]) -> Run {
    let args = ["--player1", bot, "--name1", "bot", "--player2", "random", "--games", "1"];
    let run = arena(&[&args[..], &["--openings", "none", "--time", time]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.summary["losses_by_verdict"]["bot"]["crash"], 1, "{:#}\n{}", run.summary, run.stderr);
    let reason = run.summary["games_list"][0]["reason"].as_str().unwrap_or_default();
    assert!(reason.starts_with(&format!("black crash at move {move_number}: ")), "{reason}");
    for word in words {
        assert!(reason.contains(word), "{word} not in the record: {reason}");
        assert!(run.stderr.contains(word), "{word} not on stderr: {}", run.stderr);
    }
    assert!(run.table.contains("\nbot         0      1  crash 1\n"), "{}", run.table);
    run
}

#[test]
fn a_bot_that_cannot_start_crashes_at_its_first_move_with_its_error() {
    let bot = "text:python3 /nonexistent/bot.py";
    let error = "can't open file '/nonexistent/bot.py'";
    // Judged when it exits, not at the time limit (20 s for a first move).
    let run = assert_crash(bot, "10", 1, &[error]);
    assert!(run.took < Duration::from_secs(10), "took {:?}", run.took);
    // A first move's limit (20 ms) shorter than the interpreter's failing start: still a crash.
    assert_crash(bot, "0.01", 1, &[error]);
}

#[test]
fn a_bot_that_writes_to_stderr_and_exits_crashes_with_its_last_lines() {
    // A JSON bot restarted each turn: the last lines of its traceback, and no more.
    let bot = format!("python3 {}", fixture("broken-bots/crash.py"));
    let traceback = ["Traceback (most recent call last):", "RuntimeError: fixture crash before answering"];
    let run = assert_crash(&bot, "10", 1, &traceback);
    assert!(run.took < Duration::from_secs(10), "took {:?}", run.took);
    // A text bot kept running, dying at its second turn (move 3), five lines quoted of six.
    let kept = "text:read n; read m; read d; read g; echo 4 4; echo '>>>BOTZONE_REQUEST_KEEP_RUNNING<<<'; \
                read r; for i in 1 2 3 4 5 6; do echo line $i >&2; done; exit 3";
    let run = assert_crash(kept, "10", 3, &["exited with status 3", "line 2", "line 6"]);
    assert!(!run.stderr.contains("line 1"), "{}", run.stderr);
    // Output that is no move from a bot that fails is its failure's, not malformed output.
    assert_crash(
        "text:echo oops; echo 'Error: no model' >&2; exit 1",
        "10",
        1,
        &["after writing 'oops'", "Error: no model"],
    );
}

/// Two `nogo` bots kept running, 50 games at 0.1 s per move, no timeouts.
/// Needs the Botzone protocol in the `nogo` binary; long, so run by hand:
/// `cargo test --release --test arena -- --ignored keep_running_self_play`.
#[test]
#[ignore]
fn keep_running_self_play_has_no_timeouts() {
    let bot = format!("{NOGO} --time 0.1");
    let args = ["--player1", &bot, "--player2", &bot, "--games", "50", "--time", "0.1"];
    let Run { code, summary, stderr, .. } = arena(&args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(summary["games"], 50);
    for name in ["nogo-1", "nogo-2"] {
        for (verdict, count) in summary["losses_by_verdict"][name].as_object().unwrap() {
            assert!(verdict == "no-legal-move" || count == 0, "{name} lost by {verdict}: {stderr}");
        }
    }
}

#[test]
fn shards_merged_equal_the_whole_match() {
    // Random players are deterministic given the match's seed: the whole match and its shards
    // play the same games, so only the timing may differ.
    let dir = scratch("shards");
    std::fs::create_dir_all(&dir).unwrap();
    let base = ["--player1", "random", "--player2", "random", "--games", "14", "--seed", "11", "--quiet"];
    let Run { code, summary: whole, table, stderr, .. } = run(&base, &dir.join("whole.json"));
    assert_eq!(code, 0, "{stderr}");
    let mut shards = Vec::new();
    for k in 1..=3 {
        let path = dir.join(format!("shard{k}.json"));
        let shard = format!("{k}/3");
        let Run { code, summary, stderr, .. } = run(&[&base[..], &["--shard", &shard]].concat(), &path);
        assert_eq!(code, 0, "{stderr}");
        assert!(summary["games"].as_u64().unwrap() < 14);
        shards.push(path.display().to_string());
    }
    let merged_path = dir.join("merged.json");
    let mut merge = vec!["merge"];
    merge.extend(shards.iter().rev().map(String::as_str));
    let merged = run(&merge, &merged_path);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert_eq!(merged.table, table, "the merge prints the whole match's table");
    assert!(table.starts_with("random-1 vs random-2: 14 games\nscore     "), "{table}");
    let merged = merged.summary;
    let strip = |mut summary: Value| {
        let object = summary.as_object_mut().unwrap();
        object.remove("move_time");
        object.remove("concurrency");
        for game in object["games_list"].as_array_mut().unwrap() {
            game.as_object_mut().unwrap().remove("times_ns");
        }
        summary
    };
    assert_eq!(whole["games_list"].as_array().unwrap().len(), 14);
    assert_eq!(strip(merged.clone()), strip(whole.clone()));
    assert_eq!(merged["move_time"]["random-1"]["moves"], whole["move_time"]["random-1"]["moves"]);

    // Not the shards of one match, or not all of them: refused with a reason.
    let Run { code, stderr, .. } = run(&["merge", &shards[0], &shards[1]], &dir.join("partial.json"));
    assert_eq!(code, 2);
    assert!(stderr.contains("shard 3/3 is missing"), "{stderr}");
    let Run { code, stderr, .. } =
        run(&["merge", &shards[0], &shards[0], &shards[1]], &dir.join("twice.json"));
    assert_eq!(code, 2);
    assert!(stderr.contains("repeats shard 1/3"), "{stderr}");
    let whole_path = dir.join("whole.json").display().to_string();
    let Run { code, stderr, .. } = run(&["merge", &whole_path, &shards[1]], &dir.join("mixed.json"));
    assert_eq!(code, 2, "{stderr}");
    for bad in ["0/2", "3/2", "x"] {
        let Run { code, stderr, .. } = arena(&[&base[..8], &["--shard", bad]].concat());
        assert_eq!(code, 2, "--shard {bad}: {stderr}");
        assert!(stderr.contains(&format!("'{bad}' is not a shard K/N")), "{stderr}");
    }
}

/// Runs `nogo tune` with `args`: its exit code, stdout and stderr.
fn tune(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(NOGO).arg("tune").args(args).output().expect("nogo runs");
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (output.status.code().unwrap_or(-1), text(&output.stdout), text(&output.stderr))
}

#[test]
fn tune_plays_pairs_logs_each_and_prints_the_estimate_as_settings() {
    let dir = scratch("tune");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("spsa.jsonl");
    let (code, stdout, stderr) = tune(&[
        "--engine",
        "random",
        "--param",
        "rave_prior=10..30",
        "--param",
        "rave_exploration",
        "--pairs",
        "4",
        "--time",
        "0.05",
        "-j",
        "2",
        "--seed",
        "3",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "# mean of the values over the last 2 of 4 pairs", "{stdout}");
    let setting = |line: &str, name: &str| -> f64 {
        let value = line.strip_prefix(&format!("--set {name}=")).unwrap_or_else(|| panic!("{line}"));
        value.parse().unwrap()
    };
    let prior = setting(lines[1], "rave_prior");
    assert!((10.0..=30.0).contains(&prior), "{prior}");
    let exploration = setting(lines[2], "rave_exploration");
    assert!((0.0..=1.0).contains(&exploration), "{exploration}");
    let entries: Vec<Value> =
        std::fs::read_to_string(&log).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let mut pairs: Vec<u64> = entries.iter().map(|e| e["pair"].as_u64().unwrap()).collect();
    pairs.sort_unstable();
    assert_eq!(pairs, [1, 2, 3, 4]);
    for entry in &entries {
        assert!([-1.0, 0.0, 1.0].contains(&entry["result"].as_f64().unwrap()), "{entry}");
        let (plus, minus) = (&entry["plus"]["rave_exploration"], &entry["minus"]["rave_exploration"]);
        assert_ne!(plus, minus, "the two players of a pair differ: {entry}");
        for side in ["plus", "minus", "values"] {
            let prior = entry[side]["rave_prior"].as_f64().unwrap();
            assert!((10.0..=30.0).contains(&prior) && prior.fract() == 0.0, "{entry}");
        }
    }
}

#[test]
fn tune_names_an_unknown_parameter_or_a_range_outside_its_own() {
    for (param, expected) in
        [("explore", "unknown parameter explore"), ("rave_prior=0..2000", "not a range within 1..1000")]
    {
        let (code, _, stderr) = tune(&["--param", param, "--pairs", "1"]);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains(expected) && !stderr.contains("panicked"), "{stderr}");
    }
}
