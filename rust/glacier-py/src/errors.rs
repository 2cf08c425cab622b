//! The exceptions of `glacier.errors`, and the conversion of the core's errors into them.

use glacier_core::any::AnyGame;
use glacier_core::Error;
use pyo3::PyErr;

pyo3::import_exception!(glacier.errors, GlacierError);
pyo3::import_exception!(glacier.errors, IllegalMoveError);
pyo3::import_exception!(glacier.errors, InvalidPositionError);
pyo3::import_exception!(glacier.errors, InvalidParameterError);
pyo3::import_exception!(glacier.errors, UnknownGameError);
pyo3::import_exception!(glacier.errors, HistoryNotKeptError);
pyo3::import_exception!(glacier.errors, EvaluatorError);

pub(crate) fn to_py_err(err: Error) -> PyErr {
    let msg = err.to_string();
    match err {
        Error::IllegalMove(_) => IllegalMoveError::new_err(msg),
        Error::InvalidPosition(_) => InvalidPositionError::new_err(msg),
        Error::InvalidParameter(_) => InvalidParameterError::new_err(msg),
        Error::NothingToUndo => GlacierError::new_err(msg),
        Error::HistoryNotKept(_) => HistoryNotKeptError::new_err(msg),
        Error::GameOver(_) => GlacierError::new_err(msg),
        Error::Evaluator(_) => EvaluatorError::new_err(msg),
    }
}

/// The game called `name`, or `UnknownGameError`.
pub(crate) fn game_named(name: &str) -> Result<AnyGame, PyErr> {
    AnyGame::named(name).map_err(|unknown| UnknownGameError::new_err(unknown.to_string()))
}
