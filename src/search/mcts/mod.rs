//! Monte Carlo tree search scored by evaluation, not playouts.
//!
//! The tree (`tree`) is an arena of nodes whose children are created best first
//! (`ordering`) as the search tries them. Progressive widening bounds the children tried by
//! the node's visits ([`Params::widening`]); UCB picks among those tried (trying every child
//! first, and first-play urgencies, measured worse: `docs/strength-log.md#changes-tried`). A
//! new node is scored by [`eval::value`] (or proven won or lost: at once, or by the endgame
//! solver's table) and the value is backed up, flipped at each level; proofs propagate as in
//! MCTS-Solver. Between moves the subtree of the position reached is kept (`Tree::set_root`).

mod ordering;
mod tree;

use crate::rules::hash;
use crate::rules::point::{INDEX_COUNT, MAX_MOVES, MAX_POSITIONS};
use crate::rules::tactics::{can_be_closed, find_decisive};
use crate::rules::{Bitboard, Color, Point, Position};
use crate::search::endgame::{answer_without_tree, Solver};
use crate::search::engine::{Budget, BusyNode, Engine, Proof, Report};
use crate::search::eval;
use crate::search::params::Params;
use crate::search::policy;
use crate::search::time::CLOCK_INTERVAL;
use ordering::{ranked_moves, PointStats, FRESH_HISTORY};
use std::collections::HashMap;
use std::time::Instant;
use tree::{block_capacity, Node, Tree};

/// The points within `radius` of `last_move`, whose children are tried first among equal
/// mobilities; none when the last move is unknown.
fn near_last_move(last_move: Option<Point>, radius: u32) -> Bitboard {
    last_move.map_or(Bitboard::EMPTY, |p| Bitboard::from(p).within(radius))
}

/// Most positions whose policy order [`Mcts`] keeps: each takes about 150 bytes.
const POLICY_ORDERS: usize = 1 << 16;

/// The key of the policy's order for `position` reached by `last_move`: the network reads both.
fn policy_key(position: &Position, last_move: Option<Point>) -> u64 {
    let last = last_move.map_or(0, |p| p.index() as u64 + 1);
    hash::combine(position.hash(), last)
}

/// The value of a proven node for the player who moved into it.
#[inline]
fn proof_value(proof: Proof) -> f32 {
    if proof == Proof::Win {
        1.0
    } else {
        0.0
    }
}

/// Solver nodes of the tree's proofs ([`Params::tree_solve_points`])
/// after which the clock is read before the next [`CLOCK_INTERVAL`] ends: a few milliseconds,
/// where 256 iterations that each ran a full proof could take over 100.
const SOLVER_NODES_PER_CLOCK_READ: u64 = 4096;

/// The search: tree, parameters, and what it needs to reuse the tree next move.
pub struct Mcts {
    params: Params,
    tree: Tree,
    /// Per colour, how each point has done this turn wherever it was played in the tree (the
    /// "history heuristic"); the ranking of children breaks ties by it.
    history: [[PointStats; INDEX_COUNT]; 2],
    rng: fastrand::Rng,
    /// The exact endgame solver, created the first time an endgame is reached and kept, so
    /// its table carries proofs from turn to turn.
    solver: Option<Solver>,
    /// `sqrt(ln visits)` of the first [`TABLED_VISITS`] visit counts.
    sqrt_ln_visits: &'static [f32],
    /// Solver nodes spent on the tree's proofs since the clock was last read.
    unclocked_solver_nodes: u64,
    /// The policy network's order of the moves of positions whose nodes use it
    /// ([`Mcts::uses_policy`]), by [`policy_key`]: computed once per position, not per growth,
    /// node, transposition or turn; emptied when it reaches [`POLICY_ORDERS`] entries.
    policy_orders: HashMap<u64, (Bitboard, Vec<u8>)>,
    /// The busy nodes' last full scans, by node index modulo [`CHOICES`].
    choices: Vec<Choice>,
    /// The evaluation's values by mobility, for these parameters.
    values: eval::ValueTable,
    /// The node made for the first move of the last ranking, and the legal sets after it.
    first_ranked: Option<(u32, [Bitboard; 2])>,
}

/// The positions along the last descent and the nodes that reached them. The next descent
/// keeps the positions down to the node where its path leaves the last one and plays only its
/// own moves below it, each on a copy of the position above (consecutive paths share 4.6 of
/// their 7.8 moves in `nogo bench`'s middle game).
struct Walk {
    /// `positions[i]` after `i` moves from the root, for `i <= depth`.
    positions: Box<[Position]>,
    /// Moves played from the root.
    depth: usize,
    /// The nodes of the last path: `nodes[i]` reached after `i` moves, `nodes[0]` the root.
    nodes: [u32; MAX_POSITIONS],
}

impl Walk {
    fn new(root: &Position) -> Walk {
        Walk {
            positions: vec![root.clone(); MAX_POSITIONS].into_boxed_slice(),
            depth: 0,
            nodes: [0; MAX_POSITIONS],
        }
    }

    /// The position after the moves of `path`, the nodes from the root (`path[0]`) down.
    #[inline]
    fn to(&mut self, nodes: &[Node], path: &[u32]) -> &Position {
        let last = &self.nodes[1..=self.depth];
        self.depth = last.iter().zip(&path[1..]).take_while(|(a, b)| a == b).count();
        for &next in &path[self.depth + 1..] {
            let (above, below) = self.positions.split_at_mut(self.depth + 1);
            let position = &mut below[0];
            position.clone_from(&above[self.depth]);
            position.play_unchecked(nodes[next as usize].point());
            self.depth += 1;
            self.nodes[self.depth] = next;
        }
        &self.positions[self.depth]
    }
}

/// Visit counts whose `sqrt(ln visits)` is tabled: a logarithm per selection costs as much as
/// the rest of the selection at a small node, and the root and the nodes near it pass a few
/// thousand visits early in a turn (measured: `docs/strength-log.md`, "tabled up to 2^18
/// visits"). 1 MB, read in order at the root as its visits grow.
const TABLED_VISITS: usize = 1 << 18;

/// `sqrt(ln visits)`, the factor of a node's visits in its children's exploration bonus.
#[inline]
fn sqrt_ln(visits: u32) -> f32 {
    (visits as f32).ln().sqrt()
}

/// [`sqrt_ln`] of the first [`TABLED_VISITS`] visit counts, computed once for every search.
fn sqrt_ln_table() -> &'static [f32] {
    static TABLE: std::sync::OnceLock<Vec<f32>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| (0..TABLED_VISITS as u32).map(sqrt_ln).collect())
}

/// The UCB score of a tried child: its mean plus `explore` times `1 / sqrt(visits)`; -1, below
/// every other score, when it is proven lost.
#[inline]
fn ucb(child: &Node, explore: f32) -> f32 {
    let score = child.mean + explore * child.inv_sqrt_visits;
    if child.proof == Proof::Loss {
        -1.0
    } else {
        score
    }
}

/// Lanes of [`best_by_ucb`]: independent running maxima, so that each comparison need not wait
/// for the one before (evidence: `docs/performance.md`, the four-lane selection).
const UCB_LANES: usize = 4;

/// Each lane's highest [`ucb`] score and the index of its first child with it (minus infinity
/// and 0 for an empty lane). Child `i` goes to lane `i % UCB_LANES`.
#[inline]
fn lane_bests(children: &[Node], explore: f32) -> ([f32; UCB_LANES], [usize; UCB_LANES]) {
    let mut best = [f32::NEG_INFINITY; UCB_LANES];
    let mut at = [0usize; UCB_LANES];
    let chunks = children.chunks_exact(UCB_LANES);
    let (whole, rest) = (children.len() - chunks.remainder().len(), chunks.remainder());
    // Written out for whole chunks and the rest: one closure taking `i % UCB_LANES` for both
    // is slower (`docs/performance.md`, the four-lane selection).
    for (k, chunk) in chunks.enumerate() {
        for lane in 0..UCB_LANES {
            let score = ucb(&chunk[lane], explore);
            if score > best[lane] {
                best[lane] = score;
                at[lane] = k * UCB_LANES + lane;
            }
        }
    }
    for (lane, child) in rest.iter().enumerate() {
        let score = ucb(child, explore);
        if score > best[lane] {
            best[lane] = score;
            at[lane] = whole + lane;
        }
    }
    (best, at)
}

/// The lane holding the first of the highest scores: the highest, then the lowest index.
#[inline]
fn winning_lane(best: &[f32; UCB_LANES], at: &[usize; UCB_LANES]) -> usize {
    let mut winner = 0;
    for lane in 1..UCB_LANES {
        if best[lane] > best[winner] || (best[lane] == best[winner] && at[lane] < at[winner]) {
            winner = lane;
        }
    }
    winner
}

/// Below this many children a plain scan inlined in the selection beats the lanes' setup and
/// call (`docs/performance.md`, the plain scan of small nodes).
const LANED_CHILDREN: usize = 8;

/// The index in `children` of the highest [`ucb`] score, the first of equal scores (0 when
/// there are none): a plain scan of a few children, else of the lanes' first bests the
/// highest, then the lowest index.
#[inline]
fn best_by_ucb(children: &[Node], explore: f32) -> usize {
    if children.len() < LANED_CHILDREN {
        let (mut best, mut best_score) = (0, f32::NEG_INFINITY);
        for (i, child) in children.iter().enumerate() {
            let score = ucb(child, explore);
            if score > best_score {
                (best, best_score) = (i, score);
            }
        }
        return best;
    }
    let (best, at) = lane_bests(children, explore);
    at[winning_lane(&best, &at)]
}

/// [`best_by_ucb`], and the highest score of the other children (minus infinity when there
/// are none): the other lanes' bests, and the winning lane's other children scored again.
#[inline]
fn best_and_runner_up(children: &[Node], explore: f32) -> (usize, f32) {
    let (best, at) = lane_bests(children, explore);
    let winner = winning_lane(&best, &at);
    let mut runner_up = f32::NEG_INFINITY;
    for lane in (0..UCB_LANES).filter(|&lane| lane != winner) {
        if best[lane] > runner_up {
            runner_up = best[lane];
        }
    }
    for i in (winner..children.len()).step_by(UCB_LANES) {
        let score = ucb(&children[i], explore);
        if score > runner_up && i != at[winner] {
            runner_up = score;
        }
    }
    (at[winner], runner_up)
}

/// Slots of [`Mcts::choices`], a power of two: enough for the nodes busy at one time.
const CHOICES: usize = 1 << 12;

/// Nodes with fewer tried children are always scanned: remembering saves little there.
const CHOICE_MIN_TRIED: u8 = 8;

/// Slack for rounding in [`Choice`]'s bound: scores are below 2, each computed to within a
/// few units of 2^-24 of its exact value, so 1e-5 covers every rounding with room to spare.
const CHOICE_MARGIN: f32 = 1e-5;

/// A busy node's last full UCB scan. Until the node is next selected only the child chosen
/// changes, and every other child's score grows by at most the growth of `explore` (its
/// `1 / sqrt(visits)` is at most 1); while the chosen child still beats the runner-up's
/// score plus that growth, it is the first best again and the scan is skipped.
#[derive(Clone, Copy)]
struct Choice {
    /// The node's index, `u32::MAX` for an empty slot.
    node: u32,
    /// Its tried children then: a new one forces a scan.
    tried: u8,
    /// The child chosen, as an offset into the block.
    child: u8,
    explore: f32,
    runner_up: f32,
}

const NO_CHOICE: Choice = Choice { node: u32::MAX, tried: 0, child: 0, explore: 0.0, runner_up: 0.0 };

impl Mcts {
    /// A search with `params`, an empty tree, and random choices drawn from `seed`.
    pub fn new(params: Params, seed: u64) -> Mcts {
        Mcts {
            params,
            tree: Tree::new(params.memory_bytes),
            history: FRESH_HISTORY,
            rng: fastrand::Rng::with_seed(seed),
            solver: None,
            unclocked_solver_nodes: 0,
            policy_orders: HashMap::new(),
            sqrt_ln_visits: sqrt_ln_table(),
            choices: vec![NO_CHOICE; CHOICES],
            values: eval::ValueTable::new(&params),
            first_ranked: None,
        }
    }

    /// Nodes in the tree now.
    pub fn tree_size(&self) -> usize {
        self.tree.nodes.len()
    }

    /// One iteration: descend by UCB, score one new node, back its value up. `walk` holds the
    /// position of the last iteration's path, moved to each node whose position is needed;
    /// `path` receives the nodes of this one.
    #[inline(never)]
    fn iterate(&mut self, to_move: Color, walk: &mut Walk, path: &mut [u32; MAX_POSITIONS]) {
        let mut depth = 0;
        let mut index = 0usize;
        let value = loop {
            path[depth] = index as u32;
            depth += 1;
            let node = self.tree.nodes[index];
            if node.proof.is_known() {
                break proof_value(node.proof);
            }
            if node.visits == 0 {
                break self.evaluate_new(&path[..depth], walk);
            }
            let Some(child) = self.select(&path[..depth], walk) else {
                // The arena is full: refine what is there by backing the node's value up again.
                break node.mean;
            };
            index = child;
        };
        self.backup(&path[..depth], value, to_move);
    }

    /// Scores the new node at the end of `path`: from its parent's position and its move, when
    /// that is enough (below), else from its own position.
    ///
    /// Away from the end of the game only the evaluation can score a node: with more than
    /// [`Params::endgame_points`] points live the solver and its table are not consulted, and
    /// an opponent with many legal points cannot be left without one, so there is no decisive
    /// move. The evaluation needs only the legal sets after the move, which the parent's
    /// [`Position::move_effects`] gives, and the stones: the move is then neither played nor,
    /// at the next descent, taken back.
    #[inline]
    fn evaluate_new(&mut self, path: &[u32], walk: &mut Walk) -> f32 {
        let (index, depth) = (*path.last().expect("a new node below the root") as usize, path.len());
        if depth >= 2 {
            let parent = walk.to(&self.tree.nodes, &path[..depth - 1]);
            if self.scored_from_parent(parent) {
                let mv = self.tree.nodes[index].point();
                let after = match self.first_ranked.take() {
                    Some((first, after)) if first as usize == index => after,
                    _ => parent.move_effects().legal_both_after(mv),
                };
                let mover = parent.to_move();
                let (own, theirs) = (after[(!mover).index()], after[mover.index()]);
                if !own.is_empty()
                    && !can_be_closed(theirs)
                    && (own | theirs).count() > self.params.endgame_points
                {
                    self.tree.nodes[index].children = own.count() as u8;
                    let value = self.values.value_after(parent, mv, after, &self.params);
                    debug_assert_eq!(value, {
                        let mut leaf = parent.clone();
                        leaf.play_unchecked(mv);
                        assert!(find_decisive(&leaf, own, theirs).is_none() && leaf.legal_both() == after);
                        eval::value(&leaf, theirs, own, &self.params)
                    });
                    return value;
                }
            }
        }
        self.evaluate(index, walk.to(&self.tree.nodes, path))
    }

    /// Whether the children of a node at `position` may be scored from it
    /// ([`Mcts::evaluate_new`]): only where a child may keep more than
    /// [`Params::endgame_points`] points live (live points are empty, and one is filled).
    #[inline]
    fn scored_from_parent(&self, position: &Position) -> bool {
        position.empty().count() > self.params.endgame_points + 1
    }

    /// Scores a new node from its position, proving it when the side to move has no move
    /// (the mover won) or has a move that leaves the mover none (the mover lost).
    #[inline]
    fn evaluate(&mut self, index: usize, position: &Position) -> f32 {
        let to_move = position.to_move().index();
        let legal = position.legal_both();
        let (own, theirs) = (legal[to_move], legal[1 - to_move]);
        let (proof, value) = if own.is_empty() {
            (Proof::Win, 1.0)
        } else if find_decisive(position, own, theirs).is_some() {
            (Proof::Loss, 0.0)
        } else if let Some(proof) = self.known_proof(index, own | theirs, position.hash()) {
            (proof, proof_value(proof))
        } else if let Some(proof) = self.solve_small_endgame(index, own | theirs, position) {
            (proof, proof_value(proof))
        } else {
            (Proof::Unknown, self.values.value(position, theirs, own, &self.params))
        };
        self.tree.nodes[index].proof = proof;
        self.tree.nodes[index].children = own.count() as u8;
        value
    }

    /// The proof of the position of node `index` (for the player who moved into it) whose
    /// live points (legal for either side) are `live` and whose hash is `key`, when the
    /// endgame solver's table holds it. A failed attempt of the solver at the root still
    /// proves many positions of the tree; without this, the search could choose a move the
    /// solver had proven to lose. Only endgames are probed: the solver runs once at most
    /// [`Params::endgame_points`] points are live, and live points never come back. The root
    /// is left to its children's proofs, so that a lost root is still searched for the move
    /// that resists longest. Evidence: the rows "proofs from the solver's table" of
    /// `docs/strength-log.md#changes-tried`.
    fn known_proof(&self, index: usize, live: Bitboard, key: u64) -> Option<Proof> {
        if index == 0 || live.count() > self.params.endgame_points {
            return None;
        }
        // The table's proof is for the side to move; the node's, for the player who moved.
        let proof = self.solver.as_ref()?.known(key).flip();
        proof.is_known().then_some(proof)
    }

    /// The proof of a new node (not the root) whose position has at most
    /// [`Params::tree_solve_points`] live points, by the endgame solver within
    /// [`Params::tree_solve_nodes`] nodes: the evaluation misjudges small endgames that a few
    /// hundred solver nodes settle, and the proof then reaches the nodes above it.
    #[inline(never)]
    fn solve_small_endgame(&mut self, index: usize, live: Bitboard, position: &Position) -> Option<Proof> {
        if index == 0 || live.count() > self.params.tree_solve_points {
            return None;
        }
        let nodes = self.params.tree_solve_nodes;
        let solver = self.solver();
        let proof = solver.mover_proof(position, nodes);
        self.unclocked_solver_nodes += solver.nodes();
        proof
    }

    /// The endgame solver, made on first use (its table is large) and kept between turns.
    fn solver(&mut self) -> &mut Solver {
        Solver::made_once(&mut self.solver)
    }

    /// Proves the root's children from the solver's table: a kept tree scored them before
    /// this turn's solver ran.
    fn prove_root_children(&mut self, position: &Position) {
        let [black, white] = position.legal_both();
        for c in self.tree.nodes[0].child_range() {
            if !self.tree.nodes[c].proof.is_known() {
                let key = position.hash_after(self.tree.nodes[c].point());
                if let Some(proof) = self.known_proof(c, black | white, key) {
                    self.tree.nodes[c].proof = proof;
                }
            }
        }
    }

    /// Backs `value` (for the player who moved into the last node of `path`) up the path,
    /// flipping it at each level, and propagates proofs: a node is lost for its mover when a
    /// child is won for the side to move there, won when every child is lost. Each move below
    /// the root (where `to_move` is to play) goes into the history of the colour that played it.
    #[inline]
    fn backup(&mut self, path: &[u32], mut value: f32, to_move: Color) {
        let mut child_proof = Proof::Unknown;
        // The colour that moved into the last node: `to_move` at odd depths.
        let mut mover = to_move.index() ^ (path.len() % 2 == 1) as usize;
        for (depth, &i) in path.iter().enumerate().rev() {
            let i = i as usize;
            if child_proof == Proof::Win {
                self.tree.nodes[i].proof = Proof::Loss;
            } else if child_proof == Proof::Loss && self.all_children_lost(i) {
                self.tree.nodes[i].proof = Proof::Win;
            }
            let node = &mut self.tree.nodes[i];
            node.update(value);
            child_proof = node.proof;
            if depth > 0 {
                self.history[mover][node.mv as usize].record(value);
            }
            value = 1.0 - value;
            mover ^= 1;
        }
    }

    fn all_children_lost(&self, index: usize) -> bool {
        let node = self.tree.nodes[index];
        node.tried == node.children
            && self.tree.nodes[node.child_range()].iter().all(|c| c.proof == Proof::Loss)
    }

    /// The child to descend into from the visited node at the end of `path`: the next untried
    /// child while there is one (and room for it), else the best tried child by UCB among
    /// those not proven lost. `None` when a child is needed and the arena is full.
    #[inline]
    fn select(&mut self, path: &[u32], walk: &mut Walk) -> Option<usize> {
        let index = *path.last().expect("a path holds the root") as usize;
        let node = self.tree.nodes[index];
        // Progressive widening: a node visited n times may have ceil(w * sqrt(n)) children,
        // that is, one more while fewer than w * sqrt(n) are tried.
        let widest = self.params.widening * (node.visits as f32).sqrt();
        if node.tried < node.children && (node.tried as f32) < widest {
            let position = walk.to(&self.tree.nodes, path);
            if let Some(child) = self.try_next(index, position, path.len() - 1) {
                if let Some(solver) = &self.solver {
                    // The new node's position is looked up in the solver's table (`known_proof`).
                    solver.prefetch(position.hash_after(self.tree.nodes[child].point()));
                }
                return Some(child);
            }
        }
        let explore = self.params.exploration
            * match self.sqrt_ln_visits.get(node.visits as usize) {
                Some(&tabled) => tabled,
                None => sqrt_ln(node.visits),
            };
        if node.tried == 0 {
            return None;
        }
        let first = node.first_child as usize;
        let children = &self.tree.nodes[node.child_range()];
        if node.tried < CHOICE_MIN_TRIED {
            return Some(first + best_by_ucb(children, explore));
        }
        let slot = &mut self.choices[index & (CHOICES - 1)];
        if slot.node == index as u32 && slot.tried == node.tried && explore >= slot.explore {
            let bound = slot.runner_up + (explore - slot.explore) + CHOICE_MARGIN;
            if ucb(&children[slot.child as usize], explore) > bound {
                debug_assert_eq!(best_by_ucb(children, explore), slot.child as usize, "a remembered choice");
                return Some(first + slot.child as usize);
            }
        }
        let (best, runner_up) = best_and_runner_up(children, explore);
        *slot = Choice { node: index as u32, tried: node.tried, child: best as u8, explore, runner_up };
        Some(first + best)
    }

    /// The move that reached node `index`; unknown at a root whose last move is unknown.
    fn last_move(&self, index: usize) -> Option<Point> {
        if index == 0 {
            self.tree.root_last_move()
        } else {
            Some(self.tree.nodes[index].point())
        }
    }

    /// Whether node `index`, `depth` moves below the root, orders its new children by the
    /// policy network ([`Params::policy_depth`], [`Params::policy_visits`]).
    fn uses_policy(&self, index: usize, depth: usize) -> bool {
        let visits = self.params.policy_visits;
        depth < self.params.policy_depth as usize || (visits > 0 && self.tree.nodes[index].visits >= visits)
    }

    /// Creates the next untried child of node `index`, `depth` moves below the root, growing
    /// its block when full; `None` when the arena has no room.
    fn try_next(&mut self, index: usize, position: &Position, depth: usize) -> Option<usize> {
        let node = self.tree.nodes[index];
        let (tried, legal) = (node.tried as usize, node.children as usize);
        let mut first = node.first_child as usize;
        if tried == block_capacity(tried, legal) {
            let grown = block_capacity(tried + 1, legal);
            if !self.tree.has_room(grown) {
                return None;
            }
            // The new slots take the next moves of the ranking, computed again on each
            // growth (every doubling of the block) rather than stored per node.
            // The ranking's ties change with the history, so the tried moves are left out and
            // the new slots take the best of the rest.
            let mut after_first = None;
            let tried_moves = self.tree.nodes[node.child_range()]
                .iter()
                .fold(Bitboard::EMPTY, |set, c| set | Bitboard::from(c.point()));
            let last_move = self.last_move(index);
            let moves = if self.uses_policy(index, depth) {
                if self.policy_orders.len() >= POLICY_ORDERS {
                    self.policy_orders.clear();
                }
                // The legal moves are kept with the order: a position whose key collides with
                // another's but whose moves differ is ranked again, so no order holds an illegal move.
                let legal = position.legal_moves();
                let kept = self.policy_orders.entry(policy_key(position, last_move)).or_default();
                if kept.0 != legal {
                    *kept = (legal, policy::Network::embedded().ranked(position, last_move));
                }
                let order = &kept.1;
                let mut moves = [0u8; MAX_MOVES];
                let untried =
                    order.iter().filter(|&&mv| !tried_moves.has(Point::from_index(mv).expect("a point")));
                for (slot, &mv) in moves.iter_mut().zip(untried) {
                    *slot = mv;
                }
                moves
            } else {
                let near = near_last_move(last_move, self.params.last_move_radius);
                let history = &self.history[position.to_move().index()];
                let from_parent = self.scored_from_parent(position);
                let ranking = ranked_moves(position, grown - tried, near, history, tried_moves, from_parent);
                after_first = ranking.after_first;
                ranking.moves
            };
            first = self.tree.grow_block(index, &moves[..grown - tried]);
            self.first_ranked = after_first.map(|after| ((first + tried) as u32, after));
        }
        self.tree.nodes[index].tried += 1;
        Some(first + tried)
    }

    /// The child of a node to play: a proven win, else the most visited not proven lost,
    /// else (everything lost) the most visited.
    fn best_child(&self, index: usize) -> Option<usize> {
        let node = self.tree.nodes[index];
        let tried = node.child_range();
        let key = |&c: &usize| {
            let child = self.tree.nodes[c];
            (child.visits, std::cmp::Reverse(c))
        };
        tried.clone().find(|&c| self.tree.nodes[c].proof == Proof::Win).or_else(|| {
            tried
                .clone()
                .filter(|&c| self.tree.nodes[c].proof != Proof::Loss)
                .max_by_key(key)
                .or_else(|| tried.max_by_key(key))
        })
    }

    /// Visits of the root's child playing `mv` (0 when not searched).
    pub fn root_child_visits(&self, mv: Point) -> u32 {
        let root = self.tree.nodes.first().copied().unwrap_or_default();
        root.child_range()
            .map(|c| self.tree.nodes[c])
            .find(|child| child.mv as usize == mv.index())
            .map_or(0, |child| child.visits)
    }

    /// Whether the tree holds the last search, of `position` (not so after a move found
    /// without one: a decisive move, the endgame solver's proof).
    fn searched(&self, position: &Position) -> bool {
        self.tree.root_position() == Some(position)
    }

    fn principal_variation(&self) -> Vec<Point> {
        let mut pv = Vec::new();
        let mut index = 0;
        while let Some(child) = self.best_child(index) {
            pv.push(self.tree.nodes[child].point());
            index = child;
        }
        pv
    }
}

impl Engine for Mcts {
    fn name(&self) -> &'static str {
        "mcts"
    }

    fn think(&mut self, position: &Position, budget: &Budget) -> Report {
        let started = Instant::now();
        if let Some(report) = answer_without_tree(position, budget, started, &mut self.solver, &self.params) {
            return report;
        }
        self.tree.set_root(position);
        // The tree's nodes may have moved.
        self.choices.fill(NO_CHOICE);
        self.prove_root_children(position);
        self.history = FRESH_HISTORY;
        let mut walk = Walk::new(position);
        // The nodes of each descent, from the root down: one buffer, not one zeroed for each.
        let mut path = [0u32; MAX_POSITIONS];
        let mut iterations = 0u64;
        let max = budget.nodes.unwrap_or(u64::MAX);
        while iterations < max && !self.tree.nodes[0].proof.is_known() {
            self.iterate(position.to_move(), &mut walk, &mut path);
            iterations += 1;
            if iterations.is_multiple_of(CLOCK_INTERVAL)
                || self.unclocked_solver_nodes >= SOLVER_NODES_PER_CLOCK_READ
            {
                self.unclocked_solver_nodes = 0;
                if budget.expired() {
                    break;
                }
            }
        }
        let best_child = self.best_child(0);
        let (best, win_rate) = match best_child {
            Some(child) => (self.tree.nodes[child].point(), self.tree.nodes[child].mean as f64),
            None => {
                // No iteration ran (an expired budget): any legal move beats none.
                let legal: Bitboard = position.legal_moves();
                let pick = legal.choose(&mut self.rng).expect("non-terminal");
                (pick, 0.5)
            }
        };
        // The root's proof is for the player who moved into it: flipped for the side to move.
        let proof = self.tree.nodes[0].proof.flip();
        Report::searched(best, iterations, started, win_rate, self.principal_variation(), proof)
    }

    fn new_game(&mut self) {
        self.tree.forget();
    }

    fn root_children(&self, position: &Position) -> Vec<(Point, u32, f32)> {
        if !self.searched(position) {
            return Vec::new();
        }
        let root = self.tree.nodes[0];
        root.child_range().map(|c| self.tree.nodes[c]).map(|n| (n.point(), n.visits, n.mean)).collect()
    }

    /// A node has children once tried (a node proven at once has none).
    fn busy_nodes(&self, position: &Position, min_visits: u32) -> Vec<BusyNode> {
        if !self.searched(position) {
            return Vec::new();
        }
        let nodes = &self.tree.nodes;
        BusyNode::below(0, min_visits, |index| {
            nodes[index].child_range().map(|c| (c, nodes[c].point(), nodes[c].visits)).collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tactics::decisive_move;
    use crate::rules::test_support::{play_out, random_positions};
    use crate::search::endgame;

    /// The order in which a new node of `position` tries its children, best first, before the
    /// tree has any history, where the policy network is not used: by the mobility each move
    /// leaves, ties to the points near `last_move` (within `params.last_move_radius`), then
    /// contested points.
    fn move_order(position: &Position, last_move: Option<Point>, params: &Params) -> Vec<Point> {
        let near = near_last_move(last_move, params.last_move_radius);
        let count = position.legal_moves().count() as usize;
        let order = ranked_moves(position, count, near, &FRESH_HISTORY[0], Bitboard::EMPTY, false).moves;
        order[..count].iter().map(|&i| Point::from_index(i).expect("a board point")).collect()
    }

    #[test]
    fn move_order_lists_every_legal_move_once_best_mobility_first() {
        for position in random_positions(19, |p| p.moves_played() >= 10) {
            let order = move_order(&position, None, &Params::default());
            let legal = position.legal_moves();
            assert_eq!(order.len() as u32, legal.count());
            assert_eq!(order.iter().copied().collect::<Bitboard>(), legal);
            let to_move = position.to_move().index();
            let mobility = |p: Point| {
                let after = position.legal_both_after(p);
                eval::mobility(after[to_move], after[1 - to_move])
            };
            assert_eq!(mobility(order[0]), legal.iter().map(mobility).max().unwrap(), "{position}");
        }
    }

    #[test]
    fn nodes_that_use_the_policy_try_children_in_its_order() {
        // With `policy_depth` 1 the root tries its children in the network's order, and a child
        // with at least `policy_visits` visits grows its block with the best of its untried
        // moves by the network; without the policy the root follows the mobility ranking. A
        // fresh tree does not know the move that reached its root.
        let network = policy::Network::embedded();
        let moves = [(4, 4), (2, 2), (6, 6), (3, 5)];
        let position = play_out(&moves);
        let params =
            Params { policy_depth: 1, policy_visits: 200, memory_bytes: 64 << 20, ..Params::default() };
        let mut search = Mcts::new(params, 1);
        search.think(&position, &Budget::nodes(20_000));
        let tried: Vec<u8> = search.tree.nodes[0].child_range().map(|c| search.tree.nodes[c].mv).collect();
        let order = network.ranked(&position, None);
        assert_eq!(tried, order[..tried.len()], "the root's children in the network's order");
        let mut checked = 0;
        for c in search.tree.nodes[0].child_range() {
            let child = search.tree.nodes[c];
            // Its blocks of 4, 8 and 16 children came from the ranking (made at its 1st, 33rd
            // and 131st visits); the block of 32, made at its 523rd, from the network's order.
            if child.tried <= 16 {
                continue;
            }
            let mut after = position.clone();
            after.play(child.point()).unwrap();
            let tried: Vec<u8> = search.tree.nodes[child.child_range()].iter().map(|n| n.mv).collect();
            let first: Bitboard = tried[..16].iter().map(|&m| Point::from_index(m).unwrap()).collect();
            let rest: Vec<u8> = network
                .ranked(&after, Some(child.point()))
                .into_iter()
                .filter(|&m| !first.has(Point::from_index(m).unwrap()))
                .collect();
            assert_eq!(tried[16..], rest[..tried.len() - 16], "a busy child's later children");
            checked += 1;
        }
        assert!(checked > 0, "some child of the root was busy");
        let without = Params { policy_depth: 0, policy_visits: 0, ..params };
        let mut plain = Mcts::new(without, 1);
        plain.think(&position, &Budget::nodes(20_000));
        let first = plain.tree.nodes[plain.tree.nodes[0].first_child as usize].point();
        assert_eq!(first, move_order(&position, None, &Params::default())[0]);
    }

    #[test]
    fn best_by_ucb_is_the_first_highest_score() {
        // Children of every count up to 81, with scores often tied (few distinct means and
        // visits) and some proven lost, against the plain scan for the first maximum.
        let mut rng = fastrand::Rng::with_seed(3);
        for _ in 0..2000 {
            let children: Vec<Node> = (0..rng.usize(0..=81))
                .map(|_| {
                    let mut node = Node { mean: rng.u8(0..4) as f32 / 4.0, ..Node::default() };
                    for _ in 0..rng.u32(1..4) {
                        node.update(node.mean);
                    }
                    if rng.u8(0..8) == 0 {
                        node.proof = if rng.bool() { Proof::Loss } else { Proof::Win };
                    }
                    node
                })
                .collect();
            let explore = rng.f32() * 0.3;
            let mut first_best = 0;
            for (i, child) in children.iter().enumerate() {
                if ucb(child, explore) > ucb(&children[first_best], explore) {
                    first_best = i;
                }
            }
            assert_eq!(best_by_ucb(&children, explore), first_best, "{} children", children.len());
            let others = children.iter().enumerate().filter(|&(i, _)| i != first_best);
            let runner_up = others.map(|(_, c)| ucb(c, explore)).fold(f32::NEG_INFINITY, f32::max);
            let both = best_and_runner_up(&children, explore);
            assert_eq!(both, (first_best, runner_up), "{} children", children.len());
        }
    }

    #[test]
    fn fixed_nodes_are_reproducible_and_legal() {
        let position = play_out(&[(4, 4), (2, 2), (6, 6)]);
        let a = Mcts::new(Params::default(), 1).think(&position, &Budget::nodes(5000));
        let b = Mcts::new(Params::default(), 2).think(&position, &Budget::nodes(5000));
        assert_eq!(a.best, b.best, "search does not depend on the seed when it needs no randomness");
        assert_eq!(a.iterations, 5000);
        assert!(position.legal_moves().has(a.best));
        assert_eq!(a.pv.first(), Some(&a.best));
    }

    #[test]
    fn the_solvers_proofs_reach_the_tree() {
        // Endgames the solver proves lost for the side to move: its share of the budget ends
        // with no winning move to play, and the tree search that follows finds each root
        // move's proof in the solver's table as it tries the move, so it reports the loss.
        // (A search that does not read the table fails here: its share does not prove them.)
        let params = Params { endgame_points: 81, memory_bytes: 1 << 20, ..Params::default() };
        let mut lost = 0;
        for position in random_positions(7, |p| (14..=18).contains(&p.live_points())) {
            let exact = endgame::solve(&position, &Budget::default()).expect("no limit");
            if exact.win || decisive_move(&position).is_some() {
                continue;
            }
            let budget = Budget::nodes(2 * exact.nodes + 200);
            let report = Mcts::new(params, 0).think(&position, &budget);
            assert_eq!(report.proof, Proof::Loss, "the loss is reported\n{position}");
            lost += 1;
        }
        assert!(lost >= 5, "only {lost} lost positions");
    }

    #[test]
    fn small_endgames_in_the_tree_are_proven_by_the_solver() {
        // With the root's own solver off, a short search proves its root only through the
        // proofs of its children: with the tree's proofs on, every position below the limit is
        // proven, with the solver's verdict; without them, fewer are.
        let off =
            Params { endgame_points: 0, tree_solve_points: 0, memory_bytes: 1 << 20, ..Params::default() };
        let on = Params { tree_solve_points: 16, tree_solve_nodes: 1_000_000, ..off };
        let (mut positions, mut proven_without) = (0, 0);
        for position in random_positions(9, |p| (12..=16).contains(&p.live_points())) {
            let exact = endgame::solve(&position, &Budget::default()).expect("no limit");
            let report = Mcts::new(on, 0).think(&position, &Budget::nodes(3000));
            assert_eq!(report.proof, Proof::proven(exact.win), "{position}");
            if Mcts::new(off, 0).think(&position, &Budget::nodes(3000)).proof.is_known() {
                proven_without += 1;
            }
            positions += 1;
        }
        assert!(positions >= 10, "only {positions} positions");
        assert!(proven_without < positions, "the search proves them all without the solver");
    }

    #[test]
    fn endgame_wins_proven_by_the_solver_are_played() {
        let params = Params { endgame_points: 81, memory_bytes: 1 << 20, ..Params::default() };
        let mut rng = fastrand::Rng::with_seed(11);
        let mut proven = 0;
        while proven < 10 {
            let mut moves = Vec::new();
            crate::rules::random_game(&mut rng, |p| moves.push(p));
            // Twelve moves before the end: small enough to solve in the test's budget.
            let cut = moves.len().saturating_sub(12);
            let position = Position::from_moves(moves[..cut].iter().copied()).unwrap();
            let Some(solution) = endgame::solve(&position, &Budget::nodes(200_000)) else { continue };
            if !solution.win || decisive_move(&position).is_some() {
                continue;
            }
            let report = Mcts::new(params, 0).think(&position, &Budget::nodes(400_000));
            assert_eq!(report.proof, Proof::Win);
            let mut next = position.clone();
            next.play(report.best).unwrap();
            let reply = endgame::solve(&next, &Budget::nodes(200_000)).expect("solvable");
            assert!(!reply.win, "after the reported winning move the opponent is lost");
            proven += 1;
        }
    }

    /// The ranking computed by making every move but those in `skip`: mobility after it, then
    #[test]
    fn plays_a_decisive_move_at_once() {
        for position in random_positions(5, |p| decisive_move(p).is_some()) {
            let report = Mcts::new(Params::default(), 0).think(&position, &Budget::nodes(1000));
            assert_eq!(report.proof, Proof::Win);
            let mut next = position.clone();
            next.play(report.best).unwrap();
            assert!(next.is_terminal(), "the reported win ends the game");
        }
    }

    #[test]
    fn tree_is_reused_two_moves_later_and_stays_under_the_cap() {
        let params = Params { memory_bytes: 400_000, ..Params::default() };
        let mut mcts = Mcts::new(params, 0);
        let cap = mcts.tree.capacity();
        let mut position = Position::new();
        let mut rng = fastrand::Rng::with_seed(9);
        for turn in 0..12 {
            let searched = position.clone();
            let report = mcts.think(&position, &Budget::nodes(30_000));
            assert!(mcts.tree_size() <= cap);
            assert!(position.legal_moves().has(report.best));
            position.play(report.best).unwrap();
            if position.is_terminal() {
                break;
            }
            let reply = position.legal_moves().choose(&mut rng).unwrap();
            let searched_reply = {
                let child = mcts.best_child(0).unwrap();
                mcts.tree.nodes[child].tried > 0
            };
            position.play(reply).unwrap();
            if position.is_terminal() {
                break;
            }
            let before = mcts.tree.find_descendant(&searched, &position, 2);
            if turn > 0 && searched_reply {
                // Whether this exact reply was searched depends on the tree; when it was, the
                // next search starts from its statistics.
                if let Some(index) = before {
                    let visits = mcts.tree.nodes[index].visits;
                    mcts.tree.set_root(&position);
                    assert_eq!(mcts.tree.nodes[0].visits, visits, "root keeps the reused statistics");
                }
            }
        }
    }

    /// Checks every child in a block, tried or not yet, is a legal, distinct move of its
    /// parent's position and no node has fewer visits than its children together.
    fn assert_consistent(mcts: &Mcts, index: usize, position: &Position) {
        let node = mcts.tree.nodes[index];
        let mut seen = Bitboard::EMPTY;
        let widest = (mcts.params.widening * (node.visits as f32).sqrt()).ceil() as u8;
        assert!(node.tried <= widest, "node {index}: {} children after {} visits", node.tried, node.visits);
        for slot in node.block_range() {
            let p = mcts.tree.nodes[slot].point();
            assert!(position.legal_moves().has(p) && !seen.has(p), "child {p} of node {index}");
            seen |= Bitboard::from(p);
        }
        let mut child_visits = 0;
        for child in node.child_range() {
            child_visits += mcts.tree.nodes[child].visits;
            let mut next = position.clone();
            next.play_unchecked(mcts.tree.nodes[child].point());
            assert_consistent(mcts, child, &next);
        }
        assert!(node.visits >= child_visits);
    }

    #[test]
    fn history_counts_each_move_for_the_colour_that_played_it() {
        let position = play_out(&[(4, 4), (2, 2), (6, 6)]);
        let mut mcts = Mcts::new(Params::default(), 0);
        mcts.think(&position, &Budget::nodes(20_000));
        let to_move = position.to_move().index();
        let root = mcts.tree.nodes[0];
        assert!(root.tried > 1);
        for child in root.child_range().map(|c| mcts.tree.nodes[c]) {
            let stats = mcts.history[to_move][child.mv as usize];
            // Every visit of the child played its move for the side to move; deeper nodes may
            // have played it too.
            assert!(
                stats.count >= child.visits as f32,
                "{}: {} < {}",
                child.point(),
                stats.count,
                child.visits
            );
            assert!((0.0..=stats.count).contains(&stats.sum));
        }
        let played: f32 = mcts.history.iter().flatten().map(|s| s.count).sum();
        let below_root: u32 = root.child_range().map(|c| subtree_visits(&mcts, c) as u32).sum();
        assert_eq!(played, below_root as f32, "one record per node on each path below the root");
    }

    #[test]
    fn compaction_keeps_the_subtree_intact_and_growable() {
        let mut mcts = Mcts::new(Params::default(), 0);
        let root = Position::new();
        mcts.think(&root, &Budget::nodes(20_000));
        let child = mcts.best_child(0).unwrap();
        let grandchild = mcts.best_child(child).unwrap();
        let mut target = root.clone();
        target.play_unchecked(mcts.tree.nodes[child].point());
        target.play_unchecked(mcts.tree.nodes[grandchild].point());
        let sum_before = subtree_visits(&mcts, grandchild);
        let size_before = subtree_size(&mcts, grandchild);
        mcts.tree.set_root(&target);
        assert_eq!(
            mcts.tree.root_last_move(),
            Some(mcts.tree.nodes[0].point()),
            "the reused root's move is the last move"
        );
        assert_eq!(subtree_visits(&mcts, 0), sum_before);
        assert_eq!(subtree_size(&mcts, 0), size_before);
        assert!(mcts.tree_size() >= size_before);
        assert_consistent(&mcts, 0, &target);
        mcts.think(&target, &Budget::nodes(20_000));
        assert_consistent(&mcts, 0, &target);
    }

    fn subtree_visits(mcts: &Mcts, index: usize) -> u64 {
        mcts.tree.nodes[index].visits as u64
            + mcts.tree.nodes[index].child_range().map(|c| subtree_visits(mcts, c)).sum::<u64>()
    }

    fn subtree_size(mcts: &Mcts, index: usize) -> usize {
        1 + mcts.tree.nodes[index].child_range().map(|c| subtree_size(mcts, c)).sum::<usize>()
    }
}
