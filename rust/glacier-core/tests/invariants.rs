//! Engine invariants over seeded random games of every built game, checked after every move:
//! the incremental Zobrist hash equals the hash recomputed from scratch, the position text
//! reads back to the same state, every generated move's text parses back to that move,
//! `count_moves` agrees with generation, a state is terminal exactly when it has no moves,
//! every move has a list of named action numbers in range, the lists of one state are
//! prefix-free, and a one-action move's action is named by the move's text.

use glacier_core::games::GAME_NAMES;
use glacier_core::rng::SplitMix64;
use glacier_core::{with_game, ActionList, FullGame};

const GAMES: u64 = 60;
const MAX_PLIES: u32 = 300;

fn check_game<G: FullGame>(seed: u64) -> u32 {
    let params = glacier_core::game::params_from::<G>(&[]).expect("default parameters are valid");
    let mut rng = SplitMix64::stream(seed, 0);
    let mut state = G::start(&params);
    let mut plies = 0;
    loop {
        assert_eq!(
            state.hash(),
            state.hash_from_scratch(),
            "{}: hash drifted at ply {plies}",
            G::NAME
        );
        let text = state.text();
        let reread = G::from_text(&text, &params)
            .unwrap_or_else(|e| panic!("{}: '{text}' does not read back: {e}", G::NAME));
        assert_eq!(reread.text(), text);
        assert_eq!(
            reread.hash(),
            state.hash(),
            "{}: '{text}' reads back with another hash",
            G::NAME
        );

        let mut generated = 0u64;
        let mut lists: Vec<ActionList> = Vec::new();
        state.generate_moves(&mut |mv| {
            generated += 1;
            let mut list = ActionList::new();
            state.move_actions(mv, &mut list);
            assert!(!list.is_empty(), "{}: a move without actions", G::NAME);
            for action in list.iter() {
                assert!(
                    action < G::NUM_DISTINCT_ACTIONS,
                    "{}: action {action} out of range",
                    G::NAME
                );
                assert!(
                    G::action_text(action).is_some(),
                    "{}: action {action} of a legal move has no name",
                    G::NAME
                );
            }
            if G::ONE_ACTION_MOVES {
                assert_eq!(list.len(), 1, "{}: one action per move", G::NAME);
                assert_eq!(
                    G::action_text(list.iter().next().unwrap_or_default()),
                    Some(state.move_text(mv)),
                    "{}: the action names another move",
                    G::NAME
                );
            }
            lists.push(list);
            let move_text = state.move_text(mv);
            let parsed = state
                .parse_move(&move_text)
                .unwrap_or_else(|e| panic!("{}: '{move_text}' in '{text}': {e}", G::NAME));
            assert_eq!(
                parsed,
                mv,
                "{}: '{move_text}' parses to another move",
                G::NAME
            );
        });
        for (i, a) in lists.iter().enumerate() {
            for b in &lists[i + 1..] {
                assert!(
                    !a.starts_with(b) && !b.starts_with(a),
                    "{}: the actions {a:?} and {b:?} of two moves in '{text}' are not prefix-free",
                    G::NAME
                );
            }
        }
        assert_eq!(
            state.count_moves(),
            generated,
            "{}: count_moves in '{text}'",
            G::NAME
        );
        assert_eq!(
            state.is_terminal(),
            generated == 0,
            "{}: terminal iff no moves in '{text}'",
            G::NAME
        );
        // nth_move(k) is the k-th generated move, and nothing past the last.
        let mut all = Vec::new();
        state.generate_moves(&mut |mv| all.push(mv));
        for (k, &mv) in all.iter().enumerate() {
            assert_eq!(
                state.nth_move(k as u64),
                Some(mv),
                "{}: move {k} of '{text}'",
                G::NAME
            );
        }
        assert_eq!(
            state.nth_move(generated),
            None,
            "{}: a move past the last in '{text}'",
            G::NAME
        );
        if generated == 0 || plies == MAX_PLIES {
            return plies;
        }
        let mv = state
            .nth_move(rng.below(generated))
            .expect("index below the count");
        state.play_unchecked(mv);
        plies += 1;
    }
}

#[test]
fn random_games_keep_every_invariant() {
    let mut checked = 0;
    for name in GAME_NAMES {
        let plies: u32 =
            with_game!(name, G => (0..GAMES).map(check_game::<G>).sum(), _ => continue);
        assert!(plies > 0, "{name}: no plies played");
        checked += 1;
    }
    assert!(checked > 0);
}
