//! For the games' own tests: every search finds a forced win (a position one move from
//! winning, hand-built by each game in its folder).

use super::alphabeta::{alphabeta, plies_to_end};
use super::evaluate::LeafEvaluation;
use super::mcts::{choose, search, MctsConfig, Selection, Tree};
use super::{Budget, Heuristic};
use crate::game::{params_for_text, Notation};
use crate::rng::SplitMix64;
use crate::ParamValue;
use std::sync::atomic::AtomicBool;

/// The state of `text` with `params`.
pub(crate) fn state<G: Notation>(text: &str, params: &[(&str, ParamValue)]) -> G {
    let params = params_for_text::<G>(text, params).expect("valid parameters");
    G::from_text(text, &params).expect("valid position")
}

pub(crate) fn budget(stop: &AtomicBool, limit: u64) -> Budget<'_> {
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
pub(crate) fn all_find<G: Heuristic + Notation>(root: &G, best: &str) {
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
