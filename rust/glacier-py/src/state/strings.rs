//! The Python objects `legal_moves()` and `legal_actions()` hand out, made once per process
//! and shared (interned move strings, one string per move-text key, one int per action),
//! and the listing of moves sorted by order key, packed with their scan index into one
//! word so that a few comparisons sort them.

use super::native::Native;
use glacier_core::games::GAME_NAMES;
use glacier_core::{with_game, ActionEncoding, FullGame, Notation, PartialMove, Session, Taken};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyInt, PyList, PyString};
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::{Mutex, PoisonError};

/// Interned move strings for games whose moves are single actions named by their move text
/// (`ActionEncoding::ONE_ACTION_MOVES`, as UCI moves are): `legal_moves()` then hands out
/// shared string objects, sorted by a precomputed rank, and `play()` finds a move through
/// its action number instead of comparing texts.
pub(super) struct ActionTable {
    strings: Vec<Option<Py<PyString>>>,
    rank: Vec<u32>,
    by_text: HashMap<String, usize>,
}

impl ActionTable {
    fn build<G: FullGame>(py: Python<'_>) -> Option<ActionTable> {
        if !G::ONE_ACTION_MOVES {
            return None;
        }
        let n = G::NUM_DISTINCT_ACTIONS;
        let texts: Vec<Option<String>> = (0..n).map(G::action_text).collect();
        let mut order: Vec<usize> = (0..n).filter(|&a| texts[a].is_some()).collect();
        if order.is_empty() {
            return None;
        }
        order.sort_by(|&a, &b| texts[a].cmp(&texts[b]));
        let mut rank = vec![u32::MAX; n];
        for (r, &a) in order.iter().enumerate() {
            rank[a] = r as u32;
        }
        let by_text = order
            .iter()
            .map(|&a| (texts[a].clone().unwrap_or_default(), a))
            .collect();
        let strings = texts
            .iter()
            .map(|t| t.as_deref().map(|t| PyString::intern(py, t).unbind()))
            .collect();
        Some(ActionTable {
            strings,
            rank,
            by_text,
        })
    }

    /// The table of `G`, built once per process (one slot per game, in `GAME_NAMES` order).
    pub(super) fn of<G: FullGame>(py: Python<'_>) -> Option<&'static ActionTable> {
        static TABLES: PyOnceLock<Vec<Option<ActionTable>>> = PyOnceLock::new();
        let tables = TABLES.get_or_init(py, || {
            GAME_NAMES
                .iter()
                .map(|&name| with_game!(name, H => ActionTable::build::<H>(py), _ => None))
                .collect()
        });
        let index = GAME_NAMES.iter().position(|&name| name == G::NAME)?;
        tables[index].as_ref()
    }

    /// The legal moves as interned strings in ascending order, or `None` if some legal
    /// move has no interned text.
    pub(super) fn legal_moves<'py, G: FullGame>(
        &self,
        py: Python<'py>,
        state: &G,
    ) -> Option<Vec<Bound<'py, PyString>>> {
        let mut ids: Vec<(u32, usize)> = Vec::with_capacity(64);
        PartialMove::new().for_each_legal_action(state, |a| {
            ids.push((self.rank.get(a).copied().unwrap_or(u32::MAX), a));
        });
        ids.sort_unstable();
        ids.iter()
            .map(|&(_, a)| self.strings.get(a)?.as_ref().map(|s| s.bind(py).clone()))
            .collect()
    }

    /// The legal move whose text is `text`, if the table knows the text and the move is legal.
    pub(super) fn find_move<G: FullGame>(&self, state: &G, text: &str) -> Option<G::Move> {
        match PartialMove::new().peek(state, *self.by_text.get(text)?)? {
            Taken::Move(mv) => Some(mv),
            Taken::Continues => None,
        }
    }
}

/// One shared Python string per move-text key of a game ([`Notation::move_text_key`]),
/// made the first time its text appears: `legal_moves()` then hands out shared strings for
/// the common moves of games whose moves are not single actions (E's movements).
pub(super) struct KeyedStrings {
    slots: Vec<Option<Py<PyString>>>,
}

impl KeyedStrings {
    /// The table of `G`, one per process (empty when `G` numbers no move texts).
    pub(super) fn of<G: FullGame>(py: Python<'_>) -> Option<&'static Mutex<KeyedStrings>> {
        static TABLES: PyOnceLock<Vec<Mutex<KeyedStrings>>> = PyOnceLock::new();
        let tables = TABLES.get_or_init(py, || {
            GAME_NAMES
                .iter()
                .map(|&name| {
                    let keys = with_game!(name, H => <H as Notation>::MOVE_TEXT_KEYS, _ => 0);
                    Mutex::new(KeyedStrings {
                        slots: (0..keys).map(|_| None).collect(),
                    })
                })
                .collect()
        });
        if G::MOVE_TEXT_KEYS == 0 {
            return None;
        }
        let index = GAME_NAMES.iter().position(|&name| name == G::NAME)?;
        tables.get(index)
    }
}

/// Whether `G` gives its moves order keys ([`Notation::move_order_key`]), asked once per
/// process of a legal move of its start position.
pub(super) fn gives_order_keys<G: FullGame>(py: Python<'_>) -> bool {
    fn probe<H: FullGame>() -> bool {
        let Ok(session) = Session::<H>::new(&[]) else {
            return false;
        };
        let state = session.state();
        let mut first = None;
        let _ = state.scan_moves(&mut |mv| {
            first = Some(mv);
            ControlFlow::Break(())
        });
        first.is_some_and(|mv| state.move_order_key(mv).is_some())
    }
    static GIVEN: PyOnceLock<Vec<bool>> = PyOnceLock::new();
    let given = GIVEN.get_or_init(py, || {
        GAME_NAMES
            .iter()
            .map(|&name| with_game!(name, H => probe::<H>(), _ => false))
            .collect()
    });
    GAME_NAMES
        .iter()
        .position(|&name| name == G::NAME)
        .is_some_and(|index| given[index])
}

/// One Python int per action number of a game, made once per process: `legal_actions()`
/// hands out shared ints instead of making new ones (CPython shares only those up to 256).
pub(super) fn action_ints<G: FullGame>(py: Python<'_>) -> &'static [Py<PyInt>] {
    static TABLES: PyOnceLock<Vec<Vec<Py<PyInt>>>> = PyOnceLock::new();
    let tables = TABLES.get_or_init(py, || {
        GAME_NAMES
            .iter()
            .map(|&name| {
                let n = with_game!(name, H => <H as ActionEncoding>::NUM_DISTINCT_ACTIONS, _ => 0);
                (0..n).map(|a| PyInt::new(py, a).unbind()).collect()
            })
            .collect()
    });
    GAME_NAMES
        .iter()
        .position(|&name| name == G::NAME)
        .and_then(|index| tables.get(index))
        .map_or(&[], Vec::as_slice)
}

/// The moves of a game have at most this many bits for their order keys
/// ([`Notation::move_order_key`]); below them, the move's index in generation order.
pub(super) const ORDER_KEY_BITS: u32 = 48;
pub(super) const MOVE_INDEX_BITS: u32 = 64 - ORDER_KEY_BITS;

/// A legal move on its way into `legal_moves()`: its order key with its index in the scan
/// below it, its move-text key ([`Notation::move_text_key`], or [`NO_TEXT_KEY`]) and the
/// move. Small and without a string, so that the scan's visitor only stores it and is
/// inlined into the scan; the strings are found once the moves are sorted, and then `order`
/// becomes the address of the move's string (for `play()`).
#[derive(Clone, Copy)]
pub(super) struct Listed<M> {
    pub(super) order: u64,
    pub(super) text_key: u32,
    pub(super) mv: M,
}

/// The most moves `legal_moves()` orders by key: their indices fit below the keys.
pub(super) const MOST_LISTED: usize = 1 << MOVE_INDEX_BITS;

/// A [`Listed::text_key`] for a move without one.
pub(super) const NO_TEXT_KEY: u32 = u32::MAX;

/// A new string of the text of `mv`, a legal move of `state` (`text` is room for it): the
/// rare path of `legal_moves()`, kept out of its loop.
#[cold]
#[inline(never)]
pub(super) fn new_move_string<G: Notation>(
    py: Python<'_>,
    state: &G,
    mv: G::Move,
    text: &mut String,
) -> Py<PyString> {
    text.clear();
    state.write_move_text(mv, text);
    PyString::new(py, text).unbind()
}

/// The strings the last `legal_moves()` returned, while the state has not changed since, and
/// room reused by every call. `listed[..count]` has the address of each string with its
/// move, so that `play()` of one of those very objects plays its move without reading the
/// text again. An address names one string only while that string lives: the shared ones
/// live as long as the process, and the others are held here.
pub(super) struct LastMoves<M> {
    /// Room for the moves of a call, kept at its length (the entries past `count` are left
    /// from earlier calls), so that the scan's visitor writes an entry and counts it in a
    /// local without the bookkeeping of a push.
    pub(super) listed: Vec<Listed<M>>,
    pub(super) count: usize,
    pub(super) held: Vec<Py<PyString>>,
    pub(super) text: String,
    /// `legal_actions()`: one bit per action number, all clear between calls, and the
    /// actions in ascending order.
    pub(super) action_bits: Vec<u64>,
    pub(super) actions: Vec<usize>,
}

impl<M> LastMoves<M> {
    pub(super) fn new() -> Mutex<Self> {
        Mutex::new(LastMoves {
            listed: Vec::new(),
            count: 0,
            held: Vec::new(),
            text: String::new(),
            action_bits: Vec::new(),
            actions: Vec::new(),
        })
    }
}

impl<G: FullGame> Native<G> {
    /// `legal_moves()` for games that give every move an order key
    /// ([`Notation::move_order_key`]): a shared string for every move with a text key, a new
    /// one for the others, sorted by order key (their text order); remembered for `play()`.
    /// `None` when a move has no order key (or the scratch room is in use), for the caller
    /// to sort texts instead.
    pub(super) fn ordered_legal_moves<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<Bound<'py, PyList>>> {
        let Ok(mut last) = self.last_moves.try_lock() else {
            return Ok(None);
        };
        let LastMoves {
            listed,
            count,
            held,
            text,
            ..
        } = &mut *last;
        *count = 0;
        held.clear();
        let state = self.session.state();
        let partial = self.session.partial();
        let mut keyed = self
            .keyed
            .map(|keyed| keyed.lock().unwrap_or_else(PoisonError::into_inner));
        let slots: &mut [Option<Py<PyString>>] = match &mut keyed {
            Some(guard) => &mut guard.slots,
            None => &mut [],
        };
        // The scan writes into the room it finds; when a position has more moves than that,
        // the room grows (filled with the move that did not fit) and the scan starts again.
        let n = loop {
            let room = &mut listed[..];
            let mut n = 0;
            // Breaks with the move that found no room, or with `None` for a move without an
            // order key.
            let mut push = |mv, order: Option<u64>, text_key: Option<usize>| {
                let Some(order) = order.filter(|&key| key >> ORDER_KEY_BITS == 0) else {
                    return ControlFlow::Break(None);
                };
                let Some(entry) = room.get_mut(n) else {
                    return ControlFlow::Break(Some(mv));
                };
                *entry = Listed {
                    order: order << MOVE_INDEX_BITS | n as u64,
                    text_key: text_key
                        .and_then(|key| u32::try_from(key).ok())
                        .unwrap_or(NO_TEXT_KEY),
                    mv,
                };
                n += 1;
                ControlFlow::Continue(())
            };
            // Outside a move being made (always, but for games of several actions per move)
            // every move is allowed: a scan without a check per move, whose visitor only
            // stores the move and is small enough to be inlined into it.
            let complete = if partial.is_empty() {
                state.scan_moves_keyed(&mut push)
            } else {
                state.scan_moves_keyed(&mut |mv, order, text_key| {
                    if partial.allows(state, mv) {
                        push(mv, order, text_key)
                    } else {
                        ControlFlow::Continue(())
                    }
                })
            };
            match complete {
                ControlFlow::Continue(()) => break n,
                ControlFlow::Break(Some(filler)) if listed.len() < MOST_LISTED => {
                    let grown = (listed.len() * 2).clamp(64, MOST_LISTED);
                    let filler = Listed {
                        order: 0,
                        text_key: NO_TEXT_KEY,
                        mv: filler,
                    };
                    listed.resize(grown, filler);
                }
                ControlFlow::Break(_) => return Ok(None),
            }
        };
        let entries = &mut listed[..n];
        // The scan leaves few moves out of order (E's exchanges at most): an insertion
        // sort then costs about one comparison per move.
        if entries.len() <= 128 {
            for i in 1..entries.len() {
                let mut j = i;
                while j > 0 && entries[j - 1].order > entries[j].order {
                    entries.swap(j - 1, j);
                    j -= 1;
                }
            }
        } else {
            entries.sort_unstable_by_key(|entry| entry.order);
        }
        // Each move's string (the shared one of its text key, made the first time, or a new
        // one held here) goes into the list, its address into the move's entry.
        let list = PyList::new(
            py,
            entries.iter_mut().map(|entry| {
                let string = match slots.get_mut(entry.text_key as usize) {
                    Some(Some(shared)) => shared.clone_ref(py),
                    Some(empty) => empty
                        .insert(new_move_string(py, state, entry.mv, text))
                        .clone_ref(py),
                    None => {
                        let string = new_move_string(py, state, entry.mv, text);
                        held.push(string.clone_ref(py));
                        string
                    }
                };
                entry.order = string.as_ptr() as usize as u64;
                string.into_bound(py)
            }),
        )?;
        *count = n;
        Ok(Some(list))
    }

    /// `legal_actions()`: the actions marked in a bit set and read back in ascending order
    /// (no sort), as the shared ints.
    pub(super) fn legal_action_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let ints = action_ints::<G>(py);
        let Ok(mut last) = self.last_moves.try_lock() else {
            return PyList::new(py, self.session.legal_actions());
        };
        let LastMoves {
            action_bits,
            actions,
            ..
        } = &mut *last;
        action_bits.resize(G::NUM_DISTINCT_ACTIONS.div_ceil(64), 0);
        let (mut low, mut high) = (usize::MAX, 0);
        self.session
            .partial()
            .for_each_legal_action(self.session.state(), |a| {
                if let Some(word) = action_bits.get_mut(a / 64) {
                    *word |= 1 << (a % 64);
                    low = low.min(a / 64);
                    high = high.max(a / 64);
                }
            });
        actions.clear();
        for (i, word) in action_bits.iter_mut().enumerate().take(high + 1).skip(low) {
            while *word != 0 {
                actions.push(i * 64 + word.trailing_zeros() as usize);
                *word &= *word - 1;
            }
        }
        if actions.iter().all(|&a| a < ints.len()) {
            PyList::new(py, actions.iter().map(|&a| ints[a].bind(py)))
        } else {
            PyList::new(py, actions.iter())
        }
    }
}
