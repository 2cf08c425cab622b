//! Martian Chinese Checkers, "E" (docs/rules/martian_chinese_checkers.md).
//!
//! Icehouse pyramids on a hexagon of 127 hexes, for 2 to 6 players. A pyramid of size 1, 2 or
//! 3 moves exactly that many hexes in a straight line, in steps and jumps, carrying every
//! piece above it; pieces stack, larger ones trap smaller ones, and a player may swap two
//! trapping pieces in a guard exchange. The first player to fill its goal territory wins.
//!
//! Representation: every piece has an id, `player * 15 + (size - 1) * 5 + k`. A stack is a
//! linked list from its top piece down (`top` per hex, `below` per piece), with each piece's
//! hex and level stored beside it; per-hex summaries (top colour, the smallest size the
//! home-territory rule protects) and per-piece summaries (untrapped, colours trapped) are
//! refreshed for the hexes a ply touches, so move generation reads only fixed-size arrays.

mod board;
mod encoding;
mod text;

use self::board::*;

use crate::error::Error;
use crate::game::{Game, GameParams, Notation, Outcome};
use crate::notation::parse_count;
use crate::params::{text_disagrees, ParamSpec, ParamValue};
use crate::{bad_position, zobrist};
use std::fmt::Write as _;
use std::ops::ControlFlow;

/// Hexes on the board.
const HEXES: usize = 127;
/// Pieces of one player: 5 small, 5 medium, 5 large.
const PIECES: usize = 15;
const PER_SIZE: usize = 5;
/// Pieces of six players: also the tallest possible stack.
const MAX_PIECES: usize = 6 * PIECES;
const NONE: u8 = u8::MAX;
const OFF: u8 = u8::MAX;
/// Larger than any size: the home-territory guard of a hex nothing protects.
const NO_GUARD: u8 = 4;

const fn size_of(id: usize) -> u8 {
    ((id % PIECES) / PER_SIZE) as u8 + 1
}

const fn player_of(id: usize) -> usize {
    id / PIECES
}

const fn goal_of(colour: u8) -> u8 {
    (colour + 3) % 6
}

// Zobrist keys (seed and indices documented in docs/rules/martian_chinese_checkers.md).
const ZOBRIST_SEED: u64 = 0x4D41_5253; // "MARS"
/// Index of the first side-to-move key; below it, one key per (hex, level, colour, size).
const SIDE_BASE: u64 = (HEXES * MAX_PIECES * 6 * 3) as u64;
const SIDE_KEYS: [u64; 6] = zobrist::table(ZOBRIST_SEED, SIDE_BASE);

#[inline]
fn piece_key(hex: usize, level: usize, colour: u8, size: u8) -> u64 {
    let index = ((hex * MAX_PIECES + level) * 6 + colour as usize) * 3 + size as usize - 1;
    zobrist::key(ZOBRIST_SEED, index as u64)
}

/// A move: a movement of `piece` to `to`, a guard exchange of pieces `x` and `g`, both (the
/// exchange ends the movement and `x` is the moved piece), or a pass. Piece ids are those
/// of the position the move was generated in.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct MartianChineseCheckersMove {
    piece: u8,
    to: u8,
    x: u8,
    g: u8,
}

impl MartianChineseCheckersMove {
    pub const PASS: MartianChineseCheckersMove = MartianChineseCheckersMove {
        piece: NONE,
        to: NONE,
        x: NONE,
        g: NONE,
    };
    const fn movement(piece: usize, to: usize) -> MartianChineseCheckersMove {
        MartianChineseCheckersMove {
            piece: piece as u8,
            to: to as u8,
            x: NONE,
            g: NONE,
        }
    }
    const fn with_exchange(self, x: usize, g: usize) -> MartianChineseCheckersMove {
        MartianChineseCheckersMove {
            x: x as u8,
            g: g as u8,
            ..self
        }
    }
    #[must_use]
    pub fn is_pass(self) -> bool {
        self == MartianChineseCheckersMove::PASS
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MartianChineseCheckersParams {
    pub players: u8,
    /// `None`: stacks may grow without limit.
    pub stack_limit: Option<u32>,
    pub max_plies: u32,
}

impl GameParams for MartianChineseCheckersParams {
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec {
            name: "players",
            default: ParamValue::Int(2),
            min: 2,
            max: 6,
            optional: false,
        },
        ParamSpec {
            name: "stack_limit",
            default: ParamValue::None,
            min: 1,
            max: u32::MAX as i64,
            optional: true,
        },
        ParamSpec::max_plies(2000),
    ];

    fn from_values(values: &[ParamValue]) -> Result<Self, Error> {
        Ok(MartianChineseCheckersParams {
            players: values[0].int() as u8,
            stack_limit: values[1].opt().map(|v| v as u32),
            max_plies: values[2].int() as u32,
        })
    }

    fn values(&self) -> Vec<ParamValue> {
        vec![
            ParamValue::Int(self.players.into()),
            self.stack_limit
                .map_or(ParamValue::None, |v| ParamValue::Int(v.into())),
            ParamValue::Int(self.max_plies.into()),
        ]
    }
}

#[derive(Clone, Debug)]
pub struct MartianChineseCheckers {
    // Per piece.
    hex: [u8; MAX_PIECES],
    level: [u8; MAX_PIECES],
    /// The piece directly below, or NONE.
    below: [u8; MAX_PIECES],
    /// Bit c: this piece traps a piece of colour c (one below it, at most its size).
    traps: [u8; MAX_PIECES],
    /// Per player, bit k: piece `player * 15 + k` is not trapped.
    free: [u16; 6],
    // Per hex.
    top: [u8; HEXES],
    height: [u8; HEXES],
    /// Colour of the top piece, NONE when empty.
    top_colour: [u8; HEXES],
    /// The smallest size among pieces on the hex whose owner's home contains it, else 4:
    /// a mover may touch down only if it is smaller.
    guard: [u8; HEXES],
    /// Per player: its pieces standing in its goal territory.
    in_goal: [u8; 6],
    /// Per player: its colour (territory).
    seats: [u8; 6],
    /// Per colour: its player, or NONE.
    player_of_colour: [u8; 6],
    players: u8,
    player: u8,
    /// The stack limit, capped at 255 (stacks never exceed 90).
    limit: u8,
    ply: u32,
    outcome: Outcome,
    hash: u64,
    params: MartianChineseCheckersParams,
}

impl MartianChineseCheckers {
    #[inline]
    fn colour(&self, id: usize) -> u8 {
        self.seats[player_of(id)]
    }

    /// Whether a mover of `colour`, moved piece of `size`, `moving` pieces in all, may touch
    /// down on `h`: within the stack limit, not directly on its own colour, and trapping no
    /// piece in its owner's home territory. (Empty hexes have top colour NONE and guard 4.)
    #[inline(always)]
    fn landable(&self, h: usize, colour: u8, size: u8, moving: u8) -> bool {
        self.height[h] + moving <= self.limit
            && self.top_colour[h] != colour
            && size < self.guard[h]
    }

    #[inline(always)]
    fn occupied(&self, h: usize) -> bool {
        self.height[h] != 0
    }

    /// The hex an untrapped piece of `size` on `from` reaches in direction `d`, if some
    /// split into steps and jumps touches down only on landable hexes.
    #[inline(always)]
    fn destination(
        &self,
        from: usize,
        d: usize,
        colour: u8,
        size: u8,
        moving: u8,
    ) -> Option<usize> {
        let h1 = NEIGHBOUR[from][d];
        if h1 == OFF {
            return None;
        }
        let h1 = h1 as usize;
        let l1 = self.landable(h1, colour, size, moving);
        if size == 1 {
            return l1.then_some(h1);
        }
        let h2 = NEIGHBOUR[h1][d];
        if h2 == OFF {
            return None;
        }
        let h2 = h2 as usize;
        let l2 = self.landable(h2, colour, size, moving);
        if size == 2 {
            // step + step, or a jump over h1.
            return (l2 && (l1 || self.occupied(h1))).then_some(h2);
        }
        let h3 = NEIGHBOUR[h2][d];
        if h3 == OFF {
            return None;
        }
        let h3 = h3 as usize;
        // 1+1+1, 1+2 (jump over h2) or 2+1 (jump over h1); all end on h3.
        let ok = self.landable(h3, colour, size, moving)
            && ((l1 && (l2 || self.occupied(h2))) || (self.occupied(h1) && l2));
        ok.then_some(h3)
    }

    /// Whether a piece of `colour` and `size` put on top of `h` would trap a piece of
    /// another colour (a necessary condition for an exchange to end the move).
    fn would_trap_other(&self, h: usize, colour: u8, size: u8) -> bool {
        let mut p = self.top[h];
        while p != NONE {
            let id = p as usize;
            if size_of(id) <= size && self.colour(id) != colour {
                return true;
            }
            p = self.below[id];
        }
        false
    }

    /// Calls `visit(g)` for every G the player to move may exchange with its piece `x`, until
    /// it breaks: G has a colour c other than the mover's that X traps, and G traps a piece
    /// of the mover.
    #[inline]
    fn scan_partners<B>(
        &self,
        x: usize,
        mut visit: impl FnMut(usize) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let me = self.seats[self.player as usize];
        let mut colours = self.traps[x] & !(1 << me);
        while colours != 0 {
            let c = colours.trailing_zeros() as usize;
            colours &= colours - 1;
            let owner = self.player_of_colour[c] as usize;
            for g in owner * PIECES..owner * PIECES + PIECES {
                if self.traps[g] & (1 << me) != 0 {
                    visit(g)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Every legal move other than `pass`, until `visit` breaks; continues with whether there
    /// was one.
    #[inline]
    fn scan_plain_moves<B>(
        &self,
        visit: &mut impl FnMut(MartianChineseCheckersMove) -> ControlFlow<B>,
    ) -> ControlFlow<B, bool> {
        let me = self.player as usize;
        let colour = self.seats[me];
        let mut any = false;
        let mut free = self.free[me];
        while free != 0 {
            let id = me * PIECES + free.trailing_zeros() as usize;
            free &= free - 1;
            let size = size_of(id);
            let from = self.hex[id] as usize;
            let moving = self.height[from] - self.level[id];
            for d in 0..6 {
                let Some(to) = self.destination(from, d, colour, size, moving) else {
                    continue;
                };
                let mv = MartianChineseCheckersMove::movement(id, to);
                visit(mv)?;
                any = true;
                if self.would_trap_other(to, colour, size) {
                    let mut after = self.clone();
                    after.move_stack(id, to);
                    after.scan_partners(id, |g| visit(mv.with_exchange(id, g)))?;
                }
            }
        }
        for x in me * PIECES..me * PIECES + PIECES {
            if self.traps[x] & !(1 << colour) != 0 {
                self.scan_partners(x, |g| {
                    any = true;
                    visit(MartianChineseCheckersMove {
                        piece: NONE,
                        to: NONE,
                        x: x as u8,
                        g: g as u8,
                    })
                })?;
            }
        }
        ControlFlow::Continue(any)
    }

    /// The pieces of `h`, bottom to top, in `buf`; returns the height.
    fn stack(&self, h: usize, buf: &mut [u8; MAX_PIECES]) -> usize {
        let mut p = self.top[h];
        while p != NONE {
            buf[self.level[p as usize] as usize] = p;
            p = self.below[p as usize];
        }
        self.height[h] as usize
    }

    /// Recomputes the summaries of hex `h` and of the pieces on it.
    fn refresh(&mut self, h: usize) {
        // The common short stacks first.
        match self.height[h] {
            0 => {
                self.guard[h] = NO_GUARD;
                self.top_colour[h] = NONE;
                return;
            }
            1 => {
                let id = self.top[h] as usize;
                let (size, colour) = (size_of(id), self.colour(id));
                self.free[player_of(id)] |= 1 << (id % PIECES);
                self.traps[id] = 0;
                self.guard[h] = if HOME[h] & (1 << colour) != 0 {
                    size
                } else {
                    NO_GUARD
                };
                self.top_colour[h] = colour;
                return;
            }
            _ => {}
        }
        let mut buf = [NONE; MAX_PIECES];
        let n = self.stack(h, &mut buf);
        // Top down: a piece is free when nothing above is at least as large.
        let mut largest_above = 0;
        for &p in buf[..n].iter().rev() {
            let id = p as usize;
            let size = size_of(id);
            let bit = 1u16 << (id % PIECES);
            if size > largest_above {
                self.free[player_of(id)] |= bit;
            } else {
                self.free[player_of(id)] &= !bit;
            }
            largest_above = largest_above.max(size);
        }
        // Bottom up: the colours each piece traps, and the home-territory guard.
        let mut at_most = [0u8; 4]; // at_most[s]: colours below with size <= s
        let mut guard = NO_GUARD;
        for &p in &buf[..n] {
            let id = p as usize;
            let (size, colour) = (size_of(id), self.colour(id));
            self.traps[id] = at_most[size as usize];
            for slot in &mut at_most[size as usize..] {
                *slot |= 1 << colour;
            }
            if HOME[h] & (1 << colour) != 0 {
                guard = guard.min(size);
            }
        }
        self.guard[h] = guard;
        self.top_colour[h] = if n == 0 {
            NONE
        } else {
            self.colour(buf[n - 1] as usize)
        };
    }

    /// Updates the hash and goal counts for piece `id` leaving (hex, level) for another place.
    #[inline]
    fn relocate(&mut self, id: usize, hex: usize, level: usize) {
        let (colour, size) = (self.colour(id), size_of(id));
        let (old_hex, old_level) = (self.hex[id] as usize, self.level[id] as usize);
        self.hash ^=
            piece_key(old_hex, old_level, colour, size) ^ piece_key(hex, level, colour, size);
        let goal = goal_of(colour);
        let was = TERRITORY[old_hex] == goal;
        let is = TERRITORY[hex] == goal;
        if was != is {
            let p = player_of(id);
            if is {
                self.in_goal[p] += 1;
            } else {
                self.in_goal[p] -= 1;
            }
        }
        self.hex[id] = hex as u8;
        self.level[id] = level as u8;
    }

    /// Moves piece `id` and every piece above it onto the top of `to`.
    fn move_stack(&mut self, id: usize, to: usize) {
        let from = self.hex[id] as usize;
        let base = self.level[id];
        let new_base = self.height[to];
        let old_top = self.top[from];
        let moving = self.height[from] - base;
        let mut p = old_top as usize;
        loop {
            let level = self.level[p] - base + new_base;
            self.relocate(p, to, level as usize);
            if p == id {
                break;
            }
            p = self.below[p] as usize;
        }
        self.top[from] = self.below[id];
        self.below[id] = self.top[to];
        self.top[to] = old_top;
        self.height[from] = base;
        self.height[to] = new_base + moving;
        self.refresh(from);
        self.refresh(to);
    }

    /// Swaps the places of pieces `x` and `g`.
    fn swap_pieces(&mut self, x: usize, g: usize) {
        let (hx, lx) = (self.hex[x] as usize, self.level[x] as usize);
        let (hg, lg) = (self.hex[g] as usize, self.level[g] as usize);
        let mut at_x = [NONE; MAX_PIECES];
        let mut at_g = [NONE; MAX_PIECES];
        let nx = self.stack(hx, &mut at_x);
        let ng = self.stack(hg, &mut at_g);
        self.relocate(x, hg, lg);
        self.relocate(g, hx, lx);
        if hx == hg {
            at_x.swap(lx, lg);
            self.relink(hx, &at_x[..nx]);
            self.refresh(hx);
        } else {
            at_x[lx] = g as u8;
            at_g[lg] = x as u8;
            self.relink(hx, &at_x[..nx]);
            self.relink(hg, &at_g[..ng]);
            self.refresh(hx);
            self.refresh(hg);
        }
    }

    /// Rewrites the links of `h` to hold `pieces`, bottom to top (their levels already set).
    fn relink(&mut self, h: usize, pieces: &[u8]) {
        let mut below = NONE;
        for &id in pieces {
            self.below[id as usize] = below;
            below = id;
        }
        self.top[h] = below;
    }

    /// Whether `player`'s 15 pieces stand on the 15 hexes of its goal, one each.
    fn goal_complete(&self, player: usize) -> bool {
        if self.in_goal[player] as usize != PIECES {
            return false;
        }
        let mut seen = 0u128;
        for id in player * PIECES..player * PIECES + PIECES {
            let bit = 1u128 << self.hex[id];
            if seen & bit != 0 {
                return false;
            }
            seen |= bit;
        }
        true
    }

    /// The goal check from `first` on clockwise, then the ply limit.
    fn judge(&mut self, first: usize) {
        let n = self.players as usize;
        for k in 0..n {
            let p = (first + k) % n;
            if self.goal_complete(p) {
                self.outcome = Outcome::Win(p as u8);
                return;
            }
        }
        self.outcome = if self.ply >= self.params.max_plies {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        };
    }

    /// Builds a state from stacks (bottom to top, `(colour, size)`), checked by the caller.
    fn build(
        stacks: &[Vec<(u8, u8)>],
        player: u8,
        ply: u32,
        params: &MartianChineseCheckersParams,
    ) -> MartianChineseCheckers {
        let n = params.players as usize;
        let mut seats = [NONE; 6];
        let mut player_of_colour = [NONE; 6];
        for (p, &c) in SEATS[n].iter().enumerate() {
            seats[p] = c;
            player_of_colour[c as usize] = p as u8;
        }
        let mut state = MartianChineseCheckers {
            hex: [NONE; MAX_PIECES],
            level: [NONE; MAX_PIECES],
            below: [NONE; MAX_PIECES],
            traps: [0; MAX_PIECES],
            free: [0; 6],
            top: [NONE; HEXES],
            height: [0; HEXES],
            top_colour: [NONE; HEXES],
            guard: [NO_GUARD; HEXES],
            in_goal: [0; 6],
            seats,
            player_of_colour,
            players: n as u8,
            player,
            limit: params.stack_limit.map_or(u8::MAX, |l| l.min(255) as u8),
            ply,
            outcome: Outcome::Ongoing,
            hash: 0,
            params: *params,
        };
        let mut next_id = [[0usize; 3]; 6]; // per player and size: pieces placed
        for (h, stack) in stacks.iter().enumerate() {
            let mut below = NONE;
            for (level, &(colour, size)) in stack.iter().enumerate() {
                let p = player_of_colour[colour as usize] as usize;
                let id =
                    p * PIECES + (size as usize - 1) * PER_SIZE + next_id[p][size as usize - 1];
                next_id[p][size as usize - 1] += 1;
                state.hex[id] = h as u8;
                state.level[id] = level as u8;
                state.below[id] = below;
                below = id as u8;
                if TERRITORY[h] == goal_of(colour) {
                    state.in_goal[p] += 1;
                }
            }
            state.top[h] = below;
            state.height[h] = stack.len() as u8;
            state.refresh(h);
        }
        state.hash = state.hash_from_scratch();
        state
    }

    /// The pieces on `h`, bottom to top, as `(colour, size)`.
    fn stack_pieces(&self, h: usize) -> impl Iterator<Item = (u8, u8)> + '_ {
        let mut buf = [NONE; MAX_PIECES];
        let n = self.stack(h, &mut buf);
        (0..n).map(move |i| {
            let id = buf[i] as usize;
            (self.colour(id), size_of(id))
        })
    }

    /// The piece at `hex`/`level`, if any.
    fn piece_at(&self, hex: usize, level: usize) -> Option<usize> {
        let mut buf = [NONE; MAX_PIECES];
        let n = self.stack(hex, &mut buf);
        (level < n).then(|| buf[level] as usize)
    }
}

impl Game for MartianChineseCheckers {
    const NAME: &'static str = "martian_chinese_checkers";
    const TITLE: &'static str = "E (Martian Chinese Checkers)";

    type Params = MartianChineseCheckersParams;

    type Move = MartianChineseCheckersMove;

    fn params(&self) -> &MartianChineseCheckersParams {
        &self.params
    }

    fn start(params: &MartianChineseCheckersParams) -> Self {
        let mut stacks = vec![Vec::new(); HEXES];
        for &colour in SEATS[params.players as usize] {
            for (h, stack) in stacks.iter_mut().enumerate() {
                if TERRITORY[h] == colour {
                    stack.push((colour, GEO.start_size[h]));
                }
            }
        }
        let mut state = Self::build(&stacks, 0, 0, params);
        state.judge(params.players as usize - 1);
        state
    }

    fn current_player(&self) -> usize {
        self.player as usize
    }

    fn num_players(&self) -> usize {
        self.players as usize
    }

    fn outcome(&self) -> Outcome {
        self.outcome
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = SIDE_KEYS[self.player as usize];
        for id in 0..self.players as usize * PIECES {
            h ^= piece_key(
                self.hex[id] as usize,
                self.level[id] as usize,
                self.colour(id),
                size_of(id),
            );
        }
        h
    }

    #[inline]
    fn scan_moves<B>(
        &self,
        visit: &mut impl FnMut(MartianChineseCheckersMove) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        if self.outcome != Outcome::Ongoing {
            return ControlFlow::Continue(());
        }
        if !self.scan_plain_moves(visit)? {
            visit(MartianChineseCheckersMove::PASS)?;
        }
        ControlFlow::Continue(())
    }

    fn count_moves(&self) -> u64 {
        if self.outcome != Outcome::Ongoing {
            return 0;
        }
        let mut n = 0;
        let _ = self.scan_plain_moves(&mut |_| {
            n += 1;
            ControlFlow::<std::convert::Infallible>::Continue(())
        });
        n.max(1) // a pass when nothing else is legal
    }

    fn play_unchecked(&mut self, mv: MartianChineseCheckersMove) {
        let mover = self.player as usize;
        if mv.piece != NONE {
            self.move_stack(mv.piece as usize, mv.to as usize);
        }
        if mv.x != NONE {
            self.swap_pieces(mv.x as usize, mv.g as usize);
        }
        self.ply += 1;
        let next = (mover + 1) % self.players as usize;
        self.hash ^= SIDE_KEYS[mover] ^ SIDE_KEYS[next];
        self.player = next as u8;
        self.judge(mover);
    }
}

#[cfg(test)]
mod tests {
    use super::text::{hex_name, parse_hex};
    use super::*;

    fn params(players: u8) -> MartianChineseCheckersParams {
        MartianChineseCheckersParams {
            players,
            stack_limit: None,
            max_plies: 2000,
        }
    }

    #[test]
    fn geometry_matches_the_rules_page() {
        assert_eq!(GEO.q.len(), 127);
        for t in 0..6u8 {
            assert_eq!(TERRITORY.iter().filter(|&&x| x == t).count(), 15);
            assert_eq!(HOME.iter().filter(|&&m| m & (1 << t) != 0).count(), 28);
        }
        assert_eq!(TERRITORY.iter().filter(|&&x| x == NONE).count(), 37);
        assert_eq!(hex_name(63), "g7");
        assert_eq!(HOME[63], 0b11_1111);
        assert_eq!(parse_hex("g7"), Some(63));
        assert_eq!(parse_hex("a1"), None);
        assert_eq!(parse_hex("a07"), None);
    }

    #[test]
    fn start_perft_matches_the_rules_page() {
        let expected: [(u8, &[u64]); 5] = [
            (2, &[28, 784, 24696]),
            (3, &[28, 784, 21952]),
            (4, &[25, 610, 15250]),
            (5, &[25, 535, 11395]),
            (6, &[22, 469, 9988]),
        ];
        for (players, counts) in expected {
            let s = MartianChineseCheckers::start(&params(players));
            assert_eq!(s.hash(), s.hash_from_scratch());
            for (i, &n) in counts.iter().enumerate() {
                let depth = i as u32 + 1;
                assert_eq!(crate::perft::perft(&s, depth), n, "{players} players, depth {depth}");
                assert_eq!(crate::perft::perft_no_bulk(&s, depth), n);
            }
        }
    }

    #[test]
    fn text_round_trips_with_hash() {
        let s = MartianChineseCheckers::start(&params(2));
        let t = s.text();
        let again = MartianChineseCheckers::from_text(&t, &params(2)).expect("reads back");
        assert_eq!(again.text(), t);
        assert_eq!(again.hash(), s.hash());
    }

    #[test]
    fn the_number_of_players_comes_from_the_text() {
        use crate::Session;
        let six = MartianChineseCheckers::start(&params(6)).text();
        let session = Session::<MartianChineseCheckers>::from_text(&six, &[]).expect("reads");
        assert_eq!(session.state().num_players(), 6);
        assert_eq!(session.state().params().players, 6);
        let agreeing = [("players", ParamValue::Int(6))];
        assert!(Session::<MartianChineseCheckers>::from_text(&six, &agreeing).is_ok());
        let disagreeing = [("players", ParamValue::Int(4))];
        let err = Session::<MartianChineseCheckers>::from_text(&six, &disagreeing).unwrap_err();
        assert_eq!(
            err,
            Error::InvalidParameter(
                "the position text has players=6, but players=4 was given \
                 (leave players out to take it from the text)"
                    .into()
            )
        );
    }
}
