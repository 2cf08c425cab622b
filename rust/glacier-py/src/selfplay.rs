//! Self-play for Python (`glacier.learn.play_games`): the core's `search::selfplay` with a
//! searcher's settings, its leaves evaluated by a net in the engine, a Python callable or
//! the engine's own evaluation; the GIL released while it runs, Ctrl-C stopping it, and
//! its rows returned as numpy arrays.

use crate::errors::InvalidParameterError;
use crate::evaluator::PyEvaluator;
use crate::net::net_evaluator;
use crate::search::{read_state, run_search, NativeSearch};
use glacier_core::any::{AnyGame, AnyState};
use glacier_core::net::NetEvaluator;
use glacier_core::search::selfplay::{SelfPlayConfig, SelfPlayLeaves, SelfPlayRows, SelfPlayRun};
use glacier_core::Error;
use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Mutex, PoisonError};

/// What evaluates the leaves of self-play's searches.
enum Leaves {
    /// The searcher's own evaluation.
    Engine,
    Net(NetEvaluator),
    Python(PyEvaluator),
}

fn run(
    py: Python<'_>,
    start: &AnyState,
    run: &SelfPlayRun,
    on_round: Option<&Py<PyAny>>,
    leaves: &mut Leaves,
) -> PyResult<SelfPlayRows> {
    let raised: Mutex<Option<PyErr>> = Mutex::new(None);
    let progress = |made: usize| -> Result<(), Error> {
        let Some(callback) = on_round else {
            return Ok(());
        };
        Python::attach(|py| callback.call1(py, (made,)).map(drop)).map_err(|err| {
            raised
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert(err);
            Error::Evaluator("the progress callback raised".to_string())
        })
    };
    let outcome = run_search(py, |interrupt| {
        let leaves = match leaves {
            Leaves::Engine => SelfPlayLeaves::Engine,
            Leaves::Net(net) => SelfPlayLeaves::Cloned(&*net),
            Leaves::Python(evaluator) => SelfPlayLeaves::Single(evaluator),
        };
        start.self_play(run, leaves, interrupt, progress)
    });
    let raised = raised.into_inner().unwrap_or_else(PoisonError::into_inner);
    let python_raised = match leaves {
        Leaves::Python(evaluator) => evaluator.raised.take(),
        _ => None,
    };
    match python_raised.or(raised) {
        Some(err) => Err(err),
        None => outcome,
    }
}

/// The rows as a dict of numpy arrays, the array columns shaped `[rows, ...]`.
fn rows_dict<'py>(
    py: Python<'py>,
    rows: SelfPlayRows,
    game: AnyGame,
    players: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let n = rows.len();
    let mut shape = vec![n];
    shape.extend_from_slice(game.observation_shape());
    let actions = game.num_distinct_actions();
    let out = PyDict::new(py);
    out.set_item("game", rows.game.into_pyarray(py))?;
    out.set_item("ply", rows.ply.into_pyarray(py))?;
    out.set_item("player", rows.player.into_pyarray(py))?;
    out.set_item(
        "observation",
        rows.observation.into_pyarray(py).reshape(shape)?,
    )?;
    out.set_item("legal_count", rows.legal_count.into_pyarray(py))?;
    out.set_item(
        "legal_mask",
        rows.legal_mask.into_pyarray(py).reshape([n, actions])?,
    )?;
    out.set_item("action", rows.action.into_pyarray(py))?;
    out.set_item(
        "returns",
        rows.returns.into_pyarray(py).reshape([n, players])?,
    )?;
    out.set_item(
        "policy",
        rows.policy.into_pyarray(py).reshape([n, actions])?,
    )?;
    out.set_item(
        "root_values",
        rows.root_values.into_pyarray(py).reshape([n, players])?,
    )?;
    out.set_item("searched", rows.searched.into_pyarray(py))?;
    Ok(out)
}

fn positive(name: &str, value: i64) -> PyResult<u64> {
    u64::try_from(value)
        .ok()
        .filter(|&v| v >= 1)
        .ok_or_else(|| InvalidParameterError::new_err(format!("{name} must be >= 1, got {value}")))
}

/// Plays games `first..stop` of a self-play run seeded `seed` from `start` (a state between
/// moves) with `searcher`'s settings, `concurrent` at a time, and returns their rows (the
/// columns of `glacier.learn.AZ_COLUMNS`, game after game). `evaluator`: a `NativeNet`, a
/// callable (with `to_play=` if `to_play`), or None for the searcher's own evaluation.
/// `on_round(n)` is called after each round of searches with the moves made.
#[pyfunction]
#[pyo3(signature = (
    searcher, start, first, stop, seed, evaluator, *, simulations, batch_size, temperature,
    temperature_moves, max_moves, concurrent, on_round = None, to_play = false
))]
#[allow(clippy::too_many_arguments)]
fn selfplay_native<'py>(
    py: Python<'py>,
    searcher: PyRef<'_, NativeSearch>,
    start: &Bound<'py, PyAny>,
    first: u64,
    stop: u64,
    seed: u64,
    evaluator: &Bound<'py, PyAny>,
    simulations: i64,
    batch_size: i64,
    temperature: f64,
    temperature_moves: u64,
    max_moves: Option<i64>,
    concurrent: i64,
    on_round: Option<Py<PyAny>>,
    to_play: bool,
) -> PyResult<Bound<'py, PyDict>> {
    if stop <= first {
        return Err(InvalidParameterError::new_err(format!(
            "no games to play: {first}..{stop}"
        )));
    }
    let game = searcher.game();
    let mut leaves = if evaluator.is_none() {
        Leaves::Engine
    } else if let Some(net) = net_evaluator(evaluator, game, "self-play")? {
        Leaves::Net(net)
    } else if evaluator.is_callable() {
        Leaves::Python(PyEvaluator {
            evaluator: evaluator.clone().unbind(),
            to_play,
            raised: None,
        })
    } else {
        return Err(InvalidParameterError::new_err(
            "the evaluator must be a net, a callable or None (the engine's own evaluation)",
        ));
    };
    let config = SelfPlayConfig {
        simulations: positive("simulations", simulations)?,
        temperature: temperature as f32,
        temperature_moves,
        max_moves: max_moves.map(|m| positive("max_moves", m)).transpose()?,
        concurrent: positive("concurrent", concurrent)? as usize,
    };
    let run_args = SelfPlayRun {
        games: first..stop,
        seed,
        config,
        settings: searcher.settings(),
        per_tree: positive("batch_size", batch_size)? as usize,
    };
    drop(searcher);
    let start = read_state(start, game)?;
    let rows = run(py, &start, &run_args, on_round.as_ref(), &mut leaves)?;
    rows_dict(py, rows, game, start.num_players())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(selfplay_native, m)?)
}
