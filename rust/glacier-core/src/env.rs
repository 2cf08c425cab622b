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

use crate::actions::{ActionList, PartialMove, QuickTake, Taken};
use crate::interrupt::Stopped;
use crate::parallel::thread_count;
use crate::rng::SplitMix64;
use crate::{Error, FullGame};
use std::sync::Mutex;

/// Below this many environments per thread, threads cost more than they save.
const MIN_ENVS_PER_THREAD: usize = 256;

/// One environment: its game, the move being made, the plies of its current episode and
/// its random stream; and, during a step, its action and what the action does.
#[derive(Debug, Clone)]
struct Slot<G: FullGame> {
    state: G,
    partial: PartialMove,
    length: u32,
    rng: SplitMix64,
    action: i64,
    resolved: Resolved<G::Move>,
    result: StepResult,
    /// In games whose moves are one action each: the actions marked in this environment's
    /// row by the last [`VecEnv::update_mask`].
    marked: Vec<u16>,
    /// Whether `state` is over, worked out once per change of the state: in some games
    /// (Ice Age Chess) asking takes a move generation.
    terminal: bool,
    /// In games whose moves are one action each: the move of each action of `marked`, in
    /// the same order, while `moves_known` (the state has not changed since they were
    /// generated), so that the next step finds its move without generating them again.
    moves: Vec<G::Move>,
    moves_known: bool,
    /// What the last [`VecEnv::update_observations`] wrote in this environment's row: the
    /// key of the fixed part (`None`: nothing written), its cells, and the other cells.
    fixed_key: Option<u64>,
    fixed_cells: Vec<u32>,
    cells: Vec<u32>,
}

impl<G: FullGame> Slot<G> {
    fn restart(&mut self, start: &G, start_terminal: bool) {
        self.state = start.clone();
        self.partial.clear();
        self.length = 0;
        self.terminal = start_terminal;
        self.moves_known = false;
    }

    /// Plays `mv`, which completes the move being made.
    fn play(&mut self, mv: G::Move) {
        self.partial.clear();
        self.state.play_unchecked(mv);
        self.length += 1;
        self.terminal = self.state.is_terminal();
        self.moves_known = false;
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
            self.play(mv);
        }
    }
}

/// `num_envs` copies of a game, each reset to `start` when it ends (with `auto_reset`).
#[derive(Debug, Clone)]
pub struct VecEnv<G: FullGame> {
    start: G,
    start_terminal: bool,
    slots: Vec<Slot<G>>,
    auto_reset: bool,
    /// The agent's seat when the other seats are played by the built-in random opponent.
    agent: Option<usize>,
    threads: usize,
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

/// Runs `work` over matching chunks of `items` and `out` on up to `threads` threads (the
/// caller's among them). A thread that cannot be spawned leaves its chunks to the others.
fn chunked<T: Send, U: Send>(
    items: &mut [T],
    out: &mut [U],
    per_item: usize,
    threads: usize,
    work: impl Fn(&mut [T], &mut [U]) + Sync,
) {
    let threads = threads.min(items.len() / MIN_ENVS_PER_THREAD).max(1);
    if threads == 1 || per_item == 0 {
        work(items, out);
        return;
    }
    let chunk = items.len().div_ceil(threads);
    let chunks: Mutex<Vec<(&mut [T], &mut [U])>> = Mutex::new(
        items
            .chunks_mut(chunk)
            .zip(out.chunks_mut(chunk * per_item))
            .collect(),
    );
    share_chunks(threads, &chunks, |(items, out)| work(items, out));
}

/// Runs `work` over chunks of `out` (`per_item` values per environment) with the matching
/// environments, read-only, on up to `threads` threads.
fn chunked_read<T: Sync, U: Send>(
    items: &[T],
    out: &mut [U],
    per_item: usize,
    threads: usize,
    work: impl Fn(&[T], &mut [U]) + Sync,
) {
    let threads = threads.min(items.len() / MIN_ENVS_PER_THREAD).max(1);
    if threads == 1 || per_item == 0 {
        work(items, out);
        return;
    }
    let chunk = items.len().div_ceil(threads);
    let chunks: Mutex<Vec<(&[T], &mut [U])>> = Mutex::new(
        items
            .chunks(chunk)
            .zip(out.chunks_mut(chunk * per_item))
            .collect(),
    );
    share_chunks(threads, &chunks, |(items, out)| work(items, out));
}

/// Hands out `chunks` to the caller's thread and up to `threads - 1` more, until none are left.
fn share_chunks<C: Send>(threads: usize, chunks: &Mutex<Vec<C>>, work: impl Fn(C) + Sync) {
    let take = || {
        chunks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .pop()
    };
    let run = || {
        while let Some(chunk) = take() {
            work(chunk);
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..crate::parallel::threads_with_room(threads.saturating_sub(1)) {
            if std::thread::Builder::new()
                .spawn_scoped(scope, run)
                .is_err()
            {
                break;
            }
        }
        run();
    });
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
            action: -1,
            resolved: Resolved::Idle,
            result: StepResult::default(),
            marked: Vec::new(),
            terminal: start.is_terminal(),
            moves: Vec::new(),
            moves_known: false,
            fixed_key: None,
            fixed_cells: Vec::new(),
            cells: Vec::new(),
        }));
        Ok(VecEnv {
            start_terminal: start.is_terminal(),
            start,
            slots,
            auto_reset,
            agent: None,
            threads: thread_count(threads),
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
    /// (one whose game is over, possible without `auto_reset`, must be given -1). `returns` (num_envs x num_players)
    /// receives the returns of every episode that ends on this step, zeros elsewhere. If any
    /// action is illegal nothing is played and the error names the first such environment.
    pub fn step(
        &mut self,
        actions: &[i64],
        returns: &mut [f64],
        results: &mut [StepResult],
    ) -> Result<(), Error> {
        let n = self.slots.len();
        let players = self.num_players();
        if actions.len() != n || returns.len() != n * players || results.len() != n {
            return Err(Error::InvalidParameter(format!(
                "expected {n} actions, got {}",
                actions.len()
            )));
        }
        // Work out every action first (nothing played), so an illegal one changes nothing.
        for (slot, &action) in self.slots.iter_mut().zip(actions) {
            slot.action = action;
        }
        chunked(
            &mut self.slots,
            returns,
            players,
            self.threads,
            |slots, _| {
                for slot in slots {
                    slot.resolved = resolve(slot, slot.action);
                }
            },
        );
        let illegal = self
            .slots
            .iter()
            .position(|slot| matches!(slot.resolved, Resolved::Illegal));
        if let Some(env) = illegal {
            return Err(Error::IllegalMove(if self.slots[env].terminal {
                format!("environment {env} has ended: give it -1, or reset it (or create the environment with auto_reset)")
            } else {
                format!("action {} is not legal in environment {env}", actions[env])
            }));
        }

        let (start, auto_reset, agent) = (&self.start, self.auto_reset, self.agent);
        let start_terminal = self.start_terminal;
        returns.fill(0.0);
        chunked(
            &mut self.slots,
            returns,
            players,
            self.threads,
            |slots, returns| {
                for (slot, row) in slots.iter_mut().zip(returns.chunks_mut(players)) {
                    slot.result = StepResult::default();
                    let mover = agent.unwrap_or_else(|| slot.state.current_player());
                    match slot.resolved {
                        Resolved::Idle | Resolved::Illegal => continue,
                        Resolved::Continues(partial) => {
                            slot.partial = partial;
                            slot.moves_known = false;
                            continue;
                        }
                        Resolved::Move(mv) => {
                            slot.play(mv);
                            if let Some(agent) = agent {
                                slot.play_opponents(agent);
                            }
                        }
                    }
                    if slot.terminal {
                        let truncated = slot.state.ended_by_ply_limit();
                        row.copy_from_slice(&slot.state.outcome().returns(players));
                        slot.result = StepResult {
                            terminated: !truncated,
                            truncated,
                            episode_length: slot.length,
                            reward: row[mover],
                        };
                        if auto_reset {
                            slot.restart(start, start_terminal);
                            if let Some(agent) = agent {
                                slot.play_opponents(agent);
                            }
                        }
                    }
                }
            },
        );
        for (result, slot) in results.iter_mut().zip(&self.slots) {
            *result = slot.result;
        }
        Ok(())
    }

    /// Legal-action masks, num_envs x `NUM_DISTINCT_ACTIONS`.
    pub fn legal_mask(&self, out: &mut [bool]) {
        chunked_read(
            &self.slots,
            out,
            G::NUM_DISTINCT_ACTIONS,
            self.threads,
            |slots, out| {
                for (slot, row) in slots.iter().zip(out.chunks_mut(G::NUM_DISTINCT_ACTIONS)) {
                    // Cleared a row at a time, just before its actions are marked, so the
                    // marks land on lines already in the cache (see `update_mask`).
                    row.fill(false);
                    slot.for_each_legal_action(|a| row[a] = true);
                }
            },
        );
    }

    /// Writes the legal-action masks into `out` (num_envs x `NUM_DISTINCT_ACTIONS`), as
    /// [`VecEnv::legal_mask`] does, and keeps each environment's legal actions (and, in
    /// games of one action per move, their moves) so that the next step finds its move
    /// without generating the moves again.
    ///
    /// Each row is cleared whole, just before its actions are marked, rather than clearing
    /// only the entries marked last time: in a large batch the masks are far bigger than
    /// the caches, and one pass along a row streams through memory faster than a few dozen
    /// scattered writes that each wait for their own line (measured: chess with 4096
    /// environments steps about twice as fast this way).
    pub fn update_mask(&mut self, out: &mut [bool]) {
        let size = G::NUM_DISTINCT_ACTIONS;
        chunked(&mut self.slots, out, size, self.threads, |slots, out| {
            for (slot, row) in slots.iter_mut().zip(out.chunks_mut(size)) {
                row.fill(false);
                let mut marked = std::mem::take(&mut slot.marked);
                marked.clear();
                if G::ONE_ACTION_MOVES && slot.partial.is_empty() {
                    // The moves themselves, kept for the next step's action.
                    let mut moves = std::mem::take(&mut slot.moves);
                    moves.clear();
                    if !slot.terminal {
                        let (state, mut list) = (&slot.state, ActionList::new());
                        state.generate_moves(&mut |mv| {
                            list.clear();
                            state.move_actions(mv, &mut list);
                            if let Some(a) = list.get(0) {
                                row[a] = true;
                                marked.push(a as u16);
                                moves.push(mv);
                            }
                        });
                    }
                    slot.moves = moves;
                    slot.moves_known = true;
                } else {
                    // Only moves of one action are found again from the marks.
                    slot.for_each_legal_action(|a| row[a] = true);
                }
                slot.marked = marked;
            }
        });
    }

    /// Forgets what [`VecEnv::update_mask`] marked (for a new, all-false buffer).
    pub fn forget_marks(&mut self) {
        for slot in &mut self.slots {
            slot.marked.clear();
            slot.moves_known = false;
        }
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
        chunked_read(&self.slots, out, size, self.threads, |slots, out| {
            for (slot, row) in slots.iter().zip(out.chunks_mut(size)) {
                // A row at a time, just before it is written, so the writes hit lines in
                // the cache (a whole large buffer cleared first would be out of the cache
                // again by then).
                row.fill(0.0);
                let who = player.unwrap_or_else(|| slot.state.current_player());
                slot.partial.observe(&slot.state, who, row);
            }
        });
    }

    /// Brings the observations in `out` (as [`VecEnv::observations`] writes them) up to
    /// date, touching only the cells that change: `out` must be the buffer of the last call,
    /// unchanged since, or else `fresh` (then it is written in full). Where the game gives
    /// its observation cell by cell ([`crate::game::Observation::SPARSE_OBSERVATION`]) only the cells
    /// set last time are cleared, and the fixed part is rewritten only when its key
    /// changes; a whole tensor is tens of kilobytes in some games, with a few hundred
    /// non-zero cells.
    pub fn update_observations(&mut self, player: Option<usize>, out: &mut [f32], fresh: bool) {
        if !G::SPARSE_OBSERVATION {
            self.observations(player, out);
            return;
        }
        if fresh {
            out.fill(0.0);
            for slot in &mut self.slots {
                slot.fixed_key = None;
                slot.fixed_cells.clear();
                slot.cells.clear();
            }
        }
        let size: usize = G::OBSERVATION_SHAPE.iter().product();
        chunked(&mut self.slots, out, size, self.threads, |slots, out| {
            for (slot, row) in slots.iter_mut().zip(out.chunks_mut(size)) {
                let who = player.unwrap_or_else(|| slot.state.current_player());
                let key = slot.state.fixed_observation_key(who);
                if slot.fixed_key != Some(key) {
                    clear_cells(row, &mut slot.fixed_cells);
                    slot.state.fixed_observation_cells(
                        who,
                        &mut record_cells(row, &mut slot.fixed_cells),
                    );
                    slot.fixed_key = Some(key);
                }
                clear_cells(row, &mut slot.cells);
                let pending = slot.partial.path().as_slice();
                slot.state
                    .observation_cells(pending, who, &mut record_cells(row, &mut slot.cells));
            }
        });
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
        chunked(&mut self.slots, out, 1, self.threads, |slots, out| {
            for (slot, action) in slots.iter_mut().zip(out.iter_mut()) {
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
        });
    }

    /// The legal actions of environment `env`, ascending.
    pub fn legal_actions(&self, env: usize) -> Vec<usize> {
        let slot = &self.slots[env];
        slot.partial.legal_actions(&slot.state)
    }

    /// Plays the legal move `mv` in environment `env`, between moves (for an opponent that
    /// chooses whole moves); returns what a step would report.
    pub fn play_move(&mut self, env: usize, mv: G::Move, returns: &mut [f64]) -> StepResult {
        let players = self.num_players();
        let slot = &mut self.slots[env];
        slot.play(mv);
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
    if slot.moves_known {
        // One action per move: the action is legal if it is marked, and makes its move.
        return match slot.marked.iter().position(|&a| usize::from(a) == action) {
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

/// Sets back to 0 the cells of `row` that `kept` lists (those a change-by-change write set
/// last time), and forgets them.
fn clear_cells(row: &mut [f32], kept: &mut Vec<u32>) {
    for &cell in kept.iter() {
        row[cell as usize] = 0.0;
    }
    kept.clear();
}

/// A sink for a game's observation cells that writes each into `row` and lists it in
/// `kept`, for [`clear_cells`] at the next write.
fn record_cells<'a>(row: &'a mut [f32], kept: &'a mut Vec<u32>) -> impl FnMut(usize, f32) + 'a {
    move |cell, value| {
        row[cell] = value;
        kept.push(cell as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kings_court::{KingsCourt, KingsCourtParams};
    use crate::games::kuba::{Kuba, KubaParams};
    use crate::{Game, Notation};

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

    #[test]
    fn results_do_not_depend_on_threads() {
        let kuba = Kuba::start(&KubaParams { max_plies: 30 });
        assert_eq!(run(kuba.clone(), 1), run(kuba, 3));
        let court = KingsCourt::start(&KingsCourtParams { max_plies: 30 });
        assert_eq!(run(court.clone(), 1), run(court, 3));
    }
}
