//! The seed's alpha-beta bot, a public NoGo bot reimplemented as a baseline: minimax with alpha-beta
//! over the legal moves in random order, a leaf scored by the shaped evaluation
//!
//! `f = 1 - 2^(-(x/y)^(1/4) * (1 + z/k^2))`
//!
//! from the bot's point of view (the side to move at the root), where `x` and `y` count the
//! points only the bot / only the opponent may play, an eye counting double, `z` is the stones
//! on the board and `k = 9`.
//!
//! Readings of the reference this file had to choose:
//! - An *eye* of a colour is an empty point whose on-board neighbours are all that colour's
//!   stones. It is counted a second time when it is in that colour's exclusive set (an eye
//!   can be the last liberty of its own group, and then it is legal for neither side).
//! - `x = y = 0` reads as an even ratio, 1 (so the empty board scores 0.5, the middle of the
//!   window); `y = 0 < x` as an infinite ratio, `f = 1`: the best a heuristic can say, still
//!   below a proven win.
//! - Proven results outrank every `f` (which lies in `[0, 1]`): a won leaf (the side to move
//!   has no legal move) scores [`WIN`] for the bot or [`LOSS`], less a thousandth per ply so
//!   that quicker wins and slower losses are preferred.
//! - The window `[0.39, 0.61]` is each depth's aspiration window: the root is searched with it
//!   first, and again with a full window when the score falls outside, so the move chosen is
//!   always the exact minimax choice at that depth.
//! - Time: iterative deepening, root moves ordered previous best first and the rest at random.
//!   A depth cut short by the deadline or the node budget is discarded, and the last complete
//!   depth's move is played. The reference's adaptive depth (`log_b(remaining / spent)` more
//!   plies fit, `b` the branching factor) decides whether to start the next depth at all: a
//!   depth expected to cost more than what is left (time or nodes) is not started, which saves
//!   the time it would waste. `b` is measured over the last two plies (see
//!   `next_depth_nodes`), as alpha-beta alternates cheap and dear depths.

use crate::rules::point::{MAX_POSITIONS, SIZE};
use crate::rules::tactics::eyes;
use crate::rules::{Bitboard, Color, Point, Position};
use crate::search::engine::{Budget, Engine, Proof, Report};
use crate::search::time::CLOCK_INTERVAL;
use std::time::Instant;

/// The reference's aspiration window.
pub const WINDOW: (f64, f64) = (0.39, 0.61);
/// Score of a position the bot has won (minus `PLY_PENALTY` per ply from the root).
pub const WIN: f64 = 2.0;
/// Score of a position the bot has lost (plus `PLY_PENALTY` per ply from the root).
pub const LOSS: f64 = -1.0;
const PLY_PENALTY: f64 = 0.001;

/// The shaped score `1 - 2^(-(x/y)^(1/4) * (1 + z/81))`, in `[0, 1]`, without NaN.
pub fn shaped(x: u32, y: u32, stones: usize) -> f64 {
    let ratio = match (x, y) {
        (0, 0) => 1.0,
        (_, 0) => f64::INFINITY,
        _ => x as f64 / y as f64,
    };
    let growth = 1.0 + stones as f64 / (SIZE * SIZE) as f64;
    1.0 - (-ratio.powf(0.25) * growth).exp2()
}

/// The shaped evaluation of a non-terminal `position` for `bot`, given both legal sets.
pub fn evaluate(position: &Position, bot: Color, legal: [Bitboard; 2]) -> f64 {
    let exclusive = |c: Color| {
        let only = legal[c.index()] - legal[(!c).index()];
        only.count() + (only & eyes(position, c)).count()
    };
    shaped(exclusive(bot), exclusive(!bot), position.moves_played())
}

/// The alpha-beta engine; its random move order comes from the seed.
pub struct AlphaBetaEngine {
    rng: fastrand::Rng,
}

impl AlphaBetaEngine {
    /// An engine whose move order is drawn from `seed`.
    pub fn new(seed: u64) -> AlphaBetaEngine {
        AlphaBetaEngine { rng: fastrand::Rng::with_seed(seed) }
    }
}

/// One search: the state shared by the recursion.
struct Search<'a> {
    bot: Color,
    rng: &'a mut fastrand::Rng,
    budget: &'a Budget,
    max_nodes: u64,
    nodes: u64,
    aborted: bool,
    /// Root moves in the order to search them.
    root_moves: Vec<Point>,
    /// Triangular principal-variation table: `pv[ply]` is the best line from `ply` on.
    pv: Vec<Vec<Point>>,
}

impl Search<'_> {
    /// Minimax value for the bot of `position`, `depth` plies deep, fail-soft in
    /// `(alpha, beta)`. Meaningless once `aborted` is set.
    fn alphabeta(
        &mut self,
        position: &Position,
        depth: u32,
        ply: usize,
        mut alpha: f64,
        mut beta: f64,
    ) -> f64 {
        self.nodes += 1;
        if self.nodes >= self.max_nodes
            || (self.nodes.is_multiple_of(CLOCK_INTERVAL) && self.budget.expired())
        {
            self.aborted = true;
            return 0.0;
        }
        self.pv[ply].clear();
        let legal = position.legal_both();
        let to_move = position.to_move();
        let moves = legal[to_move.index()];
        if moves.is_empty() {
            let distance = ply as f64 * PLY_PENALTY;
            return if to_move == self.bot { LOSS + distance } else { WIN - distance };
        }
        if depth == 0 {
            return evaluate(position, self.bot, legal);
        }
        let mut order = [moves.first().expect("non-empty"); SIZE * SIZE];
        let count = if ply == 0 {
            order[..self.root_moves.len()].copy_from_slice(&self.root_moves);
            self.root_moves.len()
        } else {
            for (slot, p) in order.iter_mut().zip(moves) {
                *slot = p;
            }
            let count = moves.count() as usize;
            self.rng.shuffle(&mut order[..count]);
            count
        };
        let maximising = to_move == self.bot;
        let mut best = if maximising { f64::NEG_INFINITY } else { f64::INFINITY };
        for &mv in &order[..count] {
            let mut next = position.clone();
            next.play_unchecked(mv);
            let score = self.alphabeta(&next, depth - 1, ply + 1, alpha, beta);
            if self.aborted {
                return 0.0;
            }
            if (maximising && score > best) || (!maximising && score < best) {
                best = score;
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply].clear();
                head[ply].push(mv);
                head[ply].extend_from_slice(&tail[0]);
            }
            if maximising {
                alpha = alpha.max(best);
            } else {
                beta = beta.min(best);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The root's score at `depth`, searched with the aspiration window first; `None` when the
    /// search ran out of budget.
    fn search_depth(&mut self, root: &Position, depth: u32) -> Option<f64> {
        let score = self.alphabeta(root, depth, 0, WINDOW.0, WINDOW.1);
        let score = if score <= WINDOW.0 || score >= WINDOW.1 {
            self.alphabeta(root, depth, 0, f64::NEG_INFINITY, f64::INFINITY)
        } else {
            score
        };
        (!self.aborted).then_some(score)
    }
}

/// Nodes the next depth is expected to take, from the node counts of the depths done so far
/// (`counts[0]` is 1, the root alone). Alpha-beta alternates cheap and dear depths, so the
/// branching factor `b` is measured over the last two plies: `n(d+1) = n(d-1) * n(d) / n(d-2)`.
fn next_depth_nodes(counts: &[u64]) -> f64 {
    let n = |back: usize| counts.len().checked_sub(back).map_or(1.0, |i| counts[i] as f64);
    n(2) * n(1) / n(3)
}

impl Engine for AlphaBetaEngine {
    fn name(&self) -> &'static str {
        "alphabeta"
    }

    fn think(&mut self, position: &Position, budget: &Budget) -> Report {
        let started = Instant::now();
        let legal = position.legal_moves();
        let mut root_moves: Vec<Point> = legal.iter().collect();
        self.rng.shuffle(&mut root_moves);
        let mut report = Report::instant(root_moves[0], 0.5, started);
        if root_moves.len() == 1 {
            // A forced move needs no search, only to know whether it wins.
            let mut next = position.clone();
            next.play_unchecked(report.best);
            if next.is_terminal() {
                (report.win_rate, report.proof) = (1.0, Proof::Win);
            }
            return report;
        }
        let mut search = Search {
            bot: position.to_move(),
            rng: &mut self.rng,
            budget,
            max_nodes: budget.nodes.unwrap_or(u64::MAX),
            nodes: 0,
            aborted: false,
            root_moves,
            pv: (0..=MAX_POSITIONS).map(|_| Vec::with_capacity(MAX_POSITIONS)).collect(),
        };
        let empties = position.empty().count();
        let mut counts = vec![1];
        for depth in 1..=empties {
            let (depth_started, nodes_before) = (Instant::now(), search.nodes);
            let Some(score) = search.search_depth(position, depth) else { break };
            let best = search.pv[0][0];
            report.best = best;
            report.pv = search.pv[0].clone();
            report.win_rate = score.clamp(0.0, 1.0);
            report.proof = if score > 1.0 {
                Proof::Win
            } else if score < 0.0 {
                Proof::Loss
            } else {
                Proof::Unknown
            };
            let at = search.root_moves.iter().position(|&p| p == best).expect("best is a root move");
            search.root_moves[..=at].rotate_right(1);
            if report.proof.is_known() {
                break;
            }
            let (nodes, time) = (search.nodes - nodes_before, depth_started.elapsed());
            counts.push(nodes);
            let expected = next_depth_nodes(&counts);
            let fits_clock = budget.deadline.is_none_or(|deadline| {
                let remaining = deadline.saturating_duration_since(Instant::now());
                time.as_secs_f64() * expected / nodes as f64 <= remaining.as_secs_f64()
            });
            let fits_nodes = expected <= (search.max_nodes - search.nodes) as f64;
            if !fits_clock || !fits_nodes {
                break;
            }
        }
        report.iterations = search.nodes;
        report.elapsed = started.elapsed();
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tactics::decisive_move;
    use crate::rules::test_support::random_positions;

    fn point(x: u8, y: u8) -> Point {
        Point::from_xy(x, y).unwrap()
    }

    fn stones(points: &[(u8, u8)]) -> Bitboard {
        points.iter().map(|&(x, y)| point(x, y)).collect()
    }

    #[test]
    fn shaped_score_is_even_at_the_start_and_never_nan() {
        assert_eq!(shaped(0, 0, 0), 0.5);
        assert_eq!(evaluate(&Position::new(), Color::Black, Position::new().legal_both()), 0.5);
        assert_eq!(shaped(3, 0, 10), 1.0);
        assert_eq!(shaped(0, 3, 10), 0.0);
        assert!(shaped(4, 2, 6) > shaped(2, 4, 6));
        assert!(shaped(4, 2, 40) > shaped(4, 2, 6), "the ratio weighs more as the board fills");
        for x in 0..90 {
            for y in 0..90 {
                let f = shaped(x, y, 81);
                assert!((0.0..=1.0).contains(&f), "f({x}, {y}) = {f}");
            }
        }
    }

    #[test]
    fn eyes_count_double_from_the_bots_side() {
        // Black eyes at A9 (B9, A8) and J9 (H9, J8); a white eye at J1 (H1, J2).
        let black = stones(&[(1, 0), (0, 1), (7, 0), (8, 1)]);
        let white = stones(&[(7, 8), (8, 7)]);
        let p = Position::from_stones(black, white, Color::Black).unwrap();
        assert_eq!(eyes(&p, Color::Black), stones(&[(0, 0), (8, 0)]));
        assert_eq!(eyes(&p, Color::White), stones(&[(8, 8)]));
        let legal = p.legal_both();
        // x = 2 eyes counted twice = 4, y = 1 eye counted twice = 2, six stones.
        assert_eq!(evaluate(&p, Color::Black, legal), shaped(4, 2, 6));
        assert_eq!(evaluate(&p, Color::White, legal), shaped(2, 4, 6));
        assert!(evaluate(&p, Color::Black, legal) > 0.5, "the side with more own points leads");
    }

    #[test]
    fn fixed_nodes_and_seed_are_reproducible_and_legal() {
        let position = Position::from_moves([point(4, 4), point(2, 2), point(6, 6)]).unwrap();
        let a = AlphaBetaEngine::new(7).think(&position, &Budget::nodes(30_000));
        let b = AlphaBetaEngine::new(7).think(&position, &Budget::nodes(30_000));
        assert_eq!(a.best, b.best);
        assert_eq!(a.pv, b.pv);
        assert_eq!(a.iterations, b.iterations);
        assert!(a.iterations <= 30_000);
        assert!(position.legal_moves().has(a.best));
        assert_eq!(a.pv.first(), Some(&a.best));
        assert!(a.pv.len() >= 2, "at least depth 2 completed: {:?}", a.pv);
    }

    /// Positions met in random games, with the side to move able to move.
    #[test]
    fn plays_a_decisive_move() {
        for position in random_positions(5, |p| decisive_move(p).is_some()) {
            let report = AlphaBetaEngine::new(1).think(&position, &Budget::nodes(50_000));
            let mut next = position.clone();
            next.play(report.best).unwrap();
            assert!(next.is_terminal(), "alphabeta takes the win:\n{position}");
            assert_eq!(report.proof, Proof::Win);
        }
    }

    /// Whether playing `mv` lets the opponent win at once.
    fn loses_at_once(position: &Position, mv: Point) -> bool {
        let mut next = position.clone();
        next.play(mv).unwrap();
        decisive_move(&next).is_some()
    }

    #[test]
    fn avoids_a_move_that_lets_the_opponent_win() {
        let positions = random_positions(8, |p| {
            let moves = p.legal_moves();
            decisive_move(p).is_none()
                && moves.iter().any(|m| loses_at_once(p, m))
                && moves.iter().any(|m| !loses_at_once(p, m))
        });
        for position in positions {
            let report = AlphaBetaEngine::new(3).think(&position, &Budget::nodes(200_000));
            assert!(!loses_at_once(&position, report.best), "{} loses at once in\n{position}", report.best);
        }
    }

    #[test]
    fn a_tiny_budget_still_answers_a_legal_move() {
        let position = Position::from_moves([point(4, 4)]).unwrap();
        for nodes in [0, 1, 2, 100] {
            let report = AlphaBetaEngine::new(0).think(&position, &Budget::nodes(nodes));
            assert!(position.legal_moves().has(report.best));
        }
    }
}
