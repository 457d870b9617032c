//! The command line: the Botzone bot by default, and the tools as subcommands.

use crate::engine::EngineKind;
use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(name = "nogo", version, about = "9x9 NoGo engine and Botzone bot", long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Search fixed positions for a fixed number of iterations; print the signature and speed.
    Bench {
        /// Iterations per position.
        #[arg(long, default_value_t = crate::bench::DEFAULT_NODES)]
        nodes: u64,
    },
    /// Speak GTP on stdin/stdout (GoGui, gogui-twogtp), with GoGui's NoGo rules commands.
    Gtp(crate::gtp::GtpArgs),
    /// Play the bot in the terminal.
    Play(crate::play::PlayArgs),
    /// Play a match between two players, judged as on Botzone; print the score and statistics.
    Arena(Box<crate::arena::ArenaArgs>),
}

/// Parses the arguments and runs; the exit code.
pub fn run() -> i32 {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Bench { nodes }) => {
            crate::bench::run(nodes);
            0
        }
        Some(Command::Gtp(args)) => crate::gtp::run(args),
        Some(Command::Play(args)) => crate::play::run(args),
        Some(Command::Arena(args)) => crate::arena::run(*args),
        None => {
            let _ = EngineKind::Mcts;
            eprintln!("nogo: the bot is not wired yet");
            1
        }
    }
}
