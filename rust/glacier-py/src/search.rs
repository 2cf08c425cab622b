//! Search for Python (python/glacier/search.py): the core's MCTS searcher
//! (`glacier_core::search::searcher`) and alpha-beta, with their arguments and results
//! converted, the GIL released while they run, and Ctrl-C stopping them (the core's
//! interrupt, checked by the calling thread). A Python evaluator becomes a core
//! `LeafEvaluator` that takes the GIL for each call.

use crate::convert::{check_threads, extract_params, params_ref};
use crate::errors::{game_named, to_py_err, GlacierError, InvalidParameterError};
use crate::evaluator::PyEvaluator;
use crate::interrupt;
use crate::net::net_evaluator;
use crate::state::GameState;
use glacier_core::any::{mid_move, wrong_game, AnyGame, AnySearcher, AnyState};
use glacier_core::interrupt::Interrupt;
use glacier_core::search::options::DEFAULT_EXPLORATION;
use glacier_core::search::options::{
    MctsOptions, OptionKind, OptionValue, SearchSettings, MCTS_OPTIONS,
};
use glacier_core::search::report::AlphaBetaLimits;
use glacier_core::search::searcher::{SearchError, SearchReport};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// Runs a search with the GIL released while the calling thread watches for Ctrl-C; a
/// panic in the engine becomes a `GlacierError`.
pub(crate) fn run_search<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Interrupt<'_>) -> Result<T, SearchError> + Send,
) -> PyResult<T> {
    interrupt::run(py, "the search", |interrupt| {
        let run = std::panic::AssertUnwindSafe(|| work(interrupt));
        match std::panic::catch_unwind(run) {
            Ok(Ok(value)) => Ok(Ok(value)),
            Ok(Err(SearchError::Error(err))) => Ok(Err(to_py_err(err))),
            Ok(Err(SearchError::Stopped(stopped))) => Err(stopped),
            Err(_) => Ok(Err(GlacierError::new_err(
                "internal error: the search stopped unexpectedly (a panic)",
            ))),
        }
    })?
}

/// The engine state of `game` that a Python state stands for: a native state's own, or one
/// read from the text of anything else with `game`, `params` and `text()` (a reference
/// state).
pub(crate) fn read_state(state: &Bound<'_, PyAny>, game: AnyGame) -> PyResult<AnyState> {
    let not_a_state = || {
        let kind = state
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        InvalidParameterError::new_err(format!("expected a glacier game state, got {kind}"))
    };
    let found: String = state
        .getattr("game")
        .and_then(|g| g.extract())
        .map_err(|_| not_a_state())?;
    if found != game.name() {
        return Err(to_py_err(wrong_game(game, &found)));
    }
    if let Ok(native) = state.cast::<GameState>() {
        return native.borrow().search_root();
    }
    let params = state
        .getattr("params")
        .map_err(|_| not_a_state())?
        .cast_into::<PyDict>()
        .map_err(|_| not_a_state())?;
    let params = extract_params(game.name(), Some(&params))?;
    if let Ok(pending) = state.getattr("pending_actions") {
        if pending.len().unwrap_or(0) > 0 {
            return Err(to_py_err(mid_move()));
        }
    }
    let text: String = state
        .call_method0("text")
        .and_then(|t| t.extract())
        .map_err(|_| not_a_state())?;
    game.state(Some(&text), &params_ref(&params))
        .map_err(to_py_err)
}

/// The states of a batched search.
fn read_states(states: &[Bound<'_, PyAny>], game: AnyGame) -> PyResult<Vec<AnyState>> {
    states.iter().map(|state| read_state(state, game)).collect()
}

/// The game name of a Python state.
fn game_of(state: &Bound<'_, PyAny>) -> PyResult<String> {
    state
        .getattr("game")
        .and_then(|g| g.extract())
        .map_err(|_| {
            InvalidParameterError::new_err("expected a glacier game state (it has no 'game')")
        })
}

/// A search's report as the dict `glacier.search.SearchResult` is made from.
fn report_dict<'py>(py: Python<'py>, report: &SearchReport) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("move", &report.chosen)?;
    let visits = PyDict::new(py);
    let priors = PyDict::new(py);
    for m in &report.moves {
        visits.set_item(&m.text, m.visits)?;
        priors.set_item(&m.text, m.prior)?;
    }
    let action_visits = PyDict::new(py);
    for &(action, n) in &report.action_visits {
        action_visits.set_item(action, n)?;
    }
    out.set_item("visits", visits)?;
    out.set_item("priors", priors)?;
    out.set_item("action_visits", action_visits)?;
    out.set_item("values", report.values.clone())?;
    out.set_item("simulations", report.simulations)?;
    out.set_item("seconds", report.seconds)?;
    Ok(out)
}

/// MCTS searchers of one game, with their trees kept between searches (the native core of
/// `glacier.search.MCTS`).
#[pyclass(module = "glacier._native")]
pub struct NativeSearch {
    inner: AnySearcher,
}

impl NativeSearch {
    pub(crate) fn game(&self) -> AnyGame {
        self.inner.game()
    }

    pub(crate) fn settings(&self) -> SearchSettings {
        self.inner.settings()
    }
}

impl std::fmt::Debug for NativeSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NativeSearch({})", self.inner.game())
    }
}

fn check_temperature(value: f64) -> PyResult<f32> {
    if value.is_finite() && value >= 0.0 {
        Ok(value as f32)
    } else {
        Err(InvalidParameterError::new_err(format!(
            "temperature must be a finite number >= 0, got {value}"
        )))
    }
}

fn check_simulations(
    simulations: Option<i64>,
    seconds: Option<f64>,
) -> PyResult<(Option<u64>, Option<f64>)> {
    let simulations = match simulations {
        Some(n) if n >= 1 => Some(n as u64),
        Some(n) => {
            return Err(InvalidParameterError::new_err(format!(
                "simulations must be >= 1, got {n}"
            )))
        }
        None => None,
    };
    let seconds = match seconds {
        Some(s) if s.is_finite() && s > 0.0 => Some(s),
        Some(s) => {
            return Err(InvalidParameterError::new_err(format!(
                "seconds must be a finite number > 0, got {s}"
            )))
        }
        None => None,
    };
    if simulations.is_none() && seconds.is_none() {
        return Err(InvalidParameterError::new_err(
            "give the search a budget: simulations or seconds",
        ));
    }
    Ok((simulations, seconds))
}

#[pymethods]
impl NativeSearch {
    /// The keyword arguments are the core's `MCTS_OPTIONS` (`mcts_options()`), with their
    /// defaults; `tests/test_search_options.py` checks that they agree.
    #[new]
    #[pyo3(signature = (
        game, *, evaluator = "rollout", rollout_plies = None, selection = "uct",
        c_puct = 1.4, dirichlet_alpha = 0.3, dirichlet_fraction = 0.0, virtual_loss = 1.0,
        threads = 1, parallel = "tree", trees = None, seed = 0, reuse = true,
        priors = "uniform", prior_temperature = 1.0, rollout_policy = "uniform",
        rollout_temperature = 1.0, heuristic_mix = 0.0, rollout_mix = 0.0
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &str,
        evaluator: &str,
        rollout_plies: Option<i64>,
        selection: &str,
        c_puct: f64,
        dirichlet_alpha: f64,
        dirichlet_fraction: f64,
        virtual_loss: f64,
        threads: i64,
        parallel: &str,
        trees: Option<i64>,
        seed: u64,
        reuse: bool,
        priors: &str,
        prior_temperature: f64,
        rollout_policy: &str,
        rollout_temperature: f64,
        heuristic_mix: f64,
        rollout_mix: f64,
    ) -> PyResult<Self> {
        let options = MctsOptions {
            evaluator,
            rollout_plies,
            selection,
            c_puct,
            dirichlet_alpha,
            dirichlet_fraction,
            virtual_loss,
            threads,
            parallel,
            trees,
            seed,
            reuse,
            priors,
            prior_temperature,
            rollout_policy,
            rollout_temperature,
            heuristic_mix,
            rollout_mix,
        };
        let settings = options.settings().map_err(to_py_err)?;
        let inner = game_named(game)?.searcher(settings);
        Ok(NativeSearch { inner })
    }

    #[getter(game)]
    fn game_name(&self) -> &'static str {
        self.inner.game().name()
    }

    /// The nodes held by the kept trees.
    #[getter]
    fn tree_size(&self) -> usize {
        self.inner.tree_size()
    }

    /// Drops the kept trees.
    fn reset(&mut self) {
        self.inner.reset();
    }

    /// Searches one state; a dict with `move`, `visits`, `priors`, `values`,
    /// `simulations` and `seconds`.
    #[pyo3(signature = (state, simulations = None, seconds = None, temperature = 0.0))]
    fn search<'py>(
        &mut self,
        py: Python<'py>,
        state: &Bound<'py, PyAny>,
        simulations: Option<i64>,
        seconds: Option<f64>,
        temperature: f64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (simulations, seconds) = check_simulations(simulations, seconds)?;
        let temperature = check_temperature(temperature)?;
        let root = read_state(state, self.inner.game())?;
        let inner = &mut self.inner;
        let report = run_search(py, |interrupt| {
            inner.search(&root, simulations, seconds, temperature, interrupt)
        })?;
        report_dict(py, &report)
    }

    /// Searches every state of `states` with `evaluator` called once per batch of leaves
    /// (up to `batch_size` per tree), with the players to move as `to_play=` if `to_play`;
    /// one dict per state, as `search` returns.
    #[pyo3(signature = (
        states, evaluator, simulations, temperature = 0.0, batch_size = 1, to_play = false
    ))]
    #[allow(clippy::too_many_arguments)]
    fn search_batch<'py>(
        &mut self,
        py: Python<'py>,
        states: Vec<Bound<'py, PyAny>>,
        evaluator: &Bound<'py, PyAny>,
        simulations: i64,
        temperature: f64,
        batch_size: i64,
        to_play: bool,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let (simulations, _) = check_simulations(Some(simulations), None)?;
        let batch_size = usize::try_from(batch_size)
            .ok()
            .filter(|&b| b >= 1)
            .ok_or_else(|| {
                InvalidParameterError::new_err(format!("batch_size must be >= 1, got {batch_size}"))
            })?;
        let temperature = check_temperature(temperature)?;
        if !evaluator.is_callable() {
            return Err(InvalidParameterError::new_err(
                "the evaluator must be 'rollout', 'heuristic' or a callable",
            ));
        }
        let Some(simulations) = simulations else {
            return Err(InvalidParameterError::new_err(
                "a search with a Python evaluator needs a number of simulations",
            ));
        };
        let game = self.inner.game();
        let inner = &mut self.inner;
        if let Some(net) = net_evaluator(evaluator, game, "search")? {
            let roots = read_states(&states, game)?;
            let reports = run_search(py, |interrupt| {
                inner.search_batch_split(
                    &roots,
                    &net,
                    simulations,
                    temperature,
                    batch_size,
                    interrupt,
                )
            })?;
            return reports.iter().map(|r| report_dict(py, r)).collect();
        }
        let mut evaluator = PyEvaluator {
            evaluator: evaluator.clone().unbind(),
            to_play,
            raised: None,
        };
        let roots = read_states(&states, game)?;
        let outcome = run_search(py, |interrupt| {
            inner.search_batch(
                &roots,
                &mut evaluator,
                simulations,
                temperature,
                batch_size,
                interrupt,
            )
        });
        let reports = match evaluator.raised.take() {
            Some(raised) => return Err(raised),
            None => outcome?,
        };
        reports.iter().map(|r| report_dict(py, r)).collect()
    }
}

/// The options of an MCTS searcher (the core's `MCTS_OPTIONS`): one dict per keyword of
/// `NativeSearch`, in order, with `name`, `default`, `kind` (`"choice"`, `"number"`,
/// `"integer"` or `"flag"`), `choices` or `min`/`max` (and `above` for numbers: whether
/// the minimum itself is refused), `optional`, `api_default` (`glacier.search`'s default
/// where it differs) and `help`; `c_puct` also has `by_selection`, the exploration constant
/// `glacier.search` gives each selection rule.
#[pyfunction]
fn mcts_options(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    fn value<'py>(py: Python<'py>, v: OptionValue) -> PyResult<Bound<'py, PyAny>> {
        Ok(match v {
            OptionValue::None => py.None().into_bound(py),
            OptionValue::Flag(b) => b.into_pyobject(py)?.to_owned().into_any(),
            OptionValue::Integer(i) => i.into_pyobject(py)?.into_any(),
            OptionValue::Number(x) => x.into_pyobject(py)?.into_any(),
            OptionValue::Word(w) => w.into_pyobject(py)?.into_any(),
        })
    }
    let out = PyList::empty(py);
    for spec in &MCTS_OPTIONS {
        let d = PyDict::new(py);
        d.set_item("name", spec.name)?;
        d.set_item("default", value(py, spec.default)?)?;
        match spec.kind {
            OptionKind::Choice(choices) => {
                d.set_item("kind", "choice")?;
                d.set_item("choices", choices.to_vec())?;
            }
            OptionKind::Number { min, above, max } => {
                d.set_item("kind", "number")?;
                d.set_item("min", min)?;
                d.set_item("above", above)?;
                d.set_item("max", max)?;
            }
            OptionKind::Integer { min, max } => {
                d.set_item("kind", "integer")?;
                d.set_item("min", min)?;
                d.set_item("max", max)?;
            }
            OptionKind::Flag => d.set_item("kind", "flag")?,
        }
        d.set_item("optional", spec.optional)?;
        match spec.api_default {
            Some(v) => d.set_item("api_default", value(py, v)?)?,
            None => d.set_item("api_default", value(py, spec.default)?)?,
        }
        d.set_item("help", spec.help)?;
        if spec.name == "c_puct" {
            let by = PyDict::new(py);
            for (selection, c) in DEFAULT_EXPLORATION {
                by.set_item(selection, c)?;
            }
            d.set_item("by_selection", by)?;
        }
        out.append(d)?;
    }
    Ok(out)
}

/// Alpha-beta from `state` to `depth` or for `seconds` (with neither: one second); a dict
/// with `move`, `score` (from the mover's side: the heuristic in [-1, 1], or +-1 for a
/// forced result), `mate` (plies to a forced end, positive when the mover wins, or None),
/// `depth`, `pv`, `nodes` and `seconds`. Scored by `evaluation` (an evaluation net), or
/// by the game's heuristic.
#[pyfunction]
#[pyo3(signature = (state, depth = None, seconds = None, evaluation = None))]
fn alphabeta_native<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    depth: Option<i64>,
    seconds: Option<f64>,
    evaluation: Option<PyRef<'py, crate::evalnet::NativeEvalNet>>,
) -> PyResult<Bound<'py, PyDict>> {
    let game = game_of(state)?;
    let limits = AlphaBetaLimits::new(depth, seconds).map_err(to_py_err)?;
    let root = read_state(state, game_named(&game)?)?;
    let net = evaluation
        .map(|e| crate::evalnet::checked_net(&e, &game))
        .transpose()?;
    let report = run_search(py, |interrupt| match &net {
        Some(net) => root.alphabeta_scored(limits, net, interrupt),
        None => root.alphabeta(limits, interrupt),
    })?;
    let out = PyDict::new(py);
    out.set_item("move", report.best)?;
    out.set_item("score", report.score)?;
    out.set_item("mate", report.mate)?;
    out.set_item("depth", report.depth)?;
    out.set_item("pv", report.pv)?;
    out.set_item("nodes", report.nodes)?;
    out.set_item("seconds", report.seconds)?;
    Ok(out)
}

/// The threads the engine runs a request of `threads` on: `threads` itself, or with 0 every
/// core this process may use.
#[pyfunction]
fn thread_count(threads: &Bound<'_, PyAny>) -> PyResult<usize> {
    Ok(glacier_core::threads::thread_count(check_threads(threads)?))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NativeSearch>()?;
    m.add_function(wrap_pyfunction!(thread_count, m)?)?;
    m.add_function(wrap_pyfunction!(alphabeta_native, m)?)?;
    m.add_function(wrap_pyfunction!(mcts_options, m)?)?;
    Ok(())
}
