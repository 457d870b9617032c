//! `nogo tune`: tunables of a built-in engine tuned by SPSA (simultaneous perturbation
//! stochastic approximation, Spall 1992), as chess engines tune theirs: each iteration
//! perturbs every tuned value at once, by `+c` or `-c` at random, plays the two perturbed
//! engines a pair of games (one opening, colours swapped) and moves the values toward the side
//! that scored more. Values are tuned in shares of their ranges, so one step size suits them
//! all; the estimate is the mean of the values over the second half of the pairs.

use crate::engines::{self, EngineKind, SearchSettings};
use crate::rules::hash::splitmix64;
use crate::rules::point::Color;
use crate::search::params::{Params, Tunable};
use crate::tools::arena::builtin::BuiltinPlayer;
use crate::tools::arena::judge::{self, Limits};
use crate::tools::arena::openings::{self, Opening};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Options of `nogo tune`.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// A tunable to tune (repeatable), in its declared range or in MIN..MAX within it (`--set
    /// help` lists them).
    #[arg(long = "param", required = true, value_name = "NAME[=MIN..MAX]", value_parser = parse_tuned)]
    pub params: Vec<Tuned>,
    /// Pairs of games to play, one iteration each.
    #[arg(long, default_value_t = 500, value_name = "N", value_parser = crate::engines::parse_count)]
    pub pairs: u64,
    /// The engine whose tunables are tuned.
    #[arg(long, value_enum, default_value_t = EngineKind::Rave)]
    pub engine: EngineKind,
    /// Seconds a player has per turn (its first turn of a game twice that).
    #[arg(long, default_value_t = 0.05, value_name = "SECONDS", value_parser = crate::engines::parse_seconds)]
    pub time: f64,
    /// Openings, as `nogo arena --openings` takes them; pair k plays the k-th, in turn.
    #[arg(long, default_value = "two-move", value_name = "FILE")]
    pub openings: String,
    /// Pairs played at once; each needs a core of its own.
    #[arg(short = 'j', long, default_value_t = 1, value_name = "N", value_parser = crate::engines::parse_threads)]
    pub concurrency: usize,
    /// Seed of the perturbations and of the engines' random choices [default: from the clock;
    /// reported].
    #[arg(long)]
    pub seed: Option<u64>,
    /// How far the two players of a pair lie from the values, at the first pair, as a share of
    /// each range (`c`; it shrinks as `k^-0.101`).
    #[arg(long, default_value_t = 0.1, value_name = "SHARE")]
    pub perturbation: f64,
    /// How far the values move, at the first pair, for a pair one side won twice, as a share of
    /// each range (it shrinks as `(A + k)^-0.602`, `A` a tenth of the pairs).
    #[arg(long, default_value_t = 0.05, value_name = "SHARE")]
    pub step: f64,
    /// Values of other tunables, the same for both players.
    #[command(flatten)]
    pub search: SearchSettings,
    /// Write each pair, as a JSON object a line, to FILE.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
}

/// A tunable and the range it is tuned in.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    tunable: &'static Tunable,
    min: f64,
    max: f64,
}

/// `NAME` or `NAME=MIN..MAX`, a range within the tunable's own.
fn parse_tuned(argument: &str) -> Result<Tuned, String> {
    let (name, range) = match argument.split_once('=') {
        Some((name, range)) => (name, Some(range)),
        None => (argument, None),
    };
    let tunable = Params::tunable(name)
        .ok_or_else(|| format!("unknown parameter {name} (--set help lists the names)"))?;
    let Some(range) = range else {
        return Ok(Tuned { tunable, min: tunable.min, max: tunable.max });
    };
    let bounds = range
        .split_once("..")
        .and_then(|(min, max)| Some((min.parse::<f64>().ok()?, max.parse::<f64>().ok()?)));
    let (min, max) = bounds.ok_or_else(|| format!("'{range}' is not a range MIN..MAX"))?;
    if !(tunable.min <= min && min < max && max <= tunable.max) {
        return Err(format!("{name}: {min}..{max} is not a range within {}..{}", tunable.min, tunable.max));
    }
    Ok(Tuned { tunable, min, max })
}

impl Tuned {
    /// The value at `share` of the range (clamped to it), rounded for a whole-number tunable.
    fn value(&self, share: f64) -> f64 {
        let value = self.min + share.clamp(0.0, 1.0) * (self.max - self.min);
        if self.tunable.whole {
            value.round()
        } else {
            value
        }
    }

    /// The share of the range at `value`.
    fn share(&self, value: f64) -> f64 {
        ((value - self.min) / (self.max - self.min)).clamp(0.0, 1.0)
    }
}

/// The state of the approximation: the values (shares of their ranges) and their running
/// mean over the second half of the pairs.
#[derive(Debug)]
struct Spsa {
    values: Vec<f64>,
    perturbation: f64,
    step: f64,
    pairs: u64,
    /// Pairs whose results are counted.
    done: u64,
    /// Sum of the values after each counted pair of the second half, and how many.
    late_sum: Vec<f64>,
    late: u64,
}

/// The gains' exponents (Spall's recommendations, as tuners of game engines use them).
const PERTURBATION_DECAY: f64 = 0.101;
const STEP_DECAY: f64 = 0.602;

impl Spsa {
    fn new(values: Vec<f64>, perturbation: f64, step: f64, pairs: u64) -> Spsa {
        let late_sum = vec![0.0; values.len()];
        Spsa { values, perturbation, step, pairs, done: 0, late_sum, late: 0 }
    }

    /// `c_k` of pair `k` (from 1).
    fn perturbation(&self, k: u64) -> f64 {
        self.perturbation / (k as f64).powf(PERTURBATION_DECAY)
    }

    /// The move of the values for a pair one side won twice, at pair `k`: `a_k / (2 c_k)`
    /// of the classic form, scaled to be `step` at the first pair.
    fn gain(&self, k: u64) -> f64 {
        let stability = self.pairs as f64 / 10.0;
        self.step * ((stability + 1.0) / (stability + k as f64)).powf(STEP_DECAY)
    }

    /// The two players of pair `k`: the values moved by `+c_k` and `-c_k` along `signs`.
    fn players(&self, k: u64, signs: &[f64]) -> [Vec<f64>; 2] {
        let c = self.perturbation(k);
        let moved = |sign: f64| {
            self.values.iter().zip(signs).map(|(v, s)| (v + sign * c * s).clamp(0.0, 1.0)).collect()
        };
        [moved(1.0), moved(-1.0)]
    }

    /// Counts pair `k`: `result` is the plus player's games won less the minus player's, over
    /// two (from -1 to 1).
    fn count(&mut self, k: u64, signs: &[f64], result: f64) {
        let gain = self.gain(k);
        for (value, sign) in self.values.iter_mut().zip(signs) {
            *value = (*value + gain * result * sign).clamp(0.0, 1.0);
        }
        self.done += 1;
        if 2 * self.done > self.pairs {
            self.late_sum.iter_mut().zip(&self.values).for_each(|(sum, v)| *sum += v);
            self.late += 1;
        }
    }

    /// The estimate: the mean of the second half's values (the values themselves before).
    fn estimate(&self) -> Vec<f64> {
        if self.late == 0 {
            return self.values.clone();
        }
        self.late_sum.iter().map(|sum| sum / self.late as f64).collect()
    }
}

/// A tuning run ready to play.
struct Tuning {
    args: TuneArgs,
    base: Params,
    openings: Vec<Opening>,
    seed: u64,
    limits: Limits,
}

/// Runs `nogo tune`; the exit code (2 for bad options).
pub fn run(args: TuneArgs) -> i32 {
    let openings = match openings::load(&args.openings) {
        Ok(openings) => openings,
        Err(e) => {
            eprintln!("nogo tune: {e}");
            return 2;
        }
    };
    for (i, tuned) in args.params.iter().enumerate() {
        if args.params[..i].iter().any(|t| t.tunable.name == tuned.tunable.name) {
            eprintln!("nogo tune: {} is given twice", tuned.tunable.name);
            return 2;
        }
    }
    if !(args.perturbation > 0.0 && args.perturbation <= 0.5 && args.step > 0.0 && args.step <= 0.5) {
        eprintln!("nogo tune: --perturbation and --step are shares of a range, above 0 and at most 0.5");
        return 2;
    }
    let seed = args.seed.unwrap_or_else(|| fastrand::u64(..) >> 16);
    let turn = Duration::from_secs_f64(args.time);
    let tuning = Tuning {
        base: args.search.params(),
        openings,
        seed,
        limits: Limits { turn, first_turn: 2 * turn },
        args,
    };
    tuning.run()
}

/// A log of the pairs, a JSON object a line.
type Log = Mutex<std::io::BufWriter<std::fs::File>>;

impl Tuning {
    fn run(&self) -> i32 {
        let log = match &self.args.log {
            Some(path) => match std::fs::File::create(path) {
                Ok(file) => Some(Mutex::new(std::io::BufWriter::new(file))),
                Err(e) => {
                    eprintln!("nogo tune: cannot write {}: {e}", path.display());
                    return 2;
                }
            },
            None => None,
        };
        let tuned = &self.args.params;
        let start =
            tuned.iter().map(|t| t.share(self.base.get(t.tunable.name).expect("a tunable"))).collect();
        let spsa = Mutex::new(Spsa::new(start, self.args.perturbation, self.args.step, self.args.pairs));
        let next = AtomicU64::new(1);
        eprintln!(
            "nogo tune: {} pairs of {} at {} s a move, seed {}",
            self.args.pairs,
            self.args.engine.name(),
            self.args.time,
            self.seed
        );
        std::thread::scope(|scope| {
            for _ in 0..self.args.concurrency.min(self.args.pairs as usize) {
                scope.spawn(|| loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k > self.args.pairs {
                        break;
                    }
                    self.pair(k, &spsa, log.as_ref());
                });
            }
        });
        let spsa = spsa.into_inner().expect("no worker panicked");
        println!("# mean of the values over the last {} of {} pairs", spsa.late, spsa.done);
        for setting in self.described(&spsa.estimate()) {
            println!("--set {setting}");
        }
        0
    }

    /// Plays pair `k` at the values `spsa` holds as it starts, counts its result, and reports it
    /// on stderr and in `log`.
    fn pair(&self, k: u64, spsa: &Mutex<Spsa>, log: Option<&Log>) {
        let signs = self.signs(k);
        let players = spsa.lock().expect("no worker panics holding it").players(k, &signs);
        let result = self.play_pair(k, &players);
        let mut spsa = spsa.lock().expect("no worker panics holding it");
        spsa.count(k, &signs, result);
        let values = self.described(&spsa.values).join(" ");
        eprintln!("pair {k}/{}: {result:+.0} for the plus side; {values}", self.args.pairs);
        let Some(log) = log else { return };
        let entry = json!({
            "pair": k,
            "plus": self.named(&players[0]),
            "minus": self.named(&players[1]),
            "result": result,
            "values": self.named(&spsa.values),
        });
        let mut log = log.lock().expect("no worker panics holding it");
        if let Err(e) = writeln!(log, "{entry}").and_then(|()| log.flush()) {
            eprintln!("nogo tune: cannot write the log: {e}");
        }
    }

    /// The perturbations' signs of pair `k`, +1 or -1 for each tuned value.
    fn signs(&self, k: u64) -> Vec<f64> {
        let mut rng = fastrand::Rng::with_seed(splitmix64(self.seed ^ splitmix64(k)));
        self.args.params.iter().map(|_| if rng.bool() { 1.0 } else { -1.0 }).collect()
    }

    /// Plays pair `k` between the values `players` (shares): the plus player's wins less the
    /// minus player's, over two.
    fn play_pair(&self, k: u64, players: &[Vec<f64>; 2]) -> f64 {
        let opening = &self.openings[((k - 1) as usize) % self.openings.len()];
        let stop = AtomicBool::new(false);
        let mut result = 0.0;
        for plus_colour in [Color::Black, Color::White] {
            let engine_seed = |player: u64| {
                splitmix64(self.seed ^ splitmix64(4 * k + 2 * plus_colour.index() as u64 + player))
            };
            let player = |side: usize| {
                let params = self.params(&players[side]);
                BuiltinPlayer::new(engines::create_with_params(
                    self.args.engine,
                    engine_seed(side as u64),
                    params,
                ))
            };
            let (mut plus, mut minus) = (player(0), player(1));
            let (black, white, names) = match plus_colour {
                Color::Black => (&mut plus, &mut minus, ["plus", "minus"]),
                Color::White => (&mut minus, &mut plus, ["minus", "plus"]),
            };
            let game = judge::play([black, white], names, &opening.moves, self.limits, &stop)
                .expect("never stopped");
            result += if game.winner == plus_colour { 0.5 } else { -0.5 };
        }
        result
    }

    /// The engine's parameters at the values `shares`.
    fn params(&self, shares: &[f64]) -> Params {
        let mut params = self.base;
        for (tuned, &share) in self.args.params.iter().zip(shares) {
            params.set(tuned.tunable.name, tuned.value(share)).expect("a value within the tunable's range");
        }
        params
    }

    /// `NAME=VALUE` for each tuned value at `shares`.
    fn described(&self, shares: &[f64]) -> Vec<String> {
        self.args
            .params
            .iter()
            .zip(shares)
            .map(|(t, &s)| format!("{}={}", t.tunable.name, rounded(t.value(s))))
            .collect()
    }

    /// The tuned values at `shares` by name, for the log.
    fn named(&self, shares: &[f64]) -> serde_json::Value {
        let pairs = self
            .args
            .params
            .iter()
            .zip(shares)
            .map(|(t, &s)| (t.tunable.name.to_string(), json!(rounded(t.value(s)))));
        serde_json::Value::Object(pairs.collect())
    }
}

/// `value` to four significant decimals, so that settings read well.
fn rounded(value: f64) -> f64 {
    (value * 1e4).round() / 1e4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuned_ranges_lie_within_the_tunables_own() {
        let tuned = parse_tuned("rave_exploration").unwrap();
        assert_eq!((tuned.min, tuned.max), (0.0, 1.0));
        let narrowed = parse_tuned("rave_exploration=0.1..0.5").unwrap();
        assert_eq!((narrowed.min, narrowed.max), (0.1, 0.5));
        assert!((narrowed.value(0.5) - 0.3).abs() < 1e-12);
        assert_eq!(narrowed.value(2.0), 0.5, "clamped to the range");
        assert_eq!(narrowed.share(0.2), 0.25);
        assert!(parse_tuned("rave_exploration=0.5..2").unwrap_err().contains("within 0..1"));
        assert!(parse_tuned("rave_exploration=0.5..0.1").is_err());
        assert!(parse_tuned("rave_exploration=a..b").unwrap_err().contains("not a range"));
        assert!(parse_tuned("explore").unwrap_err().contains("--set help"));
        let prior = parse_tuned("rave_prior=10..41").unwrap();
        assert_eq!(prior.value(0.5), 26.0, "whole-number tunables are rounded to the nearest");
    }

    /// Whether `a` and `b` are the same values but for rounding.
    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    #[test]
    fn a_pair_moves_the_values_toward_the_side_that_won_and_shrinks_its_steps() {
        let mut spsa = Spsa::new(vec![0.5, 0.5], 0.1, 0.05, 100);
        let signs = [1.0, -1.0];
        let [plus, minus] = spsa.players(1, &signs);
        assert!(close(&plus, &[0.6, 0.4]) && close(&minus, &[0.4, 0.6]), "{plus:?} {minus:?}");
        spsa.count(1, &signs, 1.0);
        assert!(close(&spsa.values, &[0.55, 0.45]), "the plus side won both games: a whole step its way");
        spsa.count(2, &signs, -0.5);
        assert!(spsa.values[0] < 0.55 && spsa.values[0] > 0.55 - 0.025, "{:?}", spsa.values);
        assert!(spsa.gain(100) < spsa.gain(2) && spsa.perturbation(100) < spsa.perturbation(2));
        let before = spsa.values.clone();
        spsa.count(3, &signs, 0.0);
        assert_eq!(spsa.values, before, "a drawn pair leaves them");
        let mut edge = Spsa::new(vec![0.98], 0.1, 0.05, 10);
        assert_eq!(edge.players(1, &[1.0])[0], vec![1.0], "the players stay in the range");
        edge.count(1, &[1.0], 1.0);
        assert_eq!(edge.values, vec![1.0], "so do the values");
    }

    #[test]
    fn the_estimate_is_the_mean_over_the_second_half() {
        let mut spsa = Spsa::new(vec![0.5], 0.1, 0.05, 4);
        spsa.count(1, &[1.0], 1.0);
        assert_eq!(spsa.estimate(), spsa.values, "the values themselves before the second half");
        spsa.count(2, &[1.0], 1.0);
        spsa.count(3, &[1.0], 1.0);
        let third = spsa.values[0];
        spsa.count(4, &[1.0], -1.0);
        assert_eq!(spsa.late, 2);
        assert!((spsa.estimate()[0] - (third + spsa.values[0]) / 2.0).abs() < 1e-12);
    }
}
