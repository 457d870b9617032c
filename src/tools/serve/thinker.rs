//! The server's one engine: one search at a time, run in slices of [`SLICE`] so that what the
//! tree holds is sent while it searches. The tree is kept between slices (and between moves,
//! as in a game), so the slices add up to one search.

use crate::engines::book::Book;
use crate::engines::EngineArgs;
use crate::rules::{Point, Position};
use crate::search::engine::{Budget, Engine, Proof, Report};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// The time between two updates of a search.
pub const SLICE: Duration = Duration::from_millis(100);

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Goal {
    /// A move within this time.
    Move(Duration),
    /// Analysis of the position until stopped (or proven).
    Analyse,
}

/// What the tree holds, sent after each slice of a search.
#[derive(Clone, Debug, Serialize)]
pub struct Update {
    /// Simulations so far.
    pub simulations: u64,
    /// Seconds since the search started.
    pub seconds: f64,
    /// The move the search would play now.
    pub best: String,
    /// Its win estimate for the side to move, 0 to 1.
    pub win: f64,
    /// `win` or `loss` once proven for the side to move.
    pub proof: Option<&'static str>,
    /// The expected continuation, from `best`.
    pub pv: Vec<String>,
    /// The root's searched children, most visited first.
    pub points: Vec<PointStats>,
    /// The search is over: `best` is its answer.
    pub done: bool,
}

/// One child of the root.
#[derive(Clone, Debug, Serialize)]
pub struct PointStats {
    /// The move.
    pub point: String,
    /// Its simulations.
    pub visits: u32,
    /// Its win estimate for the side to move.
    pub win: f32,
}

/// The one engine and whether it searches.
pub struct Thinker {
    engine: Mutex<Box<dyn Engine>>,
    /// The opening book the engine's moves come from, where it has one (`--book`).
    book: Option<&'static Book>,
    busy: AtomicBool,
    stop: &'static AtomicBool,
}

/// Clears [`Thinker::busy`] when a search ends, however it ends.
struct Busy<'a>(&'a AtomicBool);

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

impl Thinker {
    /// The engine `args` choose.
    pub fn new(args: &EngineArgs) -> Thinker {
        Thinker {
            engine: Mutex::new(args.create()),
            book: args.opening_book(),
            busy: AtomicBool::new(false),
            // `Budget` takes a flag that lives as long as the program: one a server.
            stop: Box::leak(Box::new(AtomicBool::new(false))),
        }
    }

    /// Starts searching `position` (which has a legal move) for `goal` on a thread of its own,
    /// unless a search runs: its updates, the last one `done`. The search ends early when
    /// [`Thinker::stop`] is called or the receiver is dropped.
    pub fn start(self: &Arc<Self>, position: Position, goal: Goal) -> Option<mpsc::Receiver<Update>> {
        if self.busy.swap(true, Ordering::AcqRel) {
            return None;
        }
        self.stop.store(false, Ordering::Relaxed);
        let (sender, receiver) = mpsc::channel(4);
        let thinker = Arc::clone(self);
        std::thread::spawn(move || {
            let _busy = Busy(&thinker.busy);
            thinker.search(&position, goal, &sender);
        });
        Some(receiver)
    }

    /// The engine's name.
    pub fn engine_name(&self) -> &'static str {
        self.engine.lock().unwrap_or_else(PoisonError::into_inner).name()
    }

    /// Ends the search that runs, if any, at its next look at the clock.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    fn search(&self, position: &Position, goal: Goal, sender: &mpsc::Sender<Update>) {
        let mut engine = self.engine.lock().unwrap_or_else(PoisonError::into_inner);
        let started = Instant::now();
        // A move the book has is played after the search all the same (the tree is kept for
        // the next moves); an analysis ignores the book.
        let booked = match goal {
            Goal::Move(_) => self.book.and_then(|book| book.lookup(position)),
            Goal::Analyse => None,
        };
        let deadline = match goal {
            Goal::Move(limit) => Some(started + limit),
            Goal::Analyse => None,
        };
        let mut simulations = 0;
        loop {
            let slice_end = Instant::now() + SLICE;
            let budget = Budget {
                deadline: Some(deadline.map_or(slice_end, |d| d.min(slice_end))),
                nodes: None,
                stop: Some(self.stop),
            };
            let report = engine.think(position, &budget);
            simulations += report.iterations;
            let children = engine.root_children(position);
            // Over at the deadline, when stopped, or when the answer needed no tree (a
            // decisive move, a proof) or no more search (a proven root).
            let done = deadline.is_some_and(|d| Instant::now() >= d)
                || self.stop.load(Ordering::Relaxed)
                || report.iterations == 0
                || report.proof != Proof::Unknown;
            let report = match booked {
                Some(entry) if done => entry.report(report),
                _ => report,
            };
            let update = Update::new(&report, children, simulations, started.elapsed(), done);
            // A receiver gone is a page gone: stop.
            if sender.blocking_send(update).is_err() || done {
                return;
            }
        }
    }

    /// Stops the search that runs, if any, and forgets the tree: the next search starts
    /// afresh. Blocks until the search has ended (within a slice).
    pub fn new_game(&self) {
        self.stop();
        self.engine.lock().unwrap_or_else(PoisonError::into_inner).new_game();
    }
}

impl Update {
    fn new(
        report: &Report,
        mut children: Vec<(Point, u32, f32)>,
        simulations: u64,
        elapsed: Duration,
        done: bool,
    ) -> Update {
        children.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        Update {
            simulations,
            seconds: elapsed.as_secs_f64(),
            best: report.best.to_string(),
            win: report.win_rate,
            proof: match report.proof {
                Proof::Win => Some("win"),
                Proof::Loss => Some("loss"),
                Proof::Unknown => None,
            },
            pv: report.pv.iter().map(Point::to_string).collect(),
            points: children
                .into_iter()
                .map(|(p, visits, win)| PointStats { point: p.to_string(), visits, win })
                .collect(),
            done,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::EngineKind;

    fn thinker() -> Arc<Thinker> {
        thinker_with_book(false)
    }

    fn thinker_with_book(book: bool) -> Arc<Thinker> {
        let args = EngineArgs {
            time: None,
            nodes: None,
            seed: 1,
            engine: EngineKind::Rave,
            search: Default::default(),
            book,
            threads: None,
            memory_mb: None,
        };
        Arc::new(Thinker::new(&args))
    }

    fn updates(mut receiver: mpsc::Receiver<Update>) -> Vec<Update> {
        let mut all = Vec::new();
        while let Some(update) = receiver.blocking_recv() {
            all.push(update);
        }
        all
    }

    #[test]
    fn a_move_search_sends_growing_updates_and_ends_with_a_legal_move() {
        let thinker = thinker();
        let position = Position::from_moves(["E5".parse().unwrap()]).unwrap();
        let all = updates(thinker.start(position.clone(), Goal::Move(Duration::from_millis(350))).unwrap());
        assert!(all.len() >= 2, "{} updates", all.len());
        let last = all.last().unwrap();
        assert!(last.done && all[..all.len() - 1].iter().all(|u| !u.done));
        assert!(position.is_legal(position.to_move(), last.best.parse().unwrap()));
        // The slices add up to one search: the root's visits grow from update to update.
        let visits = |u: &Update| u.points.iter().map(|p| u64::from(p.visits)).sum::<u64>();
        assert!(all.windows(2).all(|w| visits(&w[1]) > visits(&w[0])));
        assert!(all.windows(2).all(|w| w[1].simulations > w[0].simulations));
        assert!(last.points.windows(2).all(|w| w[0].visits >= w[1].visits));
    }

    #[test]
    fn one_search_at_a_time_and_stop_ends_an_analysis() {
        let thinker = thinker();
        let mut receiver = thinker.start(Position::new(), Goal::Analyse).unwrap();
        let first = receiver.blocking_recv().unwrap();
        assert!(!first.done);
        assert!(thinker.start(Position::new(), Goal::Analyse).is_none(), "a second search was let in");
        thinker.stop();
        let rest = updates(receiver);
        assert!(rest.last().unwrap().done);
        // The search has ended: the next one starts.
        while thinker.busy.load(Ordering::Acquire) {
            std::thread::yield_now();
        }
        let again = updates(thinker.start(Position::new(), Goal::Move(Duration::from_millis(150))).unwrap());
        assert!(again.last().unwrap().done);
    }

    #[test]
    fn with_book_a_move_comes_from_it_and_an_analysis_still_searches() {
        let thinker = thinker_with_book(true);
        let book_move = Book::embedded().lookup(&Position::new()).unwrap().best.to_string();
        let all = updates(thinker.start(Position::new(), Goal::Move(Duration::from_millis(300))).unwrap());
        let last = all.last().unwrap();
        assert_eq!((last.best.as_str(), last.done), (book_move.as_str(), true));
        assert!(last.simulations > 0 && !last.points.is_empty());
        while thinker.busy.load(Ordering::Acquire) {
            std::thread::yield_now();
        }
        let mut analysis = thinker.start(Position::new(), Goal::Analyse).unwrap();
        assert!(analysis.blocking_recv().unwrap().simulations > 0);
        thinker.stop();
    }

    #[test]
    fn a_dropped_receiver_ends_the_search() {
        let thinker = thinker();
        let receiver = thinker.start(Position::new(), Goal::Analyse).unwrap();
        drop(receiver);
        while thinker.busy.load(Ordering::Acquire) {
            std::thread::yield_now();
        }
        assert!(thinker.start(Position::new(), Goal::Move(Duration::from_millis(50))).is_some());
    }
}
