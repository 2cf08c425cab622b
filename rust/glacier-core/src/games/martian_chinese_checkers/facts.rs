//! The facts of E (Martian Chinese Checkers) for the tools around the engine (see [`GameFacts`]).
//!
//! Written by `python tests/facts_rs.py` from `FACTS` in the game's reference module,
//! python/glacier/reference/martian_chinese_checkers.py: the one place the game declares them, with the
//! reasons for them. Change them there.

use super::MartianChineseCheckers;
use crate::game::{Arrow, BenchDepths, Facts, GameFacts, Kin, OptionValue, PerftCase, Picture};

const E3_STACKS: &str = "3 0 192 b11=4s c5=2l4m4m c6=2m c10=4m d8=2s2m2s d13=4l e3=2l e4=2s e5=2s \
e8=4s e9=4s e10=4l e12=4m e13=4l f3=2m f5=2m f7=0m f8=0s4m g6=2s g8=0s4s g11=4s i2=2l i5=0m i7=4l \
j1=2l j2=0l j4=0s j6=0m j8=0l j9=0l k2=2m k5=0s k6=2l l2=0m l4=0s l7=4l m4=0l m6=0l m7=0m";

const E6_TALL_STACKS: &str = "6 2 266 a8=3l a12=3l a13=3l b6=2l b8=2m b9=3m b11=2m3s b12=3m b13=4l \
c5=2l c6=2s c8=3s c9=2m c10=4m c11=4s c12=4m c13=4l d7=2l3m d8=1s3s d9=3l d10=3s d12=4m5s d13=4l5m \
e4=2m e5=2s e6=2l e9=3m e11=4s e12=5l e13=4l f2=1m1m f4=3m2s f6=2s f8=3s f10=4s f13=4l g5=0l3l5s \
g6=1m g8=4s g12=4m h2=2s h3=1s h4=1l2m2l h5=1s h7=1s i1=1l i2=1m i3=1s i5=1m i8=5m0s i9=4m j4=0l \
j6=5s j7=0s j8=5s j9=5m j10=5l k1=1l k4=4s0s k6=0s k9=5l0m l1=1l l3=0m l4=0m l5=5l l6=0m l7=0m5s \
l8=5l0s m1=1l m3=0l m4=5m m5=0l m6=0l m7=5m";

const E2_WON: &str = "2 1 211 a7=3l a8=0l3s a9=0l3m a10=0l3s a11=0l a12=0l b8=0m b9=0m b10=0m \
b11=0m b12=3l c8=0s c9=0m c10=0s d7=3l d8=0s d9=0s e8=0s e9=3l g1=3l g4=3m g7=3m g10=3m g13=3m \
i5=3s j7=3s l2=3s";

impl Facts for MartianChineseCheckers {
    const FACTS: GameFacts = GameFacts {
        seats: &[
            (2, &["Red", "Blue"]),
            (3, &["Red", "Green", "Black"]),
            (4, &["Red", "Yellow", "Blue", "Black"]),
            (5, &["Red", "Yellow", "Green", "Blue", "Black"]),
            (6, &["Red", "Yellow", "Green", "Blue", "Black", "Clear"]),
        ],
        mcts_player: &[
            ("evaluator", OptionValue::Text("rollout")),
            ("rollout_plies", OptionValue::Int(20)),
            ("priors", OptionValue::Text("heuristic")),
        ],
        net_player: &[
            ("rollout_mix", OptionValue::Number(1.0)),
            ("rollout_plies", OptionValue::Int(20)),
            ("rollout_policy", OptionValue::Text("move_priority")),
        ],
        playout_plies: 20,
        bench: BenchDepths {
            perft: (5, 2),
            playouts: 100,
            perft_bench: (5, 3, 3),
            hashed_perft: None,
        },
        table_checks: &[
            PerftCase { text: None, params: &[], depth: 4 },
            PerftCase { text: None, params: &[("max_plies", 3)], depth: 4 },
        ],
        starts: &[],
        kin: &[Kin { game: "chinese_checkers", start: None }],
        pictures: &[
            Picture::of("e2-start", "E, two players: the start", None),
            Picture {
                cell_names: true,
                ..Picture::of("e2-hex-names", "E: the name of every hex", None)
            },
            Picture {
                params: &[("players", 3)],
                last_move: Some("b10/0-d8xd8/1=c5/2"),
                ..Picture::of(
                    "e3-stacks",
                    "E, three players: stacks, and a move ending in an exchange",
                    Some(E3_STACKS),
                )
            },
            Picture {
                params: &[("players", 6)],
                last_move: Some("h6/0-h4xh4/2=f2/1"),
                arrows: &[Arrow::Move("h4/2-e7"), Arrow::Move("d7/0-g4")],
                perspective: Some(2),
                ..Picture::of(
                    "e6-tall-stacks",
                    "E, six players: tall stacks, seen from player 2 (Green), two arrows",
                    Some(E6_TALL_STACKS),
                )
            },
            Picture::of(
                "e2-won",
                "E, two players, finished: Red fills Blue's corner",
                Some(E2_WON),
            ),
        ],
        variants: &[
            &[("players", 2)],
            &[("players", 3)],
            &[("players", 4)],
            &[("players", 5)],
            &[("players", 6)],
            &[("players", 2), ("stack_limit", 2)],
            &[("players", 4), ("stack_limit", 3)],
            &[("players", 3), ("max_plies", 50)],
            &[("players", 6), ("stack_limit", 1), ("max_plies", 120)],
        ],
    };
}
