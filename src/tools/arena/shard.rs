//! Matches beyond one machine: a match's games split into shards that run anywhere
//! (`--shard K/N`), and the shards' JSON summaries merged back into the whole match's result
//! (`nogo arena merge`). Each shard plays the same games the whole match would (openings,
//! colours and engine seeds depend on the game's number only), and each summary lists its
//! games, so the merge counts exactly what one machine would have.

use super::judge::{Outcome, Proofs, Verdict};
use super::spec::PlayerSpec;
use super::stats::Tally;
use crate::protocols::sgf::GameRecord;
use crate::rules::Color;
use serde_json::{json, Value};
use std::time::Duration;

/// The `K`-th of `N` slices of a match: the pairs of games (one opening, both colours) whose
/// index is `K - 1` modulo `N`, so every shard plays whole pairs and about `1/N` of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// From 1.
    pub index: u64,
    /// The number of slices, `N`.
    pub count: u64,
}

impl Shard {
    /// The whole match.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Whether game `number` (from 0) is this shard's.
    pub fn includes(self, number: u64) -> bool {
        (number / 2) % self.count == self.index - 1
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("'{s}' is not a shard K/N with 1 <= K <= N");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// A finished game as a summary lists it: what the statistics count, by colour.
pub fn game_json(number: u64, player1_colour: Color, game: &Outcome) -> Value {
    let by_colour = |f: &dyn Fn(usize) -> Value| json!({ "black": f(0), "white": f(1) });
    let times = |c: usize| json!(game.times[c].iter().map(|t| t.as_nanos() as u64).collect::<Vec<_>>());
    let proofs = |c: usize| json!({ "win": game.proofs[c].win, "loss": game.proofs[c].loss });
    json!({
        "number": number,
        "player1": player1_colour.to_string(),
        "winner": game.winner.to_string(),
        "verdict": game.verdict.key(),
        "reason": game.reason(),
        "times_ns": by_colour(&times),
        "proofs": by_colour(&proofs),
    })
}

/// A game listed by [`game_json`]: its number, player 1's colour and what the statistics count.
fn game_from_json(value: &Value) -> Result<(u64, Color, Outcome), String> {
    let bad = |what: &str| format!("a listed game has no valid {what}: {value}");
    let colour = |v: &Value| match v.as_str() {
        Some("black") => Some(Color::Black),
        Some("white") => Some(Color::White),
        _ => None,
    };
    let number = value["number"].as_u64().ok_or_else(|| bad("number"))?;
    let player1 = colour(&value["player1"]).ok_or_else(|| bad("player1"))?;
    let winner = colour(&value["winner"]).ok_or_else(|| bad("winner"))?;
    let key = value["verdict"].as_str().ok_or_else(|| bad("verdict"))?;
    let verdict = *Verdict::ALL.iter().find(|v| v.key() == key).ok_or_else(|| bad("verdict"))?;
    let mut times: [Vec<Duration>; 2] = Default::default();
    let mut proofs = [Proofs::default(); 2];
    for (c, name) in ["black", "white"].into_iter().enumerate() {
        let listed = value["times_ns"][name].as_array().ok_or_else(|| bad("times_ns"))?;
        for t in listed {
            times[c].push(Duration::from_nanos(t.as_u64().ok_or_else(|| bad("times_ns"))?));
        }
        let at = |kind: &str| match &value["proofs"][name][kind] {
            Value::Null => Ok(None),
            v => v.as_u64().map(|m| Some(m as usize)).ok_or_else(|| bad("proofs")),
        };
        proofs[c] = Proofs { win: at("win")?, loss: at("loss")? };
    }
    let outcome = Outcome { record: GameRecord::default(), winner, verdict, times, proofs };
    Ok((number, player1, outcome))
}

/// The fields that name a match: summaries merge only when all of them agree (the players but
/// for their programs' paths, `same_player`).
pub const MATCH_FIELDS: [&str; 7] =
    ["player1", "player2", "games_planned", "time_s", "first_time_s", "openings", "seed"];

/// A match merged from its shards ([`merge`]).
pub struct Merged<'a> {
    /// The whole match's statistics.
    pub tally: Tally,
    /// The first summary, whose match fields all share.
    pub first: &'a Value,
    /// Every game listed, in order.
    pub games: Vec<Value>,
    /// Where a shard's player ran another program than the first summary's, a line saying so.
    pub notes: Vec<String>,
}

/// Whether two summaries' players (`{"name", "spec"}`) are the same: the same name and
/// [`PlayerSpec`] but for the program (the command's first word), wherever each shard's
/// machine has it.
fn same_player(a: &Value, b: &Value) -> bool {
    fn without_program(player: &Value) -> Option<(&Value, PlayerSpec)> {
        let spec = PlayerSpec::parse(player["spec"].as_str()?).ok()?;
        Some((&player["name"], spec.without_program()))
    }
    without_program(a).is_some_and(|a| without_program(b) == Some(a))
}

/// The whole match from its shards' summaries (each named); an error when they are not the
/// shards of one match, or some are missing.
pub fn merge(summaries: &[(String, Value)]) -> Result<Merged<'_>, String> {
    let (first_name, first) = summaries.first().ok_or("no summaries to merge")?;
    let count = first["shard"]["count"].as_u64().unwrap_or(1);
    let mut seen = vec![false; count as usize];
    let (mut games, mut notes) = (Vec::new(), Vec::new());
    for (name, summary) in summaries {
        for field in MATCH_FIELDS {
            let (theirs, ours) = (&summary[field], &first[field]);
            let player = field.starts_with("player");
            if !(theirs == ours || player && same_player(theirs, ours)) {
                return Err(format!("{name} is not of {first_name}'s match: its {field} differs"));
            }
            if theirs != ours {
                let spec = |player: &Value| player["spec"].as_str().unwrap_or_default().to_string();
                notes.push(format!(
                    "{name}'s {field} ran `{}` where {first_name}'s ran `{}`: merged as one player",
                    spec(theirs),
                    spec(ours)
                ));
            }
        }
        if summary["sprt"].is_object() {
            return Err(format!("{name} stopped by an SPRT: only whole matches are merged"));
        }
        let shard = &summary["shard"];
        let (index, its_count) = (shard["index"].as_u64().unwrap_or(1), shard["count"].as_u64().unwrap_or(1));
        if its_count != count || index == 0 || index > count {
            return Err(format!("{name} is shard {index}/{its_count}, not one of {count}"));
        }
        if std::mem::replace(&mut seen[index as usize - 1], true) {
            return Err(format!("{name} repeats shard {index}/{count}"));
        }
        let listed = summary["games_list"].as_array().ok_or_else(|| format!("{name} lists no games"))?;
        for game in listed {
            let (number, player1, outcome) = game_from_json(game).map_err(|e| format!("{name}: {e}"))?;
            games.push((number, player1, outcome, game));
        }
    }
    if let Some(missing) = seen.iter().position(|&s| !s) {
        return Err(format!("shard {}/{count} is missing", missing + 1));
    }
    games.sort_by_key(|&(number, ..)| number);
    let planned = first["games_planned"].as_u64().unwrap_or(0);
    let numbers: Vec<u64> = games.iter().map(|&(number, ..)| number).collect();
    if numbers != (1..=planned).collect::<Vec<_>>() {
        return Err(format!("the shards hold {} games, not games 1 to {planned} once each", numbers.len()));
    }
    let mut tally = Tally::default();
    for (number, player1_colour, outcome, _) in &games {
        tally.add(*number, *player1_colour, outcome);
    }
    Ok(Merged { tally, first, games: games.into_iter().map(|(.., listed)| listed.clone()).collect(), notes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_pairs_of_games_between_them() {
        let shards: Vec<Shard> = ["1/3", "2/3", "3/3"].iter().map(|s| s.parse().unwrap()).collect();
        for number in 0..40 {
            let owners: Vec<_> = shards.iter().filter(|s| s.includes(number)).collect();
            assert_eq!(owners.len(), 1, "game {number}");
            assert!(owners[0].includes(number ^ 1), "both colours of an opening together");
        }
        assert!((0..40).all(|n| Shard::WHOLE.includes(n)));
        for bad in ["0/2", "3/2", "x", "1/0", "2", "1/2/3", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn listed_games_read_back_as_played() {
        let reason = "black timeout at move 5: no answer within the time limit";
        let result = crate::rules::GameResult { winner: Color::White, reason: reason.into() };
        let outcome = Outcome {
            record: GameRecord { result: Some(result), ..GameRecord::default() },
            winner: Color::White,
            verdict: Verdict::Timeout,
            times: [vec![Duration::from_nanos(1_234_567)], vec![Duration::from_millis(2), Duration::ZERO]],
            proofs: [Proofs { win: Some(30), loss: None }, Proofs { win: None, loss: Some(31) }],
        };
        let listed = game_json(7, Color::Black, &outcome);
        assert_eq!(listed["reason"], reason);
        let (number, player1, read) = game_from_json(&listed).unwrap();
        assert_eq!(
            (number, player1, read.winner, read.verdict),
            (7, Color::Black, Color::White, Verdict::Timeout)
        );
        assert_eq!((read.times, read.proofs), (outcome.times, outcome.proofs));
        assert!(game_from_json(&json!({"number": 1})).is_err());
    }

    #[test]
    fn shards_merge_when_their_players_differ_only_by_the_program() {
        let won = |winner| Outcome {
            record: GameRecord::default(),
            winner,
            verdict: Verdict::NoLegalMove,
            times: Default::default(),
            proofs: Default::default(),
        };
        let summary = |index: u64, spec1: &str| {
            let games: Vec<Value> = [2 * index - 1, 2 * index]
                .map(|number| {
                    game_json(number, [Color::Black, Color::White][number as usize % 2], &won(Color::Black))
                })
                .into();
            let named = format!("shard{index}");
            let summary = json!({
                "player1": { "name": "two", "spec": spec1 },
                "player2": { "name": "one", "spec": "json:/opt/nogo" },
                "games_planned": 4, "time_s": 1.0, "first_time_s": 2.0, "openings": "standard", "seed": 5,
                "shard": { "index": index, "count": 2 },
                "games_list": games,
            });
            (named, summary)
        };
        let shards =
            [summary(1, "json:/opt/nogo --threads 2"), summary(2, "json:/home/me/nogo-b --threads 2")];
        let merged = merge(&shards).expect("the same players, the programs elsewhere");
        assert_eq!(
            (merged.tally.wins(), merged.tally.by_colour[0].wins),
            (2, 2),
            "player 1 won its games as black"
        );
        assert_eq!(merged.games.len(), 4);
        assert_eq!(merged.notes.len(), 1, "{:?}", merged.notes);
        assert!(merged.notes[0].contains("shard2's player1 ran `json:/home/me/nogo-b --threads 2`"));
        for other in ["json:/opt/nogo --threads 3", "text:/opt/nogo --threads 2", "json:/opt/nogo"] {
            let error = merge(&[shards[0].clone(), summary(2, other)]).err().expect(other);
            assert!(error.contains("its player1 differs"), "{error}");
        }
    }
}
