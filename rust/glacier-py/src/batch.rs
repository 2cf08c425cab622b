//! Batch work for Python: random playouts and the batched environment, with numpy arrays in
//! and out and no Python object per move.

use crate::args;
use crate::convert::{check_threads, extract_params, params_ref};
use crate::errors::{game_named, to_py_err, InvalidParameterError};
use crate::interrupt;
use glacier_core::any::AnyEnv;
use glacier_core::env::{MaskOut, ObservationOut, StepResult, VIEWS};
use glacier_core::parallel::Playout;
use glacier_core::{Error, Outcome};
use numpy::{IntoPyArray, PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadwriteArrayDyn};
use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// `games` random playouts of `game`, on `threads` threads (0 = every core); the same
/// results for any thread count. Returns numpy arrays: `length` (plies), `winner` (player,
/// or -1 for a draw or a game cut off), `finished`, `returns` (games x players) and
/// `legal_moves` (the legal-move counts summed over each game's plies).
#[pyfunction]
#[pyo3(
    signature = (game, games, seed = None, threads = None, position = None, cutoff = None, **params),
    text_signature = "(game, games, seed=0, threads=0, position=None, cutoff=None, **params)"
)]
#[allow(clippy::too_many_arguments)]
fn playouts_native<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    games: &Bound<'py, PyAny>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    position: Option<&Bound<'py, PyAny>>,
    cutoff: Option<&Bound<'py, PyAny>>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let game = &args::name(game, "a game name")?;
    let games = args::usize_in(games, "games", 0, usize::MAX)?;
    let seed = seed.map_or(Ok(0), args::seed)?;
    let threads = threads.map_or(Ok(0), check_threads)?;
    let position = args::optional_position_text(position)?;
    let cutoff = args::optional_u32(cutoff, "cutoff")?;
    let params = extract_params(game, params)?;
    let what = format!("the results of {games} playouts");
    let start = game_named(game)?
        .state(position.as_deref(), &params_ref(&params))
        .map_err(to_py_err)?;
    let players = start.num_players();
    let results: Vec<Playout> = interrupt::run(py, &what, |stop| {
        start.playouts(games, seed, threads, cutoff, stop)
    })?;
    let column = |size: usize| -> PyResult<()> {
        Vec::<u8>::new()
            .try_reserve_exact(size)
            .map_err(|_| PyMemoryError::new_err(format!("not enough memory for {what}")))
    };
    let out = PyDict::new(py);
    column(games * 4)?;
    let length: Vec<u32> = results.iter().map(|p| p.length).collect();
    out.set_item("length", length.into_pyarray(py))?;
    let winner = |p: &Playout| match p.outcome {
        Outcome::Win(w) => i8::try_from(w).unwrap_or(i8::MAX),
        _ => -1,
    };
    column(games)?;
    let winners: Vec<i8> = results.iter().map(winner).collect();
    out.set_item("winner", winners.into_pyarray(py))?;
    column(games)?;
    let finished: Vec<bool> = results
        .iter()
        .map(|p| p.outcome != Outcome::Ongoing)
        .collect();
    out.set_item("finished", finished.into_pyarray(py))?;
    column(games.saturating_mul(8 * players))?;
    let returns: Vec<f64> = results
        .iter()
        .flat_map(|p| p.outcome.returns(players))
        .collect();
    out.set_item(
        "returns",
        returns.into_pyarray(py).reshape([games, players])?,
    )?;
    column(games * 8)?;
    let legal_moves: Vec<u64> = results.iter().map(|p| p.legal_moves).collect();
    out.set_item("legal_moves", legal_moves.into_pyarray(py))?;
    Ok(out)
}

/// A numpy bool array as a slice, one entry per environment.
fn env_mask<'a>(mask: &'a PyReadonlyArray1<'_, bool>, n: usize) -> PyResult<&'a [bool]> {
    let mask = mask
        .as_slice()
        .map_err(|e| InvalidParameterError::new_err(e.to_string()))?;
    if mask.len() != n {
        return Err(InvalidParameterError::new_err(format!(
            "expected a mask of {n} environments, got {}",
            mask.len()
        )));
    }
    Ok(mask)
}

/// A kept buffer's number: below [`VIEWS`] (0 when not given).
fn check_view(view: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    match view {
        Some(v) if !v.is_none() => args::usize_in(v, "view", 0, VIEWS - 1),
        _ => Ok(0),
    }
}

/// The data of a writable numpy array that must hold exactly `size` values, in order.
fn writable<'a, T: numpy::Element>(
    array: &'a mut PyReadwriteArrayDyn<'_, T>,
    size: usize,
    what: &str,
) -> PyResult<&'a mut [T]> {
    let data = array.as_slice_mut().map_err(|_| {
        InvalidParameterError::new_err(format!("the {what} buffer must be a C-contiguous array"))
    })?;
    if data.len() != size {
        return Err(InvalidParameterError::new_err(format!(
            "the {what} buffer holds {} values, {size} are needed",
            data.len()
        )));
    }
    Ok(data)
}

/// Many games of one kind stepped at once (the native core of `glacier.VectorEnv`).
#[pyclass(module = "glacier._native")]
pub struct NativeVectorEnv {
    inner: AnyEnv,
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

impl NativeVectorEnv {
    fn check_env(&self, env: &Bound<'_, PyAny>) -> PyResult<usize> {
        let n = self.inner.num_envs();
        match args::action(env, |m| {
            InvalidParameterError::new_err(m.replacen("an action", "env", 1))
        })? {
            Ok(env) if env < n => Ok(env),
            Ok(env) => Err(InvalidParameterError::new_err(format!(
                "no environment {env}"
            ))),
            Err(shown) => Err(InvalidParameterError::new_err(format!(
                "no environment {shown}"
            ))),
        }
    }

    fn check_player(&self, player: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
        let players = self.inner.num_players();
        match player {
            Some(p) if !p.is_none() => args::usize_in(p, "player", 0, players - 1).map(Some),
            _ => Ok(None),
        }
    }
}

#[pymethods]
impl NativeVectorEnv {
    #[new]
    #[pyo3(
        signature = (game, num_envs, auto_reset = true, position = None, seed = None, threads = None, agent = None, **params),
        text_signature = "(game, num_envs, auto_reset=True, position=None, seed=0, threads=0, agent=None, **params)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &Bound<'_, PyAny>,
        num_envs: &Bound<'_, PyAny>,
        auto_reset: bool,
        position: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        agent: Option<&Bound<'_, PyAny>>,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let game = &args::name(game, "a game name")?;
        let threads = threads.map_or(Ok(0), check_threads)?;
        let num_envs = args::usize_in(num_envs, "num_envs", 1, usize::MAX)?;
        let seed = seed.map_or(Ok(0), args::seed)?;
        let position = args::optional_position_text(position)?;
        let agent = match agent {
            Some(a) if !a.is_none() => Some(args::usize_in(a, "the agent's seat", 0, usize::MAX)?),
            _ => None,
        };
        let params = extract_params(game, params)?;
        let start = game_named(game)?
            .state(position.as_deref(), &params_ref(&params))
            .map_err(to_py_err)?;
        let mut inner = start
            .env(num_envs, auto_reset, seed, threads)
            .map_err(|_| {
                PyMemoryError::new_err(format!("not enough memory for {num_envs} environments"))
            })?;
        if let Some(seat) = agent {
            inner.set_opponent(Some(seat)).map_err(to_py_err)?;
        }
        Ok(NativeVectorEnv { inner })
    }

    #[getter]
    fn game(&self) -> &'static str {
        self.inner.game().name()
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
    fn num_actions(&self) -> usize {
        self.inner.num_actions()
    }
    #[getter]
    fn observation_shape(&self) -> Vec<usize> {
        self.inner.observation_shape().to_vec()
    }

    fn reset(&mut self) {
        self.inner.reset();
    }

    /// Puts back at the start the environments where `mask` (bool, one per environment) is True.
    fn reset_some(&mut self, mask: PyReadonlyArray1<'_, bool>) -> PyResult<()> {
        let n = self.inner.num_envs();
        let which = env_mask(&mask, n)?.to_vec();
        self.inner.reset_some(&which).map_err(to_py_err)
    }

    /// Takes `actions` (int64, one per environment; -1 takes no action, and an environment
    /// whose game is over must be given -1). Returns `(rewards, returns, terminated,
    /// truncated, episode_lengths, current_players, ended)`: returns (envs x players) of
    /// the episodes that ended on this step, rewards those of the players who acted (or of
    /// the agent), each environment's player to move after the step, and how many episodes
    /// ended (so that a caller asks the flags only then). With
    /// `observations` and `masks` (kept buffers, as `update_observations` and
    /// `update_legal_mask` take them), the step also brings them up to date, from
    /// `player`'s point of view, in the same call; `masks_view`, `fresh_masks`,
    /// `observations_view` and `fresh_observations` as `view` and `fresh` there.
    #[pyo3(signature = (actions, observations = None, masks = None, player = None, masks_view = None, fresh_masks = false, observations_view = None, fresh_observations = false))]
    #[allow(clippy::type_complexity, clippy::too_many_arguments)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
        observations: Option<PyReadwriteArrayDyn<'py, f32>>,
        masks: Option<PyReadwriteArrayDyn<'py, bool>>,
        player: Option<&Bound<'py, PyAny>>,
        masks_view: Option<&Bound<'py, PyAny>>,
        fresh_masks: bool,
        observations_view: Option<&Bound<'py, PyAny>>,
        fresh_observations: bool,
    ) -> PyResult<(
        Bound<'py, PyArray1<f64>>,
        Bound<'py, PyAny>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<u32>>,
        Bound<'py, PyArray1<i32>>,
        usize,
    )> {
        let actions = actions
            .as_slice()
            .map_err(|e| InvalidParameterError::new_err(e.to_string()))?;
        let player = self.check_player(player)?;
        let (masks_view, observations_view) =
            (check_view(masks_view)?, check_view(observations_view)?);
        let (n, players) = (self.inner.num_envs(), self.inner.num_players());
        let mut observations = observations;
        let mut masks = masks;
        let obs_size = n * self.inner.observation_shape().iter().product::<usize>();
        let mask_size = n * self.inner.num_actions();
        let obs_out = match observations.as_mut() {
            Some(array) => Some(writable(array, obs_size, "observations")?),
            None => None,
        };
        let mask_out = match masks.as_mut() {
            Some(array) => Some(writable(array, mask_size, "legal_mask")?),
            None => None,
        };
        let mut returns = vec![0.0; n * players];
        let mut results = vec![StepResult::default(); n];
        let inner = &mut self.inner;
        py.detach(|| -> Result<(), Error> {
            let masks = mask_out.map(|out| MaskOut {
                out,
                view: masks_view,
                fresh: fresh_masks,
            });
            let observations = obs_out.map(|out| ObservationOut {
                out,
                player,
                view: observations_view,
                fresh: fresh_observations,
            });
            inner.step(actions, &mut returns, &mut results, masks, observations)
        })
        .map_err(to_py_err)?;
        let rewards: Vec<f64> = results.iter().map(|r| r.reward).collect();
        let terminated: Vec<bool> = results.iter().map(|r| r.terminated).collect();
        let truncated: Vec<bool> = results.iter().map(|r| r.truncated).collect();
        let lengths: Vec<u32> = results.iter().map(|r| r.episode_length).collect();
        let ended = results
            .iter()
            .filter(|r| r.terminated || r.truncated)
            .count();
        Ok((
            rewards.into_pyarray(py),
            returns.into_pyarray(py).reshape([n, players])?.into_any(),
            terminated.into_pyarray(py),
            truncated.into_pyarray(py),
            lengths.into_pyarray(py),
            self.inner.current_players().into_pyarray(py),
            ended,
        ))
    }

    /// Legal-action masks, envs x actions (or one environment's, when `env` is given).
    #[pyo3(signature = (env = None))]
    fn legal_mask<'py>(
        &self,
        py: Python<'py>,
        env: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let size = self.inner.num_actions();
        if let Some(env) = env.filter(|e| !e.is_none()) {
            let env = self.check_env(env)?;
            let mut out = vec![false; size];
            self.inner.legal_mask_of(env, &mut out);
            return Ok(out.into_pyarray(py).into_any());
        }
        let n = self.inner.num_envs();
        let mut out = vec![false; n * size];
        let inner = &self.inner;
        py.detach(|| inner.legal_mask(&mut out));
        Ok(out.into_pyarray(py).reshape([n, size])?.into_any())
    }

    /// Observations, envs x shape, each from `player`'s point of view (None: each
    /// environment's player to move); or one environment's, when `env` is given.
    #[pyo3(signature = (player = None, env = None))]
    fn observations<'py>(
        &self,
        py: Python<'py>,
        player: Option<&Bound<'py, PyAny>>,
        env: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let player = self.check_player(player)?;
        let shape = self.inner.observation_shape();
        let size: usize = shape.iter().product();
        if let Some(env) = env.filter(|e| !e.is_none()) {
            let env = self.check_env(env)?;
            let mut out = vec![0.0f32; size];
            self.inner.observation_of(env, player, &mut out);
            return Ok(out.into_pyarray(py).reshape(shape)?.into_any());
        }
        let n = self.inner.num_envs();
        let mut out = vec![0.0f32; n * size];
        let inner = &self.inner;
        py.detach(|| inner.observations(player, &mut out));
        let mut full = vec![n];
        full.extend_from_slice(shape);
        Ok(out.into_pyarray(py).reshape(full)?.into_any())
    }

    /// Writes the legal-action masks into `out` (bool, C-contiguous, envs x actions), with
    /// the GIL released: no new array per step.
    fn write_legal_mask(
        &self,
        py: Python<'_>,
        mut out: PyReadwriteArrayDyn<'_, bool>,
    ) -> PyResult<()> {
        let size = self.inner.num_envs() * self.inner.num_actions();
        let out = writable(&mut out, size, "legal_mask")?;
        let inner = &self.inner;
        py.detach(|| inner.legal_mask(out));
        Ok(())
    }

    /// Brings the legal-action masks in `out`, kept buffer `view` (0 or 1), up to date,
    /// clearing only the actions it set last time: `out` must be the buffer last written
    /// as `view`, unchanged since, or else `fresh` (then it is written whole). The legal
    /// actions found are kept for the next step.
    #[pyo3(signature = (out, view = None, fresh = false))]
    fn update_legal_mask(
        &mut self,
        py: Python<'_>,
        mut out: PyReadwriteArrayDyn<'_, bool>,
        view: Option<&Bound<'_, PyAny>>,
        fresh: bool,
    ) -> PyResult<()> {
        let view = check_view(view)?;
        let size = self.inner.num_envs() * self.inner.num_actions();
        let out = writable(&mut out, size, "legal_mask")?;
        let inner = &mut self.inner;
        py.detach(|| inner.update_mask(out, view, fresh));
        Ok(())
    }

    /// Writes the observations into `out` (float32, C-contiguous, envs x shape), each from
    /// `player`'s point of view (None: each environment's player to move).
    #[pyo3(signature = (out, player = None))]
    fn write_observations(
        &self,
        py: Python<'_>,
        mut out: PyReadwriteArrayDyn<'_, f32>,
        player: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let player = self.check_player(player)?;
        let size = self.inner.num_envs() * self.inner.observation_shape().iter().product::<usize>();
        let out = writable(&mut out, size, "observations")?;
        let inner = &self.inner;
        py.detach(|| inner.observations(player, out));
        Ok(())
    }

    /// Brings the observations in `out` (float32, C-contiguous, envs x shape), kept buffer
    /// `view` (0 or 1), up to date, touching only the cells that change where the game
    /// can tell them: `out` must be the buffer last written as `view`, unchanged since
    /// (or, with `fresh`, any buffer: it is then written in full).
    #[pyo3(signature = (out, player = None, view = None, fresh = false))]
    fn update_observations(
        &mut self,
        py: Python<'_>,
        mut out: PyReadwriteArrayDyn<'_, f32>,
        player: Option<&Bound<'_, PyAny>>,
        view: Option<&Bound<'_, PyAny>>,
        fresh: bool,
    ) -> PyResult<()> {
        let player = self.check_player(player)?;
        let view = check_view(view)?;
        let size = self.inner.num_envs() * self.inner.observation_shape().iter().product::<usize>();
        let out = writable(&mut out, size, "observations")?;
        let inner = &mut self.inner;
        py.detach(|| inner.update_observations(player, out, view, fresh));
        Ok(())
    }

    fn current_players<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        self.inner.current_players().into_pyarray(py)
    }

    fn texts(&self) -> Vec<String> {
        self.inner.texts()
    }

    /// The actions chosen so far in environment `env`'s move being made.
    fn pending_actions(&self, env: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
        Ok(self.inner.pending_actions(self.check_env(env)?))
    }

    /// A uniformly random legal action per environment (-1 where an episode has ended),
    /// from the environment's own seeded generator.
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut out = vec![0; self.inner.num_envs()];
        self.inner.random_actions(&mut out);
        out.into_pyarray(py)
    }

    /// `(action, name)` for every legal action of environment `env`, ascending.
    fn legal_actions(&self, env: &Bound<'_, PyAny>) -> PyResult<Vec<(usize, String)>> {
        Ok(self.inner.legal_actions(self.check_env(env)?))
    }

    /// Plays the whole move `text` in environment `env` (between moves). Returns
    /// `(returns, terminated, truncated, episode_length)` as a step reports them.
    #[allow(clippy::type_complexity)]
    fn play_move<'py>(
        &mut self,
        py: Python<'py>,
        env: &Bound<'py, PyAny>,
        text: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyArray1<f64>>, bool, bool, u32)> {
        let env = self.check_env(env)?;
        let text = args::move_text(text)?;
        let mut returns = vec![0.0; self.inner.num_players()];
        let result = self
            .inner
            .play_move(env, &text, &mut returns)
            .map_err(to_py_err)?;
        Ok((
            returns.into_pyarray(py),
            result.terminated,
            result.truncated,
            result.episode_length,
        ))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(playouts_native, m)?)?;
    m.add_class::<NativeVectorEnv>()?;
    Ok(())
}
