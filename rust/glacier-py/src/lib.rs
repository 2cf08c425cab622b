//! The Python binding of glacier-core: converts types and calls the core, nothing else.
//!
//! `GameState` (state.rs) serves every game through the core's `Session`; `playouts_native`
//! and `NativeVectorEnv` (batch.rs) the batch work. The list of games, their titles and
//! parameter specs come from the core's registry ([`games`]), so the Python package never
//! writes them down itself.

use glacier_core::games::GAME_NAMES;
use glacier_core::{with_game, Game, GameParams, ParamSpec, ParamValue};
use pyo3::prelude::*;
use pyo3::types::PyDict;

mod args;
mod batch;
mod convert;
mod errors;
mod evaluator;
mod interrupt;
mod records;
mod search;
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

/// Every game, in registry order, as a dict: `name`, `title` and `params` (each parameter's
/// `name`, `default`, `min`, `max` and whether it is `optional`, i.e. takes None).
#[pyfunction]
fn games(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    GAME_NAMES
        .iter()
        .map(|&name| {
            let (title, specs) = with_game!(name, G => {
                (G::TITLE, <<G as Game>::Params as GameParams>::SPECS)
            }, _ => unreachable!("every registered game has a type"));
            let dict = PyDict::new(py);
            dict.set_item("name", name)?;
            dict.set_item("title", title)?;
            let params = specs
                .iter()
                .map(|spec| spec_dict(py, spec))
                .collect::<PyResult<Vec<_>>>()?;
            dict.set_item("params", params)?;
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
    Ok(())
}
