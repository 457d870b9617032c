//! Where a player's lost games were lost: `cargo run --release --example turning_points --
//! SGF_DIR NAME NODES`, for the records of an arena match (`nogo arena ... --sgf-dir SGF_DIR`).
//!
//! Walks each game NAME lost back from its end through the positions where NAME was to move,
//! proving each with the endgame solver within NODES nodes, and prints one line a game:
//! - `thrown away at move M (E empty)`: NAME was winning there and its move M lost. The
//!   opponent's reply cannot undo a winning move, so the mistake is NAME's own.
//! - `lost by move M (E empty), unproven at move M' (E' empty)`: every position of NAME's from
//!   M on is lost; the one before it is past the solver's reach, so the game was decided earlier
//!   or there.
//!
//! The last line counts the two kinds.
mod common;

use nogo::protocols::sgf::GameRecord;
use nogo::search::endgame::Solver;
use nogo::search::engine::Budget;
use nogo::{Bitboard, Color, Position};

/// How one lost game was lost, walking back from its end.
enum TurningPoint {
    /// A won position of the loser's; its move there lost.
    ThrownAway { move_number: usize, empty: u32 },
    /// The earliest proven lost position of the loser's (move number, empty points), and the
    /// one before it, not proven (none when the game's first position of the loser's is proven).
    LostBy { lost: Option<(usize, u32)>, unproven: Option<(usize, u32)> },
}

fn turning_point(record: &GameRecord, loser: Color, solver: &mut Solver, nodes: u64) -> TurningPoint {
    let mut lost_by = None;
    for played in (0..record.moves.len()).rev() {
        let position = Position::from_moves(record.moves[..played].iter().copied()).expect("a legal record");
        if position.to_move() != loser {
            continue;
        }
        let (move_number, empty) = (played + 1, (position.empty() & Bitboard::FULL).count());
        match solver.wins(&position, &Budget::nodes(nodes)) {
            Some(true) => return TurningPoint::ThrownAway { move_number, empty },
            Some(false) => lost_by = Some((move_number, empty)),
            None => return TurningPoint::LostBy { lost: lost_by, unproven: Some((move_number, empty)) },
        }
    }
    TurningPoint::LostBy { lost: lost_by, unproven: None }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: turning_points SGF_DIR NAME NODES");
        std::process::exit(2);
    }
    let (name, nodes) = (&args[2], args[3].parse::<u64>().expect("NODES: a whole number"));
    let records = common::read_records(&args[1]);
    let mut solver = Solver::new(24);
    let (mut thrown_away, mut lost_by) = (0, 0);
    for (path, record) in records {
        let Some(result) = &record.result else { continue };
        let loser = !result.winner;
        if name != if loser == Color::Black { &record.black } else { &record.white } {
            continue;
        }
        let line = match turning_point(&record, loser, &mut solver, nodes) {
            TurningPoint::ThrownAway { move_number, empty } => {
                thrown_away += 1;
                format!("thrown away at move {move_number} ({empty} empty)")
            }
            TurningPoint::LostBy { lost, unproven } => {
                lost_by += 1;
                let lost =
                    lost.map_or(String::from("lost"), |(m, e)| format!("lost by move {m} ({e} empty)"));
                let before =
                    unproven.map_or(String::new(), |(m, e)| format!(", unproven at move {m} ({e} empty)"));
                format!("{lost}{before}")
            }
        };
        println!("{} {line}", path.display());
    }
    println!(
        "{name} lost {} games: {thrown_away} thrown away within the solver's reach, {lost_by} lost earlier",
        thrown_away + lost_by
    );
}
