use std::fmt;

/// Everything that can go wrong when a caller hands the engine bad input.
///
/// The engine never panics on input: parsing and checked play return one of these, and
/// the state they were called on is left unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A move string that is malformed, unknown, or not legal in the position.
    IllegalMove(String),
    /// A position text that is malformed or describes an impossible position.
    InvalidPosition(String),
    /// A game parameter that is unknown, of the wrong type, or out of range.
    InvalidParameter(String),
    /// `undo` with no move to take back.
    NothingToUndo,
    /// `undo` past the plies a state kept (a history limit, or a copy without its history).
    HistoryNotKept(String),
    /// A search asked of a state whose game is over (it has no move to search).
    GameOver(String),
    /// A search's leaf evaluator failed, or gave logits or values that cannot be used.
    Evaluator(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::IllegalMove(msg)
            | Error::InvalidPosition(msg)
            | Error::InvalidParameter(msg)
            | Error::HistoryNotKept(msg)
            | Error::GameOver(msg)
            | Error::Evaluator(msg) => f.write_str(msg),
            Error::NothingToUndo => f.write_str("no move to undo"),
        }
    }
}

impl std::error::Error for Error {}

/// Shorthand for building an [`Error::InvalidPosition`] with a formatted message.
#[macro_export]
macro_rules! bad_position {
    ($($arg:tt)*) => { $crate::Error::InvalidPosition(format!($($arg)*)) };
}
