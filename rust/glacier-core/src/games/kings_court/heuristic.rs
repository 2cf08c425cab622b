//! The static evaluation of King's Court for the search (docs/rules/kings_court.md,
//! "Heuristic"): pieces in the Court, a last Court piece at risk, and material.

use super::*;
use crate::rng::SplitMix64;
use crate::search::evaluate::random_by_count;
use crate::search::{Heuristic, Values};

/// Weight of each piece in the Court more than the opponent.
const COURT_PIECE: f32 = 0.12;
/// A side down to one piece in the Court is one capture from losing.
const LAST_IN_COURT: f32 = 0.3;
/// Weight of each piece more than the opponent, anywhere.
const PIECE: f32 = 0.04;

impl KingsCourt {
    /// The opponent pieces the move `mv` jumps over (and so captures).
    fn captures(&self, mv: KingsCourtMove) -> u64 {
        let mut jumped = 0u64;
        let mut sq = mv.from();
        for i in 0..mv.jumps() {
            let d = mv.dir(i);
            jumped |= bit(NEIGHBOUR[sq][d] as usize);
            sq = LANDING[sq][d] as usize;
        }
        jumped & self.pieces[1 - self.side as usize]
    }

    /// Red's standing: Court presence, the risk of a lone Court piece, material.
    fn red_lead(&self) -> f32 {
        let court = |c: usize| (self.pieces[c] & COURT).count_ones() as f32;
        let total = |c: usize| self.pieces[c].count_ones() as f32;
        let lone = |c: usize| if court(c) == 1.0 { 1.0 } else { 0.0 };
        COURT_PIECE * (court(RED) - court(GREEN))
            + LAST_IN_COURT * (lone(GREEN) - lone(RED))
            + PIECE * (total(RED) - total(GREEN))
    }
}

impl Heuristic for KingsCourt {
    fn heuristic(&self, values: &mut Values) {
        let red = self.red_lead().tanh();
        values[RED] = red;
        values[GREEN] = -red;
    }

    /// Chains that capture the most first; among them the Court's pieces first.
    fn move_priority(&self, mv: KingsCourtMove) -> i32 {
        let captured = self.captures(mv);
        100 * captured.count_ones() as i32 + 50 * (captured & COURT).count_ones() as i32
    }

    /// A move that captures a piece in the Court, the captures that decide games (any
    /// capture would do, but captures are so common here that following them all past the
    /// depth costs more than the depth itself).
    fn is_tactical(&self, mv: KingsCourtMove) -> bool {
        mv.jumps() > 0 && self.captures(mv) & COURT != 0
    }

    /// Counted in bulk without generating (the count is cheap here), then generated up to
    /// the one drawn.
    fn rollout_move(&self, rng: &mut SplitMix64, _moves: &mut Vec<KingsCourtMove>) -> Option<KingsCourtMove> {
        random_by_count(self, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_even_and_court_pieces_count() {
        let params = KingsCourtParams::default();
        let mut values = [0.0; crate::search::MAX_PLAYERS];
        KingsCourt::start(&params).heuristic(&mut values);
        assert!(values[0].abs() < 1e-6);
        let mut state = KingsCourt::start(&params);
        state.play_unchecked(state.nth_move(0).expect("an opening move"));
        state.heuristic(&mut values);
        // Red has a piece in the Court and Green none yet; Red's is alone there.
        assert!((values[0] + values[1]).abs() < 1e-6);
        assert!(values[0] < 0.0, "{values:?}");
    }
}
