//! Ice Cube Checkers (docs/rules/ice_cube_checkers.md).
//!
//! Twelve slots `a`..`l` in a counter-clockwise ring hold 5 White cubes, 5 Black cubes and
//! 2 King Kubes. A move lifts every piece of a slot holding one of the mover's cubes and
//! sows them one per slot counter-clockwise, in the mover's chosen order, the last piece
//! dropped being one of the mover's cubes. A player who controls (has cubes and no
//! opponent cubes in) every slot holding a King wins.
//!
//! A slot is stored as its three counts (White cubes, Black cubes, Kings): identical
//! pieces are indistinguishable, so a move is a slot plus a sequence of piece kinds, and
//! the moves of a slot are the distinct permutations of its multiset whose last element
//! is a mover cube. They are generated directly over the remaining counts (never by
//! filtering duplicates) and counted in bulk by a multinomial coefficient.

mod encoding;
mod facts;
mod heuristic;
#[cfg(test)]
mod search_tests;
mod text;

use crate::error::Error;
use crate::game::{Game, MoveBuffer, Notation, Outcome};
use crate::rng::SplitMix64;
use crate::params::PlyLimit;
use crate::{bad_position, zobrist};
use std::ops::ControlFlow;

/// The number of slots in the ring.
pub const SLOTS: usize = 12;

/// Piece kinds are indices into a slot's counts and the 2-bit symbols of a move:
/// 0 White cube (also player 0), 1 Black cube (player 1), 2 King Kube.
const KING: usize = 2;
const KIND_CHARS: [char; 3] = ['W', 'B', 'K'];
/// How many pieces of each kind there are, all of them always on the board.
const TOTALS: [u32; 3] = [5, 5, 2];
const KIND_NAMES: [&str; 3] = ["White cubes", "Black cubes", "King Kubes"];
const PLAYER_NAMES: [&str; 2] = ["White", "Black"];

const START: &str = "W/W/W/K/W/W/B/B/B/K/B/B w 0";

/// `MULTINOMIAL[w][b][k]`: the number of distinct orders of `w` White cubes, `b` Black
/// cubes and `k` Kings, `(w + b + k)! / (w! b! k!)` (at most 6930, for 5, 4 and 2).
const MULTINOMIAL: [[[u64; 3]; 6]; 6] = {
    let mut fact = [1u64; 13];
    let mut i = 1;
    while i < 13 {
        fact[i] = fact[i - 1] * i as u64;
        i += 1;
    }
    let mut table = [[[0u64; 3]; 6]; 6];
    let mut w = 0;
    while w < 6 {
        let mut b = 0;
        while b < 6 {
            let mut k = 0;
            while k < 3 {
                table[w][b][k] = fact[w + b + k] / (fact[w] * fact[b] * fact[k]);
                k += 1;
            }
            b += 1;
        }
        w += 1;
    }
    table
};

// Zobrist keys (seed and indices documented in docs/rules/ice_cube_checkers.md).
const ZOBRIST_SEED: u64 = 0x0049_4345_4355_4245; // "ICECUBE"
/// Index `(slot * 3 + kind) * 6 + count`, count 1..=5: that slot holds exactly `count`
/// pieces of that kind (an absent kind has no key).
const COUNT_KEYS: [u64; SLOTS * 3 * 6] = zobrist::table(ZOBRIST_SEED, 0);
/// Index 216: Black to move.
const BLACK_TO_MOVE_KEY: u64 = zobrist::key(ZOBRIST_SEED, (SLOTS * 3 * 6) as u64);

#[inline]
fn count_key(slot: usize, kind: usize, count: u8) -> u64 {
    if count == 0 {
        0
    } else {
        COUNT_KEYS[(slot * 3 + kind) * 6 + count as usize]
    }
}

/// A move: bits 0-3 the picked slot, bits 4-7 the number of pieces dropped, then two bits
/// per dropped piece (0 White, 1 Black, 2 King), the first drop in bits 8-9.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct IceCubeCheckersMove(u32);

impl IceCubeCheckersMove {
    #[inline]
    fn slot(self) -> usize {
        (self.0 & 0xF) as usize
    }
    #[inline]
    fn len(self) -> usize {
        ((self.0 >> 4) & 0xF) as usize
    }
    #[inline]
    fn piece(self, i: usize) -> usize {
        ((self.0 >> (8 + 2 * i)) & 3) as usize
    }
}

/// The only parameter is the ply limit (default 200).
pub type IceCubeCheckersParams = PlyLimit<200>;

#[derive(Clone, Debug)]
pub struct IceCubeCheckers {
    /// Per slot: White cubes, Black cubes, Kings.
    slots: [[u8; 3]; SLOTS],
    /// Per kind, bit `slot` set when the slot holds at least one piece of that kind
    /// (derived from `slots`, kept for fast control tests).
    present: [u16; 3],
    /// 0 = White, 1 = Black.
    side: u8,
    ply: u32,
    outcome: Outcome,
    hash: u64,
    params: IceCubeCheckersParams,
}

fn slot_letter(slot: usize) -> char {
    (b'a' + slot as u8) as char
}

/// Calls `visit` with every distinct sequence of the multiset `rest` (counts per kind, `n`
/// pieces in all), appended to `acc` from position `pos` on, until it breaks. The distinct
/// permutations of a multiset are exactly: for each kind still present, that kind first,
/// then the distinct permutations of what remains; so no sequence is produced twice.
#[inline]
fn sequences<B>(
    rest: &mut [u8; 3],
    n: usize,
    pos: usize,
    acc: u32,
    visit: &mut impl FnMut(u32) -> ControlFlow<B>,
) -> ControlFlow<B> {
    if n == 0 {
        return visit(acc);
    }
    for kind in 0..3 {
        if rest[kind] > 0 {
            rest[kind] -= 1;
            let flow = sequences(
                rest,
                n - 1,
                pos + 1,
                acc | (kind as u32) << (8 + 2 * pos),
                visit,
            );
            rest[kind] += 1;
            flow?;
        }
    }
    ControlFlow::Continue(())
}

impl IceCubeCheckers {
    #[inline]
    fn set_count(&mut self, slot: usize, kind: usize, count: u8) {
        let old = self.slots[slot][kind];
        self.hash ^= count_key(slot, kind, old) ^ count_key(slot, kind, count);
        self.slots[slot][kind] = count;
        if count == 0 {
            self.present[kind] &= !(1 << slot);
        } else {
            self.present[kind] |= 1 << slot;
        }
    }

    /// The slots `player` controls (bit per slot): at least one of its cubes and none of
    /// the opponent's.
    #[inline]
    fn controlled(&self, player: usize) -> u16 {
        self.present[player] & !self.present[1 - player]
    }

    /// Whether `player` controls every slot that holds a King.
    #[inline]
    fn holds_the_kings(&self, player: usize) -> bool {
        self.present[KING] & !self.controlled(player) == 0
    }

    fn controlled_slots(&self, player: usize) -> u32 {
        self.controlled(player).count_ones()
    }

    /// The tie-break at the ply limit: more controlled slots wins, equal is a draw.
    fn tie_break(&self) -> Outcome {
        let (white, black) = (self.controlled_slots(0), self.controlled_slots(1));
        match white.cmp(&black) {
            std::cmp::Ordering::Greater => Outcome::Win(0),
            std::cmp::Ordering::Less => Outcome::Win(1),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// Judges the state: `first` (the player who just moved) wins if it holds the Kings,
    /// then the other player; then the ply limit.
    fn judge(&mut self, first: usize) {
        self.outcome = if self.holds_the_kings(first) {
            Outcome::Win(first as u8)
        } else if self.holds_the_kings(1 - first) {
            Outcome::Win(1 - first as u8)
        } else if self.ply >= self.params.max_plies {
            self.tie_break()
        } else {
            Outcome::Ongoing
        };
    }
}

impl Game for IceCubeCheckers {
    const NAME: &'static str = "ice_cube_checkers";
    const TITLE: &'static str = "Ice Cube Checkers";

    type Params = IceCubeCheckersParams;

    type Move = IceCubeCheckersMove;

    fn params(&self) -> &IceCubeCheckersParams {
        &self.params
    }

    fn start(params: &IceCubeCheckersParams) -> Self {
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

    fn transposition_key(&self, _depth: u32) -> u64 {
        // Everything but the ply count is hashed.
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for (slot, counts) in self.slots.iter().enumerate() {
            for (kind, &count) in counts.iter().enumerate() {
                h ^= count_key(slot, kind, count);
            }
        }
        if self.side == 1 {
            h ^= BLACK_TO_MOVE_KEY;
        }
        h
    }

    #[inline]
    fn scan_moves<B>(
        &self,
        visit: &mut impl FnMut(IceCubeCheckersMove) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        if self.outcome != Outcome::Ongoing {
            return ControlFlow::Continue(());
        }
        let mover = self.side as usize;
        let mut pickable = self.present[mover];
        while pickable != 0 {
            let slot = pickable.trailing_zeros() as usize;
            pickable &= pickable - 1;
            let mut rest = self.slots[slot];
            let n = (rest[0] + rest[1] + rest[2]) as usize;
            // The last drop is fixed to a mover cube; the first n - 1 are any distinct order
            // of the rest.
            rest[mover] -= 1;
            let base = slot as u32 | (n as u32) << 4 | (mover as u32) << (8 + 2 * (n - 1));
            sequences(&mut rest, n - 1, 0, base, &mut |code| {
                visit(IceCubeCheckersMove(code))
            })?;
        }
        ControlFlow::Continue(())
    }

    fn count_moves(&self) -> u64 {
        if self.outcome != Outcome::Ongoing {
            return 0;
        }
        let mover = self.side as usize;
        let mut total = 0;
        let mut pickable = self.present[mover];
        while pickable != 0 {
            let slot = pickable.trailing_zeros() as usize;
            pickable &= pickable - 1;
            let mut rest = self.slots[slot];
            rest[mover] -= 1;
            // The last drop is a mover cube; the others are any distinct order of the rest.
            total += MULTINOMIAL[rest[0] as usize][rest[1] as usize][rest[2] as usize];
        }
        total
    }

    /// Counting is a table look-up per slot, and the move drawn is built straight from its
    /// index (the sequences of a slot come in the order of their kinds, and the number
    /// starting with each prefix is a multinomial), so no move is generated: the same move
    /// as `nth_move(rng.below(count_moves()))`.
    fn random_move<const N: usize>(
        &self,
        rng: &mut SplitMix64,
        _buffer: &mut MoveBuffer<IceCubeCheckersMove, N>,
    ) -> Option<(IceCubeCheckersMove, u64)> {
        let count = self.count_moves();
        if count == 0 {
            return None;
        }
        let mut index = rng.below(count);
        let mover = self.side as usize;
        let mut pickable = self.present[mover];
        while pickable != 0 {
            let slot = pickable.trailing_zeros() as usize;
            pickable &= pickable - 1;
            let mut rest = self.slots[slot];
            let n = (rest[0] + rest[1] + rest[2]) as usize;
            rest[mover] -= 1;
            let orders = MULTINOMIAL[rest[0] as usize][rest[1] as usize][rest[2] as usize];
            if index >= orders {
                index -= orders;
                continue;
            }
            let mut code = slot as u32 | (n as u32) << 4 | (mover as u32) << (8 + 2 * (n - 1));
            for pos in 0..n - 1 {
                for kind in 0..3 {
                    if rest[kind] == 0 {
                        continue;
                    }
                    rest[kind] -= 1;
                    let below = MULTINOMIAL[rest[0] as usize][rest[1] as usize][rest[2] as usize];
                    if index < below {
                        code |= (kind as u32) << (8 + 2 * pos);
                        break;
                    }
                    index -= below;
                    rest[kind] += 1;
                }
            }
            return Some((IceCubeCheckersMove(code), count));
        }
        None
    }

    fn play_unchecked(&mut self, mv: IceCubeCheckersMove) {
        let mover = self.side as usize;
        let from = mv.slot();
        for kind in 0..3 {
            self.set_count(from, kind, 0);
        }
        let mut to = from;
        for i in 0..mv.len() {
            to = if to + 1 == SLOTS { 0 } else { to + 1 };
            let kind = mv.piece(i);
            self.set_count(to, kind, self.slots[to][kind] + 1);
        }
        self.ply += 1;
        self.side ^= 1;
        self.hash ^= BLACK_TO_MOVE_KEY;
        self.judge(mover);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> IceCubeCheckersParams {
        IceCubeCheckersParams::default()
    }

    fn moves(state: &IceCubeCheckers) -> Vec<String> {
        let mut out = Vec::new();
        state.generate_moves(&mut |mv| out.push(state.move_text(mv)));
        out.sort();
        out
    }

    #[test]
    fn start_text_round_trips() {
        let s = IceCubeCheckers::start(&params());
        assert_eq!(s.text(), START);
        assert_eq!(s.hash(), s.hash_from_scratch());
        assert_eq!(moves(&s), ["a:W", "b:W", "c:W", "e:W", "f:W"]);
    }

    #[test]
    fn start_perft_matches_the_rules_page() {
        let s = IceCubeCheckers::start(&params());
        let expected = [1, 5, 25, 110, 482, 1975, 8098];
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
    fn moves_are_distinct_and_counted_by_the_formula() {
        // Slot a holds everything: 5 W, 5 B, 2 K. White's moves: 11! / (4! 5! 2!) = 6930.
        let s = IceCubeCheckers::from_text("WWWWWBBBBBKK/-/-/-/-/-/-/-/-/-/-/- w 0", &params())
            .expect("valid");
        let all = moves(&s);
        assert_eq!(all.len(), 6930);
        assert_eq!(s.count_moves(), 6930);
        let mut unique = all.clone();
        unique.dedup();
        assert_eq!(unique.len(), all.len());
        for text in &all {
            let mv = s.parse_move(text).expect("generated moves parse");
            assert_eq!(&s.move_text(mv), text);
            let mut child = s.clone();
            child.play_unchecked(mv);
            assert_eq!(child.hash(), child.hash_from_scratch());
            let reread = IceCubeCheckers::from_text(&child.text(), &params()).expect("valid");
            assert_eq!(child.present, reread.present, "slot masks after {text}");
            assert_eq!(
                child.slots[0],
                [1, 0, 0],
                "the last White cube lands back in a"
            );
        }
    }
}
