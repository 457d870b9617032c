//! SGF read by a real parser: files written by other Go software load or are refused with a
//! one-line reason, every record the arena writes parses with `sgf-parse` and replays to the
//! same game, and no string panics the reader.

use nogo::protocols::sgf::GameRecord;
use nogo::{Color, Position};
use proptest::prelude::*;
use std::path::Path;
use std::process::Command;

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sgf").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_fixture_loads_or_is_refused_with_its_reason() {
    // (file, moves loaded, or the start of the one-line refusal)
    let cases: [(&str, Result<usize, &str>); 10] = [
        ("gogui-twogtp.sgf", Ok(74)),
        ("nogo-arena.sgf", Ok(73)),
        ("sabaki-variations.sgf", Ok(4)),
        ("escaped-comments.sgf", Ok(3)),
        ("setup-stones.sgf", Ok(3)),
        ("move-numbers.sgf", Ok(3)),
        ("kgs-19x19.sgf", Err("SZ[19]: NoGo here is played on 9x9 only")),
        ("pass.sgf", Err("W[tt] at move 2: a pass, which NoGo does not have")),
        ("capture.sgf", Err("W[ab] at move 4: illegal in NoGo: the move would capture")),
        ("chess.sgf", Err("GM: not a Go-family game record")),
    ];
    let listed = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sgf")).unwrap();
    let files = listed.filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "sgf")).count();
    assert_eq!(files, cases.len(), "every fixture has its expected outcome here");
    for (name, expected) in cases {
        match (GameRecord::from_sgf(&fixture(name)), expected) {
            (Ok(record), Ok(moves)) => {
                assert_eq!(record.moves.len(), moves, "{name}");
                record.game().unwrap_or_else(|e| panic!("{name}: {e}"));
            }
            (Err(error), Err(reason)) => {
                let text = error.to_string();
                assert!(text.starts_with(reason) && text.lines().count() == 1, "{name}: {text}");
            }
            (outcome, _) => panic!("{name}: {outcome:?}"),
        }
    }
}

#[test]
fn text_is_read_as_go_software_writes_it() {
    let escaped = GameRecord::from_sgf(&fixture("escaped-comments.sgf")).unwrap();
    assert_eq!(escaped.black, "Black ] player\\");
    // The soft line break reads as a line break (the parser keeps the newline after `\`).
    assert!(escaped.comment.contains("here\nit goes on"), "{}", escaped.comment);
    assert!(escaped.comment.contains("an escaped bracket ] and a backslash \\."), "{}", escaped.comment);
    let variations = GameRecord::from_sgf(&fixture("sabaki-variations.sgf")).unwrap();
    let main: Vec<String> = variations.moves.iter().map(|p| p.to_string()).collect();
    assert_eq!(main, ["E5", "C7", "G3", "C3"], "the main line, not the variation");
    assert_eq!((variations.black.as_str(), variations.white.as_str()), ("Alice", "Bob"));
    let setup = GameRecord::from_sgf(&fixture("setup-stones.sgf")).unwrap();
    let start = setup.setup.clone().expect("set-up stones");
    assert_eq!((start.stones(Color::Black).count(), start.stones(Color::White).count()), (3, 2));
    assert_eq!(start.to_move(), Color::White);
    assert_eq!(setup.game().unwrap().position().moves_played(), 8);
}

#[test]
fn every_record_the_arena_writes_parses_with_sgf_parse_and_replays() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sgf-records");
    let _ = std::fs::remove_dir_all(&dir);
    let status = Command::new(env!("CARGO_BIN_EXE_nogo"))
        .args(["arena", "--player1", "random", "--player2", "seed", "--games", "6", "--time", "0.02"])
        .args(["--seed", "4", "--quiet", "--json", "/dev/null", "--sgf-dir"])
        .arg(&dir)
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let mut records = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        // sgf-parse alone: the main line's moves, played on the engine's rules.
        let trees = sgf_parse::go::parse(&text).expect("sgf-parse reads the record");
        let mut position = Position::new();
        let mut winner = None;
        for node in trees[0].main_variation() {
            for property in node.properties() {
                match property {
                    sgf_parse::go::Prop::B(sgf_parse::go::Move::Move(p))
                    | sgf_parse::go::Prop::W(sgf_parse::go::Move::Move(p)) => {
                        position.play(nogo::Point::from_xy(p.x, p.y).unwrap()).unwrap();
                    }
                    sgf_parse::go::Prop::RE(result) => winner = Some(result.to_string()),
                    _ => {}
                }
            }
        }
        // Random players lose by having no move: the record ends there, its winner stated.
        assert!(position.is_terminal(), "{text}");
        let expected = if position.winner() == Some(Color::Black) { "B+" } else { "W+" };
        assert_eq!(winner.as_deref(), Some(expected), "{text}");
        assert_eq!(GameRecord::from_sgf(&text).unwrap().position().unwrap(), position);
        records += 1;
    }
    assert_eq!(records, 6);
}

/// SGF-shaped text: tokens of the format in any order, to reach deep into the parser.
fn sgf_like() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("(".to_string()),
        Just(")".to_string()),
        Just(";".to_string()),
        "[A-Z]{1,2}".prop_map(|s| s),
        "\\[[a-z]{0,3}\\]".prop_map(|s| s),
        "\\[[^\\]]{0,6}\\]".prop_map(|s| s),
        Just("\\".to_string()),
        Just("SZ[9]".to_string()),
        Just("AB[aa:cc]".to_string()),
        "[ \\n\\t]".prop_map(|s| s),
    ];
    prop::collection::vec(token, 0..40).prop_map(|tokens| tokens.concat())
}

// proptest's default of 256 cases a property; `PROPTEST_CASES=100000` for a long run.
proptest! {
    #[test]
    fn no_string_panics_the_reader(text in any::<String>()) {
        let _ = GameRecord::from_sgf(&text);
    }

    #[test]
    fn no_sgf_like_text_panics_the_reader(text in sgf_like()) {
        if let Ok(record) = GameRecord::from_sgf(&text) {
            // What loads is a legal game.
            prop_assert!(record.game().is_ok());
        }
    }
}
