//! Game records in SGF (`FF[4]`, `GM[1]` Go family, `SZ[9]`, `RU[NoGo]`), readable by Go software.
//!
//! SGF points are two letters, column then row, `a` to `i` from the top-left: the same axes as
//! Botzone's `(x, y)`. Only the main line is read; variations are skipped.

use crate::rules::{Bitboard, Color, Game, GameResult, HistoryError, Point, Position};
use sgf_parse::go::{Move, Prop};
use sgf_parse::{GameTree, SgfProp};
use std::collections::HashSet;
use std::fmt::{self, Write};

/// A game: who played, the position it starts from, the moves, and how it ended.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameRecord {
    /// Black's name (`PB`).
    pub black: String,
    /// White's name (`PW`).
    pub white: String,
    /// Stones set up before the first move (`AB`, `AW`, `PL`); `None` for the empty board.
    pub setup: Option<Position>,
    /// The main line's moves, in order.
    pub moves: Vec<Point>,
    /// How the game ended (`RE`); `None` when unfinished or unknown.
    pub result: Option<GameResult>,
    /// Free text stored as the game comment (`GC`), e.g. the opening or the match.
    pub comment: String,
}

/// Why an SGF text is not a NoGo game this engine can load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfError {
    /// Not SGF text, as the parser says.
    Syntax(String),
    /// A property NoGo cannot take (`SZ[19]`, a pass, a capture, ...), and why.
    Property {
        /// The property at fault, e.g. `SZ[19]` or `GM`.
        property: String,
        /// Why it cannot be taken.
        reason: String,
    },
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SgfError::Syntax(what) => write!(f, "SGF syntax error: {what}"),
            SgfError::Property { property, reason } => write!(f, "{property}: {reason}"),
        }
    }
}

impl std::error::Error for SgfError {}

/// A [`SgfError::Property`].
fn refuse(property: impl fmt::Display, reason: impl fmt::Display) -> SgfError {
    SgfError::Property { property: property.to_string(), reason: reason.to_string() }
}

impl GameRecord {
    /// The record of `game` with the players' names, its result included when it is over.
    pub fn from_game(game: &Game, black: &str, white: &str) -> GameRecord {
        GameRecord {
            black: black.to_string(),
            white: white.to_string(),
            setup: (game.start() != &Position::new()).then(|| game.start().clone()),
            moves: game.moves().to_vec(),
            result: game.result(),
            comment: String::new(),
        }
    }

    /// The record's SGF text.
    pub fn to_sgf(&self) -> String {
        let mut out = String::from("(;FF[4]GM[1]SZ[9]RU[NoGo]AP[nogo:");
        out.push_str(env!("CARGO_PKG_VERSION"));
        out.push(']');
        let _ = write!(out, "PB[{}]PW[{}]", escape(&self.black), escape(&self.white));
        if let Some(result) = &self.result {
            let letter = if result.winner == Color::Black { 'B' } else { 'W' };
            let _ = write!(out, "RE[{letter}+{}]", escape(&sgf_reason_code(&result.reason)));
        }
        let mut comment = self.comment.clone();
        if let Some(result) = &self.result {
            if !comment.is_empty() {
                comment.push('\n');
            }
            let _ = write!(comment, "{} wins: {}", result.winner, result.reason);
        }
        if !comment.is_empty() {
            let _ = write!(out, "GC[{}]", escape(&comment));
        }
        if let Some(setup) = &self.setup {
            for (property, colour) in [("AB", Color::Black), ("AW", Color::White)] {
                if !setup.stones(colour).is_empty() {
                    out.push_str(property);
                    for p in setup.stones(colour) {
                        let _ = write!(out, "[{}]", point_to_sgf(p));
                    }
                }
            }
            let _ = write!(out, "PL[{}]", if setup.to_move() == Color::Black { 'B' } else { 'W' });
        }
        let mut colour = self.setup.as_ref().map_or(Color::Black, Position::to_move);
        for p in &self.moves {
            let letter = if colour == Color::Black { 'B' } else { 'W' };
            let _ = write!(out, "\n;{letter}[{}]", point_to_sgf(*p));
            colour = !colour;
        }
        out.push_str(")\n");
        out
    }

    /// Reads the main line of the first game of an SGF text (variations and other games are
    /// skipped) with the `sgf-parse` crate, and checks it is a NoGo game: 9x9, setup stones
    /// only before the first move, moves alternating with no pass, each legal.
    pub fn from_sgf(text: &str) -> Result<GameRecord, SgfError> {
        let trees = sgf_parse::parse(text).map_err(|e| SgfError::Syntax(e.to_string()))?;
        let root = match trees.into_iter().next() {
            Some(GameTree::GoGame(root)) => root,
            Some(GameTree::Unknown(_)) => return Err(refuse("GM", "not a Go-family game record (GM[1])")),
            None => return Err(SgfError::Syntax("no game in the text".into())),
        };
        let mut record = GameRecord::default();
        let (mut black, mut white, mut to_move) = (Bitboard::EMPTY, Bitboard::EMPTY, None);
        // The position after the setup and the moves so far, once the first move is read.
        let mut position: Option<Position> = None;
        for node in root.main_variation() {
            for property in node.properties() {
                match property {
                    Prop::SZ((9, 9)) => {}
                    Prop::SZ((w, h)) if w == h => return Err(refuse(format!("SZ[{w}]"), NOT_9X9)),
                    Prop::SZ((w, h)) => return Err(refuse(format!("SZ[{w}:{h}]"), NOT_9X9)),
                    // `.text`, as the lexer unescaped it (`Display` would unescape it again).
                    Prop::PB(name) => record.black = name.text.clone(),
                    Prop::PW(name) => record.white = name.text.clone(),
                    Prop::GC(comment) => record.comment = comment.text.clone(),
                    Prop::RE(result) => record.result = parse_result(&result.text),
                    Prop::AB(_) | Prop::AW(_) | Prop::AE(_) | Prop::PL(_) if position.is_some() => {
                        return Err(refuse(property.identifier(), "stones set up after the first move"));
                    }
                    Prop::AB(points) => black |= board_points(points, "AB")?,
                    Prop::AW(points) => white |= board_points(points, "AW")?,
                    Prop::AE(points) => {
                        let cleared = board_points(points, "AE")?;
                        (black, white) = (black - cleared, white - cleared);
                    }
                    Prop::PL(colour) => to_move = Some(colour_of(*colour)),
                    Prop::B(mv) | Prop::W(mv) => {
                        let colour = if matches!(property, Prop::B(_)) { Color::Black } else { Color::White };
                        let number = record.moves.len() + 1;
                        let name = format!(
                            "{}[{}] at move {number}",
                            property.identifier(),
                            property_value(property)
                        );
                        let position = match &mut position {
                            Some(position) => position,
                            None => {
                                let start = setup_position(black, white, to_move.unwrap_or(colour))?;
                                record.setup = (start != Position::new()).then(|| start.clone());
                                position.insert(start)
                            }
                        };
                        let p = match mv {
                            // `tt` is FF[3]'s pass on boards up to 19x19.
                            Move::Move(sgf_parse::go::Point { x: 19, y: 19 }) | Move::Pass => {
                                return Err(refuse(name, "a pass, which NoGo does not have"));
                            }
                            Move::Move(point) => sgf_point(*point).ok_or_else(|| refuse(&name, OFF_BOARD))?,
                        };
                        if colour != position.to_move() {
                            return Err(refuse(name, format!("{colour} plays twice in a row")));
                        }
                        position.play(p).map_err(|e| refuse(&name, format!("illegal in NoGo: {e}")))?;
                        record.moves.push(p);
                    }
                    Prop::Invalid(identifier, values) if VALUED.contains(&identifier.as_str()) => {
                        let value = values.first().map(String::as_str).unwrap_or("");
                        return Err(refuse(
                            format!("{identifier}[{value}]"),
                            "not a value this property takes",
                        ));
                    }
                    _ => {}
                }
            }
        }
        if position.is_none() {
            let start = setup_position(black, white, to_move.unwrap_or(Color::Black))?;
            record.setup = (start != Position::new()).then_some(start);
        }
        Ok(record)
    }

    /// The game the record describes, ready to go on from its last move.
    pub fn game(&self) -> Result<Game, HistoryError> {
        Game::from_start(self.setup.clone().unwrap_or_default(), self.moves.clone())
    }

    /// The position after all the moves.
    pub fn position(&self) -> Result<Position, HistoryError> {
        self.game().map(|game| game.position().clone())
    }
}

/// Why a board size is refused.
const NOT_9X9: &str = "NoGo here is played on 9x9 only";
/// Why a point is refused.
const OFF_BOARD: &str = "not a point of the 9x9 board";
/// Properties whose value the engine reads: one it cannot parse is an error, not skipped.
const VALUED: [&str; 7] = ["B", "W", "AB", "AW", "AE", "PL", "SZ"];

/// The text of a move property's value.
fn property_value(property: &Prop) -> String {
    let text = property.to_string();
    text.split_once('[').map_or(String::new(), |(_, rest)| rest.trim_end_matches(']').to_string())
}

/// The engine's colour for an SGF colour.
fn colour_of(colour: sgf_parse::Color) -> Color {
    match colour {
        sgf_parse::Color::Black => Color::Black,
        sgf_parse::Color::White => Color::White,
    }
}

/// The board point of an SGF point, if it is on the 9x9 board.
fn sgf_point(point: sgf_parse::go::Point) -> Option<Point> {
    Point::from_xy(point.x, point.y)
}

/// The points of a setup property, all on the board.
fn board_points(points: &HashSet<sgf_parse::go::Point>, property: &str) -> Result<Bitboard, SgfError> {
    points
        .iter()
        .map(|&point| {
            sgf_point(point).ok_or_else(|| {
                refuse(format!("{property}[{}{}]", point_letter(point.x), point_letter(point.y)), OFF_BOARD)
            })
        })
        .collect()
}

/// An SGF coordinate letter.
fn point_letter(coordinate: u8) -> char {
    if coordinate < 26 {
        (b'a' + coordinate) as char
    } else {
        (b'A' + coordinate - 26) as char
    }
}

/// The position the setup stones make, with `to_move` to play.
fn setup_position(black: Bitboard, white: Bitboard, to_move: Color) -> Result<Position, SgfError> {
    Position::from_stones(black, white, to_move).map_err(|e| refuse("AB/AW", e))
}

/// SGF's result codes: `B+T` for time, `B+R` for resignation, `B+F` for forfeit (illegal
/// move, crash, bad output); a win by the opponent having no legal move is written in full.
fn sgf_reason_code(reason: &str) -> String {
    // The verdict comes before any message quoted after a colon (a crashed bot's stderr, which
    // may name anything).
    let verdict = reason.split_once(':').map_or(reason, |(verdict, _)| verdict);
    let lower = verdict.to_ascii_lowercase();
    if lower.contains("timeout") || lower.contains("time limit") {
        "T".to_string()
    } else if lower.contains("resign") {
        "R".to_string()
    } else if lower.contains("illegal") || lower.contains("crash") || lower.contains("malformed") {
        "F".to_string()
    } else {
        String::new()
    }
}

fn parse_result(value: &str) -> Option<GameResult> {
    let (winner, reason) = value.split_once('+')?;
    let winner = match winner.trim() {
        "B" => Color::Black,
        "W" => Color::White,
        _ => return None,
    };
    Some(GameResult { winner, reason: reason.to_string() })
}

/// The SGF letters for a point.
pub fn point_to_sgf(p: Point) -> String {
    [(b'a' + p.x()) as char, (b'a' + p.y()) as char].iter().collect()
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_game(seed: u64) -> Vec<Point> {
        let mut moves = Vec::new();
        crate::rules::random_game(&mut fastrand::Rng::with_seed(seed), |p| moves.push(p));
        moves
    }

    #[test]
    fn records_round_trip() {
        for seed in 0..50 {
            let moves = random_game(seed);
            let winner = if moves.len() % 2 == 1 { Color::Black } else { Color::White };
            let record = GameRecord {
                black: "nogo [mcts]".into(),
                white: "weird]name\\".into(),
                moves,
                result: Some(GameResult { winner, reason: format!("{} has no legal move", !winner) }),
                comment: "opening 3".into(),
                setup: None,
            };
            let text = record.to_sgf();
            assert!(text.starts_with("(;FF[4]GM[1]SZ[9]RU[NoGo]"));
            let back = GameRecord::from_sgf(&text).unwrap();
            assert_eq!(back.moves, record.moves);
            assert_eq!((back.black.as_str(), back.white.as_str()), ("nogo [mcts]", "weird]name\\"));
            assert_eq!(back.result.as_ref().unwrap().winner, winner);
            assert!(back.position().unwrap().is_terminal());
        }
    }

    #[test]
    fn a_game_from_set_up_stones_round_trips() {
        // Stones set up, white to move: the record keeps the setup and the moves from it.
        let pt = |s: &str| s.parse::<Point>().unwrap();
        let black: Bitboard = [pt("C7"), pt("G3")].into_iter().collect();
        let white: Bitboard = [pt("C3"), pt("G7")].into_iter().collect();
        let start = Position::from_stones(black, white, Color::White).unwrap();
        let game = Game::from_start(start.clone(), vec![pt("E5"), pt("D6")]).unwrap();
        let record = GameRecord::from_game(&game, "b", "w");
        let text = record.to_sgf();
        assert!(text.contains("AB[cc][gg]AW[gc][cg]PL[W]") && text.contains(";W[ee]"), "{text}");
        let back = GameRecord::from_sgf(&text).unwrap();
        assert_eq!(back.setup, Some(start));
        assert_eq!(back.game().unwrap().position(), game.position());
        assert_eq!(GameRecord::from_game(&Game::new(), "b", "w").setup, None);
    }

    #[test]
    fn result_codes_follow_sgf() {
        let record = |reason: &str| GameRecord {
            result: Some(GameResult { winner: Color::White, reason: reason.into() }),
            ..GameRecord::default()
        };
        assert!(record("black timeout").to_sgf().contains("RE[W+T]"));
        assert!(record("black resigned at move 9").to_sgf().contains("RE[W+R]"));
        assert!(record("black played an illegal move").to_sgf().contains("RE[W+F]"));
        let crash = "black crash at move 3: exited; stderr: TimeoutError: read timeout";
        assert!(record(crash).to_sgf().contains("RE[W+F]"), "the verdict, not the quoted stderr");
        assert!(record("black has no legal move").to_sgf().contains("RE[W+]"));
    }

    #[test]
    fn reads_go_software_files_with_variations() {
        let text = "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[0]PB[a]PW[b]\n;B[ee]C[centre]\n(;W[cc];B[gg])\n(;W[dd]))";
        let record = GameRecord::from_sgf(text).unwrap();
        let points: Vec<String> = record.moves.iter().map(|p| p.to_string()).collect();
        assert_eq!(points, ["E5", "C7", "G3"]);
    }

    #[test]
    fn what_is_not_a_nogo_game_is_refused_naming_the_property() {
        for (text, error) in [
            ("(;SZ[19];B[aa])", "SZ[19]: NoGo here is played on 9x9 only"),
            ("(;SZ[9:7];B[aa])", "SZ[9:7]: NoGo here is played on 9x9 only"),
            ("(;SZ[9];B[])", "B[] at move 1: a pass, which NoGo does not have"),
            ("(;SZ[9];B[jj])", "B[jj] at move 1: not a point of the 9x9 board"),
            ("(;B[aa];B[bb])", "B[bb] at move 2: black plays twice in a row"),
            ("(;B[aa];W[ba];B[ii];W[ab])", "W[ab] at move 4: illegal in NoGo: the move would capture"),
            ("(;GM[3];B[aa])", "GM: not a Go-family game record (GM[1])"),
            ("(;B[aa];AB[cc])", "AB: stones set up after the first move"),
            ("(;AB[aa]AW[ab][ba])", "AB/AW: the group at A9 has no liberty"),
        ] {
            let refused = GameRecord::from_sgf(text).unwrap_err().to_string();
            assert!(refused.starts_with(error), "{text}: {refused}");
            assert_eq!(refused.lines().count(), 1);
        }
        for text in ["(;B[aa", "no game", ""] {
            assert!(matches!(GameRecord::from_sgf(text), Err(SgfError::Syntax(_))), "{text}");
        }
    }
}
