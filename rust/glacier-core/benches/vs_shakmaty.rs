//! Standard-chess perft, glacier's Ice Age Chess engine (`ice_age_period=0`) against
//! shakmaty and cozy-chess, two well-known Rust move generators, on the same positions in
//! the same run, all three built alike (this workspace's release profile and target flags).
//!
//! All count leaves with bulk counting at the last ply: shakmaty's `perft` counts the legal
//! moves at depth 1 without playing them, cozy-chess's counts the moves of its move sets
//! (its own example's perft, below), glacier counts by popcount. Run with
//! `cargo bench -p glacier-core --bench vs_shakmaty [-- NAME...]` (or `make bench`; names
//! choose positions); each position is timed best-of-seven (the machine may be shared),
//! single-threaded, the three engines taking turns every round.

use glacier_core::game::{params_from, Facts};
use glacier_core::games::Chess;
use glacier_core::perft::perft;
use glacier_core::{Game, Notation, ParamValue};
use shakmaty::fen::Fen;
use shakmaty::CastlingMode;
use std::time::Instant;

/// (name, FEN, depth, leaves): the start position and well-known perft test positions.
const POSITIONS: [(&str, &str, u32, u64); 5] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
        119_060_324,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
        193_690_690,
    ),
    (
        "position 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        7,
        178_633_661,
    ),
    (
        "position 4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        5,
        15_833_292,
    ),
    (
        "position 5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        5,
        89_941_194,
    ),
];

/// cozy-chess's perft as its own example writes it: copy-make, the last ply counted from
/// the move sets without playing them.
fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft(&child, depth - 1);
            }
            false
        });
    }
    nodes
}

/// The parameters that make the game that plays chess play standard chess: those of the
/// named start its facts give for chess (no Ice Age).
fn standard_chess() -> <Chess as Game>::Params {
    let facts = Chess::FACTS;
    let kin = facts.kin.iter().find(|k| k.game == "chess");
    let start = kin.and_then(|k| k.start).map(|name| {
        let start = facts.starts.iter().find(|s| s.name == name);
        start.expect("the start that plays chess is declared")
    });
    let given: Vec<_> = start
        .map_or(&[][..], |s| s.params)
        .iter()
        .map(|&(name, value)| (name, ParamValue::Int(value)))
        .collect();
    params_from::<Chess>(&given).expect("valid parameters")
}

/// The seconds of one run of `run`, checking its count.
fn timed(expected: u64, run: impl FnOnce() -> u64) -> f64 {
    let start = Instant::now();
    let leaves = run();
    let seconds = start.elapsed().as_secs_f64();
    assert_eq!(leaves, expected, "wrong perft count");
    seconds
}

fn main() {
    let rounds = 7;
    let params = standard_chess();
    println!(
        "{:<11} {:>5} {:>12} {:>16} {:>16} {:>16} {:>9} {:>9}",
        "position",
        "depth",
        "leaves",
        "glacier nodes/s",
        "shakmaty nodes/s",
        "cozy nodes/s",
        "/shakmaty",
        "/cozy"
    );
    // Positions may be chosen by naming them (any part of the name) on the command line.
    let chosen: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    for (name, fen, depth, leaves) in POSITIONS {
        if !chosen.is_empty() && !chosen.iter().any(|c| name.contains(c.as_str())) {
            continue;
        }
        let ours = Chess::from_text(fen, &params).expect("glacier reads the FEN");
        let theirs: shakmaty::Chess = fen
            .parse::<Fen>()
            .expect("shakmaty parses the FEN")
            .into_position(CastlingMode::Standard)
            .expect("a legal position");
        let cozy: cozy_chess::Board = fen.parse().expect("cozy-chess parses the FEN");
        let mut best = [f64::INFINITY; 3];
        for _ in 0..rounds {
            best[0] = best[0].min(timed(leaves, || perft(&ours, depth)));
            best[1] = best[1].min(timed(leaves, || shakmaty::perft(&theirs, depth)));
            best[2] = best[2].min(timed(leaves, || cozy_perft(&cozy, depth)));
        }
        let [a, b, c] = best.map(|seconds| leaves as f64 / seconds);
        println!(
            "{name:<11} {depth:>5} {leaves:>12} {a:>16.0} {b:>16.0} {c:>16.0} {:>8.2}x {:>8.2}x",
            a / b,
            a / c
        );
    }
}
