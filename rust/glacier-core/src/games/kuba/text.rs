//! Kuba's position text and move text.

use super::*;
use crate::notation::{parse_count, parse_placement, write_placement};
use std::fmt::Write as _;

impl Kuba {
    fn placement(&self) -> String {
        write_placement(SIZE, |sq| match self.colour_at(sq) {
            EMPTY => None,
            colour => Some(['W', 'B', 'R'][colour as usize - 1]),
        })
    }

    fn parse_placement(text: &str) -> Result<[u8; SQUARES], Error> {
        let letters = parse_placement(text, SIZE, "WBR", "Kuba placement", "")?;
        let mut board = [EMPTY; SQUARES];
        for (cell, letter) in board.iter_mut().zip(letters) {
            *cell = match letter {
                b'W' => WHITE,
                b'B' => BLACK,
                b'R' => RED,
                _ => EMPTY,
            };
        }
        Ok(board)
    }

    fn parse_pair(field: &str, what: &str) -> Result<[u8; 2], Error> {
        let parsed = field
            .split_once(',')
            .and_then(|(a, b)| Some([parse_count(a)?, parse_count(b)?]));
        match parsed {
            Some([a, b]) if a <= 255 && b <= 255 => Ok([a as u8, b as u8]),
            _ => Err(bad_position!(
                "{what} must be '<reds>,<marbles>' with two numbers, got {field}", field = crate::notation::Quoted(field)
            )),
        }
    }
}

impl Notation for Kuba {
    fn from_text(text: &str, params: &KubaParams) -> Result<Self, Error> {
        let fields: Vec<&str> = text.split(' ').collect();
        let [placement, side, white, black, bonus, ko, ply] = fields[..] else {
            return Err(bad_position!(
                "a Kuba position has 7 fields separated by single spaces \
                 (placement, side, White's captures, Black's captures, bonus, ko, ply), got {}: {text}",
                fields.len(), text = crate::notation::Quoted(text)
            ));
        };
        let board = Self::parse_placement(placement)?;
        let side = match side {
            "w" => 0,
            "b" => 1,
            _ => {
                return Err(bad_position!(
                    "side to move must be 'w' or 'b', got {side}", side = crate::notation::Quoted(side)
                ))
            }
        };
        let [white_reds, blacks_captured] = Self::parse_pair(white, "White's captures")?;
        let [black_reds, whites_captured] = Self::parse_pair(black, "Black's captures")?;
        let bonus = match bonus {
            "+" => true,
            "-" => false,
            _ => {
                return Err(bad_position!(
                    "bonus flag must be '+' or '-', got {bonus}", bonus = crate::notation::Quoted(bonus)
                ))
            }
        };
        let ply = parse_count(ply)
            .ok_or_else(|| bad_position!("ply count must be a number, got {ply}", ply = crate::notation::Quoted(ply)))?;

        let count = |colour| board.iter().filter(|&&c| c == colour).count() as u8;
        let (whites, blacks, reds) = (count(WHITE), count(BLACK), count(RED));
        if whites.checked_add(whites_captured) != Some(WHITE_MARBLES) {
            return Err(bad_position!(
                "{whites} White marbles on the board and {whites_captured} captured by Black: they must make {WHITE_MARBLES}"
            ));
        }
        if blacks.checked_add(blacks_captured) != Some(BLACK_MARBLES) {
            return Err(bad_position!(
                "{blacks} Black marbles on the board and {blacks_captured} captured by White: they must make {BLACK_MARBLES}"
            ));
        }
        if white_reds > REDS_TO_WIN || black_reds > REDS_TO_WIN {
            return Err(bad_position!(
                "no player can have captured more than {REDS_TO_WIN} Reds"
            ));
        }
        if reds + white_reds + black_reds != RED_MARBLES {
            return Err(bad_position!(
                "{reds} Reds on the board and {} captured: they must make {RED_MARBLES}",
                white_reds + black_reds
            ));
        }

        let ko = if ko == "-" {
            KubaMove::NO_KO
        } else {
            let bytes = ko.as_bytes();
            let squares =
                (bytes.len() == 4).then(|| (parse_square(&bytes[..2]), parse_square(&bytes[2..])));
            let Some((Some(from), Some(to))) = squares else {
                return Err(bad_position!(
                    "ko must be '-' or a push like 'c4c3', got {ko}", ko = crate::notation::Quoted(ko)
                ));
            };
            let Some(dir) = (0..4).find(|&d| NEIGHBOUR[from][d] as usize == to) else {
                return Err(bad_position!(
                    "ko push {ko} does not go to a neighbouring square", ko = crate::notation::Quoted(ko)
                ));
            };
            if bonus {
                return Err(bad_position!(
                    "a bonus turn cannot have a ko (only a turn-ending push sets one)"
                ));
            }
            if board[from] != colour_of(side) || board[to] == EMPTY {
                return Err(bad_position!(
                    "ko push {ko} must push back a marble of the side to move into an occupied square", ko = crate::notation::Quoted(ko)
                ));
            }
            KubaMove::push(from, dir).0
        };

        let mut marbles = [0u64; 3];
        for (sq, &colour) in board.iter().enumerate() {
            if colour != EMPTY {
                marbles[colour as usize - 1] |= 1 << sq;
            }
        }
        let mut state = Kuba {
            marbles,
            hash: 0,
            ply,
            params: *params,
            outcome: Outcome::Ongoing,
            side: side as u8,
            bonus,
            ko,
            reds: [white_reds, black_reds],
        };
        state.hash = state.hash_from_scratch();
        state.judge_text()?;
        Ok(state)
    }

    fn text(&self) -> String {
        let ko = if self.ko == KubaMove::NO_KO {
            "-".to_string()
        } else {
            Self::push_text(self.ko)
        };
        format!(
            "{} {} {},{} {},{} {} {} {}",
            self.placement(),
            ["w", "b"][self.side as usize],
            self.reds[0],
            self.captured_by(0),
            self.reds[1],
            self.captured_by(1),
            if self.bonus { '+' } else { '-' },
            ko,
            self.ply
        )
    }

    fn board_string(&self) -> String {
        let mut out = String::new();
        for rank in (0..SIZE).rev() {
            let _ = write!(out, "{} ", rank + 1);
            for file in 0..SIZE {
                out.push(' ');
                out.push(['.', 'W', 'B', 'R'][self.colour_at(rank * SIZE + file) as usize]);
            }
            out.push('\n');
        }
        out.push_str("   a b c d e f g\n");
        let name = ["White", "Black"];
        let status = match self.outcome {
            Outcome::Ongoing => {
                format!(
                    "{} to move{}",
                    name[self.side as usize],
                    if self.bonus { " (bonus push)" } else { "" }
                )
            }
            Outcome::Draw => "draw".to_string(),
            Outcome::Win(p) => format!("{} wins", name[p as usize]),
        };
        let _ = write!(
            out,
            "{status}, ply {}\nWhite captured {} Red, {} Black; Black captured {} Red, {} White",
            self.ply,
            self.reds[0],
            self.captured_by(0),
            self.reds[1],
            self.captured_by(1)
        );
        if self.ko != KubaMove::NO_KO {
            let _ = write!(out, "; ko forbids {}", Self::push_text(self.ko));
        }
        out
    }

    fn write_move_text(&self, mv: KubaMove, out: &mut String) {
        if mv.is_pass() {
            out.push_str("pass");
        } else {
            out.push_str(&Self::push_text(mv.0));
        }
    }

    fn parse_move(&self, text: &str) -> Result<KubaMove, Error> {
        if self.is_terminal() {
            return Err(crate::notation::game_over(text));
        }
        let mv = if text == "pass" {
            if !self.bonus {
                return Err(Error::IllegalMove(
                    "'pass' is only legal in a bonus turn, after a capture".into(),
                ));
            }
            KubaMove::PASS
        } else {
            let bytes = text.as_bytes();
            let squares =
                (bytes.len() == 4).then(|| (parse_square(&bytes[..2]), parse_square(&bytes[2..])));
            let Some((Some(from), Some(to))) = squares else {
                return Err(Error::IllegalMove(format!(
                    "{text} is not a Kuba move: expected a push like 'a1a2' (from-square, to-square) or 'pass'", text = crate::notation::Quoted(text)
                )));
            };
            let Some(dir) = (0..4).find(|&d| NEIGHBOUR[from][d] as usize == to) else {
                return Err(Error::IllegalMove(format!(
                    "{text} is not a Kuba move: a push goes to a neighbouring square along a file or rank", text = crate::notation::Quoted(text)
                )));
            };
            let mv = KubaMove::push(from, dir);
            if !self.is_legal_push(from, dir) {
                let why = if self.colour_at(from) != colour_of(self.side as usize) {
                    "there is no marble of the side to move on its from-square"
                } else if mv.0 == self.ko {
                    "the ko rule forbids pushing that marble straight back this turn"
                } else if self.pushers(dir) >> from & 1 == 0 {
                    "the square behind is occupied, or it would push the mover's own marble off"
                } else {
                    "it is not legal here"
                };
                return Err(Error::IllegalMove(format!("illegal push {text}: {why}", text = crate::notation::Quoted(text))));
            }
            mv
        };
        Ok(mv)
    }
}
