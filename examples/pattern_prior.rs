//! How well move patterns predict the search's choice: `cargo run --release --example
//! pattern_prior -- selfplay.jsonl [EPOCHS]` (records of `nogo selfplay`, `docs/selfplay.md`);
//! `PRIOR_FIT=tree` fits the records of the tree's busy nodes (`--tree-visits`) instead of the
//! roots', `PRIOR_FIT=all` both.
//!
//! Each legal move is described by its 3x3 pattern (`nogo::search::patterns`, the eight
//! symmetries merged), its distance to the last two moves, and how far the mobility it leaves
//! falls short of the best move's (the key of today's child ordering). A softmax over the legal
//! moves with one weight per feature value is fitted, by gradient descent, to the visit shares
//! of the games whose number is not a multiple of 5; on the others (held out), roots and tree
//! nodes apart, it prints how often the search's most visited move is the model's first choice
//! (top-1) or among its first three (top-3), next to today's child ordering
//! (`nogo::search::mcts::move_order`) and to a uniformly random order.

use nogo::search::mcts::move_order;
use nogo::search::patterns::{distance, pattern};
use nogo::search::{eval, Params};
use nogo::tools::selfplay::SearchedPosition;
use nogo::Point;
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// Buckets of the mobility shortfall: 0 (a best move) to 10 or more.
const SHORTFALLS: usize = 11;
/// Buckets of a distance to a move: 0 to 4 steps, 5 for none.
const DISTANCES: usize = 6;

/// One searched position: the features of each legal move, the visit shares, the search's
/// choice, and today's ordering.
struct Sample {
    moves: Vec<(Point, [usize; 4])>,
    shares: Vec<f64>,
    best: Point,
    ordering: Vec<Point>,
}

/// The sample of `record`: a fitting one adds its new patterns to `patterns`; a held-out one
/// leaves them unknown and carries today's ordering to compare with.
fn sample(record: &Value, patterns: &mut HashMap<u32, usize>, held_out: bool) -> Option<Sample> {
    let SearchedPosition { position, last_moves: last, visits, .. } = SearchedPosition::read(record)?;
    let to_move = position.to_move();
    let total: f64 = visits.iter().map(|v| v.1).sum();
    if visits.len() < 2 || total <= 0.0 {
        return None;
    }
    let best = visits.iter().max_by(|a, b| a.1.total_cmp(&b.1))?.0;
    let legal = position.legal_both();
    let effects = position.move_effects();
    let me = to_move.index();
    let mobility = |p: Point| {
        let after = effects.legal_both_after(p);
        eval::mobility(after[me], after[1 - me])
    };
    let most = position.legal_moves().iter().map(mobility).max()?;
    let mut moves = Vec::new();
    let mut shares = Vec::new();
    for p in position.legal_moves() {
        let code = pattern(&position, legal, p);
        let next = patterns.len() + 1;
        let id =
            if held_out { *patterns.get(&code).unwrap_or(&0) } else { *patterns.entry(code).or_insert(next) };
        let shortfall = ((most - mobility(p)) as usize).min(SHORTFALLS - 1);
        let near = last.map(|m| distance(p, m) as usize);
        moves.push((p, [id, near[0], near[1], shortfall]));
        shares.push(visits.iter().find(|v| v.0 == p).map_or(0.0, |v| v.1 / total));
    }
    let ordering = if held_out { move_order(&position, last[0], &Params::default()) } else { Vec::new() };
    Some(Sample { moves, shares, best, ordering })
}

/// Weights of the four feature kinds, each indexed by its value.
struct Model {
    weights: [Vec<f64>; 4],
}

impl Model {
    fn scores(&self, sample: &Sample) -> Vec<f64> {
        sample.moves.iter().map(|(_, f)| (0..4).map(|k| self.weights[k][f[k]]).sum()).collect()
    }

    fn probabilities(&self, sample: &Sample) -> Vec<f64> {
        let scores = self.scores(sample);
        let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exp: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
        let sum: f64 = exp.iter().sum();
        exp.iter().map(|e| e / sum).collect()
    }

    /// One pass of Adagrad on the cross-entropy with the visit shares; the mean loss.
    fn train(&mut self, samples: &[Sample], squares: &mut [Vec<f64>; 4], rate: f64) -> f64 {
        let mut loss = 0.0;
        for sample in samples {
            let p = self.probabilities(sample);
            for ((_, features), (&q, &t)) in sample.moves.iter().zip(p.iter().zip(&sample.shares)) {
                if t > 0.0 {
                    loss -= t * q.max(1e-12).ln();
                }
                for k in 0..4 {
                    let g = q - t + 1e-4 * self.weights[k][features[k]];
                    squares[k][features[k]] += g * g;
                    self.weights[k][features[k]] -= rate * g / (squares[k][features[k]].sqrt() + 1e-8);
                }
            }
        }
        loss / samples.len() as f64
    }
}

/// An order of a sample's legal moves, best first.
type Order<'a> = dyn Fn(&Sample) -> Vec<Point> + 'a;

/// Top-1 and top-3 agreement of an order with the search's choice, in percent.
fn agreement(samples: &[Sample], order: impl Fn(&Sample) -> Vec<Point>) -> (f64, f64) {
    let (mut top1, mut top3) = (0, 0);
    for sample in samples {
        let order = order(sample);
        top1 += (order.first() == Some(&sample.best)) as u32;
        top3 += order.iter().take(3).any(|&p| p == sample.best) as u32;
    }
    let n = samples.len() as f64;
    (100.0 * top1 as f64 / n, 100.0 * top3 as f64 / n)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: pattern_prior SELFPLAY.jsonl [EPOCHS]");
        std::process::exit(2);
    };
    let epochs: usize = args.get(2).map_or(20, |e| e.parse().expect("a number of epochs"));
    // What to fit on: the roots' records (the default), the tree's (`--tree-visits`), or all.
    let fit_on = std::env::var("PRIOR_FIT").unwrap_or_else(|_| "root".into());
    let in_tree = |r: &Value| r.get("depth").is_some();
    let fitted = |r: &Value| match fit_on.as_str() {
        "tree" => in_tree(r),
        "all" => true,
        _ => !in_tree(r),
    };
    let held_out = |r: &Value| r["game"].as_u64().unwrap_or(0).is_multiple_of(5);
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    // Parsed line by line, twice: the tree's records of a few hundred games run to gigabytes
    // as JSON values.
    let records = || text.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok());
    let mut patterns = HashMap::new();
    let mut games = [HashSet::new(), HashSet::new()];
    let mut train = Vec::new();
    for r in records().filter(|r| !held_out(r) && fitted(r)) {
        games[0].insert(r["game"].as_u64());
        train.extend(sample(&r, &mut patterns, false));
    }
    let (mut roots, mut nodes) = (Vec::new(), Vec::new());
    for r in records().filter(|r| held_out(r)) {
        games[1].insert(r["game"].as_u64());
        let into = if in_tree(&r) { &mut nodes } else { &mut roots };
        into.extend(sample(&r, &mut patterns, true));
    }
    println!(
        "{} positions of {} games to fit ({fit_on}); held out, {} roots and {} tree nodes of {} games; {} patterns seen",
        train.len(),
        games[0].len(),
        roots.len(),
        nodes.len(),
        games[1].len(),
        patterns.len()
    );
    let sizes = [patterns.len() + 1, DISTANCES, DISTANCES, SHORTFALLS];
    let mut model = Model { weights: sizes.map(|n| vec![0.0; n]) };
    let mut squares = sizes.map(|n| vec![0.0; n]);
    for epoch in 1..=epochs {
        let loss = model.train(&train, &mut squares, 0.05);
        if epoch == 1 || epoch == epochs || epoch % 5 == 0 {
            println!("epoch {epoch}: mean cross-entropy {loss:.4}");
        }
    }
    let by_model = |s: &Sample| {
        let scores = model.scores(s);
        let mut ranked: Vec<(f64, Point)> = scores.into_iter().zip(s.moves.iter().map(|m| m.0)).collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        ranked.into_iter().map(|(_, p)| p).collect()
    };
    let legal_mean =
        |set: &[Sample]| set.iter().map(|s| s.moves.len()).sum::<usize>() as f64 / set.len().max(1) as f64;
    let orders: [(&str, &Order); 2] = [
        ("fitted patterns (3x3, last moves, mobility shortfall)", &by_model),
        ("today's child ordering (move_order)", &|s| s.ordering.clone()),
    ];
    println!("\n| order | roots top-1 | roots top-3 | tree nodes top-1 | tree nodes top-3 |");
    println!("| --- | --- | --- | --- | --- |");
    for (name, order) in orders {
        let ((r1, r3), (t1, t3)) = (agreement(&roots, order), agreement(&nodes, order));
        println!("| {name} | {r1:.1}% | {r3:.1}% | {t1:.1}% | {t3:.1}% |");
    }
    let (r, t) = (legal_mean(&roots), legal_mean(&nodes));
    println!(
        "| uniformly random (expected) | {:.1}% | {:.1}% | {:.1}% | {:.1}% |",
        100.0 / r,
        300.0 / r,
        100.0 / t,
        300.0 / t
    );
    println!(
        "\n(held out: {} roots, {r:.1} legal moves on average; {} tree nodes, {t:.1})",
        roots.len(),
        nodes.len()
    );
}
