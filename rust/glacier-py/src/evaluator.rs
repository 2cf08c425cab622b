//! A Python evaluator of MCTS leaves (`glacier.search`'s callable) as the core's
//! `LeafEvaluator`: each call takes the GIL, hands the batch over as numpy arrays (the
//! players to move too, as `to_play=`, when the evaluator takes them), and checks and
//! copies its answer into the search's buffers.

use crate::errors::EvaluatorError;
use glacier_core::search::batch::{LeafBatch, LeafEvaluator, ValueLayout};
use glacier_core::Error;
use numpy::prelude::*;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyUntypedArray};
use pyo3::exceptions::{PyException, PyKeyboardInterrupt};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PySequence};

/// A Python callable as the core's evaluator: called with the GIL taken, its arrays
/// checked and copied into the search's buffers. Python's own exceptions (and the
/// `EvaluatorError`s of a bad answer) are kept in `raised`, to be raised as they are.
pub(crate) struct PyEvaluator {
    pub(crate) evaluator: Py<PyAny>,
    /// Whether it takes the players to move (`to_play=`).
    pub(crate) to_play: bool,
    pub(crate) raised: Option<PyErr>,
}

impl PyEvaluator {
    fn call<'py>(
        &self,
        py: Python<'py>,
        leaves: &mut LeafBatch<'_>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let n = leaves.len;
        let mut shape = vec![n];
        shape.extend_from_slice(leaves.observation_shape);
        // The batch's own arrays become the numpy arrays, without a copy.
        let observations = std::mem::take(&mut leaves.observations)
            .into_pyarray(py)
            .reshape(shape)?;
        let mask = std::mem::take(&mut leaves.legal)
            .into_pyarray(py)
            .reshape([n, leaves.num_actions])?;
        let evaluator = self.evaluator.bind(py);
        let result = if self.to_play {
            let to_play = PyArray1::from_iter(py, leaves.to_play.iter().map(|&p| p as i64));
            let kwargs = PyDict::new(py);
            kwargs.set_item("to_play", to_play)?;
            evaluator.call((observations, mask), Some(&kwargs))
        } else {
            evaluator.call1((observations, mask))
        };
        let result = result.map_err(|err| {
            if err.is_instance_of::<PyKeyboardInterrupt>(py)
                || !err.is_instance_of::<PyException>(py)
            {
                return err;
            }
            let kind = err
                .get_type(py)
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default();
            let wrapped =
                EvaluatorError::new_err(format!("the evaluator raised {kind}: {}", err.value(py)));
            wrapped.set_cause(py, Some(err));
            wrapped
        })?;
        let pair = result
            .cast::<PySequence>()
            .ok()
            .filter(|s| s.len().ok() == Some(2))
            .ok_or_else(|| {
                EvaluatorError::new_err("the evaluator must return a pair (logits, values)")
            })?;
        Ok((pair.get_item(0)?, pair.get_item(1)?))
    }

    fn evaluate_with_gil(
        &self,
        py: Python<'_>,
        leaves: &mut LeafBatch<'_>,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> PyResult<ValueLayout> {
        let (n, players, actions) = (leaves.len, leaves.num_players, leaves.num_actions);
        let (got_logits, got_values) = self.call(py, leaves)?;
        let got_logits = float_array(py, &got_logits, "logits")?;
        if got_logits.shape() != [n, leaves.num_actions] {
            return Err(EvaluatorError::new_err(format!(
                "the evaluator's logits must have shape {:?}, got {:?}",
                [n, leaves.num_actions],
                got_logits.shape()
            )));
        }
        let got_values = float_array(py, &got_values, "values")?;
        let layout = match got_values.shape() {
            [rows, columns] if *rows == n && *columns == players => ValueLayout::PerPlayer,
            [rows] if *rows == n => ValueLayout::Mover,
            other => {
                return Err(EvaluatorError::new_err(format!(
                    "the evaluator's values must have shape {:?} (every player's) or [{n}] \
                     (the player to move's), got {other:?}",
                    [n, players]
                )))
            }
        };
        let got_logits = got_logits
            .cast::<PyArray2<f32>>()
            .map_err(|e| EvaluatorError::new_err(format!("the evaluator's logits: {e}")))?;
        let view = got_logits.readonly();
        let view = view.as_array();
        // Only the legal entries are read by the search.
        let mut firsts = leaves.first_actions.iter();
        for (row, &count) in leaves.move_counts.iter().enumerate() {
            for &action in firsts.by_ref().take(count) {
                logits[row * actions + action] = view[[row, action]];
            }
        }
        copy_floats(&got_values, values)?;
        Ok(layout)
    }
}

/// The evaluator's output `name`: a float32 numpy array.
fn float_array<'py>(
    py: Python<'py>,
    value: &Bound<'py, PyAny>,
    name: &str,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    let array = value.cast::<PyUntypedArray>().map_err(|_| {
        let kind = value
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        EvaluatorError::new_err(format!(
            "the evaluator's {name} must be a numpy array, got {kind}"
        ))
    })?;
    if !array.dtype().is_equiv_to(&numpy::dtype::<f32>(py)) {
        return Err(EvaluatorError::new_err(format!(
            "the evaluator's {name} must have dtype float32, got {}",
            array.dtype()
        )));
    }
    Ok(array.clone())
}

/// Copies a float32 array (checked), in index order, into the start of `out`.
fn copy_floats(array: &Bound<'_, PyUntypedArray>, out: &mut [f32]) -> PyResult<()> {
    let array = array
        .cast::<numpy::PyArrayDyn<f32>>()
        .map_err(|e| EvaluatorError::new_err(format!("the evaluator's output: {e}")))?;
    let view = array.readonly();
    let view = view.as_array();
    for (to, &from) in out.iter_mut().zip(view.iter()) {
        *to = from;
    }
    Ok(())
}

impl LeafEvaluator for PyEvaluator {
    fn evaluate(
        &mut self,
        leaves: &mut LeafBatch<'_>,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<ValueLayout, Error> {
        Python::attach(|py| self.evaluate_with_gil(py, leaves, logits, values)).map_err(|err| {
            let message = err.to_string();
            self.raised = Some(err);
            Error::Evaluator(message)
        })
    }
}
