//! Alpha-beta for two-player games: iterative-deepening negamax with a transposition table
//! keyed by the Zobrist hash, move ordering (the table's move, then the game's move
//! priority, then two killer moves per ply) and a quiescence search through tactical
//! moves, scored by an [`Evaluation`]: the game's [`Heuristic`] ([`HeuristicScore`]), or
//! a learned one (an evaluation net, [`crate::net::evaluation::incremental::NetScore`]),
//! told as the search goes which node each ply holds, so that it can keep what it
//! computes per ply and build a child's from its parent's.
//!
//! Scores are integers from the point of view of the player to move: the evaluation's
//! value for that player times [`SCALE`], and `WIN - plies` for a forced win that many
//! plies away (`-(WIN - plies)` for a forced loss). A move that leaves the same player to
//! move (none of the two-player games has one today) keeps the score's sign.

use super::{heuristic_of_mover, Budget, Heuristic};
use crate::{Error, Game, Outcome};

/// Heuristic values (in `[-1, 1]`) are scaled by this to integer scores.
pub const SCALE: f32 = 1_000_000.0;
/// The score of a win on the spot; a win `k` plies away scores `WIN - k`.
pub const WIN: i32 = 1_000_000_000;
/// Scores beyond this are forced wins (and below its negation, forced losses).
pub const WIN_BOUND: i32 = WIN - 10_000;
/// The deepest iteration (and the longest principal variation).
pub const MAX_DEPTH: u32 = 64;
/// Quiescence goes at most this many plies past the depth.
const QUIESCENCE_PLIES: u32 = 8;
/// The transposition table starts with 2^12 entries (a shallow search pays little to set it
/// up) and grows fourfold between iterations while the last one visited more nodes than it
/// holds, up to 2^20 entries.
const FIRST_TABLE_BITS: u32 = 12;
const MAX_TABLE_BITS: u32 = 20;
/// How often (in nodes) the clock and the stop flag are read.
const CHECK_EVERY: u64 = 1024;

/// The static score of alpha-beta's positions, told which node each ply of the search
/// holds: a node at ply `p` is entered ([`Evaluation::enter`]) right before it is
/// searched, and is then the child of the node at ply `p - 1` (the root is ply 0, given to
/// [`Evaluation::start`]); it is expanded ([`Evaluation::expand`]) before its children are
/// entered, and scored ([`Evaluation::score`]) at most once. An evaluation may therefore
/// build what it keeps for a node from what it kept for the node's parent.
pub trait Evaluation<G: Game> {
    /// A new search from `root`.
    fn start(&mut self, root: &G);
    /// The node at `ply` changes to a new one (a child of the node at `ply - 1`).
    fn enter(&mut self, ply: usize);
    /// The node at `ply`, `state`, is about to have its children searched.
    fn expand(&mut self, ply: usize, state: &G);
    /// The value of `state` (the node at `ply`, not over) for its player to move, in
    /// `[-1, 1]`.
    fn score(&mut self, ply: usize, state: &G) -> f32;
}

/// The game's [`Heuristic`] as alpha-beta's score: nothing kept from node to node.
#[derive(Debug, Clone, Copy, Default)]
pub struct HeuristicScore;

impl<G: Heuristic> Evaluation<G> for HeuristicScore {
    #[inline]
    fn start(&mut self, _root: &G) {}

    #[inline]
    fn enter(&mut self, _ply: usize) {}

    #[inline]
    fn expand(&mut self, _ply: usize, _state: &G) {}

    #[inline]
    fn score(&mut self, _ply: usize, state: &G) -> f32 {
        heuristic_of_mover(state)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The score is at least this (a cut-off).
    Lower,
    /// The score is at most this (no move raised alpha).
    Upper,
}

#[derive(Debug, Clone, Copy)]
struct Entry<M> {
    key: u64,
    best: Option<M>,
    score: i32,
    depth: u32,
    bound: Bound,
}

/// What alpha-beta found.
#[derive(Debug, Clone, PartialEq)]
pub struct AlphaBetaResult<M> {
    /// The best move of the deepest iteration completed.
    pub best: M,
    /// Its score, from the point of view of the player to move (see the module docs).
    pub score: i32,
    /// The depth of that iteration.
    pub depth: u32,
    /// The principal variation, the best move first.
    pub pv: Vec<M>,
    /// Nodes visited over every iteration (quiescence included).
    pub nodes: u64,
}

/// A score of a forced result as plies to the end: positive when the player to move
/// wins; `None` for a heuristic score.
#[must_use]
pub fn plies_to_end(score: i32) -> Option<i32> {
    if score > WIN_BOUND {
        Some(WIN - score)
    } else if score < -WIN_BOUND {
        Some(-(WIN + score))
    } else {
        None
    }
}

struct Searcher<'b, 'e, G: Game, E> {
    evaluation: &'e mut E,
    table: Vec<Option<Entry<G::Move>>>,
    mask: u64,
    budget: &'b Budget<'b>,
    nodes: u64,
    /// Past this many nodes (checked every [`CHECK_EVERY`]) the iteration under way stops.
    max_nodes: u64,
    aborted: bool,
    /// Whether the deadline may abort the current iteration (not before depth 1 is done).
    may_abort: bool,
    /// Per ply: the moves with their ordering keys.
    lists: Vec<Vec<(G::Move, i32)>>,
    killers: Vec<[Option<G::Move>; 2]>,
    /// Triangular principal-variation table: `pv[ply]` is the line from `ply` on.
    pv: Vec<Vec<G::Move>>,
}

impl<G: Heuristic, E: Evaluation<G>> Searcher<'_, '_, G, E> {
    fn time_up(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes % CHECK_EVERY == 0 {
            let stop = self.budget.stop.load(std::sync::atomic::Ordering::Relaxed);
            let spent = self.nodes >= self.max_nodes || self.budget.out_of_time();
            if stop || (self.may_abort && spent) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The static score of a state that is not over (the node at `ply`), for the player
    /// to move.
    fn evaluate(&mut self, state: &G, ply: u32) -> i32 {
        let v = self.evaluation.score(ply as usize, state).clamp(-1.0, 1.0);
        (v * SCALE) as i32
    }

    /// The score of a state without legal moves, `ply` plies from the root.
    fn terminal(state: &G, ply: u32) -> i32 {
        match state.outcome() {
            Outcome::Win(w) if w as usize == state.current_player() => WIN - ply as i32,
            Outcome::Win(_) => -(WIN - ply as i32),
            Outcome::Draw | Outcome::Ongoing => 0,
        }
    }

    /// Fills the list of ply `ply` with the legal moves (all, or the tactical ones),
    /// ordered: the table's move, the killers, then by the game's priority.
    fn order(&mut self, state: &G, ply: usize, best: Option<G::Move>, tactical_only: bool) {
        while self.lists.len() <= ply {
            self.lists.push(Vec::new());
            self.killers.push([None; 2]);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        let killers = self.killers[ply];
        state.generate_moves(&mut |mv| {
            if tactical_only && !state.is_tactical(mv) {
                return;
            }
            let key = if Some(mv) == best {
                i32::MAX
            } else if Some(mv) == killers[0] {
                i32::MAX - 2
            } else if Some(mv) == killers[1] {
                i32::MAX - 3
            } else {
                state.move_priority(mv).min(i32::MAX - 4)
            };
            list.push((mv, key));
        });
        // Stable: equal keys keep the generation order, so the search is deterministic.
        list.sort_by_key(|&(_, key)| std::cmp::Reverse(key));
        self.lists[ply] = list;
    }

    fn store(
        &mut self,
        key: u64,
        best: Option<G::Move>,
        score: i32,
        depth: u32,
        bound: Bound,
        ply: u32,
    ) {
        // Forced results are stored relative to this node, so they read the same from any ply.
        let score = if score > WIN_BOUND {
            score + ply as i32
        } else if score < -WIN_BOUND {
            score - ply as i32
        } else {
            score
        };
        let slot = &mut self.table[(key & self.mask) as usize];
        if slot.is_none_or(|e| e.key != key || e.depth <= depth) {
            *slot = Some(Entry {
                key,
                best,
                score,
                depth,
                bound,
            });
        }
    }

    /// A table four times larger holding the entries of this one.
    fn grow(&mut self) {
        let size = self.table.len() * 4;
        let old = std::mem::replace(&mut self.table, vec![None; size]);
        self.mask = size as u64 - 1;
        for entry in old.into_iter().flatten() {
            self.table[(entry.key & self.mask) as usize] = Some(entry);
        }
    }

    fn probe(&self, key: u64, ply: u32) -> Option<Entry<G::Move>> {
        let mut entry = self.table[(key & self.mask) as usize].filter(|e| e.key == key)?;
        if entry.score > WIN_BOUND {
            entry.score -= ply as i32;
        } else if entry.score < -WIN_BOUND {
            entry.score += ply as i32;
        }
        Some(entry)
    }

    fn child_score(
        &mut self,
        state: &G,
        child: &G,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if child.current_player() == state.current_player() {
            self.negamax(child, depth, ply + 1, alpha, beta)
        } else {
            -self.negamax(child, depth, ply + 1, -beta, -alpha)
        }
    }

    fn negamax(&mut self, state: &G, depth: u32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.time_up() {
            return 0;
        }
        let p = ply as usize;
        if self.pv.len() <= p + 1 {
            self.pv.resize_with(p + 2, Vec::new);
        }
        self.pv[p].clear();
        if depth == 0 || ply >= MAX_DEPTH + QUIESCENCE_PLIES {
            return self.quiescence(state, ply, alpha, beta, 0);
        }
        let key = state.hash();
        let entry = self.probe(key, ply);
        if let Some(e) = entry {
            if e.depth >= depth && ply > 0 {
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                };
                if usable {
                    return e.score;
                }
            }
        }
        self.order(state, p, entry.and_then(|e| e.best), false);
        if self.lists[p].is_empty() {
            return Self::terminal(state, ply);
        }
        self.evaluation.expand(p, state);
        let original_alpha = alpha;
        let mut best_score = i32::MIN + 1;
        let mut best_move = None;
        let mut i = 0;
        while i < self.lists[p].len() {
            let mv = self.lists[p][i].0;
            i += 1;
            let mut child = state.clone();
            child.play_unchecked(mv);
            self.evaluation.enter(p + 1);
            let score = self.child_score(state, &child, depth - 1, ply, alpha, beta);
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(p + 1);
                    head[p].clear();
                    head[p].push(mv);
                    head[p].extend_from_slice(&tail[0]);
                }
                if score >= beta {
                    if !state.is_tactical(mv) {
                        let k = &mut self.killers[p];
                        if k[0] != Some(mv) {
                            k[1] = k[0];
                            k[0] = Some(mv);
                        }
                    }
                    break;
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(key, best_move, best_score, depth, bound, ply);
        best_score
    }

    /// Searches only tactical moves past the depth, the static score standing in for the
    /// quiet ones ("stand pat").
    fn quiescence(&mut self, state: &G, ply: u32, mut alpha: i32, beta: i32, extra: u32) -> i32 {
        if !state.has_moves() {
            return Self::terminal(state, ply);
        }
        let stand = self.evaluate(state, ply);
        if stand >= beta || extra >= QUIESCENCE_PLIES {
            return stand;
        }
        alpha = alpha.max(stand);
        let p = ply as usize;
        self.order(state, p, None, true);
        self.evaluation.expand(p, state);
        let mut best = stand;
        let mut i = 0;
        while i < self.lists[p].len() {
            let mv = self.lists[p][i].0;
            i += 1;
            self.nodes += 1;
            if self.time_up() {
                return 0;
            }
            let mut child = state.clone();
            child.play_unchecked(mv);
            self.evaluation.enter(p + 1);
            let score = if child.current_player() == state.current_player() {
                self.quiescence(&child, ply + 1, alpha, beta, extra + 1)
            } else {
                -self.quiescence(&child, ply + 1, -beta, -alpha, extra + 1)
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }
        best
    }
}

/// Iterative-deepening alpha-beta from `state` (a two-player game that is not over),
/// to the depth `budget.limit` (at most [`MAX_DEPTH`]) or until its deadline, scored by
/// the game's heuristic; the deadline never interrupts depth 1. Stops early at a forced
/// result. Returns the result of the deepest iteration completed.
pub fn alphabeta<G: Heuristic>(
    state: &G,
    budget: &Budget<'_>,
) -> Result<AlphaBetaResult<G::Move>, Error> {
    alphabeta_with(state, budget, None, &mut HeuristicScore)
}

/// [`alphabeta`] scored by `evaluation`, and with `max_nodes`, stopping the iteration under
/// way once it has visited that many nodes in all (as the deadline stops it: never depth
/// 1). A node budget, unlike a deadline, gives the same search on any machine.
pub fn alphabeta_with<G: Heuristic, E: Evaluation<G>>(
    state: &G,
    budget: &Budget<'_>,
    max_nodes: Option<u64>,
    evaluation: &mut E,
) -> Result<AlphaBetaResult<G::Move>, Error> {
    if state.num_players() != 2 {
        return Err(Error::InvalidParameter(format!(
            "alpha-beta is for two-player games; this {} position has {} players",
            G::NAME,
            state.num_players()
        )));
    }
    let max_depth = budget
        .limit
        .map_or(MAX_DEPTH, |d| (d as u32).clamp(1, MAX_DEPTH));
    evaluation.start(state);
    let mut searcher = Searcher::<G, E> {
        evaluation,
        table: vec![None; 1 << FIRST_TABLE_BITS],
        mask: (1 << FIRST_TABLE_BITS) - 1,
        budget,
        nodes: 0,
        max_nodes: max_nodes.unwrap_or(u64::MAX),
        aborted: false,
        may_abort: false,
        lists: Vec::new(),
        killers: Vec::new(),
        pv: Vec::new(),
    };
    let mut result: Option<AlphaBetaResult<G::Move>> = None;
    for depth in 1..=max_depth {
        let before = searcher.nodes;
        let score = searcher.negamax(state, depth, 0, -WIN - 1, WIN + 1);
        if searcher.aborted {
            break;
        }
        searcher.may_abort = true;
        let pv = searcher.pv.first().cloned().unwrap_or_default();
        let Some(&best) = pv.first() else {
            break;
        };
        result = Some(AlphaBetaResult {
            best,
            score,
            depth,
            pv,
            nodes: searcher.nodes,
        });
        if plies_to_end(score).is_some()
            || budget.out_of_time()
            || searcher.nodes >= searcher.max_nodes
        {
            break;
        }
        if searcher.nodes - before > searcher.table.len() as u64
            && searcher.table.len() < 1 << MAX_TABLE_BITS
        {
            searcher.grow();
        }
    }
    match result {
        Some(mut r) => {
            r.nodes = searcher.nodes;
            Ok(r)
        }
        None if state.is_terminal() => Err(Error::IllegalMove(format!(
            "no move to search: the {} game is over",
            G::NAME
        ))),
        None => Err(Error::InvalidParameter("the search was stopped".into())),
    }
}
