//! Searches of chess positions whose best move is forced.

use super::IceAgeChess;
use crate::rng::SplitMix64;
use crate::search::evaluate::LeafEvaluation;
use crate::search::forced_win::{all_find, budget, state};
use crate::search::mcts::{choose, search_shared, BatchSearch, MctsConfig, Selection, Tree};
use crate::{Notation, ParamValue};
use std::sync::atomic::AtomicBool;

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
