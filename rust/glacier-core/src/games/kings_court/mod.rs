//! King's Court (docs/rules/kings_court.md).
//!
//! An 8x8 grid of Red and Green pieces around the Center Court c3-f6. After two opening
//! steps into the Court (Red's from any side, Green's from the opposite one), a move is a
//! step or a jump chain over pieces of either colour; jumped opponent pieces are removed.
//! A move that leaves a side with no piece in the Court ends the game: that side loses, and
//! when neither side has one left it is a draw.
//!
//! The board is two bitboards (bit `rank * 8 + file`, a1 = 0, h8 = 63). Jump chains are
//! searched depth first on a fixed-size stack with a visited bitboard: no heap allocation
//! anywhere in move generation. A move is a `u64` holding the start square and the list of
//! directions (see [`KingsCourtMove`]).

mod chains;
mod encoding;
mod facts;
mod heuristic;
#[cfg(test)]
mod search_tests;
mod text;

use chains::{continuations, count_chains, jump_chains, jump_direction, jump_masks, jump_sources, jump_targets, nth_chain};
use crate::error::Error;
use crate::game::{Game, Notation, Outcome};
use crate::notation::{parse_count, parse_placement, write_placement};
use crate::params::PlyLimit;
use crate::{bad_position, zobrist};
use std::fmt::Write as _;
use std::ops::ControlFlow;

const SIZE: usize = 8;
const SQUARES: usize = SIZE * SIZE;

const RED: usize = 0;
const GREEN: usize = 1;
const NAMES: [&str; 2] = ["Red", "Green"];

/// Each colour starts with this many pieces and never gains one.
const PIECES: u32 = 24;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
/// The Center Court c3-f6: files c-f (0x3C) of ranks 3-6.
const COURT: u64 = 0x3C << 16 | 0x3C << 24 | 0x3C << 32 | 0x3C << 40;

/// Directions, indexed 0..4: towards rank 8, towards file h, towards rank 1, towards file a.
/// `d ^ 2` is the opposite direction.
const DIRS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
/// No square (off the board).
const OFF: u8 = u8::MAX;

const START: &str = "GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG r 0";

/// The start's pieces: every square outside the Court, Red where file + rank (from 0) is even.
const START_PIECES: [u64; 2] = {
    let mut red = 0u64;
    let mut sq = 0;
    while sq < SQUARES {
        if (sq % SIZE + sq / SIZE) % 2 == 0 {
            red |= 1 << sq;
        }
        sq += 1;
    }
    [red & !COURT, !red & !COURT]
};

/// The ring of 16 squares beside the Court, one side per direction `d`: the squares from
/// which a step in direction `d` enters the Court (c2-f2 towards rank 8, b3-b6 towards
/// file h, c7-f7 towards rank 1, g3-g6 towards file a). The opening steps come from here.
const RING: [u64; 4] = [
    shift(COURT, 2) & !COURT,
    shift(COURT, 3) & !COURT,
    shift(COURT, 0) & !COURT,
    shift(COURT, 1) & !COURT,
];
/// The sides of the ring, in the order of [`RING`].
const RING_NAMES: [&str; 4] = [
    "rank 2 (c2-f2)",
    "file b (b3-b6)",
    "rank 7 (c7-f7)",
    "file g (g3-g6)",
];

/// The square `n` squares from `sq` in direction `d`, or `OFF`.
const fn ray_table(n: i8) -> [[u8; 4]; SQUARES] {
    let mut table = [[OFF; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (file, rank) = ((sq % SIZE) as i8, (sq / SIZE) as i8);
        let mut d = 0;
        while d < 4 {
            let (f, r) = (file + n * DIRS[d].0, rank + n * DIRS[d].1);
            if f >= 0 && f < SIZE as i8 && r >= 0 && r < SIZE as i8 {
                table[sq][d] = (r as usize * SIZE + f as usize) as u8;
            }
            d += 1;
        }
        sq += 1;
    }
    table
}
/// The neighbour in each direction (also the square jumped over).
const NEIGHBOUR: [[u8; 4]; SQUARES] = ray_table(1);
/// The landing square of a jump in each direction.
const LANDING: [[u8; 4]; SQUARES] = ray_table(2);

#[inline]
const fn bit(sq: usize) -> u64 {
    1u64 << sq
}

/// Every square of `b` moved one square in direction `d` (squares leaving the board drop out).
#[inline]
const fn shift(b: u64, d: usize) -> u64 {
    match d {
        0 => b << 8,
        1 => (b & !FILE_H) << 1,
        2 => b >> 8,
        _ => (b & !FILE_A) >> 1,
    }
}

/// Iterates over the squares of a bitboard, lowest first.
#[inline]
fn squares(mut b: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let sq = b.trailing_zeros() as usize;
            b &= b - 1;
            Some(sq)
        }
    })
}

// Zobrist keys (seed and indices documented in docs/rules/kings_court.md).
const ZOBRIST_SEED: u64 = 0x4B43_5254; // "KCRT"
/// Index `sq * 2 + colour` (colour 0 Red, 1 Green): a piece of that colour on that square.
const PIECE_KEYS: [u64; SQUARES * 2] = zobrist::table(ZOBRIST_SEED, 0);
/// Index 128: Green to move.
const GREEN_TO_MOVE_KEY: u64 = zobrist::key(ZOBRIST_SEED, 128);
/// Index 129: the first opening ply is due (ply count 0).
const OPENING_1_KEY: u64 = zobrist::key(ZOBRIST_SEED, 129);
/// Index 130: the second opening ply is due (ply count 1).
const OPENING_2_KEY: u64 = zobrist::key(ZOBRIST_SEED, 130);

/// The board's rotations and reflections, as square maps (see [`zobrist::board_symmetries`]).
const SYMMETRIES: [[u8; SQUARES]; 8] = zobrist::board_symmetries(SIZE);

/// From this many plies to go, perft's key is the same for a position and its seven mirror
/// images ([`KingsCourt::symmetric_key`]). That key reads eight keys per piece, so it
/// is kept for states whose subtrees are large enough to repay it (at 2 plies to go a
/// subtree is a few dozen leaves); most of the gain is at the first plies anyway.
const SYMMETRIC_KEY_DEPTH: u32 = 3;

/// The hash key of the ply count's phase: opening ply 1, opening ply 2, or later (none).
const fn phase_key(ply: u32) -> u64 {
    match ply {
        0 => OPENING_1_KEY,
        1 => OPENING_2_KEY,
        _ => 0,
    }
}

/// A move: a step or a jump chain, as a start square and a list of directions.
///
/// Bits 0-5 hold the start square, bits 6-9 the number of jumps `n` (0..=15; 0 marks a
/// step), and from bit 10 on two bits per direction: the step's direction, or the
/// direction of jump `i` at bits `10 + 2i`. Landings of a chain keep the parity of both
/// coordinates, so they lie on a 4x4 sublattice of 16 squares; the start is one of them
/// and none is visited twice, so a chain has at most 15 jumps (40 bits in all).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct KingsCourtMove(u64);

impl KingsCourtMove {
    const MAX_JUMPS: usize = 15;

    #[inline]
    const fn step(from: usize, dir: usize) -> KingsCourtMove {
        KingsCourtMove(from as u64 | (dir as u64) << 10)
    }
    #[inline]
    const fn chain(from: usize, jumps: usize, dirs: u64) -> KingsCourtMove {
        KingsCourtMove(from as u64 | (jumps as u64) << 6 | dirs << 10)
    }
    #[inline]
    fn from(self) -> usize {
        (self.0 & 63) as usize
    }
    /// The number of jumps; 0 for a step.
    #[inline]
    fn jumps(self) -> usize {
        ((self.0 >> 6) & 15) as usize
    }
    #[inline]
    fn dir(self, i: usize) -> usize {
        ((self.0 >> (10 + 2 * i)) & 3) as usize
    }
}

/// The only parameter is the ply limit (default 300).
pub type KingsCourtParams = PlyLimit<300>;

#[derive(Clone, Debug)]
pub struct KingsCourt {
    /// Bitboards of Red's and Green's pieces.
    pieces: [u64; 2],
    /// 0 = Red, 1 = Green.
    side: u8,
    ply: u32,
    outcome: Outcome,
    hash: u64,
    params: KingsCourtParams,
}

fn square_name(sq: usize) -> String {
    let mut s = String::with_capacity(2);
    s.push((b'a' + (sq % SIZE) as u8) as char);
    s.push((b'1' + (sq / SIZE) as u8) as char);
    s
}

fn parse_square(s: &[u8]) -> Option<usize> {
    match s {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
            Some((r - b'1') as usize * SIZE + (f - b'a') as usize)
        }
        _ => None,
    }
}

/// The direction from `a` to `b` when `b` is `n` squares away along a file or rank.
fn direction_between(a: usize, b: usize, table: &[[u8; 4]; SQUARES]) -> Option<usize> {
    (0..4).find(|&d| table[a][d] as usize == b)
}

impl KingsCourt {
    fn occupied(&self) -> u64 {
        self.pieces[RED] | self.pieces[GREEN]
    }

    /// Whether the side to move is in an opening ply (ply counts 0 and 1).
    fn in_opening(&self) -> bool {
        self.ply < 2
    }

    /// The side of the ring Red's opening step came from, as its direction into the Court
    /// (ply counts 1 and 2, where the text was checked to be a position the opening
    /// reaches: the one Red start square of the ring that is empty).
    fn red_entry(&self) -> usize {
        let gone = START_PIECES[RED] & !self.pieces[RED];
        (0..4).find(|&d| gone & RING[d] != 0).unwrap_or(0)
    }

    /// The direction of the opening steps allowed to the side to move now, or `None` for
    /// any direction (Red's first step): Green's step goes the opposite way to Red's, from
    /// the opposite side of the ring.
    fn opening_direction(&self) -> Option<usize> {
        (self.ply == 1).then(|| self.red_entry() ^ 2)
    }

    /// The opening steps of the side to move: for each direction `d`, the pieces that may
    /// step that way, from the ring onto the empty Court square beside them.
    fn opening_steps(&self) -> [u64; 4] {
        let own = self.pieces[self.side as usize];
        let empty_court = COURT & !self.occupied();
        let only = self.opening_direction();
        let mut steps = [0; 4];
        for (d, movers) in steps.iter_mut().enumerate() {
            if only.is_none_or(|o| o == d) {
                *movers = own & RING[d] & shift(empty_court, d ^ 2);
            }
        }
        steps
    }

    /// Calls `sink` for every legal move; stops early when `sink` returns `true`
    /// (and then returns `true`).
    #[inline]
    fn for_each_move(&self, mut sink: impl FnMut(KingsCourtMove) -> bool) -> bool {
        if self.in_opening() {
            let steps = self.opening_steps();
            return (0..4).any(|d| squares(steps[d]).any(|from| sink(KingsCourtMove::step(from, d))));
        }
        let own = self.pieces[self.side as usize];
        let occupied = self.occupied();
        let empty = !occupied;
        let masks = jump_masks(occupied);
        for from in squares(own) {
            for (d, &to) in NEIGHBOUR[from].iter().enumerate() {
                if to != OFF && empty & bit(to as usize) != 0 && sink(KingsCourtMove::step(from, d)) {
                    return true;
                }
            }
            if jump_chains(&masks, from, |n, dirs| sink(KingsCourtMove::chain(from, n, dirs))) {
                return true;
            }
        }
        false
    }

    /// The move numbered `index` (from 0) in the order of [`KingsCourt::for_each_move`],
    /// after the opening, found by skipping whole groups of moves by their counts. Only the
    /// pieces that can jump (the jumpers) have chains, so the pieces are taken in runs that
    /// end at a jumper: the steps of a run (the jumper's come before its chains) are
    /// counted by popcounts, then the jumper's chains one first landing at a time by the
    /// number of chains that continue from there (1 outside the jump sources, else
    /// `continuations_from`, the count of [`continuations`]). Only the run or the first
    /// landing that holds the move is walked.
    #[inline]
    fn pick_after_opening(
        &self,
        masks: &[u64; 4],
        mut index: u64,
        mut continuations_from: impl FnMut(usize) -> u64,
    ) -> Option<KingsCourtMove> {
        let own = self.pieces[self.side as usize];
        let empty = !self.occupied();
        let sources = jump_sources(masks);
        // steppers[d]: the pieces whose neighbour in direction d is empty.
        let steppers = [0, 1, 2, 3].map(|d| own & shift(empty, d ^ 2));
        let mut rest = own;
        let mut jumpers = own & sources;
        loop {
            // The pieces up to the next jumper, that one included (or all the rest).
            let run = if jumpers == 0 {
                rest
            } else {
                rest & (jumpers ^ (jumpers - 1))
            };
            let steps: u64 = steppers
                .iter()
                .map(|&s| u64::from((s & run).count_ones()))
                .sum();
            if index < steps {
                return Some(Self::nth_step(&steppers, run, index));
            }
            index -= steps;
            if jumpers == 0 {
                return None;
            }
            let from = jumpers.trailing_zeros() as usize;
            for first in squares(jump_targets(masks, from, bit(from))) {
                let chains = if sources & bit(first) == 0 {
                    1
                } else {
                    continuations_from(first)
                };
                if index < chains {
                    return nth_chain(masks, from, jump_direction(from, first), first, index);
                }
                index -= chains;
            }
            rest &= !run;
            jumpers &= jumpers - 1;
        }
    }

    /// The step numbered `index` (from 0, below their number) among the steps of the pieces
    /// `run`, in the order of [`KingsCourt::for_each_move`]: by piece, then by direction.
    /// `steppers[d]` holds the pieces whose neighbour in direction `d` is empty.
    #[inline]
    fn nth_step(steppers: &[u64; 4], run: u64, mut index: u64) -> KingsCourtMove {
        let mut from = 0;
        let mut dirs = 0u32;
        for sq in squares(run) {
            from = sq;
            dirs = (0..4).fold(0u32, |acc, d| acc | (((steppers[d] >> sq) & 1) as u32) << d);
            let steps = u64::from(dirs.count_ones());
            if index < steps {
                break;
            }
            index -= steps;
        }
        for _ in 0..index {
            dirs &= dirs - 1;
        }
        KingsCourtMove::step(from, dirs.trailing_zeros() as usize)
    }

    /// The number of legal moves after the opening: the steps by popcounts, then the jump
    /// chains ([`count_chains`], which tells `keep` the count of each first landing).
    #[inline(always)]
    fn count_after_opening(&self, masks: &[u64; 4], keep: impl FnMut(usize, u64)) -> u64 {
        let own = self.pieces[self.side as usize];
        let empty = !self.occupied();
        let steps: u64 = (0..4)
            .map(|d| u64::from((shift(own, d) & empty).count_ones()))
            .sum();
        steps + count_chains(masks, own, keep)
    }

    /// Whether the side to move has a legal move: a step or a first jump.
    fn has_move(&self) -> bool {
        if self.in_opening() {
            return self.opening_steps().iter().any(|&m| m != 0);
        }
        let own = self.pieces[self.side as usize];
        let occupied = self.occupied();
        // A step is almost always there: look for one before working out the jumps.
        if (0..4).any(|d| shift(own, d) & !occupied != 0) {
            return true;
        }
        let masks = jump_masks(occupied);
        masks.iter().any(|&mask| mask & own != 0)
    }

    /// The Court rule after a move by `mover` (from the third ply on): a draw when neither
    /// side has a piece in the Court, else a loss for the side without one; `None` when
    /// both have one.
    fn court_verdict(pieces: &[u64; 2], mover: usize) -> Option<Outcome> {
        match (pieces[mover] & COURT != 0, pieces[1 - mover] & COURT != 0) {
            (true, true) => None,
            (false, false) => Some(Outcome::Draw),
            (true, false) => Some(Outcome::Win(mover as u8)),
            (false, true) => Some(Outcome::Win(1 - mover as u8)),
        }
    }

    /// The least of the hashes of the position's eight images under the board's rotations
    /// and reflections. After the opening the rules treat the images alike (steps and jumps
    /// go along files and ranks, the Court is symmetric, nothing else depends on where a
    /// piece stands), so they have the same move trees: perft may count one for all.
    /// (The opening is not symmetric so: Red's ring squares are not Green's.)
    fn symmetric_key(&self) -> u64 {
        let mut images = [0u64; 8];
        for colour in [RED, GREEN] {
            for sq in squares(self.pieces[colour]) {
                for (image, map) in images.iter_mut().zip(&SYMMETRIES) {
                    *image ^= PIECE_KEYS[map[sq] as usize * 2 + colour];
                }
            }
        }
        // What is not the board (side to move, phase) is the same for every image.
        let rest = self.hash ^ images[0];
        rest ^ images.iter().copied().min().unwrap_or(images[0])
    }

    fn set_piece(&mut self, sq: usize, colour: usize, on: bool) {
        debug_assert_eq!(self.pieces[colour] & bit(sq) != 0, !on);
        self.pieces[colour] ^= bit(sq);
        self.hash ^= PIECE_KEYS[sq * 2 + colour];
    }

    /// The squares a move visits after its start: its landings (one for a step).
    fn landings(mv: KingsCourtMove) -> impl Iterator<Item = usize> {
        let from = mv.from();
        let n = mv.jumps();
        let table = if n == 0 { &NEIGHBOUR } else { &LANDING };
        let count = n.max(1);
        let mut sq = from;
        (0..count).map(move |i| {
            sq = table[sq][mv.dir(i)] as usize;
            sq
        })
    }

    /// Judges a position as it is read, as after a move by the player not to move: the
    /// Court rule from the third ply on, then the ply limit, then a player who cannot move.
    fn judge_text(&mut self) {
        let mover = 1 - self.side as usize;
        let verdict = if self.ply >= 3 {
            Self::court_verdict(&self.pieces, mover)
        } else {
            None
        };
        self.outcome = match verdict {
            Some(outcome) => outcome,
            None if self.ply >= self.params.max_plies => Outcome::Draw,
            None if !self.has_move() => Outcome::Win(mover as u8),
            None => Outcome::Ongoing,
        };
    }

    /// The direction of a colour's opening step when its pieces `now` are its start pieces
    /// with one piece moved from the ring onto the Court square beside it; else `None`.
    fn opening_step_of(colour: usize, now: u64) -> Option<usize> {
        let start = START_PIECES[colour];
        let (gone, came) = (start & !now, now & !start);
        if gone.count_ones() != 1 {
            return None;
        }
        (0..4).find(|&d| gone & RING[d] != 0 && shift(gone, d) == came)
    }

    /// Checks that a text at ply count 0, 1 or 2 shows a position the opening reaches: the
    /// start, the start after one of Red's opening steps, or after that and Green's.
    fn check_opening(pieces: &[u64; 2], side: usize, ply: u32) -> Result<(), Error> {
        let to_move = ply as usize % 2;
        if side != to_move {
            let when = match ply {
                0 => "opening ply 1",
                1 => "opening ply 2",
                _ => "the first ply after the opening",
            };
            return Err(bad_position!(
                "at ply count {ply} {} is to move ({when}), not {}",
                NAMES[to_move],
                NAMES[side]
            ));
        }
        if ply == 0 {
            if *pieces != START_PIECES {
                return Err(bad_position!(
                    "a position at ply count 0 must be the start, '{START}' (no move has been made)"
                ));
            }
            return Ok(());
        }
        let Some(red) = Self::opening_step_of(RED, pieces[RED]) else {
            return Err(bad_position!(
                "at ply count {ply} Red's pieces must stand as after Red's opening step: \
                 the start with one Red piece moved from beside the Court (c2-f2, c7-f7, \
                 b3-b6 or g3-g6) onto the Court square next to it"
            ));
        };
        if ply == 1 {
            if pieces[GREEN] != START_PIECES[GREEN] {
                return Err(bad_position!(
                    "at ply count 1 only Red has moved: Green's pieces must stand as at the start"
                ));
            }
            return Ok(());
        }
        let Some(green) = Self::opening_step_of(GREEN, pieces[GREEN]) else {
            return Err(bad_position!(
                "at ply count 2 Green's pieces must stand as after Green's opening step: \
                 the start with one Green piece moved from {} (opposite Red's entry) onto \
                 the Court square next to it",
                RING_NAMES[red ^ 2]
            ));
        };
        if green != red ^ 2 {
            return Err(bad_position!(
                "at ply count 2 Green's opening step must come from the side opposite Red's: \
                 Red entered from {}, so Green enters from {}, not {}",
                RING_NAMES[red],
                RING_NAMES[red ^ 2],
                RING_NAMES[green]
            ));
        }
        Ok(())
    }
}

impl Game for KingsCourt {
    const NAME: &'static str = "kings_court";
    const TITLE: &'static str = "King's Court";

    type Params = KingsCourtParams;

    type Move = KingsCourtMove;

    fn params(&self) -> &KingsCourtParams {
        &self.params
    }

    fn start(params: &KingsCourtParams) -> Self {
        match Self::from_text(START, params) {
            Ok(state) => state,
            Err(e) => unreachable!("the start position is valid: {e}"),
        }
    }

    fn current_player(&self) -> usize {
        self.side as usize
    }

    fn num_players(&self) -> usize {
        2
    }

    fn outcome(&self) -> Outcome {
        self.outcome
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn transposition_key(&self, depth: u32) -> u64 {
        // Everything but the ply count is hashed.
        if depth >= SYMMETRIC_KEY_DEPTH && !self.in_opening() {
            self.symmetric_key()
        } else {
            self.hash
        }
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for colour in [RED, GREEN] {
            for sq in squares(self.pieces[colour]) {
                h ^= PIECE_KEYS[sq * 2 + colour];
            }
        }
        if self.side as usize == GREEN {
            h ^= GREEN_TO_MOVE_KEY;
        }
        h ^ phase_key(self.ply)
    }

    #[inline]
    fn scan_moves<B>(
        &self,
        visit: &mut impl FnMut(KingsCourtMove) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        if self.outcome != Outcome::Ongoing {
            return ControlFlow::Continue(());
        }
        let mut stopped = None;
        self.for_each_move(|mv| match visit(mv) {
            ControlFlow::Continue(()) => false,
            ControlFlow::Break(value) => {
                stopped = Some(value);
                true
            }
        });
        match stopped {
            Some(value) => ControlFlow::Break(value),
            None => ControlFlow::Continue(()),
        }
    }

    fn count_moves(&self) -> u64 {
        if self.outcome != Outcome::Ongoing {
            return 0;
        }
        if self.in_opening() {
            return self
                .opening_steps()
                .iter()
                .map(|m| u64::from(m.count_ones()))
                .sum();
        }
        self.count_after_opening(&jump_masks(self.occupied()), |_, _| {})
    }

    /// Counting is cheaper than generating here (playouts run faster than by filling a
    /// buffer); the same draw either way.
    #[inline]
    fn random_move<const N: usize>(
        &self,
        rng: &mut crate::rng::SplitMix64,
        _buffer: &mut crate::game::MoveBuffer<KingsCourtMove, N>,
    ) -> Option<(KingsCourtMove, u64)> {
        if self.outcome != Outcome::Ongoing || self.in_opening() {
            return crate::game::count_then_pick(self, rng);
        }
        // count_moves, keeping each first landing's continuations for the pick.
        let masks = jump_masks(self.occupied());
        // Only first landings inside the jump sources are kept; see `continuations` for u16.
        let mut chains_from = [0u16; SQUARES];
        let n = self.count_after_opening(&masks, |first, chains| {
            debug_assert!(chains <= u64::from(u16::MAX));
            chains_from[first] = chains as u16;
        });
        if n == 0 {
            return None;
        }
        let index = rng.below(n);
        let mv = self.pick_after_opening(&masks, index, |first| u64::from(chains_from[first]))?;
        Some((mv, n))
    }

    /// Found by skipping whole groups of moves by their counts
    /// ([`KingsCourt::pick_after_opening`]); the opening's few steps are walked.
    fn nth_move(&self, index: u64) -> Option<KingsCourtMove> {
        if self.outcome != Outcome::Ongoing {
            return None;
        }
        if self.in_opening() {
            let mut seen = 0;
            return self.find_move(|_| {
                seen += 1;
                seen > index
            });
        }
        let masks = jump_masks(self.occupied());
        let sources = jump_sources(&masks);
        self.pick_after_opening(&masks, index, |first| continuations(&masks, sources, first))
    }

    fn play_unchecked(&mut self, mv: KingsCourtMove) {
        let mover = self.side as usize;
        let opponent = 1 - mover;
        let from = mv.from();
        // Opponent pieces jumped stay on the board until the move ends, then go at once
        // (each once, however often it was jumped).
        let mut captured = 0u64;
        let mut sq = from;
        if mv.jumps() == 0 {
            sq = NEIGHBOUR[from][mv.dir(0)] as usize;
        } else {
            for i in 0..mv.jumps() {
                let d = mv.dir(i);
                captured |= bit(NEIGHBOUR[sq][d] as usize);
                sq = LANDING[sq][d] as usize;
            }
            captured &= self.pieces[opponent];
        }
        self.set_piece(from, mover, false);
        self.set_piece(sq, mover, true);
        for c in squares(captured) {
            self.set_piece(c, opponent, false);
        }

        let court_rule = !self.in_opening();
        self.hash ^= phase_key(self.ply);
        self.ply += 1;
        self.hash ^= phase_key(self.ply);
        self.side ^= 1;
        self.hash ^= GREEN_TO_MOVE_KEY;

        let verdict = if court_rule {
            Self::court_verdict(&self.pieces, mover)
        } else {
            None
        };
        self.outcome = match verdict {
            Some(outcome) => outcome,
            None if self.ply >= self.params.max_plies => Outcome::Draw,
            None if !self.has_move() => Outcome::Win(mover as u8),
            None => Outcome::Ongoing,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Session;

    fn params() -> KingsCourtParams {
        KingsCourtParams::default()
    }

    fn moves(state: &KingsCourt) -> Vec<String> {
        let mut out = Vec::new();
        state.generate_moves(&mut |mv| out.push(state.move_text(mv)));
        out.sort();
        out
    }

    #[test]
    fn start_text_round_trips() {
        let s = KingsCourt::start(&params());
        assert_eq!(s.text(), START);
        assert_eq!(s.hash(), s.hash_from_scratch());
        assert_eq!(
            moves(&s),
            ["b4-c4", "b6-c6", "c7-c6", "d2-d3", "e7-e6", "f2-f3", "g3-f3", "g5-f5"]
        );
    }

    #[test]
    fn court_mask_is_c3_to_f6() {
        let names: Vec<String> = squares(COURT).map(square_name).collect();
        assert_eq!(names.len(), 16);
        assert_eq!(names[0], "c3");
        assert_eq!(names[15], "f6");
    }

    #[test]
    fn start_perft_matches_the_rules_page() {
        let s = KingsCourt::start(&params());
        let expected = [1, 8, 16, 416, 11072, 320224];
        for (depth, &n) in expected.iter().enumerate() {
            assert_eq!(crate::perft::perft(&s, depth as u32), n, "depth {depth}");
            assert_eq!(
                crate::perft::perft_no_bulk(&s, depth as u32),
                n,
                "depth {depth} without bulk counting"
            );
        }
    }

    #[test]
    fn every_position_of_the_opening_reads_back_and_others_do_not() {
        let start = KingsCourt::start(&params());
        let mut reached = 0;
        start.generate_moves(&mut |red| {
            let mut one = start.clone();
            one.play_unchecked(red);
            let again = KingsCourt::from_text(&one.text(), &params()).expect("ply 1 reads");
            assert_eq!(moves(&again), moves(&one));
            assert_eq!(again.hash(), one.hash());
            assert_eq!(one.count_moves(), 2);
            one.generate_moves(&mut |green| {
                let mut two = one.clone();
                two.play_unchecked(green);
                let again = KingsCourt::from_text(&two.text(), &params()).expect("ply 2 reads");
                assert_eq!(moves(&again), moves(&two));
                reached += 1;
                // The same board one ply count earlier or with the other side to move is refused.
                let placement = two.text().split(' ').next().unwrap_or_default().to_string();
                for bad in [format!("{placement} g 1"), format!("{placement} g 2")] {
                    assert!(KingsCourt::from_text(&bad, &params()).is_err(), "{bad}");
                }
            });
        });
        assert_eq!(reached, 16);
    }

    #[test]
    fn the_court_rule_ends_the_game() {
        let outcome = |text: &str, mv: &str| {
            let mut s = KingsCourt::from_text(text, &params()).expect("valid");
            let m = s.parse_move(mv).expect("legal");
            s.play_unchecked(m);
            assert_eq!(s.hash(), s.hash_from_scratch());
            s.outcome()
        };
        let last_two = "7G/8/8/8/4RG2/8/8/R7";
        assert_eq!(outcome(&format!("{last_two} r 20"), "e4xg4"), Outcome::Draw);
        assert_eq!(
            outcome(&format!("{last_two} r 20"), "e4-e5"),
            Outcome::Ongoing
        );
        assert_eq!(
            outcome(&format!("{last_two} g 20"), "f4xd4"),
            Outcome::Win(1)
        );
        assert_eq!(
            outcome(&format!("{last_two} g 20"), "f4-g4"),
            Outcome::Win(0)
        );
    }

    #[test]
    fn fifteen_jump_chains_round_trip() {
        // The 4x4 sublattice of a1 is empty and every square between is full: the chains
        // from a1 that visit all 16 squares are the 52 Hamiltonian paths from a corner.
        let text = "G1G1G1G1/1R1R1R1R/G1G1G1G1/1R1R1R1R/G1G1G1G1/1R1R1R1R/G1G1G1G1/RR1R1R1R r 10";
        let state = KingsCourt::from_text(text, &params()).expect("valid");
        let mut longest = 0;
        state.generate_moves(&mut |mv| {
            if mv.jumps() == KingsCourtMove::MAX_JUMPS {
                longest += 1;
                let text = state.move_text(mv);
                assert_eq!(state.parse_move(&text), Ok(mv), "{text}");
            }
        });
        assert_eq!(longest, 52);
        assert_eq!(state.count_moves(), moves(&state).len() as u64);
    }

    #[test]
    fn count_matches_generation_and_moves_parse_back() {
        // Walk a few plies of a fixed line and check every position.
        let mut session = Session::<KingsCourt>::new(&[]).expect("start");
        for _ in 0..40 {
            let state = session.state().clone();
            let list = moves(&state);
            assert_eq!(state.count_moves(), list.len() as u64);
            assert_eq!(state.hash(), state.hash_from_scratch());
            for text in &list {
                let mv = state.parse_move(text).expect("a generated move parses");
                assert_eq!(&state.move_text(mv), text);
            }
            let Some(mv) = list.get(list.len() / 2) else {
                break;
            };
            session.play(mv).expect("legal");
        }
    }

    #[test]
    fn the_draw_and_nth_move_give_the_generated_moves() {
        // Along random games (and in the position of the longest chains): nth_move(k) is
        // the k-th generated move, and random_move draws as the walk over them would.
        let long = "G1G1G1G1/1R1R1R1R/G1G1G1G1/1R1R1R1R/G1G1G1G1/1R1R1R1R/G1G1G1G1/RR1R1R1R r 10";
        let mut positions = vec![KingsCourt::from_text(long, &params()).expect("valid")];
        let mut buffer = crate::game::MoveBuffer::<KingsCourtMove>::new();
        for game in 0..60 {
            let mut rng = crate::rng::SplitMix64::stream(3, game);
            let mut state = KingsCourt::start(&params());
            while let Some((mv, _)) = state.random_move(&mut rng, &mut buffer) {
                positions.push(state.clone());
                state.play_unchecked(mv);
            }
            positions.push(state);
        }
        let mut rng = crate::rng::SplitMix64::new(9);
        for state in &positions {
            let mut all = Vec::new();
            state.generate_moves(&mut |mv| all.push(mv));
            for (k, &mv) in all.iter().enumerate() {
                assert_eq!(state.nth_move(k as u64), Some(mv), "move {k} of {}", state.text());
            }
            assert_eq!(state.nth_move(all.len() as u64), None);
            let mut again = rng.clone();
            let drawn = state.random_move(&mut rng, &mut buffer);
            let expected = (!all.is_empty()).then(|| {
                let index = again.below(all.len() as u64);
                (all[index as usize], all.len() as u64)
            });
            assert_eq!(drawn, expected, "{}", state.text());
            assert_eq!(rng.clone().next_u64(), again.next_u64());
        }
        assert!(positions.len() > 3000, "{}", positions.len());
    }

    /// `state` moved by symmetry `g` of the board.
    fn image(state: &KingsCourt, g: usize) -> KingsCourt {
        let mut out = state.clone();
        for colour in [RED, GREEN] {
            out.pieces[colour] =
                squares(state.pieces[colour]).fold(0, |b, sq| b | bit(SYMMETRIES[g][sq] as usize));
        }
        out.hash = out.hash_from_scratch();
        out
    }

    #[test]
    fn mirror_images_after_the_opening_share_their_counts_and_key() {
        // Positions along a line of play with jumps and captures: each of the eight images
        // has the same perft counts (the fact the symmetric key relies on) and the same key.
        let checked = zobrist::check_mirror_images(
            KingsCourt::start(&params()),
            image,
            SYMMETRIC_KEY_DEPTH,
            2,
            60,
            |_| {},
        );
        assert!(checked >= 10, "only {checked} positions");
        // In the opening the key is the hash: Red's and Green's ring squares differ.
        let start = KingsCourt::start(&params());
        assert_eq!(start.transposition_key(7), start.hash);
    }
}
