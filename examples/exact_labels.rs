//! Exact labels for fitting a late-game evaluation: `cargo run --release --example
//! exact_labels -- SGF_DIR LOW HIGH NODES > exact.csv`, then `python3 scripts/fit-exact.py
//! exact.csv`.
//!
//! Walks each game of an arena's records (`nogo arena ... --sgf-dir SGF_DIR`) back from its
//! end and writes one CSV row for each position with LOW to HIGH empty points that the endgame
//! solver proves within NODES nodes (a game's walk stops at the first it does not). A row is
//! seen from the side that just moved, as the evaluation is: its mobility ([`eval::mobility`]),
//! both sides' eyes ([`eyes`]) and pile moves ([`Solver::pile_moves`]), and `won`, whether
//! it wins with best play. Unlike a game's result, the label has no noise from later play.
use nogo::protocols::sgf::GameRecord;
use nogo::rules::tactics::eyes;
use nogo::search::endgame::Solver;
use nogo::search::engine::Budget;
use nogo::search::eval;
use nogo::{Bitboard, Position};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 5 {
        eprintln!("usage: exact_labels SGF_DIR LOW HIGH NODES");
        std::process::exit(2);
    }
    let number = |i: usize| -> u64 { args[i].parse().expect("a whole number") };
    let (low, high, nodes) = (number(2) as u32, number(3) as u32, number(4));
    let paths = nogo::protocols::sgf::record_paths(std::path::Path::new(&args[1]))
        .expect("a directory of SGF records");
    println!("game,moves,empty,mobility,eyes_mover,eyes_to_move,piles_mover,piles_to_move,won");
    let mut solver = Solver::new(22);
    for (game, path) in paths.iter().enumerate() {
        let text = std::fs::read_to_string(path).expect("a readable record");
        let record = GameRecord::from_sgf(&text).expect("an arena record");
        for moves in (0..record.moves.len()).rev() {
            let position = Position::from_moves(record.moves[..moves].iter().copied()).expect("legal");
            let empty = (position.empty() & Bitboard::FULL).count();
            if empty < low {
                continue;
            }
            if empty > high {
                break;
            }
            let Some(solution) = solver.solve(&position, &Budget::nodes(nodes)) else { break };
            let to_move = position.to_move();
            let legal = position.legal_both();
            let piles = solver.pile_moves(&position);
            println!(
                "{game},{moves},{empty},{},{},{},{},{},{}",
                eval::mobility(legal[(!to_move).index()], legal[to_move.index()]),
                eyes(&position, !to_move).count(),
                eyes(&position, to_move).count(),
                piles[(!to_move).index()],
                piles[to_move.index()],
                u8::from(!solution.win),
            );
        }
    }
}
