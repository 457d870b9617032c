//! Selection: the child to descend to, by its blend of its own mean and its all-moves-as-first
//! mean (MC-RAVE, Gelly and Silver 2011) plus an exploration term weighted, as in HaHaNoGo, by
//! the child's own share of its evidence. Backups only count, so every child's score is
//! computed here, on x86-64 eight children at a time with AVX, else four.

use super::node::{Blend, RaveStats};
use crate::rules::point::MAX_MOVES;
use crate::rules::Point;
use crate::search::params::Params;
use crate::search::tree::{sqrt_ln, NodeId, Nodes, Stats};

/// Which of the root's children a descent may enter: one tree of the two-thread search
/// deepens one move, the other searches the rest (`super::roots`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RootRule {
    /// Any, by [`best_child`].
    #[default]
    Free,
    /// Only the child playing this move, while it is there and not proven.
    Only(Point),
    /// Any but the child playing this move.
    Not(Point),
}

/// The root's child to descend to under `rule`; [`best_child`] where the rule leaves no child
/// open (its move absent or proven, or no other child but lost ones).
#[inline]
pub fn root_child(tree: &impl Nodes<RaveStats>, root: NodeId, params: &Params, rule: RootRule) -> NodeId {
    let (RootRule::Only(point) | RootRule::Not(point)) = rule else {
        return best_child(tree, root, params);
    };
    let count = tree.with_child_stats(root, |children| children.len());
    let offset = (0..count).find(|&i| tree.point(tree.child_at(root, i)) == point);
    let Some(offset) = offset else { return best_child(tree, root, params) };
    if let RootRule::Only(_) = rule {
        let child = tree.child_at(root, offset);
        return if tree.proof(child).is_known() { best_child(tree, root, params) } else { child };
    }
    // The scores of the children but `point`'s, which scores below every other.
    let (exploration, blend) = scoring(tree, root, params);
    let best = tree.with_child_stats(root, |children| {
        let mut others = [RaveStats::default(); MAX_MOVES];
        let others = &mut others[..children.len()];
        others.copy_from_slice(children);
        others[offset].sum = f32::NEG_INFINITY;
        let best = best_index(others, exploration, blend);
        (others[best].sum > f32::NEG_INFINITY).then_some(best)
    });
    best.map_or_else(|| best_child(tree, root, params), |best| tree.child_at(root, best))
}

/// The child of `parent` (with children, entered by this simulation) with the best score for
/// the side to move there, `value + rave_exploration * sqrt(ln N * n) / (n + n')` (`n` its
/// simulations, `n'` its all-moves-as-first ones, `N` the parent's simulations, this one
/// included), the first of equal scores: a child proven won before any other; children proven
/// lost only when all are.
#[inline]
pub fn best_child(tree: &impl Nodes<RaveStats>, parent: NodeId, params: &Params) -> NodeId {
    let (exploration, blend) = scoring(tree, parent, params);
    let best = tree.with_child_stats(parent, |children| best_index(children, exploration, blend));
    tree.child_at(parent, best)
}

/// The exploration factor and the blend of the scores of the children of `parent`.
#[inline]
fn scoring(tree: &impl Nodes<RaveStats>, parent: NodeId, params: &Params) -> (f32, Blend) {
    let exploration = params.rave_exploration * sqrt_ln(tree.stats(parent).visits());
    (exploration, Blend { bias: 4.0 * params.rave_bias * params.rave_bias })
}

/// The index of the first of the best scores of `children`, as [`best_child`] scores them.
#[inline]
fn best_index(children: &[RaveStats], exploration: f32, blend: Blend) -> usize {
    if blend.bias == 0.0 {
        first_best(children, exploration)
    } else {
        first_best_by(children, |c| c.value(blend) + exploration * c.exploration())
    }
}

/// The index of the first of the highest `score`s of `children` (0 when there are none).
#[inline]
fn first_best_by(children: &[RaveStats], score: impl Fn(&RaveStats) -> f32) -> usize {
    let (mut best, mut best_score) = (0, f32::NEG_INFINITY);
    for (i, child) in children.iter().enumerate() {
        let score = score(child);
        if score > best_score {
            (best, best_score) = (i, score);
        }
    }
    best
}

/// The unbiased score of a child, `(w + w' + exploration * sqrt(n)) / (n + n')`, computed as
/// the lanes compute it, so that both choose alike.
#[inline]
fn score(child: &RaveStats, exploration: f32) -> f32 {
    (child.sum + exploration * (child.visits as f32).sqrt()) / child.evidence
}

/// [`first_best_by`] of [`score`]: on x86-64, eight (with AVX) or four children a lane each
/// at a time (a lane keeps its first best; the lanes' bests are compared, ties to the lower
/// index).
#[inline]
fn first_best(children: &[RaveStats], exploration: f32) -> usize {
    #[cfg(target_arch = "x86_64")]
    if children.len() >= 8 && std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the processor has AVX.
        return unsafe { lanes::first_best_avx(children, exploration) };
    } else if children.len() >= 4 {
        return lanes::first_best(children, exploration);
    }
    first_best_by(children, |c| score(c, exploration))
}

#[cfg(target_arch = "x86_64")]
mod lanes {
    use super::RaveStats;
    use std::arch::x86_64::*;

    /// Calls `window` with the start of each window of `WIDTH` children that covers `len`
    /// (at least `WIDTH`): one every `WIDTH`, the last ending at `len`. A child the last window
    /// sees twice keeps its index, so it changes no lane's first best.
    #[inline(always)]
    fn windows<const WIDTH: usize>(len: usize, mut window: impl FnMut(usize)) {
        let mut k = 0;
        loop {
            window(k);
            if k + WIDTH >= len {
                return;
            }
            k = (k + WIDTH).min(len - WIDTH);
        }
    }

    /// The lane with the highest score, ties to the lower index: the first best of all.
    #[inline]
    fn first_of_lanes<const LANES: usize>(best: [f32; LANES], at: [i32; LANES]) -> usize {
        let mut winner = 0;
        for lane in 1..LANES {
            if best[lane] > best[winner] || (best[lane] == best[winner] && at[lane] < at[winner]) {
                winner = lane;
            }
        }
        at[winner] as usize
    }

    /// [`super::first_best`] with SSE2, which every x86-64 processor has, four children at a
    /// time; `children` holds at least four.
    #[inline]
    pub(super) fn first_best(children: &[RaveStats], exploration: f32) -> usize {
        let (mut best, mut at) = ([0f32; 4], [0i32; 4]);
        // SAFETY: SSE2 is part of x86-64; each load reads a `RaveStats` (16 bytes, four 4-byte
        // fields, aligned) of `children`.
        unsafe {
            let base = children.as_ptr() as *const f32;
            let exploration = _mm_set1_ps(exploration);
            let (mut best_score, mut best_at) = (_mm_set1_ps(f32::NEG_INFINITY), _mm_setzero_si128());
            windows::<4>(children.len(), |k| {
                let mut sum = _mm_load_ps(base.add(4 * k));
                let mut evidence = _mm_load_ps(base.add(4 * (k + 1)));
                let mut visits = _mm_load_ps(base.add(4 * (k + 2)));
                let mut wins = _mm_load_ps(base.add(4 * (k + 3)));
                // One child a row: transposed, one field of four children a row.
                _MM_TRANSPOSE4_PS(&mut sum, &mut evidence, &mut visits, &mut wins);
                let sqrt_visits = _mm_sqrt_ps(_mm_cvtepi32_ps(_mm_castps_si128(visits)));
                let score = _mm_div_ps(_mm_add_ps(sum, _mm_mul_ps(exploration, sqrt_visits)), evidence);
                let index = _mm_add_epi32(_mm_set1_epi32(k as i32), _mm_setr_epi32(0, 1, 2, 3));
                let better = _mm_cmpgt_ps(score, best_score);
                best_score = _mm_or_ps(_mm_and_ps(better, score), _mm_andnot_ps(better, best_score));
                let better = _mm_castps_si128(better);
                best_at = _mm_or_si128(_mm_and_si128(better, index), _mm_andnot_si128(better, best_at));
            });
            _mm_storeu_ps(best.as_mut_ptr(), best_score);
            _mm_storeu_si128(at.as_mut_ptr() as *mut __m128i, best_at);
        }
        first_of_lanes(best, at)
    }

    /// [`super::first_best`] eight children at a time, with AVX; `children` holds at least eight.
    ///
    /// # Safety
    ///
    /// The processor must have AVX (`is_x86_feature_detected!("avx")`).
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn first_best_avx(children: &[RaveStats], exploration: f32) -> usize {
        let base = children.as_ptr() as *const f32;
        let exploration = _mm256_set1_ps(exploration);
        // Lane `l` holds child `k + ORDER[l]` of the window at `k`, as the transposition below
        // leaves them; indices as floats, exact far beyond a block's 81, as AVX has no integer
        // lanes.
        let order = _mm256_setr_ps(0.0, 2.0, 4.0, 6.0, 1.0, 3.0, 5.0, 7.0);
        let (mut best_score, mut best_at) = (_mm256_set1_ps(f32::NEG_INFINITY), order);
        windows::<8>(children.len(), |k| {
            // Children `k + 2i` and `k + 2i + 1` in the halves of row `i`: transposed within
            // each half, one field of children k, k + 2, k + 4, k + 6 (first half) and of the
            // others (second half) a row.
            // SAFETY: each load reads two `RaveStats` (32 bytes) of `children`.
            let row = |i: usize| unsafe { _mm256_loadu_ps(base.add(4 * (k + 2 * i))) };
            let (r0, r1, r2, r3) = (row(0), row(1), row(2), row(3));
            let (t0, t1) = (_mm256_unpacklo_ps(r0, r1), _mm256_unpackhi_ps(r0, r1));
            let (t2, t3) = (_mm256_unpacklo_ps(r2, r3), _mm256_unpackhi_ps(r2, r3));
            let sum = _mm256_shuffle_ps::<0x44>(t0, t2);
            let evidence = _mm256_shuffle_ps::<0xee>(t0, t2);
            let visits = _mm256_shuffle_ps::<0x44>(t1, t3);
            let sqrt_visits = _mm256_sqrt_ps(_mm256_cvtepi32_ps(_mm256_castps_si256(visits)));
            let score = _mm256_div_ps(_mm256_add_ps(sum, _mm256_mul_ps(exploration, sqrt_visits)), evidence);
            let index = _mm256_add_ps(_mm256_set1_ps(k as f32), order);
            let better = _mm256_cmp_ps::<_CMP_GT_OQ>(score, best_score);
            best_score = _mm256_blendv_ps(best_score, score, better);
            best_at = _mm256_blendv_ps(best_at, index, better);
        });
        let (mut best, mut at) = ([0f32; 8], [0i32; 8]);
        // SAFETY: eight lanes into eight 4-byte values each.
        unsafe {
            _mm256_storeu_ps(best.as_mut_ptr(), best_score);
            _mm256_storeu_si256(at.as_mut_ptr() as *mut __m256i, _mm256_cvttps_epi32(best_at));
        }
        first_of_lanes(best, at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::engine::Proof;

    #[test]
    fn the_lanes_choose_the_first_of_the_highest_scores() {
        // Children of every count up to 81, scores often tied (few distinct counts) and some
        // proven, against the plain scan for the first maximum.
        let mut rng = fastrand::Rng::with_seed(4);
        for _ in 0..4000 {
            let children: Vec<RaveStats> = (0..rng.usize(0..=81))
                .map(|_| {
                    let mut child = RaveStats::new(rng.u32(1..4) as f32, rng.u8(0..3) as f32 / 2.0);
                    for _ in 0..rng.u32(0..4) {
                        child.visit(1);
                        if rng.bool() {
                            child.win(1);
                        }
                    }
                    match rng.u8(0..12) {
                        0 => child.prove(Proof::Win),
                        1 | 2 => child.prove(Proof::Loss),
                        _ => {}
                    }
                    child
                })
                .collect();
            let exploration = [0.0, 0.25, rng.f32()][rng.usize(0..3)];
            let expected = first_best_by(&children, |c| score(c, exploration));
            assert_eq!(first_best(&children, exploration), expected, "{children:?} at {exploration}");
            let blend = Blend { bias: 0.0 };
            let by_parts = first_best_by(&children, |c| c.value(blend) + exploration * c.exploration());
            assert_eq!(by_parts, expected, "the score is the blend plus the exploration");
        }
    }
}
