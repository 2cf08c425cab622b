//! Perft: the number of leaves of the legal-move tree, the standard move-generator test.

use crate::Game;

/// Copy-make perft with bulk counting at the last ply.
pub fn perft<G: Game>(state: &G, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => state.count_moves(),
        _ => {
            let mut nodes = 0;
            state.generate_moves(&mut |mv| {
                let mut child = state.clone();
                child.play_unchecked(mv);
                nodes += perft(&child, depth - 1);
            });
            nodes
        }
    }
}

/// Perft that plays every leaf move instead of counting them in bulk
/// (to measure the cost of `play`; same result as [`perft`]).
pub fn perft_no_bulk<G: Game>(state: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    state.generate_moves(&mut |mv| {
        let mut child = state.clone();
        child.play_unchecked(mv);
        nodes += perft_no_bulk(&child, depth - 1);
    });
    nodes
}
