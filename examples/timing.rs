//! Times the search and the solver on positions of real games, to measure a change of speed
//! that leaves the results alone: `cargo run --release --example timing -- SGF_DIR MODE N
//! [ENGINE]`, for the records of an arena match (`nogo arena ... --sgf-dir SGF_DIR`).
//! - `search N`: an N-iteration search of a fresh tree by ENGINE (`rave`, the default, or
//!   `mcts`) at moves 40, 44, 48, 52 and 56 of the first ten games: the middle and late game,
//!   where most games are decided.
//! - `solve N`: a full solve, with a fresh solver, of each game's first position with at most N
//!   empty points.
//!
//! Prints the total time and what must not change when only speed does: the search's moves and
//! iterations folded into a checksum, or the solver's nodes. Alternate runs of two builds: the
//! machine's speed swings between runs.
mod common;

use clap::ValueEnum;
use nogo::engines::{create_with_params, EngineKind};
use nogo::protocols::sgf::GameRecord;
use nogo::search::endgame::{Solver, DEFAULT_TABLE_BITS};
use nogo::search::engine::Budget;
use nogo::search::params::Params;
use nogo::Position;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (dir, mode, n, engine) = match &args[..] {
        [_, dir, mode, n] => (dir, mode, n, "rave"),
        [_, dir, mode, n, engine] => (dir, mode, n, engine.as_str()),
        _ => {
            eprintln!("usage: timing SGF_DIR search ITERATIONS [ENGINE] | timing SGF_DIR solve EMPTY_POINTS");
            std::process::exit(2);
        }
    };
    let engine = EngineKind::from_str(engine, true).unwrap_or_else(|e| panic!("engine {engine}: {e}"));
    let n: u64 = n.parse().expect("N is a whole number");
    let games: Vec<GameRecord> = common::read_records(dir).into_iter().map(|(_, record)| record).collect();
    let position = |record: &GameRecord, played: usize| {
        Position::from_moves(record.moves[..played].iter().copied()).expect("a legal record")
    };
    let mut elapsed = Duration::ZERO;
    match mode.as_str() {
        "search" => {
            let params = Params { memory_bytes: 64 << 20, ..Params::default() };
            let mut checksum = 0u64;
            for record in games.iter().take(10) {
                for played in (40..=56).step_by(4).filter(|&m| m < record.moves.len()) {
                    let position = position(record, played);
                    let start = Instant::now();
                    let report = create_with_params(engine, 0, params).think(&position, &Budget::nodes(n));
                    elapsed += start.elapsed();
                    checksum = checksum
                        .wrapping_mul(31)
                        .wrapping_add(report.best.index() as u64 + report.iterations);
                }
            }
            println!("{:.3} s, checksum {checksum:016x}", elapsed.as_secs_f64());
        }
        "solve" => {
            let mut nodes = 0;
            for record in &games {
                let Some(played) = (0..record.moves.len()).find(|&m| 81 - m as u64 <= n) else { continue };
                let position = position(record, played);
                let start = Instant::now();
                let mut solver = Solver::new(DEFAULT_TABLE_BITS);
                solver.wins(&position, &Budget::default());
                elapsed += start.elapsed();
                nodes += solver.nodes();
            }
            println!("{:.3} s, {nodes} nodes", elapsed.as_secs_f64());
        }
        _ => {
            eprintln!("timing: MODE is `search` or `solve`, not `{mode}`");
            std::process::exit(2);
        }
    }
}
