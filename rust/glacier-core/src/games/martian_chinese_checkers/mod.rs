//! Martian Chinese Checkers, "E" (docs/rules/martian_chinese_checkers.md).
//!
//! Icehouse pyramids on a hexagon of 127 hexes, for 2 to 6 players. A pyramid of size 1, 2 or
//! 3 moves exactly that many hexes in a straight line, in steps and jumps, carrying every
//! piece above it; pieces stack, larger ones trap smaller ones, and a player may swap two
//! trapping pieces in a guard exchange. The first player to fill its goal territory wins.
//!
//! Representation. The state is a `Board<P>` for its number of players `P`: the enum
//! [`MartianChineseCheckers`] holds one of five, and every call dispatches once, so move
//! generation and play loop over the seated players only and keep per-player arrays of `P`.
//! (The enum itself is as large as the six-player board, 672 bytes, and a clone copies all
//! of it: the compiler merges the five variant copies into one; `clone_from` between states
//! of one number of players copies only their board, 400 bytes for two.)
//!
//! - Every piece has an id, `player * 16 + slot` with `slot = (size - 1) * 5 + k` (slot 15
//!   is unused, so an id splits with a shift); a player's pieces are one `Seat`. A stack is
//!   a linked list from its top piece down (`top` per hex, `below` per piece), with each
//!   piece's hex and level beside it.
//! - What a touch-down asks of a hex is one byte, its `cell`: the player whose piece is on
//!   top, and for each size whether a moved piece of that size would trap a piece in its
//!   home territory there. A 64-bit table per player and size (`LANDABLE`) says which cell
//!   values are landable, so testing a hex is a load and a shift. (Bitboards of the 127
//!   hexes in a `u128` were tried for this: a movement looks at up to 18 scattered hexes, and
//!   testing a bit of a `u128` at a variable index costs several instructions, which made
//!   move generation slower than the byte arrays it replaced.)
//! - `LINE` lists the three hexes from every hex in every direction, with `OFF_BOARD` (a
//!   cell that is neither occupied nor landable) past the edge, so the tests need no bounds.
//! - Per piece, whether it is free is a bit per player (`free`), and what it traps is a bit
//!   per player it traps a piece of (`trappers`); both are refreshed for the hexes a ply
//!   touches.
//! - The exchanges that may end a movement are found on the state before the movement,
//!   without a copy: only the riders (the pieces above the moved one) change what they trap,
//!   and theirs is recomputed on the side (`Board::partners_after`).
//! - Counting moves (perft's last ply) counts a piece's movements from its set of
//!   directions and the exchanges from the partner masks, without visiting them.

mod board;
mod encoding;
mod facts;
mod heuristic;
mod text;

use self::board::*;

use crate::error::Error;
use crate::game::{Game, GameParams, Notation, Outcome};
use crate::notation::parse_count;
use crate::params::{text_disagrees, ParamSpec, ParamValue};
use crate::{bad_position, zobrist};
use std::fmt::Write as _;
use std::ops::ControlFlow;

/// Hexes on the board.
const HEXES: usize = 127;
/// Pieces of one player: 5 small, 5 medium, 5 large.
const PIECES: usize = 15;
const PER_SIZE: usize = 5;
/// Ids per player: its 15 pieces and one unused slot.
const SLOTS: usize = 16;
/// Pieces of six players: also the tallest possible stack.
const MAX_PIECES: usize = 6 * PIECES;
const NONE: u8 = u8::MAX;
const OFF: u8 = u8::MAX;
/// The index past the last hex, where [`LINE`] goes off the board: its `Board::cell` says
/// it is neither occupied nor landable.
const OFF_BOARD: u8 = HEXES as u8;
/// `DIRECTIONS_SET[dirs]`: the number of directions in a set of them (a table, so no build
/// depends on a popcount instruction).
const DIRECTIONS_SET: [u8; 64] = {
    let mut table = [0; 64];
    let mut dirs = 0;
    while dirs < 64 {
        table[dirs] = (dirs as u8).count_ones() as u8;
        dirs += 1;
    }
    table
};
/// Larger than any size: the guard of a hex where nothing is protected.
const NO_GUARD: u8 = 4;
/// `Board::cell` of an empty hex nothing guards, and of `OFF_BOARD`: no piece on top, and no
/// size may touch down.
const EMPTY_CELL: u8 = 7 << 3;
const EDGE_CELL: u8 = EMPTY_CELL | 0b111;
/// `LANDABLE[p][s - 1]`, bit `c`: a moved piece of player `p` and size `s` may touch down on
/// a hex whose `Board::cell` is `c` (the stack limit aside).
const LANDABLE: [[u64; 3]; 6] = {
    let mut table = [[0; 3]; 6];
    let mut p = 0;
    while p < 6 {
        let mut s = 0;
        while s < 3 {
            let mut c = 0;
            while c < 64 {
                if c & (1 << s) == 0 && c >> 3 != p {
                    table[p][s] |= 1 << c;
                }
                c += 1;
            }
            s += 1;
        }
        p += 1;
    }
    table
};

const fn size_of(id: usize) -> u8 {
    ((id % SLOTS) / PER_SIZE) as u8 + 1
}

const fn player_of(id: usize) -> usize {
    id / SLOTS
}

const fn slot_of(id: usize) -> usize {
    id % SLOTS
}

const fn goal_of(colour: u8) -> u8 {
    (colour + 3) % 6
}

// Zobrist keys (seed and indices documented in docs/rules/martian_chinese_checkers.md).
const ZOBRIST_SEED: u64 = 0x4D41_5253; // "MARS"
/// Index of the first side-to-move key; below it, one key per (hex, level, colour, size).
const SIDE_BASE: u64 = (HEXES * MAX_PIECES * 6 * 3) as u64;
const SIDE_KEYS: [u64; 6] = zobrist::table(ZOBRIST_SEED, SIDE_BASE);

#[inline]
fn piece_key(hex: usize, level: usize, colour: u8, size: u8) -> u64 {
    let index = ((hex * MAX_PIECES + level) * 6 + colour as usize) * 3 + size as usize - 1;
    zobrist::key(ZOBRIST_SEED, index as u64)
}

/// A move: a movement of `piece` to `to`, a guard exchange of pieces `x` and `g`, both (the
/// exchange ends the movement and `x` is the moved piece), or a pass. Piece ids are those
/// of the position the move was generated in.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct MartianChineseCheckersMove {
    piece: u8,
    to: u8,
    x: u8,
    g: u8,
}

impl MartianChineseCheckersMove {
    pub const PASS: MartianChineseCheckersMove = MartianChineseCheckersMove {
        piece: NONE,
        to: NONE,
        x: NONE,
        g: NONE,
    };
    const fn movement(piece: usize, to: usize) -> MartianChineseCheckersMove {
        MartianChineseCheckersMove {
            piece: piece as u8,
            to: to as u8,
            x: NONE,
            g: NONE,
        }
    }
    const fn with_exchange(self, x: usize, g: usize) -> MartianChineseCheckersMove {
        MartianChineseCheckersMove {
            x: x as u8,
            g: g as u8,
            ..self
        }
    }
    #[must_use]
    pub fn is_pass(self) -> bool {
        self == MartianChineseCheckersMove::PASS
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MartianChineseCheckersParams {
    pub players: u8,
    /// `None`: stacks may grow without limit.
    pub stack_limit: Option<u32>,
    pub max_plies: u32,
}

impl GameParams for MartianChineseCheckersParams {
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec {
            name: "players",
            default: ParamValue::Int(2),
            min: 2,
            max: 6,
            optional: false,
        },
        ParamSpec {
            name: "stack_limit",
            default: ParamValue::None,
            min: 1,
            max: u32::MAX as i64,
            optional: true,
        },
        ParamSpec::max_plies(2000),
    ];

    fn from_values(values: &[ParamValue]) -> Result<Self, Error> {
        Ok(MartianChineseCheckersParams {
            players: values[0].int() as u8,
            stack_limit: values[1].opt().map(|v| v as u32),
            max_plies: values[2].int() as u32,
        })
    }

    fn values(&self) -> Vec<ParamValue> {
        vec![
            ParamValue::Int(self.players.into()),
            self.stack_limit
                .map_or(ParamValue::None, |v| ParamValue::Int(v.into())),
            ParamValue::Int(self.max_plies.into()),
        ]
    }
}

/// The pieces of one player, by slot (`(size - 1) * 5 + k`; slot 15 is unused).
#[derive(Clone, Copy, Debug)]
struct Seat {
    hex: [u8; SLOTS],
    level: [u8; SLOTS],
    /// The piece directly below, or NONE.
    below: [u8; SLOTS],
}

impl Seat {
    const EMPTY: Seat = Seat {
        hex: [NONE; SLOTS],
        level: [NONE; SLOTS],
        below: [NONE; SLOTS],
    };
}

/// The partners G open to one piece X of the player to move in a guard exchange: G belongs
/// to a player (not the mover) among `x_traps`, the players whose pieces X traps, and traps
/// a piece of the mover; `trapping_mover[p]`, bit `slot`, are the pieces of player `p` that
/// do. (Players are numbered in the order of their colours, so going by player is going by
/// colour.)
#[derive(Clone, Copy, Debug)]
struct Partners<const P: usize> {
    x_traps: u8,
    trapping_mover: [u16; P],
}

impl<const P: usize> Partners<P> {
    /// Calls `visit(g)` for every partner, by player then id, until it breaks.
    #[inline(always)]
    fn scan<B>(&self, mut visit: impl FnMut(usize) -> ControlFlow<B>) -> ControlFlow<B> {
        let mut owners = self.x_traps;
        while owners != 0 {
            let owner = owners.trailing_zeros() as usize;
            owners &= owners - 1;
            let mut partners = self.trapping_mover[owner];
            while partners != 0 {
                visit(owner * SLOTS + partners.trailing_zeros() as usize)?;
                partners &= partners - 1;
            }
        }
        ControlFlow::Continue(())
    }

    fn count(&self) -> u64 {
        let mut owners = self.x_traps;
        let mut n = 0;
        while owners != 0 {
            n += u64::from(self.trapping_mover[owners.trailing_zeros() as usize].count_ones());
            owners &= owners - 1;
        }
        n
    }
}

/// The state of a game of `P` players.
#[derive(Clone, Copy, Debug)]
struct Board<const P: usize> {
    /// Per hex: the top piece of its stack, or NONE (and NONE at `OFF_BOARD`).
    top: [u8; HEXES + 1],
    /// Per hex, what a touch-down asks of it: bits 0-2, whether a moved piece of size 1, 2,
    /// 3 may not touch down (it would trap a piece in its home territory); bits 3-5, the
    /// player whose piece is on top, 7 when empty. `OFF_BOARD` is `EDGE_CELL`.
    cell: [u8; HEXES + 1],
    seats: [Seat; P],
    /// Per player, bit `slot`: that piece is not trapped.
    free: [u16; P],
    /// `trappers[p][q]`, bit `slot`: that piece of player `p` traps a piece of player `q`
    /// (one below it, at most its size).
    trappers: [[u16; P]; P],
    /// Per player: its pieces standing in its goal territory.
    in_goal: [u8; P],
    player: u8,
    /// The stack limit, capped at 255 (stacks never exceed 90).
    limit: u8,
    ply: u32,
    outcome: Outcome,
    hash: u64,
    params: MartianChineseCheckersParams,
}

impl<const P: usize> Board<P> {
    /// The colour (territory) of each player.
    const COLOURS: &'static [u8] = SEATS[P];
    /// The player of each colour, or NONE.
    const PLAYER_OF_COLOUR: [u8; 6] = PLAYER_OF_COLOUR[P];

    #[inline(always)]
    fn colour(id: usize) -> u8 {
        Self::COLOURS[player_of(id)]
    }

    #[inline(always)]
    fn hex(&self, id: usize) -> usize {
        self.seats[player_of(id)].hex[slot_of(id)] as usize
    }

    #[inline(always)]
    fn level(&self, id: usize) -> usize {
        self.seats[player_of(id)].level[slot_of(id)] as usize
    }

    #[inline(always)]
    fn below(&self, id: usize) -> u8 {
        self.seats[player_of(id)].below[slot_of(id)]
    }

    #[inline(always)]
    fn set_below(&mut self, id: usize, below: u8) {
        self.seats[player_of(id)].below[slot_of(id)] = below;
    }

    fn is_free(&self, id: usize) -> bool {
        self.free[player_of(id)] >> slot_of(id) & 1 != 0
    }

    /// The number of pieces on `h`.
    #[inline(always)]
    fn height(&self, h: usize) -> usize {
        match self.top[h] {
            NONE => 0,
            top => self.level(top as usize) + 1,
        }
    }

    /// The directions (bit `d`) in which the free piece `id` of the player to move, of
    /// `size` on `from`, can move, and those of them that end on a stack.
    ///
    /// A movement may touch down only on landable hexes: not topped by the mover's colour,
    /// trapping no piece in its home territory, within the stack limit; some split of the
    /// path into steps and jumps must touch down only on such hexes. Off the board is
    /// `OFF_BOARD`, neither landable nor occupied, so the tests need no bounds.
    #[inline(always)]
    fn directions(&self, id: usize, from: usize, size: u8) -> (u8, u8) {
        // Every stack plus every moving piece is at most the 90 pieces there are, so only a
        // lower limit needs the heights; the test is made once, not at every hex.
        if (self.limit as usize) < MAX_PIECES {
            self.directions_within::<true>(id, from, size)
        } else {
            self.directions_within::<false>(id, from, size)
        }
    }

    /// [`Board::directions`] without a branch on the hexes where there is no stack limit
    /// ([`Board::open_lanes`]): faster where one position follows another with little in
    /// common (random playouts, positions from Python), slower in perft, whose positions
    /// come in families that the branches predict well.
    #[inline(always)]
    fn directions_branch_free(&self, id: usize, from: usize, size: u8) -> (u8, u8) {
        if (self.limit as usize) < MAX_PIECES {
            self.directions_within::<true>(id, from, size)
        } else {
            let line = &LINE[from];
            self.open_lanes(size, |d, k| line[d][k])
        }
    }

    /// [`Board::directions`], minding the stack limit if `LIMIT`.
    #[inline(always)]
    fn directions_within<const LIMIT: bool>(&self, id: usize, from: usize, size: u8) -> (u8, u8) {
        let line = &LINE[from];
        let lut = LANDABLE[self.player as usize][size as usize - 1];
        let moving = if LIMIT {
            self.height(from) - self.level(id)
        } else {
            0
        };
        let l = |h: u8| {
            (lut >> self.cell[h as usize]) & 1 != 0 && (!LIMIT || self.fits(h as usize, moving))
        };
        let o = |h: u8| self.cell[h as usize] < EMPTY_CELL;
        let (mut dirs, mut onto) = (0, 0);
        // Branches rather than bit arithmetic: most directions fail at the first test, and
        // perft and playouts meet similar positions one after the other.
        match size {
            1 => {
                for (d, &[h1, _, _]) in line.iter().enumerate() {
                    if l(h1) {
                        dirs |= 1 << d;
                        onto |= u8::from(o(h1)) << d;
                    }
                }
            }
            // step + step, or a jump over h1.
            2 => {
                for (d, &[h1, h2, _]) in line.iter().enumerate() {
                    if l(h2) && (o(h1) || l(h1)) {
                        dirs |= 1 << d;
                        onto |= u8::from(o(h2)) << d;
                    }
                }
            }
            // 1+1+1, 1+2 (jump over h2) or 2+1 (jump over h1).
            _ => {
                for (d, &[h1, h2, h3]) in line.iter().enumerate() {
                    if l(h3) && ((o(h1) && l(h2)) || (l(h1) && (o(h2) || l(h2)))) {
                        dirs |= 1 << d;
                        onto |= u8::from(o(h3)) << d;
                    }
                }
            }
        }
        (dirs, onto)
    }

    /// [`Board::directions`] in the one direction `d`: whether the free piece `id` of the
    /// player to move, of `size` on `from`, can move in it, and whether it would end on a
    /// stack (for a single action, where testing all six directions would be waste).
    #[inline(always)]
    fn direction(&self, id: usize, from: usize, size: u8, d: usize) -> (bool, bool) {
        let [h1, h2, h3] = LINE[from][d];
        let lut = LANDABLE[self.player as usize][size as usize - 1];
        let limited = (self.limit as usize) < MAX_PIECES;
        let l = |h: u8| {
            (lut >> self.cell[h as usize]) & 1 != 0
                && (!limited || self.fits(h as usize, self.height(from) - self.level(id)))
        };
        let o = |h: u8| self.cell[h as usize] < EMPTY_CELL;
        match size {
            1 => (l(h1), o(h1)),
            // step + step, or a jump over h1.
            2 => (l(h2) && (o(h1) || l(h1)), o(h2)),
            // 1+1+1, 1+2 (jump over h2) or 2+1 (jump over h1).
            _ => (l(h3) && ((o(h1) && l(h2)) || (l(h1) && (o(h2) || l(h2)))), o(h3)),
        }
    }

    /// The open directions (bit `i`) of a moved piece of `size` of the player to move, and
    /// those of them that end on a stack, for six rays given as `hex(i, k)`, the hex `k + 1`
    /// steps along ray `i` (`OFF_BOARD` past the edge), without a stack limit: all six
    /// tested at once by bit arithmetic (a byte lane per ray), with no branch on the hexes.
    /// The same answers as [`Board::directions`] gives without a stack limit (with one, the
    /// heights matter, and only that test minds them).
    #[inline(always)]
    fn open_lanes(&self, size: u8, hex: impl Fn(usize, usize) -> u8) -> (u8, u8) {
        // Lane `i` of `cells(k)`: the cell `k + 1` hexes along ray `i`. Cells are below 64,
        // and hexes at most `OFF_BOARD` (127).
        let cells = |k: usize| {
            let mut lanes = 0u64;
            for i in 0..6 {
                lanes |= u64::from(self.cell[usize::from(hex(i, k)) & 127]) << (8 * i);
            }
            lanes
        };
        // Bit 0 of each lane: whether a moved piece of `size` may touch down there (the
        // hex is not topped by the mover, nor guarded against the size), whether the hex
        // is occupied (topped by someone).
        const LANE: u64 = 0x0101_0101_0101_0101;
        let nonzero = |lanes: u64| (lanes + 0x7F * LANE) >> 7 & LANE; // lanes below 128
        let mover = u64::from(self.player) * LANE;
        let unguarded = size as u32 - 1;
        let top = |c: u64| (c >> 3) & (7 * LANE);
        let land = |c: u64| nonzero(top(c) ^ mover) & !(c >> unguarded) & LANE;
        let occupied = |c: u64| nonzero(top(c) ^ (7 * LANE));
        let (open, onto) = match size {
            1 => {
                let c1 = cells(0);
                (land(c1), occupied(c1))
            }
            // step + step, or a jump over h1.
            2 => {
                let (c1, c2) = (cells(0), cells(1));
                (land(c2) & (land(c1) | occupied(c1)), occupied(c2))
            }
            // 1+1+1, 1+2 (jump over h2) or 2+1 (jump over h1).
            _ => {
                let (c1, c2, c3) = (cells(0), cells(1), cells(2));
                let (l2, o2) = (land(c2), occupied(c2));
                let open = land(c3) & ((occupied(c1) & l2) | (land(c1) & (o2 | l2)));
                (open, occupied(c3))
            }
        };
        // Bit 0 of lane i to bit i: the product puts it at bit 56 + i, and no two of its
        // terms meet (8i + 7j differ for i below 8, j below 8).
        let gather = |lanes: u64| (lanes.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8 & 0x3F;
        (gather(open), gather(open & onto))
    }

    /// Whether `moving` pieces may touch down on `h` within the stack limit.
    #[inline(always)]
    fn fits(&self, h: usize, moving: usize) -> bool {
        self.height(h) + moving <= self.limit as usize
    }

    /// The partners of the mover's piece `x` in a guard exchange that may end its movement
    /// to `to`, as the position will stand after it, found without playing it; `None` when
    /// there are none because X will trap no piece of another colour.
    ///
    /// After the movement X traps the pieces of the stack on `to` of at most its size. What
    /// any other piece traps depends only on the pieces below it, which the movement changes
    /// for the riders alone (the pieces above X, carried along onto `to`); their traps are
    /// recomputed here, bottom up over the old stack on `to`, X and the riders.
    #[inline]
    fn partners_after(&self, x: usize, to: usize) -> Option<Partners<P>> {
        let mover = self.player as usize;
        // at_most[s]: the players with a piece below of size at most s, starting with the
        // stack on `to`.
        let mut at_most = [0u8; 4];
        let mut p = self.top[to];
        while p != NONE {
            let id = p as usize;
            for slot in &mut at_most[size_of(id) as usize..] {
                *slot |= 1 << player_of(id);
            }
            p = self.below(id);
        }
        let size = size_of(x) as usize;
        let x_traps = at_most[size] & !(1 << mover);
        if x_traps == 0 {
            return None;
        }
        let mut trapping_mover: [u16; P] = std::array::from_fn(|owner| self.trappers[owner][mover]);
        let from = self.hex(x);
        if self.top[from] as usize != x {
            for slot in &mut at_most[size..] {
                *slot |= 1 << mover;
            }
            // The riders, bottom up.
            let base = self.level(x);
            let mut riders = [NONE; MAX_PIECES];
            let count = self.height(from) - base - 1;
            let mut p = self.top[from];
            while p as usize != x {
                riders[self.level(p as usize) - base - 1] = p;
                p = self.below(p as usize);
            }
            for &r in &riders[..count] {
                let id = r as usize;
                let (owner, bit) = (player_of(id), 1 << slot_of(id));
                let size = size_of(id) as usize;
                if at_most[size] & (1 << mover) != 0 {
                    trapping_mover[owner] |= bit;
                } else {
                    trapping_mover[owner] &= !bit;
                }
                for slot in &mut at_most[size..] {
                    *slot |= 1 << owner;
                }
            }
        }
        Some(Partners {
            x_traps,
            trapping_mover,
        })
    }

    /// Whether a piece of the mover of `size` touching down on `to` traps a piece of another
    /// player there (one of at most its size): the first test of [`Board::partners_after`],
    /// without its setup, for a caller to skip it when it would find no partner.
    #[inline(always)]
    fn traps_another_on(&self, to: usize, size: u8) -> bool {
        let mover = self.player as usize;
        let mut p = self.top[to];
        while p != NONE {
            let id = p as usize;
            if size_of(id) <= size && player_of(id) != mover {
                return true;
            }
            p = self.below(id);
        }
        false
    }

    /// The partners of the mover's piece `x` in a whole-turn guard exchange, given the pieces
    /// of each player that trap one of the mover's.
    #[inline(always)]
    fn partners_now(&self, x: usize, trapping_mover: [u16; P]) -> Partners<P> {
        let mover = self.player as usize;
        let mut x_traps = 0;
        for (q, &trapping) in self.trappers[mover].iter().enumerate() {
            x_traps |= u8::from(q != mover && trapping >> slot_of(x) & 1 != 0) << q;
        }
        Partners {
            x_traps,
            trapping_mover,
        }
    }

    /// The mover's pieces that trap a piece of another player (the X of a whole-turn
    /// exchange), bit `slot`, and per player its pieces that trap one of the mover's.
    #[inline(always)]
    fn whole_turn_exchanges(&self) -> (u16, [u16; P]) {
        let mover = self.player as usize;
        let mut xs = 0;
        for (q, &trapping) in self.trappers[mover].iter().enumerate() {
            if q != mover {
                xs |= trapping;
            }
        }
        let trapping_mover = std::array::from_fn(|owner| self.trappers[owner][mover]);
        (xs, trapping_mover)
    }

    /// Every legal move other than `pass`, until `visit` breaks; continues with whether there
    /// was one. With `BRANCH_FREE`, each piece's directions by
    /// [`Board::directions_branch_free`] (the same moves in the same order).
    #[inline]
    fn scan_plain_moves<const BRANCH_FREE: bool, B>(
        &self,
        visit: &mut impl FnMut(MartianChineseCheckersMove) -> ControlFlow<B>,
    ) -> ControlFlow<B, bool> {
        let me = self.player as usize;
        let mut any = false;
        let mut free = self.free[me];
        while free != 0 {
            let id = me * SLOTS + free.trailing_zeros() as usize;
            free &= free - 1;
            let size = size_of(id);
            let from = self.hex(id);
            let (mut dirs, onto) = if BRANCH_FREE {
                self.directions_branch_free(id, from, size)
            } else {
                self.directions(id, from, size)
            };
            while dirs != 0 {
                let d = dirs.trailing_zeros() as usize;
                dirs &= dirs - 1;
                let to = LINE[from][d][size as usize - 1] as usize;
                let mv = MartianChineseCheckersMove::movement(id, to);
                visit(mv)?;
                any = true;
                // An exchange needs X to trap another colour's piece: none on an empty hex.
                if onto >> d & 1 != 0 {
                    if let Some(partners) = self.partners_after(id, to) {
                        partners.scan(|g| visit(mv.with_exchange(id, g)))?;
                    }
                }
            }
        }
        let exchanged = self.scan_whole_turn_exchanges(visit)?;
        ControlFlow::Continue(any || exchanged)
    }

    /// Every whole-turn exchange, until `visit` breaks; continues with whether there was one.
    #[inline]
    fn scan_whole_turn_exchanges<B>(
        &self,
        visit: &mut impl FnMut(MartianChineseCheckersMove) -> ControlFlow<B>,
    ) -> ControlFlow<B, bool> {
        let me = self.player as usize;
        let mut any = false;
        let (mut xs, trapping_mover) = self.whole_turn_exchanges();
        while xs != 0 {
            let x = me * SLOTS + xs.trailing_zeros() as usize;
            xs &= xs - 1;
            self.partners_now(x, trapping_mover).scan(|g| {
                any = true;
                visit(MartianChineseCheckersMove {
                    piece: NONE,
                    to: NONE,
                    x: x as u8,
                    g: g as u8,
                })
            })?;
        }
        ControlFlow::Continue(any)
    }

    /// The number of legal moves: as [`Board::scan_plain_moves`] finds them, counted a piece
    /// at a time.
    fn count_plain_moves(&self) -> u64 {
        let me = self.player as usize;
        let mut n = 0;
        let mut free = self.free[me];
        while free != 0 {
            let id = me * SLOTS + free.trailing_zeros() as usize;
            free &= free - 1;
            let size = size_of(id);
            let from = self.hex(id);
            let (dirs, mut onto) = self.directions(id, from, size);
            n += u64::from(DIRECTIONS_SET[dirs as usize]);
            while onto != 0 {
                let d = onto.trailing_zeros() as usize;
                onto &= onto - 1;
                let to = LINE[from][d][size as usize - 1] as usize;
                if let Some(partners) = self.partners_after(id, to) {
                    n += partners.count();
                }
            }
        }
        let (mut xs, trapping_mover) = self.whole_turn_exchanges();
        while xs != 0 {
            let x = me * SLOTS + xs.trailing_zeros() as usize;
            xs &= xs - 1;
            n += self.partners_now(x, trapping_mover).count();
        }
        n
    }

    /// The pieces of `h`, bottom to top, in `buf`; returns the height.
    fn stack(&self, h: usize, buf: &mut [u8; MAX_PIECES]) -> usize {
        let mut p = self.top[h];
        while p != NONE {
            buf[self.level(p as usize)] = p;
            p = self.below(p as usize);
        }
        self.height(h)
    }

    /// Sets whether piece `id` is free and the players (bit q) whose pieces it traps.
    #[inline(always)]
    fn set_summary(&mut self, id: usize, free: bool, traps: u8) {
        let (player, slot) = (player_of(id), slot_of(id));
        let bit = 1u16 << slot;
        if free {
            self.free[player] |= bit;
        } else {
            self.free[player] &= !bit;
        }
        for (q, trapping) in self.trappers[player].iter_mut().enumerate() {
            if traps >> q & 1 != 0 {
                *trapping |= bit;
            } else {
                *trapping &= !bit;
            }
        }
    }

    /// Records what a touch-down asks of `h`: its top piece (if any) and the smallest size
    /// any piece there guards in its owner's home (`NO_GUARD` for none).
    #[inline(always)]
    fn set_cell(&mut self, h: usize, top: u8, guard: u8) {
        let top_player = if top == NONE { 7 } else { player_of(top as usize) as u8 };
        // Bit s - 1 for every size s at least the guard.
        let guarded = (0b111 << (guard - 1)) & 0b111;
        self.cell[h] = top_player << 3 | guarded;
    }

    /// Recomputes the summaries of hex `h` and of the pieces on it.
    fn refresh(&mut self, h: usize) {
        let guards = |id: usize| HOME[h] >> Self::colour(id) & 1 != 0;
        // The common short stacks first.
        let top = self.top[h];
        if top == NONE {
            self.set_cell(h, NONE, NO_GUARD);
            return;
        }
        if self.below(top as usize) == NONE {
            let id = top as usize;
            self.set_summary(id, true, 0);
            let guard = if guards(id) { size_of(id) } else { NO_GUARD };
            self.set_cell(h, top, guard);
            return;
        }
        let mut buf = [NONE; MAX_PIECES];
        let n = self.stack(h, &mut buf);
        // Top down: a piece is free when nothing above is at least as large.
        let mut largest_above = 0;
        let mut free = [false; MAX_PIECES];
        for level in (0..n).rev() {
            let size = size_of(buf[level] as usize);
            free[level] = size > largest_above;
            largest_above = largest_above.max(size);
        }
        // Bottom up: the players whose pieces each piece traps, and the home-territory guard.
        let mut at_most = [0u8; 4]; // at_most[s]: players with a piece below of size <= s
        let mut guard = NO_GUARD;
        for (&p, &free) in buf[..n].iter().zip(&free) {
            let id = p as usize;
            let size = size_of(id);
            self.set_summary(id, free, at_most[size as usize]);
            for slot in &mut at_most[size as usize..] {
                *slot |= 1 << player_of(id);
            }
            if guards(id) {
                guard = guard.min(size);
            }
        }
        self.set_cell(h, top, guard);
    }

    /// Puts piece `id` at (`hex`, `level`), updating the hash and the goal count.
    #[inline]
    fn relocate(&mut self, id: usize, hex: usize, level: usize) {
        let (colour, size) = (Self::colour(id), size_of(id));
        let (old_hex, old_level) = (self.hex(id), self.level(id));
        self.hash ^=
            piece_key(old_hex, old_level, colour, size) ^ piece_key(hex, level, colour, size);
        let goal = goal_of(colour);
        let was = TERRITORY[old_hex] == goal;
        let is = TERRITORY[hex] == goal;
        let (player, slot) = (player_of(id), slot_of(id));
        if was != is {
            if is {
                self.in_goal[player] += 1;
            } else {
                self.in_goal[player] -= 1;
            }
        }
        self.seats[player].hex[slot] = hex as u8;
        self.seats[player].level[slot] = level as u8;
    }

    /// Moves piece `id` and every piece above it onto the top of `to`.
    fn move_stack(&mut self, id: usize, to: usize) {
        let from = self.hex(id);
        let base = self.level(id);
        let new_base = self.height(to);
        let old_top = self.top[from];
        let mut p = old_top as usize;
        loop {
            let level = self.level(p) - base + new_base;
            let below = self.below(p);
            self.relocate(p, to, level);
            if p == id {
                break;
            }
            p = below as usize;
        }
        self.top[from] = self.below(id);
        self.set_below(id, self.top[to]);
        self.top[to] = old_top;
        self.refresh(from);
        self.refresh(to);
    }

    /// Swaps the places of pieces `x` and `g`.
    fn swap_pieces(&mut self, x: usize, g: usize) {
        let (hx, lx) = (self.hex(x), self.level(x));
        let (hg, lg) = (self.hex(g), self.level(g));
        let mut at_x = [NONE; MAX_PIECES];
        let mut at_g = [NONE; MAX_PIECES];
        let nx = self.stack(hx, &mut at_x);
        let ng = self.stack(hg, &mut at_g);
        self.relocate(x, hg, lg);
        self.relocate(g, hx, lx);
        if hx == hg {
            at_x.swap(lx, lg);
            self.relink(hx, &at_x[..nx]);
            self.refresh(hx);
        } else {
            at_x[lx] = g as u8;
            at_g[lg] = x as u8;
            self.relink(hx, &at_x[..nx]);
            self.relink(hg, &at_g[..ng]);
            self.refresh(hx);
            self.refresh(hg);
        }
    }

    /// Rewrites the links of `h` to hold `pieces`, bottom to top (their levels already set).
    fn relink(&mut self, h: usize, pieces: &[u8]) {
        let mut below = NONE;
        for &id in pieces {
            self.set_below(id as usize, below);
            below = id;
        }
        self.top[h] = below;
    }

    /// Whether `player`'s 15 pieces stand on the 15 hexes of its goal, one each.
    fn goal_complete(&self, player: usize) -> bool {
        if self.in_goal[player] as usize != PIECES {
            return false;
        }
        let mut seen = 0u128;
        for &hex in &self.seats[player].hex[..PIECES] {
            let bit = 1u128 << hex;
            if seen & bit != 0 {
                return false;
            }
            seen |= bit;
        }
        true
    }

    /// The goal check from `first` on clockwise, then the ply limit.
    fn judge(&mut self, first: usize) {
        for k in 0..P {
            let p = (first + k) % P;
            if self.goal_complete(p) {
                self.outcome = Outcome::Win(p as u8);
                return;
            }
        }
        self.outcome = if self.ply >= self.params.max_plies {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        };
    }

    /// Builds a state from stacks (bottom to top, `(colour, size)`), checked by the caller.
    fn build(
        stacks: &[Vec<(u8, u8)>],
        player: u8,
        ply: u32,
        params: &MartianChineseCheckersParams,
    ) -> Self {
        let mut state = Board {
            top: [NONE; HEXES + 1],
            cell: [EDGE_CELL; HEXES + 1],
            seats: [Seat::EMPTY; P],
            free: [0; P],
            trappers: [[0; P]; P],
            in_goal: [0; P],
            player,
            limit: params.stack_limit.map_or(u8::MAX, |l| l.min(255) as u8),
            ply,
            outcome: Outcome::Ongoing,
            hash: 0,
            params: *params,
        };
        let mut next_id = [[0usize; 3]; P]; // per player and size: pieces placed
        for (h, stack) in stacks.iter().enumerate() {
            let mut below = NONE;
            for (level, &(colour, size)) in stack.iter().enumerate() {
                let p = Self::PLAYER_OF_COLOUR[colour as usize] as usize;
                let slot = (size as usize - 1) * PER_SIZE + next_id[p][size as usize - 1];
                next_id[p][size as usize - 1] += 1;
                let seat = &mut state.seats[p];
                seat.hex[slot] = h as u8;
                seat.level[slot] = level as u8;
                seat.below[slot] = below;
                below = (p * SLOTS + slot) as u8;
                if TERRITORY[h] == goal_of(colour) {
                    state.in_goal[p] += 1;
                }
            }
            state.top[h] = below;
            state.refresh(h);
        }
        state.hash = state.hash_from_scratch();
        state
    }

    /// This position with its pieces numbered as [`Board::build`] numbers them (each
    /// player's pieces of one size by hex, then level), however play has moved them: the
    /// state its text reads back as, made without the text.
    fn canonical(&self) -> Self {
        // `renumbered[id]`: the id `build` would give piece `id`.
        let mut renumbered = [NONE; 6 * SLOTS];
        for (p, seat) in self.seats.iter().enumerate() {
            for first in (0..PIECES).step_by(PER_SIZE) {
                let mut order: [usize; PER_SIZE] = std::array::from_fn(|k| first + k);
                order.sort_unstable_by_key(|&slot| (seat.hex[slot], seat.level[slot]));
                for (k, &slot) in order.iter().enumerate() {
                    renumbered[p * SLOTS + slot] = (p * SLOTS + first + k) as u8;
                }
            }
        }
        let renumber = |id: u8| if id == NONE { NONE } else { renumbered[id as usize] };
        let mut out = *self;
        for (top, &old) in out.top.iter_mut().zip(&self.top) {
            *top = renumber(old);
        }
        for p in 0..P {
            let (old, new) = (&self.seats[p], &mut out.seats[p]);
            let (mut free, mut trappers) = (0u16, [0u16; P]);
            for slot in 0..PIECES {
                let to = slot_of(renumbered[p * SLOTS + slot] as usize);
                new.hex[to] = old.hex[slot];
                new.level[to] = old.level[slot];
                new.below[to] = renumber(old.below[slot]);
                free |= (self.free[p] >> slot & 1) << to;
                for (moved, &was) in trappers.iter_mut().zip(&self.trappers[p]) {
                    *moved |= (was >> slot & 1) << to;
                }
            }
            out.free[p] = free;
            out.trappers[p] = trappers;
        }
        out
    }

    /// The pieces on `h`, bottom to top, as `(colour, size)`.
    fn stack_pieces(&self, h: usize) -> impl Iterator<Item = (u8, u8)> + '_ {
        let mut buf = [NONE; MAX_PIECES];
        let n = self.stack(h, &mut buf);
        (0..n).map(move |i| {
            let id = buf[i] as usize;
            (Self::colour(id), size_of(id))
        })
    }

    /// The piece at `hex`/`level`, if any.
    fn piece_at(&self, hex: usize, level: usize) -> Option<usize> {
        let mut buf = [NONE; MAX_PIECES];
        let n = self.stack(hex, &mut buf);
        (level < n).then(|| buf[level] as usize)
    }

    /// The ids of every piece in play, in id order.
    fn piece_ids() -> impl Iterator<Item = usize> {
        (0..P).flat_map(|p| (0..PIECES).map(move |slot| p * SLOTS + slot))
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = SIDE_KEYS[self.player as usize];
        for id in Self::piece_ids() {
            h ^= piece_key(self.hex(id), self.level(id), Self::colour(id), size_of(id));
        }
        h
    }

    /// Every legal move, until `visit` breaks; with `BRANCH_FREE` as
    /// [`Board::scan_plain_moves`] says.
    fn scan_moves<const BRANCH_FREE: bool, B>(
        &self,
        visit: &mut impl FnMut(MartianChineseCheckersMove) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        if self.outcome != Outcome::Ongoing {
            return ControlFlow::Continue(());
        }
        if !self.scan_plain_moves::<BRANCH_FREE, B>(visit)? {
            visit(MartianChineseCheckersMove::PASS)?;
        }
        ControlFlow::Continue(())
    }

    fn count_moves(&self) -> u64 {
        if self.outcome != Outcome::Ongoing {
            return 0;
        }
        self.count_plain_moves().max(1) // a pass when nothing else is legal
    }

    fn play(&mut self, mv: MartianChineseCheckersMove) {
        let mover = self.player as usize;
        if mv.piece != NONE {
            self.move_stack(mv.piece as usize, mv.to as usize);
        }
        if mv.x != NONE {
            self.swap_pieces(mv.x as usize, mv.g as usize);
        }
        self.ply += 1;
        let next = (mover + 1) % P;
        self.hash ^= SIDE_KEYS[mover] ^ SIDE_KEYS[next];
        self.player = next as u8;
        self.judge(mover);
    }
}

/// A state of E: a `Board` sized for its number of players.
#[derive(Debug)]
pub struct MartianChineseCheckers(Seated);

impl Clone for MartianChineseCheckers {
    fn clone(&self) -> Self {
        MartianChineseCheckers(self.0.clone())
    }

    fn clone_from(&mut self, source: &Self) {
        self.0.clone_from(&source.0);
    }
}

/// One variant per number of players.
#[derive(Debug)]
enum Seated {
    Two(Board<2>),
    Three(Board<3>),
    Four(Board<4>),
    Five(Board<5>),
    Six(Board<6>),
}

impl Clone for Seated {
    fn clone(&self) -> Self {
        match self {
            Seated::Two(b) => Seated::Two(*b),
            Seated::Three(b) => Seated::Three(*b),
            Seated::Four(b) => Seated::Four(*b),
            Seated::Five(b) => Seated::Five(*b),
            Seated::Six(b) => Seated::Six(*b),
        }
    }

    /// Between states of one number of players (as the batched environment keeps the
    /// state it last showed), copies only that board, not the whole enum (sized for six
    /// players: 672 bytes where the board of two takes 400).
    fn clone_from(&mut self, source: &Self) {
        match (self, source) {
            (Seated::Two(b), Seated::Two(s)) => *b = *s,
            (Seated::Three(b), Seated::Three(s)) => *b = *s,
            (Seated::Four(b), Seated::Four(s)) => *b = *s,
            (Seated::Five(b), Seated::Five(s)) => *b = *s,
            (Seated::Six(b), Seated::Six(s)) => *b = *s,
            (this, source) => *this = source.clone(),
        }
    }
}

/// Runs `$body` with `$board` bound to the state's [`Board`], whatever its size.
macro_rules! on_board {
    ($seated:expr, $board:ident => $body:expr) => {
        match $seated {
            Seated::Two($board) => $body,
            Seated::Three($board) => $body,
            Seated::Four($board) => $body,
            Seated::Five($board) => $body,
            Seated::Six($board) => $body,
        }
    };
}
use on_board;

impl MartianChineseCheckers {
    /// Builds a state from stacks (bottom to top, `(colour, size)`), checked by the caller,
    /// and judges it from `first` on.
    fn build(
        stacks: &[Vec<(u8, u8)>],
        player: u8,
        ply: u32,
        params: &MartianChineseCheckersParams,
        first: usize,
    ) -> Self {
        fn judged<const P: usize>(mut board: Board<P>, first: usize) -> Board<P> {
            board.judge(first);
            board
        }
        let seated = match params.players {
            2 => Seated::Two(judged(Board::build(stacks, player, ply, params), first)),
            3 => Seated::Three(judged(Board::build(stacks, player, ply, params), first)),
            4 => Seated::Four(judged(Board::build(stacks, player, ply, params), first)),
            5 => Seated::Five(judged(Board::build(stacks, player, ply, params), first)),
            6 => Seated::Six(judged(Board::build(stacks, player, ply, params), first)),
            n => unreachable!("the number of players is checked to be 2 to 6, got {n}"),
        };
        MartianChineseCheckers(seated)
    }
}

impl Game for MartianChineseCheckers {
    const NAME: &'static str = "martian_chinese_checkers";
    const TITLE: &'static str = "E (Martian Chinese Checkers)";

    type Params = MartianChineseCheckersParams;

    type Move = MartianChineseCheckersMove;

    fn params(&self) -> &MartianChineseCheckersParams {
        on_board!(&self.0, b => &b.params)
    }

    fn start(params: &MartianChineseCheckersParams) -> Self {
        let mut stacks = vec![Vec::new(); HEXES];
        for &colour in SEATS[params.players as usize] {
            for (h, stack) in stacks.iter_mut().enumerate() {
                if TERRITORY[h] == colour {
                    stack.push((colour, GEO.start_size[h]));
                }
            }
        }
        Self::build(&stacks, 0, 0, params, params.players as usize - 1)
    }

    fn current_player(&self) -> usize {
        on_board!(&self.0, b => b.player as usize)
    }

    fn num_players(&self) -> usize {
        self.params().players as usize
    }

    fn outcome(&self) -> Outcome {
        on_board!(&self.0, b => b.outcome)
    }

    fn hash(&self) -> u64 {
        on_board!(&self.0, b => b.hash)
    }

    fn hash_from_scratch(&self) -> u64 {
        on_board!(&self.0, b => b.hash_from_scratch())
    }

    fn transposition_key(&self, _depth: u32) -> u64 {
        // Everything but the ply count is hashed (the parameters are the root's).
        self.hash()
    }

    #[inline]
    fn scan_moves<B>(
        &self,
        visit: &mut impl FnMut(MartianChineseCheckersMove) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        on_board!(&self.0, b => b.scan_moves::<false, B>(visit))
    }

    /// Drawn from the moves generated without a branch on the hexes: a random playout meets
    /// one position after another with little in common, where the branches tuned for
    /// perft are mispredicted (and perft would be slower without them). The same moves in
    /// the same order, so the same draws.
    fn random_move<const N: usize>(
        &self,
        rng: &mut crate::rng::SplitMix64,
        buffer: &mut crate::game::MoveBuffer<MartianChineseCheckersMove, N>,
    ) -> Option<(MartianChineseCheckersMove, u64)> {
        crate::game::draw_generated(self, rng, buffer, |fill| {
            on_board!(&self.0, b => {
                let _ = b.scan_moves::<true, ()>(&mut |mv| {
                    fill.push(mv);
                    ControlFlow::Continue(())
                });
            });
        })
    }

    fn count_moves(&self) -> u64 {
        on_board!(&self.0, b => b.count_moves())
    }

    fn play_unchecked(&mut self, mv: MartianChineseCheckersMove) {
        on_board!(&mut self.0, b => b.play(mv));
    }

    /// Play keeps each piece's id wherever it goes; reading a text numbers the pieces by
    /// where they stand, and move generation goes by id.
    fn canonical(&self) -> Self {
        let seated = match &self.0 {
            Seated::Two(b) => Seated::Two(b.canonical()),
            Seated::Three(b) => Seated::Three(b.canonical()),
            Seated::Four(b) => Seated::Four(b.canonical()),
            Seated::Five(b) => Seated::Five(b.canonical()),
            Seated::Six(b) => Seated::Six(b.canonical()),
        };
        MartianChineseCheckers(seated)
    }
}

#[cfg(test)]
mod tests {
    use super::text::{hex_name, parse_hex};
    use super::*;

    fn params(players: u8) -> MartianChineseCheckersParams {
        MartianChineseCheckersParams {
            players,
            stack_limit: None,
            max_plies: 2000,
        }
    }

    #[test]
    fn geometry_matches_the_rules_page() {
        assert_eq!(GEO.q.len(), 127);
        for t in 0..6u8 {
            assert_eq!(TERRITORY.iter().filter(|&&x| x == t).count(), 15);
            assert_eq!(HOME.iter().filter(|&&m| m & (1 << t) != 0).count(), 28);
        }
        assert_eq!(TERRITORY.iter().filter(|&&x| x == NONE).count(), 37);
        assert_eq!(hex_name(63), "g7");
        assert_eq!(HOME[63], 0b11_1111);
        assert_eq!(parse_hex("g7"), Some(63));
        assert_eq!(parse_hex("a1"), None);
        assert_eq!(parse_hex("a07"), None);
    }

    #[test]
    fn start_perft_matches_the_rules_page() {
        let expected: [(u8, &[u64]); 5] = [
            (2, &[28, 784, 24696]),
            (3, &[28, 784, 21952]),
            (4, &[25, 610, 15250]),
            (5, &[25, 535, 11395]),
            (6, &[22, 469, 9988]),
        ];
        for (players, counts) in expected {
            let s = MartianChineseCheckers::start(&params(players));
            assert_eq!(s.hash(), s.hash_from_scratch());
            for (i, &n) in counts.iter().enumerate() {
                let depth = i as u32 + 1;
                assert_eq!(crate::perft::perft(&s, depth), n, "{players} players, depth {depth}");
                assert_eq!(crate::perft::perft_no_bulk(&s, depth), n);
            }
        }
    }

    /// Over random games, with and without a stack limit: the test of one direction agrees
    /// with the six at once, for every free piece of the player to move.
    #[test]
    fn one_direction_agrees_with_all_six() {
        for (players, stack_limit) in [(2u8, None), (4, None), (2, Some(2u32)), (6, Some(3))] {
            let params = MartianChineseCheckersParams {
                stack_limit,
                ..params(players)
            };
            let mut rng = crate::rng::SplitMix64::new(400 + u64::from(players));
            let mut state = MartianChineseCheckers::start(&params);
            let mut plies = 0;
            while !state.is_terminal() && plies < 400 {
                on_board!(&state.0, b => {
                    let me = b.player as usize;
                    for slot in 0..PIECES {
                        let id = me * SLOTS + slot;
                        if !b.is_free(id) {
                            continue;
                        }
                        let (size, from) = (size_of(id), b.hex(id));
                        let (dirs, onto) = b.directions(id, from, size);
                        for d in 0..6 {
                            let (open, on_stack) = b.direction(id, from, size, d);
                            assert_eq!(open, dirs >> d & 1 != 0);
                            if open {
                                assert_eq!(on_stack, onto >> d & 1 != 0);
                            }
                        }
                    }
                });
                let mut moves = Vec::new();
                state.generate_moves(&mut |mv| moves.push(mv));
                state.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
                plies += 1;
            }
        }
    }

    /// Over random games of 2 to 6 players, with and without a stack limit: the canonical
    /// state is the state read from the text, field by field (so its moves come in the same
    /// order), while the state reached by play numbers its pieces otherwise.
    #[test]
    fn canonical_is_the_state_read_from_the_text() {
        let mut renumbered = 0;
        for players in 2..=6u8 {
            for stack_limit in [None, Some(2u32)] {
                let params = MartianChineseCheckersParams {
                    stack_limit,
                    ..params(players)
                };
                let mut rng = crate::rng::SplitMix64::new(700 + u64::from(players));
                let mut state = MartianChineseCheckers::start(&params);
                for _ in 0..300 {
                    let canonical = state.canonical();
                    let read = MartianChineseCheckers::from_text(&state.text(), &params)
                        .expect("reads back");
                    assert_eq!(format!("{canonical:?}"), format!("{read:?}"));
                    assert_eq!(canonical.text(), state.text());
                    assert_eq!(canonical.hash(), state.hash());
                    assert_eq!(canonical.outcome(), state.outcome());
                    let moves = |s: &MartianChineseCheckers| {
                        let mut out = Vec::new();
                        s.generate_moves(&mut |mv| out.push(s.move_text(mv)));
                        out
                    };
                    assert_eq!(moves(&canonical), moves(&read));
                    let mut sorted = moves(&state);
                    sorted.sort();
                    let mut canonical_sorted = moves(&canonical);
                    canonical_sorted.sort();
                    assert_eq!(canonical_sorted, sorted);
                    assert_eq!(format!("{:?}", canonical.canonical()), format!("{canonical:?}"));
                    if format!("{canonical:?}") != format!("{state:?}") {
                        renumbered += 1;
                    }
                    if state.is_terminal() {
                        break;
                    }
                    let mut moves = Vec::new();
                    state.generate_moves(&mut |mv| moves.push(mv));
                    state.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
                }
            }
        }
        assert!(renumbered > 100, "play renumbered pieces only {renumbered} times");
    }

    #[test]
    fn text_round_trips_with_hash() {
        let s = MartianChineseCheckers::start(&params(2));
        let t = s.text();
        let again = MartianChineseCheckers::from_text(&t, &params(2)).expect("reads back");
        assert_eq!(again.text(), t);
        assert_eq!(again.hash(), s.hash());
    }

    #[test]
    fn the_number_of_players_comes_from_the_text() {
        use crate::Session;
        let six = MartianChineseCheckers::start(&params(6)).text();
        let session = Session::<MartianChineseCheckers>::from_text(&six, &[]).expect("reads");
        assert_eq!(session.state().num_players(), 6);
        assert_eq!(session.state().params().players, 6);
        let agreeing = [("players", ParamValue::Int(6))];
        assert!(Session::<MartianChineseCheckers>::from_text(&six, &agreeing).is_ok());
        let disagreeing = [("players", ParamValue::Int(4))];
        let err = Session::<MartianChineseCheckers>::from_text(&six, &disagreeing).unwrap_err();
        assert_eq!(
            err,
            Error::InvalidParameter(
                "the position text has players=6, but players=4 was given \
                 (leave players out to take it from the text)"
                    .into()
            )
        );
    }
}
