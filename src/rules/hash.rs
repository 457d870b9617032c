//! 64-bit mixing for hashes and seeds: SplitMix64 (Steele, Lea and Flood 2014), written once
//! for the Zobrist keys, the arena's engine seeds and the keys that combine a hash with a value.

/// SplitMix64's increment, 2^64 over the golden ratio: odd, with well-spread bits.
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output for the state `x`: successive states `x`, `x + GOLDEN_GAMMA`, ... give a
/// stream of well-mixed values, and nearby inputs give unrelated outputs.
///
/// ```
/// use nogo::rules::hash::splitmix64;
/// assert_ne!(splitmix64(1), splitmix64(2));
/// assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
/// ```
pub const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `key` with `value` mixed in cheaply (a multiply and a xor): distinct small values give
/// distinct keys, for cache keys and per-game seeds.
pub const fn combine(key: u64, value: u64) -> u64 {
    key ^ value.wrapping_mul(GOLDEN_GAMMA)
}
