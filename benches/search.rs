//! Speed of the searches: a whole search of a fixed number of simulations on the middle-game
//! fixture for each tree search, from a fresh search each time; one simulation of a search in
//! progress there; the policy network's cost per position; one random playout from the empty
//! board and from the middle game; pruning a full tree to half its size. `cargo bench --bench
//! search`.

// `criterion_group!` makes a public `fn benches` to which no doc comment can be attached.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use nogo::engines::{create_with_params, EngineKind};
use nogo::search::driver::{prepare, Simulate};
use nogo::search::engine::Budget;
use nogo::search::params::Params;
use nogo::search::playout::{playout, OwnPoint};
use nogo::search::policy::{planes, Network};
use nogo::search::tree::{NodeId, Stats, Tree};
use nogo::tools::bench::{position, MIDDLE_GAME};
use nogo::{Bitboard, Mcts, Position, Rave};

/// Simulations per search: a few tens of milliseconds.
const NODES: u64 = 20_000;

/// A tree small enough to be made afresh for each search.
fn params() -> Params {
    Params { memory_bytes: 64 << 20, ..Params::default() }
}

fn think(c: &mut Criterion) {
    let middle_game = position(MIDDLE_GAME);
    let mut group = c.benchmark_group("think_20k");
    group.sample_size(20);
    for kind in [EngineKind::Rave, EngineKind::Mcts] {
        group.bench_function(format!("{}/middle_game", kind.name()), |b| {
            b.iter_batched_ref(
                || create_with_params(kind, 0, params()),
                |search| search.think(&middle_game, &Budget::nodes(NODES)),
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

/// One simulation of each search, 20,000 simulations into its search of the middle game: the
/// descent, the expansion, the playout or evaluation, and the backup.
fn simulation(c: &mut Criterion) {
    fn one<T: Simulate>(c: &mut Criterion, name: &str, mut search: T) {
        let middle_game = position(MIDDLE_GAME);
        prepare(&mut search, &middle_game);
        for _ in 0..NODES {
            search.simulate(&middle_game, 1);
        }
        c.bench_function(&format!("simulation/{name}/middle_game"), |b| {
            b.iter(|| search.simulate(&middle_game, 1))
        });
    }
    one(c, "rave", Rave::new(params(), 0));
    one(c, "mcts", Mcts::new(params(), 0));
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
        group.bench_function(name, |b| b.iter(|| playout(&start, &mut rng, OwnPoint::Play, false)));
        let eyes = format!("{name}/eyes");
        group.bench_function(eyes, |b| b.iter(|| playout(&start, &mut rng, OwnPoint::Play, true)));
    }
    group.finish();
}

/// A node's visits, for a tree of made-up counts.
#[derive(Clone, Copy, Default)]
struct Visits(u32);

impl Stats for Visits {
    fn visits(&self) -> u32 {
        self.0
    }

    fn mean(&self) -> f32 {
        0.5
    }
}

/// A full tree of about 2 million nodes, 40 children to a node, each with a random share of its
/// parent's visits, expanded in a random order as a search interleaves its branches.
fn full_tree() -> Tree<Visits> {
    let mut rng = fastrand::Rng::with_seed(3);
    let mut tree = Tree::new(2_000_000 * Tree::<Visits>::NODE_BYTES);
    tree.set_root(&Position::new());
    *tree.stats_mut(NodeId::ROOT) = Visits(u32::MAX / 2);
    let moves: Bitboard = Bitboard::FULL.iter().take(40).collect();
    let mut open = vec![NodeId::ROOT];
    while !open.is_empty() {
        let node = open.swap_remove(rng.usize(..open.len()));
        let visits = tree.stats(node).visits();
        if visits < 2 {
            continue;
        }
        if !tree.expand(node, moves, |_| Visits(0)) {
            break;
        }
        for child in tree.children(node).collect::<Vec<_>>() {
            *tree.stats_mut(child) = Visits(rng.u32(..visits / 2));
            open.push(child);
        }
    }
    tree
}

fn prune(c: &mut Criterion) {
    let mut group = c.benchmark_group("prune");
    group.sample_size(10);
    group.bench_function("full_tree_to_half", |b| {
        b.iter_batched_ref(full_tree, |tree| tree.prune(tree.capacity() / 2), BatchSize::PerIteration)
    });
    group.finish();
}

criterion_group!(benches, think, simulation, policy, playouts, prune);
criterion_main!(benches);
