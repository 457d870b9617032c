//! The endgame solver's reach: `cargo run --release --example solver_reach -- [GAMES] [NODES]
//! [MILLIS] [ENGINE]` (defaults 50, 20000, 500, rave). Plays GAMES self-play games of ENGINE
//! (`Params::default()` but a 64 MB tree; NODES per move) from openings of two random moves
//! (seeds 1..=GAMES: the engine is deterministic at a fixed node count), then walks each
//! game back from its end, solving each position with a fresh solver and a MILLIS deadline,
//! until one is not proven. A game's reach is the number of empty points of the earliest
//! position proven; the median over the games is printed last. The `in_game_*` columns show
//! what keeping one solver (its table) across turns adds: from 8 moves before the reach, each
//! position in game order gets MILLIS with the same solver; the first one proven is reported.
use clap::ValueEnum;
use nogo::engines::{create_with_params, EngineKind};
use nogo::search::endgame::{Solver, DEFAULT_TABLE_BITS};
use nogo::search::engine::Budget;
use nogo::search::params::Params;
use nogo::Position;
use std::time::{Duration, Instant};

fn arg(n: usize, default: u64) -> u64 {
    std::env::args().nth(n).map_or(default, |s| s.parse().expect("a whole number"))
}

/// The positions of one self-play game, the final (terminal) one excluded.
fn self_play(kind: EngineKind, seed: u64, nodes: u64) -> Vec<Position> {
    let mut engine = create_with_params(kind, seed, Params { memory_bytes: 64 << 20, ..Params::default() });
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut position = Position::new();
    let mut history = Vec::new();
    while !position.is_terminal() {
        history.push(position.clone());
        let best = if position.moves_played() < 2 {
            let legal = position.legal_moves();
            legal.choose(&mut rng).expect("a non-terminal position has a legal move")
        } else {
            engine.think(&position, &Budget::nodes(nodes)).best
        };
        position.play(best).expect("engines answer legal moves");
    }
    history
}

fn main() {
    let (games, nodes, millis) = (arg(1, 50), arg(2, 20000), arg(3, 500));
    let engine = std::env::args().nth(4).unwrap_or_else(|| "rave".into());
    let engine = EngineKind::from_str(&engine, true).unwrap_or_else(|e| panic!("engine {engine}: {e}"));
    println!("seed moves reach_empty reach_live reach_move nodes ms proven_win in_game_empty in_game_move");
    let mut reaches = Vec::new();
    let mut in_game_reaches = Vec::new();
    for seed in 1..=games {
        let history = self_play(engine, seed, nodes);
        let mut reach = None;
        for position in history.iter().rev() {
            let mut solver = Solver::new(DEFAULT_TABLE_BITS);
            let started = Instant::now();
            let Some(solution) =
                solver.solve(position, &Budget::until(started + Duration::from_millis(millis)))
            else {
                break;
            };
            reach = Some((position.clone(), solution, started.elapsed()));
        }
        let (position, solution, elapsed) =
            reach.expect("the last position before the end is proven at once");
        let legal = position.legal_both();
        let empty = empty_points(&position);
        let mut solver = Solver::new(DEFAULT_TABLE_BITS);
        let in_game = history[position.moves_played().saturating_sub(8)..]
            .iter()
            .find(|p| {
                solver.solve(p, &Budget::until(Instant::now() + Duration::from_millis(millis))).is_some()
            })
            .expect("the reach position is proven");
        println!(
            "{seed} {} {empty} {} {} {} {} {} {} {}",
            history.len(),
            (legal[0] | legal[1]).count(),
            position.moves_played(),
            solution.nodes,
            elapsed.as_millis(),
            solution.win,
            empty_points(in_game),
            in_game.moves_played()
        );
        reaches.push(empty);
        in_game_reaches.push(empty_points(in_game));
    }
    println!("median reach over {} games: {}", reaches.len(), summary(reaches));
    println!("in game, one solver across turns: {}", summary(in_game_reaches));
}

fn empty_points(position: &Position) -> u32 {
    (position.empty() & nogo::Bitboard::FULL).count()
}

/// `median M empty points (min A, max B)`.
fn summary(mut values: Vec<u32>) -> String {
    values.sort_unstable();
    let n = values.len();
    let median = (values[(n - 1) / 2] + values[n / 2]) as f64 / 2.0;
    format!("{median} empty points (min {}, max {})", values[0], values[n - 1])
}
