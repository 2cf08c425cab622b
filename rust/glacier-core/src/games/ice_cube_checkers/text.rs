//! The position text and move text of Ice Cube Checkers.

use super::*;
use crate::notation::parse_count;
use std::fmt::Write as _;

impl IceCubeCheckers {
    fn slot_text(counts: [u8; 3], out: &mut String) {
        if counts == [0, 0, 0] {
            out.push('-');
            return;
        }
        for kind in 0..3 {
            for _ in 0..counts[kind] {
                out.push(KIND_CHARS[kind]);
            }
        }
    }

    fn parse_slots(text: &str) -> Result<[[u8; 3]; SLOTS], Error> {
        let parts: Vec<&str> = text.split('/').collect();
        if parts.len() != SLOTS {
            return Err(bad_position!(
                "an Ice Cube Checkers position needs 12 slots a..l separated by '/', got {}",
                parts.len()
            ));
        }
        let mut slots = [[0u8; 3]; SLOTS];
        let mut totals = [0u32; 3];
        for (slot, part) in parts.iter().enumerate() {
            let letter = slot_letter(slot);
            if *part == "-" {
                continue;
            }
            if part.is_empty() {
                return Err(bad_position!(
                    "slot {letter} is blank: write '-' for an empty slot"
                ));
            }
            let mut last_kind = 0;
            for c in part.chars() {
                let Some(kind) = KIND_CHARS.iter().position(|&k| k == c) else {
                    return Err(bad_position!(
                        "unexpected '{c}' in slot {letter} ({part}): a slot holds W, B and K, or is '-'", part = crate::notation::Quoted(part)
                    ));
                };
                if kind < last_kind {
                    return Err(bad_position!(
                        "slot {letter} ({part}) must list its pieces in the order W, B, K", part = crate::notation::Quoted(part)
                    ));
                }
                last_kind = kind;
                totals[kind] += 1;
                if totals[kind] > TOTALS[kind] {
                    return Err(bad_position!(
                        "too many {}: the position must have exactly {} in all",
                        KIND_NAMES[kind],
                        TOTALS[kind]
                    ));
                }
                slots[slot][kind] += 1;
            }
        }
        for kind in 0..3 {
            if totals[kind] != TOTALS[kind] {
                return Err(bad_position!(
                    "the position has {} {} ('{}'), it must have exactly {}",
                    totals[kind],
                    KIND_NAMES[kind],
                    KIND_CHARS[kind],
                    TOTALS[kind]
                ));
            }
        }
        Ok(slots)
    }

    fn illegal(text: &str, why: &str) -> Error {
        Error::IllegalMove(format!("illegal move {text}: {why}", text = crate::notation::Quoted(text)))
    }
}

impl Notation for IceCubeCheckers {
    fn from_text(text: &str, params: &IceCubeCheckersParams) -> Result<Self, Error> {
        let fields: Vec<&str> = text.split(' ').collect();
        let [slots, side, ply] = fields[..] else {
            return Err(bad_position!(
                "an Ice Cube Checkers position has 3 fields separated by single spaces \
                 (slots, side to move, ply count), got {}: {text}",
                fields.len(), text = crate::notation::Quoted(text)
            ));
        };
        let slots = Self::parse_slots(slots)?;
        let side = match side {
            "w" => 0,
            "b" => 1,
            _ => {
                return Err(bad_position!(
                    "side to move must be 'w' or 'b', got {side}", side = crate::notation::Quoted(side)
                ))
            }
        };
        let ply = parse_count(ply).ok_or_else(|| {
            bad_position!("ply count must be a number (no sign or leading zeros), got {ply}", ply = crate::notation::Quoted(ply))
        })?;
        let mut present = [0u16; 3];
        for (slot, counts) in slots.iter().enumerate() {
            for kind in 0..3 {
                if counts[kind] > 0 {
                    present[kind] |= 1 << slot;
                }
            }
        }
        let mut state = IceCubeCheckers {
            slots,
            present,
            side,
            ply,
            outcome: Outcome::Ongoing,
            hash: 0,
            params: *params,
        };
        state.hash = state.hash_from_scratch();
        // The player who made the last move (the one not to move) is checked first, as
        // after a move; the two wins exclude each other anyway.
        state.judge(1 - side as usize);
        Ok(state)
    }

    fn text(&self) -> String {
        let mut out = String::with_capacity(40);
        for (slot, &counts) in self.slots.iter().enumerate() {
            if slot > 0 {
                out.push('/');
            }
            Self::slot_text(counts, &mut out);
        }
        let _ = write!(out, " {} {}", ["w", "b"][self.side as usize], self.ply);
        out
    }

    fn board_string(&self) -> String {
        let cells: Vec<String> = self
            .slots
            .iter()
            .map(|&counts| {
                let mut s = String::new();
                Self::slot_text(counts, &mut s);
                if s == "-" {
                    ".".to_string()
                } else {
                    s
                }
            })
            .collect();
        let width = cells.iter().map(String::len).max().unwrap_or(1);
        let row = |order: &mut dyn Iterator<Item = usize>, label: bool| -> String {
            let items: Vec<String> = order
                .map(|s| {
                    let item = if label {
                        slot_letter(s).to_string()
                    } else {
                        cells[s].clone()
                    };
                    format!("{item:<width$}")
                })
                .collect();
            items.join("  ").trim_end().to_string()
        };
        let mut out = String::new();
        // Black's row g..l runs right to left seen from White's side of the board.
        out.push_str(&row(&mut (6..SLOTS).rev(), true));
        out.push('\n');
        out.push_str(&row(&mut (6..SLOTS).rev(), false));
        out.push('\n');
        out.push_str(&row(&mut (0..6), false));
        out.push('\n');
        out.push_str(&row(&mut (0..6), true));
        out.push('\n');
        let status = match self.outcome {
            Outcome::Ongoing => format!("{} to move", PLAYER_NAMES[self.side as usize]),
            Outcome::Draw => "draw".to_string(),
            Outcome::Win(p) => format!("{} wins", PLAYER_NAMES[p as usize]),
        };
        let _ = write!(
            out,
            "{status}, ply {}; White controls {} slots, Black {}",
            self.ply,
            self.controlled_slots(0),
            self.controlled_slots(1)
        );
        out
    }

    fn write_move_text(&self, mv: IceCubeCheckersMove, out: &mut String) {
        out.push(slot_letter(mv.slot()));
        out.push(':');
        for i in 0..mv.len() {
            out.push(KIND_CHARS[mv.piece(i)]);
        }
    }

    fn parse_move(&self, text: &str) -> Result<IceCubeCheckersMove, Error> {
        if self.is_terminal() {
            return Err(crate::notation::game_over(text));
        }
        let mut chars = text.chars();
        let (Some(letter), Some(':')) = (chars.next(), chars.next()) else {
            return Err(Error::IllegalMove(format!(
                "{text} is not an Ice Cube Checkers move: expected a slot letter, ':' and \
                 the pieces dropped in order, like 'd:KW'", text = crate::notation::Quoted(text)
            )));
        };
        if !letter.is_ascii_lowercase() || letter > 'l' {
            return Err(Self::illegal(
                text,
                &format!("unknown slot '{letter}' (the slots are a..l)"),
            ));
        }
        let slot = (letter as u8 - b'a') as usize;
        let mut dropped = [0usize; 3];
        let mut code = slot as u32;
        let mut n = 0usize;
        let mut last = None;
        for c in chars {
            let Some(kind) = KIND_CHARS.iter().position(|&k| k == c) else {
                return Err(Self::illegal(
                    text,
                    &format!("unknown piece '{c}' (pieces are W, B and K)"),
                ));
            };
            if n < SLOTS {
                code |= (kind as u32) << (8 + 2 * n);
            }
            dropped[kind] += 1;
            n += 1;
            last = Some(kind);
        }
        let mover = self.side as usize;
        let counts = self.slots[slot];
        if counts[mover] == 0 {
            return Err(Self::illegal(
                text,
                &format!(
                    "slot {letter} holds no {} cube of the side to move",
                    PLAYER_NAMES[mover]
                ),
            ));
        }
        let held = (counts[0] + counts[1] + counts[2]) as usize;
        if n != held {
            return Err(Self::illegal(
                text,
                &format!("wrong number of pieces: slot {letter} holds {held}, the move drops {n}"),
            ));
        }
        for kind in 0..3 {
            if dropped[kind] != counts[kind] as usize {
                return Err(Self::illegal(
                    text,
                    &format!(
                        "the pieces dropped are not the pieces in slot {letter}: it holds {} '{}', the move drops {}",
                        counts[kind], KIND_CHARS[kind], dropped[kind]
                    ),
                ));
            }
        }
        if last != Some(mover) {
            return Err(Self::illegal(
                text,
                &format!(
                    "the last piece dropped must be a {} cube ('{}')",
                    PLAYER_NAMES[mover], KIND_CHARS[mover]
                ),
            ));
        }
        Ok(IceCubeCheckersMove(code | (n as u32) << 4))
    }
}
