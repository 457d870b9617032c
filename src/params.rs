//! Every tunable parameter of the search, declared once with its range.
//!
//! `Params::default()` is what the bot plays with; the ranges bound tuning (SPSA, grids) and
//! the command line. Evidence for the values lives beside each one.

/// A tunable value with the range tuning may explore.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tunable {
    pub name: &'static str,
    pub default: f64,
    pub min: f64,
    pub max: f64,
}

/// UCB exploration constant `c` in `mean + c * sqrt(ln N / n)`. Values are in `[0, 1]`.
///
/// Evidence (`cargo run --release --example screen -- 40 20000 A B`, 80 games at 20,000 nodes
/// a move, random two-move openings played with both colours): 0.1 against 0.25 scored 82.5%
/// +- 8.3%; 0.05 against 0.1 scored 56.2% +- 10.9% (not significant). At 100,000 nodes a move
/// (nearer a 0.1 s turn), 0.05 and 0.2 against 0.1 scored 50.0% and 51.2% +- 11.0%. With
/// widening and both tie-breaks (`screen 100 60000 exploration=E "" 60000 1000`, 200 games):
/// 0.07 scored 54.5% and 0.14 scored 51.0% +- 6.9%, neither significant. With the tree's
/// proofs (session 14, openings 15000): 0.07 scored 110/200 = 55.0% and 0.14 90/200 = 45.0% +-
/// 6.9%. In the arena at 0.1 s a move, 0.07 beat 0.1 219-181 and 222-178 (`docs/strength.md`,
/// `--seed 163` and `--seed 164`; together 441/800 = 55.1% [51.7, 58.5]), but not the engines
/// the bars are about: against the seed it scored 341-59 and 349-51 (`--seed 165`, `166`) where
/// 0.1 scored 343-57 on `--seed 165`'s openings the same day, and against alphabeta 189-11
/// where 0.1 scored 193-7 (`--seed 167`). So 0.1 stays, as widening 0.5 did for the same reason.
pub const EXPLORATION: Tunable = Tunable { name: "exploration", default: 0.1, min: 0.02, max: 1.5 };

/// Slope of the squashing of the mobility difference into a win probability:
/// `value = 1 / (1 + exp(-slope * mobility))`.
///
/// Evidence (screen as above): 0.2 against 0.4 scored 36.2% +- 10.5% (exploration 0.25); 0.8
/// against 0.4 scored 43.8% +- 10.9% (exploration 0.1). With progressive widening (`screen 100
/// 55000 eval_slope=S ""`, 200 games): 0.25 scored 38.5% +- 6.7% and 0.6 scored 49.5% +- 6.9%.
/// With both tie-breaks (`screen 100 60000 eval_slope=S "" 60000 N`): 0.5 scored 219/400 =
/// 54.8% +- 4.9% over two sets of openings, 0.6 scored 55.5% and 0.32 45.0% (200 games), but
/// 0.5 against 0.4 in the arena at equal time scored 202-198 (50.5% [45.6, 55.4]), so 0.4 stays.
pub const EVAL_SLOPE: Tunable = Tunable { name: "eval_slope", default: 0.4, min: 0.05, max: 2.0 };

/// The exact endgame solver ([`crate::endgame`]) is tried first once at most this many points
/// are legal for either side; 0 never tries it. Its median reach in 0.5 s is about 22 such
/// points (`cargo run --release --example solver_reach`).
///
/// Evidence (`cargo run --release --example screen -- 200 20000 endgame_points=N
/// endgame_points=0`, 400 games at 20,000 iterations a move): 22 scored 214/400 = 53.5% +- 4.9%
/// and 30 the same 214/400; not significant alone (the two runs together, 428/800, are 53.5% +-
/// 3.5%). Kept at 22 for the proven wins it gives earlier in the game. Once the tree takes the
/// proofs a failed attempt leaves in the solver's table, 25 against 22 scored 199-201 in the
/// arena at 0.1 s a move (`docs/strength.md`, `--seed 134`), so 22 stays.
pub const ENDGAME_POINTS: Tunable = Tunable { name: "endgame_points", default: 22.0, min: 0.0, max: 40.0 };

/// Share of the turn's budget (time or iterations) the endgame solver may use before the tree
/// search takes over. With the tree taking the proofs of a failed attempt, 0.7 against 0.5
/// scored 204-196 in the arena at 0.1 s a move (`docs/strength.md`, `--seed 139`), and 0.3
/// scored 195-205 (session 18, `--seed 178`), so 0.5 stays.
pub const ENDGAME_SHARE: Tunable = Tunable { name: "endgame_share", default: 0.5, min: 0.1, max: 0.9 };

/// Progressive widening `w`: a node visited `n` times may have `ceil(w * sqrt(n))` children,
/// tried best first by the mobility each leaves (see `mcts::ranked_moves`). Ranking costs a
/// legal-set update per move when a node's children block grows: `nogo bench` runs 997,375
/// iterations a second against 1,774,697 when every child was tried, in board order, before
/// any was revisited.
///
/// Evidence (`cargo run --release --example screen -- PAIRS NODES widening=W BASELINE
/// [BASELINE_NODES]` against that scheme, 2026-11-22): at equal iterations (20,000) w = 0.5,
/// 0.7, 1, 2 and 4 scored 65.8%, 68.3%, 69.2%, 63.3% and 43.3% (120 games each, +- 8.5%). With
/// the baseline given 1.78 times the iterations (equal time): 55.5% +- 6.9% (200 games, 20,000
/// against 35,600) and 69.0% +- 9.1% (100 games, 55,000 against 98,000, about a 0.1 s turn).
/// Against w = 1 at 55,000 iterations: w = 0.7 scored 115/200 = 57.5% +- 6.9%, w = 1.5 scored
/// 38.0% +- 9.5% (100 games); exploration 0.2 and 0.05 with w = 1 scored 35.0% and 51.0%.
/// Against w = 0.7 (`screen 100 N widening=0.5 ""`): w = 0.5 scored 111/200 = 55.5% +- 6.9% at
/// 55,000 iterations and 125/200 = 62.5% +- 6.7% at 60,000; together 236/400 = 59.0% +- 4.8%;
/// in the arena at 0.1 s it beat 0.7 220-180 (55.0% [50.1, 59.8]) but scored 71.5% [66.9,
/// 75.7] against the seed where 0.7 scored 75.2% [70.8, 79.2] (400 games each, same openings
/// and seed). With the last-move tie-break ([`LAST_MOVE_RADIUS`]), 0.5 against 0.7 scored
/// 90/200 = 45.0% +- 6.9% (`screen 100 55000 last_move_near=2,widening=0.5 last_move_near=2`,
/// the key since renamed), so 0.7 stays (`docs/strength.md`). With both tie-breaks, 0.85 and
/// 0.6 against 0.7 scored 49.0% and 53.0% +- 6.9% (`screen 100 60000 widening=W "" 60000 1000`).
pub const WIDENING: Tunable = Tunable { name: "widening", default: 0.7, min: 0.25, max: 8.0 };

/// Children whose mobility ties are tried first when they lie within this many steps (up, down,
/// left, right) of the last move: answering locally first (see `mcts::ranked_moves`).
///
/// Evidence (`cargo run --release --example screen -- 100 N last_move_radius=R ""`, 200 games
/// each against no such tie-break, 2026-11-22): radius 2 (the 12 points around the move)
/// scored 119/200 = 59.5% +- 6.8% at 55,000 iterations and 115/200 = 57.5% +- 6.9% at 60,000,
/// together 234/400 = 58.5% +- 4.8%; radius 1 scored 48.0% +- 6.9%; radius 3 against 2 scored
/// 44.5% +- 6.9%. With it, widening 0.5 against 0.7 scored 45.0% +- 6.9%. Together with the
/// history tie-break, the bot scored 318-82 against the seed at 0.1 s (79.5% [75.3, 83.2], `nogo
/// arena --player1 mcts --player2 seed --games 400 --time 0.1 -j2 --seed 71`), where the search
/// without either had scored 612/800 (76.5% [73.4, 79.3]); see `docs/strength.md`.
pub const LAST_MOVE_RADIUS: Tunable = Tunable { name: "last_move_radius", default: 2.0, min: 0.0, max: 4.0 };

/// Weight of an eye of difference in the evaluation ([`crate::eval::value`]), in points of
/// mobility, once at most [`EYE_POINTS`] points are empty: an eye is a move its owner keeps
/// for ever, where other points only one side may play can still be lost.
///
/// Evidence: logistic fits of the exact result of 3,444 positions with 18 to 26 empty points
/// from session 8's 400 games against the seed (`cargo run --release --example exact_labels
/// -- SGF_DIR 18 26 4000000`, then `python3 scripts/fit-exact.py`), judged on the fifth of the
/// games held out: the mobility alone, log-loss 0.4484; with the eye difference, 0.4132, its
/// weight 0.662 against the mobility's 1.536 (0.43 points an eye). In play (`cargo run
/// --release --example screen -- 100 60000 eye_weight=W,eye_points=E "" 60000 O`, 200 games
/// each, O = 10000 and 11000, 2026-11-23): W = 0.4 with E = 40 scored 116/200 and 120/200,
/// together 236/400 = 59.0% +- 4.8%; with E = 30, 110/200 and 112/200 (55.5%); W = 0.8 with
/// E = 30, 109/200; W = 0.4 at every point (E = 81), 105/200; W = 0.6 against 0.4 (E = 40,
/// O = 12000), 105/200. In the arena at 0.1 s a move, W = 0.4 with E = 40 beat the search
/// without eyes 225-175 (56.2% [51.4, 61.0], `docs/strength.md`, `--seed 141`). Session 2's
/// screens of an eye weight counted at every point lost.
pub const EYE_WEIGHT: Tunable = Tunable { name: "eye_weight", default: 0.4, min: 0.0, max: 2.0 };

/// The evaluation counts eyes ([`EYE_WEIGHT`]) once at most this many points are empty.
/// Evidence with [`EYE_WEIGHT`]; 50 against 40 scored 103/200 = 51.5% +- 6.9% (`screen 100
/// 60000 eye_points=50 "" 60000 12000`).
pub const EYE_POINTS: Tunable = Tunable { name: "eye_points", default: 40.0, min: 0.0, max: 81.0 };

/// Tempo: the evaluation's score for the side that just moved, less this many points of
/// mobility, as having the next move is worth about that to the side to move.
///
/// Evidence: session 6's screens (`cargo run --release --example screen -- 100 N eval_tempo=T
/// ""`, 200 games each, the same openings) scored T = 1 113/200 at 60,000 iterations and
/// 112/200 at 55,000, T = -1 92/200. In the arena at 0.1 s a move (`docs/strength.md`) T = 1
/// beat the search without it 211-189 then (`--seed 94`) and 205-195 in session 16 (`--seed
/// 172`; together 416/800 = 52.0% [48.5, 55.4]). Against the seed it scored 367-33, 348-52,
/// 364-36, 359-41 and 371-29 (`--seed 165`, `170`, `175`, `176` and `179`; 1,809/2,000 =
/// 90.5% [89.1, 91.7]), where the search without it scored 1,733/2,000 = 86.7% [85.1, 88.1]
/// over five samples (343-57 on `--seed 165`'s openings); against alphabeta 184-16, 193-7,
/// 193-7 and 191-9 (`--seed 171`, `174`, `177` and `180`; 761/800 = 95.1% [93.4, 96.4]),
/// where the search without it scored 189-11 on `--seed 171`'s openings and 578/600 = 96.3%
/// [94.5, 97.6] over three samples. Kept for the gain against the seed. Session 17's screens
/// (openings 18000 and 19000) against T = 1: T = 0.5 92/200, T = 1.5 219/400, T = 2 103/200;
/// T = 1.5 then scored 715/800 against the seed (`--seed 176` and `175`) where T = 1 scored
/// 723/800, so 1 stays.
pub const EVAL_TEMPO: Tunable = Tunable { name: "eval_tempo", default: 1.0, min: -2.0, max: 3.0 };

/// The tree search proves each new node (the root excepted) with the endgame solver, instead
/// of evaluating it, once at most this many points are live (legal for either side); 0 never.
/// The solver's table keeps the proofs, so a position met again costs one probe.
///
/// Evidence (session 11, 2026-11-23, with [`TREE_SOLVE_NODES`] 500): at equal iterations,
/// `cargo run --release --example screen -- 100 60000 tree_solve_points=10 "" 60000 13000`
/// scored 128/200 = 64.0% +- 6.7% against the search without it. It costs time: 60,000
/// iterations on 50 positions of moves 40 to 56 of real games took 4.88 s with 8 points, 4.35
/// to 5.49 s with 10, 6.33 to 6.90 s with 11 and 7.84 to 9.14 s with 12, against 4.32 s
/// without (a temporary example; the machine's speed varied by a fifth). In the arena at 0.1 s a
/// move, 10 points beat the search without it 223-177 (55.8% [50.9, 60.5], Elo +40.1,
/// `docs/strength.md`, `--seed 146`); 11 points lost to 10 181-219 (45.2% [40.4, 50.1],
/// `--seed 150`). Session 9 had tried 14 points (5,000 nodes): 70.0% at equal iterations, but
/// six times slower. Session 12 added a second tier, proving a node with at most 13 live points
/// again (2,000 nodes) at its 2nd, 4th or 8th visit: 60.5%, 55.5% and 53.5% +- 6.9% at equal
/// iterations, for 86%, 14% and 3% more time on the same timing; dropped.
pub const TREE_SOLVE_POINTS: Tunable =
    Tunable { name: "tree_solve_points", default: 10.0, min: 0.0, max: 22.0 };

/// The solver's node budget for each of the tree's proofs ([`TREE_SOLVE_POINTS`]); a node it
/// does not prove within it is evaluated as usual. At 10 points most proofs take far fewer:
/// 200 nodes ran 5.20 s where 500 ran 5.49 s on the timing of [`TREE_SOLVE_POINTS`].
pub const TREE_SOLVE_NODES: Tunable =
    Tunable { name: "tree_solve_nodes", default: 500.0, min: 10.0, max: 100_000.0 };

/// All tunables, for listing and for tuners.
pub const ALL: [Tunable; 11] = [
    EXPLORATION,
    EVAL_SLOPE,
    ENDGAME_POINTS,
    ENDGAME_SHARE,
    WIDENING,
    LAST_MOVE_RADIUS,
    EYE_WEIGHT,
    EYE_POINTS,
    EVAL_TEMPO,
    TREE_SOLVE_POINTS,
    TREE_SOLVE_NODES,
];

/// The values the search runs with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    pub exploration: f32,
    pub eval_slope: f32,
    pub endgame_points: u32,
    pub endgame_share: f32,
    pub widening: f32,
    pub last_move_radius: u32,
    pub eye_weight: f32,
    pub eye_points: u32,
    pub eval_tempo: f32,
    pub tree_solve_points: u32,
    pub tree_solve_nodes: u32,
    /// Bytes the search tree may use (the whole arena).
    pub memory_bytes: usize,
}

/// Default tree memory: 200 MB, leaving room under Botzone's 256 MB for the rest.
pub const DEFAULT_MEMORY_BYTES: usize = 200 * 1000 * 1000;

impl Default for Params {
    fn default() -> Params {
        Params {
            exploration: EXPLORATION.default as f32,
            eval_slope: EVAL_SLOPE.default as f32,
            endgame_points: ENDGAME_POINTS.default as u32,
            endgame_share: ENDGAME_SHARE.default as f32,
            widening: WIDENING.default as f32,
            last_move_radius: LAST_MOVE_RADIUS.default as u32,
            eye_weight: EYE_WEIGHT.default as f32,
            eye_points: EYE_POINTS.default as u32,
            eval_tempo: EVAL_TEMPO.default as f32,
            tree_solve_points: TREE_SOLVE_POINTS.default as u32,
            tree_solve_nodes: TREE_SOLVE_NODES.default as u32,
            memory_bytes: DEFAULT_MEMORY_BYTES,
        }
    }
}

impl Params {
    /// Sets the parameter a [`Tunable`] of [`ALL`] names, so tools that take `name=value`
    /// settings (the `screen` example) follow the declarations here; an error for any other name.
    pub fn set(&mut self, name: &str, value: f64) -> Result<(), String> {
        let (real, whole) = (value as f32, value as u32);
        match name {
            n if n == EXPLORATION.name => self.exploration = real,
            n if n == EVAL_SLOPE.name => self.eval_slope = real,
            n if n == ENDGAME_POINTS.name => self.endgame_points = whole,
            n if n == ENDGAME_SHARE.name => self.endgame_share = real,
            n if n == WIDENING.name => self.widening = real,
            n if n == LAST_MOVE_RADIUS.name => self.last_move_radius = whole,
            n if n == EYE_WEIGHT.name => self.eye_weight = real,
            n if n == EYE_POINTS.name => self.eye_points = whole,
            n if n == EVAL_TEMPO.name => self.eval_tempo = real,
            n if n == TREE_SOLVE_POINTS.name => self.tree_solve_points = whole,
            n if n == TREE_SOLVE_NODES.name => self.tree_solve_nodes = whole,
            _ => return Err(format!("unknown parameter {name}")),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_can_be_set_by_name_and_only_those() {
        let defaults = Params::default();
        for tunable in ALL {
            let mut params = defaults;
            params.set(tunable.name, tunable.default).unwrap();
            assert_eq!(params, defaults, "{} defaults as declared", tunable.name);
            params.set(tunable.name, tunable.max).unwrap();
            assert_ne!(params, defaults, "{} sets a field", tunable.name);
            // Each name sets its own field: setting it back restores every other field too.
            params.set(tunable.name, tunable.default).unwrap();
            assert_eq!(params, defaults, "{}", tunable.name);
        }
        assert!(Params::default().set("memory_bytes", 1.0).is_err());
        assert!(Params::default().set("explore", 0.2).is_err());
    }
}
