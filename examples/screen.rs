//! Quick in-process screening of search parameters: `cargo run --release --example screen --
//! PAIRS NODES CANDIDATE BASELINE [BASELINE_NODES [FIRST_OPENING]]` plays the candidate against
//! the baseline from random two-move openings, each opening twice with colours swapped, at a
//! fixed number of nodes per move (the baseline at `BASELINE_NODES` when given, to measure how
//! strength scales with nodes). Openings are numbered from `FIRST_OPENING` (default 0): a second
//! sample of the same change needs other openings, or its games repeat the first's. An engine
//! is `ENGINE`, `ENGINE:key=value,...` or `key=value,...`: a built-in engine (`rave`, the
//! default, `mcts`, `seed`, `alphabeta`, `random`) with search parameters set (the names of
//! `nogo::Params::TUNABLES`). Screens recorded before 0.3.0 in `docs/strength-log.md` ran the
//! evaluation search, now `mcts:key=value,...`. Decisions that go in are confirmed with
//! `nogo arena`.
use clap::ValueEnum;
use nogo::engines::{create_with_params, EngineKind};
use nogo::search::engine::{Budget, Engine};
use nogo::search::params::Params;
use nogo::Position;

fn engine(spec: &str, seed: u64) -> Box<dyn Engine> {
    let (kind, settings) = match spec.split_once(':') {
        Some((name, settings)) => (name, settings),
        None if spec.contains('=') || spec.is_empty() => ("rave", spec),
        None => (spec, ""),
    };
    let kind = EngineKind::from_str(kind, true).unwrap_or_else(|e| panic!("engine {kind}: {e}"));
    create_with_params(kind, seed, params(settings))
}

fn params(spec: &str) -> Params {
    let mut p = Params { memory_bytes: 64 << 20, ..Params::default() };
    for kv in spec.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once('=').expect("key=value");
        let v: f64 = v.parse().expect("number");
        p.set(k, v).unwrap_or_else(|e| panic!("{e}"));
    }
    p
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pairs: u64 = args[1].parse().unwrap();
    let nodes: u64 = args[2].parse().unwrap();
    let (a, b) = (args[3].as_str(), args.get(4).map_or("", |s| s.as_str()));
    let baseline_nodes: u64 = args.get(5).map_or(nodes, |s| s.parse().unwrap());
    let first_opening: u64 = args.get(6).map_or(0, |s| s.parse().unwrap());
    let wins: u64 = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2u64)
            .map(|t| {
                s.spawn(move || {
                    let mut wins = 0;
                    for pair in (t..pairs).step_by(2) {
                        let opening_number = first_opening + pair;
                        let mut rng = fastrand::Rng::with_seed(opening_number);
                        let mut opening = Position::new();
                        for _ in 0..2 {
                            let legal = opening.legal_moves();
                            opening.play(legal.choose(&mut rng).unwrap()).unwrap();
                        }
                        for candidate_black in [true, false] {
                            let mut pos = opening.clone();
                            let mut black = engine(if candidate_black { a } else { b }, opening_number);
                            let mut white = engine(if candidate_black { b } else { a }, opening_number);
                            while !pos.is_terminal() {
                                let side =
                                    if pos.to_move() == nogo::Color::Black { &mut black } else { &mut white };
                                let n = if (pos.to_move() == nogo::Color::Black) == candidate_black {
                                    nodes
                                } else {
                                    baseline_nodes
                                };
                                let r = side.think(&pos, &Budget::nodes(n));
                                pos.play(r.best).unwrap();
                            }
                            let black_won = pos.winner() == Some(nogo::Color::Black);
                            wins += (black_won == candidate_black) as u64;
                        }
                    }
                    wins
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    let games = 2 * pairs;
    let p = wins as f64 / games as f64;
    let half = 1.96 * (p * (1.0 - p) / games as f64).sqrt();
    println!("candidate {wins}/{games} = {:.1}% +- {:.1}%", 100.0 * p, 100.0 * half);
}
