//! The judge: plays one game between two players from an opening, as Botzone's NoGo judge
//! does. Every answer is checked by [`Position`](crate::Position); the first fault or illegal
//! move loses, and a player whose opponent is left without a legal move wins.

use super::player::{FaultKind, Player};
use crate::protocols::sgf::GameRecord;
use crate::rules::{Color, GameResult, PlayError, Point};
use crate::search::engine::Proof;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Per-turn time limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Every other turn (Botzone: 1 s).
    pub turn: Duration,
    /// A player's first turn of a game (Botzone: 2 s where other turns get 1 s).
    pub first_turn: Duration,
}

/// Why a game ended, from the loser's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// The loser had no legal move: the normal end of NoGo.
    NoLegalMove,
    /// The loser resigned (a GTP engine answered `genmove` with `resign`).
    Resign,
    /// The loser played an illegal move.
    Illegal(IllegalKind),
    /// No complete answer within the time limit.
    Timeout,
    /// Answered, then neither printed the keep-running marker nor exited (a timeout).
    NoMarker,
    /// The loser's process ended (or could not start) without answering.
    Crash,
    /// The loser's output was not a move in the expected format.
    Malformed,
}

/// [`PlayError`] in an order and with names fit for counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IllegalKind {
    /// The point is occupied.
    Occupied,
    /// The move would leave its own group without a liberty.
    Suicide,
    /// The move would take an opponent group's last liberty.
    Capture,
    /// The point is off the board.
    OffBoard,
}

impl From<PlayError> for IllegalKind {
    fn from(e: PlayError) -> IllegalKind {
        match e {
            PlayError::Occupied => IllegalKind::Occupied,
            PlayError::Suicide => IllegalKind::Suicide,
            PlayError::Capture => IllegalKind::Capture,
        }
    }
}

impl From<FaultKind> for Verdict {
    fn from(kind: FaultKind) -> Verdict {
        match kind {
            FaultKind::Timeout => Verdict::Timeout,
            FaultKind::NoMarker => Verdict::NoMarker,
            FaultKind::Crash => Verdict::Crash,
            FaultKind::Malformed => Verdict::Malformed,
            FaultKind::Resign => Verdict::Resign,
        }
    }
}

impl Verdict {
    /// Every verdict, in display order.
    pub const ALL: [Verdict; 10] = [
        Verdict::NoLegalMove,
        Verdict::Resign,
        Verdict::Illegal(IllegalKind::Occupied),
        Verdict::Illegal(IllegalKind::Suicide),
        Verdict::Illegal(IllegalKind::Capture),
        Verdict::Illegal(IllegalKind::OffBoard),
        Verdict::Timeout,
        Verdict::NoMarker,
        Verdict::Crash,
        Verdict::Malformed,
    ];

    /// The verdict's key in summaries.
    pub fn key(self) -> &'static str {
        match self {
            Verdict::NoLegalMove => "no-legal-move",
            Verdict::Resign => "resign",
            Verdict::Illegal(IllegalKind::Occupied) => "illegal-occupied",
            Verdict::Illegal(IllegalKind::Suicide) => "illegal-suicide",
            Verdict::Illegal(IllegalKind::Capture) => "illegal-capture",
            Verdict::Illegal(IllegalKind::OffBoard) => "illegal-off-board",
            Verdict::Timeout => "timeout",
            Verdict::NoMarker => "timeout-no-keep-running-marker",
            Verdict::Crash => "crash",
            Verdict::Malformed => "malformed-output",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// The first moves of a game (1-based, the opening counted) for which a player said its search
/// had proven the result for itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Proofs {
    /// The first move for which a proven win was claimed.
    pub win: Option<usize>,
    /// The first move for which a proven loss was claimed.
    pub loss: Option<usize>,
}

impl Proofs {
    /// Notes a claim made when choosing move `number`; only the first of each kind counts.
    fn note(&mut self, number: usize, proof: Proof) {
        match proof {
            Proof::Win => self.win = self.win.or(Some(number)),
            Proof::Loss => self.loss = self.loss.or(Some(number)),
            Proof::Unknown => {}
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The game as played, with its result.
    pub record: GameRecord,
    /// The colour that won.
    pub winner: Color,
    /// Why the game ended.
    pub verdict: Verdict,
    /// Each colour's time per move, in play order (the faulty last turn included).
    pub times: [Vec<Duration>; 2],
    /// Each colour's proven results, claimed on any turn (a faulty one included).
    pub proofs: [Proofs; 2],
}

impl Outcome {
    /// Why the game ended, in words (the record's result).
    pub fn reason(&self) -> &str {
        self.record.result.as_ref().map_or("", |r| r.reason.as_str())
    }
}

/// Plays a game from `opening` (legal and not over), `players` indexed by colour. Returns
/// `None` when `stop` is raised before the end.
pub fn play(
    players: [&mut dyn Player; 2],
    names: [&str; 2],
    opening: &[Point],
    limits: Limits,
    stop: &AtomicBool,
) -> Option<Outcome> {
    let mut game =
        crate::rules::game::Game::from_moves(opening.to_vec()).expect("openings are checked when loaded");
    let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let mut proofs = [Proofs::default(); 2];
    let (loser, verdict, reason) = loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let colour = game.position().to_move();
        let number = game.moves().len() + 1;
        let limit = if times[colour.index()].is_empty() { limits.first_turn } else { limits.turn };
        let turn = players[colour.index()].turn(game.position(), game.moves(), limit);
        times[colour.index()].push(turn.elapsed);
        proofs[colour.index()].note(number, turn.proof);
        let answer = match turn.outcome {
            Ok(answer) => answer,
            Err(fault) if fault.kind == FaultKind::Resign => {
                break (colour, Verdict::Resign, format!("{colour} resigned at move {number}"));
            }
            Err(fault) => {
                let reason =
                    format!("{colour} {} at move {number}: {}", Verdict::from(fault.kind), fault.detail);
                break (colour, Verdict::from(fault.kind), reason);
            }
        };
        let played = match Point::from_botzone(answer.x, answer.y) {
            Some(p) => game.play(p).map_err(|e| (IllegalKind::from(e), e.to_string())),
            None => Err((IllegalKind::OffBoard, "the point is off the board".to_string())),
        };
        if let Err((kind, why)) = played {
            let reason = format!(
                "{colour} played an illegal move ({}, {}) at move {number}: {why}",
                answer.x, answer.y
            );
            break (colour, Verdict::Illegal(kind), reason);
        }
        if let Some(result) = game.result() {
            break (!result.winner, Verdict::NoLegalMove, result.reason);
        }
    };
    let winner = !loser;
    let mut record = GameRecord::from_game(&game, names[0], names[1]);
    record.result = Some(GameResult { winner, reason });
    Some(Outcome { record, winner, verdict, times, proofs })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Position;
    use crate::tools::arena::player::{Answer, Fault, Turn};

    /// Plays a fixed list of answers, then a fault; claims the proofs of `claims` on the
    /// same turns (none once the list is over).
    struct Scripted(Vec<Result<Answer, Fault>>, Vec<Proof>);

    impl Player for Scripted {
        fn turn(&mut self, _: &Position, _: &[Point], _: Duration) -> Turn {
            let outcome = if self.0.is_empty() {
                Err(Fault::new(FaultKind::Crash, "script over"))
            } else {
                self.0.remove(0)
            };
            let proof = if self.1.is_empty() { Proof::Unknown } else { self.1.remove(0) };
            Turn { outcome, elapsed: Duration::from_millis(1), proof }
        }
    }

    fn xy(x: i64, y: i64) -> Result<Answer, Fault> {
        Ok(Answer { x, y })
    }

    const LIMITS: Limits = Limits { turn: Duration::from_secs(1), first_turn: Duration::from_secs(2) };

    fn judge(
        black: Vec<Result<Answer, Fault>>,
        white: Vec<Result<Answer, Fault>>,
        opening: &[Point],
    ) -> Outcome {
        let (mut b, mut w) = (Scripted(black, vec![]), Scripted(white, vec![]));
        play([&mut b, &mut w], ["b", "w"], opening, LIMITS, &AtomicBool::new(false)).unwrap()
    }

    #[test]
    fn illegal_moves_lose_and_are_named() {
        let game = judge(vec![xy(0, 0), xy(4, 4)], vec![xy(0, 0)], &[]);
        assert_eq!((game.winner, game.verdict), (Color::Black, Verdict::Illegal(IllegalKind::Occupied)));
        assert_eq!(game.record.moves.len(), 1, "the illegal move is not recorded");
        let game = judge(vec![xy(-1, -1)], vec![], &[]);
        assert_eq!((game.winner, game.verdict), (Color::White, Verdict::Illegal(IllegalKind::OffBoard)));
        let game = judge(vec![xy(9, 0)], vec![], &[]);
        assert_eq!(game.verdict, Verdict::Illegal(IllegalKind::OffBoard));
        // Black A9, White B9: black A8 would capture nothing; white A8 takes A9's last liberty.
        let game = judge(vec![xy(0, 0), xy(5, 5)], vec![xy(1, 0), xy(0, 1)], &[]);
        assert_eq!((game.winner, game.verdict), (Color::Black, Verdict::Illegal(IllegalKind::Capture)));
        // White in the corner between two black stones is suicide.
        let opening: Vec<Point> =
            [(1, 0), (5, 5), (0, 1)].iter().map(|&(x, y)| Point::from_xy(x, y).unwrap()).collect();
        let game = judge(vec![], vec![xy(0, 0)], &opening);
        assert_eq!((game.winner, game.verdict), (Color::Black, Verdict::Illegal(IllegalKind::Suicide)));
        assert!(game.record.result.unwrap().reason.contains("suicide"));
    }

    #[test]
    fn faults_lose_with_their_kind() {
        let timeout = Err(Fault::new(FaultKind::Timeout, "slow"));
        let game = judge(vec![xy(4, 4)], vec![timeout], &[]);
        assert_eq!((game.winner, game.verdict), (Color::Black, Verdict::Timeout));
        assert_eq!(game.times[1].len(), 1, "the faulty turn is timed");
        assert_eq!(game.record.result.unwrap().reason, "white timeout at move 2: slow");
    }

    #[test]
    fn a_resignation_loses_with_its_own_verdict() {
        let resign = Err(Fault::new(FaultKind::Resign, "genmove answered resign"));
        let game = judge(vec![xy(4, 4), resign], vec![xy(0, 0)], &[]);
        assert_eq!((game.winner, game.verdict), (Color::White, Verdict::Resign));
        assert_eq!(game.record.moves.len(), 2);
        assert_eq!(game.times[0].len(), 2, "the resigning turn is timed");
        assert!(game.record.to_sgf().contains("RE[W+R]"));
        assert_eq!(game.record.result.unwrap().reason, "black resigned at move 3");
        assert_eq!(Verdict::Resign.key(), "resign");
        assert!(Verdict::ALL.contains(&Verdict::Resign));
    }

    #[test]
    fn a_player_left_without_moves_loses() {
        // Replay a random game's moves through scripted players: the judge ends it exactly at
        // the terminal position and names the player without a legal move.
        let mut moves = Vec::new();
        let position = crate::rules::random_game(&mut fastrand::Rng::with_seed(7), |p| moves.push(p));
        let script = |parity| moves.iter().skip(parity).step_by(2).map(|&p| Ok(Answer::from(p))).collect();
        let game = judge(script(0), script(1), &[]);
        assert_eq!(game.record.moves, moves);
        assert_eq!((game.winner, game.verdict), (!position.to_move(), Verdict::NoLegalMove));
    }

    #[test]
    fn the_first_proof_of_each_kind_is_kept_with_its_move_number() {
        // After a two-move opening, black chooses moves 3, 5, 7 and white 4, 6, 8; white's
        // fourth turn (move 10) is a fault, and its claim there still counts.
        let opening = [Point::from_xy(4, 4).unwrap(), Point::from_xy(0, 0).unwrap()];
        use Proof::{Loss, Unknown, Win};
        let black = Scripted(vec![xy(2, 2), xy(6, 6), xy(2, 6), xy(6, 2)], vec![Unknown, Win, Win]);
        let white = Scripted(vec![xy(8, 8), xy(8, 0), xy(0, 8)], vec![Loss, Unknown, Loss, Win]);
        let (mut b, mut w) = (black, white);
        let game = play([&mut b, &mut w], ["b", "w"], &opening, LIMITS, &AtomicBool::new(false)).unwrap();
        assert_eq!((game.winner, game.verdict), (Color::Black, Verdict::Crash));
        assert_eq!(game.proofs[Color::Black.index()], Proofs { win: Some(5), loss: None });
        assert_eq!(game.proofs[Color::White.index()], Proofs { win: Some(10), loss: Some(4) });
    }

    #[test]
    fn a_raised_stop_abandons_the_game() {
        let (mut b, mut w) = (Scripted(vec![xy(4, 4)], vec![]), Scripted(vec![], vec![]));
        assert!(play([&mut b, &mut w], ["b", "w"], &[], LIMITS, &AtomicBool::new(true)).is_none());
    }
}
