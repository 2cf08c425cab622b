//! Self-play in the engine (`search::selfplay`), in every game: each row is what the game
//! shows at that action (replayed through a `Session`), the policies and returns are the
//! search's and the game's, and a game depends only on the run's seed and its number (not
//! on the games played beside it, the threads or the evaluator's batches).

#[macro_use]
mod common;

use common::{more_players, net};
use glacier_core::game::params_from;
use glacier_core::games::GAME_NAMES;
use glacier_core::interrupt::{Interrupt, Stopped, Watch};
use glacier_core::search::batch::{run_batch, run_batch_split};
use glacier_core::search::evaluate::LeafEvaluation;
use glacier_core::search::mcts::{MctsConfig, Tree};
use glacier_core::search::options::{MctsOptions, SearchSettings};
use glacier_core::search::searcher::SearchError;
use glacier_core::search::selfplay::{
    engine_round, play_games, play_games_split, self_play, SelfPlayConfig, SelfPlayLeaves,
    SelfPlayRows, SelfPlayRun,
};
use glacier_core::search::Heuristic;
use glacier_core::{with_game, Error, FullGame, ParamValue, Session};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

fn config() -> MctsConfig {
    MctsOptions {
        selection: "puct",
        c_puct: 1.5,
        dirichlet_fraction: 0.25,
        ..MctsOptions::default()
    }
    .settings()
    .map(|s: SearchSettings| s.config)
    .expect("valid options")
}

fn selfplay_config(concurrent: usize) -> SelfPlayConfig {
    SelfPlayConfig {
        simulations: 24,
        temperature: 1.0,
        temperature_moves: 4,
        max_moves: Some(30),
        concurrent,
    }
}

/// Games `games` seeded 7, the leaves evaluated by the stand-in net in batches of 2 per
/// tree, the trees split over `threads`.
fn with_net<G: FullGame + Heuristic>(
    start: &G,
    games: std::ops::Range<u64>,
    concurrent: usize,
    threads: usize,
) -> SelfPlayRows {
    let never = Interrupt::never();
    let evaluator = net(false);
    let mut rounds = 0;
    let rows = play_games(
        start,
        games,
        7,
        &selfplay_config(concurrent),
        |trees: &mut [Tree<G>]| {
            run_batch_split(trees, config(), 24, 2, &evaluator, threads, &never)?;
            Ok(())
        },
        &never,
        |made| {
            assert!(made >= 1 && made <= concurrent);
            rounds += 1;
            Ok(())
        },
    )
    .expect("self-play");
    assert!(rounds > 0);
    rows
}

/// [`with_net`] with whole games played on `threads` threads, each with its own clone of
/// the net.
fn with_net_split<G: FullGame + Heuristic + Send + Sync>(
    start: &G,
    games: std::ops::Range<u64>,
    concurrent: usize,
    threads: usize,
) -> SelfPlayRows {
    let never = Interrupt::never();
    let evaluator = net(false);
    let rounds = AtomicUsize::new(0);
    let rows = play_games_split(
        start,
        games,
        7,
        &selfplay_config(concurrent),
        threads,
        || {
            let mut evaluator = evaluator.clone();
            move |trees: &mut [Tree<G>], watch: &mut Watch<'_, '_>| {
                run_batch(trees, config(), 24, 2, &mut evaluator, watch)?;
                Ok(())
            }
        },
        &never,
        |made| {
            assert!(made >= 1 && made <= concurrent);
            rounds.fetch_add(1, Ordering::Relaxed);
            Ok(())
        },
    )
    .expect("self-play");
    assert!(rounds.into_inner() > 0);
    rows
}

/// Replays every game of `rows` from `start`, checking each row against the game.
fn check_rows<G: FullGame>(start: &G, rows: &SelfPlayRows, games: std::ops::Range<u64>) {
    let obs_size: usize = G::OBSERVATION_SHAPE.iter().product();
    let (actions, players) = (G::NUM_DISTINCT_ACTIONS, start.num_players());
    let n = rows.len();
    assert_eq!(rows.observation.len(), n * obs_size);
    assert_eq!(rows.legal_mask.len(), n * actions);
    assert_eq!(rows.policy.len(), n * actions);
    assert_eq!(rows.returns.len(), n * players);
    assert_eq!(rows.root_values.len(), n * players);
    let mut seen = Vec::new();
    let mut session = Session::from_state(start.clone());
    let mut observation = vec![0.0; obs_size];
    let mut mask = vec![false; actions];
    for i in 0..n {
        let game = rows.game[i] as u64;
        if seen.last() != Some(&game) {
            // A new game: the one before ended (or reached the move limit) at its last row.
            assert!(!seen.contains(&game), "{}: game {game} split", G::NAME);
            seen.push(game);
            session = Session::from_state(start.clone());
        }
        let state = session.state();
        assert_eq!(rows.player[i] as usize, state.current_player());
        assert_eq!(rows.ply[i] as usize, session.ply_count());
        assert_eq!(rows.searched[i], session.partial().is_empty());
        observation.fill(0.0);
        session.observe(state.current_player(), &mut observation);
        assert_eq!(
            &rows.observation[i * obs_size..(i + 1) * obs_size],
            &observation[..]
        );
        mask.fill(false);
        session.partial().write_mask(state, &mut mask);
        let row_mask = &rows.legal_mask[i * actions..(i + 1) * actions];
        assert_eq!(row_mask, &mask[..]);
        assert_eq!(
            rows.legal_count[i] as usize,
            mask.iter().filter(|&&b| b).count()
        );
        let policy = &rows.policy[i * actions..(i + 1) * actions];
        let total: f32 = policy.iter().sum();
        assert!(
            (total - 1.0).abs() < 1e-4,
            "{}: policy sums to {total}",
            G::NAME
        );
        assert!(policy
            .iter()
            .zip(row_mask)
            .all(|(&p, &legal)| legal || p == 0.0));
        let action = rows.action[i] as usize;
        assert!(mask[action]);
        if !rows.searched[i] {
            assert_eq!(policy[action], 1.0);
        }
        session.apply_action(action).expect("a legal action");
        let last_of_game = i + 1 == n || rows.game[i + 1] as u64 != game;
        if last_of_game {
            let returns = &rows.returns[i * players..(i + 1) * players];
            let state = session.state();
            if state.is_terminal() {
                assert_eq!(returns, &state.outcome().returns(players)[..]);
            } else {
                assert_eq!(session.ply_count(), 30, "{}: unfinished game", G::NAME);
                assert!(returns.iter().all(|&r| r == 0.0));
            }
        }
    }
    assert_eq!(
        seen,
        games.collect::<Vec<_>>(),
        "{}: every game, in order",
        G::NAME
    );
}

fn selfplay<G: FullGame + Heuristic + Send + Sync>(params: &[(&str, ParamValue)]) {
    let start = G::start(&params_from::<G>(params).expect("valid parameters"));
    let rows = with_net(&start, 3..8, 3, 1);
    check_rows(&start, &rows, 3..8);
    // A game is the same whatever is played beside it, however the trees are split and
    // on whichever thread it is played.
    assert_eq!(with_net(&start, 3..8, 5, 2), rows, "{}", G::NAME);
    for (concurrent, threads) in [(4, 1), (4, 2), (4, 3), (1, 2)] {
        assert_eq!(
            with_net_split(&start, 3..8, concurrent, threads),
            rows,
            "{}",
            G::NAME
        );
    }
    let alone = with_net(&start, 5..6, 1, 1);
    let at = rows.game.iter().position(|&g| g == 5).expect("game 5");
    assert_eq!(
        alone.action[..],
        rows.action[at..at + alone.len()],
        "{}",
        G::NAME
    );
}

fn selfplay_in_every_count<G: FullGame + Heuristic + Send + Sync>() {
    selfplay::<G>(&[]);
    for n in more_players::<G>() {
        selfplay::<G>(&[("players", ParamValue::Int(n))]);
    }
}

#[test]
fn selfplay_records_what_each_game_shows_in_every_game() {
    every_game!(selfplay_in_every_count);
}

fn with_engine<G: FullGame + Heuristic + Send + Sync>() {
    let start = G::start(&params_from::<G>(&[]).expect("valid parameters"));
    let never = Interrupt::never();
    let stop = AtomicBool::new(false);
    let rows = play_games(
        &start,
        0..4,
        11,
        &selfplay_config(4),
        |trees: &mut [Tree<G>]| {
            engine_round(trees, &config(), LeafEvaluation::Heuristic, 24, &stop);
            Ok(())
        },
        &never,
        |_| Ok(()),
    )
    .expect("self-play");
    check_rows(&start, &rows, 0..4);
    for threads in [1, 2] {
        let split = play_games_split(
            &start,
            0..4,
            11,
            &selfplay_config(4),
            threads,
            || {
                |trees: &mut [Tree<G>], _: &mut Watch<'_, '_>| {
                    engine_round(trees, &config(), LeafEvaluation::Heuristic, 24, &stop);
                    Ok(())
                }
            },
            &never,
            |_| Ok(()),
        )
        .expect("self-play");
        assert_eq!(split, rows, "{}", G::NAME);
    }
}

#[test]
fn selfplay_with_the_engines_evaluation_in_every_game() {
    every_game!(with_engine);
}

/// `self_play` plays as its parts do, whatever evaluates the leaves: on the searcher's two
/// threads for the engine's evaluation and for a net cloned per thread, on the calling thread
/// for an evaluator that does not clone.
fn policy<G: FullGame + Heuristic>() {
    let start = G::start(&params_from::<G>(&[]).expect("valid parameters"));
    let never = Interrupt::never();
    let settings = MctsOptions {
        selection: "puct",
        c_puct: 1.5,
        dirichlet_fraction: 0.25,
        evaluator: "heuristic",
        threads: 2,
        ..MctsOptions::default()
    }
    .settings()
    .expect("valid options");
    let run = SelfPlayRun {
        games: 3..8,
        seed: 7,
        config: selfplay_config(3),
        settings,
        per_tree: 2,
    };
    let rounds = AtomicUsize::new(0);
    let on_round = |made: usize| {
        assert!((1..=3).contains(&made));
        rounds.fetch_add(1, Ordering::Relaxed);
        Ok(())
    };
    let evaluator = net(false);
    let rows = with_net(&start, 3..8, 3, 1);
    let cloned = self_play(
        &start,
        &run,
        SelfPlayLeaves::Cloned(&evaluator),
        &never,
        on_round,
    );
    assert_eq!(cloned.expect("self-play"), rows, "{}", G::NAME);
    let mut single = net(false);
    let leaves = SelfPlayLeaves::<glacier_core::net::NetEvaluator>::Single(&mut single);
    let alone = self_play(&start, &run, leaves, &never, on_round);
    assert_eq!(alone.expect("self-play"), rows, "{}", G::NAME);
    let stop = AtomicBool::new(false);
    let engine = play_games(
        &start,
        3..8,
        7,
        &selfplay_config(3),
        |trees: &mut [Tree<G>]| {
            engine_round(trees, &config(), LeafEvaluation::Heuristic, 24, &stop);
            Ok(())
        },
        &never,
        |_| Ok(()),
    );
    let leaves = SelfPlayLeaves::<glacier_core::net::NetEvaluator>::Engine;
    let split = self_play(&start, &run, leaves, &never, on_round);
    assert_eq!(
        split.expect("self-play"),
        engine.expect("self-play"),
        "{}",
        G::NAME
    );
    assert!(rounds.into_inner() > 0);
}

#[test]
fn self_play_spreads_games_by_what_evaluates_the_leaves_in_every_game() {
    every_game!(policy);
}

fn stopped<G: FullGame + Heuristic + Send + Sync>() {
    let start = G::start(&params_from::<G>(&[]).expect("valid parameters"));
    let rounds = AtomicUsize::new(0);
    let check = || rounds.load(Ordering::Relaxed) >= 2;
    let interrupt = Interrupt::new(&check);
    let evaluator = net(true);
    let err = play_games(
        &start,
        0..4,
        1,
        &selfplay_config(4),
        |trees: &mut [Tree<G>]| {
            run_batch_split(trees, config(), 24, 1, &evaluator, 1, &interrupt)?;
            Ok(())
        },
        &interrupt,
        |_| {
            rounds.fetch_add(1, Ordering::Relaxed);
            Ok(())
        },
    )
    .expect_err("stopped");
    assert_eq!(
        err,
        SearchError::Stopped(Stopped::Interrupted),
        "{}",
        G::NAME
    );
    // An error of the progress callback ends the run with that error.
    let never = Interrupt::never();
    let stop = AtomicBool::new(false);
    let err = play_games(
        &start,
        0..4,
        1,
        &selfplay_config(4),
        |trees: &mut [Tree<G>]| {
            engine_round(trees, &config(), LeafEvaluation::Heuristic, 4, &stop);
            Ok(())
        },
        &never,
        |_| Err(Error::Evaluator("no more".to_string())),
    )
    .expect_err("a failing callback");
    let no_more = SearchError::Error(Error::Evaluator("no more".to_string()));
    assert_eq!(err, no_more);
    // So on threads: an interrupt, or a callback failing on any of them.
    let rounds = AtomicUsize::new(0);
    let check = || rounds.load(Ordering::Relaxed) >= 2;
    let interrupt = Interrupt::new(&check);
    let split = |interrupt: &Interrupt<'_>, fail: bool| {
        play_games_split(
            &start,
            0..8,
            1,
            &selfplay_config(4),
            2,
            || {
                |trees: &mut [Tree<G>], _: &mut Watch<'_, '_>| {
                    engine_round(
                        trees,
                        &config(),
                        LeafEvaluation::Heuristic,
                        4,
                        interrupt.flag(),
                    );
                    Ok(())
                }
            },
            interrupt,
            |_| {
                rounds.fetch_add(1, Ordering::Relaxed);
                if fail {
                    return Err(Error::Evaluator("no more".to_string()));
                }
                // Long enough for the caller's thread to see the check's answer.
                std::thread::sleep(std::time::Duration::from_millis(30));
                Ok(())
            },
        )
        .expect_err("stopped")
    };
    let err = split(&interrupt, false);
    assert_eq!(
        err,
        SearchError::Stopped(Stopped::Interrupted),
        "{}",
        G::NAME
    );
    assert_eq!(split(&never, true), no_more, "{}", G::NAME);
}

#[test]
fn an_interrupt_or_a_failing_callback_stops_selfplay() {
    every_game!(stopped);
}
