//! Training data for the networks of `nogo::search::policy` (the move policy and the value
//! prior): `cargo run --release --example policy_data -- selfplay.jsonl OUT` reads the records
//! of `nogo selfplay` (`docs/selfplay.md`; roots and, with `--tree-visits`, the tree's busy
//! nodes) and writes, for each record with at least two searched moves, in the record's order:
//!
//! - `OUT.planes`: the network's input planes (`policy::planes`), `PLANES x 81` signed bytes;
//! - `OUT.shares`: the search's visit share of each of the 81 cells, little-endian `f32`s;
//! - `OUT.visits`: each cell's simulations, and `OUT.means`: its mover's share of them won
//!   (0 where none), 81 little-endian `f32`s each;
//! - `OUT.prior`: the mean the playout search's default prior gives each legal cell (the
//!   mobility evaluation, `rave_eval_weight`), 0.5 elsewhere, 81 `f32`s;
//! - `OUT.games`: the record's game number and 1 for a tree node (0 for a root), two
//!   little-endian `u32`s, so the trainer can hold whole games out.
//!
//! `scripts/train-policy.py` reads them (`docs/policy.md`).

use nogo::search::eval::ValueTable;
use nogo::search::policy::planes;
use nogo::tools::selfplay::SearchedPosition;
use nogo::Params;
use serde_json::Value;
use std::io::{BufRead, BufWriter, Write};

/// What one record gives: its planes, its cells' shares, visits, means and prior means
/// (`OUT.shares`, `OUT.visits`, `OUT.means`, `OUT.prior`) and its game's fields.
struct Sample {
    planes: Vec<u8>,
    cells: [[f32; 81]; 4],
    fields: [u32; 2],
}

/// The sample of one record; `None` for a record with fewer than two searched moves.
fn sample(record: &Value, params: &Params, values: &ValueTable) -> Option<Sample> {
    let searched = SearchedPosition::read(record)?;
    let total: f64 = searched.visits.iter().map(|v| v.1).sum();
    if searched.visits.len() < 2 || total <= 0.0 {
        return None;
    }
    let position = &searched.position;
    let planes = planes(position, searched.last_moves[0]);
    let [mut shares, mut visits, mut means, mut prior] = [[0f32; 81], [0f32; 81], [0f32; 81], [0.5f32; 81]];
    for &(p, n) in &searched.visits {
        shares[p.cell()] = (n / total) as f32;
        visits[p.cell()] = n as f32;
    }
    for &(p, mean) in &searched.means {
        means[p.cell()] = mean as f32;
    }
    let moves = position.legal_moves();
    let after = values.values_after(position, moves, params);
    for p in moves {
        prior[p.cell()] = 0.5 + params.rave_eval_weight * (after[p.index()] - 0.5);
    }
    let fields = [searched.game as u32, searched.tree_node as u32];
    let planes = planes.iter().flatten().map(|&v| v as u8).collect();
    Some(Sample { planes, cells: [shares, visits, means, prior], fields })
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
    let mut planes = create("planes")?;
    let mut cells = [create("shares")?, create("visits")?, create("means")?, create("prior")?];
    let mut games = create("games")?;
    let (mut written, mut skipped) = (0u64, 0u64);
    let params = Params::default();
    let values = ValueTable::new(&params);
    for line in input.lines() {
        let record: Value = match serde_json::from_str(&line?) {
            Ok(record) => record,
            Err(e) => {
                eprintln!("policy_data: a line is not JSON ({e}); skipped");
                skipped += 1;
                continue;
            }
        };
        let Some(sample) = sample(&record, &params, &values) else {
            skipped += 1;
            continue;
        };
        planes.write_all(&sample.planes)?;
        for (file, values) in cells.iter_mut().zip(&sample.cells) {
            for v in values {
                file.write_all(&v.to_le_bytes())?;
            }
        }
        for v in sample.fields {
            games.write_all(&v.to_le_bytes())?;
        }
        written += 1;
    }
    for f in cells.iter_mut().chain([&mut planes, &mut games]) {
        f.flush()?;
    }
    eprintln!("policy_data: {written} positions written, {skipped} records skipped");
    Ok(())
}
