//! A finished game takes no move, through any door: for every game, seeded random games are
//! played to their end (a natural end, and the end of a short ply limit), and `parse_move`
//! of the finished position refuses every move text that was legal on the way there (moves
//! the rules would allow if the game went on among them).

use glacier_core::games::GAME_NAMES;
use glacier_core::rng::SplitMix64;
use glacier_core::{with_game, FullGame, ParamValue};

fn check<G: FullGame>(seed: u64, max_plies: Option<i64>) {
    let given: Vec<(&str, ParamValue)> = max_plies
        .map(|n| vec![("max_plies", ParamValue::Int(n))])
        .unwrap_or_default();
    let params = glacier_core::game::params_from::<G>(&given).expect("valid parameters");
    let mut rng = SplitMix64::stream(seed, 1);
    let mut state = G::start(&params);
    let mut seen: Vec<String> = Vec::new();
    for _ in 0..2000 {
        let mut moves = Vec::new();
        state.generate_moves(&mut |mv| moves.push(mv));
        if moves.is_empty() {
            break;
        }
        seen.extend(moves.iter().map(|&mv| state.move_text(mv)));
        let mv = moves[rng.below(moves.len() as u64) as usize];
        state.play_unchecked(mv);
    }
    if !state.is_terminal() {
        return;
    }
    for text in &seen {
        assert!(
            state.parse_move(text).is_err(),
            "{}: '{text}' parses in the finished position '{}'",
            G::NAME,
            state.text()
        );
    }
}

#[test]
fn a_finished_position_parses_no_move() {
    for &name in GAME_NAMES {
        with_game!(name, G => {
            for seed in 0..8 {
                check::<G>(seed, None);
                check::<G>(seed, Some(3 + seed as i64));
            }
        }, _ => unreachable!());
    }
}
