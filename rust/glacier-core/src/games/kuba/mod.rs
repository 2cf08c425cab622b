//! Kuba (docs/rules/kuba.md).
//!
//! A 7x7 board of White, Black and Red marbles. A push moves one of the mover's marbles a
//! square along a file or rank, carrying the contiguous row in front of it; a marble pushed
//! off the edge is captured (never one's own) and earns an optional bonus push.
//!
//! Representation: one bitboard (`u64`, bit `rank * 7 + file`, a1 = 0) per colour. The
//! legal pushes in one direction are computed for all marbles at once (`Kuba::pushers`):
//! a marble may push when the square behind it is empty (or off the board) and its row does
//! not run to the edge ending in one of the mover's own marbles. That last set is a fill
//! from the mover's marbles on the far edge backwards through occupied squares. Counting
//! moves is then a popcount, and "is there a push" stops at the first direction that has
//! one. Move generation walks the from-squares in increasing order and the directions in
//! order, so moves, hashes and action numbers are those of the square-by-square rules.

mod encoding;
mod facts;
mod heuristic;
mod text;

use crate::error::Error;
use crate::game::{Game, Notation, Outcome};
use crate::params::PlyLimit;
use crate::{bad_position, zobrist};
use std::ops::ControlFlow;

const SIZE: usize = 7;
const SQUARES: usize = SIZE * SIZE;

const EMPTY: u8 = 0;
const WHITE: u8 = 1;
const BLACK: u8 = 2;
const RED: u8 = 3;

const WHITE_MARBLES: u8 = 8;
const BLACK_MARBLES: u8 = 8;
const RED_MARBLES: u8 = 13;
/// Capturing this many Reds wins.
const REDS_TO_WIN: u8 = 7;

/// Directions, indexed 0..4: towards rank 7, towards file g, towards rank 1, towards file a.
/// `d ^ 2` is the opposite direction.
const DIRS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const OFF: u8 = u8::MAX;

const START: &str = "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0,0 0,0 - - 0";

/// Every square of the board.
const BOARD: u64 = (1 << SQUARES) - 1;
const FILE_A: u64 = 0x0408_1020_4081;
const FILE_G: u64 = FILE_A << (SIZE - 1);
const RANK_1: u64 = (1 << SIZE) - 1;
const RANK_7: u64 = RANK_1 << (SQUARES - SIZE);
/// Per direction: the squares with no neighbour that way (the edge a row is pushed off).
const EDGE: [u64; 4] = [RANK_7, FILE_G, RANK_1, FILE_A];

/// `bb` moved one square in direction `dir`; squares that would leave the board are dropped.
#[inline(always)]
const fn shift(bb: u64, dir: usize) -> u64 {
    match dir {
        0 => (bb << SIZE) & BOARD,
        1 => (bb << 1) & !FILE_A & BOARD,
        2 => bb >> SIZE,
        _ => (bb >> 1) & !FILE_G,
    }
}

/// The occluded fill of `gen` in direction `dir` through `through`: `gen` plus every square
/// of `through` reached from it by an unbroken line of `through` squares in that direction
/// (Kogge-Stone: steps of 1, 2 and 4 squares cover the six a row can span).
#[inline(always)]
const fn fill(mut gen: u64, mut through: u64, dir: usize) -> u64 {
    // A step of `n` squares along a rank must not wrap onto the next rank: `wrap` is where
    // such a step lands, taken out of `through` once; `through &= carried` then keeps only
    // squares whose `n` predecessors are in `through` too, so no longer step wraps either.
    let (step, wrap) = match dir {
        0 => (SIZE as u32, 0),
        1 => (1, FILE_A),
        2 => (SIZE as u32, 0),
        _ => (1, FILE_G),
    };
    through &= !wrap & BOARD;
    let up = dir < 2;
    let mut k = 0;
    while k < 3 {
        let n = step << k;
        let moved = if up { gen << n } else { gen >> n };
        gen |= through & moved;
        let carried = if up { through << n } else { through >> n };
        through &= carried;
        k += 1;
    }
    gen
}

/// Square index: `rank * 7 + file`, both from 0 (a1 = 0, g7 = 48).
const fn neighbour_table() -> [[u8; 4]; SQUARES] {
    let mut table = [[OFF; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (file, rank) = ((sq % SIZE) as i8, (sq / SIZE) as i8);
        let mut d = 0;
        while d < 4 {
            let (f, r) = (file + DIRS[d].0, rank + DIRS[d].1);
            if f >= 0 && f < SIZE as i8 && r >= 0 && r < SIZE as i8 {
                table[sq][d] = (r as usize * SIZE + f as usize) as u8;
            }
            d += 1;
        }
        sq += 1;
    }
    table
}
const NEIGHBOUR: [[u8; 4]; SQUARES] = neighbour_table();

/// `RAY[dir][sq]`: the squares beyond `sq` in direction `dir`, up to the edge.
const fn ray_table() -> [[u64; SQUARES]; 4] {
    let mut table = [[0; SQUARES]; 4];
    let mut dir = 0;
    while dir < 4 {
        let mut sq = 0;
        while sq < SQUARES {
            let mut next = NEIGHBOUR[sq][dir];
            while next != OFF {
                table[dir][sq] |= 1 << next;
                next = NEIGHBOUR[next as usize][dir];
            }
            sq += 1;
        }
        dir += 1;
    }
    table
}
const RAY: [[u64; SQUARES]; 4] = ray_table();

// Zobrist keys (seed and indices documented in docs/rules/kuba.md).
/// The board's rotations and reflections, as square maps (see [`zobrist::board_symmetries`]).
const SYMMETRIES: [[u8; SQUARES]; 8] = zobrist::board_symmetries(SIZE);

/// From this many plies to go, perft's key is the same for a position and its seven mirror
/// images ([`Kuba::symmetric_key`]). That key reads eight keys per piece, so it
/// is kept for states whose subtrees are large enough to repay it (at 2 plies to go a
/// subtree is a few dozen leaves); most of the gain is at the first plies anyway.
const SYMMETRIC_KEY_DEPTH: u32 = 3;

const ZOBRIST_SEED: u64 = 0x4B55_4241; // "KUBA"
/// Index `sq * 3 + (colour - 1)`: a marble of that colour on that square.
const MARBLE_KEYS: [u64; SQUARES * 3] = zobrist::table(ZOBRIST_SEED, 0);
/// Index 147: Black to move.
const BLACK_TO_MOVE_KEY: u64 = zobrist::key(ZOBRIST_SEED, 147);
/// Index 148: a bonus turn.
const BONUS_KEY: u64 = zobrist::key(ZOBRIST_SEED, 148);
/// Index `149 + push`, push = `from * 4 + dir`: the forbidden ko push.
const KO_KEYS: [u64; SQUARES * 4] = zobrist::table(ZOBRIST_SEED, 149);
/// Index `345 + player * 8 + n`, n in 1..=7: the player has captured n Reds.
const RED_KEYS: [u64; 16] = zobrist::table(ZOBRIST_SEED, 345);

/// A push (`from * 4 + dir`) or the bonus-turn pass.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct KubaMove(u8);

impl KubaMove {
    pub const PASS: KubaMove = KubaMove(u8::MAX);
    const NO_KO: u8 = u8::MAX;

    const fn push(from: usize, dir: usize) -> KubaMove {
        KubaMove((from * 4 + dir) as u8)
    }
    #[must_use]
    pub fn is_pass(self) -> bool {
        self == KubaMove::PASS
    }
    fn from(self) -> usize {
        self.0 as usize / 4
    }
    fn dir(self) -> usize {
        self.0 as usize % 4
    }
    fn to(self) -> usize {
        NEIGHBOUR[self.from()][self.dir()] as usize
    }
}

/// The only parameter is the ply limit (default 1000).
pub type KubaParams = PlyLimit<1000>;

#[derive(Clone, Debug)]
pub struct Kuba {
    /// The marbles of each colour (White, Black, Red: index `colour - 1`), one bit a square.
    marbles: [u64; 3],
    hash: u64,
    ply: u32,
    params: KubaParams,
    outcome: Outcome,
    /// 0 = White, 1 = Black.
    side: u8,
    bonus: bool,
    /// The forbidden push (`from * 4 + dir`) or `KubaMove::NO_KO`.
    ko: u8,
    /// Reds captured by each player. (Opponent marbles captured are 8 minus the opponent's
    /// marbles on the board.)
    reds: [u8; 2],
}

impl Kuba {
    /// The least of the hashes of the position's eight images under the board's rotations
    /// and reflections, the ko turned with the board. The rules treat the images alike
    /// (pushes go along files and ranks, every edge captures alike, the ko is a push and
    /// turns with its marble), so they have the same move trees: perft may count one for
    /// all.
    fn symmetric_key(&self) -> u64 {
        let mut images = [0u64; 8];
        for (colour, &marbles) in self.marbles.iter().enumerate() {
            let mut bits = marbles;
            while bits != 0 {
                let sq = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                for (image, map) in images.iter_mut().zip(&SYMMETRIES) {
                    *image ^= MARBLE_KEYS[map[sq] as usize * 3 + colour];
                }
            }
        }
        if self.ko != KubaMove::NO_KO {
            let ko = KubaMove(self.ko);
            for (g, image) in images.iter_mut().enumerate() {
                let from = SYMMETRIES[g][ko.from()] as usize;
                let dir = zobrist::DIRECTION_SYMMETRIES[g][ko.dir()] as usize;
                *image ^= KO_KEYS[from * 4 + dir];
            }
        }
        // What is not the board or the ko (side, bonus, captures) is the same for every image.
        let rest = self.hash ^ images[0];
        rest ^ images.iter().copied().min().unwrap_or(images[0])
    }
}

fn colour_of(player: usize) -> u8 {
    player as u8 + 1
}

fn square_name(sq: usize) -> [u8; 2] {
    [b'a' + (sq % SIZE) as u8, b'1' + (sq / SIZE) as u8]
}

fn parse_square(s: &[u8]) -> Option<usize> {
    match s {
        [f @ b'a'..=b'g', r @ b'1'..=b'7'] => {
            Some((r - b'1') as usize * SIZE + (f - b'a') as usize)
        }
        _ => None,
    }
}

impl Kuba {
    #[inline(always)]
    fn occupied(&self) -> u64 {
        self.marbles[0] | self.marbles[1] | self.marbles[2]
    }

    /// The colour on `sq`, or `EMPTY`.
    #[inline]
    fn colour_at(&self, sq: usize) -> u8 {
        let bit = 1 << sq;
        if self.marbles[0] & bit != 0 {
            WHITE
        } else if self.marbles[1] & bit != 0 {
            BLACK
        } else if self.marbles[2] & bit != 0 {
            RED
        } else {
            EMPTY
        }
    }

    /// The marbles on the board of `player`.
    fn marbles_of(&self, player: usize) -> u8 {
        self.marbles[player].count_ones() as u8
    }

    /// Opponent marbles captured by `player`.
    fn captured_by(&self, player: usize) -> u8 {
        [BLACK_MARBLES, WHITE_MARBLES][player] - self.marbles_of(1 - player)
    }

    /// The side to move's marbles that may push in direction `dir` (the ko aside): the
    /// square behind is empty or off the board, and the row in front does not run to the
    /// edge ending in one of the side's own marbles.
    #[inline(always)]
    fn pushers(&self, dir: usize) -> u64 {
        let mine = self.marbles[self.side as usize];
        let occupied = self.occupied();
        let behind_free = !shift(occupied, dir);
        // From an own marble on the far edge back through the row: every marble of those
        // rows would push it off.
        let own_off = fill(mine & EDGE[dir], occupied, dir ^ 2);
        mine & behind_free & !own_off
    }

    /// The ko push as a single square of `pushers(dir)` to leave out (0 when there is none).
    #[inline(always)]
    fn ko_square(&self, dir: usize) -> u64 {
        if self.ko != KubaMove::NO_KO && KubaMove(self.ko).dir() == dir {
            1 << KubaMove(self.ko).from()
        } else {
            0
        }
    }

    /// Whether the push from `from` in `dir` is legal (the ko included).
    fn is_legal_push(&self, from: usize, dir: usize) -> bool {
        (self.pushers(dir) & !self.ko_square(dir)) >> from & 1 != 0
    }

    /// Whether the side to move has a legal push; stops at the first direction with one.
    fn has_push(&self) -> bool {
        (0..4).any(|dir| self.pushers(dir) & !self.ko_square(dir) != 0)
    }

    /// The number of legal pushes of the side to move.
    fn count_pushes(&self) -> u64 {
        (0..4)
            .map(|dir| u64::from((self.pushers(dir) & !self.ko_square(dir)).count_ones()))
            .sum()
    }

    /// Calls `visit` for every legal push of the side to move, by from-square then
    /// direction, until it breaks.
    #[inline]
    fn scan_pushes<B>(
        &self,
        visit: &mut impl FnMut(KubaMove) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let by_dir: [u64; 4] =
            std::array::from_fn(|dir| self.pushers(dir) & !self.ko_square(dir));
        let mut froms = by_dir[0] | by_dir[1] | by_dir[2] | by_dir[3];
        while froms != 0 {
            let from = froms.trailing_zeros() as usize;
            froms &= froms - 1;
            for (dir, &legal) in by_dir.iter().enumerate() {
                if legal >> from & 1 != 0 {
                    visit(KubaMove::push(from, dir))?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Moves every marble of `row` one square in `dir`, updating the hash; a marble moved off
    /// the board is removed.
    fn shift_row(&mut self, row: u64, dir: usize) {
        let delta = [SIZE as isize, 1, -(SIZE as isize), -1][dir];
        for colour in 0..3 {
            let moved = self.marbles[colour] & row;
            let mut bits = moved;
            while bits != 0 {
                let sq = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.hash ^= MARBLE_KEYS[sq * 3 + colour];
                if NEIGHBOUR[sq][dir] != OFF {
                    self.hash ^= MARBLE_KEYS[(sq as isize + delta) as usize * 3 + colour];
                }
            }
            self.marbles[colour] = (self.marbles[colour] & !row) | shift(moved, dir);
        }
    }

    fn set_ko(&mut self, ko: u8) {
        if self.ko != KubaMove::NO_KO {
            self.hash ^= KO_KEYS[self.ko as usize];
        }
        if ko != KubaMove::NO_KO {
            self.hash ^= KO_KEYS[ko as usize];
        }
        self.ko = ko;
    }

    fn set_bonus(&mut self, bonus: bool) {
        if self.bonus != bonus {
            self.hash ^= BONUS_KEY;
        }
        self.bonus = bonus;
    }

    fn add_red(&mut self, player: usize) {
        let n = self.reds[player] as usize;
        if n > 0 {
            self.hash ^= RED_KEYS[player * 8 + n];
        }
        self.reds[player] += 1;
        self.hash ^= RED_KEYS[player * 8 + n + 1];
    }

    fn pass_turn(&mut self) {
        self.side ^= 1;
        self.hash ^= BLACK_TO_MOVE_KEY;
    }

    /// The end checks after a ply that hands the turn to the opponent (docs/rules/kuba.md):
    /// the ply limit, then the loss of a player who must move and cannot.
    fn judge_turn_end(&mut self, mover: usize) {
        if self.ply >= self.params.max_plies {
            self.outcome = Outcome::Draw;
        } else if !self.has_push() {
            self.outcome = Outcome::Win(mover as u8);
        }
    }

    /// Judges a position as it is read: a win, then the ply limit, then a player stuck.
    fn judge_text(&mut self) -> Result<(), Error> {
        let won = |p: usize| self.reds[p] >= REDS_TO_WIN || self.marbles_of(1 - p) == 0;
        self.outcome = match (won(0), won(1)) {
            (true, true) => return Err(bad_position!("both players have already won")),
            (true, false) => Outcome::Win(0),
            (false, true) => Outcome::Win(1),
            (false, false) if self.ply >= self.params.max_plies => Outcome::Draw,
            (false, false) if !self.bonus && !self.has_push() => Outcome::Win(1 - self.side),
            (false, false) => Outcome::Ongoing,
        };
        Ok(())
    }

    fn push_text(push: u8) -> String {
        let mv = KubaMove(push);
        let (a, b) = (square_name(mv.from()), square_name(mv.to()));
        [a[0], a[1], b[0], b[1]]
            .iter()
            .map(|&c| c as char)
            .collect()
    }
}

impl Game for Kuba {
    const NAME: &'static str = "kuba";
    const TITLE: &'static str = "Kuba";

    type Params = KubaParams;
    type Move = KubaMove;

    fn start(params: &KubaParams) -> Self {
        match Self::from_text(START, params) {
            Ok(state) => state,
            Err(e) => unreachable!("the start position is valid: {e}"),
        }
    }

    fn params(&self) -> &KubaParams {
        &self.params
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
        if depth >= SYMMETRIC_KEY_DEPTH {
            self.symmetric_key()
        } else {
            self.hash
        }
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for (colour, &marbles) in self.marbles.iter().enumerate() {
            let mut bits = marbles;
            while bits != 0 {
                let sq = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                h ^= MARBLE_KEYS[sq * 3 + colour];
            }
        }
        if self.side == 1 {
            h ^= BLACK_TO_MOVE_KEY;
        }
        if self.bonus {
            h ^= BONUS_KEY;
        }
        if self.ko != KubaMove::NO_KO {
            h ^= KO_KEYS[self.ko as usize];
        }
        for player in 0..2 {
            if self.reds[player] > 0 {
                h ^= RED_KEYS[player * 8 + self.reds[player] as usize];
            }
        }
        h
    }

    #[inline]
    fn scan_moves<B>(
        &self,
        visit: &mut impl FnMut(KubaMove) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        if self.outcome != Outcome::Ongoing {
            return ControlFlow::Continue(());
        }
        self.scan_pushes(visit)?;
        if self.bonus {
            visit(KubaMove::PASS)?;
        }
        ControlFlow::Continue(())
    }

    fn count_moves(&self) -> u64 {
        if self.outcome != Outcome::Ongoing {
            return 0;
        }
        self.count_pushes() + u64::from(self.bonus)
    }

    /// Counting is cheaper than generating here (playouts run faster than by filling a
    /// buffer); the same draw either way.
    #[inline]
    fn random_move<const N: usize>(
        &self,
        rng: &mut crate::rng::SplitMix64,
        _buffer: &mut crate::game::MoveBuffer<KubaMove, N>,
    ) -> Option<(KubaMove, u64)> {
        crate::game::count_then_pick(self, rng)
    }

    fn play_unchecked(&mut self, mv: KubaMove) {
        let mover = self.side as usize;
        self.ply += 1;
        self.set_ko(KubaMove::NO_KO);
        if mv.is_pass() {
            self.set_bonus(false);
            self.pass_turn();
            self.judge_turn_end(mover);
            return;
        }

        let (from, dir) = (mv.from(), mv.dir());
        debug_assert!(
            self.pushers(dir) >> from & 1 != 0,
            "play() given an illegal push {mv:?}"
        );
        // The row runs from `from` up to the first empty square beyond it; with none, to
        // the edge, and its front marble leaves the board.
        let ray = RAY[dir][from];
        let empties = ray & !self.occupied();
        let (row, landing) = if empties == 0 {
            (ray, None)
        } else {
            // The nearest empty square: the lowest index going up the board or towards file
            // g, the highest going the other ways.
            let first = if dir < 2 {
                empties.trailing_zeros() as usize
            } else {
                63 - empties.leading_zeros() as usize
            };
            let between = if dir < 2 {
                (1 << first) - 1
            } else {
                !((2 << first) - 1)
            };
            (ray & between, Some(first))
        };
        let captured = match landing {
            Some(_) => EMPTY,
            // The front marble is the ray's square on the edge (a legal push never starts
            // on the edge it pushes towards, so the ray is not empty).
            None => self.colour_at((EDGE[dir] & ray).trailing_zeros() as usize),
        };
        self.shift_row(row | 1 << from, dir);

        if let Some(new_front) = landing {
            // The ko forbids pushing the front marble straight back, when it is the opponent's.
            if self.marbles[1 - mover] >> new_front & 1 != 0 {
                self.set_ko(KubaMove::push(new_front, dir ^ 2).0);
            }
            self.set_bonus(false);
            self.pass_turn();
            self.judge_turn_end(mover);
            return;
        }

        if captured == RED {
            self.add_red(mover);
        }
        if self.reds[mover] >= REDS_TO_WIN || self.marbles[1 - mover] == 0 {
            self.outcome = Outcome::Win(mover as u8);
        } else if self.ply >= self.params.max_plies {
            self.outcome = Outcome::Draw;
        } else {
            self.set_bonus(true);
            return;
        }
        // The game is over: the turn still passes on, with no bonus.
        self.set_bonus(false);
        self.pass_turn();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> KubaParams {
        KubaParams::default()
    }

    #[test]
    fn start_text_round_trips() {
        let s = Kuba::start(&params());
        assert_eq!(s.text(), START);
        assert_eq!(s.hash(), s.hash_from_scratch());
    }

    /// The fill one square at a time, as the rules walk a row.
    fn fill_by_steps(gen: u64, through: u64, dir: usize) -> u64 {
        let mut out = gen;
        for _ in 0..SIZE {
            out |= shift(out, dir) & through;
        }
        out
    }

    #[test]
    fn doubling_fill_matches_steps() {
        let mut rng = crate::rng::SplitMix64::new(7);
        for _ in 0..20_000 {
            // Dense and sparse boards alike.
            let through = rng.next_u64() & rng.next_u64().rotate_left(7) & BOARD;
            let through = through | (rng.next_u64() & BOARD);
            let gen = rng.next_u64() & rng.next_u64() & through;
            for dir in 0..4 {
                assert_eq!(
                    fill(gen, through, dir),
                    fill_by_steps(gen, through, dir),
                    "gen {gen:#x} through {through:#x} dir {dir}"
                );
            }
        }
    }

    #[test]
    fn start_perft_matches_the_rules_page() {
        let s = Kuba::start(&params());
        let expected = [1, 8, 64, 640, 6384];
        for (depth, &n) in expected.iter().enumerate() {
            assert_eq!(crate::perft::perft(&s, depth as u32), n, "depth {depth}");
            assert_eq!(
                crate::perft::perft_no_bulk(&s, depth as u32),
                n,
                "depth {depth} without bulk counting"
            );
        }
    }

    /// `state` moved by symmetry `g` of the board, its ko with it.
    fn image(state: &Kuba, g: usize) -> Kuba {
        let mut out = state.clone();
        for (colour, &marbles) in state.marbles.iter().enumerate() {
            out.marbles[colour] = (0..SQUARES)
                .filter(|&sq| marbles >> sq & 1 != 0)
                .fold(0, |b, sq| b | 1 << SYMMETRIES[g][sq]);
        }
        if state.ko != KubaMove::NO_KO {
            let ko = KubaMove(state.ko);
            let dir = zobrist::DIRECTION_SYMMETRIES[g][ko.dir()] as usize;
            out.ko = KubaMove::push(SYMMETRIES[g][ko.from()] as usize, dir).0;
        }
        out.hash = out.hash_from_scratch();
        out
    }

    #[test]
    fn mirror_images_share_their_counts_and_key() {
        // Positions along a line of play with captures, bonus turns and kos: each of the
        // eight images has the same perft counts (the fact the symmetric key relies on) and
        // the same key.
        let mut kos = 0;
        let checked = zobrist::check_mirror_images(
            Kuba::start(&params()),
            image,
            SYMMETRIC_KEY_DEPTH,
            0,
            120,
            |state| kos += usize::from(state.ko != KubaMove::NO_KO),
        );
        assert!(checked >= 10 && kos >= 2, "{checked} positions, {kos} with a ko");
    }
}
