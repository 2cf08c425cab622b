//! Ice Age Chess (docs/rules/ice_age_chess.md).
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

//!
//! The parts: this file holds the state, its board updates and the rules ([`Game`]);
//! `movegen` the legal move generator, `text` the FEN and UCI notation ([`Notation`]),
//! `encoding` the action numbers and the observation tensor.

mod bitboard;
mod encoding;
mod facts;
mod heuristic;
#[cfg(test)]
mod search_tests;
mod movegen;
mod text;

use self::bitboard::{bit, east, north, sliders, south, west, Bitboard, Sliders, Squares, BISHOP_RAYS, KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS, ROOK_RAYS};
use self::movegen::{Counter, Emitter, Groups, Picker};
use crate::error::Error;
use crate::game::{Game, GameParams, Notation, Outcome};
use crate::params::{ParamSpec, ParamValue};
use crate::zobrist;
use crate::interrupt::Watch;
use std::ops::ControlFlow;

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
/// The seed of the halfmove clock's keys in [`Game::transposition_key`] (not part of the hash).
const TRANSPOSITION_SEED: u64 = 0x4841_4C46_4D4F_5645;

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
pub struct IceAgeChessMove(u16);

impl IceAgeChessMove {
    #[inline(always)]
    const fn new(from: usize, to: usize, kind: u16) -> IceAgeChessMove {
        IceAgeChessMove(from as u16 | (to as u16) << 6 | kind << 12)
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

impl GameParams for IceAgeChessParams {
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec::max_plies(1000),
        ParamSpec {
            name: "ice_age_period",
            default: ParamValue::Int(20),
            min: 0,
            max: u32::MAX as i64,
            optional: false,
        },
    ];

    fn from_values(values: &[ParamValue]) -> Result<Self, Error> {
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

    fn values(&self) -> Vec<ParamValue> {
        vec![
            ParamValue::Int(self.max_plies.into()),
            ParamValue::Int(self.ice_age_period.into()),
        ]
    }
}

#[derive(Clone, Debug)]
pub struct IceAgeChess {
    by_role: [Bitboard; 6],
    by_colour: [Bitboard; 2],
    ice: Bitboard,
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

impl IceAgeChess {
    fn empty(params: &IceAgeChessParams) -> IceAgeChess {
        IceAgeChess {
            by_role: [0; 6],
            by_colour: [0; 2],
            ice: 0,
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

    // --- board updates (every one keeps the hash, unless told not to) ------------------

    /// Puts `code` on `sq` where it is absent, or takes it off where it stands; with
    /// `HASH`, the hash follows.
    #[inline(always)]
    fn toggle<const HASH: bool>(&mut self, sq: usize, code: u8) {
        let b = bit(sq);
        if code == ICE {
            self.ice ^= b;
        } else {
            self.by_colour[code as usize / 6] ^= b;
            self.by_role[code as usize % 6] ^= b;
        }
        if HASH {
            self.hash ^= SQUARE_KEYS[code as usize * 64 + sq];
        }
    }

    /// Puts `code` on an empty square.
    #[inline(always)]
    fn put(&mut self, sq: usize, code: u8) {
        self.toggle::<true>(sq, code);
    }

    /// Empties a square that is not empty; returns what was there.
    #[inline(always)]
    fn remove(&mut self, sq: usize) -> u8 {
        let code = self.code_at(sq);
        self.toggle::<true>(sq, code);
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

    /// The role of the piece on `sq` (which holds a piece, not ice), read from the role
    /// bitboards without a branch. (The state keeps no square-by-square board: copying one
    /// would cost every copy-make more than these reads cost the few that need them.)
    #[inline(always)]
    fn role_at(&self, sq: usize) -> usize {
        let has = |role: usize| ((self.by_role[role] >> sq) & 1) as usize;
        // One role holds the square: the sum is its number.
        has(KNIGHT) + 2 * has(BISHOP) + 3 * has(ROOK) + 4 * has(QUEEN) + 5 * has(KING)
    }

    /// What stands on `sq`: a piece code (`colour * 6 + role`), [`ICE`] or [`EMPTY`].
    #[inline(always)]
    fn code_at(&self, sq: usize) -> u8 {
        let b = bit(sq);
        if self.ice & b != 0 {
            ICE
        } else if self.by_colour[WHITE] & b != 0 {
            self.role_at(sq) as u8
        } else if self.by_colour[BLACK] & b != 0 {
            (6 + self.role_at(sq)) as u8
        } else {
            EMPTY
        }
    }

    #[inline(always)]
    fn pieces(&self, colour: usize, role: usize) -> Bitboard {
        self.by_colour[colour] & self.by_role[role]
    }

    #[inline(always)]
    fn occupied(&self) -> Bitboard {
        self.by_colour[0] | self.by_colour[1] | self.ice
    }

    #[inline(always)]
    fn is_attacked(&self, s: &Sliders, sq: usize, occupied: Bitboard, by: usize) -> bool {
        let them = self.by_colour[by];
        let diagonal = (self.by_role[BISHOP] | self.by_role[QUEEN]) & them;
        let straight = (self.by_role[ROOK] | self.by_role[QUEEN]) & them;
        // The slider tables are read only when such a slider stands on one of the lines.
        (KNIGHT_ATTACKS[sq] & self.by_role[KNIGHT] & them) != 0
            || (PAWN_ATTACKS[by ^ 1][sq] & self.by_role[PAWN] & them) != 0
            || (KING_ATTACKS[sq] & self.by_role[KING] & them) != 0
            || (BISHOP_RAYS[sq] & diagonal != 0 && s.bishop(sq, occupied) & diagonal != 0)
            || (ROOK_RAYS[sq] & straight != 0 && s.rook(sq, occupied) & straight != 0)
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
        self.occupied() & bit(ep) == 0
            && self.pieces(us ^ 1, PAWN) & bit(ep ^ 8) != 0
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
            if self.pieces(colour, KING) & bit(k) == 0 || self.pieces(colour, ROOK) & bit(r) == 0
            {
                rights &= !(1 << right);
            }
        }
        self.set_castling(rights);
    }

    /// The end of a finished game, in the order of precedence of the rules page.
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
    const TITLE: &'static str = "Ice Age Chess";

    type Params = IceAgeChessParams;
    type Move = IceAgeChessMove;

    fn params(&self) -> &IceAgeChessParams {
        &self.params
    }

    fn start(params: &IceAgeChessParams) -> Self {
        match Self::from_text(START, params) {
            Ok(state) => state,
            Err(e) => unreachable!("the start position is valid: {e}"),
        }
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

    fn transposition_key(&self, depth: u32) -> u64 {
        // The halfmove clock is hashed only once it has ended the game. Below that it matters
        // only where it can reach the limit within `depth` plies; then it is part of the key.
        // (The ply limit and the Ice Ages count from the move number, which follows from the
        // ply count.)
        if self.halfmove.saturating_add(depth) >= HALFMOVE_LIMIT {
            self.hash ^ zobrist::key(TRANSPOSITION_SEED, u64::from(self.halfmove))
        } else {
            self.hash
        }
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for sq in Squares(self.occupied()) {
            h ^= SQUARE_KEYS[self.code_at(sq) as usize * 64 + sq];
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
    fn scan_moves<B>(
        &self,
        visit: &mut impl FnMut(IceAgeChessMove) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        if self.over {
            return ControlFlow::Continue(());
        }
        let mut emitter = Emitter::new(visit);
        let _ = self.generate(&mut emitter);
        emitter.flow()
    }

    #[inline]
    /// Positions whose next `depth` plies hold no Ice Age and no end of the game (standard
    /// chess far from the halfmove and ply limits, Ice Age Chess between two Ice Ages) are
    /// counted with the plain make: no hash and no clocks, which nothing within such a
    /// horizon reads, and no move kinds to decode.
    fn own_perft(&self, depth: u32, watch: &mut Watch<'_, '_>) -> Option<u64> {
        self.plain_horizon(depth).then(|| self.perft_plain(depth, watch))
    }

    fn count_moves(&self) -> u64 {
        if self.over {
            return 0;
        }
        let mut c = Counter(0);
        let _ = self.generate(&mut c);
        c.0
    }

    /// Found by skipping whole groups of targets by their popcounts (as the count goes),
    /// not by handing out every move before it.
    fn nth_move(&self, index: u64) -> Option<IceAgeChessMove> {
        if self.over {
            return None;
        }
        let mut picker = Picker {
            left: index,
            found: None,
        };
        let _ = self.generate(&mut picker);
        picker.found
    }

    /// From one generation, its groups of targets kept as they come: counted, then picked
    /// among by popcounts; the same draw as `nth_move(rng.below(count_moves()))`, and faster
    /// than counting and then picking in a second generation, or than filling a buffer with
    /// every move.
    fn random_move<const N: usize>(
        &self,
        rng: &mut crate::rng::SplitMix64,
        _buffer: &mut crate::game::MoveBuffer<IceAgeChessMove, N>,
    ) -> Option<(IceAgeChessMove, u64)> {
        self.draw::<32>(rng)
    }

    fn play_unchecked(&mut self, mv: IceAgeChessMove) {
        self.make::<true>(mv);
    }
}

impl IceAgeChess {
    /// [`Game::random_move`] from one generation kept in room for `ROOM` groups of targets
    /// (by counting and then picking, in two, where they do not fit).
    fn draw<const ROOM: usize>(
        &self,
        rng: &mut crate::rng::SplitMix64,
    ) -> Option<(IceAgeChessMove, u64)> {
        if self.over {
            return None;
        }
        let mut groups = Groups::<ROOM>::new();
        let _ = self.generate(&mut groups);
        if groups.overflowed {
            return crate::game::count_then_pick(self, rng);
        }
        if groups.count == 0 {
            return None;
        }
        let mut picker = Picker {
            left: rng.below(groups.count),
            found: None,
        };
        let _ = groups.replay(&mut picker);
        Some((picker.found?, groups.count))
    }

    /// Plays a move that [`Game::scan_moves`] produced here. With `FULL` everything the
    /// rules keep follows (the hash, the clocks, the Ice Age, the end of the game); without
    /// it only what the move generator reads changes (the bitboards, the side to move, the
    /// castling rights and the en-passant square): perft's make, for counts whose horizon
    /// holds no Ice Age and no end of the game ([`IceAgeChess::plain_horizon`]).
    #[inline(always)]
    fn make<const FULL: bool>(&mut self, mv: IceAgeChessMove) {
        let (from, to, kind) = (mv.from(), mv.to(), mv.kind());
        let us = self.side as usize;
        let them = us ^ 1;
        if FULL {
            self.set_ep(NO_EP);
            self.halfmove += 1;
        } else {
            self.ep = NO_EP;
        }
        let role = self.role_at(from);
        let piece = (us * 6 + role) as u8;
        // A capture of a piece or of ice (no move lands on a piece of the mover's).
        if (self.by_colour[them] | self.ice) & bit(to) != 0 {
            let captured = if self.ice & bit(to) != 0 {
                ICE
            } else {
                (them * 6 + self.role_at(to)) as u8
            };
            self.toggle::<FULL>(to, captured);
            if FULL {
                self.halfmove = 0;
            }
        }
        if FULL && role == PAWN {
            self.halfmove = 0;
        }
        self.toggle::<FULL>(from, piece);
        match kind {
            NORMAL => self.toggle::<FULL>(to, piece),
            DOUBLE_PUSH => {
                self.toggle::<FULL>(to, piece);
                let passed = (from + to) / 2;
                if PAWN_ATTACKS[us][passed] & self.pieces(them, PAWN) != 0 {
                    if FULL {
                        self.set_ep(passed as u8);
                    } else {
                        self.ep = passed as u8;
                    }
                }
            }
            CASTLE => {
                self.toggle::<FULL>(to, piece);
                let (rook_from, rook_to) = if to > from {
                    (to + 1, to - 1)
                } else {
                    (to - 2, to + 1)
                };
                // A castling right implies the rook on its square.
                let rook = (us * 6 + ROOK) as u8;
                self.toggle::<FULL>(rook_from, rook);
                self.toggle::<FULL>(rook_to, rook);
            }
            EN_PASSANT => {
                self.toggle::<FULL>(to, piece);
                self.toggle::<FULL>(to ^ 8, (them * 6 + PAWN) as u8);
            }
            _ => self.toggle::<FULL>(to, (us * 6) as u8 + (kind - PROMOTE_KNIGHT + 1) as u8),
        }
        let rights = self.castling & CASTLE_MASKS[from] & CASTLE_MASKS[to];
        if rights != self.castling {
            if FULL {
                self.set_castling(rights);
            } else {
                self.castling = rights;
            }
        }
        self.side ^= 1;
        if !FULL {
            return;
        }
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

    /// Whether the next `depth` plies hold nothing but chess moves, so that perft may play
    /// them with the plain make: the game is not over, no state it generates moves for (up
    /// to `depth - 1` plies on) is ended by the halfmove clock or the ply limit, and no
    /// Ice Age comes before the last of them. (Kings are never taken: a legal move never
    /// lands on one, as the side not to move is never in check; only an Ice Age freezes
    /// one.)
    pub(crate) fn plain_horizon(&self, depth: u32) -> bool {
        let inner = u64::from(depth.saturating_sub(1));
        if self.over
            || u64::from(self.halfmove) + inner >= u64::from(HALFMOVE_LIMIT)
            || self.plies() + inner >= u64::from(self.params.max_plies)
        {
            return false;
        }
        let period = u64::from(self.params.ice_age_period);
        if period == 0 {
            return true;
        }
        // The Black moves among the first `depth - 1`, each at its full-move number.
        let (mut side, mut fullmove) = (self.side as usize, u64::from(self.fullmove));
        for _ in 0..inner {
            if side == BLACK {
                if fullmove % period == 0 {
                    return false;
                }
                fullmove += 1;
            }
            side ^= 1;
        }
        true
    }

    /// Bulk perft with the plain make, for a state whose [`IceAgeChess::plain_horizon`]
    /// holds at `depth`: the same count as [`crate::perft::perft_until`]'s, without the
    /// hash and the clocks that no state within the horizon needs.
    pub(crate) fn perft_plain(&self, depth: u32, watch: &mut Watch<'_, '_>) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_plain(),
            _ => {
                if watch.should_stop() {
                    return 0;
                }
                let mut node = PerftNode {
                    parent: self,
                    depth: depth - 1,
                    nodes: 0,
                    watch,
                };
                let _ = self.generate(&mut node);
                node.nodes
            }
        }
    }

    /// The legal moves, counted in bulk (perft's last ply).
    #[inline(never)]
    fn count_plain(&self) -> u64 {
        let mut counter = Counter(0);
        let _ = self.generate(&mut counter);
        counter.0
    }

    /// The plain make of a move of one piece (`role`, of the side to move) from `from` to
    /// `to`, capturing what stands there; `promotion` is the role it ends as. Not for
    /// castling, en passant or a double push's en-passant square.
    #[inline(always)]
    fn move_plain(&mut self, from: usize, to: usize, role: usize, promotion: usize) {
        let us = self.side as usize;
        let them = us ^ 1;
        let target = bit(to);
        self.ep = NO_EP;
        if self.by_colour[them] & target != 0 {
            self.by_colour[them] ^= target;
            self.by_role[self.role_at(to)] ^= target;
        } else {
            self.ice &= !target;
        }
        self.by_colour[us] ^= bit(from) | target;
        self.by_role[role] ^= bit(from);
        self.by_role[promotion] ^= target;
        self.castling &= CASTLE_MASKS[from] & CASTLE_MASKS[to];
        self.side ^= 1;
    }
}

/// An inner node of [`IceAgeChess::perft_plain`]: every move the generator hands it is
/// played on a copy (by the plain make, the moving piece's role read once per piece) and
/// counted `depth` plies further down.
struct PerftNode<'a, 'w, 'i, 'c> {
    parent: &'a IceAgeChess,
    depth: u32,
    nodes: u64,
    watch: &'w mut Watch<'i, 'c>,
}

impl PerftNode<'_, '_, '_, '_> {
    #[inline(always)]
    fn below(&mut self, child: &IceAgeChess) {
        self.nodes += if self.depth == 1 {
            child.count_plain()
        } else {
            child.perft_plain(self.depth, self.watch)
        };
    }

    /// Counts below the parent after the plain move of a `role` from `from` to `to`, which
    /// stands there as `placed` (a promotion's new role, else `role`).
    #[inline(always)]
    fn below_plain(&mut self, from: usize, to: usize, role: usize, placed: usize) {
        let mut child = self.parent.clone();
        child.move_plain(from, to, role, placed);
        self.below(&child);
    }
}

impl movegen::Visitor for PerftNode<'_, '_, '_, '_> {
    #[inline(always)]
    fn piece(&mut self, from: usize, targets: Bitboard) -> ControlFlow<()> {
        let role = self.parent.role_at(from);
        for to in Squares(targets) {
            self.below_plain(from, to, role, role);
        }
        ControlFlow::Continue(())
    }

    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i32) -> ControlFlow<()> {
        for to in Squares(targets) {
            let from = (to as i32 - delta) as usize;
            if bit(to) & (bitboard::RANK_1 | bitboard::RANK_8) != 0 {
                for promotion in KNIGHT..=QUEEN {
                    self.below_plain(from, to, PAWN, promotion);
                }
            } else {
                self.below_plain(from, to, PAWN, PAWN);
            }
        }
        ControlFlow::Continue(())
    }

    #[inline(always)]
    fn double_pushes(&mut self, targets: Bitboard, delta: i32) -> ControlFlow<()> {
        for to in Squares(targets) {
            let mut child = self.parent.clone();
            child.make::<false>(IceAgeChessMove::new(
                (to as i32 - delta) as usize,
                to,
                DOUBLE_PUSH,
            ));
            self.below(&child);
        }
        ControlFlow::Continue(())
    }

    #[inline(always)]
    fn special(&mut self, mv: IceAgeChessMove) -> ControlFlow<()> {
        let mut child = self.parent.clone();
        child.make::<false>(mv);
        self.below(&child);
        ControlFlow::Continue(())
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
    fn start_perft_matches_the_rules_page() {
        let s = IceAgeChess::start(&params(20));
        for (depth, &n) in [1, 18, 324, 6264, 121_094].iter().enumerate() {
            assert_eq!(crate::perft::perft(&s, depth as u32), n, "depth {depth}");
            assert_eq!(crate::perft::perft_no_bulk(&s, depth as u32), n);
        }
    }

    #[test]
    fn standard_chess_perft() {
        let s = chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        for (depth, &n) in [1, 20, 400, 8902, 197_281].iter().enumerate() {
            assert_eq!(crate::perft::perft(&s, depth as u32), n, "depth {depth}");
            assert_eq!(crate::perft::perft_no_bulk(&s, depth as u32), n);
        }
        let kiwipete =
            chess("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        assert_eq!(crate::perft::perft(&kiwipete, 3), 97_862);
        assert_eq!(crate::perft::perft_no_bulk(&kiwipete, 3), 97_862);
    }

    /// A random move is the move `nth_move(below(count_moves()))` draws, in positions with
    /// promotions, castling and en passant, also when the groups of targets overflow the
    /// room kept for them and the move is drawn by counting.
    #[test]
    fn random_moves_are_drawn_as_counting_draws() {
        let positions = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ];
        let mut buffer = crate::game::MoveBuffer::<IceAgeChessMove>::new();
        for fen in positions {
            let state = chess(fen);
            for seed in 0..200 {
                let (mut rng, mut again) = (crate::rng::SplitMix64::new(seed), crate::rng::SplitMix64::new(seed));
                let drawn = state.random_move(&mut rng, &mut buffer);
                let count = state.count_moves();
                let expected = state.nth_move(again.below(count)).map(|mv| (mv, count));
                assert_eq!(drawn, expected, "{fen}, seed {seed}");
                // With room for 4 groups, most positions overflow it and are counted.
                let mut small = crate::rng::SplitMix64::new(seed);
                assert_eq!(state.draw::<4>(&mut small), expected, "{fen}, seed {seed}, room 4");
            }
        }
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
                c.play_unchecked(mv);
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
