//! glacier-core: move generation, Zobrist hashing and perft for five abstract board games.
//!
//! The crate knows nothing of Python. Every game implements [`Game`]; everything generic
//! (perft, the checked [`Session`] used by the bindings, parameter parsing) is written once
//! against that trait. The rules each game follows are those of `docs/rules/` in the
//! repository, which quote and extend the project's RULINGS.md.

pub mod env;
pub mod error;
pub mod fixtures;
pub mod game;
pub mod games;
pub mod notation;
pub mod parallel;
pub mod params;
pub mod perft;
pub mod rng;
pub mod session;
pub mod zobrist;

pub use error::Error;
pub use game::{Game, Outcome};
pub use params::{ParamSpec, ParamValue};
pub use session::Session;
