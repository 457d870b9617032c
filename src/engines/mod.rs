//! The registry of built-in engines, selectable by name (`nogo --engine NAME`, the arena's
//! built-in players), and the engine options every front end shares ([`EngineArgs`]).
//! Besides the project's own searches ([`Rave`], the default, and [`Mcts`]) it holds the
//! baselines that measure progress.

pub mod alphabeta;
pub mod book;
pub mod random;
pub mod seed;

use crate::search::engine::{Budget, Engine};
use crate::search::mcts::Mcts;
use crate::search::params::{parse_setting, tunables_table, Params, DEFAULT_MEMORY_BYTES};
use crate::search::rave::Rave;
use crate::search::time;
use std::io::Write;
use std::time::{Duration, Instant};

/// The built-in engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineKind {
    /// The evaluation search: Monte Carlo tree search scored by the mobility evaluation, the
    /// design the project started from (the default until 0.2.0).
    Mcts,
    /// The playout search: Monte Carlo tree search with random playouts and RAVE (the default).
    Rave,
    /// Uniformly random among legal moves.
    Random,
    /// The seed bot: evaluation-only MCTS with the mobility score.
    Seed,
    /// The seed's alpha-beta with its shaped evaluation.
    #[value(name = "alphabeta")]
    AlphaBeta,
}

impl EngineKind {
    /// The engine's name.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Mcts => "mcts",
            EngineKind::Rave => "rave",
            EngineKind::Random => "random",
            EngineKind::Seed => "seed",
            EngineKind::AlphaBeta => "alphabeta",
        }
    }
}

/// The engine that plays a game: [`create_with_params`], opening from the embedded book when
/// `book` is set and the engine is the default one, for which the book was built.
pub fn player(kind: EngineKind, seed: u64, params: Params, book: bool) -> Box<dyn Engine> {
    let engine = create_with_params(kind, seed, params);
    match opening_book(kind, book) {
        Some(book) => Box::new(book::Booked::new(engine, book)),
        None => engine,
    }
}

/// The book a game with `kind` opens from when `wanted`: the embedded one, for the engine it
/// was built for (rave).
pub fn opening_book(kind: EngineKind, wanted: bool) -> Option<&'static book::Book> {
    (wanted && kind == EngineKind::Rave).then(book::Book::embedded)
}

/// Builds a built-in engine; `seed` makes its random choices reproducible.
pub fn create(kind: EngineKind, seed: u64) -> Box<dyn Engine> {
    create_with_params(kind, seed, Params::default())
}

/// Like [`create`], with the search parameters given (the tree's memory cap, for instance);
/// engines without parameters ignore them.
pub fn create_with_params(kind: EngineKind, seed: u64, params: Params) -> Box<dyn Engine> {
    match kind {
        EngineKind::Mcts => Box::new(Mcts::new(params, seed)),
        EngineKind::Rave => Box::new(Rave::new(params, seed)),
        EngineKind::Random => Box::new(random::RandomEngine::new(seed)),
        EngineKind::Seed => Box::new(seed::SeedEngine::new()),
        EngineKind::AlphaBeta => Box::new(alphabeta::AlphaBetaEngine::new(seed)),
    }
}

/// The engine options shared by the bot, `nogo gtp` and `nogo play`.
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    /// Thinking time per move in seconds, above 0 and at most 86400 [default: 1, the Botzone
    /// bot's first turn 2; none when only --nodes is given]. A controller's shorter limit
    /// prevails (GTP's time_settings/time_left, Botzone's time_limit), never a longer one.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub time: Option<f64>,
    /// Iterations per move, at least 1; with no time given, the only limit, so moves are
    /// reproducible.
    #[arg(long, value_name = "N", value_parser = parse_count, allow_negative_numbers = true)]
    pub nodes: Option<u64>,
    /// Seed of the engine's random choices.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The engine that chooses the moves.
    #[arg(long, value_enum, default_value_t = EngineKind::Rave)]
    pub engine: EngineKind,
    /// The search's tunables (--set).
    #[command(flatten)]
    pub search: SearchSettings,
    /// Play the opening book's move where it has one (the default engine, rave, only): the
    /// first moves, chosen by long searches.
    #[arg(long)]
    pub book: bool,
    /// Threads the default engine, rave, searches on, together on one tree [default: 1 for the
    /// Botzone bot, which has one core there; every core for gtp, play and serve, but 1 when
    /// --nodes alone bounds the search, so that its moves stay reproducible].
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Memory cap of the search in megabytes (10^6 bytes), from 1 to 65536, reserved when it
    /// starts [default: 200; on three threads or more, which share one tree and fill it as many
    /// times as fast, 200 a thread, at most half this machine's memory]. With --threads 2,
    /// the cap of each of its two trees.
    #[arg(long, value_name = "N", value_parser = parse_memory_mb, allow_negative_numbers = true)]
    pub memory_mb: Option<u64>,
}

/// Most threads a search runs on.
pub const MAX_THREADS: usize = 256;

/// A number of threads: a whole number from 1 to [`MAX_THREADS`].
pub fn parse_threads(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(threads) if (1..=MAX_THREADS).contains(&threads) => Ok(threads),
        _ => Err(format!("'{s}' is not a number of threads from 1 to {MAX_THREADS}")),
    }
}

/// The largest `--memory-mb`.
const MAX_MEMORY_MB: u64 = 65_536;

/// A `--memory-mb` value: a whole number of megabytes from 1 to [`MAX_MEMORY_MB`].
fn parse_memory_mb(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(mb) if (1..=MAX_MEMORY_MB).contains(&mb) => Ok(mb),
        _ => Err(format!("'{s}' is not a whole number of megabytes from 1 to {MAX_MEMORY_MB}")),
    }
}

/// The memory cap of a search on `threads` threads without `--memory-mb`: one tree's default
/// ([`DEFAULT_MEMORY_BYTES`]; two threads search a tree each); three threads or more share
/// one tree, so it takes the default for each thread, at most half of the machine's
/// `physical` memory where known, never less than one tree's default.
fn default_memory_bytes(threads: usize, physical: Option<usize>) -> usize {
    if threads <= 2 {
        return DEFAULT_MEMORY_BYTES;
    }
    let wanted = DEFAULT_MEMORY_BYTES.saturating_mul(threads);
    physical.map_or(wanted, |bytes| wanted.min(bytes / 2)).max(DEFAULT_MEMORY_BYTES)
}

/// This machine's physical memory in bytes, where the system tells it.
fn physical_memory() -> Option<usize> {
    #[cfg(unix)]
    {
        // SAFETY: `sysconf` only reads the system's configuration.
        let (pages, page) =
            unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
        if pages > 0 && page > 0 {
            return (pages as usize).checked_mul(page as usize);
        }
    }
    None
}

/// The search's tunables as a command line sets them: every tool that runs the search
/// (the bot, `gtp`, `play`, `bench`, `selfplay`) takes them the same way.
#[derive(clap::Args, Debug, Clone, Default, PartialEq)]
pub struct SearchSettings {
    /// Set a tunable of the search, NAME=VALUE (repeatable); --set help lists every tunable
    /// with its default, range and meaning.
    ///
    /// For example --set rave_exploration=0.3 widens the exploration of the default engine,
    /// rave; with --engine mcts, --set policy_depth=0 --set policy_visits=0 leaves the policy
    /// network out.
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_set_argument)]
    pub settings: Vec<(String, f64)>,
}

impl SearchSettings {
    /// The default parameters with these settings.
    pub fn params(&self) -> Params {
        Params::default().with_settings(&self.settings)
    }
}

/// A `--set` argument: a setting ([`parse_setting`]), or `help`, which prints the tunables'
/// table on stdout and exits with success, as `--help` does.
fn parse_set_argument(argument: &str) -> Result<(String, f64), String> {
    if argument == "help" {
        let mut out = std::io::stdout().lock();
        // A reader that stops early (`| head`) is not an error.
        let _ = out.write_all(tunables_table().as_bytes()).and_then(|()| out.flush());
        std::process::exit(0);
    }
    parse_setting(argument)
}

/// A thinking time per move: a number of seconds above 0 and at most
/// [`time::MAX_MOVE_SECONDS`].
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    s.trim().parse::<f64>().ok().and_then(|v| check_seconds(v).ok()).ok_or_else(|| not_seconds(s))
}

/// A thinking time per move given as a number (an API's): as [`parse_seconds`] takes it.
pub fn check_seconds(v: f64) -> Result<f64, String> {
    if v > 0.0 && v <= time::MAX_MOVE_SECONDS {
        Ok(v)
    } else {
        Err(not_seconds(v))
    }
}

fn not_seconds(what: impl std::fmt::Display) -> String {
    format!("'{what}' is not a number of seconds above 0 and at most {} (a day)", time::MAX_MOVE_SECONDS)
}

/// A number of iterations or playouts: a whole number, at least 1.
pub fn parse_count(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(count) if count >= 1 => Ok(count),
        _ => Err(format!("'{s}' is not a whole number of at least 1")),
    }
}

impl EngineArgs {
    /// A new engine as the options choose it, searching every move (for analysis).
    pub fn create(&self) -> Box<dyn Engine> {
        create_with_params(self.engine, self.seed, self.params())
    }

    /// The book the options open games from, if any: [`opening_book`].
    pub fn opening_book(&self) -> Option<&'static book::Book> {
        opening_book(self.engine, self.book)
    }

    /// A new engine to play a game as the options choose it: [`player`].
    pub fn create_player(&self) -> Box<dyn Engine> {
        player(self.engine, self.seed, self.params(), self.book)
    }

    /// The options with `--threads` set to every core of this machine when not given, unless
    /// `--nodes` alone bounds the search: a fixed number of simulations on one thread gives
    /// the same moves every run, on several it does not.
    pub fn on_every_core(self) -> EngineArgs {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS);
        EngineArgs { threads: self.threads.or((!self.nodes_alone()).then_some(cores)), ..self }
    }

    /// Whether `--nodes` without `--time` bounds the search: no clock, so its moves are
    /// reproducible.
    fn nodes_alone(&self) -> bool {
        self.nodes.is_some() && self.time.is_none()
    }

    /// The search's parameters: the defaults with `--set`'s settings, on `--threads` threads
    /// (1 unless set), within `--memory-mb` (else 200 MB, more on three threads or more: `default_memory_bytes`).
    pub fn params(&self) -> Params {
        let threads = self.threads.unwrap_or(1);
        let memory_bytes = match self.memory_mb {
            Some(mb) => mb as usize * 1_000_000,
            None => default_memory_bytes(threads, physical_memory()),
        };
        Params { threads, memory_bytes, ..self.search.params() }
    }

    /// The time limit of a move when no controller sets one: `--time`, else `default`, unless
    /// `--nodes` alone bounds the search.
    pub fn move_limit(&self, default: Duration) -> Option<Duration> {
        self.time.map(Duration::from_secs_f64).or((!self.nodes_alone()).then_some(default))
    }

    /// The time limit of a move whose controller allots `allotted` (GTP's clock, Botzone's
    /// `time_limit`): the shorter of that and `--time`, which a user sets to be kept; without
    /// one, [`EngineArgs::move_limit`].
    pub fn limit_under(&self, allotted: Option<Duration>, default: Duration) -> Option<Duration> {
        match allotted {
            Some(allotted) => {
                Some(self.time.map_or(allotted, |time| allotted.min(Duration::from_secs_f64(time))))
            }
            None => self.move_limit(default),
        }
    }

    /// The budget of a move whose clock started at `start`, with `limit` to answer (a
    /// controller's, or [`EngineArgs::move_limit`]), and `--nodes`.
    pub fn budget(&self, start: Instant, limit: Option<Duration>) -> Budget {
        Budget { deadline: limit.map(|limit| time::deadline(start, limit)), nodes: self.nodes, stop: None }
    }

    /// The budget of a move whose clock started at `start` when no controller sets a limit.
    pub fn move_budget(&self, start: Instant) -> Budget {
        self.budget(start, self.move_limit(time::TURN_LIMIT))
    }

    /// How the engine thinks, for people: `mcts, 1 s per move`.
    pub fn describe(&self) -> String {
        let mut limits = Vec::new();
        if let Some(limit) = self.move_limit(time::TURN_LIMIT) {
            limits.push(format!("{} s", limit.as_secs_f64()));
        }
        if let Some(nodes) = self.nodes {
            limits.push(format!("{nodes} iterations"));
        }
        format!("{}, {} per move", self.engine.name(), limits.join(" or "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Point, Position};
    use clap::ValueEnum;

    #[test]
    fn every_engine_plays_legal_moves_through_whole_games() {
        for &kind in EngineKind::value_variants() {
            for &opponent in EngineKind::value_variants() {
                let mut players = [create(kind, 1), create(opponent, 2)];
                let mut position = Position::new();
                let mut turn = 0;
                while !position.is_terminal() {
                    let player = &mut players[turn % 2];
                    let report = player.think(&position, &Budget::nodes(2000));
                    assert_eq!(player.name(), [kind, opponent][turn % 2].name());
                    if let Err(error) = position.clone().play(report.best) {
                        panic!("{} played {}: {error}\n{position}", player.name(), report.best);
                    }
                    position.play(report.best).unwrap();
                    turn += 1;
                }
            }
        }
    }

    #[test]
    fn every_engine_is_selected_by_its_name() {
        for &kind in EngineKind::value_variants() {
            assert_eq!(EngineKind::from_str(kind.name(), false), Ok(kind));
            assert_eq!(create(kind, 0).name(), kind.name());
        }
        assert_eq!(EngineKind::from_str("alphabeta", false), Ok(EngineKind::AlphaBeta));
        assert_eq!(EngineKind::from_str("seed", false), Ok(EngineKind::Seed));
    }

    #[test]
    fn every_engine_answers_by_a_deadline() {
        let position = Position::from_moves([Point::from_xy(4, 4).unwrap()]).unwrap();
        let limit = Duration::from_millis(100);
        for &kind in EngineKind::value_variants() {
            let started = Instant::now();
            let report = create(kind, 0).think(&position, &Budget::until(started + limit));
            let elapsed = started.elapsed();
            assert!(position.legal_moves().has(report.best), "{}", kind.name());
            // Generous: the machine running the tests may be loaded.
            assert!(elapsed < limit * 10, "{} took {elapsed:?} for a {limit:?} budget", kind.name());
        }
    }

    #[test]
    fn times_and_counts_take_what_their_messages_say() {
        assert_eq!(parse_seconds("86400"), Ok(86_400.0));
        assert_eq!(parse_seconds(" 0.001 "), Ok(0.001));
        for refused in ["0", "-0.5", "86400.5", "nan", "inf", "soon"] {
            let error = parse_seconds(refused).unwrap_err();
            assert_eq!(
                error,
                format!("'{refused}' is not a number of seconds above 0 and at most 86400 (a day)")
            );
        }
        assert_eq!(parse_count("1"), Ok(1));
        for refused in ["0", "-1", "1.5", "many"] {
            assert_eq!(parse_count(refused), Err(format!("'{refused}' is not a whole number of at least 1")));
        }
    }

    #[test]
    fn settings_reach_the_search_parameters() {
        let settings = vec![("widening".to_string(), 2.0), ("policy_visits".to_string(), 0.0)];
        let search = SearchSettings { settings };
        let args = EngineArgs {
            time: None,
            nodes: None,
            seed: 0,
            engine: EngineKind::Mcts,
            search,
            book: false,
            threads: None,
            memory_mb: None,
        };
        let expected = Params { widening: 2.0, policy_visits: 0, ..Params::default() };
        assert_eq!(args.params(), expected);
        assert_eq!(EngineArgs { search: SearchSettings::default(), ..args }.params(), Params::default());
    }

    #[test]
    fn every_core_unless_set_or_nodes_alone_keep_moves_reproducible() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let args = |time: Option<f64>, nodes: Option<u64>, threads: Option<usize>| EngineArgs {
            time,
            nodes,
            seed: 0,
            engine: EngineKind::Rave,
            search: SearchSettings::default(),
            book: false,
            threads,
            memory_mb: None,
        };
        let threads = |args: EngineArgs| args.on_every_core().params().threads;
        assert_eq!(threads(args(None, None, None)), cores);
        assert_eq!(threads(args(Some(0.5), None, None)), cores);
        assert_eq!(threads(args(Some(0.5), Some(1000), None)), cores);
        assert_eq!(threads(args(None, Some(1000), None)), 1);
        assert_eq!(threads(args(None, None, Some(3))), 3);
        assert_eq!(threads(args(None, Some(1000), Some(2))), 2);
        assert_eq!(args(None, None, None).params().threads, 1, "the bot's default is one thread");
    }

    #[test]
    fn a_shared_tree_takes_the_default_memory_for_each_thread_within_half_the_machine() {
        let one = DEFAULT_MEMORY_BYTES;
        let plenty = Some(1 << 40);
        assert_eq!(default_memory_bytes(1, plenty), one);
        assert_eq!(default_memory_bytes(2, plenty), one, "two trees, each with one tree's cap");
        assert_eq!(default_memory_bytes(3, plenty), 3 * one);
        assert_eq!(default_memory_bytes(16, None), 16 * one);
        assert_eq!(default_memory_bytes(16, Some(2_000_000_000)), 1_000_000_000, "half the machine");
        assert_eq!(default_memory_bytes(16, Some(300_000_000)), one, "never less than one tree's");
    }

    #[test]
    fn memory_mb_caps_the_search_on_any_threads() {
        let args = |threads: Option<usize>, memory_mb: Option<u64>| EngineArgs {
            time: None,
            nodes: None,
            seed: 0,
            engine: EngineKind::Rave,
            search: SearchSettings::default(),
            book: false,
            threads,
            memory_mb,
        };
        assert_eq!(args(None, None).params().memory_bytes, DEFAULT_MEMORY_BYTES, "the bot's default");
        assert_eq!(args(Some(8), Some(50)).params().memory_bytes, 50_000_000);
        assert_eq!(args(None, Some(4096)).params().memory_bytes, 4_096_000_000);
        let shared = args(Some(8), None).params().memory_bytes;
        assert_eq!(shared, default_memory_bytes(8, physical_memory()));
        assert!(shared >= DEFAULT_MEMORY_BYTES);
    }

    #[test]
    fn budget_follows_the_limit_then_time_then_nodes() {
        let start = Instant::now();
        let args = |time: Option<f64>, nodes: Option<u64>| EngineArgs {
            time,
            nodes,
            seed: 0,
            engine: EngineKind::Mcts,
            search: SearchSettings::default(),
            book: false,
            threads: None,
            memory_mb: None,
        };
        let budget = |args: &EngineArgs, limit: Option<Duration>| match limit {
            Some(_) => args.budget(start, limit),
            None => args.move_budget(start),
        };
        let only_nodes = budget(&args(None, Some(100)), None);
        assert_eq!((only_nodes.deadline, only_nodes.nodes), (None, Some(100)));
        let default = budget(&args(None, None), None);
        assert_eq!(default.deadline, Some(time::deadline(start, time::TURN_LIMIT)));
        let timed = budget(&args(Some(3.0), Some(100)), None);
        assert_eq!(
            (timed.deadline, timed.nodes),
            (Some(time::deadline(start, Duration::from_secs(3))), Some(100))
        );
        let clocked = budget(&args(Some(3.0), None), Some(Duration::from_secs(7)));
        assert_eq!(clocked.deadline, Some(time::deadline(start, Duration::from_secs(7))));
        let secs = Duration::from_secs;
        let default = secs(1);
        assert_eq!(
            args(Some(3.0), None).limit_under(Some(secs(7)), default),
            Some(secs(3)),
            "--time is kept"
        );
        assert_eq!(
            args(Some(3.0), None).limit_under(Some(secs(2)), default),
            Some(secs(2)),
            "a shorter clock"
        );
        assert_eq!(args(None, Some(100)).limit_under(Some(secs(7)), default), Some(secs(7)));
        assert_eq!(args(Some(3.0), None).limit_under(None, default), Some(secs(3)));
        assert_eq!(args(None, Some(100)).limit_under(None, default), None, "nodes alone");
        assert_eq!(args(None, None).describe(), "mcts, 1 s per move");
        assert_eq!(args(Some(0.5), Some(100)).describe(), "mcts, 0.5 s or 100 iterations per move");
    }
}
