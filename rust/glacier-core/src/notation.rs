//! Text helpers shared by the games' notations.

use crate::{bad_position, Error};

/// A canonical non-negative decimal that fits a u32: no sign, no leading zeros.
#[must_use]
pub fn parse_count(s: &str) -> Option<u32> {
    let canonical =
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'));
    if canonical {
        s.parse().ok()
    } else {
        None
    }
}

/// Reads a FEN-style placement of a `size` x `size` board (`size` <= 8): `size` ranks
/// separated by '/', the top rank first, each a run of piece letters and digits `1..=size`
/// counting empty squares, never two digits in a row. Returns the letter on each square
/// `rank * size + file`, 0 where it is empty. `letters` are the piece letters allowed,
/// `what` names the placement in messages ("7x7 placement") and `hint`, when not empty,
/// follows the message about an unexpected character.
pub fn parse_placement(
    text: &str,
    size: usize,
    letters: &str,
    what: &str,
    hint: &str,
) -> Result<[u8; 64], Error> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != size {
        return Err(bad_position!(
            "{what} needs {size} ranks separated by '/', got {}",
            ranks.len()
        ));
    }
    let mut board = [0u8; 64];
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = size - 1 - i;
        let mut file = 0;
        let mut last_was_digit = false;
        for c in rank_text.chars() {
            if c.is_ascii_digit() && ('1'..='8').contains(&c) && (c as usize - '0' as usize) <= size
            {
                if last_was_digit {
                    return Err(bad_position!(
                        "rank {} has two digits in a row: {rank_text}",
                        rank + 1,
                        rank_text = crate::notation::Quoted(rank_text)
                    ));
                }
                file += c as usize - '0' as usize;
                last_was_digit = true;
                continue;
            }
            if !c.is_ascii() || !letters.contains(c) {
                let hint = if hint.is_empty() {
                    String::new()
                } else {
                    format!(" ({hint})")
                };
                return Err(bad_position!(
                    "unexpected '{c}' in rank {}: {rank_text}{hint}",
                    rank + 1,
                    rank_text = crate::notation::Quoted(rank_text)
                ));
            }
            if file < size {
                board[rank * size + file] = c as u8;
            }
            file += 1;
            last_was_digit = false;
        }
        if file != size {
            return Err(bad_position!(
                "rank {} covers {file} squares, not {size}: {rank_text}",
                rank + 1,
                rank_text = crate::notation::Quoted(rank_text)
            ));
        }
    }
    Ok(board)
}

/// Writes a FEN-style placement (the inverse of [`parse_placement`]) from the piece letter
/// on each square `rank * size + file`, `None` where it is empty.
pub fn write_placement(size: usize, piece: impl Fn(usize) -> Option<char>) -> String {
    let mut out = String::with_capacity(size * (size + 1));
    for rank in (0..size).rev() {
        let mut empty = 0u8;
        for file in 0..size {
            match piece(rank * size + file) {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        out.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    out.push(c);
                }
            }
        }
        if empty > 0 {
            out.push((b'0' + empty) as char);
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placements_round_trip_and_reject_what_is_malformed() {
        let text = "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW";
        let board = parse_placement(text, 7, "WBR", "7x7 placement", "").expect("valid");
        assert_eq!(
            write_placement(7, |sq| (board[sq] != 0).then(|| board[sq] as char)),
            text
        );
        for (bad, message) in [
            ("7/7/7", "needs 7 ranks"),
            ("7/7/7/7/7/7/16", "two digits"),
            ("7/7/7/7/7/7/8", "unexpected '8'"),
            ("7/7/7/7/7/7/WWWWWWWW", "covers 8 squares"),
            ("7/7/7/7/7/7/X6", "unexpected 'X'"),
        ] {
            let err = parse_placement(bad, 7, "WBR", "7x7 placement", "")
                .expect_err(bad)
                .to_string();
            assert!(err.contains(message), "{bad}: {err}");
        }
        assert_eq!(parse_count("0"), Some(0));
        assert_eq!(parse_count("01"), None);
        assert_eq!(parse_count("+1"), None);
        assert_eq!(parse_count("4294967296"), None);
    }
}

/// The error for the move `text` in a finished game (every game's `parse_move` refuses a move
/// there, whether or not the rules would allow it if the game went on).
#[must_use]
pub fn game_over(text: &str) -> crate::Error {
    crate::Error::IllegalMove(format!(
        "cannot play {text}: the game is over",
        text = crate::notation::Quoted(text)
    ))
}

/// The most characters of an input that a message quotes.
pub const QUOTED_CHARS: usize = 40;

/// An input as a message quotes it: in single quotes, cut to [`QUOTED_CHARS`] characters
/// (then followed by "..."), so that a huge input makes a short message.
#[derive(Debug, Clone, Copy)]
pub struct Quoted<'a>(pub &'a str);

impl std::fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.char_indices().nth(QUOTED_CHARS) {
            Some((cut, _)) => write!(f, "'{}...'", &self.0[..cut]),
            None => write!(f, "'{}'", self.0),
        }
    }
}
