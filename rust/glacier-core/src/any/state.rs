//! A state of any game, and the work that runs from one: random playouts, alpha-beta, a
//! batched environment of copies of it, self-play from it.

use super::{each, AnyEnv, AnyGame, AnyState, Variants};
use crate::interrupt::{Interrupt, Stopped};
use crate::net::evaluation::games::{play, PlaySettings, Positions};
use crate::net::evaluation::EvalNet;
use crate::parallel::{playouts_until, Playout};
use crate::search::batch::LeafEvaluator;
use crate::search::report::{
    alphabeta_report, alphabeta_report_scored, AlphaBetaLimits, AlphaBetaReport,
};
use crate::search::searcher::SearchError;
use crate::search::selfplay::{self_play, SelfPlayLeaves, SelfPlayRows, SelfPlayRun};
use crate::{Error, Game, Notation};
use std::sync::Arc;

impl AnyState {
    /// The game this is a state of.
    #[must_use]
    pub fn game(&self) -> AnyGame {
        each!(self, AnyState, _, G => <G as Variants>::game())
    }

    /// The state, if it is one of `G`.
    #[must_use]
    pub fn get<G: Game>(&self) -> Option<&G> {
        each!(self, AnyState, state, H => (state as &dyn std::any::Any).downcast_ref::<G>())
    }

    #[must_use]
    pub fn num_players(&self) -> usize {
        each!(self, AnyState, state, G => state.num_players())
    }

    #[must_use]
    pub fn is_terminal(&self) -> bool {
        each!(self, AnyState, state, G => state.is_terminal())
    }

    /// The position text.
    #[must_use]
    pub fn text(&self) -> String {
        each!(self, AnyState, state, G => state.text())
    }

    /// The record text ([`Notation::record_move_text`]: SAN in chess) of the legal move
    /// written `text` in the engine's notation.
    pub fn record_move_text(&self, text: &str) -> Result<String, Error> {
        each!(self, AnyState, state, G => {
            let mv = state.parse_move(text)?;
            Ok(state.record_move_text(mv).unwrap_or_else(|| state.move_text(mv)))
        })
    }

    /// The engine's text of the legal move written `text` as records write it
    /// ([`Notation::parse_record_move`]) or as the engine does.
    pub fn move_of_record(&self, text: &str) -> Result<String, Error> {
        each!(self, AnyState, state, G => {
            let mv = match state.parse_record_move(text) {
                Some(found) => found,
                None => state.parse_move(text),
            }?;
            Ok(state.move_text(mv))
        })
    }

    /// `games` random playouts from here on `threads` threads (0 = every core), cut after
    /// `cutoff` plies if given ([`crate::parallel::playouts_until`]).
    pub fn playouts(
        &self,
        games: usize,
        seed: u64,
        threads: usize,
        cutoff: Option<u32>,
        interrupt: &Interrupt<'_>,
    ) -> Result<Vec<Playout>, Stopped> {
        each!(self, AnyState, state, G => {
            playouts_until(state, games, seed, threads, cutoff, interrupt)
        })
    }

    /// Alpha-beta from here ([`crate::search::report::alphabeta_report`]).
    pub fn alphabeta(
        &self,
        limits: AlphaBetaLimits,
        interrupt: &Interrupt<'_>,
    ) -> Result<AlphaBetaReport, SearchError> {
        each!(self, AnyState, state, G => alphabeta_report(state, limits, interrupt))
    }

    /// The evaluation net's score of this position for its player to move
    /// ([`EvalNet::score_position`]).
    pub fn evaluation_score(&self, net: &EvalNet) -> Result<f32, Error> {
        each!(self, AnyState, state, G => net.score_position(state))
    }

    /// Games of alpha-beta against itself from here, their positions scored
    /// ([`crate::net::evaluation::games::play`]).
    pub fn evaluation_games(
        &self,
        settings: &PlaySettings,
        interrupt: &Interrupt<'_>,
    ) -> Result<Result<Positions, Error>, Stopped> {
        each!(self, AnyState, state, G => play(state, settings, interrupt))
    }

    /// Alpha-beta from here with positions scored by the evaluation net `net`
    /// ([`crate::search::report::alphabeta_report_scored`]).
    pub fn alphabeta_scored(
        &self,
        limits: AlphaBetaLimits,
        net: &Arc<EvalNet>,
        interrupt: &Interrupt<'_>,
    ) -> Result<AlphaBetaReport, SearchError> {
        each!(self, AnyState, state, G => alphabeta_report_scored(state, limits, net, interrupt))
    }

    /// `num_envs` environments of this game from here
    /// ([`crate::env::VecEnv::try_new`]).
    pub fn env(
        &self,
        num_envs: usize,
        auto_reset: bool,
        seed: u64,
        threads: usize,
    ) -> Result<AnyEnv, Stopped> {
        each!(self, AnyState, state, G => {
            let env = crate::env::VecEnv::try_new(state.clone(), num_envs, auto_reset, seed, threads)?;
            Ok(AnyEnv::of(env))
        })
    }

    /// Self-play from here ([`crate::search::selfplay::self_play`]).
    pub fn self_play<C, R>(
        &self,
        run: &SelfPlayRun,
        leaves: SelfPlayLeaves<'_, C>,
        interrupt: &Interrupt<'_>,
        on_round: R,
    ) -> Result<SelfPlayRows, SearchError>
    where
        C: LeafEvaluator + Clone + Send + Sync,
        R: Fn(usize) -> Result<(), Error> + Sync,
    {
        each!(self, AnyState, state, G => self_play(state, run, leaves, interrupt, on_round))
    }
}
