//! The facts of Kuba for the tools around the engine (see [`GameFacts`]).
//!
//! Written by `python tests/facts_rs.py` from `FACTS` in the game's reference module,
//! python/glacier/reference/kuba.py: the one place the game declares them, with the
//! reasons for them. Change them there.

use super::Kuba;
use crate::game::{BenchDepths, Facts, GameFacts, OptionValue, PerftCase, Picture};

impl Facts for Kuba {
    const FACTS: GameFacts = GameFacts {
        seats: &[(2, &["White", "Black"])],
        mcts_player: &[("evaluator", OptionValue::Text("rollout"))],
        net_player: &[],
        playout_plies: 0,
        bench: BenchDepths {
            perft: (7, 4),
            playouts: 1000,
            perft_bench: (6, 3, 4),
            hashed_perft: Some((8, 111_245_108)),
        },
        table_checks: &[
            PerftCase { text: None, params: &[], depth: 5 },
            PerftCase { text: None, params: &[("max_plies", 4)], depth: 6 },
        ],
        starts: &[],
        kin: &[],
        pictures: &[
            Picture::of("kuba-start", "Kuba: the start", None),
            Picture {
                last_move: Some("g4f4"),
                ..Picture::of(
                    "kuba-captures",
                    "Kuba: captures so far, and the push that may not be answered (ko)",
                    Some("7/3W3/4W1R/R1R1WB1/1BWR1BR/1R3RW/3R3 w 3,5 2,3 - e4f4 103"),
                )
            },
            Picture {
                last_move: Some("c1b1"),
                ..Picture::of(
                    "kuba-won",
                    "Kuba, finished: White has pushed off seven Red marbles",
                    Some("3W3/3B3/7/5W1/R1B2W1/2W1B2/RW5 b 7,5 4,3 - - 187"),
                )
            },
        ],
        variants: &[&[], &[("max_plies", 40)]],
    };
}
