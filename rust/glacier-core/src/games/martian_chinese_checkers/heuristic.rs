//! The static evaluation of E for the search (docs/rules/martian_chinese_checkers.md,
//! "Heuristic"): how far each player is from filling its goal, in movements.

use super::*;
use crate::rng::SplitMix64;
use crate::search::evaluate::random_by_count;
use crate::search::{Heuristic, Values, MAX_PLAYERS};
use std::sync::OnceLock;

/// Work (in moves) added to the sum the lead is divided by: it keeps the value of a player
/// about to finish below 1, and every move's worth visible to the end.
const DAMPING: f32 = 8.0;
/// Work counted on top of the hex distance for a goal hex a piece's size never lets it
/// reach by its own movements (only riding or an exchange could bring it there).
const WRONG_LATTICE: u8 = 4;
/// Work counted for a trapped piece that is not on its hex yet (it waits for its trapper).
const TRAPPED: u8 = 1;
/// Work counted on top for a piece whose goal hex no piece of its size can enter as the
/// board stands (see [`Board::sealed`]): one of the pieces in the way has to leave and
/// come back.
const SEALED: u8 = 2;
/// A piece's size keeps it off a hex for good (in [`Tables::moves`]).
const NEVER: u8 = u8::MAX;

/// What the heuristic looks up, computed once.
struct Tables {
    /// `moves[s - 1][from][to]`: the fewest movements that take a piece of size `s` from
    /// `from` to `to` on an empty board, or [`NEVER`]: a piece moves exactly its size in a
    /// straight line, so a medium only ever reaches hexes an even number of hexes away along
    /// the axes, a large a multiple of three.
    moves: [[[u8; HEXES]; HEXES]; 3],
    /// `goal[t]`: the 15 hexes of territory `t`.
    goal: [[u8; PIECES]; 6],
    /// `nearest[s - 1][t][h]`: the work of a piece of size `s` on `h` to reach the nearest
    /// hex of territory `t` (as [`cost`] counts it, untrapped).
    nearest: [[[u8; HEXES]; 6]; 3],
}

fn hex_distance(a: usize, b: usize) -> u8 {
    let (dq, dr) = (GEO.q[a] - GEO.q[b], GEO.r[a] - GEO.r[b]);
    ((dq.abs() + dr.abs() + (dq + dr).abs()) / 2) as u8
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Box<Tables>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Box::new(Tables {
            moves: [[[NEVER; HEXES]; HEXES]; 3],
            goal: [[0; PIECES]; 6],
            nearest: [[[0; HEXES]; 6]; 3],
        });
        for size in 1..=3usize {
            for from in 0..HEXES {
                // Breadth first over the movements of exactly `size` hexes in a line.
                let row = &mut t.moves[size - 1][from];
                row[from] = 0;
                let mut queue = [0u8; HEXES];
                let (mut head, mut tail) = (0, 1);
                queue[0] = from as u8;
                while head < tail {
                    let at = queue[head] as usize;
                    head += 1;
                    for line in &LINE[at] {
                        let to = line[size - 1];
                        if to != OFF_BOARD && row[to as usize] == NEVER {
                            row[to as usize] = row[at] + 1;
                            queue[tail] = to;
                            tail += 1;
                        }
                    }
                }
            }
        }
        let mut filled = [0usize; 6];
        for (h, &territory) in TERRITORY.iter().enumerate() {
            if territory != NONE {
                let k = territory as usize;
                t.goal[k][filled[k]] = h as u8;
                filled[k] += 1;
            }
        }
        debug_assert!(filled.iter().all(|&n| n == PIECES));
        for size in 1..=3u8 {
            for territory in 0..6 {
                for h in 0..HEXES {
                    let best = t.goal[territory]
                        .iter()
                        .map(|&g| cost_in(&t.moves, h, g as usize, size))
                        .min()
                        .unwrap_or(NEVER);
                    t.nearest[size as usize - 1][territory][h] = best;
                }
            }
        }
        t
    })
}

/// The work of a free piece of `size` on `from` to reach `to`: its movements there, or for
/// a hex it cannot reach, the movements its distance would take plus [`WRONG_LATTICE`].
#[inline]
fn cost_in(moves: &[[[u8; HEXES]; HEXES]; 3], from: usize, to: usize, size: u8) -> u8 {
    match moves[size as usize - 1][from][to] {
        NEVER => hex_distance(from, to).div_ceil(size) + WRONG_LATTICE,
        n => n,
    }
}

/// The least total cost of giving each of `n` rows its own column of `cost` (the Hungarian
/// method by shortest augmenting paths, O(n^3); fixed-size arrays, nothing allocated).
fn assignment(cost: &[[u8; PIECES]; PIECES]) -> u32 {
    const N: usize = PIECES;
    const INF: i32 = i32::MAX / 2;
    // 1-based potentials and matching, column 0 the virtual start.
    let mut u = [0i32; N + 1];
    let mut v = [0i32; N + 1];
    let mut row_of = [0usize; N + 1];
    let mut way = [0usize; N + 1];
    for row in 1..=N {
        row_of[0] = row;
        let mut col0 = 0;
        let mut min_to = [INF; N + 1];
        let mut used = [false; N + 1];
        loop {
            used[col0] = true;
            let r0 = row_of[col0];
            let mut delta = INF;
            let mut col1 = 0;
            for col in 1..=N {
                if !used[col] {
                    let reduced = i32::from(cost[r0 - 1][col - 1]) - u[r0] - v[col];
                    if reduced < min_to[col] {
                        min_to[col] = reduced;
                        way[col] = col0;
                    }
                    if min_to[col] < delta {
                        delta = min_to[col];
                        col1 = col;
                    }
                }
            }
            for col in 0..=N {
                if used[col] {
                    u[row_of[col]] += delta;
                    v[col] -= delta;
                } else {
                    min_to[col] -= delta;
                }
            }
            col0 = col1;
            if row_of[col0] == 0 {
                break;
            }
        }
        loop {
            let prev = way[col0];
            row_of[col0] = row_of[prev];
            col0 = prev;
            if col0 == 0 {
                break;
            }
        }
    }
    (1..=N)
        .map(|col| u32::from(cost[row_of[col] - 1][col - 1]))
        .sum()
}

impl<const P: usize> Board<P> {
    /// What player `p` still has to do, in movements: the cheapest way to give each of its
    /// pieces its own goal hex, a piece's cost for a hex being 0 for the hex it stands on,
    /// else the movements its size needs to get there on an empty board (see [`cost_in`]),
    /// one more if it is trapped. (Counting the pieces in the way as well, by a search over
    /// the board as it stands, played worse and ten times slower.)
    fn work(&self, p: usize) -> f32 {
        let t = tables();
        let goal = &t.goal[goal_of(Self::COLOURS[p]) as usize];
        let seat = &self.seats[p];
        // The goal hexes that already hold a piece of p, and for the others, which sizes
        // could not come in.
        let mut held = 0u16;
        for &hex in &seat.hex[..PIECES] {
            if let Some(i) = goal.iter().position(|&g| g == hex) {
                held |= 1 << i;
            }
        }
        let mut sealed = [0u8; PIECES];
        for (i, &g) in goal.iter().enumerate() {
            if held >> i & 1 == 0 {
                for size in 1..=3u8 {
                    if self.sealed(p, g as usize, size) {
                        sealed[i] |= 1 << (size - 1);
                    }
                }
            }
        }
        let mut cost = [[0u8; PIECES]; PIECES];
        for (slot, row) in cost.iter_mut().enumerate() {
            let hex = seat.hex[slot] as usize;
            let size = size_of(slot);
            let trapped = if self.free[p] >> slot & 1 == 0 { TRAPPED } else { 0 };
            for ((c, &g), &seal) in row.iter_mut().zip(goal).zip(&sealed) {
                *c = if g as usize == hex {
                    0
                } else {
                    let walled = if seal >> (size - 1) & 1 != 0 { SEALED } else { 0 };
                    cost_in(&t.moves, hex, g as usize, size) + trapped + walled
                };
            }
        }
        assignment(&cost) as f32
    }

    /// Whether p's own pieces wall the hex `g` in against a piece of p of `size`: along
    /// every line of `size` hexes that ends on `g`, the hex the piece would start from is
    /// off the board or topped by another piece of p (not a free one of that size, which
    /// could go), or the movement would have to touch down on a piece of p on the way.
    /// Typically a goal hex with p's pieces parked all around it, which one of them has to
    /// leave before the last piece can come in. Only p's own pieces count: the others' come
    /// and go, and counting them would pay a player for parking its pieces in its home
    /// to keep the others out of their goal.
    fn sealed(&self, p: usize, g: usize, size: u8) -> bool {
        let mine = |h: u8| usize::from(self.cell[h as usize] >> 3) == p;
        // A touch-down p's own pieces allow (the other rules of landing aside).
        let l = |h: u8| h != OFF_BOARD && !mine(h);
        let o = |h: u8| self.cell[h as usize] < EMPTY_CELL;
        let ready = |h: u8| {
            let top = self.top[h as usize] as usize;
            size_of(top) == size && self.is_free(top)
        };
        !LINE[g].iter().any(|&[a1, a2, a3]| {
            let start = [a1, a2, a3][size as usize - 1];
            if start == OFF_BOARD || (mine(start) && !ready(start)) {
                return false;
            }
            // The piece goes from `start` towards g: its first hex is the one nearest
            // `start` (as in `directions_within`).
            match size {
                1 => true,
                2 => o(a1) || l(a1),
                _ => (o(a2) && l(a1)) || (l(a2) && (o(a1) || l(a1))),
            }
        })
    }

    fn heuristic_values(&self, values: &mut Values) {
        let mut work = [0.0f32; MAX_PLAYERS];
        for (p, w) in work.iter_mut().enumerate().take(P) {
            *w = self.work(p);
        }
        let total: f32 = work[..P].iter().sum();
        // Each player's lead over the others' mean, relative to the work left to both (not
        // a tanh: a player far ahead would saturate it, every move would look alike and the
        // player would wander instead of finishing), then centred so the values sum to
        // zero as the returns do.
        let mut sum = 0.0;
        for p in 0..P {
            let others = (total - work[p]) / (P - 1) as f32;
            values[p] = (others - work[p]) / (others + work[p] + DAMPING);
            sum += values[p];
        }
        for v in &mut values[..P] {
            *v = (*v - sum / P as f32).clamp(-1.0, 1.0);
        }
    }

    /// How many movements nearer its goal territory a movement brings the moved piece.
    fn gain(&self, mv: MartianChineseCheckersMove) -> i32 {
        if mv.is_pass() || mv.to == NONE {
            return 0;
        }
        let id = mv.piece as usize;
        let goal = goal_of(Self::COLOURS[player_of(id)]) as usize;
        let nearest = &tables().nearest[size_of(id) as usize - 1][goal];
        i32::from(nearest[self.hex(id)]) - i32::from(nearest[mv.to as usize])
    }
}

impl Heuristic for MartianChineseCheckers {
    fn heuristic(&self, values: &mut Values) {
        on_board!(&self.0, b => b.heuristic_values(values));
    }

    /// Movements that bring their piece nearer its goal first.
    fn move_priority(&self, mv: MartianChineseCheckersMove) -> i32 {
        on_board!(&self.0, b => b.gain(mv))
    }

    /// The movements of work (as the heuristic counts it) the move saves its player: the
    /// exact cost of its pieces' best assignment to the goal before the move less after it.
    /// Finer than [`Heuristic::move_priority`], which looks at the moved piece's nearest goal
    /// hex only, and dearer (a copy of the state and an assignment per move), so only the
    /// search's priors use it.
    fn prior_scores(&self, moves: &[MartianChineseCheckersMove], scores: &mut Vec<f32>) {
        let mover = self.current_player();
        let before = on_board!(&self.0, b => b.work(mover));
        scores.extend(moves.iter().map(|&mv| {
            let mut after = self.clone();
            after.play_unchecked(mv);
            before - on_board!(&after.0, b => b.work(mover))
        }));
    }

    /// Nothing is captured in E.
    fn is_tactical(&self, _mv: MartianChineseCheckersMove) -> bool {
        false
    }

    /// Counted without visiting the moves, then generated up to the one drawn.
    fn rollout_move(
        &self,
        rng: &mut SplitMix64,
        _moves: &mut Vec<MartianChineseCheckersMove>,
    ) -> Option<MartianChineseCheckersMove> {
        random_by_count(self, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;

    fn values(state: &MartianChineseCheckers) -> Values {
        let mut values = [0.0; MAX_PLAYERS];
        state.heuristic(&mut values);
        values
    }

    #[test]
    fn the_start_is_even_for_every_number_of_players() {
        for players in 2..=6 {
            let params = MartianChineseCheckersParams {
                players,
                stack_limit: None,
                max_plies: 2000,
            };
            let v = values(&MartianChineseCheckers::start(&params));
            let sum: f32 = v[..players as usize].iter().sum();
            assert!(sum.abs() < 1e-5, "{players} players: {v:?}");
            for p in 0..players as usize {
                assert!(v[p].abs() < 1e-5, "{players} players: {v:?}");
            }
        }
    }

    #[test]
    fn movements_follow_the_size_lattice() {
        let t = tables();
        for a in 0..HEXES {
            for b in 0..HEXES {
                let d = hex_distance(a, b);
                assert_eq!(t.moves[0][a][b], d, "a small piece steps anywhere");
                let (dq, dr) = (GEO.q[a] - GEO.q[b], GEO.r[a] - GEO.r[b]);
                for size in [2i8, 3] {
                    let on_lattice = dq % size == 0 && dr % size == 0;
                    let moves = t.moves[size as usize - 1][a][b];
                    assert_eq!(moves != NEVER, on_lattice, "size {size} from {a} to {b}");
                    if on_lattice {
                        assert!(moves >= d.div_ceil(size as u8));
                    }
                }
            }
        }
    }

    #[test]
    fn the_assignment_is_the_cheapest() {
        // Row i prefers column i, except that rows 0 and 1 both want column 0 most.
        let mut cost = [[9u8; PIECES]; PIECES];
        for (i, row) in cost.iter_mut().enumerate() {
            row[i] = 1;
        }
        cost[1][0] = 0;
        cost[0][1] = 5;
        // 0->0 (1) and 1->1 (1) cost 2; 1->0 (0) and 0->1 (5) cost 5.
        assert_eq!(assignment(&cost), 15);
        cost[0][1] = 1;
        assert_eq!(assignment(&cost), 14);
    }

    #[test]
    fn the_work_left_counts_movements() {
        let params = MartianChineseCheckersParams {
            players: 2,
            stack_limit: None,
            max_plies: 2000,
        };
        // Colour 0 home but for its small on f8, one step from the last goal hex e8.
        let text = "2 0 40 a8=3s0l a9=0l a10=0l a11=0l a12=0l a13=3s3s3s3s3m3m3m3m3m3l3l3l3l3l \
                    b8=0m b9=0m b10=0m b11=0m c8=0s c9=0m c10=0s d8=0s d9=0s f8=0s";
        let state = MartianChineseCheckers::from_text(text, &params).expect("valid");
        on_board!(&state.0, b => {
            assert_eq!(b.work(0), 1.0);
            assert!(b.work(1) > 20.0);
        });
        let v = values(&state);
        assert!(v[0] > 0.5 && v[0] < 1.0, "{v:?}");
        // At the start both have the same work, and every piece can reach its goal by its
        // own movements.
        let t = tables();
        on_board!(&MartianChineseCheckers::start(&params).0, b => {
            assert_eq!(b.work(0), b.work(1));
            for (&colour, seat) in SEATS[2].iter().zip(&b.seats) {
                let goal = &t.goal[goal_of(colour) as usize];
                for slot in 0..PIECES {
                    let hex = seat.hex[slot] as usize;
                    let size = size_of(slot) as usize;
                    assert!(goal.iter().any(|&g| t.moves[size - 1][hex][g as usize] != NEVER));
                }
            }
        });
    }

    #[test]
    fn moving_towards_the_goal_raises_the_value() {
        let params = MartianChineseCheckersParams {
            players: 2,
            stack_limit: None,
            max_plies: 2000,
        };
        let start = MartianChineseCheckers::start(&params);
        // The move the heuristic likes best for the mover gains ground towards the goal.
        let mut best: Option<(f32, MartianChineseCheckersMove)> = None;
        start.generate_moves(&mut |mv| {
            let mut after = start.clone();
            after.play_unchecked(mv);
            let v = values(&after);
            assert!((v[0] + v[1]).abs() < 1e-5, "{v:?}");
            if best.is_none_or(|(b, _)| v[0] > b) {
                best = Some((v[0], mv));
            }
        });
        let (value, mv) = best.expect("a move");
        assert!(value > 0.0, "{value}");
        assert!(start.move_priority(mv) > 0, "{}", start.move_text(mv));
    }

    #[test]
    fn a_goal_hex_walled_in_by_own_pieces_costs_more() {
        let params = MartianChineseCheckersParams {
            players: 2,
            stack_limit: None,
            max_plies: 2000,
        };
        // Colour 0 home but for its large on a7, whose only goal hex is a10 (a large keeps
        // its hexes modulo 3): its own pieces on a8/a9, b10/c10 and b9/c8 wall a10 in.
        let text = "2 0 100 a7=0l a8=0l a9=0m a11=0l a12=0l b8=0s b9=0s b10=0s b11=0m c8=0m \
                    c9=0m c10=0m d8=0l d9=0s e8=0s h6=3l i5=3l i6=3s j5=3s j6=3m k4=3m k6=3l \
                    l3=3m l4=3s l6=3m m2=3s m3=3l m4=3l m5=3m m6=3s";
        let state = MartianChineseCheckers::from_text(text, &params).expect("valid");
        assert!(state.parse_move("a7/0-a10").is_err(), "the large cannot go in");
        on_board!(&state.0, b => {
            let hex = |name: &str| (0..HEXES).find(|&h| super::text::hex_name(h) == name).expect("a hex");
            assert!(b.sealed(0, hex("a10"), 3));
            assert!(!b.sealed(0, hex("a10"), 2), "a medium on c10 could jump in over b10");
            // One movement (the large) plus the wall.
            assert_eq!(b.work(0), f32::from(1 + SEALED));
        });
        // The medium on a9 stepping out opens the wall: the large then jumps a8 to a9 and
        // steps in, and the medium comes back, two movements in all.
        let mut after = state.clone();
        after.play_unchecked(state.parse_move("a9/0-c7").expect("legal"));
        on_board!(&after.0, b => assert_eq!(b.work(0), 2.0));
        assert!(values(&after)[0] > values(&state)[0]);
    }
}
