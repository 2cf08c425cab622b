//! The legal move generator: checkers and pins first, every piece's targets masked by the
//! check mask and its pin line, king moves tested with the king lifted, en passant verified
//! by recomputing the slider attacks on the king. Moves reach a [`Visitor`] as bitboards of
//! targets, so perft's last ply is counted with popcounts.

use super::bitboard::{between, bit, east, line, sliders, west, Bitboard, SliderAttacks, Squares, BISHOP_RAYS, KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS, RANK_1, RANK_8, ROOK_RAYS};
use super::*;
use std::ops::ControlFlow;

/// Receives the legal moves as bitboards of targets, so perft can count with popcounts.
/// A `Break` stops the generator at once.
pub(super) trait Visitor {
    /// Ordinary moves (no promotion) of the piece on `from` to every square of `targets`.
    fn piece(&mut self, from: usize, targets: Bitboard) -> ControlFlow<()>;
    /// Pawn moves to every square of `targets` from `to - delta`; those reaching the last
    /// rank promote (four moves each).
    fn pawns(&mut self, targets: Bitboard, delta: i32) -> ControlFlow<()>;
    /// Pawn double pushes to every square of `targets` from `to - delta`.
    fn double_pushes(&mut self, targets: Bitboard, delta: i32) -> ControlFlow<()>;
    /// A castling or en-passant move.
    fn special(&mut self, mv: IceAgeChessMove) -> ControlFlow<()>;
}

/// Counts the moves (never stops).
pub(super) struct Counter(pub(super) u64);

impl Visitor for Counter {
    #[inline(always)]
    fn piece(&mut self, _from: usize, targets: Bitboard) -> ControlFlow<()> {
        self.0 += u64::from(targets.count_ones());
        ControlFlow::Continue(())
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, _delta: i32) -> ControlFlow<()> {
        let promoting = targets & (RANK_1 | RANK_8);
        self.0 += u64::from((targets ^ promoting).count_ones() + 4 * promoting.count_ones());
        ControlFlow::Continue(())
    }
    #[inline(always)]
    fn double_pushes(&mut self, targets: Bitboard, _delta: i32) -> ControlFlow<()> {
        self.0 += u64::from(targets.count_ones());
        ControlFlow::Continue(())
    }
    #[inline(always)]
    fn special(&mut self, _mv: IceAgeChessMove) -> ControlFlow<()> {
        self.0 += 1;
        ControlFlow::Continue(())
    }
}

/// The groups of one generation that hold moves (a call of the generator each: its
/// targets, and what the group is: a piece's square, or a pawn group's kind and step), with
/// the number of moves they hold, so that a random move is counted and drawn from one
/// generation. Room for `ROOM` groups; a position with more is drawn another way
/// (`overflowed`). A position has at most 28: the king, two castlings, one per other piece
/// that is not a pawn (`15 - p` with `p` pawns), four for the unpinned pawns, two en-passant
/// captures, and at most two per pinned pawn (a push and a double push along a file, or a
/// capture of the pinner) and eight in all, `24 - p + min(2p, 8)`.
pub(super) struct Groups<const ROOM: usize> {
    targets: [Bitboard; ROOM],
    what: [u16; ROOM],
    len: usize,
    pub(super) count: u64,
    pub(super) overflowed: bool,
}

const PIECE_GROUP: u16 = 0;
const PAWN_GROUP: u16 = 1 << 8;
const DOUBLE_GROUP: u16 = 2 << 8;
const SPECIAL_GROUP: u16 = 3 << 8;

impl<const ROOM: usize> Groups<ROOM> {
    pub(super) fn new() -> Groups<ROOM> {
        Groups {
            targets: [0; ROOM],
            what: [0; ROOM],
            len: 0,
            count: 0,
            overflowed: false,
        }
    }

    #[inline(always)]
    fn keep(&mut self, targets: Bitboard, what: u16, moves: u32) -> ControlFlow<()> {
        if moves > 0 {
            if self.len < ROOM {
                self.targets[self.len] = targets;
                self.what[self.len] = what;
                self.len += 1;
            } else {
                self.overflowed = true;
            }
            self.count += u64::from(moves);
        }
        ControlFlow::Continue(())
    }

    /// Hands the groups kept to `v`, as the generator handed them.
    #[inline(always)]
    pub(super) fn replay(&self, v: &mut impl Visitor) -> ControlFlow<()> {
        for (&targets, &what) in self.targets[..self.len].iter().zip(&self.what[..self.len]) {
            let arg = i32::from((what & 0xFF) as u8 as i8);
            match what & 0xFF00 {
                PIECE_GROUP => v.piece(usize::from(what & 0xFF), targets)?,
                PAWN_GROUP => v.pawns(targets, arg)?,
                DOUBLE_GROUP => v.double_pushes(targets, arg)?,
                _ => v.special(IceAgeChessMove(targets as u16))?,
            }
        }
        ControlFlow::Continue(())
    }
}

impl<const ROOM: usize> Visitor for Groups<ROOM> {
    #[inline(always)]
    fn piece(&mut self, from: usize, targets: Bitboard) -> ControlFlow<()> {
        self.keep(targets, PIECE_GROUP | from as u16, targets.count_ones())
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i32) -> ControlFlow<()> {
        let promoting = targets & (RANK_1 | RANK_8);
        let moves = (targets ^ promoting).count_ones() + 4 * promoting.count_ones();
        self.keep(targets, PAWN_GROUP | u16::from(delta as i8 as u8), moves)
    }
    #[inline(always)]
    fn double_pushes(&mut self, targets: Bitboard, delta: i32) -> ControlFlow<()> {
        self.keep(targets, DOUBLE_GROUP | u16::from(delta as i8 as u8), targets.count_ones())
    }
    #[inline(always)]
    fn special(&mut self, mv: IceAgeChessMove) -> ControlFlow<()> {
        self.keep(Bitboard::from(mv.0), SPECIAL_GROUP, 1)
    }
}

/// Finds the move of a given index in the order the generator hands moves out, skipping
/// whole groups of targets by their popcounts (stops there).
pub(super) struct Picker {
    /// The moves still to skip.
    pub(super) left: u64,
    pub(super) found: Option<IceAgeChessMove>,
}

impl Picker {
    /// Skips the `n` moves of a group, or takes the one left to skip among them, `the(k)`.
    #[inline(always)]
    fn group(&mut self, n: u64, the: impl FnOnce(u64) -> IceAgeChessMove) -> ControlFlow<()> {
        if self.left >= n {
            self.left -= n;
            return ControlFlow::Continue(());
        }
        self.found = Some(the(self.left));
        ControlFlow::Break(())
    }
}

/// The square of the `k`-th set bit of `b` (from the lowest), which must have more than `k`.
#[inline(always)]
fn nth_square(b: Bitboard, k: u64) -> usize {
    let mut rest = b;
    for _ in 0..k {
        rest &= rest - 1;
    }
    rest.trailing_zeros() as usize
}

impl Visitor for Picker {
    #[inline(always)]
    fn piece(&mut self, from: usize, targets: Bitboard) -> ControlFlow<()> {
        self.group(u64::from(targets.count_ones()), |k| {
            IceAgeChessMove::new(from, nth_square(targets, k), NORMAL)
        })
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i32) -> ControlFlow<()> {
        let promoting = targets & (RANK_1 | RANK_8);
        let n = (targets ^ promoting).count_ones() + 4 * promoting.count_ones();
        self.group(u64::from(n), |k| {
            // As the emitter goes: square by square, four promotions (queen first) where a
            // pawn reaches the last rank.
            let mut k = k;
            for to in Squares(targets) {
                let from = (to as i32 - delta) as usize;
                if bit(to) & promoting != 0 {
                    if k < 4 {
                        return IceAgeChessMove::new(from, to, PROMOTE_KNIGHT + 3 - k as u16);
                    }
                    k -= 4;
                } else {
                    if k == 0 {
                        return IceAgeChessMove::new(from, to, NORMAL);
                    }
                    k -= 1;
                }
            }
            unreachable!("a group holds the move it is asked for")
        })
    }
    #[inline(always)]
    fn double_pushes(&mut self, targets: Bitboard, delta: i32) -> ControlFlow<()> {
        self.group(u64::from(targets.count_ones()), |k| {
            let to = nth_square(targets, k);
            IceAgeChessMove::new((to as i32 - delta) as usize, to, DOUBLE_PUSH)
        })
    }
    #[inline(always)]
    fn special(&mut self, mv: IceAgeChessMove) -> ControlFlow<()> {
        self.group(1, |_| mv)
    }
}

/// Hands every move to `visit` one by one, and keeps the value it breaks with.
pub(super) struct Emitter<'a, B, F: FnMut(IceAgeChessMove) -> ControlFlow<B>> {
    visit: &'a mut F,
    stopped: Option<B>,
}

impl<'a, B, F: FnMut(IceAgeChessMove) -> ControlFlow<B>> Emitter<'a, B, F> {
    #[inline(always)]
    pub(super) fn new(visit: &'a mut F) -> Self {
        Emitter {
            visit,
            stopped: None,
        }
    }

    /// How the scan ended: `Break` with the visitor's value if it stopped.
    #[inline(always)]
    pub(super) fn flow(self) -> ControlFlow<B> {
        match self.stopped {
            Some(value) => ControlFlow::Break(value),
            None => ControlFlow::Continue(()),
        }
    }

    #[inline(always)]
    fn emit(&mut self, mv: IceAgeChessMove) -> ControlFlow<()> {
        match (self.visit)(mv) {
            ControlFlow::Continue(()) => ControlFlow::Continue(()),
            ControlFlow::Break(value) => {
                self.stopped = Some(value);
                ControlFlow::Break(())
            }
        }
    }
}

impl<B, F: FnMut(IceAgeChessMove) -> ControlFlow<B>> Visitor for Emitter<'_, B, F> {
    #[inline(always)]
    fn piece(&mut self, from: usize, targets: Bitboard) -> ControlFlow<()> {
        for to in Squares(targets) {
            self.emit(IceAgeChessMove::new(from, to, NORMAL))?;
        }
        ControlFlow::Continue(())
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i32) -> ControlFlow<()> {
        for to in Squares(targets) {
            let from = (to as i32 - delta) as usize;
            if bit(to) & (RANK_1 | RANK_8) != 0 {
                for kind in (PROMOTE_KNIGHT..=PROMOTE_KNIGHT + 3).rev() {
                    self.emit(IceAgeChessMove::new(from, to, kind))?;
                }
            } else {
                self.emit(IceAgeChessMove::new(from, to, NORMAL))?;
            }
        }
        ControlFlow::Continue(())
    }
    #[inline(always)]
    fn double_pushes(&mut self, targets: Bitboard, delta: i32) -> ControlFlow<()> {
        for to in Squares(targets) {
            self.emit(IceAgeChessMove::new(
                (to as i32 - delta) as usize,
                to,
                DOUBLE_PUSH,
            ))?;
        }
        ControlFlow::Continue(())
    }
    #[inline(always)]
    fn special(&mut self, mv: IceAgeChessMove) -> ControlFlow<()> {
        self.emit(mv)
    }
}

/// Pawns of `colour` shifted one rank forward.
#[inline(always)]
pub(super) fn forward(b: Bitboard, colour: usize) -> Bitboard {
    if colour == WHITE {
        north(b)
    } else {
        south(b)
    }
}

impl IceAgeChess {
    /// Every legal move, by bitboards, whatever the counters say. Needs a king to move.
    #[inline(always)]
    pub(super) fn generate<V: Visitor>(&self, v: &mut V) -> ControlFlow<()> {
        self.generate_with(v, sliders())
    }

    /// [`IceAgeChess::generate`] with the slider attacks of `s`.
    #[inline(always)]
    pub(super) fn generate_with<V: Visitor>(
        &self,
        v: &mut V,
        s: &impl SliderAttacks,
    ) -> ControlFlow<()> {
        let us_c = self.side as usize;
        let them_c = us_c ^ 1;
        let us = self.by_colour[us_c];
        let them = self.by_colour[them_c];
        let occ = us | them | self.ice;
        let king = self.pieces(us_c, KING);
        let ksq = king.trailing_zeros() as usize;

        let diagonal = (self.by_role[BISHOP] | self.by_role[QUEEN]) & them;
        let straight = (self.by_role[ROOK] | self.by_role[QUEEN]) & them;

        // Checkers and pins from the enemy sliders on a line with the king, by the squares
        // between (no slider lookup): none between is a check, exactly one of ours a pin
        // (ice between is a blocker that pins nothing). Knights and pawns check from their
        // squares; a king never does (the side not to move is never in check).
        let mut checkers = them
            & ((KNIGHT_ATTACKS[ksq] & self.by_role[KNIGHT])
                | (PAWN_ATTACKS[us_c][ksq] & self.by_role[PAWN]));
        let mut pinned = 0;
        for sniper in Squares((ROOK_RAYS[ksq] & straight) | (BISHOP_RAYS[ksq] & diagonal)) {
            let blockers = between(ksq, sniper) & occ;
            if blockers == 0 {
                checkers |= bit(sniper);
            } else if blockers & blockers.wrapping_sub(1) == 0 {
                pinned |= blockers & us;
            }
        }

        // King moves, judged with the king lifted off the board: first against the squares
        // the opposing pawns, knights and king attack (all at once), then the squares left
        // against the sliders, each slider lookup only where a slider stands on one of the
        // square's lines.
        let without_king = occ ^ king;
        let their_pawns = self.by_role[PAWN] & them;
        let ahead = forward(their_pawns, them_c);
        let mut leaper_attacks = east(ahead) | west(ahead);
        for sq in Squares(self.by_role[KNIGHT] & them) {
            leaper_attacks |= KNIGHT_ATTACKS[sq];
        }
        for sq in Squares(self.by_role[KING] & them) {
            leaper_attacks |= KING_ATTACKS[sq];
        }
        let slider_attacks = |sq: usize, occupied: Bitboard| {
            (BISHOP_RAYS[sq] & diagonal != 0 && s.bishop(sq, occupied) & diagonal != 0)
                || (ROOK_RAYS[sq] & straight != 0 && s.rook(sq, occupied) & straight != 0)
        };
        // The squares every opposing slider attacks, when that costs fewer lookups than the
        // squares left to try (few sliders, many squares: as in endgames).
        let mut king_targets = KING_ATTACKS[ksq] & !us & !leaper_attacks;
        let slider_map = if king_targets.count_ones() > diagonal.count_ones() + straight.count_ones()
        {
            let mut map = 0;
            for sq in Squares(diagonal) {
                map |= s.bishop(sq, without_king);
            }
            for sq in Squares(straight) {
                map |= s.rook(sq, without_king);
            }
            king_targets &= !map;
            Some(map)
        } else {
            for to in Squares(king_targets) {
                if slider_attacks(to, without_king) {
                    king_targets ^= bit(to);
                }
            }
            None
        };
        v.piece(ksq, king_targets)?;
        if checkers & checkers.wrapping_sub(1) != 0 {
            return ControlFlow::Continue(()); // double check: only the king moves
        }

        let check_mask = if checkers == 0 {
            let base = if us_c == WHITE { 0 } else { 56 };
            let rights = self.castling >> (2 * us_c);
            // With the king not in check, lifting it changes no attack on the squares it
            // crosses (a line through the king onto them would be a check).
            let safe = |sq: usize| {
                leaper_attacks & bit(sq) == 0
                    && match slider_map {
                        Some(map) => map & bit(sq) == 0,
                        None => !slider_attacks(sq, occ),
                    }
            };
            if rights & 1 != 0 && occ & (0x60 << base) == 0 && safe(base + 5) && safe(base + 6) {
                v.special(IceAgeChessMove::new(base + 4, base + 6, CASTLE))?;
            }
            if rights & 2 != 0 && occ & (0x0E << base) == 0 && safe(base + 3) && safe(base + 2) {
                v.special(IceAgeChessMove::new(base + 4, base + 2, CASTLE))?;
            }
            !0
        } else {
            between(ksq, checkers.trailing_zeros() as usize) | checkers
        };

        // In check a pinned piece has no move (its line meets the checking line only at
        // the king), and a slider whose lines miss the check mask needs no lookup.
        let in_check = checkers != 0;
        let movers = if in_check { us & !pinned } else { us };
        let targets = !us & check_mask;
        for from in Squares(self.by_role[KNIGHT] & us & !pinned) {
            v.piece(from, KNIGHT_ATTACKS[from] & targets)?;
        }
        for from in Squares((self.by_role[BISHOP] | self.by_role[QUEEN]) & movers) {
            if in_check && BISHOP_RAYS[from] & targets == 0 {
                continue;
            }
            let mut t = s.bishop(from, occ) & targets;
            if pinned & bit(from) != 0 {
                t &= line(ksq, from);
            }
            v.piece(from, t)?;
        }
        for from in Squares((self.by_role[ROOK] | self.by_role[QUEEN]) & movers) {
            if in_check && ROOK_RAYS[from] & targets == 0 {
                continue;
            }
            let mut t = s.rook(from, occ) & targets;
            if pinned & bit(from) != 0 {
                t &= line(ksq, from);
            }
            v.piece(from, t)?;
        }

        // Pawns: the unpinned ones all at once, the pinned ones along their pin line.
        let pawns = self.by_role[PAWN] & us;
        let empty = !occ;
        let capturable = (them | self.ice) & check_mask;
        let third_rank = if us_c == WHITE {
            RANK_1 << 16
        } else {
            RANK_1 << 40
        };
        let up: i32 = if us_c == WHITE { 8 } else { -8 };
        let free = pawns & !pinned;
        let single = forward(free, us_c) & empty;
        v.pawns(single & check_mask, up)?;
        v.double_pushes(
            forward(single & third_rank, us_c) & empty & check_mask,
            2 * up,
        )?;
        v.pawns(west(forward(free, us_c)) & capturable, up - 1)?;
        v.pawns(east(forward(free, us_c)) & capturable, up + 1)?;
        for from in Squares(pawns & pinned & movers) {
            let along = line(ksq, from);
            let single = forward(bit(from), us_c) & empty & along;
            v.pawns(single & check_mask, up)?;
            v.double_pushes(
                forward(single & third_rank, us_c) & empty & check_mask,
                2 * up,
            )?;
            for to in Squares(PAWN_ATTACKS[us_c][from] & capturable & along) {
                v.pawns(bit(to), to as i32 - from as i32)?;
            }
        }

        // En passant: verified by recomputing the attacks on the king after the capture.
        if self.ep != NO_EP {
            let ep = self.ep as usize;
            let captured = ep ^ 8;
            for from in Squares(PAWN_ATTACKS[them_c][ep] & pawns) {
                let after = (occ ^ bit(from) ^ bit(captured)) | bit(ep);
                // Sliders are looked at anew; a knight or pawn checker stays unless it is
                // the captured pawn.
                let exposed = (s.rook(ksq, after) & straight)
                    | (s.bishop(ksq, after) & diagonal)
                    | (checkers & !(straight | diagonal) & !bit(captured));
                if exposed == 0 {
                    v.special(IceAgeChessMove::new(from, ep, EN_PASSANT))?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The number of legal moves, ignoring the counters (for judging mate and stalemate).
    pub(super) fn count_legal(&self) -> u64 {
        if self.pieces(self.side as usize, KING) == 0 {
            return 0;
        }
        let mut c = Counter(0);
        let _ = self.generate(&mut c);
        c.0
    }
}
