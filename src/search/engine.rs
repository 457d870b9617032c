//! The interface every move-choosing engine implements: what it may spend ([`Budget`]), what
//! it answers ([`Report`]), and the results a search can prove ([`Proof`]).

use crate::rules::{Point, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long an engine may think about one move.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    /// Answer before this instant (already holds the caller's safety margin).
    pub deadline: Option<Instant>,
    /// Stop after this many iterations (nodes for tree searches); reproducible given a seed.
    pub nodes: Option<u64>,
    /// Stop once this flag is raised (a person's interrupt, for instance).
    pub stop: Option<&'static AtomicBool>,
}

impl Budget {
    /// A budget of fixed iterations and no clock.
    pub fn nodes(nodes: u64) -> Budget {
        Budget { nodes: Some(nodes), ..Budget::default() }
    }

    /// A budget ending at `deadline`.
    pub fn until(deadline: Instant) -> Budget {
        Budget { deadline: Some(deadline), ..Budget::default() }
    }

    /// Whether the clock has run out, or the stop flag is raised.
    #[inline]
    pub fn expired(&self) -> bool {
        self.expires_within(Duration::ZERO)
    }

    /// Whether the clock runs out within `time`, or the stop flag is raised.
    #[inline]
    pub fn expires_within(&self, time: Duration) -> bool {
        self.deadline.is_some_and(|d| Instant::now() + time >= d)
            || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// A game-theoretic result, for one side: proven won, proven lost, or not proven.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Proof {
    /// Not proven either way.
    #[default]
    Unknown,
    /// Proven won for the side.
    Win,
    /// Proven lost for the side.
    Loss,
}

impl Proof {
    /// A proven result: a win when `win`, else a loss.
    #[inline]
    pub fn proven(win: bool) -> Proof {
        if win {
            Proof::Win
        } else {
            Proof::Loss
        }
    }

    /// The same result seen by the other side.
    #[inline]
    pub fn flip(self) -> Proof {
        match self {
            Proof::Unknown => Proof::Unknown,
            Proof::Win => Proof::Loss,
            Proof::Loss => Proof::Win,
        }
    }

    /// Whether the result is proven either way.
    #[inline]
    pub fn is_known(self) -> bool {
        self != Proof::Unknown
    }
}

/// What an engine found: the move and the figures a user or the `debug` field wants.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The chosen move; always legal for the side to move.
    pub best: Point,
    /// Iterations (or nodes) searched for this move.
    pub iterations: u64,
    /// Time spent thinking.
    pub elapsed: Duration,
    /// Estimated probability that the side to move wins, in `[0, 1]`.
    pub win_rate: f64,
    /// Expected continuation, starting with `best`.
    pub pv: Vec<Point>,
    /// What the search proved for the side to move.
    pub proof: Proof,
}

impl Report {
    /// A report for a move chosen without search.
    pub fn instant(best: Point, win_rate: f64, started: Instant) -> Report {
        Report {
            best,
            iterations: 0,
            elapsed: started.elapsed(),
            win_rate,
            pv: vec![best],
            proof: Proof::Unknown,
        }
    }

    /// A report of a search that ran `iterations` since `started`: `estimate` is its win
    /// estimate for the side to move, replaced by 1 or 0 when it proved the result (`proof`).
    pub fn searched(
        best: Point,
        iterations: u64,
        started: Instant,
        estimate: f64,
        pv: Vec<Point>,
        proof: Proof,
    ) -> Report {
        let win_rate = match proof {
            Proof::Win => 1.0,
            Proof::Loss => 0.0,
            Proof::Unknown => estimate,
        };
        Report { best, iterations, elapsed: started.elapsed(), win_rate, pv, proof }
    }

    /// A report for a move that wins at once (it leaves the opponent no legal move).
    pub fn decisive(best: Point, started: Instant) -> Report {
        Report { proof: Proof::Win, ..Report::instant(best, 1.0, started) }
    }
}

/// A move-choosing engine. Engines may keep state between moves (a search tree to reuse), so
/// one instance plays one game at a time; [`Engine::new_game`] forgets it.
pub trait Engine: Send {
    /// The engine's name, as the registry of engines gives it.
    fn name(&self) -> &'static str;

    /// Chooses a move for the side to move of `position`, which has at least one legal move.
    fn think(&mut self, position: &Position, budget: &Budget) -> Report;

    /// Forgets anything kept from earlier moves.
    fn new_game(&mut self) {}

    /// After a [`Engine::think`] that searched `position`, the root's children: each move with
    /// its visits and mean value for the side to move, for analysis views and self-play. Empty
    /// for engines without a tree, and when the move for `position` was found without a search
    /// (a decisive move, the endgame solver's proof).
    fn root_children(&self, _position: &Position) -> Vec<(Point, u32, f32)> {
        Vec::new()
    }

    /// After a [`Engine::think`] that searched `position`, the nodes below the root visited at
    /// least `min_visits` times that have children, depth first: the moves from `position` to
    /// each, and its children with their visits (`nogo selfplay --tree-visits`: what the tree
    /// came to prefer). Empty when [`Engine::root_children`] is.
    fn busy_nodes(&self, _position: &Position, _min_visits: u32) -> Vec<BusyNode> {
        Vec::new()
    }
}

/// A node below the root of a search ([`Engine::busy_nodes`]).
#[derive(Clone, Debug, PartialEq)]
pub struct BusyNode {
    /// The moves from the root's position to the node.
    pub line: Vec<Point>,
    /// Its children: each move with its visits and its mover's share of them won.
    pub children: Vec<(Point, u32, f32)>,
}
