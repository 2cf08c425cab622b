//! The static evaluation of Ice Cube Checkers for the search
//! (docs/rules/ice_cube_checkers.md, "Heuristic"): King slots held, and slots controlled.

use super::*;
use crate::rng::SplitMix64;
use crate::search::evaluate::random_by_count;
use crate::search::{Heuristic, Values};

/// Weight of each King slot a player controls (holding every one wins).
const KING_SLOT: f32 = 0.6;
/// Weight of each slot controlled (what the ply limit counts).
const SLOT: f32 = 0.12;

impl IceCubeCheckers {
    /// The number of slots holding a King that `player` controls.
    fn king_slots(&self, player: usize) -> u32 {
        (self.present[KING] & self.controlled(player)).count_ones()
    }
}

impl Heuristic for IceCubeCheckers {
    fn heuristic(&self, values: &mut Values) {
        let kings = self.king_slots(0) as f32 - self.king_slots(1) as f32;
        let slots = self.controlled_slots(0) as f32 - self.controlled_slots(1) as f32;
        let white = (KING_SLOT * kings + SLOT * slots).tanh();
        values[0] = white;
        values[1] = -white;
    }

    /// Sowing more pieces first: long sows change control of more slots.
    fn move_priority(&self, mv: IceCubeCheckersMove) -> i32 {
        mv.len() as i32
    }

    /// No move changes the material: every piece is always on the board.
    fn is_tactical(&self, _mv: IceCubeCheckersMove) -> bool {
        false
    }

    /// Counted in bulk without generating (the count is cheap here), then generated up to
    /// the one drawn.
    fn rollout_move(&self, rng: &mut SplitMix64, _moves: &mut Vec<IceCubeCheckersMove>) -> Option<IceCubeCheckersMove> {
        random_by_count(self, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;

    #[test]
    fn the_start_is_even_and_king_slots_count() {
        let params = IceCubeCheckersParams::default();
        let mut values = [0.0; crate::search::MAX_PLAYERS];
        IceCubeCheckers::start(&params).heuristic(&mut values);
        assert!(values[0].abs() < 1e-6 && values[1].abs() < 1e-6);
        // White holds the King in d (d: White cube and King); Black's King slot j is mixed.
        let state =
            IceCubeCheckers::from_text("W/-/-/WK/W/W/B/B/-/WBK/B/B w 10", &params).expect("valid");
        state.heuristic(&mut values);
        assert!(values[0] > 0.4 && (values[0] + values[1]).abs() < 1e-6);
    }
}
