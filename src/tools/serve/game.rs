//! The game as the page sends it (an optional setup and the moves, GTP points), the board as
//! the page draws it, and the page's SGF files: the page keeps no rules of its own.

use crate::protocols::sgf::GameRecord;
use crate::rules::{Bitboard, Color, Game, PlayError, Point, Position};
use serde::de::{DeserializeOwned, Error};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

/// A game as JSON: `{"moves": ["E5", "D4"]}`, or from a setup
/// `{"setup": {"black": ["E5"], "white": [], "to_move": "white"}, "moves": []}`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GameJson {
    /// Stones set up before the first move; none for the empty board.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "optional_object")]
    pub setup: Option<SetupJson>,
    /// The moves from the start, GTP points.
    #[serde(default)]
    pub moves: Vec<String>,
}

/// Stones set up before the first move, and the side to move then.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SetupJson {
    /// Black's stones, GTP points.
    pub black: Vec<String>,
    /// White's stones.
    pub white: Vec<String>,
    /// `black` or `white`.
    pub to_move: String,
}

/// A `T` from a JSON object only: serde's derived structs also take an array of their fields,
/// which no page sends.
pub fn object<'de, D: Deserializer<'de>, T: DeserializeOwned>(d: D) -> Result<T, D::Error> {
    let fields = Map::deserialize(d)?;
    serde_json::from_value(Value::Object(fields)).map_err(D::Error::custom)
}

/// An optional `T` from a JSON object or `null` ([`object`]).
fn optional_object<'de, D: Deserializer<'de>, T: DeserializeOwned>(d: D) -> Result<Option<T>, D::Error> {
    match Option::<Map<String, Value>>::deserialize(d)? {
        None => Ok(None),
        Some(fields) => serde_json::from_value(Value::Object(fields)).map_err(D::Error::custom),
    }
}

/// A GTP point, or why the text is not one.
fn point(text: &str) -> Result<Point, String> {
    text.parse().map_err(|e: crate::rules::CoordError| e.to_string())
}

impl GameJson {
    /// The game: its setup valid, its moves legal, or why not.
    pub fn game(&self) -> Result<Game, String> {
        let start = match &self.setup {
            None => Position::new(),
            Some(setup) => setup.position()?,
        };
        // A 9x9 game has at most 81 moves: longer lists are refused before they are read.
        if self.moves.len() > 81 {
            return Err(format!("{} moves: a 9x9 game has at most 81", self.moves.len()));
        }
        let moves = self.moves.iter().map(|m| point(m)).collect::<Result<Vec<_>, _>>()?;
        Game::from_start(start, moves)
            .map_err(|e| format!("move {} ({}) is illegal: {}", e.index + 1, self.moves[e.index], e.error))
    }

    /// The JSON of `game`.
    pub fn of(game: &Game) -> GameJson {
        let start = game.start();
        let setup = (*start != Position::new()).then(|| SetupJson {
            black: points(start.stones(Color::Black)),
            white: points(start.stones(Color::White)),
            to_move: start.to_move().to_string(),
        });
        GameJson { setup, moves: game.moves().iter().map(Point::to_string).collect() }
    }
}

/// The points of `set` as GTP text.
fn points(set: Bitboard) -> Vec<String> {
    set.iter().map(|p| p.to_string()).collect()
}

impl SetupJson {
    fn position(&self) -> Result<Position, String> {
        let stones = |list: &[String]| list.iter().map(|p| point(p)).collect::<Result<Bitboard, _>>();
        let to_move = Color::from_gtp(&self.to_move)
            .ok_or_else(|| format!("'{}' is not a colour: black or white", self.to_move))?;
        Position::from_stones(stones(&self.black)?, stones(&self.white)?, to_move)
            .map_err(|e| format!("the setup is not a position: {e}"))
    }
}

/// The board as the page draws it.
#[derive(Debug, Serialize)]
pub struct BoardView {
    /// `black` or `white`.
    pub to_move: String,
    /// The 81 points row by row from the top-left (A9, B9, ... J1): `black` or `white` for a
    /// stone; for an empty point, what the side to move may do there: `legal`, or why not,
    /// `capture` or `suicide`.
    pub points: Vec<&'static str>,
    /// The last move, if any.
    pub last: Option<String>,
    /// Moves played from the start.
    pub moves: usize,
    /// The end of the game, once the side to move has no legal move.
    pub over: Option<Over>,
}

/// How a game ended.
#[derive(Debug, Serialize)]
pub struct Over {
    /// `black` or `white`.
    pub winner: String,
    /// Why, as a phrase: `white has no legal move`.
    pub reason: String,
}

impl BoardView {
    /// The view of `game`'s position.
    pub fn of(game: &Game) -> BoardView {
        let position = game.position();
        let points = (0..81)
            .filter_map(Point::from_cell)
            .map(|p| match (position.stone_at(p), position.check(p)) {
                (Some(Color::Black), _) => "black",
                (Some(Color::White), _) => "white",
                (None, Ok(())) => "legal",
                (None, Err(PlayError::Capture)) => "capture",
                (None, Err(_)) => "suicide",
            })
            .collect();
        BoardView {
            to_move: position.to_move().to_string(),
            points,
            last: game.last_move().map(|p| p.to_string()),
            moves: game.moves().len(),
            over: game.result().map(|r| Over { winner: r.winner.to_string(), reason: r.reason }),
        }
    }
}

/// An SGF file as the page shows it: the game and the players' names.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SgfGame {
    /// The game.
    #[serde(deserialize_with = "object")]
    pub game: GameJson,
    /// Black's name.
    #[serde(default)]
    pub black: String,
    /// White's name.
    #[serde(default)]
    pub white: String,
}

impl SgfGame {
    /// Reads an SGF text with the project's reader.
    pub fn read(text: &str) -> Result<SgfGame, String> {
        let record = GameRecord::from_sgf(text).map_err(|e| e.to_string())?;
        let game = record.game().map_err(|e| e.to_string())?;
        Ok(SgfGame { game: GameJson::of(&game), black: record.black, white: record.white })
    }

    /// The SGF text of the game, its result included when it is over.
    pub fn write(&self) -> Result<String, String> {
        let game = self.game.game()?;
        Ok(GameRecord::from_game(&game, &self.black, &self.white).to_sgf())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(json: &str) -> Result<Game, String> {
        serde_json::from_str::<GameJson>(json).map_err(|e| e.to_string())?.game()
    }

    #[test]
    fn moves_are_replayed_and_illegal_ones_named() {
        let played = game(r#"{"moves": ["E5", "d4"]}"#).unwrap();
        assert_eq!(played.moves(), ["E5".parse().unwrap(), "D4".parse().unwrap()]);
        // A9's last liberty taken by black's B9 would be a capture for white at A8.
        let error = game(r#"{"moves": ["A9", "B9", "J1", "A8"]}"#).unwrap_err();
        assert!(error.starts_with("move 4 (A8) is illegal"), "{error}");
        assert!(game(r#"{"moves": ["E5", "E5"]}"#).unwrap_err().contains("occupied"));
        assert!(game(r#"{"moves": ["Z9"]}"#).unwrap_err().contains("'Z9' is not a point"));
        assert!(game(r#"{"moves": ["E5"], "extra": 1}"#).is_err());
        let too_long = format!(r#"{{"moves": [{}]}}"#, vec![r#""E5""#; 82].join(","));
        assert!(game(&too_long).unwrap_err().contains("at most 81"));
    }

    #[test]
    fn the_view_marks_each_empty_point_as_the_rules_judge_it() {
        let state = |view: &BoardView, p: &str| view.points[p.parse::<Point>().unwrap().cell()];
        // White's A8 would take black A9's last liberty.
        let view = BoardView::of(&game(r#"{"moves": ["A9", "B9", "J1"]}"#).unwrap());
        assert_eq!((state(&view, "A9"), state(&view, "B9")), ("black", "white"));
        assert_eq!(
            (state(&view, "A8"), state(&view, "C9"), view.to_move.as_str()),
            ("capture", "legal", "white")
        );
        // Black's A9 between white's B9 and A8 would have no liberty.
        let setup = r#"{"setup": {"black": [], "white": ["B9", "A8"], "to_move": "black"}}"#;
        let view = BoardView::of(&game(setup).unwrap());
        assert_eq!((state(&view, "A9"), view.moves, view.last.clone()), ("suicide", 0, None));
        // Over many positions, each point as `Position::check` (tested against the reference
        // rules in tests/rules_reference.rs) judges it.
        for position in crate::rules::test_support::random_positions(7, |p| p.moves_played() % 7 == 3) {
            let view = BoardView::of(&Game::from_start(position.clone(), Vec::new()).unwrap());
            for p in (0..81).filter_map(Point::from_cell) {
                let expected = match (position.stone_at(p), position.check(p)) {
                    (Some(colour), _) => colour.to_string(),
                    (None, Ok(())) => "legal".into(),
                    (None, Err(PlayError::Capture)) => "capture".into(),
                    (None, Err(PlayError::Suicide)) => "suicide".into(),
                    (None, Err(PlayError::Occupied)) => unreachable!("an empty point is not occupied"),
                };
                assert_eq!(view.points[p.cell()], expected, "{p} in\n{position}");
            }
        }
    }

    #[test]
    fn the_end_of_a_game_is_reported_with_its_reason() {
        let mut position = Position::new();
        let mut rng = fastrand::Rng::with_seed(3);
        let mut moves = Vec::new();
        while let Some(p) = position.legal_moves().choose(&mut rng) {
            position.play(p).unwrap();
            moves.push(p.to_string());
        }
        let view = BoardView::of(&GameJson { setup: None, moves }.game().unwrap());
        let over = view.over.expect("a finished game");
        assert_eq!(over.winner, (!position.to_move()).to_string());
        assert_eq!(over.reason, format!("{} has no legal move", position.to_move()));
        assert!(!view.points.contains(&"legal"));
    }

    #[test]
    fn sgf_files_go_out_and_back_with_setups_and_names() {
        let setup = SetupJson { black: vec!["E5".into()], white: vec!["D4".into()], to_move: "white".into() };
        let written = SgfGame {
            game: GameJson { setup: Some(setup), moves: vec!["C3".into(), "G7".into()] },
            black: "you".into(),
            white: "nogo".into(),
        };
        let read = SgfGame::read(&written.write().unwrap()).unwrap();
        assert_eq!((read.game, read.black, read.white), (written.game, written.black, written.white));
        assert!(SgfGame::read("(;GM[1]SZ[19];B[aa])").unwrap_err().contains("9x9"));
        assert!(SgfGame::read("not sgf").is_err());
    }
}
