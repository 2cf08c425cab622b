//! Kuba's action numbers and observation tensor, for learning programs.

use super::*;
use crate::game::{ActionEncoding, Observation};

impl ActionEncoding for Kuba {
    /// Action `from * 4 + dir` for a push (0-195), 196 for `pass`.
    const NUM_DISTINCT_ACTIONS: usize = SQUARES * 4 + 1;
    const FIXED: bool = true;

    fn action_of(&self, mv: KubaMove, _index: usize) -> usize {
        if mv.is_pass() {
            SQUARES * 4
        } else {
            mv.0 as usize
        }
    }

    fn move_of_action(&self, action: usize) -> Option<KubaMove> {
        if self.outcome != Outcome::Ongoing {
            return None;
        }
        if action == SQUARES * 4 {
            return self.bonus.then_some(KubaMove::PASS);
        }
        let (from, dir) = (action / 4, action % 4);
        let legal = from < SQUARES && self.is_legal_push(from, dir);
        legal.then(|| KubaMove::push(from, dir))
    }

    fn action_text(action: usize) -> Option<String> {
        match action {
            a if a < SQUARES * 4 && NEIGHBOUR[a / 4][a % 4] != OFF => {
                Some(Self::push_text(a as u8))
            }
            a if a == SQUARES * 4 => Some("pass".to_string()),
            _ => None,
        }
    }
}

impl Observation for Kuba {
    /// Planes over the 7x7 board (index `plane * 49 + rank * 7 + file`, not mirrored):
    /// 0 the mover's marbles, 1 the opponent's, 2 Reds, 3 all ones in a bonus turn,
    /// 4 the ko push's from-square, 5 the mover's captured Reds / 7 (constant),
    /// 6 the opponent's captured Reds / 7 (constant).
    const OBSERVATION_SHAPE: &'static [usize] = &[7, SIZE, SIZE];

    fn observe(&self, out: &mut [f32]) {
        let me = self.side as usize;
        // Planes 0-2: the mover's marbles, the opponent's, the Reds.
        for (plane, colour) in [me, 1 - me, 2].into_iter().enumerate() {
            let mut bits = self.marbles[colour];
            while bits != 0 {
                let sq = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                out[plane * SQUARES + sq] = 1.0;
            }
        }
        let constant = |out: &mut [f32], plane: usize, value: f32| {
            out[plane * SQUARES..(plane + 1) * SQUARES].fill(value)
        };
        if self.bonus {
            constant(out, 3, 1.0);
        }
        if self.ko != KubaMove::NO_KO {
            out[4 * SQUARES + KubaMove(self.ko).from()] = 1.0;
        }
        constant(out, 5, f32::from(self.reds[me]) / f32::from(REDS_TO_WIN));
        constant(
            out,
            6,
            f32::from(self.reds[1 - me]) / f32::from(REDS_TO_WIN),
        );
    }
}
