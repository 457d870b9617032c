//! `nogo bench`: a fixed-iteration search over fixed positions. Prints each position's chosen
//! move and visit count, a signature that changes only when search behaviour changes, and the
//! speed in iterations per second: tree nodes for the evaluation search (`mcts`), playouts for
//! the playout search (`rave`). With `--playouts`, it times the playout policy alone instead.

use crate::rules::point::Point;
use crate::rules::position::Position;
use crate::rules::Color;
use crate::search::driver::Simulate;
use crate::search::engine::{Budget, Engine};
use crate::search::mcts::Mcts;
use crate::search::params::Params;
use crate::search::playout::{playout, OwnPoint};
use crate::search::rave::Rave;
use std::fmt;
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// Iterations per position by default.
pub const DEFAULT_NODES: u64 = 200_000;

// The fixture positions (`fixtures/positions/`, format in its README), embedded so the bench
// runs from any directory: move lists that reach each position from the empty board.

/// An opening, 4 moves in.
pub const OPENING: &str = include_str!("../../fixtures/positions/opening.txt");
/// 30 moves into a seeded random game (`cargo run --example random_game 3`).
pub const MIDDLE_GAME: &str = include_str!("../../fixtures/positions/middle-game.txt");
/// The same game 56 moves in.
pub const ENDGAME: &str = include_str!("../../fixtures/positions/endgame.txt");

/// Positions searched, as fixture move lists: an opening, a middle game, an endgame.
pub const POSITIONS: &[(&str, &str)] =
    &[("empty board", ""), ("opening", OPENING), ("middle game", MIDDLE_GAME), ("endgame", ENDGAME)];

/// A fixture move list that is not a legal game: the 1-based line and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixtureError {
    /// The bad move's line, from 1.
    pub line: usize,
    /// Why the line is not a legal move.
    pub reason: String,
}

impl fmt::Display for FixtureError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for FixtureError {}

/// Reads a fixture move list: one `x y` per line (Botzone coordinates); blank lines and `#`
/// comments are skipped. Returns each move with its 1-based line number.
pub fn parse_moves(text: &str) -> Result<Vec<(usize, Point)>, FixtureError> {
    let mut moves = Vec::new();
    for (number, line) in text.lines().enumerate().map(|(i, line)| (i + 1, line.trim())) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let error = |reason: String| FixtureError { line: number, reason };
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [x, y] = fields[..] else {
            return Err(error(format!("expected `x y`, found `{line}`")));
        };
        let (Ok(x), Ok(y)) = (x.parse::<i64>(), y.parse::<i64>()) else {
            return Err(error(format!("expected two integers, found `{line}`")));
        };
        let p = Point::from_botzone(x, y).ok_or_else(|| error(format!("`{line}` is off the board")))?;
        moves.push((number, p));
    }
    Ok(moves)
}

/// The position a fixture move list reaches from the empty board, every move checked.
pub fn fixture_position(text: &str) -> Result<Position, FixtureError> {
    let moves = parse_moves(text)?;
    Position::from_moves(moves.iter().map(|&(_, p)| p)).map_err(|e| FixtureError {
        line: moves[e.index].0,
        reason: format!("move {} ({}) is illegal: {}", e.index + 1, moves[e.index].1, e.error),
    })
}

/// The position of an embedded fixture; they are tested to be legal games.
pub fn position(text: &str) -> Position {
    fixture_position(text).expect("embedded fixtures are legal games")
}

/// The searches the bench times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchEngine {
    /// The evaluation search: iterations are tree nodes scored.
    Mcts,
    /// The playout search, the bot's default: iterations are playouts.
    Rave,
}

/// Runs the bench of `engine` with the search's parameters `params` and writes its lines to
/// `out`.
pub fn run(engine: BenchEngine, nodes: u64, params: Params, out: &mut impl Write) -> io::Result<()> {
    match engine {
        // The evaluation search runs on one thread.
        BenchEngine::Mcts => {
            run_search(|| Mcts::new(Params { threads: 1, ..params }, 0), nodes, "evaluations", out)
        }
        BenchEngine::Rave => run_search(|| Rave::new(params, 0), nodes, "playouts", out),
    }
}

/// [`run`] for the search `make` makes afresh for each position, whose leaves are `leaves`.
fn run_search<T: Simulate>(
    make: impl Fn() -> T,
    nodes: u64,
    leaves: &str,
    out: &mut impl Write,
) -> io::Result<()> {
    let mut total_simulations = 0;
    let (mut total, mut total_at_leaves) = (Duration::ZERO, Duration::ZERO);
    let mut signature: u64 = 0xcbf2_9ce4_8422_2325;
    writeln!(
        out,
        "{:<12} {:<4} {:>9} {:>11} {:>10} {:>13} {:>9}",
        "position", "move", "visits", "simulations", "tree nodes", "simulations/s", leaves
    )?;
    let mut threads = 1;
    for (name, moves) in POSITIONS {
        let position = position(moves);
        let mut search = make();
        threads = search.core().params.threads;
        search.core_mut().leaf_clock.turn_on();
        let started = Instant::now();
        let report = search.think(&position, &Budget::nodes(nodes));
        let elapsed = started.elapsed();
        let core = search.core();
        let visits = core.root_child_visits(report.best);
        for value in [report.best.index() as u64, visits as u64] {
            signature = (signature ^ value).wrapping_mul(0x0100_0000_01b3);
        }
        // The leaves' time on every thread, as a share of the time of all of them.
        let at_leaves = (core.leaf_clock.total() / core.params.threads as u32).min(elapsed);
        total_simulations += report.iterations;
        total += elapsed;
        total_at_leaves += at_leaves;
        writeln!(
            out,
            "{name:<12} {:<4} {visits:>9} {:>11} {:>10} {:>13.0} {:>8.0}%",
            report.best.to_string(),
            report.iterations,
            core.tree.len(),
            report.iterations as f64 / elapsed.as_secs_f64(),
            100.0 * at_leaves.as_secs_f64() / elapsed.as_secs_f64(),
        )?;
    }
    match threads {
        1 => writeln!(out, "signature {signature:016x}")?,
        _ => writeln!(out, "signature {signature:016x} (on {threads} threads: not the same every run)")?,
    }
    let share = total_at_leaves.as_secs_f64() / total.as_secs_f64();
    writeln!(
        out,
        "{total_simulations} simulations in {:.2} s: {:.0} simulations/s; {:.0}% of the time in the tree, {:.0}% in the {leaves}",
        total.as_secs_f64(),
        total_simulations as f64 / total.as_secs_f64(),
        100.0 * (1.0 - share),
        100.0 * share,
    )
}

/// Plays `count` playouts from the empty board by the playout policy of `params` in a search
/// without a clock (no eyes spoiled: `benches/search.rs` times those too), seeded
/// alike every run, and writes how many black won (a signature of the policy: it changes only
/// when the playouts do) and the playouts a second.
pub fn run_playouts(count: u64, params: Params, out: &mut impl Write) -> io::Result<()> {
    let own = OwnPoint::of(&params);
    let empty = Position::new();
    let mut rng = fastrand::Rng::with_seed(0);
    let mut black_wins = 0u64;
    let started = Instant::now();
    for _ in 0..count {
        black_wins += (playout(&empty, &mut rng, own, false).winner == Color::Black) as u64;
    }
    let seconds = started.elapsed().as_secs_f64();
    writeln!(out, "playouts {count} from the empty board, black won {black_wins}")?;
    writeln!(out, "{:.0} playouts/s, {:.3} us each", count as f64 / seconds, 1e6 * seconds / count as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The signature of today's playout search, the default. A change that moves it changes
    /// what the search plays, so it is no mere speed-up: it must not weaken the engine in the
    /// arena (`docs/strength-log.md`), and then this line changes with it.
    const RAVE_SIGNATURE: &str = "7942b25fa521ab13";
    /// The signature of the evaluation search (`--engine mcts`), 0.2.0's.
    const MCTS_SIGNATURE: &str = "b7167573d049f49c";
    /// The signature of the search of 0.1.0 (commit `279b11d`), which the evaluation search
    /// without the policy network must still be: speed comparisons with 0.1.0 time that search.
    const MCTS_SIGNATURE_0_1_0: &str = "8e36b057e8fbd33e";

    fn signature_of(engine: BenchEngine, settings: &[(String, f64)]) -> String {
        let mut out = Vec::new();
        run(engine, DEFAULT_NODES, Params::default().with_settings(settings), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let line = out.lines().find(|line| line.starts_with("signature ")).expect("a signature line");
        line["signature ".len()..].to_string()
    }

    #[test]
    fn the_playout_bench_counts_black_wins_of_the_seeded_playouts() {
        let report = |count: u64, settings: &[(String, f64)]| {
            let mut out = Vec::new();
            run_playouts(count, Params::default().with_settings(settings), &mut out).unwrap();
            let out = String::from_utf8(out).unwrap();
            let first = out.lines().next().expect("a first line").to_string();
            let wins: u64 = first.rsplit(' ').next().unwrap().parse().unwrap();
            (first, wins)
        };
        let (line, wins) = report(2000, &[]);
        assert!(line.starts_with("playouts 2000 from the empty board"), "{line}");
        // Black wins about as often as white from the empty board, and the same seed replays.
        assert!((800..=1200).contains(&wins), "{line}");
        assert_eq!(report(2000, &[]), (line, wins));
        let keep = report(2000, &[("playout_take_own".to_string(), 0.0)]);
        assert_ne!(keep.1, wins, "the other policy plays other playouts");
    }

    #[test]
    fn the_playout_search_is_the_one_measured() {
        assert_eq!(signature_of(BenchEngine::Rave, &[]), RAVE_SIGNATURE);
    }

    #[test]
    fn the_evaluation_search_is_the_one_measured() {
        assert_eq!(signature_of(BenchEngine::Mcts, &[]), MCTS_SIGNATURE);
        let without_policy = [("policy_depth".to_string(), 0.0), ("policy_visits".to_string(), 0.0)];
        assert_eq!(signature_of(BenchEngine::Mcts, &without_policy), MCTS_SIGNATURE_0_1_0);
    }

    fn pt(x: u8, y: u8) -> Point {
        Point::from_xy(x, y).unwrap()
    }

    #[test]
    fn fixtures_are_legal_games_of_the_documented_length() {
        for (text, length) in [(OPENING, 4), (MIDDLE_GAME, 30), (ENDGAME, 56)] {
            let position = fixture_position(text).unwrap();
            assert_eq!(position.moves_played(), length);
            assert!(!position.is_terminal());
        }
        let middle: Vec<_> = parse_moves(MIDDLE_GAME).unwrap().into_iter().map(|(_, p)| p).collect();
        let end: Vec<_> = parse_moves(ENDGAME).unwrap().into_iter().map(|(_, p)| p).collect();
        assert_eq!(middle[..], end[..30], "the endgame continues the middle game");
    }

    #[test]
    fn parses_moves_comments_and_blank_lines() {
        let text = "# a comment\n\n 3 4\n8\t0 \n# end\n";
        assert_eq!(parse_moves(text).unwrap(), vec![(3, pt(3, 4)), (4, pt(8, 0))]);
        assert_eq!(fixture_position("").unwrap(), Position::new());
        let position = fixture_position(text).unwrap();
        assert_eq!(position.stone_at(pt(3, 4)), Some(crate::Color::Black));
        assert_eq!(position.stone_at(pt(8, 0)), Some(crate::Color::White));
    }

    #[test]
    fn bad_lines_are_reported_by_line_number() {
        for (text, line) in [
            ("1 1\n1\n", 2),
            ("1 1\n2 2 2\n", 2),
            ("a b\n", 1),
            ("# c\n9 0\n", 2),
            ("-1 -1\n", 1),
            ("0 0\n\n1 0\n5 5\n0 1\n", 5),
            ("4 4\n4 4\n", 2),
        ] {
            let error = fixture_position(text).unwrap_err();
            assert_eq!(error.line, line, "{text:?}: {error}");
        }
        let capture = fixture_position("0 0\n1 0\n5 5\n0 1\n").unwrap_err();
        assert_eq!(
            capture,
            FixtureError {
                line: 4,
                reason:
                    "move 4 (A8) is illegal: the move would capture (take an opponent group's last liberty)"
                        .into()
            }
        );
    }
}
