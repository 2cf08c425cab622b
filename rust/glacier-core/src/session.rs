//! A game with its history: the checked, text-based API the bindings expose, for whole
//! moves and for actions (a move may take several, see [`crate::actions`]).

mod listing;

pub use listing::{LegalActions, MoveList, MoveTexts};

use crate::actions::{chosen_actions, max_game_length, PartialMove, Taken};
use crate::game::{params_for_text, params_from};
use crate::params::max_plies;
use crate::{ActionEncoding, ActionList, Error, GameParams, Notation, Observation, ParamValue};
use listing::MoveOrder;
use std::collections::VecDeque;
use std::sync::Arc;

/// A state plus the states before it, so `undo` is a pop (copy-make keeps it cheap).
#[derive(Debug, Clone)]
pub struct Session<G: Notation + ActionEncoding> {
    state: G,
    /// The earlier states kept, each with the move played from it, oldest first.
    history: VecDeque<(G, G::Move)>,
    /// The most plies `history` keeps (`None`: every one); older plies are dropped as new
    /// ones are played, so a long game takes the same memory at every ply.
    history_limit: Option<usize>,
    /// Whether plies before the oldest kept one were dropped (by the limit, or by a copy
    /// without them): `undo` then says so instead of "no move to undo".
    dropped: bool,
    /// The text of the state the kept history starts from, when nothing was dropped (with
    /// the moves it rebuilds the session, e.g. when pickled); shared by copies.
    initial_text: Arc<str>,
    /// The actions taken so far in the move being made (empty between moves).
    partial: PartialMove,
    /// How the game's legal moves are put in the order of their texts.
    order: &'static MoveOrder,
}

impl<G: Notation + ActionEncoding> Session<G> {
    pub fn new(params: &[(&str, ParamValue)]) -> Result<Self, Error> {
        Ok(Self::from_state(G::start(&params_from::<G>(params)?)))
    }

    /// The position `text`, with the parameters given and those the text states itself.
    pub fn from_text(text: &str, params: &[(&str, ParamValue)]) -> Result<Self, Error> {
        let params = params_for_text::<G>(text, params)?;
        Ok(Self::from_state(G::from_text(text, &params)?))
    }

    pub fn from_state(state: G) -> Self {
        let initial_text = state.text().into();
        Session {
            state,
            history: VecDeque::new(),
            history_limit: None,
            dropped: false,
            initial_text,
            partial: PartialMove::new(),
            order: MoveOrder::of::<G>(),
        }
    }

    pub fn state(&self) -> &G {
        &self.state
    }

    /// The text of the state the kept history starts from: the start of the session, or,
    /// once plies were dropped, the state before the oldest ply kept.
    pub fn initial_text(&self) -> String {
        if self.dropped {
            self.history
                .front()
                .map_or(&self.state, |(state, _)| state)
                .text()
        } else {
            self.initial_text.to_string()
        }
    }

    /// The most plies kept for `undo` (`None`: every one).
    pub fn history_limit(&self) -> Option<usize> {
        self.history_limit
    }

    /// Keeps at most `limit` plies for `undo` from now on (`None`: every one), dropping the
    /// oldest plies beyond it at once.
    pub fn set_history_limit(&mut self, limit: Option<usize>) {
        self.history_limit = limit;
        self.trim_history();
    }

    fn trim_history(&mut self) {
        if let Some(limit) = self.history_limit {
            while self.history.len() > limit {
                self.history.pop_front();
                self.dropped = true;
            }
        }
    }

    /// A copy of this session with the last `plies` of its kept history (`None`: all of
    /// it); the copy keeps the same history limit.
    pub fn copy_with_history(&self, plies: Option<usize>) -> Self {
        let kept = plies.map_or(self.history.len(), |p| p.min(self.history.len()));
        let skip = self.history.len() - kept;
        let dropped = self.dropped || skip > 0;
        Session {
            state: self.state.clone(),
            history: if kept == 0 {
                VecDeque::new()
            } else {
                self.history.iter().skip(skip).cloned().collect()
            },
            history_limit: self.history_limit,
            dropped,
            // Unread once plies were dropped ([`Session::initial_text`]), but shared anyway:
            // a copy allocates nothing for it.
            initial_text: self.initial_text.clone(),
            partial: self.partial,
            order: self.order,
        }
    }

    /// The error of an `undo` with no kept ply left.
    fn nothing_kept(&self) -> Error {
        if self.dropped {
            Error::HistoryNotKept(match self.history_limit {
                Some(limit) => format!(
                    "cannot undo further: this state keeps only its last {limit} plies \
                     (history_limit={limit}), or was copied without the plies before"
                ),
                None => "cannot undo further: this state was copied without the plies before \
                         (copy(history=True) keeps them)"
                    .to_string(),
            })
        } else {
            Error::NothingToUndo
        }
    }

    /// The parameters as `(name, value)` pairs.
    pub fn param_pairs(&self) -> Vec<(&'static str, ParamValue)> {
        <G::Params as GameParams>::SPECS
            .iter()
            .map(|s| s.name)
            .zip(self.state.params().values())
            .collect()
    }

    /// Legal moves as text, in ascending code-point order: in the middle of a move, those
    /// that begin with the actions taken.
    pub fn legal_moves(&self) -> Vec<String> {
        let mut list = MoveList::new();
        self.list_moves(&mut list);
        self.move_texts(&list, |texts| {
            (0..texts.len())
                .map(|i| {
                    let mut text = String::new();
                    texts.write_text(i, &mut text);
                    text
                })
                .collect()
        })
    }

    /// Lists the legal moves into `list` (room kept from call to call) in ascending
    /// code-point order of their texts, as [`Session::legal_moves`] gives them, each with
    /// its text key ([`MoveTexts::text_key`]): the moves are put in order by numbers where
    /// the game gives them, and only the texts of the moves without a key are written, so
    /// that a binding that keeps one string per key writes only the texts it has not seen.
    pub fn list_moves(&self, list: &mut MoveList<G::Move>) {
        list.fill(&self.state, &self.partial, self.order);
    }

    /// Hands `read` the text keys and texts of `list`, a listing of this session's state
    /// (unchanged since).
    pub fn move_texts<R>(
        &self,
        list: &MoveList<G::Move>,
        read: impl FnOnce(MoveTexts<'_>) -> R,
    ) -> R {
        let write = |i: usize, out: &mut String| {
            if let Some(mv) = list.get(i) {
                self.state.write_move_text(mv, out);
            }
        };
        read(list.texts(&write))
    }

    /// The legal actions, ascending, in `room` (kept from call to call): as
    /// [`Session::legal_actions`] without a sort.
    pub fn list_legal_actions<'a>(&self, room: &'a mut LegalActions) -> &'a [usize] {
        room.list(&self.state, &self.partial)
    }

    /// The most actions a game with these parameters can take from its start (its ply
    /// limit times the most actions one move takes).
    pub fn max_game_length(&self) -> u64 {
        max_game_length::<G>(max_plies(self.state.params()))
    }

    /// Plays a move given as text; on error the session is unchanged.
    pub fn play(&mut self, text: &str) -> Result<(), Error> {
        // A game of one action per move finds the move by its action, without parsing.
        if let Some(action) = self.order.action_named(text) {
            if let Some(Taken::Move(mv)) = self.partial.peek(&self.state, action) {
                self.play_move(mv);
                return Ok(());
            }
        }
        let mv = self.legal_move(text)?;
        self.play_move(mv);
        Ok(())
    }

    /// The legal move `text` names, which must also begin with the actions already taken in
    /// the move being made (if any).
    fn legal_move(&self, text: &str) -> Result<G::Move, Error> {
        if self.state.is_terminal() {
            return Err(Error::IllegalMove(format!(
                "cannot play {text}: the game is over",
                text = crate::notation::Quoted(text)
            )));
        }
        let mv = self.state.parse_move(text)?;
        if !self.partial.allows(&self.state, mv) {
            return Err(Error::IllegalMove(format!(
                "{text} does not begin with the actions already taken in this move ({})",
                self.pending_text(),
                text = crate::notation::Quoted(text)
            )));
        }
        Ok(mv)
    }

    /// Plays a move produced by the state's own move generator (and allowed by the actions
    /// taken in it so far, if any).
    pub fn play_move(&mut self, mv: G::Move) {
        let before = self.state.clone();
        self.state.play_unchecked(mv);
        self.history.push_back((before, mv));
        self.trim_history();
        self.partial.clear();
    }

    /// Takes back the last move and returns its text (not in the middle of a move: the
    /// actions taken in it are taken back by [`Session::undo_action`]).
    pub fn undo(&mut self) -> Result<String, Error> {
        if !self.partial.is_empty() {
            return Err(Error::IllegalMove(format!(
                "a move is being made (actions {} taken): undo_action() takes them back",
                self.pending_text()
            )));
        }
        let (before, mv) = self.history.pop_back().ok_or_else(|| self.nothing_kept())?;
        let text = before.move_text(mv);
        self.state = before;
        Ok(text)
    }

    /// The moves played since the session started (those kept), as text.
    pub fn moves_played(&self) -> Vec<String> {
        self.history
            .iter()
            .map(|(state, mv)| state.move_text(*mv))
            .collect()
    }

    pub fn ply_count(&self) -> usize {
        self.history.len()
    }
}

impl<G: Notation + ActionEncoding> Session<G> {
    /// The legal actions, ascending (see [`ActionEncoding`]).
    pub fn legal_actions(&self) -> Vec<usize> {
        self.partial.legal_actions(&self.state)
    }

    /// The move being made, as far as it goes.
    pub fn partial(&self) -> &PartialMove {
        &self.partial
    }

    /// The actions chosen so far in the move being made.
    pub fn pending_actions(&self) -> ActionList {
        self.partial.chosen()
    }

    fn pending_text(&self) -> String {
        let actions: Vec<String> = self
            .pending_actions()
            .iter()
            .map(|a| a.to_string())
            .collect();
        actions.join(", ")
    }

    /// The error for `action` (any number, in its own words) when it is not legal here.
    pub fn illegal_action(&self, action: impl std::fmt::Display) -> Error {
        if self.state.is_terminal() {
            return Error::IllegalMove(format!("cannot take action {action}: the game is over"));
        }
        let legal = self.legal_actions();
        let listed: Vec<String> = legal.iter().take(12).map(|a| a.to_string()).collect();
        let more = if legal.len() > 12 { ", ..." } else { "" };
        Error::IllegalMove(format!(
            "action {action} is not legal here (legal: {}{more})",
            listed.join(", ")
        ))
    }

    /// Takes an action: the move it completes is played; otherwise the same player takes
    /// another. On error the session is unchanged.
    pub fn apply_action(&mut self, action: usize) -> Result<(), Error> {
        match self.partial.take(&self.state, action) {
            Some(Taken::Move(mv)) => {
                self.play_move(mv);
                Ok(())
            }
            Some(Taken::Continues) => Ok(()),
            None => Err(self.illegal_action(action)),
        }
    }

    /// The text of the move a legal action completes, or `None` when the move goes on after
    /// it.
    pub fn action_move(&self, action: usize) -> Result<Option<String>, Error> {
        match self.partial.peek(&self.state, action) {
            Some(Taken::Move(mv)) => Ok(Some(self.state.move_text(mv))),
            Some(Taken::Continues) => Ok(None),
            None => Err(self.illegal_action(action)),
        }
    }

    /// The actions to choose, from here, to make the legal move `text` (in the middle of a
    /// move, the rest of them).
    pub fn move_actions(&self, text: &str) -> Result<Vec<usize>, Error> {
        let mv = self.legal_move(text)?;
        Ok(self.partial.actions_to(&self.state, mv).iter().collect())
    }

    /// Takes back the last action chosen (in the move being made, or else the last action
    /// of the last move, which leaves that move half made) and returns it.
    pub fn undo_action(&mut self) -> Result<usize, Error> {
        if let Some(last) = self.partial.chosen().pop() {
            self.partial.untake(&self.state);
            return Ok(last);
        }
        let (before, mv) = self.history.pop_back().ok_or_else(|| self.nothing_kept())?;
        let mut chosen = chosen_actions(&before, mv);
        let last = chosen.pop().unwrap_or_default();
        self.state = before;
        self.partial.clear();
        for action in chosen.iter() {
            let _ = self.partial.take(&self.state, action);
        }
        Ok(last)
    }

    /// Every action chosen since the session started (each move's, then the move being
    /// made's): replayed from the start, they rebuild the session.
    pub fn action_history(&self) -> Vec<usize> {
        let mut out: Vec<usize> = self
            .history
            .iter()
            .flat_map(|(state, mv)| chosen_actions(state, *mv).iter().collect::<Vec<_>>())
            .collect();
        out.extend(self.partial.chosen().iter());
        out
    }

    /// Writes the observation from `player`'s point of view.
    pub fn observe(&self, player: usize, out: &mut [f32])
    where
        G: Observation,
    {
        self.partial.observe(&self.state, player, out);
    }
}
