//! `GameState`: one Python class for a state of any game, with its history: the core's
//! `AnySession`, and the strings its last `legal_moves()` handed out (strings.rs), so that
//! `play()` of one of those very objects plays its move without reading the text.

mod strings;

use strings::Handed;

use crate::args;
use crate::convert::{
    check_depth, check_hash_mb, check_threads, extract_params, params_dict, params_ref, Params,
};
use crate::errors::{game_named, to_py_err, GlacierError, IllegalMoveError, InvalidParameterError};
use crate::interrupt;
use glacier_core::any::{AnySession, AnyState};
use numpy::{IntoPyArray, PyArray1, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList};
use std::sync::{Mutex, PoisonError};

/// The function `_repr_svg_` calls to draw a state (set by the Python package).
static SVG_RENDERER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// Sets the function that draws a state as SVG for `GameState._repr_svg_` (once).
#[pyfunction]
pub(crate) fn _set_svg_renderer(py: Python<'_>, renderer: Py<PyAny>) {
    let _ = SVG_RENDERER.set(py, renderer);
}

/// A game state of any game, with the moves played since it was created.
#[pyclass(module = "glacier._native")]
pub struct GameState {
    session: AnySession,
    /// The strings the last `legal_moves()` handed out.
    handed: Mutex<Handed>,
}

impl std::fmt::Debug for GameState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "GameState({}, {})",
            self.session.game(),
            self.session.text()
        )
    }
}

impl GameState {
    fn of(session: AnySession) -> Self {
        GameState {
            session,
            handed: Mutex::default(),
        }
    }

    /// The state to search from (an error in the middle of a move).
    pub(crate) fn search_root(&self) -> PyResult<AnyState> {
        self.session.search_root().map_err(to_py_err)
    }
}

impl Clone for GameState {
    fn clone(&self) -> Self {
        GameState::of(self.session.clone())
    }
}

/// A session of the game called `name`, at its start or at the position `text`.
fn new_session(name: &str, text: Option<&str>, params: &Params) -> PyResult<AnySession> {
    game_named(name)?
        .session(text, &params_ref(params))
        .map_err(to_py_err)
}

/// `copy(history=...)`: `True` every kept ply (`None`), `False` none, a number that many.
fn history_plies(value: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    if let Ok(keep) = value.cast::<pyo3::types::PyBool>() {
        return Ok((!keep.is_true()).then_some(0));
    }
    match value.extract::<i64>() {
        Ok(n) => usize::try_from(n).map(Some).map_err(|_| {
            InvalidParameterError::new_err(format!(
                "history must be True, False or a number of plies >= 0, got {n}"
            ))
        }),
        Err(_) => Err(PyTypeError::new_err(format!(
            "history must be True, False or a number of plies, got {}",
            value.get_type().name()?
        ))),
    }
}

/// The start position of the game `name`, with its parameters as keywords.
#[pyfunction]
#[pyo3(signature = (name, **params))]
pub(crate) fn new_game(name: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<GameState> {
    let params = extract_params(name, params)?;
    Ok(GameState::of(new_session(name, None, &params)?))
}

/// The position of the game `name` written as `text`.
#[pyfunction]
#[pyo3(signature = (name, text, **params))]
pub(crate) fn from_text(
    name: &str,
    text: &Bound<'_, PyAny>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<GameState> {
    let text = args::position_text(text)?;
    let params = extract_params(name, params)?;
    Ok(GameState::of(new_session(name, Some(&text), &params)?))
}

/// Rebuilds a pickled state: its game, parameters, start text, the moves played since and
/// the actions taken in the move being made.
#[pyfunction]
#[pyo3(signature = (name, params, text, moves, pending = Vec::new()))]
pub(crate) fn _restore(
    name: &str,
    params: &Bound<'_, PyDict>,
    text: &str,
    moves: Vec<String>,
    pending: Vec<usize>,
) -> PyResult<GameState> {
    let params = extract_params(name, Some(params))?;
    let mut session = new_session(name, Some(text), &params)?;
    for mv in &moves {
        session.play(mv).map_err(to_py_err)?;
    }
    for &action in &pending {
        session.apply_action(action).map_err(to_py_err)?;
    }
    Ok(GameState::of(session))
}

#[pymethods]
impl GameState {
    /// The game's name.
    #[getter]
    fn game(&self) -> &'static str {
        self.session.game().name()
    }

    /// The game's parameters.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        params_dict(py, &self.session.param_pairs())
    }

    /// Legal moves in ascending order; empty when the game is over.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        strings::legal_moves(py, &self.session, &self.handed)
    }

    /// Plays a move given in the game's notation (its rules page).
    fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let handed = self
            .handed
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        // The very string object the last `legal_moves()` gave for a move, in this state.
        if let Some(i) = handed.index_of(r#move) {
            if self.session.play_listed(i) {
                return Ok(());
            }
        }
        self.session
            .play(&args::move_text(r#move)?)
            .map_err(to_py_err)
    }

    /// The number of action numbers: every action is below it, and an action means the
    /// same in every position.
    #[getter]
    fn num_distinct_actions(&self) -> usize {
        self.session.game().num_distinct_actions()
    }

    /// Always True: every game numbers its actions the same way in every position (kept for
    /// code written when some games numbered their legal moves instead).
    #[getter]
    fn fixed_action_space(&self) -> bool {
        true
    }

    /// The most actions a game with these parameters can take from its start (its ply
    /// limit times the most actions one move takes).
    #[getter]
    fn max_game_length(&self) -> u64 {
        self.session.max_game_length()
    }

    /// The shape of `observation()`.
    #[getter]
    fn observation_shape(&self) -> Vec<usize> {
        self.session.game().observation_shape().to_vec()
    }

    /// The legal actions, ascending (in the middle of a move, those that go on with it).
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        strings::legal_actions(py, &self.session)
    }

    /// The legal actions as a bool array of `num_distinct_actions`.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut out = vec![false; self.session.game().num_distinct_actions()];
        self.session.legal_action_mask(&mut out);
        out.into_pyarray(py)
    }

    /// Takes an action: plays the move it completes, or leaves the move half made with the
    /// same player to take the next action.
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let action = args::action(action, IllegalMoveError::new_err)?;
        match action {
            Ok(action) => self.session.apply_action(action),
            Err(shown) => Err(self.session.illegal_action(&shown)),
        }
        .map_err(to_py_err)
    }

    /// The text of the move a legal action completes, or None when the move goes on.
    fn action_to_move(&self, action: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        match args::action(action, IllegalMoveError::new_err)? {
            Ok(action) => self.session.action_move(action),
            Err(shown) => Err(self.session.illegal_action(&shown)),
        }
        .map_err(to_py_err)
    }

    /// The name of an action, the same in every position.
    fn action_to_string(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let game = self.session.game();
        let n = game.num_distinct_actions();
        let action = args::action(action, InvalidParameterError::new_err)?;
        action
            .clone()
            .ok()
            .and_then(|a| game.action_text(a))
            .ok_or_else(|| {
                let action = action.map_or_else(|shown| shown, |a| a.to_string());
                InvalidParameterError::new_err(format!(
                    "{action} is not an action of {} (its actions are numbered 0..{n}, and \
                     some numbers are never legal)",
                    game.name()
                ))
            })
    }

    /// The state as a float32 array of `observation_shape`, from the point of view of
    /// `player` (the player to move when None).
    #[pyo3(signature = (player = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let players = self.session.num_players();
        let player = match player {
            Some(p) if !p.is_none() => args::usize_in(p, "player", 0, players - 1)?,
            _ => self.session.current_player(),
        };
        let shape = self.session.game().observation_shape();
        let mut out = vec![0.0f32; shape.iter().product()];
        self.session.observe(player, &mut out);
        Ok(out.into_pyarray(py).reshape(shape)?.into_any())
    }

    /// The actions to take to play the legal move `move` from here (in the middle of a
    /// move, the rest of them; forced actions, which come by themselves, left out).
    fn move_to_actions(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
        self.session
            .move_actions(&args::move_text(r#move)?)
            .map_err(to_py_err)
    }

    /// Takes back the last action chosen and returns it (in the move being made, or else
    /// the last action of the last move, which is then half made again).
    fn undo_action(&mut self) -> PyResult<usize> {
        self.session.undo_action().map_err(to_py_err)
    }

    /// The actions chosen so far in the move being made (empty between moves).
    #[getter]
    fn pending_actions(&self) -> Vec<usize> {
        self.session.pending_actions()
    }

    /// Every action chosen since this state was created, oldest first: taking them again
    /// from the same start rebuilds the state.
    fn action_history(&self) -> Vec<usize> {
        self.session.action_history()
    }

    /// Takes back the last move and returns it.
    fn undo(&mut self) -> PyResult<String> {
        self.session.undo().map_err(to_py_err)
    }

    /// The moves played since this state was created.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.session.moves_played()
    }

    /// A copy of the position. `history=False` (the default) leaves the moves played with
    /// this state, so a copy costs the same at every ply; `True` copies every ply kept for
    /// `undo()`; a number copies that many of the last ones.
    #[pyo3(signature = (history = None))]
    fn copy(&self, history: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let plies = match history {
            None => Some(0),
            Some(value) => history_plies(value)?,
        };
        Ok(GameState::of(self.session.copy_with_history(plies)))
    }

    /// `copy.copy`: the position only, as `copy()`.
    fn __copy__(&self) -> Self {
        GameState::of(self.session.copy_with_history(Some(0)))
    }

    /// `copy.deepcopy`: everything, the kept history with it.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// The most plies kept for `undo()` (`None`, the default: every one). Set it to keep
    /// memory flat over a long game: older plies are dropped as new ones are played, and an
    /// `undo()` past them raises `HistoryNotKeptError`.
    #[getter]
    fn get_history_limit(&self) -> Option<usize> {
        self.session.history_limit()
    }

    #[setter]
    fn set_history_limit(&mut self, limit: Option<i64>) -> PyResult<()> {
        let limit = limit
            .map(|n| {
                usize::try_from(n).map_err(|_| {
                    InvalidParameterError::new_err(format!(
                        "history_limit must be None or >= 0, got {n}"
                    ))
                })
            })
            .transpose()?;
        self.session.set_history_limit(limit);
        Ok(())
    }

    /// The position text.
    fn text(&self) -> String {
        self.session.text()
    }

    /// The 64-bit Zobrist hash.
    fn hash(&self) -> u64 {
        self.session.hash()
    }

    /// The hash recomputed from the whole state (always equal to `hash()`).
    fn _hash_from_scratch(&self) -> u64 {
        self.session.hash_from_scratch()
    }

    #[getter]
    fn current_player(&self) -> usize {
        self.session.current_player()
    }

    #[getter]
    fn num_players(&self) -> usize {
        self.session.num_players()
    }

    fn is_terminal(&self) -> bool {
        self.session.is_terminal()
    }

    /// Whether the game is over only because it reached its ply limit (what learning
    /// frameworks call a truncation; any other end is a termination).
    fn ended_by_ply_limit(&self) -> bool {
        self.session.ended_by_ply_limit()
    }

    fn returns(&self) -> Vec<f64> {
        self.session.returns()
    }

    /// Every player's value by the game's heuristic (its static evaluation, documented on
    /// each game's rules page), each in [-1, 1]: what ``mcts:...:heuristic`` and
    /// ``alphabeta`` score a position by. The returns once the game is over.
    fn heuristic(&self) -> Vec<f32> {
        self.session.heuristic()
    }

    /// Leaf count of the legal-move tree to `depth`, computed with the GIL released.
    /// With `bulk` (the default) the last ply is counted, not played; `threads` > 1
    /// splits the tree over that many threads (0 = every core). `hash_mb` > 0 counts with
    /// a transposition table of that many MiB (shared by the threads), so a position reached
    /// by several move orders is counted once: the same count, sooner where transpositions
    /// are common. A table of up to 256 MiB is kept for the next count of that size.
    #[pyo3(
        signature = (depth, bulk = true, threads = None, hash_mb = None),
        text_signature = "($self, depth, bulk=True, threads=1, hash_mb=0)"
    )]
    fn perft(
        &self,
        py: Python<'_>,
        depth: &Bound<'_, PyAny>,
        bulk: bool,
        threads: Option<&Bound<'_, PyAny>>,
        hash_mb: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let depth = check_depth(depth)?;
        let threads = threads.map_or(Ok(1), check_threads)?;
        let hash_mb = hash_mb.map_or(Ok(0), |mb| check_hash_mb(mb, bulk))?;
        let session = &self.session;
        let counted = interrupt::run(py, "perft", |stop| {
            session.perft(depth, bulk, threads, hash_mb, stop)
        })?;
        counted.map_err(to_py_err)
    }

    /// Perft below each legal move, as `{move: leaves}` in move order.
    #[pyo3(signature = (depth, threads = None), text_signature = "($self, depth, threads=1)")]
    fn perft_divide<'py>(
        &self,
        py: Python<'py>,
        depth: &Bound<'py, PyAny>,
        threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let depth = check_depth(depth)?;
        let threads = threads.map_or(Ok(1), check_threads)?;
        let session = &self.session;
        let counts = interrupt::run(py, "perft divide", |stop| {
            session.perft_divide(depth, threads, stop)
        })?;
        let dict = PyDict::new(py);
        for (mv, n) in counts {
            dict.set_item(mv, n)?;
        }
        Ok(dict)
    }

    fn __str__(&self) -> String {
        self.session.board_string()
    }

    /// An SVG picture of the position (shown by Jupyter).
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        let py = slf.py();
        let renderer = SVG_RENDERER
            .get(py)
            .ok_or_else(|| GlacierError::new_err("no SVG renderer is set (import glacier)"))?;
        renderer.bind(py).call1((slf,))?.extract()
    }

    fn __repr__(&self) -> String {
        format!("<{} '{}'>", self.session.game(), self.session.text())
    }

    fn __eq__(&self, other: PyRef<'_, Self>) -> bool {
        let (a, b) = (&self.session, &other.session);
        a.game() == b.game()
            && a.param_pairs() == b.param_pairs()
            && a.text() == b.text()
            && a.pending_actions() == b.pending_actions()
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        (
            &'static str,
            Bound<'py, PyDict>,
            String,
            Vec<String>,
            Vec<usize>,
        ),
    )> {
        let restore = py.import("glacier._native")?.getattr("_restore")?;
        let args = (
            self.session.game().name(),
            params_dict(py, &self.session.param_pairs())?,
            self.session.initial_text(),
            self.session.moves_played(),
            self.session.pending_actions(),
        );
        Ok((restore, args))
    }
}
