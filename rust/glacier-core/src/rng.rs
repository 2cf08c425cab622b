//! A small, fast, seedable generator (SplitMix64) for playouts and environments.
//!
//! Deterministic on every platform: game `i` of a batch seeded `s` always draws the same
//! numbers, whichever thread plays it.

use crate::zobrist;

#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    #[must_use]
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The generator for stream `index` of a batch seeded `seed` (streams are independent).
    #[must_use]
    pub fn stream(seed: u64, index: u64) -> Self {
        SplitMix64::new(zobrist::key(seed, index))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(zobrist::GAMMA);
        zobrist::mix(self.state)
    }

    /// A uniform integer in `0..n` (`n > 0`), by Lemire's multiply-shift (bias below 2^-32
    /// for the move counts that occur here).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}
