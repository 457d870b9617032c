//! The interface every move-choosing engine implements, and the registry of built-in engines
//! selectable by name (`nogo --engine NAME`, the arena's `builtin:NAME` players).

use crate::point::Point;
use crate::position::Position;
use std::time::{Duration, Instant};

/// How long an engine may think about one move.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    /// Answer before this instant (already holds the caller's safety margin).
    pub deadline: Option<Instant>,
    /// Stop after this many iterations (nodes for tree searches); reproducible given a seed.
    pub nodes: Option<u64>,
}

impl Budget {
    /// A budget of fixed iterations and no clock.
    pub fn nodes(nodes: u64) -> Budget {
        Budget { deadline: None, nodes: Some(nodes) }
    }

    /// A budget ending at `deadline`.
    pub fn until(deadline: Instant) -> Budget {
        Budget { deadline: Some(deadline), nodes: None }
    }

    /// Whether the clock has run out.
    #[inline]
    pub fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
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
    /// `Some(true)` when the search proved a win for the side to move, `Some(false)` a loss.
    pub proven: Option<bool>,
}

impl Report {
    /// A report for a move chosen without search.
    pub fn instant(best: Point, win_rate: f64, started: Instant) -> Report {
        Report { best, iterations: 0, elapsed: started.elapsed(), win_rate, pv: vec![best], proven: None }
    }
}

/// A move-choosing engine. Engines may keep state between moves (a search tree to reuse), so
/// one instance plays one game at a time; [`Engine::new_game`] forgets it.
pub trait Engine: Send {
    /// The engine's name, as given to [`create`].
    fn name(&self) -> &'static str;

    /// Chooses a move for the side to move of `position`, which has at least one legal move.
    fn think(&mut self, position: &Position, budget: &Budget) -> Report;

    /// Forgets anything kept from earlier moves.
    fn new_game(&mut self) {}
}

/// The built-in engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineKind {
    /// The project's own search (the default).
    Mcts,
    /// Uniformly random among legal moves.
    Random,
    /// The seed bot: evaluation-only MCTS with the mobility score.
    Seed,
    /// The seed's alpha-beta with its shaped evaluation.
    #[value(name = "alphabeta")]
    AlphaBeta,
}

impl EngineKind {
    /// The engine's name.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Mcts => "mcts",
            EngineKind::Random => "random",
            EngineKind::Seed => "seed",
            EngineKind::AlphaBeta => "alphabeta",
        }
    }
}

/// Builds a built-in engine; `seed` makes its random choices reproducible.
pub fn create(kind: EngineKind, seed: u64) -> Box<dyn Engine> {
    match kind {
        EngineKind::Mcts => Box::new(crate::mcts::Mcts::new(crate::params::Params::default(), seed)),
        EngineKind::Random => Box::new(crate::engines::random::RandomEngine::new(seed)),
        EngineKind::Seed => Box::new(crate::engines::seed::SeedEngine::new()),
        EngineKind::AlphaBeta => Box::new(crate::engines::alphabeta::AlphaBetaEngine::new(seed)),
    }
}

/// Like [`create`], with the search parameters given (the tree's memory cap, for instance);
/// engines without parameters ignore them.
pub fn create_with_params(kind: EngineKind, seed: u64, params: crate::params::Params) -> Box<dyn Engine> {
    match kind {
        EngineKind::Mcts => Box::new(crate::mcts::Mcts::new(params, seed)),
        other => create(other, seed),
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    use crate::position::Position;

    /// Twenty positions met in seeded random games for which `keep` holds (the first such
    /// position of each game).
    pub fn random_positions(seed: u64, mut keep: impl FnMut(&Position) -> bool) -> Vec<Position> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut found = Vec::new();
        while found.len() < 20 {
            let mut position = Position::new();
            while !position.is_terminal() {
                if keep(&position) {
                    found.push(position.clone());
                    break;
                }
                position.play(position.legal_moves().choose(&mut rng).unwrap()).unwrap();
            }
        }
        found
    }
}
