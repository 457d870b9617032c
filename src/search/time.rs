//! Time management: how much of a turn's limit the search may use, and the game clock a GTP
//! controller sets.

use crate::rules::Color;
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

/// The longest think for one move: a day, so any time given stays a valid instant.
pub const MAX_MOVE_SECONDS: f64 = 86_400.0;

/// Iterations (or nodes) between clock reads: reading the clock costs as much as a short
/// iteration.
pub const CLOCK_INTERVAL: u64 = 256;

/// Whether a count going from `before` to `after` (not less) passes a multiple of `interval`:
/// counts that grow by more than one at a time still read the clock every `interval`.
#[inline]
pub fn passes_multiple(before: u64, after: u64, interval: u64) -> bool {
    before / interval != after / interval
}

/// The instant the search must stop by, for a turn whose clock started at `start` with
/// `limit` to answer.
pub fn deadline(start: Instant, limit: Duration) -> Instant {
    start + limit.mul_f64(SHARE_OF_LIMIT).saturating_sub(RESERVE)
}

/// Whether a search with `time` to run (`None`: no clock) has less than `ms` milliseconds: a
/// short search, for the settings that win at short times only.
pub fn is_shorter(time: Option<Duration>, ms: u32) -> bool {
    time.is_some_and(|time| time < Duration::from_millis(ms.into()))
}

/// A turn limit from the input's `time_limit` field. Botzone's documents give it in seconds in
/// places and in milliseconds in their example (`"time_limit":1000`). No real limit is under
/// 0.1 s or over 100 s, so values of 100 and more are read as milliseconds and smaller ones as
/// seconds. `None` for a value that is not a positive duration.
pub fn limit_from_input(value: f64) -> Option<Duration> {
    let seconds = if value >= 100.0 { value / 1000.0 } else { value };
    Duration::try_from_secs_f64(seconds).ok().filter(|limit| !limit.is_zero())
}

/// A GTP game clock (`time_settings`): main time, then Canadian byo-yomi periods of `byo_time` seconds for
/// `byo_stones` moves. Absolute time has no byo-yomi (`byo_time` 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeSettings {
    /// Main time in seconds.
    pub main: f64,
    /// Seconds of each byo-yomi period.
    pub byo_time: f64,
    /// Moves to play in each byo-yomi period.
    pub byo_stones: u32,
}

impl TimeSettings {
    fn has_byo_yomi(&self) -> bool {
        self.byo_time > 0.0 && self.byo_stones > 0
    }

    /// A player's clock at the start of a game.
    fn start(&self) -> Remaining {
        if self.main <= 0.0 && self.has_byo_yomi() {
            Remaining { seconds: self.byo_time, stones: self.byo_stones }
        } else {
            Remaining { seconds: self.main, stones: 0 }
        }
    }
}

/// A player's clock as `time_left` gives it: seconds left, and moves left in the byo-yomi
/// period (0 while in main time).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Remaining {
    /// Seconds left on the clock.
    pub seconds: f64,
    /// Moves left in the byo-yomi period; 0 in main time.
    pub stones: u32,
}

/// Own moves still to come in main time, estimated from the empty points: a 9x9 NoGo game
/// ends with a good part of the board still empty, each player filling about a third of it.
fn moves_to_come(empty_points: u32) -> u32 {
    (empty_points / 3).max(8)
}

/// The game clock a GTP controller sets; without `time_settings` or `time_left` the engine
/// thinks for its per-move budget.
#[derive(Clone, Debug, Default)]
pub struct GameClock {
    settings: Option<TimeSettings>,
    left: [Option<Remaining>; 2],
}

impl GameClock {
    /// `time_settings`; byo-yomi time with no stones means no time limit (GTP 4.2).
    pub fn set(&mut self, settings: TimeSettings) {
        let unlimited = settings.byo_time > 0.0 && settings.byo_stones == 0;
        self.settings = (!unlimited).then_some(settings);
        self.restart();
    }

    /// Both clocks back to the start of a game.
    pub fn restart(&mut self) {
        let start = self.settings.map(|s| s.start());
        self.left = [start, start];
    }

    /// The time to spend on `colour`'s move, if a clock runs.
    pub fn allot(&self, colour: Color, empty_points: u32) -> Option<Duration> {
        let left = self.left[colour.index()]?;
        let seconds = if left.stones > 0 {
            left.seconds / left.stones as f64
        } else {
            let share = left.seconds / moves_to_come(empty_points) as f64;
            match self.settings.filter(TimeSettings::has_byo_yomi) {
                // Main time ending flows into a full byo-yomi period: its pace is the floor.
                Some(s) => share.max(s.byo_time / s.byo_stones as f64),
                None => share,
            }
        };
        Some(Duration::from_secs_f64(seconds.clamp(0.0, MAX_MOVE_SECONDS)))
    }

    /// `time_left`: what the controller says is left on `colour`'s clock.
    pub fn set_left(&mut self, colour: Color, left: Remaining) {
        self.left[colour.index()] = Some(left);
    }

    /// Counts `used` against `colour`'s clock, so the allotment stays sound when the
    /// controller sends no `time_left`.
    pub fn charge(&mut self, colour: Color, used: Duration) {
        let byo = self.settings.filter(TimeSettings::has_byo_yomi);
        let Some(left) = &mut self.left[colour.index()] else { return };
        left.seconds = (left.seconds - used.as_secs_f64()).max(0.0);
        let in_byo_yomi = left.stones > 0;
        if in_byo_yomi {
            left.stones -= 1;
        }
        // Main time used up, or a period's stones all played: a fresh byo-yomi period.
        let period_over = if in_byo_yomi { left.stones == 0 } else { left.seconds == 0.0 };
        if let (true, Some(s)) = (period_over, byo) {
            *left = Remaining { seconds: s.byo_time, stones: s.byo_stones };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_passes_a_multiple_once_it_reaches_or_steps_over_it() {
        assert!(passes_multiple(255, 256, 256));
        assert!(passes_multiple(254, 257, 256), "stepped over");
        assert!(!passes_multiple(256, 258, 256), "left behind");
        assert!(!passes_multiple(0, 0, 256));
        assert!(passes_multiple(0, 1, 1));
    }

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

    fn settings(main: f64, byo_time: f64, byo_stones: u32) -> GameClock {
        let mut clock = GameClock::default();
        clock.set(TimeSettings { main, byo_time, byo_stones });
        clock
    }

    #[test]
    fn clock_allotments() {
        // No time_settings, or byo-yomi time with no stones: no clock.
        assert_eq!(GameClock::default().allot(Color::Black, 81), None);
        assert_eq!(settings(0.0, 10.0, 0).allot(Color::Black, 81), None);
        // Absolute time: a share of what is left, never all of it.
        let absolute = settings(60.0, 0.0, 0).allot(Color::Black, 81).unwrap();
        assert_eq!(absolute, Duration::from_secs_f64(60.0 / 27.0));
        assert_eq!(
            settings(60.0, 0.0, 0).allot(Color::White, 3).unwrap(),
            Duration::from_secs_f64(60.0 / 8.0)
        );
        // Byo-yomi only: the period divided by its stones.
        assert_eq!(settings(0.0, 30.0, 10).allot(Color::Black, 81).unwrap(), Duration::from_secs(3));
        // Main time nearly gone, byo-yomi next: the byo-yomi pace.
        let mut clock = settings(1.0, 30.0, 10);
        assert_eq!(clock.allot(Color::Black, 81).unwrap(), Duration::from_secs(3));
        // time_left overrides.
        clock.set_left(Color::White, Remaining { seconds: 8.0, stones: 4 });
        assert_eq!(clock.allot(Color::White, 40).unwrap(), Duration::from_secs(2));
        // However much time a controller gives, a move's think is a valid duration.
        let huge = settings(1e300, 0.0, 0).allot(Color::Black, 81).unwrap();
        assert_eq!(huge, Duration::from_secs_f64(MAX_MOVE_SECONDS));
    }

    #[test]
    fn the_clock_is_charged_for_own_moves() {
        let mut clock = settings(10.0, 0.0, 0);
        clock.charge(Color::Black, Duration::from_secs(4));
        assert_eq!(clock.left[0], Some(Remaining { seconds: 6.0, stones: 0 }));
        clock.charge(Color::Black, Duration::from_secs(9));
        assert_eq!(clock.left[0], Some(Remaining { seconds: 0.0, stones: 0 }));
        assert_eq!(clock.left[1], Some(Remaining { seconds: 10.0, stones: 0 }));
        // Main time over: a byo-yomi period starts; a period's last stone starts the next.
        let mut clock = settings(2.0, 30.0, 2);
        clock.charge(Color::White, Duration::from_secs(3));
        assert_eq!(clock.left[1], Some(Remaining { seconds: 30.0, stones: 2 }));
        clock.charge(Color::White, Duration::from_secs(5));
        assert_eq!(clock.left[1], Some(Remaining { seconds: 25.0, stones: 1 }));
        clock.charge(Color::White, Duration::from_secs(5));
        assert_eq!(clock.left[1], Some(Remaining { seconds: 30.0, stones: 2 }));
    }
}
