//! `nogo book`: builds the opening book by long searches, a ply at a time. At ply `k` the book
//! holds the positions where the side to move (the bot) has played the book's moves so far and
//! the opponent anything, each once up to symmetry; their moves lead to the next ply of the
//! bot's colour.

use crate::engines::book::Book;
use crate::engines::{create_with_params, parse_count, parse_seconds, EngineKind, SearchSettings};
use crate::rules::symmetry::{canonical, Key};
use crate::rules::{Point, Position};
use crate::search::engine::Budget;
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// `nogo book` options.
#[derive(clap::Args, Debug, Clone)]
pub struct BookArgs {
    /// The plies the book covers from the empty board, 1 to 4: 3 gives black's first two
    /// moves and white's first.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=4))]
    pub depth: u8,
    /// Seconds of search for each position.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0, value_parser = parse_seconds)]
    pub time: f64,
    /// Simulations for each position instead of a time (reproducible).
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub nodes: Option<u64>,
    /// Positions searched at once, each on a thread of its own.
    #[arg(short = 'j', long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=255))]
    pub jobs: u8,
    /// Where to write the book; stdout when omitted.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Seed of the searches' random choices.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The search's tunables (--set).
    #[command(flatten)]
    pub search: SearchSettings,
}

/// Runs `nogo book`; the exit code.
pub fn run(args: BookArgs) -> i32 {
    let text = build(&args);
    let written = match &args.out {
        Some(path) => {
            std::fs::write(path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
        None => std::io::stdout().write_all(text.as_bytes()).map_err(|e| e.to_string()),
    };
    match written {
        Ok(()) => 0,
        Err(message) => {
            eprintln!("nogo book: {message}");
            1
        }
    }
}

/// The book's text.
fn build(args: &BookArgs) -> String {
    let mut text = format!(
        "# nogo's opening book, built by `nogo book --depth {} {}` (rave, default settings{}).\n\
         # A position a line: the moves from the empty board (- for none) : the move, the\n\
         # simulations of its search, its win estimate for the side to move.\n",
        args.depth,
        match args.nodes {
            Some(nodes) => format!("--nodes {nodes}"),
            None => format!("--time {}", args.time),
        },
        args.search.settings.iter().map(|(name, value)| format!(", {name}={value}")).collect::<String>(),
    );
    for ply in 0..args.depth as usize {
        let book = Book::parse(&text).expect("the lines written so far read back");
        let lines = positions(ply, &book);
        eprintln!("nogo book: ply {ply}, {} positions", lines.len());
        for line in search_all(&lines, args) {
            text += &line;
        }
    }
    text
}

/// The move lists of the book's positions at `ply`, one for each position up to symmetry, the
/// bot's earlier moves taken from `book`.
fn positions(ply: usize, book: &Book) -> Vec<Vec<Point>> {
    let mut level: Vec<(Vec<Point>, Position)> = vec![(Vec::new(), Position::new())];
    for i in 0..ply {
        let mut seen: HashSet<Key> = HashSet::new();
        let mut next = Vec::new();
        for (moves, position) in level {
            let choices: Vec<Point> = if (ply - i).is_multiple_of(2) {
                // The bot's move: the book's, from an earlier ply.
                book.lookup(&position).map(|entry| entry.best).into_iter().collect()
            } else {
                position.legal_moves().iter().collect()
            };
            for p in choices {
                let mut after = position.clone();
                after.play_unchecked(p);
                if !after.is_terminal() && seen.insert(canonical(&after).0) {
                    let mut line = moves.clone();
                    line.push(p);
                    next.push((line, after));
                }
            }
        }
        level = next;
    }
    level.into_iter().map(|(moves, _)| moves).collect()
}

/// Searches each position of `lines` on `args.jobs` threads: a book line for each, in order.
fn search_all(lines: &[Vec<Point>], args: &BookArgs) -> Vec<String> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(vec![String::new(); lines.len()]);
    std::thread::scope(|scope| {
        for worker in 0..args.jobs as u64 {
            let (next, results) = (&next, &results);
            scope.spawn(move || {
                let mut engine =
                    create_with_params(EngineKind::Rave, args.seed + worker, args.search.params());
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(moves) = lines.get(index) else { break };
                    let position = Position::from_moves(moves.iter().copied()).expect("legal moves");
                    engine.new_game();
                    let budget = match args.nodes {
                        Some(nodes) => Budget::nodes(nodes),
                        None => Budget::until(Instant::now() + Duration::from_secs_f64(args.time)),
                    };
                    let report = engine.think(&position, &budget);
                    let path = if moves.is_empty() {
                        "-".to_string()
                    } else {
                        moves.iter().map(Point::to_string).collect::<Vec<_>>().join(" ")
                    };
                    let line =
                        format!("{path} : {} {} {:.3}\n", report.best, report.iterations, report.win_rate);
                    eprint!("nogo book: {line}");
                    results.lock().unwrap_or_else(std::sync::PoisonError::into_inner)[index] = line;
                }
            });
        }
    });
    results.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_ply_holds_the_bots_positions_once_up_to_symmetry() {
        // The empty board's 81 points are 15 up to symmetry.
        let book = Book::parse("- : J1 10 0.5\n").unwrap();
        assert_eq!(positions(0, &book), vec![Vec::<Point>::new()]);
        assert_eq!(positions(1, &book).len(), 15);
        // After black's book move J1 (a corner: one mirror keeps it), white's 80 replies are
        // 44 up to symmetry: 8 on the diagonal, 36 pairs off it.
        let second = positions(2, &book);
        assert_eq!(second.len(), 44);
        assert!(second.iter().all(|line| line[0] == "J1".parse().unwrap() && line.len() == 2));
    }

    #[test]
    fn a_small_book_reads_back_and_answers_its_own_positions() {
        let args = BookArgs {
            depth: 2,
            time: 1.0,
            nodes: Some(200),
            jobs: 2,
            out: None,
            seed: 3,
            search: SearchSettings::default(),
        };
        let text = build(&args);
        let book = Book::parse(&text).unwrap();
        assert_eq!(book.len(), 1 + 15);
        for moves in positions(1, &book) {
            let position = Position::from_moves(moves).unwrap();
            assert!(book.lookup(&position).is_some());
        }
        assert!(book.lookup(&Position::new()).is_some());
    }
}
