//! The position text (FEN with `*` for ice), the move text (UCI), and Standard Algebraic
//! Notation (SAN) for game records (docs/records.md).

use super::bitboard::{bit, sliders, RANK_1, RANK_8};
use super::movegen::forward;
use super::*;
use crate::bad_position;
use crate::game::Outcome;
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
        write_placement(8, |sq| match self.code_at(sq) {
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
        let code = self.code_at(from);
        if code >= ICE || code as usize / 6 != us {
            return format!(
                "illegal move {text}: no {} piece on {}",
                COLOUR_NAMES[us],
                square_name(from), text = crate::notation::Quoted(text)
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
        format!("illegal move {text}: {why}", text = crate::notation::Quoted(text))
    }
}

impl Notation for IceAgeChess {
    fn from_text(text: &str, params: &IceAgeChessParams) -> Result<Self, Error> {
        let fields: Vec<&str> = text.split(' ').collect();
        let [placement, side, castling, ep, halfmove, fullmove] = fields[..] else {
            return Err(bad_position!(
                "an Ice Age Chess position (FEN) has 6 fields separated by single spaces \
                 (placement, side, castling, en passant, halfmove clock, fullmove number), got {}: {text}",
                fields.len(), text = crate::notation::Quoted(text)
            ));
        };
        let board = Self::parse_placement(placement)?;
        let side = match side {
            "w" => WHITE,
            "b" => BLACK,
            _ => {
                return Err(bad_position!(
                    "side to move must be 'w' or 'b', got {side}", side = crate::notation::Quoted(side)
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
                            "castling must be '-' or some of 'KQkq' in that order, got {castling}", castling = crate::notation::Quoted(castling)
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
                    "en passant must be '-' or a square like 'e3', got {ep}", ep = crate::notation::Quoted(ep)
                ));
            };
            Some(sq)
        };
        let halfmove = parse_count(halfmove).ok_or_else(|| {
            bad_position!("the halfmove clock must be a number, got {halfmove}", halfmove = crate::notation::Quoted(halfmove))
        })?;
        let fullmove = parse_count(fullmove).filter(|&n| n >= 1).ok_or_else(|| {
            bad_position!("the fullmove number must be a number >= 1, got {fullmove}", fullmove = crate::notation::Quoted(fullmove))
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
                out.push(match self.code_at(rank * 8 + file) {
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

    /// Chess records (PGN) write SAN.
    fn record_move_text(&self, mv: IceAgeChessMove) -> Option<String> {
        Some(self.san(mv))
    }

    fn parse_record_move(&self, text: &str) -> Option<Result<IceAgeChessMove, Error>> {
        Some(self.parse_san(text))
    }

    fn parse_move(&self, text: &str) -> Result<IceAgeChessMove, Error> {
        if self.is_terminal() {
            return Err(crate::notation::game_over(text));
        }
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
                "{text} is not a UCI move: expected from-square, to-square and an optional \
                 promotion letter (q, r, b, n), like 'e2e4' or 'e7e8q'", text = crate::notation::Quoted(text)
            )));
        };
        let found = self.find_move(|mv| {
            let promo = (mv.kind() >= PROMOTE_KNIGHT).then(|| mv.kind());
            mv.from() == from && mv.to() == to && promo == promotion
        });
        found.ok_or_else(|| Error::IllegalMove(self.explain_illegal(text, from, to, promotion)))
    }
}

/// SAN letters of the roles (a pawn has none in SAN; `P` is only here to index by role).
const SAN_LETTERS: [char; 6] = ['P', 'N', 'B', 'R', 'Q', 'K'];

impl IceAgeChess {
    // --- SAN (Standard Algebraic Notation), as PGN records write moves ------------------

    /// The SAN of `mv`, a legal move of this state: `e4`, `Nbd2`, `exd6`, `e8=Q`, `O-O`,
    /// with `+` for a check and `#` for a checkmate. Ice is taken like a piece (`Bxe5`);
    /// an Ice Age that freezes the other king wins the game but is no mate.
    pub fn san(&self, mv: IceAgeChessMove) -> String {
        let mut out = self.san_body(mv);
        let mut after = self.clone();
        after.play_unchecked(mv);
        if after.in_check() {
            let mate = after.outcome() == Outcome::Win(self.side);
            out.push(if mate { '#' } else { '+' });
        }
        out
    }

    /// The SAN of `mv` without the check mark.
    fn san_body(&self, mv: IceAgeChessMove) -> String {
        let (from, to, kind) = (mv.from(), mv.to(), mv.kind());
        if kind == CASTLE {
            return if to > from { "O-O" } else { "O-O-O" }.to_string();
        }
        let piece = self.code_at(from);
        let role = piece as usize % 6;
        let capture = self.code_at(to) != EMPTY || kind == EN_PASSANT;
        let mut out = String::with_capacity(8);
        if role == PAWN {
            if capture {
                out.push((b'a' + (from % 8) as u8) as char);
                out.push('x');
            }
            out.push_str(&square_name(to));
            if kind >= PROMOTE_KNIGHT {
                out.push('=');
                out.push(SAN_LETTERS[(kind - PROMOTE_KNIGHT + 1) as usize]);
            }
            return out;
        }
        out.push(SAN_LETTERS[role]);
        // Another piece of the same kind that can go to the same square: name the file
        // when that tells them apart, else the rank, else both.
        let (mut rivals, mut same_file, mut same_rank) = (false, false, false);
        self.generate_moves(&mut |other| {
            let there = other.from();
            if other.to() == to && there != from && self.code_at(there) == piece && other.kind() != CASTLE {
                rivals = true;
                same_file |= there % 8 == from % 8;
                same_rank |= there / 8 == from / 8;
            }
        });
        if rivals {
            let name = square_name(from);
            if !same_file {
                out.push_str(&name[..1]);
            } else if !same_rank {
                out.push_str(&name[1..]);
            } else {
                out.push_str(&name);
            }
        }
        if capture {
            out.push('x');
        }
        out.push_str(&square_name(to));
        out
    }

    /// The legal move written in SAN as `text`. Read as PGN readers do: check and mate
    /// marks and `!`/`?` annotations are ignored, so is the capture mark, `0-0` is castling
    /// too, and a move may name more of its from-square than it needs to.
    pub fn parse_san(&self, text: &str) -> Result<IceAgeChessMove, Error> {
        let body = text.trim_end_matches(['+', '#', '!', '?']);
        if matches!(body, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
            let king_side = body.len() == 3;
            return self
                .find_move(|mv| mv.kind() == CASTLE && (mv.to() > mv.from()) == king_side)
                .ok_or_else(|| {
                    Error::IllegalMove(format!("illegal move {text}: castling is not allowed here", text = crate::notation::Quoted(text)))
                });
        }
        let Some(wanted) = SanPattern::read(body) else {
            return Err(Error::IllegalMove(format!(
                "{text} is not a SAN move: expected a piece letter (K, Q, R, B, N; none for a \
                 pawn), an optional from-file or rank, an optional 'x', the target square and \
                 for a promotion '=' and a piece letter, like 'e4', 'Nbd7', 'exd5', 'e8=Q', 'O-O'", text = crate::notation::Quoted(text)
            )));
        };
        let mut found: Option<IceAgeChessMove> = None;
        let mut rivals: Vec<IceAgeChessMove> = Vec::new();
        self.generate_moves(&mut |mv| {
            if wanted.matches(self, mv) {
                match found {
                    None => found = Some(mv),
                    Some(_) => rivals.push(mv),
                }
            }
        });
        match found {
            None => Err(Error::IllegalMove(format!(
                "illegal move {text}: no legal move of the side to move fits it", text = crate::notation::Quoted(text)
            ))),
            Some(mv) if rivals.is_empty() => Ok(mv),
            Some(mv) => {
                let mut names: Vec<String> = std::iter::once(mv)
                    .chain(rivals)
                    .map(|m| self.san(m))
                    .collect();
                names.sort();
                Err(Error::IllegalMove(format!(
                    "ambiguous move {text}: it could be {}",
                    names.join(" or "), text = crate::notation::Quoted(text)
                )))
            }
        }
    }
}

/// What a SAN text (castling aside) says of a move.
struct SanPattern {
    role: usize,
    from_file: Option<usize>,
    from_rank: Option<usize>,
    to: usize,
    /// The promotion's move kind, if the text promotes.
    promotion: Option<u16>,
}

impl SanPattern {
    fn read(body: &str) -> Option<SanPattern> {
        let mut bytes = body.as_bytes();
        let role = match bytes.first() {
            Some(&c) => match SAN_LETTERS[1..].iter().position(|&l| l as u8 == c) {
                Some(i) => {
                    bytes = &bytes[1..];
                    i + 1
                }
                None => PAWN,
            },
            None => return None,
        };
        let mut promotion = None;
        if role == PAWN {
            if let Some((&last, rest)) = bytes.split_last() {
                if let Some(i) = SAN_LETTERS[1..5].iter().position(|&l| l as u8 == last) {
                    promotion = Some(PROMOTE_KNIGHT + i as u16);
                    bytes = rest.strip_suffix(b"=").unwrap_or(rest);
                }
            }
        }
        if bytes.len() < 2 {
            return None;
        }
        let (head, target) = bytes.split_at(bytes.len() - 2);
        let to = parse_square(target)?;
        let head = head.strip_suffix(b"x").unwrap_or(head);
        let (from_file, from_rank) = match head {
            [] => (None, None),
            [f @ b'a'..=b'h'] => (Some((f - b'a') as usize), None),
            [r @ b'1'..=b'8'] => (None, Some((r - b'1') as usize)),
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
                (Some((f - b'a') as usize), Some((r - b'1') as usize))
            }
            _ => return None,
        };
        Some(SanPattern {
            role,
            from_file,
            from_rank,
            to,
            promotion,
        })
    }

    fn matches(&self, state: &IceAgeChess, mv: IceAgeChessMove) -> bool {
        let from = mv.from();
        let promotion = (mv.kind() >= PROMOTE_KNIGHT).then(|| mv.kind());
        // A pawn move without a from-file is a push: it stays on its file.
        let from_file = match (self.role, self.from_file) {
            (PAWN, None) => Some(self.to % 8),
            (_, file) => file,
        };
        mv.to() == self.to
            && mv.kind() != CASTLE
            && state.code_at(from) as usize % 6 == self.role
            && promotion == self.promotion
            && from_file.is_none_or(|f| from % 8 == f)
            && self.from_rank.is_none_or(|r| from / 8 == r)
    }
}

#[cfg(test)]
mod san_tests {
    use super::*;

    fn chess(fen: &str) -> IceAgeChess {
        let params = IceAgeChessParams {
            max_plies: 1000,
            ice_age_period: 0,
        };
        IceAgeChess::from_text(fen, &params).expect("valid FEN")
    }

    fn san_of(state: &IceAgeChess, uci: &str) -> String {
        state.san(state.parse_move(uci).expect("legal"))
    }

    #[test]
    fn san_writes_and_reads_every_kind_of_move() {
        // Two knights and two rooks that can reach the same squares, a pawn that can take
        // en passant, castling on both sides and a promotion with capture.
        let s = chess("r3k2r/1P6/8/3pP1N1/8/8/8/R3K2R w KQkq d6 0 1");
        for (uci, san) in [
            ("e5d6", "exd6"),
            ("e1g1", "O-O"),
            ("e1c1", "O-O-O"),
            ("b7a8q", "bxa8=Q+"),
            ("b7b8n", "b8=N"),
            ("a1a8", "Rxa8+"),
            ("g5f3", "Nf3"),
            ("h1h8", "Rxh8+"),
        ] {
            assert_eq!(san_of(&s, uci), san, "{uci}");
            let mv = s.parse_san(san).expect(san);
            assert_eq!(s.move_text(mv), uci);
        }
        let knights = chess("4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1");
        assert_eq!(san_of(&knights, "b1d2"), "Nbd2");
        let rooks = chess("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
        assert_eq!(san_of(&rooks, "a1a3"), "R1a3");
        let queens = chess("4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1");
        assert_eq!(san_of(&queens, "a3b2"), "Qa3b2");
        let mate = chess("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert_eq!(san_of(&mate, "a1a8"), "Ra8#");
    }

    #[test]
    fn san_reading_is_lenient_where_pgn_readers_are_and_strict_elsewhere() {
        let s = chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        for text in ["Nf3", "Ngf3", "Ng1f3", "Nf3!?", "Nxf3"] {
            assert_eq!(s.move_text(s.parse_san(text).expect(text)), "g1f3");
        }
        assert!(s.parse_san("e5").is_err());
        assert!(s.parse_san("O-O").is_err());
        assert!(s.parse_san("nf3").is_err());
        assert!(s.parse_san("").is_err());
        let knights = chess("4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1");
        let Err(Error::IllegalMove(msg)) = knights.parse_san("Nd2") else {
            panic!("Nd2 is ambiguous")
        };
        assert!(msg.contains("Nbd2 or Nfd2"), "{msg}");
    }

    #[test]
    fn ice_is_taken_like_a_piece() {
        let s = IceAgeChess::start(&IceAgeChessParams {
            max_plies: 1000,
            ice_age_period: 20,
        });
        assert_eq!(san_of(&s, "e2d3"), "exd3");
        assert_eq!(san_of(&s, "g1f3"), "Nxf3");
        assert_eq!(s.move_text(s.parse_san("exd3").expect("legal")), "e2d3");
    }
}
