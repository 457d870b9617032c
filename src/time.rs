//! Time management: how much of a turn's limit the search may use.

use std::time::{Duration, Instant};

/// Share of the turn limit the search may spend; the rest absorbs process start, output, and
/// a busy machine's scheduling delays (the bar is 0.95 of the limit, worst case).
pub const SHARE_OF_LIMIT: f64 = 0.82;
/// Fixed reserve subtracted on top of the share.
pub const RESERVE: Duration = Duration::from_millis(15);

/// Botzone's per-turn limit for compiled languages.
pub const TURN_LIMIT: Duration = Duration::from_secs(1);
/// Botzone's limit on a bot's first turn of a match.
pub const FIRST_TURN_LIMIT: Duration = Duration::from_secs(2);

/// The instant the search must stop by, for a turn whose clock started at `start` with
/// `limit` to answer.
pub fn deadline(start: Instant, limit: Duration) -> Instant {
    start + limit.mul_f64(SHARE_OF_LIMIT).saturating_sub(RESERVE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadline_leaves_a_margin_and_never_precedes_start() {
        let start = Instant::now();
        let d = deadline(start, TURN_LIMIT);
        assert!(d > start && d - start < TURN_LIMIT.mul_f64(0.9));
        assert_eq!(deadline(start, Duration::from_millis(5)), start);
    }
}
