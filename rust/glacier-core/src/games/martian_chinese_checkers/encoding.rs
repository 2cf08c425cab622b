//! The action numbers and observation tensor of E, for learning programs.
//!
//! A move is picked in parts: a movement, then (where an exchange can end it) the partner's
//! hex and level or `no exchange`; or a whole-turn exchange as X's hex and level, then G's.
//! Levels are chosen only where a hex holds more than one candidate (see
//! [`crate::actions`]: an action with one way to go on is taken by itself).

use super::text::write_hex;
use super::*;
use crate::actions::{fraction, ActionList, QuickTake};
use crate::game::{ActionEncoding, Observation};

/// `MOVE + hex * 18 + (size - 1) * 6 + dir`: the mover's free piece of that size on that hex
/// moves `size` hexes in direction `dir` (its free pieces in one stack differ in size).
const MOVE: usize = 0;
/// `XAT + hex`: a whole-turn exchange with the mover's piece (X) on that hex.
const XAT: usize = MOVE + HEXES * 18;
/// `WITH + hex`: the exchange partner (G) is on that hex.
const WITH: usize = XAT + HEXES;
/// `LEVEL + level`: the piece just named stands at that level.
const LEVEL: usize = WITH + HEXES;
/// Ends a movement that could end in an exchange, without one.
const NO_EXCHANGE: usize = LEVEL + MAX_PIECES;
const PASS: usize = NO_EXCHANGE + 1;

/// The planes of the observation tensor, over a 13x13 grid.
const PLANES: usize = 68;
const GRID: usize = 13;
const CELLS: usize = GRID * GRID;

/// `TURNED_CELL[t][h]`: the grid cell (`(q + 6) * 13 + (r + 6)`) of hex `h` on the board
/// turned `t` times by `(q, r) -> (-r, q + r)`, which takes territory `t` to territory 0.
const TURNED_CELL: [[u8; HEXES]; 6] = {
    let mut table = [[0; HEXES]; 6];
    let mut turns = 0;
    while turns < 6 {
        let mut h = 0;
        while h < HEXES {
            let (mut q, mut r) = (GEO.q[h], GEO.r[h]);
            let mut k = 0;
            while k < turns {
                (q, r) = (-r, q + r);
                k += 1;
            }
            table[turns][h] = ((q + 6) as usize * GRID + (r + 6) as usize) as u8;
            h += 1;
        }
        turns += 1;
    }
    table
};

/// 1 on the grid cells of the board's hexes, 0 on the rest.
const ON_BOARD: [f32; CELLS] = {
    let mut grid = [0.0; CELLS];
    let mut h = 0;
    while h < HEXES {
        grid[TURNED_CELL[0][h] as usize] = 1.0;
        h += 1;
    }
    grid
};

impl ActionEncoding for MartianChineseCheckers {
    /// 2632 actions: 2286 movements, 127 hexes of X, 127 of G, 90 levels, `no exchange`
    /// and `pass`.
    const NUM_DISTINCT_ACTIONS: usize = PASS + 1;
    /// A whole-turn exchange: X's hex and level, G's hex and level.
    const MAX_CHOSEN_ACTIONS: usize = 4;
    const ONE_ACTION_MOVES: bool = false;

    fn move_actions(&self, mv: MartianChineseCheckersMove, out: &mut ActionList) {
        on_board!(&self.0, b => b.move_actions(mv, out));
    }

    fn for_each_first_action(&self, visit: &mut impl FnMut(usize)) {
        on_board!(&self.0, b => b.first_actions(visit));
    }

    fn quick_take(&self, action: usize) -> QuickTake<MartianChineseCheckersMove> {
        on_board!(&self.0, b => b.quick_take(action))
    }

    fn action_text(action: usize) -> Option<String> {
        let mut out = String::with_capacity(12);
        match action {
            a if a < XAT => {
                let (from, rest) = ((a - MOVE) / 18, (a - MOVE) % 18);
                let (size, d) = (rest / 6 + 1, rest % 6);
                let to = LINE[from][d][size - 1];
                if to == OFF_BOARD {
                    return None;
                }
                write_hex(&mut out, from);
                out.push('-');
                write_hex(&mut out, to as usize);
            }
            a if a < WITH => {
                out.push('x');
                write_hex(&mut out, a - XAT);
            }
            a if a < LEVEL => {
                out.push('=');
                write_hex(&mut out, a - WITH);
            }
            a if a < NO_EXCHANGE => out = format!("/{}", a - LEVEL),
            NO_EXCHANGE => out.push_str("no exchange"),
            PASS => out.push_str("pass"),
            _ => return None,
        }
        Some(out)
    }

    /// E's only draw is the ply limit's.
    fn ended_by_ply_limit(&self) -> bool {
        self.outcome() == Outcome::Draw
    }
}

impl<const P: usize> Board<P> {
    /// The movement action of the free piece `id` to `to`.
    fn movement_action(&self, id: usize, to: usize) -> usize {
        let (from, size) = (self.hex(id), size_of(id) as usize);
        let d = (0..6)
            .find(|&d| LINE[from][d][size - 1] as usize == to)
            .unwrap_or(0);
        MOVE + from * 18 + (size - 1) * 6 + d
    }

    fn move_actions(&self, mv: MartianChineseCheckersMove, out: &mut ActionList) {
        if mv.is_pass() {
            out.push(PASS);
            return;
        }
        let g = mv.g as usize;
        if mv.piece == NONE {
            let x = mv.x as usize;
            out.push(XAT + self.hex(x));
            out.push(LEVEL + self.level(x));
            out.push(WITH + self.hex(g));
            out.push(LEVEL + self.level(g));
            return;
        }
        let (id, to) = (mv.piece as usize, mv.to as usize);
        out.push(self.movement_action(id, to));
        if mv.x == NONE {
            out.push(NO_EXCHANGE);
            return;
        }
        // G's place as it stands after the movement: a rider went along onto `to`.
        let base = self.level(id);
        let rides = self.hex(g) == self.hex(id) && self.level(g) > base;
        let (hex, level) = if rides {
            (to, self.level(g) - base + self.height(to))
        } else {
            (self.hex(g), self.level(g))
        };
        out.push(WITH + hex);
        out.push(LEVEL + level);
    }

    /// The movements and the hexes of X in whole-turn exchanges, read off the summaries (no
    /// exchange after a movement is listed); `pass` when there is nothing else.
    fn first_actions(&self, visit: &mut impl FnMut(usize)) {
        let me = self.player as usize;
        let mut movements = [0u16; 128];
        let n = self.movements(&mut movements);
        for &m in &movements[..n] {
            visit(MOVE + usize::from(m));
        }
        let mut any = n > 0;
        let (mut xs, trapping_mover) = self.whole_turn_exchanges();
        let mut hexes = 0u128;
        while xs != 0 {
            let x = me * SLOTS + xs.trailing_zeros() as usize;
            xs &= xs - 1;
            if self.partners_now(x, trapping_mover).count() > 0 {
                hexes |= 1 << self.hex(x);
            }
        }
        while hexes != 0 {
            visit(XAT + hexes.trailing_zeros() as usize);
            any = true;
            hexes &= hexes - 1;
        }
        if !any {
            visit(PASS);
        }
    }

    /// A movement is a move of its own when no exchange can end it, and a choice (`no
    /// exchange` or a partner) when one can; `pass` when nothing else is legal.
    fn quick_take(&self, action: usize) -> QuickTake<MartianChineseCheckersMove> {
        if self.outcome != Outcome::Ongoing || action > PASS {
            return QuickTake::Illegal;
        }
        if action == PASS {
            let mut none = true;
            let _ = self.scan_plain_moves::<true, ()>(&mut |_| {
                none = false;
                ControlFlow::Break(())
            });
            return if none {
                QuickTake::Move(MartianChineseCheckersMove::PASS)
            } else {
                QuickTake::Illegal
            };
        }
        if action >= XAT {
            return if action < WITH {
                QuickTake::Unknown
            } else {
                QuickTake::Illegal
            };
        }
        let (from, rest) = ((action - MOVE) / 18, (action - MOVE) % 18);
        let (size, d) = (rest / 6 + 1, rest % 6);
        let me = self.player as usize;
        let Some(id) = self.free_piece(me, from, size as u8) else {
            return QuickTake::Illegal;
        };
        let (open, onto) = self.direction(id, from, size as u8, d);
        if !open {
            return QuickTake::Illegal;
        }
        let to = LINE[from][d][size - 1] as usize;
        let exchanges = onto
            && self
                .partners_after(id, to)
                .is_some_and(|partners| partners.count() > 0);
        if exchanges {
            QuickTake::Choice
        } else {
            QuickTake::Move(MartianChineseCheckersMove::movement(id, to))
        }
    }

    /// The free piece of `player` and `size` on hex `h`, if there is one (there is at most
    /// one: a free piece is larger than every piece above it).
    fn free_piece(&self, player: usize, h: usize, size: u8) -> Option<usize> {
        let mut p = self.top[h];
        while p != NONE {
            let id = p as usize;
            if player_of(id) == player && size_of(id) == size && self.is_free(id) {
                return Some(id);
            }
            p = self.below(id);
        }
        None
    }

    /// The relative seat of player `p` seen from `me` (0 = `me`, 1 = the next to move, ...).
    fn relative(p: usize, me: usize) -> usize {
        (p + P - me) % P
    }

    /// The key of the fixed part of `player`'s observation: for every player counted from
    /// `player`, its territory on the board turned to `player` (which places its goal and
    /// its home), the relative seat of the player to move, and the stack-limit plane.
    fn fixed_observation_key(&self, player: usize) -> u64 {
        let me = player.min(P - 1);
        let colour = Self::COLOURS[me];
        let mut key = 0u64;
        for j in 0..P {
            let turned = (Self::COLOURS[(me + j) % P] + 6 - colour) % 6;
            key |= u64::from(turned) << (3 * j);
        }
        key |= (Self::relative(self.player as usize, me) as u64) << 20;
        key | u64::from(self.stack_plane().to_bits()) << 32
    }

    /// The value of plane 63: the stack limit / 90 (1 without one).
    fn stack_plane(&self) -> f32 {
        self.params
            .stack_limit
            .map_or(1.0, |limit| fraction(u64::from(limit), MAX_PIECES as u64))
    }

    /// Planes 43-63 but 62: the board, the goals and homes, whose turn it is, the stack
    /// limit. They change only with the key above.
    fn fixed_observation_cells(&self, player: usize, put: &mut impl FnMut(usize, f32)) {
        let me = player.min(P - 1);
        let cells = &TURNED_CELL[usize::from(Self::COLOURS[me])];
        // The board is the same hexagon whichever way it is turned.
        let everywhere = |put: &mut dyn FnMut(usize, f32), plane: usize, value: f32| {
            for &c in &TURNED_CELL[0] {
                put(plane * CELLS + usize::from(c), value);
            }
        };
        everywhere(put, 43, 1.0);
        for j in 0..P {
            let seat = Self::COLOURS[(me + j) % P];
            for h in 0..HEXES {
                if TERRITORY[h] == goal_of(seat) {
                    put((44 + j) * CELLS + usize::from(cells[h]), 1.0);
                }
            }
            for h in 0..HEXES {
                if HOME[h] >> seat & 1 != 0 {
                    put((50 + j) * CELLS + usize::from(cells[h]), 1.0);
                }
            }
        }
        everywhere(put, 56 + Self::relative(self.player as usize, me), 1.0);
        everywhere(put, 63, self.stack_plane());
    }

    /// What the observation shows with `pending` taken: the movement chosen, if any, as the
    /// piece and its destination (the board shown is this one with it made; `None`: this
    /// one), and the hexes the move being made marks. The board is not copied here, so
    /// that the common case, with nothing pending, copies no board at all (see
    /// [`Board::shown_board`]).
    fn shown(&self, pending: &[u16]) -> (Option<(usize, usize)>, MoveMarks) {
        let mut movement = None;
        let mut marks = MoveMarks::default();
        if let Some((&first, mut rest)) = pending.split_first() {
            let first = usize::from(first);
            if first < XAT {
                let (from, r) = ((first - MOVE) / 18, (first - MOVE) % 18);
                let (size, d) = (r / 6 + 1, r % 6);
                let to = LINE[from][d][size - 1] as usize;
                if let Some(id) = self.free_piece(self.player as usize, from, size as u8) {
                    marks.x_level = Some(self.height(to));
                    movement = Some((id, to));
                }
                (marks.moved_from, marks.x_hex) = (Some(from), Some(to));
            } else {
                marks.x_hex = Some(first - XAT);
                if let Some(&level) = rest.first() {
                    if usize::from(level) >= LEVEL {
                        marks.x_level = Some(usize::from(level) - LEVEL);
                        rest = &rest[1..];
                    }
                }
            }
            if let Some(&g) = rest.first() {
                marks.g_hex = Some(usize::from(g) - WITH);
            }
        }
        (movement, marks)
    }

    /// A copy of this board with the movement of [`Board::shown`] made.
    fn shown_board(&self, (id, to): (usize, usize)) -> Self {
        let mut board = *self;
        board.move_stack(id, to);
        board
    }

    /// Plane 42's value for a piece alone on its hex, as most are.
    const LONE_HEIGHT: f32 = fraction(1, (PIECES * P) as u64);

    /// Planes 0-42 at hex `h` (nothing where it is empty), seen by `me`: its pieces by
    /// player and size and how many of them are free, its top's player, its height.
    #[inline]
    fn hex_cells(&self, h: usize, me: usize, put: &mut impl FnMut(usize, f32)) {
        let top = self.top[h];
        if top == NONE {
            return;
        }
        let c = usize::from(TURNED_CELL[usize::from(Self::COLOURS[me])][h]);
        let slot_of_piece =
            |piece: usize| Self::relative(player_of(piece), me) * 3 + usize::from(size_of(piece) - 1);
        if self.below(usize::from(top)) == NONE {
            // A piece alone on its hex, as most are: nothing to count.
            let (piece, one) = (usize::from(top), 1.0 / PER_SIZE as f32);
            let slot = slot_of_piece(piece);
            put(slot * 2 * CELLS + c, one);
            if self.is_free(piece) {
                put((slot * 2 + 1) * CELLS + c, one);
            }
        } else {
            // Pieces of each (relative player, size): how many, and how many are free.
            let mut counts = [[0u8; 2]; 18];
            let mut id = top;
            while id != NONE {
                let piece = usize::from(id);
                let slot = slot_of_piece(piece);
                counts[slot][0] += 1;
                counts[slot][1] += u8::from(self.is_free(piece));
                id = self.below(piece);
            }
            for (slot, &[total, free]) in counts[..P * 3].iter().enumerate() {
                if total > 0 {
                    put(slot * 2 * CELLS + c, f32::from(total) / PER_SIZE as f32);
                    if free > 0 {
                        put((slot * 2 + 1) * CELLS + c, f32::from(free) / PER_SIZE as f32);
                    }
                }
            }
        }
        put((36 + Self::relative(player_of(usize::from(top)), me)) * CELLS + c, 1.0);
        let height = match self.height(h) {
            1 => Self::LONE_HEIGHT,
            height => fraction(height as u64, (PIECES * P) as u64),
        };
        put(42 * CELLS + c, height);
    }

    /// Planes 64-67: the hexes the move being made marks on this (shown) board.
    fn mark_cells(&self, marks: MoveMarks, me: usize, put: &mut impl FnMut(usize, f32)) {
        let cell = |h: usize| usize::from(TURNED_CELL[usize::from(Self::COLOURS[me])][h]);
        if let Some(h) = marks.moved_from {
            put(64 * CELLS + cell(h), 1.0);
        }
        if let Some(h) = marks.x_hex {
            put(65 * CELLS + cell(h), 1.0);
            if let Some(level) = marks.x_level {
                put(66 * CELLS + cell(h), fraction(level as u64 + 1, self.height(h) as u64));
            }
        }
        if let Some(h) = marks.g_hex {
            put(67 * CELLS + cell(h), 1.0);
        }
    }

    /// Plane 62's value: the fraction of the ply limit used.
    fn ply_plane(&self) -> f32 {
        fraction(u64::from(self.ply), u64::from(self.params.max_plies))
    }

    /// Every plane but the fixed ones: the pieces, the tops and heights of the stacks, the
    /// ply limit used, the move being made. Only the occupied hexes are visited.
    fn observation_cells(&self, pending: &[u16], player: usize, put: &mut impl FnMut(usize, f32)) {
        let me = player.min(P - 1);
        let (movement, marks) = self.shown(pending);
        let after;
        let board = match movement {
            Some(movement) => {
                after = self.shown_board(movement);
                &after
            }
            None => self,
        };
        for h in 0..HEXES {
            board.hex_cells(h, me, put);
        }
        let used = self.ply_plane();
        if used != 0.0 {
            for &c in &TURNED_CELL[0] {
                put(62 * CELLS + usize::from(c), used);
            }
        }
        board.mark_cells(marks, me, put);
    }

    /// The hexes (bit `h`) whose planes 0-42 may differ between `old` and this board: those
    /// a piece left or reached, or where a piece changed level or was trapped or freed
    /// (every cell of a hex follows from the levels and the freedom of its pieces).
    fn hexes_changed_since(&self, old: &Self) -> u128 {
        let mut changed = 0u128;
        for (p, (now, was)) in self.seats.iter().zip(&old.seats).enumerate() {
            // Bit `slot`: the piece moved, changed level or was trapped or freed. Tested for
            // every slot without a branch (the compiler compares the arrays at once); then
            // only the few pieces that changed are visited.
            let mut moved = self.free[p] ^ old.free[p];
            for slot in 0..SLOTS {
                let differs = (now.hex[slot] ^ was.hex[slot]) | (now.level[slot] ^ was.level[slot]) != 0;
                moved |= u16::from(differs) << slot;
            }
            // Slot 15 is no piece.
            moved &= (1 << PIECES) - 1;
            while moved != 0 {
                let slot = moved.trailing_zeros() as usize;
                moved &= moved - 1;
                changed |= 1 << now.hex[slot] | 1 << was.hex[slot];
            }
        }
        changed
    }

    /// [`Observation::update_observation`] between two boards of `P` players.
    fn update_observation(
        &self,
        pending: &[u16],
        player: usize,
        old: &Self,
        old_pending: &[u16],
        old_player: usize,
        row: &mut [f32],
    ) {
        let (me, old_me) = (player.min(P - 1), old_player.min(P - 1));
        // The fixed part follows from the point of view, the player to move and the stack
        // limit: only when one of them changed can its key.
        let fixed_may_change =
            me != old_me || self.player != old.player || self.params.stack_limit != old.params.stack_limit;
        if fixed_may_change && old.fixed_observation_key(old_me) != self.fixed_observation_key(me) {
            old.fixed_observation_cells(old_me, &mut |cell, _| row[cell] = 0.0);
            self.fixed_observation_cells(me, &mut |cell, value| row[cell] = value);
        }
        if me != old_me {
            // The board turned: every cell may have moved.
            old.observation_cells(old_pending, old_me, &mut |cell, _| row[cell] = 0.0);
            self.observation_cells(pending, me, &mut |cell, value| row[cell] = value);
            return;
        }
        let (old_movement, old_marks) = old.shown(old_pending);
        let (movement, marks) = self.shown(pending);
        // The boards shown: copies only in the middle of a move.
        let (old_after, after);
        let was = match old_movement {
            Some(movement) => {
                old_after = old.shown_board(movement);
                &old_after
            }
            None => old,
        };
        let now = match movement {
            Some(movement) => {
                after = self.shown_board(movement);
                &after
            }
            None => self,
        };
        was.mark_cells(old_marks, me, &mut |cell, _| row[cell] = 0.0);
        let mut changed = now.hexes_changed_since(was);
        while changed != 0 {
            let h = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            was.hex_cells(h, me, &mut |cell, _| row[cell] = 0.0);
            now.hex_cells(h, me, &mut |cell, value| row[cell] = value);
        }
        now.mark_cells(marks, me, &mut |cell, value| row[cell] = value);
        let used = self.ply_plane();
        if used != old.ply_plane() {
            // The whole plane in one pass along it (its cells off the board stay 0).
            let plane = &mut row[62 * CELLS..63 * CELLS];
            for (cell, &on_board) in plane.iter_mut().zip(&ON_BOARD) {
                *cell = used * on_board;
            }
        }
    }
}

/// The hexes a move being made marks in the observation (planes 64-67).
#[derive(Clone, Copy, Debug, Default)]
struct MoveMarks {
    moved_from: Option<usize>,
    x_hex: Option<usize>,
    x_level: Option<usize>,
    g_hex: Option<usize>,
}

impl Observation for MartianChineseCheckers {
    /// 68 planes over a 13x13 grid of axial coordinates, turned by multiples of 60 degrees
    /// so that `player`'s territory is territory 0 (index `plane * 169 + (q + 6) * 13 +
    /// (r + 6)` after the turn); players counted from `player` in turn order (`j`):
    ///
    /// - `(j * 3 + z) * 2`: the pieces of player `j` and size `z + 1` on the hex / 5;
    ///   `+ 1`: those of them not trapped / 5;
    /// - `36 + j`: the hex's top piece is player `j`'s; 42: the stack's height / (15 x
    ///   players); 43: the board; `44 + j`: player `j`'s goal; `50 + j`: player `j`'s home;
    /// - `56 + j`: all ones when player `j` is to move; 62: the fraction of the ply limit
    ///   used; 63: the stack limit / 90 (1 without one) (constant planes);
    /// - in the middle of a move (the board shown with a chosen movement made): 64 the hex
    ///   the movement came from, 65 X's hex, 66 at X's hex (its level + 1) / the stack's
    ///   height once known, 67 G's hex.
    const OBSERVATION_SHAPE: &'static [usize] = &[PLANES, GRID, GRID];

    fn observation(&self, pending: &[u16], player: usize, out: &mut [f32]) {
        let mut put = |cell: usize, value: f32| out[cell] = value;
        on_board!(&self.0, b => {
            b.fixed_observation_cells(player, &mut put);
            b.observation_cells(pending, player, &mut put);
        });
    }

    fn update_observation(
        &self,
        pending: &[u16],
        player: usize,
        old: &Self,
        old_pending: &[u16],
        old_player: usize,
        row: &mut [f32],
    ) {
        let now = &self.0;
        match (now, &old.0) {
            (Seated::Two(b), Seated::Two(o)) => b.update_observation(pending, player, o, old_pending, old_player, row),
            (Seated::Three(b), Seated::Three(o)) => b.update_observation(pending, player, o, old_pending, old_player, row),
            (Seated::Four(b), Seated::Four(o)) => b.update_observation(pending, player, o, old_pending, old_player, row),
            (Seated::Five(b), Seated::Five(o)) => b.update_observation(pending, player, o, old_pending, old_player, row),
            (Seated::Six(b), Seated::Six(o)) => b.update_observation(pending, player, o, old_pending, old_player, row),
            _ => {
                // Games of different numbers of players: nothing in common.
                row.fill(0.0);
                self.observation(pending, player, row);
            }
        }
    }
}
