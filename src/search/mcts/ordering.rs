//! The order a node's children are tried in: best first by the mobility each move leaves,
//! ties broken by nearness to the last move, by how the point has done elsewhere in the tree
//! (the history), then contested points first.

use crate::rules::point::{INDEX_COUNT, MAX_MOVES};
use crate::rules::{Bitboard, Point, Position};
use crate::search::eval;

/// The order children are tried in: the first `count` legal moves of the side to move (as
/// bitboard indices) not in `skip`, best first by the mobility each leaves it. Ties go first
/// to points in `near_last`, the points near the last move
/// ([`Params::last_move_radius`](crate::search::Params::last_move_radius)), then to the points
/// that have done best for the side to move elsewhere in the tree (`history`), then to points
/// both sides may play before points only the side to move may play (taking a contested point
/// denies it to the opponent; a point only we may play stays ours for later), then board order.
/// The ranking pays only with progressive widening; evidence: `docs/strength-log.md#widening`
/// and the child-order rows of `docs/strength-log.md#changes-tried`.
/// Quiet moves (most of them) are scored together by [`MoveEffects::lead_gains`] and keyed
/// only as far as the first `count` need, so few moves are scored one by one (speed:
/// `docs/performance-log.md#search-nogo-bench-by-build`).
///
/// [`MoveEffects::lead_gains`]: crate::rules::MoveEffects::lead_gains
pub(super) fn ranked_moves(
    position: &Position,
    count: usize,
    near_last: Bitboard,
    history: &[PointStats; INDEX_COUNT],
    skip: Bitboard,
    sets_after_first: bool,
) -> Ranking {
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
    // Quiet moves are scored all at once (the mobility is the lead in legal points: points
    // both sides may play cancel), and keyed best class first only until `count` are keyed: a
    // quiet move of a worse class ranks below all of those, so is not needed. Within a class
    // the points near the last move and the contested ones are split off as sets, not tested
    // one by one.
    let quiet = effects.quiet() & candidates;
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
            // A part whose lowest possible key (history rank 0, index 0) would be turned away is
            // skipped whole: on an open board a class holds dozens of points, and the few near
            // the last move fill the slots.
            let lowest = key | ((!is_near as i32) << 16) | ((!is_contested as i32) << 7);
            if best.turns_away(lowest) {
                continue;
            }
            for p in part {
                best.offer(key | ties(p, is_near, is_contested));
            }
        }
    }
    // The other moves one by one, after the quiet ones: most are then turned away by one
    // comparison (`docs/performance-log.md`, the quiet moves keyed first).
    for p in candidates - quiet {
        let legal = effects.legal_both_after(p);
        let mobility = eval::mobility(legal[to_move.index()], legal[1 - to_move.index()]);
        best.offer(mobility_key(mobility) | ties(p, near_last.has(p), contested.has(p)));
    }
    let mut moves = [0u8; MAX_MOVES];
    for (m, k) in moves.iter_mut().zip(best.sorted()) {
        *m = (k & 0x7f) as u8;
    }
    let first = Point::from_index(moves[0]).filter(|_| sets_after_first && !best.sorted().is_empty());
    Ranking { moves, after_first: first.map(|p| effects.legal_both_after(p)) }
}

/// The moves [`ranked_moves`] ranks (bitboard indices, best first), and both colours' legal
/// sets after the first, `[black, white]`, when asked for and there is one: the child it makes
/// is scored at once, from them.
pub(super) struct Ranking {
    pub(super) moves: [u8; MAX_MOVES],
    pub(super) after_first: Option<[Bitboard; 2]>,
}

/// The `count` lowest of the distinct keys offered, kept sorted: a few slots for a new
/// children block, so most keys are turned away by one comparison with the worst kept instead
/// of all being kept and partitioned (measured: `docs/strength-log.md`, "a small sorted buffer").
struct BestKeys {
    keys: [i32; MAX_MOVES],
    len: usize,
    count: usize,
}

impl BestKeys {
    fn new(count: usize) -> BestKeys {
        BestKeys { keys: [0; MAX_MOVES], len: 0, count: count.min(MAX_MOVES) }
    }

    /// Whether `key` would be turned away: the slots are full of lower keys.
    #[inline]
    fn turns_away(&self, key: i32) -> bool {
        self.len == self.count && (self.count == 0 || key >= self.keys[self.len - 1])
    }

    #[inline]
    fn offer(&mut self, key: i32) {
        if self.turns_away(key) {
            return;
        }
        if self.len == self.count {
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
pub(super) struct PointStats {
    pub(super) sum: f32,
    pub(super) count: f32,
    /// [`PointStats::rank`], kept up to date by [`PointStats::record`]: a path records a
    /// handful of values, a ranking reads the rank of each move it keys.
    rank: u8,
}

impl PointStats {
    const FRESH: PointStats = PointStats { sum: 0.0, count: 0.0, rank: 128 };

    /// Adds a value backed up through the point.
    #[inline]
    pub(super) fn record(&mut self, value: f32) {
        self.sum += value;
        self.count += 1.0;
        self.rank = 255 - (255.0 * self.sum / self.count) as u8;
    }

    /// The point's place among ties of the ranking, from 0 (always won) to 255 (always lost);
    /// 128 when not played yet.
    #[inline]
    pub(super) fn rank(self) -> u8 {
        self.rank
    }
}

/// No point played yet, for either colour.
pub(super) const FRESH_HISTORY: [[PointStats; INDEX_COUNT]; 2] = [[PointStats::FRESH; INDEX_COUNT]; 2];

#[cfg(test)]
mod tests {
    use super::*;

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
                        &ranked_moves(&position, count, near, &history, skip, false).moves[..count],
                        &expected[..count],
                        "first {count} after {moves:?}"
                    );
                }
                let mv = position.legal_moves().choose(&mut rng).unwrap();
                position.play(mv).unwrap();
                moves.push(mv.to_string());
            }
        }
    }
}
