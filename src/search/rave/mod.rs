//! Monte Carlo tree search with random playouts and RAVE, the method of the strongest NoGo
//! programs known (HappyNoGo, HaHaNoGo): each simulation descends the tree by
//! `select::best_child`, expands a leaf visited often enough (`expand`), plays the game
//! out by the NoGo-aware policy of [`crate::search::playout`], and counts the result for
//! every node of the descent and, as all moves as first, for the children whose move was
//! played later (`backup::backup`). Positions proven (a side without a move) climb the tree as in
//! MCTS-Solver (`proofs`).
//!
//! The tree, the think loop and the reading of the result are the shared
//! [`crate::search::tree`], [`crate::search::driver`] and [`crate::search::analysis`]; this
//! module holds the node (`node`) and the policy, written once for one thread or several
//! (`threads`) over [`Nodes`]; two threads search a tree each instead (`roots`).

mod backup;
mod expand;
mod node;
mod proofs;
mod roots;
mod select;
mod threads;

use crate::rules::point::MAX_POSITIONS;
use crate::rules::Bitboard;
use crate::rules::{Color, Position};
use crate::search::analysis;
use crate::search::driver::{self, Core, LeafClock, Simulate};
use crate::search::endgame::Solver;
use crate::search::engine::{Budget, Proof};
use crate::search::eval::ValueTable;
use crate::search::params::Params;
use crate::search::playout::{spoils_eyes, Outcome, OwnPoint, Start};
use crate::search::time::is_shorter;
use crate::search::tree::{NodeId, Nodes, Stats};
use crate::search::walk::Walk;
use backup::{Results, Step};
pub use node::RaveStats;
use select::RootRule;
use std::time::{Duration, Instant};

/// The playout search.
pub struct Rave {
    core: Core<RaveStats>,
    /// The evaluation's values by mobility, for [`Params::rave_eval_weight`].
    values: ValueTable,
    /// The descent of this thread's simulations, made as a search starts.
    worker: Option<Box<Worker>>,
    /// What this search does for the time it has, set as it starts to run.
    short: Short,
    /// With two threads, the other thread's search, on a tree of its own (`roots`).
    other: Option<Box<Rave>>,
    /// What the other search's root children added to this tree's, to be taken back.
    added: Option<roots::Added>,
    /// Which of the root's children this search's descents may enter (`roots`).
    root_rule: RootRule,
}

/// What a simulation reads besides the tree: the search's parameters, value table and
/// playout policy.
#[derive(Clone, Copy)]
struct Context<'a> {
    params: &'a Params,
    values: &'a ValueTable,
    own: OwnPoint,
    short: Short,
    /// Which of the root's children a descent may enter.
    root: RootRule,
}

impl<'a> Context<'a> {
    fn new(params: &'a Params, values: &'a ValueTable, short: Short) -> Context<'a> {
        Context { params, values, own: OwnPoint::of(params), short, root: RootRule::Free }
    }
}

/// What a search does differently when given little time, as that wins at short times only.
#[derive(Clone, Copy, Debug, Default)]
struct Short {
    /// Its playouts spoil eyes ([`spoils_eyes`]).
    eyes: bool,
    /// It proves small endgames at its leaves ([`Params::rave_solve_points`]).
    solves: bool,
}

impl Short {
    /// What a search with `time` to run (`None`: no clock) does: each setting below its
    /// threshold (evidence: docs/strength-log.md#playout_eyes_ms, #rave_solve_points).
    fn of(params: &Params, time: Option<Duration>) -> Short {
        Short {
            eyes: spoils_eyes(params, time),
            solves: params.rave_solve_points > 0 && is_shorter(time, params.rave_solve_ms),
        }
    }
}

/// What each thread of a search keeps: the nodes of its current descent and the positions
/// along it.
struct Worker {
    /// The nodes of the current descent, from the root down.
    path: Vec<Step>,
    /// The positions of the last descent, kept for the next.
    walk: Walk,
    /// The side to move at the root.
    to_move: Color,
}

impl Rave {
    /// A search with `params`, its random choices drawn from `seed`; on two threads, two
    /// searches, each tree taking [`Params::memory_bytes`].
    pub fn new(params: Params, seed: u64) -> Rave {
        Rave {
            values: ValueTable::new(&params),
            core: Core::new(params, seed),
            worker: None,
            short: Short::default(),
            other: (params.threads == 2).then(|| Box::new(roots::other_search(&params, seed))),
            added: None,
            root_rule: RootRule::Free,
        }
    }
}

/// Whether a leaf's `position`, in a search that proves small endgames at its leaves, has at
/// most [`Params::rave_solve_points`] live points: a playout misjudges small endgames that
/// the endgame solver settles.
fn is_small_endgame(context: Context, position: &Position) -> bool {
    context.short.solves && position.live_points() <= context.params.rave_solve_points
}

/// The proof, for its mover, of a small endgame's `position` by `solver` within
/// [`Params::tree_solve_nodes`] nodes, the nodes counted in `unclocked` for the clock.
fn solve(
    params: &Params,
    solver: &mut Option<Solver>,
    position: &Position,
    unclocked: &mut u64,
) -> Option<Proof> {
    driver::tree_proof(solver, position, params.tree_solve_nodes, unclocked)
}

impl Worker {
    /// Ready for simulations from `root`, the position at the tree's root.
    fn new(root: &Position) -> Worker {
        Worker { path: Vec::with_capacity(MAX_POSITIONS), walk: Walk::new(root), to_move: root.to_move() }
    }

    /// Descends from the root to a leaf, counting each node's visit and expanding a leaf
    /// visited often enough, and records the descent in `self.path`, whose last node is the
    /// leaf; `self.walk` holds the positions. A descent expands one leaf at most: it ends at
    /// the child it enters below it.
    fn descend(&mut self, tree: &mut impl Nodes<RaveStats>, context: Context) {
        self.path.clear();
        let mut id = NodeId::ROOT;
        let mut expanded = false;
        loop {
            let depth = self.path.len();
            let (position, moves) = self.walk.at(depth);
            self.path.push(Step { id, moves });
            tree.update(id, |stats| stats.visit(1));
            if expanded || tree.proof(id).is_known() {
                return;
            }
            if !tree.has_children(id) {
                // This visit counted: the node was visited `rave_expand_visits` times before.
                let ready = id == NodeId::ROOT || tree.stats(id).visits() > context.params.rave_expand_visits;
                if !ready || !expand::expand(tree, context, id, position, moves, depth) {
                    return;
                }
                expanded = true;
                if tree.proof(id).is_known() {
                    proofs::prove_up(tree, &self.path);
                    return;
                }
            }
            id = match depth {
                0 => select::root_child(tree, id, context.params, context.root),
                _ => select::best_child(tree, id, context.params),
            };
            self.walk.enter(depth + 1, id, tree.point(id));
        }
    }

    /// Descends, expands, plays out and backs up: a simulation for a proven leaf, otherwise
    /// [`Params::rave_leaf_playouts`] (at most `most`, not 0) from the leaf reached, counted
    /// along the descent in one backup; how many. `solve` proves a small endgame at a leaf
    /// where it can.
    fn simulate(
        &mut self,
        tree: &mut impl Nodes<RaveStats>,
        context: Context,
        rng: &mut fastrand::Rng,
        leaf_clock: &mut LeafClock,
        solve: impl FnOnce(&Position) -> Option<Proof>,
        most: u64,
    ) -> u64 {
        let mut results = Results::new();
        let start = match self.reach_leaf(tree, context, solve) {
            Leaf::Known(outcome) => {
                results.add(outcome.winner, amaf_points(context, &outcome));
                backup::backup(tree, &self.path, self.to_move, &results);
                return 1;
            }
            Leaf::Open(start) => start,
        };
        let playouts = most.min(context.params.rave_leaf_playouts.into());
        // The descent counted the first playout's visits.
        if playouts > 1 {
            self.path.iter().for_each(|step| tree.update(step.id, |stats| stats.visit(playouts as u32 - 1)));
        }
        for _ in 0..playouts {
            let outcome = play_out(start, context, rng, leaf_clock);
            results.add(outcome.winner, amaf_points(context, &outcome));
        }
        backup::backup(tree, &self.path, self.to_move, &results);
        playouts
    }

    /// Descends to a leaf (`self.path`), proving it by `solve` when a small endgame: its
    /// outcome when proven, otherwise the start of its playout.
    fn reach_leaf(
        &mut self,
        tree: &mut impl Nodes<RaveStats>,
        context: Context,
        solve: impl FnOnce(&Position) -> Option<Proof>,
    ) -> Leaf {
        self.descend(tree, context);
        let leaf = self.path.last().expect("a descent holds the root").id;
        let position = self.walk.at(self.path.len() - 1).0;
        if leaf != NodeId::ROOT && !tree.proof(leaf).is_known() && is_small_endgame(context, position) {
            if let Some(proof) = solve(position) {
                tree.set_proof(leaf, proof);
                proofs::prove_up(tree, &self.path);
            }
        }
        match tree.proof(leaf) {
            Proof::Unknown => Leaf::Open(Start::of(position)),
            // A proven node's result needs no playout; its stones are those on the board.
            proof => {
                let mover = !position.to_move();
                let winner = if proof == Proof::Win { mover } else { !mover };
                let stones = [position.stones(Color::Black), position.stones(Color::White)];
                Leaf::Known(Outcome { winner, stones, reserves: [Bitboard::EMPTY; 2] })
            }
        }
    }
}

/// Where a descent ended: a proven leaf's outcome, or the start of the leaf's playout.
enum Leaf {
    Known(Outcome),
    Open(Start),
}

/// The playout from `start` by the search's policy, its time sampled by `leaf_clock`.
#[inline]
fn play_out(start: Start, context: Context, rng: &mut fastrand::Rng, leaf_clock: &mut LeafClock) -> Outcome {
    let clock = leaf_clock.start();
    let outcome = start.play_out(rng, context.own, context.short.eyes);
    leaf_clock.stop(clock);
    outcome
}

/// The points each colour played in `outcome` that count as all moves as first: without
/// [`Params::rave_amaf_reserves`], not the reserves.
fn amaf_points(context: Context, outcome: &Outcome) -> [Bitboard; 2] {
    if context.params.rave_amaf_reserves == 0 {
        [outcome.stones[0] - outcome.reserves[0], outcome.stones[1] - outcome.reserves[1]]
    } else {
        outcome.stones
    }
}

impl Simulate for Rave {
    type Stats = RaveStats;
    const NAME: &'static str = "rave";
    const PRUNES: bool = true;

    fn core(&self) -> &Core<RaveStats> {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core<RaveStats> {
        &mut self.core
    }

    fn start(&mut self, position: &Position) {
        if let Some(added) = self.added.take() {
            roots::take_back(&mut self.core.tree, added, position);
        }
        self.worker = Some(Box::new(Worker::new(position)));
    }

    fn move_to_play(&self) -> Option<NodeId> {
        match &self.added {
            // Focused rounds raise a child's count by its focus: the surest move, not the most simulated.
            Some(_) if self.core.params.rave_focus_rounds > 1 => roots::surest(&self.core.tree, None),
            _ => analysis::best_move(&self.core.tree, NodeId::ROOT),
        }
    }

    fn forget(&mut self) {
        self.core.tree.forget();
        self.added = None;
        if let Some(other) = &mut self.other {
            other.forget();
        }
    }

    fn simulate(&mut self, _root: &Position, most: u64) -> u64 {
        let worker = self.worker.as_mut().expect("a worker from the start of the search");
        let Core { params, tree, solver, rng, leaf_clock, unclocked_solver_nodes } = &mut self.core;
        let context = Context { root: self.root_rule, ..Context::new(params, &self.values, self.short) };
        let prove = |p: &Position| solve(params, solver, p, unclocked_solver_nodes);
        worker.simulate(tree, context, rng, leaf_clock, prove, most)
    }

    /// On [`Params::threads`] threads: two on a tree each (`roots`), more on one shared tree
    /// (`threads`).
    fn run(&mut self, position: &Position, budget: &Budget) -> u64 {
        let time = budget.deadline.map(|deadline| deadline.saturating_duration_since(Instant::now()));
        self.short = Short::of(&self.core.params, time);
        if let Some(mut other) = self.other.take() {
            let simulations = roots::run(self, &mut other, position, budget);
            self.other = Some(other);
            return simulations;
        }
        match self.core.params.threads {
            1 => driver::run_serial(self, position, budget),
            _ => threads::run(self, position, budget),
        }
    }
}

#[cfg(test)]
mod tests;
