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
        let mut any = false;
        let mut free = self.free[me];
        while free != 0 {
            let id = me * SLOTS + free.trailing_zeros() as usize;
            free &= free - 1;
            let size = size_of(id);
            let from = self.hex(id);
            let (mut dirs, _) = self.directions(id, from, size);
            while dirs != 0 {
                let d = dirs.trailing_zeros() as usize;
                dirs &= dirs - 1;
                visit(MOVE + from * 18 + (size as usize - 1) * 6 + d);
                any = true;
            }
        }
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
            let _ = self.scan_plain_moves(&mut |_| {
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
        let (dirs, onto) = self.directions(id, from, size as u8);
        if dirs >> d & 1 == 0 {
            return QuickTake::Illegal;
        }
        let to = LINE[from][d][size - 1] as usize;
        let exchanges = onto >> d & 1 != 0
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

    /// The observation of [`Observation::observation`].
    fn observe(&self, pending: &[u16], player: usize, out: &mut [f32]) {
        let me = player.min(P - 1);
        let colour = Self::COLOURS[me];
        // The board as it stands: after a chosen movement, with the pieces moved.
        let mut after = None;
        let (mut moved_from, mut x_hex, mut x_level, mut g_hex) = (None, None, None, None);
        if let Some((&first, mut rest)) = pending.split_first() {
            let first = usize::from(first);
            if first < XAT {
                let (from, r) = ((first - MOVE) / 18, (first - MOVE) % 18);
                let (size, d) = (r / 6 + 1, r % 6);
                let to = LINE[from][d][size - 1] as usize;
                if let Some(id) = self.free_piece(self.player as usize, from, size as u8) {
                    let mut board = *self;
                    x_level = Some(board.height(to));
                    board.move_stack(id, to);
                    after = Some(board);
                }
                (moved_from, x_hex) = (Some(from), Some(to));
            } else {
                x_hex = Some(first - XAT);
                if let Some(&level) = rest.first() {
                    if usize::from(level) >= LEVEL {
                        x_level = Some(usize::from(level) - LEVEL);
                        rest = &rest[1..];
                    }
                }
            }
            if let Some(&g) = rest.first() {
                g_hex = Some(usize::from(g) - WITH);
            }
        }
        let board = after.as_ref().unwrap_or(self);
        // Turning (q, r) to (-r, q + r) takes territory t to t - 1; do it `colour` times.
        let cell = |h: usize| {
            let (mut q, mut r) = (GEO.q[h], GEO.r[h]);
            for _ in 0..colour {
                (q, r) = (-r, q + r);
            }
            (q + 6) as usize * GRID + (r + 6) as usize
        };
        let relative = |p: usize| (p + P - me) % P;
        let mut counts = [[[0u8; 2]; 18]; HEXES];
        for id in Self::piece_ids() {
            let slot = relative(player_of(id)) * 3 + usize::from(size_of(id) - 1);
            let count = &mut counts[board.hex(id)][slot];
            count[0] += 1;
            count[1] += u8::from(board.is_free(id));
        }
        let mut constant = [0.0f32; PLANES];
        constant[56 + relative(self.player as usize)] = 1.0;
        constant[62] = fraction(u64::from(self.ply), u64::from(self.params.max_plies));
        constant[63] = self
            .params
            .stack_limit
            .map_or(1.0, |limit| fraction(u64::from(limit), MAX_PIECES as u64));
        for h in 0..HEXES {
            let c = cell(h);
            let mut put = |plane: usize, value: f32| out[plane * CELLS + c] = value;
            for (slot, &[total, free]) in counts[h].iter().enumerate() {
                if total > 0 {
                    put(slot * 2, f32::from(total) / PER_SIZE as f32);
                    put(slot * 2 + 1, f32::from(free) / PER_SIZE as f32);
                }
            }
            let top = board.top[h];
            if top != NONE {
                put(36 + relative(player_of(top as usize)), 1.0);
                put(42, fraction(board.height(h) as u64, (PIECES * P) as u64));
            }
            put(43, 1.0);
            for j in 0..P {
                let seat = Self::COLOURS[(me + j) % P];
                if TERRITORY[h] == goal_of(seat) {
                    put(44 + j, 1.0);
                }
                if HOME[h] >> seat & 1 != 0 {
                    put(50 + j, 1.0);
                }
            }
            for plane in [56 + relative(self.player as usize), 62, 63] {
                put(plane, constant[plane]);
            }
        }
        if let Some(h) = moved_from {
            out[64 * CELLS + cell(h)] = 1.0;
        }
        if let Some(h) = x_hex {
            out[65 * CELLS + cell(h)] = 1.0;
            if let Some(level) = x_level {
                out[66 * CELLS + cell(h)] = fraction(level as u64 + 1, board.height(h) as u64);
            }
        }
        if let Some(h) = g_hex {
            out[67 * CELLS + cell(h)] = 1.0;
        }
    }
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
        on_board!(&self.0, b => b.observe(pending, player, out));
    }
}
