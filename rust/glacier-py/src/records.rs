//! Module functions for game records (python/glacier/records.py): chess moves in SAN,
//! written and read by the engine for the game that plays chess (the reference has its own
//! twin).

use crate::args;
use crate::convert::{extract_params, params_ref};
use crate::errors::to_py_err;
use glacier_core::any::{AnyGame, AnyState};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The chess position `text`, with its parameters as keywords.
fn chess_position(
    text: &Bound<'_, PyAny>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<AnyState> {
    let text = args::position_text(text)?;
    let chess = AnyGame::chess();
    let params = extract_params(chess.name(), params)?;
    chess
        .state(Some(&text), &params_ref(&params))
        .map_err(to_py_err)
}

/// The SAN of the UCI move `uci` in the chess position `text`.
#[pyfunction]
#[pyo3(signature = (text, uci, **params))]
fn chess_san(
    text: &Bound<'_, PyAny>,
    uci: &Bound<'_, PyAny>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let state = chess_position(text, params)?;
    state
        .record_move_text(&args::move_text(uci)?)
        .map_err(to_py_err)
}

/// The UCI text of the move written in SAN as `san` in the chess position `text`.
#[pyfunction]
#[pyo3(signature = (text, san, **params))]
fn chess_uci(
    text: &Bound<'_, PyAny>,
    san: &Bound<'_, PyAny>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let state = chess_position(text, params)?;
    state
        .move_of_record(&args::move_text(san)?)
        .map_err(to_py_err)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(chess_san, m)?)?;
    m.add_function(wrap_pyfunction!(chess_uci, m)?)?;
    Ok(())
}
