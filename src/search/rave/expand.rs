//! Expansion: a leaf gets all its children at once, each starting from a prior of virtual
//! all-moves-as-first simulations whose mean is the mobility evaluation of the child's
//! position, near the root corrected by the value network, or the policy network's ranking.

use super::node::RaveStats;
use super::Context;
use crate::rules::point::INDEX_COUNT;
use crate::rules::{Bitboard, Point, Position};
use crate::search::engine::Proof;
use crate::search::policy;
use crate::search::tree::{NodeId, Nodes};

/// Expands `id`, the node of `position` at `depth` below the root, whose side to move has
/// the legal `moves`: near the root (`policy_depth`) with `rave_policy_weight` above 0 the
/// children's prior means follow the policy network's ranking, from `0.5 +
/// rave_policy_weight` for its first to `0.5 - rave_policy_weight` for its last; elsewhere
/// the evaluation of each child's position (`rave_eval_weight`), or even with that at 0,
/// near the root (`rave_value_depth`) corrected by the value network (`rave_value_weight`),
/// with a prior of its own (`rave_value_prior`).
/// A node without moves is proven won for its mover. False when the tree is full (or another
/// thread expands the node).
pub fn expand<T: Nodes<RaveStats>>(
    tree: &mut T,
    context: Context,
    id: NodeId,
    position: &Position,
    moves: Bitboard,
    depth: usize,
) -> bool {
    if moves.is_empty() {
        tree.set_proof(id, Proof::Win);
        return true;
    }
    // Checked before the priors, which a leaf the full tree cannot take need not cost.
    if !tree.has_room(moves.count() as usize) {
        return false;
    }
    let params = context.params;
    let prior = params.rave_prior as f32;
    let weight = params.rave_policy_weight;
    let eval_weight = params.rave_eval_weight;
    let by_policy = weight > 0.0 && depth < params.policy_depth as usize;
    // Read only where a network takes it, off the common path.
    let last_move = |tree: &T| if id == NodeId::ROOT { tree.root_last_move() } else { Some(tree.point(id)) };
    if !by_policy && eval_weight > 0.0 {
        let values = context.values.values_after(position, moves, params);
        let evaluated = |p: Point| 0.5 + eval_weight * (values[p.index()] - 0.5);
        let value_weight = params.rave_value_weight;
        if value_weight > 0.0 && depth < params.rave_value_depth as usize {
            let learned = policy::Network::value().logits(&policy::planes(position, last_move(tree)));
            let mean = |p: Point| {
                let evaluated = evaluated(p);
                let logit = (evaluated / (1.0 - evaluated)).ln() + value_weight * learned[p.cell()];
                1.0 / (1.0 + (-logit).exp())
            };
            let prior = params.rave_value_prior as f32;
            return tree.expand(id, moves, |p| RaveStats::new(prior, mean(p)));
        }
        return tree.expand(id, moves, |p| RaveStats::new(prior, evaluated(p)));
    }
    if !by_policy || moves.count() < 2 {
        return tree.expand(id, moves, |_| RaveStats::new(prior, 0.5));
    }
    let ranked = policy::Network::embedded().ranked(position, last_move(tree));
    let mut means = [0.5f32; INDEX_COUNT];
    let step = 2.0 * weight / (ranked.len() - 1) as f32;
    for (rank, &index) in ranked.iter().enumerate() {
        means[index as usize] = 0.5 + weight - step * rank as f32;
    }
    tree.expand(id, moves, |p| RaveStats::new(prior, means[p.index()]))
}
