//! A node of the evaluation search: its mean value for the player who moved into it, its
//! visits, and how many legal moves its side to move has, all of which may become children.

use crate::search::tree::Stats;

/// A node's statistics.
#[derive(Clone, Copy, Debug, Default)]
pub struct McStats {
    /// Mean value in `[0, 1]` for the player who moved into the node.
    pub mean: f32,
    /// `1 / sqrt(visits)`, kept so selection needs no square root per child.
    pub inv_sqrt_visits: f32,
    /// Times the node was scored or passed through.
    pub visits: u32,
    /// Legal moves of its side to move, recorded when the node is scored.
    pub legal: u8,
}

impl Stats for McStats {
    #[inline]
    fn visits(&self) -> u32 {
        self.visits
    }

    #[inline]
    fn mean(&self) -> f32 {
        self.mean
    }
}

impl McStats {
    /// Adds `value` to the mean.
    #[inline]
    pub fn update(&mut self, value: f32) {
        self.visits += 1;
        self.mean += (value - self.mean) / self.visits as f32;
        self.inv_sqrt_visits = (self.visits as f32).sqrt().recip();
    }
}

/// Slots in the children block of a node with `legal` moves once `tried` are tried: doubling
/// from 4, so growing costs little and the block is at most twice what is used.
#[inline]
pub(super) fn block_capacity(tried: usize, legal: usize) -> usize {
    if tried == 0 {
        0
    } else {
        legal.min(tried.next_power_of_two().max(4))
    }
}
