//! The playout search on three threads or more ([`crate::search::params::Params::threads`]): each runs simulations on the
//! one [`Shared`] tree, with its own descent, positions and random numbers, until the budget
//! ends, the root is proven or the tree is full; a full tree is pruned, as one thread's is
//! ([`driver::make_room`]), and the threads search on. The endgame solver of small leaves
//! (`rave_solve_points`) is one for all: a thread that finds it busy plays its leaf out.

use super::{solve, Context, Rave, RaveStats, Worker};
use crate::rules::point::MAX_MOVES;
use crate::rules::Position;
use crate::search::driver::{self, Core, LeafClock};
use crate::search::endgame::Solver;
use crate::search::engine::Budget;
use crate::search::time::{passes_multiple, CLOCK_INTERVAL};
use crate::search::tree::{NodeId, Nodes, Padded, Shared};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// Simulations a thread takes from the budget at a time: few enough that a budget of fixed
/// simulations is shared evenly, enough that the threads seldom meet on its counter.
const BATCH: u64 = 16;

/// Simulations between two flushes of a thread's gathered counts
/// ([`crate::search::tree::Handle::flush`]); evidence:
/// `docs/strength-log.md#two-threads-against-one-at-01-s-2026-11-28`.
const FLUSH_INTERVAL: u64 = 16;

/// What the threads of one search share besides the tree.
struct Search<'a> {
    context: Context<'a>,
    root: &'a Position,
    budget: &'a Budget,
    /// Simulations taken from the budget, on cache lines of their own (written every
    /// `BATCH` simulations, while the fields around are read at every one).
    taken: Padded<AtomicU64>,
    /// Raised by the thread that found the budget spent or the tree full.
    stop: AtomicBool,
    /// Whether a thread stops at a full tree, for it to be pruned ([`Params::prune_share`]).
    ///
    /// [`Params::prune_share`]: crate::search::params::Params::prune_share
    prunes: bool,
    /// On lines of its own: locked at each small leaf.
    solver: Padded<Mutex<&'a mut Option<Solver>>>,
}

/// Runs simulations of `search`, prepared for `position`, on [`crate::search::params::Params::threads`] threads,
/// pruning the tree whenever they fill it: how many ran.
pub(super) fn run(search: &mut Rave, position: &Position, budget: &Budget) -> u64 {
    let (mut simulations, mut prunes) = (0, search.core.params.prune_share > 0.0);
    loop {
        simulations += run_shared(search, position, budget, simulations, prunes);
        let done = budget.nodes.is_some_and(|nodes| simulations >= nodes) || budget.expired();
        if done || search.core.tree.proof(NodeId::ROOT).is_known() || search.core.tree.has_room(MAX_MOVES) {
            return simulations;
        }
        if !driver::make_room(search, position, budget) {
            return simulations;
        }
        // A tree too small to make room in searches on full.
        prunes = search.core.tree.has_room(MAX_MOVES);
    }
}

/// Runs simulations on the threads until the budget, `before` of whose simulations ran, ends,
/// the root is proven or, where the search `prunes`, the tree is full: how many ran.
fn run_shared(search: &mut Rave, position: &Position, budget: &Budget, before: u64, prunes: bool) -> u64 {
    let Core { params, tree, solver, rng, leaf_clock, .. } = &mut search.core;
    let seeds: Vec<u64> = (0..params.threads).map(|_| rng.u64(..)).collect();
    let shared = Search {
        context: Context::new(params, &search.values, search.short),
        root: position,
        budget,
        taken: Padded(AtomicU64::new(before)),
        stop: AtomicBool::new(false),
        prunes,
        solver: Padded(Mutex::new(solver)),
    };
    let tree = tree.share();
    let clock = leaf_clock.fork();
    let results: Vec<(u64, LeafClock)> = std::thread::scope(|scope| {
        let (shared, tree) = (&shared, &tree);
        let others: Vec<_> =
            seeds[1..].iter().map(|&seed| scope.spawn(move || work(shared, tree, seed, clock))).collect();
        let mut results = vec![work(shared, tree, seeds[0], clock)];
        for other in others {
            results.push(other.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        }
        results
    });
    drop(tree);
    for (_, clock) in &results {
        leaf_clock.add(clock);
    }
    results.iter().map(|(simulations, _)| simulations).sum()
}

/// One thread's simulations: how many, and the time its leaves took when measured.
fn work(search: &Search, tree: &Shared<RaveStats>, seed: u64, mut clock: LeafClock) -> (u64, LeafClock) {
    let mut worker = Worker::new(search.root);
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut tree = tree.handle();
    let max = search.budget.nodes.unwrap_or(u64::MAX);
    // A copy of its own, read at every simulation, beside nothing another thread writes.
    let params = *search.context.params;
    let context = Context { params: &params, ..search.context };
    let (mut done, mut unclocked_solver_nodes) = (0, 0);
    'search: loop {
        let first = search.taken.0.fetch_add(BATCH, Relaxed);
        if first >= max {
            break;
        }
        let (mut ran, batch) = (0, BATCH.min(max - first));
        while ran < batch {
            if search.stop.load(Relaxed) || tree.proof(NodeId::ROOT).is_known() {
                break 'search;
            }
            if search.prunes && !tree.has_room(MAX_MOVES) {
                search.stop.store(true, Relaxed);
                break 'search;
            }
            let unclocked = &mut unclocked_solver_nodes;
            let prove = |p: &Position| solve(&params, &mut **search.solver.0.try_lock().ok()?, p, unclocked);
            let simulations = worker.simulate(&mut tree, context, &mut rng, &mut clock, prove, batch - ran);
            let before = done;
            (ran, done) = (ran + simulations, done + simulations);
            if passes_multiple(before, done, FLUSH_INTERVAL) {
                tree.flush();
            }
            let clock_due = driver::solver_clock_due(&mut unclocked_solver_nodes);
            if (passes_multiple(before, done, CLOCK_INTERVAL) || clock_due) && search.budget.expired() {
                search.stop.store(true, Relaxed);
                break 'search;
            }
        }
    }
    drop(tree);
    (done, clock)
}
