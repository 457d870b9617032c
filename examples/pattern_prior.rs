//! How well move patterns predict the search's choice: `cargo run --release --example
//! pattern_prior -- selfplay.jsonl [EPOCHS]` (records of `nogo selfplay`, `docs/selfplay.md`).
//!
//! Each legal move is described by its 3x3 pattern (`nogo::search::patterns`, the eight
//! symmetries merged), its distance to the last two moves, and how far the mobility it leaves
//! falls short of the best move's (the key of today's child ordering). A softmax over the legal
//! moves with one weight per feature value is fitted, by gradient descent, to the root's visit
//! shares of the games whose number is not a multiple of 5; on the others (held out) it prints
//! how often the search's most visited move is the model's first choice (top-1) or among its
//! first three (top-3), next to today's child ordering (`nogo::search::mcts::move_order`) and
//! to a uniformly random order.

use nogo::search::mcts::move_order;
use nogo::search::patterns::{distance, pattern};
use nogo::search::{eval, Params};
use nogo::{Bitboard, Color, Point, Position};
use serde_json::Value;
use std::collections::HashMap;

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

fn point(index: &Value) -> Option<Point> {
    let i = index.as_u64()? as u8;
    Point::from_xy(i % 9, i / 9)
}

fn sample(record: &Value, patterns: &mut HashMap<u32, usize>, grow: bool) -> Option<Sample> {
    let stones = |key: &str| -> Option<Bitboard> { record[key].as_array()?.iter().map(point).collect() };
    let to_move = if record["to_move"] == "black" { Color::Black } else { Color::White };
    let position = Position::from_stones(stones("black")?, stones("white")?, to_move).ok()?;
    let visits: Vec<(Point, f64)> =
        record["visits"].as_array()?.iter().filter_map(|v| Some((point(&v[0])?, v[1].as_f64()?))).collect();
    let total: f64 = visits.iter().map(|v| v.1).sum();
    if visits.len() < 2 || total <= 0.0 {
        return None;
    }
    let best = visits.iter().max_by(|a, b| a.1.total_cmp(&b.1))?.0;
    let last: Vec<Option<Point>> = record["last_moves"].as_array()?.iter().map(point).collect();
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
            if grow { *patterns.entry(code).or_insert(next) } else { *patterns.get(&code).unwrap_or(&0) };
        let shortfall = ((most - mobility(p)) as usize).min(SHORTFALLS - 1);
        let near = [0, 1].map(|i| distance(p, last.get(i).copied().flatten()) as usize);
        moves.push((p, [id, near[0], near[1], shortfall]));
        shares.push(visits.iter().find(|v| v.0 == p).map_or(0.0, |v| v.1 / total));
    }
    let ordering = move_order(&position, last.first().copied().flatten(), &Params::default());
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
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let records: Vec<Value> = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    let held_out = |r: &Value| r["game"].as_u64().unwrap_or(0).is_multiple_of(5);
    let mut patterns = HashMap::new();
    let train: Vec<Sample> =
        records.iter().filter(|r| !held_out(r)).filter_map(|r| sample(r, &mut patterns, true)).collect();
    let test: Vec<Sample> =
        records.iter().filter(|r| held_out(r)).filter_map(|r| sample(r, &mut patterns, false)).collect();
    let games = |held: bool| {
        let mut g: Vec<u64> =
            records.iter().filter(|r| held_out(r) == held).filter_map(|r| r["game"].as_u64()).collect();
        g.dedup();
        g.len()
    };
    println!(
        "{} positions of {} games to fit, {} positions of {} games held out; {} patterns seen",
        train.len(),
        games(false),
        test.len(),
        games(true),
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
    let legal_mean = test.iter().map(|s| s.moves.len()).sum::<usize>() as f64 / test.len().max(1) as f64;
    println!("\n| order | top-1 | top-3 |\n| --- | --- | --- |");
    for (name, (top1, top3)) in [
        ("fitted patterns (3x3, last moves, mobility shortfall)", agreement(&test, by_model)),
        ("today's child ordering (move_order)", agreement(&test, |s| s.ordering.clone())),
        ("uniformly random (expected)", (100.0 / legal_mean, 300.0 / legal_mean)),
    ] {
        println!("| {name} | {top1:.1}% | {top3:.1}% |");
    }
    println!("\n(held-out positions: {}, legal moves {legal_mean:.1} on average)", test.len());
}
