//! Many games stepped at once, for learning programs: the core of the batched environment.
//!
//! Actions are the game's fixed action numbers ([`ActionEncoding`]); a move may take several
//! (see [`crate::actions`]), and the states between them are states like any other: the
//! same player to move, a legal-action mask, an observation. Every environment can be reset
//! on its own. An environment may also play against a built-in opponent: the agent holds one
//! seat and every other seat plays uniformly random moves, in Rust, as part of the step.
//!
//! Large batches are split over threads. Each environment draws its random actions from
//! its own generator, so results never depend on the thread count.
//!
//! Masks and observations are written into buffers the caller keeps from one step to the
//! next, and only what changed is written: for each of up to [`VIEWS`] buffers of each kind,
//! every environment remembers what its row holds (the actions set in its mask; the state,
//! move being made and point of view its observation shows). A caller that alternates two
//! buffers has each written with the changes of two plies, which from one player's point of
//! view are few, where one buffer would see the board turned at every ply. In a large batch
//! the rows are far bigger than the caches, and the lines a step writes are most of its time.

use crate::actions::{PartialMove, QuickTake, Taken};
use crate::interrupt::Stopped;
use crate::rng::SplitMix64;
use crate::threads::chunks::{checked_chunks, chunked, chunked_read, Given, Per, Split};
use crate::threads::pool::Workers;
use crate::threads::thread_count;
use crate::{Error, FullGame};

/// How many buffers of each kind (masks, observations) the environments keep track of.
pub const VIEWS: usize = 2;

/// A kept mask buffer for [`VecEnv::step_and_write`]: num_envs x `NUM_DISTINCT_ACTIONS`,
/// buffer `view` (below [`VIEWS`]), to be written whole when `fresh`.
#[derive(Debug)]
pub struct MaskOut<'a> {
    pub out: &'a mut [bool],
    pub view: usize,
    pub fresh: bool,
}

/// A kept observation buffer for [`VecEnv::step_and_write`], from `player`'s point of view
/// (each environment's player to move when `None`), as [`MaskOut`].
#[derive(Debug)]
pub struct ObservationOut<'a> {
    pub out: &'a mut [f32],
    pub player: Option<usize>,
    pub view: usize,
    pub fresh: bool,
}

/// What one environment's row of a kept observation buffer shows: the state, with its move
/// being made, from a player's point of view.
#[derive(Debug, Clone)]
struct Shown<G> {
    state: G,
    partial: PartialMove,
    player: usize,
}

/// One environment: its game, the move being made, the plies of its current episode and
/// its random stream; and, during a step, what its action does.
#[derive(Debug, Clone)]
struct Slot<G: FullGame> {
    state: G,
    partial: PartialMove,
    length: u32,
    rng: SplitMix64,
    resolved: Resolved<G::Move>,
    result: StepResult,
    /// Whether `state` is over, worked out once per change of the state: in some games
    /// (Ice Age Chess) asking takes a move generation.
    terminal: bool,
    /// The legal actions, while `legal_known` (the state and the move being made have not
    /// changed since they were found); in games whose moves are one action each, between
    /// moves, with the move of each in `moves`, in the same order, so that the next step
    /// finds its move without generating the moves again.
    legal: Vec<u16>,
    moves: Vec<G::Move>,
    legal_known: bool,
}

impl<G: FullGame> Slot<G> {
    fn restart(&mut self, start: &G, start_terminal: bool) {
        self.state = start.clone();
        self.partial.clear();
        self.length = 0;
        self.terminal = start_terminal;
        self.legal_known = false;
    }

    /// Plays `mv`, which completes the move being made. With `find_moves` (the legal
    /// actions are wanted next, for a mask), in games of one action per move, the moves
    /// generated for them also tell whether the game is over: it is exactly when the player
    /// to move has none (asking the state may generate them a second time).
    fn play(&mut self, mv: G::Move, find_moves: bool) {
        self.partial.clear();
        self.state.play_unchecked(mv);
        self.length += 1;
        self.legal_known = false;
        if G::ONE_ACTION_MOVES && find_moves {
            self.terminal = false;
            self.find_legal();
            self.terminal = self.legal.is_empty();
        } else {
            self.terminal = self.state.is_terminal();
        }
    }

    /// Does what this step's resolved action does, writing `returns` (this environment's
    /// row) and `result` where the episode ends; restarts it then with `auto_reset`.
    /// `masked`: a mask is written next.
    fn advance(
        &mut self,
        returns: &mut [f64],
        start: &G,
        start_terminal: bool,
        auto_reset: bool,
        agent: Option<usize>,
        masked: bool,
    ) {
        self.result = StepResult::default();
        let mover = agent.unwrap_or_else(|| self.state.current_player());
        match self.resolved {
            Resolved::Idle | Resolved::Illegal => return,
            Resolved::Continues(partial) => {
                self.partial = partial;
                self.legal_known = false;
                return;
            }
            Resolved::Move(mv) => {
                self.play(mv, masked && agent.is_none());
                if let Some(agent) = agent {
                    self.play_opponents(agent);
                }
            }
        }
        if self.terminal {
            let truncated = self.state.ended_by_ply_limit();
            returns.copy_from_slice(&self.state.outcome().returns(returns.len()));
            self.result = StepResult {
                terminated: !truncated,
                truncated,
                episode_length: self.length,
                reward: returns[mover],
            };
            if auto_reset {
                self.restart(start, start_terminal);
                if let Some(agent) = agent {
                    self.play_opponents(agent);
                }
            }
        }
    }

    /// Finds the legal actions (and, where one action is one move, the moves) unless they
    /// are known already.
    fn find_legal(&mut self) {
        if self.legal_known {
            return;
        }
        let (mut legal, mut moves) = (
            std::mem::take(&mut self.legal),
            std::mem::take(&mut self.moves),
        );
        legal.clear();
        moves.clear();
        if G::ONE_ACTION_MOVES && self.partial.is_empty() {
            if !self.terminal {
                self.state.moves_and_actions(&mut legal, &mut moves);
            }
        } else {
            self.for_each_legal_action(|a| legal.push(a as u16));
        }
        (self.legal, self.moves, self.legal_known) = (legal, moves, true);
    }

    /// Whether `moves` holds the move of each action of `legal`.
    fn moves_known(&self) -> bool {
        self.legal_known && G::ONE_ACTION_MOVES && self.partial.is_empty()
    }

    /// Brings this environment's row of a kept mask buffer up to date, `masked` being the
    /// actions the row holds (`None`: unknown): clears them (the whole row when `fresh` or
    /// unknown), sets the legal ones. (Writing only the difference of the two sets was
    /// measured slower: its branches are as random as the sets, and the lines it spares
    /// are few.)
    fn write_mask(&mut self, row: &mut [bool], masked: &mut Option<Vec<u16>>, fresh: bool) {
        self.find_legal();
        match masked {
            Some(set) if !fresh => {
                for &a in set.iter() {
                    row[usize::from(a)] = false;
                }
            }
            _ => row.fill(false),
        }
        for &a in &self.legal {
            row[usize::from(a)] = true;
        }
        masked.get_or_insert_with(Vec::new).clone_from(&self.legal);
    }

    /// Brings this environment's row of a kept observation buffer up to date, `shown`
    /// being what it shows (`None`: unknown), from `player`'s point of view (the player to
    /// move's when `None`): from that (afresh when `fresh` or unknown) to this state's
    /// observation.
    fn write_observation(
        &self,
        row: &mut [f32],
        shown: &mut Option<Shown<G>>,
        player: Option<usize>,
        fresh: bool,
    ) {
        let who = player.unwrap_or_else(|| self.state.current_player());
        let (state, partial) = (&self.state, self.partial);
        let pending = partial.path().as_slice();
        match shown {
            Some(old) if !fresh => {
                let old_pending = old.partial.path().as_slice();
                state.update_observation(pending, who, &old.state, old_pending, old.player, row);
                old.state.clone_from(state);
                (old.partial, old.player) = (partial, who);
            }
            shown => {
                row.fill(0.0);
                state.observation(pending, who, row);
                *shown = Some(Shown {
                    state: state.clone(),
                    partial,
                    player: who,
                });
            }
        }
    }

    /// Calls `visit` for every legal action, as [`PartialMove::for_each_legal_action`]
    /// does (in the same order), but without asking the state again whether it is over.
    fn for_each_legal_action(&self, visit: impl FnMut(usize)) {
        if self.partial.is_empty() {
            let mut visit = visit;
            if !self.terminal {
                self.state.for_each_first_action(&mut visit);
            }
        } else {
            self.partial.for_each_legal_action(&self.state, visit);
        }
    }

    /// Plays uniformly random whole moves for every seat but `agent` until the agent is to
    /// move or the game is over.
    fn play_opponents(&mut self, agent: usize) {
        while !self.terminal && self.state.current_player() != agent {
            let mut seen = 0u64;
            let mut chosen = None;
            let rng = &mut self.rng;
            self.state.generate_moves(&mut |mv| {
                seen += 1;
                if rng.below(seen) == 0 {
                    chosen = Some(mv);
                }
            });
            let Some(mv) = chosen else { break };
            self.play(mv, false);
        }
    }
}

/// `num_envs` copies of a game, each reset to `start` when it ends (with `auto_reset`).
#[derive(Debug, Clone)]
pub struct VecEnv<G: FullGame> {
    start: G,
    start_terminal: bool,
    slots: Vec<Slot<G>>,
    /// Per kept mask buffer, per environment: the actions set in its row (`None`: unknown).
    /// Kept apart from the slots (and made on the buffer's first use), so that a step
    /// streams only through what it uses.
    masked: [Vec<Option<Vec<u16>>>; VIEWS],
    /// Per kept observation buffer, per environment: what its row shows (`None`: unknown).
    shown: [Vec<Option<Shown<G>>>; VIEWS],
    auto_reset: bool,
    /// The agent's seat when the other seats are played by the built-in random opponent.
    agent: Option<usize>,
    /// The threads large batches are split over.
    workers: Workers,
}

/// What one environment's action does in a step, worked out before anything is played.
#[derive(Debug, Clone, Copy)]
enum Resolved<M> {
    /// The environment's game is over and it was given no action.
    Idle,
    /// The action leaves the move half made.
    Continues(PartialMove),
    /// The action completes this move.
    Move(M),
    /// The action is not legal.
    Illegal,
}

/// What one step reports for one environment.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StepResult {
    /// The episode reached an end of the game other than its ply limit.
    pub terminated: bool,
    /// The episode ended only because it reached its ply limit.
    pub truncated: bool,
    /// Plies in the episode that just ended (0 when it goes on).
    pub episode_length: u32,
    /// The return, in an episode that ended on this step, of the player who took the action
    /// (of the agent, against the built-in opponent); else 0.
    pub reward: f64,
}

impl<G: FullGame> VecEnv<G> {
    /// `num_envs` games from `start`; environment `i` draws random actions from stream `i`
    /// of `seed`; `threads` (0 = every core) splits large batches.
    pub fn new(start: G, num_envs: usize, auto_reset: bool, seed: u64, threads: usize) -> Self {
        Self::try_new(start, num_envs, auto_reset, seed, threads)
            .expect("not enough memory for the environments")
    }

    /// [`VecEnv::new`], or `OutOfMemory` when `num_envs` environments cannot be allocated.
    pub fn try_new(
        start: G,
        num_envs: usize,
        auto_reset: bool,
        seed: u64,
        threads: usize,
    ) -> Result<Self, Stopped> {
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(num_envs)
            .map_err(|_| Stopped::OutOfMemory)?;
        slots.extend((0..num_envs).map(|i| Slot {
            state: start.clone(),
            partial: PartialMove::new(),
            length: 0,
            rng: SplitMix64::stream(seed, i as u64),
            resolved: Resolved::Idle,
            result: StepResult::default(),
            terminal: start.is_terminal(),
            legal: Vec::new(),
            moves: Vec::new(),
            legal_known: false,
        }));
        Ok(VecEnv {
            start_terminal: start.is_terminal(),
            start,
            slots,
            masked: std::array::from_fn(|_| Vec::new()),
            shown: std::array::from_fn(|_| Vec::new()),
            auto_reset,
            agent: None,
            workers: Workers::new(thread_count(threads)),
        })
    }

    /// Lets the agent play seat `agent` only: every other seat plays uniformly random
    /// moves (drawn from the environment's stream) as part of `reset` and `step`. `None`:
    /// self-play, every seat is the agent's.
    pub fn set_opponent(&mut self, agent: Option<usize>) -> Result<(), Error> {
        if let Some(seat) = agent {
            if seat >= self.num_players() {
                return Err(Error::InvalidParameter(format!(
                    "the agent's seat must be below {} (the number of players), got {seat}",
                    self.num_players()
                )));
            }
        }
        self.agent = agent;
        self.reset();
        Ok(())
    }

    pub fn num_envs(&self) -> usize {
        self.slots.len()
    }

    pub fn num_players(&self) -> usize {
        self.start.num_players()
    }

    pub fn state(&self, env: usize) -> &G {
        &self.slots[env].state
    }

    /// The actions taken so far in environment `env`'s move being made.
    pub fn partial(&self, env: usize) -> &PartialMove {
        &self.slots[env].partial
    }

    pub fn states(&self) -> impl Iterator<Item = &G> {
        self.slots.iter().map(|s| &s.state)
    }

    /// Puts every environment back at the start (where the opponent moves first, its moves
    /// are played).
    pub fn reset(&mut self) {
        let (start, agent) = (&self.start, self.agent);
        for slot in &mut self.slots {
            slot.restart(start, self.start_terminal);
            if let Some(agent) = agent {
                slot.play_opponents(agent);
            }
        }
    }

    /// Puts the environments whose entry of `which` is `true` back at the start.
    pub fn reset_some(&mut self, which: &[bool]) -> Result<(), Error> {
        if which.len() != self.slots.len() {
            return Err(Error::InvalidParameter(format!(
                "expected a mask of {} environments, got {}",
                self.slots.len(),
                which.len()
            )));
        }
        let (start, agent) = (&self.start, self.agent);
        for (slot, _) in self.slots.iter_mut().zip(which).filter(|(_, &w)| w) {
            slot.restart(start, self.start_terminal);
            if let Some(agent) = agent {
                slot.play_opponents(agent);
            }
        }
        Ok(())
    }

    /// Takes one action in every environment; an environment given -1 takes none this step
    /// (one whose game is over, possible without `auto_reset`, must be given -1). `returns`
    /// (num_envs x num_players) receives the returns of every episode that ends on this
    /// step, zeros elsewhere. If any action is illegal nothing is played and the error
    /// names the first such environment.
    pub fn step(
        &mut self,
        actions: &[i64],
        returns: &mut [f64],
        results: &mut [StepResult],
    ) -> Result<(), Error> {
        self.step_and_write(actions, returns, results, None, None)
    }

    /// [`VecEnv::step`], then, in the same pass over the environments (each one's data is
    /// read once while it is at hand), what [`VecEnv::update_mask`] and
    /// [`VecEnv::update_observations`] write, into the buffers given.
    pub fn step_and_write(
        &mut self,
        actions: &[i64],
        returns: &mut [f64],
        results: &mut [StepResult],
        masks: Option<MaskOut<'_>>,
        observations: Option<ObservationOut<'_>>,
    ) -> Result<(), Error> {
        let n = self.slots.len();
        let players = self.num_players();
        if actions.len() != n || returns.len() != n * players || results.len() != n {
            return Err(Error::InvalidParameter(format!(
                "expected {n} actions, got {}",
                actions.len()
            )));
        }
        let (start, auto_reset, agent) = (&self.start, self.auto_reset, self.agent);
        let start_terminal = self.start_terminal;
        let (mask_view, fresh_masks) = masks.as_ref().map_or((0, false), |m| (m.view, m.fresh));
        let (player, obs_view, fresh_obs) = observations
            .as_ref()
            .map_or((None, 0, false), |o| (o.player, o.view, o.fresh));
        let obs_size: usize = G::OBSERVATION_SHAPE.iter().product();
        let masked = masks
            .is_some()
            .then(|| kept(&mut self.masked[mask_view], n));
        let shown = observations
            .is_some()
            .then(|| kept(&mut self.shown[obs_view], n));
        let rows = (
            (Given(actions), Per(results, 1)),
            (
                Per(returns, players),
                (
                    masks
                        .zip(masked)
                        .map(|(m, kept)| (Per(m.out, G::NUM_DISTINCT_ACTIONS), Per(kept, 1))),
                    observations
                        .zip(shown)
                        .map(|(o, kept)| (Per(o.out, obs_size), Per(kept, 1))),
                ),
            ),
        );
        // Every action is worked out first (nothing played), so an illegal one changes
        // nothing; then, in one pass, each environment plays, and its mask and observation
        // are written while its data is at hand.
        let legal = checked_chunks(
            &mut self.slots,
            rows,
            Split(&self.workers),
            |slots, ((actions, _), _)| {
                let mut legal = true;
                for (slot, &action) in slots.iter_mut().zip(actions.0) {
                    slot.resolved = resolve(slot, action);
                    legal &= !matches!(slot.resolved, Resolved::Illegal);
                }
                legal
            },
            |slots, ((_, results), (returns, (masks, obs)))| {
                let masked = masks.is_some();
                let mut mask_rows = masks.map(|(rows, kept)| rows.0.chunks_mut(rows.1).zip(kept.0));
                let mut obs_rows = obs.map(|(rows, kept)| rows.0.chunks_mut(rows.1).zip(kept.0));
                let rows = returns.0.chunks_mut(players).zip(results.0.iter_mut());
                for (slot, (row, result)) in slots.iter_mut().zip(rows) {
                    row.fill(0.0);
                    slot.advance(row, start, start_terminal, auto_reset, agent, masked);
                    *result = slot.result;
                    if let Some((mask, kept)) = mask_rows.as_mut().and_then(Iterator::next) {
                        slot.write_mask(mask, kept, fresh_masks);
                    }
                    if let Some((obs, kept)) = obs_rows.as_mut().and_then(Iterator::next) {
                        slot.write_observation(obs, kept, player, fresh_obs);
                    }
                }
            },
        );
        if legal {
            return Ok(());
        }
        let illegal = self
            .slots
            .iter()
            .position(|slot| matches!(slot.resolved, Resolved::Illegal));
        Err(Error::IllegalMove(match illegal {
            Some(env) if self.slots[env].terminal => format!("environment {env} has ended: give it -1, or reset it (or create the environment with auto_reset)"),
            Some(env) => format!("action {} is not legal in environment {env}", actions[env]),
            None => "an action is not legal".to_string(),
        }))
    }

    /// Legal-action masks, num_envs x `NUM_DISTINCT_ACTIONS`.
    pub fn legal_mask(&self, out: &mut [bool]) {
        chunked_read(
            &self.slots,
            out,
            G::NUM_DISTINCT_ACTIONS,
            Split(&self.workers),
            |slots, out| {
                for (slot, row) in slots.iter().zip(out.chunks_mut(G::NUM_DISTINCT_ACTIONS)) {
                    // Cleared a row at a time, just before its actions are marked, so the
                    // marks land on lines already in the cache.
                    row.fill(false);
                    slot.for_each_legal_action(|a| row[a] = true);
                }
            },
        );
    }

    /// Brings the legal-action masks in `out` (num_envs x `NUM_DISTINCT_ACTIONS`, as
    /// [`VecEnv::legal_mask`] writes them) up to date, as kept buffer `view` (below
    /// [`VIEWS`]): only the actions set in its rows last time are cleared, then the legal
    /// ones set. `out` must be the buffer last written as `view`, unchanged since, or else
    /// `fresh` (then its rows are written whole). The legal actions (and, in games of one
    /// action per move, their moves) are kept, so that the next step finds its moves
    /// without generating them again.
    pub fn update_mask(&mut self, out: &mut [bool], view: usize, fresh: bool) {
        let size = G::NUM_DISTINCT_ACTIONS;
        let masked = kept(&mut self.masked[view], self.slots.len());
        chunked(
            &mut self.slots,
            (Per(out, size), Per(masked, 1)),
            Split(&self.workers),
            |slots, (out, masked)| {
                for ((slot, row), kept) in
                    slots.iter_mut().zip(out.0.chunks_mut(size)).zip(masked.0)
                {
                    slot.write_mask(row, kept, fresh);
                }
            },
        );
    }

    /// The legal-action mask of environment `env` (`NUM_DISTINCT_ACTIONS` long).
    pub fn legal_mask_of(&self, env: usize, out: &mut [bool]) {
        out.fill(false);
        self.slots[env].for_each_legal_action(|a| out[a] = true);
    }

    /// Observations (num_envs x OBSERVATION_SHAPE), each from the point of view of
    /// `player`, or of the environment's player to move when `None`.
    pub fn observations(&self, player: Option<usize>, out: &mut [f32]) {
        let size: usize = G::OBSERVATION_SHAPE.iter().product();
        chunked_read(
            &self.slots,
            out,
            size,
            Split(&self.workers),
            |slots, out| {
                for (slot, row) in slots.iter().zip(out.chunks_mut(size)) {
                    // A row at a time, just before it is written, so the writes hit lines in
                    // the cache (a whole large buffer cleared first would be out of the cache
                    // again by then).
                    row.fill(0.0);
                    let who = player.unwrap_or_else(|| slot.state.current_player());
                    slot.partial.observe(&slot.state, who, row);
                }
            },
        );
    }

    /// Brings the observations in `out` (as [`VecEnv::observations`] writes them) up to
    /// date, as kept buffer `view` (below [`VIEWS`]): each row is changed from what it shows
    /// to what it must show by [`crate::game::Observation::update_observation`], which in
    /// some games writes only the cells that changed. `out` must be the buffer last written
    /// as `view`, unchanged since, or else `fresh` (then it is written whole).
    pub fn update_observations(
        &mut self,
        player: Option<usize>,
        out: &mut [f32],
        view: usize,
        fresh: bool,
    ) {
        let size: usize = G::OBSERVATION_SHAPE.iter().product();
        let shown = kept(&mut self.shown[view], self.slots.len());
        chunked(
            &mut self.slots,
            (Per(out, size), Per(shown, 1)),
            Split(&self.workers),
            |slots, (out, shown)| {
                for ((slot, row), kept) in slots.iter_mut().zip(out.0.chunks_mut(size)).zip(shown.0)
                {
                    slot.write_observation(row, kept, player, fresh);
                }
            },
        );
    }

    /// The observation of environment `env` from `player`'s point of view (or its player
    /// to move's).
    pub fn observation_of(&self, env: usize, player: Option<usize>, out: &mut [f32]) {
        out.fill(0.0);
        let slot = &self.slots[env];
        let who = player.unwrap_or_else(|| slot.state.current_player());
        slot.partial.observe(&slot.state, who, out);
    }

    /// A uniformly random legal action for every environment (-1 where the episode has
    /// ended), each from the environment's own random stream.
    pub fn random_actions(&mut self, out: &mut [i64]) {
        chunked(
            &mut self.slots,
            Per(out, 1),
            Split(&self.workers),
            |slots, out| {
                for (slot, action) in slots.iter_mut().zip(out.0.iter_mut()) {
                    // Reservoir sampling, as `PartialMove::random_action` draws: the k-th
                    // legal action replaces the choice with probability 1/k.
                    let mut rng = slot.rng.clone();
                    let (mut seen, mut chosen) = (0u64, -1);
                    slot.for_each_legal_action(|a| {
                        seen += 1;
                        if rng.below(seen) == 0 {
                            chosen = a as i64;
                        }
                    });
                    slot.rng = rng;
                    *action = chosen;
                }
            },
        );
    }

    /// The legal actions of environment `env`, ascending.
    pub fn legal_actions(&self, env: usize) -> Vec<usize> {
        let slot = &self.slots[env];
        slot.partial.legal_actions(&slot.state)
    }

    /// Plays the legal move `mv` of environment `env`'s state, between moves (for an
    /// opponent that chooses whole moves); returns what a step would report. An error, with
    /// nothing changed, when there is no environment `env`, its game is over or a move is
    /// being made there.
    pub fn play_move(
        &mut self,
        env: usize,
        mv: G::Move,
        returns: &mut [f64],
    ) -> Result<StepResult, Error> {
        self.check_between_moves(env, "a move")?;
        Ok(self.play_checked(env, mv, returns))
    }

    /// [`VecEnv::play_move`] of the move written `text`.
    pub fn play_text(
        &mut self,
        env: usize,
        text: &str,
        returns: &mut [f64],
    ) -> Result<StepResult, Error> {
        self.check_between_moves(env, &format!("'{text}'"))?;
        let mv = self.slots[env].state.parse_move(text)?;
        Ok(self.play_checked(env, mv, returns))
    }

    /// Whether environment `env` can be given a whole move (`what`, for the error).
    fn check_between_moves(&self, env: usize, what: &str) -> Result<(), Error> {
        let Some(slot) = self.slots.get(env) else {
            return Err(Error::InvalidParameter(format!("no environment {env}")));
        };
        if slot.terminal {
            return Err(Error::IllegalMove(format!(
                "cannot play {what} in environment {env}: its game is over"
            )));
        }
        if !slot.partial.is_empty() {
            return Err(Error::IllegalMove(format!(
                "cannot play {what} in environment {env}: a move is being made there"
            )));
        }
        Ok(())
    }

    fn play_checked(&mut self, env: usize, mv: G::Move, returns: &mut [f64]) -> StepResult {
        let players = self.num_players();
        let slot = &mut self.slots[env];
        slot.play(mv, false);
        returns.fill(0.0);
        if !slot.terminal {
            return StepResult::default();
        }
        let truncated = slot.state.ended_by_ply_limit();
        returns.copy_from_slice(&slot.state.outcome().returns(players));
        let result = StepResult {
            terminated: !truncated,
            truncated,
            episode_length: slot.length,
            reward: self.agent.map_or(0.0, |agent| returns[agent]),
        };
        if self.auto_reset {
            slot.restart(&self.start, self.start_terminal);
        }
        result
    }
}

/// The records of one kept buffer, one per environment, made (unknown) on first use.
fn kept<T>(records: &mut Vec<Option<T>>, envs: usize) -> &mut [Option<T>] {
    if records.len() != envs {
        records.resize_with(envs, || None);
    }
    records
}

/// What `action` does in `slot`.
fn resolve<G: FullGame>(slot: &Slot<G>, action: i64) -> Resolved<G::Move> {
    if action == -1 {
        return Resolved::Idle;
    }
    let Ok(action) = usize::try_from(action) else {
        return Resolved::Illegal;
    };
    if slot.terminal || action >= G::NUM_DISTINCT_ACTIONS {
        return Resolved::Illegal;
    }
    if slot.moves_known() {
        // One action per move: the action is legal if it is listed, and makes its move.
        return match slot.legal.iter().position(|&a| usize::from(a) == action) {
            Some(i) => Resolved::Move(slot.moves[i]),
            None => Resolved::Illegal,
        };
    }
    // The game's fast path first, as `PartialMove::take` begins, without asking the state
    // again whether it is over.
    if slot.partial.is_empty() {
        match slot.state.quick_take(action) {
            QuickTake::Illegal => return Resolved::Illegal,
            QuickTake::Move(mv) => return Resolved::Move(mv),
            QuickTake::Choice | QuickTake::Unknown => {}
        }
    }
    let mut partial = slot.partial;
    match partial.take(&slot.state, action) {
        Some(Taken::Move(mv)) => Resolved::Move(mv),
        Some(Taken::Continues) => Resolved::Continues(partial),
        None => Resolved::Illegal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::actions::chosen_actions;
    use crate::games::GAME_NAMES;
    use crate::{with_game, Game, Notation};

    /// The start of `G` with a ply limit of 30.
    fn short_start<G: FullGame>() -> G {
        let params = crate::game::params_from::<G>(&[("max_plies", crate::ParamValue::Int(30))])
            .expect("a ply limit");
        G::start(&params)
    }

    fn run<G: FullGame>(start: G, threads: usize) -> (Vec<String>, Vec<f64>) {
        let players = start.num_players();
        let mut env = VecEnv::new(start, 600, true, 9, threads);
        let mut all_returns = Vec::new();
        let mut actions = vec![0; 600];
        let mut returns = vec![0.0; 600 * players];
        let mut results = vec![StepResult::default(); 600];
        let mut masks = vec![false; 600 * G::NUM_DISTINCT_ACTIONS];
        for _ in 0..50 {
            env.random_actions(&mut actions);
            env.legal_mask(&mut masks);
            for (row, &a) in masks.chunks(G::NUM_DISTINCT_ACTIONS).zip(&actions) {
                assert!(row[a as usize], "sampled actions are legal");
            }
            env.step(&actions, &mut returns, &mut results)
                .expect("legal actions");
            all_returns.extend_from_slice(&returns);
        }
        (env.states().map(Notation::text).collect(), all_returns)
    }

    /// Steps that write masks and observations into two kept buffers in turn, on several
    /// threads, leave what whole writes give, in every game.
    fn kept_buffers_hold_whole_writes<G: FullGame>(start: G) {
        let n = 700;
        let mut env = VecEnv::new(start, n, true, 3, 3);
        let size: usize = G::OBSERVATION_SHAPE.iter().product();
        let mut masks = [
            vec![false; n * G::NUM_DISTINCT_ACTIONS],
            vec![true; n * G::NUM_DISTINCT_ACTIONS],
        ];
        let mut observations = [vec![0.5f32; n * size], vec![0.0f32; n * size]];
        let (mut whole_mask, mut whole_obs) = (masks[0].clone(), observations[0].clone());
        let mut actions = vec![0; n];
        let mut returns = vec![0.0; n * env.num_players()];
        let mut results = vec![StepResult::default(); n];
        for turn in 0..40 {
            let view = turn % 2;
            env.random_actions(&mut actions);
            let masks_out = MaskOut {
                out: &mut masks[view],
                view,
                fresh: turn < 2,
            };
            let obs_out = ObservationOut {
                out: &mut observations[view],
                player: None,
                view,
                fresh: turn < 2,
            };
            env.step_and_write(
                &actions,
                &mut returns,
                &mut results,
                Some(masks_out),
                Some(obs_out),
            )
            .expect("legal actions");
            env.legal_mask(&mut whole_mask);
            env.observations(None, &mut whole_obs);
            assert!(
                masks[view] == whole_mask,
                "{}: masks at turn {turn}",
                G::NAME
            );
            assert!(
                observations[view] == whole_obs,
                "{}: observations at turn {turn}",
                G::NAME
            );
        }
    }

    #[test]
    fn kept_buffers_written_in_turn_hold_whole_writes() {
        for &name in GAME_NAMES {
            with_game!(name, G => kept_buffers_hold_whole_writes(short_start::<G>()), _ => unreachable!());
        }
    }

    fn illegal_action_changes_nothing<G: FullGame>() {
        let start: G = short_start();
        let players = start.num_players();
        let mut env = VecEnv::new(start, 600, true, 5, 3);
        let (mut actions, mut returns) = (vec![0; 600], vec![0.0; 600 * players]);
        let mut results = vec![StepResult::default(); 600];
        let mut masks = vec![false; 600 * G::NUM_DISTINCT_ACTIONS];
        for step in 0..20 {
            env.random_actions(&mut actions);
            env.update_mask(&mut masks, 0, step == 0);
            let before: Vec<String> = env.states().map(Notation::text).collect();
            let env_at = (97 * step + 11) % 600;
            let illegal = (0..G::NUM_DISTINCT_ACTIONS)
                .find(|&a| !masks[env_at * G::NUM_DISTINCT_ACTIONS + a])
                .expect("an action not legal");
            let mut wrong = actions.clone();
            wrong[env_at] = illegal as i64;
            returns.fill(7.0);
            let err = env.step(&wrong, &mut returns, &mut results).unwrap_err();
            assert!(
                err.to_string().contains(&format!("environment {env_at}")),
                "{err}"
            );
            let after: Vec<String> = env.states().map(Notation::text).collect();
            assert_eq!(
                before,
                after,
                "{}: an illegal action changes nothing",
                G::NAME
            );
            assert!(returns.iter().all(|&r| r == 7.0), "nor the returns");
            env.step(&actions, &mut returns, &mut results)
                .expect("legal actions");
        }
    }

    #[test]
    fn an_illegal_action_on_threads_changes_nothing() {
        for &name in GAME_NAMES {
            with_game!(name, G => illegal_action_changes_nothing::<G>(), _ => unreachable!());
        }
    }

    /// `play_move` refuses, changing nothing, an environment whose game is over and one
    /// where a move is being made; elsewhere it plays and reports as a step does.
    fn whole_moves_are_checked<G: FullGame>() {
        let params = crate::game::params_from::<G>(&[("max_plies", crate::ParamValue::Int(2))])
            .expect("a ply limit");
        let start = G::start(&params);
        let players = start.num_players();
        let mut env = VecEnv::new(start, 64, false, 7, 1);
        let mut returns = vec![0.0; players];
        let mut result = StepResult::default();
        while !env.state(0).is_terminal() {
            let mv = env.state(0).find_move(|_| true).expect("a legal move");
            result = env.play_move(0, mv, &mut returns).expect("a legal move");
        }
        assert!(
            result.terminated || result.truncated,
            "{}: the end is reported",
            G::NAME
        );
        let mv = env.state(1).find_move(|_| true).expect("a legal move");
        let text = env.state(1).move_text(mv);
        let before = env.state(0).text();
        let err = env.play_text(0, &text, &mut returns).unwrap_err();
        assert!(
            err.to_string().contains("its game is over"),
            "{}: {err}",
            G::NAME
        );
        assert!(env.play_move(0, mv, &mut returns).is_err());
        assert_eq!(env.state(0).text(), before, "{}: nothing played", G::NAME);
        assert!(
            env.play_move(64, mv, &mut returns).is_err(),
            "no environment 64"
        );
        // A move of several chosen actions begun somewhere: random steps, but the first
        // environment offering such a move takes that move's first action.
        let mut env = VecEnv::new(short_start::<G>(), 64, true, 7, 1);
        let (mut actions, mut results) = (vec![0; 64], vec![StepResult::default(); 64]);
        let mut all_returns = vec![0.0; 64 * players];
        for _ in 0..200 {
            env.random_actions(&mut actions);
            let begun = (0..64).find_map(|i| {
                if !env.partial(i).is_empty() {
                    return None;
                }
                let state = env.state(i);
                let long = state.find_move(|mv| chosen_actions(state, mv).len() > 1)?;
                let first = chosen_actions(state, long).get(0)?;
                Some((i, first))
            });
            if let Some((i, first)) = begun {
                actions[i] = first as i64;
            }
            env.step(&actions, &mut all_returns, &mut results)
                .expect("legal actions");
            let Some((i, _)) = begun else { continue };
            assert!(!env.partial(i).is_empty(), "{}: a move begun", G::NAME);
            let before = env.state(i).text();
            let err = env.play_text(i, "anything", &mut returns).unwrap_err();
            assert!(
                err.to_string().contains("a move is being made"),
                "{}: {err}",
                G::NAME
            );
            assert_eq!(env.state(i).text(), before);
            return;
        }
        assert_eq!(
            G::MAX_CHOSEN_ACTIONS,
            1,
            "{}: no move of several actions in 200 steps of 64 games",
            G::NAME
        );
    }

    #[test]
    fn whole_moves_are_played_only_between_moves_of_games_going_on() {
        for &name in GAME_NAMES {
            with_game!(name, G => whole_moves_are_checked::<G>(), _ => unreachable!());
        }
    }

    #[test]
    fn results_do_not_depend_on_threads() {
        for &name in GAME_NAMES {
            with_game!(name, G => {
                let start: G = short_start();
                assert_eq!(run(start.clone(), 1), run(start, 3), "{}", G::NAME);
            }, _ => unreachable!());
        }
    }
}
