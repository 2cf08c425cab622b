//! Batch work for Python: random playouts and the batched environment, with numpy arrays in
//! and out and no Python object per move.

use crate::convert::{check_threads, extract_params, params_ref};
use crate::errors::{to_py_err, unknown_game, InvalidParameterError};
use glacier_core::env::{StepResult, VecEnv};
use glacier_core::game::{params_for_text, params_from};
use glacier_core::parallel::{playouts, Playout};
use glacier_core::{with_game, Error, FullGame, Game, Notation, Outcome};
use numpy::{IntoPyArray, PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The start state of `game`: its start position, or `text` when given.
fn start_state<G: FullGame>(
    text: Option<&str>,
    params: &[(String, glacier_core::ParamValue)],
) -> Result<G, Error> {
    let params = params_ref(params);
    match text {
        Some(text) => G::from_text(text, &params_for_text::<G>(text, &params)?),
        None => Ok(G::start(&params_from::<G>(&params)?)),
    }
}

/// `games` random playouts of `game`, on `threads` threads (0 = every core); the same
/// results for any thread count. Returns numpy arrays: `length` (plies), `winner` (player,
/// or -1 for a draw or a game cut off), `finished`, `returns` (games x players) and
/// `legal_moves` (the legal-move counts summed over each game's plies).
#[pyfunction]
#[pyo3(signature = (game, games, seed = 0, threads = 0, position = None, cutoff = None, **params))]
#[allow(clippy::too_many_arguments)]
fn playouts_native<'py>(
    py: Python<'py>,
    game: &str,
    games: i64,
    seed: u64,
    threads: i64,
    position: Option<&str>,
    cutoff: Option<u32>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let games = usize::try_from(games)
        .map_err(|_| InvalidParameterError::new_err(format!("games must be >= 0, got {games}")))?;
    let threads = check_threads(threads)?;
    let params = extract_params(params)?;
    let (results, players): (Vec<Playout>, usize) = with_game!(game, G => {
        let start: G = start_state(position, &params).map_err(to_py_err)?;
        let players = start.num_players();
        (py.detach(|| playouts(&start, games, seed, threads, cutoff)), players)
    }, _ => return Err(unknown_game(game)));

    let out = PyDict::new(py);
    out.set_item(
        "length",
        results
            .iter()
            .map(|p| p.length)
            .collect::<Vec<u32>>()
            .into_pyarray(py),
    )?;
    let winner = |p: &Playout| match p.outcome {
        Outcome::Win(w) => i8::try_from(w).unwrap_or(i8::MAX),
        _ => -1,
    };
    out.set_item(
        "winner",
        results
            .iter()
            .map(winner)
            .collect::<Vec<i8>>()
            .into_pyarray(py),
    )?;
    out.set_item(
        "finished",
        results
            .iter()
            .map(|p| p.outcome != Outcome::Ongoing)
            .collect::<Vec<bool>>()
            .into_pyarray(py),
    )?;
    let returns: Vec<f64> = results
        .iter()
        .flat_map(|p| p.outcome.returns(players))
        .collect();
    out.set_item(
        "returns",
        returns.into_pyarray(py).reshape([games, players])?,
    )?;
    out.set_item(
        "legal_moves",
        results
            .iter()
            .map(|p| p.legal_moves)
            .collect::<Vec<u64>>()
            .into_pyarray(py),
    )?;
    Ok(out)
}

/// The object-safe face of `VecEnv<G>`, so one Python class serves every game.
trait DynEnv: Send + Sync {
    fn game(&self) -> &'static str;
    fn num_envs(&self) -> usize;
    fn num_players(&self) -> usize;
    fn num_actions(&self) -> Option<usize>;
    fn observation_shape(&self) -> &'static [usize];
    fn reset(&mut self);
    fn step(
        &mut self,
        actions: &[i64],
        returns: &mut [f64],
        results: &mut [StepResult],
    ) -> Result<(), Error>;
    fn legal_counts(&self, out: &mut [u32]);
    fn legal_mask(&self, out: &mut [bool]) -> Result<(), Error>;
    fn observations(&self, out: &mut [f32]);
    fn current_players(&self) -> Vec<i32>;
    fn texts(&self) -> Vec<String>;
    fn legal_actions(&self, env: usize) -> Vec<(i64, String)>;
    fn random_actions(&mut self, out: &mut [i64]);
}

impl<G: FullGame> DynEnv for VecEnv<G> {
    fn game(&self) -> &'static str {
        G::NAME
    }
    fn num_envs(&self) -> usize {
        VecEnv::num_envs(self)
    }
    fn num_players(&self) -> usize {
        VecEnv::num_players(self)
    }
    fn num_actions(&self) -> Option<usize> {
        G::FIXED.then_some(G::NUM_DISTINCT_ACTIONS)
    }
    fn observation_shape(&self) -> &'static [usize] {
        G::OBSERVATION_SHAPE
    }
    fn reset(&mut self) {
        VecEnv::reset(self);
    }
    fn step(
        &mut self,
        actions: &[i64],
        returns: &mut [f64],
        results: &mut [StepResult],
    ) -> Result<(), Error> {
        VecEnv::step(self, actions, returns, results)
    }
    fn legal_counts(&self, out: &mut [u32]) {
        VecEnv::legal_counts(self, out);
    }
    fn legal_mask(&self, out: &mut [bool]) -> Result<(), Error> {
        VecEnv::legal_mask(self, out)
    }
    fn observations(&self, out: &mut [f32]) {
        VecEnv::observations(self, out);
    }
    fn current_players(&self) -> Vec<i32> {
        self.states().map(|s| s.current_player() as i32).collect()
    }
    fn texts(&self) -> Vec<String> {
        self.states().map(Notation::text).collect()
    }
    fn legal_actions(&self, env: usize) -> Vec<(i64, String)> {
        VecEnv::legal_actions(self, env)
    }
    fn random_actions(&mut self, out: &mut [i64]) {
        VecEnv::random_actions(self, out);
    }
}

/// Many games of one kind stepped at once (the native core of `glacier.VectorEnv`).
#[pyclass(module = "glacier._native")]
pub struct NativeVectorEnv {
    inner: Box<dyn DynEnv>,
}

impl std::fmt::Debug for NativeVectorEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "NativeVectorEnv({}, {} envs)",
            self.inner.game(),
            self.inner.num_envs()
        )
    }
}

#[pymethods]
impl NativeVectorEnv {
    #[new]
    #[pyo3(signature = (game, num_envs, auto_reset = true, position = None, seed = 0, threads = 1, **params))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &str,
        num_envs: i64,
        auto_reset: bool,
        position: Option<&str>,
        seed: u64,
        threads: i64,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let threads = check_threads(threads)?;
        let num_envs = usize::try_from(num_envs)
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| {
                InvalidParameterError::new_err(format!("num_envs must be >= 1, got {num_envs}"))
            })?;
        let params = extract_params(params)?;
        let inner: Box<dyn DynEnv> = with_game!(game, G => {
            let start: G = start_state(position, &params).map_err(to_py_err)?;
            Box::new(VecEnv::new(start, num_envs, auto_reset, seed, threads))
        }, _ => return Err(unknown_game(game)));
        Ok(NativeVectorEnv { inner })
    }

    #[getter]
    fn game(&self) -> &'static str {
        self.inner.game()
    }
    #[getter]
    fn num_envs(&self) -> usize {
        self.inner.num_envs()
    }
    #[getter]
    fn num_players(&self) -> usize {
        self.inner.num_players()
    }
    #[getter]
    fn num_actions(&self) -> Option<usize> {
        self.inner.num_actions()
    }
    #[getter]
    fn observation_shape(&self) -> Vec<usize> {
        self.inner.observation_shape().to_vec()
    }

    fn reset(&mut self) {
        self.inner.reset();
    }

    /// Plays `actions` (int64, one per environment). Returns `(returns, terminated,
    /// episode_lengths)`: returns (envs x players) of the episodes that ended on this step.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<u32>>,
    )> {
        let actions = actions
            .as_slice()
            .map_err(|e| InvalidParameterError::new_err(e.to_string()))?
            .to_vec();
        let (n, players) = (self.inner.num_envs(), self.inner.num_players());
        let mut returns = vec![0.0; n * players];
        let mut results = vec![
            StepResult {
                terminated: false,
                episode_length: 0
            };
            n
        ];
        let inner = &mut self.inner;
        py.detach(|| inner.step(&actions, &mut returns, &mut results))
            .map_err(to_py_err)?;
        let terminated: Vec<bool> = results.iter().map(|r| r.terminated).collect();
        let lengths: Vec<u32> = results.iter().map(|r| r.episode_length).collect();
        Ok((
            returns.into_pyarray(py).reshape([n, players])?.into_any(),
            terminated.into_pyarray(py),
            lengths.into_pyarray(py),
        ))
    }

    fn legal_counts<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        let mut out = vec![0; self.inner.num_envs()];
        self.inner.legal_counts(&mut out);
        out.into_pyarray(py)
    }

    fn legal_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let size = self.inner.num_actions().unwrap_or(0);
        let n = self.inner.num_envs();
        let mut out = vec![false; n * size];
        self.inner.legal_mask(&mut out).map_err(to_py_err)?;
        Ok(out.into_pyarray(py).reshape([n, size])?.into_any())
    }

    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let shape = self.inner.observation_shape();
        let n = self.inner.num_envs();
        let mut out = vec![0.0f32; n * shape.iter().product::<usize>()];
        self.inner.observations(&mut out);
        let mut full = vec![n];
        full.extend_from_slice(shape);
        Ok(out.into_pyarray(py).reshape(full)?.into_any())
    }

    fn current_players<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        self.inner.current_players().into_pyarray(py)
    }

    fn texts(&self) -> Vec<String> {
        self.inner.texts()
    }

    /// A uniformly random legal action per environment (-1 where an episode has ended),
    /// from the environment's own seeded generator.
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut out = vec![0; self.inner.num_envs()];
        self.inner.random_actions(&mut out);
        out.into_pyarray(py)
    }

    fn legal_actions(&self, env: usize) -> PyResult<Vec<(i64, String)>> {
        if env >= self.inner.num_envs() {
            return Err(InvalidParameterError::new_err(format!(
                "no environment {env}"
            )));
        }
        Ok(self.inner.legal_actions(env))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(playouts_native, m)?)?;
    m.add_class::<NativeVectorEnv>()?;
    Ok(())
}
