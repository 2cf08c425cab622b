//! The action numbers and observation tensor of E, for learning programs.

use super::*;
use crate::game::{ActionEncoding, Observation};

impl ActionEncoding for MartianChineseCheckers {
    /// Actions index the legal moves. No position has more than 7966: at most 15 movable
    /// pieces in 6 directions make 90 movements; each may end in an exchange with any of the
    /// at most 75 pieces of other colours (6750); a whole-turn exchange pairs one of the
    /// mover's 15 pieces with one of those 75 (1125); and `pass` (1).
    const NUM_DISTINCT_ACTIONS: usize = 90 + 90 * 75 + 15 * 75 + 1;
    const FIXED: bool = false;

    fn action_of(&self, _mv: MartianChineseCheckersMove, index: usize) -> usize {
        index
    }

    fn move_of_action(&self, action: usize) -> Option<MartianChineseCheckersMove> {
        self.nth_move(action as u64)
    }

    fn action_text(_action: usize) -> Option<String> {
        None
    }
}

impl Observation for MartianChineseCheckers {
    /// 39 planes over a 13x13 grid of axial coordinates `(q + 6, r + 6)`, turned by multiples
    /// of 60 degrees so that the mover's home territory is territory 0. For each player in turn
    /// order from the mover (`j` = 0..5) and size (`z` = 0 small, 1 medium, 2 large): plane
    /// `(j * 3 + z) * 2` counts that player's pieces of that size on the hex / 5, plane
    /// `(j * 3 + z) * 2 + 1` those of them that are not trapped / 5. Plane 36 marks the board,
    /// 37 the mover's goal territory, 38 the mover's home territory. Index
    /// `plane * 169 + (q + 6) * 13 + (r + 6)`.
    const OBSERVATION_SHAPE: &'static [usize] = &[39, 13, 13];

    fn observe(&self, out: &mut [f32]) {
        on_board!(&self.0, b => b.observe(out));
    }
}

impl<const P: usize> Board<P> {
    /// The observation of [`Observation::observe`].
    fn observe(&self, out: &mut [f32]) {
        const CELLS: usize = 169;
        let me = self.player as usize;
        let home = Self::COLOURS[me];
        // Turning (q, r) to (-r, q + r) takes territory t to t - 1; do it `home` times.
        let cell = |h: usize| {
            let (mut q, mut r) = (GEO.q[h], GEO.r[h]);
            for _ in 0..home {
                (q, r) = (-r, q + r);
            }
            (q + 6) as usize * 13 + (r + 6) as usize
        };
        for h in 0..HEXES {
            let c = cell(h);
            out[36 * CELLS + c] = 1.0;
            if TERRITORY[h] == goal_of(home) {
                out[37 * CELLS + c] = 1.0;
            }
            if HOME[h] & (1 << home) != 0 {
                out[38 * CELLS + c] = 1.0;
            }
        }
        for id in Self::piece_ids() {
            let j = (player_of(id) + P - me) % P;
            let plane = (j * 3 + usize::from(size_of(id) - 1)) * 2;
            let c = cell(self.hex(id));
            out[plane * CELLS + c] += 0.2;
            if self.is_free(id) {
                out[(plane + 1) * CELLS + c] += 0.2;
            }
        }
    }
}
