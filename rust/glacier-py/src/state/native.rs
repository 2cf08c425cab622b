//! `DynSession`, what `GameState` asks of a session whatever its game, and `Native<G>`, its
//! implementation for every game over the core's `Session<G>`.

use super::strings::{gives_order_keys, ActionTable, KeyedStrings, LastMoves, Listed};
use crate::args;
use crate::convert::{params_ref, Params};
use crate::errors::{to_py_err, unknown_game};
use glacier_core::interrupt::{Interrupt, Stopped};
use glacier_core::perft::{perft_no_bulk_until, PerftTable};
use glacier_core::{with_game, Error, FullGame, ParamValue, Session};
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::sync::{Mutex, PoisonError};

/// What `GameState` asks of a session, whatever its game.
pub(crate) trait DynSession: Send + Sync {
    fn name(&self) -> &'static str;
    /// Itself, for the search to take the engine state of a `Native<G>`.
    fn as_any(&self) -> &dyn std::any::Any;
    fn clone_box(&self) -> Box<dyn DynSession>;
    fn copy_with_history(&self, plies: Option<usize>) -> Box<dyn DynSession>;
    fn history_limit(&self) -> Option<usize>;
    fn set_history_limit(&mut self, limit: Option<usize>);
    fn param_pairs(&self) -> Vec<(&'static str, ParamValue)>;
    fn initial_text(&self) -> String;
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>>;
    fn play(&mut self, py: Python<'_>, text: &str) -> PyResult<()>;
    fn play_object(&mut self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<()>;
    fn num_distinct_actions(&self) -> usize;
    fn max_game_length(&self) -> u64;
    fn observation_shape(&self) -> &'static [usize];
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>>;
    fn legal_action_mask(&self, out: &mut [bool]);
    fn apply_action(&mut self, action: usize) -> Result<(), Error>;
    fn illegal_action(&self, shown: &str) -> Error;
    fn action_to_move(&self, action: usize) -> Result<Option<String>, Error>;
    fn action_text(&self, action: usize) -> Option<String>;
    fn observe(&self, player: usize, out: &mut [f32]);
    fn undo_action(&mut self) -> Result<usize, Error>;
    fn move_to_actions(&self, text: &str) -> Result<Vec<usize>, Error>;
    fn pending_actions(&self) -> Vec<usize>;
    fn action_history(&self) -> Vec<usize>;
    fn undo(&mut self) -> Result<String, Error>;
    fn moves(&self) -> Vec<String>;
    fn text(&self) -> String;
    fn board_string(&self) -> String;
    fn hash(&self) -> u64;
    fn hash_from_scratch(&self) -> u64;
    fn current_player(&self) -> usize;
    fn num_players(&self) -> usize;
    fn is_terminal(&self) -> bool;
    fn ended_by_ply_limit(&self) -> bool;
    fn returns(&self) -> Vec<f64>;
    fn perft(
        &self,
        depth: u32,
        bulk: bool,
        threads: usize,
        interrupt: &Interrupt<'_>,
    ) -> Result<u64, Stopped>;
    fn perft_hashed(
        &self,
        depth: u32,
        threads: usize,
        table: &PerftTable,
        interrupt: &Interrupt<'_>,
    ) -> Result<u64, Stopped>;
    fn perft_divide(
        &self,
        depth: u32,
        threads: usize,
        interrupt: &Interrupt<'_>,
    ) -> Result<Vec<(String, u64)>, Stopped>;
}

/// A session of game `G` with its interned move strings.
pub(super) struct Native<G: FullGame> {
    pub(super) session: Session<G>,
    pub(super) table: Option<&'static ActionTable>,
    pub(super) keyed: Option<&'static Mutex<KeyedStrings>>,
    /// Whether `legal_moves()` sorts by order keys ([`Native::ordered_legal_moves`]).
    pub(super) ordered: bool,
    /// Emptied whenever the session changes.
    pub(super) last_moves: Mutex<LastMoves<G::Move>>,
}

impl<G: FullGame> Native<G> {
    fn new(py: Python<'_>, session: Session<G>) -> Self {
        Native {
            session,
            table: ActionTable::of::<G>(py),
            keyed: KeyedStrings::of::<G>(py),
            ordered: gives_order_keys::<G>(py),
            last_moves: LastMoves::new(),
        }
    }

    fn with_session(&self, session: Session<G>) -> Self {
        Native {
            session,
            table: self.table,
            keyed: self.keyed,
            ordered: self.ordered,
            last_moves: LastMoves::new(),
        }
    }

    /// Forgets the last `legal_moves()` (the session is about to change).
    fn forget_moves(&mut self) {
        let last = self
            .last_moves
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        last.count = 0;
        last.held.clear();
    }
}

impl<G: FullGame> Clone for Native<G> {
    fn clone(&self) -> Self {
        self.with_session(self.session.clone())
    }
}

impl<G: FullGame> DynSession for Native<G> {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn clone_box(&self) -> Box<dyn DynSession> {
        Box::new(self.clone())
    }
    fn copy_with_history(&self, plies: Option<usize>) -> Box<dyn DynSession> {
        Box::new(self.with_session(self.session.copy_with_history(plies)))
    }
    fn history_limit(&self) -> Option<usize> {
        self.session.history_limit()
    }
    fn set_history_limit(&mut self, limit: Option<usize>) {
        self.session.set_history_limit(limit);
    }
    fn param_pairs(&self) -> Vec<(&'static str, ParamValue)> {
        self.session.param_pairs()
    }
    fn initial_text(&self) -> String {
        self.session.initial_text()
    }

    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if let Some(moves) = self
            .table
            .and_then(|table| table.legal_moves(py, self.session.state()))
        {
            return PyList::new(py, moves);
        }
        if self.ordered {
            if let Some(list) = self.ordered_legal_moves(py)? {
                return Ok(list);
            }
        }
        PyList::new(py, self.session.legal_moves())
    }

    fn play(&mut self, _py: Python<'_>, text: &str) -> PyResult<()> {
        self.forget_moves();
        let state = self.session.state();
        if let Some(table) = self.table {
            if !state.is_terminal() && self.session.partial().is_empty() {
                if let Some(mv) = table.find_move(state, text) {
                    self.session.play_move(mv);
                    return Ok(());
                }
            }
        }
        self.session.play(text).map_err(to_py_err)
    }

    fn play_object(&mut self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let last = self
            .last_moves
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        // The very string object the last `legal_moves()` gave for this move, in this state.
        let address = mv.as_ptr() as usize as u64;
        let found = last
            .listed
            .iter()
            .take(last.count)
            .find(|entry| entry.order == address);
        if let Some(&Listed { mv: found, .. }) = found {
            self.forget_moves();
            self.session.play_move(found);
            return Ok(());
        }
        self.play(py, &args::move_text(mv)?)
    }

    fn num_distinct_actions(&self) -> usize {
        G::NUM_DISTINCT_ACTIONS
    }
    fn max_game_length(&self) -> u64 {
        self.session.max_game_length()
    }
    fn observation_shape(&self) -> &'static [usize] {
        G::OBSERVATION_SHAPE
    }
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.legal_action_list(py)
    }
    fn legal_action_mask(&self, out: &mut [bool]) {
        self.session.partial().write_mask(self.session.state(), out);
    }
    fn apply_action(&mut self, action: usize) -> Result<(), Error> {
        self.forget_moves();
        self.session.apply_action(action)
    }
    fn illegal_action(&self, shown: &str) -> Error {
        self.session.illegal_action(shown)
    }
    fn action_to_move(&self, action: usize) -> Result<Option<String>, Error> {
        self.session.action_move(action)
    }
    fn action_text(&self, action: usize) -> Option<String> {
        G::action_text(action)
    }
    fn observe(&self, player: usize, out: &mut [f32]) {
        self.session.observe(player, out);
    }
    fn undo_action(&mut self) -> Result<usize, Error> {
        self.forget_moves();
        self.session.undo_action()
    }
    fn move_to_actions(&self, text: &str) -> Result<Vec<usize>, Error> {
        self.session.move_actions(text)
    }
    fn pending_actions(&self) -> Vec<usize> {
        self.session.pending_actions().iter().collect()
    }
    fn action_history(&self) -> Vec<usize> {
        self.session.action_history()
    }
    fn undo(&mut self) -> Result<String, Error> {
        self.forget_moves();
        self.session.undo()
    }
    fn moves(&self) -> Vec<String> {
        self.session.moves_played()
    }
    fn text(&self) -> String {
        self.session.state().text()
    }
    fn board_string(&self) -> String {
        self.session.state().board_string()
    }
    fn hash(&self) -> u64 {
        self.session.state().hash()
    }
    fn hash_from_scratch(&self) -> u64 {
        self.session.state().hash_from_scratch()
    }
    fn current_player(&self) -> usize {
        self.session.state().current_player()
    }
    fn num_players(&self) -> usize {
        self.session.state().num_players()
    }
    fn is_terminal(&self) -> bool {
        self.session.state().is_terminal()
    }
    fn ended_by_ply_limit(&self) -> bool {
        self.session.state().ended_by_ply_limit()
    }
    fn returns(&self) -> Vec<f64> {
        let state = self.session.state();
        state.outcome().returns(state.num_players())
    }
    fn perft(
        &self,
        depth: u32,
        bulk: bool,
        threads: usize,
        interrupt: &Interrupt<'_>,
    ) -> Result<u64, Stopped> {
        let state = self.session.state();
        match (bulk, threads) {
            (true, _) => glacier_core::parallel::perft_until(state, depth, threads, interrupt),
            (false, _) => {
                let nodes = perft_no_bulk_until(state, depth, &mut interrupt.caller());
                interrupt.result(nodes)
            }
        }
    }
    fn perft_hashed(
        &self,
        depth: u32,
        threads: usize,
        table: &PerftTable,
        interrupt: &Interrupt<'_>,
    ) -> Result<u64, Stopped> {
        let state = self.session.state();
        glacier_core::parallel::perft_hashed_until(state, depth, threads, table, interrupt)
    }
    fn perft_divide(
        &self,
        depth: u32,
        threads: usize,
        interrupt: &Interrupt<'_>,
    ) -> Result<Vec<(String, u64)>, Stopped> {
        glacier_core::parallel::divide_until(self.session.state(), depth, threads, interrupt)
    }
}

/// A session of the game called `name`, at its start or at the position `text`.
pub(super) fn new_session(
    py: Python<'_>,
    name: &str,
    text: Option<&str>,
    params: &Params,
) -> PyResult<Box<dyn DynSession>> {
    let params = params_ref(params);
    with_game!(name, G => {
        let session = match text {
            Some(text) => Session::<G>::from_text(text, &params),
            None => Session::<G>::new(&params),
        }
        .map_err(to_py_err)?;
        Ok(Box::new(Native::new(py, session)))
    }, _ => Err(unknown_game(name)))
}
