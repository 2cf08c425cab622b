//! A batched environment of any game ([`crate::env::VecEnv`]).

use super::{each, AnyGame, Envs, Registered, Variants};
use crate::env::{MaskOut, ObservationOut, StepResult, VecEnv};
use crate::{ActionEncoding, Error, Game, Notation};

/// Many games of one kind stepped at once, as [`super::AnyState::env`] makes them.
#[derive(Debug, Clone)]
pub struct AnyEnv(Envs);

macro_rules! env {
    ($value:expr, $e:pat, $G:ident => $body:expr) => {
        each!($value, Envs, $e, $G => $body)
    };
}

impl AnyEnv {
    pub(super) fn of<G: Registered>(env: VecEnv<G>) -> Self {
        AnyEnv(G::env(env))
    }

    #[must_use]
    pub fn game(&self) -> AnyGame {
        env!(&self.0, _, G => <G as Variants>::game())
    }

    #[must_use]
    pub fn num_envs(&self) -> usize {
        env!(&self.0, e, G => e.num_envs())
    }

    #[must_use]
    pub fn num_players(&self) -> usize {
        env!(&self.0, e, G => e.num_players())
    }

    /// The number of action numbers (a mask row's length).
    #[must_use]
    pub fn num_actions(&self) -> usize {
        self.game().num_distinct_actions()
    }

    #[must_use]
    pub fn observation_shape(&self) -> &'static [usize] {
        self.game().observation_shape()
    }

    /// [`VecEnv::set_opponent`].
    pub fn set_opponent(&mut self, agent: Option<usize>) -> Result<(), Error> {
        env!(&mut self.0, e, G => e.set_opponent(agent))
    }

    pub fn reset(&mut self) {
        env!(&mut self.0, e, G => e.reset());
    }

    /// [`VecEnv::reset_some`].
    pub fn reset_some(&mut self, which: &[bool]) -> Result<(), Error> {
        env!(&mut self.0, e, G => e.reset_some(which))
    }

    /// [`VecEnv::step_and_write`].
    pub fn step(
        &mut self,
        actions: &[i64],
        returns: &mut [f64],
        results: &mut [StepResult],
        masks: Option<MaskOut<'_>>,
        observations: Option<ObservationOut<'_>>,
    ) -> Result<(), Error> {
        env!(&mut self.0, e, G => e.step_and_write(actions, returns, results, masks, observations))
    }

    /// [`VecEnv::legal_mask`].
    pub fn legal_mask(&self, out: &mut [bool]) {
        env!(&self.0, e, G => e.legal_mask(out));
    }

    /// [`VecEnv::update_mask`].
    pub fn update_mask(&mut self, out: &mut [bool], view: usize, fresh: bool) {
        env!(&mut self.0, e, G => e.update_mask(out, view, fresh));
    }

    /// [`VecEnv::legal_mask_of`].
    pub fn legal_mask_of(&self, env: usize, out: &mut [bool]) {
        env!(&self.0, e, G => e.legal_mask_of(env, out));
    }

    /// [`VecEnv::observations`].
    pub fn observations(&self, player: Option<usize>, out: &mut [f32]) {
        env!(&self.0, e, G => e.observations(player, out));
    }

    /// [`VecEnv::update_observations`].
    pub fn update_observations(
        &mut self,
        player: Option<usize>,
        out: &mut [f32],
        view: usize,
        fresh: bool,
    ) {
        env!(&mut self.0, e, G => e.update_observations(player, out, view, fresh));
    }

    /// [`VecEnv::observation_of`].
    pub fn observation_of(&self, env: usize, player: Option<usize>, out: &mut [f32]) {
        env!(&self.0, e, G => e.observation_of(env, player, out));
    }

    /// Each environment's player to move.
    #[must_use]
    pub fn current_players(&self) -> Vec<i32> {
        env!(&self.0, e, G => e.states().map(|s| s.current_player() as i32).collect())
    }

    /// Each environment's position text.
    #[must_use]
    pub fn texts(&self) -> Vec<String> {
        env!(&self.0, e, G => e.states().map(Notation::text).collect())
    }

    /// The actions chosen so far in environment `env`'s move being made.
    #[must_use]
    pub fn pending_actions(&self, env: usize) -> Vec<usize> {
        env!(&self.0, e, G => e.partial(env).chosen().iter().collect())
    }

    /// `(action, name)` for every legal action of environment `env`, ascending.
    #[must_use]
    pub fn legal_actions(&self, env: usize) -> Vec<(usize, String)> {
        env!(&self.0, e, G => e
            .legal_actions(env)
            .into_iter()
            .map(|a| (a, G::action_text(a).unwrap_or_default()))
            .collect())
    }

    /// [`VecEnv::random_actions`].
    pub fn random_actions(&mut self, out: &mut [i64]) {
        env!(&mut self.0, e, G => e.random_actions(out));
    }

    /// [`VecEnv::play_text`].
    pub fn play_move(
        &mut self,
        env: usize,
        text: &str,
        returns: &mut [f64],
    ) -> Result<StepResult, Error> {
        env!(&mut self.0, e, G => e.play_text(env, text, returns))
    }
}
