//! `nogo selfplay`: games of the search against itself, written as training data for move
//! priors: for each searched position the stones, the side to move, the root's visit counts,
//! the move played and the game's winner, one JSON object a line (`docs/selfplay.md`); points
//! are their row-major numbers ([`Point::cell`]).
//!
//! A game opens with a few uniformly random moves, then the search (`--engine`: the bot's
//! default, the playout search, or the evaluation search) plays at a fixed number of
//! iterations a move; for the first moves after the opening, the move played is drawn from the
//! root's visit counts raised to `1 / temperature`, so games differ. Game `i` depends only on
//! `--seed` and `i`, so `-j` and `--shard` change nothing but who plays it.

use super::arena::shard::Shard;
use crate::engines::{create_with_params, EngineKind, SearchSettings};
use crate::rules::{hash, Color, Point, Position};
use crate::search::engine::{Budget, BusyNode, Engine};
use crate::search::Params;
use serde_json::{json, Value};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// Options of `nogo selfplay`.
#[derive(clap::Args, Debug, Clone)]
pub struct SelfplayArgs {
    /// Games to play (the whole set, before --shard).
    #[arg(short = 'n', long, default_value_t = 100)]
    pub games: u64,
    /// The search that plays: a tree search, rave (the bot's) or mcts.
    #[arg(long, value_enum, default_value_t = EngineKind::Rave)]
    pub engine: EngineKind,
    /// Search iterations a move.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Uniformly random moves that open each game.
    #[arg(long, default_value_t = 4)]
    pub random_moves: usize,
    /// Searched moves, after the opening, played by drawing from the visit counts.
    #[arg(long, default_value_t = 10)]
    pub temperature_moves: usize,
    /// The draw's temperature: visits are raised to 1 / T (1: in proportion to the visits).
    #[arg(long, default_value_t = 1.0)]
    pub temperature: f64,
    /// Games played at once, one thread each.
    #[arg(short = 'j', long, default_value_t = 1)]
    pub jobs: usize,
    /// Threads each game's search runs on (rave), together on one tree.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::engines::parse_threads)]
    pub threads: usize,
    /// Seed of the openings and draws.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Play only the K-th of N slices of the games (as nogo arena --shard); the slices'
    /// outputs concatenated are the whole set's.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Also write a record for each node below the root visited at least N times (with a
    /// depth field and no played field): what the tree itself came to prefer. 0: none.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub tree_visits: u32,
    /// The search's tunables (--set).
    #[command(flatten)]
    pub search: SearchSettings,
    /// Write the records to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Plays game `number`; its records, in play order.
pub fn play_game(args: &SelfplayArgs, number: u64) -> Vec<Value> {
    let mut rng = fastrand::Rng::with_seed(hash::combine(args.seed, number));
    let mut position = Position::new();
    let mut moves: Vec<Point> = Vec::new();
    let play = |position: &mut Position, moves: &mut Vec<Point>, p: Point| {
        position.play(p).expect("a legal move");
        moves.push(p);
    };
    while moves.len() < args.random_moves && !position.is_terminal() {
        let p = position.legal_moves().choose(&mut rng).expect("a legal move");
        play(&mut position, &mut moves, p);
    }
    let params = Params { memory_bytes: 64 << 20, threads: args.threads, ..args.search.params() };
    let mut search = create_with_params(args.engine, number, params);
    let mut records = Vec::new();
    let mut searched_moves = 0;
    while !position.is_terminal() {
        let report = search.think(&position, &Budget::nodes(args.nodes));
        let children = search.root_children(&position);
        let visits: Vec<(Point, u32)> = children.iter().map(|&(p, visits, _)| (p, visits)).collect();
        let drawn = searched_moves < args.temperature_moves && !visits.is_empty();
        let played = if drawn { draw(&visits, args.temperature, &mut rng) } else { report.best };
        if args.tree_visits > 0 && !visits.is_empty() {
            records.extend(tree_records(search.as_ref(), &position, &moves, number, args.tree_visits));
        }
        let mut record = position_record(number, &position, &moves, &children);
        record["iterations"] = json!(report.iterations);
        record["best"] = json!(report.best.cell());
        record["win_rate"] = json!(report.win_rate);
        record["played"] = json!(played.cell());
        records.push(record);
        searched_moves += 1;
        play(&mut position, &mut moves, played);
    }
    let winner = position.winner().expect("the game is over").to_string();
    for record in &mut records {
        record["winner"] = json!(winner);
    }
    records
}

/// The records of the nodes below the root of `search` (whose position is `position`,
/// reached by `moves`) visited at least `min_visits` times.
fn tree_records(
    search: &dyn Engine,
    position: &Position,
    moves: &[Point],
    number: u64,
    min_visits: u32,
) -> Vec<Value> {
    let mut records = Vec::new();
    for BusyNode { line, children } in search.busy_nodes(position, min_visits) {
        let mut node = position.clone();
        for &p in &line {
            node.play_unchecked(p);
        }
        let mut path = moves.to_vec();
        path.extend(&line);
        let mut record = position_record(number, &node, &path, &children);
        record["depth"] = json!(line.len());
        records.push(record);
    }
    records
}

/// The fields every record has but the winner: `position`, reached by `moves` in game
/// `number`, and the visits and means of its searched moves.
fn position_record(
    number: u64,
    position: &Position,
    moves: &[Point],
    children: &[(Point, u32, f32)],
) -> Value {
    let stones = |c: Color| position.stones(c).iter().map(Point::cell).collect::<Vec<_>>();
    json!({
        "game": number,
        "ply": moves.len(),
        "to_move": position.to_move().to_string(),
        "black": stones(Color::Black),
        "white": stones(Color::White),
        "last_moves": [moves.last().map(|p| p.cell()), moves.iter().rev().nth(1).map(|p| p.cell())],
        "visits": children.iter().map(|&(p, n, _)| [p.cell() as u64, n as u64]).collect::<Vec<_>>(),
        "means": children.iter().filter(|c| c.1 > 0).map(|&(p, _, mean)| json!([p.cell(), (mean as f64 * 1e4).round() / 1e4])).collect::<Vec<_>>(),
    })
}

/// What a record says of its position, read back (for the tools that learn from the records).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchedPosition {
    /// The game it came from, numbered from 0.
    pub game: u64,
    /// The position searched.
    pub position: Position,
    /// The last move and the one before it.
    pub last_moves: [Option<Point>; 2],
    /// Each searched move with its visits.
    pub visits: Vec<(Point, f64)>,
    /// Each simulated move with its mover's share of wins (none in records before `means`).
    pub means: Vec<(Point, f64)>,
    /// Whether the record is of a node of the tree (`--tree-visits`) rather than a root.
    pub tree_node: bool,
}

impl SearchedPosition {
    /// The position of a record, `None` when the record is not one `nogo selfplay` writes.
    pub fn read(record: &Value) -> Option<SearchedPosition> {
        let point = |v: &Value| Point::from_cell(usize::try_from(v.as_u64()?).ok()?);
        let stones = |key: &str| -> Option<crate::rules::Bitboard> {
            record[key].as_array()?.iter().map(point).collect()
        };
        let to_move = Color::from_gtp(record["to_move"].as_str()?)?;
        let position = Position::from_stones(stones("black")?, stones("white")?, to_move).ok()?;
        let last = record["last_moves"].as_array()?;
        let visits = record["visits"].as_array()?;
        let pair = |v: &Value| Some((point(&v[0])?, v[1].as_f64()?));
        Some(SearchedPosition {
            game: record["game"].as_u64()?,
            position,
            last_moves: [0, 1].map(|i| last.get(i).and_then(point)),
            visits: visits.iter().map(pair).collect::<Option<_>>()?,
            means: match record.get("means") {
                Some(means) => means.as_array()?.iter().map(pair).collect::<Option<_>>()?,
                None => Vec::new(),
            },
            tree_node: record.get("depth").is_some(),
        })
    }
}

/// A move drawn with probability proportional to `visits ^ (1 / temperature)`.
fn draw(visits: &[(Point, u32)], temperature: f64, rng: &mut fastrand::Rng) -> Point {
    let weights: Vec<f64> = visits.iter().map(|&(_, n)| (n as f64).powf(1.0 / temperature)).collect();
    let mut target = rng.f64() * weights.iter().sum::<f64>();
    for (&(p, _), weight) in visits.iter().zip(&weights) {
        if target < *weight {
            return p;
        }
        target -= weight;
    }
    visits.last().expect("searched moves").0
}

/// Runs `nogo selfplay`; the exit code.
pub fn run(args: SelfplayArgs) -> i32 {
    if args.jobs == 0 || args.temperature.is_nan() || args.temperature <= 0.0 {
        eprintln!("nogo selfplay: --jobs must be at least 1 and --temperature above 0");
        return 2;
    }
    if !matches!(args.engine, EngineKind::Rave | EngineKind::Mcts) {
        eprintln!(
            "nogo selfplay: --engine {} has no search tree to record: use rave or mcts",
            args.engine.name()
        );
        return 2;
    }
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let numbers: Vec<u64> = (0..args.games).filter(|&n| shard.includes(n)).collect();
    let mut out: Box<dyn Write> = match &args.out {
        Some(path) => match std::fs::File::create(path) {
            Ok(file) => Box::new(std::io::BufWriter::new(file)),
            Err(e) => {
                eprintln!("nogo selfplay: cannot create {}: {e}", path.display());
                return 1;
            }
        },
        None => Box::new(std::io::stdout().lock()),
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if args.jobs > cores {
        eprintln!("nogo selfplay: warning: -j {} but {cores} cores: each game wants one", args.jobs);
    }
    let started = Instant::now();
    let next = AtomicU64::new(0);
    let total = numbers.len() as u64;
    let terminal = std::io::stderr().is_terminal();
    let mut failed = None;
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        for _ in 0..args.jobs.min(numbers.len().max(1)) {
            let (sender, next, numbers, args) = (sender.clone(), &next, &numbers, &args);
            scope.spawn(move || loop {
                let at = next.fetch_add(1, Ordering::Relaxed) as usize;
                let Some(&number) = numbers.get(at) else { break };
                if sender.send(play_game(args, number)).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        let mut done = 0u64;
        let mut positions = 0;
        for records in receiver {
            for record in &records {
                if let Err(e) = writeln!(out, "{record}") {
                    failed.get_or_insert(e);
                }
            }
            done += 1;
            positions += records.len();
            let elapsed = started.elapsed().as_secs_f64();
            let eta = elapsed / done as f64 * (total - done) as f64;
            let line = format!("[{done:>4}/{total}] {positions} positions, {elapsed:.0} s, ETA {eta:.0} s");
            if terminal {
                eprint!("\r\x1b[K{line}");
            } else {
                eprintln!("{line}");
            }
        }
        if terminal {
            eprintln!();
        }
    });
    match failed.map(Err).unwrap_or_else(|| out.flush()) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("nogo selfplay: cannot write the records: {e}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::params::parse_setting;

    fn args(games: u64) -> SelfplayArgs {
        SelfplayArgs {
            games,
            engine: EngineKind::Rave,
            nodes: 300,
            random_moves: 2,
            temperature_moves: 4,
            temperature: 1.0,
            jobs: 1,
            threads: 1,
            seed: 3,
            shard: None,
            tree_visits: 0,
            search: SearchSettings::default(),
            out: None,
        }
    }

    fn points(value: &Value) -> crate::rules::Bitboard {
        let point = |i: &Value| Point::from_cell(i.as_u64().unwrap() as usize).unwrap();
        value.as_array().unwrap().iter().map(point).collect()
    }

    fn position(record: &Value) -> Position {
        let to_move = if record["to_move"] == "black" { Color::Black } else { Color::White };
        Position::from_stones(points(&record["black"]), points(&record["white"]), to_move).unwrap()
    }

    #[test]
    fn records_read_back_as_written() {
        let records = play_game(&SelfplayArgs { tree_visits: 20, ..args(1) }, 0);
        let mut trees = 0;
        for record in &records {
            let read = SearchedPosition::read(record).expect("a record reads back");
            assert_eq!(read.game, 0);
            assert_eq!(read.position.stones(Color::Black), points(&record["black"]));
            assert_eq!(read.position.stones(Color::White), points(&record["white"]));
            assert_eq!(read.position.to_move().to_string(), record["to_move"]);
            assert_eq!(read.visits.len(), record["visits"].as_array().unwrap().len());
            let means = record["means"].as_array().unwrap();
            assert!(read.means.iter().zip(means).all(|(m, r)| m.0.cell() as u64 == r[0] && m.1 == r[1]));
            assert_eq!(read.means.len(), means.len());
            assert_eq!(
                read.last_moves.map(|m| m.map(|p| p.cell() as u64)),
                [0, 1].map(|i| record["last_moves"][i].as_u64())
            );
            trees += read.tree_node as usize;
        }
        assert!(trees > 0 && trees < records.len());
        let mut older = records[0].clone();
        older.as_object_mut().unwrap().remove("means");
        assert_eq!(SearchedPosition::read(&older).expect("a record without means").means, Vec::new());
        let mut broken = records[0].clone();
        broken["black"] = json!([81]);
        assert_eq!(SearchedPosition::read(&broken), None);
        assert_eq!(SearchedPosition::read(&json!({"game": 1})), None);
    }

    #[test]
    fn settings_name_a_tunable_within_its_range() {
        assert_eq!(parse_setting("policy_visits=0"), Ok(("policy_visits".to_string(), 0.0)));
        assert!(parse_setting("policy_visits").unwrap_err().contains("NAME=VALUE"));
        assert!(parse_setting("no_such_thing=1").unwrap_err().contains("unknown parameter"));
        assert!(parse_setting("widening=100").unwrap_err().contains("outside its range"));
        assert!(parse_setting("widening=x").unwrap_err().contains("not a number"));
        // A setting reaches the search: without the evaluation prior the games differ.
        let off = vec![("rave_eval_weight".to_string(), 0.0)];
        let with = play_game(&SelfplayArgs { nodes: 3000, ..args(1) }, 0);
        let without =
            play_game(&SelfplayArgs { nodes: 3000, search: SearchSettings { settings: off }, ..args(1) }, 0);
        assert_ne!(with, without);
    }

    #[test]
    fn the_engine_chosen_plays() {
        let mcts = SelfplayArgs { engine: EngineKind::Mcts, ..args(1) };
        assert_ne!(play_game(&args(1), 0), play_game(&mcts, 0));
        assert_eq!(run(SelfplayArgs { engine: EngineKind::Random, ..args(1) }), 2, "no tree to record");
    }

    #[test]
    fn records_replay_as_the_game_was_played() {
        for engine in [EngineKind::Rave, EngineKind::Mcts] {
            records_replay(&play_game(&SelfplayArgs { engine, ..args(1) }, 0));
        }
    }

    fn records_replay(records: &[Value]) {
        assert!(!records.is_empty());
        let mut last_winner = None;
        for (i, record) in records.iter().enumerate() {
            let position = position(record);
            assert_eq!(position.moves_played() as u64, record["ply"].as_u64().unwrap());
            let played = record["played"].as_u64().unwrap() as u8;
            let played = Point::from_cell(played as usize).unwrap();
            assert!(position.legal_moves().has(played), "record {i}");
            // Visits of legal moves, the tree's reused part included: at least this search's.
            let visits = record["visits"].as_array().unwrap();
            let sum: u64 = visits.iter().map(|v| v[1].as_u64().unwrap()).sum();
            assert!(visits.is_empty() || sum + 1 >= record["iterations"].as_u64().unwrap(), "record {i}");
            for v in visits {
                let p = v[0].as_u64().unwrap() as u8;
                assert!(position.legal_moves().has(Point::from_cell(p as usize).unwrap()));
            }
            // The next record's position is this one after the move played.
            if let Some(next) = records.get(i + 1) {
                let mut after = position.clone();
                after.play(played).unwrap();
                assert_eq!(points(&next["black"]), after.stones(Color::Black));
                assert_eq!(points(&next["white"]), after.stones(Color::White));
            } else {
                let mut end = position.clone();
                end.play(played).unwrap();
                assert!(end.is_terminal());
                last_winner = Some(end.winner().unwrap().to_string());
            }
        }
        assert!(records.iter().all(|r| r["winner"].as_str() == last_winner.as_deref()));
    }

    #[test]
    fn games_depend_on_the_seed_and_their_number_only() {
        let whole: Vec<Value> = (0..4).flat_map(|n| play_game(&args(4), n)).collect();
        assert_eq!(whole, (0..4).flat_map(|n| play_game(&args(4), n)).collect::<Vec<_>>());
        let other_seed = SelfplayArgs { seed: 4, ..args(4) };
        assert_ne!(play_game(&args(4), 0), play_game(&other_seed, 0));
        let halves: [Shard; 2] = ["1/2".parse().unwrap(), "2/2".parse().unwrap()];
        for n in 0..4 {
            assert_eq!(halves.iter().filter(|s| s.includes(n)).count(), 1);
        }
    }

    #[test]
    fn tree_records_are_busy_nodes_below_the_root_searched() {
        for engine in [EngineKind::Rave, EngineKind::Mcts] {
            tree_records_below(SelfplayArgs { engine, ..args(1) });
        }
    }

    fn tree_records_below(args: SelfplayArgs) {
        let records = play_game(&SelfplayArgs { tree_visits: 20, ..args.clone() }, 0);
        let mut below = 0;
        for (i, record) in records.iter().enumerate() {
            let Some(depth) = record.get("depth").and_then(Value::as_u64) else { continue };
            below += 1;
            // The search's own record follows the records of its tree.
            let root = records[i..].iter().find(|r| r.get("depth").is_none()).unwrap();
            assert!(depth >= 1);
            assert_eq!(record["ply"].as_u64().unwrap(), root["ply"].as_u64().unwrap() + depth);
            let (node, root) = (position(record), position(root));
            for colour in [Color::Black, Color::White] {
                assert!(root.stones(colour).is_subset(node.stones(colour)), "record {i}");
            }
            assert_eq!(node.moves_played(), root.moves_played() + depth as usize, "record {i}");
            let visits = record["visits"].as_array().unwrap();
            assert!(!visits.is_empty(), "record {i}");
            for v in visits {
                let p = v[0].as_u64().unwrap() as u8;
                assert!(node.legal_moves().has(Point::from_cell(p as usize).unwrap()), "record {i}");
            }
            // A mean for each simulated child, and only for those.
            let simulated: Vec<&Value> =
                visits.iter().filter(|v| v[1].as_u64().unwrap() > 0).map(|v| &v[0]).collect();
            let means = record["means"].as_array().unwrap();
            assert_eq!(means.iter().map(|m| &m[0]).collect::<Vec<_>>(), simulated, "record {i}");
            assert!(means.iter().all(|m| (0.0..=1.0).contains(&m[1].as_f64().unwrap())), "record {i}");
        }
        assert!(below > 0);
        let plain = play_game(&args, 0);
        assert!(plain.iter().all(|r| r.get("depth").is_none()));
        assert_eq!(plain, records.into_iter().filter(|r| r.get("depth").is_none()).collect::<Vec<_>>());
    }
}
