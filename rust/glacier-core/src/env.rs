//! Many games stepped at once, for learning programs: the core of the batched environment.
//!
//! Actions are integers. A game with a fixed action space (`Game::NUM_ACTIONS = Some(n)`)
//! numbers its moves with `Game::action_of` and the environment offers legal-move masks;
//! any other game numbers the legal moves `0..count` in generation order and the
//! environment offers counts (and the move texts in action order, for people).

use crate::parallel::nth_move;
use crate::rng::SplitMix64;
use crate::{Error, Game};

/// `num_envs` copies of a game, each reset to `start` when it ends (with `auto_reset`).
#[derive(Debug, Clone)]
pub struct VecEnv<G: Game> {
    start: G,
    states: Vec<G>,
    episode_lengths: Vec<u32>,
    auto_reset: bool,
}

/// What one step reports for one environment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepResult {
    pub terminated: bool,
    /// Plies in the episode that just ended (0 when it goes on).
    pub episode_length: u32,
}

impl<G: Game> VecEnv<G> {
    pub fn new(start: G, num_envs: usize, auto_reset: bool) -> Self {
        VecEnv {
            states: vec![start.clone(); num_envs],
            episode_lengths: vec![0; num_envs],
            start,
            auto_reset,
        }
    }

    pub fn num_envs(&self) -> usize {
        self.states.len()
    }

    pub fn num_players(&self) -> usize {
        self.start.num_players()
    }

    pub fn states(&self) -> &[G] {
        &self.states
    }

    pub fn reset(&mut self) {
        for (state, len) in self.states.iter_mut().zip(&mut self.episode_lengths) {
            *state = self.start.clone();
            *len = 0;
        }
    }

    /// The move an action stands for in environment `env`, if the action is legal there.
    pub fn action_move(&self, env: usize, action: i64) -> Option<G::Move> {
        let state = &self.states[env];
        let action = u64::try_from(action).ok()?;
        match G::NUM_ACTIONS {
            None => nth_move(state, action),
            Some(_) => {
                let mut found = None;
                state.generate_moves(&mut |mv| {
                    if found.is_none() && state.action_of(mv) as u64 == action {
                        found = Some(mv);
                    }
                });
                found
            }
        }
    }

    /// Plays one action in every environment. `returns` (num_envs x num_players) receives the
    /// returns of every episode that ends on this step, zeros elsewhere. If any action is
    /// illegal nothing is played and the error names the first such environment.
    pub fn step(
        &mut self,
        actions: &[i64],
        returns: &mut [f64],
        results: &mut [StepResult],
    ) -> Result<(), Error> {
        let n = self.states.len();
        let players = self.num_players();
        if actions.len() != n || returns.len() != n * players || results.len() != n {
            return Err(Error::InvalidParameter(format!(
                "expected {n} actions, got {}",
                actions.len()
            )));
        }
        let mut moves = Vec::with_capacity(n);
        for (env, &action) in actions.iter().enumerate() {
            if self.states[env].is_terminal() {
                return Err(Error::IllegalMove(format!(
                    "environment {env} has ended; call reset() (or create the environment with auto_reset)"
                )));
            }
            match self.action_move(env, action) {
                Some(mv) => moves.push(mv),
                None => {
                    return Err(Error::IllegalMove(format!(
                        "action {action} is not legal in environment {env}"
                    )));
                }
            }
        }
        returns.fill(0.0);
        for (env, mv) in moves.into_iter().enumerate() {
            let state = &mut self.states[env];
            state.play(mv);
            self.episode_lengths[env] += 1;
            let terminated = state.is_terminal();
            results[env] = StepResult {
                terminated,
                episode_length: if terminated {
                    self.episode_lengths[env]
                } else {
                    0
                },
            };
            if terminated {
                for (slot, r) in returns[env * players..(env + 1) * players]
                    .iter_mut()
                    .zip(state.outcome().returns(players))
                {
                    *slot = r;
                }
                if self.auto_reset {
                    *state = self.start.clone();
                    self.episode_lengths[env] = 0;
                }
            }
        }
        Ok(())
    }

    /// The number of legal moves in every environment.
    pub fn legal_counts(&self, out: &mut [u32]) {
        for (slot, state) in out.iter_mut().zip(&self.states) {
            *slot = state.count_moves() as u32;
        }
    }

    /// Legal-action masks (num_envs x NUM_ACTIONS), for games with a fixed action space.
    pub fn legal_mask(&self, out: &mut [bool]) -> Result<(), Error> {
        let Some(size) = G::NUM_ACTIONS else {
            return Err(Error::InvalidParameter(format!(
                "{} has no fixed action space: actions index the legal moves; use legal_counts()",
                G::NAME
            )));
        };
        out.fill(false);
        for (env, state) in self.states.iter().enumerate() {
            let row = &mut out[env * size..(env + 1) * size];
            state.generate_moves(&mut |mv| row[state.action_of(mv)] = true);
        }
        Ok(())
    }

    /// Observations (num_envs x OBSERVATION_SHAPE), for games that define one.
    pub fn observations(&self, out: &mut [f32]) -> Result<(), Error> {
        let size: usize = G::OBSERVATION_SHAPE.iter().product();
        if G::OBSERVATION_SHAPE.is_empty() {
            return Err(Error::InvalidParameter(format!(
                "{} has no observation encoding",
                G::NAME
            )));
        }
        out.fill(0.0);
        for (env, state) in self.states.iter().enumerate() {
            state.observe(&mut out[env * size..(env + 1) * size]);
        }
        Ok(())
    }

    /// A uniformly random legal action for every environment (-1 where the episode has ended).
    pub fn random_actions(&self, rng: &mut SplitMix64, out: &mut [i64]) {
        for (slot, state) in out.iter_mut().zip(&self.states) {
            let count = state.count_moves();
            *slot = if count == 0 {
                -1
            } else {
                let index = rng.below(count);
                match G::NUM_ACTIONS {
                    None => index as i64,
                    Some(_) => nth_move(state, index).map_or(-1, |mv| state.action_of(mv) as i64),
                }
            };
        }
    }

    /// Legal move texts of environment `env`, listed in action order (index games) or paired
    /// with their action numbers (fixed action spaces).
    pub fn legal_actions(&self, env: usize) -> Vec<(i64, String)> {
        let state = &self.states[env];
        let mut out = Vec::new();
        let mut index = 0;
        state.generate_moves(&mut |mv| {
            let action = match G::NUM_ACTIONS {
                Some(_) => state.action_of(mv) as i64,
                None => index,
            };
            out.push((action, state.move_text(mv)));
            index += 1;
        });
        out.sort_unstable();
        out
    }
}
