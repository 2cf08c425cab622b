//! The static evaluation of Kuba for the search (docs/rules/kuba.md, "Heuristic"): Reds
//! captured and opponent marbles captured, the two ways to win.

use super::*;
use crate::rng::SplitMix64;
use crate::search::evaluate::random_by_count;
use crate::search::{Heuristic, Values};

/// Weight of each Red captured (seven win).
const RED_WEIGHT: f32 = 0.22;
/// Weight of each opponent marble captured (all eight win).
const MARBLE_WEIGHT: f32 = 0.18;

impl Kuba {
    /// The colour a push captures (pushes off the edge), or `EMPTY` when it captures none.
    fn push_captures(&self, mv: KubaMove) -> u8 {
        if mv.is_pass() {
            return EMPTY;
        }
        let ray = RAY[mv.dir()][mv.from()];
        if ray & !self.occupied() != 0 {
            EMPTY
        } else {
            self.colour_at((EDGE[mv.dir()] & ray).trailing_zeros() as usize)
        }
    }
}

impl Heuristic for Kuba {
    fn heuristic(&self, values: &mut Values) {
        let reds = f32::from(self.reds[0]) - f32::from(self.reds[1]);
        let marbles = f32::from(self.captured_by(0)) - f32::from(self.captured_by(1));
        let white = (RED_WEIGHT * reds + MARBLE_WEIGHT * marbles).tanh();
        values[0] = white;
        values[1] = -white;
    }

    /// Pushes that capture first: an opponent marble, then a Red; `pass` last.
    fn move_priority(&self, mv: KubaMove) -> i32 {
        if mv.is_pass() {
            return -1;
        }
        match self.push_captures(mv) {
            EMPTY => 0,
            RED => 90,
            _ => 100,
        }
    }

    /// A push that captures.
    fn is_tactical(&self, mv: KubaMove) -> bool {
        self.push_captures(mv) != EMPTY
    }

    /// Counted by popcount, then generated up to the one drawn.
    fn rollout_move(&self, rng: &mut SplitMix64, _moves: &mut Vec<KubaMove>) -> Option<KubaMove> {
        random_by_count(self, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_count_and_are_tried_first() {
        let params = KubaParams::default();
        let mut values = [0.0; crate::search::MAX_PLAYERS];
        Kuba::start(&params).heuristic(&mut values);
        assert!(values[0].abs() < 1e-6);
        // White has taken 3 Reds and a Black marble; b5 can push the Red on g5 off.
        let text = "WW3B1/WW1R1BB/1WRRRRR/2RRR2/7/BB1R1WW/BB3W1 w 3,1 0,0 - - 20";
        let state = Kuba::from_text(text, &params).expect("valid");
        state.heuristic(&mut values);
        assert!(values[0] > 0.5 && (values[0] + values[1]).abs() < 1e-6);
        let mut tactical = Vec::new();
        state.generate_moves(&mut |mv| {
            if state.is_tactical(mv) {
                tactical.push((state.move_text(mv), state.move_priority(mv)));
            }
        });
        assert_eq!(tactical, [("b5c5".to_string(), 90)]);
    }
}
