//! King's Court's action numbers and observation tensor, for learning programs.
//!
//! A step is one action; a jump chain is one action per jump, then `stop` where the chain
//! could go on (a chain that cannot go on ends by itself, see [`crate::actions`]).

use super::*;
use crate::actions::{fraction, ActionList, QuickTake};
use crate::game::{ActionEncoding, Cell, Observation};

/// Action `STEP + from * 4 + d` steps from `from` in direction `d`.
const STEP: usize = 0;
/// Action `JUMP + from * 4 + d` jumps from `from` in direction `d`.
const JUMP: usize = SQUARES * 4;
/// Ends a jump chain that could go on.
const STOP: usize = 2 * SQUARES * 4;

/// The planes of the observation tensor.
const PLANES: usize = 9;

impl ActionEncoding for KingsCourt {
    /// 513 actions: a step or a jump from each square in each direction, and `stop`.
    const NUM_DISTINCT_ACTIONS: usize = STOP + 1;
    /// A chain has at most 15 jumps (its start and landings are distinct squares of one 4x4
    /// sublattice); `stop` is chosen only after at most 14 of them, when another is possible.
    const MAX_CHOSEN_ACTIONS: usize = 15;
    const ONE_ACTION_MOVES: bool = false;

    fn move_actions(&self, mv: KingsCourtMove, out: &mut ActionList) {
        let mut sq = mv.from();
        if mv.jumps() == 0 {
            out.push(STEP + sq * 4 + mv.dir(0));
            return;
        }
        for i in 0..mv.jumps() {
            let d = mv.dir(i);
            out.push(JUMP + sq * 4 + d);
            sq = LANDING[sq][d] as usize;
        }
        out.push(STOP);
    }

    /// The steps and first jumps, read off the bitboards (no chain is searched).
    fn for_each_first_action(&self, visit: &mut impl FnMut(usize)) {
        if self.in_opening() {
            let steps = self.opening_steps();
            for (d, &movers) in steps.iter().enumerate() {
                for from in squares(movers) {
                    visit(STEP + from * 4 + d);
                }
            }
            return;
        }
        let own = self.pieces[self.side as usize];
        let occupied = self.occupied();
        let masks = jump_masks(occupied);
        for (d, &jumpers) in masks.iter().enumerate() {
            for from in squares(own & shift(!occupied, d ^ 2)) {
                visit(STEP + from * 4 + d);
            }
            for from in squares(own & jumpers) {
                visit(JUMP + from * 4 + d);
            }
        }
    }

    /// A step is a move of its own; a first jump is one when no second jump follows it.
    fn quick_take(&self, action: usize) -> QuickTake<KingsCourtMove> {
        let (from, d) = ((action % JUMP) / 4, action % 4);
        let own = self.pieces[self.side as usize];
        if self.outcome != Outcome::Ongoing || action >= STOP || own & bit(from) == 0 {
            return QuickTake::Illegal;
        }
        let occupied = self.occupied();
        if action < JUMP {
            let to = NEIGHBOUR[from][d];
            let legal = if self.in_opening() {
                self.opening_steps()[d] & bit(from) != 0
            } else {
                to != OFF && occupied & bit(to as usize) == 0
            };
            return if legal {
                QuickTake::Move(KingsCourtMove::step(from, d))
            } else {
                QuickTake::Illegal
            };
        }
        let masks = jump_masks(occupied);
        if self.in_opening() || masks[d] & bit(from) == 0 {
            return QuickTake::Illegal;
        }
        let land = LANDING[from][d] as usize;
        if jump_targets(&masks, land, bit(from) | bit(land)) == 0 {
            QuickTake::Move(KingsCourtMove::chain(from, 1, d as u64))
        } else {
            QuickTake::Choice
        }
    }

    fn action_text(action: usize) -> Option<String> {
        let (from, d) = ((action % JUMP) / 4, action % 4);
        let (table, sep) = match action {
            a if a < JUMP => (&NEIGHBOUR, '-'),
            a if a < STOP => (&LANDING, 'x'),
            STOP => return Some("stop".to_string()),
            _ => return None,
        };
        let to = table[from][d];
        (to != OFF).then(|| format!("{}{sep}{}", square_name(from), square_name(to as usize)))
    }

    /// A draw at the ply limit that the Court rule, which comes first, did not decide.
    fn ended_by_ply_limit(&self) -> bool {
        let court = self.ply >= 3 && Self::court_verdict(&self.pieces, 1 - self.side as usize).is_some();
        self.outcome == Outcome::Draw && !court && self.ply >= self.params.max_plies
    }
}

impl Observation for KingsCourt {
    /// 9 planes of 8x8 seen from `player`'s side (ranks flipped for Green, so that each
    /// player sees its pieces where Red's stand; index `plane * 64 + rank * 8 + file`):
    ///
    /// - 0 the player's pieces, 1 the opponent's, as they stand (in the middle of a jump
    ///   chain: the moving piece on its latest landing, its start square empty, the jumped
    ///   pieces still on the board);
    /// - 2 the Center Court; 3 all ones during the two opening plies; 4 the fraction of the
    ///   ply limit used (constant); 5 all ones when `player` is to move;
    /// - in the middle of a jump chain: 6 the square the next jump starts from, 7 the
    ///   squares the chain has visited (its start included), where it may not land again,
    ///   8 the opponent's pieces jumped so far (they go when the move ends).
    const OBSERVATION_SHAPE: &'static [usize] = &[PLANES, 8, 8];

    fn observation(&self, pending: &[u16], player: usize, out: &mut [f32]) {
        let me = player.min(1);
        let mover = self.side as usize;
        let mut pieces = self.pieces;
        let (mut at, mut visited, mut jumped) = (0u64, 0u64, 0u64);
        if let Some(&first) = pending.first() {
            let mut sq = (usize::from(first) - JUMP) / 4;
            pieces[mover] &= !bit(sq);
            visited = bit(sq);
            for &action in pending {
                let d = usize::from(action) % 4;
                jumped |= bit(NEIGHBOUR[sq][d] as usize);
                sq = LANDING[sq][d] as usize;
                visited |= bit(sq);
            }
            pieces[mover] |= bit(sq);
            at = bit(sq);
            jumped &= pieces[1 - mover];
        }
        let flip = |sq: usize| if me == RED { sq } else { sq ^ 56 };
        let planes = [pieces[me], pieces[1 - me], COURT];
        let chain = [at, visited, jumped];
        for (plane, board) in planes.into_iter().enumerate().chain((6..).zip(chain)) {
            for sq in squares(board) {
                out[plane * 64 + flip(sq)] = 1.0;
            }
        }
        let fill = |out: &mut [f32], plane: usize, value: f32| {
            out[plane * 64..(plane + 1) * 64].fill(value);
        };
        if self.in_opening() {
            fill(out, 3, 1.0);
        }
        fill(
            out,
            4,
            fraction(u64::from(self.ply), u64::from(self.params.max_plies)),
        );
        if mover == me {
            fill(out, 5, 1.0);
        }
    }

    /// The squares whose pieces changed (the bitboards XORed), and the constant planes
    /// whose value changed.
    fn observation_changes(
        &self,
        old: &Self,
        player: usize,
        cells: &mut Vec<Cell>,
        planes: &mut Vec<Cell>,
    ) -> bool {
        let me = player.min(1);
        let flip = |sq: usize| if me == RED { sq } else { sq ^ 56 };
        for (plane, colour) in [me, 1 - me].into_iter().enumerate() {
            let (was, now) = (old.pieces[colour], self.pieces[colour]);
            for sq in squares(was ^ now) {
                let change = if now & bit(sq) != 0 { 1.0 } else { -1.0 };
                cells.push(((plane * 64 + flip(sq)) as u32, change));
            }
        }
        let constants = |state: &Self| {
            [
                (3, f32::from(u8::from(state.in_opening()))),
                (4, fraction(u64::from(state.ply), u64::from(state.params.max_plies))),
                (5, f32::from(u8::from(state.side as usize == me))),
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
