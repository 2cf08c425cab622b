//! The facts of King's Court for the tools around the engine (see [`GameFacts`]).
//!
//! Written by `python tests/facts_rs.py` from `FACTS` in the game's reference module,
//! python/glacier/reference/kings_court.py: the one place the game declares them, with the
//! reasons for them. Change them there.

use super::KingsCourt;
use crate::game::{BenchDepths, Facts, GameFacts, OptionValue, PerftCase, Picture};

impl Facts for KingsCourt {
    const FACTS: GameFacts = GameFacts {
        seats: &[(2, &["Red", "Green"])],
        mcts_player: &[("evaluator", OptionValue::Text("heuristic"))],
        net_player: &[],
        playout_plies: 0,
        bench: BenchDepths {
            perft: (7, 3),
            playouts: 1000,
            perft_bench: (7, 5, 4),
            hashed_perft: Some((7, 334_122_388)),
        },
        table_checks: &[
            PerftCase { text: None, params: &[], depth: 5 },
            PerftCase { text: None, params: &[("max_plies", 5)], depth: 6 },
        ],
        starts: &[],
        kin: &[],
        pictures: &[
            Picture::of("kings_court-start", "King's Court: the start", None),
            Picture {
                last_move: Some("a3xc3xe3"),
                ..Picture::of(
                    "kings_court-jumps",
                    "King's Court: Red's double jump a3xc3xe3",
                    Some("GRGR1RR1/R3GGG1/G3RGGR/1GR5/G1R1GG2/1R1RR1RG/G2R2G1/RG1G1GR1 g 27"),
                )
            },
            Picture {
                last_move: Some("c8xe8xe6xe4xg4"),
                flipped: true,
                ..Picture::of(
                    "kings_court-won",
                    "King's Court, finished: Green has no piece left in the Court, seen from Green",
                    Some("GR1R4/R1G2G1G/6G1/4R3/GR4R1/3R1R1G/1G1R4/R1G4G g 59"),
                )
            },
        ],
        variants: &[&[], &[("max_plies", 40)], &[], &[("max_plies", 3)]],
    };
}
