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

use crate::error::Error;
use crate::game::{Game, Outcome};
use crate::notation::parse_count;
use crate::params::{text_disagrees, ParamSpec, ParamValue};
use crate::{bad_position, zobrist};
use std::fmt::Write as _;

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

/// Axial steps (dq, dr), in the order the rules page lists them.
const DIRS: [(i8, i8); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];
/// Sign pattern of (q, r, s) per territory, numbered clockwise.
const SIGNS: [[i8; 3]; 6] = [
    [1, -1, -1],
    [1, -1, 1],
    [-1, -1, 1],
    [-1, 1, 1],
    [-1, 1, -1],
    [1, 1, -1],
];
/// Seats (territories) per number of players; player i takes the i-th.
const SEATS: [&[u8]; 7] = [
    &[],
    &[],
    &[0, 3],
    &[0, 2, 4],
    &[0, 1, 3, 4],
    &[0, 1, 2, 3, 4],
    &[0, 1, 2, 3, 4, 5],
];
const SIZE_LETTERS: [char; 3] = ['s', 'm', 'l'];
const SIZE_NAMES: [&str; 3] = ["small", "medium", "large"];

const fn sign(v: i8) -> i8 {
    if v > 0 {
        1
    } else if v < 0 {
        -1
    } else {
        0
    }
}

const fn abs(v: i8) -> i8 {
    if v < 0 {
        -v
    } else {
        v
    }
}

/// Everything fixed about the board, computed at compile time.
struct Geometry {
    q: [i8; HEXES],
    r: [i8; HEXES],
    /// `(q + 6) * 13 + (r + 6)` to hex index, or OFF.
    grid: [u8; 169],
    neighbour: [[u8; 6]; HEXES],
    /// The territory of a hex, or NONE on the border lines and the centre.
    territory: [u8; HEXES],
    /// Bit t: the hex is in territory t's home (its hexes, its two border rays, the centre).
    home: [u8; HEXES],
    /// The start size of a piece on each territory hex (0 elsewhere).
    start_size: [u8; HEXES],
}

const fn geometry() -> Geometry {
    let mut g = Geometry {
        q: [0; HEXES],
        r: [0; HEXES],
        grid: [OFF; 169],
        neighbour: [[OFF; 6]; HEXES],
        territory: [NONE; HEXES],
        home: [0; HEXES],
        start_size: [0; HEXES],
    };
    let mut i = 0;
    let mut q = -6i8;
    while q <= 6 {
        let mut r = -6i8;
        while r <= 6 {
            let s = -q - r;
            if abs(s) <= 6 {
                g.q[i] = q;
                g.r[i] = r;
                g.grid[((q + 6) as usize) * 13 + (r + 6) as usize] = i as u8;
                let cube = [q, r, s];
                let mut t = 0;
                while t < 6 {
                    let mut all = true;
                    let mut inside = true;
                    let mut j = 0;
                    while j < 3 {
                        if cube[j] == 0 {
                            inside = false;
                        } else if sign(cube[j]) != SIGNS[t][j] {
                            all = false;
                            inside = false;
                        }
                        j += 1;
                    }
                    if all {
                        g.home[i] |= 1 << t;
                    }
                    if inside {
                        g.territory[i] = t as u8;
                    }
                    t += 1;
                }
                if g.territory[i] != NONE {
                    let d = if abs(q) > abs(r) { abs(q) } else { abs(r) };
                    let d = if abs(s) > d { abs(s) } else { d };
                    g.start_size[i] = if d == 6 {
                        3
                    } else if d == 5 || (d == 4 && (q == r || r == s || q == s)) {
                        2
                    } else {
                        1
                    };
                }
                i += 1;
            }
            r += 1;
        }
        q += 1;
    }
    let mut h = 0;
    while h < HEXES {
        let mut d = 0;
        while d < 6 {
            let (nq, nr) = (g.q[h] + DIRS[d].0, g.r[h] + DIRS[d].1);
            if abs(nq) <= 6 && abs(nr) <= 6 {
                g.neighbour[h][d] = g.grid[((nq + 6) as usize) * 13 + (nr + 6) as usize];
            }
            d += 1;
        }
        h += 1;
    }
    g
}

const GEO: Geometry = geometry();
const NEIGHBOUR: [[u8; 6]; HEXES] = GEO.neighbour;
const HOME: [u8; HEXES] = GEO.home;
const TERRITORY: [u8; HEXES] = GEO.territory;

const fn size_of(id: usize) -> u8 {
    ((id % PIECES) / PER_SIZE) as u8 + 1
}

const fn player_of(id: usize) -> usize {
    id / PIECES
}

const fn goal_of(colour: u8) -> u8 {
    (colour + 3) % 6
}

fn hex_name(h: usize) -> String {
    let mut out = String::with_capacity(3);
    write_hex(&mut out, h);
    out
}

/// Appends a hex's text (letter for q, then r + 7) without allocating.
fn write_hex(out: &mut String, h: usize) {
    out.push((b'a' + (GEO.q[h] + 6) as u8) as char);
    let number = (GEO.r[h] + 7) as u8;
    if number >= 10 {
        out.push('1');
    }
    out.push((b'0' + number % 10) as char);
}

/// Appends `<hex>/<level>` without allocating.
fn write_place(out: &mut String, h: usize, level: usize) {
    write_hex(out, h);
    out.push('/');
    if level >= 10 {
        out.push((b'0' + (level / 10) as u8) as char);
    }
    out.push((b'0' + (level % 10) as u8) as char);
}

/// A hex name, `a`..`m` then 1..13 without leading zeros, on the board.
fn parse_hex(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let (&letter, number) = bytes.split_first()?;
    if !(b'a'..=b'm').contains(&letter) {
        return None;
    }
    let number = parse_count(std::str::from_utf8(number).ok()?)?;
    if !(1..=13).contains(&number) {
        return None;
    }
    let (q, r) = (i32::from(letter - b'a') - 6, number as i32 - 7);
    if (q + r).abs() > 6 {
        return None;
    }
    let h = GEO.grid[((q + 6) * 13 + r + 6) as usize];
    (h != OFF).then_some(h as usize)
}

/// `<hex>/<level>`.
fn parse_place(s: &str) -> Option<(usize, usize)> {
    let (hex, level) = s.split_once('/')?;
    Some((parse_hex(hex)?, parse_count(level)? as usize))
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
pub struct MccMove {
    piece: u8,
    to: u8,
    x: u8,
    g: u8,
}

impl MccMove {
    pub const PASS: MccMove = MccMove {
        piece: NONE,
        to: NONE,
        x: NONE,
        g: NONE,
    };
    const fn movement(piece: usize, to: usize) -> MccMove {
        MccMove {
            piece: piece as u8,
            to: to as u8,
            x: NONE,
            g: NONE,
        }
    }
    const fn with_exchange(self, x: usize, g: usize) -> MccMove {
        MccMove {
            x: x as u8,
            g: g as u8,
            ..self
        }
    }
    #[must_use]
    pub fn is_pass(self) -> bool {
        self == MccMove::PASS
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MccParams {
    pub players: u8,
    /// `None`: stacks may grow without limit.
    pub stack_limit: Option<u32>,
    pub max_plies: u32,
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
    params: MccParams,
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

    /// Calls `sink(g)` for every G the player to move may exchange with its piece `x`: G has
    /// a colour c other than the mover's that X traps, and G traps a piece of the mover.
    #[inline]
    fn for_each_partner(&self, x: usize, mut sink: impl FnMut(usize)) {
        let me = self.seats[self.player as usize];
        let mut colours = self.traps[x] & !(1 << me);
        while colours != 0 {
            let c = colours.trailing_zeros() as usize;
            colours &= colours - 1;
            let owner = self.player_of_colour[c] as usize;
            for g in owner * PIECES..owner * PIECES + PIECES {
                if self.traps[g] & (1 << me) != 0 {
                    sink(g);
                }
            }
        }
    }

    /// Every legal move other than `pass`; returns whether there was one.
    #[inline]
    fn for_each_move(&self, sink: &mut impl FnMut(MccMove)) -> bool {
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
                let mv = MccMove::movement(id, to);
                sink(mv);
                any = true;
                if self.would_trap_other(to, colour, size) {
                    let mut after = self.clone();
                    after.move_stack(id, to);
                    after.for_each_partner(id, |g| sink(mv.with_exchange(id, g)));
                }
            }
        }
        for x in me * PIECES..me * PIECES + PIECES {
            if self.traps[x] & !(1 << colour) != 0 {
                self.for_each_partner(x, |g| {
                    any = true;
                    sink(MccMove {
                        piece: NONE,
                        to: NONE,
                        x: x as u8,
                        g: g as u8,
                    });
                });
            }
        }
        any
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
        params: &MccParams,
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

    fn stack_text(&self, h: usize) -> String {
        self.stack_pieces(h)
            .map(|(c, s)| format!("{c}{}", SIZE_LETTERS[s as usize - 1]))
            .collect()
    }

    /// The piece at `hex`/`level`, if any.
    fn piece_at(&self, hex: usize, level: usize) -> Option<usize> {
        let mut buf = [NONE; MAX_PIECES];
        let n = self.stack(hex, &mut buf);
        (level < n).then(|| buf[level] as usize)
    }

    fn explain_illegal(&self, text: &str) -> String {
        let (movement, exchange) = match split_move(text) {
            Some(parts) => parts,
            None => {
                return format!(
                    "'{text}' is not an E move: expected '<hex>/<level>-<hex>' (e.g. 'd5/0-e5'), optionally \
                     followed by an exchange 'x<hex>/<level>=<hex>/<level>', a lone exchange, or 'pass'"
                )
            }
        };
        let me = self.seats[self.player as usize];
        let Some(((from, level), to)) = movement else {
            return format!(
                "illegal move '{text}': not a guard exchange the player to move can make"
            );
        };
        let place = format!("{}/{level}", hex_name(from));
        let Some(id) = self.piece_at(from, level) else {
            return format!("illegal move '{text}': there is no piece at {place}");
        };
        let colour = self.colour(id);
        if colour != me {
            return format!(
                "illegal move '{text}': the piece at {place} has colour {colour}, not the mover's {me}"
            );
        }
        if self.free[player_of(id)] & (1 << (id % PIECES)) == 0 {
            return format!(
                "illegal move '{text}': the piece at {place} is trapped (a piece above it is at least as large)"
            );
        }
        let size = size_of(id);
        let in_line = (0..6).any(|d| {
            let mut h = from as u8;
            for _ in 0..size {
                if h != OFF {
                    h = NEIGHBOUR[h as usize][d];
                }
            }
            h as usize == to
        });
        if !in_line {
            return format!(
                "illegal move '{text}': a {} piece moves exactly {size} hex{} in a straight line",
                SIZE_NAMES[size as usize - 1],
                if size > 1 { "es" } else { "" }
            );
        }
        let moving = self.height[from] - self.level[id];
        let reached = (0..6).any(|d| self.destination(from, d, colour, size, moving) == Some(to));
        if !reached {
            return format!(
                "illegal move '{text}': no split of the path into steps and jumps touches down only on \
                 landable hexes (empty or topped by another colour, no trap in a home territory, within the stack limit)"
            );
        }
        if exchange.is_none() {
            return format!("illegal move '{text}': it is not legal here");
        }
        format!("illegal move '{text}': that guard exchange cannot end this move")
    }
}

type Place = (usize, usize);

/// Splits a move text into its movement `((from, level), to)` and its exchange `(X, G)`,
/// either of which may be absent; `None` when it is not in the notation.
#[allow(clippy::type_complexity)]
fn split_move(text: &str) -> Option<(Option<(Place, usize)>, Option<(Place, Place)>)> {
    let (movement_text, exchange_text) = match text.split_once('x') {
        Some((m, e)) => (m, Some(e)),
        None => (text, None),
    };
    let movement = if movement_text.is_empty() {
        None
    } else {
        let (from, to) = movement_text.split_once('-')?;
        Some((parse_place(from)?, parse_hex(to)?))
    };
    let exchange = match exchange_text {
        None => None,
        Some(e) => {
            let (x, g) = e.split_once('=')?;
            Some((parse_place(x)?, parse_place(g)?))
        }
    };
    if movement.is_none() && exchange.is_none() {
        return None;
    }
    Some((movement, exchange))
}

impl Game for MartianChineseCheckers {
    const NAME: &'static str = "martian_chinese_checkers";
    const PARAMS: &'static [ParamSpec] = &[
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

    type Params = MccParams;
    type Move = MccMove;

    fn build_params(values: &[ParamValue]) -> Result<MccParams, Error> {
        Ok(MccParams {
            players: values[0].int() as u8,
            stack_limit: values[1].opt().map(|v| v as u32),
            max_plies: values[2].int() as u32,
        })
    }

    fn param_values(params: &MccParams) -> Vec<ParamValue> {
        vec![
            ParamValue::Int(params.players.into()),
            params
                .stack_limit
                .map_or(ParamValue::None, |v| ParamValue::Int(v.into())),
            ParamValue::Int(params.max_plies.into()),
        ]
    }

    fn params(&self) -> &MccParams {
        &self.params
    }

    fn start(params: &MccParams) -> Self {
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

    fn from_text(text: &str, params: &MccParams) -> Result<Self, Error> {
        let fields: Vec<&str> = text.split(' ').collect();
        if fields.len() < 4 {
            return Err(bad_position!(
                "an E position is '<players> <player to move> <ply> <hex>=<stack> ...' separated by \
                 single spaces, got '{text}'"
            ));
        }
        let n = parse_count(fields[0]).filter(|n| (2..=6).contains(n));
        let Some(n) = n else {
            return Err(bad_position!(
                "the number of players must be 2 to 6, got '{}'",
                fields[0]
            ));
        };
        if n != u32::from(params.players) {
            return Err(text_disagrees(
                "players",
                ParamValue::Int(n.into()),
                ParamValue::Int(params.players.into()),
            ));
        }
        let Some(player) = parse_count(fields[1]).filter(|&p| p < n) else {
            return Err(bad_position!(
                "the player to move must be a number from 0 to {}, got '{}'",
                n - 1,
                fields[1]
            ));
        };
        let Some(ply) = parse_count(fields[2]) else {
            return Err(bad_position!(
                "the ply count must be a number, got '{}'",
                fields[2]
            ));
        };
        let seats = SEATS[n as usize];
        let mut stacks = vec![Vec::new(); HEXES];
        let mut seen = [false; HEXES];
        let mut counts = [[0usize; 3]; 6];
        for field in &fields[3..] {
            let Some((name, stack_text)) = field.split_once('=') else {
                return Err(bad_position!("expected '<hex>=<stack>', got '{field}'"));
            };
            let Some(h) = parse_hex(name) else {
                return Err(bad_position!(
                    "'{name}' is not a hex of the board (a1..m13, within the hexagon)"
                ));
            };
            if seen[h] {
                return Err(bad_position!("hex {name} is listed twice"));
            }
            seen[h] = true;
            let bytes = stack_text.as_bytes();
            if bytes.is_empty() || bytes.len() % 2 != 0 || !stack_text.is_ascii() {
                return Err(bad_position!(
                    "the stack on {name} must be pieces like '0s3l' (colour digit, size s/m/l), got '{stack_text}'"
                ));
            }
            for pair in bytes.chunks(2) {
                let size = match pair[1] {
                    b's' => 1,
                    b'm' => 2,
                    b'l' => 3,
                    _ => 0,
                };
                if !(b'0'..=b'5').contains(&pair[0]) || size == 0 {
                    return Err(bad_position!(
                        "bad piece '{}' on {name}: a piece is a colour digit 0-5 and a size s/m/l",
                        String::from_utf8_lossy(pair)
                    ));
                }
                let colour = pair[0] - b'0';
                if !seats.contains(&colour) {
                    let list: Vec<String> = seats.iter().map(u8::to_string).collect();
                    return Err(bad_position!(
                        "a piece of colour {colour} on {name}, but with {n} players the colours are {}",
                        list.join(", ")
                    ));
                }
                counts[colour as usize][size as usize - 1] += 1;
                stacks[h].push((colour, size));
            }
            if let Some(limit) = params.stack_limit {
                if stacks[h].len() as u64 > u64::from(limit) {
                    return Err(bad_position!(
                        "the stack on {name} has {} pieces, more than the stack_limit {limit}",
                        stacks[h].len()
                    ));
                }
            }
        }
        for &colour in seats {
            for size in 0..3 {
                let count = counts[colour as usize][size];
                if count != PER_SIZE {
                    return Err(bad_position!(
                        "colour {colour} has {count} {} pieces; every seated colour has exactly \
                         {PER_SIZE} small, {PER_SIZE} medium and {PER_SIZE} large",
                        SIZE_NAMES[size]
                    ));
                }
            }
        }
        let mut state = Self::build(&stacks, player as u8, ply, params);
        // Judged as read: the goal check from the player before the one to move.
        state.judge((player as usize + n as usize - 1) % n as usize);
        Ok(state)
    }

    /// The number of players, the text's first field (when it is one: 2 to 6).
    fn text_params(text: &str) -> Vec<(&'static str, ParamValue)> {
        let players = text.split(' ').next().and_then(parse_count);
        match players {
            Some(n @ 2..=6) => vec![("players", ParamValue::Int(n.into()))],
            _ => Vec::new(),
        }
    }

    fn text(&self) -> String {
        let mut out = format!("{} {} {}", self.players, self.player, self.ply);
        for h in 0..HEXES {
            if self.height[h] > 0 {
                let _ = write!(out, " {}={}", hex_name(h), self.stack_text(h));
            }
        }
        out
    }

    fn board_string(&self) -> String {
        let mut out = String::new();
        for r in -6i8..=6 {
            let _ = write!(out, "{:>2} ", r + 7);
            out.push_str(&" ".repeat(2 * r.unsigned_abs() as usize));
            let mut cells = Vec::new();
            for q in -6i8..=6 {
                if (q + r).abs() > 6 {
                    continue;
                }
                let h = GEO.grid[((q + 6) as usize) * 13 + (r + 6) as usize] as usize;
                let cell = match self.stack_pieces(h).last() {
                    None if TERRITORY[h] == NONE => " . ".to_string(),
                    None => " - ".to_string(),
                    Some((c, s)) => format!(
                        "{c}{}{}",
                        SIZE_LETTERS[s as usize - 1],
                        if self.height[h] > 1 { '+' } else { ' ' }
                    ),
                };
                cells.push(cell);
            }
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        let tall: Vec<String> = (0..HEXES)
            .filter(|&h| self.height[h] > 1)
            .map(|h| format!("{}={}", hex_name(h), self.stack_text(h)))
            .collect();
        if !tall.is_empty() {
            let _ = writeln!(out, "stacks (bottom to top): {}", tall.join(" "));
        }
        let status = match self.outcome {
            Outcome::Ongoing => format!(
                "player {} (colour {}) to move",
                self.player, self.seats[self.player as usize]
            ),
            Outcome::Draw => "draw".to_string(),
            Outcome::Win(p) => format!("player {p} (colour {}) wins", self.seats[p as usize]),
        };
        let _ = write!(out, "{} players, {status}, ply {}", self.players, self.ply);
        out
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
    fn generate_moves(&self, sink: &mut impl FnMut(MccMove)) {
        if self.outcome != Outcome::Ongoing {
            return;
        }
        if !self.for_each_move(sink) {
            sink(MccMove::PASS);
        }
    }

    fn count_moves(&self) -> u64 {
        if self.outcome != Outcome::Ongoing {
            return 0;
        }
        let mut n = 0;
        self.for_each_move(&mut |_| n += 1);
        n.max(1) // a pass when nothing else is legal
    }

    fn play(&mut self, mv: MccMove) {
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

    fn move_text(&self, mv: MccMove) -> String {
        let mut out = String::with_capacity(24);
        self.write_move_text(mv, &mut out);
        out
    }

    fn write_move_text(&self, mv: MccMove, out: &mut String) {
        if mv.is_pass() {
            out.push_str("pass");
            return;
        }
        // Places as they stand just before the swap, that is after the movement.
        let (x_place, g_place) = if mv.piece != NONE {
            let id = mv.piece as usize;
            let to = mv.to as usize;
            write_place(out, self.hex[id] as usize, self.level[id] as usize);
            out.push('-');
            write_hex(out, to);
            let base = self.level[id];
            let new_base = self.height[to];
            let g = mv.g as usize;
            let rides = mv.x != NONE && self.hex[g] == self.hex[id] && self.level[g] > base;
            let g_place = if rides {
                (to, (self.level[g] - base + new_base) as usize)
            } else if mv.x != NONE {
                (self.hex[g] as usize, self.level[g] as usize)
            } else {
                (0, 0)
            };
            ((to, new_base as usize), g_place)
        } else {
            let (x, g) = (mv.x as usize, mv.g as usize);
            (
                (self.hex[x] as usize, self.level[x] as usize),
                (self.hex[g] as usize, self.level[g] as usize),
            )
        };
        if mv.x != NONE {
            out.push('x');
            write_place(out, x_place.0, x_place.1);
            out.push('=');
            write_place(out, g_place.0, g_place.1);
        }
    }

    /// Actions index the legal moves. No position has more than 7966: at most 15 movable
    /// pieces in 6 directions make 90 movements; each may end in an exchange with any of the
    /// at most 75 pieces of other colours (6750); a whole-turn exchange pairs one of the
    /// mover's 15 pieces with one of those 75 (1125); and `pass` (1).
    const ACTION_SPACE_SIZE: usize = 90 + 90 * 75 + 15 * 75 + 1;

    /// 39 planes over a 13x13 grid of axial coordinates `(q + 6, r + 6)`, turned by multiples
    /// of 60 degrees so that the mover's home territory is territory 0. For each player in turn
    /// order from the mover (`j` = 0..5) and size (`z` = 0 small, 1 medium, 2 large): plane
    /// `(j * 3 + z) * 2` counts that player's pieces of that size on the hex / 5, plane
    /// `(j * 3 + z) * 2 + 1` those of them that are not trapped / 5. Plane 36 marks the board,
    /// 37 the mover's goal territory, 38 the mover's home territory. Index
    /// `plane * 169 + (q + 6) * 13 + (r + 6)`.
    const OBSERVATION_SHAPE: &'static [usize] = &[39, 13, 13];

    fn observe(&self, out: &mut [f32]) {
        const CELLS: usize = 169;
        let me = self.player as usize;
        let n = self.players as usize;
        let home = self.seats[me];
        // Turning (q, r) to (-r, q + r) takes territory t to t - 1; do it `home` times.
        let cell = |h: usize| {
            let (mut q, mut r) = (GEO.q[h], GEO.r[h]);
            for _ in 0..home {
                (q, r) = (-r, q + r);
            }
            (q + 6) as usize * 13 + (r + 6) as usize
        };
        for h in 0..HEXES {
            let c = cell(h);
            out[36 * CELLS + c] = 1.0;
            if TERRITORY[h] == goal_of(home) {
                out[37 * CELLS + c] = 1.0;
            }
            if HOME[h] & (1 << home) != 0 {
                out[38 * CELLS + c] = 1.0;
            }
        }
        for id in 0..n * PIECES {
            let h = self.hex[id];
            if h == NONE {
                continue;
            }
            let player = player_of(id);
            let j = (player + n - me) % n;
            let plane = (j * 3 + usize::from(size_of(id) - 1)) * 2;
            let c = cell(usize::from(h));
            out[plane * CELLS + c] += 0.2;
            if self.free[player] & (1 << (id % PIECES)) != 0 {
                out[(plane + 1) * CELLS + c] += 0.2;
            }
        }
    }

    fn parse_move(&self, text: &str) -> Result<MccMove, Error> {
        if let Some(mv) = self.find_move_by_text(text) {
            return Ok(mv);
        }
        if text == "pass" {
            return Err(Error::IllegalMove(
                "'pass' is only legal when the player to move has no other move".into(),
            ));
        }
        Err(Error::IllegalMove(self.explain_illegal(text)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(players: u8) -> MccParams {
        MccParams {
            players,
            stack_limit: None,
            max_plies: 2000,
        }
    }

    #[test]
    fn geometry_matches_the_rulings() {
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
    fn start_perft_matches_rulings() {
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
                assert_eq!(s.perft(depth), n, "{players} players, depth {depth}");
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
