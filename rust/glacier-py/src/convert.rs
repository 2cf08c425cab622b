//! Conversions of Python arguments: game parameters, thread counts, depths.

use crate::args;
use crate::errors::InvalidParameterError;
use glacier_core::any::AnyGame;
use glacier_core::threads::MAX_THREADS;
use glacier_core::ParamValue;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt};

/// Python keyword parameters, each value an `int` (not a `bool`) or `None`.
pub(crate) type Params = Vec<(String, ParamValue)>;

/// Converts Python keyword parameters of the game `game`. A value beyond 64 bits is out of
/// every parameter's range: refused here with the core's words.
pub(crate) fn extract_params(game: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<Params> {
    let Some(params) = params else {
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(params.len());
    for (key, value) in params.iter() {
        let name = args::name(&key, "a parameter name")?;
        let value = if value.is_none() {
            ParamValue::None
        } else if value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>() {
            match value.extract::<i64>() {
                Ok(v) => ParamValue::Int(v),
                Err(_) => {
                    let spec = AnyGame::named(game)
                        .ok()
                        .and_then(|g| g.param_specs().iter().find(|s| s.name == name));
                    match spec {
                        Some(spec) => {
                            return Err(InvalidParameterError::new_err(format!(
                                "parameter '{name}' of {game} must be between {} and {}, got {}",
                                spec.min,
                                spec.max,
                                args::integer(&value)
                            )))
                        }
                        // Not a parameter of the game: the core says so.
                        None => ParamValue::Int(0),
                    }
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

/// The parameters as the core takes them.
pub(crate) fn params_ref(params: &[(String, ParamValue)]) -> Vec<(&str, ParamValue)> {
    params.iter().map(|(k, v)| (k.as_str(), *v)).collect()
}

/// `(name, value)` pairs as a Python dict (`None` for [`ParamValue::None`]).
pub(crate) fn params_dict<'py>(
    py: Python<'py>,
    pairs: &[(&'static str, ParamValue)],
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for &(name, value) in pairs {
        match value {
            ParamValue::Int(v) => dict.set_item(name, v)?,
            ParamValue::None => dict.set_item(name, py.None())?,
        }
    }
    Ok(dict)
}

/// The deepest perft either twin counts (deeper trees are beyond reach anyway, and the
/// reference recurses once per ply).
pub(crate) const MAX_PERFT_DEPTH: usize = 255;

/// A thread count: 0 (every core) to [`MAX_THREADS`].
pub(crate) fn check_threads(threads: &Bound<'_, PyAny>) -> PyResult<usize> {
    args::usize_in(threads, "threads", 0, MAX_THREADS)
}

/// A perft depth: 0 to [`MAX_PERFT_DEPTH`].
pub(crate) fn check_depth(depth: &Bound<'_, PyAny>) -> PyResult<u32> {
    args::usize_in(depth, "perft depth", 0, MAX_PERFT_DEPTH).map(|d| d as u32)
}

/// A perft table size in MiB (0 = no table); a table counts in bulk, so it needs `bulk`.
pub(crate) fn check_hash_mb(hash_mb: &Bound<'_, PyAny>, bulk: bool) -> PyResult<usize> {
    let max = glacier_core::perft::MAX_HASH_MB;
    let mb = args::usize_in(hash_mb, "hash_mb", 0, max)?;
    if mb > 0 && !bulk {
        return Err(InvalidParameterError::new_err(
            "hash_mb needs bulk=True: the table stores bulk counts, and bulk=False plays every leaf",
        ));
    }
    Ok(mb)
}
