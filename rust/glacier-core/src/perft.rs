//! Perft: the number of leaves of the legal-move tree, the standard move-generator test.

use crate::interrupt::{Interrupt, Watch};
use crate::Game;

/// Copy-make perft with bulk counting at the last ply.
pub fn perft<G: Game>(state: &G, depth: u32) -> u64 {
    perft_until(state, depth, &mut Interrupt::never().caller())
}

/// Perft that plays every leaf move instead of counting them in bulk
/// (to measure the cost of `play`; same result as [`perft`]).
pub fn perft_no_bulk<G: Game>(state: &G, depth: u32) -> u64 {
    perft_no_bulk_until(state, depth, &mut Interrupt::never().caller())
}

/// [`perft`] that gives up when `watch` says stop (once per interior node): the count is
/// then short, and the watch's interrupt says so.
pub fn perft_until<G: Game>(state: &G, depth: u32, watch: &mut Watch<'_, '_>) -> u64 {
    match depth {
        0 => 1,
        1 => state.count_moves(),
        _ => {
            let mut nodes = 0;
            if watch.should_stop() {
                return nodes;
            }
            state.generate_moves(&mut |mv| {
                let mut child = state.clone();
                child.play_unchecked(mv);
                nodes += perft_until(&child, depth - 1, watch);
            });
            nodes
        }
    }
}

/// [`perft_no_bulk`] that gives up when `watch` says stop, as [`perft_until`].
pub fn perft_no_bulk_until<G: Game>(state: &G, depth: u32, watch: &mut Watch<'_, '_>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    if depth >= 2 && watch.should_stop() {
        return nodes;
    }
    state.generate_moves(&mut |mv| {
        let mut child = state.clone();
        child.play_unchecked(mv);
        nodes += perft_no_bulk_until(&child, depth - 1, watch);
    });
    nodes
}
