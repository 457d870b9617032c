//! Tactics every engine shares: moves that win at once, and eyes.

use super::bitboard::Bitboard;
use super::point::{Color, Point};
use super::position::Position;

/// At most this many of the opponent's legal points can become illegal through one move: the
/// move's own point, its up to 4 neighbours (which may lose their last empty neighbour), the
/// last liberties of up to 4 opponent groups it puts in atari, and the last liberty of its own
/// group. An opponent with more legal points cannot be left without a move, so the exact
/// test for a decisive move is skipped.
const MOST_POINTS_ONE_MOVE_CLOSES: u32 = 10;

/// A move that leaves the opponent no legal move, if there is one: it wins at once.
pub fn decisive_move(position: &Position) -> Option<Point> {
    let legal = position.legal_both();
    let to_move = position.to_move().index();
    find_decisive(position, legal[to_move], legal[1 - to_move])
}

/// Whether an opponent whose legal set is `theirs` could be left without a legal move by one
/// move; when not, there is no decisive move.
#[inline]
pub fn can_be_closed(theirs: Bitboard) -> bool {
    theirs.count() <= MOST_POINTS_ONE_MOVE_CLOSES
}

/// [`decisive_move`] given the legal sets: a move among `own` (the side to move's legal set)
/// after which the opponent, whose legal set is `theirs`, has no legal move.
#[inline]
pub fn find_decisive(position: &Position, own: Bitboard, theirs: Bitboard) -> Option<Point> {
    if !can_be_closed(theirs) {
        return None;
    }
    let effects = position.move_effects();
    own.iter().find(|&p| effects.leaves_opponent_no_move(p))
}

/// The eyes of `owner`: empty points whose every on-board neighbour is one of its stones. The
/// opponent can never play one (it would be suicide, or a capture, which is illegal), so an
/// eye stays its owner's, where other points only one side may play can still change hands.
#[inline]
pub fn eyes(position: &Position, owner: Color) -> Bitboard {
    eyes_among(position.empty(), position.stones(!owner))
}

/// [`eyes`] given the empty points and the other colour's stones.
#[inline]
pub fn eyes_among(empty: Bitboard, other_stones: Bitboard) -> Bitboard {
    empty - (empty | other_stones).neighbors()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::test_support::random_positions;

    #[test]
    fn eyes_are_points_surrounded_by_one_colour() {
        // Black's A9 (a corner) and E5 are eyes; H1 is not, as its neighbour J1 is white.
        let black = crate::bitboard! {
            . X . . . . . . .
            X . . . . . . . .
            . . . . . . . . .
            . . . . X . . . .
            . . . X . X . . .
            . . . . X . . . .
            . . . . . . . . .
            . . . . . . . X .
            . . . . . . X . .
        };
        let white = crate::bitboard! {
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . X
        };
        let p = Position::from_stones(black, white, Color::White).unwrap();
        let eyes_of_black = crate::bitboard! {
            X . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . X . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
        };
        assert_eq!(eyes(&p, Color::Black), eyes_of_black);
        assert_eq!(eyes(&p, Color::White), Bitboard::EMPTY);
    }

    /// The moves after which the opponent has no legal move, found by playing each.
    fn winning_moves(position: &Position) -> Vec<Point> {
        let wins = |&p: &Point| {
            let mut next = position.clone();
            next.play(p).unwrap();
            next.is_terminal()
        };
        position.legal_moves().iter().filter(wins).collect()
    }

    #[test]
    fn a_decisive_move_is_one_after_which_the_opponent_has_no_move() {
        // Positions of random games with a winning move, and positions where the opponent has
        // up to 14 legal points (above the bound, the exact test is skipped).
        let with_a_win = random_positions(13, |p| !winning_moves(p).is_empty());
        let few_left = random_positions(14, |p| p.legal(!p.to_move()).count() <= 14);
        for position in with_a_win.iter().chain(&few_left) {
            let wins = winning_moves(position);
            match decisive_move(position) {
                Some(p) => assert!(wins.contains(&p), "{p} does not win\n{position}"),
                None => assert!(wins.is_empty(), "{wins:?} win\n{position}"),
            }
        }
    }
}
