//! A game in progress for the front ends (`nogo gtp`, `nogo play`): the moves from a starting
//! position (the empty board, or stones set up by an SGF record) and the position they reach,
//! with undo, the result, and a diagram marking the last move.
//!
//! Positions have no undo (copy-make), so undo replays the shorter move list: at most 81
//! moves, far cheaper than anything a person or a GTP controller notices.

use super::point::{Color, Point};
use super::position::{HistoryError, PlayError, Position};
use std::fmt::Write;

/// The winner and why.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// The colour that won.
    pub winner: Color,
    /// Why, as a phrase (e.g. `black has no legal move`).
    pub reason: String,
}

/// The moves played so far from the start, and the position they reach.
#[derive(Clone, Debug, Default)]
pub struct Game {
    start: Position,
    moves: Vec<Point>,
    position: Position,
}

impl Game {
    /// The empty board, black to move.
    pub fn new() -> Game {
        Game::default()
    }

    /// The game reached by `moves` from the empty board, if they are legal.
    pub fn from_moves(moves: Vec<Point>) -> Result<Game, HistoryError> {
        Game::from_start(Position::new(), moves)
    }

    /// The game reached by `moves` from `start`, if they are legal.
    pub fn from_start(start: Position, moves: Vec<Point>) -> Result<Game, HistoryError> {
        let position = replay(&start, &moves)?;
        Ok(Game { start, moves, position })
    }

    /// The position the moves start from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The position the moves reach.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played from the start, in order.
    pub fn moves(&self) -> &[Point] {
        &self.moves
    }

    /// The most recent move; `None` before the first.
    pub fn last_move(&self) -> Option<Point> {
        self.moves.last().copied()
    }

    /// The colour that played move `index` (0-based) of [`Game::moves`].
    pub fn colour_of_move(&self, index: usize) -> Color {
        if index.is_multiple_of(2) {
            self.start.to_move()
        } else {
            !self.start.to_move()
        }
    }

    /// Plays `p` for the side to move; an illegal move is refused with its reason.
    pub fn play(&mut self, p: Point) -> Result<(), PlayError> {
        self.position.play(p)?;
        self.moves.push(p);
        Ok(())
    }

    /// Takes back the last move, if any, and returns it.
    pub fn undo(&mut self) -> Option<Point> {
        let last = self.moves.pop()?;
        self.position = replay(&self.start, &self.moves).expect("a prefix of a legal game");
        Some(last)
    }

    /// The winner and why, once the side to move has no legal move.
    pub fn result(&self) -> Option<GameResult> {
        let winner = self.position.winner()?;
        Some(GameResult { winner, reason: format!("{} has no legal move", !winner) })
    }

    /// [`Position::diagram`] marking the last move, then the game's state: the side to move
    /// or the result, the moves played and the last one.
    pub fn diagram(&self) -> String {
        let last = self.last_move();
        let mut out = self.position.diagram(last) + "\n";
        match self.result() {
            Some(result) => {
                let _ = write!(out, "game over: {} wins, {}", result.winner, result.reason);
            }
            None => {
                let _ = write!(out, "{} to move", self.position.to_move());
            }
        }
        let _ = write!(out, ", {} moves played", self.moves.len());
        if let Some(p) = last {
            let _ = write!(out, ", last {} {p}", self.colour_of_move(self.moves.len() - 1));
        }
        out
    }
}

/// The position `moves` reach from `start`; the first illegal one is reported by its index.
fn replay(start: &Position, moves: &[Point]) -> Result<Position, HistoryError> {
    let mut position = start.clone();
    for (index, &p) in moves.iter().enumerate() {
        position.play(p).map_err(|error| HistoryError { index, error })?;
    }
    Ok(position)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn undo_restores_the_earlier_position() {
        let mut game = Game::new();
        for p in ["E5", "C3", "G7"] {
            game.play(pt(p)).unwrap();
        }
        let before = game.position().clone();
        game.play(pt("D4")).unwrap();
        assert_eq!(game.undo(), Some(pt("D4")));
        assert_eq!(game.position(), &before);
        assert_eq!(game.position().hash(), before.hash());
        assert_eq!(game.moves().len(), 3);
        while game.undo().is_some() {}
        assert_eq!(game.position(), &Position::new());
        assert_eq!(game.undo(), None);
    }

    #[test]
    fn illegal_move_leaves_the_game_unchanged() {
        let mut game = Game::from_moves(vec![pt("E5")]).unwrap();
        assert_eq!(game.play(pt("E5")), Err(PlayError::Occupied));
        assert_eq!(game.moves(), &[pt("E5")]);
    }

    #[test]
    fn diagram_marks_the_last_move_on_any_column() {
        for last in ["A9", "E5", "J1"] {
            let game = Game::from_moves(vec![pt("C3"), pt(last)]).unwrap();
            let diagram = game.diagram();
            let row = &last[1..];
            let line = diagram.lines().find(|l| l.starts_with(row)).unwrap();
            assert!(line.contains("(O)"), "{diagram}");
            assert_eq!(line.chars().filter(|c| *c == '(').count(), 1);
            assert_eq!(diagram.matches('(').count(), 1);
            assert!(diagram.contains(&format!("last white {last}")));
            let board_line = diagram.lines().find(|l| l.starts_with('3')).unwrap();
            assert!(board_line.contains(" X "), "{board_line}");
        }
    }

    #[test]
    fn result_names_the_side_without_a_move() {
        let mut rng = fastrand::Rng::with_seed(3);
        let mut game = Game::new();
        while game.result().is_none() {
            let legal = game.position().legal_moves();
            game.play(legal.choose(&mut rng).unwrap()).unwrap();
        }
        let result = game.result().unwrap();
        let loser = game.position().to_move();
        assert_eq!(result.winner, !loser);
        assert_eq!(result.reason, format!("{loser} has no legal move"));
        assert!(game.diagram().contains(&format!("game over: {} wins", !loser)));
    }
}
