//! Kuba's action numbers and observation tensor, for learning programs.

use super::*;
use crate::actions::{fraction, ActionList, QuickTake};
use crate::game::{ActionEncoding, Cell, Observation};

/// `pass`; a push is `from * 4 + dir`.
const PASS: usize = SQUARES * 4;

/// The planes of the observation tensor.
const PLANES: usize = 10;

impl ActionEncoding for Kuba {
    /// 197 actions: a push from each square in each direction (0-195), and `pass` (196).
    const NUM_DISTINCT_ACTIONS: usize = PASS + 1;
    /// Every push and every pass is a move of one action.
    const MAX_CHOSEN_ACTIONS: usize = 1;
    const ONE_ACTION_MOVES: bool = true;

    fn move_actions(&self, mv: KubaMove, out: &mut ActionList) {
        out.push(if mv.is_pass() { PASS } else { mv.0 as usize });
    }

    /// The push (or pass) itself, checked without generating the other moves.
    fn quick_take(&self, action: usize) -> QuickTake<KubaMove> {
        if self.outcome != Outcome::Ongoing || action > PASS {
            return QuickTake::Illegal;
        }
        if action == PASS {
            return if self.bonus {
                QuickTake::Move(KubaMove::PASS)
            } else {
                QuickTake::Illegal
            };
        }
        let (from, dir) = (action / 4, action % 4);
        if self.is_legal_push(from, dir) {
            QuickTake::Move(KubaMove::push(from, dir))
        } else {
            QuickTake::Illegal
        }
    }

    fn action_text(action: usize) -> Option<String> {
        match action {
            a if a < PASS && NEIGHBOUR[a / 4][a % 4] != OFF => Some(Self::push_text(a as u8)),
            PASS => Some("pass".to_string()),
            _ => None,
        }
    }

    /// Kuba's only draw is the ply limit's.
    fn ended_by_ply_limit(&self) -> bool {
        self.outcome == Outcome::Draw
    }
}

impl Observation for Kuba {
    /// 10 planes of 7x7 seen from `player`'s side (files mirrored for Black, which puts its
    /// marbles where White's stand; index `plane * 49 + rank * 7 + file`): 0 the player's
    /// marbles, 1 the opponent's, 2 Reds; 3 all ones in a bonus turn; 4 the square of the
    /// marble the ko forbids pushing, 5 the square that push would move it to; 6 the Reds
    /// the player has captured / 7, 7 the opponent's / 7 (constant); 8 the fraction of the
    /// ply limit used (constant); 9 all ones when `player` is to move.
    const OBSERVATION_SHAPE: &'static [usize] = &[PLANES, SIZE, SIZE];

    fn observation(&self, _pending: &[u16], player: usize, out: &mut [f32]) {
        let me = player.min(1);
        let cell = |sq: usize| {
            let file = if me == 0 { sq % SIZE } else { SIZE - 1 - sq % SIZE };
            sq / SIZE * SIZE + file
        };
        for (plane, colour) in [me, 1 - me, 2].into_iter().enumerate() {
            let mut bits = self.marbles[colour];
            while bits != 0 {
                let sq = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                out[plane * SQUARES + cell(sq)] = 1.0;
            }
        }
        if self.ko != KubaMove::NO_KO {
            let ko = KubaMove(self.ko);
            out[4 * SQUARES + cell(ko.from())] = 1.0;
            out[5 * SQUARES + cell(ko.to())] = 1.0;
        }
        let fill = |out: &mut [f32], plane: usize, value: f32| {
            out[plane * SQUARES..(plane + 1) * SQUARES].fill(value);
        };
        if self.bonus {
            fill(out, 3, 1.0);
        }
        let reds = |p: usize| f32::from(self.reds[p]) / f32::from(REDS_TO_WIN);
        fill(out, 6, reds(me));
        fill(out, 7, reds(1 - me));
        fill(
            out,
            8,
            fraction(u64::from(self.ply), u64::from(self.params.max_plies)),
        );
        if self.side as usize == me {
            fill(out, 9, 1.0);
        }
    }

    /// The squares whose marbles changed (the bitboards XORed), the ko's squares if it
    /// changed, and the constant planes whose value changed.
    fn observation_changes(
        &self,
        old: &Self,
        player: usize,
        cells: &mut Vec<Cell>,
        planes: &mut Vec<Cell>,
    ) -> bool {
        let me = player.min(1);
        let cell = |plane: usize, sq: usize| {
            let file = if me == 0 { sq % SIZE } else { SIZE - 1 - sq % SIZE };
            (plane * SQUARES + sq / SIZE * SIZE + file) as u32
        };
        for (plane, colour) in [me, 1 - me, 2].into_iter().enumerate() {
            let (was, now) = (old.marbles[colour], self.marbles[colour]);
            let mut changed = was ^ now;
            while changed != 0 {
                let sq = changed.trailing_zeros() as usize;
                changed &= changed - 1;
                let change = if now >> sq & 1 == 1 { 1.0 } else { -1.0 };
                cells.push((cell(plane, sq), change));
            }
        }
        if old.ko != self.ko {
            for (ko, change) in [(old.ko, -1.0), (self.ko, 1.0)] {
                if ko != KubaMove::NO_KO {
                    let ko = KubaMove(ko);
                    cells.push((cell(4, ko.from()), change));
                    cells.push((cell(5, ko.to()), change));
                }
            }
        }
        let constants = |state: &Self| {
            let reds = |p: usize| f32::from(state.reds[p]) / f32::from(REDS_TO_WIN);
            [
                (3, f32::from(u8::from(state.bonus))),
                (6, reds(me)),
                (7, reds(1 - me)),
                (8, fraction(u64::from(state.ply), u64::from(state.params.max_plies))),
                (9, f32::from(u8::from(state.side as usize == me))),
            ]
        };
        for ((plane, was), (_, now)) in constants(old).into_iter().zip(constants(self)) {
            if was != now {
                planes.push((plane, now - was));
            }
        }
        true
    }
}
