//! Zobrist keys from SplitMix64, so any implementation can derive the same keys.
//!
//! `key(seed, i)` is the `i`-th output (counting from 0) of a SplitMix64 generator whose
//! state starts at `seed`: the state after `i + 1` steps is `seed + (i + 1) * GAMMA`
//! (wrapping), and the output is the SplitMix64 finaliser of that state. Every game
//! documents its seed and the meaning of each index in `docs/rules/<game>.md`; the
//! pure-Python reference derives the same keys from the same formula.

/// The SplitMix64 increment (the golden ratio in 64-bit fixed point).
pub const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function.
#[inline]
#[must_use]
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The `index`-th SplitMix64 output for `seed`.
#[inline]
#[must_use]
pub const fn key(seed: u64, index: u64) -> u64 {
    mix(seed.wrapping_add(index.wrapping_add(1).wrapping_mul(GAMMA)))
}

/// `N` consecutive keys starting at `first`, computed at compile time.
#[must_use]
pub const fn table<const N: usize>(seed: u64, first: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = key(seed, first + i as u64);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_published_splitmix64_stream() {
        // SplitMix64 seeded with 0 starts 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, ...
        assert_eq!(key(0, 0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(key(0, 1), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(key(0, 2), 0x06c4_5d18_8009_454f);
    }
}
