//! `Observation::update_observation` leaves exactly the observation a whole write gives: for
//! every game (in every variant it declares), along seeded random action walks with moves
//! being made, from observations one to four actions old (and from another game's),
//! seen by the same player or by another one, the row brought up to date equals the row
//! written afresh, bit for bit.

use glacier_core::game::Facts;
use glacier_core::games::GAME_NAMES;
use glacier_core::rng::SplitMix64;
use glacier_core::{with_game, FullGame, ParamValue, PartialMove, Taken};

const WALKS: u64 = 6;
const MAX_PLIES: i64 = 120;

fn fresh<G: FullGame>(state: &G, partial: &PartialMove, player: usize) -> Vec<f32> {
    let mut out = vec![0.0f32; G::OBSERVATION_SHAPE.iter().product()];
    partial.observe(state, player, &mut out);
    out
}

fn check<G: FullGame>(given: &[(&str, ParamValue)], seed: u64) {
    let params = glacier_core::game::params_from::<G>(given).expect("valid parameters");
    let start = G::start(&params);
    let players = start.num_players();
    let mut rng = SplitMix64::stream(seed, 7);
    // The states (with the move being made) the walk went through, oldest first, across
    // the games it played one after the other.
    let mut seen: Vec<(G, PartialMove)> = vec![(start.clone(), PartialMove::new())];
    let (mut state, mut partial) = (start.clone(), PartialMove::new());
    let mut compared = 0;
    for _ in 0..2 * MAX_PLIES {
        match partial.random_action(&state, |n| rng.below(n)) {
            None => (state, partial) = (start.clone(), PartialMove::new()),
            Some(action) => match partial.take(&state, action) {
                Some(Taken::Move(mv)) => state.play_unchecked(mv),
                Some(Taken::Continues) => {}
                None => panic!("{}: a random legal action was refused", G::NAME),
            },
        }
        seen.push((state.clone(), partial));
        let player = rng.below(players as u64) as usize;
        let want = fresh(&state, &partial, player);
        for back in 1..=4.min(seen.len() - 1) {
            let (old, old_partial) = &seen[seen.len() - 1 - back];
            for old_player in [player, (player + back) % players] {
                let mut row = fresh(old, old_partial, old_player);
                state.update_observation(
                    partial.path().as_slice(),
                    player,
                    old,
                    old_partial.path().as_slice(),
                    old_player,
                    &mut row,
                );
                let differs = row
                    .iter()
                    .zip(&want)
                    .position(|(a, b)| a.to_bits() != b.to_bits());
                assert!(
                    differs.is_none(),
                    "{} {given:?}: cell {differs:?} of player {player}'s observation of '{}' \
                     (actions {:?}) brought up from player {old_player}'s of '{}' (actions {:?})",
                    G::NAME,
                    state.text(),
                    partial.path(),
                    old.text(),
                    old_partial.path(),
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 0);
}

/// Every parameter set a game declares to exercise its variants (E with every number of
/// players, chess with its Ice Age on several periods, so that ice comes and goes), each
/// played to `MAX_PLIES`.
#[test]
fn updated_observations_equal_whole_ones() {
    for &name in GAME_NAMES {
        with_game!(name, G => {
            let mut variants: Vec<Vec<(&str, ParamValue)>> = Vec::new();
            for variant in G::FACTS.variants {
                let mut given: Vec<(&str, ParamValue)> = variant
                    .iter()
                    .filter(|&&(param, _)| param != "max_plies")
                    .map(|&(param, value)| (param, ParamValue::Int(value)))
                    .collect();
                given.push(("max_plies", ParamValue::Int(MAX_PLIES)));
                if !variants.contains(&given) {
                    variants.push(given);
                }
            }
            for given in variants {
                for seed in 0..WALKS {
                    check::<G>(&given, seed);
                }
            }
        }, _ => unreachable!());
    }
}
