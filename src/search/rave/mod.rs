//! Monte Carlo tree search with random playouts and RAVE, the method of the strongest NoGo
//! programs known (HappyNoGo, HaHaNoGo): each simulation descends the tree by
//! [`select::best_child`], expands a leaf visited often enough, plays the game out by the
//! NoGo-aware policy of [`playout`], and counts the result for every node of the descent and,
//! as all moves as first, for the children whose move was played later
//! ([`backup::backup`]). Positions proven (a side without a move) climb the tree as in
//! MCTS-Solver.
//!
//! Files by job: [`tree`] (the arena and [`tree::NodeId`]), [`select`], [`backup`], [`proofs`],
//! [`analysis`] (the move to play, the expected line, the root's children); the playout
//! policy is [`crate::search::playout`].

pub mod analysis;
pub mod backup;
pub mod proofs;
pub mod select;
pub mod tree;

use crate::rules::point::{INDEX_COUNT, MAX_POSITIONS};
use crate::rules::Bitboard;
use crate::rules::{Color, Point, Position};
use crate::search::endgame::{answer_without_tree, Solver, DEFAULT_TABLE_BITS};
use crate::search::engine::{Budget, BusyNode, Engine, Proof, Report};
use crate::search::eval::ValueTable;
use crate::search::params::Params;
use crate::search::playout::{playout, Outcome, OwnPoint};
use crate::search::policy;
use crate::search::time::CLOCK_INTERVAL;
use backup::Step;
use std::time::Instant;
use tree::{Blend, NodeId, Tree};

/// The playout search.
pub struct Rave {
    params: Params,
    tree: Tree,
    /// The position at the tree's root, while a tree is kept.
    root: Option<Position>,
    /// The move that reached the root, when the tree was kept from the position before it.
    root_last_move: Option<Point>,
    /// The exact endgame solver, made on first use.
    solver: Option<Solver>,
    /// The evaluation's values by mobility, for [`Params::rave_eval_weight`].
    values: ValueTable,
    rng: fastrand::Rng,
}

impl Rave {
    /// A search with `params`, its random choices drawn from `seed`. The tree takes
    /// `params.memory_bytes` less the solver's table.
    pub fn new(params: Params, seed: u64) -> Rave {
        let tree_bytes = params.memory_bytes.saturating_sub(Solver::table_bytes(DEFAULT_TABLE_BITS));
        Rave {
            values: ValueTable::new(&params),
            params,
            tree: Tree::new(tree_bytes),
            root: None,
            root_last_move: None,
            solver: None,
            rng: fastrand::Rng::with_seed(seed),
        }
    }

    /// Sets the tree up for a search of `position`: the subtree of the position kept from the
    /// last search when it is that position or one or two moves after it, else a lone root.
    fn set_root(&mut self, position: &Position) {
        let kept = self.root.as_ref().and_then(|old| self.node_of(old, position));
        match kept {
            Some(NodeId::ROOT) => {}
            Some(id) => {
                self.root_last_move = Some(self.tree[id].point());
                self.tree.reroot(id);
            }
            None => {
                self.root_last_move = None;
                self.tree.reset();
            }
        }
        self.root = Some(position.clone());
    }

    /// Whether the tree holds the last search, of `position` (not so after a move found
    /// without one: a decisive move, the endgame solver's proof).
    fn searched(&self, position: &Position) -> bool {
        self.root.as_ref() == Some(position)
    }

    /// The node of `position` in a tree rooted at `old`: `old` itself, or the node of the one
    /// or two moves (the mover's, then the opponent's) that lead from it to `position`.
    fn node_of(&self, old: &Position, position: &Position) -> Option<NodeId> {
        let mover = old.to_move();
        let added = |colour: Color| {
            let (before, after) = (old.stones(colour), position.stones(colour));
            before.is_subset(after).then_some(after - before)
        };
        let (own, theirs) = (added(mover)?, added(!mover)?);
        let first = own.first();
        match (own.count(), theirs.count()) {
            (0, 0) if position.to_move() == mover => Some(NodeId::ROOT),
            (1, 0) if position.to_move() != mover => self.tree.child(NodeId::ROOT, first?),
            (1, 1) if position.to_move() == mover => {
                let child = self.tree.child(NodeId::ROOT, first?)?;
                self.tree.child(child, theirs.first()?)
            }
            _ => None,
        }
    }

    /// One simulation from `root` (the position of the tree's root): descend, expand, play
    /// out, back up. `path` is scratch space for the descent's nodes.
    fn simulate(&mut self, root: &Position, path: &mut Vec<Step>) {
        let mut position = root.clone();
        path.clear();
        let mut id = NodeId::ROOT;
        loop {
            let moves = position.legal_moves();
            path.push(Step { id, moves });
            let node = &self.tree[id];
            if node.proof.is_known() {
                break;
            }
            if !node.is_expanded() {
                let ready = id == NodeId::ROOT || node.visits() >= self.params.rave_expand_visits;
                if !ready || !self.expand(id, &position, moves, path.len() - 1) {
                    break;
                }
                if self.tree[id].proof.is_known() {
                    proofs::prove_up(&mut self.tree, path);
                    break;
                }
            }
            id = select::best_child(&self.tree, id, &self.params);
            position.play_unchecked(self.tree[id].point());
        }
        if id != NodeId::ROOT && !self.tree[id].proof.is_known() {
            if let Some(proof) = self.solve_small_endgame(&position) {
                self.tree[id].proof = proof;
                proofs::prove_up(&mut self.tree, path);
            }
        }
        let outcome = match self.tree[id].proof {
            // A proven node's result needs no playout; its stones are those on the board.
            Proof::Unknown => playout(&position, &mut self.rng, OwnPoint::of(&self.params)),
            proof => {
                let mover = !position.to_move();
                let winner = if proof == Proof::Win { mover } else { !mover };
                let stones = [position.stones(Color::Black), position.stones(Color::White)];
                Outcome { winner, stones, reserves: [Bitboard::EMPTY; 2] }
            }
        };
        let blend = Blend { bias: 4.0 * self.params.rave_bias * self.params.rave_bias };
        let amaf = if self.params.rave_amaf_reserves == 0 {
            [outcome.stones[0] - outcome.reserves[0], outcome.stones[1] - outcome.reserves[1]]
        } else {
            outcome.stones
        };
        backup::backup(&mut self.tree, path, root.to_move(), outcome.winner, amaf, blend);
    }

    /// The proof, for its mover, of a leaf whose `position` has at most
    /// [`Params::rave_solve_points`] live points, by the endgame solver within
    /// [`Params::tree_solve_nodes`] nodes: a playout misjudges small endgames that the solver
    /// settles.
    fn solve_small_endgame(&mut self, position: &Position) -> Option<Proof> {
        let points = self.params.rave_solve_points;
        if points == 0 || position.live_points() > points {
            return None;
        }
        Solver::made_once(&mut self.solver).mover_proof(position, self.params.tree_solve_nodes)
    }

    /// Expands `id`, the node of `position` at `depth` below the root, whose side to move has
    /// the legal `moves`: near the root (`policy_depth`) with `rave_policy_weight` above 0 the
    /// children's prior means follow the policy network's ranking, from `0.5 +
    /// rave_policy_weight` for its first to `0.5 - rave_policy_weight` for its last; elsewhere
    /// the evaluation of each child's position (`rave_eval_weight`), or even with that at 0.
    /// False when the tree is full.
    fn expand(&mut self, id: NodeId, position: &Position, moves: Bitboard, depth: usize) -> bool {
        let prior = self.params.rave_prior as f32;
        let weight = self.params.rave_policy_weight;
        let eval_weight = self.params.rave_eval_weight;
        let by_policy = weight > 0.0 && depth < self.params.policy_depth as usize;
        if !by_policy && eval_weight > 0.0 {
            let effects = position.move_effects();
            let (values, params) = (&self.values, &self.params);
            return self.tree.expand(id, moves, prior, |p| {
                let value = values.value_after(position, p, effects.legal_both_after(p), params);
                0.5 + eval_weight * (value - 0.5)
            });
        }
        if !by_policy || moves.count() < 2 {
            return self.tree.expand(id, moves, prior, |_| 0.5);
        }
        let last_move = if id == NodeId::ROOT { self.root_last_move } else { Some(self.tree[id].point()) };
        let ranked = policy::Network::embedded().ranked(position, last_move);
        let mut means = [0.5f32; INDEX_COUNT];
        let step = 2.0 * weight / (ranked.len() - 1) as f32;
        for (rank, &index) in ranked.iter().enumerate() {
            means[index as usize] = 0.5 + weight - step * rank as f32;
        }
        self.tree.expand(id, moves, prior, |p| means[p.index()])
    }

    /// Nodes in the tree now.
    pub fn tree_size(&self) -> usize {
        self.tree.len()
    }

    /// Simulations of the root's child playing `p` (0 when there is none).
    pub fn root_child_visits(&self, p: Point) -> u32 {
        if self.tree.is_empty() {
            return 0;
        }
        self.tree.child(NodeId::ROOT, p).map_or(0, |c| self.tree[c].visits())
    }
}

impl Engine for Rave {
    fn name(&self) -> &'static str {
        "rave"
    }

    fn think(&mut self, position: &Position, budget: &Budget) -> Report {
        let started = Instant::now();
        if let Some(report) = answer_without_tree(position, budget, started, &mut self.solver, &self.params) {
            return report;
        }
        self.set_root(position);
        let mut path = Vec::with_capacity(MAX_POSITIONS);
        let max = budget.nodes.unwrap_or(u64::MAX);
        let mut simulations = 0;
        while simulations < max && !self.tree[NodeId::ROOT].proof.is_known() {
            self.simulate(position, &mut path);
            simulations += 1;
            if simulations.is_multiple_of(CLOCK_INTERVAL) && budget.expired() {
                break;
            }
        }
        // The root's proof is for the player who moved into it: flipped for the side to move.
        let proof = self.tree[NodeId::ROOT].proof.flip();
        let (best, win_rate) = match analysis::best_move(&self.tree, NodeId::ROOT) {
            Some(child) => (self.tree[child].point(), self.tree[child].mean() as f64),
            None => {
                let pick =
                    position.legal_moves().choose(&mut self.rng).expect("a position with a legal move");
                (pick, 0.5)
            }
        };
        Report::searched(
            best,
            simulations,
            started,
            win_rate,
            analysis::principal_variation(&self.tree),
            proof,
        )
    }

    fn new_game(&mut self) {
        self.root = None;
        self.root_last_move = None;
        self.tree.reset();
    }

    fn root_children(&self, position: &Position) -> Vec<(Point, u32, f32)> {
        if !self.searched(position) {
            return Vec::new();
        }
        analysis::root_children(&self.tree)
    }

    fn busy_nodes(&self, position: &Position, min_visits: u32) -> Vec<BusyNode> {
        if !self.searched(position) {
            return Vec::new();
        }
        analysis::busy_nodes(&self.tree, min_visits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tactics::decisive_move;
    use crate::rules::test_support::{play_out, random_positions};
    use crate::search::endgame;
    use crate::search::eval;

    fn small() -> Params {
        Params { memory_bytes: 64 << 20, ..Params::default() }
    }

    #[test]
    fn fixed_simulations_are_reproducible_legal_and_spread_over_the_root() {
        let position = play_out(&[(4, 4), (2, 2), (6, 6)]);
        let mut search = Rave::new(small(), 3);
        let a = search.think(&position, &Budget::nodes(4000));
        assert_eq!(a.iterations, 4000);
        assert!(position.legal_moves().has(a.best));
        assert_eq!(a.pv.first(), Some(&a.best));
        let children = search.root_children(&position);
        assert_eq!(children.len() as u32, position.legal_moves().count());
        assert_eq!(children.iter().map(|c| c.1).sum::<u32>(), 4000, "each simulation goes through one child");
        let most = children.iter().max_by_key(|c| c.1).unwrap();
        assert_eq!(most.0, a.best, "the most simulated move is played");
        let b = Rave::new(small(), 3).think(&position, &Budget::nodes(4000));
        assert_eq!((b.best, b.pv, b.win_rate), (a.best, a.pv, a.win_rate), "the same seed, the same search");
    }

    #[test]
    fn the_subtree_of_the_position_reached_is_kept() {
        let position = play_out(&[(4, 4), (2, 2), (6, 6)]);
        let mut search = Rave::new(small(), 1);
        let first = search.think(&position, &Budget::nodes(20_000));
        let mut after = position.clone();
        after.play(first.best).unwrap();
        // The opponent's reply: the move the search expects, whose subtree is the biggest.
        let reply = first.pv[1];
        let child = search.tree.child(NodeId::ROOT, first.best).unwrap();
        let kept = search.tree[search.tree.child(child, reply).unwrap()].visits();
        assert!(kept > 100);
        after.play(reply).unwrap();
        search.think(&after, &Budget::nodes(1000));
        let visits: u32 = search.root_children(&after).iter().map(|c| c.1).sum();
        // The node's first simulations ended at it, before it had children.
        assert_eq!(
            visits,
            kept - search.params.rave_expand_visits + 1000,
            "the kept simulations and the new ones"
        );
        // A position not reached from the root starts afresh, as does a new game.
        search.think(&position, &Budget::nodes(1000));
        assert_eq!(search.root_children(&position).iter().map(|c| c.1).sum::<u32>(), 1000);
        assert!(search.root_children(&after).is_empty(), "the children of the position searched");
        search.new_game();
        assert!(search.root.is_none());
    }

    #[test]
    fn small_endgames_are_proven_with_the_solvers_verdict() {
        let mut proven = 0;
        for position in random_positions(9, |p| (8..=12).contains(&p.live_points())) {
            let exact = endgame::solve(&position, &Budget::default()).expect("no limit");
            let report = Rave::new(small(), 0).think(&position, &Budget::nodes(100_000));
            if report.proof.is_known() {
                assert_eq!(report.proof, Proof::proven(exact.win), "{position}");
                proven += 1;
            }
            if exact.win {
                // A winning move is played, proven or not.
                let mut after = position.clone();
                after.play(report.best).unwrap();
                let reply = endgame::solve(&after, &Budget::default()).expect("no limit");
                assert!(!reply.win, "{} throws the win away\n{position}", report.best);
            }
        }
        assert!(proven >= 15, "only {proven} of 20 proven");
    }

    #[test]
    fn the_solver_proves_small_endgames_at_the_leaves() {
        let (mut with, mut without) = (0, 0);
        for position in random_positions(11, |p| (14..=18).contains(&p.live_points())) {
            let exact = endgame::solve(&position, &Budget::default()).expect("no limit");
            for (points, proven) in [(12, &mut with), (0, &mut without)] {
                // The root's own solver off: only the tree's proofs count.
                let params = Params { rave_solve_points: points, endgame_points: 0, ..small() };
                let report = Rave::new(params, 0).think(&position, &Budget::nodes(2000));
                if report.proof.is_known() {
                    assert_eq!(report.proof, Proof::proven(exact.win), "{position}");
                    *proven += 1;
                }
            }
        }
        assert!(with >= without + 5, "{with} proven with the solver at the leaves, {without} without");
    }

    #[test]
    fn new_nodes_start_from_the_evaluation_of_their_position() {
        // A middle game, where moves change the mobility by different amounts.
        let position = random_positions(5, |p| p.empty().count() < 50).remove(0);
        let params = Params { rave_eval_weight: 0.5, ..small() };
        let mut search = Rave::new(params, 0);
        search.tree.reset();
        let moves = position.legal_moves();
        assert!(search.expand(NodeId::ROOT, &position, moves, 0));
        let mut priors = Vec::new();
        for p in moves.iter() {
            let mut after = position.clone();
            after.play(p).unwrap();
            let [black, white] = after.legal_both();
            let (mover, to_move) =
                if after.to_move() == Color::White { (black, white) } else { (white, black) };
            let value = eval::value(&after, mover, to_move, &params);
            let prior = search.tree[search.tree.child(NodeId::ROOT, p).unwrap()].value();
            assert!((prior - (0.5 + 0.5 * (value - 0.5))).abs() < 1e-6, "{p}: {prior} for {value}");
            priors.push(prior);
        }
        assert!(priors.iter().any(|&v| v != priors[0]), "the evaluation tells the moves apart");
    }

    #[test]
    fn a_winning_move_is_played_at_once() {
        // The side to move can take the opponent's last legal point.
        for position in random_positions(4, |p| decisive_move(p).is_some()) {
            let mut search = Rave::new(small(), 0);
            search.think(&play_out(&[(4, 4)]), &Budget::nodes(100));
            let report = search.think(&position, &Budget::nodes(1000));
            assert_eq!(report.proof, Proof::Win);
            let mut after = position.clone();
            after.play(report.best).unwrap();
            assert!(after.is_terminal());
            // Found without a search: no children shown, not those of the last search.
            assert!(search.root_children(&position).is_empty() && search.busy_nodes(&position, 0).is_empty());
        }
    }

    #[test]
    fn busy_nodes_are_the_expanded_nodes_below_the_root_simulated_enough() {
        let position = play_out(&[(4, 4), (2, 2), (6, 6)]);
        let mut search = Rave::new(small(), 2);
        search.think(&position, &Budget::nodes(5000));
        let busy = search.busy_nodes(&position, 200);
        assert!(busy.len() > 1);
        for node in &busy {
            let mut reached = position.clone();
            for &p in &node.line {
                reached.play(p).unwrap();
            }
            let id = node.line.iter().try_fold(NodeId::ROOT, |id, &p| search.tree.child(id, p)).unwrap();
            assert!(search.tree[id].visits() >= 200, "only nodes simulated 200 times");
            let moves: Vec<Point> = node.children.iter().map(|c| c.0).collect();
            assert_eq!(moves, reached.legal_moves().iter().collect::<Vec<_>>(), "every legal move");
            let simulated: u32 = node.children.iter().map(|c| c.1).sum();
            assert!(
                simulated > 0 && simulated <= search.tree[id].visits(),
                "its children's simulations went through it"
            );
        }
        assert!(search.busy_nodes(&position, u32::MAX).is_empty());
    }
}
