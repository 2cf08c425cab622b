//! King's Court's position text and move text.

use super::*;

impl KingsCourt {
    fn placement(&self) -> String {
        write_placement(SIZE, |sq| {
            if self.pieces[RED] & bit(sq) != 0 {
                Some('R')
            } else if self.pieces[GREEN] & bit(sq) != 0 {
                Some('G')
            } else {
                None
            }
        })
    }

    fn parse_placement(text: &str) -> Result<[u64; 2], Error> {
        let hint = "pieces are 'R' and 'G', digits 1-8 count empty squares";
        let letters = parse_placement(text, SIZE, "RG", "King's Court placement", hint)?;
        let mut pieces = [0u64; 2];
        for (sq, &letter) in letters.iter().enumerate() {
            match letter {
                b'R' => pieces[RED] |= bit(sq),
                b'G' => pieces[GREEN] |= bit(sq),
                _ => {}
            }
        }
        Ok(pieces)
    }

    /// Reads a move's text: its start square, whether it is a jump chain, and its landings
    /// (at most 16, which is more than any legal chain has). `None` when malformed.
    fn parse_move_syntax(text: &str) -> Option<(usize, bool, [u8; 16], usize)> {
        let bytes = text.as_bytes();
        let is_chain = match bytes.get(2) {
            Some(b'-') => false,
            Some(b'x') => true,
            _ => return None,
        };
        // Squares of two characters, separated by one separator character.
        if bytes.len() < 5 || (bytes.len() - 2) % 3 != 0 {
            return None;
        }
        let from = parse_square(&bytes[..2])?;
        let n = (bytes.len() - 2) / 3;
        if !is_chain && n != 1 {
            return None;
        }
        let mut landings = [0u8; 16];
        for i in 0..n {
            let at = 2 + 3 * i;
            let sep = if is_chain { b'x' } else { b'-' };
            if bytes[at] != sep {
                return None;
            }
            let sq = parse_square(&bytes[at + 1..at + 3])?;
            if i < landings.len() {
                landings[i] = sq as u8;
            }
        }
        Some((from, is_chain, landings, n))
    }

    /// The move `text` names, or why it is not legal here.
    fn check_move(&self, text: &str) -> Result<KingsCourtMove, String> {
        let Some((from, is_chain, landings, n)) = Self::parse_move_syntax(text) else {
            return Err(format!(
                "{text} is not a King's Court move: expected a step like 'd2-d3' or a jump chain like 'd4xd6xf6' (squares a1-h8)", text = crate::notation::Quoted(text)
            ));
        };
        let side = self.side as usize;
        let own = self.pieces[side];
        if own & bit(from) == 0 {
            return Err(format!(
                "there is no {} piece on {} (it is {}'s move)",
                NAMES[side],
                square_name(from),
                NAMES[side]
            ));
        }
        let occupied = self.occupied();
        let blocked = occupied & !bit(from);
        let mv = if !is_chain {
            let to = landings[0] as usize;
            let Some(dir) = direction_between(from, to, &NEIGHBOUR) else {
                return Err("a step goes one square up, down, left or right".into());
            };
            if self.in_opening() {
                let only = self.opening_direction();
                if RING[dir] & bit(from) == 0 || only.is_some_and(|o| o != dir) {
                    return Err(match only {
                        None => "in the first opening ply Red must step a piece from beside the \
                                 Court (c2-f2, c7-f7, b3-b6 or g3-g6) onto the Court square next to it"
                            .to_string(),
                        Some(d) => format!(
                            "in the second opening ply Green must step a piece from {}, the side \
                             opposite Red's entry, onto the Court square next to it",
                            RING_NAMES[d]
                        ),
                    });
                }
            }
            if occupied & bit(to) != 0 {
                return Err(format!("{} is not empty", square_name(to)));
            }
            KingsCourtMove::step(from, dir)
        } else {
            if self.in_opening() {
                return Err("there are no jumps in the two opening plies".into());
            }
            let mut visited = bit(from);
            let mut sq = from;
            let mut dirs = 0u64;
            for (i, &land) in landings.iter().take(n).enumerate() {
                let land = land as usize;
                let Some(d) = direction_between(sq, land, &LANDING) else {
                    return Err(format!(
                        "{} to {} is not a jump: a jump goes two squares up, down, left or right, over the piece between",
                        square_name(sq),
                        square_name(land)
                    ));
                };
                let mid = NEIGHBOUR[sq][d] as usize;
                if blocked & bit(mid) == 0 {
                    return Err(format!(
                        "there is no piece on {} to jump over",
                        square_name(mid)
                    ));
                }
                if visited & bit(land) != 0 {
                    return Err(format!(
                        "the chain lands on {} a second time (a move may not revisit a square, its start included)",
                        square_name(land)
                    ));
                }
                if blocked & bit(land) != 0 {
                    return Err(format!(
                        "the landing square {} is not empty",
                        square_name(land)
                    ));
                }
                visited |= bit(land);
                dirs |= (d as u64) << (2 * i);
                sq = land;
            }
            // Sixteen landings would revisit a square of the 4x4 sublattice, caught above.
            KingsCourtMove::chain(from, n.min(KingsCourtMove::MAX_JUMPS), dirs)
        };
        Ok(mv)
    }
}

impl Notation for KingsCourt {
    fn from_text(text: &str, params: &KingsCourtParams) -> Result<Self, Error> {
        let fields: Vec<&str> = text.split(' ').collect();
        let [placement, side, ply] = fields[..] else {
            return Err(bad_position!(
                "a King's Court position has 3 fields separated by single spaces \
                 (placement, side to move, ply count), got {}: {text}",
                fields.len(), text = crate::notation::Quoted(text)
            ));
        };
        let pieces = Self::parse_placement(placement)?;
        let side = match side {
            "r" => RED,
            "g" => GREEN,
            _ => {
                return Err(bad_position!(
                    "side to move must be 'r' or 'g', got {side}", side = crate::notation::Quoted(side)
                ))
            }
        };
        let ply = parse_count(ply)
            .ok_or_else(|| bad_position!("ply count must be a number, got {ply}", ply = crate::notation::Quoted(ply)))?;
        for colour in [RED, GREEN] {
            let n = pieces[colour].count_ones();
            if n > PIECES {
                return Err(bad_position!(
                    "{n} {} pieces: a side has at most {PIECES}",
                    NAMES[colour]
                ));
            }
            if ply <= 2 && n != PIECES {
                return Err(bad_position!(
                    "{n} {} pieces at ply count {ply}: nothing can be captured before the third ply, so each side has all {PIECES}",
                    NAMES[colour]
                ));
            }
        }
        if ply <= 2 {
            Self::check_opening(&pieces, side, ply)?;
        }
        let mut state = KingsCourt {
            pieces,
            side: side as u8,
            ply,
            outcome: Outcome::Ongoing,
            hash: 0,
            params: *params,
        };
        state.hash = state.hash_from_scratch();
        state.judge_text();
        Ok(state)
    }

    fn text(&self) -> String {
        format!(
            "{} {} {}",
            self.placement(),
            ["r", "g"][self.side as usize],
            self.ply
        )
    }

    fn board_string(&self) -> String {
        let mut out = String::new();
        for rank in (0..SIZE).rev() {
            let _ = write!(out, "{} ", rank + 1);
            for file in 0..SIZE {
                let sq = rank * SIZE + file;
                out.push(' ');
                out.push(if self.pieces[RED] & bit(sq) != 0 {
                    'R'
                } else if self.pieces[GREEN] & bit(sq) != 0 {
                    'G'
                } else if COURT & bit(sq) != 0 {
                    ':'
                } else {
                    '.'
                });
            }
            out.push('\n');
        }
        out.push_str("   a b c d e f g h   (':' an empty Court square)\n");
        let status = match self.outcome {
            Outcome::Ongoing => format!(
                "{} to move{}",
                NAMES[self.side as usize],
                match self.ply {
                    0 =>
                        " (opening: a step from beside the Court onto the Court square next to it)"
                            .to_string(),
                    1 => format!(
                        " (opening: a step from {} onto the Court square next to it)",
                        RING_NAMES[self.red_entry() ^ 2]
                    ),
                    _ => String::new(),
                }
            ),
            Outcome::Draw => "draw".to_string(),
            Outcome::Win(p) => format!("{} wins", NAMES[p as usize]),
        };
        let _ = write!(
            out,
            "{status}, ply {}\nRed {} pieces ({} in the Court), Green {} pieces ({} in the Court)",
            self.ply,
            self.pieces[RED].count_ones(),
            (self.pieces[RED] & COURT).count_ones(),
            self.pieces[GREEN].count_ones(),
            (self.pieces[GREEN] & COURT).count_ones()
        );
        out
    }

    fn write_move_text(&self, mv: KingsCourtMove, out: &mut String) {
        let push_square = |out: &mut String, sq: usize| {
            out.push((b'a' + (sq % SIZE) as u8) as char);
            out.push((b'1' + (sq / SIZE) as u8) as char);
        };
        push_square(out, mv.from());
        let sep = if mv.jumps() == 0 { '-' } else { 'x' };
        for sq in Self::landings(mv) {
            out.push(sep);
            push_square(out, sq);
        }
    }

    fn parse_move(&self, text: &str) -> Result<KingsCourtMove, Error> {
        if self.is_terminal() {
            return Err(crate::notation::game_over(text));
        }
        let mv = self
            .check_move(text)
            .map_err(|why| Error::IllegalMove(format!("illegal move {text}: {why}", text = crate::notation::Quoted(text))))?;
        let mut legal = false;
        self.for_each_move(|m| {
            legal = m == mv;
            legal
        });
        if !legal {
            return Err(Error::IllegalMove(format!(
                "illegal move {text}: it is not legal here", text = crate::notation::Quoted(text)
            )));
        }
        Ok(mv)
    }
}
