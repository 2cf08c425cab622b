//! Evaluation nets for Python (`glacier.nets.EvaluationNet`): `NativeEvalNet` holds a core
//! [`EvalNet`] for one game, which alpha-beta scores its positions with (search.rs hands it
//! to the core as a [`NetScore`]); and the games of alpha-beta against itself that
//! `glacier train GAME --for alphabeta` learns from, played with the GIL released.

use crate::errors::{game_named, to_py_err, InvalidParameterError};
use crate::search::{read_state, run_search};
use glacier_core::game::plane_size;
use glacier_core::net::evaluation::games::{PlaySettings, Positions};
use glacier_core::net::evaluation::{Base, EvalNet, EvalShape};
use glacier_core::search::searcher::SearchError;
use numpy::{IntoPyArray, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::sync::Arc;

/// An evaluation net for one game, evaluated by the engine (the base class of
/// `glacier.nets.EvaluationNet`, which checks a net file against its game first).
#[pyclass(module = "glacier._native", frozen, subclass)]
pub struct NativeEvalNet {
    net: Arc<EvalNet>,
    game: &'static str,
}

impl std::fmt::Debug for NativeEvalNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NativeEvalNet({}, {:?})", self.game, self.net.shape())
    }
}

/// The alpha-beta score of `G`'s positions by `net`, which must be for `G`.
pub(crate) fn checked_net(net: &NativeEvalNet, game: &str) -> PyResult<Arc<EvalNet>> {
    if net.game != game {
        return Err(InvalidParameterError::new_err(format!(
            "the evaluation net is for {}, and this search for {game}",
            net.game
        )));
    }
    Ok(Arc::clone(&net.net))
}

#[pymethods]
impl NativeEvalNet {
    /// A net for `game` of these layer sizes, with `weights` laid out as the file's tensors
    /// are listed (docs/learning.md), on `base` (`none`, or `heuristic`: it corrects the
    /// game's heuristic). Ignores further arguments, which a subclass's
    /// `__init__` takes.
    #[new]
    #[pyo3(signature = (game, observation_shape, features, hidden, weights, base, *_args, **_kwargs))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &str,
        observation_shape: Vec<usize>,
        features: usize,
        hidden: Vec<usize>,
        weights: PyReadonlyArray1<'_, f32>,
        base: &str,
        _args: &Bound<'_, PyTuple>,
        _kwargs: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let game = game_named(game)?;
        let (name, shape) = (game.name(), game.observation_shape());
        if observation_shape != shape {
            return Err(InvalidParameterError::new_err(format!(
                "an evaluation net for {name} takes observations of shape {shape:?}, not \
                 {observation_shape:?}"
            )));
        }
        let net_shape = EvalShape {
            inputs: shape.iter().product(),
            plane: plane_size(shape),
            features,
            hidden,
        };
        let base = Base::named(base).map_err(to_py_err)?;
        let weights = weights.as_slice()?.to_vec();
        let net = py
            .detach(|| EvalNet::new(net_shape, weights))
            .map_err(to_py_err)?
            .with_base(base);
        Ok(NativeEvalNet {
            net: Arc::new(net),
            game: name,
        })
    }

    /// The game the net is for.
    #[getter]
    fn game(&self) -> &'static str {
        self.game
    }

    /// The net's score of `state` (between moves, not over) for its player to move, in
    /// (-1, 1): both views computed afresh.
    fn score(&self, state: &Bound<'_, PyAny>) -> PyResult<f32> {
        let state = read_state(state, game_named(self.game)?)?;
        state.evaluation_score(&self.net).map_err(to_py_err)
    }
}

/// The positions as a dict of numpy arrays (the columns of `Positions`).
fn positions_dict(py: Python<'_>, rows: Positions) -> PyResult<Bound<'_, PyDict>> {
    let n = rows.len();
    let out = PyDict::new(py);
    out.set_item("game", rows.game.into_pyarray(py))?;
    out.set_item("ply", rows.ply.into_pyarray(py))?;
    out.set_item("mover", rows.mover.into_pyarray(py))?;
    out.set_item("score", rows.score.into_pyarray(py))?;
    out.set_item("forced", rows.forced.into_pyarray(py))?;
    out.set_item("heuristic", rows.heuristic.into_pyarray(py))?;
    out.set_item("result", rows.result.into_pyarray(py))?;
    out.set_item("tactical", rows.tactical.into_pyarray(py))?;
    out.set_item("counts", rows.counts.into_pyarray(py).reshape([n, 2])?)?;
    out.set_item("features", rows.features.into_pyarray(py))?;
    out.set_item("values", rows.values.into_pyarray(py))?;
    Ok(out)
}

/// Plays `games` games of alpha-beta against itself from `start`, seeded by `seed` and
/// each game's number, each opening with `random_plies` (lowest, highest) random plies,
/// then every move searched to `depth` or `nodes` (the deepest iteration done within them)
/// and scored by `net` (an evaluation net, or None
/// for the game's heuristic), on `threads` threads. Returns the positions searched as a
/// dict of numpy arrays: `game`, `ply`, `mover`, `score` (the search's, for the mover),
/// `forced`, `heuristic` (the game's heuristic, for the mover), `result` (the game's, for the mover), `tactical`, and both views' features as
/// `counts` `[rows, 2]`, `features` and `values` (a feature `inputs + p` is plane `p`).
#[pyfunction]
#[pyo3(signature = (start, net, *, games, seed, depth, nodes, random_plies, threads))]
#[allow(clippy::too_many_arguments)]
fn evaluation_games_native<'py>(
    py: Python<'py>,
    start: &Bound<'py, PyAny>,
    net: Option<Bound<'py, NativeEvalNet>>,
    games: usize,
    seed: u64,
    depth: u32,
    nodes: Option<u64>,
    random_plies: (u32, u32),
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let game: String = start.getattr("game")?.extract()?;
    if !(1..=glacier_core::search::alphabeta::MAX_DEPTH).contains(&depth) {
        return Err(InvalidParameterError::new_err(format!(
            "depth must be between 1 and {}, got {depth}",
            glacier_core::search::alphabeta::MAX_DEPTH
        )));
    }
    let net = match net {
        Some(net) if net.get().game != game => {
            return Err(InvalidParameterError::new_err(format!(
                "the evaluation net is for {}, and these games are {game}",
                net.get().game
            )))
        }
        Some(net) => Some(net.get().net.clone()),
        None => None,
    };
    let settings = PlaySettings {
        games,
        seed,
        depth,
        nodes,
        random_plies,
        threads,
        net,
    };
    let start = read_state(start, game_named(&game)?)?;
    let rows = run_search(py, |interrupt| {
        match start.evaluation_games(&settings, interrupt) {
            Ok(Ok(rows)) => Ok(rows),
            Ok(Err(err)) => Err(SearchError::Error(err)),
            Err(stopped) => Err(SearchError::Stopped(stopped)),
        }
    })?;
    positions_dict(py, rows)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NativeEvalNet>()?;
    m.add_function(wrap_pyfunction!(evaluation_games_native, m)?)
}
