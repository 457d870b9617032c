//! A small convolutional move policy: from planes of a position (stones, each side's legal
//! points, the mobility each move leaves either side, the last move) to a score for every
//! point, higher for the moves a long search prefers. Trained by `scripts/train-policy.py` on
//! self-play (`docs/policy.md`); the weights are embedded in the binary.

use crate::rules::{Bitboard, Point, Position};
use crate::search::eval;

/// Input planes of [`planes`], each 81 cells (`y * 9 + x`) from the side to move's view.
pub const PLANES: usize = 10;
/// Channels of every hidden layer.
pub const WIDTH: usize = 16;
/// Cells of the board.
const CELLS: usize = 81;
/// Mobility shortfalls above this are recorded as this.
const MAX_SHORTFALL: i8 = 16;
/// The factor of each plane's values in the network's input: the shortfalls are 0 to 16.
pub const PLANE_SCALE: [f32; PLANES] = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.125, 0.125];

/// The network's input for `position`, reached by `last_move`, from the side to move's view:
/// 0 on the board (all ones: the zero padding outside marks the edge), 1 its stones, 2 the
/// opponent's, 3 empty points both may play, 4 points only it may play, 5 only the opponent,
/// 6 neither, 7 the last move, 8 for each of its legal moves how far the mobility the move
/// leaves falls short of its best move's (0 for a best move, at most 16), 9 the same for the
/// opponent's legal moves were it to move. Training data and inference both come from here.
pub fn planes(position: &Position, last_move: Option<Point>) -> [[i8; CELLS]; PLANES] {
    let mut planes = [[0i8; CELLS]; PLANES];
    let side = position.to_move();
    let [own, theirs] = {
        let legal = position.legal_both();
        [legal[side.index()], legal[1 - side.index()]]
    };
    let empty = position.empty();
    let sets = [
        Bitboard::FULL,
        position.stones(side),
        position.stones(!side),
        own & theirs,
        own - theirs,
        theirs - own,
        empty - own - theirs,
        last_move.map_or(Bitboard::EMPTY, Bitboard::from),
    ];
    for (plane, set) in planes.iter_mut().zip(sets) {
        for p in set {
            plane[p.cell()] = 1;
        }
    }
    let mut opponent_to_move = position.clone();
    opponent_to_move.pass();
    for (plane, position) in planes[8..].iter_mut().zip([position, &opponent_to_move]) {
        shortfalls(position, plane);
    }
    planes
}

/// For each legal move of the side to move, how far the mobility it leaves falls short of the
/// best move's, capped at [`MAX_SHORTFALL`].
fn shortfalls(position: &Position, plane: &mut [i8; CELLS]) {
    let me = position.to_move().index();
    let effects = position.move_effects();
    let mobility = |p: Point| {
        let after = effects.legal_both_after(p);
        eval::mobility(after[me], after[1 - me])
    };
    let moves: Vec<(Point, i32)> = position.legal_moves().iter().map(|p| (p, mobility(p))).collect();
    let best = moves.iter().map(|m| m.1).max().unwrap_or(0);
    for (p, m) in moves {
        plane[p.cell()] = (best - m).min(MAX_SHORTFALL as i32) as i8;
    }
}

/// Cells of the padded board: 11x11, the 9x9 board inside a border of zeros, so that every
/// board cell's 3x3 neighbourhood is in the padded array.
const PADDED: usize = 121;

/// The padded cell of board cell `c`.
#[inline]
fn padded(c: usize) -> usize {
    (c / 9 + 1) * 11 + c % 9 + 1
}

/// The offsets in the padded board of a cell's 3x3 neighbourhood, row by row.
const KERNEL_OFFSETS: [usize; 9] = [0, 1, 2, 11, 12, 13, 22, 23, 24];

#[derive(Debug)]
/// A 3x3 convolution from `IN` channels to [`WIDTH`]: weights by kernel cell (row by row),
/// input channel and output channel, and a bias per output channel.
struct Conv<const IN: usize> {
    weights: Vec<[[f32; WIDTH]; IN]>,
    bias: [f32; WIDTH],
}

/// The network: a 3x3 convolution from the planes, residual 3x3 convolutions, each followed
/// by a ReLU, and a 1x1 convolution to one score a point.
#[derive(Debug)]
pub struct Network {
    input: Conv<PLANES>,
    hidden: Vec<Conv<WIDTH>>,
    head: [f32; WIDTH],
    head_bias: f32,
}

/// The first bytes of a weights file.
const MAGIC: &[u8; 8] = b"NOGOPOL1";

/// Why a weights file was refused.
#[derive(Debug, PartialEq, Eq)]
pub struct WeightsError(pub String);

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "policy weights: {}", self.0)
    }
}

/// The trained weights the bot carries, and their manifest (`docs/policy.md`).
pub const EMBEDDED_WEIGHTS: &[u8] = include_bytes!("../../weights/policy.bin");

impl Network {
    /// The network of a weights file: [`MAGIC`], then little-endian `u32`s planes, width and
    /// hidden layers, then `f32`s: the input convolution's weights (kernel cell, plane,
    /// channel) and biases, each hidden layer's the same way, the head's weights and bias.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, WeightsError> {
        let err = |what: &str| WeightsError(what.to_string());
        if bytes.len() < 20 || &bytes[..8] != MAGIC {
            return Err(err("not a weights file (no NOGOPOL1 header)"));
        }
        let header: Vec<usize> =
            bytes[8..20].chunks(4).map(|b| u32::from_le_bytes(b.try_into().unwrap()) as usize).collect();
        let (planes, width, layers) = (header[0], header[1], header[2]);
        if planes != PLANES || width != WIDTH {
            return Err(WeightsError(format!(
                "{planes} planes and width {width}, where this build reads {PLANES} and {WIDTH}"
            )));
        }
        let body = &bytes[20..];
        let expected = 4 * (9 * PLANES * WIDTH + WIDTH + layers * (9 * WIDTH * WIDTH + WIDTH) + WIDTH + 1);
        if body.len() != expected {
            return Err(WeightsError(format!(
                "{} bytes of weights where {layers} layers need {expected}",
                body.len()
            )));
        }
        let mut values = body.chunks(4).map(|b| f32::from_le_bytes(b.try_into().unwrap()));
        let mut next = || values.next().expect("length checked");
        let input = Conv::read(&mut next);
        let hidden = (0..layers).map(|_| Conv::read(&mut next)).collect();
        let head = std::array::from_fn(|_| next());
        let head_bias = next();
        Ok(Network { input, hidden, head, head_bias })
    }

    /// The network the binary carries.
    pub fn embedded() -> &'static Network {
        static NETWORK: std::sync::OnceLock<Network> = std::sync::OnceLock::new();
        NETWORK.get_or_init(|| Network::from_bytes(EMBEDDED_WEIGHTS).expect("the embedded weights are valid"))
    }

    /// The score of every cell for the planes `planes` (higher: more likely the search's
    /// choice); only the side to move's legal cells are meaningful.
    pub fn scores(&self, planes: &[[i8; CELLS]; PLANES]) -> [f32; CELLS] {
        let mut input = [[0f32; PLANES]; PADDED];
        for (k, plane) in planes.iter().enumerate() {
            for c in 0..CELLS {
                input[padded(c)][k] = plane[c] as f32 * PLANE_SCALE[k];
            }
        }
        let mut x = [[0f32; WIDTH]; PADDED];
        let mut y = [[0f32; WIDTH]; PADDED];
        self.input.apply(&input, &mut x);
        for c in 0..CELLS {
            for v in x[padded(c)].iter_mut() {
                *v = v.max(0.0);
            }
        }
        for layer in &self.hidden {
            layer.apply(&x, &mut y);
            for c in 0..CELLS {
                for (y, x) in y[padded(c)].iter_mut().zip(&x[padded(c)]) {
                    *y = (*y + x).max(0.0);
                }
            }
            std::mem::swap(&mut x, &mut y);
        }
        std::array::from_fn(|c| {
            self.head_bias + x[padded(c)].iter().zip(&self.head).map(|(a, b)| a * b).sum::<f32>()
        })
    }

    /// The legal moves of the side to move in `position`, reached by `last_move`, best first by
    /// the network's scores (board order among equal scores), as bitboard indices: the order
    /// a node of the tree tries its children in.
    pub fn ranked(&self, position: &Position, last_move: Option<Point>) -> Vec<u8> {
        let scores = self.scores(&planes(position, last_move));
        let mut moves: Vec<Point> = position.legal_moves().iter().collect();
        moves.sort_by(|a, b| scores[b.cell()].total_cmp(&scores[a.cell()]));
        moves.iter().map(|p| p.index() as u8).collect()
    }
}

impl<const IN: usize> Conv<IN> {
    fn read(next: &mut impl FnMut() -> f32) -> Conv<IN> {
        let weights = (0..9).map(|_| std::array::from_fn(|_| std::array::from_fn(|_| next()))).collect();
        Conv { weights, bias: std::array::from_fn(|_| next()) }
    }

    /// `output` = this convolution of `input`, on the board cells of the padded arrays (the
    /// border of `output` is left as it is: zero).
    fn apply(&self, input: &[[f32; IN]; PADDED], output: &mut [[f32; WIDTH]; PADDED]) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has the features `apply_avx2` is compiled for.
            unsafe { self.apply_avx2(input, output) };
            return;
        }
        self.apply_portable(input, output);
    }

    /// [`Conv::apply`] compiled for AVX2: eight lanes. Multiplications and additions stay
    /// apart (fused ones measured no faster), so every build computes the same scores.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn apply_avx2(&self, input: &[[f32; IN]; PADDED], output: &mut [[f32; WIDTH]; PADDED]) {
        self.apply_portable(input, output);
    }

    /// [`Conv::apply`] for any processor; three cells of a row at a time, so that each weight
    /// loaded serves three.
    #[inline(always)]
    fn apply_portable(&self, input: &[[f32; IN]; PADDED], output: &mut [[f32; WIDTH]; PADDED]) {
        for row in 0..9 {
            for column in [0, 3, 6] {
                // The top-left corner of the first cell's neighbourhood, in the padded board.
                let corner = row * 11 + column;
                let mut sums = [self.bias; 3];
                for (weights, offset) in self.weights.iter().zip(KERNEL_OFFSETS) {
                    let near: [&[f32; IN]; 3] = std::array::from_fn(|b| &input[corner + offset + b]);
                    for (channel, w) in weights.iter().enumerate() {
                        for (sum, near) in sums.iter_mut().zip(near) {
                            let x = near[channel];
                            for (s, w) in sum.iter_mut().zip(w) {
                                *s += x * w;
                            }
                        }
                    }
                }
                let first = corner + 12;
                for (b, sum) in sums.iter().enumerate() {
                    output[first + b] = *sum;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random positions of random games, each with the move that reached it.
    fn random_positions(seed: u64, games: usize) -> Vec<(Position, Option<Point>)> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut found = Vec::new();
        for _ in 0..games {
            let (mut position, mut last) = (Position::new(), None);
            while !position.is_terminal() {
                found.push((position.clone(), last));
                let mv = position.legal_moves().choose(&mut rng).unwrap();
                position.play(mv).unwrap();
                last = Some(mv);
            }
        }
        found
    }

    #[test]
    fn planes_describe_the_position_from_the_side_to_move() {
        for (position, last) in random_positions(3, 20) {
            let planes = planes(&position, last);
            let side = position.to_move();
            for p in Bitboard::FULL {
                let c = p.cell();
                assert_eq!(Point::from_cell(c), Some(p));
                assert_eq!(planes[0][c], 1);
                // Every point is exactly one of: own stone, their stone, and the four empty kinds.
                assert_eq!((1..=6).map(|k| planes[k][c] as i32).sum::<i32>(), 1, "{position}");
                assert_eq!(planes[1][c] == 1, position.stone_at(p) == Some(side));
                assert_eq!(planes[2][c] == 1, position.stone_at(p) == Some(!side));
                let (own, theirs) = (position.legal(side).has(p), position.legal(!side).has(p));
                assert_eq!(
                    [planes[3][c], planes[4][c], planes[5][c]],
                    [(own && theirs) as i8, (own && !theirs) as i8, (!own && theirs) as i8]
                );
                assert_eq!(planes[7][c] == 1, last == Some(p));
            }
            // The shortfalls, made move by move: 0 for the best moves, none off the legal points.
            for (plane, mover) in [(8, side), (9, !side)] {
                let mut turn = position.clone();
                if mover != side {
                    turn.pass();
                }
                let mobility = |p: Point| {
                    let mut after = turn.clone();
                    after.play(p).unwrap();
                    let legal = after.legal_both();
                    eval::mobility(legal[mover.index()], legal[(!mover).index()])
                };
                let legal = turn.legal_moves();
                let best = legal.iter().map(mobility).max();
                for (c, &shortfall) in planes[plane].iter().enumerate() {
                    let p = Point::from_cell(c).unwrap();
                    let expected = match best {
                        Some(best) if legal.has(p) => (best - mobility(p)).min(MAX_SHORTFALL as i32),
                        _ => 0,
                    };
                    assert_eq!(shortfall as i32, expected, "plane {plane} at {p}: {position}");
                }
            }
        }
    }

    #[test]
    fn the_embedded_network_scores_as_the_trainer_did() {
        let cases: Vec<serde_json::Value> =
            serde_json::from_str(include_str!("../../weights/policy-check.json")).unwrap();
        assert!(cases.len() >= 4);
        for case in cases {
            let mut planes = [[0i8; CELLS]; PLANES];
            for (k, plane) in case["planes"].as_array().unwrap().iter().enumerate() {
                for (c, v) in plane.as_array().unwrap().iter().enumerate() {
                    planes[k][c] = v.as_i64().unwrap() as i8;
                }
            }
            let scores = Network::embedded().scores(&planes);
            for (c, expected) in case["scores"].as_array().unwrap().iter().enumerate() {
                let expected = expected.as_f64().unwrap() as f32;
                assert!((scores[c] - expected).abs() <= 1e-3 * expected.abs().max(1.0), "cell {c}");
            }
        }
    }

    #[test]
    fn ranked_moves_are_the_legal_ones_best_first() {
        let network = Network::embedded();
        for (position, last) in random_positions(7, 3) {
            let scores = network.scores(&planes(&position, last));
            let moves: Vec<Point> =
                network.ranked(&position, last).iter().map(|&i| Point::from_index(i).unwrap()).collect();
            assert_eq!(moves.len(), position.legal_moves().count() as usize);
            assert_eq!(
                moves.iter().fold(Bitboard::EMPTY, |s, &p| s | Bitboard::from(p)),
                position.legal_moves()
            );
            assert!(moves.windows(2).all(|w| scores[w[0].cell()] >= scores[w[1].cell()]));
        }
    }

    #[test]
    fn malformed_weights_are_refused() {
        assert!(Network::from_bytes(b"not weights at all").is_err());
        let mut bytes = EMBEDDED_WEIGHTS.to_vec();
        bytes.pop();
        assert!(Network::from_bytes(&bytes).unwrap_err().0.contains("bytes of weights"));
        bytes = EMBEDDED_WEIGHTS.to_vec();
        bytes[12] = 64; // another width
        assert!(Network::from_bytes(&bytes).unwrap_err().0.contains("width"));
    }
}
