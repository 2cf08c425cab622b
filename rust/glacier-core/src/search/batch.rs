//! Searches whose leaves an outside evaluator (a neural network, say) scores in batches:
//! the [`LeafEvaluator`] trait, and [`run_batch`], which gathers leaves from many trees at
//! once, hands them to the evaluator, turns its logits into the priors of the leaves' moves
//! and backs its values up.
//!
//! The tree is over whole moves, and the evaluator sees each leaf between moves: its legal
//! actions are the first actions of its legal moves. A move's prior is the softmax
//! probability (over the legal actions) of its first action, shared equally by the legal
//! moves that begin with it ([`priors_of`]), so a leaf's priors sum to 1.

use super::mcts::{BatchSearch, MctsConfig, Tree};
use super::Heuristic;
use crate::actions::ActionList;
use crate::game::ObservationCells;
use crate::interrupt::{Interrupt, Watch};
use crate::{Error, FullGame};
use std::sync::{Mutex, PoisonError};

/// A batch of leaves handed to a [`LeafEvaluator`], every array row after row. The
/// observations and the legal mask are made for this batch alone: an evaluator may take
/// them (`std::mem::take`) to hand them on without a copy (the Python binding makes numpy
/// arrays of them).
#[derive(Debug)]
pub struct LeafBatch<'a> {
    /// The number of leaves (`n`).
    pub len: usize,
    /// Each leaf's observation from the point of view of its player to move: `n` rows of
    /// the game's `OBSERVATION_SHAPE`.
    pub observations: Vec<f32>,
    /// The game's `OBSERVATION_SHAPE`.
    pub observation_shape: &'static [usize],
    /// Which actions are legal first actions of each leaf: `n` rows of `num_actions`.
    pub legal: Vec<bool>,
    /// The game's `NUM_DISTINCT_ACTIONS`.
    pub num_actions: usize,
    /// The number of legal moves of each leaf (`n`).
    pub move_counts: &'a [usize],
    /// The first action of every legal move, leaf after leaf (`move_counts[i]` for leaf
    /// `i`; an action begins several moves in some games): the legal entries of `legal`,
    /// listed, so that an evaluator need not scan the mask for them.
    pub first_actions: &'a [usize],
    /// The player to move at each leaf (`n`).
    pub to_play: &'a [usize],
    /// The players of the game.
    pub num_players: usize,
    /// For an evaluator that reads [`LeafInput::Cells`]: each leaf's observation as its
    /// non-zero cells (`observations` and `legal` are then empty).
    pub cells: Option<&'a ObservationCells>,
}

/// What an evaluator reads of the leaves besides their listed actions and players.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeafInput {
    /// The whole observations and the legal mask.
    Dense,
    /// Only the non-zero cells of the observations ([`LeafBatch::cells`]): a net that adds
    /// up the weights of its non-zero inputs, spared writing and scanning whole tensors.
    Cells,
}

/// How an evaluator wrote its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueLayout {
    /// Every player's value: `n` rows of `num_players`.
    PerPlayer,
    /// The value of each leaf's player to move, in the first `n` entries; the search gives
    /// every other player `-v` with two players, `-v / (players - 1)` with more.
    Mover,
}

/// Scores batches of leaves for a search: prior logits over the game's actions and values.
///
/// An evaluator plugs in by implementing [`LeafEvaluator::evaluate`] (any closure of the
/// same signature already does). [`run_batch`] calls it once per batch of leaves (whose
/// input arrays the evaluator may keep) with output buffers it keeps for the whole search: `logits` (`n * num_actions`, only the
/// legal entries are read) and `values` (`n * num_players`, or its first `n` entries for
/// [`ValueLayout::Mover`]); they are not cleared between calls, so every entry read must
/// be written. The evaluator may keep scratch space of its own in `self` (it is called
/// through `&mut self`), so a forward pass need not allocate. To search on several
/// threads ([`run_batch_split`], trees split across them), an evaluator must also be
/// `Clone + Send`: each thread searches its share of the trees with a clone. An error
/// (of any kind; [`Error::Evaluator`] for a failed evaluation) ends the search, and its
/// trees are then dropped by the callers that keep them.
pub trait LeafEvaluator {
    /// What the evaluator reads of the leaves (by default the whole observations and the
    /// legal mask).
    fn input(&self) -> LeafInput {
        LeafInput::Dense
    }

    /// Writes the prior logits and values of `leaves`.
    fn evaluate(
        &mut self,
        leaves: &mut LeafBatch<'_>,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<ValueLayout, Error>;
}

impl<F> LeafEvaluator for F
where
    F: FnMut(&mut LeafBatch<'_>, &mut [f32], &mut [f32]) -> Result<ValueLayout, Error>,
{
    fn evaluate(
        &mut self,
        leaves: &mut LeafBatch<'_>,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<ValueLayout, Error> {
        self(leaves, logits, values)
    }
}

/// The first action of `mv`, a legal move of `state`: what a learning program's policy
/// chooses between moves.
pub fn first_action<G: FullGame>(state: &G, mv: G::Move) -> usize {
    let mut list = ActionList::new();
    state.move_actions(mv, &mut list);
    // Every move takes at least one action (its list is never empty).
    list.get(0).unwrap_or(0)
}

/// The priors of a leaf's legal moves from the logits of its row (`logits`, one entry per
/// action), given the first action of each move (`firsts`), appended to `out`: a softmax
/// over the legal first actions' logits, each action's probability shared equally by the
/// moves that begin with it, so the priors sum to 1. `counts` (one per action) is zero on
/// entry and on return. `row` names the leaf in errors.
pub fn priors_of(
    row: usize,
    firsts: &[usize],
    logits: &[f32],
    counts: &mut [u32],
    out: &mut Vec<f32>,
) -> Result<(), Error> {
    let start = out.len();
    let mut most = f32::NEG_INFINITY;
    for &action in firsts {
        let logit = logits[action];
        if logit.is_nan() || logit == f32::INFINITY {
            for &a in firsts {
                counts[a] = 0;
            }
            return Err(Error::Evaluator(format!(
                "the evaluator's logits[{row}, {action}] (a legal action) is {logit}"
            )));
        }
        most = most.max(logit);
        counts[action] += 1;
    }
    if most == f32::NEG_INFINITY {
        for &a in firsts {
            counts[a] = 0;
        }
        return Err(Error::Evaluator(format!(
            "the evaluator's logits of row {row} are -inf for every legal action"
        )));
    }
    // Each legal action appears `counts[action]` times, each time with a share of
    // 1 / counts[action]: the total is the softmax's denominator over distinct actions.
    let mut total = 0.0;
    for &action in firsts {
        let share = (logits[action] - most).exp() / counts[action] as f32;
        total += share;
        out.push(share);
    }
    for p in &mut out[start..] {
        *p /= total;
    }
    for &a in firsts {
        counts[a] = 0;
    }
    Ok(())
}

/// Every player's values of `n` leaves from the evaluator's `values` in `layout`, into
/// `out` (`n * players`), checked to be finite.
fn player_values(
    layout: ValueLayout,
    values: &[f32],
    to_play: &[usize],
    players: usize,
    out: &mut Vec<f32>,
) -> Result<(), Error> {
    let n = to_play.len();
    out.clear();
    match layout {
        ValueLayout::PerPlayer => {
            let values = &values[..n * players];
            if let Some((i, v)) = values.iter().enumerate().find(|(_, v)| !v.is_finite()) {
                return Err(Error::Evaluator(format!(
                    "the evaluator's values[{}, {}] is {v}",
                    i / players,
                    i % players
                )));
            }
            out.extend_from_slice(values);
        }
        ValueLayout::Mover => {
            let values = &values[..n];
            if let Some((row, v)) = values.iter().enumerate().find(|(_, v)| !v.is_finite()) {
                return Err(Error::Evaluator(format!(
                    "the evaluator's values[{row}] is {v}"
                )));
            }
            let others = players.saturating_sub(1).max(1) as f32;
            for (&v, &mover) in values.iter().zip(to_play) {
                let other = if players == 2 { -v } else { -v / others };
                out.extend((0..players).map(|p| if p == mover { v } else { other }));
            }
        }
    }
    Ok(())
}

/// The buffers of a batched search, kept from batch to batch.
#[derive(Debug, Default)]
struct Buffers {
    to_play: Vec<usize>,
    move_counts: Vec<usize>,
    /// The first action of every leaf's moves, leaf after leaf.
    firsts: Vec<usize>,
    logits: Vec<f32>,
    values: Vec<f32>,
    player_values: Vec<f32>,
    priors: Vec<f32>,
    counts: Vec<u32>,
    cells: ObservationCells,
}

/// Runs a batched search of `trees` to `simulations` each, gathering up to `per_tree`
/// leaves per tree for each call of `evaluator`; stops early, between batches, when
/// `watch` says stop. Returns the simulations run in each tree. On an error the trees hold
/// simulations in flight that were never backed up: drop them.
pub fn run_batch<G, E>(
    trees: &mut [Tree<G>],
    config: MctsConfig,
    simulations: u64,
    per_tree: usize,
    evaluator: &mut E,
    watch: &mut Watch<'_, '_>,
) -> Result<Vec<u64>, Error>
where
    G: FullGame + Heuristic,
    E: LeafEvaluator + ?Sized,
{
    let shape = G::OBSERVATION_SHAPE;
    let obs_size: usize = shape.iter().product();
    let actions = G::NUM_DISTINCT_ACTIONS;
    let players = trees.first().map_or(2, Tree::num_players);
    let mut search = BatchSearch::new(trees, config, simulations);
    let mut b = Buffers {
        counts: vec![0; actions],
        ..Buffers::default()
    };
    while !search.finished() {
        let n = search.gather(per_tree);
        if n == 0 {
            continue;
        }
        // Made for each batch (zeroed as allocated), for the evaluator to keep if it will;
        // or, for an evaluator that reads only the non-zero cells, the cells alone.
        let dense = evaluator.input() == LeafInput::Dense;
        let (mut observations, mut legal) = if dense {
            (vec![0.0f32; n * obs_size], vec![false; n * actions])
        } else {
            (Vec::new(), Vec::new())
        };
        b.to_play.clear();
        b.move_counts.clear();
        b.firsts.clear();
        b.cells.clear();
        for i in 0..n {
            let (_, state, moves) = search.leaf(i);
            let mover = state.current_player();
            if dense {
                let row = &mut observations[i * obs_size..(i + 1) * obs_size];
                state.observation(&[], mover, row);
            } else {
                b.cells.push(state, &[], mover);
            }
            b.to_play.push(mover);
            b.move_counts.push(moves.len());
            for &mv in moves {
                let action = first_action(state, mv);
                if dense {
                    legal[i * actions + action] = true;
                }
                b.firsts.push(action);
            }
        }
        if b.logits.len() < n * actions {
            b.logits.resize(n * actions, 0.0);
        }
        if b.values.len() < n * players {
            b.values.resize(n * players, 0.0);
        }
        let mut leaves = LeafBatch {
            len: n,
            observations,
            observation_shape: shape,
            legal,
            num_actions: actions,
            move_counts: &b.move_counts,
            first_actions: &b.firsts,
            to_play: &b.to_play,
            num_players: players,
            cells: (!dense).then_some(&b.cells),
        };
        let layout = evaluator.evaluate(
            &mut leaves,
            &mut b.logits[..n * actions],
            &mut b.values[..n * players],
        )?;
        player_values(layout, &b.values, &b.to_play, players, &mut b.player_values)?;
        if config.mixes_leaves() {
            for (i, row) in b.player_values.chunks_exact_mut(players).enumerate() {
                search.mix_leaf(i, row);
            }
        }
        b.priors.clear();
        let mut at = 0;
        for (i, &count) in b.move_counts.iter().enumerate() {
            priors_of(
                i,
                &b.firsts[at..at + count],
                &b.logits[i * actions..(i + 1) * actions],
                &mut b.counts,
                &mut b.priors,
            )?;
            at += count;
        }
        search.apply(&b.priors, &b.player_values);
        if watch.check_now() {
            break;
        }
    }
    Ok(search.simulations().to_vec())
}

/// A share of the trees of [`run_batch_split`] with its clone of the evaluator.
type Share<'t, G, E> = (&'t mut [Tree<G>], E);

/// [`run_batch`] with the trees split into up to `threads` contiguous shares, each searched
/// on a thread of its own with a clone of `evaluator` (the caller's thread watches
/// `interrupt`). A tree's search depends only on its own leaves, so with an evaluator whose
/// rows do not depend on one another the result is the same for any thread count. Returns
/// the simulations run in each tree, or the first error (by share).
pub fn run_batch_split<G, E>(
    trees: &mut [Tree<G>],
    config: MctsConfig,
    simulations: u64,
    per_tree: usize,
    evaluator: &E,
    threads: usize,
    interrupt: &Interrupt<'_>,
) -> Result<Vec<u64>, Error>
where
    G: FullGame + Heuristic,
    E: LeafEvaluator + Clone + Send,
{
    let count = trees.len();
    let shares = crate::threads::thread_count(threads).clamp(1, count.max(1));
    let size = trees.len().div_ceil(shares).max(1);
    // Each share with its own clone, made here: the evaluator need only be `Send`.
    let cells: Vec<Mutex<Share<'_, G, E>>> = trees
        .chunks_mut(size)
        .map(|share| Mutex::new((share, evaluator.clone())))
        .collect();
    let done = crate::threads::run_tasks_until(cells.len(), shares, interrupt, |i, watch| {
        let mut cell = cells[i].lock().unwrap_or_else(PoisonError::into_inner);
        let (share, evaluator) = &mut *cell;
        run_batch(share, config, simulations, per_tree, evaluator, watch)
    });
    // An interrupted search is told by the interrupt, which the caller asks.
    let Ok(done) = done else {
        return Ok(vec![0; count]);
    };
    let mut out = Vec::with_capacity(count);
    for share in done {
        out.extend(share?);
    }
    Ok(out)
}
