//! Many games stepped at once, for learning programs: the core of the batched environment.
//!
//! Actions are integers, numbered by the game's [`ActionEncoding`]. A game with a fixed
//! action space (`ActionEncoding::FIXED`) numbers its moves independently of the position
//! and the environment offers legal-move masks; any other game numbers the legal moves
//! `0..count` in generation order and the environment offers counts (and the move texts in
//! action order, for people).
//!
//! Large batches are split over threads. Each environment draws its random actions from
//! its own generator, so results never depend on the thread count.

use crate::parallel::thread_count;
use crate::rng::SplitMix64;
use crate::{ActionEncoding, Error, FullGame};

/// Below this many environments per thread, threads cost more than they save.
const MIN_ENVS_PER_THREAD: usize = 256;

/// One environment: its game, the plies of its current episode and its random stream.
#[derive(Debug, Clone)]
struct Slot<G: FullGame> {
    state: G,
    length: u32,
    rng: SplitMix64,
}

/// `num_envs` copies of a game, each reset to `start` when it ends (with `auto_reset`).
#[derive(Debug, Clone)]
pub struct VecEnv<G: FullGame> {
    start: G,
    slots: Vec<Slot<G>>,
    auto_reset: bool,
    threads: usize,
}

/// What one step reports for one environment.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StepResult {
    pub terminated: bool,
    /// Plies in the episode that just ended (0 when it goes on).
    pub episode_length: u32,
}

/// Runs `work` over matching chunks of `items` and `out` on up to `threads` threads.
fn chunked<T: Send, U: Send>(
    items: &mut [T],
    out: &mut [U],
    per_item: usize,
    threads: usize,
    work: impl Fn(&mut [T], &mut [U]) + Sync,
) {
    let threads = threads.min(items.len() / MIN_ENVS_PER_THREAD).max(1);
    if threads == 1 {
        work(items, out);
        return;
    }
    let chunk = items.len().div_ceil(threads);
    std::thread::scope(|scope| {
        for (items, out) in items
            .chunks_mut(chunk)
            .zip(out.chunks_mut(chunk * per_item))
        {
            let work = &work;
            scope.spawn(move || work(items, out));
        }
    });
}

/// The move an action number stands for in `state`, if it is legal there.
fn action_move<G: ActionEncoding>(state: &G, action: i64) -> Option<G::Move> {
    state.move_of_action(usize::try_from(action).ok()?)
}

/// A uniformly random legal action of `state`. Index actions need only the move count
/// (which games count fast); numbered actions take one pass over the moves (reservoir
/// sampling: the k-th move replaces the choice with probability 1/k).
fn random_action<G: ActionEncoding>(state: &G, rng: &mut SplitMix64) -> Option<i64> {
    if !G::FIXED {
        let count = state.count_moves();
        return (count > 0).then(|| rng.below(count) as i64);
    }
    let mut seen = 0u64;
    let mut chosen = None;
    state.generate_moves(&mut |mv| {
        seen += 1;
        if rng.below(seen) == 0 {
            chosen = Some(mv);
        }
    });
    chosen.map(|mv| state.action_of(mv, 0) as i64)
}

impl<G: FullGame> VecEnv<G> {
    /// `num_envs` games from `start`; environment `i` draws random actions from stream `i`
    /// of `seed`; `threads` (0 = every core) splits large batches.
    pub fn new(start: G, num_envs: usize, auto_reset: bool, seed: u64, threads: usize) -> Self {
        let slots = (0..num_envs)
            .map(|i| Slot {
                state: start.clone(),
                length: 0,
                rng: SplitMix64::stream(seed, i as u64),
            })
            .collect();
        VecEnv {
            start,
            slots,
            auto_reset,
            threads: thread_count(threads),
        }
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

    pub fn states(&self) -> impl Iterator<Item = &G> {
        self.slots.iter().map(|s| &s.state)
    }

    pub fn reset(&mut self) {
        for slot in &mut self.slots {
            slot.state = self.start.clone();
            slot.length = 0;
        }
    }

    /// Plays one action in every environment. `returns` (num_envs x num_players) receives the
    /// returns of every episode that ends on this step, zeros elsewhere. If any action is
    /// illegal nothing is played and the error names the first such environment.
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
        // Resolve every action first (read-only), so an illegal one changes nothing.
        let mut moves: Vec<Option<G::Move>> = vec![None; n];
        {
            let slots = &self.slots;
            let mut indexed: Vec<(usize, i64)> = actions.iter().copied().enumerate().collect();
            chunked(&mut indexed, &mut moves, 1, self.threads, |items, out| {
                for (&(env, action), slot) in items.iter().zip(out.iter_mut()) {
                    let state = &slots[env].state;
                    *slot = if state.is_terminal() {
                        None
                    } else {
                        action_move(state, action)
                    };
                }
            });
        }
        if let Some(env) = moves.iter().position(Option::is_none) {
            return Err(Error::IllegalMove(if self.slots[env].state.is_terminal() {
                format!("environment {env} has ended; call reset() (or create the environment with auto_reset)")
            } else {
                format!("action {} is not legal in environment {env}", actions[env])
            }));
        }

        let (start, auto_reset) = (&self.start, self.auto_reset);
        let mut work: Vec<(&mut Slot<G>, G::Move, &mut StepResult)> = self
            .slots
            .iter_mut()
            .zip(moves.into_iter().flatten())
            .zip(results.iter_mut())
            .map(|((slot, mv), result)| (slot, mv, result))
            .collect();
        returns.fill(0.0);
        chunked(
            &mut work,
            returns,
            players,
            self.threads,
            |items, returns| {
                for ((slot, mv, result), row) in items.iter_mut().zip(returns.chunks_mut(players)) {
                    slot.state.play_unchecked(*mv);
                    slot.length += 1;
                    let terminated = slot.state.is_terminal();
                    **result = StepResult {
                        terminated,
                        episode_length: if terminated { slot.length } else { 0 },
                    };
                    if terminated {
                        row.copy_from_slice(&slot.state.outcome().returns(players));
                        if auto_reset {
                            slot.state = start.clone();
                            slot.length = 0;
                        }
                    }
                }
            },
        );
        Ok(())
    }

    /// The number of legal moves in every environment.
    pub fn legal_counts(&self, out: &mut [u32]) {
        for (count, slot) in out.iter_mut().zip(&self.slots) {
            *count = slot.state.count_moves() as u32;
        }
    }

    /// Legal-action masks (num_envs x NUM_ACTIONS), for games with a fixed action space.
    pub fn legal_mask(&self, out: &mut [bool]) -> Result<(), Error> {
        if !G::FIXED {
            return Err(Error::InvalidParameter(format!(
                "{} has no fixed action space: actions index the legal moves; use legal_counts()",
                G::NAME
            )));
        }
        out.fill(false);
        for (slot, row) in self
            .slots
            .iter()
            .zip(out.chunks_mut(G::NUM_DISTINCT_ACTIONS))
        {
            let state = &slot.state;
            state.generate_moves(&mut |mv| row[state.action_of(mv, 0)] = true);
        }
        Ok(())
    }

    /// Observations (num_envs x OBSERVATION_SHAPE).
    pub fn observations(&self, out: &mut [f32]) {
        let size: usize = G::OBSERVATION_SHAPE.iter().product();
        out.fill(0.0);
        for (slot, row) in self.slots.iter().zip(out.chunks_mut(size)) {
            slot.state.observe(row);
        }
    }

    /// A uniformly random legal action for every environment (-1 where the episode has
    /// ended), each from the environment's own random stream.
    pub fn random_actions(&mut self, out: &mut [i64]) {
        chunked(&mut self.slots, out, 1, self.threads, |slots, out| {
            for (slot, action) in slots.iter_mut().zip(out.iter_mut()) {
                *action = random_action(&slot.state, &mut slot.rng).unwrap_or(-1);
            }
        });
    }

    /// Legal move texts of environment `env` with their action numbers, in action order.
    pub fn legal_actions(&self, env: usize) -> Vec<(i64, String)> {
        let state = &self.slots[env].state;
        let mut out = Vec::new();
        let mut index = 0;
        state.generate_moves(&mut |mv| {
            out.push((state.action_of(mv, index) as i64, state.move_text(mv)));
            index += 1;
        });
        out.sort_unstable();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kuba::{Kuba, KubaParams};
    use crate::{Game, Notation};

    fn run(threads: usize) -> (Vec<String>, Vec<f64>) {
        let start = Kuba::start(&KubaParams { max_plies: 30 });
        let mut env = VecEnv::new(start, 600, true, 9, threads);
        let mut all_returns = Vec::new();
        let mut actions = vec![0; 600];
        let mut returns = vec![0.0; 1200];
        let mut results = vec![StepResult::default(); 600];
        for _ in 0..50 {
            env.random_actions(&mut actions);
            env.step(&actions, &mut returns, &mut results)
                .expect("legal actions");
            all_returns.extend_from_slice(&returns);
        }
        (env.states().map(Notation::text).collect(), all_returns)
    }

    #[test]
    fn results_do_not_depend_on_threads() {
        assert_eq!(run(1), run(3));
    }
}
