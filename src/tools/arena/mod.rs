//! `nogo arena`: matches between two players judged as Botzone judges them, with the
//! statistics an engine tester trusts, and every game kept as SGF.
//!
//! Games go in pairs: game `2k` and `2k + 1` start from the same opening with colours
//! swapped. Each worker thread (`-j`) plays one game at a time; the main thread keeps the
//! score, writes records, and stops the match when an SPRT decides.

pub mod botzone;
pub mod builtin;
pub mod gtp;
pub mod judge;
pub mod openings;
pub mod player;
pub mod process;
pub mod shard;
pub mod spec;
pub mod stats;

use crate::rules::hash::splitmix64;
use crate::rules::point::Color;
use judge::{Limits, Outcome, Verdict};
use openings::Opening;
use serde_json::{json, Value};
use shard::Shard;
use spec::PlayerSpec;
use stats::{Hypothesis, Sprt, Tally};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// Options of `nogo arena`.
#[derive(clap::Args, Debug)]
#[command(after_help = "PLAYER is one of:\n  \
    builtin:NAME or NAME   a built-in engine in this process (mcts, rave, random, seed, alphabeta)\n  \
    CMD or json:CMD        a command speaking Botzone's JSON protocol\n  \
    text:CMD               a command speaking Botzone's simplified text protocol\n  \
    gtp:CMD                a command speaking GTP\n\
    Commands run through `sh -c`, each in its own process group; a Botzone bot that prints\n\
    >>>BOTZONE_REQUEST_KEEP_RUNNING<<< after its answer is kept running as on Botzone.")]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct ArenaArgs {
    /// A subcommand instead of a match (`merge`).
    #[command(subcommand)]
    pub command: Option<ArenaCommand>,
    /// The first player (its score is the one reported).
    #[arg(long, value_name = "PLAYER", required = true)]
    pub player1: Option<String>,
    /// The second player.
    #[arg(long, value_name = "PLAYER", required = true)]
    pub player2: Option<String>,
    /// Name of player 1 in reports and records [default: from the engine or command].
    #[arg(long, value_name = "NAME")]
    pub name1: Option<String>,
    /// Name of player 2.
    #[arg(long, value_name = "NAME")]
    pub name2: Option<String>,
    /// Games to play; each opening is played twice, colours swapped.
    #[arg(short = 'n', long, default_value_t = 100, value_name = "N")]
    pub games: u64,
    /// Seconds a player has per turn (Botzone: 1).
    #[arg(long, default_value_t = 1.0, value_name = "SECONDS")]
    pub time: f64,
    /// Seconds for a player's first turn of a game [default: twice --time, as Botzone's 2 s
    /// for 1 s].
    #[arg(long, value_name = "SECONDS")]
    pub first_time: Option<f64>,
    /// Openings file (format in docs/arena.md, Openings), `standard` (the built-in set from
    /// fixtures/openings/standard.txt), `two-move` (fixtures/openings/two-move.txt), or `none`
    /// (every game from the empty board).
    #[arg(long, default_value = "standard", value_name = "FILE")]
    pub openings: String,
    /// Games played at once; each needs a core of its own.
    #[arg(short = 'j', long, default_value_t = 1, value_name = "N")]
    pub concurrency: usize,
    /// Threads each built-in player's search runs on (rave); each thread needs a core.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::engines::parse_threads)]
    pub threads: usize,
    /// Seed of built-in engines' random choices [default: from the clock; reported].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Stop when the SPRT decides, e.g. `0,10,0.05,0.05` (Elo of player 1 over player 2).
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA")]
    pub sprt: Option<Sprt>,
    /// Write each game as DIR/game-NNNN.sgf.
    #[arg(long, value_name = "DIR")]
    pub sgf_dir: Option<PathBuf>,
    /// Write the JSON summary (every game listed, for scripts and `nogo arena merge`) to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Play only the K-th of N slices of the match (whole pairs of games, the same games the
    /// whole match plays); `nogo arena merge` adds the shards' summaries up.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// No progress line; faults and the closing details still go to stderr.
    #[arg(short = 'q', long)]
    pub quiet: bool,
}

/// What `nogo arena` does besides playing a match.
#[derive(clap::Subcommand, Debug)]
pub enum ArenaCommand {
    /// Merge the JSON summaries of a match's shards (`--shard K/N`) into the whole match's.
    Merge {
        /// The shards' summaries (`--json FILE` of each).
        #[arg(required = true, value_name = "SUMMARY")]
        summaries: Vec<PathBuf>,
        /// Write the merged JSON summary to FILE.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
    },
}

/// Runs a match, or merges shards; the exit code (2 for bad options).
pub fn run(args: ArenaArgs) -> i32 {
    if let Some(ArenaCommand::Merge { summaries, json }) = &args.command {
        return merge(summaries, json.as_deref());
    }
    match Match::new(args) {
        Ok(m) => m.play(),
        Err(e) => {
            eprintln!("nogo arena: {e}");
            2
        }
    }
}

/// A match ready to play.
struct Match {
    args: ArenaArgs,
    specs: [PlayerSpec; 2],
    names: [String; 2],
    limits: Limits,
    openings: Vec<Opening>,
    seed: u64,
}

/// A finished game and the schedule it came from.
struct Played {
    number: u64,
    player1_colour: Color,
    opening: usize,
    game: Outcome,
}

impl Match {
    fn new(args: ArenaArgs) -> Result<Match, String> {
        let spec = |player: &Option<String>| PlayerSpec::parse(player.as_deref().unwrap_or_default());
        let specs = [spec(&args.player1)?, spec(&args.player2)?];
        if args.shard.is_some() && args.sprt.is_some() {
            return Err("an SPRT stops a match as its games come in: it cannot be split into shards".into());
        }
        let mut names = [
            args.name1.clone().unwrap_or_else(|| specs[0].default_name()),
            args.name2.clone().unwrap_or_else(|| specs[1].default_name()),
        ];
        if names[0] == names[1] {
            names = [format!("{}-1", names[0]), format!("{}-2", names[1])];
        }
        let seconds = |value: f64, option: &str| {
            if value.is_finite() && value > 0.0 && value < 1e6 {
                Ok(Duration::from_secs_f64(value))
            } else {
                Err(format!("{option} must be a positive number of seconds, got {value}"))
            }
        };
        let turn = seconds(args.time, "--time")?;
        let first_turn = seconds(args.first_time.unwrap_or(2.0 * args.time), "--first-time")?;
        if args.games == 0 || args.concurrency == 0 {
            return Err("--games and --concurrency must be at least 1".into());
        }
        if let Some(dir) = &args.sgf_dir {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let openings = openings::load(&args.openings)?;
        let seed = args.seed.unwrap_or_else(|| fastrand::u64(..) >> 16);
        Ok(Match { specs, names, limits: Limits { turn, first_turn }, openings, seed, args })
    }

    fn names(&self) -> [&str; 2] {
        [&self.names[0], &self.names[1]]
    }

    /// Game `number`'s opening index and player 1's colour.
    fn schedule(&self, number: u64) -> (usize, Color) {
        let opening = (number / 2) as usize % self.openings.len();
        (opening, if number.is_multiple_of(2) { Color::Black } else { Color::White })
    }

    /// Plays game `number`; `None` when the match stopped first.
    fn play_game(&self, number: u64, stop: &AtomicBool) -> Option<Played> {
        let (opening, player1_colour) = self.schedule(number);
        // Independent engine seeds for each (seed, game, player).
        let engine_seed = |player: u64| splitmix64(self.seed ^ splitmix64(2 * number + player));
        let threads = self.args.threads;
        let mut player1 = self.specs[0].create(engine_seed(0), self.limits.turn, threads);
        let mut player2 = self.specs[1].create(engine_seed(1), self.limits.turn, threads);
        let (black, white, names) = match player1_colour {
            Color::Black => (&mut player1, &mut player2, [self.names[0].as_str(), &self.names[1]]),
            Color::White => (&mut player2, &mut player1, [self.names[1].as_str(), &self.names[0]]),
        };
        let moves = &self.openings[opening].moves;
        let game = judge::play([black.as_mut(), white.as_mut()], names, moves, self.limits, stop)?;
        Some(Played { number, player1_colour, opening, game })
    }

    /// Games played at once: no more than there are games.
    fn concurrency(&self) -> usize {
        self.args.concurrency.min(usize::try_from(self.args.games).unwrap_or(usize::MAX))
    }

    fn warn_if_oversubscribed(&self) {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        // Botzone bots are stopped or gone between turns and built-in engines think only when
        // asked, so a game keeps one core busy; a GTP engine may ponder on its opponent's time.
        let per_game = 1 + self.specs.iter().filter(|s| s.may_ponder()).count();
        let concurrency = self.concurrency();
        let needed = concurrency * per_game;
        if needed > cores {
            eprintln!(
                "nogo arena: warning: -j {concurrency} needs {needed} cores ({per_game} per game) but \
                 {cores} are available; move times will suffer"
            );
        }
    }

    /// The numbers (from 0) of the games this process plays: its shard's.
    fn game_numbers(&self) -> Vec<u64> {
        let shard = self.args.shard.unwrap_or(Shard::WHOLE);
        (0..self.args.games).filter(|&number| shard.includes(number)).collect()
    }

    fn play(self) -> i32 {
        self.warn_if_oversubscribed();
        let numbers = self.game_numbers();
        let total = numbers.len() as u64;
        let mut listed = Vec::new();
        let next = AtomicU64::new(0);
        let stop = AtomicBool::new(false);
        let mut tally = Tally::default();
        let mut decision = None;
        let progress = Progress { enabled: !self.args.quiet, terminal: std::io::stderr().is_terminal() };
        std::thread::scope(|scope| {
            let (sender, receiver) = mpsc::channel();
            for _ in 0..self.concurrency() {
                let (sender, next, stop, this, numbers) = (sender.clone(), &next, &stop, &self, &numbers);
                scope.spawn(move || loop {
                    let at = next.fetch_add(1, Ordering::Relaxed);
                    if at >= total || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let Some(played) = this.play_game(numbers[at as usize], stop) else { break };
                    if sender.send(played).is_err() {
                        break;
                    }
                });
            }
            drop(sender);
            for played in receiver {
                // Games that end after the SPRT decided are not counted: the match ended there.
                if decision.is_some() {
                    continue;
                }
                tally.add(played.number + 1, played.player1_colour, &played.game);
                listed.push(shard::game_json(played.number + 1, played.player1_colour, &played.game));
                self.write_sgf(&played);
                if played.game.verdict != Verdict::NoLegalMove {
                    // A crash's reason quotes the bot's stderr below it, indented.
                    let reason = played.game.reason().replace('\n', "\n    ");
                    progress.note(&format!("game {}: {reason}", played.number + 1));
                }
                let loser = !played.game.winner;
                if let Some(at) = played.game.proofs[loser.index()].win {
                    let name = colour_name(&played.game.record, loser);
                    let number = played.number + 1;
                    progress.note(&format!(
                        "game {number}: WARNING: {name} lost after reporting a proven win at move {at}"
                    ));
                }
                if let Some(sprt) = self.args.sprt {
                    decision = sprt.decision(tally.wins(), tally.losses());
                    if decision.is_some() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                progress.update(tally.games(), total, &self.progress_line(&tally, total));
            }
        });
        progress.finish();
        listed.sort_by_key(|game| game["number"].as_u64());
        let sprt = self.args.sprt.map(|sprt| (sprt, decision));
        report(
            &tally,
            self.names(),
            sprt,
            &self.json_summary(&tally, decision, listed),
            self.args.json.as_deref(),
        )
    }

    fn progress_line(&self, tally: &Tally, total: u64) -> String {
        let mut line = format!("[{:>4}/{total}] {}", tally.games(), tally.score_line(self.names()));
        if let Some(sprt) = self.args.sprt {
            let (lower, upper) = sprt.bounds();
            line.push_str(&format!(
                "; LLR {:.2} ({lower:.2}, {upper:.2})",
                sprt.llr(tally.wins(), tally.losses())
            ));
        }
        line
    }

    fn write_sgf(&self, played: &Played) {
        let Some(dir) = &self.args.sgf_dir else { return };
        let opening = &self.openings[played.opening];
        let moves: Vec<String> = opening.moves.iter().map(|p| p.to_string()).collect();
        let mut record = played.game.record.clone();
        record.comment = format!(
            "nogo arena game {} of {}; opening {} ({}); {:.3} s per turn, {:.3} s first turn; seed {}",
            played.number + 1,
            self.args.games,
            opening.source,
            moves.join(" "),
            self.limits.turn.as_secs_f64(),
            self.limits.first_turn.as_secs_f64(),
            self.seed
        );
        for colour in [Color::Black, Color::White] {
            let proofs = played.game.proofs[colour.index()];
            let name = colour_name(&played.game.record, colour);
            for (at, result) in [(proofs.win, "win"), (proofs.loss, "loss")] {
                if let Some(at) = at {
                    record.comment += &format!("\n{name} ({colour}) reported a proven {result} at move {at}");
                }
            }
        }
        let path = dir.join(format!("game-{:04}.sgf", played.number + 1));
        if let Err(e) = std::fs::write(&path, record.to_sgf()) {
            eprintln!("nogo arena: cannot write {}: {e}", path.display());
        }
    }

    /// The match's JSON summary: the figures, the match's settings and every game.
    fn json_summary(&self, tally: &Tally, decision: Option<Hypothesis>, listed: Vec<Value>) -> Value {
        let player = |i: usize| json!({ "name": self.names[i], "spec": self.specs[i].to_string() });
        let mut about = json!({
            "player1": player(0),
            "player2": player(1),
            "games_planned": self.args.games,
            "time_s": self.limits.turn.as_secs_f64(),
            "first_time_s": self.limits.first_turn.as_secs_f64(),
            "openings": self.args.openings,
            "concurrency": self.args.concurrency,
            "seed": self.seed,
            "games_list": listed,
        });
        if let Some(shard) = self.args.shard {
            about["shard"] = json!({ "index": shard.index, "count": shard.count });
        }
        let mut summary = summary(tally, &about);
        if let Some(sprt) = self.args.sprt {
            let (lower, upper) = sprt.bounds();
            summary["sprt"] = json!({
                "elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha, "beta": sprt.beta,
                "llr": sprt.llr(tally.wins(), tally.losses()), "lower": lower, "upper": upper,
                "result": decision.map(|h| format!("{h:?}")),
            });
        }
        summary
    }
}

/// A match's JSON summary: the tally's figures and `about` the match (players, time, seed,
/// the games listed, ...).
fn summary(tally: &Tally, about: &Value) -> Value {
    let name = |player: &str| about[player]["name"].as_str().unwrap_or(player).to_string();
    let (name1, name2) = (name("player1"), name("player2"));
    let mut summary = tally.to_json([&name1, &name2]);
    for (key, value) in about.as_object().into_iter().flatten() {
        summary[key] = value.clone();
    }
    summary
}

/// Ends a match or a merge: the details on stderr, the result table on stdout, the JSON
/// `summary` to `json` when given; the exit code.
fn report(
    tally: &Tally,
    names: [&str; 2],
    sprt: Option<(Sprt, Option<Hypothesis>)>,
    summary: &Value,
    json: Option<&std::path::Path>,
) -> i32 {
    for line in tally.details(names) {
        eprintln!("{line}");
    }
    let mut stdout = std::io::stdout().lock();
    for line in tally.table(names, sprt) {
        let _ = writeln!(stdout, "{line}");
    }
    let _ = stdout.flush();
    let Some(path) = json else { return 0 };
    if let Err(e) = std::fs::write(path, format!("{summary:#}\n")) {
        eprintln!("nogo arena: cannot write {}: {e}", path.display());
        return 1;
    }
    0
}

/// `nogo arena merge`: the whole match's report and summary from its shards' summaries.
fn merge(paths: &[PathBuf], json: Option<&std::path::Path>) -> i32 {
    let read = |path: &PathBuf| -> Result<(String, Value), String> {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let value =
            serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
        Ok((path.display().to_string(), value))
    };
    let summaries = match paths.iter().map(read).collect::<Result<Vec<_>, _>>() {
        Ok(summaries) => summaries,
        Err(e) => {
            eprintln!("nogo arena merge: {e}");
            return 2;
        }
    };
    let shard::Merged { tally, first, games, notes } = match shard::merge(&summaries) {
        Ok(merged) => merged,
        Err(e) => {
            eprintln!("nogo arena merge: {e}");
            return 2;
        }
    };
    for note in notes {
        eprintln!("nogo arena merge: {note}");
    }
    let mut about = json!({ "games_list": games });
    for field in shard::MATCH_FIELDS.iter().chain(&["concurrency"]) {
        about[*field] = first[*field].clone();
    }
    let name = |player: &str| first[player]["name"].as_str().unwrap_or(player).to_string();
    report(&tally, [&name("player1"), &name("player2")], None, &summary(&tally, &about), json)
}

/// The progress line on stderr: a bar rewritten in place on a terminal, one line per game
/// otherwise (logs).
struct Progress {
    enabled: bool,
    terminal: bool,
}

/// Width of the progress bar in characters.
const BAR_WIDTH: u64 = 20;

impl Progress {
    fn update(&self, done: u64, total: u64, line: &str) {
        if !self.enabled {
            return;
        }
        let mut stderr = std::io::stderr().lock();
        if self.terminal {
            let filled = (BAR_WIDTH * done / total.max(1)).min(BAR_WIDTH) as usize;
            let bar = format!("{}{}", "#".repeat(filled), "-".repeat(BAR_WIDTH as usize - filled));
            let _ = write!(stderr, "\r\x1b[K{bar} {line}");
        } else {
            let _ = writeln!(stderr, "{line}");
        }
        let _ = stderr.flush();
    }

    /// A line that stays above the progress line.
    fn note(&self, line: &str) {
        if self.enabled && self.terminal {
            eprint!("\r\x1b[K");
        }
        eprintln!("{line}");
    }

    fn finish(&self) {
        if self.enabled && self.terminal {
            eprintln!();
        }
    }
}

/// The name of the player of `colour` in `record`.
fn colour_name(record: &crate::protocols::sgf::GameRecord, colour: Color) -> &str {
    match colour {
        Color::Black => &record.black,
        Color::White => &record.white,
    }
}
