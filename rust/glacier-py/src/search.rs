//! Search for Python (python/glacier/search.py): MCTS with the engine's own evaluations or a
//! Python evaluator called once per batch of leaves, and alpha-beta.
//!
//! A search with the engine's evaluations runs on worker threads with the GIL released,
//! while the calling thread waits in short slices and checks for signals between them: on
//! Ctrl-C it raises the search's stop flag, waits for the workers and returns the
//! `KeyboardInterrupt`. A search with a Python evaluator runs on the calling thread,
//! releasing the GIL around the work of the tree and taking it for each call.

use crate::convert::{check_threads, extract_params, params_ref};
use crate::errors::{to_py_err, unknown_game, GlacierError, InvalidParameterError};
use glacier_core::actions::ActionList;
use glacier_core::game::params_for_text;
use glacier_core::search::alphabeta::{alphabeta, plies_to_end, SCALE};
use glacier_core::search::evaluate::LeafEvaluation;
use glacier_core::search::mcts::{
    choose, merge_stats, search_forest, search_shared, BatchSearch, MctsConfig, MoveStats,
    RootStats, Selection, Tree,
};
use glacier_core::search::{Budget, Heuristic};
use glacier_core::{with_game, zobrist, FullGame, Game, Notation};
use numpy::prelude::*;
use numpy::{PyArray2, PyUntypedArray};
use pyo3::exceptions::{PyException, PyKeyboardInterrupt};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PySequence};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pyo3::import_exception!(glacier.errors, EvaluatorError);

/// How long the calling thread waits between two checks for signals.
const SIGNAL_SLICE: Duration = Duration::from_millis(50);

/// Runs `work` on a worker thread with the GIL released; the calling thread checks for
/// signals every [`SIGNAL_SLICE`], and on one (Ctrl-C) raises `stop`, which `work` polls,
/// waits for it and returns the signal's exception.
fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let panicked =
        |_| GlacierError::new_err("internal error: the search stopped unexpectedly (a panic)");
    // The worker sets the flag and wakes the waiting thread when it is done.
    let finished = (std::sync::Mutex::new(false), std::sync::Condvar::new());
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let out = work();
            let (flag, wake) = &finished;
            *flag
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = true;
            wake.notify_all();
            out
        });
        loop {
            let done = py.detach(|| {
                let (flag, wake) = &finished;
                let guard = flag
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                let (guard, _) = wake
                    .wait_timeout_while(guard, SIGNAL_SLICE, |done| !*done)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                *guard
            });
            if done || worker.is_finished() {
                return py.detach(|| worker.join()).map_err(panicked);
            }
            if let Err(signal) = py.check_signals() {
                stop.store(true, Ordering::Relaxed);
                let _ = py.detach(|| worker.join());
                return Err(signal);
            }
        }
    })
}

/// The engine state of `G` that a Python state (native or reference: anything with
/// `game`, `params` and `text()`) stands for.
fn read_state<G: FullGame>(state: &Bound<'_, PyAny>) -> PyResult<G> {
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
    let params = state
        .getattr("params")
        .map_err(|_| not_a_state())?
        .cast_into::<PyDict>()
        .map_err(|_| not_a_state())?;
    let params = extract_params(G::NAME, Some(&params))?;
    // The tree is over whole moves: a state in the middle of a move (some of its actions
    // taken) has no position of its own to search from.
    if let Ok(pending) = state.getattr("pending_actions") {
        if pending.len().unwrap_or(0) > 0 {
            return Err(InvalidParameterError::new_err(
                "the search starts between moves, and this state is in the middle of one \
                 (it has pending actions): search the state before the move's first action \
                 and follow the chosen move's actions (state.move_to_actions)",
            ));
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

fn game_over(game: &str, index: Option<usize>) -> PyErr {
    let which = index.map_or(String::new(), |i| format!(" (state {i})"));
    GlacierError::new_err(format!("no move to search: the {game} game is over{which}"))
}

/// How several threads share a search of one position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Parallel {
    /// One tree, every thread descending it (virtual loss).
    Tree,
    /// One tree per thread (or `trees`), merged at the root.
    Root,
}

/// What a searcher is made with.
#[derive(Debug, Clone, Copy)]
struct Settings {
    config: MctsConfig,
    /// The engine's own evaluation (searches with a Python evaluator take theirs per call).
    evaluation: LeafEvaluation,
    threads: usize,
    parallel: Parallel,
    trees: usize,
    seed: u64,
    reuse: bool,
}

/// What one search call asks for.
#[derive(Debug, Clone, Copy)]
struct Request {
    simulations: Option<u64>,
    seconds: Option<f64>,
    temperature: f32,
    batch_size: usize,
}

/// The object-safe face of [`Searcher`], so one Python class serves every game.
trait DynSearcher: Send + Sync {
    fn game(&self) -> &'static str;
    fn search<'py>(
        &mut self,
        py: Python<'py>,
        state: &Bound<'py, PyAny>,
        request: &Request,
    ) -> PyResult<Bound<'py, PyDict>>;
    fn search_batch<'py>(
        &mut self,
        py: Python<'py>,
        states: &[Bound<'py, PyAny>],
        evaluator: &Bound<'py, PyAny>,
        request: &Request,
    ) -> PyResult<Vec<Bound<'py, PyDict>>>;
    fn reset(&mut self);
    fn tree_size(&self) -> usize;
}

/// The trees of one game kept between searches (for tree reuse).
struct Searcher<G: FullGame + Heuristic> {
    settings: Settings,
    /// The trees of single-position searches (several when root-parallel).
    forest: Vec<Tree<G>>,
    /// The trees of batched searches, one per position.
    batch: Vec<Tree<G>>,
    /// Trees made so far (the seed of tree `i` is key `i` of the searcher's seed).
    made: u64,
}

impl<G: FullGame + Heuristic> Searcher<G> {
    fn new_tree(&mut self, root: &G) -> PyResult<Tree<G>> {
        let seed = zobrist::key(self.settings.seed, self.made);
        self.made += 1;
        Tree::new(root.clone(), seed).map_err(to_py_err)
    }

    /// Moves `tree` to `root` if it is in the tree, within a few plies of its root.
    fn reuse(tree: &mut Tree<G>, root: &G) -> bool {
        let (hash, text) = (root.hash(), root.text());
        tree.advance(root.num_players() + 2, |s| {
            s.hash() == hash && s.text() == text
        })
    }

    /// The root statistics of `tree` with each move as its text and its first action. The
    /// text is written from the tree's own root: a tree kept from an earlier search reached
    /// it by play, and its moves may name pieces (E numbers them) as that state does, not as
    /// a state read from the same position text would.
    fn text_stats(tree: &Tree<G>) -> RootStats<(String, usize)> {
        let stats = tree.root_stats();
        let root = tree.root();
        RootStats {
            moves: stats
                .moves
                .into_iter()
                .map(|m| MoveStats {
                    mv: (root.move_text(m.mv), first_action(root, m.mv)),
                    visits: m.visits,
                    prior: m.prior,
                    values: m.values,
                })
                .collect(),
            values: stats.values,
            visits: stats.visits,
        }
    }

    fn result<'py>(
        py: Python<'py>,
        players: usize,
        stats: &RootStats<(String, usize)>,
        chosen: String,
        simulations: u64,
        seconds: f64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        out.set_item("move", chosen)?;
        let mut moves: Vec<(u64, &str, f32)> = stats
            .moves
            .iter()
            .map(|m| (m.visits, m.mv.0.as_str(), m.prior))
            .collect();
        moves.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        let visits = PyDict::new(py);
        let priors = PyDict::new(py);
        for (n, text, prior) in &moves {
            visits.set_item(text, n)?;
            priors.set_item(text, prior)?;
        }
        // The policy target over the fixed action space: the visits of the moves that
        // begin with each action, summed (in action order).
        let mut by_action: Vec<(usize, u64)> =
            stats.moves.iter().map(|m| (m.mv.1, m.visits)).collect();
        by_action.sort_unstable();
        let action_visits = PyDict::new(py);
        for group in by_action.chunk_by(|a, b| a.0 == b.0) {
            let total: u64 = group.iter().map(|&(_, n)| n).sum();
            action_visits.set_item(group[0].0, total)?;
        }
        out.set_item("visits", visits)?;
        out.set_item("priors", priors)?;
        out.set_item("action_visits", action_visits)?;
        out.set_item("values", stats.values[..players].to_vec())?;
        out.set_item("simulations", simulations)?;
        out.set_item("seconds", seconds)?;
        Ok(out)
    }
}

/// The first action of `mv`, a legal move of `state`: what a learning program's policy
/// chooses between moves.
fn first_action<G: FullGame>(state: &G, mv: G::Move) -> usize {
    let mut list = ActionList::new();
    state.move_actions(mv, &mut list);
    // Every move takes at least one action (its list is never empty).
    list.get(0).unwrap_or(0)
}

/// The priors of a leaf's legal moves from the logits of its row, given the first action of
/// each move (`firsts`): a softmax over the legal first actions' logits, each action's
/// probability shared equally by the moves that begin with it, so the priors sum to 1.
/// `counts` is zero for every action on entry and on return.
fn priors_of(
    row: usize,
    firsts: &[usize],
    logits: &numpy::ndarray::ArrayView2<'_, f32>,
    counts: &mut [u32],
    out: &mut Vec<f32>,
) -> PyResult<()> {
    let start = out.len();
    let mut most = f32::NEG_INFINITY;
    for &action in firsts {
        let logit = logits[[row, action]];
        if logit.is_nan() || logit == f32::INFINITY {
            for &a in firsts {
                counts[a] = 0;
            }
            return Err(EvaluatorError::new_err(format!(
                "the evaluator's logits[{row}, {action}] (a legal action) is {logit}"
            )));
        }
        most = most.max(logit);
        counts[action] += 1;
    }
    if most == f32::NEG_INFINITY {
        for &a in firsts {
            counts[a] = 0;
        }
        return Err(EvaluatorError::new_err(format!(
            "the evaluator's logits of row {row} are -inf for every legal action"
        )));
    }
    // Each legal action appears `counts[action]` times, each time with a share of
    // 1 / counts[action]: the total is the softmax's denominator over distinct actions.
    let mut total = 0.0;
    for &action in firsts {
        let share = (logits[[row, action]] - most).exp() / counts[action] as f32;
        total += share;
        out.push(share);
    }
    for p in &mut out[start..] {
        *p /= total;
    }
    for &a in firsts {
        counts[a] = 0;
    }
    Ok(())
}

/// The evaluator's output `name`: a float32 numpy array of `shape`.
fn evaluator_array<'py>(
    py: Python<'py>,
    value: &Bound<'py, PyAny>,
    name: &str,
    shape: [usize; 2],
) -> PyResult<Bound<'py, PyArray2<f32>>> {
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
    if array.shape() != shape {
        return Err(EvaluatorError::new_err(format!(
            "the evaluator's {name} must have shape {shape:?}, got {:?}",
            array.shape()
        )));
    }
    value
        .cast::<PyArray2<f32>>()
        .cloned()
        .map_err(|e| EvaluatorError::new_err(format!("the evaluator's {name}: {e}")))
}

/// Calls the evaluator; its own exception becomes the cause of an `EvaluatorError`
/// (a `KeyboardInterrupt` or any other non-`Exception` goes through as it is).
fn call_evaluator<'py>(
    py: Python<'py>,
    evaluator: &Bound<'py, PyAny>,
    observations: Bound<'py, PyAny>,
    mask: Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let result = evaluator.call1((observations, mask)).map_err(|err| {
        if err.is_instance_of::<PyKeyboardInterrupt>(py) || !err.is_instance_of::<PyException>(py) {
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

impl<G: FullGame + Heuristic> DynSearcher for Searcher<G> {
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn reset(&mut self) {
        self.forest.clear();
        self.batch.clear();
    }

    fn tree_size(&self) -> usize {
        self.forest.iter().chain(&self.batch).map(Tree::len).sum()
    }

    fn search<'py>(
        &mut self,
        py: Python<'py>,
        state: &Bound<'py, PyAny>,
        request: &Request,
    ) -> PyResult<Bound<'py, PyDict>> {
        let root: G = read_state(state)?;
        if root.is_terminal() {
            return Err(game_over(G::NAME, None));
        }
        let settings = self.settings;
        let count = match settings.parallel {
            Parallel::Tree => 1,
            Parallel::Root => settings.trees,
        };
        let reused = settings.reuse
            && self.forest.len() == count
            && self.forest.iter_mut().all(|t| Self::reuse(t, &root));
        if !reused {
            self.forest.clear();
            for _ in 0..count {
                let tree = self.new_tree(&root)?;
                self.forest.push(tree);
            }
        }
        let stop = AtomicBool::new(false);
        let start = Instant::now();
        let budget = Budget {
            limit: request.simulations,
            deadline: request.seconds.map(|s| start + Duration::from_secs_f64(s)),
            stop: &stop,
        };
        let forest = &mut self.forest;
        let seed = zobrist::key(settings.seed ^ 0x5EA5C4, self.made);
        let outcome = interruptible(py, &stop, || match settings.parallel {
            Parallel::Tree => search_shared(
                &mut forest[0],
                &settings.config,
                settings.evaluation,
                &budget,
                settings.threads,
                seed,
            ),
            Parallel::Root => search_forest(
                forest,
                &settings.config,
                settings.evaluation,
                &budget,
                settings.threads,
            ),
        });
        let done = match outcome {
            Ok(done) => done,
            Err(err) => {
                self.forest.clear();
                return Err(err);
            }
        };
        let seconds = start.elapsed().as_secs_f64();
        let all: Vec<_> = self.forest.iter().map(Self::text_stats).collect();
        let players = root.num_players();
        let stats = match all.as_slice() {
            [one] => one.clone(),
            _ => merge_stats(&all, players),
        };
        let mover = root.current_player();
        let (chosen, _) = choose(&stats, mover, request.temperature, self.forest[0].rng())
            .ok_or_else(|| GlacierError::new_err("the search found no move"))?;
        Self::result(py, players, &stats, chosen, done, seconds)
    }

    fn search_batch<'py>(
        &mut self,
        py: Python<'py>,
        states: &[Bound<'py, PyAny>],
        evaluator: &Bound<'py, PyAny>,
        request: &Request,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        if !evaluator.is_callable() {
            return Err(InvalidParameterError::new_err(
                "the evaluator must be 'rollout', 'heuristic' or a callable",
            ));
        }
        let Some(simulations) = request.simulations else {
            return Err(InvalidParameterError::new_err(
                "a search with a Python evaluator needs a number of simulations",
            ));
        };
        let mut roots = Vec::with_capacity(states.len());
        for (i, state) in states.iter().enumerate() {
            let root: G = read_state(state)?;
            if root.is_terminal() {
                return Err(game_over(G::NAME, Some(i)));
            }
            roots.push(root);
        }
        let reuse = self.settings.reuse && self.batch.len() == roots.len();
        let mut trees = std::mem::take(&mut self.batch);
        for (i, root) in roots.iter().enumerate() {
            if !(reuse && Self::reuse(&mut trees[i], root)) {
                let tree = self.new_tree(root)?;
                if i < trees.len() {
                    trees[i] = tree;
                } else {
                    trees.push(tree);
                }
            }
        }
        trees.truncate(roots.len());
        let start = Instant::now();
        // On an error the trees are dropped: their simulations in flight were never backed up.
        let done = run_batch(
            py,
            &mut trees,
            self.settings.config,
            simulations,
            request.batch_size,
            evaluator,
        )?;
        let seconds = start.elapsed().as_secs_f64();
        let mut out = Vec::with_capacity(roots.len());
        for ((tree, root), &sims) in trees.iter_mut().zip(&roots).zip(&done) {
            let stats = Self::text_stats(tree);
            let (chosen, _) = choose(
                &stats,
                root.current_player(),
                request.temperature,
                tree.rng(),
            )
            .ok_or_else(|| GlacierError::new_err("the search found no move"))?;
            out.push(Self::result(
                py,
                root.num_players(),
                &stats,
                chosen,
                sims,
                seconds,
            )?);
        }
        self.batch = trees;
        Ok(out)
    }
}

/// Runs a batched search of `trees` to `simulations` each, gathering up to `per_tree`
/// leaves per tree for each call of `evaluator`. Returns the simulations of each tree.
fn run_batch<'py, G: FullGame + Heuristic>(
    py: Python<'py>,
    trees: &mut [Tree<G>],
    config: MctsConfig,
    simulations: u64,
    per_tree: usize,
    evaluator: &Bound<'py, PyAny>,
) -> PyResult<Vec<u64>> {
    let shape = G::OBSERVATION_SHAPE;
    let obs_size: usize = shape.iter().product();
    let actions = G::NUM_DISTINCT_ACTIONS;
    let players = trees.first().map_or(2, Tree::num_players);
    let mut search = BatchSearch::new(trees, config, simulations);
    let mut priors = Vec::new();
    // The first action of every leaf's moves, leaf after leaf (the tree is over whole
    // moves; the evaluator sees the leaf between moves, where its legal actions are the
    // first actions of its legal moves).
    let mut firsts: Vec<usize> = Vec::new();
    let mut counts = vec![0u32; actions];
    while !search.finished() {
        let (n, observations, mask) = py.detach(|| {
            let n = search.gather(per_tree);
            let mut observations = vec![0.0f32; n * obs_size];
            let mut mask = vec![false; n * actions];
            firsts.clear();
            for i in 0..n {
                let (_, state, moves) = search.leaf(i);
                state.observation(
                    &[],
                    state.current_player(),
                    &mut observations[i * obs_size..(i + 1) * obs_size],
                );
                for &mv in moves {
                    let action = first_action(state, mv);
                    mask[i * actions + action] = true;
                    firsts.push(action);
                }
            }
            (n, observations, mask)
        });
        if n == 0 {
            continue;
        }
        let mut full_shape = vec![n];
        full_shape.extend_from_slice(shape);
        let observations = observations.into_pyarray(py).reshape(full_shape)?;
        let mask = mask.into_pyarray(py).reshape([n, actions])?;
        let (logits, values) =
            call_evaluator(py, evaluator, observations.into_any(), mask.into_any())?;
        let logits = evaluator_array(py, &logits, "logits", [n, actions])?;
        let values = evaluator_array(py, &values, "values", [n, players])?;
        let (logits, values) = (logits.readonly(), values.readonly());
        let (logits, values) = (logits.as_array(), values.as_array());
        if let Some(((row, player), v)) = values.indexed_iter().find(|(_, v)| !v.is_finite()) {
            return Err(EvaluatorError::new_err(format!(
                "the evaluator's values[{row}, {player}] is {v}"
            )));
        }
        priors.clear();
        let mut at = 0;
        for i in 0..n {
            let count = search.leaf(i).2.len();
            priors_of(
                i,
                &firsts[at..at + count],
                &logits,
                &mut counts,
                &mut priors,
            )?;
            at += count;
        }
        let values: Vec<f32> = values.iter().copied().collect();
        py.detach(|| search.apply(&priors, &values));
        py.check_signals()?;
    }
    Ok(search.simulations().to_vec())
}

/// MCTS searchers of one game, with their trees kept between searches (the native core of
/// `glacier.search.MCTS`).
#[pyclass(module = "glacier._native")]
pub struct NativeSearch {
    inner: Box<dyn DynSearcher>,
}

impl std::fmt::Debug for NativeSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NativeSearch({})", self.inner.game())
    }
}

fn check_positive(name: &str, value: f64) -> PyResult<f32> {
    if value.is_finite() && value >= 0.0 {
        Ok(value as f32)
    } else {
        Err(InvalidParameterError::new_err(format!(
            "{name} must be a finite number >= 0, got {value}"
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
    #[new]
    #[pyo3(signature = (
        game, *, evaluator = "rollout", rollout_plies = None, selection = "uct",
        c_puct = 1.4, dirichlet_alpha = 0.3, dirichlet_fraction = 0.0, virtual_loss = 1.0,
        threads = 1, parallel = "tree", trees = None, seed = 0, reuse = true,
        priors = "uniform", prior_temperature = 1.0, rollout_policy = "uniform",
        rollout_temperature = 1.0
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
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
    ) -> PyResult<Self> {
        let plies = match rollout_plies {
            None => None,
            Some(p) => Some(u32::try_from(p).map_err(|_| {
                InvalidParameterError::new_err(format!("rollout_plies must be >= 0, got {p}"))
            })?),
        };
        let temperature = |name: &str, t: f64| {
            if t.is_finite() && t > 0.0 && (t as f32).is_finite() {
                Ok(t as f32)
            } else {
                Err(InvalidParameterError::new_err(format!(
                    "{name} must be a finite number > 0, got {t}"
                )))
            }
        };
        let rollout_temperature = temperature("rollout_temperature", rollout_temperature)?;
        let guided = match rollout_policy {
            "uniform" => false,
            "move_priority" => true,
            other => {
                return Err(InvalidParameterError::new_err(format!(
                    "unknown rollout_policy '{other}': 'uniform' or 'move_priority'"
                )))
            }
        };
        let evaluation = match evaluator {
            "rollout" if guided => LeafEvaluation::GuidedRollout {
                plies,
                temperature: rollout_temperature,
            },
            "rollout" => LeafEvaluation::Rollout { plies },
            "heuristic" => LeafEvaluation::Heuristic,
            other => {
                return Err(InvalidParameterError::new_err(format!(
                    "unknown evaluator '{other}': 'rollout', 'heuristic' or a callable"
                )))
            }
        };
        let selection = match selection {
            "uct" => Selection::Uct,
            "puct" => Selection::Puct,
            other => {
                return Err(InvalidParameterError::new_err(format!(
                    "unknown selection '{other}': 'uct' or 'puct'"
                )))
            }
        };
        let prior_temperature = temperature("prior_temperature", prior_temperature)?;
        let move_priors = match priors {
            "uniform" => None,
            "heuristic" => Some(prior_temperature),
            other => {
                return Err(InvalidParameterError::new_err(format!(
                    "unknown priors '{other}': 'uniform' or 'heuristic'"
                )))
            }
        };
        let config = MctsConfig {
            selection,
            exploration: check_positive("c_puct", c_puct)?,
            dirichlet_alpha: check_positive("dirichlet_alpha", dirichlet_alpha)?,
            dirichlet_fraction: check_positive("dirichlet_fraction", dirichlet_fraction)?,
            virtual_loss: check_positive("virtual_loss", virtual_loss)?,
            move_priors,
        };
        config.check().map_err(to_py_err)?;
        let threads = check_threads(threads.into_pyobject(py)?.as_any())?;
        let threads = glacier_core::parallel::thread_count(threads);
        let parallel = match parallel {
            "tree" => Parallel::Tree,
            "root" => Parallel::Root,
            other => {
                return Err(InvalidParameterError::new_err(format!(
                    "unknown parallel mode '{other}': 'tree' or 'root'"
                )))
            }
        };
        let trees = match trees {
            None => threads,
            Some(n) if (1..=1024).contains(&n) => n as usize,
            Some(n) => {
                return Err(InvalidParameterError::new_err(format!(
                    "trees must be between 1 and 1024, got {n}"
                )))
            }
        };
        let settings = Settings {
            config,
            evaluation,
            threads,
            parallel,
            trees,
            seed,
            reuse,
        };
        let inner: Box<dyn DynSearcher> = with_game!(game, G => {
            Box::new(Searcher::<G> { settings, forest: Vec::new(), batch: Vec::new(), made: 0 })
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
        let request = Request {
            simulations,
            seconds,
            temperature: check_positive("temperature", temperature)?,
            batch_size: 1,
        };
        self.inner.search(py, state, &request)
    }

    /// Searches every state of `states` with `evaluator` called once per batch of leaves
    /// (up to `batch_size` per tree); one dict per state, as `search` returns.
    #[pyo3(signature = (states, evaluator, simulations, temperature = 0.0, batch_size = 1))]
    fn search_batch<'py>(
        &mut self,
        py: Python<'py>,
        states: Vec<Bound<'py, PyAny>>,
        evaluator: &Bound<'py, PyAny>,
        simulations: i64,
        temperature: f64,
        batch_size: i64,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let (simulations, _) = check_simulations(Some(simulations), None)?;
        let batch_size = usize::try_from(batch_size)
            .ok()
            .filter(|&b| b >= 1)
            .ok_or_else(|| {
                InvalidParameterError::new_err(format!("batch_size must be >= 1, got {batch_size}"))
            })?;
        let request = Request {
            simulations,
            seconds: None,
            temperature: check_positive("temperature", temperature)?,
            batch_size,
        };
        self.inner.search_batch(py, &states, evaluator, &request)
    }
}

/// Alpha-beta from `state` to `depth` or for `seconds` (with neither: one second); a dict
/// with `move`, `score` (from the mover's side: the heuristic in [-1, 1], or +-1 for a
/// forced result), `mate` (plies to a forced end, positive when the mover wins, or None),
/// `depth`, `pv`, `nodes` and `seconds`.
#[pyfunction]
#[pyo3(signature = (state, depth = None, seconds = None))]
fn alphabeta_native<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    depth: Option<i64>,
    seconds: Option<f64>,
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
            return Err(game_over(G::NAME, None));
        }
        let stop = AtomicBool::new(false);
        let start = Instant::now();
        let budget = Budget {
            limit: depth,
            deadline: seconds.map(|s| start + Duration::from_secs_f64(s)),
            stop: &stop,
        };
        let result = interruptible(py, &stop, || alphabeta(&root, &budget))?.map_err(to_py_err)?;
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

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NativeSearch>()?;
    m.add_function(wrap_pyfunction!(alphabeta_native, m)?)?;
    Ok(())
}
