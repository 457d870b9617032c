//! Speed of the search: `Mcts::think` for a fixed number of iterations on the middle-game
//! fixture, from a fresh search each time (no tree kept from an earlier call):
//! `cargo bench --bench search`. Iterations per second = NODES / the median time. Also the
//! policy network's cost per position: its planes, and its planes and scores. And one random
//! playout to the end of the game from the empty board and from the middle game.

// `criterion_group!` makes a public `fn benches` to which no doc comment can be attached.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use nogo::search::engine::{Budget, Engine};
use nogo::search::mcts::Mcts;
use nogo::search::params::Params;
use nogo::search::playout::{playout, OwnPoint};
use nogo::search::policy::{planes, Network};
use nogo::tools::bench::{position, MIDDLE_GAME};

/// Iterations per search: about 20 ms at a million iterations per second.
const NODES: u64 = 20_000;

fn think(c: &mut Criterion) {
    let middle_game = position(MIDDLE_GAME);
    let mut group = c.benchmark_group("mcts");
    group.sample_size(20);
    group.bench_function("think_20k_nodes/middle_game", |b| {
        b.iter_batched_ref(
            || Mcts::new(Params::default(), 0),
            |search| search.think(&middle_game, &Budget::nodes(NODES)),
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

fn policy(c: &mut Criterion) {
    let middle_game = position(MIDDLE_GAME);
    let network = Network::embedded();
    let mut group = c.benchmark_group("policy");
    group.bench_function("planes/middle_game", |b| b.iter(|| planes(&middle_game, None)));
    group.bench_function("planes_and_scores/middle_game", |b| {
        b.iter(|| network.scores(&planes(&middle_game, None)))
    });
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout");
    for (name, moves) in [("empty_board", ""), ("middle_game", MIDDLE_GAME)] {
        let start = position(moves);
        let mut rng = fastrand::Rng::with_seed(1);
        group.bench_function(name, |b| b.iter(|| playout(&start, &mut rng, OwnPoint::Play)));
    }
    group.finish();
}

criterion_group!(benches, think, policy, playouts);
criterion_main!(benches);
