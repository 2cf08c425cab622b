//! Bitboards for an 8x8 board: square `rank * 8 + file` (a1 = 0, h8 = 63) is bit `sq`.
//!
//! Every table is computed at compile time (`const fn`): leapers, rays, and the magic-bitboard
//! attack table of the sliders, from one magic number per square and slider.

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

const fn ray_table() -> [[Bitboard; 64]; 8] {
    let mut table = [[0; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            table[d][sq] = ray(sq, d);
            sq += 1;
        }
        d += 1;
    }
    table
}

/// `RAYS[d][sq]`: [`ray`] of every square and direction.
const RAYS: [[Bitboard; 64]; 8] = ray_table();

/// The attacks along one ray, `d`, from `sq`: the ray up to and with its first occupied
/// square (used only to build the magic tables).
const fn ray_attacks(sq: usize, d: usize, occupied: Bitboard) -> Bitboard {
    // A reference, so compile-time evaluation does not copy the whole table at every use.
    let rays: &[[Bitboard; 64]; 8] = &RAYS;
    let ray = rays[d][sq];
    let blockers = ray & occupied;
    if blockers == 0 {
        return ray;
    }
    // Rays towards higher squares (north, east, north-east, north-west) meet their lowest
    // blocker first, the others their highest.
    let first = if d == 0 || d == 2 || d == 4 || d == 7 {
        blockers.trailing_zeros()
    } else {
        63 - blockers.leading_zeros()
    };
    ray ^ rays[d][first as usize]
}

/// Slider attacks from `sq` along the four rays from `first_dir` on.
const fn slide(sq: usize, occupied: Bitboard, first_dir: usize) -> Bitboard {
    ray_attacks(sq, first_dir, occupied)
        | ray_attacks(sq, first_dir + 1, occupied)
        | ray_attacks(sq, first_dir + 2, occupied)
        | ray_attacks(sq, first_dir + 3, occupied)
}

/// The squares whose occupancy decides a slider's attacks from `sq`: its rays without the
/// last square of each (a piece there blocks nothing further).
const fn relevant(sq: usize, first_dir: usize) -> Bitboard {
    let edges = ((RANK_1 | RANK_8) & !(RANK_1 << (8 * (sq / 8))))
        | ((FILE_A | FILE_H) & !(FILE_A << (sq % 8)));
    slide(sq, 0, first_dir) & !edges
}

// Magic multipliers, one per square, that map every occupancy of the relevant squares
// (`bits` of them) into a table of exactly 2^bits entries without two occupancies with
// different attacks sharing a slot. They were found by a random search (sparse xorshift64*
// candidates, the first that fits at that size for each square: under half a second);
// `build_slider_table` checks every one of them while it builds the table, at compile time,
// so a wrong one fails the build.
const ROOK_MAGICS: [u64; 64] = [
    0x0280_0060_82C0_0110, 0x0840_0010_0120_0342, 0x2180_1001_2000_8008, 0x0180_1801_1000_8004,
    0x0A00_0201_2010_0804, 0x0300_0100_0204_0008, 0x0400_0800_9004_0201, 0x0180_0100_00A0_4080,
    0x0882_8000_4001_8220, 0x2280_8040_0080_2000, 0x8001_0020_0010_4100, 0x4800_8010_0080_0802,
    0x0011_0008_0011_0204, 0x0402_0008_0200_0411, 0x0802_0008_1704_8A00, 0x0141_0000_4200_8100,
    0x9000_2080_0040_0080, 0x0060_0040_4010_0020, 0x2040_8480_1000_2006, 0x0000_0900_1001_0020,
    0x9810_2500_2801_0010, 0xC004_8080_0201_0400, 0x0101_4400_0201_5088, 0x4040_0600_0880_4104,
    0x8040_4000_8000_2080, 0x0110_0044_4002_2010, 0x8001_0041_0010_2000, 0x0316_0901_0010_0122,
    0x0108_0005_0011_0009, 0x0004_0080_8004_0200, 0x4454_2304_0010_8816, 0x2100_0382_0024_1041,
    0x0220_2040_0080_0080, 0x0420_0050_00C0_0020, 0x2000_4011_0100_2000, 0x0000_8008_0080_1000,
    0x80C0_0400_8080_0800, 0x1186_0004_0200_0810, 0x8814_0200_0101_0004, 0x3201_0000_5900_0682,
    0x1080_0080_4000_8020, 0x8040_0520_0184_8040, 0x10C0_1000_2000_8080, 0x0018_0810_0101_0020,
    0x0429_0005_0801_0010, 0x0284_0080_0200_8004, 0x8000_0200_0100_8080, 0x4001_0040_8402_0001,
    0x2400_4200_8827_0200, 0x8000_4000_2000_9080, 0x8A10_2007_0041_1100, 0x1410_8110_0008_0180,
    0x8100_8500_0801_7100, 0x0810_0200_8004_0080, 0x0020_9842_0110_1400, 0x2000_4100_840C_4600,
    0x108A_0080_4620_1302, 0x5208_2210_4001_0281, 0xA202_2004_4811_0141, 0x0803_0089_1000_04A1,
    0x0012_0084_A010_0802, 0x0205_0004_0002_0801, 0x6010_1008_0100_8244, 0x0200_1504_002A_4182,
];
const BISHOP_MAGICS: [u64; 64] = [
    0x0210_1050_0441_5040, 0x0002_0A64_1702_0004, 0x0008_0841_0820_1000, 0x0018_2042_4000_8000,
    0x0C14_2420_208A_0400, 0x0041_3008_2000_082D, 0x8A54_0104_02A0_0440, 0x8002_0201_0412_5202,
    0x0460_4010_8480_8080, 0x0884_2802_0812_1220, 0x2100_0820_8400_8400, 0x0042_0806_1140_0800,
    0x0000_0405_0400_4804, 0x010A_2510_1230_0011, 0x8488_1104_1003_8800, 0x0001_0104_0082_0808,
    0x0020_0008_8830_4080, 0x0429_0020_0951_0200, 0x0001_0108_1803_0210, 0x4008_0514_2023_A000,
    0x000C_0040_84A0_2200, 0x0009_2013_0088_4018, 0x040D_2400_8848_0940, 0x0010_3002_0104_0242,
    0x0021_0510_2004_0410, 0x1148_0440_A084_0084, 0x2000_4800_1000_8012, 0x4404_0801_0022_0040,
    0x0502_8400_0180_2002, 0x0104_4200_4900_9A10, 0x0501_1200_2120_9008, 0x3038_808E_1024_040C,
    0x0004_0484_60A0_2001, 0x6202_5010_0444_0100, 0x0602_8020_8004_0800, 0x4000_0200_8008_0080,
    0x00C0_1202_0000_2080, 0x0120_0800_2000_4408, 0x0A50_4111_0830_4C00, 0xC021_1102_0005_0041,
    0x8003_4150_5000_4000, 0x0108_A201_1020_20A2, 0x0080_2020_280A_300A, 0x0080_03A1_2800_1400,
    0x1400_2811_0400_4040, 0x8040_0124_0820_9900, 0x4410_1001_0840_C120, 0x0219_2E04_1040_4108,
    0x04AC_0248_0248_0000, 0x2085_0C02_0202_0000, 0x0210_4029_0808_0200, 0x2280_0085_0409_0841,
    0x0014_0040_0488_4800, 0x12A8_1002_1001_1000, 0x6540_4448_009D_0004, 0x6210_1006_4454_C00C,
    0x8004_4400_8411_6001, 0x8000_2184_1088_5404, 0x0200_6801_0301_4101, 0x0409_41A9_6042_0200,
    0x4000_1100_400A_8A04, 0x0020_0892_2051_0100, 0x0000_4420_9204_0108, 0x4408_6101_0224_0500,
];

#[derive(Debug, Clone, Copy)]
struct Magic {
    mask: Bitboard,
    magic: u64,
    shift: u32,
    offset: u32,
}

/// The table entries of all 128 squares and sliders (rook squares first): 102,400 for the
/// rook, 5,248 for the bishop.
const SLIDER_TABLE_SIZE: usize = {
    let mut total = 0;
    let mut sq = 0;
    while sq < 64 {
        total += 1 << relevant(sq, 0).count_ones();
        total += 1 << relevant(sq, 4).count_ones();
        sq += 1;
    }
    total
};

/// The magic entries of one slider, their offsets starting at `offset`.
const fn magics(first_dir: usize, numbers: &[u64; 64], mut offset: usize) -> [Magic; 64] {
    let mut out = [Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant(sq, first_dir);
        let bits = mask.count_ones();
        out[sq] = Magic {
            mask,
            magic: numbers[sq],
            shift: 64 - bits,
            offset: offset as u32,
        };
        offset += 1 << bits;
        sq += 1;
    }
    out
}

const ROOK_ENTRIES: [Magic; 64] = magics(0, &ROOK_MAGICS, 0);
const BISHOP_ENTRIES: [Magic; 64] = magics(4, &BISHOP_MAGICS, 102_400);

/// Fills the slots of every square's occupancies with their attacks, checking that no two
/// occupancies with different attacks meet in a slot (a slider always attacks some square,
/// so an empty slot reads 0).
///
/// An occupancy is a subset of each of the four rays' relevant squares, and its attacks are
/// the union of each ray's: so each ray's subsets and attacks are listed first (64 at most),
/// and the occupancies are their combinations. (Walking the rays for every occupancy made
/// compile-time evaluation take seconds.)
const fn build_slider_table() -> [Bitboard; SLIDER_TABLE_LEN] {
    let mut table = [0; SLIDER_TABLE_LEN];
    let mut slider = 0;
    while slider < 2 {
        let (entries, first_dir) = if slider == 0 {
            (&ROOK_ENTRIES, 0)
        } else {
            (&BISHOP_ENTRIES, 4)
        };
        let mut sq = 0;
        while sq < 64 {
            let m = entries[sq];
            // Per ray: its relevant subsets (carry-rippler enumeration) and their attacks.
            let mut subsets = [[0; 64]; 4];
            let mut attacks = [[0; 64]; 4];
            let mut counts = [0; 4];
            let mut i = 0;
            while i < 4 {
                let mask = RAYS[first_dir + i][sq] & m.mask;
                let mut subset: Bitboard = 0;
                loop {
                    subsets[i][counts[i]] = subset;
                    attacks[i][counts[i]] = ray_attacks(sq, first_dir + i, subset);
                    counts[i] += 1;
                    subset = subset.wrapping_sub(mask) & mask;
                    if subset == 0 {
                        break;
                    }
                }
                i += 1;
            }
            // The combinations, the union so far kept at each level of the loops.
            let mut k0 = 0;
            while k0 < counts[0] {
                let (occupancy0, attack0) = (subsets[0][k0], attacks[0][k0]);
                let mut k1 = 0;
                while k1 < counts[1] {
                    let occupancy1 = occupancy0 | subsets[1][k1];
                    let attack1 = attack0 | attacks[1][k1];
                    let mut k2 = 0;
                    while k2 < counts[2] {
                        let occupancy2 = occupancy1 | subsets[2][k2];
                        let attack2 = attack1 | attacks[2][k2];
                        let mut k3 = 0;
                        while k3 < counts[3] {
                            let occupancy = occupancy2 | subsets[3][k3];
                            let attack = attack2 | attacks[3][k3];
                            let slot = m.offset as usize
                                + (occupancy.wrapping_mul(m.magic) >> m.shift) as usize;
                            if table[slot] == 0 {
                                table[slot] = attack;
                            } else if table[slot] != attack {
                                panic!("a slider magic maps occupancies with different attacks together");
                            }
                            k3 += 1;
                        }
                        k2 += 1;
                    }
                    k1 += 1;
                }
                k0 += 1;
            }
            sq += 1;
        }
        slider += 1;
    }
    table
}

/// The table's length, padded to a power of two: an index masked to it is in bounds, so
/// the lookups need no bounds check (the padding is never read, and never touched).
const SLIDER_TABLE_LEN: usize = SLIDER_TABLE_SIZE.next_power_of_two();

/// The attacks of every slider, square and relevant occupancy (841 KB, built at compile
/// time, in a table of 1 MiB).
static SLIDER_TABLE: [Bitboard; SLIDER_TABLE_LEN] = build_slider_table();

/// "Fancy" magic bitboards: one shared attack table, one magic per square and slider.
#[derive(Debug)]
pub struct Sliders {
    rook: [Magic; 64],
    bishop: [Magic; 64],
}

impl Sliders {
    #[inline(always)]
    fn lookup(&self, m: &Magic, occupied: Bitboard) -> Bitboard {
        let idx = ((occupied & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
        SLIDER_TABLE[(m.offset as usize + idx) & (SLIDER_TABLE_LEN - 1)]
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

static SLIDERS: Sliders = Sliders {
    rook: ROOK_ENTRIES,
    bishop: BISHOP_ENTRIES,
};

/// The slider tables (built at compile time: nothing to wait for at the first state).
#[inline(always)]
pub fn sliders() -> &'static Sliders {
    &SLIDERS
}

/// Slider attacks from a square, for a given occupancy.
pub trait SliderAttacks {
    fn rook(&self, sq: usize, occupied: Bitboard) -> Bitboard;
    fn bishop(&self, sq: usize, occupied: Bitboard) -> Bitboard;
}

impl SliderAttacks for Sliders {
    #[inline(always)]
    fn rook(&self, sq: usize, occupied: Bitboard) -> Bitboard {
        Sliders::rook(self, sq, occupied)
    }
    #[inline(always)]
    fn bishop(&self, sq: usize, occupied: Bitboard) -> Bitboard {
        Sliders::bishop(self, sq, occupied)
    }
}

/// Slider attacks worked out from 2.5 KB of tables instead of looked up in the 1 MiB magic
/// table: the same attacks, for a caller that finds the magic table's lines out of the
/// cache (the batched environment, whose rows push them out between its steps). Files and
/// diagonals by the hyperbola quintessence (`o - s` from both ends, the far end reached by
/// reversing the ranks), ranks from the attacks along the first rank.
#[derive(Debug, Clone, Copy)]
pub struct ComputedSliders;

const fn line_masks() -> [[Bitboard; 3]; 64] {
    let mut out = [[0; 3]; 64];
    let mut sq = 0;
    while sq < 64 {
        out[sq] = [
            ray(sq, 0) | ray(sq, 1),
            ray(sq, 4) | ray(sq, 5),
            ray(sq, 6) | ray(sq, 7),
        ];
        sq += 1;
    }
    out
}

/// Per square: its file, its diagonal and its anti-diagonal, without the square itself.
static LINE_MASKS: [[Bitboard; 3]; 64] = line_masks();

const fn first_rank_attacks() -> [[u8; 64]; 8] {
    let mut out = [[0; 64]; 8];
    let mut file = 0;
    while file < 8 {
        let mut inner = 0;
        while inner < 64 {
            let occupied = (inner as u8) << 1;
            let mut attacks = 0u8;
            let mut f = file + 1;
            while f < 8 {
                attacks |= 1 << f;
                if occupied & (1 << f) != 0 {
                    break;
                }
                f += 1;
            }
            let mut f = file;
            while f > 0 {
                f -= 1;
                attacks |= 1 << f;
                if occupied & (1 << f) != 0 {
                    break;
                }
            }
            out[file][inner] = attacks;
            inner += 1;
        }
        file += 1;
    }
    out
}

/// `FIRST_RANK_ATTACKS[file][inner]`: a rook's attacks along the first rank from `file`,
/// with the six inner squares (b-g) occupied as the bits of `inner` say.
static FIRST_RANK_ATTACKS: [[u8; 64]; 8] = first_rank_attacks();

impl ComputedSliders {
    /// The attacks along `mask`, a line through `sq` (without it) that holds at most one
    /// square of every rank.
    #[inline(always)]
    fn along(sq: usize, occupied: Bitboard, mask: Bitboard) -> Bitboard {
        let forward = occupied & mask;
        let reverse = forward.swap_bytes();
        let forward = forward.wrapping_sub(bit(sq));
        let reverse = reverse.wrapping_sub(bit(sq).swap_bytes());
        (forward ^ reverse.swap_bytes()) & mask
    }
}

impl SliderAttacks for ComputedSliders {
    #[inline(always)]
    fn rook(&self, sq: usize, occupied: Bitboard) -> Bitboard {
        let rank = sq & 56;
        let inner = (occupied >> rank >> 1) & 63;
        let along_rank = Bitboard::from(FIRST_RANK_ATTACKS[sq & 7][inner as usize]) << rank;
        Self::along(sq, occupied, LINE_MASKS[sq][0]) | along_rank
    }
    #[inline(always)]
    fn bishop(&self, sq: usize, occupied: Bitboard) -> Bitboard {
        let masks = &LINE_MASKS[sq];
        Self::along(sq, occupied, masks[1]) | Self::along(sq, occupied, masks[2])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slider attacks by walking the rays a square at a time.
    fn walk(sq: usize, occupied: Bitboard, first_dir: usize) -> Bitboard {
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

    #[test]
    fn magic_lookups_match_walking_the_rays() {
        let s = sliders();
        for (sq, &rook_rays) in ROOK_RAYS.iter().enumerate() {
            // Every occupancy of the relevant squares, with the other squares full or empty.
            for (magic, first_dir) in [(&s.rook[sq], 0), (&s.bishop[sq], 4)] {
                let mut subset: Bitboard = 0;
                loop {
                    for occupied in [subset, subset | !magic.mask] {
                        let looked_up = if first_dir == 0 {
                            s.rook(sq, occupied)
                        } else {
                            s.bishop(sq, occupied)
                        };
                        assert_eq!(looked_up, walk(sq, occupied, first_dir), "{sq} {occupied:#x}");
                        let computed = if first_dir == 0 {
                            SliderAttacks::rook(&ComputedSliders, sq, occupied)
                        } else {
                            SliderAttacks::bishop(&ComputedSliders, sq, occupied)
                        };
                        assert_eq!(computed, looked_up, "computed: {sq} {occupied:#x}");
                    }
                    subset = subset.wrapping_sub(magic.mask) & magic.mask;
                    if subset == 0 {
                        break;
                    }
                }
            }
            assert_eq!(s.rook(sq, 0), rook_rays);
            assert_eq!(ComputedSliders.rook(sq, 0), rook_rays);
        }
        assert_eq!(SLIDER_TABLE_SIZE, 102_400 + 5_248);
    }

    #[test]
    fn computed_attacks_match_walking_the_rays() {
        let mut rng = crate::rng::SplitMix64::new(7);
        for _ in 0..20_000 {
            // Sparse and dense boards.
            let occupied = rng.next_u64() & rng.next_u64() | rng.next_u64() & rng.next_u64() & rng.next_u64();
            for sq in 0..64 {
                assert_eq!(SliderAttacks::rook(&ComputedSliders, sq, occupied), walk(sq, occupied, 0));
                assert_eq!(SliderAttacks::bishop(&ComputedSliders, sq, occupied), walk(sq, occupied, 4));
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
