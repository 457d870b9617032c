//! Seeded random games, uniform among the legal moves until the side to move has none.
//!
//! `cargo run --release --example random_game SEED` prints one game as Botzone `(x, y)` pairs.
//! `cargo run --release --example random_game SEED GAMES` plays GAMES games and prints their
//! mean length and each colour's wins; run the built binary under `time` for the CPU cost of a
//! game: `time target/release/examples/random_game 1 200000`.
use nogo::rules::random_game;
use nogo::Color;

fn main() {
    let mut args = std::env::args().skip(1).map(|arg| arg.parse::<u64>());
    let seed = args.next().and_then(Result::ok).unwrap_or(1);
    let games = args.next().and_then(Result::ok).unwrap_or(1);
    let mut rng = fastrand::Rng::with_seed(seed);
    if games == 1 {
        let mut moves = Vec::new();
        let end = random_game(&mut rng, |p| moves.push(format!("({}, {})", p.x(), p.y())));
        println!("{} moves, {} won", moves.len(), !end.to_move());
        println!("{}", moves.join(", "));
        return;
    }
    let (mut moves, mut black_wins) = (0, 0);
    for _ in 0..games {
        let end = random_game(&mut rng, |_| {});
        moves += end.moves_played();
        black_wins += u64::from(!end.to_move() == Color::Black);
    }
    println!(
        "{games} games, {:.2} moves on average, black won {black_wins}, white won {}",
        moves as f64 / games as f64,
        games - black_wins
    );
}
