//! Module functions for game records (python/glacier/records.py): chess moves in SAN,
//! written and read by the engine for the game that plays chess (the reference has its own
//! twin).

use crate::args;
use crate::convert::{extract_params, params_ref};
use crate::errors::to_py_err;
use glacier_core::game::params_from;
use glacier_core::games::Chess;
use glacier_core::Notation;
use pyo3::prelude::*;
use pyo3::types::PyDict;

fn position<G: Notation>(text: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<G> {
    let params = extract_params(G::NAME, params)?;
    let params = params_from::<G>(&params_ref(&params)).map_err(to_py_err)?;
    G::from_text(text, &params).map_err(to_py_err)
}

/// The SAN of the UCI move `uci` in the chess position `text`.
#[pyfunction]
#[pyo3(signature = (text, uci, **params))]
fn chess_san(
    text: &Bound<'_, PyAny>,
    uci: &Bound<'_, PyAny>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let text = args::position_text(text)?;
    let state = position::<Chess>(&text, params)?;
    let mv = state
        .parse_move(&args::move_text(uci)?)
        .map_err(to_py_err)?;
    Ok(state
        .record_move_text(mv)
        .unwrap_or_else(|| state.move_text(mv)))
}

/// The UCI text of the move written in SAN as `san` in the chess position `text`.
#[pyfunction]
#[pyo3(signature = (text, san, **params))]
fn chess_uci(
    text: &Bound<'_, PyAny>,
    san: &Bound<'_, PyAny>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let text = args::position_text(text)?;
    let state = position::<Chess>(&text, params)?;
    let san = args::move_text(san)?;
    let mv = match state.parse_record_move(&san) {
        Some(found) => found,
        None => state.parse_move(&san),
    }
    .map_err(to_py_err)?;
    Ok(state.move_text(mv))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(chess_san, m)?)?;
    m.add_function(wrap_pyfunction!(chess_uci, m)?)?;
    Ok(())
}
