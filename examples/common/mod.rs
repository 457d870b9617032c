//! What the examples share: reading the game records an arena match wrote.

use nogo::protocols::sgf::GameRecord;
use std::path::{Path, PathBuf};

/// The `.sgf` records of `dir` (an arena's `--sgf-dir`) with their paths, in name order, which
/// is game order; exits with a message when the directory or a record cannot be read.
pub fn read_records(dir: &str) -> Vec<(PathBuf, GameRecord)> {
    let entries = std::fs::read_dir(Path::new(dir)).unwrap_or_else(|e| exit(&format!("{dir}: {e}")));
    let mut paths: Vec<_> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "sgf"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text =
                std::fs::read_to_string(&path).unwrap_or_else(|e| exit(&format!("{}: {e}", path.display())));
            let record =
                GameRecord::from_sgf(&text).unwrap_or_else(|e| exit(&format!("{}: {e}", path.display())));
            (path, record)
        })
        .collect()
}

fn exit(message: &str) -> ! {
    eprintln!("{message}");
    std::process::exit(1)
}
