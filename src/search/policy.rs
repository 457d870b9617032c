//! A small convolutional move policy: from planes of a position (stones, each side's legal
//! points, the mobility each move leaves either side, the last move) to a score for every
//! point, higher for the moves a long search prefers. Trained by `scripts/train-policy.py` on
//! self-play (`docs/policy.md`); the weights are embedded in the binary.

use crate::rules::point::{MAX_MOVES, SIZE};
use crate::rules::{Bitboard, Point, Position};
use crate::search::eval;

/// Input planes of [`planes`], each 81 cells (`y * 9 + x`) from the side to move's view.
pub const PLANES: usize = 10;
/// Channels of every hidden layer.
pub const WIDTH: usize = 16;
/// Cells of the board.
const CELLS: usize = MAX_MOVES;
/// Mobility shortfalls above this are recorded as this.
const MAX_SHORTFALL: i8 = 16;

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
const PADDED: usize = PADDED_SIDE * PADDED_SIDE;
/// The padded board's side.
const PADDED_SIDE: usize = SIZE + 2;

/// The padded cell of board cell `c`.
#[inline]
fn padded(c: usize) -> usize {
    (c / SIZE + 1) * PADDED_SIDE + c % SIZE + 1
}

/// The offsets in the padded board of a cell's 3x3 neighbourhood, row by row.
const KERNEL_OFFSETS: [usize; 9] = {
    const P: usize = PADDED_SIDE;
    [0, 1, 2, P, P + 1, P + 2, 2 * P, 2 * P + 1, 2 * P + 2]
};

/// The network computes in fixed point, exactly the same on every processor: an activation `a`
/// is the whole number `a * 2^ACTIVATION_BITS`, saturated to `i16`.
const ACTIVATION_BITS: u32 = 10;
/// The input planes are scaled by `2^INPUT_BITS`, so that 1/8 (the shortfalls' factor) is whole.
const INPUT_BITS: u32 = 3;
/// Each plane's value in the network's input is the plane times this, `2^INPUT_BITS` times the
/// trained factor: 1, and 1/8 for the shortfalls (0 to 16).
const INPUT_FACTOR: [i16; PLANES] = [8, 8, 8, 8, 8, 8, 8, 8, 1, 1];
/// A layer's weights are scaled by the largest power of two that keeps them within this, so a
/// pair of products (at most `2 * 32767 * 4095`) stays well inside `i32`.
const WEIGHT_LIMIT: f64 = 4095.0;

/// The power of two (at most 2^24) that scales `weights` to whole numbers within
/// [`WEIGHT_LIMIT`], if there is one at least `2^least`.
fn weight_bits(weights: &[f32], least: u32) -> Result<u32, WeightsError> {
    let largest =
        weights.iter().fold(0f64, |m, w| m.max(if w.is_finite() { w.abs() as f64 } else { f64::INFINITY }));
    (least..=24)
        .rev()
        .find(|&bits| largest * f64::powi(2.0, bits as i32) <= WEIGHT_LIMIT)
        .ok_or_else(|| WeightsError(format!("a weight of {largest} is too large for fixed point")))
}

/// `value * 2^bits`, rounded to the nearest whole number.
fn fixed(value: f32, bits: u32) -> i64 {
    (value as f64 * f64::powi(2.0, bits as i32)).round() as i64
}

/// A bias at its sums' scale, kept within 2^30 so that adding it to a sum stays far from overflow.
fn bias_sum(bias: i64) -> i32 {
    bias.clamp(-(1 << 30), 1 << 30) as i32
}

#[derive(Debug)]
/// A 3x3 convolution from `IN` channels to [`WIDTH`], in fixed point. `weights[k * IN / 2 + p]`
/// holds kernel cell `k`'s weights from input channels `2p` and `2p + 1`, interleaved by output
/// channel (`w(2p, 0), w(2p + 1, 0), w(2p, 1), ...`), so one multiply-add of 16-bit pairs
/// serves both channels; a sum is `>> shift`ed back to the activations' scale.
struct Conv<const IN: usize> {
    weights: Vec<[i16; 2 * WIDTH]>,
    /// The bias at the sums' scale, plus half of `1 << shift` to round.
    bias: [i32; WIDTH],
    shift: u32,
}

/// The network: a 3x3 convolution from the planes, residual 3x3 convolutions, each followed
/// by a ReLU, and a 1x1 convolution to one score a point. The weights are trained as `f32`
/// and kept in fixed point (`docs/policy.md`).
#[derive(Debug)]
pub struct Network {
    input: Conv<PLANES>,
    hidden: Vec<Conv<WIDTH>>,
    head: [i32; WIDTH],
    head_bias: i32,
    /// A score is its real value times `2^score_bits`.
    score_bits: u32,
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

/// The value network's weights the bot carries (`scripts/train-policy.py --target value`).
pub const EMBEDDED_VALUE_WEIGHTS: &[u8] = include_bytes!("../../weights/value.bin");

impl Network {
    /// The network of a weights file: the 8 bytes `NOGOPOL1`, then little-endian `u32`s
    /// planes, width and hidden layers, then `f32`s: the input convolution's weights (kernel
    /// cell, plane, channel) and biases, each hidden layer's the same way, the head's weights
    /// and bias.
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
        let values: Vec<f32> = body.chunks(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect();
        let mut rest = &values[..];
        let input = Conv::read(&mut rest, INPUT_BITS)?;
        let hidden = (0..layers).map(|_| Conv::read(&mut rest, ACTIVATION_BITS)).collect::<Result<_, _>>()?;
        let (head, bias) = rest.split_at(WIDTH);
        let bits = weight_bits(head, 0)?;
        Ok(Network {
            input,
            hidden,
            head: std::array::from_fn(|j| fixed(head[j], bits) as i32),
            head_bias: bias_sum(fixed(bias[0], ACTIVATION_BITS + bits)),
            score_bits: ACTIVATION_BITS + bits,
        })
    }

    /// The policy network the binary carries.
    pub fn embedded() -> &'static Network {
        static NETWORK: std::sync::OnceLock<Network> = std::sync::OnceLock::new();
        NETWORK.get_or_init(|| Network::from_bytes(EMBEDDED_WEIGHTS).expect("the embedded weights are valid"))
    }

    /// The value network the binary carries.
    pub fn value() -> &'static Network {
        static NETWORK: std::sync::OnceLock<Network> = std::sync::OnceLock::new();
        NETWORK.get_or_init(|| {
            Network::from_bytes(EMBEDDED_VALUE_WEIGHTS).expect("the embedded weights are valid")
        })
    }

    /// Each cell's score at its real scale, as trained: for the value network, what to add
    /// to the logit of the mobility prior's mean for a move of the side to move there.
    pub fn logits(&self, planes: &[[i8; CELLS]; PLANES]) -> [f32; CELLS] {
        let scale = f32::powi(2.0, -(self.score_bits as i32));
        let scores = self.scores(planes);
        std::array::from_fn(|c| scores[c] as f32 * scale)
    }

    /// The score of every cell for the planes `planes` (higher: more likely the search's
    /// choice), in fixed point; only the side to move's legal cells are meaningful.
    pub fn scores(&self, planes: &[[i8; CELLS]; PLANES]) -> [i32; CELLS] {
        let mut input = [[0i16; PLANES]; PADDED];
        for (k, plane) in planes.iter().enumerate() {
            for c in 0..CELLS {
                input[padded(c)][k] = plane[c] as i16 * INPUT_FACTOR[k];
            }
        }
        let mut sums = [[0i32; WIDTH]; PADDED];
        let mut x = [[0i16; WIDTH]; PADDED];
        self.input.apply(&input, &mut sums);
        for c in 0..CELLS {
            let p = padded(c);
            x[p] = std::array::from_fn(|j| activation(sums[p][j] >> self.input.shift));
        }
        for layer in &self.hidden {
            layer.apply(&x, &mut sums);
            for c in 0..CELLS {
                let p = padded(c);
                x[p] = std::array::from_fn(|j| activation((sums[p][j] >> layer.shift) + x[p][j] as i32));
            }
        }
        std::array::from_fn(|c| {
            let x = &x[padded(c)];
            (0..WIDTH).fold(self.head_bias, |s, j| s.wrapping_add(x[j] as i32 * self.head[j]))
        })
    }

    /// The legal moves of the side to move in `position`, reached by `last_move`, best first by
    /// the network's scores (board order among equal scores), as bitboard indices: the order
    /// a node of the tree tries its children in.
    pub fn ranked(&self, position: &Position, last_move: Option<Point>) -> Vec<u8> {
        let scores = self.scores(&planes(position, last_move));
        let mut moves: Vec<Point> = position.legal_moves().iter().collect();
        moves.sort_by_key(|p| std::cmp::Reverse(scores[p.cell()]));
        moves.iter().map(|p| p.index() as u8).collect()
    }
}

/// The ReLU of a sum at the activations' scale, saturated to `i16`.
#[inline]
fn activation(sum: i32) -> i16 {
    sum.clamp(0, i16::MAX as i32) as i16
}

impl<const IN: usize> Conv<IN> {
    /// The convolution whose `f32` weights (kernel cell, input channel, output channel) and
    /// biases start `values`, which is advanced past them; its input is at scale
    /// `2^input_bits`.
    fn read(values: &mut &[f32], input_bits: u32) -> Result<Conv<IN>, WeightsError> {
        let (weights, rest) = values.split_at(9 * IN * WIDTH);
        let (bias, rest) = rest.split_at(WIDTH);
        *values = rest;
        // The sums are shifted back to the activations' scale by at least one bit, to round.
        let bits = weight_bits(weights, (ACTIVATION_BITS + 1).saturating_sub(input_bits))?;
        let shift = input_bits + bits - ACTIVATION_BITS;
        let w = |k: usize, i: usize, j: usize| fixed(weights[(k * IN + i) * WIDTH + j], bits) as i16;
        Ok(Conv {
            weights: (0..9 * IN / 2)
                .map(|kp| {
                    let (k, pair) = (kp / (IN / 2), kp % (IN / 2));
                    std::array::from_fn(|i| w(k, 2 * pair + i % 2, i / 2))
                })
                .collect(),
            bias: std::array::from_fn(|j| bias_sum(fixed(bias[j], input_bits + bits) + (1 << (shift - 1)))),
            shift,
        })
    }

    /// `output` = the sums of this convolution of `input` (at the scale of the input times
    /// the weights) on the board cells of the padded arrays; the border is left as it is.
    fn apply(&self, input: &[[i16; IN]; PADDED], output: &mut [[i32; WIDTH]; PADDED]) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has the features `apply_avx2` is compiled for.
            unsafe { self.apply_avx2(input, output) };
            return;
        }
        self.apply_portable(input, output);
    }

    /// [`Conv::apply`] with AVX2's multiply-add of 16-bit pairs: eight output channels of
    /// three cells a step. Whole numbers, so the same sums as [`Conv::apply_portable`].
    ///
    /// # Safety
    ///
    /// The processor must have AVX2 (`is_x86_feature_detected!("avx2")`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn apply_avx2(&self, input: &[[i16; IN]; PADDED], output: &mut [[i32; WIDTH]; PADDED]) {
        use std::arch::x86_64::*;
        const { assert!(WIDTH == 16, "two vectors of eight channels") };
        // SAFETY: AVX2, which includes the load's AVX, is enabled here and `apply` calls this
        // only on processors that have it; `j` is 0 or 8, so `self.bias[j..]` holds the eight
        // `i32`s (32 bytes) the unaligned load reads.
        let bias = [0, 8].map(|j| unsafe { _mm256_loadu_si256(self.bias[j..].as_ptr().cast()) });
        const { assert!(SIZE.is_multiple_of(3), "rows in steps of three cells") };
        for row in 0..SIZE {
            for column in (0..SIZE).step_by(3) {
                let corner = row * PADDED_SIDE + column;
                let mut sums = [bias; 3];
                for (k, offset) in KERNEL_OFFSETS.iter().enumerate() {
                    for pair in 0..IN / 2 {
                        let w = &self.weights[k * (IN / 2) + pair];
                        // SAFETY: AVX as above; `w` is an `[i16; 32]` and `i` is 0 or 16, so
                        // `w[i..]` holds the sixteen `i16`s (32 bytes) the load reads.
                        let w = [0, 16].map(|i| unsafe { _mm256_loadu_si256(w[i..].as_ptr().cast()) });
                        for (b, sum) in sums.iter_mut().enumerate() {
                            let x = _mm256_set1_epi32(input_pair(&input[corner + offset + b], pair));
                            for (s, w) in sum.iter_mut().zip(w) {
                                *s = _mm256_add_epi32(*s, _mm256_madd_epi16(x, w));
                            }
                        }
                    }
                }
                for (b, sum) in sums.iter().enumerate() {
                    for (j, s) in [0, 8].into_iter().zip(sum) {
                        // SAFETY: AVX as above; an output cell is an `[i32; 16]` and `j` is 0
                        // or 8, so the slice holds the eight `i32`s (32 bytes) the store writes.
                        unsafe {
                            _mm256_storeu_si256(
                                output[corner + PADDED_SIDE + 1 + b][j..].as_mut_ptr().cast(),
                                *s,
                            )
                        };
                    }
                }
            }
        }
    }

    /// [`Conv::apply`] for any processor: the same products as the AVX2 build, and whole
    /// numbers, so the same sums.
    fn apply_portable(&self, input: &[[i16; IN]; PADDED], output: &mut [[i32; WIDTH]; PADDED]) {
        for row in 0..SIZE {
            for column in 0..SIZE {
                let corner = row * PADDED_SIDE + column;
                let mut sum = self.bias;
                for (k, offset) in KERNEL_OFFSETS.iter().enumerate() {
                    let x = &input[corner + offset];
                    for pair in 0..IN / 2 {
                        let w = &self.weights[k * (IN / 2) + pair];
                        let (x0, x1) = (x[2 * pair] as i32, x[2 * pair + 1] as i32);
                        for (j, s) in sum.iter_mut().enumerate() {
                            *s = s.wrapping_add(x0 * w[2 * j] as i32 + x1 * w[2 * j + 1] as i32);
                        }
                    }
                }
                output[corner + 12] = sum;
            }
        }
    }
}

/// Input channels `2 * pair` and `2 * pair + 1` of one cell as the two halves of an `i32`
/// (the first in the low half), as AVX2's multiply-add of pairs reads them.
#[inline(always)]
fn input_pair<const IN: usize>(x: &[i16; IN], pair: usize) -> i32 {
    (x[2 * pair] as u16 as u32 | (x[2 * pair + 1] as u16 as u32) << 16) as i32
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
    fn the_embedded_networks_score_as_the_trainer_did() {
        let checks = [
            (Network::embedded(), include_str!("../../weights/policy-check.json")),
            (Network::value(), include_str!("../../weights/value-check.json")),
        ];
        for (network, check) in checks {
            let cases: Vec<serde_json::Value> = serde_json::from_str(check).unwrap();
            assert!(cases.len() >= 4);
            scores_as_the_trainer_did(network, cases);
        }
    }

    fn scores_as_the_trainer_did(network: &Network, cases: Vec<serde_json::Value>) {
        for case in cases {
            let mut planes = [[0i8; CELLS]; PLANES];
            for (k, plane) in case["planes"].as_array().unwrap().iter().enumerate() {
                for (c, v) in plane.as_array().unwrap().iter().enumerate() {
                    planes[k][c] = v.as_i64().unwrap() as i8;
                }
            }
            let expected: Vec<i64> =
                case["scores"].as_array().unwrap().iter().map(|s| s.as_i64().unwrap()).collect();
            let scores = network.scores(&planes);
            assert_eq!(scores.iter().map(|&s| s as i64).collect::<Vec<_>>(), expected);
            // The value network's cases give the scores at the scale it was trained at too.
            if let Some(logits) = case.get("logits").and_then(|l| l.as_array()) {
                for (logit, trained) in network.logits(&planes).iter().zip(logits) {
                    let trained = trained.as_f64().unwrap();
                    assert!(
                        (*logit as f64 - trained).abs() <= 1e-6 * trained.abs().max(1.0),
                        "{logit} {trained}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_build_of_the_convolutions_sums_alike() {
        // Activations anywhere in their range, the largest ones included.
        let mut rng = fastrand::Rng::with_seed(5);
        let network = Network::embedded();
        for _ in 0..20 {
            let mut planes = [[0i16; PLANES]; PADDED];
            let mut hidden = [[0i16; WIDTH]; PADDED];
            for c in 0..CELLS {
                planes[padded(c)] = std::array::from_fn(|_| rng.i16(0..=128));
                hidden[padded(c)] = std::array::from_fn(|_| rng.i16(0..=i16::MAX));
            }
            let (mut portable, mut chosen) = ([[0i32; WIDTH]; PADDED], [[0i32; WIDTH]; PADDED]);
            network.input.apply_portable(&planes, &mut portable);
            network.input.apply(&planes, &mut chosen);
            assert_eq!(portable, chosen);
            network.hidden[0].apply_portable(&hidden, &mut portable);
            network.hidden[0].apply(&hidden, &mut chosen);
            assert_eq!(portable, chosen);
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
        // A weight too large for fixed point, and one that is not a number.
        for weight in [1e6f32, f32::NAN] {
            bytes = EMBEDDED_WEIGHTS.to_vec();
            bytes[20..24].copy_from_slice(&weight.to_le_bytes());
            assert!(Network::from_bytes(&bytes).unwrap_err().0.contains("too large"), "{weight}");
        }
    }
}
