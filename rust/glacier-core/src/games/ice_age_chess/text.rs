//! The position text (FEN with `*` for ice) and the move text (UCI).

use super::bitboard::{bit, sliders, RANK_1, RANK_8};
use super::movegen::forward;
use super::*;
use crate::bad_position;
use crate::notation::{parse_count, parse_placement, write_placement};
use std::fmt::Write as _;

pub(super) fn square_name(sq: usize) -> String {
    let mut s = String::with_capacity(2);
    s.push((b'a' + (sq % 8) as u8) as char);
    s.push((b'1' + (sq / 8) as u8) as char);
    s
}

pub(super) fn parse_square(s: &[u8]) -> Option<usize> {
    match s {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some((r - b'1') as usize * 8 + (f - b'a') as usize),
        _ => None,
    }
}

impl IceAgeChess {
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
}

impl Notation for IceAgeChess {
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

    fn write_move_text(&self, mv: IceAgeChessMove, out: &mut String) {
        out.push_str(&square_name(mv.from()));
        out.push_str(&square_name(mv.to()));
        if mv.kind() >= PROMOTE_KNIGHT {
            out.push(['n', 'b', 'r', 'q'][(mv.kind() - PROMOTE_KNIGHT) as usize]);
        }
    }

    fn parse_move(&self, text: &str) -> Result<IceAgeChessMove, Error> {
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
        let found = self.find_move(|mv| {
            let promo = (mv.kind() >= PROMOTE_KNIGHT).then(|| mv.kind());
            mv.from() == from && mv.to() == to && promo == promotion
        });
        found.ok_or_else(|| Error::IllegalMove(self.explain_illegal(text, from, to, promotion)))
    }
}
