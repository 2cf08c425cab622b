//! The static evaluation of Ice Age Chess for the search (docs/rules/ice_age_chess.md,
//! "Heuristic"): material, mobility, and the pieces an Ice Age about to come would freeze.

use super::bitboard::{
    east, north, sliders, south, west, Bitboard, Squares, KNIGHT_ATTACKS,
};
use super::*;
use crate::rng::SplitMix64;
use crate::search::evaluate::random_from_list;
use crate::search::{Heuristic, Values};

/// Material in centipawns, by role (the king is never traded; ice is nobody's).
const VALUE: [i32; 6] = [100, 320, 330, 500, 900, 0];
/// A king frozen by the Ice Age loses the game: what its freezing is worth.
const KING_FREEZE: i32 = 3000;
/// Centipawns per square a knight, bishop, rook or queen attacks (not holding its own piece).
const MOBILITY: i32 = 4;
/// A lead of this many centipawns maps to a value of tanh(1) = 0.76.
const SCALE: f32 = 700.0;

impl IceAgeChess {
    /// The pieces of either colour with no piece on any of the 8 squares around them: an
    /// Ice Age would freeze them now.
    fn isolated(&self) -> Bitboard {
        let pieces = self.by_colour[0] | self.by_colour[1];
        let beside = east(pieces) | west(pieces);
        let row = pieces | beside;
        let near = beside | north(row) | south(row);
        pieces & !near
    }

    /// Plies until the next Ice Age (it follows Black's move of a full move that is a
    /// multiple of the period), or `None` when the Ice Age is off.
    fn plies_to_ice_age(&self) -> Option<u64> {
        let period = u64::from(self.params.ice_age_period);
        if period == 0 {
            return None;
        }
        let full = u64::from(self.fullmove);
        let next = full.div_ceil(period) * period;
        Some(2 * (next - full) + if self.side as usize == WHITE { 2 } else { 1 })
    }

    /// The share of its value a piece without company is likely to lose to the coming Ice
    /// Age, for `colour`: most of it when the freeze follows the next ply and `colour` has
    /// no move left before it, less the further away it is.
    fn freeze_risk(&self, colour: usize) -> f32 {
        match self.plies_to_ice_age() {
            Some(1) if colour != self.side as usize => 0.9,
            Some(1) => 0.5,
            Some(2) => 0.4,
            Some(3 | 4) => 0.2,
            Some(_) => 0.05,
            None => 0.0,
        }
    }

    /// White's lead in centipawns.
    fn white_lead(&self) -> f32 {
        let s = sliders();
        let occupied = self.occupied();
        let isolated = self.isolated();
        let mut lead = 0.0;
        for colour in [WHITE, BLACK] {
            let own = self.by_colour[colour];
            let mut score = 0i32;
            for (role, value) in VALUE.iter().enumerate().take(KING) {
                score += value * self.pieces(colour, role).count_ones() as i32;
            }
            let mut moves = 0u32;
            for sq in Squares(self.pieces(colour, KNIGHT)) {
                moves += (KNIGHT_ATTACKS[sq] & !own).count_ones();
            }
            let diagonal = self.pieces(colour, BISHOP) | self.pieces(colour, QUEEN);
            for sq in Squares(diagonal) {
                moves += (s.bishop(sq, occupied) & !own).count_ones();
            }
            let straight = self.pieces(colour, ROOK) | self.pieces(colour, QUEEN);
            for sq in Squares(straight) {
                moves += (s.rook(sq, occupied) & !own).count_ones();
            }
            score += MOBILITY * moves as i32;
            let risk = self.freeze_risk(colour);
            let mut frozen = 0i32;
            if risk > 0.0 {
                for sq in Squares(isolated & own) {
                    let code = self.code_at(sq) as usize;
                    frozen += if code % 6 == KING {
                        KING_FREEZE
                    } else {
                        VALUE[code % 6]
                    };
                }
            }
            let total = score as f32 - risk * frozen as f32;
            lead += if colour == WHITE { total } else { -total };
        }
        lead
    }

    /// The value of what stands on `sq` for a capture (ice: nothing).
    fn captured_value(&self, sq: usize) -> i32 {
        match self.code_at(sq) {
            code if code < ICE => VALUE[code as usize % 6],
            _ => 0,
        }
    }
}

impl Heuristic for IceAgeChess {
    fn heuristic(&self, values: &mut Values) {
        let white = (self.white_lead() / SCALE).tanh();
        values[WHITE] = white;
        values[BLACK] = -white;
    }

    /// Promotions and captures first, the most valuable victim by the least valuable
    /// attacker (MVV-LVA); ice captures before quiet moves.
    fn move_priority(&self, mv: IceAgeChessMove) -> i32 {
        let (from, to, kind) = (mv.from(), mv.to(), mv.kind());
        let mut priority = 0;
        if kind >= PROMOTE_KNIGHT {
            priority += VALUE[(kind - PROMOTE_KNIGHT + 1) as usize] * 10;
        }
        let victim = if kind == EN_PASSANT {
            VALUE[PAWN]
        } else {
            self.captured_value(to)
        };
        if victim > 0 {
            priority += victim * 10 - VALUE[self.code_at(from) as usize % 6] / 10;
        } else if self.code_at(to) == ICE {
            priority += 1;
        }
        priority
    }

    /// Captures of pieces (not of ice) and promotions.
    fn is_tactical(&self, mv: IceAgeChessMove) -> bool {
        let (to, kind) = (mv.to(), mv.kind());
        kind >= PROMOTE_KNIGHT || kind == EN_PASSANT || self.code_at(to) < ICE
    }

    /// Every move generated, one drawn: one generation costs less here than a count
    /// (which runs the same king-safety and pin tests) and a partial second one.
    fn rollout_move(
        &self,
        rng: &mut SplitMix64,
        moves: &mut Vec<IceAgeChessMove>,
    ) -> Option<IceAgeChessMove> {
        random_from_list(self, rng, moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;

    fn value(fen: &str, period: u32) -> f32 {
        let params = IceAgeChessParams {
            max_plies: 1000,
            ice_age_period: period,
        };
        let state = IceAgeChess::from_text(fen, &params).expect("valid FEN");
        let mut values = [0.0; crate::search::MAX_PLAYERS];
        state.heuristic(&mut values);
        assert!((values[0] + values[1]).abs() < 1e-6);
        values[0]
    }

    #[test]
    fn random_moves_are_legal_and_cover_every_move() {
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let promotions = "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1";
        for fen in [kiwipete, promotions] {
            let state = IceAgeChess::from_text(fen, &IceAgeChessParams {
                max_plies: 1000,
                ice_age_period: 0,
            })
            .expect("valid FEN");
            let mut all = Vec::new();
            state.generate_moves(&mut |mv| all.push(mv));
            let mut seen = vec![0u32; all.len()];
            let mut rng = SplitMix64::new(7);
            for _ in 0..all.len() * 200 {
                let mv = state.rollout_move(&mut rng, &mut Vec::new()).expect("a move");
                let at = all.iter().position(|&m| m == mv).expect("a legal move");
                seen[at] += 1;
            }
            // Uniform: every move drawn about 200 times.
            assert!(seen.iter().all(|&n| (120..300).contains(&n)), "{fen}: {seen:?}");
        }
    }

    #[test]
    fn the_start_is_even_and_material_counts() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert!(value(start, 0).abs() < 1e-6);
        let queen_up = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert!(value(queen_up, 0) > 0.5);
    }

    #[test]
    fn a_lonely_king_before_the_ice_age_is_in_danger() {
        // White's king stands alone on h1; the Ice Age follows Black's move.
        let fen = "4k3/3ppp2/8/8/8/8/PPP5/7K b - - 0 20";
        assert!(value(fen, 20) < -0.5, "{}", value(fen, 20));
        assert!(value(&fen.replace(" 20", " 11"), 20) > -0.3);
    }
}
