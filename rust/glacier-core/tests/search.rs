//! The searches on hand-built positions whose best move is forced, and the promises of
//! reproducibility: the same seed gives the same search.

use glacier_core::game::{params_for_text, Notation};
use glacier_core::games::ice_age_chess::IceAgeChess;
use glacier_core::games::ice_cube_checkers::IceCubeCheckers;
use glacier_core::games::kings_court::KingsCourt;
use glacier_core::rng::SplitMix64;
use glacier_core::search::alphabeta::{alphabeta, plies_to_end};
use glacier_core::search::evaluate::LeafEvaluation;
use glacier_core::search::mcts::{
    choose, merge_stats, search, search_forest, search_shared, BatchSearch, MctsConfig, Selection,
    Tree,
};
use glacier_core::search::{Budget, Heuristic};
use glacier_core::{Game, ParamValue};
use std::sync::atomic::AtomicBool;

fn state<G: Notation>(text: &str, params: &[(&str, ParamValue)]) -> G {
    let params = params_for_text::<G>(text, params).expect("valid parameters");
    G::from_text(text, &params).expect("valid position")
}

fn budget(stop: &AtomicBool, limit: u64) -> Budget<'_> {
    Budget {
        limit: Some(limit),
        deadline: None,
        stop,
    }
}

/// The move MCTS chooses after `simulations` with `evaluation`.
fn mcts_move<G: Heuristic + Notation>(
    root: &G,
    evaluation: LeafEvaluation,
    simulations: u64,
    seed: u64,
) -> String {
    mcts_move_with(root, &MctsConfig::default(), evaluation, simulations, seed)
}

/// The move MCTS chooses after `simulations` with `config` and `evaluation`.
fn mcts_move_with<G: Heuristic + Notation>(
    root: &G,
    config: &MctsConfig,
    evaluation: LeafEvaluation,
    simulations: u64,
    seed: u64,
) -> String {
    let stop = AtomicBool::new(false);
    let mut tree = Tree::new(root.clone(), seed).expect("a tree");
    let done = search(&mut tree, config, evaluation, &budget(&stop, simulations));
    assert_eq!(done, simulations);
    let stats = tree.root_stats();
    assert_eq!(stats.visits, simulations);
    let mv = choose(&stats, root.current_player(), 0.0, &mut SplitMix64::new(0)).expect("a move");
    root.move_text(mv)
}

/// Checks that MCTS (rollouts, cut rollouts and the heuristic) and alpha-beta all find
/// `best` in `root`.
fn all_find<G: Heuristic + Notation>(root: &G, best: &str) {
    for evaluation in [
        LeafEvaluation::Rollout { plies: None },
        LeafEvaluation::Rollout { plies: Some(4) },
        LeafEvaluation::Heuristic,
        LeafEvaluation::GuidedRollout {
            plies: Some(4),
            temperature: 1.0,
        },
    ] {
        assert_eq!(mcts_move(root, evaluation, 400, 1), best, "{evaluation:?}");
    }
    // With the game's own priors, selected by PUCT.
    let config = MctsConfig {
        selection: Selection::Puct,
        exploration: 1.5,
        move_priors: Some(1.0),
        ..MctsConfig::default()
    };
    for evaluation in [
        LeafEvaluation::Rollout { plies: Some(4) },
        LeafEvaluation::Heuristic,
    ] {
        assert_eq!(
            mcts_move_with(root, &config, evaluation, 400, 1),
            best,
            "{evaluation:?} with priors"
        );
    }
    let stop = AtomicBool::new(false);
    let result = alphabeta(root, &budget(&stop, 3)).expect("a result");
    assert_eq!(root.move_text(result.best), best);
    assert_eq!(plies_to_end(result.score), Some(1), "a win in one ply");
    assert_eq!(
        result.depth, 1,
        "iterative deepening stops at the forced win"
    );
}

#[test]
fn mate_in_one_in_chess() {
    // The back-rank mate Ra8#, in standard chess and with the Ice Age on.
    let text = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
    for period in [0, 20] {
        let chess: IceAgeChess = state(text, &[("ice_age_period", ParamValue::Int(period))]);
        all_find(&chess, "a1a8");
    }
}

#[test]
fn winning_sow_in_ice_cube_checkers() {
    // The King in c is nobody's; White's cube from b lands on it, and White then holds
    // both King slots (d already).
    let checkers: IceCubeCheckers = state("W/W/K/WK/W/W/B/B/B/B/B/- w 10", &[]);
    all_find(&checkers, "b:W");
}

#[test]
fn emptying_the_opponents_court_in_kings_court() {
    // Green's only Court piece, d4, is jumped from d3: Green has none left and loses.
    let court: KingsCourt = state("7G/8/8/8/3G4/3R4/8/R7 r 10", &[]);
    all_find(&court, "d3xd5");
}

#[test]
fn the_same_seed_gives_the_same_search() {
    let chess: IceAgeChess = state(
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        &[("ice_age_period", ParamValue::Int(0))],
    );
    let stop = AtomicBool::new(false);
    let config = MctsConfig::default();
    let evaluation = LeafEvaluation::Rollout { plies: Some(20) };
    let run = |seed: u64| {
        let mut tree = Tree::new(chess.clone(), seed).expect("a tree");
        search(&mut tree, &config, evaluation, &budget(&stop, 300));
        tree.root_stats()
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5), run(6));
    // Root-parallel: four trees, the same whatever the thread count.
    let forest = |threads: usize| {
        let mut trees: Vec<Tree<IceAgeChess>> = (0..4)
            .map(|i| Tree::new(chess.clone(), 100 + i).expect("a tree"))
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
        merge_stats(&all, 2)
    };
    let one = forest(1);
    assert_eq!(one, forest(2));
    assert_eq!(one, forest(4));
    assert_eq!(one.visits, 400);
    assert_eq!(one.moves.iter().map(|m| m.visits).sum::<u64>(), 400 - 4);
}

#[test]
fn tree_parallel_runs_every_simulation_once() {
    let chess: IceAgeChess = state("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", &[]);
    let stop = AtomicBool::new(false);
    let mut tree = Tree::new(chess.clone(), 3).expect("a tree");
    let evaluation = LeafEvaluation::Rollout { plies: None };
    let done = search_shared(
        &mut tree,
        &MctsConfig::default(),
        evaluation,
        &budget(&stop, 2000),
        3,
        9,
    );
    assert_eq!(done, 2000);
    let stats = tree.root_stats();
    assert_eq!(stats.visits, 2000);
    let mv = choose(&stats, 0, 0.0, &mut SplitMix64::new(0)).expect("a move");
    assert_eq!(chess.move_text(mv), "a1a8");
}

#[test]
fn tree_reuse_keeps_the_subtree_of_the_position_reached() {
    let court = KingsCourt::start(&Default::default());
    let stop = AtomicBool::new(false);
    let mut tree = Tree::new(court.clone(), 1).expect("a tree");
    let config = MctsConfig::default();
    search(
        &mut tree,
        &config,
        LeafEvaluation::Heuristic,
        &budget(&stop, 500),
    );
    let stats = tree.root_stats();
    let first = choose(&stats, 0, 0.0, &mut SplitMix64::new(0)).expect("a move");
    let mut next = court.clone();
    next.play_unchecked(first);
    let reply = next.nth_move(0).expect("a reply");
    next.play_unchecked(reply);
    let kept_before = {
        let mut probe = tree.clone();
        assert!(probe.advance(2, |s| s.text() == next.text()));
        probe.root_stats().visits
    };
    assert!(tree.advance(2, |s| s.text() == next.text()));
    assert_eq!(tree.root().text(), next.text());
    assert_eq!(tree.root_stats().visits, kept_before);
    assert!(kept_before > 0);
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
    let elsewhere = KingsCourt::start(&Default::default());
    assert!(!tree.advance(2, |s| s.text() == elsewhere.text()));
}

#[test]
fn batched_search_with_uniform_priors_finds_the_mate() {
    let chess: IceAgeChess = state("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", &[]);
    let mut trees: Vec<Tree<IceAgeChess>> = (0..3)
        .map(|i| Tree::new(chess.clone(), i).expect("a tree"))
        .collect();
    let config = MctsConfig {
        selection: Selection::Puct,
        exploration: 1.5,
        ..MctsConfig::default()
    };
    let mut batch = BatchSearch::new(&mut trees, config, 300);
    let mut calls = 0;
    while !batch.finished() {
        let n = batch.gather(4);
        let mut priors = Vec::new();
        for i in 0..n {
            let (_, _, moves) = batch.leaf(i);
            priors.extend(std::iter::repeat_n(1.0 / moves.len() as f32, moves.len()));
        }
        batch.apply(&priors, &vec![0.0; n * 2]);
        calls += 1;
    }
    assert!(batch.simulations().iter().all(|&s| s == 300));
    assert!(
        calls < 300,
        "leaves are gathered several at a time: {calls} calls"
    );
    for tree in &trees {
        let stats = tree.root_stats();
        let mv = choose(&stats, 0, 0.0, &mut SplitMix64::new(0)).expect("a move");
        assert_eq!(chess.move_text(mv), "a1a8");
    }
}
