//! The action numbers and observation tensor of Ice Cube Checkers, for learning programs.
//!
//! A move is picked in parts: the slot to lift, then each piece to drop, in order. Actions
//! 0-11 are `slot a` .. `slot l`; 12, 13 and 14 are `drop W`, `drop B` and `drop K`. Drops
//! that have only one way to go on are taken by themselves (see [`crate::actions`]): a lone
//! cube, or a slot whose pieces have one order, is a move of one action.

use super::*;
use crate::actions::{fraction, ActionList, QuickTake};
use crate::game::{ActionEncoding, Cell, Observation};

/// The first drop action; `DROP + kind` drops a piece of that kind.
const DROP: usize = SLOTS;

/// The rows of the observation tensor.
const ROWS: usize = 10;

/// `SHARES[kind][count]`: `count` pieces of `kind` as a fraction of all of them, the value
/// the observation gives a slot or a row of pieces in hand (looked up: the listing of cells
/// would spend most of its time dividing).
const SHARES: [[f32; 6]; 3] = {
    let mut shares = [[0.0; 6]; 3];
    let mut kind = 0;
    while kind < 3 {
        let mut count = 0;
        while count <= TOTALS[kind] as usize {
            shares[kind][count] = count as f32 / TOTALS[kind] as f32;
            count += 1;
        }
        kind += 1;
    }
    shares
};

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

impl IceCubeCheckers {
    /// The board in the middle of a move whose actions so far are `pending` (the slot
    /// lifted, then each piece dropped): the slots with the lifted slot emptied and the
    /// drops made, the pieces still in hand, and the slots sown from and to be dropped on
    /// next (`None` before a move is begun).
    fn mid_move(&self, pending: &[u16]) -> MidMove {
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
        MidMove { slots, hand, next }
    }

    /// Rows 5 to 9 of the observation for player `me`, each one value throughout: the
    /// pieces in `hand`, the fraction of the ply limit used, and whether `me` is to move.
    fn constant_rows(&self, me: usize, hand: [u8; 3]) -> [(usize, f32); 5] {
        let share = |kind: usize| SHARES[kind][usize::from(hand[kind])];
        [
            (5, share(me)),
            (6, share(1 - me)),
            (7, share(KING)),
            (8, fraction(u64::from(self.ply), u64::from(self.params.max_plies))),
            (9, if self.side as usize == me { 1.0 } else { 0.0 }),
        ]
    }
}

/// The position in a row of the observation of `slot`, for player `me`: rows start at the
/// player's first slot (a for White, g for Black).
fn seen(slot: usize, me: usize) -> usize {
    (slot + SLOTS - me * 6) % SLOTS
}

/// The board in the middle of a move, as [`IceCubeCheckers::mid_move`] finds it.
struct MidMove {
    slots: [[u8; 3]; SLOTS],
    hand: [u8; 3],
    next: Option<(usize, usize)>,
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
        let MidMove { slots, hand, next } = self.mid_move(pending);
        let cell = |r: usize, slot: usize| r * SLOTS + seen(slot, me);
        for (slot, counts) in slots.iter().enumerate() {
            for (r, kind) in [me, 1 - me, KING].into_iter().enumerate() {
                out[cell(r, slot)] = SHARES[kind][usize::from(counts[kind])];
            }
        }
        if let Some((from, to)) = next {
            out[cell(3, from)] = 1.0;
            out[cell(4, to)] = 1.0;
        }
        for (r, value) in self.constant_rows(me, hand) {
            out[r * SLOTS..(r + 1) * SLOTS].fill(value);
        }
    }

    /// Straight from the slots: no tensor written or scanned. Each entry is the value
    /// [`Observation::observation`] writes, listed in the order a scan would find it.
    fn observation_cells(
        &self,
        pending: &[u16],
        player: usize,
        _dense: &mut Vec<f32>,
        cells: &mut Vec<Cell>,
        planes: &mut Vec<Cell>,
    ) {
        let me = player.min(1);
        let MidMove { slots, hand, next } = self.mid_move(pending);
        // At most five pieces of a kind on twelve slots: no row of the board is one
        // non-zero value everywhere, so each is listed a cell at a time, written whether
        // empty or not and kept if not (a branch per cell would be mispredicted).
        let start = cells.len();
        cells.resize(start + 3 * SLOTS, (0, 0.0));
        let mut kept = start;
        for (r, kind) in [me, 1 - me, KING].into_iter().enumerate() {
            // The player's first slot first: row position i shows slot i + 6 * me.
            for (i, slot) in (me * 6..SLOTS).chain(0..me * 6).enumerate() {
                let count = usize::from(slots[slot][kind]);
                cells[kept] = ((r * SLOTS + i) as u32, SHARES[kind][count]);
                kept += usize::from(count != 0);
            }
        }
        cells.truncate(kept);
        if let Some((from, to)) = next {
            cells.push(((3 * SLOTS + seen(from, me)) as u32, 1.0));
            cells.push(((4 * SLOTS + seen(to, me)) as u32, 1.0));
        }
        for (r, value) in self.constant_rows(me, hand) {
            if value != 0.0 {
                planes.push((r as u32, value));
            }
        }
    }

    /// The slots whose counts changed, and the constant rows whose value changed (between
    /// moves no piece is in hand).
    fn observation_changes(
        &self,
        old: &Self,
        player: usize,
        cells: &mut Vec<Cell>,
        planes: &mut Vec<Cell>,
    ) -> bool {
        let me = player.min(1);
        for (slot, (was, now)) in old.slots.iter().zip(&self.slots).enumerate() {
            if was == now {
                continue;
            }
            for (r, kind) in [me, 1 - me, KING].into_iter().enumerate() {
                let (was, now) = (usize::from(was[kind]), usize::from(now[kind]));
                if was != now {
                    let change = SHARES[kind][now] - SHARES[kind][was];
                    cells.push(((r * SLOTS + seen(slot, me)) as u32, change));
                }
            }
        }
        let (was, now) = (old.constant_rows(me, [0; 3]), self.constant_rows(me, [0; 3]));
        for (&(r, was), &(_, now)) in was.iter().zip(&now) {
            if was != now {
                planes.push((r as u32, now - was));
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{observation_cells_of, Game};

    /// The cells listed from the slots are those found in the whole tensor, in the same
    /// order, for both players' views, along random games and in the middle of their moves.
    #[test]
    fn observation_cells_are_the_tensors_non_zero_cells() {
        let mut rng = SplitMix64::new(5);
        let params = IceCubeCheckersParams::default();
        for _ in 0..30 {
            let mut state = IceCubeCheckers::start(&params);
            while state.count_moves() > 0 {
                let mv = state.nth_move(rng.below(state.count_moves())).expect("a move");
                let mut actions = ActionList::new();
                state.move_actions(mv, &mut actions);
                for taken in 0..actions.len() {
                    let pending = &actions.as_slice()[..taken];
                    for player in 0..2 {
                        let mut dense = vec![0.0; ROWS * SLOTS];
                        state.observation(pending, player, &mut dense);
                        let (mut want_cells, mut want_planes) = (Vec::new(), Vec::new());
                        observation_cells_of(&dense, SLOTS, &mut want_cells, &mut want_planes);
                        let (mut cells, mut planes) = (Vec::new(), Vec::new());
                        state.observation_cells(pending, player, &mut Vec::new(), &mut cells, &mut planes);
                        let context = format!("{} {pending:?} player {player}", state.text());
                        assert_eq!((cells, planes), (want_cells, want_planes), "{context}");
                    }
                }
                state.play_unchecked(mv);
            }
        }
    }
}
