//! Monte Carlo tree search scored by evaluation, not playouts.
//!
//! The tree is an arena (`Vec<Node>`, index links) allocated once at the memory cap. A node's
//! children are one contiguous block, created best first by the mobility each move leaves
//! (`ranked_moves`) as the search tries them; the block grows by doubling, so the arena holds
//! little more than the nodes searched. Progressive widening bounds the children tried by the
//! node's visits ([`crate::params::WIDENING`]); UCB picks among those tried (trying every
//! child first, and first-play urgencies, measured worse: `docs/strength.md`). A new node is
//! scored by [`eval::value`] (or proven won or lost: at once, or by the endgame solver's table)
//! and the value is backed up, flipped at each level.
//! Between moves the subtree of the position reached is kept and slid to the front of the arena
//! in place, so memory never passes the cap however many turns are played.

use crate::bitboard::Bitboard;
use crate::endgame::{Solution, Solver, DEFAULT_TABLE_BITS};
use crate::engine::{Budget, Engine, Report};
use crate::eval;
use crate::params::Params;
use crate::point::{Color, Point, INDEX_COUNT};
use crate::position::Position;
use std::time::Instant;

/// One tree node: the move that reached it and its statistics from the point of view of the
/// player who made that move.
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Node {
    /// Mean value in `[0, 1]` for the player who made `mv`.
    mean: f32,
    /// `1 / sqrt(visits)`, kept so selection needs no square root per child.
    inv_sqrt_visits: f32,
    visits: u32,
    /// Index of the first child; meaningful when `tried > 0`.
    first_child: u32,
    /// Bitboard index of the move.
    mv: u8,
    /// Number of legal moves here, recorded when the node is scored.
    children: u8,
    /// Children tried so far: the first `tried` of the block, in move order.
    tried: u8,
    /// Game-theoretic value for the player who made `mv`: `WIN`, `LOSS` or `UNKNOWN`.
    proof: i8,
}

const UNKNOWN: i8 = 0;
/// The player who moved into the node wins with best play.
const WIN: i8 = 1;
/// The player who moved into the node loses with best play.
const LOSS: i8 = -1;

/// The value of a proven node for the player who moved into it.
#[inline]
fn proof_value(proof: i8) -> f32 {
    if proof == WIN {
        1.0
    } else {
        0.0
    }
}

/// At most this many of the opponent's legal points can become illegal through one move: the
/// move's own point, its up to 4 neighbours (which may lose their last empty neighbour), the
/// last liberties of up to 4 opponent groups it puts in atari, and the last liberty of its own
/// group. An opponent with more legal points cannot be left without a move, so the exact
/// test for a decisive move is skipped.
const MOST_POINTS_ONE_MOVE_CLOSES: u32 = 10;

impl Node {
    #[inline]
    fn update(&mut self, value: f32) {
        self.visits += 1;
        self.mean += (value - self.mean) / self.visits as f32;
        self.inv_sqrt_visits = (self.visits as f32).sqrt().recip();
    }

    fn point(&self) -> Point {
        Point::from_index(self.mv).expect("node moves are board points")
    }

    /// The tried children's indices.
    fn child_range(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + self.tried as usize
    }

    /// The whole children block, untried slots included.
    fn block_range(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + block_capacity(self.tried as usize, self.children as usize)
    }
}

/// Slots in the children block of a node with `legal` moves once `tried` are tried: doubling
/// from 4, so growing costs little and the block is at most twice what is used.
#[inline]
fn block_capacity(tried: usize, legal: usize) -> usize {
    if tried == 0 {
        0
    } else {
        legal.min(tried.next_power_of_two().max(4))
    }
}

/// The order children are tried in: the first `count` legal moves of the side to move (as
/// bitboard indices) not in `skip`, best first by the mobility each leaves it. Ties go first
/// to points in `near_last`, the points near the last move
/// ([`LAST_MOVE_RADIUS`](crate::params::LAST_MOVE_RADIUS)), then to the points that have done
/// best for the side to move elsewhere in the tree (`history`), then to points both sides may
/// play before points only the side to move may play (taking a contested point denies it to
/// the opponent; a point only we may play stays ours for later), then board order.
/// Measured, with every child tried before any is revisited: plain board order scored 32.5%
/// +- 10.3% against contested-first board order, which scored 59.2% against this ranking (120
/// games at 20,000 iterations); the ranking pays only with [`WIDENING`](crate::params::WIDENING).
/// The history tie-break, on top of the last-move one, beat that alone 229-171 in the arena at
/// 0.1 s a move (57.2% [52.4, 62.0], `docs/strength.md`) though it costs about a tenth of the
/// iterations.
/// Quiet moves (most of them) are scored together by [`MoveEffects::lead_gains`] and keyed
/// only as far as the first `count` need, which made `nogo bench` about a fifth faster.
///
/// [`MoveEffects::lead_gains`]: crate::position::MoveEffects::lead_gains
fn ranked_moves(
    position: &Position,
    count: usize,
    near_last: Bitboard,
    history: &[PointStats; INDEX_COUNT],
    skip: Bitboard,
) -> [u8; 81] {
    let to_move = position.to_move();
    let effects = position.move_effects();
    let legal = effects.legal_both();
    let (own, theirs) = (legal[to_move.index()], legal[1 - to_move.index()]);
    let contested = own & theirs;
    let candidates = own - skip;
    let mut best = BestKeys::new(count);
    // The key's tie-breaks below the mobility, given whether `p` is near the last move and
    // contested: the lowest keys rank first, and the point's index makes every key distinct.
    let ties = |p: Point, near: bool, contested: bool| {
        ((!near as i32) << 16)
            | ((history[p.index()].rank() as i32) << 8)
            | ((!contested as i32) << 7)
            | p.index() as i32
    };
    let mobility_key = |mobility: i32| (128 - mobility) << 17;
    let quiet = effects.quiet() & candidates;
    for p in candidates - quiet {
        let legal = effects.legal_both_after(p);
        let mobility = eval::mobility(legal[to_move.index()], legal[1 - to_move.index()]);
        best.offer(mobility_key(mobility) | ties(p, near_last.has(p), contested.has(p)));
    }
    // Quiet moves are scored all at once (the mobility is the lead in legal points: points
    // both sides may play cancel), and keyed best class first only until `count` are keyed: a
    // quiet move of a worse class ranks below all of those, so is not needed. Within a class
    // the points near the last move and the contested ones are split off as sets, not tested
    // one by one.
    let lead_before_quiet = eval::mobility(own, theirs) - 1;
    let gains = effects.lead_gains();
    let mut quiet_left = quiet;
    let mut quiet_keyed = 0;
    while quiet_keyed < count && !quiet_left.is_empty() {
        let (gain, class) = gains.greatest(quiet_left);
        quiet_left -= class;
        quiet_keyed += class.count() as usize;
        let key = mobility_key(lead_before_quiet + gain as i32);
        let near = class & near_last;
        for (part, is_near, is_contested) in [
            (near & contested, true, true),
            (near - contested, true, false),
            ((class - near) & contested, false, true),
            (class - near - contested, false, false),
        ] {
            for p in part {
                best.offer(key | ties(p, is_near, is_contested));
            }
        }
    }
    let mut moves = [0u8; 81];
    for (m, k) in moves.iter_mut().zip(best.sorted()) {
        *m = (k & 0x7f) as u8;
    }
    moves
}

/// The `count` lowest of the distinct keys offered, kept sorted: a few slots for a new
/// children block, so most keys are turned away by one comparison with the worst kept, where
/// keeping every key and partitioning them cost a tenth of the search.
struct BestKeys {
    keys: [i32; 81],
    len: usize,
    count: usize,
}

impl BestKeys {
    fn new(count: usize) -> BestKeys {
        BestKeys { keys: [0; 81], len: 0, count: count.min(81) }
    }

    #[inline]
    fn offer(&mut self, key: i32) {
        if self.len == self.count {
            if self.count == 0 || key >= self.keys[self.len - 1] {
                return;
            }
            self.len -= 1;
        }
        let mut i = self.len;
        while i > 0 && self.keys[i - 1] > key {
            self.keys[i] = self.keys[i - 1];
            i -= 1;
        }
        self.keys[i] = key;
        self.len += 1;
    }

    fn sorted(&self) -> &[i32] {
        &self.keys[..self.len]
    }
}

/// How a point has done for one colour this turn, wherever that colour played it in the tree:
/// the values backed up through those nodes (for that colour), summed, and their count.
#[derive(Clone, Copy)]
struct PointStats {
    sum: f32,
    count: f32,
    /// [`PointStats::rank`], kept up to date by [`PointStats::record`]: a path records a
    /// handful of values, a ranking reads the rank of each move it keys.
    rank: u8,
}

impl PointStats {
    const FRESH: PointStats = PointStats { sum: 0.0, count: 0.0, rank: 128 };

    /// Adds a value backed up through the point.
    #[inline]
    fn record(&mut self, value: f32) {
        self.sum += value;
        self.count += 1.0;
        self.rank = 255 - (255.0 * self.sum / self.count) as u8;
    }

    /// The point's place among ties of the ranking, from 0 (always won) to 255 (always lost);
    /// 128 when not played yet.
    #[inline]
    fn rank(self) -> u8 {
        self.rank
    }
}

/// No point played yet, for either colour.
const FRESH_HISTORY: [[PointStats; INDEX_COUNT]; 2] = [[PointStats::FRESH; INDEX_COUNT]; 2];

/// Deepest path an iteration can take: one move per board point, plus the root.
const MAX_DEPTH: usize = 82;
/// Smallest arena: room for one path of fully expanded nodes.
const MIN_CAPACITY: usize = MAX_DEPTH * 82;
/// Iterations between clock reads: reading the clock costs as much as a short iteration.
const CLOCK_INTERVAL: u64 = 256;
/// Solver nodes of the tree's proofs ([`TREE_SOLVE_POINTS`](crate::params::TREE_SOLVE_POINTS))
/// after which the clock is read before the next [`CLOCK_INTERVAL`] ends: a few milliseconds,
/// where 256 iterations that each ran a full proof could take over 100.
const SOLVER_NODES_PER_CLOCK_READ: u64 = 4096;

/// The search: tree, parameters, and what it needs to reuse the tree next move.
pub struct Mcts {
    params: Params,
    nodes: Vec<Node>,
    capacity: usize,
    /// The position at the root of `nodes`, if a tree is kept.
    root_position: Option<Position>,
    /// The move that reached the root, when the position before it was searched too.
    root_last_move: Option<Point>,
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
}

/// Visit counts whose `sqrt(ln visits)` is tabled: a logarithm per selection costs as much as
/// the rest of the selection at a small node, and the root and the nodes near it pass a few
/// thousand visits early in a turn (with a table of 4,096, `ln` was 2.8% of `perf`'s samples of
/// the bench's middle game). 1 MB, read in order at the root as its visits grow.
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

impl Mcts {
    pub fn new(params: Params, seed: u64) -> Mcts {
        let capacity = (params.memory_bytes / size_of::<Node>()).max(MIN_CAPACITY);
        Mcts {
            params,
            nodes: Vec::new(),
            capacity,
            root_position: None,
            root_last_move: None,
            history: FRESH_HISTORY,
            rng: fastrand::Rng::with_seed(seed),
            solver: None,
            unclocked_solver_nodes: 0,
            sqrt_ln_visits: sqrt_ln_table(),
        }
    }

    /// Nodes in the tree now.
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// Bytes the tree's arena holds (allocated, whether used or not).
    pub fn reserved_bytes(&self) -> usize {
        self.nodes.capacity() * size_of::<Node>()
    }

    /// Reserves the arena at the cap, halving the cap while the system refuses the memory.
    fn reserve_arena(&mut self) {
        let mut nodes = Vec::new();
        while nodes.try_reserve_exact(self.capacity).is_err() && self.capacity > MIN_CAPACITY {
            self.capacity = (self.capacity / 2).max(MIN_CAPACITY);
            eprintln!(
                "nogo: search tree memory refused; trying {} MB",
                (self.capacity * size_of::<Node>()) >> 20
            );
        }
        if nodes.capacity() < self.capacity {
            nodes.reserve_exact(self.capacity);
        }
        self.nodes = nodes;
    }

    /// Makes the root hold `position`, keeping the subtree already searched when `position`
    /// is the root or two moves below it (our move and the reply); otherwise starts afresh.
    fn set_root(&mut self, position: &Position) {
        if self.nodes.capacity() < self.capacity {
            self.reserve_arena();
        }
        let kept = self.root_position.as_ref().and_then(|old| self.find_descendant(old, position, 2));
        match kept {
            Some(0) => {}
            Some(index) => self.compact_to(index),
            None => {
                self.nodes.clear();
                self.nodes.push(Node::default());
            }
        }
        self.root_last_move = match &self.root_position {
            Some(old) if old == position => self.root_last_move,
            Some(old) => last_move(old, position),
            None => None,
        };
        self.root_position = Some(position.clone());
    }

    /// The node at most `depth` moves below the root whose position is `target`.
    fn find_descendant(&self, from: &Position, target: &Position, depth: usize) -> Option<usize> {
        self.find_below(0, from, target, depth)
    }

    fn find_below(&self, index: usize, at: &Position, target: &Position, depth: usize) -> Option<usize> {
        if at.hash() == target.hash() && at == target {
            return Some(index);
        }
        if depth == 0 || at.moves_played() >= target.moves_played() {
            return None;
        }
        let node = self.nodes[index];
        for child in node.child_range() {
            let mut next = at.clone();
            next.play_unchecked(self.nodes[child].point());
            if let Some(found) = self.find_below(child, &next, target, depth - 1) {
                return Some(found);
            }
        }
        None
    }

    /// Keeps only the subtree under `root` (whole children blocks, so they can keep growing in
    /// place), with `root` at index 0 and its descendants slid down in place behind it. Sliding live nodes down in index order never overwrites one
    /// not yet moved: each goes to one plus its rank among the live descendants, and the
    /// dead old root at index 0 is below all of them.
    fn compact_to(&mut self, root: usize) {
        let words = self.nodes.len().div_ceil(64);
        let mut live = vec![0u64; words];
        let mut stack = vec![root];
        while let Some(index) = stack.pop() {
            let node = self.nodes[index];
            for slot in node.block_range() {
                live[slot / 64] |= 1 << (slot % 64);
            }
            stack.extend(node.child_range());
        }
        let mut before = Vec::with_capacity(words);
        let mut total = 1u32;
        for word in &live {
            before.push(total);
            total += word.count_ones();
        }
        let new_index = |old: usize| -> u32 {
            let below = live[old / 64] & ((1u64 << (old % 64)) - 1);
            before[old / 64] + below.count_ones()
        };
        let relink = |mut node: Node| {
            if node.tried > 0 {
                node.first_child = new_index(node.first_child as usize);
            }
            node
        };
        let new_root = relink(self.nodes[root]);
        for (w, &word) in live.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let old = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.nodes[new_index(old) as usize] = relink(self.nodes[old]);
            }
        }
        self.nodes[0] = new_root;
        self.nodes.truncate(total as usize);
    }

    /// One iteration: descend by UCB, score one new node, back its value up.
    #[inline]
    fn iterate(&mut self, root: &Position) {
        let mut path = [0u32; MAX_DEPTH];
        let mut depth = 0;
        let mut position = root.clone();
        let mut index = 0usize;
        let value = loop {
            path[depth] = index as u32;
            depth += 1;
            let node = self.nodes[index];
            if node.proof != UNKNOWN {
                break proof_value(node.proof);
            }
            if node.visits == 0 {
                break self.evaluate(index, &position);
            }
            let Some(child) = self.select(index, &position) else {
                // The arena is full: refine what is there by backing the node's value up again.
                break node.mean;
            };
            position.play_unchecked(self.nodes[child].point());
            index = child;
        };
        self.backup(&path[..depth], value, root.to_move());
    }

    /// Scores a new node from its position, proving it when the side to move has no move
    /// (the mover won) or has a move that leaves the mover none (the mover lost).
    #[inline]
    fn evaluate(&mut self, index: usize, position: &Position) -> f32 {
        let to_move = position.to_move().index();
        let legal = position.legal_both();
        let (own, theirs) = (legal[to_move], legal[1 - to_move]);
        let (proof, value) = if own.is_empty() {
            (WIN, 1.0)
        } else if find_decisive(position, own, theirs).is_some() {
            (LOSS, 0.0)
        } else if let Some(proof) = self.known_proof(index, own | theirs, position.hash()) {
            (proof, proof_value(proof))
        } else if let Some(proof) = self.solve_small_endgame(index, own | theirs, position) {
            (proof, proof_value(proof))
        } else {
            (UNKNOWN, eval::value(position, theirs, own, &self.params))
        };
        self.nodes[index].proof = proof;
        self.nodes[index].children = own.count() as u8;
        value
    }

    /// The proof of the position of node `index` (for the player who moved into it) whose
    /// live points (legal for either side) are `live` and whose hash is `key`, when the
    /// endgame solver's table holds it. A failed attempt of the solver at the root still
    /// proves many positions of the tree; without this, the search could choose a move the
    /// solver had proven to lose. Only endgames are probed: the solver runs once at most
    /// [`ENDGAME_POINTS`](crate::params::ENDGAME_POINTS) points are live, and live points
    /// never come back. The root is left to its children's proofs, so that a lost root is
    /// still searched for the move that resists longest. Against the search without it, at
    /// 0.1 s a move: 221-179 (a first build that probed the root too) and 215-185, together
    /// 54.5% [51.0, 57.9] (`docs/strength.md`).
    fn known_proof(&self, index: usize, live: Bitboard, key: u64) -> Option<i8> {
        if index == 0 || live.count() > self.params.endgame_points {
            return None;
        }
        let to_move_wins = self.solver.as_ref()?.known(key)?;
        Some(if to_move_wins { LOSS } else { WIN })
    }

    /// The proof of a new node (not the root) whose position has at most
    /// [`TREE_SOLVE_POINTS`](crate::params::TREE_SOLVE_POINTS) live points, by the endgame
    /// solver within [`TREE_SOLVE_NODES`](crate::params::TREE_SOLVE_NODES) nodes: the
    /// evaluation misjudges small endgames that a few hundred solver nodes settle, and the
    /// proof then reaches the nodes above it.
    fn solve_small_endgame(&mut self, index: usize, live: Bitboard, position: &Position) -> Option<i8> {
        if index == 0 || live.count() > self.params.tree_solve_points {
            return None;
        }
        let budget = Budget::nodes(self.params.tree_solve_nodes as u64);
        let solver = self.solver.get_or_insert_with(|| Solver::new(DEFAULT_TABLE_BITS));
        let verdict = solver.wins(position, &budget);
        self.unclocked_solver_nodes += solver.nodes();
        Some(if verdict? { LOSS } else { WIN })
    }

    /// Proves the root's children from the solver's table: a kept tree scored them before
    /// this turn's solver ran.
    fn prove_root_children(&mut self, position: &Position) {
        let [black, white] = position.legal_both();
        for c in self.nodes[0].child_range() {
            if self.nodes[c].proof == UNKNOWN {
                let key = position.hash_after(self.nodes[c].point());
                if let Some(proof) = self.known_proof(c, black | white, key) {
                    self.nodes[c].proof = proof;
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
        let mut child_proof = UNKNOWN;
        // The colour that moved into the last node: `to_move` at odd depths.
        let mut mover = to_move.index() ^ (path.len() % 2 == 1) as usize;
        for (depth, &i) in path.iter().enumerate().rev() {
            let i = i as usize;
            if child_proof == WIN {
                self.nodes[i].proof = LOSS;
            } else if child_proof == LOSS && self.all_children_lost(i) {
                self.nodes[i].proof = WIN;
            }
            let node = &mut self.nodes[i];
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
        let node = self.nodes[index];
        node.tried == node.children && self.nodes[node.child_range()].iter().all(|c| c.proof == LOSS)
    }

    /// The child to descend into from a visited node whose position is `position`: the next
    /// untried child while there is one (and room for it), else the best tried child by UCB
    /// among those not proven lost. `None` when a child is needed and the arena is full.
    #[inline]
    fn select(&mut self, index: usize, position: &Position) -> Option<usize> {
        let node = self.nodes[index];
        // Progressive widening: a node visited n times may have ceil(w * sqrt(n)) children,
        // that is, one more while fewer than w * sqrt(n) are tried.
        let widest = self.params.widening * (node.visits as f32).sqrt();
        if node.tried < node.children && (node.tried as f32) < widest {
            if let Some(child) = self.try_next(index, position) {
                return Some(child);
            }
        }
        let explore = self.params.exploration
            * match self.sqrt_ln_visits.get(node.visits as usize) {
                Some(&tabled) => tabled,
                None => sqrt_ln(node.visits),
            };
        let mut best = 0;
        let mut best_score = f32::NEG_INFINITY;
        for (i, c) in self.nodes[node.child_range()].iter().enumerate() {
            let mut score = c.mean + explore * c.inv_sqrt_visits;
            if c.proof == LOSS {
                score = -1.0;
            }
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        (node.tried > 0).then_some(node.first_child as usize + best)
    }

    /// The points near the move that reached node `index`, whose children are tried first
    /// among equal mobilities; none at a root whose last move is unknown.
    fn near_last_move(&self, index: usize) -> Bitboard {
        let last_move = if index == 0 { self.root_last_move } else { Some(self.nodes[index].point()) };
        last_move.map_or(Bitboard::EMPTY, |p| Bitboard::from(p).within(self.params.last_move_radius))
    }

    /// Creates the next untried child of a node, growing its block when full; `None` when
    /// the arena has no room.
    fn try_next(&mut self, index: usize, position: &Position) -> Option<usize> {
        let node = self.nodes[index];
        let (tried, legal) = (node.tried as usize, node.children as usize);
        let mut first = node.first_child as usize;
        if tried == block_capacity(tried, legal) {
            let grown = block_capacity(tried + 1, legal);
            if self.nodes.len() + grown > self.capacity {
                return None;
            }
            let new_first = self.nodes.len();
            self.nodes.extend_from_within(first..first + tried);
            self.nodes.resize(new_first + grown, Node::default());
            first = new_first;
            self.nodes[index].first_child = first as u32;
            // The new slots take the next moves of the ranking, computed again on each
            // growth (every doubling of the block) rather than stored per node.
            // The ranking's ties change with the history, so the tried moves are left out and
            // the new slots take the best of the rest.
            let tried_moves = self.nodes[first..first + tried]
                .iter()
                .fold(Bitboard::EMPTY, |set, c| set | Bitboard::from(c.point()));
            let history = &self.history[position.to_move().index()];
            let moves =
                ranked_moves(position, grown - tried, self.near_last_move(index), history, tried_moves);
            for (slot, &mv) in
                self.nodes[first + tried..first + grown].iter_mut().zip(&moves[..grown - tried])
            {
                *slot = Node { mv, ..Node::default() };
            }
        }
        self.nodes[index].tried += 1;
        Some(first + tried)
    }

    /// The child of a node to play: a proven win, else the most visited not proven lost,
    /// else (everything lost) the most visited.
    fn best_child(&self, index: usize) -> Option<usize> {
        let node = self.nodes[index];
        let tried = node.child_range();
        let key = |&c: &usize| {
            let child = self.nodes[c];
            (child.proof, child.visits, std::cmp::Reverse(c))
        };
        tried.clone().find(|&c| self.nodes[c].proof == WIN).or_else(|| {
            tried
                .clone()
                .filter(|&c| self.nodes[c].proof != LOSS)
                .max_by_key(key)
                .or_else(|| tried.max_by_key(key))
        })
    }

    /// Tries to prove a win with the exact solver, on a share of the budget, once few points
    /// are playable; the report of the winning move, or `None` to search the tree instead.
    fn solve_endgame(&mut self, position: &Position, budget: &Budget, started: Instant) -> Option<Report> {
        let [black, white] = position.legal_both();
        if (black | white).count() > self.params.endgame_points {
            return None;
        }
        let share = self.params.endgame_share;
        let solver_budget = Budget {
            deadline: budget.deadline.map(|d| started + d.saturating_duration_since(started).mul_f32(share)),
            nodes: budget.nodes.map(|n| (n as f32 * share) as u64),
        };
        let solver = self.solver.get_or_insert_with(|| Solver::new(DEFAULT_TABLE_BITS));
        match solver.solve(position, &solver_budget)? {
            Solution { win: true, best: Some(best), nodes } => Some(Report {
                best,
                iterations: nodes,
                elapsed: started.elapsed(),
                win_rate: 1.0,
                pv: vec![best],
                proven: Some(true),
            }),
            _ => None,
        }
    }

    /// Visits of the root's child playing `mv` (0 when not searched).
    pub fn root_child_visits(&self, mv: Point) -> u32 {
        let root = self.nodes.first().copied().unwrap_or_default();
        root.child_range()
            .map(|c| self.nodes[c])
            .find(|child| child.mv as usize == mv.index())
            .map_or(0, |child| child.visits)
    }

    /// The root's searched children after a search: each move with its visits and mean value
    /// for the side to move at the root. For analysis displays; meaningful only after a
    /// [`Engine::think`] that searched (a decisive move is answered without a search).
    pub fn root_children(&self) -> Vec<(Point, u32, f32)> {
        let root = self.nodes.first().copied().unwrap_or_default();
        root.child_range()
            .take(root.tried as usize)
            .map(|c| self.nodes[c])
            .map(|n| (n.point(), n.visits, n.mean))
            .collect()
    }

    fn principal_variation(&self) -> Vec<Point> {
        let mut pv = Vec::new();
        let mut index = 0;
        while let Some(child) = self.best_child(index) {
            pv.push(self.nodes[child].point());
            index = child;
        }
        pv
    }
}

/// The last move of the game at `now`, when `now` follows `before` by a move or two: the one
/// stone of the side that just moved that `before` lacks.
fn last_move(before: &Position, now: &Position) -> Option<Point> {
    let mover = !now.to_move();
    let added = now.stones(mover) - before.stones(mover);
    let follows = before.stones(mover).is_subset(now.stones(mover))
        && before.stones(!mover).is_subset(now.stones(!mover));
    (follows && added.has_at_most_one()).then(|| added.first()).flatten()
}

/// A move that leaves the opponent no legal move, if there is one: it wins at once.
pub fn decisive_move(position: &Position) -> Option<Point> {
    let legal = position.legal_both();
    let to_move = position.to_move().index();
    find_decisive(position, legal[to_move], legal[1 - to_move])
}

/// A move among `own` (the side to move's legal set) after which the opponent, whose legal
/// set is `theirs`, has no legal move.
#[inline]
fn find_decisive(position: &Position, own: Bitboard, theirs: Bitboard) -> Option<Point> {
    if theirs.count() > MOST_POINTS_ONE_MOVE_CLOSES {
        return None;
    }
    let opponent = (!position.to_move()).index();
    let effects = position.move_effects();
    own.iter().find(|&p| effects.legal_both_after(p)[opponent].is_empty())
}

impl Engine for Mcts {
    fn name(&self) -> &'static str {
        "mcts"
    }

    fn think(&mut self, position: &Position, budget: &Budget) -> Report {
        let started = Instant::now();
        if let Some(win) = decisive_move(position) {
            let mut report = Report::instant(win, 1.0, started);
            report.proven = Some(true);
            return report;
        }
        if let Some(report) = self.solve_endgame(position, budget, started) {
            return report;
        }
        self.set_root(position);
        self.prove_root_children(position);
        self.history = FRESH_HISTORY;
        let mut iterations = 0u64;
        let max = budget.nodes.unwrap_or(u64::MAX);
        while iterations < max && self.nodes[0].proof == UNKNOWN {
            self.iterate(position);
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
            Some(child) => (self.nodes[child].point(), self.nodes[child].mean as f64),
            None => {
                // No iteration ran (an expired budget): any legal move beats none.
                let legal: Bitboard = position.legal_moves();
                let pick = legal.choose(&mut self.rng).expect("non-terminal");
                (pick, 0.5)
            }
        };
        let proven = match self.nodes[0].proof {
            LOSS => Some(true),
            WIN => Some(false),
            _ => None,
        };
        Report {
            best,
            iterations,
            elapsed: started.elapsed(),
            win_rate: proven.map_or(win_rate, |won| if won { 1.0 } else { 0.0 }),
            pv: self.principal_variation(),
            proven,
        }
    }

    fn new_game(&mut self) {
        self.root_position = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::test_support::random_positions;

    fn play_out(moves: &[(u8, u8)]) -> Position {
        Position::from_moves(moves.iter().map(|&(x, y)| Point::from_xy(x, y).unwrap())).unwrap()
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
        let live = |p: &Position| {
            let [black, white] = p.legal_both();
            (black | white).count()
        };
        let params = Params { endgame_points: 81, memory_bytes: 1 << 20, ..Params::default() };
        let mut lost = 0;
        for position in random_positions(7, |p| (14..=18).contains(&live(p))) {
            let exact = crate::endgame::solve(&position, &Budget::default()).expect("no limit");
            if exact.win || decisive_move(&position).is_some() {
                continue;
            }
            let budget = Budget::nodes(2 * exact.nodes + 200);
            let report = Mcts::new(params, 0).think(&position, &budget);
            assert_eq!(report.proven, Some(false), "the loss is reported\n{position}");
            lost += 1;
        }
        assert!(lost >= 5, "only {lost} lost positions");
    }

    #[test]
    fn small_endgames_in_the_tree_are_proven_by_the_solver() {
        // With the root's own solver off, a short search proves its root only through the
        // proofs of its children: with the tree's proofs on, every position below the limit is
        // proven, with the solver's verdict; without them, fewer are.
        let live = |p: &Position| {
            let [black, white] = p.legal_both();
            (black | white).count()
        };
        let off =
            Params { endgame_points: 0, tree_solve_points: 0, memory_bytes: 1 << 20, ..Params::default() };
        let on = Params { tree_solve_points: 16, tree_solve_nodes: 1_000_000, ..off };
        let (mut positions, mut proven_without) = (0, 0);
        for position in random_positions(9, |p| (12..=16).contains(&live(p))) {
            let exact = crate::endgame::solve(&position, &Budget::default()).expect("no limit");
            let report = Mcts::new(on, 0).think(&position, &Budget::nodes(3000));
            assert_eq!(report.proven, Some(exact.win), "{position}");
            if Mcts::new(off, 0).think(&position, &Budget::nodes(3000)).proven.is_some() {
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
            crate::bench::random_game(&mut rng, |p| moves.push(p));
            // Twelve moves before the end: small enough to solve in the test's budget.
            let cut = moves.len().saturating_sub(12);
            let position = Position::from_moves(moves[..cut].iter().copied()).unwrap();
            let Some(solution) = crate::endgame::solve(&position, &Budget::nodes(200_000)) else { continue };
            if !solution.win || decisive_move(&position).is_some() {
                continue;
            }
            let report = Mcts::new(params, 0).think(&position, &Budget::nodes(400_000));
            assert_eq!(report.proven, Some(true));
            let mut next = position.clone();
            next.play(report.best).unwrap();
            let reply = crate::endgame::solve(&next, &Budget::nodes(200_000)).expect("solvable");
            assert!(!reply.win, "after the reported winning move the opponent is lost");
            proven += 1;
        }
    }

    /// The ranking computed by making every move but those in `skip`: mobility after it, then
    /// points in `near` first, then by `history`, then contested points before points only the
    /// side to move may play, then board order.
    fn ranked_by_making_every_move(
        position: &Position,
        near: Bitboard,
        history: &[PointStats; INDEX_COUNT],
        skip: Bitboard,
    ) -> Vec<u8> {
        let to_move = position.to_move();
        let theirs = position.legal(!to_move);
        let mut keyed: Vec<(i32, bool, u8, bool, u8)> = (position.legal_moves() - skip)
            .iter()
            .map(|p| {
                let mut after = position.clone();
                after.play(p).unwrap();
                let legal = after.legal_both();
                let mobility = eval::mobility(legal[to_move.index()], legal[1 - to_move.index()]);
                (-mobility, !near.has(p), history[p.index()].rank(), !theirs.has(p), p.index() as u8)
            })
            .collect();
        keyed.sort();
        keyed.into_iter().map(|(_, _, _, _, p)| p).collect()
    }

    #[test]
    fn ranking_matches_making_every_move() {
        let mut rng = fastrand::Rng::with_seed(21);
        for _ in 0..40 {
            let mut position = Position::new();
            let mut moves = Vec::new();
            while !position.is_terminal() {
                // Each tie-break and the skipped moves at random, off half the time: the points
                // within 0 to 3 steps of a random point; random statistics for a random third
                // of the points; a random third of the legal moves skipped.
                let on = |rng: &mut fastrand::Rng| rng.bool();
                let near = match on(&mut rng) {
                    false => Bitboard::EMPTY,
                    true => Bitboard::FULL
                        .choose(&mut rng)
                        .map_or(Bitboard::EMPTY, |p| Bitboard::from(p).within(rng.u32(0..4))),
                };
                let mut history = FRESH_HISTORY[0];
                if on(&mut rng) {
                    for stats in history.iter_mut() {
                        if rng.u32(0..3) == 0 {
                            for _ in 0..rng.u32(1..50) {
                                stats.record(rng.f32());
                            }
                        }
                    }
                }
                let mut skip = Bitboard::EMPTY;
                if on(&mut rng) {
                    for p in position.legal_moves().iter().filter(|_| rng.u32(0..3) == 0) {
                        skip |= Bitboard::from(p);
                    }
                }
                let expected = ranked_by_making_every_move(&position, near, &history, skip);
                // All of them, and the first few only (as a new children block asks).
                let few = rng.usize(1..=expected.len().max(1)).min(expected.len());
                for count in [81, few] {
                    let count = count.min(expected.len());
                    assert_eq!(
                        &ranked_moves(&position, count, near, &history, skip)[..count],
                        &expected[..count],
                        "first {count} after {moves:?}"
                    );
                }
                let mv = position.legal_moves().choose(&mut rng).unwrap();
                position.play(mv).unwrap();
                moves.push(mv.to_gtp());
            }
        }
    }

    #[test]
    fn plays_a_decisive_move_at_once() {
        for position in random_positions(5, |p| decisive_move(p).is_some()) {
            let report = Mcts::new(Params::default(), 0).think(&position, &Budget::nodes(1000));
            assert_eq!(report.proven, Some(true));
            let mut next = position.clone();
            next.play(report.best).unwrap();
            assert!(next.is_terminal(), "the reported win ends the game");
        }
    }

    #[test]
    fn tree_is_reused_two_moves_later_and_stays_under_the_cap() {
        let params = Params { memory_bytes: 400_000, ..Params::default() };
        let mut mcts = Mcts::new(params, 0);
        let cap = mcts.capacity;
        let mut position = Position::new();
        let mut rng = fastrand::Rng::with_seed(9);
        for turn in 0..12 {
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
                mcts.nodes[child].tried > 0
            };
            position.play(reply).unwrap();
            if position.is_terminal() {
                break;
            }
            let before = mcts.find_descendant(mcts.root_position.as_ref().unwrap(), &position, 2);
            if turn > 0 && searched_reply {
                // Whether this exact reply was searched depends on the tree; when it was, the
                // next search starts from its statistics.
                if let Some(index) = before {
                    let visits = mcts.nodes[index].visits;
                    mcts.set_root(&position);
                    assert_eq!(mcts.nodes[0].visits, visits, "root keeps the reused statistics");
                }
            }
        }
    }

    /// Checks every child in a block, tried or not yet, is a legal, distinct move of its
    /// parent's position and no node has fewer visits than its children together.
    fn assert_consistent(mcts: &Mcts, index: usize, position: &Position) {
        let node = mcts.nodes[index];
        let mut seen = Bitboard::EMPTY;
        let widest = (mcts.params.widening * (node.visits as f32).sqrt()).ceil() as u8;
        assert!(node.tried <= widest, "node {index}: {} children after {} visits", node.tried, node.visits);
        for slot in node.block_range() {
            let p = mcts.nodes[slot].point();
            assert!(position.legal_moves().has(p) && !seen.has(p), "child {p} of node {index}");
            seen |= Bitboard::from(p);
        }
        let mut child_visits = 0;
        for child in node.child_range() {
            child_visits += mcts.nodes[child].visits;
            let mut next = position.clone();
            next.play_unchecked(mcts.nodes[child].point());
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
        let root = mcts.nodes[0];
        assert!(root.tried > 1);
        for child in root.child_range().map(|c| mcts.nodes[c]) {
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
        target.play_unchecked(mcts.nodes[child].point());
        target.play_unchecked(mcts.nodes[grandchild].point());
        let sum_before = subtree_visits(&mcts, grandchild);
        let size_before = subtree_size(&mcts, grandchild);
        mcts.set_root(&target);
        assert_eq!(
            mcts.root_last_move,
            Some(mcts.nodes[0].point()),
            "the reused root's move is the last move"
        );
        assert_eq!(subtree_visits(&mcts, 0), sum_before);
        assert_eq!(subtree_size(&mcts, 0), size_before);
        assert!(mcts.tree_size() >= size_before);
        assert_consistent(&mcts, 0, &target);
        mcts.think(&target, &Budget::nodes(20_000));
        assert_consistent(&mcts, 0, &target);
    }

    #[test]
    fn last_move_is_found_one_or_two_moves_later() {
        let before = play_out(&[(4, 4), (2, 2)]);
        let one = play_out(&[(4, 4), (2, 2), (6, 6)]);
        let two = play_out(&[(4, 4), (2, 2), (6, 6), (0, 8)]);
        assert_eq!(last_move(&before, &one), Point::from_xy(6, 6));
        assert_eq!(last_move(&before, &two), Point::from_xy(0, 8));
        assert_eq!(last_move(&one, &two), Point::from_xy(0, 8));
        assert_eq!(last_move(&before, &before), None);
        let elsewhere = play_out(&[(4, 3), (2, 2), (6, 6)]);
        assert_eq!(last_move(&before, &elsewhere), None, "not reached from `before`");
        let three = play_out(&[(4, 4), (2, 2), (6, 6), (0, 8), (8, 0)]);
        assert_eq!(last_move(&one, &three), Point::from_xy(8, 0));
        assert_eq!(last_move(&before, &three), None, "two new stones of the mover");
    }

    fn subtree_visits(mcts: &Mcts, index: usize) -> u64 {
        mcts.nodes[index].visits as u64
            + mcts.nodes[index].child_range().map(|c| subtree_visits(mcts, c)).sum::<u64>()
    }

    fn subtree_size(mcts: &Mcts, index: usize) -> usize {
        1 + mcts.nodes[index].child_range().map(|c| subtree_size(mcts, c)).sum::<usize>()
    }
}
