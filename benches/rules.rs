//! Speed of the rules engine on the fixture positions (`fixtures/positions/`):
//! `cargo bench --bench rules`.
//!
//! - `legal_both/*`: both colours' legal sets.
//! - `play/*`: one legal move played on a fresh copy of the position. The copies are made
//!   outside the timed part (`iter_batched_ref`, 64 at a time so they stay in the cache).
//! - `clone/middle_game` times the copy alone, and `copy_make/middle_game` a copy then a move,
//!   the way the search branches (this also pays for reading fields just written by the copy).
//! - `random_game`: one whole game from the empty board, uniform among the legal moves until
//!   the side to move has none (seeded, so every run times the same sequence of games).

// `criterion_group!` makes a public `fn benches` to which no doc comment can be attached.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
// Criterion passes what a routine returns through its own `black_box`, volatile loads of the
// whole value: 416 bytes for a `Position`, more than the work measured. So routines return small
// values, and `std::hint::black_box` keeps copies alive.
use nogo::rules::random_game;
use nogo::tools::bench::{position, ENDGAME, MIDDLE_GAME, OPENING};
use nogo::{Point, Position};
use std::hint::black_box;

const FIXTURES: [(&str, &str); 3] =
    [("opening", OPENING), ("middle_game", MIDDLE_GAME), ("endgame", ENDGAME)];

/// Copies per timed batch in `play`: 64 positions of 416 bytes stay in the cache.
const PLAY_BATCH: u64 = 64;

fn legal_sets(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_both");
    for (name, text) in FIXTURES {
        let position = position(text);
        group.bench_function(name, |b| b.iter(|| black_box(&position).legal_both()));
    }
    group.finish();
}

/// A legal move of the side to move: the middle one of the legal set in board order.
fn some_legal_move(position: &Position) -> Point {
    let legal = position.legal_moves();
    legal.nth(legal.count() / 2).expect("fixtures are not terminal")
}

fn play(c: &mut Criterion) {
    let mut group = c.benchmark_group("play");
    for (name, text) in FIXTURES {
        let position = position(text);
        let mv = some_legal_move(&position);
        group.bench_function(name, |b| {
            b.iter_batched_ref(
                || position.clone(),
                |copy| copy.play(black_box(mv)),
                BatchSize::NumIterations(PLAY_BATCH),
            )
        });
    }
    group.finish();
}

fn copy_make(c: &mut Criterion) {
    let position = position(MIDDLE_GAME);
    let mv = some_legal_move(&position);
    c.bench_function("clone/middle_game", |b| {
        b.iter(|| {
            let copy = black_box(&position).clone();
            black_box(&copy);
        })
    });
    c.bench_function("copy_make/middle_game", |b| {
        b.iter(|| {
            let mut copy = black_box(&position).clone();
            copy.play(black_box(mv)).expect("a legal move");
            black_box(&copy);
        })
    });
}

fn random_games(c: &mut Criterion) {
    let mut rng = fastrand::Rng::with_seed(1);
    c.bench_function("random_game", |b| b.iter(|| random_game(&mut rng, |_| {}).moves_played()));
}

criterion_group!(benches, legal_sets, play, copy_make, random_games);
criterion_main!(benches);
