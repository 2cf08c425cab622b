//! King's Court's action numbers and observation tensor, for learning programs.

use super::*;
use crate::game::{ActionEncoding, Observation};

impl ActionEncoding for KingsCourt {
    /// Actions index the legal moves. No position has more than 50736 (proof on the rules
    /// page): an opening ply has at most 8 moves; later, every step and every chain is legal
    /// (the Court rule ends games, it filters no move), at most 24 pieces make at most 96
    /// steps, and a jump chain's landings form a self-avoiding walk on the 4x4 lattice of
    /// squares of its start square's parity, which has at most 2110 walks from any node
    /// (from a corner), so at most 24 * 2110 chains.
    const NUM_DISTINCT_ACTIONS: usize = 24 * 4 + 24 * 2110;
    const FIXED: bool = false;

    fn action_of(&self, _mv: KingsCourtMove, index: usize) -> usize {
        index
    }

    fn move_of_action(&self, action: usize) -> Option<KingsCourtMove> {
        self.nth_move(action as u64)
    }

    fn action_text(_action: usize) -> Option<String> {
        None
    }
}

impl Observation for KingsCourt {
    /// 5 planes of 8x8 from the mover's side (ranks flipped when Green moves): 0 the mover's
    /// pieces, 1 the opponent's, 2 the Center Court, 3 all ones during the two opening plies,
    /// 4 the fraction of the ply limit used (constant). Index `plane * 64 + rank * 8 + file`.
    const OBSERVATION_SHAPE: &'static [usize] = &[5, 8, 8];

    fn observe(&self, out: &mut [f32]) {
        let me = self.side as usize;
        let flip = |sq: usize| if me == 0 { sq } else { sq ^ 56 };
        for (plane, board) in [self.pieces[me], self.pieces[1 - me], COURT]
            .into_iter()
            .enumerate()
        {
            let mut rest = board;
            while rest != 0 {
                let sq = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                out[plane * 64 + flip(sq)] = 1.0;
            }
        }
        if self.ply < 2 {
            out[3 * 64..4 * 64].fill(1.0);
        }
        let used = if self.params.max_plies == 0 {
            1.0
        } else {
            (self.ply as f32 / self.params.max_plies as f32).min(1.0)
        };
        out[4 * 64..5 * 64].fill(used);
    }
}
