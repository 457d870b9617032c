//! `nogo bench`: a fixed-iteration search over fixed positions. Prints each position's chosen
//! move and visit count, a signature that changes only when search behaviour changes, and the
//! speed in iterations per second.

use crate::engine::{Budget, Engine};
use crate::mcts::Mcts;
use crate::params::Params;
use crate::position::Position;
use std::time::Instant;

/// Iterations per position by default.
pub const DEFAULT_NODES: u64 = 200_000;

/// Positions searched: reached from the empty board by the move lists below, in Botzone
/// coordinates `(x, y)`; an opening, two middle games, an endgame.
pub const POSITIONS: &[(&str, &[(u8, u8)])] = &[
    ("empty board", &[]),
    ("opening", &[(4, 4), (2, 6), (6, 2), (3, 3)]),
    ("middle game", MIDDLE_GAME),
    ("endgame", ENDGAME),
];

/// A middle-game position, 30 moves into a seeded random game
/// (`cargo run --example random_game 3`).
pub const MIDDLE_GAME: &[(u8, u8)] = &[
    (3, 8),
    (7, 8),
    (6, 6),
    (4, 6),
    (5, 2),
    (0, 5),
    (6, 1),
    (5, 1),
    (3, 5),
    (7, 4),
    (0, 4),
    (8, 7),
    (0, 6),
    (2, 5),
    (4, 1),
    (5, 4),
    (5, 8),
    (1, 8),
    (2, 8),
    (7, 7),
    (2, 2),
    (6, 4),
    (1, 3),
    (3, 2),
    (2, 7),
    (6, 7),
    (4, 5),
    (0, 2),
    (8, 3),
    (5, 0),
];

/// The same game 56 moves in: the endgame.
pub const ENDGAME: &[(u8, u8)] = &[
    (3, 8),
    (7, 8),
    (6, 6),
    (4, 6),
    (5, 2),
    (0, 5),
    (6, 1),
    (5, 1),
    (3, 5),
    (7, 4),
    (0, 4),
    (8, 7),
    (0, 6),
    (2, 5),
    (4, 1),
    (5, 4),
    (5, 8),
    (1, 8),
    (2, 8),
    (7, 7),
    (2, 2),
    (6, 4),
    (1, 3),
    (3, 2),
    (2, 7),
    (6, 7),
    (4, 5),
    (0, 2),
    (8, 3),
    (5, 0),
    (2, 3),
    (0, 3),
    (4, 4),
    (4, 0),
    (2, 0),
    (1, 2),
    (1, 6),
    (8, 0),
    (5, 6),
    (1, 1),
    (3, 1),
    (8, 2),
    (1, 0),
    (8, 6),
    (6, 3),
    (7, 0),
    (3, 3),
    (7, 6),
    (0, 0),
    (4, 2),
    (8, 5),
    (6, 0),
    (3, 0),
    (2, 4),
    (6, 8),
    (5, 5),
];

/// Builds a named bench position.
pub fn position(moves: &[(u8, u8)]) -> Position {
    Position::from_moves(moves.iter().map(|&(x, y)| crate::Point::from_xy(x, y).expect("on board")))
        .expect("bench positions are legal games")
}

/// Runs the bench and prints its lines to stdout.
pub fn run(nodes: u64) {
    let mut total_iterations = 0;
    let mut total_seconds = 0.0;
    let mut signature: u64 = 0xcbf2_9ce4_8422_2325;
    for (name, moves) in POSITIONS {
        let position = position(moves);
        let mut search = Mcts::new(Params::default(), 0);
        let started = Instant::now();
        let report = search.think(&position, &Budget::nodes(nodes));
        let seconds = started.elapsed().as_secs_f64();
        let visits = search.root_child_visits(report.best);
        for value in [report.best.index() as u64, visits as u64] {
            signature = (signature ^ value).wrapping_mul(0x0100_0000_01b3);
        }
        total_iterations += report.iterations;
        total_seconds += seconds;
        println!(
            "{name:<12} move {:<3} visits {visits:>8} iterations {:>8} tree {:>9} {:>10.0} it/s",
            report.best.to_gtp(),
            report.iterations,
            search.tree_size(),
            report.iterations as f64 / seconds
        );
    }
    println!("signature {signature:016x}");
    println!("{total_iterations} iterations {:.0} it/s", total_iterations as f64 / total_seconds);
}
