//! Search for Python (python/glacier/search.py): the core's MCTS searcher
//! (`glacier_core::search::searcher`) and alpha-beta, with their arguments and results
//! converted, the GIL released while they run, and Ctrl-C stopping them (the core's
//! interrupt, checked by the calling thread). A Python evaluator becomes a core
//! `LeafEvaluator` that takes the GIL for each call.

use crate::convert::{check_threads, extract_params, params_ref};
use crate::errors::{to_py_err, unknown_game, GlacierError, InvalidParameterError};
use crate::evaluator::PyEvaluator;
use crate::interrupt;
use crate::net::net_evaluator;
use crate::state::GameState;
use glacier_core::game::params_for_text;
use glacier_core::interrupt::Interrupt;
use glacier_core::net::NetEvaluator;
use glacier_core::search::alphabeta::{alphabeta, alphabeta_with, plies_to_end, SCALE};
use glacier_core::search::options::DEFAULT_EXPLORATION;
use glacier_core::search::options::{
    MctsOptions, OptionKind, OptionValue, SearchSettings, MCTS_OPTIONS,
};
use glacier_core::search::searcher::{game_over, SearchError, SearchReport, Searcher};
use glacier_core::search::{Budget, Heuristic};
use glacier_core::{with_game, FullGame, Game, Notation};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::time::{Duration, Instant};

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

/// The roots of a batched search: each state read, none of them over (the error names the
/// first that is).
fn read_roots<G: FullGame>(states: &[Bound<'_, PyAny>]) -> PyResult<Vec<G>> {
    let mut roots = Vec::with_capacity(states.len());
    for (i, state) in states.iter().enumerate() {
        let root: G = read_state(state)?;
        if root.is_terminal() {
            return Err(to_py_err(game_over(G::NAME, Some(i))));
        }
        roots.push(root);
    }
    Ok(roots)
}

/// The engine state of `G` that a Python state stands for: a native state's own, or one
/// read from the text of anything else with `game`, `params` and `text()` (a reference
/// state).
pub(crate) fn read_state<G: FullGame>(state: &Bound<'_, PyAny>) -> PyResult<G> {
    let not_a_state = || {
        let kind = state
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        InvalidParameterError::new_err(format!("expected a glacier game state, got {kind}"))
    };
    let game: String = state
        .getattr("game")
        .and_then(|g| g.extract())
        .map_err(|_| not_a_state())?;
    if game != G::NAME {
        return Err(InvalidParameterError::new_err(format!(
            "this search is for {}, not for a {game} state",
            G::NAME
        )));
    }
    // The tree is over whole moves: a state in the middle of a move (some of its actions
    // taken) has no position of its own to search from.
    let in_a_move = || {
        InvalidParameterError::new_err(
            "the search starts between moves, and this state is in the middle of one \
             (it has pending actions): search the state before the move's first action \
             and follow the chosen move's actions (state.move_to_actions)",
        )
    };
    if let Ok(native) = state.cast::<GameState>() {
        if let Some((engine, pending)) = native.borrow().engine_state::<G>() {
            if pending {
                return Err(in_a_move());
            }
            return Ok(engine.clone());
        }
    }
    let params = state
        .getattr("params")
        .map_err(|_| not_a_state())?
        .cast_into::<PyDict>()
        .map_err(|_| not_a_state())?;
    let params = extract_params(G::NAME, Some(&params))?;
    if let Ok(pending) = state.getattr("pending_actions") {
        if pending.len().unwrap_or(0) > 0 {
            return Err(in_a_move());
        }
    }
    let text: String = state
        .call_method0("text")
        .and_then(|t| t.extract())
        .map_err(|_| not_a_state())?;
    let params = params_for_text::<G>(&text, &params_ref(&params)).map_err(to_py_err)?;
    G::from_text(&text, &params).map_err(to_py_err)
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

/// The object-safe face of the core's `Searcher`, so one Python class serves every game.
trait DynSearcher: Send + Sync {
    fn game(&self) -> &'static str;
    fn search(
        &mut self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        simulations: Option<u64>,
        seconds: Option<f64>,
        temperature: f32,
    ) -> PyResult<SearchReport>;
    fn search_batch(
        &mut self,
        py: Python<'_>,
        states: &[Bound<'_, PyAny>],
        evaluator: &mut PyEvaluator,
        simulations: u64,
        temperature: f32,
        batch_size: usize,
    ) -> PyResult<Vec<SearchReport>>;
    /// `search_batch` with a net evaluated by the engine: no Python call per batch, and
    /// the trees split over the searcher's threads.
    fn search_net(
        &mut self,
        py: Python<'_>,
        states: &[Bound<'_, PyAny>],
        net: &NetEvaluator,
        simulations: u64,
        temperature: f32,
        batch_size: usize,
    ) -> PyResult<Vec<SearchReport>>;
    fn reset(&mut self);
    fn tree_size(&self) -> usize;
    fn settings(&self) -> SearchSettings;
}

impl<G: FullGame + Heuristic> DynSearcher for Searcher<G> {
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn reset(&mut self) {
        Searcher::reset(self);
    }

    fn tree_size(&self) -> usize {
        Searcher::tree_size(self)
    }

    fn settings(&self) -> SearchSettings {
        *Searcher::settings(self)
    }

    fn search(
        &mut self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        simulations: Option<u64>,
        seconds: Option<f64>,
        temperature: f32,
    ) -> PyResult<SearchReport> {
        let root: G = read_state(state)?;
        run_search(py, |interrupt| {
            Searcher::search(self, &root, simulations, seconds, temperature, interrupt)
        })
    }

    fn search_batch(
        &mut self,
        py: Python<'_>,
        states: &[Bound<'_, PyAny>],
        evaluator: &mut PyEvaluator,
        simulations: u64,
        temperature: f32,
        batch_size: usize,
    ) -> PyResult<Vec<SearchReport>> {
        let roots: Vec<G> = read_roots(states)?;
        let outcome = run_search(py, |interrupt| {
            Searcher::search_batch(
                self,
                &roots,
                evaluator,
                simulations,
                temperature,
                batch_size,
                interrupt,
            )
        });
        match evaluator.raised.take() {
            Some(raised) => Err(raised),
            None => outcome,
        }
    }

    fn search_net(
        &mut self,
        py: Python<'_>,
        states: &[Bound<'_, PyAny>],
        net: &NetEvaluator,
        simulations: u64,
        temperature: f32,
        batch_size: usize,
    ) -> PyResult<Vec<SearchReport>> {
        let roots: Vec<G> = read_roots(states)?;
        run_search(py, |interrupt| {
            Searcher::search_batch_split(
                self,
                &roots,
                net,
                simulations,
                temperature,
                batch_size,
                interrupt,
            )
        })
    }
}

/// MCTS searchers of one game, with their trees kept between searches (the native core of
/// `glacier.search.MCTS`).
#[pyclass(module = "glacier._native")]
pub struct NativeSearch {
    inner: Box<dyn DynSearcher>,
}

impl NativeSearch {
    pub(crate) fn game_name(&self) -> &'static str {
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
        let inner: Box<dyn DynSearcher> = with_game!(game, G => {
            Box::new(Searcher::<G>::new(settings))
        }, _ => return Err(unknown_game(game)));
        Ok(NativeSearch { inner })
    }

    #[getter]
    fn game(&self) -> &'static str {
        self.inner.game()
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
        let report = self
            .inner
            .search(py, state, simulations, seconds, temperature)?;
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
        if let Some(evaluator) = net_evaluator(evaluator, self.inner.game(), "search")? {
            let reports = self.inner.search_net(
                py,
                &states,
                &evaluator,
                simulations,
                temperature,
                batch_size,
            )?;
            return reports.iter().map(|r| report_dict(py, r)).collect();
        }
        let mut evaluator = PyEvaluator {
            evaluator: evaluator.clone().unbind(),
            to_play,
            raised: None,
        };
        let reports = self.inner.search_batch(
            py,
            &states,
            &mut evaluator,
            simulations,
            temperature,
            batch_size,
        )?;
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
    let depth = match depth {
        None => None,
        Some(d) if (1..=i64::from(glacier_core::search::alphabeta::MAX_DEPTH)).contains(&d) => {
            Some(d as u64)
        }
        Some(d) => {
            return Err(InvalidParameterError::new_err(format!(
                "depth must be between 1 and {}, got {d}",
                glacier_core::search::alphabeta::MAX_DEPTH
            )))
        }
    };
    let seconds = match (depth, seconds) {
        (_, Some(s)) if !(s.is_finite() && s > 0.0) => {
            return Err(InvalidParameterError::new_err(format!(
                "seconds must be a finite number > 0, got {s}"
            )))
        }
        (None, None) => Some(1.0),
        (_, s) => s,
    };
    with_game!(&game, G => {
        let root: G = read_state(state)?;
        if root.is_terminal() {
            return Err(to_py_err(game_over(G::NAME, None)));
        }
        let mut net = evaluation.map(|e| crate::evalnet::net_score::<G>(&e)).transpose()?;
        let start = Instant::now();
        let result = run_search(py, |interrupt| {
            let budget = Budget {
                limit: depth,
                deadline: seconds.map(|s| start + Duration::from_secs_f64(s)),
                stop: interrupt.flag(),
            };
            let result = glacier_core::threads::run_watched(interrupt, || match net.as_mut() {
                Some(net) => alphabeta_with(&root, &budget, None, net),
                None => alphabeta(&root, &budget),
            });
            interrupt.result(()).map_err(SearchError::Stopped)?;
            Ok(result?)
        })?;
        let out = PyDict::new(py);
        out.set_item("move", root.move_text(result.best))?;
        let mate = plies_to_end(result.score);
        let score = match mate {
            Some(m) => m.signum() as f64,
            None => f64::from(result.score) / f64::from(SCALE),
        };
        out.set_item("score", score)?;
        out.set_item("mate", mate)?;
        out.set_item("depth", result.depth)?;
        let mut line = Vec::with_capacity(result.pv.len());
        let mut at = root.clone();
        for &mv in &result.pv {
            line.push(at.move_text(mv));
            at.play_unchecked(mv);
        }
        out.set_item("pv", line)?;
        out.set_item("nodes", result.nodes)?;
        out.set_item("seconds", start.elapsed().as_secs_f64())?;
        Ok(out)
    }, _ => Err(unknown_game(&game)))
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
