//! Bitboards for an 8x8 board: square `rank * 8 + file` (a1 = 0, h8 = 63) is bit `sq`.
//!
//! Leaper and ray tables are computed at compile time (`const fn`); the magic-bitboard
//! tables for sliders are searched once, at first use, with a fixed-seed generator
//! (`OnceLock`), so no table is pasted into the source.

use std::sync::OnceLock;

pub type Bitboard = u64;

pub const FILE_A: Bitboard = 0x0101_0101_0101_0101;
pub const FILE_H: Bitboard = FILE_A << 7;
pub const RANK_1: Bitboard = 0xFF;
pub const RANK_8: Bitboard = RANK_1 << 56;

#[inline(always)]
pub const fn bit(sq: usize) -> Bitboard {
    1 << sq
}

/// The squares one step north (towards rank 8), south, east (towards file h) and west.
#[inline(always)]
pub const fn north(b: Bitboard) -> Bitboard {
    b << 8
}
#[inline(always)]
pub const fn south(b: Bitboard) -> Bitboard {
    b >> 8
}
#[inline(always)]
pub const fn east(b: Bitboard) -> Bitboard {
    (b & !FILE_H) << 1
}
#[inline(always)]
pub const fn west(b: Bitboard) -> Bitboard {
    (b & !FILE_A) >> 1
}

/// Iterates over the squares of a bitboard, lowest first.
#[derive(Debug, Clone, Copy)]
pub struct Squares(pub Bitboard);

impl Iterator for Squares {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
}

/// The 8 directions as (file step, rank step): 0-3 orthogonal, 4-7 diagonal.
/// Direction `d` and `d ^ 1` are opposite.
const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

/// The ray from `sq` in direction `d` on an empty board (`sq` itself excluded).
const fn ray(sq: usize, d: usize) -> Bitboard {
    let (df, dr) = DIRS[d];
    let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
    let mut out = 0;
    while f >= 0 && f < 8 && r >= 0 && r < 8 {
        out |= bit((r * 8 + f) as usize);
        f += df;
        r += dr;
    }
    out
}

const fn leaper_table(steps: &[(i32, i32); 8]) -> [Bitboard; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < 8 {
            let (f, r) = ((sq % 8) as i32 + steps[i].0, (sq / 8) as i32 + steps[i].1);
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                table[sq] |= bit((r * 8 + f) as usize);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

pub static KNIGHT_ATTACKS: [Bitboard; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
pub static KING_ATTACKS: [Bitboard; 64] = leaper_table(&DIRS);

const fn pawn_table() -> [[Bitboard; 64]; 2] {
    let mut table = [[0; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let b = bit(sq);
        table[0][sq] = north(east(b)) | north(west(b));
        table[1][sq] = south(east(b)) | south(west(b));
        sq += 1;
    }
    table
}

/// `PAWN_ATTACKS[colour][sq]`: the squares a pawn of `colour` (0 White) on `sq` attacks.
pub static PAWN_ATTACKS: [[Bitboard; 64]; 2] = pawn_table();

const fn rays_table(first_dir: usize) -> [Bitboard; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = first_dir;
        while d < first_dir + 4 {
            table[sq] |= ray(sq, d);
            d += 1;
        }
        sq += 1;
    }
    table
}

/// Rook and bishop moves on an empty board.
pub static ROOK_RAYS: [Bitboard; 64] = rays_table(0);
pub static BISHOP_RAYS: [Bitboard; 64] = rays_table(4);

const fn between_and_line() -> [[[Bitboard; 64]; 64]; 2] {
    let mut out = [[[0; 64]; 64]; 2];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let full = ray(a, d) | ray(a, d ^ 1) | bit(a);
            let (df, dr) = DIRS[d];
            let (mut f, mut r) = ((a % 8) as i32 + df, (a / 8) as i32 + dr);
            let mut between = 0;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                let b = (r * 8 + f) as usize;
                out[0][a][b] = between;
                out[1][a][b] = full;
                between |= bit(b);
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    out
}

static BETWEEN_AND_LINE: [[[Bitboard; 64]; 64]; 2] = between_and_line();

/// The squares strictly between `a` and `b` when they share a line, else empty.
#[inline(always)]
pub fn between(a: usize, b: usize) -> Bitboard {
    BETWEEN_AND_LINE[0][a][b]
}

/// The whole line (edge to edge) through `a` and `b` when they share one, else empty.
#[inline(always)]
pub fn line(a: usize, b: usize) -> Bitboard {
    BETWEEN_AND_LINE[1][a][b]
}

/// Slider attacks by walking the rays (used only to build the magic tables).
fn slide(sq: usize, occupied: Bitboard, first_dir: usize) -> Bitboard {
    let mut out = 0;
    for &(df, dr) in &DIRS[first_dir..first_dir + 4] {
        let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            let b = bit((r * 8 + f) as usize);
            out |= b;
            if occupied & b != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    out
}

#[derive(Debug, Clone, Copy, Default)]
struct Magic {
    mask: Bitboard,
    magic: u64,
    shift: u32,
    offset: u32,
}

/// "Fancy" magic bitboards: one shared attack table, one magic per square and slider.
#[derive(Debug)]
pub struct Sliders {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    table: Vec<Bitboard>,
}

/// Candidates tried per square at the smallest table size before allowing one more bit.
const EXACT_SEARCH_BUDGET: u32 = 1000;

/// xorshift64* (only to search magics; deterministic).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

impl Sliders {
    fn build() -> Sliders {
        let mut sliders = Sliders {
            rook: [Magic::default(); 64],
            bishop: [Magic::default(); 64],
            table: Vec::with_capacity(2 * (102_400 + 5_248)),
        };
        let mut rng = Rng(0x1CE_A6E5_EED5);
        // Scratch space reused for every square: occupancies, their attacks, and the
        // attempt number that last wrote each slot (so slots need no clearing).
        let mut occupancies = vec![0; 4096];
        let mut attacks = vec![0; 4096];
        let mut slots = vec![0; 8192];
        let mut written = vec![0u32; 8192];
        let mut attempt = 0u32;
        for first_dir in [0, 4] {
            for sq in 0..64 {
                let edges = ((RANK_1 | RANK_8) & !(RANK_1 << (8 * (sq / 8))))
                    | ((FILE_A | FILE_H) & !(FILE_A << (sq % 8)));
                let mask = slide(sq, 0, first_dir) & !edges;
                let bits = mask.count_ones();
                let size = 1usize << bits;
                // Every subset of the mask (carry-rippler enumeration).
                let mut subset: Bitboard = 0;
                for i in 0..size {
                    occupancies[i] = subset;
                    attacks[i] = slide(sq, subset, first_dir);
                    subset = subset.wrapping_sub(mask) & mask;
                }
                // Look for a magic with the smallest table first; when that takes long,
                // allow one more index bit (a table twice the size, found far faster), so
                // start-up stays short without any precomputed magic.
                let mut shift = 64 - bits;
                let mut tries = 0u32;
                let magic = loop {
                    let candidate = rng.sparse();
                    if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                        continue;
                    }
                    tries += 1;
                    if tries == EXACT_SEARCH_BUDGET {
                        shift -= 1;
                    }
                    attempt += 1;
                    let fits = (0..size).all(|i| {
                        let idx = (occupancies[i].wrapping_mul(candidate) >> shift) as usize;
                        if written[idx] != attempt {
                            written[idx] = attempt;
                            slots[idx] = attacks[i];
                            true
                        } else {
                            slots[idx] == attacks[i]
                        }
                    });
                    if fits {
                        break candidate;
                    }
                };
                let slot_count = 1usize << (64 - shift);
                let entry = Magic {
                    mask,
                    magic,
                    shift,
                    offset: sliders.table.len() as u32,
                };
                // Slots no occupancy maps to stay empty; they are never looked up.
                sliders.table.extend((0..slot_count).map(|i| {
                    if written[i] == attempt {
                        slots[i]
                    } else {
                        0
                    }
                }));
                if first_dir == 0 {
                    sliders.rook[sq] = entry;
                } else {
                    sliders.bishop[sq] = entry;
                }
            }
        }
        sliders
    }

    #[inline(always)]
    fn lookup(&self, m: &Magic, occupied: Bitboard) -> Bitboard {
        let idx = ((occupied & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
        self.table[m.offset as usize + idx]
    }

    #[inline(always)]
    pub fn rook(&self, sq: usize, occupied: Bitboard) -> Bitboard {
        self.lookup(&self.rook[sq], occupied)
    }

    #[inline(always)]
    pub fn bishop(&self, sq: usize, occupied: Bitboard) -> Bitboard {
        self.lookup(&self.bishop[sq], occupied)
    }
}

static SLIDERS: OnceLock<Sliders> = OnceLock::new();

/// The slider tables, built on first use.
#[inline(always)]
pub fn sliders() -> &'static Sliders {
    SLIDERS.get_or_init(Sliders::build)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_lookups_match_walking_the_rays() {
        let s = sliders();
        let mut rng = Rng(12345);
        for sq in 0..64 {
            for _ in 0..200 {
                let occ = rng.next() & rng.next();
                assert_eq!(s.rook(sq, occ), slide(sq, occ, 0));
                assert_eq!(s.bishop(sq, occ), slide(sq, occ, 4));
            }
        }
    }

    #[test]
    fn between_and_line_tables() {
        // a1..h8 diagonal
        assert_eq!(between(0, 63), BISHOP_RAYS[0] & !bit(63));
        assert_eq!(line(9, 18), BISHOP_RAYS[0] | bit(0));
        assert_eq!(between(0, 10), 0); // a1 and c2 do not share a line
        assert_eq!(line(0, 10), 0);
        assert_eq!(between(4, 7), bit(5) | bit(6));
        assert_eq!(line(4, 7), RANK_1);
        assert_eq!(KNIGHT_ATTACKS[0], bit(10) | bit(17));
        assert_eq!(KING_ATTACKS[0], bit(1) | bit(8) | bit(9));
        assert_eq!(PAWN_ATTACKS[0][8], bit(17));
        assert_eq!(PAWN_ATTACKS[1][55], bit(46));
    }
}
