//! Searches of King's Court positions whose best move is forced.

use super::KingsCourt;
use crate::search::forced_win::{all_find, state};

#[test]
fn emptying_the_opponents_court_in_kings_court() {
    // Green's only Court piece, d4, is jumped from d3: Green has none left and loses.
    let court: KingsCourt = state("7G/8/8/8/3G4/3R4/8/R7 r 10", &[]);
    all_find(&court, "d3xd5");
}
