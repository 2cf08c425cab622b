//! The facts of Ice Cube Checkers for the tools around the engine (see [`GameFacts`]).
//!
//! Written by `python tests/facts_rs.py` from `FACTS` in the game's reference module,
//! python/glacier/reference/ice_cube_checkers.py: the one place the game declares them, with the
//! reasons for them. Change them there.

use super::IceCubeCheckers;
use crate::game::{BenchDepths, Facts, GameFacts, OptionValue, PerftCase, Picture};

impl Facts for IceCubeCheckers {
    const FACTS: GameFacts = GameFacts {
        seats: &[(2, &["White", "Black"])],
        mcts_player: &[("evaluator", OptionValue::Text("heuristic"))],
        net_player: &[],
        playout_plies: 0,
        bench: BenchDepths {
            perft: (11, 5),
            playouts: 1000,
            perft_bench: (11, 8, 7),
            hashed_perft: Some((13, 327_519_216)),
        },
        table_checks: &[
            PerftCase { text: None, params: &[], depth: 9 },
            PerftCase { text: None, params: &[("max_plies", 7)], depth: 9 },
        ],
        starts: &[],
        kin: &[],
        pictures: &[
            Picture::of("ice_cube_checkers-start", "Ice Cube Checkers: the start", None),
            Picture {
                last_move: Some("k:BKW"),
                ..Picture::of(
                    "ice_cube_checkers-sown",
                    "Ice Cube Checkers: White has sown cup k into l, a and b",
                    Some("BBK/WWWBB/W/K/-/-/-/-/-/-/-/WB b 11"),
                )
            },
            Picture {
                flipped: true,
                ..Picture::of(
                    "ice_cube_checkers-full-cup",
                    "Ice Cube Checkers: all twelve pieces in one cup, seen from Black",
                    Some("WWWWWBBBBBKK/-/-/-/-/-/-/-/-/-/-/- b 9"),
                )
            },
            Picture {
                last_move: Some("c:BWB"),
                ..Picture::of(
                    "ice_cube_checkers-won",
                    "Ice Cube Checkers, finished: White controls the cup holding both Kings",
                    Some("-/-/-/B/WKK/B/WBB/WW/-/-/-/WB w 16"),
                )
            },
        ],
        variants: &[&[], &[("max_plies", 12)], &[("max_plies", 5)], &[("max_plies", 30)]],
    };
}
