//! Writes evaluation features of positions from self-play games, with the result, as CSV on
//! stdout: `cargo run --release --example eval_data -- GAMES NODES > data.csv`. Each row is a
//! position seen from the side that just moved; `won` is whether that side won the game.
use nogo::engine::{Budget, Engine};
use nogo::mcts::Mcts;
use nogo::params::Params;
use nogo::{Color, Position};

fn features(p: &Position) -> [i32; 9] {
    let to_move = p.to_move();
    let mover = !to_move;
    let l = p.legal_both();
    let (lm, lt) = (l[mover.index()], l[to_move.index()]);
    let empty = p.empty();
    let eyes = |c: Color| (empty - (empty | p.stones(!c)).neighbors()).count() as i32;
    // Own-only points with an empty neighbour: open territory rather than sealed eyes.
    let open = |own: nogo::Bitboard| (own & empty.neighbors()).count() as i32;
    [
        (lm - lt).count() as i32,
        (lt - lm).count() as i32,
        (lm & lt).count() as i32,
        eyes(mover),
        eyes(to_move),
        open(lm - lt),
        open(lt - lm),
        (empty - lm - lt).count() as i32,
        p.moves_played() as i32,
    ]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args[1].parse().unwrap();
    let nodes: u64 = args[2].parse().unwrap();
    println!(
        "mover_only,to_move_only,contested,eyes_mover,eyes_to_move,open_mover,open_to_move,dead,moves,won"
    );
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
                        let mut seen = Vec::new();
                        while !pos.is_terminal() {
                            let mv = if pos.moves_played() < 4 || rng.f32() < 0.05 {
                                pos.legal_moves().choose(&mut rng).unwrap()
                            } else {
                                engine.think(&pos, &Budget::nodes(nodes)).best
                            };
                            pos.play(mv).unwrap();
                            if !pos.is_terminal() {
                                seen.push((features(&pos), !pos.to_move()));
                            }
                        }
                        let winner = pos.winner().unwrap();
                        for (f, mover) in seen {
                            let f: Vec<String> = f.iter().map(|v| v.to_string()).collect();
                            out.push(format!("{},{}", f.join(","), (mover == winner) as u8));
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
