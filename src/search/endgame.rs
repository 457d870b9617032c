//! Exact endgame solver: proves whether the side to move wins, within a budget.
//!
//! NoGo is a boolean game (no draws), so the search is negamax on a win/loss value: a node is
//! won when some move leads to a lost node, and it stops at the first such move (alpha-beta
//! with a null window degenerates to exactly this). Proven nodes go into a transposition table
//! keyed by [`Position::hash`]. Children are ordered killer move first, then by the mobility
//! they leave (twice the opponent's legal points minus ours, least first); before any child
//! is searched each one is checked for an immediate win (the opponent is left without a legal
//! move) and probed in the table for a proven loss.
//!
//! # Shortcut: independent regions (sound, proved here and tested against brute force)
//!
//! Legal sets only shrink: a point illegal for a colour stays illegal. It is occupied (for
//! ever), or the last liberty of an opponent group (that group changes only by a stone on that
//! liberty), or suicide: no empty neighbour (none can appear: stones never leave) and every
//! own neighbouring group has that point as its sole liberty (such a group, too, changes only
//! by a stone on it).
//!
//! Call a point *live* when some side may play it. Link two live points when they are adjacent
//! or are liberties of a common group, and call the connected parts *regions*. A move on `p`
//! changes only `p` and the groups adjacent to `p` (their liberties, and the group it joins),
//! so the live points whose legality could change (`p`'s neighbours and those groups'
//! liberties) are all in `p`'s region, and regions never merge. So regions are independent
//! games, and the position is their sum.
//!
//! A region where only one colour has legal points stays so for ever (legal sets shrink): it
//! is a pile of moves only its owner can take. Its worth is the most moves the owner can make
//! in it alone (`Solver::most_moves`, a small exhaustive search), and the owner can take them one at
//! a time whenever he likes by following one best line. Such piles are interchangeable, so the
//! search plays only the *mixed* regions plus one move from the side to move's piles (the
//! first move of a best line; the region left then is worth exactly one move less). With `M`
//! and `m` the moves in our and the opponent's piles and `x` and `y` our and the opponent's
//! legal points in mixed regions (each side makes at most that many moves there):
//! - no mixed region: we win exactly when `M > m` (we move first and run out first otherwise);
//! - `M + x <= m`: we lose (the opponent answers each of our moves from his piles);
//! - `M > m + y`: we win (we play only from our piles).
//!
//! In the positions at the solver's reach the live points mostly form one mixed region (eyes
//! share groups with the contested points), so the shortcut pays in the last moves of the
//! game and at the ends of search lines, not by splitting the fight.
//!
//! # Cost and reach
//!
//! A node costs the legal sets after each candidate (from [`Position::move_effects`]), one copy
//! and `play` per child searched, the region scan and a table probe. The table is 16 MiB, so
//! its probes miss the cache: probing all candidates' children before scoring any lets the
//! misses overlap. Time a node and reach (the empty points proven within a budget,
//! `cargo run --release --example solver_reach`): `docs/performance-log.md#search-nogo-bench-by-build`
//! (fewer legal sets in the endgame) and `docs/engine.md#reach`.
//!
//! # Transposition table
//!
//! Fixed size, buckets of two entries; a new result takes the entry of its own key, else the
//! one that cost fewer nodes to prove. Beside it a byte per entry holds a tag of the entry's
//! key (0 when empty): most probes are of positions never proven, and a probe whose tags do
//! not match reads only the tags (1 MiB, mostly cached, where a read of the table costs about
//! a tenth of a microsecond) instead of the table. Entries hold the full 64-bit key, not the
//! stones: a wrong hit needs two positions of one search with equal 64-bit Zobrist keys, a
//! risk of about `probes / 2^64` (under `1e-10` for a billion probes), accepted. The tree
//! search reads it too ([`Solver::known`]): after an attempt that ran out of budget, the
//! positions it proved still score the tree's nodes.

use crate::rules::point::{MAX_MOVES, MAX_POSITIONS};
use crate::rules::tactics::decisive_move;
use crate::rules::{Bitboard, Color, Point, Position};
use crate::search::engine::{Budget, Proof, Report};
use crate::search::params::Params;
use crate::search::time::CLOCK_INTERVAL;
use std::collections::HashMap;
use std::time::Instant;

/// What the solver proved about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The side to move wins with best play.
    pub win: bool,
    /// When `win`, a winning move; when lost, the legal move that leaves the opponent fewest
    /// legal points (a loss is a loss, but this makes the opponent work). `None` only when
    /// the side to move has no legal move.
    pub best: Option<Point>,
    /// Nodes searched for this answer.
    pub nodes: u64,
}

/// Transposition table size of the search's solver: 2^20 entries of 16 bytes (16 MiB) and their tags
/// (1 MiB).
pub const DEFAULT_TABLE_BITS: u32 = 20;

/// A proven position: its key, the nodes its proof cost, and for a win the winning move.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    work: u32,
    best: u8,
    /// For the side to move; `Unknown` marks an empty slot.
    proof: Proof,
}

/// A key's tag in [`Solver::tags`]: its top byte, never 0.
#[inline]
fn tag(key: u64) -> u8 {
    ((key >> 56) as u8).max(1)
}

/// Proves positions with one reusable transposition table.
pub struct Solver {
    table: Vec<Entry>,
    /// [`tag`] of each entry's key, 0 for an empty entry.
    tags: Vec<u8>,
    /// Index mask selecting a bucket's first entry (always even).
    mask: usize,
    killers: [u8; MAX_POSITIONS],
    /// Per ply, the moves of the node being expanded with their scores: kept here so that a
    /// node does not initialise an array of 81 on the stack.
    orders: Box<[[(i32, Point); MAX_MOVES]]>,
    nodes: u64,
    budget: Budget,
    aborted: bool,
}

/// Solves `position` with a fresh table of [`DEFAULT_TABLE_BITS`]; `None` when the budget
/// runs out first. The tests' reference answer.
#[cfg(test)]
pub(crate) fn solve(position: &Position, budget: &Budget) -> Option<Solution> {
    Solver::new(DEFAULT_TABLE_BITS).solve(position, budget)
}

/// The answer when no tree search is needed, as both searches start a turn: a decisive move
/// at once, else, once at most [`Params::endgame_points`] points are playable, a win the solver
/// proves ([`Solver::try_win`], the solver made in `solver` on first use: a position with more
/// points never pays for its table); `None` to search.
pub fn answer_without_tree(
    position: &Position,
    budget: &Budget,
    started: Instant,
    solver: &mut Option<Solver>,
    params: &Params,
) -> Option<Report> {
    if let Some(win) = decisive_move(position) {
        return Some(Report::decisive(win, started));
    }
    if position.live_points() > params.endgame_points {
        return None;
    }
    Solver::made_once(solver).try_win(position, budget, started, params)
}

impl Solver {
    /// The solver in `slot`, made with [`DEFAULT_TABLE_BITS`] on first use (its table is large)
    /// and kept there, so a search keeps its table between turns.
    pub fn made_once(slot: &mut Option<Solver>) -> &mut Solver {
        slot.get_or_insert_with(|| Solver::new(DEFAULT_TABLE_BITS))
    }

    /// Tries to prove a win for the side to move of `position` on [`Params::endgame_share`] of
    /// `budget` (whose clock started at `started`); the report of the winning move, or `None`
    /// to search with the tree instead.
    pub fn try_win(
        &mut self,
        position: &Position,
        budget: &Budget,
        started: Instant,
        params: &Params,
    ) -> Option<Report> {
        let share = params.endgame_share;
        let solver_budget = Budget {
            deadline: budget.deadline.map(|d| started + d.saturating_duration_since(started).mul_f32(share)),
            nodes: budget.nodes.map(|n| (n as f32 * share) as u64),
            stop: budget.stop,
        };
        match self.solve(position, &solver_budget)? {
            Solution { win: true, best: Some(best), nodes } => Some(Report {
                best,
                iterations: nodes,
                elapsed: started.elapsed(),
                win_rate: 1.0,
                pv: vec![best],
                proof: Proof::Win,
            }),
            _ => None,
        }
    }

    /// The bytes of a table of `2^bits` entries with their tags.
    pub const fn table_bytes(bits: u32) -> usize {
        (std::mem::size_of::<Entry>() + 1) << bits
    }

    /// A solver with a table of `2^bits` entries (17 bytes each with its tag); `bits >= 1`.
    pub fn new(bits: u32) -> Solver {
        let size = 1usize << bits.max(1);
        Solver {
            table: vec![Entry::default(); size],
            tags: vec![0; size],
            mask: (size - 1) & !1,
            killers: [u8::MAX; MAX_POSITIONS],
            orders: vec![[(0, Point::from_index_unchecked(0)); MAX_MOVES]; MAX_POSITIONS].into_boxed_slice(),
            nodes: 0,
            budget: Budget::default(),
            aborted: false,
        }
    }

    /// Proves whether the side to move of `position` wins; `None` when the budget runs out
    /// first. Results proven earlier stay in the table and speed up later calls.
    pub fn solve(&mut self, position: &Position, budget: &Budget) -> Option<Solution> {
        let (win, best) = self.search_root(position, budget)?;
        let best = if win { Point::from_index(best) } else { resisting_move(position) };
        Some(Solution { win, best, nodes: self.nodes })
    }

    /// Whether the side to move of `position` wins, as [`Solver::solve`] without the move to
    /// play: the tree search proves its small endgames with it.
    pub fn wins(&mut self, position: &Position, budget: &Budget) -> Option<bool> {
        self.search_root(position, budget).map(|(win, _)| win)
    }

    /// [`Solver::search`] from the root of a new call, within `budget`.
    fn search_root(&mut self, position: &Position, budget: &Budget) -> Option<(bool, u8)> {
        self.nodes = 0;
        self.budget = *budget;
        self.aborted = false;
        self.search(position, 0)
    }

    /// The proof, for the player who moved into `position`, that [`Solver::wins`] finds within
    /// `nodes` nodes: how the tree searches prove their small endgames.
    pub fn mover_proof(&mut self, position: &Position, nodes: u32) -> Option<Proof> {
        let win = self.wins(position, &Budget::nodes(nodes as u64))?;
        Some(Proof::proven(!win))
    }

    /// Nodes searched by the last call to [`Solver::solve`] or [`Solver::wins`].
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the side to move of the position whose [`Position::hash`] is `key` wins, when
    /// the table holds its proof.
    pub fn known(&self, key: u64) -> Proof {
        self.probe(key).map_or(Proof::Unknown, |entry| entry.proof)
    }

    /// Whether the side to move wins, with a winning move's index when it does (`u8::MAX`
    /// otherwise); `None` when the budget ran out.
    fn search(&mut self, position: &Position, ply: usize) -> Option<(bool, u8)> {
        self.tick()?;
        let key = position.hash();
        if let Some(entry) = self.probe(key) {
            return Some((entry.proof == Proof::Win, entry.best));
        }
        let started = self.nodes;
        let result = self.expand(position, ply)?;
        self.store(key, result, self.nodes - started);
        Some(result)
    }

    /// [`Solver::search`] below the table lookup.
    fn expand(&mut self, position: &Position, ply: usize) -> Option<(bool, u8)> {
        const LOSS: Option<(bool, u8)> = Some((false, u8::MAX));
        let me = position.to_move();
        let legal = position.legal_both();
        let (own, theirs) = (legal[me.index()], legal[(!me).index()]);
        if own.is_empty() {
            return LOSS;
        }
        // Each probe of a child is likely a cache miss: the tags and the bucket of all the
        // moves' children are prefetched before the regions are found and the moves scored, so
        // the misses overlap with that work and each other instead of stalling one after
        // another (the bucket is read by a matching tag and when the child's result is stored).
        for p in own {
            let key = position.hash_after(p);
            self.prefetch(key);
            self.prefetch_bucket(key);
        }
        // This node's own bucket, read when its result is stored.
        self.prefetch_bucket(position.hash());
        let regions = self.regions(position, legal)?;
        let (piles, their_piles) = (regions.piles[me.index()], regions.piles[(!me).index()]);
        let pile_move = regions.pile_move[me.index()];
        let win_by_piles = || Some((true, pile_move.map_or(u8::MAX, |p| p.index() as u8)));
        if regions.mixed.is_empty() {
            return if piles > their_piles { win_by_piles() } else { LOSS };
        }
        if piles + (own & regions.mixed).count() <= their_piles {
            return LOSS;
        }
        if piles > their_piles + (theirs & regions.mixed).count() {
            return win_by_piles();
        }

        let mut candidates = own & regions.mixed;
        if let Some(p) = pile_move {
            candidates |= Bitboard::from(p);
        }
        let mut len = 0;
        let killer = self.killers[ply];
        let effects = position.move_effects();
        for p in candidates {
            let after = effects.legal_both_after(p);
            let proven_lost = || self.probe(position.hash_after(p)).is_some_and(|e| e.proof == Proof::Loss);
            if after[(!me).index()].is_empty() || proven_lost() {
                self.killers[ply] = p.index() as u8;
                return Some((true, p.index() as u8));
            }
            let score = if p.index() as u8 == killer { i32::MIN } else { mobility_score(after, me) };
            self.orders[ply][len] = (score, p);
            len += 1;
        }
        self.orders[ply][..len].sort_unstable_by_key(|&(score, _)| score);
        for i in 0..len {
            let p = self.orders[ply][i].1;
            let mut child = position.clone();
            child.play_unchecked(p);
            let (child_wins, _) = self.search(&child, ply + 1)?;
            if !child_wins {
                self.killers[ply] = p.index() as u8;
                return Some((true, p.index() as u8));
            }
        }
        LOSS
    }

    /// Counts a node; `None` once the budget has run out.
    fn tick(&mut self) -> Option<()> {
        self.nodes += 1;
        if self.budget.nodes.is_some_and(|n| self.nodes > n)
            || (self.nodes.is_multiple_of(CLOCK_INTERVAL) && self.budget.expired())
        {
            self.aborted = true;
        }
        (!self.aborted).then_some(())
    }

    /// Starts loading the tags of `key`'s bucket into the cache, for a [`Solver::probe`] soon
    /// after.
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        prefetch(self.tags.as_ptr().wrapping_add(key as usize & self.mask));
    }

    /// Starts loading the bucket of `key` itself, read by a matching tag and by a store.
    #[inline]
    fn prefetch_bucket(&self, key: u64) {
        prefetch(self.table.as_ptr().wrapping_add(key as usize & self.mask));
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let i = key as usize & self.mask;
        let tag = tag(key);
        (i..i + 2)
            .filter(|&j| self.tags[j] == tag)
            .map(|j| self.table[j])
            .find(|e| e.proof.is_known() && e.key == key)
    }

    fn store(&mut self, key: u64, (win, best): (bool, u8), work: u64) {
        let i = key as usize & self.mask;
        let bucket = &mut self.table[i..i + 2];
        let slot = bucket
            .iter()
            .position(|e| e.proof.is_known() && e.key == key)
            .unwrap_or(if bucket[0].work <= bucket[1].work { 0 } else { 1 });
        bucket[slot] = Entry { key, work: work.min(u32::MAX as u64) as u32, best, proof: Proof::proven(win) };
        self.tags[i + slot] = tag(key);
    }
}

/// Starts loading the cache line of `address` (a hint: it has no other effect).
#[inline]
fn prefetch<T>(address: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and cannot fault, whatever the address.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(address.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

/// The legal move leaving the opponent fewest legal points and us most, if any.
fn resisting_move(position: &Position) -> Option<Point> {
    let me = position.to_move();
    let effects = position.move_effects();
    position.legal_moves().iter().min_by_key(|&p| mobility_score(effects.legal_both_after(p), me))
}

/// How good the legal sets `after` a move of `me` are for `me`, lower better: the opponent's
/// legal points count double, as denying them is what wins.
fn mobility_score(after: [Bitboard; 2], me: Color) -> i32 {
    2 * after[(!me).index()].count() as i32 - after[me.index()].count() as i32
}

/// The independent regions of a position (see the module documentation).
struct Regions {
    /// Live points of regions where both colours have legal points.
    mixed: Bitboard,
    /// Per colour, the moves in its one-sided regions.
    piles: [u32; 2],
    /// Per colour, the first move of a best line in one of its one-sided regions.
    pile_move: [Option<Point>; 2],
}

/// The region of `seed`: live points reached through adjacency and shared groups.
fn region_of(position: &Position, seed: Point, live: Bitboard) -> Bitboard {
    let occupied = !position.empty();
    let mut region = Bitboard::from(seed);
    let mut groups_seen = Bitboard::EMPTY;
    loop {
        let near = region.neighbors();
        let mut grown = region | (near & live);
        for stone in near & (occupied - groups_seen) {
            if groups_seen.has(stone) {
                continue;
            }
            if let Some((stones, liberties)) = position.group_at(stone) {
                groups_seen |= stones;
                grown |= liberties & live;
            }
        }
        if grown == region {
            return region;
        }
        region = grown;
    }
}

impl Solver {
    /// The regions of `position`, whose legal sets are `legal`; `None` when the budget ran out
    /// while counting a pile.
    fn regions(&mut self, position: &Position, legal: [Bitboard; 2]) -> Option<Regions> {
        let live = legal[0] | legal[1];
        let mut regions = Regions { mixed: Bitboard::EMPTY, piles: [0; 2], pile_move: [None; 2] };
        let mut rest = live;
        while let Some(seed) = rest.first() {
            let region = region_of(position, seed, live);
            rest -= region;
            let owner = match ((region & legal[0]).is_empty(), (region & legal[1]).is_empty()) {
                (false, true) => Color::Black,
                (true, false) => Color::White,
                _ => {
                    regions.mixed |= region;
                    continue;
                }
            };
            let (moves, first) = self.most_moves(position, owner, region)?;
            regions.piles[owner.index()] += moves;
            regions.pile_move[owner.index()].get_or_insert(first);
        }
        Some(regions)
    }

    /// The most moves `owner` can make in `region`, where only `owner` has legal points, and the
    /// first move of a line making them. Each position of that search counts as a node.
    fn most_moves(&mut self, position: &Position, owner: Color, region: Bitboard) -> Option<(u32, Point)> {
        let playable = position.legal(owner) & region;
        let first = playable.first().expect("a one-sided region holds a legal point of its owner");
        if playable.count() == 1 {
            return Some((1, first));
        }
        let start = with_to_move(position, owner);
        let (moves, best) = self.most_moves_from(&start, region, &mut HashMap::new())?;
        Some((moves, best.unwrap_or(first)))
    }

    /// [`Solver::most_moves`] from a position with the owner to move, memoised on the owner's
    /// stones.
    fn most_moves_from(
        &mut self,
        position: &Position,
        region: Bitboard,
        memo: &mut HashMap<u128, u32>,
    ) -> Option<(u32, Option<Point>)> {
        let owner = position.to_move();
        let key = (position.stones(owner) & region).0;
        if let Some(&moves) = memo.get(&key) {
            return Some((moves, None));
        }
        self.tick()?;
        let playable = position.legal(owner) & region;
        let bound = playable.count().min(fill_bound(position, region));
        let mut best = (0, None);
        for p in playable {
            let mut next = position.clone();
            next.play_unchecked(p);
            next.pass();
            let (after, _) = self.most_moves_from(&next, region, memo)?;
            if after + 1 > best.0 {
                best = (after + 1, Some(p));
                if best.0 == bound {
                    break;
                }
            }
        }
        memo.insert(key, best.0);
        Some(best)
    }
}

/// An upper bound on the stones the side to move can add to `region`: one less than its
/// empty points when filling them all would leave a group without a liberty, that is when no
/// empty point outside the region touches them and no group of the side to move touching them
/// has a liberty outside the region (the last stone's group would then have none). For a
/// group with many eyes this lets the first full line end the count.
fn fill_bound(position: &Position, region: Bitboard) -> u32 {
    let empty = position.empty();
    let rest = region & empty;
    let mut enclosed = (rest.neighbors() & empty).is_subset(rest);
    let mut seen = Bitboard::EMPTY;
    for stone in rest.neighbors() & position.stones(position.to_move()) {
        if enclosed && !seen.has(stone) {
            let (stones, liberties) = position.group_at(stone).expect("a stone");
            seen |= stones;
            enclosed = liberties.is_subset(rest);
        }
    }
    rest.count() - u32::from(enclosed && !rest.is_empty())
}

/// The same stones with `colour` to move.
fn with_to_move(position: &Position, colour: Color) -> Position {
    let mut turned = position.clone();
    if turned.to_move() != colour {
        turned.pass();
    }
    turned
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain minimax from the definition: the side to move wins when some legal move leaves
    /// the opponent in a lost position (no table, no ordering, no regions).
    fn brute_force_wins(position: &Position) -> bool {
        position.legal_moves().iter().any(|p| {
            let mut child = position.clone();
            child.play_unchecked(p);
            !brute_force_wins(&child)
        })
    }

    /// Positions from seeded random games, taken once at most `live` points are legal for
    /// either side.
    fn endgames(games: u64, live: u32) -> Vec<Position> {
        let mut found = Vec::new();
        for seed in 0..games {
            let mut rng = fastrand::Rng::with_seed(seed);
            let mut position = Position::new();
            while !position.is_terminal() {
                let legal = position.legal_both();
                if (legal[0] | legal[1]).count() <= live {
                    found.push(position.clone());
                }
                let own = position.legal_moves();
                position.play_unchecked(own.choose(&mut rng).unwrap());
            }
        }
        found
    }

    #[test]
    fn verdicts_and_winning_moves_match_brute_force() {
        let positions = endgames(150, 13);
        assert!(positions.len() > 500, "only {} positions", positions.len());
        let (mut wins, mut losses) = (0, 0);
        for position in &positions {
            let solution = solve(position, &Budget::default()).expect("no budget limit");
            let expected = brute_force_wins(position);
            assert_eq!(solution.win, expected, "verdict differs on\n{position}");
            let verdict = Solver::new(10).wins(position, &Budget::default());
            assert_eq!(verdict, Some(expected), "wins differs on\n{position}");
            if solution.win {
                wins += 1;
                let mut child = position.clone();
                child.play(solution.best.expect("a winning move")).expect("the winning move is legal");
                assert!(!brute_force_wins(&child), "{:?} does not win\n{position}", solution.best);
            } else {
                losses += 1;
                match solution.best {
                    Some(p) => assert!(position.legal_moves().has(p)),
                    None => assert!(position.is_terminal()),
                }
            }
        }
        assert!(wins > 50 && losses > 50, "{wins} wins, {losses} losses: too one-sided a sample");
    }

    #[test]
    fn one_table_across_many_positions_gives_the_same_verdicts() {
        let mut solver = Solver::new(12);
        for position in endgames(40, 12) {
            let fresh = solve(&position, &Budget::default()).unwrap();
            let reused = solver.solve(&position, &Budget::default()).unwrap();
            assert_eq!(fresh.win, reused.win, "{position}");
        }
    }

    #[test]
    fn piles_count_the_moves_an_owner_can_make_alone() {
        // Single-player brute force: the most moves `owner` makes in `region` alone.
        fn alone(position: &Position, owner: Color, region: Bitboard) -> u32 {
            let start = with_to_move(position, owner);
            (start.legal(owner) & region)
                .iter()
                .map(|p| {
                    let mut next = start.clone();
                    next.play_unchecked(p);
                    1 + alone(&next, owner, region)
                })
                .max()
                .unwrap_or(0)
        }
        let (mut checked, mut tight) = (0, 0);
        for position in endgames(60, 20) {
            let legal = position.legal_both();
            let live = legal[0] | legal[1];
            let mut rest = live;
            while let Some(seed) = rest.first() {
                let region = region_of(&position, seed, live);
                rest -= region;
                for owner in [Color::Black, Color::White] {
                    if (region & legal[(!owner).index()]).is_empty() {
                        let (moves, first) =
                            Solver::new(4).most_moves(&position, owner, region).expect("no budget limit");
                        assert_eq!(moves, alone(&position, owner, region), "{position}\n{region}");
                        let start = with_to_move(&position, owner);
                        let bound = fill_bound(&start, region);
                        assert!(moves <= bound, "bound {bound} below {moves}\n{position}\n{region}");
                        tight += u32::from(bound < region.count() && moves == bound);
                        let mut next = with_to_move(&position, owner);
                        next.play(first).unwrap();
                        assert_eq!(alone(&next, owner, region), moves - 1, "{first} is not on a best line");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100, "only {checked} one-sided regions");
        assert!(tight > 10, "the fill bound decided only {tight} counts");
    }

    #[test]
    fn regions_are_closed_under_moves() {
        // A move in one region leaves every other region's legal points unchanged.
        for position in endgames(30, 25).into_iter().step_by(3) {
            let legal = position.legal_both();
            let live = legal[0] | legal[1];
            for p in position.legal_moves() {
                let region = region_of(&position, p, live);
                let mut child = position.clone();
                child.play_unchecked(p);
                let after = child.legal_both();
                for c in 0..2 {
                    assert_eq!(
                        after[c] - region,
                        legal[c] - region,
                        "{p} reached outside its region\n{position}"
                    );
                }
            }
        }
    }

    #[test]
    fn node_budget_is_respected() {
        let hard = endgames(20, 30)
            .into_iter()
            .find(|p| solve(p, &Budget::nodes(50)).is_none())
            .expect("some position needs more than 50 nodes");
        assert!(solve(&hard, &Budget::nodes(50)).is_none());
        let mut solver = Solver::new(16);
        assert!(solver.solve(&hard, &Budget::nodes(50)).is_none());
        assert!(solver.nodes <= 51, "searched {} nodes on a budget of 50", solver.nodes);
    }

    /// White to move owns every empty point of a checkerboard of white stones: one pile of 41
    /// points, all but one of which white can fill.
    fn checkerboard() -> Position {
        let white = crate::rules::test_support::white_checkerboard();
        Position::from_stones(Bitboard::EMPTY, white, Color::White).unwrap()
    }

    #[test]
    fn a_big_pile_is_counted_by_its_first_full_line() {
        let position = checkerboard();
        let region = position.empty();
        assert_eq!(fill_bound(&position, region), 40);
        let mut solver = Solver::new(4);
        let (moves, _) = solver.most_moves(&position, Color::White, region).unwrap();
        assert_eq!(moves, 40);
        assert!(solver.nodes <= 41, "{} nodes", solver.nodes);
        solver.budget = Budget::default();
        let regions = solver.regions(&position, position.legal_both()).expect("no limit");
        assert_eq!(regions.piles, [0, 40], "only White has moves of its own: its 40 eyes");
        let solution = solve(&position, &Budget::nodes(100)).expect("proven by the count");
        assert!(solution.win);
    }

    #[test]
    fn counting_a_pile_respects_the_budget() {
        let position = checkerboard();
        let mut solver = Solver::new(4);
        solver.budget = Budget::nodes(10);
        assert!(solver.most_moves(&position, Color::White, position.empty()).is_none());
        assert_eq!(solver.nodes, 11);
    }

    #[test]
    fn a_terminal_position_is_lost_without_a_move() {
        let mut position = endgames(1, 81).pop().unwrap();
        let last = position.legal_moves().iter().find(|&p| {
            let mut child = position.clone();
            child.play_unchecked(p);
            child.is_terminal()
        });
        position.play(last.expect("the game's last move ends it")).unwrap();
        assert!(position.is_terminal());
        let solution = solve(&position, &Budget::nodes(1)).unwrap();
        assert_eq!(solution, Solution { win: false, best: None, nodes: 1 });
    }

    #[test]
    fn the_solver_and_its_table_are_made_only_for_a_position_it_may_solve() {
        let params = Params::default();
        let budget = Budget::nodes(100_000);
        let mut solver = None;
        let opening = Position::new();
        assert!(answer_without_tree(&opening, &budget, Instant::now(), &mut solver, &params).is_none());
        assert!(solver.is_none(), "the empty board has more than endgame_points points");
        let endgame = endgames(20, params.endgame_points).into_iter().find(|p| !p.is_terminal()).unwrap();
        answer_without_tree(&endgame, &budget, Instant::now(), &mut solver, &params);
        assert!(solver.is_some(), "an endgame of at most endgame_points points is tried");
    }
}
