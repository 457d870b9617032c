//! The playout search on two threads as a pipeline: this thread descends the tree, expands
//! and backs up; the other plays out, a batch of leaves at a time while this thread descends
//! for the next. Only this thread touches the tree, so the two threads share no cache line
//! but the batches'. When the other thread falls behind, this one plays out from the end of
//! the batch it fills. A descent's visits count on the way down, so a leaf still out is a
//! virtual loss that draws the next descents elsewhere.

use super::backup::Step;
use super::{back_up, play_out, solve, Context, Leaf, Rave, RaveStats, Worker};
use crate::rules::Position;
use crate::search::driver::Core;
use crate::search::engine::Budget;
use crate::search::playout::{Outcome, Start};
use crate::search::time::CLOCK_INTERVAL;
use crate::search::tree::{NodeId, Tree};
use std::sync::mpsc::{sync_channel, Receiver, TryRecvError};

/// Leaves handed to the other thread at a time: enough that a handover costs little, few
/// enough that the leaves out change little (evidence:
/// `docs/performance-log.md#two-threads-as-a-pipeline-2026-11-29`).
const BATCH: usize = 4;

/// Batches at once: the one being filled, and those the other thread holds or has done.
const BATCHES: usize = 3;

/// Leaves on their way between the threads: their playouts' starts, the outcomes once
/// played, and the descents that reached them.
#[derive(Default)]
struct Batch {
    starts: Vec<Start>,
    outcomes: Vec<Outcome>,
    paths: Vec<Vec<Step>>,
}

/// Runs simulations of `search`, prepared for `position`, on two threads as a pipeline: how
/// many ran.
pub(super) fn run(search: &mut Rave, position: &Position, budget: &Budget) -> u64 {
    let Core { params, tree, solver, rng, leaf_clock } = &mut search.core;
    let seed = rng.u64(..);
    let context = Context::new(params, &search.values, search.eyes);
    let (to_other, starts) = sync_channel::<Batch>(BATCHES);
    let (to_this, played) = sync_channel::<Batch>(BATCHES);
    let mut other_clock = leaf_clock.fork();
    let simulations = std::thread::scope(|scope| {
        let other_clock = &mut other_clock;
        scope.spawn(move || {
            let mut rng = fastrand::Rng::with_seed(seed);
            let mut wait = 0;
            loop {
                match starts.try_recv() {
                    Ok(mut batch) => {
                        wait = 0;
                        let Batch { starts, outcomes, .. } = &mut batch;
                        outcomes.extend(
                            starts.drain(..).map(|start| play_out(start, context, &mut rng, other_clock)),
                        );
                        if to_this.send(batch).is_err() {
                            return;
                        }
                    }
                    Err(TryRecvError::Empty) => back_off(&mut wait),
                    Err(TryRecvError::Disconnected) => return,
                }
            }
        });
        let to_move = position.to_move();
        let back_up_all = |tree: &mut Tree<RaveStats>, batch: &mut Batch| {
            for (path, outcome) in batch.paths.iter().zip(batch.outcomes.drain(..)) {
                back_up(tree, context, path, to_move, &outcome);
            }
        };
        let mut worker = Worker::new(position);
        let mut filling = Batch::default();
        // Empty batches, the next to fill; the others are out with the other thread.
        let mut spares: Vec<Batch> = (1..BATCHES).map(|_| Batch::default()).collect();
        let max = budget.nodes.unwrap_or(u64::MAX);
        let (mut simulations, mut clock_due) = (0, 0);
        while simulations < max && !tree.proof(NodeId::ROOT).is_known() {
            if simulations == clock_due {
                if budget.expired() {
                    break;
                }
                clock_due += CLOCK_INTERVAL;
            }
            simulations += 1;
            let start = match worker.reach_leaf(&mut *tree, context, |p| solve(params, solver, p)) {
                Leaf::Open(start) => start,
                Leaf::Known(outcome) => {
                    back_up(&mut *tree, context, &worker.path, to_move, &outcome);
                    continue;
                }
            };
            // The descent's path goes with its leaf; the worker takes an old one's buffer.
            let n = filling.starts.len();
            filling.starts.push(start);
            if filling.paths.len() == n {
                filling.paths.push(Vec::with_capacity(worker.path.capacity()));
            }
            std::mem::swap(&mut worker.path, &mut filling.paths[n]);
            if n + 1 < BATCH {
                continue;
            }
            while let Ok(mut batch) = played.try_recv() {
                back_up_all(tree, &mut batch);
                spares.push(batch);
            }
            let mut next = match spares.pop() {
                Some(batch) => batch,
                // Every other batch out: this thread plays out from its own batch's end.
                None => {
                    let mut batch = loop {
                        if let Ok(batch) = played.try_recv() {
                            break batch;
                        }
                        let Some(start) = filling.starts.pop() else {
                            break wait_for(&played);
                        };
                        let outcome = play_out(start, context, rng, leaf_clock);
                        back_up(&mut *tree, context, &filling.paths[filling.starts.len()], to_move, &outcome);
                    };
                    back_up_all(tree, &mut batch);
                    batch
                }
            };
            std::mem::swap(&mut next, &mut filling);
            if next.starts.is_empty() {
                spares.push(next);
            } else {
                to_other.send(next).expect("the playout thread runs");
            }
        }
        for _ in spares.len() + 1..BATCHES {
            back_up_all(tree, &mut wait_for(&played));
        }
        for (path, start) in filling.paths.iter().zip(filling.starts.drain(..)) {
            back_up(&mut *tree, context, path, to_move, &play_out(start, context, rng, leaf_clock));
        }
        // The other thread ends as its channel closes.
        drop(to_other);
        simulations
    });
    leaf_clock.add(&other_clock);
    simulations
}

/// The next batch played, waited for.
fn wait_for(played: &Receiver<Batch>) -> Batch {
    let mut wait = 0;
    loop {
        match played.try_recv() {
            Ok(batch) => return batch,
            Err(TryRecvError::Empty) => back_off(&mut wait),
            Err(TryRecvError::Disconnected) => panic!("the playout thread ended"),
        }
    }
}

/// Waits a little: spins at first, then lets the processor go.
#[inline]
fn back_off(wait: &mut u32) {
    if *wait < 64 {
        std::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
    *wait += 1;
}
