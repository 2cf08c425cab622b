//! Action numbers and the observation tensor, for learning programs.

use super::bitboard::ComputedSliders;
use super::movegen::Emitter;
use std::convert::Infallible;
use super::text::square_name;
use super::*;
use crate::actions::{fraction, ActionList};
use crate::game::{ActionEncoding, Cell, Observation};

/// The planes of the observation tensor (see [`Observation::observation`] below).
const PLANES: usize = 22;

/// The action number of a move: `from * 64 + to`, or a promotion's.
fn action_of(mv: IceAgeChessMove) -> usize {
    if mv.kind() < PROMOTE_KNIGHT {
        return mv.from() * 64 + mv.to();
    }
    let colour = usize::from(mv.from() / 8 == 1);
    let file_step = mv.to() % 8 + 1 - mv.from() % 8;
    PROMOTION_ACTIONS
        + ((colour * 8 + mv.from() % 8) * 3 + file_step) * 4
        + usize::from(mv.kind() - PROMOTE_KNIGHT)
}

impl ActionEncoding for IceAgeChess {
    /// Action `from * 64 + to` (squares a1 = 0 .. h8 = 63) for every move that does not
    /// promote; a promotion is `4096 + ((colour * 8 + from_file) * 3 + file_step) * 4 + piece`
    /// with `file_step` 0, 1, 2 for a capture towards file a, a push, a capture towards file h
    /// and `piece` 0-3 for n, b, r, q (4288 actions in all).
    const NUM_DISTINCT_ACTIONS: usize = PROMOTION_ACTIONS + 2 * 8 * 3 * 4;
    const MAX_CHOSEN_ACTIONS: usize = 1;
    const ONE_ACTION_MOVES: bool = true;
    fn move_actions(&self, mv: IceAgeChessMove, out: &mut ActionList) {
        out.push(action_of(mv));
    }

    /// The actions of the moves in generation order, each worked out from its squares (no
    /// action list per move), with the slider attacks computed ([`ComputedSliders`]).
    fn for_each_first_action(&self, visit: &mut impl FnMut(usize)) {
        if self.over {
            return;
        }
        let mut each = |mv| {
            visit(action_of(mv));
            ControlFlow::<Infallible>::Continue(())
        };
        let _ = self.generate_with(&mut Emitter::new(&mut each), &ComputedSliders);
    }

    /// The moves straight from the generator, in its order, each with its action worked out
    /// from its squares, with the slider attacks computed ([`ComputedSliders`]).
    fn moves_and_actions(&self, actions: &mut Vec<u16>, moves: &mut Vec<IceAgeChessMove>) {
        if self.over {
            return;
        }
        let mut each = |mv| {
            actions.push(action_of(mv) as u16);
            moves.push(mv);
            ControlFlow::<Infallible>::Continue(())
        };
        let _ = self.generate_with(&mut Emitter::new(&mut each), &ComputedSliders);
    }

    /// A draw by the ply limit alone: both kings on the board, a legal move left (no
    /// stalemate) and the halfmove clock below 100, which all take precedence.
    fn ended_by_ply_limit(&self) -> bool {
        self.outcome() == Outcome::Draw
            && self.kings_missing() == [false, false]
            && self.halfmove < HALFMOVE_LIMIT
            && self.count_legal() > 0
            && self.plies() >= u64::from(self.params.max_plies)
    }

    fn action_text(action: usize) -> Option<String> {
        if action < PROMOTION_ACTIONS {
            let (from, to) = (action / 64, action % 64);
            return (from != to).then(|| square_name(from) + &square_name(to));
        }
        let index = action - PROMOTION_ACTIONS;
        let (piece, rest) = (index % 4, index / 4);
        let (file_step, rest) = (rest % 3, rest / 3);
        let (file, colour) = (rest % 8, rest / 8);
        let to_file = (file + file_step).checked_sub(1).filter(|&f| f < 8)?;
        let (from_rank, to_rank) = match colour {
            0 => (6, 7),
            1 => (1, 0),
            _ => return None,
        };
        let mut text = square_name(from_rank * 8 + file) + &square_name(to_rank * 8 + to_file);
        text.push(['n', 'b', 'r', 'q'][piece]);
        Some(text)
    }
}

impl Observation for IceAgeChess {
    /// 22 planes of 8x8 seen from `player`'s side (ranks flipped for Black, so that each
    /// player's pieces start on ranks 1 and 2): 0-5 the player's pawns, knights, bishops,
    /// rooks, queens, king; 6-11 the opponent's; 12 ice; 13-16 castling rights (the
    /// player's king side, queen side, the opponent's king side, queen side; constant
    /// planes); 17 the en-passant square; 18 the halfmove clock / 100; 19 the fraction of
    /// the Ice Age period gone (0 when the Ice Age is off); 20 the fraction of the ply limit
    /// used; 21 all ones when `player` is to move. Index `plane * 64 + rank * 8 + file`.
    const OBSERVATION_SHAPE: &'static [usize] = &[PLANES, 8, 8];

    fn observation(&self, _pending: &[u16], player: usize, out: &mut [f32]) {
        let me = player.min(1);
        for (plane, squares) in self.square_planes(me).into_iter().enumerate() {
            mark_squares(out, plane, squares, me, 1.0);
        }
        for (plane, value) in self.constant_planes(me) {
            out[plane * 64..(plane + 1) * 64].fill(value);
        }
    }

    /// Straight from the bitboards: no tensor written or scanned.
    fn observation_cells(
        &self,
        _pending: &[u16],
        player: usize,
        _dense: &mut Vec<f32>,
        cells: &mut Vec<Cell>,
        planes: &mut Vec<Cell>,
    ) {
        let me = player.min(1);
        for (plane, squares) in self.square_planes(me).into_iter().enumerate() {
            // Turned for Black (rank r to 7 - r) before the squares are read in order.
            let seen = if me == WHITE { squares } else { squares.swap_bytes() };
            if seen == Bitboard::MAX {
                planes.push((plane as u32, 1.0));
                continue;
            }
            let mut rest = seen;
            while rest != 0 {
                let sq = rest.trailing_zeros();
                rest &= rest - 1;
                cells.push((plane as u32 * 64 + sq, 1.0));
            }
        }
        for (plane, value) in self.constant_planes(me) {
            if value != 0.0 {
                planes.push((plane as u32, value));
            }
        }
    }

    /// The squares whose pieces, ice or en-passant mark changed (the bitboards XORed), and
    /// the constant planes whose value changed.
    fn observation_changes(
        &self,
        old: &Self,
        player: usize,
        cells: &mut Vec<Cell>,
        planes: &mut Vec<Cell>,
    ) -> bool {
        let me = player.min(1);
        let flip = if me == WHITE { 0 } else { 56 };
        let (was, now) = (old.square_planes(me), self.square_planes(me));
        for (plane, (&was, &now)) in was.iter().zip(&now).enumerate() {
            let mut changed = was ^ now;
            while changed != 0 {
                let sq = changed.trailing_zeros();
                changed &= changed - 1;
                let change = if now >> sq & 1 == 1 { 1.0 } else { -1.0 };
                cells.push((plane as u32 * 64 + (sq ^ flip), change));
            }
        }
        let (was, now) = (old.constant_planes(me), self.constant_planes(me));
        for (&(plane, was), &(_, now)) in was.iter().zip(&now) {
            if was != now {
                planes.push((plane as u32, now - was));
            }
        }
        true
    }

    /// Between two positions seen by the same player, only the squares whose pieces, ice or
    /// en-passant mark changed, and the constant planes whose value changed, are written.
    fn update_observation(
        &self,
        _pending: &[u16],
        player: usize,
        old: &Self,
        _old_pending: &[u16],
        old_player: usize,
        row: &mut [f32],
    ) {
        let me = player.min(1);
        if old_player.min(1) != me {
            // The board turned: every square moved.
            row.fill(0.0);
            self.observation(&[], player, row);
            return;
        }
        let (was, now) = (old.square_planes(me), self.square_planes(me));
        for (plane, (&was, &now)) in was.iter().zip(&now).enumerate() {
            let changed = was ^ now;
            if changed != 0 {
                mark_squares(row, plane, changed & was, me, 0.0);
                mark_squares(row, plane, changed & now, me, 1.0);
            }
        }
        // The constant planes whose inputs changed (most plies: the clocks).
        let changed = [
            old.castling != self.castling,
            old.halfmove != self.halfmove,
            old.fullmove != self.fullmove,
            old.plies() != self.plies(),
            old.side != self.side,
        ];
        if changed.contains(&true) {
            for (plane, value) in self.constant_planes(me) {
                let input = match plane {
                    13..=16 => 0,
                    18 => 1,
                    19 => 2,
                    20 => 3,
                    _ => 4,
                };
                if changed[input] {
                    row[plane * 64..(plane + 1) * 64].fill(value);
                }
            }
        }
    }
}

impl IceAgeChess {
    /// The squares of planes 0-17 seen by `me` (before the board is turned): its pieces by
    /// role, the opponent's, ice, then none for the four castling planes, and the
    /// en-passant square.
    fn square_planes(&self, me: usize) -> [Bitboard; 18] {
        let mut planes = [0; 18];
        for role in 0..6 {
            planes[role] = self.by_role[role] & self.by_colour[me];
            planes[6 + role] = self.by_role[role] & self.by_colour[1 - me];
        }
        planes[12] = self.ice;
        if self.ep != NO_EP {
            planes[17] = 1 << self.ep;
        }
        planes
    }

    /// The constant planes seen by `me` and their values: the castling rights (the player's
    /// king side, queen side, the opponent's), the halfmove clock, the Ice Age period gone,
    /// the ply limit used, whether `me` is to move.
    fn constant_planes(&self, me: usize) -> [(usize, f32); 8] {
        let right = |r: usize| f32::from(self.castling >> r & 1);
        let (mine, theirs) = if me == WHITE { (0, 2) } else { (2, 0) };
        let period = self.params.ice_age_period;
        let ice_age = if period > 0 {
            fraction(u64::from((self.fullmove - 1) % period), u64::from(period))
        } else {
            0.0
        };
        [
            (13, right(mine)),
            (14, right(mine + 1)),
            (15, right(theirs)),
            (16, right(theirs + 1)),
            (18, fraction(u64::from(self.halfmove), u64::from(HALFMOVE_LIMIT))),
            (19, ice_age),
            (20, fraction(self.plies(), u64::from(self.params.max_plies))),
            (21, f32::from(u8::from(self.side as usize == me))),
        ]
    }
}

/// Sets to `value` the cells of `plane` on `squares`, seen by `me` (ranks flipped for Black).
fn mark_squares(out: &mut [f32], plane: usize, squares: Bitboard, me: usize, value: f32) {
    let flip = if me == WHITE { 0 } else { 56 };
    let mut rest = squares;
    while rest != 0 {
        let sq = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        out[plane * 64 + (sq ^ flip)] = value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::actions::{first_actions_of_moves, moves_and_actions_of};
    use crate::game::Notation;
    use crate::rng::SplitMix64;

    /// The moves and actions listed with computed slider attacks are those the generic
    /// defaults list, in the same order, along random games (with Ice Ages, promotions and
    /// mates) and in positions with castling, en passant and pins.
    #[test]
    fn listed_moves_and_actions_are_the_generic_ones_in_order() {
        let check = |state: &IceAgeChess| {
            let (mut actions, mut moves) = (Vec::new(), Vec::new());
            state.moves_and_actions(&mut actions, &mut moves);
            let (mut want_actions, mut want_moves) = (Vec::new(), Vec::new());
            moves_and_actions_of(state, &mut want_actions, &mut want_moves);
            assert_eq!((&actions, &moves), (&want_actions, &want_moves), "{}", state.text());
            let (mut firsts, mut want_firsts) = (Vec::new(), Vec::new());
            state.for_each_first_action(&mut |a| firsts.push(a));
            first_actions_of_moves(state, &mut |a| want_firsts.push(a));
            assert_eq!(firsts, want_firsts, "{}", state.text());
        };
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ] {
            let params = IceAgeChessParams {
                max_plies: 1000,
                ice_age_period: 0,
            };
            check(&IceAgeChess::from_text(fen, &params).expect("valid FEN"));
        }
        let mut rng = SplitMix64::new(5);
        for period in [0, 3, 20] {
            let params = IceAgeChessParams {
                max_plies: 300,
                ice_age_period: period,
            };
            for _ in 0..40 {
                let mut state = IceAgeChess::start(&params);
                loop {
                    check(&state);
                    let count = state.count_moves();
                    if count == 0 {
                        break;
                    }
                    let mv = state.nth_move(rng.below(count)).expect("a move");
                    state.play_unchecked(mv);
                }
            }
        }
    }

    /// The cells listed from the bitboards are those found in the whole tensor, in the same
    /// order, for both players' views, along random games with Ice Ages and en passant.
    #[test]
    fn observation_cells_are_the_tensors_non_zero_cells() {
        let mut rng = SplitMix64::new(9);
        for period in [0, 4] {
            let params = IceAgeChessParams {
                max_plies: 200,
                ice_age_period: period,
            };
            for _ in 0..20 {
                let mut state = IceAgeChess::start(&params);
                loop {
                    for player in 0..2 {
                        let mut dense = vec![0.0; PLANES * 64];
                        state.observation(&[], player, &mut dense);
                        let (mut want_cells, mut want_planes) = (Vec::new(), Vec::new());
                        crate::game::observation_cells_of(&dense, 64, &mut want_cells, &mut want_planes);
                        let (mut cells, mut planes) = (Vec::new(), Vec::new());
                        state.observation_cells(&[], player, &mut Vec::new(), &mut cells, &mut planes);
                        assert_eq!((cells, planes), (want_cells, want_planes), "{}", state.text());
                    }
                    let count = state.count_moves();
                    if count == 0 {
                        break;
                    }
                    let mv = state.nth_move(rng.below(count)).expect("a move");
                    state.play_unchecked(mv);
                }
            }
        }
    }
}
