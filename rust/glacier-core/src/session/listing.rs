//! The legal moves of a session in the order of their texts, as the bindings hand them out:
//! one lister ([`crate::Session::list_moves`]) that puts the moves in order by numbers where
//! the game gives them (the rank of a one-action move's text among all action texts, or the
//! game's [`Notation::move_order_key`]) and by their texts otherwise, and tells with each
//! move the number of its text ([`MoveTexts::text_key`]), so that a binding keeps one string
//! per text; and the legal actions in ascending order through a bit per action.

use crate::game::params_from;
use crate::{ActionEncoding, Notation, PartialMove};
use std::any::TypeId;
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::{Mutex, PoisonError};

/// The moves of a game have at most this many bits for their order keys
/// ([`Notation::move_order_key`]); below them, the move's index in generation order.
const ORDER_KEY_BITS: u32 = 48;
const MOVE_INDEX_BITS: u32 = 64 - ORDER_KEY_BITS;

/// The most moves ordered by key: their indices fit below the keys (more are ordered by
/// text).
const MOST_KEYED: usize = 1 << MOVE_INDEX_BITS;

/// A [`Listed::text_key`] for a move without one.
const NO_TEXT_KEY: u32 = u32::MAX;

/// How a game's legal moves are put in the order of their texts: found once per game
/// ([`MoveOrder::of`]).
#[derive(Debug)]
pub(crate) enum MoveOrder {
    /// Every move is one action named by the move's text
    /// ([`ActionEncoding::ONE_ACTION_MOVES`]): the rank of each action's text among all of
    /// them (`u32::MAX` for a number no position allows), and the action of each text. A
    /// move's text key is its action.
    Actions {
        rank: Vec<u32>,
        by_text: HashMap<String, usize>,
    },
    /// The game gives order keys and text keys ([`Notation::scan_moves_keyed`]).
    Keys,
    /// The game gives neither: the texts are written and compared.
    Texts,
}

impl MoveOrder {
    /// The order of `G`, worked out the first time a process asks and kept for good.
    pub(crate) fn of<G: Notation + ActionEncoding>() -> &'static MoveOrder {
        static ORDERS: Mutex<Vec<(TypeId, &'static MoveOrder)>> = Mutex::new(Vec::new());
        let id = TypeId::of::<G>();
        let mut orders = ORDERS.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(&(_, order)) = orders.iter().find(|(of, _)| *of == id) {
            return order;
        }
        let order: &'static MoveOrder = Box::leak(Box::new(Self::find::<G>()));
        orders.push((id, order));
        order
    }

    fn find<G: Notation + ActionEncoding>() -> MoveOrder {
        if G::ONE_ACTION_MOVES {
            let texts: Vec<Option<String>> =
                (0..G::NUM_DISTINCT_ACTIONS).map(G::action_text).collect();
            let mut named: Vec<usize> = (0..texts.len()).filter(|&a| texts[a].is_some()).collect();
            named.sort_by(|&a, &b| texts[a].cmp(&texts[b]));
            let mut rank = vec![u32::MAX; texts.len()];
            for (r, &a) in named.iter().enumerate() {
                rank[a] = r as u32;
            }
            let by_text = named
                .iter()
                .map(|&a| (texts[a].clone().unwrap_or_default(), a))
                .collect();
            return MoveOrder::Actions { rank, by_text };
        }
        // Whether the game gives keys, asked of a legal move of its start.
        let Ok(params) = params_from::<G>(&[]) else {
            return MoveOrder::Texts;
        };
        let start = G::start(&params);
        let first = start.find_move(|_| true);
        if first.is_some_and(|mv| start.move_order_key(mv).is_some()) {
            MoveOrder::Keys
        } else {
            MoveOrder::Texts
        }
    }

    /// The action whose text is `text`, in a game of one action per move.
    pub(crate) fn action_named(&self, text: &str) -> Option<usize> {
        match self {
            MoveOrder::Actions { by_text, .. } => by_text.get(text).copied(),
            MoveOrder::Keys | MoveOrder::Texts => None,
        }
    }
}

/// A legal move in a [`MoveList`]: its order (a key with the move's index in the scan below
/// it, or the span of its text in [`MoveList::text`]), its text key ([`NO_TEXT_KEY`] for
/// none) and the index of the move in [`MoveList::moves`]. Small and without the move, so
/// that the sort moves little, and the same for every game, so that a binding reads it
/// whatever the game.
#[derive(Debug, Clone, Copy, Default)]
pub struct Listed {
    order: u64,
    text_key: u32,
    index: u32,
}

/// What a binding reads of a [`MoveList`], whatever the game: every legal move in the
/// order of the texts, with its text key, or else its text.
#[derive(Clone, Copy)]
pub struct MoveTexts<'a> {
    entries: &'a [Listed],
    text: &'a str,
    /// Writes the text of move `i` (of a move with a key: its text is not written by the
    /// lister).
    write: &'a dyn Fn(usize, &mut String),
}

impl std::fmt::Debug for MoveTexts<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MoveTexts")
            .field("entries", &self.entries)
            .finish_non_exhaustive()
    }
}

impl<'a> MoveTexts<'a> {
    /// The number of legal moves.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The number of move `i`'s text, the same for the same text in every position of the
    /// game: its action in a game of one action per move, else its
    /// [`Notation::move_text_key`]; `None` for a move whose text has none.
    #[must_use]
    pub fn text_key(&self, i: usize) -> Option<usize> {
        let key = self.entries[i].text_key;
        (key != NO_TEXT_KEY).then_some(key as usize)
    }

    /// The text of move `i`, if it has no text key (the lister writes only those).
    #[must_use]
    pub fn text(&self, i: usize) -> Option<&'a str> {
        let entry = self.entries[i];
        (entry.text_key == NO_TEXT_KEY).then(|| span(self.text, entry.order))
    }

    /// Appends the text of move `i` to `out` (for a move with a key, whose text a caller
    /// that keeps one string per key needs once).
    pub fn write_text(&self, i: usize, out: &mut String) {
        match self.text(i) {
            Some(text) => out.push_str(text),
            None => (self.write)(i, out),
        }
    }
}

/// The text an order that is a span names.
fn span(text: &str, order: u64) -> &str {
    &text[(order >> 32) as usize..(order & 0xFFFF_FFFF) as usize]
}

/// The legal moves of a state in the order of their texts ([`crate::Session::list_moves`]),
/// in room reused from call to call.
#[derive(Debug, Clone)]
pub struct MoveList<M> {
    entries: Vec<Listed>,
    moves: Vec<M>,
    len: usize,
    /// The texts of the moves without a text key, one after another.
    text: String,
    actions: Vec<u16>,
}

impl<M: Copy> Default for MoveList<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Copy> MoveList<M> {
    #[must_use]
    pub fn new() -> Self {
        MoveList {
            entries: Vec::new(),
            moves: Vec::new(),
            len: 0,
            text: String::new(),
            actions: Vec::new(),
        }
    }

    /// The number of legal moves listed.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Move `i`, in the order of the texts.
    #[must_use]
    pub fn get(&self, i: usize) -> Option<M> {
        let entry = self.entries[..self.len].get(i)?;
        self.moves.get(entry.index as usize).copied()
    }

    /// The text keys and texts of the moves listed, a move's text written by `write` when
    /// asked for (`state` is the listed state's: [`crate::Session::move_texts`]).
    pub(crate) fn texts<'a>(&'a self, write: &'a dyn Fn(usize, &mut String)) -> MoveTexts<'a> {
        MoveTexts {
            entries: &self.entries[..self.len],
            text: &self.text,
            write,
        }
    }

    /// Lists the legal moves of `state` that `partial` allows, in the order of their texts,
    /// with the text of every move without a key.
    pub(crate) fn fill<G>(&mut self, state: &G, partial: &PartialMove, order: &MoveOrder)
    where
        G: Notation<Move = M> + ActionEncoding,
    {
        let ordered = match order {
            MoveOrder::Actions { rank, .. } => partial.is_empty() && self.by_actions(state, rank),
            MoveOrder::Keys => self.by_keys(state, partial),
            MoveOrder::Texts => false,
        };
        if !ordered {
            self.by_texts(state, partial);
            return;
        }
        // The texts of the moves without a key (few or none, after a game's keyed scan).
        self.text.clear();
        for entry in &mut self.entries[..self.len] {
            if entry.text_key == NO_TEXT_KEY {
                let start = self.text.len() as u64;
                state.write_move_text(self.moves[entry.index as usize], &mut self.text);
                entry.order = start << 32 | self.text.len() as u64;
            }
        }
    }

    /// The moves of a game of one action per move, by the rank of their actions' texts;
    /// `false` if an action has no text (then the texts are compared).
    fn by_actions<G>(&mut self, state: &G, rank: &[u32]) -> bool
    where
        G: Notation<Move = M> + ActionEncoding,
    {
        let (actions, moves) = (&mut self.actions, &mut self.moves);
        actions.clear();
        moves.clear();
        if !state.is_terminal() {
            state.moves_and_actions(actions, moves);
        }
        let unranked = u64::from(u32::MAX);
        self.entries.clear();
        self.entries
            .extend(actions.iter().enumerate().map(|(i, &a)| Listed {
                order: rank.get(usize::from(a)).map_or(unranked, |&r| u64::from(r)),
                text_key: u32::from(a),
                index: i as u32,
            }));
        self.len = self.entries.len();
        if self.entries.iter().any(|entry| entry.order == unranked) {
            return false;
        }
        self.entries.sort_unstable_by_key(|entry| entry.order);
        true
    }

    /// The moves of a game that gives order keys, sorted by them; `false` if a move has none
    /// or there are too many for the keys (then the texts are compared).
    fn by_keys<G>(&mut self, state: &G, partial: &PartialMove) -> bool
    where
        G: Notation<Move = M> + ActionEncoding,
    {
        // The scan writes into the room it finds (the entries and the moves past those of a
        // listing are left from earlier calls, so that the scan's visitor writes a move and
        // counts it in a local without the bookkeeping of a push); when a position has more
        // moves than that, the room grows (filled with the move that did not fit) and the
        // scan starts again.
        let n = loop {
            let room = self.entries.len().min(self.moves.len());
            let (entries, moves) = (&mut self.entries[..room], &mut self.moves[..room]);
            let mut n = 0;
            // Breaks with the move that found no room, or with `None` for a move without an
            // order key.
            let mut push = |mv, order: Option<u64>, text_key: Option<usize>| {
                let Some(order) = order.filter(|&key| key >> ORDER_KEY_BITS == 0) else {
                    return ControlFlow::Break(None);
                };
                let (Some(entry), Some(slot)) = (entries.get_mut(n), moves.get_mut(n)) else {
                    return ControlFlow::Break(Some(mv));
                };
                *entry = Listed {
                    order: order << MOVE_INDEX_BITS | n as u64,
                    text_key: text_key
                        .and_then(|key| u32::try_from(key).ok())
                        .unwrap_or(NO_TEXT_KEY),
                    index: n as u32,
                };
                *slot = mv;
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
                ControlFlow::Break(Some(filler)) if room < MOST_KEYED => {
                    let grown = (room * 2).clamp(64, MOST_KEYED);
                    self.entries.resize(grown, Listed::default());
                    self.moves.resize(grown, filler);
                }
                ControlFlow::Break(_) => return false,
            }
        };
        // Only the entries are sorted (the moves stay where the scan put them, each entry
        // pointing at its own). The scan leaves few moves out of order (E's exchanges at
        // most): an insertion sort then costs about one comparison per move.
        let entries = &mut self.entries[..n];
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
        self.len = n;
        true
    }

    /// The moves with their texts, sorted by text (the order of each is the span of its
    /// text).
    fn by_texts<G>(&mut self, state: &G, partial: &PartialMove)
    where
        G: Notation<Move = M> + ActionEncoding,
    {
        let (entries, moves, text) = (&mut self.entries, &mut self.moves, &mut self.text);
        entries.clear();
        moves.clear();
        text.clear();
        state.generate_moves(&mut |mv| {
            if partial.allows(state, mv) {
                let start = text.len() as u64;
                state.write_move_text(mv, text);
                entries.push(Listed {
                    order: start << 32 | text.len() as u64,
                    text_key: NO_TEXT_KEY,
                    index: moves.len() as u32,
                });
                moves.push(mv);
            }
        });
        entries.sort_unstable_by(|a, b| span(text, a.order).cmp(span(text, b.order)));
        self.len = entries.len();
    }
}

/// The legal actions of a state in ascending order, marked in a bit per action and read
/// back in order (no sort), in room reused from call to call.
#[derive(Debug, Clone, Default)]
pub struct LegalActions {
    bits: Vec<u64>,
    actions: Vec<usize>,
}

impl LegalActions {
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The legal actions of `state` with `partial` taken, ascending.
    pub fn list<G: ActionEncoding>(&mut self, state: &G, partial: &PartialMove) -> &[usize] {
        let bits = &mut self.bits;
        bits.resize(G::NUM_DISTINCT_ACTIONS.div_ceil(64), 0);
        let (mut low, mut high) = (usize::MAX, 0);
        partial.for_each_legal_action(state, |a| {
            if let Some(word) = bits.get_mut(a / 64) {
                *word |= 1 << (a % 64);
                low = low.min(a / 64);
                high = high.max(a / 64);
            }
        });
        self.actions.clear();
        for (i, word) in bits.iter_mut().enumerate().take(high + 1).skip(low) {
            while *word != 0 {
                self.actions.push(i * 64 + word.trailing_zeros() as usize);
                *word &= *word - 1;
            }
        }
        &self.actions
    }
}
