//! The command line: the Botzone bot by default, and the tools as subcommands.

use clap::{Parser, Subcommand};
use std::time::Instant;

/// The whole command line.
#[derive(Parser, Debug)]
#[command(name = "nogo", version, about = "9x9 NoGo engine and Botzone bot", long_about = LONG_ABOUT)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// The tool to run; none for the bot.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Without a subcommand: the Botzone bot, reading its input on stdin.
    #[command(flatten)]
    pub bot: crate::protocols::botzone::Options,
}

/// What `nogo --help` says the program is: the bot without a subcommand, the tools with one.
const LONG_ABOUT: &str = "9x9 NoGo engine and Botzone bot.

Without a subcommand nogo is the Botzone bot: it reads a request on stdin, in Botzone's JSON or \
simplified text protocol, answers on stdout and keeps running for the next turn. The \
subcommands are the tools.";

/// The subcommands: the tools.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Search fixed positions for a fixed number of iterations; print the signature and speed.
    Bench {
        /// Iterations per position, at least 1.
        #[arg(long, value_name = "N", default_value_t = crate::tools::bench::DEFAULT_NODES,
              value_parser = crate::engines::parse_count, allow_negative_numbers = true)]
        nodes: u64,
        /// The search to time.
        #[arg(long, value_enum, default_value_t = crate::tools::bench::BenchEngine::Rave)]
        engine: crate::tools::bench::BenchEngine,
        /// Time this many playouts from the empty board instead (the playout policy alone, no
        /// tree); print black's wins and the playouts a second.
        #[arg(long, value_name = "N", conflicts_with_all = ["nodes", "engine"],
              value_parser = crate::engines::parse_count, allow_negative_numbers = true)]
        playouts: Option<u64>,
        /// Threads the playout search runs on, together on one tree; the signature is the
        /// same every run on one thread only.
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::engines::parse_threads,
              conflicts_with = "playouts")]
        threads: usize,
        /// The search's tunables (--set).
        #[command(flatten)]
        search: crate::engines::SearchSettings,
    },
    /// Speak GTP on stdin/stdout (GoGui, gogui-twogtp), with GoGui's NoGo rules commands.
    Gtp(crate::protocols::gtp::GtpArgs),
    /// Play the bot in the terminal.
    Play(crate::tools::play::PlayArgs),
    /// Play a match between two players, judged as on Botzone; print the score and statistics.
    Arena(Box<crate::tools::arena::ArenaArgs>),
    /// Play the search against itself and write training data (one JSON object a position).
    Selfplay(crate::tools::selfplay::SelfplayArgs),
    /// Build the opening book by long searches of the first moves' positions.
    Book(crate::tools::book::BookArgs),
    /// Serve a board in the browser: play the engine and watch it think.
    Serve(crate::tools::serve::ServeArgs),
    /// Tune tunables of a built-in engine by SPSA over pairs of games against itself.
    Tune(crate::tools::tune::TuneArgs),
}

/// Parses the arguments and runs; the exit code. `started` is when the process started.
pub fn run(started: Instant) -> i32 {
    install_panic_hook();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Bench { nodes, engine, playouts, threads, search }) => {
            let out = &mut std::io::stdout().lock();
            let written = match playouts {
                Some(count) => crate::tools::bench::run_playouts(count, search.params(), out),
                None => {
                    let params = crate::search::params::Params { threads, ..search.params() };
                    crate::tools::bench::run(engine, nodes, params, out)
                }
            };
            match written {
                Ok(()) => 0,
                // A reader that stops early (`nogo bench | head`) is not an error.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
                Err(e) => {
                    eprintln!("nogo: bench: cannot write the report: {e}");
                    1
                }
            }
        }
        Some(Command::Gtp(args)) => crate::protocols::gtp::run(args),
        Some(Command::Play(args)) => crate::tools::play::run(args),
        Some(Command::Arena(args)) => crate::tools::arena::run(*args),
        Some(Command::Selfplay(args)) => crate::tools::selfplay::run(args),
        Some(Command::Book(args)) => crate::tools::book::run(args),
        Some(Command::Serve(args)) => crate::tools::serve::run(args),
        Some(Command::Tune(args)) => crate::tools::tune::run(args),
        None => crate::protocols::botzone::run(&cli.bot, started),
    }
}

/// Reports a panic as one line on stderr, without a backtrace: stdout stays the protocol's
/// and a user sees one clear message.
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        let place = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        eprintln!("nogo: internal error{place}: {}", message.replace('\n', " "));
    }));
}
