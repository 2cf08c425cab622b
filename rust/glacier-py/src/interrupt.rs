//! Long native calls that Ctrl-C stops: the work runs with the GIL released, and the
//! calling thread checks for signals every few milliseconds (the core's
//! `glacier_core::interrupt`), so that a `KeyboardInterrupt` (or whatever a signal handler
//! raises) comes within a fraction of a second; work whose results cannot be allocated
//! raises `MemoryError` instead of aborting.

use glacier_core::interrupt::{Interrupt, Stopped};
use pyo3::exceptions::{PyKeyboardInterrupt, PyMemoryError};
use pyo3::prelude::*;
use std::sync::Mutex;

/// Runs `work` with the GIL released and an interrupt that Python signals raise; `what`
/// names the results in the `MemoryError` for results that cannot be allocated.
pub(crate) fn run<T: Send>(
    py: Python<'_>,
    what: &str,
    work: impl FnOnce(&Interrupt<'_>) -> Result<T, Stopped> + Send,
) -> PyResult<T> {
    let raised: Mutex<Option<PyErr>> = Mutex::new(None);
    // Only the calling thread runs this (signal handlers run on the main thread, and only
    // there does `check_signals` raise).
    let check = || {
        Python::attach(|py| match py.check_signals() {
            Ok(()) => false,
            Err(err) => {
                *raised
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(err);
                true
            }
        })
    };
    let interrupt = Interrupt::new(&check);
    let result = py.detach(|| work(&interrupt));
    result.map_err(|stopped| match stopped {
        Stopped::Interrupted => raised
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .unwrap_or_else(|| PyKeyboardInterrupt::new_err(())),
        Stopped::OutOfMemory => PyMemoryError::new_err(format!("not enough memory for {what}")),
    })
}
