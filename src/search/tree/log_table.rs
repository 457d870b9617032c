//! `sqrt(ln n)`, the factor of a node's visits in its children's exploration terms, from a
//! table for the visit counts most nodes have.

use std::sync::OnceLock;

/// Visit counts whose `sqrt(ln n)` is tabled: a logarithm per selection costs as much as the
/// rest of the selection at a small node, and the root and the nodes near it pass a few
/// thousand visits early in a turn ([log](../../../docs/strength-log.md), "tabled up to 2^18
/// visits"). 1 MB, read in order at the root as its visits grow.
const TABLED: usize = 1 << 18;

/// `sqrt(ln n)`, computed.
#[inline]
fn computed(n: u32) -> f32 {
    (n as f32).ln().sqrt()
}

/// `sqrt(ln n)`: from the table below 2^18, the same values computed above it.
#[inline]
pub fn sqrt_ln(n: u32) -> f32 {
    static TABLE: OnceLock<Box<[f32]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| (0..TABLED as u32).map(computed).collect());
    match table.get(n as usize) {
        Some(&tabled) => tabled,
        None => computed(n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tabled_and_computed_values_agree() {
        for n in [1, 2, 3, 100, TABLED as u32 - 1, TABLED as u32, 1 << 30] {
            assert_eq!(sqrt_ln(n).to_bits(), computed(n).to_bits(), "{n}");
        }
        assert_eq!(sqrt_ln(1), 0.0);
        assert!((sqrt_ln(1000) - 6.9078f32.sqrt()).abs() < 1e-4);
    }
}
