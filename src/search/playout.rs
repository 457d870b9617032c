//! Random playouts to the end of the game under a NoGo-aware policy: the side to move plays a
//! point both sides could play while there is one, chosen uniformly; only then one of its
//! reserves (a point only it may play). Taking a contested point denies it to the opponent,
//! while a reserve stays available, and the side that runs out of moves first loses, so a
//! playout's result counts who has reserves left. A drawn point that has since become the side
//! to move's alone is played at once ([`OwnPoint::Play`], HaHaNoGo's policy) or kept as its
//! reserve ([`OwnPoint::Keep`]). With eyes, in a search short of time ([`spoils_eyes`]), the side
//! to move first spoils an eye that the last move threatens to finish next to it
//! ([`Stones::eye_points_after`]).
//!
//! The legal sets at the start come in closed form from [`Position::legal_both`]; the moves
//! are tested and played on the bare [`Stones`] (their speed: `docs/performance.md`).

use crate::rules::point::MAX_MOVES;
use crate::rules::stones::Stones;
use crate::rules::{Bitboard, Color, Point, Position};
use crate::search::params::Params;
use crate::search::time::is_shorter;
use std::time::Duration;

/// The end of a playout: who won, and each colour's stones on the final board (every point a
/// colour played, since NoGo removes no stones: the all-moves-as-first statistics read them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The side that still had a move when the other had none.
    pub winner: Color,
    /// The final stones, `[black, white]`.
    pub stones: [Bitboard; 2],
    /// Those played as reserves, once nothing was contested.
    pub reserves: [Bitboard; 2],
}

/// What a playout does with a drawn point, contested when the playout began, that only the
/// side to move may still play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OwnPoint {
    /// Plays it, as any point it may play (HaHaNoGo's policy; [`Params::playout_take_own`] 1).
    ///
    /// [`Params::playout_take_own`]: crate::search::params::Params::playout_take_own
    Play,
    /// Keeps it as a reserve, for once nothing is contested.
    Keep,
}

impl OwnPoint {
    /// The choice [`Params::playout_take_own`] makes.
    pub fn of(params: &Params) -> OwnPoint {
        if params.playout_take_own == 1 {
            OwnPoint::Play
        } else {
            OwnPoint::Keep
        }
    }
}

/// Whether the playouts of a search with `time` to run (`None`: no clock) spoil eyes: when it
/// has less than [`Params::playout_eyes_ms`], as they win at short times only (evidence:
/// docs/strength-log.md#playout_eyes_ms).
pub fn spoils_eyes(params: &Params, time: Option<Duration>) -> bool {
    is_shorter(time, params.playout_eyes_ms)
}

/// Plays `position` out to the end by the policy above and returns the outcome.
///
/// A point that a colour may not play never becomes playable for it again (stones are never
/// removed: empty neighbours and liberties only go), so the contested points (a list) and each
/// colour's legal points (a set) are computed once and only shrink. A move is drawn from them
/// and tested alone; a point that fails leaves for good, the list and the set of the colour it
/// failed for, so no reserve is drawn that is known to fail. Drawing until a point passes is
/// uniform among the points that pass, as drawing from the exact set would be, at the cost of
/// a few point tests instead of the whole board's legal sets each move. As a drawn point
/// leaves its list whether it passes or not, the contested points are drawn as a random
/// permutation made in advance, off the tests' path. The moves are played on the bare
/// [`Stones`], where a point test mostly reads the rows around the point, and a move is one
/// bit.
///
/// ```
/// use nogo::search::playout::{playout, OwnPoint};
/// use nogo::Position;
/// let outcome = playout(&Position::new(), &mut fastrand::Rng::with_seed(1), OwnPoint::Play, false);
/// let [black, white] = outcome.stones;
/// let end = Position::from_stones(black, white, !outcome.winner).unwrap();
/// assert!(end.is_terminal());
/// ```
#[inline]
pub fn playout(position: &Position, rng: &mut fastrand::Rng, own: OwnPoint, eyes: bool) -> Outcome {
    Start::of(position).play_out(rng, own, eyes)
}

/// What a playout reads of its position: the stones, each colour's legal points and the side
/// to move.
#[derive(Clone, Copy, Debug)]
pub struct Start {
    board: Stones,
    legal: [Bitboard; 2],
    side: Color,
}

impl Start {
    /// The start of a playout from `position`.
    #[inline]
    pub fn of(position: &Position) -> Start {
        Start { board: Stones::of(position), legal: position.legal_both(), side: position.to_move() }
    }

    /// [`playout`] from this start.
    #[inline]
    pub fn play_out(self, rng: &mut fastrand::Rng, own: OwnPoint, eyes: bool) -> Outcome {
        if eyes {
            play_out::<true>(self, rng, own, |_| {})
        } else {
            play_out::<false>(self, rng, own, |_| {})
        }
    }
}

/// [`playout`], calling `on_move` with each move before it is played (the tests follow it).
#[inline(always)]
fn play_out<const EYES: bool>(
    start: Start,
    rng: &mut fastrand::Rng,
    own: OwnPoint,
    mut on_move: impl FnMut(Point),
) -> Outcome {
    let Start { mut board, mut legal, mut side } = start;
    // The contested points in a list, in the order they are drawn: every drawn point leaves
    // the list whether it is played or not, so the draws do not depend on the tests, and
    // drawing them first keeps the random numbers off the tests' path. Shuffled as listed
    // (inside-out Fisher-Yates): each point takes a random place among the first `count + 1`,
    // and the point that was there moves to the end.
    let mut contested = [0u8; MAX_MOVES];
    let mut count = 0;
    (legal[0] & legal[1]).iter().for_each(|p| {
        let i = rng.usize(..=count);
        contested[count] = contested[i];
        contested[i] = p.index() as u8;
        count += 1;
    });
    // The legal sets lose the points played only once nothing is contested; a point that fails
    // for a side leaves its set at once. The list is read from its end, as the shuffle that
    // filled it from its end was: any fixed order of a random permutation is as random, and
    // this one keeps the playouts (and the bench signature) of that version.
    // With `EYES`, the points where the last move threatens to finish an eye next to it: the
    // side to move spoils the threat first (finishing its own instead lost: evidence in
    // docs/strength-log.md#playout_eyes_ms).
    let mut threats = Bitboard::EMPTY;
    let mut next = count;
    while next > 0 {
        let threat = if EYES { (threats & legal[0] & legal[1]).iter().next() } else { None };
        let p = match threat {
            Some(p) => p,
            None => {
                next -= 1;
                let p = Point::from_index_unchecked(contested[next]);
                // Played already to spoil a threat.
                if EYES && board.is_occupied(p) {
                    continue;
                }
                p
            }
        };
        if !board.is_legal_empty(side, p) {
            // Illegal for the side now, so for good: not to be drawn again as a reserve.
            legal[side.index()] -= Bitboard::from(p);
        } else if own == OwnPoint::Keep && !board.is_legal_empty(!side, p) {
            legal[1 - side.index()] -= Bitboard::from(p);
        } else {
            on_move(p);
            board.place(side, p);
            if EYES {
                threats = board.eye_points_after(side, p);
            }
            side = !side;
        }
    }
    // Nothing contested is left: the side to move plays one of its reserves while it has one.
    // No point is left that both sides may play (each contested point was played or failed for
    // a side), so each side's reserves change only by its own draws.
    let [black, white] = board.both();
    let empty = !(black | white);
    debug_assert!((legal[0] & legal[1] & empty).is_empty());
    let mut lists = [[0u8; MAX_MOVES]; 2];
    let mut left = [list(legal[0] & empty, &mut lists[0]), list(legal[1] & empty, &mut lists[1])];
    let mut reserves = [Bitboard::EMPTY; 2];
    'moves: loop {
        let (list, left) = (&mut lists[side.index()], &mut left[side.index()]);
        while *left > 0 {
            let i = rng.usize(..*left);
            let p = Point::from_index_unchecked(list[i]);
            *left -= 1;
            list[i] = list[*left];
            if board.is_legal_empty(side, p) {
                reserves[side.index()] |= Bitboard::from(p);
                on_move(p);
                board.place(side, p);
                side = !side;
                continue 'moves;
            }
        }
        return Outcome { winner: !side, stones: board.both(), reserves };
    }
}

/// Writes the points of `set` into `list` in board order and returns how many.
#[inline(always)]
fn list(set: Bitboard, list: &mut [u8; MAX_MOVES]) -> usize {
    set.iter().fold(0, |count, p| {
        list[count] = p.index() as u8;
        count + 1
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eyes_are_spoiled_with_less_time_than_the_threshold_and_a_clock() {
        let params = Params::default();
        let threshold = Duration::from_millis(params.playout_eyes_ms.into());
        assert!(spoils_eyes(&params, Some(threshold - Duration::from_millis(1))));
        assert!(!spoils_eyes(&params, Some(threshold)));
        assert!(!spoils_eyes(&params, None), "no clock");
        let never = Params { playout_eyes_ms: 0, ..params };
        assert!(!spoils_eyes(&never, Some(Duration::ZERO)));
    }

    /// Positions along random games, every `step` moves.
    fn positions(seed: u64, games: usize, step: usize) -> Vec<Position> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut found = Vec::new();
        for _ in 0..games {
            let mut moves = Vec::new();
            crate::rules::random_game(&mut rng, |p| moves.push(p));
            for played in (0..moves.len()).step_by(step) {
                found.push(Position::from_moves(moves[..played].iter().copied()).expect("a legal game"));
            }
        }
        found
    }

    /// That `outcome` is the end of the game followed move by move to `end`.
    fn assert_ends_at(outcome: &Outcome, end: &Position) {
        assert!(end.is_terminal());
        assert_eq!(outcome.winner, !end.to_move());
        assert_eq!(outcome.stones, [end.stones(Color::Black), end.stones(Color::White)]);
    }

    #[test]
    fn playouts_are_legal_take_contested_points_first_and_end_lost_for_the_side_without_moves() {
        let mut rng = fastrand::Rng::with_seed(5);
        let mut moves = 0;
        let mut reserves = 0;
        for start in positions(3, 30, 7) {
            // The moves are followed on a position, whose legal sets the policy is checked by.
            let mut end = start.clone();
            let mut reserve_moves = [Bitboard::EMPTY; 2];
            let outcome = play_out::<false>(Start::of(&start), &mut rng, OwnPoint::Keep, |p| {
                let side = end.to_move().index();
                let legal = end.legal_both();
                let contested = legal[0] & legal[1];
                assert!(legal[side].has(p), "{p} is legal");
                assert!(
                    contested.is_empty() || contested.has(p),
                    "{p}: a reserve while points are contested"
                );
                moves += 1;
                reserves += contested.is_empty() as u32;
                if contested.is_empty() {
                    reserve_moves[side] |= Bitboard::from(p);
                }
                end.play_unchecked(p);
            });
            assert_ends_at(&outcome, &end);
            assert!(start.stones(Color::Black).is_subset(outcome.stones[0]));
            assert_eq!(
                outcome.reserves, reserve_moves,
                "the reserves are the moves made with nothing contested"
            );
        }
        assert!(moves > 1000 && reserves > 100, "{moves} moves, {reserves} of them reserves");
    }

    #[test]
    fn with_eyes_a_playout_spoils_the_eye_the_last_move_threatens() {
        let mut rng = fastrand::Rng::with_seed(9);
        let mut spoiled = 0;
        for start in positions(5, 30, 7) {
            let [black, white] = start.legal_both();
            let contested_at_start = black & white;
            let mut end = start.clone();
            let mut threats = Bitboard::EMPTY;
            let outcome = play_out::<true>(Start::of(&start), &mut rng, OwnPoint::Play, |p| {
                let side = end.to_move();
                let [black, white] = end.legal_both();
                assert!([black, white][side.index()].has(p), "{p} is legal");
                // A threat point both sides may still play is still in the contested list.
                if !(threats & contested_at_start & black & white).is_empty() {
                    assert!(threats.has(p), "{p} leaves the threats {threats:?} open");
                    spoiled += 1;
                }
                end.play_unchecked(p);
                threats = Stones::of(&end).eye_points_after(side, p);
            });
            assert_ends_at(&outcome, &end);
        }
        assert!(spoiled > 100, "only {spoiled} threats spoiled");
    }

    #[test]
    fn taking_own_plays_once_contested_points_the_opponent_lost_before_reserves() {
        let mut rng = fastrand::Rng::with_seed(6);
        let mut taken_own = 0;
        for start in positions(4, 30, 7) {
            let [black, white] = start.legal_both();
            let contested_at_start = black & white;
            let mut end = start.clone();
            let outcome = play_out::<false>(Start::of(&start), &mut rng, OwnPoint::Play, |p| {
                let side = end.to_move().index();
                let legal = end.legal_both();
                let contested = legal[0] & legal[1];
                assert!(legal[side].has(p), "{p} is legal");
                if !contested.is_empty() {
                    assert!(contested_at_start.has(p), "{p}: a reserve while points are contested");
                    taken_own += !legal[1 - side].has(p) as u32;
                }
                end.play_unchecked(p);
            });
            assert_ends_at(&outcome, &end);
        }
        assert!(taken_own > 50, "only {taken_own} once-contested points taken by their only player");
    }

    #[test]
    fn contested_points_are_drawn_uniformly() {
        // From the empty board every point is contested: the first move is uniform.
        let mut rng = fastrand::Rng::with_seed(8);
        let mut counts = [0u32; 128];
        let draws = 81 * 400;
        for _ in 0..draws {
            let mut first = None;
            play_out::<false>(Start::of(&Position::new()), &mut rng, OwnPoint::Keep, |p| {
                first.get_or_insert(p);
            });
            counts[first.unwrap().index()] += 1;
        }
        let counts: Vec<u32> = Bitboard::FULL.iter().map(|p| counts[p.index()]).collect();
        // 400 expected a point: every count within six standard deviations (20 each).
        assert!(counts.iter().all(|&n| (280..=520).contains(&n)), "{counts:?}");
    }

    #[test]
    fn the_side_without_a_move_loses() {
        // Every empty point is a white eye, where black may not play.
        let eyes = crate::rules::test_support::white_checkerboard();
        let mut rng = fastrand::Rng::with_seed(1);
        let black_to_move = Position::from_stones(Bitboard::EMPTY, eyes, Color::Black).unwrap();
        let outcome = playout(&black_to_move, &mut rng, OwnPoint::Keep, false);
        let nothing = [Bitboard::EMPTY; 2];
        assert_eq!(
            outcome,
            Outcome { winner: Color::White, stones: [Bitboard::EMPTY, eyes], reserves: nothing }
        );
        // White fills one of its eyes (a reserve) and black still has no move.
        let white_to_move = Position::from_stones(Bitboard::EMPTY, eyes, Color::White).unwrap();
        let outcome = playout(&white_to_move, &mut rng, OwnPoint::Keep, false);
        assert_eq!(outcome.winner, Color::White);
        assert_eq!(outcome.stones[1].count(), eyes.count() + 1);
        assert!(eyes.is_subset(outcome.stones[1]));
        assert_eq!(outcome.reserves[1], outcome.stones[1] - eyes, "its move filled a reserve");
    }
}
