//! Game records in SGF (`FF[4]`, `GM[1]` Go family, `SZ[9]`, `RU[NoGo]`), readable by Go software.
//!
//! SGF points are two letters, column then row, `a` to `i` from the top-left: the same axes as
//! Botzone's `(x, y)`. Only the main line is read; variations are skipped.

use crate::rules::{Color, Game, GameResult, HistoryError, Point, Position};
use std::fmt::{self, Write};
use std::path::{Path, PathBuf};

/// The `.sgf` files of a directory (an arena's `--sgf-dir`), in name order: game order.
pub fn record_paths(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "sgf") {
            paths.push(path);
        }
    }
    paths.sort();
    Ok(paths)
}

/// A game: who played, the moves from the empty board, and how it ended.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameRecord {
    pub black: String,
    pub white: String,
    pub moves: Vec<Point>,
    pub result: Option<GameResult>,
    /// Free text stored as the game comment (`GC`), e.g. the opening or the match.
    pub comment: String,
}

/// Why an SGF text is not a NoGo game this engine can load.
#[derive(Clone, Debug, PartialEq)]
pub enum SgfError {
    Syntax(String),
    /// `SZ` other than 9.
    BoardSize(String),
    /// A move that is not a board point (passes included: NoGo has none).
    BadPoint(String),
    /// A move played out of turn, e.g. two black moves in a row.
    OutOfTurn(usize),
    Illegal(HistoryError),
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SgfError::Syntax(what) => write!(f, "SGF syntax error: {what}"),
            SgfError::BoardSize(size) => write!(f, "board size {size} is not supported (only 9)"),
            SgfError::BadPoint(value) => write!(f, "'{value}' is not a point of the 9x9 board"),
            SgfError::OutOfTurn(index) => write!(f, "move {index} is played out of turn"),
            SgfError::Illegal(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SgfError {}

impl GameRecord {
    /// The record of `game` with the players' names, its result included when it is over.
    pub fn from_game(game: &Game, black: &str, white: &str) -> GameRecord {
        GameRecord {
            black: black.to_string(),
            white: white.to_string(),
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
        for (i, p) in self.moves.iter().enumerate() {
            let colour = if i % 2 == 0 { 'B' } else { 'W' };
            let _ = write!(out, "\n;{colour}[{}]", point_to_sgf(*p));
        }
        out.push_str(")\n");
        out
    }

    /// Parses the main line of an SGF game and checks every move against the rules.
    pub fn from_sgf(text: &str) -> Result<GameRecord, SgfError> {
        let nodes = parse_main_line(text)?;
        let mut record = GameRecord::default();
        for node in &nodes {
            for (key, values) in node {
                let first = values.first().map(String::as_str).unwrap_or("");
                match key.as_str() {
                    "SZ" if first.trim() != "9" => return Err(SgfError::BoardSize(first.to_string())),
                    "PB" => record.black = first.to_string(),
                    "PW" => record.white = first.to_string(),
                    "GC" => record.comment = first.to_string(),
                    "RE" => record.result = parse_result(first),
                    "B" | "W" => {
                        let expected = if record.moves.len() % 2 == 0 { "B" } else { "W" };
                        if key != expected {
                            return Err(SgfError::OutOfTurn(record.moves.len()));
                        }
                        record.moves.push(point_from_sgf(first)?);
                    }
                    _ => {}
                }
            }
        }
        record.position().map_err(SgfError::Illegal)?;
        Ok(record)
    }

    /// The position after all the moves.
    pub fn position(&self) -> Result<Position, HistoryError> {
        Position::from_moves(self.moves.iter().copied())
    }
}

/// SGF's result codes: `B+T` for time, `B+F` for forfeit (illegal move, crash, bad output);
/// a win by the opponent having no legal move is written in full.
fn sgf_reason_code(reason: &str) -> String {
    let lower = reason.to_ascii_lowercase();
    if lower.contains("timeout") || lower.contains("time limit") {
        "T".to_string()
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

/// The point for SGF letters.
pub fn point_from_sgf(value: &str) -> Result<Point, SgfError> {
    let bytes = value.trim().as_bytes();
    let bad = || SgfError::BadPoint(value.to_string());
    if bytes.len() != 2 || !bytes.iter().all(u8::is_ascii_lowercase) {
        return Err(bad());
    }
    Point::from_xy(bytes[0] - b'a', bytes[1] - b'a').ok_or_else(bad)
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

type Properties = Vec<(String, Vec<String>)>;

/// The nodes of the first game's main line: for each node its properties in order.
fn parse_main_line(text: &str) -> Result<Vec<Properties>, SgfError> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = chars.iter().position(|&c| c == '(').ok_or_else(|| SgfError::Syntax("no '('".into()))? + 1;
    let mut nodes = Vec::new();
    // Depth of variations entered below the main line; their content is skipped.
    let mut skip_depth = 0usize;
    while i < chars.len() {
        match chars[i] {
            ';' if skip_depth == 0 => {
                let (node, next) = parse_node(&chars, i + 1)?;
                nodes.push(node);
                i = next;
            }
            '(' => {
                // The first variation continues the main line; later ones are skipped.
                if skip_depth > 0 || nodes_seen_variation(&chars, i) {
                    skip_depth += 1;
                }
                i += 1;
            }
            ')' => {
                if skip_depth == 0 {
                    return Ok(nodes);
                }
                skip_depth -= 1;
                i += 1;
            }
            '[' => i = skip_value(&chars, i)?,
            _ => i += 1,
        }
    }
    Err(SgfError::Syntax("unterminated game tree".into()))
}

/// Whether the variation opening at `open` follows a sibling variation (so it is not the
/// first, main-line continuation).
fn nodes_seen_variation(chars: &[char], open: usize) -> bool {
    chars[..open].iter().rev().find(|c| !c.is_whitespace()) == Some(&')')
}

fn skip_value(chars: &[char], open: usize) -> Result<usize, SgfError> {
    let mut i = open + 1;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            ']' => return Ok(i + 1),
            _ => i += 1,
        }
    }
    Err(SgfError::Syntax("unterminated property value".into()))
}

fn parse_node(chars: &[char], mut i: usize) -> Result<(Properties, usize), SgfError> {
    let mut properties = Properties::new();
    loop {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        let start = i;
        while i < chars.len() && chars[i].is_ascii_alphabetic() {
            i += 1;
        }
        if start == i {
            return Ok((properties, i));
        }
        let key: String = chars[start..i].iter().filter(|c| c.is_ascii_uppercase()).collect();
        let mut values = Vec::new();
        loop {
            while i < chars.len() && chars[i].is_whitespace() {
                i += 1;
            }
            if i >= chars.len() || chars[i] != '[' {
                break;
            }
            let end = skip_value(chars, i)?;
            let mut value = String::new();
            let mut j = i + 1;
            while j < end - 1 {
                if chars[j] == '\\' {
                    j += 1;
                }
                value.push(chars[j]);
                j += 1;
            }
            values.push(value);
            i = end;
        }
        if values.is_empty() {
            return Err(SgfError::Syntax(format!("property {key} has no value")));
        }
        properties.push((key, values));
    }
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
    fn record_paths_are_the_sgf_files_in_name_order() {
        let dir = std::env::temp_dir().join(format!("nogo-record-paths-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["game-0002.sgf", "notes.txt", "game-0001.sgf"] {
            std::fs::write(dir.join(name), "").unwrap();
        }
        let names: Vec<_> = record_paths(&dir)
            .unwrap()
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(names, ["game-0001.sgf", "game-0002.sgf"]);
        assert!(record_paths(&dir).is_err(), "a missing directory is an error");
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
    fn result_codes_follow_sgf() {
        let record = |reason: &str| GameRecord {
            result: Some(GameResult { winner: Color::White, reason: reason.into() }),
            ..GameRecord::default()
        };
        assert!(record("black timeout").to_sgf().contains("RE[W+T]"));
        assert!(record("black played an illegal move").to_sgf().contains("RE[W+F]"));
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
    fn rejects_what_is_not_a_nogo_game() {
        assert!(matches!(GameRecord::from_sgf("(;SZ[19];B[aa])"), Err(SgfError::BoardSize(_))));
        assert!(matches!(GameRecord::from_sgf("(;SZ[9];B[])"), Err(SgfError::BadPoint(_))));
        assert!(matches!(GameRecord::from_sgf("(;SZ[9];B[jj])"), Err(SgfError::BadPoint(_))));
        assert!(matches!(GameRecord::from_sgf("(;B[aa];B[bb])"), Err(SgfError::OutOfTurn(1))));
        assert!(matches!(GameRecord::from_sgf("(;B[aa];W[aa])"), Err(SgfError::Illegal(_))));
        assert!(matches!(GameRecord::from_sgf("(;B[aa"), Err(SgfError::Syntax(_))));
        assert!(matches!(GameRecord::from_sgf("no game"), Err(SgfError::Syntax(_))));
    }
}
