//! The learned move prior: a rank for each move pattern (`patterns`), fitted to the visit
//! shares of the search's own self-play games by the `pattern_prior` example and embedded
//! (`pattern_ranks.txt`, with the command, data and held-out accuracy in its header). The
//! ranking of a node's children breaks ties of mobility by it.

use crate::search::patterns::raw_keys_of;
use std::sync::OnceLock;

/// The embedded table: `unseen RANK`, then `CODE RANK` lines, `#` comments.
const RANKS_TEXT: &str = include_str!("pattern_ranks.txt");

/// Slots of the hash table: a power of two, over twice the raw keys of the embedded patterns.
const SLOTS: usize = 1 << 17;

/// An empty slot (no raw key has bits above 40).
const EMPTY: u64 = u64::MAX;

/// Pattern ranks by [raw key](crate::search::patterns::RawKeys): an open-addressing table
/// holding each key with its rank in the low byte, so a probe reads one word.
pub struct PatternRanks {
    slots: Vec<u64>,
    unseen: u8,
}

impl PatternRanks {
    /// The embedded table, parsed on first use.
    pub fn embedded() -> &'static PatternRanks {
        static TABLE: OnceLock<PatternRanks> = OnceLock::new();
        TABLE.get_or_init(|| PatternRanks::parse(RANKS_TEXT).expect("the embedded pattern ranks parse"))
    }

    /// A table from the text `pattern_prior` writes.
    pub fn parse(text: &str) -> Result<PatternRanks, String> {
        let mut table = PatternRanks { slots: vec![EMPTY; SLOTS], unseen: 0 };
        let mut entries = 0;
        for (number, line) in text.lines().enumerate() {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let bad = || format!("pattern ranks, line {}: `{line}`", number + 1);
            match fields[..] {
                [] => {}
                [first, ..] if first.starts_with('#') => {}
                ["unseen", rank] => table.unseen = rank.parse().map_err(|_| bad())?,
                [code, rank] => {
                    let (code, rank): (u32, u8) =
                        (code.parse().map_err(|_| bad())?, rank.parse().map_err(|_| bad())?);
                    for key in raw_keys_of(code) {
                        entries += 1;
                        if entries * 2 > SLOTS {
                            return Err(format!("pattern ranks: more than {} raw keys", SLOTS / 2));
                        }
                        table.insert(key, rank);
                    }
                }
                _ => return Err(bad()),
            }
        }
        Ok(table)
    }

    fn slot(key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SLOTS.trailing_zeros())) as usize
    }

    fn insert(&mut self, key: u64, rank: u8) {
        let mut i = PatternRanks::slot(key);
        while self.slots[i] != EMPTY && self.slots[i] >> 8 != key {
            i = (i + 1) % SLOTS;
        }
        self.slots[i] = key << 8 | rank as u64;
    }

    /// The rank of the pattern with raw key `key`: 0 for the moves the search prefers most.
    #[inline]
    pub fn rank(&self, key: u64) -> u8 {
        let mut i = PatternRanks::slot(key);
        loop {
            let slot = self.slots[i];
            if slot == EMPTY {
                return self.unseen;
            }
            if slot >> 8 == key {
                return slot as u8;
            }
            i = (i + 1) % SLOTS;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Color;
    use crate::rules::Position;
    use crate::search::patterns::{pattern, RawKeys};

    #[test]
    fn every_symmetry_of_a_pattern_gets_its_rank() {
        let text = "# test\nunseen 7\n";
        let position = Position::from_moves(
            [(4, 4), (3, 4), (0, 0), (5, 5)].map(|(x, y)| crate::rules::Point::from_xy(x, y).unwrap()),
        )
        .unwrap();
        let legal = position.legal_both();
        let mover = position.to_move();
        let p = crate::rules::Point::from_xy(4, 5).unwrap();
        let code = pattern(&position, legal, p);
        let table = PatternRanks::parse(&format!("{text}{code} 3\n")).unwrap();
        let stones = [Color::Black, Color::White].map(|c| position.stones(c));
        let keys = RawKeys::new(stones, legal, mover.index());
        let key = |p| keys.key(p);
        assert_eq!(table.rank(key(p)), 3);
        for other in position.legal_moves() {
            let expected = if pattern(&position, legal, other) == code { 3 } else { 7 };
            assert_eq!(table.rank(key(other)), expected, "{other}");
        }
        assert!(PatternRanks::parse("12 x\n").is_err());
    }

    #[test]
    fn the_embedded_table_ranks_seen_patterns() {
        let table = PatternRanks::embedded();
        let ranks: Vec<u8> = RANKS_TEXT
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("unseen"))
            .filter_map(|l| l.split_once(' '))
            .map(|(code, rank)| {
                let code: u32 = code.parse().unwrap();
                let rank: u8 = rank.parse().unwrap();
                for key in raw_keys_of(code) {
                    assert_eq!(table.rank(key), rank, "pattern {code}");
                }
                rank
            })
            .collect();
        assert!(ranks.len() > 1000, "{} patterns", ranks.len());
        assert!(ranks.contains(&0) && ranks.iter().any(|&r| r > 8), "ranks spread over the scale");
    }
}
