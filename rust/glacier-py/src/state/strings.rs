//! The Python objects `legal_moves()` and `legal_actions()` hand out: one string per text
//! key of a game ([`glacier_core::session::MoveTexts::text_key`]) made the first time its
//! text is listed and shared by the whole process (interned for games of one action per
//! move, whose texts are few), a new string for a move whose text has no key, and one int
//! per action number. The moves come listed and sorted by the core
//! ([`AnySession::list_moves`]); what is here only turns them into objects, and remembers
//! the objects handed out so that `play()` of one of them plays its move.

use glacier_core::any::{AnyGame, AnySession};
use glacier_core::session::MoveTexts;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyInt, PyList, PyString};
use std::sync::{Mutex, TryLockError};

/// The shared strings of one game: a slot per text key, filled the first time its text is
/// listed; locked once per `legal_moves()`, not once per move.
struct SharedStrings {
    slots: Mutex<Vec<Option<Py<PyString>>>>,
    /// Whether the strings are interned (the texts of a game of one action per move).
    intern: bool,
}

impl SharedStrings {
    /// The shared strings of `game`, one table per game for the process.
    fn of(py: Python<'_>, game: AnyGame) -> &'static SharedStrings {
        static TABLES: PyOnceLock<Vec<SharedStrings>> = PyOnceLock::new();
        let tables = TABLES.get_or_init(py, || {
            AnyGame::ALL
                .iter()
                .map(|game| SharedStrings {
                    slots: Mutex::new((0..game.text_keys()).map(|_| None).collect()),
                    intern: game.one_action_moves(),
                })
                .collect()
        });
        &tables[game.index()]
    }
}

/// The strings the last `legal_moves()` handed out, while the core keeps that listing: the
/// address of each, in the listing's order, and the strings that are not shared (held, so
/// that an address names one string only while it is listed here).
#[derive(Debug, Default)]
pub(super) struct Handed {
    addresses: Vec<usize>,
    held: Vec<Py<PyString>>,
}

impl Handed {
    /// The place in the last listing of the very object `mv`, if it was handed out there.
    pub(super) fn index_of(&self, mv: &Bound<'_, PyAny>) -> Option<usize> {
        let address = mv.as_ptr() as usize;
        self.addresses.iter().position(|&a| a == address)
    }
}

/// Move `i` of `texts` as a string: the shared one of its text key (made the first time, in
/// `slots`), or a new one, held.
fn move_string(
    py: Python<'_>,
    intern: bool,
    slots: &mut [Option<Py<PyString>>],
    texts: &MoveTexts<'_>,
    i: usize,
    held: &mut Vec<Py<PyString>>,
) -> Py<PyString> {
    if let Some(slot) = texts.text_key(i).and_then(|key| slots.get_mut(key)) {
        if let Some(shared) = slot {
            return shared.clone_ref(py);
        }
        return slot.insert(new_string(py, texts, i, intern)).clone_ref(py);
    }
    let string = new_string(py, texts, i, false);
    held.push(string.clone_ref(py));
    string
}

/// A new string of move `i`'s text (interned if `intern`): the rare path, kept out of the loop.
#[cold]
#[inline(never)]
fn new_string(py: Python<'_>, texts: &MoveTexts<'_>, i: usize, intern: bool) -> Py<PyString> {
    let mut written = String::new();
    let text = match texts.text(i) {
        Some(text) => text,
        None => {
            texts.write_text(i, &mut written);
            &written
        }
    };
    if intern {
        PyString::intern(py, text).unbind()
    } else {
        PyString::new(py, text).unbind()
    }
}

/// `legal_moves()`: the session's legal moves in ascending order, as strings, remembered in
/// `handed` for `play()`.
pub(super) fn legal_moves<'py>(
    py: Python<'py>,
    session: &AnySession,
    handed: &Mutex<Handed>,
) -> PyResult<Bound<'py, PyList>> {
    let shared = SharedStrings::of(py, session.game());
    // Taken while another `legal_moves()` of this state is making its strings (a finaliser
    // that ran meanwhile): plain strings, remembered nowhere.
    let Ok(mut handed) = handed.try_lock() else {
        return PyList::new(py, session.legal_moves());
    };
    // Taken likewise by a finaliser's `legal_moves()` of another state of the game: its
    // strings are then new ones, held.
    let mut slots = match shared.slots.try_lock() {
        Ok(slots) => Some(slots),
        Err(TryLockError::Poisoned(poisoned)) => Some(poisoned.into_inner()),
        Err(TryLockError::WouldBlock) => None,
    };
    let slots: &mut [Option<Py<PyString>>] = slots.as_deref_mut().map_or(&mut [], |s| s);
    let Handed { addresses, held } = &mut *handed;
    session.list_moves(|texts, kept| {
        addresses.clear();
        addresses.reserve(texts.len());
        held.clear();
        let strings = (0..texts.len()).map(|i| {
            let string = move_string(py, shared.intern, slots, &texts, i, held);
            if kept {
                addresses.push(string.as_ptr() as usize);
            }
            string.into_bound(py)
        });
        PyList::new(py, strings)
    })
}

/// One Python int per action number of each game, made once per process: `legal_actions()`
/// hands out shared ints instead of making new ones (CPython shares only those up to 256).
fn action_ints(py: Python<'_>, game: AnyGame) -> &'static [Py<PyInt>] {
    static TABLES: PyOnceLock<Vec<Vec<Py<PyInt>>>> = PyOnceLock::new();
    let tables = TABLES.get_or_init(py, || {
        AnyGame::ALL
            .iter()
            .map(|game| {
                (0..game.num_distinct_actions())
                    .map(|a| PyInt::new(py, a).unbind())
                    .collect()
            })
            .collect()
    });
    &tables[game.index()]
}

/// `legal_actions()`: the session's legal actions, ascending, as the shared ints.
pub(super) fn legal_actions<'py>(
    py: Python<'py>,
    session: &AnySession,
) -> PyResult<Bound<'py, PyList>> {
    let ints = action_ints(py, session.game());
    session.legal_actions(|actions| {
        if actions.iter().all(|&a| a < ints.len()) {
            PyList::new(py, actions.iter().map(|&a| ints[a].bind(py)))
        } else {
            PyList::new(py, actions.iter())
        }
    })
}
