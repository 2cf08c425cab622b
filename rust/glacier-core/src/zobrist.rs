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

/// The eight symmetries of a square board of `size` x `size` squares (square
/// `rank * size + file`), its rotations and reflections: `table[g][sq]` is the square `sq`
/// moves to under symmetry `g`, which first swaps file and rank if bit 2 of `g` is set, then
/// mirrors the file if bit 0 is, and the rank if bit 1 is (`g = 0` is the identity). Games
/// whose rules treat a position and its mirror images alike use them for symmetric keys.
#[must_use]
pub const fn board_symmetries<const N: usize>(size: usize) -> [[u8; N]; 8] {
    let mut out = [[0u8; N]; 8];
    let mut g = 0;
    while g < 8 {
        let mut sq = 0;
        while sq < N {
            let (mut file, mut rank) = (sq % size, sq / size);
            if g & 4 != 0 {
                (file, rank) = (rank, file);
            }
            if g & 1 != 0 {
                file = size - 1 - file;
            }
            if g & 2 != 0 {
                rank = size - 1 - rank;
            }
            out[g][sq] = (rank * size + file) as u8;
            sq += 1;
        }
        g += 1;
    }
    out
}

/// Under the symmetries of [`board_symmetries`], where the four orthogonal directions go:
/// `DIRECTION_SYMMETRIES[g][d]` for the directions numbered 0 towards the last rank, 1
/// towards the last file, 2 towards the first rank, 3 towards the first file.
pub const DIRECTION_SYMMETRIES: [[u8; 4]; 8] = {
    // (file step, rank step) of each direction.
    const STEPS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let mut out = [[0u8; 4]; 8];
    let mut g = 0;
    while g < 8 {
        let mut d = 0;
        while d < 4 {
            let (mut df, mut dr) = STEPS[d];
            if g & 4 != 0 {
                (df, dr) = (dr, df);
            }
            if g & 1 != 0 {
                df = -df;
            }
            if g & 2 != 0 {
                dr = -dr;
            }
            let mut image = 0;
            while STEPS[image].0 != df || STEPS[image].1 != dr {
                image += 1;
            }
            out[g][d] = image as u8;
            d += 1;
        }
        g += 1;
    }
    out
};

/// Test support for games with symmetric perft keys: along a line of play from `state`
/// (every third position from ply `first` on, for `plies` plies), each of the position's
/// eight images (`image(state, g)`) must have the same perft(1..3) counts, the fact a
/// symmetric key relies on, and the same key from `key_depth` plies to go, while below it
/// the key stays the plain hash. Calls `seen` with every position checked and returns how
/// many there were.
#[cfg(test)]
pub(crate) fn check_mirror_images<G: crate::game::Game>(
    mut state: G,
    image: impl Fn(&G, usize) -> G,
    key_depth: u32,
    first: usize,
    plies: usize,
    mut seen: impl FnMut(&G),
) -> usize {
    let mut checked = 0;
    for ply in 0..plies {
        let mut list = Vec::new();
        state.generate_moves(&mut |mv| list.push(mv));
        if ply >= first && (ply - first) % 3 == 0 {
            let counts: Vec<u64> = (1..=3).map(|d| crate::perft::perft(&state, d)).collect();
            let key = state.transposition_key(key_depth);
            for g in 1..8 {
                let other = image(&state, g);
                for (d, &n) in (1..=3).zip(&counts) {
                    assert_eq!(crate::perft::perft(&other, d), n, "ply {ply}, symmetry {g}");
                }
                assert_eq!(
                    other.transposition_key(key_depth),
                    key,
                    "ply {ply}, symmetry {g}"
                );
                assert_eq!(other.transposition_key(key_depth - 1), other.hash());
            }
            seen(&state);
            checked += 1;
        }
        let Some(&mv) = list.get((ply * 7 + 3) % list.len().max(1)) else {
            break;
        };
        state.play_unchecked(mv);
    }
    checked
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

    #[test]
    fn board_symmetries_are_the_eight_distinct_rotations_and_reflections() {
        let table: [[u8; 49]; 8] = board_symmetries(7);
        for (g, map) in table.iter().enumerate() {
            // Each is a permutation that keeps neighbours neighbours, direction by direction.
            let mut seen = [false; 49];
            for (sq, &image) in map.iter().enumerate() {
                assert!(!seen[image as usize]);
                seen[image as usize] = true;
                let (f, r) = (sq % 7, sq / 7);
                if r + 1 < 7 {
                    let up = map[sq + 7] as i32 - image as i32;
                    let step = [7, 1, -7, -1][DIRECTION_SYMMETRIES[g][0] as usize];
                    assert_eq!(up, step, "g {g} sq {sq}");
                }
                if f + 1 < 7 {
                    let right = map[sq + 1] as i32 - image as i32;
                    let step = [7, 1, -7, -1][DIRECTION_SYMMETRIES[g][1] as usize];
                    assert_eq!(right, step, "g {g} sq {sq}");
                }
            }
            for (h, other) in table.iter().enumerate().skip(g + 1) {
                assert_ne!(map, other, "{g} and {h}");
            }
        }
        assert_eq!(table[0][10], 10);
        assert_eq!(table[1][0], 6); // a1 mirrored to g1
        assert_eq!(table[4][1], 7); // b1 to a2 across the diagonal
    }
}
