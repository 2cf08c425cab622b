//! Searches of Ice Cube Checkers positions whose best move is forced.

use super::IceCubeCheckers;
use crate::search::forced_win::{all_find, state};

#[test]
fn winning_sow_in_ice_cube_checkers() {
    // The King in c is nobody's; White's cube from b lands on it, and White then holds
    // both King slots (d already).
    let checkers: IceCubeCheckers = state("W/W/K/WK/W/W/B/B/B/B/B/- w 10", &[]);
    all_find(&checkers, "b:W");
}
