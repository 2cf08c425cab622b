//! The traits every game implements, in layers that know only what they must:
//!
//! - [`Game`]: the rules. Parameters, the start, move generation, play, the outcome and the
//!   Zobrist hash. Perft, playouts and search need nothing more.
//! - [`Notation`]: the position text and the move text, for people and for the checked,
//!   text-based [`crate::Session`].
//! - [`ActionEncoding`]: move numbers for learning programs.
//! - [`Observation`]: the state as a tensor, for learning programs.
//!
//! A consumer asks for the layers it uses (the batched environment needs an encoding and an
//! observation), so a game without one fails to compile instead of returning zeros. None of
//! the required methods has a default.

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
        let mut count = 0;
        self.generate_moves(&mut |mv| {
            if let Some(slot) = buffer.moves.get_mut(count) {
                *slot = Some(mv);
            }
            count += 1;
        });
        if count == 0 {
            return None;
        }
        let index = rng.below(count as u64);
        let drawn = match buffer.moves.get(index as usize) {
            Some(&Some(mv)) => mv,
            _ => self.nth_move(index)?,
        };
        Some((drawn, count as u64))
    }
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
        let mut buffer = String::with_capacity(32);
        self.find_move(|mv| {
            buffer.clear();
            self.write_move_text(mv, &mut buffer);
            buffer == text
        })
        .ok_or_else(|| {
            Error::IllegalMove(format!("'{text}' is not a legal move in {}", Self::NAME))
        })
    }
}

/// Move numbers for learning programs.
pub trait ActionEncoding: Game {
    /// The number of action numbers a learning framework must allow: every action is below
    /// it. For a game whose actions index the legal moves, a proven bound on the number of
    /// legal moves in any position the game can read.
    const NUM_DISTINCT_ACTIONS: usize;
    /// `true` when an action number means the same move in every position; `false` when
    /// action `i` is the `i`-th legal move in generation order.
    const FIXED: bool;

    /// The action number of the legal move `mv`, which is the `index`-th in generation order.
    fn action_of(&self, mv: Self::Move, index: usize) -> usize;
    /// The legal move whose action number is `action`, if there is one.
    fn move_of_action(&self, action: usize) -> Option<Self::Move>;
    /// The text of action `action` when it is the same in every position (as UCI moves are),
    /// which lets the bindings intern move strings; `None` otherwise.
    fn action_text(action: usize) -> Option<String>;
}

/// The state as a tensor of floats, for learning programs.
pub trait Observation: Game {
    /// The shape of the tensor [`Observation::observe`] writes.
    const OBSERVATION_SHAPE: &'static [usize];
    /// Writes the state, from the point of view of the player to move, into `out` (length =
    /// product of `OBSERVATION_SHAPE`, zeroed by the caller).
    fn observe(&self, out: &mut [f32]);
}

/// A game with every layer: what the bindings and the batched environment serve.
pub trait FullGame: Notation + ActionEncoding + Observation {}

impl<G: Notation + ActionEncoding + Observation> FullGame for G {}

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
