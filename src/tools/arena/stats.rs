//! Match statistics as engine testers compute them. NoGo has no draws, so every game is a
//! Bernoulli trial for player 1 and the formulas take their two-outcome forms:
//!
//! - win rate `p = W / n` with the Wilson score 95% interval;
//! - Elo difference `-400 log10(1/p - 1)` (logistic Elo), with cutechess-cli's error: half the
//!   Elo span of `p ± 1.96 sd`, `sd = sqrt(p (1 - p) / n)`; infinite at 0% or 100%, where the
//!   Elo image of the Wilson interval still bounds it;
//! - SPRT: Wald's log-likelihood ratio for `H1: Elo = elo1` against `H0: Elo = elo0`,
//!   `LLR = W ln(p1/p0) + L ln((1-p1)/(1-p0))` with `p = 1 / (1 + 10^(-Elo/400))`; stop with
//!   H1 at `LLR >= ln((1-beta)/alpha)`, with H0 at `LLR <= ln(beta/(1-alpha))`. This is
//!   cutechess-cli's SPRT when there are no draws (its draw Elo is then 0).
//! - move times: maximum and 99th percentile (nearest rank);
//! - proofs: per player, the games in which its search reported a proven win (and, apart, a
//!   proven loss), the move of the first such report, and the games it lost after one, which
//!   a correct solver never does.

use super::judge::{Outcome, Proofs, Verdict};
use crate::rules::point::Color;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

/// The normal quantile for a two-sided 95% interval.
const Z95: f64 = 1.959963984540054;

/// The Wilson score interval for `wins` successes in `n` trials, at 95%.
pub fn wilson(wins: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (n, p) = (n as f64, wins as f64 / n as f64);
    let z2 = Z95 * Z95;
    let centre = p + z2 / (2.0 * n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let denominator = 1.0 + z2 / n;
    (((centre - half) / denominator).max(0.0), ((centre + half) / denominator).min(1.0))
}

/// The logistic Elo difference that gives an expected score `p`.
pub fn elo(p: f64) -> f64 {
    400.0 * (p / (1.0 - p)).log10()
}

/// cutechess-cli's Elo error margin at 95%; `None` when undefined (no games, 0% or 100%).
pub fn elo_error(wins: u64, n: u64) -> Option<f64> {
    if n == 0 || wins == 0 || wins == n {
        return None;
    }
    let p = wins as f64 / n as f64;
    let sd = (p * (1.0 - p) / n as f64).sqrt();
    let error = (elo(p + Z95 * sd) - elo(p - Z95 * sd)) / 2.0;
    error.is_finite().then_some(error)
}

/// Win probability for an Elo difference.
fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Nearest-rank percentile of ascending `sorted` values (`q` in `(0, 1]`).
pub fn percentile(sorted: &[Duration], q: f64) -> Option<Duration> {
    let rank = ((q * sorted.len() as f64).ceil() as usize).max(1);
    sorted.get(rank - 1).copied()
}

/// A sequential probability ratio test's settings (`--sprt elo0,elo1,alpha,beta`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Player 1's Elo over player 2 under H0.
    pub elo0: f64,
    /// Player 1's Elo over player 2 under H1 (above `elo0`).
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What an SPRT decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hypothesis {
    /// Player 1's Elo over player 2 is `elo0`.
    H0,
    /// Player 1's Elo over player 2 is `elo1`.
    H1,
}

impl std::str::FromStr for Sprt {
    type Err = String;
    fn from_str(s: &str) -> Result<Sprt, String> {
        let values: Vec<f64> =
            s.split(',').map(|v| v.trim().parse::<f64>()).collect::<Result<_, _>>().map_err(|_| {
                format!("--sprt takes elo0,elo1,alpha,beta as numbers, e.g. 0,10,0.05,0.05; got '{s}'")
            })?;
        let [elo0, elo1, alpha, beta] = values[..] else {
            return Err(format!("--sprt takes four values elo0,elo1,alpha,beta; got '{s}'"));
        };
        if elo0 >= elo1 || !elo0.is_finite() || !elo1.is_finite() {
            return Err(format!("--sprt needs elo0 < elo1; got '{s}'"));
        }
        if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5) {
            return Err(format!("--sprt needs alpha and beta in (0, 0.5); got '{s}'"));
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }
}

impl Sprt {
    /// The log-likelihood ratio after `wins` and `losses`.
    pub fn llr(&self, wins: u64, losses: u64) -> f64 {
        let (p0, p1) = (expected_score(self.elo0), expected_score(self.elo1));
        wins as f64 * (p1 / p0).ln() + losses as f64 * ((1.0 - p1) / (1.0 - p0)).ln()
    }

    /// The (lower, upper) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The accepted hypothesis once the LLR leaves the bounds.
    pub fn decision(&self, wins: u64, losses: u64) -> Option<Hypothesis> {
        let llr = self.llr(wins, losses);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Hypothesis::H1)
        } else if llr <= lower {
            Some(Hypothesis::H0)
        } else {
            None
        }
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "elo0={} elo1={} alpha={} beta={}", self.elo0, self.elo1, self.alpha, self.beta)
    }
}

/// The mean and median of move numbers (the median of an even count is the mean of the middle
/// two); `None` when there are none.
pub fn mean_median(moves: &[usize]) -> Option<(f64, f64)> {
    let mut sorted = moves.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    let middle = n / 2;
    let median = match n {
        0 => return None,
        _ if n % 2 == 1 => sorted[middle] as f64,
        _ => (sorted[middle - 1] + sorted[middle]) as f64 / 2.0,
    };
    Some((sorted.iter().sum::<usize>() as f64 / n as f64, median))
}

/// One player's proven results over the match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProofTally {
    /// The move of the first proven win, one per game that had one.
    pub win_moves: Vec<usize>,
    /// Games (numbered from 1) lost after a proven win.
    pub lost_after_win: Vec<u64>,
    /// The move of the first proven loss, one per game that had one.
    pub loss_moves: Vec<usize>,
    /// Games won after a proven loss (the opponent erred; no fault of the solver).
    pub won_after_loss: u64,
}

impl ProofTally {
    fn add(&mut self, number: u64, proofs: Proofs, won: bool) {
        if let Some(at) = proofs.win {
            self.win_moves.push(at);
            if !won {
                self.lost_after_win.push(number);
            }
        }
        if let Some(at) = proofs.loss {
            self.loss_moves.push(at);
            self.won_after_loss += u64::from(won);
        }
    }

    fn to_json(&self) -> Value {
        let moves = |moves: &[usize]| {
            let figures = mean_median(moves);
            json!({ "mean": figures.map(|f| f.0), "median": figures.map(|f| f.1) })
        };
        json!({
            "proven_win_games": self.win_moves.len(),
            "lost_after_proven_win": self.lost_after_win.len(),
            "lost_after_proven_win_games": self.lost_after_win,
            "first_proven_win_move": moves(&self.win_moves),
            "proven_loss_games": self.loss_moves.len(),
            "won_after_proven_loss": self.won_after_loss,
            "first_proven_loss_move": moves(&self.loss_moves),
        })
    }

    /// The report's lines on proofs for player `name`: the count of games lost after a proven
    /// win leads, and a warning line names those games when there are any.
    fn lines(&self, name: &str) -> Vec<String> {
        if self.win_moves.is_empty() && self.loss_moves.is_empty() {
            return vec![format!("{name}: reported no proven result")];
        }
        let (lost, proven) = (self.lost_after_win.len(), self.win_moves.len());
        let mut line = format!("{name}: lost after a proven win: {lost} of {proven} games");
        if let Some((mean, median)) = mean_median(&self.win_moves) {
            line += &format!(" (first proven win at move mean {mean:.1}, median {median})");
        }
        if let Some((mean, median)) = mean_median(&self.loss_moves) {
            line += &format!(
                "; proven loss in {} games (first at move mean {mean:.1}, median {median}), won {} of them",
                self.loss_moves.len(),
                self.won_after_loss
            );
        }
        let mut lines = vec![line];
        if lost > 0 {
            let games: Vec<String> = self.lost_after_win.iter().map(u64::to_string).collect();
            lines.push(format!(
                "WARNING: {name} lost after reporting a proven win in games {}",
                games.join(", ")
            ));
        }
        lines
    }
}

/// Player 1's record with one colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Games player 1 won.
    pub wins: u64,
    /// Games player 1 lost.
    pub losses: u64,
}

/// The running score of a match, from player 1's side.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Player 1 playing black, white.
    pub by_colour: [Record; 2],
    /// Losses of each player by verdict.
    pub verdicts: [BTreeMap<Verdict, u64>; 2],
    /// Every move time of each player.
    pub times: [Vec<Duration>; 2],
    /// Each player's proven results.
    pub proofs: [ProofTally; 2],
}

impl Tally {
    /// Adds game `number` (from 1) in which player 1 had `player1_colour`.
    pub fn add(&mut self, number: u64, player1_colour: Color, game: &Outcome) {
        let record = &mut self.by_colour[player1_colour.index()];
        let loser_player = if game.winner == player1_colour {
            record.wins += 1;
            1
        } else {
            record.losses += 1;
            0
        };
        *self.verdicts[loser_player].entry(game.verdict).or_default() += 1;
        let other = player1_colour.opponent();
        self.times[0].extend_from_slice(&game.times[player1_colour.index()]);
        self.times[1].extend_from_slice(&game.times[other.index()]);
        for (player, colour) in [player1_colour, other].into_iter().enumerate() {
            self.proofs[player].add(number, game.proofs[colour.index()], game.winner == colour);
        }
    }

    /// Games player 1 won, both colours.
    pub fn wins(&self) -> u64 {
        self.by_colour.iter().map(|r| r.wins).sum()
    }

    /// Games player 1 lost, both colours.
    pub fn losses(&self) -> u64 {
        self.by_colour.iter().map(|r| r.losses).sum()
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins() + self.losses()
    }

    /// Games won by the black player, whoever it was.
    pub fn black_wins(&self) -> u64 {
        self.by_colour[0].wins + self.by_colour[1].losses
    }

    /// Player 1's Elo difference and error as text: `+70.4 ± 70.6`; where that error is
    /// undefined (few games, 0% or 100%), the Elo image of the Wilson interval: `+inf [-113,
    /// +inf]` for 2 of 2, whose interval still holds a 34% win rate.
    pub fn elo_text(&self) -> String {
        let (wins, n) = (self.wins(), self.games());
        let (low, high) = wilson(wins, n);
        match elo_error(wins, n) {
            _ if n == 0 => "-".to_string(),
            Some(error) => format!("{:+.1} ± {error:.1}", elo(wins as f64 / n as f64)),
            None => format!("{:+.1} [{:+.0}, {:+.0}]", elo(wins as f64 / n as f64), elo(low), elo(high)),
        }
    }

    /// The one-line score shown while the match runs and at its end.
    pub fn score_line(&self, names: [&str; 2]) -> String {
        let (wins, n) = (self.wins(), self.games());
        let rate = if n > 0 { 100.0 * wins as f64 / n as f64 } else { 0.0 };
        let (low, high) = wilson(wins, n);
        format!(
            "{} vs {}: {wins}-{} ({rate:.1}% [{:.1}, {:.1}]) Elo {}",
            names[0],
            names[1],
            self.losses(),
            100.0 * low,
            100.0 * high,
            self.elo_text()
        )
    }

    /// A player's move time figures, in milliseconds.
    fn time_figures(&self, player: usize) -> Value {
        let mut sorted = self.times[player].clone();
        sorted.sort_unstable();
        let ms = |d: Option<Duration>| d.map(|d| (d.as_secs_f64() * 1e4).round() / 10.0);
        let mean = (!sorted.is_empty()).then(|| sorted.iter().sum::<Duration>() / sorted.len() as u32);
        json!({
            "moves": sorted.len(),
            "mean_ms": ms(mean),
            "p99_ms": ms(percentile(&sorted, 0.99)),
            "max_ms": ms(sorted.last().copied()),
        })
    }

    /// The result table (stdout): the score, win rate and Elo with their 95% intervals, the
    /// SPRT's state when one ran (its settings and decision), and each player's games won and
    /// lost, the losses by verdict.
    pub fn table(&self, names: [&str; 2], sprt: Option<(Sprt, Option<Hypothesis>)>) -> Vec<String> {
        let (wins, losses, n) = (self.wins(), self.losses(), self.games());
        let rate = if n > 0 { 100.0 * wins as f64 / n as f64 } else { 0.0 };
        let (low, high) = wilson(wins, n);
        let mut lines = vec![
            format!("{} vs {}: {n} games", names[0], names[1]),
            format!("score     {wins}-{losses} ({}'s wins-losses)", names[0]),
            format!("win rate  {rate:.1}% [{:.1}, {:.1}] (95% Wilson interval)", 100.0 * low, 100.0 * high),
            format!("Elo       {} (95%)", self.elo_text()),
        ];
        if let Some((sprt, decision)) = sprt {
            let (lower, upper) = sprt.bounds();
            let llr = sprt.llr(wins, losses);
            let state = match decision {
                Some(h) => format!("{h:?} accepted after {n} games: LLR {llr:.2} left"),
                None => format!("no decision after {n} games: LLR {llr:.2} within"),
            };
            lines.push(format!("SPRT      {state} [{lower:.2}, {upper:.2}] ({sprt})"));
        }
        let width = names.iter().map(|name| name.chars().count()).max().unwrap_or(0).max("player".len());
        lines.push(String::new());
        lines.push(format!("{:width$}  {:>5}  {:>5}  lost by", "player", "won", "lost"));
        for (player, name) in names.iter().enumerate() {
            let counts: Vec<String> = self.verdicts[player].iter().map(|(v, c)| format!("{v} {c}")).collect();
            let [won, lost] = if player == 0 { [wins, losses] } else { [losses, wins] };
            let row = format!("{name:width$}  {won:>5}  {lost:>5}  {}", counts.join(", "));
            lines.push(row.trim_end().to_string());
        }
        lines
    }

    /// The closing report's details (stderr), beyond the table: results by colour, each
    /// player's move times and proven results.
    pub fn details(&self, names: [&str; 2]) -> Vec<String> {
        let [black, white] = self.by_colour;
        let mut lines = vec![format!(
            "{} as black {}-{}, as white {}-{}; black won {} of {}",
            names[0],
            black.wins,
            black.losses,
            white.wins,
            white.losses,
            self.black_wins(),
            self.games()
        )];
        for (player, name) in names.iter().enumerate() {
            let times = self.time_figures(player);
            lines.push(format!(
                "{name}: move time max {} ms, p99 {} ms, mean {} ms over {} moves",
                times["max_ms"], times["p99_ms"], times["mean_ms"], times["moves"]
            ));
        }
        for (player, name) in names.iter().enumerate() {
            lines.extend(self.proofs[player].lines(name));
        }
        lines
    }

    /// The figures of the JSON summary.
    pub fn to_json(&self, names: [&str; 2]) -> Value {
        let (wins, n) = (self.wins(), self.games());
        let (low, high) = wilson(wins, n);
        let finite = |x: f64| x.is_finite().then_some(x);
        let verdicts = |player: usize| -> Value {
            Verdict::ALL
                .iter()
                .map(|v| (v.key().to_string(), json!(self.verdicts[player].get(v).unwrap_or(&0))))
                .collect()
        };
        let record = |r: Record| json!({ "wins": r.wins, "losses": r.losses });
        json!({
            "games": n,
            "wins": wins,
            "losses": self.losses(),
            "win_rate": (n > 0).then(|| wins as f64 / n as f64),
            "win_rate_95": [low, high],
            "elo": (n > 0).then(|| elo(wins as f64 / n as f64)).and_then(finite),
            "elo_error": elo_error(wins, n),
            "elo_95": [finite(elo(low)), finite(elo(high))],
            "player1_as_black": record(self.by_colour[0]),
            "player1_as_white": record(self.by_colour[1]),
            "black_wins": self.black_wins(),
            "losses_by_verdict": { names[0]: verdicts(0), names[1]: verdicts(1) },
            "move_time": { names[0]: self.time_figures(0), names[1]: self.time_figures(1) },
            "proofs": { names[0]: self.proofs[0].to_json(), names[1]: self.proofs[1].to_json() },
            "summary": self.score_line(names),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn wilson_interval_matches_published_values() {
        // 60 of 100: [0.5020, 0.6906] (Wilson 1927; e.g. Newcombe 1998, table I method 3).
        let (low, high) = wilson(60, 100);
        assert!(close(low, 0.502003, 1e-6) && close(high, 0.690599, 1e-6), "{low} {high}");
        let (low, high) = wilson(100, 100);
        assert!(close(low, 0.963007, 1e-6) && high == 1.0);
        let (low, high) = wilson(0, 10);
        assert!(low == 0.0 && close(high, 0.277533, 1e-6));
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }

    #[test]
    fn elo_and_its_error_match_cutechess() {
        assert!(close(elo(0.75), 190.8485, 1e-3));
        assert!(close(elo(0.6), 70.4365, 1e-3));
        assert_eq!(elo(0.5), 0.0);
        assert!(close(elo(0.25), -190.8485, 1e-3));
        assert!(close(elo_error(60, 100).unwrap(), 70.5712, 1e-3));
        assert!(close(elo_error(75, 100).unwrap(), 81.1514, 1e-3));
        assert_eq!(elo_error(100, 100), None);
        assert_eq!(elo_error(0, 100), None);
        assert_eq!(elo(1.0), f64::INFINITY);
    }

    #[test]
    fn sprt_bounds_llr_and_decisions() {
        let sprt: Sprt = "0,10,0.05,0.05".parse().unwrap();
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944439, 1e-6) && close(upper, 2.944439, 1e-6));
        assert!(close(sprt.llr(60, 40), 0.534231, 1e-6));
        assert!(close("0,5,0.05,0.05".parse::<Sprt>().unwrap().llr(520, 480), 0.472097, 1e-6));
        let strong: Sprt = "0,200,0.05,0.05".parse().unwrap();
        assert!(close(strong.llr(10, 0), 4.183773, 1e-6));
        assert_eq!(strong.decision(10, 0), Some(Hypothesis::H1));
        assert_eq!(strong.decision(0, 10), Some(Hypothesis::H0));
        assert_eq!(strong.decision(3, 3), None);
        for bad in
            ["0,10,0.05", "10,0,0.05,0.05", "0,10,0,0.05", "0,10,0.05,0.6", "a,b,c,d", "0,inf,0.05,0.05"]
        {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }

    #[test]
    fn percentiles_take_the_nearest_rank() {
        let times: Vec<Duration> = (1..=200).map(Duration::from_millis).collect();
        assert_eq!(percentile(&times, 0.99), Some(Duration::from_millis(198)));
        assert_eq!(percentile(&times[..10], 0.99), Some(Duration::from_millis(10)));
        assert_eq!(percentile(&times[..1], 0.99), Some(Duration::from_millis(1)));
        assert_eq!(percentile(&[], 0.99), None);
    }

    #[test]
    fn tally_counts_by_colour_verdict_and_player() {
        use crate::protocols::sgf::GameRecord;
        let game = |winner, verdict, times: [Vec<u64>; 2]| Outcome {
            record: GameRecord::default(),
            winner,
            verdict,
            times: times.map(|t| t.into_iter().map(Duration::from_millis).collect()),
            proofs: Default::default(),
        };
        let mut tally = Tally::default();
        // Player 1 black and wins; player 1 white and loses by timeout; player 1 white and wins.
        tally.add(1, Color::Black, &game(Color::Black, Verdict::NoLegalMove, [vec![5, 7], vec![9]]));
        tally.add(2, Color::White, &game(Color::Black, Verdict::Timeout, [vec![1], vec![2, 1500]]));
        tally.add(3, Color::White, &game(Color::White, Verdict::Crash, [vec![3], vec![4]]));
        assert_eq!((tally.wins(), tally.losses(), tally.black_wins()), (2, 1, 2));
        assert_eq!(tally.by_colour, [Record { wins: 1, losses: 0 }, Record { wins: 1, losses: 1 }]);
        assert_eq!(tally.verdicts[0].get(&Verdict::Timeout), Some(&1));
        assert_eq!(tally.verdicts[1].get(&Verdict::NoLegalMove), Some(&1));
        assert_eq!(tally.verdicts[1].get(&Verdict::Crash), Some(&1));
        let summary = tally.to_json(["a", "b"]);
        assert_eq!(summary["move_time"]["a"]["max_ms"], json!(1500.0));
        assert_eq!(summary["move_time"]["b"]["moves"], json!(3));
        assert_eq!(summary["losses_by_verdict"]["a"]["timeout"], json!(1));
        assert_eq!(summary["player1_as_white"], json!({"wins": 1, "losses": 1}));
    }

    #[test]
    fn proofs_are_counted_per_player_and_a_loss_after_a_proven_win_is_caught() {
        use crate::protocols::sgf::GameRecord;
        let proofs = |win, loss| Proofs { win, loss };
        let none = proofs(None, None);
        // Player 1's and player 2's proofs, given by player and stored by colour as the judge does.
        let game = |player1_colour: Color, winner, [p1, p2]: [Proofs; 2]| {
            let mut by_colour = [p1, p2];
            if player1_colour == Color::White {
                by_colour.swap(0, 1);
            }
            let outcome = Outcome {
                record: GameRecord::default(),
                winner,
                verdict: Verdict::NoLegalMove,
                times: Default::default(),
                proofs: by_colour,
            };
            (player1_colour, outcome)
        };
        let games = [
            // 1: player 1 (black) proves a win at move 30 and wins; player 2 sees its loss at 31.
            game(Color::Black, Color::Black, [proofs(Some(30), None), proofs(None, Some(31))]),
            // 2: player 1 (white) reports a proven win at move 20, yet black wins.
            game(Color::White, Color::Black, [proofs(Some(20), None), proofs(Some(25), None)]),
            // 3: player 1 (white) is proven lost at 12, the opponent errs, the win is proven at 41.
            game(Color::White, Color::White, [proofs(Some(41), Some(12)), none]),
            // 4: no proofs.
            game(Color::Black, Color::White, [none, none]),
        ];
        let mut tally = Tally::default();
        for (number, (colour, outcome)) in (1..).zip(&games) {
            tally.add(number, *colour, outcome);
        }
        let expected = [
            ProofTally {
                win_moves: vec![30, 20, 41],
                lost_after_win: vec![2],
                loss_moves: vec![12],
                won_after_loss: 1,
            },
            ProofTally {
                win_moves: vec![25],
                lost_after_win: vec![],
                loss_moves: vec![31],
                won_after_loss: 0,
            },
        ];
        assert_eq!(tally.proofs, expected);

        let summary = tally.to_json(["a", "b"]);
        let a = &summary["proofs"]["a"];
        assert_eq!((a["proven_win_games"].as_u64(), a["lost_after_proven_win"].as_u64()), (Some(3), Some(1)));
        assert_eq!(a["lost_after_proven_win_games"], json!([2]));
        assert!(close(a["first_proven_win_move"]["mean"].as_f64().unwrap(), 91.0 / 3.0, 1e-9));
        assert_eq!(a["first_proven_win_move"]["median"], json!(30.0));
        assert_eq!(
            (a["proven_loss_games"].as_u64(), a["won_after_proven_loss"].as_u64()),
            (Some(1), Some(1))
        );
        assert_eq!(summary["proofs"]["b"]["lost_after_proven_win"], json!(0));

        let report = tally.details(["a", "b"]);
        let has = |text: &str| report.iter().any(|line| line.contains(text));
        assert!(has(
            "a: lost after a proven win: 1 of 3 games (first proven win at move mean 30.3, median 30)"
        ));
        assert!(has("WARNING: a lost after reporting a proven win in games 2"), "{report:#?}");
        assert!(has("b: lost after a proven win: 0 of 1 games"));
        assert!(!has("WARNING: b"));
        let quiet = Tally::default().details(["a", "b"]);
        assert!(quiet.iter().any(|line| line == "a: reported no proven result"));
    }

    #[test]
    fn mean_and_median_of_move_numbers() {
        assert_eq!(mean_median(&[10, 4, 7, 2]), Some((5.75, 5.5)));
        assert_eq!(mean_median(&[9, 3, 6]), Some((6.0, 6.0)));
        assert_eq!(mean_median(&[]), None);
    }

    #[test]
    fn elo_text_bounds_a_clean_sweep_and_a_whitewash() {
        let mut tally = Tally::default();
        tally.by_colour[0].wins = 100;
        assert_eq!(tally.elo_text(), "+inf [+566, +inf]");
        tally.by_colour[1].losses = 100;
        assert_eq!(tally.elo_text(), "+0.0 ± 48.5");
        // 2 of 5: p - 1.96 sd < 0, so cutechess's error is undefined; Wilson gives [0.118, 0.769].
        let mut few = Tally::default();
        few.by_colour[0] = Record { wins: 2, losses: 3 };
        assert_eq!(few.elo_text(), "-70.4 [-350, +209]");
        assert_eq!(Tally::default().elo_text(), "-");
        // 2-0: Wilson [0.342, 1], so the interval reaches below even; 0-2 mirrors it.
        let sweep = Tally { by_colour: [Record { wins: 1, losses: 0 }; 2], ..Tally::default() };
        assert_eq!(sweep.elo_text(), "+inf [-113, +inf]");
        let whitewash = Tally { by_colour: [Record { wins: 0, losses: 1 }; 2], ..Tally::default() };
        assert_eq!(whitewash.elo_text(), "-inf [-inf, +113]");
    }

    /// A tally of `wins` and `losses` of player 1, every game decided by `verdict`.
    fn scored(wins: u64, losses: u64, verdict: Verdict) -> Tally {
        let mut tally = Tally { by_colour: [Record { wins, losses }, Record::default()], ..Tally::default() };
        for (player, count) in [(1, wins), (0, losses)] {
            if count > 0 {
                tally.verdicts[player].insert(verdict, count);
            }
        }
        tally
    }

    #[test]
    fn the_table_of_a_clean_sweep_names_no_loss_of_the_winner() {
        let table = scored(2, 0, Verdict::NoLegalMove).table(["mcts", "random"], None);
        let expected = [
            "mcts vs random: 2 games",
            "score     2-0 (mcts's wins-losses)",
            "win rate  100.0% [34.2, 100.0] (95% Wilson interval)",
            "Elo       +inf [-113, +inf] (95%)",
            "",
            "player    won   lost  lost by",
            "mcts        2      0",
            "random      0      2  no-legal-move 2",
        ];
        assert_eq!(table, expected);
        let lost = scored(0, 2, Verdict::Crash).table(["a-long-name", "b"], None);
        assert_eq!(lost[3], "Elo       -inf [-inf, +113] (95%)");
        assert_eq!(
            &lost[5..],
            [
                "player         won   lost  lost by",
                "a-long-name      0      2  crash 2",
                "b                2      0"
            ]
        );
    }

    #[test]
    fn the_table_states_the_sprt() {
        let sprt: Sprt = "0,200,0.05,0.05".parse().unwrap();
        let tally = scored(8, 0, Verdict::Malformed);
        let table = tally.table(["a", "b"], Some((sprt, sprt.decision(8, 0))));
        assert_eq!(
            table[4],
            "SPRT      H1 accepted after 8 games: LLR 3.35 left [-2.94, 2.94] (elo0=0 elo1=200 alpha=0.05 beta=0.05)"
        );
        let table = scored(3, 3, Verdict::Timeout).table(["a", "b"], Some((sprt, None)));
        assert!(
            table[4].starts_with("SPRT      no decision after 6 games: LLR -0.94 within [-2.94, 2.94]"),
            "{table:#?}"
        );
        assert_eq!(table[7..], ["a           3      3  timeout 3", "b           3      3  timeout 3"]);
    }
}
