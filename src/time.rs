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

/// A turn limit from the input's `time_limit` field. Botzone's documents give it in seconds in
/// places and in milliseconds in their example (`"time_limit":1000`). No real limit is under
/// 0.1 s or over 100 s, so values of 100 and more are read as milliseconds and smaller ones as
/// seconds. `None` for a value that is not a positive duration.
pub fn limit_from_input(value: f64) -> Option<Duration> {
    let seconds = if value >= 100.0 { value / 1000.0 } else { value };
    Duration::try_from_secs_f64(seconds).ok().filter(|limit| !limit.is_zero())
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

    #[test]
    fn input_limits_in_seconds_or_milliseconds() {
        assert_eq!(limit_from_input(1000.0), Some(Duration::from_secs(1)));
        assert_eq!(limit_from_input(2.0), Some(Duration::from_secs(2)));
        assert_eq!(limit_from_input(0.5), Some(Duration::from_millis(500)));
        assert_eq!(limit_from_input(6000.0), Some(Duration::from_secs(6)));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e300] {
            assert_eq!(limit_from_input(bad), None, "{bad}");
        }
    }
}
