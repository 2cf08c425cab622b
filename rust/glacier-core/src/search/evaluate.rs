//! The leaf evaluations done inside the engine: random rollouts and the heuristic.

use super::{heuristic_values, outcome_values, Heuristic, Values};
use crate::rng::SplitMix64;
use crate::Game;

/// How the engine evaluates a leaf of the tree by itself (no outside evaluator). Both give
/// every move the same prior.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LeafEvaluation {
    /// Uniformly random legal moves from the leaf to the end of the game; with `plies`,
    /// at most that many, and a game still going then is scored by the heuristic.
    Rollout { plies: Option<u32> },
    /// As `Rollout`, but each ply draws its move with probability proportional to
    /// `exp(move_priority / temperature)` (the game's [`Heuristic::move_priority`]) instead
    /// of uniformly: rollouts that play like the game's own rating of the moves (in E, that
    /// bring pieces nearer their goal more often than not), so a short one says more.
    GuidedRollout {
        plies: Option<u32>,
        temperature: f32,
    },
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
            LeafEvaluation::GuidedRollout { plies, temperature } => {
                guided_rollout(state, rng, plies, temperature, moves)
            }
            LeafEvaluation::Heuristic => heuristic_values(state),
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
    play_out(start, plies, |state| state.rollout_move(rng, moves))
}

/// One game from `start` whose every move is drawn by [`guided_move`]: the returns at its
/// end, or, after `plies` plies of a game still going, the heuristic there.
pub fn guided_rollout<G: Heuristic>(
    start: &G,
    rng: &mut SplitMix64,
    plies: Option<u32>,
    temperature: f32,
    moves: &mut Vec<G::Move>,
) -> Values {
    play_out(start, plies, |state| {
        guided_move(state, rng, temperature, moves)
    })
}

/// The game from `start` with the moves `next` picks: the returns at its end (when `next`
/// finds no move), or, after `plies` plies of a game still going, the heuristic there.
fn play_out<G: Heuristic>(
    start: &G,
    plies: Option<u32>,
    mut next: impl FnMut(&G) -> Option<G::Move>,
) -> Values {
    let mut state = start.clone();
    let mut played = 0u32;
    loop {
        if plies.is_some_and(|limit| played >= limit) {
            return heuristic_values(&state);
        }
        let Some(mv) = next(&state) else {
            return outcome_values(state.outcome(), state.num_players());
        };
        state.play_unchecked(mv);
        played += 1;
    }
}

/// A legal move drawn with probability proportional to `exp(move_priority / temperature)`,
/// `None` when there is none. The weights are not stored: their sum is taken in one pass
/// over `moves` (relative to the largest priority, so that nothing overflows) and the move
/// found in a second.
pub fn guided_move<G: Heuristic>(
    state: &G,
    rng: &mut SplitMix64,
    temperature: f32,
    moves: &mut Vec<G::Move>,
) -> Option<G::Move> {
    moves.clear();
    state.generate_moves(&mut |mv| moves.push(mv));
    let most = moves.iter().map(|&mv| state.move_priority(mv)).max()?;
    let weight = |mv: G::Move| ((state.move_priority(mv) - most) as f32 / temperature).exp();
    let total: f32 = moves.iter().map(|&mv| weight(mv)).sum();
    let mut draw = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * total;
    for &mv in moves.iter() {
        let w = weight(mv);
        if draw < w {
            return Some(mv);
        }
        draw -= w;
    }
    // Rounding left the draw past the last weight.
    moves.last().copied()
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
