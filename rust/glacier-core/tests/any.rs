//! Every game by its name (`glacier_core::any`), as a program that holds the game as a value
//! uses it: the registry's names, the one lister of legal moves (its order, its text keys,
//! its texts, in the middle of moves too), the listed moves played, a whole move refused by
//! a batched environment between moves only, and the searches refusing states of another
//! game or in the middle of a move.

use glacier_core::any::{AnyGame, AnySession};
use glacier_core::games::GAME_NAMES;
use glacier_core::interrupt::Interrupt;
use glacier_core::rng::SplitMix64;
use glacier_core::search::options::MctsOptions;
use glacier_core::search::report::AlphaBetaLimits;
use glacier_core::session::MoveList;
use glacier_core::{with_game, ActionEncoding, FullGame, Game, Notation, Observation};
use glacier_core::{ParamValue, Session};
use std::collections::HashMap;

#[test]
fn games_are_found_by_their_names_in_registry_order() {
    let names: Vec<&str> = AnyGame::ALL.iter().map(|g| g.name()).collect();
    assert_eq!(names, GAME_NAMES);
    for (i, &game) in AnyGame::ALL.iter().enumerate() {
        assert_eq!(AnyGame::named(game.name()), Ok(game));
        assert_eq!(game.index(), i);
        with_game!(game.name(), G => {
            assert_eq!(game.num_distinct_actions(), G::NUM_DISTINCT_ACTIONS);
            assert_eq!(game.observation_shape(), G::OBSERVATION_SHAPE);
            assert_eq!(game.title(), G::TITLE);
        }, _ => unreachable!());
    }
    let unknown = AnyGame::named("no_such_game").unwrap_err();
    assert_eq!(
        unknown.to_string(),
        format!(
            "unknown game 'no_such_game'; glacier has: {}",
            GAME_NAMES.join(", ")
        )
    );
}

/// The texts of the moves `Session::list_moves` lists, with their keys, and whether the
/// lister wrote the text of each (it writes those of the moves without a key).
fn listed_texts<G: FullGame>(
    session: &Session<G>,
    list: &mut MoveList<G::Move>,
) -> Vec<(String, Option<usize>, bool)> {
    session.list_moves(list);
    session.move_texts(list, |texts| {
        (0..texts.len())
            .map(|i| {
                let mut text = String::new();
                texts.write_text(i, &mut text);
                (text, texts.text_key(i), texts.text(i).is_some())
            })
            .collect()
    })
}

/// Over seeded random games, action by action (so in the middle of moves too): the lister
/// gives the legal moves in the order of their texts, each once; a text key names one
/// text in every position; only the moves without a key have their texts written; and move
/// `i` of a listing is the move of text `i`.
fn one_lister<G: FullGame>() {
    let mut rng = SplitMix64::new(5);
    let mut list = MoveList::new();
    let mut named: HashMap<usize, String> = HashMap::new();
    let keys = AnyGame::named(G::NAME).expect("a game").text_keys();
    for _ in 0..4 {
        let params = [("max_plies", ParamValue::Int(60))];
        let mut session = Session::<G>::new(&params).expect("a start");
        while !session.state().is_terminal() {
            let listed = listed_texts(&session, &mut list);
            let texts: Vec<String> = listed.iter().map(|(text, _, _)| text.clone()).collect();
            let mut sorted = texts.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(texts, sorted, "{}: in text order, each once", G::NAME);
            let mut expected = Vec::new();
            session.state().generate_moves(&mut |mv| {
                if session.partial().allows(session.state(), mv) {
                    expected.push(session.state().move_text(mv));
                }
            });
            expected.sort();
            assert_eq!(texts, expected, "{}: the legal moves", G::NAME);
            for (i, (text, key, written)) in listed.iter().enumerate() {
                let mv = list.get(i).expect("a listed move");
                assert_eq!(&session.state().move_text(mv), text);
                assert_eq!(*written, key.is_none(), "{}: texts written", G::NAME);
                if let Some(key) = *key {
                    assert!(key < keys, "{}: key {key} of {keys}", G::NAME);
                    let first = named.entry(key).or_insert_with(|| text.clone());
                    assert_eq!(first, text, "{}: key {key} names one text", G::NAME);
                }
            }
            let actions = session.legal_actions();
            let action = actions[rng.below(actions.len() as u64) as usize];
            session.apply_action(action).expect("a legal action");
        }
    }
}

#[test]
fn one_lister_gives_the_legal_moves_in_text_order_with_their_keys() {
    for &name in GAME_NAMES {
        with_game!(name, G => one_lister::<G>(), _ => unreachable!());
    }
}

#[test]
fn a_listed_move_is_played_while_its_listing_is_the_sessions() {
    for &game in AnyGame::ALL {
        let mut session: AnySession = game.session(None, &[]).expect("a start");
        let texts: Vec<String> = session.list_moves(|texts, kept| {
            assert!(kept);
            (0..texts.len())
                .map(|i| {
                    let mut text = String::new();
                    texts.write_text(i, &mut text);
                    text
                })
                .collect()
        });
        assert_eq!(texts, session.legal_moves(), "{game}");
        let last = texts.len() - 1;
        let mut by_text = session.clone();
        by_text.play(&texts[last]).expect("a legal move");
        let copy = session.clone();
        assert!(session.play_listed(last), "{game}");
        assert_eq!(
            session.text(),
            by_text.text(),
            "{game}: the move of its text"
        );
        assert_eq!(session.moves_played(), [texts[last].clone()]);
        // The listing is gone with the change, and a copy never had it.
        assert!(!session.play_listed(0), "{game}");
        let mut copy = copy;
        assert!(!copy.play_listed(0), "{game}: a copy keeps no listing");
        session.undo().expect("a move to undo");
        session.list_moves(|_, _| ());
        assert!(!session.play_listed(texts.len()), "{game}: no such move");
        assert!(session.play_listed(0), "{game}");
    }
}

#[test]
fn the_session_tells_what_the_game_does() {
    for &game in AnyGame::ALL {
        with_game!(game.name(), G => {
            let mut any = game.session(None, &[("max_plies", ParamValue::Int(7))]).expect("a start");
            let mut session = Session::<G>::new(&[("max_plies", ParamValue::Int(7))]).expect("a start");
            assert_eq!(any.max_game_length(), 7 * G::MAX_CHOSEN_ACTIONS as u64);
            let mut rng = SplitMix64::new(3);
            while !session.state().is_terminal() {
                let actions = session.legal_actions();
                assert_eq!(any.legal_actions(<[usize]>::to_vec), actions);
                let action = actions[rng.below(actions.len() as u64) as usize];
                session.apply_action(action).expect("a legal action");
                any.apply_action(action).expect("a legal action");
                assert_eq!(any.text(), session.state().text());
                assert_eq!(any.pending_actions(), session.pending_actions().iter().collect::<Vec<_>>());
                if !session.partial().is_empty() {
                    let err = any.search_root().unwrap_err();
                    assert!(err.to_string().contains("middle of one"), "{err}");
                }
            }
            assert!(any.is_terminal());
            assert_eq!(any.returns(), session.state().outcome().returns(session.state().num_players()));
            assert_eq!(any.action_history(), session.action_history());
        }, _ => unreachable!());
    }
}

#[test]
fn environments_play_whole_moves_between_moves_only() {
    for &game in AnyGame::ALL {
        let start = game
            .state(None, &[("max_plies", ParamValue::Int(1))])
            .expect("a start");
        let mut env = start.env(2, false, 1, 1).expect("environments");
        let text = game.session(None, &[]).expect("a start").legal_moves()[0].clone();
        let mut returns = vec![0.0; env.num_players()];
        let result = env.play_move(0, &text, &mut returns).expect("a legal move");
        assert!(
            result.terminated || result.truncated,
            "{game}: one ply and over"
        );
        let err = env.play_move(0, &text, &mut returns).unwrap_err();
        assert!(
            err.to_string().contains("its game is over"),
            "{game}: {err}"
        );
        assert!(
            env.play_move(2, &text, &mut returns).is_err(),
            "{game}: no environment 2"
        );
        assert!(env.play_move(1, "no such move", &mut returns).is_err());
        env.play_move(1, &text, &mut returns).expect("a legal move");
    }
}

#[test]
fn a_search_takes_states_of_its_own_game_between_moves() {
    let never = Interrupt::never();
    let settings = MctsOptions::default().settings().expect("defaults");
    // Two games of the registry: a search of the first refuses a state of the second.
    let (game, other) = (AnyGame::ALL[0], AnyGame::ALL[1]);
    let mut searcher = game.searcher(settings);
    let root = other.state(None, &[]).expect("a start");
    let err = searcher
        .search(&root, Some(8), None, 0.0, &never)
        .unwrap_err();
    let expected = format!("this search is for {game}, not for a {other} state");
    assert!(format!("{err:?}").contains(&expected), "{err:?}");
    let root = game.state(None, &[]).expect("a start");
    let report = searcher
        .search(&root, Some(16), None, 0.0, &never)
        .expect("a search");
    assert_eq!(report.simulations, 16);
    assert!(searcher.tree_size() > 0);
    let limits = AlphaBetaLimits::new(Some(2), None).expect("limits");
    let report = root.alphabeta(limits, &never).expect("a search");
    assert_eq!(report.depth, 2);
    let lengths: Vec<u32> = root
        .playouts(8, 3, 2, None, &never)
        .expect("playouts")
        .iter()
        .map(|p| p.length)
        .collect();
    let one_thread: Vec<u32> = root
        .playouts(8, 3, 1, None, &never)
        .expect("playouts")
        .iter()
        .map(|p| p.length)
        .collect();
    assert_eq!(lengths, one_thread);
}

#[test]
fn record_texts_read_back_as_the_moves_they_write() {
    for &game in AnyGame::ALL {
        let state = game.state(None, &[]).expect("a start");
        let moves = game.session(None, &[]).expect("a start").legal_moves();
        let mut differ = 0;
        for text in &moves {
            let record = state.record_move_text(text).expect("a legal move");
            assert_eq!(&state.move_of_record(&record).expect("a record move"), text);
            differ += usize::from(&record != text);
        }
        // Only the game that plays chess writes its records in a notation of their own (SAN).
        assert_eq!(differ > 0, game == AnyGame::chess(), "{game}");
        assert!(state.record_move_text("no such move").is_err());
        assert!(state.move_of_record("no such move").is_err());
    }
}
