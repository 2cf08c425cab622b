//! What the fuzz targets check, for any input at all.
//!
//! Every reader of text in glacier-core either refuses its input with an [`Error`] or
//! accepts it, and never panics (a panic is what libFuzzer reports). What it accepts must
//! be consistent with everything else the engine says about the result:
//!
//! - a position text that reads becomes a state whose own text reads back to the same
//!   text and hash, whose hash matches a from-scratch computation, and whose every legal
//!   move has a text that reads back to that move, and actions that make it;
//! - a move text that reads is exactly the text of a legal move, and one that is refused
//!   is the text of none; the checked [`Session`] leaves its state as it was;
//! - a SAN move that reads is a legal move whose own SAN reads back to it.
//!
//! The first input byte picks the game (its index in [`GAME_NAMES`], modulo their number);
//! bytes that are not UTF-8 are skipped, since the readers take `&str` (the bindings hand
//! them Python strings). Every run starts with the seed corpus of `fuzz/seeds.py` (real
//! positions and moves of every game), so the checks also run on inputs known to be good.

use glacier_core::actions::chosen_actions;
use glacier_core::game::{params_for_text, params_from};
use glacier_core::games::{Chess, GAME_NAMES};
use glacier_core::{with_game, FullGame, GameParams, ParamValue, PartialMove, Session, Taken};

/// How many of a position's legal moves [`check_state`] reads back from their text.
const READ_BACK: usize = 64;

/// The game picked by an input's first byte.
fn game_of(byte: u8) -> &'static str {
    GAME_NAMES[usize::from(byte) % GAME_NAMES.len()]
}

/// Fuzz target `position_text`: `[game] text...`.
pub fn position_text(data: &[u8]) {
    let Some((&game, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    with_game!(game_of(game), G => check_position_text::<G>(text), _ => unreachable!())
}

/// Fuzz target `move_text`: `[game] [position] text...`.
pub fn move_text(data: &[u8]) {
    let [game, position, rest @ ..] = data else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    with_game!(game_of(*game), G => check_move_text::<G>(*position, text), _ => unreachable!())
}

/// Fuzz target `san_text`: `[position] text...`, in the game that plays chess (Ice Age
/// Chess), with and without ice.
pub fn san_text(data: &[u8]) {
    let Some((&position, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let state: Chess = position_after(position);
    let before = glacier_core::Notation::text(&state);
    // As with move texts: SAN is read only where a move can be legal (records are played
    // through the checked session, which refuses every move of a finished game).
    if glacier_core::Game::is_terminal(&state) {
        return;
    }
    if let Ok(mv) = state.parse_san(text) {
        assert!(
            is_legal(&state, mv),
            "SAN {text:?} read as a move that is not legal"
        );
        assert_eq!(
            state.parse_san(&state.san(mv)),
            Ok(mv),
            "the SAN of {text:?} reads back"
        );
    }
    assert_eq!(glacier_core::Notation::text(&state), before);
}

fn check_position_text<G: FullGame>(text: &str) {
    let Ok(params) = params_for_text::<G>(text, &[]) else {
        return;
    };
    if let Ok(state) = G::from_text(text, &params) {
        check_state(&state);
    }
}

/// Everything a state says about itself agrees: text, hash, moves, actions.
fn check_state<G: FullGame>(state: &G) {
    let written = state.text();
    let params =
        params_for_text::<G>(&written, &[]).expect("a state's own text states valid parameters");
    let again = G::from_text(&written, &params).expect("a state's own text reads back");
    assert_eq!(again.text(), written, "the text of a state is canonical");
    assert_eq!(again.hash(), state.hash(), "reading back keeps the hash");
    assert_eq!(
        state.hash(),
        state.hash_from_scratch(),
        "the incremental hash is the hash"
    );
    assert!(!state.board_string().is_empty());
    let mut observation = vec![0.0; G::OBSERVATION_SHAPE.iter().product()];
    for player in 0..state.num_players() {
        observation.fill(0.0);
        state.observation(&[], player, &mut observation);
    }

    // Reading a move back may scan every legal move, so only the first ones are read back
    // (a position can have thousands of moves); every move is played.
    let mut count = 0usize;
    state.generate_moves(&mut |mv| {
        let mut child = state.clone();
        child.play_unchecked(mv);
        assert_eq!(
            child.hash(),
            child.hash_from_scratch(),
            "the hash after a move"
        );
        count += 1;
        if count > READ_BACK {
            return;
        }
        let text = state.move_text(mv);
        assert_eq!(
            state.parse_move(&text),
            Ok(mv),
            "the text {text:?} of a legal move reads back"
        );
        let actions = chosen_actions(state, mv);
        assert!(
            actions.iter().all(|a| a < G::NUM_DISTINCT_ACTIONS),
            "actions {actions:?} of {text:?} are out of range"
        );
        let mut partial = PartialMove::new();
        let mut taken = None;
        for action in actions.iter() {
            taken = partial.take(state, action);
        }
        assert_eq!(
            taken,
            Some(Taken::Move(mv)),
            "actions {actions:?} of {text:?} make that move"
        );
    });
    assert_eq!(
        count as u64,
        state.count_moves(),
        "count_moves counts the generated moves"
    );
    assert_eq!(
        count == 0,
        state.is_terminal(),
        "a state is terminal exactly when it has no moves"
    );
}

fn check_move_text<G: FullGame>(position: u8, text: &str) {
    let state: G = position_after(position);
    let before = state.text();
    let mut session = Session::<G>::from_state(state.clone());
    match session.play(text) {
        Ok(()) => assert!(
            !state.is_terminal(),
            "{text:?} was played in a finished game"
        ),
        Err(_) => assert_eq!(
            session.state().text(),
            before,
            "a refused move leaves the state as it was"
        ),
    }
    // `parse_move` is asked only where a move can be legal: the session refuses every move
    // of a finished game before reading it, and some games' readers do not look at that.
    if state.is_terminal() {
        return;
    }
    match state.parse_move(text) {
        Ok(mv) => {
            assert!(
                is_legal(&state, mv),
                "{text:?} read as a move that is not legal"
            );
            assert_eq!(
                state.move_text(mv),
                text,
                "only the exact text of a legal move reads"
            );
        }
        Err(_) => {
            let mut named = false;
            state.generate_moves(&mut |mv| named |= state.move_text(mv) == text);
            assert!(
                !named,
                "{text:?} is the text of a legal move, yet it was refused"
            );
        }
    }
}

fn is_legal<G: FullGame>(state: &G, mv: G::Move) -> bool {
    state.find_move(|legal| legal == mv).is_some()
}

/// A position reached by play, picked by `selector`: the start (of `2 + selector % 5`
/// players where the game takes a number of players; for odd selectors, one of the named
/// starts of a game that has some, such as standard chess without ice in Ice Age Chess) after
/// up to 63 plies chosen by the selector.
fn position_after<G: FullGame>(selector: u8) -> G {
    let specs = <G::Params as GameParams>::SPECS;
    let mut given = Vec::new();
    if specs.iter().any(|spec| spec.name == "players") {
        given.push(("players", ParamValue::Int(2 + i64::from(selector % 5))));
    }
    let params = params_from::<G>(&given).expect("the parameters are in range");
    let starts = G::FACTS.starts;
    let mut state = if !starts.is_empty() && selector % 2 == 1 {
        let named = starts[usize::from(selector / 2) % starts.len()];
        G::from_text(named.text, &params).expect("a named start reads")
    } else {
        G::start(&params)
    };
    for ply in 0..u64::from(selector / 4) {
        let count = state.count_moves();
        if count == 0 {
            break;
        }
        let mv = state
            .nth_move((u64::from(selector) * 31 + ply * 7) % count)
            .expect("a move below the count");
        state.play_unchecked(mv);
    }
    state
}
