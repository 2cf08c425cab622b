//! `GameState`: one Python class for a state of any game, with its history.
//!
//! The class holds a `Box<dyn DynSession>`: the object-safe face of the core's `Session<G>`,
//! implemented once for every game by [`Native<G>`]. The only place a game name becomes a
//! type is [`new_session`] (through the core's `with_game!`).

use crate::args;
use crate::convert::{
    check_depth, check_hash_mb, check_threads, extract_params, params_dict, params_ref, Params,
};
use crate::errors::{
    to_py_err, unknown_game, GlacierError, IllegalMoveError, InvalidParameterError,
};
use crate::interrupt;
use glacier_core::actions::max_game_length;
use glacier_core::games::GAME_NAMES;
use glacier_core::interrupt::{Interrupt, Stopped};
use glacier_core::perft::{perft_no_bulk_until, PerftTable};
use glacier_core::{
    with_game, ActionEncoding, Error, FullGame, Notation, ParamValue, PartialMove, Session, Taken,
};
use numpy::{IntoPyArray, PyArray1, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyInt, PyList, PyString};
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::{Mutex, PoisonError};

/// Interned move strings for games whose moves are single actions named by their move text
/// (`ActionEncoding::ONE_ACTION_MOVES`, as UCI moves are): `legal_moves()` then hands out
/// shared string objects, sorted by a precomputed rank, and `play()` finds a move through
/// its action number instead of comparing texts.
pub(crate) struct ActionTable {
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
    fn of<G: FullGame>(py: Python<'_>) -> Option<&'static ActionTable> {
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
    fn legal_moves<'py, G: FullGame>(
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
    fn find_move<G: FullGame>(&self, state: &G, text: &str) -> Option<G::Move> {
        match PartialMove::new().peek(state, *self.by_text.get(text)?)? {
            Taken::Move(mv) => Some(mv),
            Taken::Continues => None,
        }
    }
}

/// One shared Python string per move-text key of a game ([`Notation::move_text_key`]),
/// made the first time its text appears: `legal_moves()` then hands out shared strings for
/// the common moves of games whose moves are not single actions (E's movements).
struct KeyedStrings {
    slots: Vec<Option<Py<PyString>>>,
}

impl KeyedStrings {
    /// The table of `G`, one per process (empty when `G` numbers no move texts).
    fn of<G: FullGame>(py: Python<'_>) -> Option<&'static Mutex<KeyedStrings>> {
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
fn gives_order_keys<G: FullGame>(py: Python<'_>) -> bool {
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
fn action_ints<G: FullGame>(py: Python<'_>) -> &'static [Py<PyInt>] {
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
const ORDER_KEY_BITS: u32 = 48;
const MOVE_INDEX_BITS: u32 = 64 - ORDER_KEY_BITS;

/// A legal move on its way into `legal_moves()`: its order key with its index in the scan
/// below it, its move-text key ([`Notation::move_text_key`], or [`NO_TEXT_KEY`]) and the
/// move. Small and without a string, so that the scan's visitor only stores it and is
/// inlined into the scan; the strings are found once the moves are sorted, and then `order`
/// becomes the address of the move's string (for `play()`).
#[derive(Clone, Copy)]
struct Listed<M> {
    order: u64,
    text_key: u32,
    mv: M,
}

/// The most moves `legal_moves()` orders by key: their indices fit below the keys.
const MOST_LISTED: usize = 1 << MOVE_INDEX_BITS;

/// A [`Listed::text_key`] for a move without one.
const NO_TEXT_KEY: u32 = u32::MAX;

/// A new string of the text of `mv`, a legal move of `state` (`text` is room for it): the
/// rare path of `legal_moves()`, kept out of its loop.
#[cold]
#[inline(never)]
fn new_move_string<G: Notation>(
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
struct LastMoves<M> {
    /// Room for the moves of a call, kept at its length (the entries past `count` are left
    /// from earlier calls), so that the scan's visitor writes an entry and counts it in a
    /// local without the bookkeeping of a push.
    listed: Vec<Listed<M>>,
    count: usize,
    held: Vec<Py<PyString>>,
    text: String,
    /// `legal_actions()`: one bit per action number, all clear between calls, and the
    /// actions in ascending order.
    action_bits: Vec<u64>,
    actions: Vec<usize>,
}

impl<M> LastMoves<M> {
    fn new() -> Mutex<Self> {
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

/// What `GameState` asks of a session, whatever its game.
pub(crate) trait DynSession: Send + Sync {
    fn name(&self) -> &'static str;
    fn clone_box(&self) -> Box<dyn DynSession>;
    fn copy_with_history(&self, plies: Option<usize>) -> Box<dyn DynSession>;
    fn history_limit(&self) -> Option<usize>;
    fn set_history_limit(&mut self, limit: Option<usize>);
    fn param_pairs(&self) -> Vec<(&'static str, ParamValue)>;
    fn initial_text(&self) -> String;
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>>;
    fn play(&mut self, py: Python<'_>, text: &str) -> PyResult<()>;
    fn play_object(&mut self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<()>;
    fn num_distinct_actions(&self) -> usize;
    fn max_game_length(&self) -> u64;
    fn observation_shape(&self) -> &'static [usize];
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>>;
    fn legal_action_mask(&self, out: &mut [bool]);
    fn apply_action(&mut self, action: usize) -> Result<(), Error>;
    fn illegal_action(&self, shown: &str) -> Error;
    fn action_to_move(&self, action: usize) -> Result<Option<String>, Error>;
    fn action_text(&self, action: usize) -> Option<String>;
    fn observe(&self, player: usize, out: &mut [f32]);
    fn undo_action(&mut self) -> Result<usize, Error>;
    fn move_to_actions(&self, text: &str) -> Result<Vec<usize>, Error>;
    fn pending_actions(&self) -> Vec<usize>;
    fn action_history(&self) -> Vec<usize>;
    fn undo(&mut self) -> Result<String, Error>;
    fn moves(&self) -> Vec<String>;
    fn text(&self) -> String;
    fn board_string(&self) -> String;
    fn hash(&self) -> u64;
    fn hash_from_scratch(&self) -> u64;
    fn current_player(&self) -> usize;
    fn num_players(&self) -> usize;
    fn is_terminal(&self) -> bool;
    fn ended_by_ply_limit(&self) -> bool;
    fn returns(&self) -> Vec<f64>;
    fn perft(
        &self,
        depth: u32,
        bulk: bool,
        threads: usize,
        interrupt: &Interrupt<'_>,
    ) -> Result<u64, Stopped>;
    fn perft_hashed(
        &self,
        depth: u32,
        threads: usize,
        table: &PerftTable,
        interrupt: &Interrupt<'_>,
    ) -> Result<u64, Stopped>;
    fn perft_divide(
        &self,
        depth: u32,
        threads: usize,
        interrupt: &Interrupt<'_>,
    ) -> Result<Vec<(String, u64)>, Stopped>;
}

/// A session of game `G` with its interned move strings.
struct Native<G: FullGame> {
    session: Session<G>,
    table: Option<&'static ActionTable>,
    keyed: Option<&'static Mutex<KeyedStrings>>,
    /// Whether `legal_moves()` sorts by order keys ([`Native::ordered_legal_moves`]).
    ordered: bool,
    /// Emptied whenever the session changes.
    last_moves: Mutex<LastMoves<G::Move>>,
}

impl<G: FullGame> Native<G> {
    fn new(py: Python<'_>, session: Session<G>) -> Self {
        Native {
            session,
            table: ActionTable::of::<G>(py),
            keyed: KeyedStrings::of::<G>(py),
            ordered: gives_order_keys::<G>(py),
            last_moves: LastMoves::new(),
        }
    }

    fn with_session(&self, session: Session<G>) -> Self {
        Native {
            session,
            table: self.table,
            keyed: self.keyed,
            ordered: self.ordered,
            last_moves: LastMoves::new(),
        }
    }

    /// Forgets the last `legal_moves()` (the session is about to change).
    fn forget_moves(&mut self) {
        let last = self
            .last_moves
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        last.count = 0;
        last.held.clear();
    }

    /// `legal_moves()` for games that give every move an order key
    /// ([`Notation::move_order_key`]): a shared string for every move with a text key, a new
    /// one for the others, sorted by order key (their text order); remembered for `play()`.
    /// `None` when a move has no order key (or the scratch room is in use), for the caller
    /// to sort texts instead.
    fn ordered_legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
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
    fn legal_action_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
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

impl<G: FullGame> Clone for Native<G> {
    fn clone(&self) -> Self {
        self.with_session(self.session.clone())
    }
}

impl<G: FullGame> DynSession for Native<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn clone_box(&self) -> Box<dyn DynSession> {
        Box::new(self.clone())
    }
    fn copy_with_history(&self, plies: Option<usize>) -> Box<dyn DynSession> {
        Box::new(self.with_session(self.session.copy_with_history(plies)))
    }
    fn history_limit(&self) -> Option<usize> {
        self.session.history_limit()
    }
    fn set_history_limit(&mut self, limit: Option<usize>) {
        self.session.set_history_limit(limit);
    }
    fn param_pairs(&self) -> Vec<(&'static str, ParamValue)> {
        self.session.param_pairs()
    }
    fn initial_text(&self) -> String {
        self.session.initial_text()
    }

    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if let Some(moves) = self
            .table
            .and_then(|table| table.legal_moves(py, self.session.state()))
        {
            return PyList::new(py, moves);
        }
        if self.ordered {
            if let Some(list) = self.ordered_legal_moves(py)? {
                return Ok(list);
            }
        }
        let (mut texts, mut spans) = (String::new(), Vec::new());
        self.session.legal_move_texts(&mut texts, &mut spans);
        PyList::new(
            py,
            spans.iter().map(|&(a, b)| PyString::new(py, &texts[a..b])),
        )
    }

    fn play(&mut self, _py: Python<'_>, text: &str) -> PyResult<()> {
        self.forget_moves();
        let state = self.session.state();
        if let Some(table) = self.table {
            if !state.is_terminal() && self.session.partial().is_empty() {
                if let Some(mv) = table.find_move(state, text) {
                    self.session.play_move(mv);
                    return Ok(());
                }
            }
        }
        self.session.play(text).map_err(to_py_err)
    }

    fn play_object(&mut self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let last = self
            .last_moves
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        // The very string object the last `legal_moves()` gave for this move, in this state.
        let address = mv.as_ptr() as usize as u64;
        let found = last
            .listed
            .iter()
            .take(last.count)
            .find(|entry| entry.order == address);
        if let Some(&Listed { mv: found, .. }) = found {
            self.forget_moves();
            self.session.play_move(found);
            return Ok(());
        }
        self.play(py, &args::move_text(mv)?)
    }

    fn num_distinct_actions(&self) -> usize {
        G::NUM_DISTINCT_ACTIONS
    }
    fn max_game_length(&self) -> u64 {
        let max_plies = self
            .session
            .param_pairs()
            .iter()
            .find(|(name, _)| *name == "max_plies")
            .map_or(0, |(_, value)| value.int());
        max_game_length::<G>(u64::try_from(max_plies).unwrap_or(0))
    }
    fn observation_shape(&self) -> &'static [usize] {
        G::OBSERVATION_SHAPE
    }
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.legal_action_list(py)
    }
    fn legal_action_mask(&self, out: &mut [bool]) {
        self.session.partial().write_mask(self.session.state(), out);
    }
    fn apply_action(&mut self, action: usize) -> Result<(), Error> {
        self.forget_moves();
        self.session.apply_action(action)
    }
    fn illegal_action(&self, shown: &str) -> Error {
        self.session.illegal_action(shown)
    }
    fn action_to_move(&self, action: usize) -> Result<Option<String>, Error> {
        self.session.action_move(action)
    }
    fn action_text(&self, action: usize) -> Option<String> {
        G::action_text(action)
    }
    fn observe(&self, player: usize, out: &mut [f32]) {
        self.session.observe(player, out);
    }
    fn undo_action(&mut self) -> Result<usize, Error> {
        self.forget_moves();
        self.session.undo_action()
    }
    fn move_to_actions(&self, text: &str) -> Result<Vec<usize>, Error> {
        self.session.move_actions(text)
    }
    fn pending_actions(&self) -> Vec<usize> {
        self.session.pending_actions().iter().collect()
    }
    fn action_history(&self) -> Vec<usize> {
        self.session.action_history()
    }
    fn undo(&mut self) -> Result<String, Error> {
        self.forget_moves();
        self.session.undo()
    }
    fn moves(&self) -> Vec<String> {
        self.session.moves_played()
    }
    fn text(&self) -> String {
        self.session.state().text()
    }
    fn board_string(&self) -> String {
        self.session.state().board_string()
    }
    fn hash(&self) -> u64 {
        self.session.state().hash()
    }
    fn hash_from_scratch(&self) -> u64 {
        self.session.state().hash_from_scratch()
    }
    fn current_player(&self) -> usize {
        self.session.state().current_player()
    }
    fn num_players(&self) -> usize {
        self.session.state().num_players()
    }
    fn is_terminal(&self) -> bool {
        self.session.state().is_terminal()
    }
    fn ended_by_ply_limit(&self) -> bool {
        self.session.state().ended_by_ply_limit()
    }
    fn returns(&self) -> Vec<f64> {
        let state = self.session.state();
        state.outcome().returns(state.num_players())
    }
    fn perft(
        &self,
        depth: u32,
        bulk: bool,
        threads: usize,
        interrupt: &Interrupt<'_>,
    ) -> Result<u64, Stopped> {
        let state = self.session.state();
        match (bulk, threads) {
            (true, _) => glacier_core::parallel::perft_until(state, depth, threads, interrupt),
            (false, _) => {
                let nodes = perft_no_bulk_until(state, depth, &mut interrupt.caller());
                interrupt.result(nodes)
            }
        }
    }
    fn perft_hashed(
        &self,
        depth: u32,
        threads: usize,
        table: &PerftTable,
        interrupt: &Interrupt<'_>,
    ) -> Result<u64, Stopped> {
        let state = self.session.state();
        glacier_core::parallel::perft_hashed_until(state, depth, threads, table, interrupt)
    }
    fn perft_divide(
        &self,
        depth: u32,
        threads: usize,
        interrupt: &Interrupt<'_>,
    ) -> Result<Vec<(String, u64)>, Stopped> {
        glacier_core::parallel::divide_until(self.session.state(), depth, threads, interrupt)
    }
}

/// A session of the game called `name`, at its start or at the position `text`.
fn new_session(
    py: Python<'_>,
    name: &str,
    text: Option<&str>,
    params: &Params,
) -> PyResult<Box<dyn DynSession>> {
    let params = params_ref(params);
    with_game!(name, G => {
        let session = match text {
            Some(text) => Session::<G>::from_text(text, &params),
            None => Session::<G>::new(&params),
        }
        .map_err(to_py_err)?;
        Ok(Box::new(Native::new(py, session)))
    }, _ => Err(unknown_game(name)))
}

/// The function `_repr_svg_` calls to draw a state (set by the Python package).
static SVG_RENDERER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// Sets the function that draws a state as SVG for `GameState._repr_svg_` (once).
#[pyfunction]
pub(crate) fn _set_svg_renderer(py: Python<'_>, renderer: Py<PyAny>) {
    let _ = SVG_RENDERER.set(py, renderer);
}

/// A game state of any game, with the moves played since it was created.
#[pyclass(module = "glacier._native")]
pub struct GameState {
    session: Box<dyn DynSession>,
}

impl std::fmt::Debug for GameState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "GameState({}, {})",
            self.session.name(),
            self.session.text()
        )
    }
}

impl Clone for GameState {
    fn clone(&self) -> Self {
        GameState {
            session: self.session.clone_box(),
        }
    }
}

/// `copy(history=...)`: `True` every kept ply (`None`), `False` none, a number that many.
fn history_plies(value: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    if let Ok(keep) = value.cast::<pyo3::types::PyBool>() {
        return Ok((!keep.is_true()).then_some(0));
    }
    match value.extract::<i64>() {
        Ok(n) => usize::try_from(n).map(Some).map_err(|_| {
            InvalidParameterError::new_err(format!(
                "history must be True, False or a number of plies >= 0, got {n}"
            ))
        }),
        Err(_) => Err(PyTypeError::new_err(format!(
            "history must be True, False or a number of plies, got {}",
            value.get_type().name()?
        ))),
    }
}

/// The start position of the game `name`, with its parameters as keywords.
#[pyfunction]
#[pyo3(signature = (name, **params))]
pub(crate) fn new_game(
    py: Python<'_>,
    name: &str,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<GameState> {
    let params = extract_params(name, params)?;
    Ok(GameState {
        session: new_session(py, name, None, &params)?,
    })
}

/// The position of the game `name` written as `text`.
#[pyfunction]
#[pyo3(signature = (name, text, **params))]
pub(crate) fn from_text(
    py: Python<'_>,
    name: &str,
    text: &Bound<'_, PyAny>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<GameState> {
    let text = args::position_text(text)?;
    let params = extract_params(name, params)?;
    Ok(GameState {
        session: new_session(py, name, Some(&text), &params)?,
    })
}

/// Rebuilds a pickled state: its game, parameters, start text, the moves played since and
/// the actions taken in the move being made.
#[pyfunction]
#[pyo3(signature = (name, params, text, moves, pending = Vec::new()))]
pub(crate) fn _restore(
    py: Python<'_>,
    name: &str,
    params: &Bound<'_, PyDict>,
    text: &str,
    moves: Vec<String>,
    pending: Vec<usize>,
) -> PyResult<GameState> {
    let params = extract_params(name, Some(params))?;
    let mut session = new_session(py, name, Some(text), &params)?;
    for mv in &moves {
        session.play(py, mv)?;
    }
    for &action in &pending {
        session.apply_action(action).map_err(to_py_err)?;
    }
    Ok(GameState { session })
}

#[pymethods]
impl GameState {
    /// The game's name.
    #[getter]
    fn game(&self) -> &'static str {
        self.session.name()
    }

    /// The game's parameters.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        params_dict(py, &self.session.param_pairs())
    }

    /// Legal moves in ascending order; empty when the game is over.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.session.legal_moves(py)
    }

    /// Plays a move given in the game's notation (its rules page).
    fn play(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        self.session.play_object(py, r#move)
    }

    /// The number of action numbers: every action is below it, and an action means the
    /// same in every position.
    #[getter]
    fn num_distinct_actions(&self) -> usize {
        self.session.num_distinct_actions()
    }

    /// Always True: every game numbers its actions the same way in every position (kept for
    /// code written when some games numbered their legal moves instead).
    #[getter]
    fn fixed_action_space(&self) -> bool {
        true
    }

    /// The most actions a game with these parameters can take from its start (its ply
    /// limit times the most actions one move takes).
    #[getter]
    fn max_game_length(&self) -> u64 {
        self.session.max_game_length()
    }

    /// The shape of `observation()`.
    #[getter]
    fn observation_shape(&self) -> Vec<usize> {
        self.session.observation_shape().to_vec()
    }

    /// The legal actions, ascending (in the middle of a move, those that go on with it).
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.session.legal_actions(py)
    }

    /// The legal actions as a bool array of `num_distinct_actions`.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut out = vec![false; self.session.num_distinct_actions()];
        self.session.legal_action_mask(&mut out);
        out.into_pyarray(py)
    }

    /// Takes an action: plays the move it completes, or leaves the move half made with the
    /// same player to take the next action.
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let action = args::action(action, IllegalMoveError::new_err)?;
        match action {
            Ok(action) => self.session.apply_action(action),
            Err(shown) => Err(self.session.illegal_action(&shown)),
        }
        .map_err(to_py_err)
    }

    /// The text of the move a legal action completes, or None when the move goes on.
    fn action_to_move(&self, action: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        match args::action(action, IllegalMoveError::new_err)? {
            Ok(action) => self.session.action_to_move(action),
            Err(shown) => Err(self.session.illegal_action(&shown)),
        }
        .map_err(to_py_err)
    }

    /// The name of an action, the same in every position.
    fn action_to_string(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let n = self.session.num_distinct_actions();
        let action = args::action(action, InvalidParameterError::new_err)?;
        action
            .clone()
            .ok()
            .and_then(|a| self.session.action_text(a))
            .ok_or_else(|| {
                let action = action.map_or_else(|shown| shown, |a| a.to_string());
                InvalidParameterError::new_err(format!(
                    "{action} is not an action of {} (its actions are numbered 0..{n}, and \
                     some numbers are never legal)",
                    self.session.name()
                ))
            })
    }

    /// The state as a float32 array of `observation_shape`, from the point of view of
    /// `player` (the player to move when None).
    #[pyo3(signature = (player = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let players = self.session.num_players();
        let player = match player {
            Some(p) if !p.is_none() => args::usize_in(p, "player", 0, players - 1)?,
            _ => self.session.current_player(),
        };
        let shape = self.session.observation_shape();
        let mut out = vec![0.0f32; shape.iter().product()];
        self.session.observe(player, &mut out);
        Ok(out.into_pyarray(py).reshape(shape)?.into_any())
    }

    /// The actions to take to play the legal move `move` from here (in the middle of a
    /// move, the rest of them; forced actions, which come by themselves, left out).
    fn move_to_actions(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
        self.session
            .move_to_actions(&args::move_text(r#move)?)
            .map_err(to_py_err)
    }

    /// Takes back the last action chosen and returns it (in the move being made, or else
    /// the last action of the last move, which is then half made again).
    fn undo_action(&mut self) -> PyResult<usize> {
        self.session.undo_action().map_err(to_py_err)
    }

    /// The actions chosen so far in the move being made (empty between moves).
    #[getter]
    fn pending_actions(&self) -> Vec<usize> {
        self.session.pending_actions()
    }

    /// Every action chosen since this state was created, oldest first: taking them again
    /// from the same start rebuilds the state.
    fn action_history(&self) -> Vec<usize> {
        self.session.action_history()
    }

    /// Takes back the last move and returns it.
    fn undo(&mut self) -> PyResult<String> {
        self.session.undo().map_err(to_py_err)
    }

    /// The moves played since this state was created.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.session.moves()
    }

    /// A copy of the position. `history=False` (the default) leaves the moves played with
    /// this state, so a copy costs the same at every ply; `True` copies every ply kept for
    /// `undo()`; a number copies that many of the last ones.
    #[pyo3(signature = (history = None))]
    fn copy(&self, history: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let plies = match history {
            None => Some(0),
            Some(value) => history_plies(value)?,
        };
        Ok(GameState {
            session: self.session.copy_with_history(plies),
        })
    }

    /// `copy.copy`: the position only, as `copy()`.
    fn __copy__(&self) -> Self {
        GameState {
            session: self.session.copy_with_history(Some(0)),
        }
    }

    /// `copy.deepcopy`: everything, the kept history with it.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// The most plies kept for `undo()` (`None`, the default: every one). Set it to keep
    /// memory flat over a long game: older plies are dropped as new ones are played, and an
    /// `undo()` past them raises `HistoryNotKeptError`.
    #[getter]
    fn get_history_limit(&self) -> Option<usize> {
        self.session.history_limit()
    }

    #[setter]
    fn set_history_limit(&mut self, limit: Option<i64>) -> PyResult<()> {
        let limit = limit
            .map(|n| {
                usize::try_from(n).map_err(|_| {
                    InvalidParameterError::new_err(format!(
                        "history_limit must be None or >= 0, got {n}"
                    ))
                })
            })
            .transpose()?;
        self.session.set_history_limit(limit);
        Ok(())
    }

    /// The position text.
    fn text(&self) -> String {
        self.session.text()
    }

    /// The 64-bit Zobrist hash.
    fn hash(&self) -> u64 {
        self.session.hash()
    }

    /// The hash recomputed from the whole state (always equal to `hash()`).
    fn _hash_from_scratch(&self) -> u64 {
        self.session.hash_from_scratch()
    }

    #[getter]
    fn current_player(&self) -> usize {
        self.session.current_player()
    }

    #[getter]
    fn num_players(&self) -> usize {
        self.session.num_players()
    }

    fn is_terminal(&self) -> bool {
        self.session.is_terminal()
    }

    /// Whether the game is over only because it reached its ply limit (what learning
    /// frameworks call a truncation; any other end is a termination).
    fn ended_by_ply_limit(&self) -> bool {
        self.session.ended_by_ply_limit()
    }

    fn returns(&self) -> Vec<f64> {
        self.session.returns()
    }

    /// Leaf count of the legal-move tree to `depth`, computed with the GIL released.
    /// With `bulk` (the default) the last ply is counted, not played; `threads` > 1
    /// splits the tree over that many threads (0 = every core). `hash_mb` > 0 counts with
    /// a transposition table of that many MiB (shared by the threads), so a position reached
    /// by several move orders is counted once: the same count, sooner where transpositions
    /// are common. A table of up to 256 MiB is kept for the next count of that size.
    #[pyo3(
        signature = (depth, bulk = true, threads = None, hash_mb = None),
        text_signature = "($self, depth, bulk=True, threads=1, hash_mb=0)"
    )]
    fn perft(
        &self,
        py: Python<'_>,
        depth: &Bound<'_, PyAny>,
        bulk: bool,
        threads: Option<&Bound<'_, PyAny>>,
        hash_mb: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let depth = check_depth(depth)?;
        let threads = threads.map_or(Ok(1), check_threads)?;
        let hash_mb = hash_mb.map_or(Ok(0), |mb| check_hash_mb(mb, bulk))?;
        let session = &*self.session;
        if hash_mb == 0 {
            return interrupt::run(py, "perft", |stop| {
                session.perft(depth, bulk, threads, stop)
            });
        }
        let counted = interrupt::run(py, "perft", |stop| {
            let counted = glacier_core::perft::with_table(hash_mb, |table| {
                session.perft_hashed(depth, threads, table, stop)
            });
            match counted {
                Ok(Ok(nodes)) => Ok(Ok(nodes)),
                Ok(Err(stopped)) => Err(stopped),
                Err(error) => Ok(Err(error)),
            }
        })?;
        counted.map_err(to_py_err)
    }

    /// Perft below each legal move, as `{move: leaves}` in move order.
    #[pyo3(signature = (depth, threads = None), text_signature = "($self, depth, threads=1)")]
    fn perft_divide<'py>(
        &self,
        py: Python<'py>,
        depth: &Bound<'py, PyAny>,
        threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let depth = check_depth(depth)?;
        let threads = threads.map_or(Ok(1), check_threads)?;
        let session = &*self.session;
        let counts = interrupt::run(py, "perft divide", |stop| {
            session.perft_divide(depth, threads, stop)
        })?;
        let dict = PyDict::new(py);
        for (mv, n) in counts {
            dict.set_item(mv, n)?;
        }
        Ok(dict)
    }

    fn __str__(&self) -> String {
        self.session.board_string()
    }

    /// An SVG picture of the position (shown by Jupyter).
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        let py = slf.py();
        let renderer = SVG_RENDERER
            .get(py)
            .ok_or_else(|| GlacierError::new_err("no SVG renderer is set (import glacier)"))?;
        renderer.bind(py).call1((slf,))?.extract()
    }

    fn __repr__(&self) -> String {
        format!("<{} '{}'>", self.session.name(), self.session.text())
    }

    fn __eq__(&self, other: PyRef<'_, Self>) -> bool {
        let (a, b) = (&self.session, &other.session);
        a.name() == b.name()
            && a.param_pairs() == b.param_pairs()
            && a.text() == b.text()
            && a.pending_actions() == b.pending_actions()
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        (
            &'static str,
            Bound<'py, PyDict>,
            String,
            Vec<String>,
            Vec<usize>,
        ),
    )> {
        let restore = py.import("glacier._native")?.getattr("_restore")?;
        let args = (
            self.session.name(),
            params_dict(py, &self.session.param_pairs())?,
            self.session.initial_text(),
            self.session.moves(),
            self.session.pending_actions(),
        );
        Ok((restore, args))
    }
}
