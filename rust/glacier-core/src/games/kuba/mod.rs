//! Kuba (docs/rules/kuba.md).
//!
//! A 7x7 board of White, Black and Red marbles. A push moves one of the mover's marbles a
//! square along a file or rank, carrying the contiguous row in front of it; a marble pushed
//! off the edge is captured (never one's own) and earns an optional bonus push.

mod encoding;
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

// Zobrist keys (seed and indices documented in docs/rules/kuba.md).
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
    board: [u8; SQUARES],
    /// 0 = White, 1 = Black.
    side: u8,
    bonus: bool,
    /// The forbidden push (`from * 4 + dir`) or `KubaMove::NO_KO`.
    ko: u8,
    reds: [u8; 2],
    /// Opponent marbles captured by each player.
    captured: [u8; 2],
    /// Each player's marbles on the board.
    marbles: [u8; 2],
    ply: u32,
    outcome: Outcome,
    hash: u64,
    params: KubaParams,
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
    /// Where a push from `from` in `dir` would end: the square of the row's front marble and
    /// whether that marble leaves the board. `None` when the push is not allowed (the square
    /// behind is occupied, or the mover's own marble would leave the board).
    #[inline]
    fn push_row(&self, from: usize, dir: usize) -> Option<(usize, bool)> {
        let behind = NEIGHBOUR[from][dir ^ 2];
        if behind != OFF && self.board[behind as usize] != EMPTY {
            return None;
        }
        let mut sq = from;
        loop {
            let next = NEIGHBOUR[sq][dir];
            if next == OFF {
                return (self.board[sq] != self.board[from]).then_some((sq, true));
            }
            if self.board[next as usize] == EMPTY {
                return Some((sq, false));
            }
            sq = next as usize;
        }
    }

    fn has_push(&self) -> bool {
        self.scan_pushes(&mut |_| ControlFlow::Break(())).is_break()
    }

    /// Calls `visit` for every legal push of the side to move until it breaks.
    #[inline]
    fn scan_pushes<B>(
        &self,
        visit: &mut impl FnMut(KubaMove) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let mine = colour_of(self.side as usize);
        for from in 0..SQUARES {
            if self.board[from] != mine {
                continue;
            }
            for dir in 0..4 {
                let mv = KubaMove::push(from, dir);
                if mv.0 != self.ko && self.push_row(from, dir).is_some() {
                    visit(mv)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn set_square(&mut self, sq: usize, colour: u8) {
        let old = self.board[sq];
        if old != EMPTY {
            self.hash ^= MARBLE_KEYS[sq * 3 + old as usize - 1];
        }
        if colour != EMPTY {
            self.hash ^= MARBLE_KEYS[sq * 3 + colour as usize - 1];
        }
        self.board[sq] = colour;
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
        let won = |p: usize| self.reds[p] >= REDS_TO_WIN || self.marbles[1 - p] == 0;
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

    fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for (sq, &colour) in self.board.iter().enumerate() {
            if colour != EMPTY {
                h ^= MARBLE_KEYS[sq * 3 + colour as usize - 1];
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
        let Some((front, leaves)) = self.push_row(from, dir) else {
            debug_assert!(false, "play() given an illegal push {mv:?}");
            return;
        };
        let captured = if leaves { self.board[front] } else { EMPTY };
        // Move the row one square along, front first, so every target is already empty.
        let mut sq = front;
        if leaves {
            self.set_square(front, EMPTY);
            sq = NEIGHBOUR[front][dir ^ 2] as usize;
        }
        loop {
            let colour = self.board[sq];
            self.set_square(sq, EMPTY);
            self.set_square(NEIGHBOUR[sq][dir] as usize, colour);
            if sq == from {
                break;
            }
            sq = NEIGHBOUR[sq][dir ^ 2] as usize;
        }

        if captured == EMPTY {
            // The ko forbids pushing the front marble straight back, when it is the opponent's.
            let new_front = NEIGHBOUR[front][dir] as usize;
            if self.board[new_front] == colour_of(1 - mover) {
                self.set_ko(KubaMove::push(new_front, dir ^ 2).0);
            }
            self.set_bonus(false);
            self.pass_turn();
            self.judge_turn_end(mover);
            return;
        }

        if captured == RED {
            self.add_red(mover);
        } else {
            self.captured[mover] += 1;
            self.marbles[1 - mover] -= 1;
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
}
