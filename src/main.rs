//! The `nogo` binary: the Botzone bot, and the tools as subcommands (see [`nogo::cli`]).

fn main() {
    // The first turn's clock covers the whole process: read it before anything else.
    let started = std::time::Instant::now();
    std::process::exit(nogo::cli::run(started));
}
