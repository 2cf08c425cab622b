//! Checked Python arguments: integers that are integers (not bools, not floats) and in
//! range, texts without lone surrogates, and how a bad value is shown in a message.
//!
//! The reference twin checks its arguments with the same words
//! (`glacier/reference/_checks.py`), so that both raise the same error for the same value.

use crate::errors::{IllegalMoveError, InvalidParameterError, InvalidPositionError};
use glacier_core::notation::Quoted;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};
use pyo3::PyErr;
use std::borrow::Cow;

/// An integer argument: its value when it fits 128 bits, else its sign and bit length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Integer {
    Small(i128),
    Huge { negative: bool, bits: u64 },
}

impl std::fmt::Display for Integer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Integer::Small(v) => write!(f, "{v}"),
            Integer::Huge { negative, bits } => {
                let sign = if *negative { "-" } else { "" };
                write!(f, "{sign}(an integer of {bits} bits)")
            }
        }
    }
}

/// The Python type name of `value`, for messages.
pub(crate) fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// An int as a message shows it (the caller knows it is an int).
pub(crate) fn integer(value: &Bound<'_, PyAny>) -> Integer {
    as_integer(value).unwrap_or(Integer::Small(0))
}

/// `value` as an integer: a Python `int` or a numpy integer, not a bool; `None` otherwise.
fn as_integer(value: &Bound<'_, PyAny>) -> Option<Integer> {
    let int = if value.is_exact_instance_of::<PyInt>() {
        value.clone()
    } else if value.is_instance_of::<PyBool>()
        || matches!(type_name(value).as_str(), "bool" | "bool_")
    {
        return None;
    } else if value.is_instance_of::<PyInt>() {
        value.clone()
    } else if value.hasattr("__index__").unwrap_or(false) {
        value.call_method0("__index__").ok()?
    } else {
        return None;
    };
    if let Ok(v) = int.extract::<i128>() {
        return Some(Integer::Small(v));
    }
    let negative = int.lt(0).unwrap_or(false);
    let bits = int
        .call_method0("bit_length")
        .and_then(|b| b.extract::<u64>())
        .unwrap_or(u64::MAX);
    Some(Integer::Huge { negative, bits })
}

/// An integer argument `what` in `lo..=hi`, else `error` with the words the twins share:
/// "`what` must be an integer, got `type`", "`what` must be between `lo` and `hi`, got `v`"
/// (or "must be >= `lo`" when `hi` is only the type's limit).
pub(crate) fn int_in(
    value: &Bound<'_, PyAny>,
    what: &str,
    lo: i128,
    hi: i128,
    open_above: bool,
    error: fn(String) -> PyErr,
) -> PyResult<i128> {
    let Some(int) = as_integer(value) else {
        return Err(error(format!(
            "{what} must be an integer, got {}",
            type_name(value)
        )));
    };
    if matches!(int, Integer::Small(v) if (lo..=hi).contains(&v)) {
        if let Integer::Small(v) = int {
            return Ok(v);
        }
    }
    let below = matches!(int, Integer::Small(v) if v < lo)
        || matches!(int, Integer::Huge { negative: true, .. });
    Err(error(if !open_above {
        format!("{what} must be between {lo} and {hi}, got {int}")
    } else if below {
        format!("{what} must be >= {lo}, got {int}")
    } else {
        format!("{what} must be at most {hi}, got {int}")
    }))
}

fn parameter_error(msg: String) -> PyErr {
    InvalidParameterError::new_err(msg)
}

/// A count-like argument (`games`, `num_envs`, a thread count...) in `lo..=hi`.
pub(crate) fn usize_in(
    value: &Bound<'_, PyAny>,
    what: &str,
    lo: usize,
    hi: usize,
) -> PyResult<usize> {
    let open_above = hi == usize::MAX;
    int_in(
        value,
        what,
        lo as i128,
        hi as i128,
        open_above,
        parameter_error,
    )
    .map(|v| v as usize)
}

/// A 64-bit seed.
pub(crate) fn seed(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    int_in(value, "seed", 0, u64::MAX as i128, false, parameter_error).map(|v| v as u64)
}

/// An optional count limited to 32 bits (`cutoff`).
pub(crate) fn optional_u32(value: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<u32>> {
    match value {
        Some(v) if !v.is_none() => {
            int_in(v, what, 0, u32::MAX as i128, false, parameter_error).map(|v| Some(v as u32))
        }
        _ => Ok(None),
    }
}

/// An action number: `Ok(Ok(a))` when it can be one, `Ok(Err(shown))` for an integer that
/// is no action (negative or too large; `shown` as the message writes it), and an
/// `error` for anything that is not an integer.
pub(crate) fn action(
    value: &Bound<'_, PyAny>,
    error: fn(String) -> PyErr,
) -> PyResult<Result<usize, String>> {
    let Some(int) = as_integer(value) else {
        return Err(error(format!(
            "an action must be an integer, got {}",
            type_name(value)
        )));
    };
    Ok(match int {
        Integer::Small(v) => usize::try_from(v).map_err(|_| int.to_string()),
        Integer::Huge { .. } => Err(int.to_string()),
    })
}

/// `text` with every lone surrogate written as `\udXXX` (as Python's `repr` writes it), and
/// whether it held any.
fn escape_surrogates(text: &Bound<'_, PyString>) -> PyResult<(String, bool)> {
    if let Ok(s) = text.to_cow() {
        return Ok((s.into_owned(), false));
    }
    // UTF-32 with "surrogatepass" keeps every code point as it is, a lone surrogate too
    // (UTF-16 would pair a high one with a low one that follows it, as Python does not).
    let bytes = text
        .call_method1("encode", ("utf-32-le", "surrogatepass"))?
        .extract::<Vec<u8>>()?;
    let mut out = String::new();
    for unit in bytes.chunks_exact(4) {
        let code = u32::from_le_bytes([unit[0], unit[1], unit[2], unit[3]]);
        match char::from_u32(code) {
            Some(c) => out.push(c),
            None => out.push_str(&format!("\\u{code:04x}")),
        }
    }
    Ok((out, true))
}

/// A text argument (`what` is "move" or "position text"): a `str` without lone surrogates.
fn text_arg<'a>(
    value: &'a Bound<'_, PyAny>,
    what: &str,
    error: fn(String) -> PyErr,
) -> PyResult<Cow<'a, str>> {
    let text = value
        .cast::<PyString>()
        .map_err(|_| error(format!("a {what} must be a str, got {}", type_name(value))))?;
    if let Ok(text) = text.to_cow() {
        return Ok(text);
    }
    let (escaped, lone) = escape_surrogates(text)?;
    if lone {
        return Err(error(format!(
            "the {what} {} is not text: it holds a lone surrogate",
            Quoted(&escaped)
        )));
    }
    Ok(Cow::Owned(escaped))
}

/// A move text argument.
pub(crate) fn move_text<'a>(value: &'a Bound<'_, PyAny>) -> PyResult<Cow<'a, str>> {
    text_arg(value, "move", IllegalMoveError::new_err)
}

/// A position text argument.
pub(crate) fn position_text<'a>(value: &'a Bound<'_, PyAny>) -> PyResult<Cow<'a, str>> {
    text_arg(value, "position text", InvalidPositionError::new_err)
}

/// An optional position text argument (`None`: the start).
pub(crate) fn optional_position_text<'a>(
    value: Option<&'a Bound<'_, PyAny>>,
) -> PyResult<Option<Cow<'a, str>>> {
    match value {
        Some(v) if !v.is_none() => position_text(v).map(Some),
        _ => Ok(None),
    }
}

/// A name (of a game or a parameter), with lone surrogates escaped so that it can be
/// quoted in the error that refuses it.
pub(crate) fn name(value: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let text = value.cast::<PyString>().map_err(|_| {
        InvalidParameterError::new_err(format!("{what} must be a str, got {}", type_name(value)))
    })?;
    Ok(escape_surrogates(text)?.0)
}
