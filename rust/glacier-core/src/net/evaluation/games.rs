//! The positions an evaluation net learns from: games of alpha-beta against itself, every
//! position it searched recorded with the search's score and, once the game is over, its
//! result (`glacier train GAME --for alphabeta` asks for them a batch at a time).
//!
//! Each game starts with a number of uniformly random plies (drawn per game between two
//! bounds, so that the games differ), then every move is the best of an alpha-beta search
//! to a fixed depth or number of nodes, scored by the heuristic or by a net (a later round of training
//! searches with the net of the round before). Games are seeded by their number and
//! played on threads; the rows come back in game order, the same for any thread count.

use super::incremental::NetScore;
use super::EvalNet;
use crate::game::{Cell, Observation};
use crate::interrupt::{Interrupt, Stopped};
use crate::rng::SplitMix64;
use crate::search::alphabeta::{alphabeta_with, plies_to_end, Evaluation, HeuristicScore, SCALE};
use crate::search::{heuristic_of_mover, Budget, Heuristic};
use crate::{Error, Outcome};
use std::sync::Arc;

/// How the games are played.
#[derive(Debug, Clone)]
pub struct PlaySettings {
    /// The number of games; game `i` is seeded by `seed` and `i`.
    pub games: usize,
    pub seed: u64,
    /// The deepest iteration of every move's search, and the nodes it may visit (the
    /// deepest iteration completed within them counts): the scores' depth.
    pub depth: u32,
    pub nodes: Option<u64>,
    /// The random plies each game starts with: drawn uniformly from this range (inclusive).
    pub random_plies: (u32, u32),
    /// Threads to play on (0: every core).
    pub threads: usize,
    /// The net that scores the searches; `None`: the game's heuristic.
    pub net: Option<Arc<EvalNet>>,
}

/// The positions of a batch of games, column by column, a row per position searched.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Positions {
    /// The game's number and the plies played before the position.
    pub game: Vec<u32>,
    pub ply: Vec<u32>,
    /// The player to move.
    pub mover: Vec<u8>,
    /// The search's score for the mover: its evaluation's value in `[-1, 1]`, or +-1 for a
    /// forced result.
    pub score: Vec<f32>,
    /// Whether the search found a forced result.
    pub forced: Vec<bool>,
    /// The game's heuristic value for the mover (what a net of [`super::Base::Heuristic`]
    /// corrects).
    pub heuristic: Vec<f32>,
    /// The game's result for the mover: 1 a win, -1 a loss, 0 a draw.
    pub result: Vec<f32>,
    /// Whether the move the search chose is tactical (a capture, a promotion: the position
    /// is not quiet).
    pub tactical: Vec<bool>,
    /// The features of each row's two views (seat 0's, then seat 1's): `counts[2 * row +
    /// seat]` entries of `features` and `values`, in row order. A feature below the
    /// observation's size is a cell; `inputs + p` is plane `p` holding one value in all
    /// its cells.
    pub counts: Vec<u32>,
    pub features: Vec<u32>,
    pub values: Vec<f32>,
}

impl Positions {
    #[must_use]
    pub fn len(&self) -> usize {
        self.game.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.game.is_empty()
    }

    fn append(&mut self, other: Positions) {
        self.game.extend(other.game);
        self.ply.extend(other.ply);
        self.mover.extend(other.mover);
        self.score.extend(other.score);
        self.forced.extend(other.forced);
        self.heuristic.extend(other.heuristic);
        self.result.extend(other.result);
        self.tactical.extend(other.tactical);
        self.counts.extend(other.counts);
        self.features.extend(other.features);
        self.values.extend(other.values);
    }
}

/// Plays `settings.games` games of `G` from `start` (see the module docs). Stops with
/// `Err(Interrupted)` when `interrupt` says so.
pub fn play<G: Heuristic + Observation>(
    start: &G,
    settings: &PlaySettings,
    interrupt: &Interrupt<'_>,
) -> Result<Result<Positions, Error>, Stopped> {
    if start.num_players() != 2 {
        return Ok(Err(Error::InvalidParameter(format!(
            "evaluation nets are for two-player games; this {} game has {} players",
            G::NAME,
            start.num_players()
        ))));
    }
    if let Some(net) = &settings.net {
        if let Err(err) = NetScore::<G>::new(net.clone()) {
            return Ok(Err(err));
        }
    }
    let (lo, hi) = settings.random_plies;
    if lo > hi {
        return Ok(Err(Error::InvalidParameter(format!(
            "random plies from {lo} to {hi}: the first bound is above the second"
        ))));
    }
    let games = crate::threads::run_tasks_until(
        settings.games,
        settings.threads,
        interrupt,
        |i, watch| {
            let mut positions = Positions::default();
            let stop = interrupt.flag();
            let played = match &settings.net {
                Some(net) => {
                    let mut score = NetScore::<G>::new(net.clone()).expect("checked above");
                    play_one(start, settings, i, stop, &mut score, &mut positions, watch)
                }
                None => play_one(
                    start,
                    settings,
                    i,
                    stop,
                    &mut HeuristicScore,
                    &mut positions,
                    watch,
                ),
            };
            played.map(|()| positions)
        },
    )?;
    interrupt.result(())?;
    let mut all = Positions::default();
    for game in games {
        match game {
            Ok(positions) => all.append(positions),
            Err(err) => return Ok(Err(err)),
        }
    }
    Ok(Ok(all))
}

/// Game `index`, its rows appended to `out`.
fn play_one<G: Heuristic + Observation, E: Evaluation<G>>(
    start: &G,
    settings: &PlaySettings,
    index: usize,
    stop: &std::sync::atomic::AtomicBool,
    evaluation: &mut E,
    out: &mut Positions,
    watch: &mut crate::interrupt::Watch<'_, '_>,
) -> Result<(), Error> {
    let mut rng = SplitMix64::stream(settings.seed, index as u64);
    let (lo, hi) = settings.random_plies;
    let random = lo + rng.below(u64::from(hi - lo) + 1) as u32;
    let mut state = start.clone();
    let mut moves = Vec::new();
    let (mut dense, mut cells, mut planes): (Vec<f32>, Vec<Cell>, Vec<Cell>) = Default::default();
    let inputs: usize = G::OBSERVATION_SHAPE.iter().product();
    let first = out.len();
    let mut ply = 0u32;
    while !state.is_terminal() {
        if watch.should_stop() {
            return Ok(());
        }
        if ply < random {
            moves.clear();
            state.generate_moves(&mut |mv| moves.push(mv));
            state.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
            ply += 1;
            continue;
        }
        let budget = Budget {
            limit: Some(u64::from(settings.depth)),
            deadline: None,
            stop,
        };
        let found = match alphabeta_with(&state, &budget, settings.nodes, evaluation) {
            Ok(found) => found,
            Err(_) if watch.is_stopped() => return Ok(()),
            Err(err) => return Err(err),
        };
        let forced = plies_to_end(found.score);
        out.game.push(index as u32);
        out.ply.push(ply);
        out.mover.push(state.current_player() as u8);
        out.score.push(match forced {
            Some(plies) => plies.signum() as f32,
            None => found.score as f32 / SCALE,
        });
        out.forced.push(forced.is_some());
        out.heuristic.push(heuristic_of_mover(&state));
        out.tactical.push(state.is_tactical(found.best));
        for seat in 0..2 {
            cells.clear();
            planes.clear();
            state.observation_cells(&[], seat, &mut dense, &mut cells, &mut planes);
            out.counts.push((cells.len() + planes.len()) as u32);
            out.features.extend(cells.iter().map(|&(c, _)| c));
            out.features
                .extend(planes.iter().map(|&(p, _)| inputs as u32 + p));
            out.values
                .extend(cells.iter().chain(&planes).map(|&(_, v)| v));
        }
        state.play_unchecked(found.best);
        ply += 1;
    }
    let winner = match state.outcome() {
        Outcome::Win(w) => Some(usize::from(w)),
        Outcome::Draw | Outcome::Ongoing => None,
    };
    out.result
        .extend(out.mover[first..].iter().map(|&m| match winner {
            Some(w) if w == usize::from(m) => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        }));
    Ok(())
}
