//! Prints a seeded random game as Botzone `(x, y)` pairs: `cargo run --example random_game SEED`.
use nogo::Position;

fn main() {
    let seed = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut position = Position::new();
    let mut moves = Vec::new();
    while !position.is_terminal() {
        let legal = position.legal_moves();
        let p = legal.nth(rng.u32(..legal.count())).unwrap();
        position.play(p).unwrap();
        moves.push(format!("({}, {})", p.x(), p.y()));
    }
    println!("{} moves, {} won", moves.len(), !position.to_move());
    println!("{}", moves.join(", "));
}
