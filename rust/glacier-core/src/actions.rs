//! Moves as short sequences of actions: the action-level state machine.
//!
//! A game's [`ActionEncoding`] writes every legal move as a list of action numbers
//! ([`ActionEncoding::move_actions`]); the lists of one state are prefix-free. A state
//! together with a [`PartialMove`], the actions taken so far in the move being made, is a
//! state of the action-level API. Its legal actions are the next actions of the moves
//! that begin with those; taking one either completes a move (then the move is played,
//! exactly as `play` would play it) or leaves a state between the actions of one move,
//! with the same player to move. Two rules keep the sequences short:
//!
//! - when only one legal move begins with the actions taken, it is played at once (a lone
//!   cube needs no "drop W", a jump chain that cannot go on needs no "stop");
//! - when every such move has the same next action, that action is taken by itself, and
//!   counts as forced rather than chosen.
//!
//! So every state offers its player a real choice of at least two actions, except a state
//! between moves, which may offer one (every move takes at least one chosen action).
//!
//! Everything here is written once for every game, on top of move generation, so the
//! action-level API reaches exactly the states the whole-move API reaches. It allocates
//! nothing on the heap.

use crate::game::{ActionEncoding, Observation};
use std::ops::ControlFlow;

/// The most actions one move's list may hold, forced ones included.
pub const MAX_MOVE_ACTIONS: usize = 16;

/// The most action numbers a game may have.
pub const MAX_DISTINCT_ACTIONS: usize = 10_000;

/// A short list of action numbers, on the stack.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ActionList {
    len: u8,
    items: [u16; MAX_MOVE_ACTIONS],
}

impl std::fmt::Debug for ActionList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl ActionList {
    #[must_use]
    pub const fn new() -> ActionList {
        ActionList {
            len: 0,
            items: [0; MAX_MOVE_ACTIONS],
        }
    }

    /// Appends an action. The capacity is proven for every game (its rules page bounds its
    /// longest list); a list that would overflow keeps its first `MAX_MOVE_ACTIONS`.
    #[inline]
    pub fn push(&mut self, action: usize) {
        debug_assert!((self.len as usize) < MAX_MOVE_ACTIONS, "action list full");
        debug_assert!(
            action < MAX_DISTINCT_ACTIONS,
            "action {action} out of range"
        );
        if (self.len as usize) < MAX_MOVE_ACTIONS {
            self.items[self.len as usize] = action as u16;
            self.len += 1;
        }
    }

    #[inline]
    #[must_use]
    pub fn as_slice(&self) -> &[u16] {
        &self.items[..self.len as usize]
    }

    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The action at `index`, if the list is that long.
    #[inline]
    #[must_use]
    pub fn get(&self, index: usize) -> Option<usize> {
        self.as_slice().get(index).map(|&a| usize::from(a))
    }

    /// Drops the last action, if any, and returns it.
    #[inline]
    pub fn pop(&mut self) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(usize::from(self.items[self.len as usize]))
    }

    #[inline]
    #[must_use]
    pub fn starts_with(&self, prefix: &ActionList) -> bool {
        self.as_slice().starts_with(prefix.as_slice())
    }

    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.as_slice().iter().map(|&a| usize::from(a))
    }
}

/// A set of action numbers, on the stack (one bit each).
struct ActionSet([u64; MAX_DISTINCT_ACTIONS.div_ceil(64)]);

impl ActionSet {
    fn new() -> ActionSet {
        ActionSet([0; MAX_DISTINCT_ACTIONS.div_ceil(64)])
    }

    /// Adds `action`; `true` when it was not in the set yet.
    #[inline]
    fn insert(&mut self, action: usize) -> bool {
        let (word, bit) = (action / 64, 1u64 << (action % 64));
        let new = self.0[word] & bit == 0;
        self.0[word] |= bit;
        new
    }
}

/// What taking an action between moves does, as a game's fast path
/// ([`ActionEncoding::quick_take`]) tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuickTake<M> {
    /// The action is not legal.
    Illegal,
    /// The action alone makes this move.
    Move(M),
    /// The action begins several moves, which differ in their very next action (nothing
    /// forced follows it).
    Choice,
    /// The game cannot tell quickly: the general way finds out.
    Unknown,
}

/// Every distinct first action of the legal moves of `state` (the default of
/// [`ActionEncoding::for_each_first_action`]).
pub fn first_actions_of_moves<G: ActionEncoding>(state: &G, visit: &mut impl FnMut(usize)) {
    let mut list = ActionList::new();
    if G::ONE_ACTION_MOVES {
        // Distinct moves have distinct actions: no set needed.
        state.generate_moves(&mut |mv| {
            list.clear();
            state.move_actions(mv, &mut list);
            if let Some(action) = list.get(0) {
                visit(action);
            }
        });
        return;
    }
    let mut seen = ActionSet::new();
    state.generate_moves(&mut |mv| {
        list.clear();
        state.move_actions(mv, &mut list);
        if let Some(action) = list.get(0) {
            if seen.insert(action) {
                visit(action);
            }
        }
    });
}

/// Every legal move of `state` and its first action, in generation order (the default of
/// [`ActionEncoding::moves_and_actions`]).
pub fn moves_and_actions_of<G: ActionEncoding>(
    state: &G,
    actions: &mut Vec<u16>,
    moves: &mut Vec<G::Move>,
) {
    let mut list = ActionList::new();
    state.generate_moves(&mut |mv| {
        list.clear();
        state.move_actions(mv, &mut list);
        if let Some(a) = list.get(0) {
            actions.push(a as u16);
            moves.push(mv);
        }
    });
}

/// What taking `action` between moves does, found from the moves (the default of
/// [`ActionEncoding::quick_take`] for games whose moves are one action each).
pub fn quick_take_of_moves<G: ActionEncoding>(state: &G, action: usize) -> QuickTake<G::Move> {
    if !G::ONE_ACTION_MOVES {
        return QuickTake::Unknown;
    }
    let mut list = ActionList::new();
    let found = state.find_move(|mv| {
        list.clear();
        state.move_actions(mv, &mut list);
        list.get(0) == Some(action)
    });
    found.map_or(QuickTake::Illegal, QuickTake::Move)
}

/// What taking an action did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Taken<M> {
    /// The action completed this move (not yet played: the caller plays it).
    Move(M),
    /// The move goes on: the same player takes another action.
    Continues,
}

/// The legal moves of `state` whose action lists begin with `path`, each with its list.
#[inline]
fn scan_candidates<G: ActionEncoding, B>(
    state: &G,
    path: &ActionList,
    visit: &mut impl FnMut(G::Move, &ActionList) -> ControlFlow<B>,
) -> ControlFlow<B> {
    let mut list = ActionList::new();
    state.scan_moves(&mut |mv| {
        list.clear();
        state.move_actions(mv, &mut list);
        if list.starts_with(path) {
            visit(mv, &list)
        } else {
            ControlFlow::Continue(())
        }
    })
}

/// How the moves that begin with a path go on.
enum Continuation<M> {
    /// No legal move begins with the path.
    None,
    /// Exactly one does.
    Only(M),
    /// Several do, and all of them go on with this action.
    Forced(usize),
    /// Several do, with different next actions: the player chooses.
    Choice,
}

fn continuation<G: ActionEncoding>(state: &G, path: &ActionList) -> Continuation<G::Move> {
    let mut first: Option<(G::Move, Option<usize>)> = None;
    let mut several = false;
    let flow = scan_candidates(state, path, &mut |mv, list| {
        let next = list.get(path.len());
        match first {
            None => {
                first = Some((mv, next));
                ControlFlow::Continue(())
            }
            Some((_, first_next)) => {
                several = true;
                if next == first_next && next.is_some() {
                    ControlFlow::Continue(())
                } else {
                    ControlFlow::Break(())
                }
            }
        }
    });
    match (first, several, flow) {
        (None, _, _) => Continuation::None,
        (Some((mv, _)), false, _) => Continuation::Only(mv),
        (Some((_, Some(next))), true, ControlFlow::Continue(())) => Continuation::Forced(next),
        _ => Continuation::Choice,
    }
}

/// The actions taken so far in the move being made: with the position it belongs to, a
/// state of the action-level API. Empty (the default) between moves.
///
/// The position is kept apart (a `PartialMove` is 36 bytes and `Copy`) so that any holder
/// of a state, a session or a slot of the batched environment, adds one beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PartialMove {
    /// The actions of the move being made, chosen and forced.
    path: ActionList,
    /// Bit `i` set when `path[i]` was chosen by the player (not forced).
    chosen: u16,
}

impl PartialMove {
    #[must_use]
    pub const fn new() -> PartialMove {
        PartialMove {
            path: ActionList::new(),
            chosen: 0,
        }
    }

    /// The actions of the move being made, forced ones included (empty between moves).
    #[must_use]
    pub fn path(&self) -> &ActionList {
        &self.path
    }

    /// The actions the player chose in the move being made.
    #[must_use]
    pub fn chosen(&self) -> ActionList {
        let mut out = ActionList::new();
        for (i, action) in self.path.iter().enumerate() {
            if self.chosen & (1 << i) != 0 {
                out.push(action);
            }
        }
        out
    }

    /// Whether no action of a move has been taken (the state is between moves).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.path.is_empty()
    }

    pub fn clear(&mut self) {
        *self = PartialMove::new();
    }

    /// Calls `visit` once for every legal action of `state` with this part of a move taken,
    /// in no particular order.
    pub fn for_each_legal_action<G: ActionEncoding>(
        &self,
        state: &G,
        mut visit: impl FnMut(usize),
    ) {
        let depth = self.path.len();
        if depth == 0 {
            if !state.is_terminal() {
                state.for_each_first_action(&mut visit);
            }
            return;
        }
        let mut seen = ActionSet::new();
        let _ = scan_candidates(state, &self.path, &mut |_, list| {
            if let Some(action) = list.get(depth) {
                if seen.insert(action) {
                    visit(action);
                }
            }
            ControlFlow::<()>::Continue(())
        });
    }

    /// The legal actions, ascending.
    pub fn legal_actions<G: ActionEncoding>(&self, state: &G) -> Vec<usize> {
        let mut out = Vec::new();
        self.for_each_legal_action(state, |a| out.push(a));
        out.sort_unstable();
        out
    }

    /// Marks the legal actions in `mask` (`NUM_DISTINCT_ACTIONS` long, cleared by the caller).
    pub fn write_mask<G: ActionEncoding>(&self, state: &G, mask: &mut [bool]) {
        self.for_each_legal_action(state, |a| mask[a] = true);
    }

    /// A uniformly random legal action (`pick(n)` returns a number below `n`), by reservoir
    /// sampling in one pass: the k-th action replaces the choice with probability 1/k.
    /// `None` when the game is over.
    pub fn random_action<G: ActionEncoding>(
        &self,
        state: &G,
        mut pick: impl FnMut(u64) -> u64,
    ) -> Option<usize> {
        let mut seen = 0u64;
        let mut chosen = None;
        self.for_each_legal_action(state, |a| {
            seen += 1;
            if pick(seen) == 0 {
                chosen = Some(a);
            }
        });
        chosen
    }

    /// Takes the legal action `action` of `state` and the forced ones after it. When that
    /// completes a move, the move is returned, not played, and this is empty again (the
    /// caller plays the move). `None`, with nothing changed, when the action is not legal.
    pub fn take<G: ActionEncoding>(&mut self, state: &G, action: usize) -> Option<Taken<G::Move>> {
        if action >= G::NUM_DISTINCT_ACTIONS || state.is_terminal() {
            return None;
        }
        if self.path.is_empty() {
            match state.quick_take(action) {
                QuickTake::Illegal => return None,
                QuickTake::Move(mv) => return Some(Taken::Move(mv)),
                QuickTake::Choice => {
                    self.path.push(action);
                    self.chosen = 1;
                    return Some(Taken::Continues);
                }
                QuickTake::Unknown => {}
            }
        }
        let before = *self;
        self.chosen |= 1 << self.path.len();
        self.path.push(action);
        loop {
            match continuation(state, &self.path) {
                Continuation::None => {
                    *self = before;
                    return None;
                }
                Continuation::Only(mv) => {
                    self.clear();
                    return Some(Taken::Move(mv));
                }
                Continuation::Forced(next) => self.path.push(next),
                Continuation::Choice => return Some(Taken::Continues),
            }
        }
    }

    /// What taking `action` would do, without taking it.
    pub fn peek<G: ActionEncoding>(&self, state: &G, action: usize) -> Option<Taken<G::Move>> {
        let mut copy = *self;
        copy.take(state, action)
    }

    /// Calls `visit` for every legal move of `state` that begins with the actions taken.
    pub fn for_each_candidate<G: ActionEncoding>(&self, state: &G, mut visit: impl FnMut(G::Move)) {
        let _ = scan_candidates(state, &self.path, &mut |mv, _| {
            visit(mv);
            ControlFlow::<()>::Continue(())
        });
    }

    /// Whether the legal move `mv` of `state` begins with the actions taken.
    pub fn allows<G: ActionEncoding>(&self, state: &G, mv: G::Move) -> bool {
        if self.path.is_empty() {
            return true;
        }
        let mut list = ActionList::new();
        state.move_actions(mv, &mut list);
        list.starts_with(&self.path)
    }

    /// The actions still to choose, from here, to make the legal move `mv` of `state`
    /// (which these actions allow).
    pub fn actions_to<G: ActionEncoding>(&self, state: &G, mv: G::Move) -> ActionList {
        let mut list = ActionList::new();
        state.move_actions(mv, &mut list);
        let mut partial = *self;
        let mut out = ActionList::new();
        while let Some(action) = list.get(partial.path.len()) {
            out.push(action);
            match partial.take(state, action) {
                Some(Taken::Continues) => {}
                _ => break,
            }
        }
        out
    }

    /// Takes back the last chosen action (and the forced ones after it); `false` when no
    /// action of this move has been taken.
    pub fn untake<G: ActionEncoding>(&mut self, state: &G) -> bool {
        let mut chosen = self.chosen();
        if chosen.pop().is_none() {
            return false;
        }
        self.clear();
        for action in chosen.iter() {
            let taken = self.take(state, action);
            debug_assert_eq!(taken, Some(Taken::Continues));
        }
        true
    }

    /// Writes the observation of `state`, with this part of a move taken, from `player`'s
    /// point of view.
    pub fn observe<G: Observation>(&self, state: &G, player: usize, out: &mut [f32]) {
        state.observation(self.path.as_slice(), player, out);
    }
}

/// The actions a player chooses to make the legal move `mv` of `state`, in order.
pub fn chosen_actions<G: ActionEncoding>(state: &G, mv: G::Move) -> ActionList {
    PartialMove::new().actions_to(state, mv)
}

/// The most actions a game of `G` with ply limit `max_plies` can take from its start.
pub fn max_game_length<G: ActionEncoding>(max_plies: u64) -> u64 {
    max_plies.saturating_mul(G::MAX_CHOSEN_ACTIONS as u64)
}

/// `part / whole` capped at 1 (1 when `whole` is 0), for observation tensors: divided in
/// `f64` and rounded once to `f32`, so that any implementation computing it the same way
/// gets the same bits.
#[must_use]
pub const fn fraction(part: u64, whole: u64) -> f32 {
    if whole == 0 || part >= whole {
        1.0
    } else {
        (part as f64 / whole as f64) as f32
    }
}
