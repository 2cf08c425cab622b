//! Search: Monte Carlo tree search for 2 to 6 players, alpha-beta for two, and the
//! evaluations they share (docs/search.md).
//!
//! - [`Heuristic`]: a game's static evaluation (every player's expected return) and the
//!   move hints alpha-beta orders and extends by. Each game implements it in
//!   `games/<game>/heuristic.rs`; its rules page documents the terms.
//! - [`mcts`]: the tree (values kept per player, so any number of players backs up the
//!   same way), PUCT or UCT selection, root Dirichlet noise, virtual loss, tree reuse, and
//!   the searches: one tree on one thread, one tree shared by several threads
//!   (tree-parallel), several trees merged at the root (root-parallel), and many trees
//!   whose leaves are evaluated together in batches by an outside evaluator.
//! - [`batch`]: the outside evaluator ([`batch::LeafEvaluator`]: a neural network, a
//!   Python callable through the binding, any closure) and the loop that hands it batches
//!   of leaves gathered across trees, turns its logits into priors and backs its values up.
//! - [`searcher`]: a searcher that keeps its trees between searches (tree reuse), seeds
//!   the trees it makes, runs a search on its threads while the caller's thread watches
//!   for an interrupt, and reports the visits of every move and of every first action.
//! - [`selfplay`]: AlphaZero-style self-play, many games at once on kept trees, every
//!   action recorded with the search's targets (the rows `glacier train` learns from).
//! - [`options`]: the options of a searcher in one list, with their defaults and bounds.
//! - [`evaluate`]: the leaf evaluations done inside the engine: random rollouts (cut after
//!   a number of plies and scored by the heuristic, if asked) and the heuristic itself.
//! - [`alphabeta`]: iterative-deepening negamax with a transposition table keyed by the
//!   Zobrist hash, for two-player games; [`report`], its budget checked, its run watched
//!   for an interrupt and its result written as text.
//!
//! Every search takes a [`Budget`]: simulations (or a depth), a deadline, and a stop flag
//! that another thread may raise (the bindings raise it on Ctrl-C). Nothing here allocates
//! per move generated: moves go to scratch buffers reused for the whole search.

pub mod alphabeta;
pub mod batch;
pub mod evaluate;
#[cfg(test)]
pub(crate) mod forced_win;
pub mod mcts;
pub mod options;
pub mod report;
pub mod searcher;
pub mod selfplay;

use crate::rng::SplitMix64;
use crate::{Game, Outcome};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The most players a search keeps values for (E has up to 6).
pub const MAX_PLAYERS: usize = 6;

/// One value per player (only the first `num_players` entries are used).
pub type Values = [f32; MAX_PLAYERS];

/// A game's static evaluation, for the search.
///
/// `heuristic` estimates every player's return from a state that is not over, on the scale
/// of [`Outcome`]'s returns: +1 a sure win, `-1/(n-1)` a sure loss (-1 with two players),
/// 0 even. The estimate should sum to about zero over the players, like the returns.
pub trait Heuristic: Game {
    /// Writes every player's estimated return (`values[p]` for player `p`) into the first
    /// `num_players()` entries of `values`, each in `[-1, 1]`.
    fn heuristic(&self, values: &mut Values);

    /// A cheap score of how promising `mv` (a legal move of this state) looks before it is
    /// searched, for alpha-beta's move ordering: higher is tried first (captures and
    /// promotions before quiet moves, say).
    fn move_priority(&self, mv: Self::Move) -> i32;

    /// How promising each of `moves` (legal moves of this state) looks to the engine's
    /// move priors (a search with `priors="heuristic"` gives each move a softmax over
    /// its score), appended to `scores` in the order of `moves`: by default
    /// [`Heuristic::move_priority`]. A game may rate moves more finely here than
    /// alpha-beta's move ordering, which runs at every node, can afford.
    fn prior_scores(&self, moves: &[Self::Move], scores: &mut Vec<f32>) {
        scores.extend(moves.iter().map(|&mv| self.move_priority(mv) as f32));
    }

    /// Whether `mv` changes the material balance (a capture, a promotion): alpha-beta's
    /// quiescence search goes on through such moves past its depth, so that it never stops
    /// in the middle of an exchange.
    fn is_tactical(&self, mv: Self::Move) -> bool;

    /// A uniformly random legal move, `None` when there is none: the step of a rollout,
    /// where most of a search's time goes. `moves` is scratch space the caller keeps for
    /// the whole rollout. [`evaluate::random_from_list`] and [`evaluate::random_by_count`]
    /// are the generic ways; a game picks the faster, or has its own.
    fn rollout_move(&self, rng: &mut SplitMix64, moves: &mut Vec<Self::Move>)
        -> Option<Self::Move>;
}

/// What a search may spend: simulations (MCTS) or a depth (alpha-beta), a deadline, and a
/// flag another thread raises to stop it (the bindings raise it on Ctrl-C).
#[derive(Debug, Clone, Copy)]
pub struct Budget<'a> {
    /// MCTS: the number of simulations to run; alpha-beta: the depth to reach.
    pub limit: Option<u64>,
    /// Stop when this instant passes.
    pub deadline: Option<Instant>,
    /// Stop as soon as this is set.
    pub stop: &'a AtomicBool,
}

impl Budget<'_> {
    /// Whether the deadline has passed or the stop flag is up.
    #[inline]
    #[must_use]
    pub fn out_of_time(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The returns of a finished game (as [`Outcome::returns`], without allocating): the winner
/// +1, every other player `-1/(n-1)`; zeros for a draw.
#[must_use]
pub fn outcome_values(outcome: Outcome, num_players: usize) -> Values {
    let mut values = [0.0; MAX_PLAYERS];
    if let Outcome::Win(winner) = outcome {
        let lose = -1.0 / (num_players as f32 - 1.0);
        for (p, v) in values.iter_mut().enumerate().take(num_players) {
            *v = if p == winner as usize { 1.0 } else { lose };
        }
    }
    values
}

/// Every player's value of `state` by the game's heuristic.
#[inline]
#[must_use]
pub fn heuristic_values<G: Heuristic>(state: &G) -> Values {
    let mut values = [0.0; MAX_PLAYERS];
    state.heuristic(&mut values);
    values
}

/// The heuristic's value of `state` for its player to move.
#[inline]
#[must_use]
pub fn heuristic_of_mover<G: Heuristic>(state: &G) -> f32 {
    heuristic_values(state)[state.current_player()]
}

/// The values of a state with no legal move: its outcome's returns (a game that is over
/// has no legal move; a state with none that still called itself ongoing would count as
/// a draw).
#[must_use]
pub fn terminal_values<G: Game>(state: &G) -> Values {
    outcome_values(state.outcome(), state.num_players())
}
