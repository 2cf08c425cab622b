//! The action-level API over seeded random games of every game: playing a move action by
//! action reaches the very state (text and hash) that playing it whole reaches; every state
//! between the actions of a move keeps the player to move, is not terminal and offers at
//! least two legal actions; the chosen actions of a move stay within the game's bound;
//! observations fit their shape, from every player's point of view, with every value in
//! [0, 1]; and a random action walk only ever takes legal actions.

use glacier_core::actions::{
    chosen_actions, first_actions_of_moves, ActionList as List, QuickTake, MAX_MOVE_ACTIONS,
};
use glacier_core::games::GAME_NAMES;
use glacier_core::rng::SplitMix64;
use glacier_core::{with_game, ActionList, FullGame, PartialMove, Taken};

const GAMES: u64 = 30;
const MAX_PLIES: u32 = 200;

fn check_observations<G: FullGame>(state: &G, partial: &PartialMove, what: &str) {
    let size: usize = G::OBSERVATION_SHAPE.iter().product();
    for player in 0..state.num_players() {
        let mut out = vec![0.0f32; size];
        partial.observe(state, player, &mut out);
        assert!(
            out.iter().all(|v| (0.0..=1.0).contains(v)),
            "{}: observation of player {player} out of [0, 1] {what}",
            G::NAME
        );
    }
}

/// A game's fast paths between moves agree with the general way: the same first actions,
/// each once, and every action (legal or not) taken to the same effect.
fn check_fast_paths<G: FullGame>(state: &G) {
    let mut fast = Vec::new();
    state.for_each_first_action(&mut |a| fast.push(a));
    let mut general = Vec::new();
    first_actions_of_moves(state, &mut |a| general.push(a));
    fast.sort_unstable();
    general.sort_unstable();
    assert_eq!(fast, general, "{}: first actions", G::NAME);
    let mut by_first: std::collections::HashMap<usize, Vec<(G::Move, List)>> =
        std::collections::HashMap::new();
    state.generate_moves(&mut |mv| {
        let mut list = List::new();
        state.move_actions(mv, &mut list);
        by_first
            .entry(list.get(0).unwrap_or(usize::MAX))
            .or_default()
            .push((mv, list));
    });
    for action in 0..G::NUM_DISTINCT_ACTIONS {
        let moves = by_first.get(&action).map_or(&[][..], Vec::as_slice);
        let expected = match moves {
            [] => QuickTake::Illegal,
            [(mv, _)] => QuickTake::Move(*mv),
            [(_, first), rest @ ..] if rest.iter().all(|(_, l)| l.get(1) == first.get(1)) => {
                QuickTake::Unknown // something forced follows: only the general way says what
            }
            _ => QuickTake::Choice,
        };
        let quick = state.quick_take(action);
        assert!(
            quick == expected || quick == QuickTake::Unknown,
            "{}: quick_take({action}) is {quick:?}, the moves say {expected:?}",
            G::NAME
        );
    }
}

/// Plays a random game move by move, each move action by action.
fn check_game<G: FullGame>(seed: u64) -> u32 {
    let params = glacier_core::game::params_from::<G>(&[]).expect("default parameters are valid");
    let mut rng = SplitMix64::stream(seed, 0);
    let mut state = G::start(&params);
    let mut plies = 0;
    while !state.is_terminal() && plies < MAX_PLIES {
        let mut moves = Vec::new();
        state.generate_moves(&mut |mv| moves.push(mv));
        let mv = moves[rng.below(moves.len() as u64) as usize];
        let mut list = ActionList::new();
        state.move_actions(mv, &mut list);
        assert!(list.len() <= MAX_MOVE_ACTIONS);
        let chosen = chosen_actions(&state, mv);
        assert!(
            chosen.len() <= G::MAX_CHOSEN_ACTIONS,
            "{}: {} actions chosen for one move, the bound is {}",
            G::NAME,
            chosen.len(),
            G::MAX_CHOSEN_ACTIONS
        );

        let mut partial = PartialMove::new();
        let player = state.current_player();
        check_observations(&state, &partial, "between moves");
        if plies % 7 == 0 {
            check_fast_paths(&state);
        }
        for (i, action) in chosen.iter().enumerate() {
            assert!(partial.legal_actions(&state).contains(&action));
            let taken = partial.take(&state, action).expect("a legal action");
            if i + 1 < chosen.len() {
                assert_eq!(taken, Taken::Continues, "{}: the move ended early", G::NAME);
                assert_eq!(state.current_player(), player);
                let legal = partial.legal_actions(&state);
                assert!(
                    legal.len() >= 2,
                    "{}: a state in the middle of a move offers {legal:?}",
                    G::NAME
                );
                check_observations(&state, &partial, "in the middle of a move");
            } else {
                assert_eq!(
                    taken,
                    Taken::Move(mv),
                    "{}: the actions made another move",
                    G::NAME
                );
                assert!(partial.is_empty());
            }
        }
        let mut whole = state.clone();
        whole.play_unchecked(mv);
        state.play_unchecked(mv);
        assert_eq!(state.text(), whole.text());
        assert_eq!(state.hash(), whole.hash());
        plies += 1;
    }
    plies
}

/// Takes random legal actions; every one must be legal and every completed move legal.
fn random_walk<G: FullGame>(seed: u64) -> u32 {
    let params = glacier_core::game::params_from::<G>(&[]).expect("default parameters are valid");
    let mut rng = SplitMix64::stream(seed, 1);
    let mut state = G::start(&params);
    let mut partial = PartialMove::new();
    let mut actions = 0;
    while let Some(action) = partial.random_action(&state, |n| rng.below(n)) {
        match partial.take(&state, action) {
            Some(Taken::Move(mv)) => {
                let text = state.move_text(mv);
                assert_eq!(state.parse_move(&text), Ok(mv));
                state.play_unchecked(mv);
            }
            Some(Taken::Continues) => {}
            None => panic!("{}: a random action {action} is not legal", G::NAME),
        }
        actions += 1;
        if actions > MAX_PLIES * 4 {
            break;
        }
    }
    actions
}

#[test]
fn actions_reach_the_states_whole_moves_reach() {
    for name in GAME_NAMES {
        let plies: u32 =
            with_game!(name, G => (0..GAMES).map(check_game::<G>).sum(), _ => continue);
        assert!(plies > 0, "{name}: no plies played");
    }
}

#[test]
fn random_actions_are_legal() {
    for name in GAME_NAMES {
        let actions: u32 =
            with_game!(name, G => (0..GAMES).map(random_walk::<G>).sum(), _ => continue);
        assert!(actions > 0, "{name}: no actions taken");
    }
}
