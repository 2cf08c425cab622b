//! The Python binding of glacier-core: converts types and calls the core, nothing else.
//!
//! Every game gets the same Python class shape from [`game_class!`]; the checked logic
//! (parsing moves, undo, history) is `glacier_core::Session`.

use glacier_core::{Error, Game, ParamValue, Session};
use numpy::PyArrayMethods;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString};
use std::collections::HashMap;

mod batch;

pyo3::import_exception!(glacier.errors, GlacierError);
pyo3::import_exception!(glacier.errors, IllegalMoveError);
pyo3::import_exception!(glacier.errors, InvalidPositionError);
pyo3::import_exception!(glacier.errors, InvalidParameterError);

pub(crate) fn to_py_err(err: Error) -> PyErr {
    let msg = err.to_string();
    match err {
        Error::IllegalMove(_) => IllegalMoveError::new_err(msg),
        Error::InvalidPosition(_) => InvalidPositionError::new_err(msg),
        Error::InvalidParameter(_) => InvalidParameterError::new_err(msg),
        Error::NothingToUndo => GlacierError::new_err(msg),
    }
}

/// Converts Python keyword parameters: each value an `int` (not a `bool`) or `None`.
pub(crate) fn extract_params(
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<(String, ParamValue)>> {
    let Some(params) = params else {
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(params.len());
    for (key, value) in params.iter() {
        let name: String = key.extract()?;
        let value = if value.is_none() {
            ParamValue::None
        } else if value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>() {
            match value.extract::<i64>() {
                Ok(v) => ParamValue::Int(v),
                Err(_) => {
                    return Err(InvalidParameterError::new_err(format!(
                        "parameter '{name}' is out of range: {value}"
                    )))
                }
            }
        } else {
            return Err(InvalidParameterError::new_err(format!(
                "parameter '{name}' must be an integer or None, got {}",
                value.get_type().name()?
            )));
        };
        out.push((name, value));
    }
    Ok(out)
}

pub(crate) fn params_ref(params: &[(String, ParamValue)]) -> Vec<(&str, ParamValue)> {
    params.iter().map(|(k, v)| (k.as_str(), *v)).collect()
}

fn params_dict<'py, G: Game>(
    py: Python<'py>,
    session: &Session<G>,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (name, value) in session.param_pairs() {
        match value {
            ParamValue::Int(v) => dict.set_item(name, v)?,
            ParamValue::None => dict.set_item(name, py.None())?,
        }
    }
    Ok(dict)
}

pub(crate) fn check_threads(threads: i64) -> PyResult<usize> {
    usize::try_from(threads).map_err(|_| {
        InvalidParameterError::new_err(format!(
            "threads must be >= 0 (0 = every core), got {threads}"
        ))
    })
}

fn check_depth(depth: i64) -> PyResult<u32> {
    u32::try_from(depth).map_err(|_| {
        InvalidParameterError::new_err(format!("perft depth must be >= 0, got {depth}"))
    })
}

/// Interned move strings for games whose actions have position-independent texts
/// (`Game::action_text`): `legal_moves()` then hands out shared string objects, sorted by a
/// precomputed rank, and `play()` finds a move by a hash lookup instead of comparing texts.
pub(crate) struct ActionTable {
    strings: Vec<Option<Py<PyString>>>,
    rank: Vec<u32>,
    by_text: HashMap<String, usize>,
}

impl ActionTable {
    fn build<G: Game>(py: Python<'_>) -> Option<ActionTable> {
        let n = G::NUM_ACTIONS?;
        let texts: Vec<Option<String>> = (0..n).map(G::action_text).collect();
        let mut order: Vec<usize> = (0..n).filter(|&a| texts[a].is_some()).collect();
        if order.is_empty() {
            return None;
        }
        order.sort_by(|&a, &b| texts[a].cmp(&texts[b]));
        let mut rank = vec![u32::MAX; n];
        for (r, &a) in order.iter().enumerate() {
            rank[a] = r as u32;
        }
        let by_text = order
            .iter()
            .map(|&a| (texts[a].clone().unwrap_or_default(), a))
            .collect();
        let strings = texts
            .iter()
            .map(|t| t.as_deref().map(|t| PyString::intern(py, t).unbind()))
            .collect();
        Some(ActionTable {
            strings,
            rank,
            by_text,
        })
    }

    /// The legal moves as interned strings in ascending order, or `None` if some legal
    /// move has no interned text.
    fn legal_moves<'py, G: Game>(
        &self,
        py: Python<'py>,
        state: &G,
    ) -> Option<Vec<Bound<'py, PyString>>> {
        let mut ids: Vec<(u32, usize)> = Vec::with_capacity(64);
        state.generate_moves(&mut |mv| {
            let a = state.action_of(mv);
            ids.push((self.rank.get(a).copied().unwrap_or(u32::MAX), a));
        });
        ids.sort_unstable();
        ids.iter()
            .map(|&(_, a)| self.strings.get(a)?.as_ref().map(|s| s.bind(py).clone()))
            .collect()
    }

    /// The legal move whose text is `text`, if the table knows the text and the move is legal.
    fn find_move<G: Game>(&self, state: &G, text: &str) -> Option<G::Move> {
        state.move_of_action(*self.by_text.get(text)?)
    }
}

macro_rules! game_class {
    ($class:ident, $game:ty) => {
        #[pyclass(module = "glacier._native")]
        #[derive(Clone, Debug)]
        pub struct $class {
            session: Session<$game>,
        }

        impl $class {
            fn action_move(&self, action: i64) -> PyResult<<$game as Game>::Move> {
                let index = usize::try_from(action).map_err(|_| {
                    IllegalMoveError::new_err(format!(
                        "action {action} is not legal in this position"
                    ))
                })?;
                self.session.action_move(index).map_err(to_py_err)
            }

            fn action_table(py: Python<'_>) -> Option<&'static ActionTable> {
                static TABLE: PyOnceLock<Option<ActionTable>> = PyOnceLock::new();
                TABLE
                    .get_or_init(py, || ActionTable::build::<$game>(py))
                    .as_ref()
            }
        }

        #[pymethods]
        impl $class {
            /// The start position, with the game's parameters as keywords.
            #[new]
            #[pyo3(signature = (**params))]
            fn new(params: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
                let params = extract_params(params)?;
                Ok($class {
                    session: Session::new(&params_ref(&params)).map_err(to_py_err)?,
                })
            }

            /// A position read from its text.
            #[classmethod]
            #[pyo3(signature = (text, **params))]
            fn from_text(
                _cls: &Bound<'_, pyo3::types::PyType>,
                text: &Bound<'_, PyAny>,
                params: Option<&Bound<'_, PyDict>>,
            ) -> PyResult<Self> {
                let text = text
                    .cast::<PyString>()
                    .map_err(|_| PyTypeError::new_err("position text must be a str"))?;
                let params = extract_params(params)?;
                let session =
                    Session::from_text(text.to_str()?, &params_ref(&params)).map_err(to_py_err)?;
                Ok($class { session })
            }

            #[classattr]
            fn game() -> &'static str {
                <$game as Game>::NAME
            }

            /// The game's parameters.
            #[getter]
            fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
                params_dict(py, &self.session)
            }

            /// Legal moves in ascending order; empty when the game is over.
            fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
                if let Some(table) = Self::action_table(py) {
                    if let Some(moves) = table.legal_moves(py, self.session.state()) {
                        return PyList::new(py, moves);
                    }
                }
                let (mut texts, mut spans) = (String::new(), Vec::new());
                self.session.legal_move_texts(&mut texts, &mut spans);
                PyList::new(
                    py,
                    spans.iter().map(|&(a, b)| PyString::new(py, &texts[a..b])),
                )
            }

            /// Plays a move given in RULINGS.md notation.
            fn play(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
                let text = r#move.cast::<PyString>().map_err(|_| {
                    let kind = r#move
                        .get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_default();
                    IllegalMoveError::new_err(format!("a move must be a str, got {kind}"))
                })?;
                let text = text.to_str()?;
                if let Some(table) = Self::action_table(py) {
                    let state = self.session.state();
                    if !state.is_terminal() {
                        if let Some(mv) = table.find_move(state, text) {
                            self.session.play_move(mv);
                            return Ok(());
                        }
                    }
                }
                self.session.play(text).map_err(to_py_err)
            }

            /// The number of action numbers (fixed action space size, or a bound on the
            /// number of legal moves when actions index the legal moves).
            #[classattr]
            fn num_distinct_actions() -> usize {
                <$game as Game>::ACTION_SPACE_SIZE
            }

            /// Whether actions are fixed move numbers (True) or indices of the legal moves in
            /// the engine's generation order (False).
            #[classattr]
            fn fixed_action_space() -> bool {
                <$game as Game>::NUM_ACTIONS.is_some()
            }

            /// The shape of `observation()` (empty when the game has no encoding).
            #[classattr]
            fn observation_shape() -> Vec<usize> {
                <$game as Game>::OBSERVATION_SHAPE.to_vec()
            }

            /// The legal moves as action numbers, ascending.
            fn legal_actions(&self) -> Vec<usize> {
                self.session.legal_actions()
            }

            /// Plays the move an action number stands for.
            fn apply_action(&mut self, action: i64) -> PyResult<()> {
                if self.session.state().is_terminal() {
                    return Err(IllegalMoveError::new_err(format!(
                        "cannot play action {action}: the game is over"
                    )));
                }
                let mv = self.action_move(action)?;
                self.session.play_move(mv);
                Ok(())
            }

            /// The move text of a legal action number.
            fn action_to_move(&self, action: i64) -> PyResult<String> {
                let mv = self.action_move(action)?;
                Ok(self.session.state().move_text(mv))
            }

            /// The state as a float32 array of `observation_shape`, from the point of view of
            /// the player to move.
            fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                let shape = <$game as Game>::OBSERVATION_SHAPE;
                if shape.is_empty() {
                    return Err(GlacierError::new_err(format!(
                        "{} has no observation encoding",
                        <$game as Game>::NAME
                    )));
                }
                let mut out = vec![0.0f32; shape.iter().product()];
                self.session.state().observe(&mut out);
                Ok(numpy::IntoPyArray::into_pyarray(out, py)
                    .reshape(shape)?
                    .into_any())
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

            fn copy(&self) -> Self {
                self.clone()
            }

            fn __copy__(&self) -> Self {
                self.clone()
            }

            fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
                self.clone()
            }

            /// The position text.
            fn text(&self) -> String {
                self.session.state().text()
            }

            /// The 64-bit Zobrist hash.
            fn hash(&self) -> u64 {
                self.session.state().hash()
            }

            /// The hash recomputed from the whole state (always equal to `hash()`).
            fn _hash_from_scratch(&self) -> u64 {
                self.session.state().hash_from_scratch()
            }

            #[getter]
            fn current_player(&self) -> usize {
                self.session.state().current_player()
            }

            #[getter]
            fn num_players(&self) -> usize {
                self.session.state().num_players()
            }

            fn is_terminal(&self) -> bool {
                self.session.state().is_terminal()
            }

            fn returns(&self) -> Vec<f64> {
                let state = self.session.state();
                state.outcome().returns(state.num_players())
            }

            /// Leaf count of the legal-move tree to `depth`, computed with the GIL released.
            /// With `bulk` (the default) the last ply is counted, not played; `threads` > 1
            /// splits the tree over that many threads (0 = every core).
            #[pyo3(signature = (depth, bulk = true, threads = 1))]
            fn perft(&self, py: Python<'_>, depth: i64, bulk: bool, threads: i64) -> PyResult<u64> {
                let depth = check_depth(depth)?;
                let threads = check_threads(threads)?;
                let state = self.session.state().clone();
                Ok(py.detach(move || match (bulk, threads) {
                    (true, 1) => state.perft(depth),
                    (true, _) => glacier_core::parallel::perft(&state, depth, threads),
                    (false, _) => glacier_core::perft::perft_no_bulk(&state, depth),
                }))
            }

            /// Perft below each legal move, as `{move: leaves}` in move order.
            #[pyo3(signature = (depth, threads = 1))]
            fn perft_divide<'py>(
                &self,
                py: Python<'py>,
                depth: i64,
                threads: i64,
            ) -> PyResult<Bound<'py, PyDict>> {
                let depth = check_depth(depth)?;
                let threads = check_threads(threads)?;
                let state = self.session.state().clone();
                let counts =
                    py.detach(move || glacier_core::parallel::divide(&state, depth, threads));
                let dict = PyDict::new(py);
                for (mv, n) in counts {
                    dict.set_item(mv, n)?;
                }
                Ok(dict)
            }

            fn __str__(&self) -> String {
                self.session.state().board_string()
            }

            /// An SVG picture of the position (shown by Jupyter).
            fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
                slf.py()
                    .import("glacier.svg")?
                    .getattr("render")?
                    .call1((slf,))?
                    .extract()
            }

            fn __repr__(&self) -> String {
                format!("<{} '{}'>", stringify!($class), self.session.state().text())
            }

            fn __eq__(&self, other: PyRef<'_, Self>) -> bool {
                let (a, b) = (self.session.state(), other.session.state());
                a.params() == b.params() && a.text() == b.text()
            }

            fn __reduce__<'py>(
                &self,
                py: Python<'py>,
            ) -> PyResult<(
                Bound<'py, PyAny>,
                (&'static str, Bound<'py, PyDict>, String, Vec<String>),
            )> {
                let restore = py.import("glacier")?.getattr("_restore")?;
                let args = (
                    <$game as Game>::NAME,
                    params_dict(py, &self.session)?,
                    self.session.initial_text().to_string(),
                    self.session.moves_played(),
                );
                Ok((restore, args))
            }
        }
    };
}

game_class!(
    IceAgeChessState,
    glacier_core::games::ice_age_chess::IceAgeChess
);
game_class!(
    IceCubeCheckersState,
    glacier_core::games::ice_cube_checkers::IceCubeCheckers
);
game_class!(
    KingsCourtState,
    glacier_core::games::kings_court::KingsCourt
);
game_class!(KubaState, glacier_core::games::kuba::Kuba);
game_class!(
    MartianChineseCheckersState,
    glacier_core::games::martian_chinese_checkers::MartianChineseCheckers
);

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<IceAgeChessState>()?;
    m.add_class::<IceCubeCheckersState>()?;
    m.add_class::<KingsCourtState>()?;
    m.add_class::<KubaState>()?;
    m.add_class::<MartianChineseCheckersState>()?;
    batch::register(m)?;
    Ok(())
}
