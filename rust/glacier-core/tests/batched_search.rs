//! MCTS with a batched evaluator written in Rust (a closure), in every game: the searcher's
//! reports add up, the evaluator sees each leaf's player to move, a mover-only value is
//! the same as every player's value written out, splitting the trees across threads
//! changes nothing, and a bad evaluation is an error that drops the trees.

#[macro_use]
mod common;

use common::{more_players, net};
use glacier_core::game::params_from;
use glacier_core::games::GAME_NAMES;
use glacier_core::interrupt::{Interrupt, Stopped};
use glacier_core::search::batch::{LeafBatch, ValueLayout};
use glacier_core::search::options::{MctsOptions, SearchSettings};
use glacier_core::search::searcher::{SearchError, SearchReport, Searcher};
use glacier_core::search::Heuristic;
use glacier_core::{with_game, Error, FullGame, ParamValue};
use std::sync::atomic::{AtomicUsize, Ordering};

fn settings(threads: i64) -> SearchSettings {
    MctsOptions {
        selection: "puct",
        c_puct: 1.5,
        threads,
        ..MctsOptions::default()
    }
    .settings()
    .expect("valid options")
}

/// The start of `G` and two states a few random plies on.
fn roots<G: FullGame>(params: &[(&str, ParamValue)]) -> Vec<G> {
    let start = G::start(&params_from::<G>(params).expect("valid parameters"));
    let mut out = vec![start.clone()];
    let mut state = start;
    for plies in [3, 4] {
        for k in 0..plies {
            let mut moves = Vec::new();
            state.generate_moves(&mut |mv| moves.push(mv));
            if moves.is_empty() {
                break;
            }
            state.play_unchecked(moves[(k * 7) % moves.len()]);
        }
        if !state.is_terminal() {
            out.push(state.clone());
        }
    }
    out
}

fn without_time(mut reports: Vec<SearchReport>) -> Vec<SearchReport> {
    for r in &mut reports {
        r.seconds = 0.0;
    }
    reports
}

fn batched<G: FullGame + Heuristic>(params: &[(&str, ParamValue)]) {
    let roots: Vec<G> = roots(params);
    let never = Interrupt::never();
    let simulations = 48;
    let mut searcher = Searcher::<G>::new(settings(1));
    let mut evaluator = net(false);
    let reports = searcher
        .search_batch(&roots, &mut evaluator, simulations, 0.0, 4, &never)
        .expect("a search");
    assert_eq!(reports.len(), roots.len());
    for (report, root) in reports.iter().zip(&roots) {
        assert_eq!(report.simulations, simulations, "{}", G::NAME);
        let mut legal = Vec::new();
        root.generate_moves(&mut |mv| legal.push(root.move_text(mv)));
        assert_eq!(report.moves.len(), legal.len());
        assert!(legal.contains(&report.chosen));
        let visits: u64 = report.moves.iter().map(|m| m.visits).sum();
        // The first simulation expands the root itself.
        assert_eq!(visits, simulations - 1, "{}", G::NAME);
        let by_action: u64 = report.action_visits.iter().map(|&(_, n)| n).sum();
        assert_eq!(by_action, visits);
        let priors: f32 = report.moves.iter().map(|m| m.prior).sum();
        assert!(
            (priors - 1.0).abs() < 1e-4,
            "{}: priors sum to {priors}",
            G::NAME
        );
        assert_eq!(report.values.len(), root.num_players());
    }
    assert!(searcher.tree_size() > 0);

    // The mover's value alone is the same as every player's written out.
    let mut mover = Searcher::<G>::new(settings(1));
    let same = mover
        .search_batch(&roots, &mut net(true), simulations, 0.0, 4, &never)
        .expect("a search");
    assert_eq!(
        without_time(same),
        without_time(reports.clone()),
        "{}",
        G::NAME
    );

    // Trees split across threads, each share with a clone of the evaluator: the same.
    for threads in [2, 3] {
        let mut split = Searcher::<G>::new(settings(threads));
        let same = split
            .search_batch_split(&roots, &net(false), simulations, 0.0, 4, &never)
            .expect("a search");
        assert_eq!(
            without_time(same),
            without_time(reports.clone()),
            "{} on {threads} threads",
            G::NAME
        );
    }
}

fn batched_in_every_count<G: FullGame + Heuristic>() {
    batched::<G>(&[]);
    // With more than two players, the others share the mover's loss.
    for n in more_players::<G>() {
        batched::<G>(&[("players", ParamValue::Int(n))]);
    }
}

#[test]
fn batched_search_with_a_rust_evaluator_in_every_game() {
    every_game!(batched_in_every_count);
}

fn bad_evaluation<G: FullGame + Heuristic>() {
    let roots: Vec<G> = roots(&[]);
    let never = Interrupt::never();
    let mut searcher = Searcher::<G>::new(settings(1));
    searcher
        .search_batch(&roots, &mut net(true), 16, 0.0, 2, &never)
        .expect("a search");
    assert!(searcher.tree_size() > 0);
    let mut nan = |leaves: &mut LeafBatch<'_>, _: &mut [f32], values: &mut [f32]| {
        values[..leaves.len].fill(f32::NAN);
        Ok(ValueLayout::Mover)
    };
    let err = searcher
        .search_batch(&roots, &mut nan, 16, 0.0, 2, &never)
        .expect_err("NaN values");
    assert!(
        matches!(&err, SearchError::Error(Error::Evaluator(m)) if m.contains("values[0] is NaN")),
        "{err:?}"
    );
    assert_eq!(searcher.tree_size(), 0);
    let mut failing = |_: &mut LeafBatch<'_>, _: &mut [f32], _: &mut [f32]| {
        Err(Error::Evaluator("the network is down".to_string()))
    };
    let err = searcher
        .search_batch(&roots, &mut failing, 16, 0.0, 2, &never)
        .expect_err("a failed evaluation");
    assert_eq!(
        err,
        SearchError::Error(Error::Evaluator("the network is down".to_string()))
    );
}

#[test]
fn a_bad_evaluation_is_an_error_and_drops_the_trees() {
    every_game!(bad_evaluation);
}

fn interrupted<G: FullGame + Heuristic>() {
    let roots: Vec<G> = roots(&[]);
    let calls = AtomicUsize::new(0);
    let check = || calls.load(Ordering::Relaxed) >= 3;
    let interrupt = Interrupt::new(&check);
    let mut searcher = Searcher::<G>::new(settings(1));
    let mut inner = net(false);
    let mut counting = |leaves: &mut LeafBatch<'_>, logits: &mut [f32], values: &mut [f32]| {
        calls.fetch_add(1, Ordering::Relaxed);
        inner(leaves, logits, values)
    };
    let err = searcher
        .search_batch(&roots, &mut counting, 1000, 0.0, 1, &interrupt)
        .expect_err("stopped");
    assert_eq!(err, SearchError::Stopped(Stopped::Interrupted));
    assert_eq!(calls.load(Ordering::Relaxed), 3);
    assert_eq!(searcher.tree_size(), 0);
}

#[test]
fn an_interrupt_stops_a_batched_search_between_batches() {
    every_game!(interrupted);
}
