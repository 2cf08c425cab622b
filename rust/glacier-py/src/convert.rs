//! Conversions of Python arguments: game parameters, thread counts, depths.

use crate::errors::InvalidParameterError;
use glacier_core::ParamValue;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt};

/// Python keyword parameters, each value an `int` (not a `bool`) or `None`.
pub(crate) type Params = Vec<(String, ParamValue)>;

/// Converts Python keyword parameters.
pub(crate) fn extract_params(params: Option<&Bound<'_, PyDict>>) -> PyResult<Params> {
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

pub(crate) fn check_threads(threads: i64) -> PyResult<usize> {
    usize::try_from(threads).map_err(|_| {
        InvalidParameterError::new_err(format!(
            "threads must be >= 0 (0 = every core), got {threads}"
        ))
    })
}

pub(crate) fn check_depth(depth: i64) -> PyResult<u32> {
    u32::try_from(depth).map_err(|_| {
        InvalidParameterError::new_err(format!("perft depth must be >= 0, got {depth}"))
    })
}

/// A perft table size in MiB (0 = no table); a table counts in bulk, so it needs `bulk`.
pub(crate) fn check_hash_mb(hash_mb: i64, bulk: bool) -> PyResult<usize> {
    let max = glacier_core::perft::MAX_HASH_MB;
    match usize::try_from(hash_mb) {
        Ok(mb) if mb <= max && (mb == 0 || bulk) => Ok(mb),
        Ok(mb) if mb <= max => Err(InvalidParameterError::new_err(
            "hash_mb needs bulk=True: the table stores bulk counts, and bulk=False plays every leaf",
        )),
        _ => Err(InvalidParameterError::new_err(format!(
            "hash_mb must be between 0 (no table) and {max}, got {hash_mb}"
        ))),
    }
}
