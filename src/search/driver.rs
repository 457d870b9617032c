//! The think loop both tree searches share: a move found without a tree when there is one
//! (a decisive move, the endgame solver's proof), else simulations from the root until the
//! budget ends or the root is proven, the clock read every [`CLOCK_INTERVAL`] of them (on one
//! thread unless the search runs them otherwise, [`Simulate::run`]), and the report read off
//! the tree by [`analysis`]. A search supplies only its simulation
//! ([`Simulate`]); every [`Simulate`] is an [`Engine`].

use crate::rules::point::MAX_MOVES;
use crate::rules::{Point, Position};
use crate::search::analysis;
use crate::search::endgame::{answer_without_tree, Solver, DEFAULT_TABLE_BITS};
use crate::search::engine::{Budget, BusyNode, Engine, Proof, Report};
use crate::search::params::Params;
use crate::search::time::{passes_multiple, CLOCK_INTERVAL};
use crate::search::tree::{NodeId, Stats, Tree};
use std::time::{Duration, Instant};

/// What both tree searches hold: their parameters, tree, endgame solver and random numbers.
pub struct Core<S: Stats> {
    /// The search's parameters.
    pub params: Params,
    /// The tree, kept between turns.
    pub tree: Tree<S>,
    /// The exact endgame solver, made on first use (its table is large) and kept between
    /// turns, so its table carries proofs from turn to turn.
    pub solver: Option<Solver>,
    /// The search's random numbers.
    pub rng: fastrand::Rng,
    /// The time spent at the leaves, when measured (`nogo bench`).
    pub leaf_clock: LeafClock,
    /// Solver nodes spent on the tree's proofs since the clock was last read.
    pub unclocked_solver_nodes: u64,
}

/// Solver nodes of the tree's proofs after which the clock is read before the next
/// [`CLOCK_INTERVAL`] ends: a few milliseconds, where 256 simulations that each ran a full
/// proof could take over 100.
const SOLVER_NODES_PER_CLOCK_READ: u64 = 4096;

/// The proof, for its mover, of a small endgame's `position` in the tree by `solver` (made on
/// first use) within `nodes` nodes, the nodes it took counted in `unclocked` for the clock
/// ([`solver_clock_due`]).
pub fn tree_proof(
    solver: &mut Option<Solver>,
    position: &Position,
    nodes: u32,
    unclocked: &mut u64,
) -> Option<Proof> {
    let solver = Solver::made_once(solver);
    let proof = solver.mover_proof(position, nodes);
    *unclocked += solver.nodes();
    proof
}

/// Whether the clock is to be read before the next [`CLOCK_INTERVAL`] of simulations ends,
/// `unclocked` solver nodes of the tree's proofs having run since it was last read: then
/// they count from 0 again.
#[inline]
pub fn solver_clock_due(unclocked: &mut u64) -> bool {
    let due = *unclocked >= SOLVER_NODES_PER_CLOCK_READ;
    if due {
        *unclocked = 0;
    }
    due
}

/// Leaves between two that [`LeafClock`] times: reading the clock twice at every leaf would
/// slow the search it measures.
const LEAVES_PER_SAMPLE: u32 = 8;

/// The time a search spends at its leaves (playouts, or evaluations), estimated from every
/// eighth leaf once [`LeafClock::turn_on`] is called; off, it costs a test.
#[derive(Clone, Copy, Debug, Default)]
pub struct LeafClock {
    on: bool,
    leaves: u32,
    sampled: Duration,
}

impl LeafClock {
    /// Starts measuring, from nothing.
    pub fn turn_on(&mut self) {
        *self = LeafClock { on: true, ..LeafClock::default() };
    }

    /// Called as a leaf starts: the instant, when this leaf is sampled.
    #[inline]
    pub fn start(&mut self) -> Option<Instant> {
        if !self.on {
            return None;
        }
        self.leaves += 1;
        self.leaves.is_multiple_of(LEAVES_PER_SAMPLE).then(Instant::now)
    }

    /// Called as the leaf that [`LeafClock::start`] started ends.
    #[inline]
    pub fn stop(&mut self, started: Option<Instant>) {
        if let Some(started) = started {
            self.sampled += started.elapsed();
        }
    }

    /// A clock for another thread of the same search: on when this one is, from nothing.
    pub fn fork(&self) -> LeafClock {
        LeafClock { on: self.on, ..LeafClock::default() }
    }

    /// Adds the time another thread's clock measured ([`LeafClock::fork`]).
    pub fn add(&mut self, other: &LeafClock) {
        self.sampled += other.sampled;
    }

    /// The estimated time spent at the leaves since [`LeafClock::turn_on`], all threads
    /// together.
    pub fn total(&self) -> Duration {
        self.sampled * LEAVES_PER_SAMPLE
    }
}

/// Nanoseconds [`Core::prune`] takes at most for each node of the tree, about twice the
/// 2-core VM's (`docs/performance-log.md#a-prune-that-reads-only-the-owners-of-blocks-2026-12-04`).
const PRUNE_NANOS_PER_NODE: u64 = 6;

impl<S: Stats> Core<S> {
    /// A search with `params`, its random choices drawn from `seed`: the tree takes
    /// [`Params::memory_bytes`] less the endgame solver's table.
    pub fn new(params: Params, seed: u64) -> Core<S> {
        let tree_bytes = params.memory_bytes.saturating_sub(Solver::table_bytes(DEFAULT_TABLE_BITS));
        Core {
            params,
            tree: Tree::new(tree_bytes),
            solver: None,
            rng: fastrand::Rng::with_seed(seed),
            leaf_clock: LeafClock::default(),
            unclocked_solver_nodes: 0,
        }
    }

    /// Whether the tree of a search that prunes ([`Simulate::PRUNES`]) has no room for
    /// another node's children and is to be pruned ([`Params::prune_share`] above 0).
    #[inline]
    fn must_prune<T: Simulate>(&self) -> bool {
        T::PRUNES && self.params.prune_share > 0.0 && !self.tree.has_room(MAX_MOVES)
    }

    /// Prunes the tree to [`Params::prune_share`] of its capacity ([`Tree::prune`]), moving
    /// its nodes.
    fn prune(&mut self) {
        self.tree.prune((self.tree.capacity() as f64 * f64::from(self.params.prune_share)) as usize);
    }

    /// A bound on the time [`Core::prune`] takes on this tree on a slow machine.
    fn prune_time(&self) -> Duration {
        Duration::from_nanos(PRUNE_NANOS_PER_NODE * self.tree.len() as u64)
    }

    /// Simulations of the root's child playing `p` (0 when there is none).
    pub fn root_child_visits(&self, p: Point) -> u32 {
        let tree = &self.tree;
        if tree.is_empty() {
            return 0;
        }
        tree.child(NodeId::ROOT, p).map_or(0, |c| tree.stats(c).visits())
    }
}

/// A tree search: its simulation, on a [`Core`].
pub trait Simulate: Send {
    /// The statistics of its nodes.
    type Stats: Stats;
    /// Its name in the registry of engines.
    const NAME: &'static str;
    /// Whether its full tree is pruned so that it grows again ([`Params::prune_share`]); a
    /// search that does not prune refines the full tree's leaves.
    const PRUNES: bool = false;

    /// Its core.
    fn core(&self) -> &Core<Self::Stats>;

    /// Its core, to change.
    fn core_mut(&mut self) -> &mut Core<Self::Stats>;

    /// Gets ready for simulations from `position`, whose subtree is now the tree's root;
    /// called again after the tree is pruned, which moves its nodes.
    fn start(&mut self, _position: &Position) {}

    /// Forgets the trees kept from earlier moves: the next search starts afresh.
    fn forget(&mut self) {
        self.core_mut().tree.forget();
    }

    /// Simulations from `position`, the position at the tree's root: one, or a few from the
    /// same leaf, at most `most` (not 0); how many.
    fn simulate(&mut self, position: &Position, most: u64) -> u64;

    /// The root's child to play once the search has run: by default [`analysis::best_move`].
    fn move_to_play(&self) -> Option<NodeId> {
        analysis::best_move(&self.core().tree, NodeId::ROOT)
    }

    /// Runs simulations from `position`, prepared, until `budget` ends or the root is
    /// proven: how many ran. By default [`run_serial`].
    fn run(&mut self, position: &Position, budget: &Budget) -> u64
    where
        Self: Sized,
    {
        run_serial(self, position, budget)
    }
}

/// Runs simulations one at a time on this thread ([`Simulate::run`]), reading the clock every
/// [`CLOCK_INTERVAL`] of them, pruning the tree whenever it is full.
pub fn run_serial<T: Simulate>(search: &mut T, position: &Position, budget: &Budget) -> u64 {
    let max = budget.nodes.unwrap_or(u64::MAX);
    let mut simulations = 0;
    while simulations < max && !search.core().tree.proof(NodeId::ROOT).is_known() {
        if !make_room(search, position, budget) {
            break;
        }
        let before = simulations;
        simulations += search.simulate(position, max - simulations);
        if (passes_multiple(before, simulations, CLOCK_INTERVAL)
            || solver_clock_due(&mut search.core_mut().unclocked_solver_nodes))
            && budget.expired()
        {
            break;
        }
    }
    simulations
}

/// Prunes the tree of `search`, searching `position`, when it is full and the search prunes
/// ([`Simulate::PRUNES`]), then starts the search again: whether simulations may go on, false
/// when the tree is full too near the deadline to prune (the search ends where it is).
pub fn make_room<T: Simulate>(search: &mut T, position: &Position, budget: &Budget) -> bool {
    if search.core().must_prune::<T>() {
        if budget.expires_within(search.core().prune_time()) {
            return false;
        }
        search.core_mut().prune();
        search.start(position);
    }
    true
}

/// Sets `search` up for simulations from `position`: the tree's root (the subtree kept from
/// the last search when there is one, pruned when full), and the search's own preparations.
pub fn prepare<T: Simulate>(search: &mut T, position: &Position) {
    let core = search.core_mut();
    core.tree.set_root(position);
    if core.must_prune::<T>() {
        core.prune();
    }
    search.start(position);
}

/// Chooses a move for `position` with `search` within `budget`.
pub fn think<T: Simulate>(search: &mut T, position: &Position, budget: &Budget) -> Report {
    let started = Instant::now();
    let core = search.core_mut();
    if let Some(report) = answer_without_tree(position, budget, started, &mut core.solver, &core.params) {
        return report;
    }
    prepare(search, position);
    let simulations = search.run(position, budget);
    let chosen = search.move_to_play();
    let core = search.core_mut();
    let tree = &core.tree;
    let (best, win_rate) = match chosen {
        Some(child) => (tree.point(child), tree.stats(child).mean() as f64),
        None => {
            // No simulation ran (an expired budget): any legal move beats none.
            let pick = position.legal_moves().choose(&mut core.rng).expect("a position with a legal move");
            (pick, 0.5)
        }
    };
    // The root's proof is for the player who moved into it: flipped for the side to move.
    let proof = tree.proof(NodeId::ROOT).flip();
    let line = chosen.map_or_else(Vec::new, |child| analysis::line_from(tree, child));
    Report::searched(best, simulations, started, win_rate, line, proof)
}

impl<T: Simulate> Engine for T {
    fn name(&self) -> &'static str {
        T::NAME
    }

    fn think(&mut self, position: &Position, budget: &Budget) -> Report {
        think(self, position, budget)
    }

    fn new_game(&mut self) {
        self.forget();
    }

    fn root_children(&self, position: &Position) -> Vec<(Point, u32, f32)> {
        let tree = &self.core().tree;
        if !tree.holds(position) {
            return Vec::new();
        }
        analysis::root_children(tree)
    }

    fn busy_nodes(&self, position: &Position, min_visits: u32) -> Vec<BusyNode> {
        let tree = &self.core().tree;
        if !tree.holds(position) {
            return Vec::new();
        }
        analysis::busy_nodes(tree, min_visits)
    }
}
