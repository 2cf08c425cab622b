//! Module functions for game records (python/glacier/records.py): the SAN of Ice Age Chess
//! moves, written and read by the engine (the reference has its own twin).

use crate::args;
use crate::convert::{extract_params, params_ref};
use crate::errors::to_py_err;
use glacier_core::game::params_from;
use glacier_core::games::ice_age_chess::IceAgeChess;
use glacier_core::{Game, Notation};
use pyo3::prelude::*;
use pyo3::types::PyDict;

fn chess_position(text: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<IceAgeChess> {
    let params = extract_params(IceAgeChess::NAME, params)?;
    let params = params_from::<IceAgeChess>(&params_ref(&params)).map_err(to_py_err)?;
    IceAgeChess::from_text(text, &params).map_err(to_py_err)
}

/// The SAN of the UCI move `uci` in the Ice Age Chess position `text`.
#[pyfunction]
#[pyo3(signature = (text, uci, **params))]
fn chess_san(
    text: &Bound<'_, PyAny>,
    uci: &Bound<'_, PyAny>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let state = chess_position(&args::position_text(text)?, params)?;
    let mv = state
        .parse_move(&args::move_text(uci)?)
        .map_err(to_py_err)?;
    Ok(state.san(mv))
}

/// The UCI text of the move written in SAN as `san` in the Ice Age Chess position `text`.
#[pyfunction]
#[pyo3(signature = (text, san, **params))]
fn chess_uci(
    text: &Bound<'_, PyAny>,
    san: &Bound<'_, PyAny>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let state = chess_position(&args::position_text(text)?, params)?;
    let mv = state.parse_san(&args::move_text(san)?).map_err(to_py_err)?;
    Ok(state.move_text(mv))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(chess_san, m)?)?;
    m.add_function(wrap_pyfunction!(chess_uci, m)?)?;
    Ok(())
}
