//! The leaf evaluations done inside the engine: random rollouts and the heuristic.

use super::{outcome_values, Heuristic, Values};
use crate::rng::SplitMix64;
use crate::Game;

/// How the engine evaluates a leaf of the tree by itself (no outside evaluator). Both give
/// every move the same prior.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeafEvaluation {
    /// Uniformly random legal moves from the leaf to the end of the game; with `plies`,
    /// at most that many, and a game still going then is scored by the heuristic.
    Rollout { plies: Option<u32> },
    /// The game's heuristic of the leaf itself.
    Heuristic,
}

impl LeafEvaluation {
    /// Every player's value of `state`, a state that is not over (`moves` is scratch
    /// space for the rollouts).
    #[inline]
    pub fn evaluate<G: Heuristic>(
        self,
        state: &G,
        rng: &mut SplitMix64,
        moves: &mut Vec<G::Move>,
    ) -> Values {
        match self {
            LeafEvaluation::Rollout { plies } => rollout(state, rng, plies, moves),
            LeafEvaluation::Heuristic => {
                let mut values = [0.0; super::MAX_PLAYERS];
                state.heuristic(&mut values);
                values
            }
        }
    }
}

/// One random game from `start`: the returns at its end, or, after `plies` plies of a game
/// still going, the heuristic there. `moves` is scratch space for the moves of each ply
/// (reused, so a rollout allocates nothing once it has grown).
pub fn rollout<G: Heuristic>(
    start: &G,
    rng: &mut SplitMix64,
    plies: Option<u32>,
    moves: &mut Vec<G::Move>,
) -> Values {
    let mut state = start.clone();
    let mut played = 0u32;
    loop {
        if plies.is_some_and(|limit| played >= limit) {
            let mut values = [0.0; super::MAX_PLAYERS];
            state.heuristic(&mut values);
            return values;
        }
        let Some(mv) = state.rollout_move(rng, moves) else {
            return outcome_values(state.outcome(), state.num_players());
        };
        state.play_unchecked(mv);
        played += 1;
    }
}

/// A uniformly random legal move: every move generated into `moves`, one drawn.
#[inline]
pub fn random_from_list<G: Game>(
    state: &G,
    rng: &mut SplitMix64,
    moves: &mut Vec<G::Move>,
) -> Option<G::Move> {
    moves.clear();
    state.generate_moves(&mut |mv| moves.push(mv));
    if moves.is_empty() {
        return None;
    }
    Some(moves[rng.below(moves.len() as u64) as usize])
}

/// A uniformly random legal move: the moves counted (games count faster than they
/// generate), then generated only up to the one drawn.
#[inline]
pub fn random_by_count<G: Game>(state: &G, rng: &mut SplitMix64) -> Option<G::Move> {
    let count = state.count_moves();
    if count == 0 {
        return None;
    }
    state.nth_move(rng.below(count))
}
