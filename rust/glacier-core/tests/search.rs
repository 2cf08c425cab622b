//! The promises of reproducibility, in every game: the same seed gives the same search,
//! whatever the threads; a kept tree goes on from the position reached; and a search
//! depends on the position alone, not on how the state got there. (Each game checks in
//! its own folder that every search finds its forced wins.)

use glacier_core::game::params_from;
use glacier_core::games::GAME_NAMES;
use glacier_core::interrupt::Interrupt;
use glacier_core::rng::SplitMix64;
use glacier_core::search::evaluate::LeafEvaluation;
use glacier_core::search::mcts::{
    choose, merge_stats, search, search_forest, search_shared, MctsConfig, Tree,
};
use glacier_core::search::options::MctsOptions;
use glacier_core::search::searcher::{SearchReport, Searcher};
use glacier_core::search::{Budget, Heuristic};
use glacier_core::{with_game, FullGame, Game, Notation, ParamValue};
use std::sync::atomic::AtomicBool;

fn budget(stop: &AtomicBool, limit: u64) -> Budget<'_> {
    Budget {
        limit: Some(limit),
        deadline: None,
        stop,
    }
}

/// The start of `G` with `params`, `plies` random plies on (fewer if the game ends).
fn played<G: Game>(params: &[(&str, ParamValue)], plies: usize, seed: u64) -> G {
    let mut state = G::start(&params_from::<G>(params).expect("valid parameters"));
    let mut rng = SplitMix64::new(seed);
    for _ in 0..plies {
        let mut moves = Vec::new();
        state.generate_moves(&mut |mv| moves.push(mv));
        let next = moves[rng.below(moves.len() as u64) as usize];
        let mut after = state.clone();
        after.play_unchecked(next);
        if after.is_terminal() {
            break;
        }
        state = after;
    }
    state
}

/// Runs `check::<G>` for every game.
macro_rules! every_game {
    ($check:ident) => {
        for &name in GAME_NAMES {
            with_game!(name, G => $check::<G>(), _ => unreachable!());
        }
    };
}

fn same_seed_same_search<G: FullGame + Heuristic>() {
    let root: G = played(&[], 4, 1);
    let stop = AtomicBool::new(false);
    let config = MctsConfig::default();
    let evaluation = LeafEvaluation::Rollout { plies: Some(20) };
    let run = |seed: u64| {
        let mut tree = Tree::new(root.clone(), seed).expect("a tree");
        search(&mut tree, &config, evaluation, &budget(&stop, 300));
        tree.root_stats()
    };
    assert_eq!(run(5), run(5), "{}", G::NAME);
    assert_ne!(run(5), run(6), "{}", G::NAME);
    // Root-parallel: four trees, the same whatever the thread count.
    let forest = |threads: usize| {
        let mut trees: Vec<Tree<G>> = (0..4)
            .map(|i| Tree::new(root.clone(), 100 + i).expect("a tree"))
            .collect();
        let done = search_forest(
            &mut trees,
            &config,
            evaluation,
            &budget(&stop, 400),
            threads,
        );
        assert_eq!(done, 400);
        let all: Vec<_> = trees.iter().map(Tree::root_stats).collect();
        merge_stats(&all, root.num_players())
    };
    let one = forest(1);
    assert_eq!(one, forest(2), "{}", G::NAME);
    assert_eq!(one, forest(4), "{}", G::NAME);
    assert_eq!(one.visits, 400);
    assert_eq!(one.moves.iter().map(|m| m.visits).sum::<u64>(), 400 - 4);
}

#[test]
fn the_same_seed_gives_the_same_search() {
    every_game!(same_seed_same_search);
}

fn every_simulation_once<G: FullGame + Heuristic>() {
    let root: G = played(&[], 2, 2);
    let stop = AtomicBool::new(false);
    let mut tree = Tree::new(root, 3).expect("a tree");
    let evaluation = LeafEvaluation::Rollout { plies: Some(40) };
    let done = search_shared(
        &mut tree,
        &MctsConfig::default(),
        evaluation,
        &budget(&stop, 2000),
        3,
        9,
    );
    assert_eq!(done, 2000, "{}", G::NAME);
    assert_eq!(tree.root_stats().visits, 2000, "{}", G::NAME);
}

#[test]
fn tree_parallel_runs_every_simulation_once() {
    every_game!(every_simulation_once);
}

fn reuse_keeps_the_subtree<G: FullGame + Heuristic>() {
    let start = G::start(&params_from::<G>(&[]).expect("defaults"));
    let stop = AtomicBool::new(false);
    let mut tree = Tree::new(start.clone(), 1).expect("a tree");
    let config = MctsConfig::default();
    search(
        &mut tree,
        &config,
        LeafEvaluation::Heuristic,
        &budget(&stop, 2000),
    );
    let stats = tree.root_stats();
    let first = choose(&stats, 0, 0.0, &mut SplitMix64::new(0)).expect("a move");
    let mut next = start.clone();
    next.play_unchecked(first);
    let reply = next.nth_move(0).expect("a reply");
    next.play_unchecked(reply);
    let kept_before = {
        let mut probe = tree.clone();
        assert!(probe.advance(2, |s| s.text() == next.text()), "{}", G::NAME);
        probe.root_stats().visits
    };
    assert!(tree.advance(2, |s| s.text() == next.text()));
    assert_eq!(tree.root().text(), next.text());
    assert_eq!(tree.root_stats().visits, kept_before);
    assert!(kept_before > 0, "{}", G::NAME);
    // The kept tree goes on searching from there.
    let done = search(
        &mut tree,
        &config,
        LeafEvaluation::Heuristic,
        &budget(&stop, 100),
    );
    assert_eq!(done, 100);
    assert_eq!(tree.root_stats().visits, kept_before + 100);
    // A position that is not in the tree is not found.
    assert!(
        !tree.advance(2, |s| s.text() == start.text()),
        "{}",
        G::NAME
    );
}

#[test]
fn tree_reuse_keeps_the_subtree_of_the_position_reached() {
    every_game!(reuse_keeps_the_subtree);
}

/// Every parameter set `G` declares to exercise its variants.
fn variants<G: FullGame>() -> Vec<Vec<(&'static str, ParamValue)>> {
    G::FACTS
        .variants
        .iter()
        .map(|v| v.iter().map(|&(k, x)| (k, ParamValue::Int(x))).collect())
        .collect()
}

/// The legal moves of `state` as texts, in generation order.
fn move_texts<G: Notation>(state: &G) -> Vec<String> {
    let mut out = Vec::new();
    state.generate_moves(&mut |mv| out.push(state.move_text(mv)));
    out
}

fn canonical_is_as_read<G: FullGame>() {
    for params in variants::<G>() {
        for seed in 0..4 {
            let mut rng = SplitMix64::new(seed);
            let mut state = G::start(&params_from::<G>(&params).expect("valid parameters"));
            for _ in 0..120 {
                let canonical = state.canonical();
                let read = G::from_text(&state.text(), state.params()).expect("reads back");
                assert_eq!(move_texts(&canonical), move_texts(&read), "{}", G::NAME);
                assert_eq!(canonical.hash(), read.hash());
                assert_eq!(canonical.text(), read.text());
                assert_eq!(canonical.text(), state.text());
                assert_eq!(canonical.outcome(), read.outcome());
                assert_eq!(canonical.current_player(), read.current_player());
                let mut moves = Vec::new();
                state.generate_moves(&mut |mv| moves.push(mv));
                if moves.is_empty() {
                    break;
                }
                state.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
    }
}

/// A state's canonical form is the state read from its text, as far as a search sees:
/// the same legal moves in the same order, the same hash, text and outcome.
#[test]
fn the_canonical_state_is_the_state_read_from_its_text() {
    every_game!(canonical_is_as_read);
}

fn without_time(mut report: SearchReport) -> SearchReport {
    report.seconds = 0.0;
    report
}

fn search_of_the_position_alone<G: FullGame + Heuristic>() {
    let never = Interrupt::never();
    let settings = |threads: i64, parallel: &'static str| {
        MctsOptions {
            rollout_plies: Some(10),
            threads,
            parallel,
            seed: 3,
            ..MctsOptions::default()
        }
        .settings()
        .expect("valid options")
    };
    for params in variants::<G>() {
        let played: Vec<G> = (0..3).map(|seed| played(&params, 12, seed)).collect();
        let read: Vec<G> = played
            .iter()
            .map(|s| G::from_text(&s.text(), s.params()).expect("reads back"))
            .collect();
        for (threads, parallel) in [(1, "tree"), (2, "root")] {
            let search = |roots: &[G]| -> Vec<SearchReport> {
                let mut searcher = Searcher::<G>::new(settings(threads, parallel));
                roots
                    .iter()
                    .map(|root| {
                        let report = searcher
                            .search(root, Some(200), None, 0.0, &never)
                            .expect("a search");
                        without_time(report)
                    })
                    .collect()
            };
            assert_eq!(search(&played), search(&read), "{} {params:?}", G::NAME);
        }
    }
}

/// A search of a state reached by play gives exactly the search of the state read from its
/// text, in every variant of every game.
#[test]
fn a_search_depends_on_the_position_alone() {
    every_game!(search_of_the_position_alone);
}
