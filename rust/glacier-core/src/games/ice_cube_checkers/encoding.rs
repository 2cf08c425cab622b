//! The action numbers and observation tensor of Ice Cube Checkers, for learning programs.

use super::*;
use crate::game::{ActionEncoding, Observation};

impl ActionEncoding for IceCubeCheckers {
    /// Actions index the legal moves. No position has more than 6930: a slot whose
    /// multiset has `w >= 1` mover cubes, `b` other cubes and `k` Kings gives
    /// `(n-1)! / ((w-1)! b! k!)` moves, and maximising the sum of that over every way of
    /// splitting 5 + 5 + 2 pieces into at most 12 slots (a small dynamic programme over the
    /// remaining counts) gives 6930, all twelve pieces in one slot.
    const NUM_DISTINCT_ACTIONS: usize = 6930;
    const FIXED: bool = false;

    fn action_of(&self, _mv: IceCubeCheckersMove, index: usize) -> usize {
        index
    }

    fn move_of_action(&self, action: usize) -> Option<IceCubeCheckersMove> {
        self.nth_move(action as u64)
    }

    fn action_text(_action: usize) -> Option<String> {
        None
    }
}

impl Observation for IceCubeCheckers {
    /// Three rows over the twelve slots, numbered from the mover's first slot (a for White,
    /// g for Black) counter-clockwise: the mover's cubes / 5, the opponent's cubes / 5, Kings / 2
    /// (index `row * 12 + slot`).
    const OBSERVATION_SHAPE: &'static [usize] = &[3, SLOTS];

    fn observe(&self, out: &mut [f32]) {
        let me = self.side as usize;
        for i in 0..SLOTS {
            let counts = self.slots[(i + me * 6) % SLOTS];
            out[i] = f32::from(counts[me]) / 5.0;
            out[SLOTS + i] = f32::from(counts[1 - me]) / 5.0;
            out[2 * SLOTS + i] = f32::from(counts[2]) / 2.0;
        }
    }
}
