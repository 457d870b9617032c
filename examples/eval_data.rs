//! Writes positions from self-play games as CSV on stdout, for fitting an evaluation:
//! `cargo run --release --example eval_data -- GAMES NODES > data.csv`.
//!
//! Each row is a position seen from the side that just moved: `board` has one letter per
//! point in row order (`M`/`T` a stone of the mover/the side to move; for an empty point `m`
//! legal only for the mover, `t` only for the side to move, `c` for both, `d` for neither),
//! then the moves played, `won` (did the mover win the game) and `value` (the mover's win
//! rate by a search of NODES iterations from this position, a low-noise label).
use nogo::search::engine::{Budget, Engine};
use nogo::search::mcts::Mcts;
use nogo::search::params::Params;
use nogo::{Color, Point, Position};

fn board(p: &Position) -> String {
    let to_move = p.to_move();
    let mover = !to_move;
    let l = p.legal_both();
    let (lm, lt) = (l[mover.index()], l[to_move.index()]);
    let mut s = String::with_capacity(81);
    for y in 0..9 {
        for x in 0..9 {
            let q = Point::from_xy(x, y).unwrap();
            s.push(match p.stone_at(q) {
                Some(c) if c == mover => 'M',
                Some(_) => 'T',
                None => match (lm.has(q), lt.has(q)) {
                    (true, true) => 'c',
                    (true, false) => 'm',
                    (false, true) => 't',
                    (false, false) => 'd',
                },
            });
        }
    }
    s
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args[1].parse().unwrap();
    let nodes: u64 = args[2].parse().unwrap();
    println!("board,moves,won,value");
    let rows: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2u64)
            .map(|t| {
                s.spawn(move || {
                    let mut out = Vec::new();
                    for game in (t..games).step_by(2) {
                        let mut rng = fastrand::Rng::with_seed(1000 + game);
                        let mut pos = Position::new();
                        let mut engine =
                            Mcts::new(Params { memory_bytes: 64 << 20, ..Params::default() }, game);
                        let mut seen: Vec<(String, usize, Color, f64)> = Vec::new();
                        while !pos.is_terminal() {
                            let report = engine.think(&pos, &Budget::nodes(nodes));
                            if pos.moves_played() > 0 {
                                seen.push((
                                    board(&pos),
                                    pos.moves_played(),
                                    !pos.to_move(),
                                    1.0 - report.win_rate,
                                ));
                            }
                            let mv = if pos.moves_played() < 4 || rng.f32() < 0.03 {
                                pos.legal_moves().choose(&mut rng).unwrap()
                            } else {
                                report.best
                            };
                            pos.play(mv).unwrap();
                        }
                        let winner = pos.winner().unwrap();
                        for (b, moves, mover, value) in seen {
                            out.push(format!("{b},{moves},{},{value:.4}", (mover == winner) as u8));
                        }
                    }
                    out
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    for r in rows {
        println!("{r}");
    }
}
