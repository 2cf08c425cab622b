//! The one trait every game implements.

use crate::{Error, ParamSpec, ParamValue};
use std::fmt::Debug;

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

/// A game state with its rules.
///
/// States are plain values: `Clone` is a copy of fixed-size data (no heap), so search
/// and perft use copy-make. [`Game::play`] is unchecked and only takes moves that
/// [`Game::generate_moves`] produced for this very state; the checked, text-based
/// entry points live in [`crate::Session`].
pub trait Game: Clone + Send + Sync + Debug + 'static {
    /// The name used by the Python API and in fixtures, e.g. `"kuba"`.
    const NAME: &'static str;
    /// The parameters the game accepts, in a fixed order.
    const PARAMS: &'static [ParamSpec];

    /// Parsed, validated parameters.
    type Params: Copy + Debug + PartialEq + Send + Sync;
    /// A move: small, `Copy`, meaningful in the position that generated it.
    type Move: Copy + Eq + Debug + Send + Sync;

    /// Builds parameters from one value per entry of [`Game::PARAMS`] (already range-checked).
    fn build_params(values: &[ParamValue]) -> Result<Self::Params, Error>;
    /// The parameter values, in [`Game::PARAMS`] order.
    fn param_values(params: &Self::Params) -> Vec<ParamValue>;
    /// The parameters this state was made with.
    fn params(&self) -> &Self::Params;

    /// The start position.
    fn start(params: &Self::Params) -> Self;
    /// Reads a position text; terminal positions are judged as they are read.
    fn from_text(text: &str, params: &Self::Params) -> Result<Self, Error>;
    /// The parameters a position text states for itself, as `(name, value)` pairs (E's
    /// number of players); none by default. Reading a text ([`params_for_text`]) takes
    /// them where the caller leaves them out and refuses a given value that disagrees. A
    /// malformed text may state nothing: [`Game::from_text`] then says what is wrong.
    fn text_params(_text: &str) -> Vec<(&'static str, ParamValue)> {
        Vec::new()
    }
    /// Writes the position text (the exact inverse of [`Game::from_text`]).
    fn text(&self) -> String;
    /// A readable drawing of the board, for people.
    fn board_string(&self) -> String;

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

    /// Calls `sink` once for every legal move (none when the state is terminal).
    /// Must not allocate on the heap.
    fn generate_moves(&self, sink: &mut impl FnMut(Self::Move));
    /// The number of legal moves (the bulk count at perft's last ply).
    fn count_moves(&self) -> u64 {
        let mut n = 0;
        self.generate_moves(&mut |_| n += 1);
        n
    }
    /// Plays a move produced by [`Game::generate_moves`] for this state.
    fn play(&mut self, mv: Self::Move);
    /// The move's text, in the notation of the game's rules page, in this (the pre-move) state.
    fn move_text(&self, mv: Self::Move) -> String;

    /// Finds the legal move whose text is `text`.
    /// Appends the move's text to `out` (games override this to avoid an allocation per
    /// move; listing and matching moves by text go through it).
    fn write_move_text(&self, mv: Self::Move, out: &mut String) {
        out.push_str(&self.move_text(mv));
    }

    /// The legal move whose text is `text`, if there is one (compared through one buffer).
    fn find_move_by_text(&self, text: &str) -> Option<Self::Move> {
        let mut found = None;
        let mut buffer = String::with_capacity(32);
        self.generate_moves(&mut |mv| {
            if found.is_none() {
                buffer.clear();
                self.write_move_text(mv, &mut buffer);
                if buffer == text {
                    found = Some(mv);
                }
            }
        });
        found
    }

    /// Finds the legal move whose text is `text`.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Error> {
        self.find_move_by_text(text).ok_or_else(|| {
            Error::IllegalMove(format!("'{text}' is not a legal move in {}", Self::NAME))
        })
    }

    /// Leaf count of the move tree to `depth`, counting the last ply in bulk.
    fn perft(&self, depth: u32) -> u64 {
        crate::perft::perft(self, depth)
    }

    /// The size of the game's fixed action space, for learning programs (`crate::env`):
    /// `Some(n)` when every move maps to one of `n` action numbers by [`Game::action_of`]
    /// (environments then offer legal-move masks); `None` when actions are positions in the
    /// list of legal moves in generation order (environments offer legal-move counts).
    const NUM_ACTIONS: Option<usize> = None;

    /// The number of action numbers a learning framework must allow: `NUM_ACTIONS` for a
    /// fixed action space; otherwise a proven upper bound on the number of legal moves in
    /// any position the game can read (0 when a game has none).
    const ACTION_SPACE_SIZE: usize = match Self::NUM_ACTIONS {
        Some(n) => n,
        None => 0,
    };

    /// The action number of a legal move, below `NUM_ACTIONS` (fixed action spaces only).
    fn action_of(&self, _mv: Self::Move) -> usize {
        0
    }

    /// The legal move whose action number (fixed action spaces) is `action`, if any. The
    /// default generates the moves and matches; games can decode directly.
    fn move_of_action(&self, action: usize) -> Option<Self::Move> {
        let mut found = None;
        self.generate_moves(&mut |mv| {
            if found.is_none() && self.action_of(mv) == action {
                found = Some(mv);
            }
        });
        found
    }

    /// The text of action `action` when it is the same in every position (as UCI moves are),
    /// which lets the bindings intern move strings; `None` otherwise.
    fn action_text(_action: usize) -> Option<String> {
        None
    }

    /// The shape of the observation tensor [`Game::observe`] writes; empty when the game has
    /// no observation encoding.
    const OBSERVATION_SHAPE: &'static [usize] = &[];

    /// Writes the state, from the point of view of the player to move, into `out`
    /// (length = product of `OBSERVATION_SHAPE`, zeroed by the caller).
    fn observe(&self, _out: &mut [f32]) {}
}

/// Parses and builds parameters for `G` from caller-given pairs.
pub fn params_from<G: Game>(given: &[(&str, ParamValue)]) -> Result<G::Params, Error> {
    let values = crate::params::resolve(G::NAME, G::PARAMS, given)?;
    G::build_params(&values)
}

/// Parses and builds parameters for `G` from caller-given pairs, for reading `text`: the
/// parameters the text states for itself ([`Game::text_params`]) fill in those not given.
pub fn params_for_text<G: Game>(
    text: &str,
    given: &[(&str, ParamValue)],
) -> Result<G::Params, Error> {
    let values = crate::params::resolve_for_text(G::NAME, G::PARAMS, given, &G::text_params(text))?;
    G::build_params(&values)
}
