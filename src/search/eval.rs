//! Leaf evaluation: scores a position without playing it out.

use crate::rules::point::{INDEX_COUNT, MAX_MOVES};
use crate::rules::tactics::eyes_among;
use crate::rules::{Bitboard, Color, Point, Position};
use crate::search::params::Params;

/// The seed bot's mobility: points only the side that just moved may play, minus points only
/// the side to move may play, given the two sides' legal sets.
#[inline]
pub fn mobility(mover: Bitboard, to_move: Bitboard) -> i32 {
    (mover - to_move).count() as i32 - (to_move - mover).count() as i32
}

/// Probability that the side that just moved wins, for a position where the side to move
/// still has a move; `mover` and `to_move` are the two sides' legal sets. The mobility, less
/// [`Params::eval_tempo`] for the side to move's tempo, plus [`Params::eye_weight`] per eye of
/// difference once at most [`Params::eye_points`] points are empty, squashed by a logistic of
/// slope [`Params::eval_slope`].
#[inline]
pub fn value(position: &Position, mover: Bitboard, to_move: Bitboard, params: &Params) -> f32 {
    value_of(mobility(mover, to_move), position.empty(), stones_of_sides(position), params)
}

/// The stones `[of the mover, of the side to move]`, as [`value_of`] takes them.
#[inline]
fn stones_of_sides(position: &Position) -> [Bitboard; 2] {
    let side = position.to_move();
    [position.stones(!side), position.stones(side)]
}

/// [`value`] given the [`mobility`], the empty points and the stones `[of the mover, of the
/// side to move]`.
#[inline]
pub fn value_of(mobility: i32, empty: Bitboard, stones: [Bitboard; 2], params: &Params) -> f32 {
    let mut score = mobility as f32 - params.eval_tempo;
    if empty.count() <= params.eye_points {
        let movers_eyes = eyes_among(empty, stones[1]).count() as f32;
        let their_eyes = eyes_among(empty, stones[0]).count() as f32;
        score += params.eye_weight * (movers_eyes - their_eyes);
    }
    logistic(score, params)
}

/// A score's win probability: a logistic of slope [`Params::eval_slope`].
#[inline]
fn logistic(score: f32, params: &Params) -> f32 {
    1.0 / (1.0 + (-params.eval_slope * score).exp())
}

/// [`value`] with its logistic looked up by mobility where eyes do not count (more than
/// [`Params::eye_points`] empty points): the same values, without an exponential per call.
pub struct ValueTable {
    /// The value of each mobility from `-MAX_MOVES` up, eyes not counted.
    by_mobility: [f32; 2 * MAX_MOVES + 1],
}

impl ValueTable {
    /// The table for `params`' slope and tempo.
    pub fn new(params: &Params) -> ValueTable {
        let mut by_mobility = [0.0; 2 * MAX_MOVES + 1];
        for (i, value) in by_mobility.iter_mut().enumerate() {
            *value = logistic((i as i32 - MAX_MOVES as i32) as f32 - params.eval_tempo, params);
        }
        ValueTable { by_mobility }
    }

    /// [`value`].
    #[inline]
    pub fn value(&self, position: &Position, mover: Bitboard, to_move: Bitboard, params: &Params) -> f32 {
        self.value_of(mobility(mover, to_move), position.empty(), stones_of_sides(position), params)
    }

    /// [`value`] of the position after the side to move at `parent` plays `p`, for that side
    /// (the mover there), given `after`, the legal sets `[black, white]` after the move (from
    /// [`Position::move_effects`]): the move itself is not played.
    #[inline]
    pub fn value_after(&self, parent: &Position, p: Point, after: [Bitboard; 2], params: &Params) -> f32 {
        let mover = parent.to_move();
        let bit = Bitboard::from(p);
        let stones = [parent.stones(mover) | bit, parent.stones(!mover)];
        let mobility = mobility(after[mover.index()], after[(!mover).index()]);
        self.value_of(mobility, parent.empty() - bit, stones, params)
    }

    /// [`ValueTable::value_after`] of every move of `moves` (legal for the side to move of
    /// `parent`), by the move's bitboard index. Where eyes do not count after a move, the
    /// quiet moves ([`MoveEffects::quiet`]) are valued together, a value for each class of
    /// equal [`MoveEffects::lead_gains`], and only the others one by one.
    ///
    /// [`MoveEffects::quiet`]: crate::rules::MoveEffects::quiet
    /// [`MoveEffects::lead_gains`]: crate::rules::MoveEffects::lead_gains
    pub fn values_after(&self, parent: &Position, moves: Bitboard, params: &Params) -> [f32; INDEX_COUNT] {
        let mut values = [0.0; INDEX_COUNT];
        let effects = parent.move_effects();
        let mut one_by_one = moves;
        if parent.empty().count() - 1 > params.eye_points {
            // After a quiet move its player leads by `lead - 1 + gain` legal points.
            let [black, white] = effects.legal_both();
            let (own, theirs) =
                if parent.to_move() == Color::Black { (black, white) } else { (white, black) };
            let lead = own.count() as i32 - theirs.count() as i32;
            let gains = effects.lead_gains();
            let mut quiet = effects.quiet() & moves;
            one_by_one -= quiet;
            while !quiet.is_empty() {
                let (gain, class) = gains.greatest(quiet);
                let value = self.by_mobility[(lead - 1 + gain as i32 + MAX_MOVES as i32) as usize];
                class.iter().for_each(|p| values[p.index()] = value);
                quiet -= class;
            }
        }
        for p in one_by_one {
            values[p.index()] = self.value_after(parent, p, effects.legal_both_after(p), params);
        }
        values
    }

    /// [`value_of`].
    #[inline]
    pub fn value_of(&self, mobility: i32, empty: Bitboard, stones: [Bitboard; 2], params: &Params) -> f32 {
        if empty.count() > params.eye_points {
            self.by_mobility[(mobility + MAX_MOVES as i32) as usize]
        } else {
            value_of(mobility, empty, stones, params)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tactics::eyes;
    use crate::rules::{Color, Point};

    #[test]
    fn mobility_counts_exclusive_points() {
        // Black B9 and A8 make A9 black-only; white to move.
        let black =
            Bitboard::from(Point::from_xy(1, 0).unwrap()) | Bitboard::from(Point::from_xy(0, 1).unwrap());
        let p = Position::from_stones(black, Bitboard::EMPTY, Color::White).unwrap();
        let [b, w] = p.legal_both();
        assert_eq!(mobility(b, w), 1);
        assert_eq!(mobility(w, b), -1);
        let no_tempo = Params { eval_tempo: 0.0, ..Params::default() };
        assert!(value(&p, b, w, &no_tempo) > 0.5);
        assert_eq!(value(&p, Bitboard::FULL, Bitboard::FULL, &no_tempo), 0.5);
        // The tempo favours the side to move: at an even mobility the mover scores under a half.
        let params = Params::default();
        assert!(params.eval_tempo > 0.0);
        assert!(value(&p, Bitboard::FULL, Bitboard::FULL, &params) < 0.5);
        assert!(value(&p, b, w, &params) < value(&p, b, w, &no_tempo));
    }

    #[test]
    fn the_table_gives_the_values_computed() {
        // Every position of seeded random games, with both sides' legal sets as the mover's.
        for params in [
            Params::default(),
            Params { eval_tempo: -0.5, eval_slope: 1.3, eye_points: 60, ..Params::default() },
        ] {
            let table = ValueTable::new(&params);
            let mut rng = fastrand::Rng::with_seed(9);
            for _ in 0..50 {
                let mut p = Position::new();
                while !p.is_terminal() {
                    let [black, white] = p.legal_both();
                    for (mover, to_move) in [(black, white), (white, black)] {
                        let expected = value(&p, mover, to_move, &params);
                        let tabled = table.value(&p, mover, to_move, &params);
                        assert_eq!(tabled.to_bits(), expected.to_bits(), "{p}");
                    }
                    p.play_unchecked(p.legal_moves().choose(&mut rng).unwrap());
                }
            }
        }
    }

    #[test]
    fn the_values_of_all_moves_at_once_are_those_of_each() {
        for params in [Params::default(), Params { eye_points: 60, ..Params::default() }] {
            let table = ValueTable::new(&params);
            let mut rng = fastrand::Rng::with_seed(10);
            for _ in 0..30 {
                let mut p = Position::new();
                while !p.is_terminal() {
                    let moves = p.legal_moves();
                    let all = table.values_after(&p, moves, &params);
                    for m in moves {
                        let one = table.value_after(&p, m, p.legal_both_after(m), &params);
                        assert_eq!(all[m.index()].to_bits(), one.to_bits(), "{m} in\n{p}");
                    }
                    p.play_unchecked(moves.choose(&mut rng).unwrap());
                }
            }
        }
    }

    #[test]
    fn an_eye_counts_once_few_points_are_empty() {
        // Late in a game an eye of the mover raises its value; early it does not count.
        let mut rng = fastrand::Rng::with_seed(5);
        let mut checked = 0;
        while checked < 50 {
            let mut p = Position::new();
            while !p.is_terminal() && checked < 50 {
                let legal = p.legal_both();
                let side = p.to_move();
                let (mover, to_move) = (legal[(!side).index()], legal[side.index()]);
                let eye_lead = eyes(&p, !side).count() as i32 - eyes(&p, side).count() as i32;
                if eye_lead != 0 && !to_move.is_empty() {
                    let plain = Params { eye_weight: 0.0, ..Params::default() };
                    let late = Params { eye_points: 81, ..Params::default() };
                    let early = Params { eye_points: 0, ..Params::default() };
                    let base = value(&p, mover, to_move, &plain);
                    assert_eq!(value(&p, mover, to_move, &early), base);
                    assert_eq!(value(&p, mover, to_move, &late) > base, eye_lead > 0, "{p}");
                    checked += 1;
                }
                p.play_unchecked(p.legal_moves().choose(&mut rng).unwrap());
            }
        }
    }
}
