//! The facts of Ice Age Chess for the tools around the engine (see [`GameFacts`]).
//!
//! Written by `python tests/facts_rs.py` from `FACTS` in the game's reference module,
//! python/glacier/reference/ice_age_chess.py: the one place the game declares them, with the
//! reasons for them. Change them there.

use super::IceAgeChess;
use crate::game::{
    Arrow, BenchDepths, Facts, GameFacts, Kin, NamedStart, OptionValue, PerftCase, Picture,
};

impl Facts for IceAgeChess {
    const FACTS: GameFacts = GameFacts {
        seats: &[(2, &["White", "Black"])],
        mcts_player: &[
            ("evaluator", OptionValue::Text("rollout")),
            ("rollout_plies", OptionValue::Int(40)),
        ],
        net_player: &[("heuristic_mix", OptionValue::Number(0.5))],
        playout_plies: 0,
        bench: BenchDepths {
            perft: (6, 3),
            playouts: 1000,
            perft_bench: (6, 4, 3),
            hashed_perft: None,
        },
        table_checks: &[
            PerftCase { text: None, params: &[], depth: 4 },
            PerftCase {
                text: Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 96 40"),
                params: &[("ice_age_period", 0)],
                depth: 5,
            },
        ],
        starts: &[
            NamedStart {
                name: "standard",
                text: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                params: &[("ice_age_period", 0)],
            },
        ],
        kin: &[Kin { game: "chess", start: Some("standard") }],
        pictures: &[
            Picture::of("ice_age_chess-start", "Ice Age Chess: the start, ice on ranks 3-6", None),
            Picture {
                last_move: Some("f6e5"),
                arrows: &[Arrow::Move("d4c4"), Arrow::Cells("c7", "a8")],
                ..Picture::of(
                    "ice_age_chess-in-check",
                    "Ice Age Chess after an Ice Age: White in check after Bf6-e5, two arrows",
                    Some("rnb1**nr/ppNkp**p/*****2*/***1bp1*/P**K**P*/*1B*1P*P/Pq*****1/1*****NR w - - 0 27"),
                )
            },
            Picture {
                last_move: Some("h7h6"),
                ..Picture::of(
                    "ice_age_chess-frozen-king",
                    "Ice Age Chess, finished: Black's king was frozen by the Ice Age",
                    Some("********/********/p******r/*rp****K/p*****P*/*N****B*/******N*/******** w - - 0 81"),
                )
            },
            Picture {
                params: &[("ice_age_period", 0)],
                last_move: Some("d8h4"),
                flipped: true,
                ..Picture::of(
                    "chess-mate-from-black",
                    "Standard chess (ice_age_period=0), checkmate, seen from Black's side",
                    Some("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"),
                )
            },
        ],
        variants: &[
            &[],
            &[("ice_age_period", 2)],
            &[("ice_age_period", 0)],
            &[("ice_age_period", 3), ("max_plies", 120)],
            &[("ice_age_period", 1)],
        ],
    };
}
