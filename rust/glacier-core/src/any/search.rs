//! An MCTS searcher of any game ([`crate::search::searcher::Searcher`]), searching states
//! of its game.

use super::{each, AnyGame, AnyState, Registered, Searchers, Variants};
use crate::interrupt::Interrupt;
use crate::search::batch::LeafEvaluator;
use crate::search::options::SearchSettings;
use crate::search::searcher::{SearchError, SearchReport, Searcher};
use crate::Error;

/// The error for a state of another game than the search's.
#[must_use]
pub fn wrong_game(search: AnyGame, state: &str) -> Error {
    Error::InvalidParameter(format!(
        "this search is for {search}, not for a {state} state"
    ))
}

/// The error for a state in the middle of a move, which the searches do not start from.
#[must_use]
pub fn mid_move() -> Error {
    // The tree is over whole moves: a state in the middle of a move (some of its actions
    // taken) has no position of its own to search from.
    Error::InvalidParameter(
        "the search starts between moves, and this state is in the middle of one (it has \
         pending actions): search the state before the move's first action and follow the \
         chosen move's actions (state.move_to_actions)"
            .to_string(),
    )
}

/// MCTS searchers of one game with their trees kept between searches, as
/// [`AnyGame::searcher`] makes them.
#[derive(Debug)]
pub struct AnySearcher(Searchers);

macro_rules! searcher {
    ($value:expr, $s:pat, $G:ident => $body:expr) => {
        each!($value, Searchers, $s, $G => $body)
    };
}

/// The states of `G` that `roots` are, or the error for the first of another game.
fn roots_of<G: Registered>(roots: &[AnyState]) -> Result<Vec<G>, Error> {
    roots
        .iter()
        .map(|root| {
            root.get::<G>()
                .cloned()
                .ok_or_else(|| wrong_game(G::game(), root.game().name()))
        })
        .collect()
}

/// `root` as a state of `G`, or the error that it is of another game.
fn root_of<G: Registered>(root: &AnyState) -> Result<&G, Error> {
    root.get::<G>()
        .ok_or_else(|| wrong_game(G::game(), root.game().name()))
}

impl AnySearcher {
    pub(super) fn of<G: Registered>(searcher: Searcher<G>) -> Self {
        AnySearcher(G::searcher(searcher))
    }

    #[must_use]
    pub fn game(&self) -> AnyGame {
        searcher!(&self.0, _, G => <G as Variants>::game())
    }

    #[must_use]
    pub fn settings(&self) -> SearchSettings {
        searcher!(&self.0, s, G => *s.settings())
    }

    /// Drops the kept trees.
    pub fn reset(&mut self) {
        searcher!(&mut self.0, s, G => s.reset());
    }

    /// The nodes held by the kept trees.
    #[must_use]
    pub fn tree_size(&self) -> usize {
        searcher!(&self.0, s, G => s.tree_size())
    }

    /// [`Searcher::search`] of `root`, a state of the searcher's game.
    pub fn search(
        &mut self,
        root: &AnyState,
        simulations: Option<u64>,
        seconds: Option<f64>,
        temperature: f32,
        interrupt: &Interrupt<'_>,
    ) -> Result<SearchReport, SearchError> {
        searcher!(&mut self.0, s, G => {
            let root: &G = root_of(root)?;
            s.search(root, simulations, seconds, temperature, interrupt)
        })
    }

    /// [`Searcher::search_batch`] of `roots`, states of the searcher's game.
    pub fn search_batch<E: LeafEvaluator + ?Sized>(
        &mut self,
        roots: &[AnyState],
        evaluator: &mut E,
        simulations: u64,
        temperature: f32,
        per_tree: usize,
        interrupt: &Interrupt<'_>,
    ) -> Result<Vec<SearchReport>, SearchError> {
        searcher!(&mut self.0, s, G => {
            let roots: Vec<G> = roots_of(roots)?;
            s.search_batch(&roots, evaluator, simulations, temperature, per_tree, interrupt)
        })
    }

    /// [`Searcher::search_batch_split`] of `roots`, states of the searcher's game: the trees
    /// split over its threads, each share searched with a clone of `evaluator`.
    pub fn search_batch_split<E: LeafEvaluator + Clone + Send>(
        &mut self,
        roots: &[AnyState],
        evaluator: &E,
        simulations: u64,
        temperature: f32,
        per_tree: usize,
        interrupt: &Interrupt<'_>,
    ) -> Result<Vec<SearchReport>, SearchError> {
        searcher!(&mut self.0, s, G => {
            let roots: Vec<G> = roots_of(roots)?;
            s.search_batch_split(&roots, evaluator, simulations, temperature, per_tree, interrupt)
        })
    }
}
