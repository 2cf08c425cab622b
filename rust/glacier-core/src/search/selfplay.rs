//! AlphaZero-style self-play in the engine: many games played at once, every move chosen by
//! MCTS on one tree per game (kept from move to move), every action recorded with the
//! search's targets.
//!
//! [`play_games`] plays the games on one thread; the caller says how a round of searches
//! runs (its `search_round` closure): leaves batched across the trees for an outside
//! evaluator ([`super::batch::run_batch`]) or the engine's own evaluation
//! ([`engine_round`]). [`play_games_split`] plays them on several threads, each playing
//! whole games of its own with its own round, so that no thread waits for another between
//! rounds. Each game draws from its own random stream (the seeds of its trees, the moves it
//! picks), so a game depends only on the run's seed and its number: not on the games
//! played beside it, nor on the threads. [`self_play`] chooses between them by what
//! evaluates the leaves ([`SelfPlayLeaves`]).

use super::batch::{first_action, run_batch, LeafEvaluator};
use super::evaluate::LeafEvaluation;
use super::mcts::{choose, search, MctsConfig, Tree};
use super::options::SearchSettings;
use super::searcher::SearchError;
use super::{Budget, Heuristic};
use crate::actions::{chosen_actions, PartialMove, Taken};
use crate::interrupt::{Interrupt, Stopped, Watch};
use crate::rng::SplitMix64;
use crate::{Error, FullGame};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

/// How self-play picks its moves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SelfPlayConfig {
    /// Simulations per move.
    pub simulations: u64,
    /// The temperature of the moves drawn at the start of a game: a move is drawn with
    /// probability proportional to `visits^(1/temperature)` (0: the most visited).
    pub temperature: f32,
    /// Moves at the start of each game drawn with `temperature`; then the most visited.
    pub temperature_moves: u64,
    /// Stop a game after this many moves (its rows then get zero returns).
    pub max_moves: Option<u64>,
    /// Games played at once (the trees of a round of searches).
    pub concurrent: usize,
}

impl SelfPlayConfig {
    fn check(&self) -> Result<(), Error> {
        if self.simulations == 0 || self.concurrent == 0 {
            return Err(Error::InvalidParameter(
                "self-play needs at least one simulation and one game at a time".to_string(),
            ));
        }
        if !(self.temperature.is_finite() && self.temperature >= 0.0) {
            return Err(Error::InvalidParameter(format!(
                "temperature must be a finite number >= 0, got {}",
                self.temperature
            )));
        }
        Ok(())
    }
}

/// The rows of self-play, one per action played, column after column (the columns of
/// `glacier.learn.AZ_COLUMNS`); an array column holds its rows one after another.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SelfPlayRows {
    /// The game's number in the run.
    pub game: Vec<i64>,
    /// Whole moves made before this action.
    pub ply: Vec<u32>,
    /// The player to move.
    pub player: Vec<i32>,
    /// The observation from the mover's point of view (the game's `OBSERVATION_SHAPE`).
    pub observation: Vec<f32>,
    pub legal_count: Vec<u32>,
    /// The legal actions (`NUM_DISTINCT_ACTIONS` a row).
    pub legal_mask: Vec<bool>,
    /// The action taken: replaying a game's actions replays the game.
    pub action: Vec<i64>,
    /// The game's final returns (a row of one value per player).
    pub returns: Vec<f64>,
    /// The search's visits summed per first action, summing to 1, at a move's first
    /// action; one-hot on the action at its later ones.
    pub policy: Vec<f32>,
    /// The search root's mean value for every player.
    pub root_values: Vec<f32>,
    /// Whether a search chose the move here (a move's first action).
    pub searched: Vec<bool>,
}

impl SelfPlayRows {
    /// The number of rows.
    #[must_use]
    pub fn len(&self) -> usize {
        self.game.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.game.is_empty()
    }

    fn append(&mut self, other: &mut SelfPlayRows) {
        self.game.append(&mut other.game);
        self.ply.append(&mut other.ply);
        self.player.append(&mut other.player);
        self.observation.append(&mut other.observation);
        self.legal_count.append(&mut other.legal_count);
        self.legal_mask.append(&mut other.legal_mask);
        self.action.append(&mut other.action);
        self.returns.append(&mut other.returns);
        self.policy.append(&mut other.policy);
        self.root_values.append(&mut other.root_values);
        self.searched.append(&mut other.searched);
    }
}

/// One game being played, with its rows so far.
struct Playing<G: FullGame> {
    index: u64,
    state: G,
    rng: SplitMix64,
    moves: u64,
    rows: SelfPlayRows,
}

impl<G: FullGame> Playing<G> {
    /// Game `index` of a run seeded `seed`, from `start`, with its first tree.
    fn new(index: u64, start: &G, seed: u64) -> Result<(Self, Tree<G>), Error> {
        let mut rng = SplitMix64::stream(seed, index);
        let tree = Tree::new(start.clone(), rng.next_u64())?;
        let game = Playing {
            index,
            state: start.clone(),
            rng,
            moves: 0,
            rows: SelfPlayRows::default(),
        };
        Ok((game, tree))
    }

    /// Records the actions of `mv` (the search's move) and plays it. `policy` is the
    /// search's policy over actions, `values` its root values.
    fn play(&mut self, mv: G::Move, policy: &[f32], values: &[f32]) -> Result<(), Error> {
        let (state, rows) = (&self.state, &mut self.rows);
        let mover = state.current_player();
        let actions = G::NUM_DISTINCT_ACTIONS;
        let obs_size: usize = G::OBSERVATION_SHAPE.iter().product();
        let mut partial = PartialMove::new();
        let mut completed = None;
        for (k, action) in chosen_actions(state, mv).iter().enumerate() {
            rows.game.push(self.index as i64);
            rows.ply.push(u32::try_from(self.moves).unwrap_or(u32::MAX));
            rows.player.push(mover as i32);
            let at = rows.observation.len();
            rows.observation.resize(at + obs_size, 0.0);
            partial.observe(state, mover, &mut rows.observation[at..]);
            let at = rows.legal_mask.len();
            rows.legal_mask.resize(at + actions, false);
            partial.write_mask(state, &mut rows.legal_mask[at..]);
            let legal = rows.legal_mask[at..].iter().filter(|&&b| b).count();
            rows.legal_count.push(legal as u32);
            rows.action.push(action as i64);
            if k == 0 {
                rows.policy.extend_from_slice(policy);
            } else {
                let at = rows.policy.len();
                rows.policy.resize(at + actions, 0.0);
                rows.policy[at + action] = 1.0;
            }
            rows.root_values.extend_from_slice(values);
            rows.searched.push(k == 0);
            completed = match partial.take(state, action) {
                Some(Taken::Move(done)) => Some(done),
                Some(Taken::Continues) => None,
                None => None,
            };
        }
        if completed != Some(mv) {
            return Err(Error::Evaluator(format!(
                "internal error: the actions of a {} move did not make it",
                G::NAME
            )));
        }
        self.state.play_unchecked(mv);
        self.moves += 1;
        Ok(())
    }

    /// Gives every row of the game its final `returns`.
    fn finish(&mut self, returns: &[f64]) {
        for _ in 0..self.rows.len() {
            self.rows.returns.extend_from_slice(returns);
        }
    }
}

/// The search's visits summed per first action over `root`'s moves, normalised to sum to
/// 1 (all zero when nothing was visited), into `policy` (one entry per action).
fn action_policy<G: FullGame>(root: &G, moves: &[(G::Move, u64)], policy: &mut [f32]) {
    policy.fill(0.0);
    let mut total = 0u64;
    for &(mv, visits) in moves {
        policy[first_action(root, mv)] += visits as f32;
        total += visits;
    }
    if total > 0 {
        let scale = 1.0 / total as f32;
        for p in policy.iter_mut() {
            *p *= scale;
        }
    }
}

/// Hands out the numbers of a run's games, in order, to whoever plays next (the threads of
/// [`play_games_split`] share one).
struct Supply {
    next: AtomicU64,
    end: u64,
}

impl Supply {
    fn new(games: Range<u64>) -> Self {
        Supply {
            next: AtomicU64::new(games.start),
            end: games.end,
        }
    }

    fn take(&self) -> Option<u64> {
        let index = self.next.fetch_add(1, Ordering::Relaxed);
        (index < self.end).then_some(index)
    }
}

/// Plays games taken from `supply`, up to `concurrent` at a time, and returns them
/// finished, in the order they finished. Each round `search_round` searches every tree
/// (and says whether the work was told to stop); then each game moves as
/// [`play_games`] says, and `on_round(n)` hears of the `n` moves made.
fn play_share<G, S, R>(
    start: &G,
    supply: &Supply,
    seed: u64,
    config: &SelfPlayConfig,
    concurrent: usize,
    mut search_round: S,
    mut on_round: R,
) -> Result<Vec<Playing<G>>, SearchError>
where
    G: FullGame + Heuristic,
    S: FnMut(&mut [Tree<G>]) -> Result<(), SearchError>,
    R: FnMut(usize) -> Result<(), SearchError>,
{
    let players = start.num_players();
    let mut playing = Vec::new();
    let mut trees = Vec::new();
    while playing.len() < concurrent {
        let Some(index) = supply.take() else { break };
        let (game, tree) = Playing::new(index, start, seed)?;
        playing.push(game);
        trees.push(tree);
    }
    let mut finished: Vec<Playing<G>> = Vec::new();
    let mut policy = vec![0.0f32; G::NUM_DISTINCT_ACTIONS];
    let mut moves = Vec::new();
    while !playing.is_empty() {
        search_round(&mut trees)?;
        let made = playing.len();
        let mut i = 0;
        while i < playing.len() {
            let (game, tree) = (&mut playing[i], &mut trees[i]);
            let stats = tree.root_stats();
            let temperature = if game.moves < config.temperature_moves {
                config.temperature
            } else {
                0.0
            };
            let mover = game.state.current_player();
            let mv = choose(&stats, mover, temperature, &mut game.rng)
                .ok_or_else(|| Error::GameOver("the search found no move".to_string()))?;
            moves.clear();
            moves.extend(stats.moves.iter().map(|m| (m.mv, m.visits)));
            action_policy(&game.state, &moves, &mut policy);
            game.play(mv, &policy, &stats.values[..players])?;
            let over = game.state.is_terminal();
            if over || config.max_moves.is_some_and(|most| game.moves >= most) {
                let returns = if over {
                    game.state.outcome().returns(players)
                } else {
                    vec![0.0; players]
                };
                game.finish(&returns);
                if let Some(index) = supply.take() {
                    let (fresh, tree) = Playing::new(index, start, seed)?;
                    finished.push(std::mem::replace(&mut playing[i], fresh));
                    trees[i] = tree;
                    i += 1;
                } else {
                    finished.push(playing.remove(i));
                    trees.remove(i);
                }
                continue;
            }
            if !tree.descend(mv) {
                *tree = Tree::new(game.state.clone(), game.rng.next_u64())?;
            }
            i += 1;
        }
        on_round(made)?;
    }
    Ok(finished)
}

/// The rows of `finished` games, game after game in number order.
fn rows_of<G: FullGame>(mut finished: Vec<Playing<G>>) -> SelfPlayRows {
    finished.sort_by_key(|g| g.index);
    let mut out = SelfPlayRows::default();
    for game in &mut finished {
        out.append(&mut game.rows);
    }
    out
}

fn check_start<G: FullGame>(start: &G, config: &SelfPlayConfig) -> Result<(), SearchError> {
    config.check()?;
    if start.is_terminal() {
        return Err(
            Error::GameOver(format!("no move to play: the {} game is over", G::NAME)).into(),
        );
    }
    Ok(())
}

/// Plays games `games` of a self-play run seeded `seed` from `start`, `config.concurrent`
/// at a time, and returns their rows, game after game in number order. Each round,
/// `search_round` runs `config.simulations` simulations in every tree (one per game being
/// played); then each game picks its move from its tree's root (drawn by visits for its
/// first `config.temperature_moves` moves, then the most visited), records it and plays
/// it, and its tree moves on to the move's subtree. A finished game makes room for the
/// next. `on_round(n)` is called after each round with the number of moves made; an error
/// from it ends the run. Stops, with [`SearchError::Stopped`], when `interrupt` says stop.
pub fn play_games<G, S, R>(
    start: &G,
    games: Range<u64>,
    seed: u64,
    config: &SelfPlayConfig,
    mut search_round: S,
    interrupt: &Interrupt<'_>,
    mut on_round: R,
) -> Result<SelfPlayRows, SearchError>
where
    G: FullGame + Heuristic,
    S: FnMut(&mut [Tree<G>]) -> Result<(), SearchError>,
    R: FnMut(usize) -> Result<(), Error>,
{
    check_start(start, config)?;
    let supply = Supply::new(games);
    let round = |trees: &mut [Tree<G>]| {
        search_round(trees)?;
        interrupt.result(()).map_err(SearchError::Stopped)
    };
    let finished = play_share(
        start,
        &supply,
        seed,
        config,
        config.concurrent,
        round,
        |made| on_round(made).map_err(SearchError::from),
    )?;
    Ok(rows_of(finished))
}

/// [`play_games`] on up to `threads` threads, each playing whole games of its own (taken
/// in number order as it is ready for one), up to `config.concurrent` over all of them at
/// a time: no thread waits for another between rounds, and the moves and records are made
/// on every thread. Each thread searches its trees with a round of its own from
/// `make_round` (given the thread's [`Watch`]: a round stops early when it says stop). A
/// game depends only on the run's seed and its number, so the rows are those of
/// [`play_games`] for any thread count. `on_round(n)` is called on the thread that made
/// the moves.
#[allow(clippy::too_many_arguments)]
pub fn play_games_split<G, M, S, R>(
    start: &G,
    games: Range<u64>,
    seed: u64,
    config: &SelfPlayConfig,
    threads: usize,
    make_round: M,
    interrupt: &Interrupt<'_>,
    on_round: R,
) -> Result<SelfPlayRows, SearchError>
where
    G: FullGame + Heuristic + Send + Sync,
    M: Fn() -> S + Sync,
    S: FnMut(&mut [Tree<G>], &mut Watch<'_, '_>) -> Result<(), SearchError>,
    R: Fn(usize) -> Result<(), Error> + Sync,
{
    check_start(start, config)?;
    let count = usize::try_from(games.end.saturating_sub(games.start)).unwrap_or(usize::MAX);
    // No more threads than games at a time: each thread plays at least one.
    let shares = crate::threads::thread_count(threads)
        .min(count)
        .min(config.concurrent)
        .max(1);
    let concurrent = config.concurrent.div_ceil(shares);
    let supply = Supply::new(games);
    let finished = Mutex::new(Vec::new());
    let failure: Mutex<Option<SearchError>> = Mutex::new(None);
    let failed = AtomicBool::new(false);
    crate::threads::spread(shares, interrupt, |_, watch| {
        let mut search_round = make_round();
        let round = |trees: &mut [Tree<G>]| {
            search_round(trees, watch)?;
            if watch.is_stopped() || failed.load(Ordering::Relaxed) {
                return Err(SearchError::Stopped(Stopped::Interrupted));
            }
            Ok(())
        };
        let played = play_share(start, &supply, seed, config, concurrent, round, |made| {
            on_round(made).map_err(SearchError::from)
        });
        match played {
            Ok(mut games) => finished
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .append(&mut games),
            // A thread stopped because another failed is not the failure.
            Err(SearchError::Stopped(_)) if failed.load(Ordering::Relaxed) => {}
            Err(err) => {
                failed.store(true, Ordering::Relaxed);
                failure
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .get_or_insert(err);
            }
        }
    });
    if let Some(err) = failure.into_inner().unwrap_or_else(PoisonError::into_inner) {
        return Err(err);
    }
    interrupt.result(()).map_err(SearchError::Stopped)?;
    Ok(rows_of(
        finished
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner),
    ))
}

/// A round of self-play's searches with the engine's own `evaluation`, on the calling
/// thread: every tree searched in turn, `simulations` each, until `stop` is set (each tree
/// draws from its own random stream, so the result does not depend on how the trees are
/// shared among threads).
pub fn engine_round<G: Heuristic>(
    trees: &mut [Tree<G>],
    config: &MctsConfig,
    evaluation: LeafEvaluation,
    simulations: u64,
    stop: &AtomicBool,
) {
    let budget = Budget {
        limit: Some(simulations),
        deadline: None,
        stop,
    };
    for tree in trees {
        if budget.stop.load(Ordering::Relaxed) {
            break;
        }
        search(tree, config, evaluation, &budget);
    }
}

/// A self-play run: its games (by number) and seed, how its moves are picked, the settings
/// of its searches and, for an outside evaluator, the leaves of each tree in a batch.
#[derive(Debug, Clone, PartialEq)]
pub struct SelfPlayRun {
    pub games: Range<u64>,
    pub seed: u64,
    pub config: SelfPlayConfig,
    pub settings: SearchSettings,
    pub per_tree: usize,
}

/// What evaluates the leaves of self-play's searches, and so how [`self_play`] spreads the
/// games over threads.
pub enum SelfPlayLeaves<'a, C> {
    /// The searches' own evaluation (`settings.evaluation`): whole games on each of the
    /// searcher's threads.
    Engine,
    /// An evaluator that clones (a net in the engine): whole games on each thread, each
    /// thread with a clone of its own.
    Cloned(&'a C),
    /// An evaluator that only the calling thread may call (a Python callable, which needs
    /// the interpreter): one thread plays.
    Single(&'a mut (dyn LeafEvaluator + Send)),
}

impl<C> std::fmt::Debug for SelfPlayLeaves<'_, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SelfPlayLeaves::Engine => "Engine",
            SelfPlayLeaves::Cloned(_) => "Cloned",
            SelfPlayLeaves::Single(_) => "Single",
        })
    }
}

/// Plays `run` from `start` with its leaves evaluated by `leaves`: [`play_games_split`] on
/// the searcher's threads for the engine's own evaluation and for an evaluator that clones,
/// [`play_games`] on the calling thread for one that does not. `on_round(n)` hears of the
/// moves made after each round of searches (on the thread that made them).
pub fn self_play<G, C, R>(
    start: &G,
    run: &SelfPlayRun,
    leaves: SelfPlayLeaves<'_, C>,
    interrupt: &Interrupt<'_>,
    on_round: R,
) -> Result<SelfPlayRows, SearchError>
where
    G: FullGame + Heuristic,
    C: LeafEvaluator + Clone + Send + Sync,
    R: Fn(usize) -> Result<(), Error> + Sync,
{
    let SelfPlayRun {
        games,
        seed,
        config,
        settings,
        per_tree,
    } = run;
    let (games, seed, per_tree) = (games.clone(), *seed, *per_tree);
    let (mcts, threads, sims) = (settings.config, settings.threads, config.simulations);
    match leaves {
        SelfPlayLeaves::Engine => play_games_split(
            start,
            games,
            seed,
            config,
            threads,
            || {
                |trees: &mut [Tree<G>], _: &mut Watch<'_, '_>| {
                    engine_round(trees, &mcts, settings.evaluation, sims, interrupt.flag());
                    Ok(())
                }
            },
            interrupt,
            on_round,
        ),
        SelfPlayLeaves::Cloned(evaluator) => play_games_split(
            start,
            games,
            seed,
            config,
            threads,
            || {
                let mut evaluator = evaluator.clone();
                move |trees: &mut [Tree<G>], watch: &mut Watch<'_, '_>| {
                    run_batch(trees, mcts, sims, per_tree, &mut evaluator, watch)?;
                    Ok(())
                }
            },
            interrupt,
            on_round,
        ),
        SelfPlayLeaves::Single(evaluator) => play_games(
            start,
            games,
            seed,
            config,
            |trees: &mut [Tree<G>]| {
                run_batch(
                    trees,
                    mcts,
                    sims,
                    per_tree,
                    evaluator,
                    &mut interrupt.caller(),
                )?;
                Ok(())
            },
            interrupt,
            on_round,
        ),
    }
}
