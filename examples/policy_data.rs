//! Training data for the move policy (`nogo::search::policy`): `cargo run --release --example
//! policy_data -- selfplay.jsonl OUT` reads the records of `nogo selfplay` (`docs/selfplay.md`;
//! roots and, with `--tree-visits`, the tree's busy nodes) and writes, for each record with at
//! least two searched moves, in the record's order:
//!
//! - `OUT.planes`: the network's input planes (`policy::planes`), `PLANES x 81` signed bytes;
//! - `OUT.shares`: the search's visit share of each of the 81 cells, little-endian `f32`s;
//! - `OUT.games`: the record's game number and 1 for a tree node (0 for a root), two
//!   little-endian `u32`s, so the trainer can hold whole games out.
//!
//! `scripts/train-policy.py` reads them (`docs/policy.md`).

use nogo::search::policy::{cell, planes};
use nogo::{Bitboard, Color, Point, Position};
use serde_json::Value;
use std::io::{BufRead, BufWriter, Write};

fn point(index: &Value) -> Option<Point> {
    let i = index.as_u64()? as u8;
    Point::from_xy(i % 9, i / 9)
}

/// The planes, the shares and the game's fields of one record; `None` for a record with fewer
/// than two searched moves.
fn sample(record: &Value) -> Option<(Vec<u8>, [f32; 81], [u32; 2])> {
    let stones = |key: &str| -> Option<Bitboard> { record[key].as_array()?.iter().map(point).collect() };
    let to_move = if record["to_move"] == "black" { Color::Black } else { Color::White };
    let position = Position::from_stones(stones("black")?, stones("white")?, to_move).ok()?;
    let visits: Vec<(Point, f64)> =
        record["visits"].as_array()?.iter().filter_map(|v| Some((point(&v[0])?, v[1].as_f64()?))).collect();
    let total: f64 = visits.iter().map(|v| v.1).sum();
    if visits.len() < 2 || total <= 0.0 {
        return None;
    }
    let last_move = record["last_moves"].get(0).and_then(point);
    let planes = planes(&position, last_move);
    let mut shares = [0f32; 81];
    for (p, n) in visits {
        shares[cell(p)] = (n / total) as f32;
    }
    let game = record["game"].as_u64()? as u32;
    let tree = record.get("depth").is_some() as u32;
    Some((planes.iter().flatten().map(|&v| v as u8).collect(), shares, [game, tree]))
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: policy_data SELFPLAY.jsonl OUT");
        std::process::exit(2);
    }
    let input = std::io::BufReader::new(std::fs::File::open(&args[1])?);
    let create = |ext: &str| -> std::io::Result<BufWriter<std::fs::File>> {
        Ok(BufWriter::new(std::fs::File::create(format!("{}.{ext}", args[2]))?))
    };
    let (mut planes, mut shares, mut games) = (create("planes")?, create("shares")?, create("games")?);
    let (mut written, mut skipped) = (0u64, 0u64);
    for line in input.lines() {
        let record: Value = match serde_json::from_str(&line?) {
            Ok(record) => record,
            Err(e) => {
                eprintln!("policy_data: a line is not JSON ({e}); skipped");
                skipped += 1;
                continue;
            }
        };
        let Some((p, s, g)) = sample(&record) else {
            skipped += 1;
            continue;
        };
        planes.write_all(&p)?;
        for v in s {
            shares.write_all(&v.to_le_bytes())?;
        }
        for v in g {
            games.write_all(&v.to_le_bytes())?;
        }
        written += 1;
    }
    for mut f in [planes, shares, games] {
        f.flush()?;
    }
    eprintln!("policy_data: {written} positions written, {skipped} records skipped");
    Ok(())
}
