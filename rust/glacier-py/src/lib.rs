//! The Python binding of glacier-core: converts arguments in and results out, calls the
//! core's any-game layer (`glacier_core::any`) with the GIL released around long work, and
//! makes the Python objects (the strings and ints it hands out shared per process too).
//!
//! `GameState` (state/) holds an `AnySession`; `playouts_native` and `NativeVectorEnv`
//! (batch.rs) an `AnyState` and an `AnyEnv`; `NativeSearch`, `alphabeta_native` (search.rs)
//! and `selfplay_native` (selfplay.rs) an `AnySearcher` and `AnyState`s; `NativeNet`
//! (net.rs) a core net. The list of games, their titles, parameter specs and facts come
//! from the core's registry ([`games`]), so the Python package never writes them down.

use glacier_core::any::AnyGame;
use glacier_core::game::{Arrow, GameFacts, OptionValue, Params};
use glacier_core::{ParamSpec, ParamValue};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

mod args;
mod batch;
mod convert;
mod errors;
mod evalnet;
mod evaluator;
mod interrupt;
mod net;
mod records;
mod search;
mod selfplay;
mod state;

fn spec_dict<'py>(py: Python<'py>, spec: &ParamSpec) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("name", spec.name)?;
    match spec.default {
        ParamValue::Int(v) => dict.set_item("default", v)?,
        ParamValue::None => dict.set_item("default", py.None())?,
    }
    dict.set_item("min", spec.min)?;
    dict.set_item("max", spec.max)?;
    dict.set_item("optional", spec.optional)?;
    Ok(dict)
}

/// Parameters as a dict.
fn params_dict<'py>(py: Python<'py>, params: Params) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for &(name, value) in params {
        dict.set_item(name, value)?;
    }
    Ok(dict)
}

/// A computer player's options as a dict.
fn options_dict<'py>(
    py: Python<'py>,
    options: &[(&str, OptionValue)],
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for &(name, value) in options {
        match value {
            OptionValue::Int(v) => dict.set_item(name, v)?,
            OptionValue::Number(v) => dict.set_item(name, v)?,
            OptionValue::Text(v) => dict.set_item(name, v)?,
        }
    }
    Ok(dict)
}

/// A game's facts (`glacier_core::game::GameFacts`) as Python data, under the names of
/// `glacier.GameSpec`'s fields.
fn facts_into(py: Python<'_>, facts: &GameFacts, dict: &Bound<'_, PyDict>) -> PyResult<()> {
    let seats = PyDict::new(py);
    for &(players, names) in facts.seats {
        seats.set_item(players, PyTuple::new(py, names)?)?;
    }
    dict.set_item("seats", seats)?;
    dict.set_item("mcts_player", options_dict(py, facts.mcts_player)?)?;
    dict.set_item("net_player", options_dict(py, facts.net_player)?)?;
    let levels = PyDict::new(py);
    for &(players, named) in facts.levels {
        levels.set_item(players, PyTuple::new(py, named)?)?;
    }
    dict.set_item("levels", levels)?;
    dict.set_item("playout_plies", facts.playout_plies)?;
    let bench = &facts.bench;
    let depths = PyDict::new(py);
    depths.set_item("perft", bench.perft)?;
    depths.set_item("playouts", bench.playouts)?;
    depths.set_item("perft_bench", bench.perft_bench)?;
    depths.set_item("hashed_perft", bench.hashed_perft)?;
    dict.set_item("bench", depths)?;
    let checks = facts
        .table_checks
        .iter()
        .map(|case| Ok((case.text, params_dict(py, case.params)?, case.depth)))
        .collect::<PyResult<Vec<_>>>()?;
    dict.set_item("table_checks", checks)?;
    let starts = PyDict::new(py);
    for start in facts.starts {
        starts.set_item(start.name, (start.text, params_dict(py, start.params)?))?;
    }
    dict.set_item("starts", starts)?;
    let kin = PyDict::new(py);
    for k in facts.kin {
        kin.set_item(k.game, k.start)?;
    }
    dict.set_item("kin", kin)?;
    let pictures = facts
        .pictures
        .iter()
        .map(|p| {
            let picture = PyDict::new(py);
            picture.set_item("name", p.name)?;
            picture.set_item("caption", p.caption)?;
            picture.set_item("text", p.text)?;
            picture.set_item("params", params_dict(py, p.params)?)?;
            picture.set_item("last_move", p.last_move)?;
            let arrows = p
                .arrows
                .iter()
                .map(|arrow| match *arrow {
                    Arrow::Move(m) => Ok(m.into_pyobject(py)?.into_any()),
                    Arrow::Cells(a, b) => Ok((a, b).into_pyobject(py)?.into_any()),
                })
                .collect::<PyResult<Vec<Bound<'_, PyAny>>>>()?;
            picture.set_item("arrows", PyTuple::new(py, arrows)?)?;
            picture.set_item("perspective", p.perspective)?;
            picture.set_item("flipped", p.flipped)?;
            picture.set_item("cell_names", p.cell_names)?;
            Ok(picture)
        })
        .collect::<PyResult<Vec<_>>>()?;
    dict.set_item("pictures", pictures)?;
    let variants = facts
        .variants
        .iter()
        .map(|params| params_dict(py, params))
        .collect::<PyResult<Vec<_>>>()?;
    dict.set_item("variants", variants)?;
    Ok(())
}

/// Every game, in registry order, as a dict: `name`, `title`, `params` (each parameter's
/// `name`, `default`, `min`, `max` and whether it is `optional`, i.e. takes None) and the
/// game's facts (seat names, default player, workloads, named starts, pictures, variants).
#[pyfunction]
fn games(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    AnyGame::ALL
        .iter()
        .map(|&game| {
            let dict = PyDict::new(py);
            dict.set_item("name", game.name())?;
            dict.set_item("title", game.title())?;
            let params = game
                .param_specs()
                .iter()
                .map(|spec| spec_dict(py, spec))
                .collect::<PyResult<Vec<_>>>()?;
            dict.set_item("params", params)?;
            facts_into(py, &game.facts(), &dict)?;
            Ok(dict)
        })
        .collect()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_class::<state::GameState>()?;
    m.add_function(wrap_pyfunction!(state::new_game, m)?)?;
    m.add_function(wrap_pyfunction!(state::from_text, m)?)?;
    m.add_function(wrap_pyfunction!(state::_restore, m)?)?;
    m.add_function(wrap_pyfunction!(state::_set_svg_renderer, m)?)?;
    batch::register(m)?;
    records::register(m)?;
    search::register(m)?;
    selfplay::register(m)?;
    net::register(m)?;
    evalnet::register(m)?;
    Ok(())
}
