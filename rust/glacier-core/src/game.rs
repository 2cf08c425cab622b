//! The traits every game implements, in layers that know only what they must:
//!
//! - [`Game`]: the rules. Parameters, the start, move generation, play, the outcome and the
//!   Zobrist hash. Perft, playouts and search need nothing more.
//! - [`Notation`]: the position text and the move text, for people and for the checked,
//!   text-based [`crate::Session`].
//! - [`ActionEncoding`]: action numbers for learning programs (a move is one action or a
//!   short sequence of them).
//! - [`Observation`]: the state as a tensor, from any player's point of view, for learning
//!   programs.
//! - [`Facts`]: not rules but what the tools around the engine need to know of the game
//!   (seat names, the default computer player, workloads, named starts, pictures), so that
//!   no tool keeps a table keyed by game.
//!
//! A consumer asks for the layers it uses (the batched environment needs an encoding and an
//! observation), so a game without one fails to compile instead of returning zeros. None of
//! the required methods has a default.

use crate::actions::{ActionList, QuickTake};
use crate::interrupt::Watch;
use crate::rng::SplitMix64;
use crate::{Error, ParamSpec, ParamValue};
use std::convert::Infallible;
use std::fmt::Debug;
use std::ops::ControlFlow;

/// How a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Ongoing,
    Draw,
    Win(u8),
}

impl Outcome {
    /// Per-player returns: the winner +1, every other player `-1/(n-1)`; zeros otherwise.
    #[must_use]
    pub fn returns(self, num_players: usize) -> Vec<f64> {
        match self {
            Outcome::Win(w) => {
                let lose = -1.0 / (num_players as f64 - 1.0);
                (0..num_players)
                    .map(|p| if p == w as usize { 1.0 } else { lose })
                    .collect()
            }
            Outcome::Ongoing | Outcome::Draw => vec![0.0; num_players],
        }
    }
}

/// A game's parsed, validated parameters.
pub trait GameParams: Copy + Debug + PartialEq + Send + Sync + 'static {
    /// The parameters the game accepts, in a fixed order.
    const SPECS: &'static [ParamSpec];
    /// Builds parameters from one value per entry of [`GameParams::SPECS`] (already
    /// range-checked by [`crate::params::resolve`]).
    fn from_values(values: &[ParamValue]) -> Result<Self, Error>;
    /// The parameter values, in [`GameParams::SPECS`] order.
    fn values(&self) -> Vec<ParamValue>;
}

/// A game state with its rules.
///
/// States are plain values: `Clone` is a copy of fixed-size data (no heap), so search and
/// perft use copy-make. [`Game::play_unchecked`] only takes moves that [`Game::scan_moves`]
/// produced for this very state; the checked, text-based entry points live in
/// [`crate::Session`].
pub trait Game: Clone + Send + Sync + Debug + 'static {
    /// The name used by the Python API and in fixtures, e.g. `"kuba"`.
    const NAME: &'static str;
    /// The name people know the game by, e.g. `"King's Court"`.
    const TITLE: &'static str;

    type Params: GameParams;
    /// A move: small, `Copy`, meaningful in the position that generated it.
    type Move: Copy + Eq + Debug + Send + Sync;

    /// The start position.
    fn start(params: &Self::Params) -> Self;
    /// The parameters this state was made with.
    fn params(&self) -> &Self::Params;

    fn current_player(&self) -> usize;
    fn num_players(&self) -> usize;
    fn outcome(&self) -> Outcome;
    fn is_terminal(&self) -> bool {
        self.outcome() != Outcome::Ongoing
    }

    /// The Zobrist hash, maintained incrementally.
    fn hash(&self) -> u64;
    /// The Zobrist hash recomputed from the whole state; equal to [`Game::hash`] always.
    fn hash_from_scratch(&self) -> u64;
    /// The key of this state in perft's transposition table, for a count `depth` plies
    /// deep: the Zobrist hash, combined with whatever the hash leaves out that can still
    /// change the legal-move tree to that depth. Perft only looks up states reached from one
    /// root in the same number of plies, so the ply count, and whatever is counted from it,
    /// may be left out.
    fn transposition_key(&self, depth: u32) -> u64;

    /// Calls `visit` for every legal move (none when the state is terminal) until it returns
    /// `Break`, which the scan returns at once. Must not allocate on the heap.
    fn scan_moves<B>(&self, visit: &mut impl FnMut(Self::Move) -> ControlFlow<B>)
        -> ControlFlow<B>;

    /// Plays a move produced by [`Game::scan_moves`] for this state.
    fn play_unchecked(&mut self, mv: Self::Move);

    /// This position as a state read from its text would hold it. A state reached by play
    /// may number its pieces otherwise (E does), and so generate its moves in another order;
    /// search starts from this, so that its results depend on the position alone. By
    /// default a clone: most games hold nothing that depends on how a state was reached.
    #[must_use]
    fn canonical(&self) -> Self {
        self.clone()
    }

    /// Calls `sink` once for every legal move.
    #[inline]
    fn generate_moves(&self, sink: &mut impl FnMut(Self::Move)) {
        let _ = self.scan_moves(&mut |mv| {
            sink(mv);
            ControlFlow::<Infallible>::Continue(())
        });
    }

    /// The first legal move (in generation order) for which `wanted` holds; the scan stops
    /// there.
    #[inline]
    fn find_move(&self, mut wanted: impl FnMut(Self::Move) -> bool) -> Option<Self::Move> {
        let flow = self.scan_moves(&mut |mv| {
            if wanted(mv) {
                ControlFlow::Break(mv)
            } else {
                ControlFlow::Continue(())
            }
        });
        match flow {
            ControlFlow::Break(mv) => Some(mv),
            ControlFlow::Continue(()) => None,
        }
    }

    /// The `index`-th legal move in generation order, if there is one.
    #[inline]
    fn nth_move(&self, index: u64) -> Option<Self::Move> {
        let mut seen = 0;
        self.find_move(|_| {
            seen += 1;
            seen > index
        })
    }

    /// Whether there is a legal move at all.
    #[inline]
    fn has_moves(&self) -> bool {
        self.find_move(|_| true).is_some()
    }

    /// The number of legal moves (the bulk count at perft's last ply); games count faster
    /// than generating where they can.
    fn count_moves(&self) -> u64 {
        let mut n = 0;
        self.generate_moves(&mut |_| n += 1);
        n
    }

    /// The perft count `depth` plies below this position by the game's own count, where it
    /// has one faster than the generic walk of [`crate::perft::perft_until`] for this
    /// position: the same count, short when `watch` says stop; `None` (the default) leaves
    /// the position to the generic walk.
    fn own_perft(&self, _depth: u32, _watch: &mut Watch<'_, '_>) -> Option<u64> {
        None
    }

    /// A uniformly random legal move, drawn as `nth_move(rng.below(count_moves()))` would
    /// draw it (the same move for the same generator), with the number of legal moves; `None`
    /// when there is none. The moves are generated once, into `buffer`; only a position
    /// with more legal moves than the buffer holds generates them a second time, up to the
    /// one drawn. A game may count and then pick where that is faster.
    #[inline]
    fn random_move<const N: usize>(
        &self,
        rng: &mut SplitMix64,
        buffer: &mut MoveBuffer<Self::Move, N>,
    ) -> Option<(Self::Move, u64)> {
        draw_generated(self, rng, buffer, |fill| {
            self.generate_moves(&mut |mv| fill.push(mv));
        })
    }
}

/// [`Game::random_move`] of the moves `generate` pushes, which must be the legal moves in
/// the order [`Game::generate_moves`] gives them (a game may have a faster way to list them
/// in some uses): generated once into `buffer`, and drawn.
#[inline]
pub fn draw_generated<G: Game, const N: usize>(
    state: &G,
    rng: &mut SplitMix64,
    buffer: &mut MoveBuffer<G::Move, N>,
    generate: impl FnOnce(&mut Filling<'_, G::Move, N>),
) -> Option<(G::Move, u64)> {
    let mut fill = Filling { buffer, count: 0 };
    generate(&mut fill);
    let count = fill.count;
    if count == 0 {
        return None;
    }
    let index = rng.below(count as u64);
    let drawn = match fill.buffer.moves.get(index as usize) {
        Some(&Some(mv)) => mv,
        _ => state.nth_move(index)?,
    };
    Some((drawn, count as u64))
}

/// A [`MoveBuffer`] being filled by [`draw_generated`]: the moves pushed, counted (those
/// past its room only counted).
#[derive(Debug)]
pub struct Filling<'a, M, const N: usize> {
    buffer: &'a mut MoveBuffer<M, N>,
    count: usize,
}

impl<M: Copy, const N: usize> Filling<'_, M, N> {
    #[inline(always)]
    pub fn push(&mut self, mv: M) {
        if let Some(slot) = self.buffer.moves.get_mut(self.count) {
            *slot = Some(mv);
        }
        self.count += 1;
    }
}

/// [`Game::random_move`] by counting the moves and then finding the one drawn (the scan
/// stops there): faster than filling a buffer for games that count without generating.
#[inline]
pub fn count_then_pick<G: Game>(state: &G, rng: &mut SplitMix64) -> Option<(G::Move, u64)> {
    let count = state.count_moves();
    if count == 0 {
        return None;
    }
    Some((state.nth_move(rng.below(count))?, count))
}

/// The moves a [`MoveBuffer`] holds unless told otherwise.
pub const MOVE_BUFFER_CAPACITY: usize = 256;

/// Room for the legal moves of one position, for [`Game::random_move`]: made once per game
/// (or batch) and reused every ply, so drawing a move neither allocates nor clears memory.
/// It holds more moves than the positions of real play have (chess has at most 218); a
/// position with more is still drawn from correctly, by generating its moves again.
#[derive(Debug, Clone)]
pub struct MoveBuffer<M, const N: usize = MOVE_BUFFER_CAPACITY> {
    moves: [Option<M>; N],
}

impl<M: Copy, const N: usize> MoveBuffer<M, N> {
    #[must_use]
    pub fn new() -> Self {
        MoveBuffer { moves: [None; N] }
    }
}

impl<M: Copy, const N: usize> Default for MoveBuffer<M, N> {
    fn default() -> Self {
        Self::new()
    }
}

/// The position text and the move text of a game.
pub trait Notation: Game {
    /// Reads a position text; terminal positions are judged as they are read.
    fn from_text(text: &str, params: &Self::Params) -> Result<Self, Error>;
    /// The parameters a position text states for itself, as `(name, value)` pairs (E's
    /// number of players); most games' texts state none. Reading a text
    /// ([`params_for_text`]) takes them where the caller leaves them out and refuses a given
    /// value that disagrees. A malformed text may state nothing: [`Notation::from_text`] then
    /// says what is wrong.
    fn text_params(_text: &str) -> Vec<(&'static str, ParamValue)> {
        Vec::new()
    }
    /// Writes the position text (the exact inverse of [`Notation::from_text`]).
    fn text(&self) -> String;
    /// A readable drawing of the board, for people.
    fn board_string(&self) -> String;

    /// Appends the text of `mv`, a legal move of this (the pre-move) state, to `out`.
    fn write_move_text(&self, mv: Self::Move, out: &mut String);

    /// How many numbers [`Notation::move_text_key`] gives (0: the game gives none).
    const MOVE_TEXT_KEYS: usize = 0;

    /// A number below [`Notation::MOVE_TEXT_KEYS`] for the text of `mv` (a legal move of
    /// this state), the same number for the same text in every position and different
    /// numbers for different texts, so a binding can keep one string per text; `None` for a
    /// move whose text has no number (the game numbers only its common moves).
    fn move_text_key(&self, _mv: Self::Move) -> Option<usize> {
        None
    }

    /// A number below 2^48 that orders the legal moves of this state as their texts do
    /// (byte by byte), different for different moves, so a binding can sort the moves by
    /// number instead of by text; `None` when the game gives none.
    fn move_order_key(&self, _mv: Self::Move) -> Option<u64> {
        None
    }

    /// The legal moves as [`Game::scan_moves`] gives them, each with its
    /// [`Notation::move_order_key`] and its [`Notation::move_text_key`], in an order close to
    /// their text order where the game can, so that a binding sorting them by text has
    /// little left to do. A game that gives keys works them out here as it goes, for less
    /// than asking for them move by move; by default this asks, in `scan_moves`'s own order.
    fn scan_moves_keyed<B>(
        &self,
        visit: &mut impl FnMut(Self::Move, Option<u64>, Option<usize>) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        self.scan_moves(&mut |mv| visit(mv, self.move_order_key(mv), self.move_text_key(mv)))
    }

    /// The text of `mv`, a legal move of this state.
    fn move_text(&self, mv: Self::Move) -> String {
        let mut out = String::with_capacity(16);
        self.write_move_text(mv, &mut out);
        out
    }

    /// The legal move whose text is `text`; games override this to parse the text and to
    /// say why a move is illegal. This one compares every legal move's text through one
    /// buffer and stops at the first match.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Error> {
        if self.is_terminal() {
            return Err(crate::notation::game_over(text));
        }
        let mut buffer = String::with_capacity(32);
        self.find_move(|mv| {
            buffer.clear();
            self.write_move_text(mv, &mut buffer);
            buffer == text
        })
        .ok_or_else(|| {
            Error::IllegalMove(format!(
                "{text} is not a legal move in {}",
                Self::NAME,
                text = crate::notation::Quoted(text)
            ))
        })
    }

    /// The text of `mv`, a legal move of this state, as the records of the game of other
    /// programs that this game plays ([`Kin`]) write it: SAN for chess. `None` (the
    /// default): the game's records write [`Notation::move_text`].
    fn record_move_text(&self, _mv: Self::Move) -> Option<String> {
        None
    }

    /// The legal move whose [`Notation::record_move_text`] is `text`, or why there is none;
    /// `None` (the default) when the game has no record notation of its own.
    fn parse_record_move(&self, _text: &str) -> Option<Result<Self::Move, Error>> {
        None
    }
}

/// Action numbers for learning programs: a fixed numbering of the choices a player makes.
///
/// Every action number means the same thing in every position, and names it without the
/// position's help ([`ActionEncoding::action_text`]). A move is a short sequence of actions
/// by the player to move ([`ActionEncoding::move_actions`]): most games need one action
/// per move; where a whole move is too rich to number (a jump chain, a drop order), the
/// player picks its parts one after another. [`crate::actions`] turns these sequences into
/// the action-level state machine: the states between the actions of one move are real
/// states (the same player to move, its legal actions, not terminal), and an action that
/// only one way of going on follows is taken by itself.
pub trait ActionEncoding: Game {
    /// Every action number is below this (at most 10,000, proven on each rules page).
    const NUM_DISTINCT_ACTIONS: usize;
    /// The most actions a player chooses in one move (the forced ones, taken by
    /// themselves, not counted); with the ply limit it bounds the length of a game in
    /// actions.
    const MAX_CHOSEN_ACTIONS: usize;
    /// Whether every move is one action whose [`ActionEncoding::action_text`] is the
    /// move's own text (as a UCI move is), which lets the bindings intern move strings.
    const ONE_ACTION_MOVES: bool;

    /// Appends the actions of `mv`, a legal move of this state, to `out` (at most
    /// [`crate::actions::MAX_MOVE_ACTIONS`]). The action lists of the legal moves of one
    /// state are distinct and none is the beginning of another.
    fn move_actions(&self, mv: Self::Move, out: &mut ActionList);

    /// Calls `visit` once for every legal action of this (not finished) state between moves:
    /// the distinct first actions of its legal moves. Games may override it with a faster
    /// way than generating every move.
    fn for_each_first_action(&self, visit: &mut impl FnMut(usize)) {
        crate::actions::first_actions_of_moves(self, visit);
    }

    /// In games of one action per move ([`ActionEncoding::ONE_ACTION_MOVES`]): appends every
    /// legal move of this (not finished) state to `moves`, in [`Game::generate_moves`]
    /// order, and its action to `actions`. Games may override it with a faster way than
    /// asking [`ActionEncoding::move_actions`] move by move.
    fn moves_and_actions(&self, actions: &mut Vec<u16>, moves: &mut Vec<Self::Move>) {
        crate::actions::moves_and_actions_of(self, actions, moves);
    }

    /// What taking `action` between moves does, where the game can tell faster than by
    /// generating every move (`QuickTake::Unknown` leaves it to the general way).
    fn quick_take(&self, action: usize) -> QuickTake<Self::Move> {
        crate::actions::quick_take_of_moves(self, action)
    }

    /// The name of action `action`, the same in every position (`d3`, `c3xc5`, `drop W`);
    /// `None` for a number that no position ever allows.
    fn action_text(action: usize) -> Option<String>;

    /// Whether the game is over only because it reached its ply limit (a learning
    /// framework calls that a truncation; every other end is a termination).
    fn ended_by_ply_limit(&self) -> bool;
}

/// The state as a tensor of floats, for learning programs.
pub trait Observation: ActionEncoding {
    /// The shape of the tensor [`Observation::observation`] writes.
    const OBSERVATION_SHAPE: &'static [usize];

    /// Writes the state, from the point of view of `player`, into `out` (length = product
    /// of `OBSERVATION_SHAPE`, zeroed by the caller). `pending` holds the actions already
    /// taken in the move being made (empty between moves), which the tensor shows too.
    /// The board is turned so that every player sees itself in the same place.
    fn observation(&self, pending: &[u16], player: usize, out: &mut [f32]);

    /// Brings `row` from one observation to this state's: `row` holds the observation of
    /// `old` (with `old_pending` taken) from `old_player`'s point of view, and is left
    /// holding [`Observation::observation`] of this state (with `pending` taken) from
    /// `player`'s, exactly. The batched environment keeps each environment's row from one
    /// step to the next, and a game that writes only the cells that changed (between two
    /// states a move or two apart, seen by the same player) spares it most of the writes,
    /// which in a large batch are most of a step's time. By default the row is rewritten
    /// whole.
    fn update_observation(
        &self,
        pending: &[u16],
        player: usize,
        old: &Self,
        old_pending: &[u16],
        old_player: usize,
        row: &mut [f32],
    ) {
        let _ = (old, old_pending, old_player);
        row.fill(0.0);
        self.observation(pending, player, row);
    }

    /// [`Observation::observation`] as the cells that are not zero, for evaluators that add
    /// up the weights of their non-zero inputs (a net's first layer): appends to `planes`
    /// `(plane, value)` for each plane (an index of the first axis of `OBSERVATION_SHAPE`)
    /// whose cells all hold one non-zero value, and to `cells` `(index, value)` for every
    /// other non-zero cell, both in index order: what [`observation_cells_of`] finds in the
    /// whole tensor. `dense` is room for the whole tensor, which the default writes first; a
    /// game that knows its non-zero cells lists them without it.
    fn observation_cells(
        &self,
        pending: &[u16],
        player: usize,
        dense: &mut Vec<f32>,
        cells: &mut Vec<Cell>,
        planes: &mut Vec<Cell>,
    ) {
        let size: usize = Self::OBSERVATION_SHAPE.iter().product();
        dense.clear();
        dense.resize(size, 0.0);
        self.observation(pending, player, dense);
        observation_cells_of(dense, plane_size(Self::OBSERVATION_SHAPE), cells, planes);
    }

    /// The change from `old`'s observation to this state's, both between moves and seen by
    /// `player`, for evaluators that keep a sum of weights over the non-zero cells (an
    /// evaluation net's first layer, updated as alpha-beta moves): appends `(index, new -
    /// old)` to `cells` for cells whose value changed, and may put a plane whose every cell
    /// changed by the same amount in `planes` as `(plane, change)` instead; true when done.
    /// By default nothing is appended and false returned: the caller then lists both
    /// observations' cells and compares them. A game whose states tell what changed faster
    /// (bitboards XORed, say) says so here.
    fn observation_changes(
        &self,
        old: &Self,
        player: usize,
        cells: &mut Vec<Cell>,
        planes: &mut Vec<Cell>,
    ) -> bool {
        let _ = (old, player, cells, planes);
        false
    }
}

/// A non-zero input of an observation: `(index, value)`, or `(plane, value)` for a plane
/// that holds one value everywhere.
pub type Cell = (u32, f32);

/// The cells of one plane of an observation of `shape` (the product of its axes past the
/// first; all of it for a flat one).
#[must_use]
pub fn plane_size(shape: &[usize]) -> usize {
    match shape {
        [] => 1,
        [whole] => *whole,
        [_, rest @ ..] => rest.iter().product(),
    }
}

/// The cells a plane is looked at in together for a non-zero one: most blocks of a sparse
/// plane are all zeros, and a block is checked in a few vector compares.
const SCAN_BLOCK: usize = 16;

/// The non-zero cells of `observation` (planes of `plane` cells) as
/// [`Observation::observation_cells`] lists them: each plane holding one non-zero value
/// everywhere as `(plane, value)` in `planes`, every other non-zero cell as
/// `(index, value)` in `cells`.
pub fn observation_cells_of(
    observation: &[f32],
    plane: usize,
    cells: &mut Vec<Cell>,
    planes: &mut Vec<Cell>,
) {
    for (p, values) in observation.chunks_exact(plane).enumerate() {
        let c = values[0];
        // Folds without an early exit, so that the compiler compares a vector at a time.
        if values.iter().fold(true, |same, &x| same & (x == c)) {
            if c != 0.0 {
                planes.push((p as u32, c));
            }
            continue;
        }
        for (k, block) in values.chunks(SCAN_BLOCK).enumerate() {
            // A bit per non-zero cell, then one step per set bit.
            let mut bits = block
                .iter()
                .enumerate()
                .fold(0u32, |bits, (i, &x)| bits | (u32::from(x != 0.0) << i));
            let base = p * plane + k * SCAN_BLOCK;
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                cells.push(((base + i) as u32, block[i]));
                bits &= bits - 1;
            }
        }
    }
}

/// The non-zero cells of a batch of observations ([`Observation::observation_cells`]), row
/// after row, in buffers kept from batch to batch.
#[derive(Debug, Clone, Default)]
pub struct ObservationCells {
    cells: Vec<Cell>,
    cell_ends: Vec<usize>,
    planes: Vec<Cell>,
    plane_ends: Vec<usize>,
    dense: Vec<f32>,
}

impl ObservationCells {
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Empties the batch (keeping its buffers).
    pub fn clear(&mut self) {
        self.cells.clear();
        self.cell_ends.clear();
        self.planes.clear();
        self.plane_ends.clear();
    }

    /// Adds the observation of `state` (with `pending` taken) seen by `player` as a row.
    pub fn push<G: Observation>(&mut self, state: &G, pending: &[u16], player: usize) {
        state.observation_cells(
            pending,
            player,
            &mut self.dense,
            &mut self.cells,
            &mut self.planes,
        );
        self.cell_ends.push(self.cells.len());
        self.plane_ends.push(self.planes.len());
    }

    /// Adds the non-zero cells of a whole observation (planes of `plane` cells) as a row.
    pub fn push_dense(&mut self, observation: &[f32], plane: usize) {
        observation_cells_of(observation, plane, &mut self.cells, &mut self.planes);
        self.cell_ends.push(self.cells.len());
        self.plane_ends.push(self.planes.len());
    }

    /// The number of rows.
    #[must_use]
    pub fn len(&self) -> usize {
        self.cell_ends.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.cell_ends.is_empty()
    }

    /// Row `i`: its cells and its planes.
    #[must_use]
    pub fn row(&self, i: usize) -> (&[Cell], &[Cell]) {
        let start = |ends: &[usize]| if i == 0 { 0 } else { ends[i - 1] };
        (
            &self.cells[start(&self.cell_ends)..self.cell_ends[i]],
            &self.planes[start(&self.plane_ends)..self.plane_ends[i]],
        )
    }
}

/// A game with every layer (and its [`Facts`]): what the bindings and the batched
/// environment serve.
pub trait FullGame: Notation + ActionEncoding + Observation + Facts {}

impl<G: Notation + ActionEncoding + Observation + Facts> FullGame for G {}

/// Parses and builds parameters for `G` from caller-given pairs.
pub fn params_from<G: Game>(given: &[(&str, ParamValue)]) -> Result<G::Params, Error> {
    let values = crate::params::resolve(G::NAME, <G::Params as GameParams>::SPECS, given)?;
    <G::Params as GameParams>::from_values(&values)
}

/// Parses and builds parameters for `G` from caller-given pairs, for reading `text`: the
/// parameters the text states for itself ([`Notation::text_params`]) fill in those not given.
pub fn params_for_text<G: Notation>(
    text: &str,
    given: &[(&str, ParamValue)],
) -> Result<G::Params, Error> {
    let specs = <G::Params as GameParams>::SPECS;
    let values = crate::params::resolve_for_text(G::NAME, specs, given, &G::text_params(text))?;
    <G::Params as GameParams>::from_values(&values)
}

/// What the tools around the engine need to know of a game besides its rules: seat names,
/// the default computer player, workloads for benchmarks and checks, the starts it offers by
/// name, its pictures and the parameter sets that exercise its variants. Each game declares
/// them in its own `facts.rs` (and its reference twin the same), so no tool keeps a table
/// keyed by game. Parameters are written as (name, value) pairs over the game's defaults.
#[derive(Debug, Clone, Copy)]
pub struct GameFacts {
    /// The name of each seat, in seat order, for every number of players the game allows.
    pub seats: &'static [(usize, &'static [&'static str])],
    /// The options of the computer player used when none is named (MCTS; over its defaults).
    pub mcts_player: &'static [(&'static str, OptionValue)],
    /// The search options of a player that searches with a trained net (over MCTS's
    /// defaults; the net is the evaluator): how a net is best used in this game.
    pub net_player: &'static [(&'static str, OptionValue)],
    /// The levels a person chooses among (`glacier play`, `glacier serve`), weakest first,
    /// for every number of players: a name and a player spec of `glacier.players`, chosen
    /// and ordered by the game's rating ladder.
    pub levels: &'static [(usize, &'static [(&'static str, &'static str)])],
    /// The plies after which the flat Monte Carlo player cuts its playouts (0: whole games).
    pub playout_plies: u32,
    /// Workloads of the benchmarks.
    pub bench: BenchDepths,
    /// Perft counts that the transposition table must leave unchanged (the first from the
    /// start; the others end games within their depth).
    pub table_checks: &'static [PerftCase],
    /// The starts offered besides the game's own, by name.
    pub starts: &'static [NamedStart],
    /// Games of other programs that this game is measured beside (`glacier bench`) or whose
    /// records it writes (PGN for chess).
    pub kin: &'static [Kin],
    /// The game's pictures in the gallery (docs/pictures).
    pub pictures: &'static [Picture],
    /// Parameter sets that between them exercise every variant of the rules (the random games
    /// of the differential test cycle over them).
    pub variants: &'static [Params],
}

/// Parameters as (name, value) pairs; those not named keep their defaults.
pub type Params = &'static [(&'static str, i64)];

/// The value of an option of a computer player: a whole number, a number or a name.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OptionValue {
    Int(i64),
    Number(f64),
    Text(&'static str),
}

/// Workloads of the benchmarks, chosen so that each takes about as long in every game.
#[derive(Debug, Clone, Copy)]
pub struct BenchDepths {
    /// `glacier bench`: perft depth in the engine, and in the reference.
    pub perft: (u32, u32),
    /// `glacier bench`: random games played for the playout figure.
    pub playouts: u32,
    /// benches/bench_perft.py: perft depth inside Rust, through the per-move Python API, and
    /// in the reference.
    pub perft_bench: (u32, u32, u32),
    /// benches/bench_perft.py: a depth for perft with a transposition table and its count
    /// (pinned in the perft fixtures or the perft docs), if that benchmark runs the game.
    pub hashed_perft: Option<(u32, u64)>,
}

/// A perft check: the position (`None`: the start) with its parameters, to a depth.
#[derive(Debug, Clone, Copy)]
pub struct PerftCase {
    pub text: Option<&'static str>,
    pub params: Params,
    pub depth: u32,
}

/// A start a game offers by name: its position text and the parameters it implies (those
/// the caller gives win).
#[derive(Debug, Clone, Copy)]
pub struct NamedStart {
    pub name: &'static str,
    pub text: &'static str,
    pub params: Params,
}

/// A game of other programs (`"chess"`, OpenSpiel's `"chinese_checkers"`) and the named
/// start that plays it (`None`: the game's own start).
#[derive(Debug, Clone, Copy)]
pub struct Kin {
    pub game: &'static str,
    pub start: Option<&'static str>,
}

/// A picture of the gallery: a position (`None`: the start) and how it is shown.
#[derive(Debug, Clone, Copy)]
pub struct Picture {
    /// The file name, without `.svg`.
    pub name: &'static str,
    pub caption: &'static str,
    pub text: Option<&'static str>,
    pub params: Params,
    pub last_move: Option<&'static str>,
    pub arrows: &'static [Arrow],
    /// The player whose side is shown at the bottom, if not the first.
    pub perspective: Option<usize>,
    pub flipped: bool,
    /// Every cell's name written in it (a picture of the board's names).
    pub cell_names: bool,
}

impl Picture {
    /// A picture of `text` (`None`: the start) with the default view.
    pub const fn of(name: &'static str, caption: &'static str, text: Option<&'static str>) -> Self {
        Picture {
            name,
            caption,
            text,
            params: &[],
            last_move: None,
            arrows: &[],
            perspective: None,
            flipped: false,
            cell_names: false,
        }
    }
}

/// An arrow drawn on a picture: a move in the game's notation, or from one cell to another.
#[derive(Debug, Clone, Copy)]
pub enum Arrow {
    Move(&'static str),
    Cells(&'static str, &'static str),
}

/// A game's [`GameFacts`], declared in its `facts.rs`.
pub trait Facts: Game {
    const FACTS: GameFacts;
}
