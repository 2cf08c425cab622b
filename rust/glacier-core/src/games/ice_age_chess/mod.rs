//! Ice Age Chess (RULINGS.md section 1; docs/rules/ice_age_chess.md).
//!
//! Standard chess plus ice: a neutral, immobile blocker that either side may capture and
//! that never attacks. Every `ice_age_period` full moves, after Black's move, the Ice Age
//! freezes isolated pieces and fills every unsheltered empty square with ice.
//!
//! The move generator is a legal generator on bitboards in the style of modern engines:
//! checkers and pins are found first, every piece's targets are masked by the check mask
//! and its pin line, king moves are tested against the attacks with the king lifted, and
//! en passant is verified by recomputing the slider attacks on the king. Sliders use magic
//! bitboards. Ice is its own bitboard: part of the occupancy (a blocker) and of the capture
//! targets, but never of an attacker set. Perft's last ply is counted with popcounts.

mod bitboard;

use self::bitboard::{
    between, bit, east, line, north, sliders, south, west, Bitboard, Sliders, Squares, BISHOP_RAYS,
    KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS, RANK_1, RANK_8, ROOK_RAYS,
};
use crate::error::Error;
use crate::game::{Game, Outcome};
use crate::notation::{parse_count, parse_placement, write_placement};
use crate::params::{ParamSpec, ParamValue};
use crate::{bad_position, zobrist};
use std::fmt::Write as _;

const WHITE: usize = 0;
const BLACK: usize = 1;

const PAWN: usize = 0;
const KNIGHT: usize = 1;
const BISHOP: usize = 2;
const ROOK: usize = 3;
const QUEEN: usize = 4;
const KING: usize = 5;

/// Square contents: a piece is `colour * 6 + role` (0..=11); then ice and empty.
const ICE: u8 = 12;
const EMPTY: u8 = 13;
/// FEN letters of the square codes.
const LETTERS: &[u8; 13] = b"PNBRQKpnbrqk*";
const ROLE_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
const COLOUR_NAMES: [&str; 2] = ["White", "Black"];

const NO_EP: u8 = 64;
/// Castling right bits: White king side, White queen side, Black king side, Black queen side.
const CASTLE_LETTERS: [char; 4] = ['K', 'Q', 'k', 'q'];
/// Per right: (king square, rook square).
const CASTLE_SQUARES: [(usize, usize); 4] = [(4, 7), (4, 0), (60, 63), (60, 56)];

const START: &str =
    "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The halfmove clock that ends the game (a draw).
const HALFMOVE_LIMIT: u32 = 100;

// Zobrist keys (seed and indices documented in docs/rules/ice_age_chess.md).
const ZOBRIST_SEED: u64 = 0x4943_4541_4745; // "ICEAGE"
/// Index `code * 64 + sq`: piece `code` (`colour * 6 + role`) or ice (code 12) on `sq`.
static SQUARE_KEYS: [u64; 13 * 64] = zobrist::table(ZOBRIST_SEED, 0);
/// Index 832: Black to move.
const BLACK_TO_MOVE_KEY: u64 = zobrist::key(ZOBRIST_SEED, 832);
/// Index 833 + right (K, Q, k, q).
const CASTLE_KEYS: [u64; 4] = zobrist::table(ZOBRIST_SEED, 833);
/// Index 837 + file of the en-passant square (hashed only when a capture is pseudo-legal).
const EP_KEYS: [u64; 8] = zobrist::table(ZOBRIST_SEED, 837);
/// Index 845: the halfmove clock has reached 100 (the game is drawn).
const HALFMOVE_KEY: u64 = zobrist::key(ZOBRIST_SEED, 845);

/// Which castling rights survive a move from or to each square.
const fn castle_masks() -> [u8; 64] {
    let mut m = [0b1111u8; 64];
    m[0] = 0b1101; // a1: White queen side
    m[4] = 0b1100; // e1: both White rights
    m[7] = 0b1110; // h1: White king side
    m[56] = 0b0111; // a8
    m[60] = 0b0011; // e8
    m[63] = 0b1011; // h8
    m
}
static CASTLE_MASKS: [u8; 64] = castle_masks();

// Move kinds.
const NORMAL: u16 = 0;
const DOUBLE_PUSH: u16 = 1;
const CASTLE: u16 = 2;
const EN_PASSANT: u16 = 3;
/// Promotion to role `kind - 3`: 4 knight, 5 bishop, 6 rook, 7 queen.
const PROMOTE_KNIGHT: u16 = 4;

/// Action numbers below this are `from * 64 + to`; promotions come after.
const PROMOTION_ACTIONS: usize = 64 * 64;

/// A move: from-square (6 bits), to-square (6 bits), kind (4 bits).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct ChessMove(u16);

impl ChessMove {
    #[inline(always)]
    const fn new(from: usize, to: usize, kind: u16) -> ChessMove {
        ChessMove(from as u16 | (to as u16) << 6 | kind << 12)
    }
    #[inline(always)]
    fn from(self) -> usize {
        (self.0 & 63) as usize
    }
    #[inline(always)]
    fn to(self) -> usize {
        ((self.0 >> 6) & 63) as usize
    }
    #[inline(always)]
    fn kind(self) -> u16 {
        self.0 >> 12
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IceAgeChessParams {
    pub max_plies: u32,
    /// 0 disables the Ice Age.
    pub ice_age_period: u32,
}

#[derive(Clone, Debug)]
pub struct IceAgeChess {
    by_role: [Bitboard; 6],
    by_colour: [Bitboard; 2],
    ice: Bitboard,
    board: [u8; 64],
    /// 0 = White, 1 = Black.
    side: u8,
    /// Bits 0-3: K, Q, k, q. A right implies its king and rook on their original squares.
    castling: u8,
    /// The en-passant square, stored only while a pseudo-legal en-passant capture exists.
    ep: u8,
    halfmove: u32,
    fullmove: u32,
    /// A king is frozen, the halfmove clock reached 100, or the ply limit was reached:
    /// the game is over whatever the board shows.
    over: bool,
    hash: u64,
    params: IceAgeChessParams,
}

/// Receives the legal moves as bitboards of targets, so perft can count with popcounts.
trait Visitor {
    /// Ordinary moves (no promotion) of the piece on `from` to every square of `targets`.
    fn piece(&mut self, from: usize, targets: Bitboard);
    /// Pawn moves to every square of `targets` from `to - delta`; those reaching the last
    /// rank promote (four moves each).
    fn pawns(&mut self, targets: Bitboard, delta: i32);
    /// Pawn double pushes to every square of `targets` from `to - delta`.
    fn double_pushes(&mut self, targets: Bitboard, delta: i32);
    /// A castling or en-passant move.
    fn special(&mut self, mv: ChessMove);
}

struct Counter(u64);

impl Visitor for Counter {
    #[inline(always)]
    fn piece(&mut self, _from: usize, targets: Bitboard) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, _delta: i32) {
        let promoting = targets & (RANK_1 | RANK_8);
        self.0 += u64::from((targets ^ promoting).count_ones() + 4 * promoting.count_ones());
    }
    #[inline(always)]
    fn double_pushes(&mut self, targets: Bitboard, _delta: i32) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn special(&mut self, _mv: ChessMove) {
        self.0 += 1;
    }
}

struct Emitter<'a, F: FnMut(ChessMove)>(&'a mut F);

impl<F: FnMut(ChessMove)> Visitor for Emitter<'_, F> {
    #[inline(always)]
    fn piece(&mut self, from: usize, targets: Bitboard) {
        for to in Squares(targets) {
            (self.0)(ChessMove::new(from, to, NORMAL));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i32) {
        for to in Squares(targets) {
            let from = (to as i32 - delta) as usize;
            if bit(to) & (RANK_1 | RANK_8) != 0 {
                for kind in (PROMOTE_KNIGHT..=PROMOTE_KNIGHT + 3).rev() {
                    (self.0)(ChessMove::new(from, to, kind));
                }
            } else {
                (self.0)(ChessMove::new(from, to, NORMAL));
            }
        }
    }
    #[inline(always)]
    fn double_pushes(&mut self, targets: Bitboard, delta: i32) {
        for to in Squares(targets) {
            (self.0)(ChessMove::new(
                (to as i32 - delta) as usize,
                to,
                DOUBLE_PUSH,
            ));
        }
    }
    #[inline(always)]
    fn special(&mut self, mv: ChessMove) {
        (self.0)(mv);
    }
}

/// Pawns of `colour` shifted one rank forward.
#[inline(always)]
fn forward(b: Bitboard, colour: usize) -> Bitboard {
    if colour == WHITE {
        north(b)
    } else {
        south(b)
    }
}

fn square_name(sq: usize) -> String {
    let mut s = String::with_capacity(2);
    s.push((b'a' + (sq % 8) as u8) as char);
    s.push((b'1' + (sq / 8) as u8) as char);
    s
}

fn parse_square(s: &[u8]) -> Option<usize> {
    match s {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some((r - b'1') as usize * 8 + (f - b'a') as usize),
        _ => None,
    }
}

impl IceAgeChess {
    fn empty(params: &IceAgeChessParams) -> IceAgeChess {
        IceAgeChess {
            by_role: [0; 6],
            by_colour: [0; 2],
            ice: 0,
            board: [EMPTY; 64],
            side: WHITE as u8,
            castling: 0,
            ep: NO_EP,
            halfmove: 0,
            fullmove: 1,
            over: false,
            hash: 0,
            params: *params,
        }
    }

    // --- board updates (every one keeps the hash) ------------------------------------

    #[inline(always)]
    fn put(&mut self, sq: usize, code: u8) {
        let b = bit(sq);
        if code == ICE {
            self.ice |= b;
        } else {
            self.by_colour[code as usize / 6] |= b;
            self.by_role[code as usize % 6] |= b;
        }
        self.board[sq] = code;
        self.hash ^= SQUARE_KEYS[code as usize * 64 + sq];
    }

    /// Empties a square that is not empty; returns what was there.
    #[inline(always)]
    fn remove(&mut self, sq: usize) -> u8 {
        let code = self.board[sq];
        let b = bit(sq);
        if code == ICE {
            self.ice ^= b;
        } else {
            self.by_colour[code as usize / 6] ^= b;
            self.by_role[code as usize % 6] ^= b;
        }
        self.board[sq] = EMPTY;
        self.hash ^= SQUARE_KEYS[code as usize * 64 + sq];
        code
    }

    #[inline(always)]
    fn set_castling(&mut self, rights: u8) {
        let mut changed = self.castling ^ rights;
        while changed != 0 {
            self.hash ^= CASTLE_KEYS[changed.trailing_zeros() as usize];
            changed &= changed - 1;
        }
        self.castling = rights;
    }

    #[inline(always)]
    fn set_ep(&mut self, ep: u8) {
        if self.ep != NO_EP {
            self.hash ^= EP_KEYS[self.ep as usize % 8];
        }
        if ep != NO_EP {
            self.hash ^= EP_KEYS[ep as usize % 8];
        }
        self.ep = ep;
    }

    // --- queries -----------------------------------------------------------------------

    #[inline(always)]
    fn pieces(&self, colour: usize, role: usize) -> Bitboard {
        self.by_colour[colour] & self.by_role[role]
    }

    #[inline(always)]
    fn occupied(&self) -> Bitboard {
        self.by_colour[0] | self.by_colour[1] | self.ice
    }

    /// The pieces of `by` that attack `sq` with the given occupancy (ice never attacks).
    #[inline(always)]
    fn attackers(&self, s: &Sliders, sq: usize, occupied: Bitboard, by: usize) -> Bitboard {
        let diagonal = self.by_role[BISHOP] | self.by_role[QUEEN];
        let straight = self.by_role[ROOK] | self.by_role[QUEEN];
        self.by_colour[by]
            & ((KNIGHT_ATTACKS[sq] & self.by_role[KNIGHT])
                | (KING_ATTACKS[sq] & self.by_role[KING])
                | (PAWN_ATTACKS[by ^ 1][sq] & self.by_role[PAWN])
                | (s.bishop(sq, occupied) & diagonal)
                | (s.rook(sq, occupied) & straight))
    }

    #[inline(always)]
    fn is_attacked(&self, s: &Sliders, sq: usize, occupied: Bitboard, by: usize) -> bool {
        let them = self.by_colour[by];
        (KNIGHT_ATTACKS[sq] & self.by_role[KNIGHT] & them) != 0
            || (PAWN_ATTACKS[by ^ 1][sq] & self.by_role[PAWN] & them) != 0
            || (KING_ATTACKS[sq] & self.by_role[KING] & them) != 0
            || (s.bishop(sq, occupied) & (self.by_role[BISHOP] | self.by_role[QUEEN]) & them) != 0
            || (s.rook(sq, occupied) & (self.by_role[ROOK] | self.by_role[QUEEN]) & them) != 0
    }

    fn king_square(&self, colour: usize) -> Option<usize> {
        let k = self.pieces(colour, KING);
        (k != 0).then(|| k.trailing_zeros() as usize)
    }

    fn in_check(&self) -> bool {
        let side = self.side as usize;
        self.king_square(side)
            .is_some_and(|k| self.is_attacked(sliders(), k, self.occupied(), side ^ 1))
    }

    /// Whether an en-passant capture onto `ep` is pseudo-legal for the side to move
    /// (judged from the board alone: the square empty, the pawn that double-pushed behind
    /// it, and a pawn of the side to move beside that one).
    fn ep_capturable(&self, ep: usize) -> bool {
        let us = self.side as usize;
        self.board[ep] == EMPTY
            && self.board[ep ^ 8] == ((us ^ 1) * 6 + PAWN) as u8
            && PAWN_ATTACKS[us ^ 1][ep] & self.pieces(us, PAWN) != 0
    }

    fn plies(&self) -> u64 {
        2 * (u64::from(self.fullmove) - 1) + u64::from(self.side)
    }

    fn kings_missing(&self) -> [bool; 2] {
        [self.pieces(WHITE, KING) == 0, self.pieces(BLACK, KING) == 0]
    }

    fn update_over(&mut self) {
        let [w, b] = self.kings_missing();
        self.over = w
            || b
            || self.halfmove >= HALFMOVE_LIMIT
            || self.plies() >= u64::from(self.params.max_plies);
    }

    // --- move generation ---------------------------------------------------------------

    /// Every legal move, by bitboards, whatever the counters say. Needs a king to move.
    #[inline(always)]
    fn generate<V: Visitor>(&self, v: &mut V) {
        let s = sliders();
        let us_c = self.side as usize;
        let them_c = us_c ^ 1;
        let us = self.by_colour[us_c];
        let them = self.by_colour[them_c];
        let occ = us | them | self.ice;
        let king = self.pieces(us_c, KING);
        let ksq = king.trailing_zeros() as usize;
        let checkers = self.attackers(s, ksq, occ, them_c);

        // King moves: test each target with the king lifted off the board.
        let without_king = occ ^ king;
        let mut king_targets = 0;
        for to in Squares(KING_ATTACKS[ksq] & !us) {
            if !self.is_attacked(s, to, without_king, them_c) {
                king_targets |= bit(to);
            }
        }
        v.piece(ksq, king_targets);
        if checkers & checkers.wrapping_sub(1) != 0 {
            return; // double check: only the king moves
        }

        let diagonal = (self.by_role[BISHOP] | self.by_role[QUEEN]) & them;
        let straight = (self.by_role[ROOK] | self.by_role[QUEEN]) & them;
        let check_mask = if checkers == 0 {
            let base = if us_c == WHITE { 0 } else { 56 };
            let rights = self.castling >> (2 * us_c);
            if rights & 1 != 0
                && occ & (0x60 << base) == 0
                && !self.is_attacked(s, base + 5, occ, them_c)
                && !self.is_attacked(s, base + 6, occ, them_c)
            {
                v.special(ChessMove::new(base + 4, base + 6, CASTLE));
            }
            if rights & 2 != 0
                && occ & (0x0E << base) == 0
                && !self.is_attacked(s, base + 3, occ, them_c)
                && !self.is_attacked(s, base + 2, occ, them_c)
            {
                v.special(ChessMove::new(base + 4, base + 2, CASTLE));
            }
            !0
        } else {
            between(ksq, checkers.trailing_zeros() as usize) | checkers
        };

        // Pins: an enemy slider on a line with the king and exactly one piece between,
        // ours (ice between is a blocker that pins nothing).
        let mut pinned = 0;
        for sniper in Squares((ROOK_RAYS[ksq] & straight) | (BISHOP_RAYS[ksq] & diagonal)) {
            let blockers = between(ksq, sniper) & occ;
            if blockers & blockers.wrapping_sub(1) == 0 {
                pinned |= blockers & us;
            }
        }

        let targets = !us & check_mask;
        for from in Squares(self.by_role[KNIGHT] & us & !pinned) {
            v.piece(from, KNIGHT_ATTACKS[from] & targets);
        }
        for from in Squares((self.by_role[BISHOP] | self.by_role[QUEEN]) & us) {
            let mut t = s.bishop(from, occ) & targets;
            if pinned & bit(from) != 0 {
                t &= line(ksq, from);
            }
            v.piece(from, t);
        }
        for from in Squares((self.by_role[ROOK] | self.by_role[QUEEN]) & us) {
            let mut t = s.rook(from, occ) & targets;
            if pinned & bit(from) != 0 {
                t &= line(ksq, from);
            }
            v.piece(from, t);
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
        v.pawns(single & check_mask, up);
        v.double_pushes(
            forward(single & third_rank, us_c) & empty & check_mask,
            2 * up,
        );
        v.pawns(west(forward(free, us_c)) & capturable, up - 1);
        v.pawns(east(forward(free, us_c)) & capturable, up + 1);
        for from in Squares(pawns & pinned) {
            let along = line(ksq, from);
            let single = forward(bit(from), us_c) & empty & along;
            v.pawns(single & check_mask, up);
            v.double_pushes(
                forward(single & third_rank, us_c) & empty & check_mask,
                2 * up,
            );
            for to in Squares(PAWN_ATTACKS[us_c][from] & capturable & along) {
                v.pawns(bit(to), to as i32 - from as i32);
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
                    v.special(ChessMove::new(from, ep, EN_PASSANT));
                }
            }
        }
    }

    /// The number of legal moves, ignoring the counters (for judging mate and stalemate).
    fn count_legal(&self) -> u64 {
        if self.pieces(self.side as usize, KING) == 0 {
            return 0;
        }
        let mut c = Counter(0);
        self.generate(&mut c);
        c.0
    }

    // --- the Ice Age ---------------------------------------------------------------------

    fn ice_age(&mut self) {
        let pieces = self.by_colour[0] | self.by_colour[1];
        // Squares next to some piece (the piece itself only when another is next to it).
        let beside = east(pieces) | west(pieces);
        let row = pieces | beside;
        let near = beside | north(row) | south(row);
        let isolated = pieces & !near;
        let not_piece = !pieces;
        // A square is open when some on-board orthogonal neighbour is not a piece.
        let open = north(not_piece) | south(not_piece) | east(not_piece) | west(not_piece);
        let freezing = !(pieces | self.ice) & open;
        for sq in Squares(isolated) {
            self.remove(sq);
            self.put(sq, ICE);
        }
        for sq in Squares(freezing) {
            self.put(sq, ICE);
        }
        self.drop_lost_castling_rights();
        if self.ep != NO_EP && !self.ep_capturable(self.ep as usize) {
            self.set_ep(NO_EP);
        }
    }

    /// Clears every castling right whose king or rook is no longer on its square.
    fn drop_lost_castling_rights(&mut self) {
        let mut rights = self.castling;
        for (right, &(k, r)) in CASTLE_SQUARES.iter().enumerate() {
            let colour = right / 2;
            if self.board[k] != (colour * 6 + KING) as u8
                || self.board[r] != (colour * 6 + ROOK) as u8
            {
                rights &= !(1 << right);
            }
        }
        self.set_castling(rights);
    }

    // --- text --------------------------------------------------------------------------

    fn placement(&self) -> String {
        write_placement(8, |sq| match self.board[sq] {
            EMPTY => None,
            code => Some(LETTERS[code as usize] as char),
        })
    }

    fn castling_text(&self) -> String {
        if self.castling == 0 {
            return "-".into();
        }
        (0..4)
            .filter(|r| self.castling & (1 << r) != 0)
            .map(|r| CASTLE_LETTERS[r])
            .collect()
    }

    fn parse_placement(text: &str) -> Result<[u8; 64], Error> {
        let letters = parse_placement(text, 8, "PNBRQKpnbrqk*", "the placement", "")?;
        let mut board = [EMPTY; 64];
        for (cell, letter) in board.iter_mut().zip(letters) {
            if let Some(code) = LETTERS.iter().position(|&l| l == letter) {
                *cell = code as u8;
            }
        }
        Ok(board)
    }

    /// Why a well-formed UCI move is not legal here.
    fn explain_illegal(
        &self,
        text: &str,
        from: usize,
        to: usize,
        promotion: Option<u16>,
    ) -> String {
        let us = self.side as usize;
        let code = self.board[from];
        if code >= ICE || code as usize / 6 != us {
            return format!(
                "illegal move '{text}': no {} piece on {}",
                COLOUR_NAMES[us],
                square_name(from)
            );
        }
        let role = code as usize % 6;
        let last_rank = if us == WHITE { RANK_8 } else { RANK_1 };
        let s = sliders();
        let occ = self.occupied();
        let capturable = self.by_colour[us ^ 1] | self.ice;
        let reach = match role {
            PAWN => {
                let single = forward(bit(from), us) & !occ;
                let third_rank = if us == WHITE {
                    RANK_1 << 16
                } else {
                    RANK_1 << 40
                };
                let mut r = single
                    | (forward(single & third_rank, us) & !occ)
                    | (PAWN_ATTACKS[us][from] & capturable);
                if self.ep != NO_EP {
                    r |= PAWN_ATTACKS[us][from] & bit(self.ep as usize);
                }
                r
            }
            KNIGHT => KNIGHT_ATTACKS[from] & !self.by_colour[us],
            BISHOP => s.bishop(from, occ) & !self.by_colour[us],
            ROOK => s.rook(from, occ) & !self.by_colour[us],
            QUEEN => (s.bishop(from, occ) | s.rook(from, occ)) & !self.by_colour[us],
            _ => KING_ATTACKS[from] & !self.by_colour[us],
        };
        let promotes = role == PAWN && bit(to) & last_rank != 0;
        let castling_try =
            role == KING && from == 4 + 56 * us && (to == from + 2 || to + 2 == from);
        let why = if castling_try {
            "castling needs the right to castle, empty squares between king and rook, \
             and no attacked square on the king's way (nor a king in check)"
                .to_string()
        } else if reach & bit(to) == 0 {
            format!(
                "the {} on {} cannot move to {}",
                ROLE_NAMES[role],
                square_name(from),
                square_name(to)
            )
        } else if promotes && promotion.is_none() {
            "a pawn reaching the last rank must promote: add q, r, b or n".to_string()
        } else if !promotes && promotion.is_some() {
            "only a pawn move to the last rank takes a promotion letter".to_string()
        } else {
            "it would leave the king in check".to_string()
        };
        format!("illegal move '{text}': {why}")
    }

    /// The end of a finished game, in the order of precedence of RULINGS.md section 1.
    fn judge(&self) -> Outcome {
        match self.kings_missing() {
            [true, true] => return Outcome::Draw,
            [true, false] => return Outcome::Win(BLACK as u8),
            [false, true] => return Outcome::Win(WHITE as u8),
            [false, false] => {}
        }
        if self.count_legal() == 0 {
            return if self.in_check() {
                Outcome::Win(self.side ^ 1)
            } else {
                Outcome::Draw
            };
        }
        if self.over {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        }
    }
}

impl Game for IceAgeChess {
    const NAME: &'static str = "ice_age_chess";
    const PARAMS: &'static [ParamSpec] = &[
        ParamSpec::max_plies(1000),
        ParamSpec {
            name: "ice_age_period",
            default: ParamValue::Int(20),
            min: 0,
            max: u32::MAX as i64,
            optional: false,
        },
    ];

    type Params = IceAgeChessParams;
    type Move = ChessMove;

    fn build_params(values: &[ParamValue]) -> Result<IceAgeChessParams, Error> {
        let get = |i: usize| {
            values
                .get(i)
                .and_then(|v| u32::try_from(v.int()).ok())
                .ok_or_else(|| Error::InvalidParameter("missing or bad parameter value".into()))
        };
        Ok(IceAgeChessParams {
            max_plies: get(0)?,
            ice_age_period: get(1)?,
        })
    }

    fn param_values(params: &IceAgeChessParams) -> Vec<ParamValue> {
        vec![
            ParamValue::Int(params.max_plies.into()),
            ParamValue::Int(params.ice_age_period.into()),
        ]
    }

    fn params(&self) -> &IceAgeChessParams {
        &self.params
    }

    fn start(params: &IceAgeChessParams) -> Self {
        match Self::from_text(START, params) {
            Ok(state) => state,
            Err(e) => unreachable!("the start position is valid: {e}"),
        }
    }

    fn from_text(text: &str, params: &IceAgeChessParams) -> Result<Self, Error> {
        let fields: Vec<&str> = text.split(' ').collect();
        let [placement, side, castling, ep, halfmove, fullmove] = fields[..] else {
            return Err(bad_position!(
                "an Ice Age Chess position (FEN) has 6 fields separated by single spaces \
                 (placement, side, castling, en passant, halfmove clock, fullmove number), got {}: '{text}'",
                fields.len()
            ));
        };
        let board = Self::parse_placement(placement)?;
        let side = match side {
            "w" => WHITE,
            "b" => BLACK,
            _ => {
                return Err(bad_position!(
                    "side to move must be 'w' or 'b', got '{side}'"
                ))
            }
        };
        let rights = if castling == "-" {
            0u8
        } else {
            let mut rights = 0u8;
            let mut next = 0;
            for c in castling.chars() {
                match CASTLE_LETTERS[next.min(4)..].iter().position(|&l| l == c) {
                    Some(i) => {
                        rights |= 1 << (next + i);
                        next += i + 1;
                    }
                    None => {
                        return Err(bad_position!(
                            "castling must be '-' or some of 'KQkq' in that order, got '{castling}'"
                        ))
                    }
                }
            }
            if castling.is_empty() {
                return Err(bad_position!(
                    "castling must be '-' or some of 'KQkq' in that order, got ''"
                ));
            }
            rights
        };
        let ep_square = if ep == "-" {
            None
        } else {
            let Some(sq) = parse_square(ep.as_bytes()) else {
                return Err(bad_position!(
                    "en passant must be '-' or a square like 'e3', got '{ep}'"
                ));
            };
            Some(sq)
        };
        let halfmove = parse_count(halfmove).ok_or_else(|| {
            bad_position!("the halfmove clock must be a number, got '{halfmove}'")
        })?;
        let fullmove = parse_count(fullmove).filter(|&n| n >= 1).ok_or_else(|| {
            bad_position!("the fullmove number must be a number >= 1, got '{fullmove}'")
        })?;

        // What chess can reach.
        for colour in [WHITE, BLACK] {
            let count = |role: usize| {
                board
                    .iter()
                    .filter(|&&c| c as usize == colour * 6 + role)
                    .count()
            };
            let name = COLOUR_NAMES[colour];
            if count(KING) > 1 {
                return Err(bad_position!("{name} has {} kings", count(KING)));
            }
            if count(PAWN) > 8 {
                return Err(bad_position!(
                    "{name} has {} pawns; chess allows at most 8",
                    count(PAWN)
                ));
            }
            let men = board
                .iter()
                .filter(|&&c| c < ICE && c as usize / 6 == colour)
                .count();
            if men > 16 {
                return Err(bad_position!(
                    "{name} has {men} pieces; chess allows at most 16"
                ));
            }
        }
        for sq in (0..8).chain(56..64) {
            if board[sq] != EMPTY && board[sq] as usize % 6 == PAWN && board[sq] < ICE {
                return Err(bad_position!(
                    "a pawn stands on {} (pawns never stand on rank 1 or 8)",
                    square_name(sq)
                ));
            }
        }
        for (right, &(k, r)) in CASTLE_SQUARES.iter().enumerate() {
            let colour = right / 2;
            if rights & (1 << right) != 0
                && (board[k] != (colour * 6 + KING) as u8 || board[r] != (colour * 6 + ROOK) as u8)
            {
                return Err(bad_position!(
                    "castling right '{}' needs the {} king on {} and a {} rook on {}",
                    CASTLE_LETTERS[right],
                    COLOUR_NAMES[colour],
                    square_name(k),
                    COLOUR_NAMES[colour],
                    square_name(r)
                ));
            }
        }

        let mut state = IceAgeChess::empty(params);
        for (sq, &code) in board.iter().enumerate() {
            if code != EMPTY {
                state.put(sq, code);
            }
        }
        state.side = side as u8;
        state.castling = rights;
        state.halfmove = halfmove;
        state.fullmove = fullmove;

        if let Some(sq) = ep_square {
            let rank = if side == WHITE { 5 } else { 2 };
            if sq / 8 != rank {
                return Err(bad_position!(
                    "en passant square {ep} is on the wrong rank: with {} to move it must be on rank {}",
                    COLOUR_NAMES[side],
                    rank + 1
                ));
            }
            // The pawn that just moved two squares stands in front of it; the square it
            // passed and the one it came from are empty.
            let (pushed, origin) = if side == WHITE {
                (sq - 8, sq + 8)
            } else {
                (sq + 8, sq - 8)
            };
            if board[pushed] != ((side ^ 1) * 6 + PAWN) as u8
                || board[sq] != EMPTY
                || board[origin] != EMPTY
            {
                return Err(bad_position!(
                    "en passant square {ep} needs a {} pawn on {} that just moved two squares from {} (with {ep} and {} empty)",
                    COLOUR_NAMES[side ^ 1],
                    square_name(pushed),
                    square_name(origin),
                    square_name(origin)
                ));
            }
            // Consistent but with no pseudo-legal capture: normalised away (not written, not hashed).
            if state.ep_capturable(sq) {
                state.ep = sq as u8;
            }
        }

        let not_to_move = side ^ 1;
        if let Some(k) = state.king_square(not_to_move) {
            if state.is_attacked(sliders(), k, state.occupied(), side) {
                return Err(bad_position!(
                    "the side not to move is in check ({}'s king on {} is attacked)",
                    COLOUR_NAMES[not_to_move],
                    square_name(k)
                ));
            }
        }
        state.hash = state.hash_from_scratch();
        state.update_over();
        Ok(state)
    }

    fn text(&self) -> String {
        let ep = if self.ep == NO_EP {
            "-".to_string()
        } else {
            square_name(self.ep as usize)
        };
        format!(
            "{} {} {} {} {} {}",
            self.placement(),
            ["w", "b"][self.side as usize],
            self.castling_text(),
            ep,
            self.halfmove,
            self.fullmove
        )
    }

    fn board_string(&self) -> String {
        let mut out = String::new();
        for rank in (0..8).rev() {
            let _ = write!(out, "{} ", rank + 1);
            for file in 0..8 {
                out.push(' ');
                out.push(match self.board[rank * 8 + file] {
                    EMPTY => '.',
                    code => LETTERS[code as usize] as char,
                });
            }
            out.push('\n');
        }
        out.push_str("   a b c d e f g h\n");
        let status = match self.outcome() {
            Outcome::Ongoing => format!(
                "{} to move{}",
                COLOUR_NAMES[self.side as usize],
                if self.in_check() { " (in check)" } else { "" }
            ),
            Outcome::Draw => "draw".to_string(),
            Outcome::Win(p) => format!("{} wins", COLOUR_NAMES[p as usize]),
        };
        let _ = write!(
            out,
            "{status}; move {}, halfmove clock {}; castling {}; en passant {}",
            self.fullmove,
            self.halfmove,
            self.castling_text(),
            if self.ep == NO_EP {
                "-".to_string()
            } else {
                square_name(self.ep as usize)
            }
        );
        let period = self.params.ice_age_period;
        if period > 0 {
            let next = (self.fullmove.div_ceil(period)).saturating_mul(period);
            let _ = write!(out, "\nnext Ice Age after Black's move {next}");
        }
        out
    }

    fn current_player(&self) -> usize {
        self.side as usize
    }

    fn num_players(&self) -> usize {
        2
    }

    fn outcome(&self) -> Outcome {
        self.judge()
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for (sq, &code) in self.board.iter().enumerate() {
            if code != EMPTY {
                h ^= SQUARE_KEYS[code as usize * 64 + sq];
            }
        }
        if self.side == BLACK as u8 {
            h ^= BLACK_TO_MOVE_KEY;
        }
        for (right, key) in CASTLE_KEYS.iter().enumerate() {
            if self.castling & (1 << right) != 0 {
                h ^= key;
            }
        }
        if self.ep != NO_EP {
            h ^= EP_KEYS[self.ep as usize % 8];
        }
        if self.halfmove >= HALFMOVE_LIMIT {
            h ^= HALFMOVE_KEY;
        }
        h
    }

    #[inline]
    fn generate_moves(&self, sink: &mut impl FnMut(ChessMove)) {
        if !self.over {
            self.generate(&mut Emitter(sink));
        }
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        if self.over {
            return 0;
        }
        let mut c = Counter(0);
        self.generate(&mut c);
        c.0
    }

    fn play(&mut self, mv: ChessMove) {
        let (from, to, kind) = (mv.from(), mv.to(), mv.kind());
        let us = self.side as usize;
        self.set_ep(NO_EP);
        self.halfmove += 1;
        if self.board[to] != EMPTY {
            self.remove(to);
            self.halfmove = 0;
        }
        let piece = self.remove(from);
        if piece as usize % 6 == PAWN {
            self.halfmove = 0;
        }
        match kind {
            NORMAL => self.put(to, piece),
            DOUBLE_PUSH => {
                self.put(to, piece);
                let passed = (from + to) / 2;
                if PAWN_ATTACKS[us][passed] & self.pieces(us ^ 1, PAWN) != 0 {
                    self.set_ep(passed as u8);
                }
            }
            CASTLE => {
                self.put(to, piece);
                let (rook_from, rook_to) = if to > from {
                    (to + 1, to - 1)
                } else {
                    (to - 2, to + 1)
                };
                let rook = self.remove(rook_from);
                self.put(rook_to, rook);
            }
            EN_PASSANT => {
                self.put(to, piece);
                self.remove(to ^ 8);
            }
            _ => self.put(to, (us * 6) as u8 + (kind - PROMOTE_KNIGHT + 1) as u8),
        }
        let rights = self.castling & CASTLE_MASKS[from] & CASTLE_MASKS[to];
        if rights != self.castling {
            self.set_castling(rights);
        }
        self.side ^= 1;
        self.hash ^= BLACK_TO_MOVE_KEY;
        if us == BLACK {
            let period = self.params.ice_age_period;
            if period > 0 && self.fullmove % period == 0 {
                self.fullmove += 1;
                self.ice_age();
            } else {
                self.fullmove += 1;
            }
        }
        if self.halfmove == HALFMOVE_LIMIT {
            self.hash ^= HALFMOVE_KEY;
        }
        self.update_over();
    }

    fn move_text(&self, mv: ChessMove) -> String {
        let mut s = square_name(mv.from());
        s.push_str(&square_name(mv.to()));
        if mv.kind() >= PROMOTE_KNIGHT {
            s.push(['n', 'b', 'r', 'q'][(mv.kind() - PROMOTE_KNIGHT) as usize]);
        }
        s
    }

    /// Action `from * 64 + to` (squares a1 = 0 .. h8 = 63) for every move that does not
    /// promote; a promotion is `4096 + ((colour * 8 + from_file) * 3 + file_step) * 4 + piece`
    /// with `file_step` 0, 1, 2 for a capture towards file a, a push, a capture towards file h
    /// and `piece` 0-3 for n, b, r, q (4288 actions in all).
    const NUM_ACTIONS: Option<usize> = Some(PROMOTION_ACTIONS + 2 * 8 * 3 * 4);

    fn action_of(&self, mv: ChessMove) -> usize {
        if mv.kind() < PROMOTE_KNIGHT {
            return mv.from() * 64 + mv.to();
        }
        let colour = usize::from(mv.from() / 8 == 1);
        let file_step = mv.to() % 8 + 1 - mv.from() % 8;
        PROMOTION_ACTIONS
            + ((colour * 8 + mv.from() % 8) * 3 + file_step) * 4
            + usize::from(mv.kind() - PROMOTE_KNIGHT)
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

    /// 20 planes of 8x8, seen from the mover's side (ranks flipped when Black moves):
    /// 0-5 the mover's pawns, knights, bishops, rooks, queens, king; 6-11 the opponent's;
    /// 12 ice; 13-16 castling rights (mover king side, queen side, opponent king side,
    /// queen side; constant planes); 17 the en-passant square; 18 the halfmove clock / 100;
    /// 19 the fraction of the Ice Age period already gone (0 when the Ice Age is off).
    /// Index `plane * 64 + rank * 8 + file`.
    const OBSERVATION_SHAPE: &'static [usize] = &[20, 8, 8];

    fn observe(&self, out: &mut [f32]) {
        let me = self.side as usize;
        let flip = |sq: usize| if me == WHITE { sq } else { sq ^ 56 };
        let mut mark = |plane: usize, squares: Bitboard| {
            let mut rest = squares;
            while rest != 0 {
                let sq = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                out[plane * 64 + flip(sq)] = 1.0;
            }
        };
        for role in 0..6 {
            mark(role, self.by_role[role] & self.by_colour[me]);
            mark(6 + role, self.by_role[role] & self.by_colour[1 - me]);
        }
        mark(12, self.ice);
        if self.ep != NO_EP {
            mark(17, 1 << self.ep);
        }
        let rights = [
            self.castling & 1,
            self.castling >> 1 & 1,
            self.castling >> 2 & 1,
            self.castling >> 3 & 1,
        ];
        let (mine, theirs) = if me == WHITE {
            ([0, 1], [2, 3])
        } else {
            ([2, 3], [0, 1])
        };
        let fill = |out: &mut [f32], plane: usize, value: f32| {
            out[plane * 64..(plane + 1) * 64].fill(value)
        };
        for (plane, right) in (13..17).zip(mine.into_iter().chain(theirs)) {
            fill(out, plane, f32::from(rights[right]));
        }
        fill(
            out,
            18,
            self.halfmove.min(HALFMOVE_LIMIT) as f32 / HALFMOVE_LIMIT as f32,
        );
        let period = self.params.ice_age_period;
        if period > 0 {
            fill(
                out,
                19,
                ((self.fullmove - 1) % period) as f32 / period as f32,
            );
        }
    }

    fn parse_move(&self, text: &str) -> Result<ChessMove, Error> {
        let bytes = text.as_bytes();
        let squares = (bytes.len() == 4 || bytes.len() == 5)
            .then(|| (parse_square(&bytes[..2]), parse_square(&bytes[2..4])));
        let promotion = match bytes.get(4) {
            None => Some(None),
            Some(b'n') => Some(Some(PROMOTE_KNIGHT)),
            Some(b'b') => Some(Some(PROMOTE_KNIGHT + 1)),
            Some(b'r') => Some(Some(PROMOTE_KNIGHT + 2)),
            Some(b'q') => Some(Some(PROMOTE_KNIGHT + 3)),
            Some(_) => None,
        };
        let (Some((Some(from), Some(to))), Some(promotion)) = (squares, promotion) else {
            return Err(Error::IllegalMove(format!(
                "'{text}' is not a UCI move: expected from-square, to-square and an optional \
                 promotion letter (q, r, b, n), like 'e2e4' or 'e7e8q'"
            )));
        };
        let mut found = None;
        self.generate_moves(&mut |mv: ChessMove| {
            let promo = (mv.kind() >= PROMOTE_KNIGHT).then(|| mv.kind());
            if mv.from() == from && mv.to() == to && promo == promotion {
                found = Some(mv);
            }
        });
        found.ok_or_else(|| Error::IllegalMove(self.explain_illegal(text, from, to, promotion)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(period: u32) -> IceAgeChessParams {
        IceAgeChessParams {
            max_plies: 1000,
            ice_age_period: period,
        }
    }

    fn chess(fen: &str) -> IceAgeChess {
        IceAgeChess::from_text(fen, &params(0)).expect("valid FEN")
    }

    #[test]
    fn start_text_round_trips() {
        let s = IceAgeChess::start(&params(20));
        assert_eq!(s.text(), START);
        assert_eq!(s.hash(), s.hash_from_scratch());
    }

    #[test]
    fn start_perft_matches_rulings() {
        let s = IceAgeChess::start(&params(20));
        for (depth, &n) in [1, 18, 324, 6264, 121_094].iter().enumerate() {
            assert_eq!(s.perft(depth as u32), n, "depth {depth}");
            assert_eq!(crate::perft::perft_no_bulk(&s, depth as u32), n);
        }
    }

    #[test]
    fn standard_chess_perft() {
        let s = chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        for (depth, &n) in [1, 20, 400, 8902, 197_281].iter().enumerate() {
            assert_eq!(s.perft(depth as u32), n, "depth {depth}");
            assert_eq!(crate::perft::perft_no_bulk(&s, depth as u32), n);
        }
        let kiwipete =
            chess("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        assert_eq!(kiwipete.perft(3), 97_862);
        assert_eq!(crate::perft::perft_no_bulk(&kiwipete, 3), 97_862);
    }

    #[test]
    fn hash_is_kept_incrementally() {
        fn walk(s: &IceAgeChess, depth: u32) {
            assert_eq!(s.hash(), s.hash_from_scratch(), "{}", s.text());
            if depth == 0 {
                return;
            }
            s.generate_moves(&mut |mv| {
                let mut c = s.clone();
                c.play(mv);
                walk(&c, depth - 1);
            });
        }
        walk(
            &chess("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
            3,
        );
        let s = IceAgeChess::from_text(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            &params(1),
        )
        .expect("valid");
        walk(&s, 3);
    }
}
