//! The Python binding of glacier-core: converts types and calls the core, nothing else.
//!
//! Every game gets the same Python class shape from [`game_class!`]; the checked logic
//! (parsing moves, undo, history) is `glacier_core::Session`.

use glacier_core::{Error, Game, ParamValue, Session};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};

pyo3::import_exception!(glacier.errors, GlacierError);
pyo3::import_exception!(glacier.errors, IllegalMoveError);
pyo3::import_exception!(glacier.errors, InvalidPositionError);
pyo3::import_exception!(glacier.errors, InvalidParameterError);

fn to_py_err(err: Error) -> PyErr {
    let msg = err.to_string();
    match err {
        Error::IllegalMove(_) => IllegalMoveError::new_err(msg),
        Error::InvalidPosition(_) => InvalidPositionError::new_err(msg),
        Error::InvalidParameter(_) => InvalidParameterError::new_err(msg),
        Error::NothingToUndo => GlacierError::new_err(msg),
    }
}

/// Converts Python keyword parameters: each value an `int` (not a `bool`) or `None`.
fn extract_params(params: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, ParamValue)>> {
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

fn params_ref(params: &[(String, ParamValue)]) -> Vec<(&str, ParamValue)> {
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

fn check_depth(depth: i64) -> PyResult<u32> {
    u32::try_from(depth).map_err(|_| {
        InvalidParameterError::new_err(format!("perft depth must be >= 0, got {depth}"))
    })
}

macro_rules! game_class {
    ($class:ident, $game:ty) => {
        #[pyclass(module = "glacier._native")]
        #[derive(Clone, Debug)]
        pub struct $class {
            session: Session<$game>,
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
            #[staticmethod]
            #[pyo3(signature = (text, **params))]
            fn from_text(
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
            fn legal_moves(&self) -> Vec<String> {
                self.session.legal_moves()
            }

            /// Plays a move given in RULINGS.md notation.
            fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
                let text = r#move.cast::<PyString>().map_err(|_| {
                    IllegalMoveError::new_err(format!(
                        "a move must be a str, got {}",
                        r#move
                            .get_type()
                            .name()
                            .map(|n| n.to_string())
                            .unwrap_or_default()
                    ))
                })?;
                self.session.play(text.to_str()?).map_err(to_py_err)
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
            /// With `bulk` (the default) the last ply is counted, not played.
            #[pyo3(signature = (depth, bulk = true))]
            fn perft(&self, py: Python<'_>, depth: i64, bulk: bool) -> PyResult<u64> {
                let depth = check_depth(depth)?;
                let state = self.session.state().clone();
                Ok(py.detach(move || {
                    if bulk {
                        state.perft(depth)
                    } else {
                        glacier_core::perft::perft_no_bulk(&state, depth)
                    }
                }))
            }

            fn __str__(&self) -> String {
                self.session.state().board_string()
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
    KingsCourtState,
    glacier_core::games::kings_court::KingsCourt
);
game_class!(KubaState, glacier_core::games::kuba::Kuba);

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<KingsCourtState>()?;
    m.add_class::<KubaState>()?;
    Ok(())
}
