//! An evaluation net's incremental score equals the score computed afresh, in every
//! two-player game: along random games, at every ply, after moves
//! made and unmade (siblings searched one after another, and returns several plies up),
//! and at every node of real alpha-beta searches.

use glacier_core::game::{params_from, plane_size};
use glacier_core::games::GAME_NAMES;
use glacier_core::net::evaluation::incremental::NetScore;
use glacier_core::net::evaluation::{Base, EvalNet, EvalShape};
use glacier_core::rng::SplitMix64;
use glacier_core::search::alphabeta::{alphabeta_with, Evaluation};
use glacier_core::search::{Budget, Heuristic};
use glacier_core::{with_game, FullGame, Game};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

const TOLERANCE: f32 = 1e-5;

/// Runs `$check::<G>()` for every game whose default start has two players.
macro_rules! every_two_player_game {
    ($check:ident) => {
        for &name in GAME_NAMES {
            with_game!(name, G => {
                if start::<G>().num_players() == 2 {
                    $check::<G>();
                }
            }, _ => unreachable!());
        }
    };
}

fn random_net<G: FullGame>(seed: u64, base: Base) -> Arc<EvalNet> {
    let shape = EvalShape {
        inputs: G::OBSERVATION_SHAPE.iter().product(),
        plane: plane_size(G::OBSERVATION_SHAPE),
        features: 40,
        hidden: vec![16],
    };
    let mut rng = SplitMix64::new(seed);
    // Small weights, so that the score stays off tanh's flat ends, where any two scores
    // would agree.
    let weights = (0..shape.num_weights())
        .map(|_| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.05)
        .collect();
    Arc::new(EvalNet::new(shape, weights).expect("a net").with_base(base))
}

fn start<G: Game>() -> G {
    G::start(&params_from::<G>(&[]).expect("the default parameters"))
}

fn children<G: Game>(state: &G) -> Vec<G> {
    let mut out = Vec::new();
    state.generate_moves(&mut |mv| {
        let mut child = state.clone();
        child.play_unchecked(mv);
        out.push(child);
    });
    out
}

fn assert_close(got: f32, want: f32, what: &str) {
    assert!(
        (got - want).abs() <= TOLERANCE,
        "{what}: incremental {got}, afresh {want}"
    );
}

/// Random walks: at each ply two children scored one after the other (the first unmade
/// before the second is made), the walk going on from the second; now and then back up
/// several plies to a sibling there. With a net of each base.
fn walks<G: FullGame + Heuristic>() {
    walks_of::<G>(random_net::<G>(7, Base::None));
    walks_of::<G>(random_net::<G>(7, Base::Heuristic));
}

fn walks_of<G: FullGame + Heuristic>(net: Arc<EvalNet>) {
    let mut score = NetScore::<G>::new(net.clone()).expect("the net fits");
    let mut afresh = NetScore::<G>::new(net).expect("the net fits");
    let mut rng = SplitMix64::new(11);
    let mut checked = 0;
    for walk in 0..3 {
        let root = start::<G>();
        let mut path = vec![root.clone()];
        score.start(&root);
        let want = afresh.score_afresh(&root);
        assert_close(score.score(0, &root), want, G::NAME);
        for _ in 0..200 {
            let ply = path.len() - 1;
            let state = path[ply].clone();
            let kids = children(&state);
            if kids.is_empty() {
                break;
            }
            score.expand(ply, &state);
            let mut last = None;
            for _ in 0..2 {
                let child = &kids[rng.below(kids.len() as u64) as usize];
                score.enter(ply + 1);
                if !child.is_terminal() {
                    let what = format!("{} walk {walk} ply {}", G::NAME, ply + 1);
                    assert_close(
                        score.score(ply + 1, child),
                        afresh.score_afresh(child),
                        &what,
                    );
                    checked += 1;
                }
                last = Some(child.clone());
            }
            let next = last.expect("a child");
            if next.is_terminal() {
                break;
            }
            path.push(next);
            if rng.below(8) == 0 && path.len() > 4 {
                // Unmake a few moves: back to an ancestor, on to another of its children.
                let back = 1 + rng.below(3) as usize;
                path.truncate(path.len() - back);
                let ply = path.len() - 1;
                let kids = children(&path[ply]);
                let child = kids[rng.below(kids.len() as u64) as usize].clone();
                if child.is_terminal() {
                    break;
                }
                score.enter(ply + 1);
                let what = format!("{} walk {walk}, back to ply {}", G::NAME, ply + 1);
                assert_close(
                    score.score(ply + 1, &child),
                    afresh.score_afresh(&child),
                    &what,
                );
                path.push(child);
            }
        }
    }
    assert!(
        checked > 100,
        "{}: only {checked} positions checked",
        G::NAME
    );
}

/// The net's score checked against a fresh computation at every node a search scores.
struct Checked<G> {
    incremental: NetScore<G>,
    afresh: NetScore<G>,
    checked: u64,
}

impl<G: FullGame + Heuristic> Evaluation<G> for Checked<G> {
    fn start(&mut self, root: &G) {
        self.incremental.start(root);
    }

    fn enter(&mut self, ply: usize) {
        self.incremental.enter(ply);
    }

    fn expand(&mut self, ply: usize, state: &G) {
        self.incremental.expand(ply, state);
    }

    fn score(&mut self, ply: usize, state: &G) -> f32 {
        let got = self.incremental.score(ply, state);
        assert_close(got, self.afresh.score_afresh(state), G::NAME);
        self.checked += 1;
        got
    }
}

fn searches<G: FullGame + Heuristic>() {
    let net = random_net::<G>(3, Base::Heuristic);
    let mut check = Checked {
        incremental: NetScore::<G>::new(net.clone()).expect("the net fits"),
        afresh: NetScore::<G>::new(net).expect("the net fits"),
        checked: 0,
    };
    let stop = AtomicBool::new(false);
    let mut rng = SplitMix64::new(5);
    let mut state = start::<G>();
    for ply in 0..8 {
        // Enough nodes checked (a fresh score of E's large observation is slow).
        if state.is_terminal() || check.checked >= 3000 {
            break;
        }
        let budget = Budget {
            limit: Some(3),
            deadline: None,
            stop: &stop,
        };
        let found = alphabeta_with(&state, &budget, Some(1500), &mut check).expect("a search");
        // Half the moves at random, so that the positions vary.
        let kids = children(&state);
        state = if ply % 2 == 0 {
            let mut next = state.clone();
            next.play_unchecked(found.best);
            next
        } else {
            kids[rng.below(kids.len() as u64) as usize].clone()
        };
    }
    assert!(
        check.checked > 200,
        "{}: {} scores checked",
        G::NAME,
        check.checked
    );
}

/// A game's own account of what a move changed in a view (where it gives one) is the
/// difference of the two observations, cell for cell.
fn changes<G: FullGame>() {
    let size: usize = G::OBSERVATION_SHAPE.iter().product();
    let plane = plane_size(G::OBSERVATION_SHAPE);
    let dense = |state: &G, seat: usize| {
        let mut out = vec![0.0f32; size];
        state.observation(&[], seat, &mut out);
        out
    };
    let mut rng = SplitMix64::new(17);
    for _ in 0..4 {
        let mut state = start::<G>();
        for _ in 0..150 {
            let kids = children(&state);
            if kids.is_empty() {
                break;
            }
            let child = kids[rng.below(kids.len() as u64) as usize].clone();
            for seat in 0..2 {
                let (mut cells, mut planes) = (Vec::new(), Vec::new());
                if !child.observation_changes(&state, seat, &mut cells, &mut planes) {
                    assert!(cells.is_empty() && planes.is_empty(), "{}", G::NAME);
                    continue;
                }
                let mut got = dense(&state, seat);
                for &(i, change) in &cells {
                    got[i as usize] += change;
                }
                for &(p, change) in &planes {
                    for x in &mut got[p as usize * plane..(p as usize + 1) * plane] {
                        *x += change;
                    }
                }
                let want = dense(&child, seat);
                let differs = got
                    .iter()
                    .zip(&want)
                    .position(|(a, b)| (a - b).abs() > 1e-6);
                assert!(
                    differs.is_none(),
                    "{}: cell {differs:?} seat {seat}",
                    G::NAME
                );
            }
            state = child;
        }
    }
}

#[test]
fn a_games_own_changes_are_the_observations_difference() {
    every_two_player_game!(changes);
}

#[test]
fn the_incremental_score_is_the_fresh_one_along_random_games() {
    every_two_player_game!(walks);
}

#[test]
fn the_incremental_score_is_the_fresh_one_inside_alpha_beta() {
    every_two_player_game!(searches);
}

#[test]
fn a_net_of_other_observations_is_refused() {
    let (first, second) = (GAME_NAMES[0], GAME_NAMES[1]);
    let net = with_game!(first, G => random_net::<G>(1, Base::None), _ => unreachable!());
    with_game!(second, G => assert!(NetScore::<G>::new(net).is_err()), _ => unreachable!());
}
