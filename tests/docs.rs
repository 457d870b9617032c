//! The examples of README.md and docs/*.md run as a reader would run them: every ```` ```console ````
//! block is a transcript, each `$ COMMAND` line a command run by `sh` in the repository's
//! root (`nogo` and `target/release/nogo` are the binary under test) and the lines up to the
//! next command its output, stdout and stderr together. Times vary from run to run, so the
//! digits of `ms=` fields are not compared; everything else must match, so a transcript cannot
//! go stale.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One command of a transcript and the output it shows.
struct Example {
    file: PathBuf,
    line: usize,
    command: String,
    output: String,
}

/// The transcripts of a Markdown file.
fn examples(file: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(file).expect("a readable document");
    let mut found: Vec<Example> = Vec::new();
    let mut in_console = false;
    for (number, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            in_console = !in_console && line.trim() == "```console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            let (file, command) = (file.to_path_buf(), command.to_string());
            found.push(Example { file, line: number + 1, command, output: String::new() });
        } else if let Some(example) = found.last_mut() {
            example.output.push_str(line);
            example.output.push('\n');
        }
    }
    found
}

/// `text` with the digits of its `ms=` fields (timings) left out.
fn without_timings(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("ms=") {
        out.push_str(&rest[..at + 3]);
        rest = rest[at + 3..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

#[test]
fn every_transcript_in_the_documentation_is_what_the_build_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let binary = Path::new(env!("CARGO_BIN_EXE_nogo"));
    let path =
        format!("{}:{}", binary.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> =
        std::fs::read_dir(root.join("docs")).unwrap().map(|entry| entry.unwrap().path()).collect();
    docs.sort();
    files.extend(docs.into_iter().filter(|p| p.extension().is_some_and(|e| e == "md")));
    let all: Vec<Example> = files.iter().flat_map(|file| examples(file)).collect();
    assert!(all.len() >= 3, "the README's transcripts are found");
    for example in all {
        let command = example.command.replace("target/release/nogo", "nogo");
        let output = Command::new("sh")
            .arg("-c")
            .arg(format!("exec 2>&1; {command}"))
            .current_dir(root)
            .env("PATH", &path)
            .output()
            .expect("sh runs");
        let printed = String::from_utf8_lossy(&output.stdout);
        assert_eq!(
            without_timings(&printed),
            without_timings(&example.output),
            "{}:{}: `{}` prints otherwise",
            example.file.display(),
            example.line,
            example.command
        );
    }
}

#[test]
fn timings_are_left_out_and_nothing_else() {
    assert_eq!(without_timings("rave iterations=20 ms=104 search_ms=7 limit_ms=2000 win=0.5"), {
        "rave iterations=20 ms= search_ms= limit_ms= win=0.5"
    });
    assert_eq!(without_timings("no timing 12"), "no timing 12");
}
