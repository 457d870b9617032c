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

use nogo::search::policy::planes;
use nogo::tools::selfplay::SearchedPosition;
use serde_json::Value;
use std::io::{BufRead, BufWriter, Write};

/// The planes, the shares and the game's fields of one record; `None` for a record with fewer
/// than two searched moves.
fn sample(record: &Value) -> Option<(Vec<u8>, [f32; 81], [u32; 2])> {
    let searched = SearchedPosition::read(record)?;
    let total: f64 = searched.visits.iter().map(|v| v.1).sum();
    if searched.visits.len() < 2 || total <= 0.0 {
        return None;
    }
    let planes = planes(&searched.position, searched.last_moves[0]);
    let mut shares = [0f32; 81];
    for &(p, n) in &searched.visits {
        shares[p.cell()] = (n / total) as f32;
    }
    let fields = [searched.game as u32, searched.tree_node as u32];
    Some((planes.iter().flatten().map(|&v| v as u8).collect(), shares, fields))
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
