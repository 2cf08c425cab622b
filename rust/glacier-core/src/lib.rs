//! glacier-core: move generation, Zobrist hashing, perft, playouts and batched environments
//! for five abstract board games.
//!
//! The crate knows nothing of Python. Every game implements the layers of [`game`]: the
//! rules ([`Game`]), the notation ([`Notation`]), the action numbers ([`ActionEncoding`]) and
//! the observation tensor ([`Observation`]). Everything generic (perft, playouts, the batched
//! environment, the checked [`Session`] used by the bindings, parameter parsing) is written
//! once against the layers it needs; [`any`] serves every game by its name, for programs
//! (the bindings) that hold the game as a value. The rules each game follows are stated in
//! `docs/rules/` in the repository.

pub mod actions;
pub mod any;
pub mod env;
pub mod error;
pub mod game;
pub mod games;
pub mod interrupt;
pub mod net;
pub mod notation;
pub mod parallel;
pub mod params;
pub mod perft;
pub mod rng;
pub mod search;
pub mod session;
pub mod threads;
pub mod zobrist;

pub use actions::{ActionList, PartialMove, QuickTake, Taken};
pub use error::Error;
pub use game::{ActionEncoding, FullGame, Game, GameParams, Notation, Observation, Outcome};
pub use params::{ParamSpec, ParamValue};
pub use session::Session;
