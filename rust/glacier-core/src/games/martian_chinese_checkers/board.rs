//! The hexagon of 127 hexes: axial coordinates, neighbours, the six territories, each
//! player's home, and the seats of 2 to 6 players.

use super::*;

/// Axial steps (dq, dr), in the order the rules page lists them.
pub(super) const DIRS: [(i8, i8); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];
/// Sign pattern of (q, r, s) per territory, numbered clockwise.
pub(super) const SIGNS: [[i8; 3]; 6] = [
    [1, -1, -1],
    [1, -1, 1],
    [-1, -1, 1],
    [-1, 1, 1],
    [-1, 1, -1],
    [1, 1, -1],
];
/// Seats (territories) per number of players; player i takes the i-th.
pub(super) const SEATS: [&[u8]; 7] = [
    &[],
    &[],
    &[0, 3],
    &[0, 2, 4],
    &[0, 1, 3, 4],
    &[0, 1, 2, 3, 4],
    &[0, 1, 2, 3, 4, 5],
];
pub(super) const SIZE_LETTERS: [char; 3] = ['s', 'm', 'l'];
pub(super) const SIZE_NAMES: [&str; 3] = ["small", "medium", "large"];

pub(super) const fn sign(v: i8) -> i8 {
    if v > 0 {
        1
    } else if v < 0 {
        -1
    } else {
        0
    }
}

pub(super) const fn abs(v: i8) -> i8 {
    if v < 0 {
        -v
    } else {
        v
    }
}

/// Everything fixed about the board, computed at compile time.
pub(super) struct Geometry {
    pub(super) q: [i8; HEXES],
    pub(super) r: [i8; HEXES],
    /// `(q + 6) * 13 + (r + 6)` to hex index, or OFF.
    pub(super) grid: [u8; 169],
    pub(super) neighbour: [[u8; 6]; HEXES],
    /// The territory of a hex, or NONE on the border lines and the centre.
    pub(super) territory: [u8; HEXES],
    /// Bit t: the hex is in territory t's home (its hexes, its two border rays, the centre).
    pub(super) home: [u8; HEXES],
    /// The start size of a piece on each territory hex (0 elsewhere).
    pub(super) start_size: [u8; HEXES],
}

pub(super) const fn geometry() -> Geometry {
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

pub(super) const GEO: Geometry = geometry();
pub(super) const NEIGHBOUR: [[u8; 6]; HEXES] = GEO.neighbour;
pub(super) const HOME: [u8; HEXES] = GEO.home;
pub(super) const TERRITORY: [u8; HEXES] = GEO.territory;


/// `LINE[h][d]`: the first three hexes from `h` in direction `d`, which a movement of up to
/// three hexes passes; `OFF_BOARD` from where the line leaves the board.
pub(super) const LINE: [[[u8; 3]; 6]; HEXES] = {
    let mut line = [[[OFF_BOARD; 3]; 6]; HEXES];
    let mut h = 0;
    while h < HEXES {
        let mut d = 0;
        while d < 6 {
            let mut at = NEIGHBOUR[h][d];
            let mut k = 0;
            while k < 3 && at != OFF {
                line[h][d][k] = at;
                at = NEIGHBOUR[at as usize][d];
                k += 1;
            }
            d += 1;
        }
        h += 1;
    }
    line
};

/// `PLAYER_OF_COLOUR[n][c]`: with `n` players, the player of colour `c`, or NONE.
pub(super) const PLAYER_OF_COLOUR: [[u8; 6]; 7] = {
    let mut table = [[NONE; 6]; 7];
    let mut n = 2;
    while n <= 6 {
        let mut p = 0;
        while p < n {
            table[n][SEATS[n][p] as usize] = p as u8;
            p += 1;
        }
        n += 1;
    }
    table
};
