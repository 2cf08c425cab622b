//! An MCTS searcher of one game that keeps its trees between searches (tree reuse), with
//! the seeds of the trees it makes, and what a search reports: the chosen move, the visits
//! and priors of every move by its text, and the visits summed per first action (the policy
//! target of a learning program).

use super::batch::{first_action, run_batch, run_batch_split, LeafEvaluator};
use super::mcts::{choose, merge_stats, search_forest, search_shared, MoveStats, RootStats, Tree};
use super::options::{Parallel, SearchSettings};
use super::{Budget, Heuristic};
use crate::interrupt::{Interrupt, Stopped};
use crate::{zobrist, Error, FullGame};
use std::time::{Duration, Instant};

/// Why a search gave no result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchError {
    /// Bad input, or a failed evaluator.
    Error(Error),
    /// Its interrupt said stop (its trees are dropped).
    Stopped(Stopped),
}

impl From<Error> for SearchError {
    fn from(err: Error) -> Self {
        SearchError::Error(err)
    }
}

/// One legal move of the root as a search found it.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveReport {
    pub text: String,
    pub visits: u64,
    pub prior: f32,
}

/// What a search found at the root.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchReport {
    /// The chosen move's text.
    pub chosen: String,
    /// Every legal move, most visited first (ties in text order).
    pub moves: Vec<MoveReport>,
    /// `(action, visits)`: the visits of the moves that begin with each first action,
    /// summed, in action order.
    pub action_visits: Vec<(usize, u64)>,
    /// The mean value of the root for every player.
    pub values: Vec<f32>,
    /// Simulations run by this search.
    pub simulations: u64,
    /// Its wall-clock time.
    pub seconds: f64,
}

/// The searcher: its settings and the trees it keeps.
#[derive(Debug)]
pub struct Searcher<G: FullGame + Heuristic> {
    settings: SearchSettings,
    /// The trees of single-position searches (several when root-parallel).
    forest: Vec<Tree<G>>,
    /// The trees of batched searches, one per position.
    batch: Vec<Tree<G>>,
    /// Trees made so far (the seed of tree `i` is key `i` of the searcher's seed).
    made: u64,
}

/// The error for a search of a finished game (`index`: its place in a batch).
#[must_use]
pub fn game_over(game: &str, index: Option<usize>) -> Error {
    let which = index.map_or(String::new(), |i| format!(" (state {i})"));
    Error::GameOver(format!("no move to search: the {game} game is over{which}"))
}

/// The error for a root that ended up with no move to choose.
fn no_move() -> Error {
    Error::GameOver("the search found no move".to_string())
}

impl<G: FullGame + Heuristic> Searcher<G> {
    /// A searcher with no trees yet.
    #[must_use]
    pub fn new(settings: SearchSettings) -> Self {
        Searcher {
            settings,
            forest: Vec::new(),
            batch: Vec::new(),
            made: 0,
        }
    }

    pub fn settings(&self) -> &SearchSettings {
        &self.settings
    }

    /// Drops the kept trees.
    pub fn reset(&mut self) {
        self.forest.clear();
        self.batch.clear();
    }

    /// The nodes held by the kept trees.
    pub fn tree_size(&self) -> usize {
        self.forest.iter().chain(&self.batch).map(Tree::len).sum()
    }

    fn new_tree(&mut self, root: &G) -> Result<Tree<G>, Error> {
        let seed = zobrist::key(self.settings.seed, self.made);
        self.made += 1;
        Tree::new(root.clone(), seed)
    }

    /// Moves `tree` to `root` if it is in the tree, within a few plies of its root (the
    /// plies of one round of play, and two more).
    fn reuse(tree: &mut Tree<G>, root: &G) -> bool {
        let (hash, text) = (root.hash(), root.text());
        tree.advance(root.num_players() + 2, |s| {
            s.hash() == hash && s.text() == text
        })
    }

    /// Searches `root` with the engine's own evaluations for `simulations` or `seconds`
    /// (whichever ends first), on the searcher's threads, while the caller's thread watches
    /// `interrupt`; the move is chosen with `temperature`. The trees are kept for the next
    /// search (dropped when it is interrupted).
    pub fn search(
        &mut self,
        root: &G,
        simulations: Option<u64>,
        seconds: Option<f64>,
        temperature: f32,
        interrupt: &Interrupt<'_>,
    ) -> Result<SearchReport, SearchError> {
        if root.is_terminal() {
            return Err(game_over(G::NAME, None).into());
        }
        // The position as read from its text ([`crate::Game::canonical`]): a search depends
        // on the position alone, wherever the state came from.
        let root = &root.canonical();
        let settings = self.settings;
        let count = match settings.parallel {
            Parallel::Tree => 1,
            Parallel::Root => settings.trees,
        };
        let reused = settings.reuse
            && self.forest.len() == count
            && self.forest.iter_mut().all(|t| Self::reuse(t, root));
        if !reused {
            self.forest.clear();
            for _ in 0..count {
                let tree = self.new_tree(root)?;
                self.forest.push(tree);
            }
        }
        let start = Instant::now();
        let budget = Budget {
            limit: simulations,
            deadline: seconds.map(|s| start + Duration::from_secs_f64(s)),
            stop: interrupt.flag(),
        };
        let forest = &mut self.forest;
        let seed = zobrist::key(settings.seed ^ 0x5EA5C4, self.made);
        let done = crate::threads::run_watched(interrupt, || match settings.parallel {
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
        if let Err(stopped) = interrupt.result(()) {
            self.forest.clear();
            return Err(SearchError::Stopped(stopped));
        }
        let seconds = start.elapsed().as_secs_f64();
        let all: Vec<_> = self.forest.iter().map(text_stats).collect();
        let players = root.num_players();
        let stats = match all.as_slice() {
            [one] => one.clone(),
            _ => merge_stats(&all, players),
        };
        let chosen = choose(
            &stats,
            root.current_player(),
            temperature,
            self.forest[0].rng(),
        )
        .ok_or_else(no_move)?;
        Ok(report(players, &stats, chosen.0, done, seconds))
    }

    /// Searches every state of `roots` for `simulations` each, their leaves evaluated
    /// together by `evaluator`, `per_tree` leaves per tree in each batch; one tree per
    /// root, kept for the next call (dropped on an error or an interrupt). With `threads`
    /// above 1 the trees are split across threads, each with a clone of the evaluator
    /// ([`Searcher::search_batch_split`]).
    pub fn search_batch<E: LeafEvaluator + ?Sized>(
        &mut self,
        roots: &[G],
        evaluator: &mut E,
        simulations: u64,
        temperature: f32,
        per_tree: usize,
        interrupt: &Interrupt<'_>,
    ) -> Result<Vec<SearchReport>, SearchError> {
        let mut trees = self.batch_trees(roots)?;
        let start = Instant::now();
        let config = self.settings.config;
        let done = run_batch(
            &mut trees,
            config,
            simulations,
            per_tree,
            evaluator,
            &mut interrupt.caller(),
        )?;
        self.finish_batch(roots, trees, &done, temperature, start, interrupt)
    }

    /// [`Searcher::search_batch`] with the trees split across the searcher's threads, each
    /// share searched with a clone of `evaluator`.
    pub fn search_batch_split<E: LeafEvaluator + Clone + Send>(
        &mut self,
        roots: &[G],
        evaluator: &E,
        simulations: u64,
        temperature: f32,
        per_tree: usize,
        interrupt: &Interrupt<'_>,
    ) -> Result<Vec<SearchReport>, SearchError> {
        let mut trees = self.batch_trees(roots)?;
        let start = Instant::now();
        let (config, threads) = (self.settings.config, self.settings.threads);
        let done = run_batch_split(
            &mut trees,
            config,
            simulations,
            per_tree,
            evaluator,
            threads,
            interrupt,
        )?;
        self.finish_batch(roots, trees, &done, temperature, start, interrupt)
    }

    /// The trees of a batched search of `roots`: the kept ones moved on where they can be,
    /// new ones elsewhere.
    fn batch_trees(&mut self, roots: &[G]) -> Result<Vec<Tree<G>>, Error> {
        for (i, root) in roots.iter().enumerate() {
            if root.is_terminal() {
                return Err(game_over(G::NAME, Some(i)));
            }
        }
        let roots: Vec<G> = roots.iter().map(crate::Game::canonical).collect();
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
        Ok(trees)
    }

    fn finish_batch(
        &mut self,
        roots: &[G],
        mut trees: Vec<Tree<G>>,
        done: &[u64],
        temperature: f32,
        start: Instant,
        interrupt: &Interrupt<'_>,
    ) -> Result<Vec<SearchReport>, SearchError> {
        interrupt.result(()).map_err(SearchError::Stopped)?;
        let seconds = start.elapsed().as_secs_f64();
        let mut out = Vec::with_capacity(roots.len());
        for ((tree, root), &sims) in trees.iter_mut().zip(roots).zip(done) {
            let stats = text_stats(tree);
            let (chosen, _) = choose(&stats, root.current_player(), temperature, tree.rng())
                .ok_or_else(no_move)?;
            out.push(report(root.num_players(), &stats, chosen, sims, seconds));
        }
        self.batch = trees;
        Ok(out)
    }
}

/// The root statistics of `tree` with each move as its text and its first action. The text
/// is written from the tree's own root: a tree kept from an earlier search reached it by
/// play, and its moves may name pieces (E numbers them) as that state does, not as a state
/// read from the same position text would.
fn text_stats<G: FullGame>(tree: &Tree<G>) -> RootStats<(String, usize)> {
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

/// The visits of `moves` (`(first action, visits)`) summed per first action, in action
/// order: the policy target over the fixed action space.
#[must_use]
pub fn action_visits(moves: &[(usize, u64)]) -> Vec<(usize, u64)> {
    let mut by_action = moves.to_vec();
    by_action.sort_unstable();
    by_action
        .chunk_by(|a, b| a.0 == b.0)
        .map(|group| (group[0].0, group.iter().map(|&(_, n)| n).sum()))
        .collect()
}

fn report(
    players: usize,
    stats: &RootStats<(String, usize)>,
    chosen: String,
    simulations: u64,
    seconds: f64,
) -> SearchReport {
    let mut moves: Vec<MoveReport> = stats
        .moves
        .iter()
        .map(|m| MoveReport {
            text: m.mv.0.clone(),
            visits: m.visits,
            prior: m.prior,
        })
        .collect();
    moves.sort_by(|a, b| b.visits.cmp(&a.visits).then_with(|| a.text.cmp(&b.text)));
    let firsts: Vec<(usize, u64)> = stats.moves.iter().map(|m| (m.mv.1, m.visits)).collect();
    SearchReport {
        chosen,
        moves,
        action_visits: action_visits(&firsts),
        values: stats.values[..players].to_vec(),
        simulations,
        seconds,
    }
}
