//! The action numbers and observation tensor of Ice Cube Checkers, for learning programs.
//!
//! A move is picked in parts: the slot to lift, then each piece to drop, in order. Actions
//! 0-11 are `slot a` .. `slot l`; 12, 13 and 14 are `drop W`, `drop B` and `drop K`. Drops
//! that have only one way to go on are taken by themselves (see [`crate::actions`]): a lone
//! cube, or a slot whose pieces have one order, is a move of one action.

use super::*;
use crate::actions::{fraction, ActionList, QuickTake};
use crate::game::{ActionEncoding, Observation};

/// The first drop action; `DROP + kind` drops a piece of that kind.
const DROP: usize = SLOTS;

/// The rows of the observation tensor.
const ROWS: usize = 10;

impl ActionEncoding for IceCubeCheckers {
    /// 15 actions: 12 slots and 3 kinds of piece to drop.
    const NUM_DISTINCT_ACTIONS: usize = SLOTS + 3;
    /// The slot, then at most 10 drops: of the `n <= 12` drops the last is always the
    /// mover's cube, and the one before it is forced too (two pieces are left, one of them
    /// must come last), so the player chooses at most `n - 2` drops.
    const MAX_CHOSEN_ACTIONS: usize = 11;
    const ONE_ACTION_MOVES: bool = false;

    fn move_actions(&self, mv: IceCubeCheckersMove, out: &mut ActionList) {
        out.push(mv.slot());
        for i in 0..mv.len() {
            out.push(DROP + mv.piece(i));
        }
    }

    /// The slots holding a cube of the mover.
    fn for_each_first_action(&self, visit: &mut impl FnMut(usize)) {
        let mut pickable = self.present[self.side as usize];
        while pickable != 0 {
            visit(pickable.trailing_zeros() as usize);
            pickable &= pickable - 1;
        }
    }

    /// A slot whose pieces have one order (besides the cube that must come last, at most
    /// one kind of piece) is a move of its own; any other slot offers a choice of first drop.
    fn quick_take(&self, action: usize) -> QuickTake<IceCubeCheckersMove> {
        let mover = self.side as usize;
        if self.outcome != Outcome::Ongoing || action >= SLOTS || self.present[mover] & (1 << action) == 0 {
            return QuickTake::Illegal;
        }
        let mut rest = self.slots[action];
        rest[mover] -= 1;
        if MULTINOMIAL[rest[0] as usize][rest[1] as usize][rest[2] as usize] > 1 {
            return QuickTake::Choice;
        }
        let n = (rest[0] + rest[1] + rest[2]) as usize + 1;
        let kind = (0..3).find(|&k| rest[k] > 0).unwrap_or(mover);
        let mut code = action as u32 | (n as u32) << 4 | (mover as u32) << (8 + 2 * (n - 1));
        for i in 0..n - 1 {
            code |= (kind as u32) << (8 + 2 * i);
        }
        QuickTake::Move(IceCubeCheckersMove(code))
    }

    fn action_text(action: usize) -> Option<String> {
        match action {
            a if a < SLOTS => Some(format!("slot {}", slot_letter(a))),
            a if a < DROP + 3 => Some(format!("drop {}", KIND_CHARS[a - DROP])),
            _ => None,
        }
    }

    /// The ply limit ends the game with its tie-break (more slots controlled wins), unless a
    /// player holds the Kings, which comes first.
    fn ended_by_ply_limit(&self) -> bool {
        self.outcome != Outcome::Ongoing && !self.holds_the_kings(0) && !self.holds_the_kings(1)
    }
}

impl Observation for IceCubeCheckers {
    /// Ten rows over the twelve slots, numbered from `player`'s first slot (a for White, g
    /// for Black) counter-clockwise, so each player sees its own row first (index
    /// `row * 12 + slot`):
    ///
    /// - 0, 1, 2: the player's cubes / 5, the opponent's cubes / 5, Kings / 2, on the board
    ///   as it stands (in the middle of a move: the lifted slot emptied and the pieces
    ///   dropped so far in their slots);
    /// - 3: the slot being sown from (a move is being made), 4: the slot the next piece
    ///   goes to;
    /// - 5, 6, 7: the pieces still in hand (constant rows): the player's cubes / 5, the
    ///   opponent's / 5, Kings / 2;
    /// - 8: the fraction of the ply limit used (constant); 9: all ones when `player` is to
    ///   move.
    const OBSERVATION_SHAPE: &'static [usize] = &[ROWS, SLOTS];

    fn observation(&self, pending: &[u16], player: usize, out: &mut [f32]) {
        let me = player.min(1);
        let mut slots = self.slots;
        let mut hand = [0u8; 3];
        let mut next = None;
        if let Some((&slot, drops)) = pending.split_first() {
            let from = usize::from(slot);
            hand = slots[from];
            slots[from] = [0; 3];
            let mut to = from;
            for &drop in drops {
                to = (to + 1) % SLOTS;
                let kind = usize::from(drop) - DROP;
                hand[kind] -= 1;
                slots[to][kind] += 1;
            }
            next = Some((from, (to + 1) % SLOTS));
        }
        let row = |r: usize, slot: usize| r * SLOTS + (slot + SLOTS - me * 6) % SLOTS;
        let totals = TOTALS.map(|t| t as f32);
        for (slot, counts) in slots.iter().enumerate() {
            out[row(0, slot)] = f32::from(counts[me]) / totals[me];
            out[row(1, slot)] = f32::from(counts[1 - me]) / totals[1 - me];
            out[row(2, slot)] = f32::from(counts[KING]) / totals[KING];
        }
        if let Some((from, to)) = next {
            out[row(3, from)] = 1.0;
            out[row(4, to)] = 1.0;
        }
        let fill = |out: &mut [f32], r: usize, value: f32| {
            out[r * SLOTS..(r + 1) * SLOTS].fill(value);
        };
        fill(out, 5, f32::from(hand[me]) / totals[me]);
        fill(out, 6, f32::from(hand[1 - me]) / totals[1 - me]);
        fill(out, 7, f32::from(hand[KING]) / totals[KING]);
        fill(
            out,
            8,
            fraction(u64::from(self.ply), u64::from(self.params.max_plies)),
        );
        if self.side as usize == me {
            fill(out, 9, 1.0);
        }
    }
}
