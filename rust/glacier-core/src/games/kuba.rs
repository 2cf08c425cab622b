//! Kuba (docs/rules/kuba.md).
//!
//! A 7x7 board of White, Black and Red marbles. A push moves one of the mover's marbles a
//! square along a file or rank, carrying the contiguous row in front of it; a marble pushed
//! off the edge is captured (never one's own) and earns an optional bonus push.

use crate::error::Error;
use crate::game::{ActionEncoding, Game, Notation, Observation, Outcome};
use crate::notation::{parse_count, parse_placement, write_placement};
use crate::params::PlyLimit;
use crate::{bad_position, zobrist};
use std::fmt::Write as _;
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

    fn placement(&self) -> String {
        write_placement(SIZE, |sq| match self.board[sq] {
            EMPTY => None,
            colour => Some(['W', 'B', 'R'][colour as usize - 1]),
        })
    }

    fn push_text(push: u8) -> String {
        let mv = KubaMove(push);
        let (a, b) = (square_name(mv.from()), square_name(mv.to()));
        [a[0], a[1], b[0], b[1]]
            .iter()
            .map(|&c| c as char)
            .collect()
    }

    fn parse_placement(text: &str) -> Result<[u8; SQUARES], Error> {
        let letters = parse_placement(text, SIZE, "WBR", "Kuba placement", "")?;
        let mut board = [EMPTY; SQUARES];
        for (cell, letter) in board.iter_mut().zip(letters) {
            *cell = match letter {
                b'W' => WHITE,
                b'B' => BLACK,
                b'R' => RED,
                _ => EMPTY,
            };
        }
        Ok(board)
    }

    fn parse_pair(field: &str, what: &str) -> Result<[u8; 2], Error> {
        let parsed = field
            .split_once(',')
            .and_then(|(a, b)| Some([parse_count(a)?, parse_count(b)?]));
        match parsed {
            Some([a, b]) if a <= 255 && b <= 255 => Ok([a as u8, b as u8]),
            _ => Err(bad_position!(
                "{what} must be '<reds>,<marbles>' with two numbers, got '{field}'"
            )),
        }
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

impl Notation for Kuba {
    fn from_text(text: &str, params: &KubaParams) -> Result<Self, Error> {
        let fields: Vec<&str> = text.split(' ').collect();
        let [placement, side, white, black, bonus, ko, ply] = fields[..] else {
            return Err(bad_position!(
                "a Kuba position has 7 fields separated by single spaces \
                 (placement, side, White's captures, Black's captures, bonus, ko, ply), got {}: '{text}'",
                fields.len()
            ));
        };
        let board = Self::parse_placement(placement)?;
        let side = match side {
            "w" => 0,
            "b" => 1,
            _ => {
                return Err(bad_position!(
                    "side to move must be 'w' or 'b', got '{side}'"
                ))
            }
        };
        let [white_reds, blacks_captured] = Self::parse_pair(white, "White's captures")?;
        let [black_reds, whites_captured] = Self::parse_pair(black, "Black's captures")?;
        let bonus = match bonus {
            "+" => true,
            "-" => false,
            _ => {
                return Err(bad_position!(
                    "bonus flag must be '+' or '-', got '{bonus}'"
                ))
            }
        };
        let ply = parse_count(ply)
            .ok_or_else(|| bad_position!("ply count must be a number, got '{ply}'"))?;

        let count = |colour| board.iter().filter(|&&c| c == colour).count() as u8;
        let (whites, blacks, reds) = (count(WHITE), count(BLACK), count(RED));
        if whites.checked_add(whites_captured) != Some(WHITE_MARBLES) {
            return Err(bad_position!(
                "{whites} White marbles on the board and {whites_captured} captured by Black: they must make {WHITE_MARBLES}"
            ));
        }
        if blacks.checked_add(blacks_captured) != Some(BLACK_MARBLES) {
            return Err(bad_position!(
                "{blacks} Black marbles on the board and {blacks_captured} captured by White: they must make {BLACK_MARBLES}"
            ));
        }
        if white_reds > REDS_TO_WIN || black_reds > REDS_TO_WIN {
            return Err(bad_position!(
                "no player can have captured more than {REDS_TO_WIN} Reds"
            ));
        }
        if reds + white_reds + black_reds != RED_MARBLES {
            return Err(bad_position!(
                "{reds} Reds on the board and {} captured: they must make {RED_MARBLES}",
                white_reds + black_reds
            ));
        }

        let ko = if ko == "-" {
            KubaMove::NO_KO
        } else {
            let bytes = ko.as_bytes();
            let squares =
                (bytes.len() == 4).then(|| (parse_square(&bytes[..2]), parse_square(&bytes[2..])));
            let Some((Some(from), Some(to))) = squares else {
                return Err(bad_position!(
                    "ko must be '-' or a push like 'c4c3', got '{ko}'"
                ));
            };
            let Some(dir) = (0..4).find(|&d| NEIGHBOUR[from][d] as usize == to) else {
                return Err(bad_position!(
                    "ko push '{ko}' does not go to a neighbouring square"
                ));
            };
            if bonus {
                return Err(bad_position!(
                    "a bonus turn cannot have a ko (only a turn-ending push sets one)"
                ));
            }
            if board[from] != colour_of(side) || board[to] == EMPTY {
                return Err(bad_position!(
                    "ko push '{ko}' must push back a marble of the side to move into an occupied square"
                ));
            }
            KubaMove::push(from, dir).0
        };

        let mut state = Kuba {
            board,
            side: side as u8,
            bonus,
            ko,
            reds: [white_reds, black_reds],
            captured: [blacks_captured, whites_captured],
            marbles: [whites, blacks],
            ply,
            outcome: Outcome::Ongoing,
            hash: 0,
            params: *params,
        };
        state.hash = state.hash_from_scratch();
        state.judge_text()?;
        Ok(state)
    }

    fn text(&self) -> String {
        let ko = if self.ko == KubaMove::NO_KO {
            "-".to_string()
        } else {
            Self::push_text(self.ko)
        };
        format!(
            "{} {} {},{} {},{} {} {} {}",
            self.placement(),
            ["w", "b"][self.side as usize],
            self.reds[0],
            self.captured[0],
            self.reds[1],
            self.captured[1],
            if self.bonus { '+' } else { '-' },
            ko,
            self.ply
        )
    }

    fn board_string(&self) -> String {
        let mut out = String::new();
        for rank in (0..SIZE).rev() {
            let _ = write!(out, "{} ", rank + 1);
            for file in 0..SIZE {
                out.push(' ');
                out.push(['.', 'W', 'B', 'R'][self.board[rank * SIZE + file] as usize]);
            }
            out.push('\n');
        }
        out.push_str("   a b c d e f g\n");
        let name = ["White", "Black"];
        let status = match self.outcome {
            Outcome::Ongoing => {
                format!(
                    "{} to move{}",
                    name[self.side as usize],
                    if self.bonus { " (bonus push)" } else { "" }
                )
            }
            Outcome::Draw => "draw".to_string(),
            Outcome::Win(p) => format!("{} wins", name[p as usize]),
        };
        let _ = write!(
            out,
            "{status}, ply {}\nWhite captured {} Red, {} Black; Black captured {} Red, {} White",
            self.ply, self.reds[0], self.captured[0], self.reds[1], self.captured[1]
        );
        if self.ko != KubaMove::NO_KO {
            let _ = write!(out, "; ko forbids {}", Self::push_text(self.ko));
        }
        out
    }

    fn write_move_text(&self, mv: KubaMove, out: &mut String) {
        if mv.is_pass() {
            out.push_str("pass");
        } else {
            out.push_str(&Self::push_text(mv.0));
        }
    }

    fn parse_move(&self, text: &str) -> Result<KubaMove, Error> {
        let mv = if text == "pass" {
            if !self.bonus {
                return Err(Error::IllegalMove(
                    "'pass' is only legal in a bonus turn, after a capture".into(),
                ));
            }
            KubaMove::PASS
        } else {
            let bytes = text.as_bytes();
            let squares =
                (bytes.len() == 4).then(|| (parse_square(&bytes[..2]), parse_square(&bytes[2..])));
            let Some((Some(from), Some(to))) = squares else {
                return Err(Error::IllegalMove(format!(
                    "'{text}' is not a Kuba move: expected a push like 'a1a2' (from-square, to-square) or 'pass'"
                )));
            };
            let Some(dir) = (0..4).find(|&d| NEIGHBOUR[from][d] as usize == to) else {
                return Err(Error::IllegalMove(format!(
                    "'{text}' is not a Kuba move: a push goes to a neighbouring square along a file or rank"
                )));
            };
            let mv = KubaMove::push(from, dir);
            let legal = self
                .scan_pushes(&mut |m| {
                    if m == mv {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                })
                .is_break();
            if !legal {
                let why = if self.board[from] != colour_of(self.side as usize) {
                    "there is no marble of the side to move on its from-square"
                } else if mv.0 == self.ko {
                    "the ko rule forbids pushing that marble straight back this turn"
                } else if self.push_row(from, dir).is_none() {
                    "the square behind is occupied, or it would push the mover's own marble off"
                } else {
                    "it is not legal here"
                };
                return Err(Error::IllegalMove(format!("illegal push '{text}': {why}")));
            }
            mv
        };
        Ok(mv)
    }
}

impl ActionEncoding for Kuba {
    /// Action `from * 4 + dir` for a push (0-195), 196 for `pass`.
    const NUM_DISTINCT_ACTIONS: usize = SQUARES * 4 + 1;
    const FIXED: bool = true;

    fn action_of(&self, mv: KubaMove, _index: usize) -> usize {
        if mv.is_pass() {
            SQUARES * 4
        } else {
            mv.0 as usize
        }
    }

    fn move_of_action(&self, action: usize) -> Option<KubaMove> {
        if self.outcome != Outcome::Ongoing {
            return None;
        }
        if action == SQUARES * 4 {
            return self.bonus.then_some(KubaMove::PASS);
        }
        let (from, dir) = (action / 4, action % 4);
        let legal = from < SQUARES
            && self.board[from] == colour_of(self.side as usize)
            && action as u8 != self.ko
            && self.push_row(from, dir).is_some();
        legal.then(|| KubaMove::push(from, dir))
    }

    fn action_text(action: usize) -> Option<String> {
        match action {
            a if a < SQUARES * 4 && NEIGHBOUR[a / 4][a % 4] != OFF => {
                Some(Self::push_text(a as u8))
            }
            a if a == SQUARES * 4 => Some("pass".to_string()),
            _ => None,
        }
    }
}

impl Observation for Kuba {
    /// Planes over the 7x7 board (index `plane * 49 + rank * 7 + file`, not mirrored):
    /// 0 the mover's marbles, 1 the opponent's, 2 Reds, 3 all ones in a bonus turn,
    /// 4 the ko push's from-square, 5 the mover's captured Reds / 7 (constant),
    /// 6 the opponent's captured Reds / 7 (constant).
    const OBSERVATION_SHAPE: &'static [usize] = &[7, SIZE, SIZE];

    fn observe(&self, out: &mut [f32]) {
        let me = self.side as usize;
        let (mine, theirs) = (colour_of(me), colour_of(1 - me));
        for (sq, &colour) in self.board.iter().enumerate() {
            let plane = match colour {
                EMPTY => continue,
                RED => 2,
                c if c == mine => 0,
                c if c == theirs => 1,
                _ => continue,
            };
            out[plane * SQUARES + sq] = 1.0;
        }
        let constant = |out: &mut [f32], plane: usize, value: f32| {
            out[plane * SQUARES..(plane + 1) * SQUARES].fill(value)
        };
        if self.bonus {
            constant(out, 3, 1.0);
        }
        if self.ko != KubaMove::NO_KO {
            out[4 * SQUARES + KubaMove(self.ko).from()] = 1.0;
        }
        constant(out, 5, f32::from(self.reds[me]) / f32::from(REDS_TO_WIN));
        constant(
            out,
            6,
            f32::from(self.reds[1 - me]) / f32::from(REDS_TO_WIN),
        );
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
    fn start_perft_matches_rulings() {
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
