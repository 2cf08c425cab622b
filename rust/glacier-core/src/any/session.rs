//! A checked session of any game ([`crate::Session`]), with the last listing of its legal
//! moves kept so that a move of it is played without reading its text again, and perft.

use super::{each, mid_move, AnyGame, AnyState, Registered, Sessions, Variants};
use crate::interrupt::{Interrupt, Stopped};
use crate::perft::{perft_no_bulk_until, with_table};
use crate::session::{LegalActions, MoveList, MoveTexts};
use crate::{parallel, ActionEncoding, Error, FullGame, Game, Notation, ParamValue, Session};
use std::sync::{Mutex, PoisonError};

/// A session with its last listing of legal moves ([`AnySession::list_moves`]).
#[derive(Debug)]
pub(super) struct Kept<G: FullGame> {
    session: Session<G>,
    listed: Mutex<Listing<G::Move>>,
}

/// The moves last listed (`current` while the session has not changed since) and room for
/// the legal actions.
#[derive(Debug)]
struct Listing<M> {
    moves: MoveList<M>,
    current: bool,
    actions: LegalActions,
}

impl<G: FullGame> Kept<G> {
    fn new(session: Session<G>) -> Self {
        Kept {
            session,
            listed: Mutex::new(Listing {
                moves: MoveList::new(),
                current: false,
                actions: LegalActions::new(),
            }),
        }
    }

    /// The session, about to change: the listing is no longer its.
    fn changing(&mut self) -> &mut Session<G> {
        self.listed
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .current = false;
        &mut self.session
    }
}

impl<G: FullGame> Clone for Kept<G> {
    fn clone(&self) -> Self {
        Kept::new(self.session.clone())
    }
}

/// A checked session of any game, as [`AnyGame::session`] makes it: the state, its history
/// for `undo`, and the actions taken in the move being made.
#[derive(Debug, Clone)]
pub struct AnySession(Sessions);

/// Runs `$body` with `$s` the `Kept<G>` of the session `$value`.
macro_rules! kept {
    ($value:expr, $s:pat, $G:ident => $body:expr) => {
        each!($value, Sessions, $s, $G => $body)
    };
}

impl AnySession {
    pub(super) fn of<G: Registered>(session: Session<G>) -> Self {
        AnySession(G::session(Box::new(Kept::new(session))))
    }

    /// The game.
    #[must_use]
    pub fn game(&self) -> AnyGame {
        kept!(&self.0, _, G => <G as Variants>::game())
    }

    /// A copy with the last `plies` of the kept history (`None`: all of it).
    #[must_use]
    pub fn copy_with_history(&self, plies: Option<usize>) -> Self {
        kept!(&self.0, s, G => Self::of(s.session.copy_with_history(plies)))
    }

    /// The state between moves, to search from; an error in the middle of a move.
    pub fn search_root(&self) -> Result<AnyState, Error> {
        kept!(&self.0, s, G => {
            if !s.session.partial().is_empty() {
                return Err(mid_move());
            }
            Ok(s.session.state().clone().into_any())
        })
    }

    #[must_use]
    pub fn history_limit(&self) -> Option<usize> {
        kept!(&self.0, s, G => s.session.history_limit())
    }

    pub fn set_history_limit(&mut self, limit: Option<usize>) {
        kept!(&mut self.0, s, G => s.session.set_history_limit(limit));
    }

    #[must_use]
    pub fn param_pairs(&self) -> Vec<(&'static str, ParamValue)> {
        kept!(&self.0, s, G => s.session.param_pairs())
    }

    #[must_use]
    pub fn initial_text(&self) -> String {
        kept!(&self.0, s, G => s.session.initial_text())
    }

    /// Lists the legal moves ([`Session::list_moves`]) and hands them to `read`, with
    /// whether the listing was kept: then, until the session changes, move `i` of it is
    /// played by [`AnySession::play_listed`]. (It is not kept when `read` of another
    /// listing of this session is running: a listing started from inside `read`.)
    pub fn list_moves<R>(&self, read: impl FnOnce(MoveTexts<'_>, bool) -> R) -> R {
        kept!(&self.0, s, G => match s.listed.try_lock() {
            Ok(mut listed) => {
                s.session.list_moves(&mut listed.moves);
                listed.current = true;
                s.session.move_texts(&listed.moves, |texts| read(texts, true))
            }
            Err(_) => {
                let mut moves = MoveList::new();
                s.session.list_moves(&mut moves);
                s.session.move_texts(&moves, |texts| read(texts, false))
            }
        })
    }

    /// Plays move `i` of the listing kept by [`AnySession::list_moves`]; `false`, with
    /// nothing played, when the session changed since (or there is no such move).
    pub fn play_listed(&mut self, i: usize) -> bool {
        kept!(&mut self.0, s, G => {
            let listed = s.listed.get_mut().unwrap_or_else(PoisonError::into_inner);
            let found = listed.current.then(|| listed.moves.get(i)).flatten();
            let Some(mv) = found else {
                return false;
            };
            listed.current = false;
            s.session.play_move(mv);
            true
        })
    }

    /// The legal moves' texts in ascending code-point order.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<String> {
        kept!(&self.0, s, G => s.session.legal_moves())
    }

    /// Plays a move given as text; on error the session is unchanged.
    pub fn play(&mut self, text: &str) -> Result<(), Error> {
        kept!(&mut self.0, s, G => s.changing().play(text))
    }

    /// The most actions a game with these parameters can take from its start.
    #[must_use]
    pub fn max_game_length(&self) -> u64 {
        kept!(&self.0, s, G => s.session.max_game_length())
    }

    /// Hands the legal actions, ascending, to `read`.
    pub fn legal_actions<R>(&self, read: impl FnOnce(&[usize]) -> R) -> R {
        kept!(&self.0, s, G => match s.listed.try_lock() {
            Ok(mut listed) => read(s.session.list_legal_actions(&mut listed.actions)),
            Err(_) => read(&s.session.legal_actions()),
        })
    }

    /// Marks the legal actions in `out` (`num_distinct_actions` long, cleared).
    pub fn legal_action_mask(&self, out: &mut [bool]) {
        kept!(&self.0, s, G => s.session.partial().write_mask(s.session.state(), out));
    }

    /// Takes an action ([`Session::apply_action`]).
    pub fn apply_action(&mut self, action: usize) -> Result<(), Error> {
        kept!(&mut self.0, s, G => s.changing().apply_action(action))
    }

    /// The error for an action (shown as given) that is not legal here.
    #[must_use]
    pub fn illegal_action(&self, shown: &str) -> Error {
        kept!(&self.0, s, G => s.session.illegal_action(shown))
    }

    /// The text of the move a legal action completes ([`Session::action_move`]).
    pub fn action_move(&self, action: usize) -> Result<Option<String>, Error> {
        kept!(&self.0, s, G => s.session.action_move(action))
    }

    /// Writes the observation from `player`'s point of view into `out` (zeroed).
    pub fn observe(&self, player: usize, out: &mut [f32]) {
        kept!(&self.0, s, G => s.session.observe(player, out));
    }

    pub fn undo_action(&mut self) -> Result<usize, Error> {
        kept!(&mut self.0, s, G => s.changing().undo_action())
    }

    /// The actions to choose from here to make the legal move `text`.
    pub fn move_actions(&self, text: &str) -> Result<Vec<usize>, Error> {
        kept!(&self.0, s, G => s.session.move_actions(text))
    }

    #[must_use]
    pub fn pending_actions(&self) -> Vec<usize> {
        kept!(&self.0, s, G => s.session.pending_actions().iter().collect())
    }

    #[must_use]
    pub fn action_history(&self) -> Vec<usize> {
        kept!(&self.0, s, G => s.session.action_history())
    }

    pub fn undo(&mut self) -> Result<String, Error> {
        kept!(&mut self.0, s, G => s.changing().undo())
    }

    #[must_use]
    pub fn moves_played(&self) -> Vec<String> {
        kept!(&self.0, s, G => s.session.moves_played())
    }

    #[must_use]
    pub fn text(&self) -> String {
        kept!(&self.0, s, G => s.session.state().text())
    }

    #[must_use]
    pub fn board_string(&self) -> String {
        kept!(&self.0, s, G => s.session.state().board_string())
    }

    #[must_use]
    pub fn hash(&self) -> u64 {
        kept!(&self.0, s, G => s.session.state().hash())
    }

    #[must_use]
    pub fn hash_from_scratch(&self) -> u64 {
        kept!(&self.0, s, G => s.session.state().hash_from_scratch())
    }

    #[must_use]
    pub fn current_player(&self) -> usize {
        kept!(&self.0, s, G => s.session.state().current_player())
    }

    #[must_use]
    pub fn num_players(&self) -> usize {
        kept!(&self.0, s, G => s.session.state().num_players())
    }

    #[must_use]
    pub fn is_terminal(&self) -> bool {
        kept!(&self.0, s, G => s.session.state().is_terminal())
    }

    #[must_use]
    pub fn ended_by_ply_limit(&self) -> bool {
        kept!(&self.0, s, G => s.session.state().ended_by_ply_limit())
    }

    /// Every player's value by the game's heuristic ([`crate::search::Heuristic`]), each in
    /// `[-1, 1]`; the returns once the game is over.
    #[must_use]
    pub fn heuristic(&self) -> Vec<f32> {
        kept!(&self.0, s, G => {
            let state = s.session.state();
            let values = if state.is_terminal() {
                crate::search::terminal_values(state)
            } else {
                crate::search::heuristic_values(state)
            };
            values[..state.num_players()].to_vec()
        })
    }

    /// Every player's return ([`crate::Outcome::returns`]).
    #[must_use]
    pub fn returns(&self) -> Vec<f64> {
        kept!(&self.0, s, G => {
            let state = s.session.state();
            state.outcome().returns(state.num_players())
        })
    }

    /// Perft of the state to `depth` on `threads` threads (0 = every core): counting the
    /// last ply in bulk or playing it (`bulk`, on one thread), and with a table of
    /// `hash_mb` MiB if above 0 ([`crate::perft::with_table`], in bulk). An error when the
    /// table cannot be made; stopped by `interrupt`.
    pub fn perft(
        &self,
        depth: u32,
        bulk: bool,
        threads: usize,
        hash_mb: usize,
        interrupt: &Interrupt<'_>,
    ) -> Result<Result<u64, Error>, Stopped> {
        kept!(&self.0, s, G => {
            let state = s.session.state();
            if hash_mb > 0 {
                let counted = with_table(hash_mb, |table| {
                    parallel::perft_hashed_until(state, depth, threads, table, interrupt)
                });
                return match counted {
                    Ok(Ok(nodes)) => Ok(Ok(nodes)),
                    Ok(Err(stopped)) => Err(stopped),
                    Err(error) => Ok(Err(error)),
                };
            }
            if bulk {
                return parallel::perft_until(state, depth, threads, interrupt).map(Ok);
            }
            let nodes = perft_no_bulk_until(state, depth, &mut interrupt.caller());
            interrupt.result(nodes).map(Ok)
        })
    }

    /// Perft below each legal move, in move order ([`crate::parallel::divide_until`]).
    pub fn perft_divide(
        &self,
        depth: u32,
        threads: usize,
        interrupt: &Interrupt<'_>,
    ) -> Result<Vec<(String, u64)>, Stopped> {
        kept!(&self.0, s, G => parallel::divide_until(s.session.state(), depth, threads, interrupt))
    }
}
