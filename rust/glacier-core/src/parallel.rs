//! Perft, perft divide and random playouts, spread over threads as tasks of
//! [`crate::threads::run_tasks_until`] (so results never depend on the thread count).
//! Each function has an `_until` form that takes an [`Interrupt`] and stops early when told
//! (the caller's thread polls its check while the workers count), and that reports results
//! it cannot allocate instead of aborting.

use crate::game::MoveBuffer;
use crate::interrupt::{Interrupt, Stopped, Watch};
use crate::perft::PerftTable;
use crate::rng::SplitMix64;
use crate::threads::{run_tasks_until, thread_count};
use crate::{Game, Notation, Outcome};

/// Perft on `threads` threads: the tree is split a few plies down into enough subtrees to keep
/// every thread busy, then the subtrees are counted in parallel (each bulk-counted).
pub fn perft<G: Game>(state: &G, depth: u32, threads: usize) -> u64 {
    perft_until(state, depth, threads, &Interrupt::never())
        .expect("work without an interrupt runs to its end")
}

/// [`perft`] that stops early when `interrupt` says stop.
pub fn perft_until<G: Game>(
    state: &G,
    depth: u32,
    threads: usize,
    interrupt: &Interrupt<'_>,
) -> Result<u64, Stopped> {
    split_perft(state, depth, threads, interrupt, crate::perft::perft_until)
}

/// [`perft`] with a transposition table that every thread shares
/// ([`crate::perft::perft_hashed`]); the same count.
pub fn perft_hashed<G: Game>(state: &G, depth: u32, threads: usize, table: &PerftTable) -> u64 {
    perft_hashed_until(state, depth, threads, table, &Interrupt::never())
        .expect("work without an interrupt runs to its end")
}

/// [`perft_hashed`] that stops early when `interrupt` says stop.
pub fn perft_hashed_until<G: Game>(
    state: &G,
    depth: u32,
    threads: usize,
    table: &PerftTable,
    interrupt: &Interrupt<'_>,
) -> Result<u64, Stopped> {
    split_perft(state, depth, threads, interrupt, |s, d, watch| {
        crate::perft::perft_hashed_until(s, d, table, watch)
    })
}

/// The tree split a few plies down, the subtrees counted by `count` on the threads.
fn split_perft<G: Game>(
    state: &G,
    depth: u32,
    threads: usize,
    interrupt: &Interrupt<'_>,
    count: impl Fn(&G, u32, &mut Watch<'_, '_>) -> u64 + Sync,
) -> Result<u64, Stopped> {
    let threads = thread_count(threads);
    if threads <= 1 || depth < 3 {
        let nodes = count(state, depth, &mut interrupt.caller());
        return interrupt.result(nodes);
    }
    let mut frontier = vec![state.clone()];
    let mut remaining = depth;
    while frontier.len() < threads * 16 && remaining > 2 {
        let mut next = Vec::new();
        for s in &frontier {
            s.generate_moves(&mut |mv| {
                let mut child = s.clone();
                child.play_unchecked(mv);
                next.push(child);
            });
        }
        frontier = next;
        remaining -= 1;
    }
    Ok(
        run_tasks_until(frontier.len(), threads, interrupt, |i, watch| {
            count(&frontier[i], remaining, watch)
        })?
        .into_iter()
        .sum(),
    )
}

/// Perft below every legal move: `(move text, leaf count)`, sorted by move text.
pub fn divide<G: Notation>(state: &G, depth: u32, threads: usize) -> Vec<(String, u64)> {
    divide_until(state, depth, threads, &Interrupt::never())
        .expect("work without an interrupt runs to its end")
}

/// [`divide`] that stops early when `interrupt` says stop.
pub fn divide_until<G: Notation>(
    state: &G,
    depth: u32,
    threads: usize,
    interrupt: &Interrupt<'_>,
) -> Result<Vec<(String, u64)>, Stopped> {
    if depth == 0 {
        return Ok(Vec::new());
    }
    let mut children = Vec::new();
    state.generate_moves(&mut |mv| {
        let mut child = state.clone();
        child.play_unchecked(mv);
        children.push((state.move_text(mv), child));
    });
    let threads = thread_count(threads);
    let counts: Vec<u64> = if children.len() >= threads {
        run_tasks_until(children.len(), threads, interrupt, |i, watch| {
            crate::perft::perft_until(&children[i].1, depth - 1, watch)
        })?
    } else {
        children
            .iter()
            .map(|(_, c)| perft_until(c, depth - 1, threads, interrupt))
            .collect::<Result<_, _>>()?
    };
    let mut out: Vec<(String, u64)> = children
        .into_iter()
        .map(|(text, _)| text)
        .zip(counts)
        .collect();
    out.sort_unstable();
    Ok(out)
}

/// What one random playout did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Playout {
    /// Plies played.
    pub length: u32,
    /// The outcome at the end (`Ongoing` when cut off by `cutoff`).
    pub outcome: Outcome,
    /// The sum over the plies played of the number of legal moves (branching factor * length).
    pub legal_moves: u64,
}

/// One game of uniformly random legal moves from `start`, stopped at the end of the game or
/// after `cutoff` plies. Game `index` of a batch seeded `seed` always plays the same moves.
pub fn playout<G: Game>(start: &G, seed: u64, index: u64, cutoff: Option<u32>) -> Playout {
    let mut rng = SplitMix64::stream(seed, index);
    let mut state = start.clone();
    let mut result = Playout {
        length: 0,
        outcome: state.outcome(),
        legal_moves: 0,
    };
    let mut buffer: MoveBuffer<G::Move> = MoveBuffer::new();
    while cutoff.is_none_or(|c| result.length < c) {
        let Some((mv, count)) = state.random_move(&mut rng, &mut buffer) else {
            break;
        };
        state.play_unchecked(mv);
        result.length += 1;
        result.legal_moves += count;
    }
    result.outcome = state.outcome();
    result
}

/// `games` random playouts on `threads` threads; the same for any thread count.
pub fn playouts<G: Game>(
    start: &G,
    games: usize,
    seed: u64,
    threads: usize,
    cutoff: Option<u32>,
) -> Vec<Playout> {
    playouts_until(start, games, seed, threads, cutoff, &Interrupt::never())
        .expect("playouts without an interrupt run to their end")
}

/// [`playouts`] that stops between games when `interrupt` says stop, and reports a number
/// of games whose results cannot be allocated.
pub fn playouts_until<G: Game>(
    start: &G,
    games: usize,
    seed: u64,
    threads: usize,
    cutoff: Option<u32>,
    interrupt: &Interrupt<'_>,
) -> Result<Vec<Playout>, Stopped> {
    run_tasks_until(games, threads, interrupt, |i, _| {
        playout(start, seed, i as u64, cutoff)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GAME_NAMES;
    use crate::{with_game, GameParams, ParamValue};

    /// The start of every game with its default parameters, and with the most players it
    /// allows (the most legal moves of any start).
    fn starts() -> Vec<(&'static str, Vec<(&'static str, ParamValue)>)> {
        let mut out = Vec::new();
        for &name in GAME_NAMES {
            out.push((name, Vec::new()));
            with_game!(name, G => {
                let specs = <<G as Game>::Params as GameParams>::SPECS;
                if let Some(players) = specs.iter().find(|p| p.name == "players") {
                    out.push((name, vec![("players", ParamValue::Int(players.max))]));
                }
            }, _ => unreachable!());
        }
        out
    }

    fn agree_with_serial<G: Notation>(start: &G) {
        let (deep, serial) = (crate::perft::perft(start, 4), crate::perft::perft(start, 3));
        for threads in [1, 2, 3] {
            assert_eq!(perft(start, 4, threads), deep, "{}", G::NAME);
            let div = divide(start, 3, threads);
            assert_eq!(div.len() as u64, start.count_moves());
            assert_eq!(div.iter().map(|(_, n)| n).sum::<u64>(), serial);
        }
    }

    #[test]
    fn parallel_perft_and_divide_agree_with_serial() {
        for &name in GAME_NAMES {
            with_game!(name, G => {
                agree_with_serial(&G::start(&crate::game::params_from::<G>(&[]).expect("defaults")));
            }, _ => unreachable!());
        }
    }

    /// A playout as it was played before `Game::random_move`: count, then find the move.
    fn counted_playout<G: Game>(start: &G, seed: u64, index: u64) -> Playout {
        let mut rng = SplitMix64::stream(seed, index);
        let mut state = start.clone();
        let (mut length, mut legal_moves) = (0, 0);
        loop {
            let count = state.count_moves();
            if count == 0 {
                break;
            }
            let mv = state
                .nth_move(rng.below(count))
                .expect("a move below the count");
            state.play_unchecked(mv);
            length += 1;
            legal_moves += count;
        }
        Playout {
            length,
            outcome: state.outcome(),
            legal_moves,
        }
    }

    fn same_games_as_counted<G: Game>(start: &G, games: u64) {
        for index in 0..games {
            assert_eq!(
                playout(start, 11, index, None),
                counted_playout(start, 11, index),
                "{} game {index}",
                G::NAME
            );
        }
    }

    #[test]
    fn one_generation_plays_the_games_counting_played() {
        for (name, params) in starts() {
            with_game!(name, G => {
                let start = G::start(&crate::game::params_from::<G>(&params).expect("valid"));
                same_games_as_counted(&start, if params.is_empty() { 30 } else { 5 });
            }, _ => unreachable!());
        }
    }

    fn drawn_alike<G: Game>(start: &G) {
        // A buffer of 3 moves: most draws fall beyond it and generate again.
        let mut rng = SplitMix64::new(5);
        let mut again = rng.clone();
        let mut state = start.clone();
        for _ in 0..50 {
            let Some((mv, count)) = state.random_move(&mut rng, &mut MoveBuffer::<_, 3>::new())
            else {
                break;
            };
            let expected = state.nth_move(again.below(state.count_moves()));
            assert_eq!((Some(mv), count), (expected, state.count_moves()));
            state.play_unchecked(mv);
        }
    }

    #[test]
    fn a_position_with_more_moves_than_the_buffer_holds_is_drawn_alike() {
        for (name, params) in starts() {
            with_game!(name, G => {
                drawn_alike(&G::start(&crate::game::params_from::<G>(&params).expect("valid")));
            }, _ => unreachable!());
        }
    }

    fn same_playouts<G: Game>(start: &G) {
        let one = playouts(start, 40, 7, 1, None);
        let three = playouts(start, 40, 7, 3, None);
        assert_eq!(one, three, "{}", G::NAME);
        assert!(one.iter().all(|p| p.outcome != Outcome::Ongoing));
        let cut = playouts(start, 10, 7, 2, Some(5));
        assert!(cut.iter().all(|p| p.length <= 5));
    }

    #[test]
    fn playouts_do_not_depend_on_threads() {
        for &name in GAME_NAMES {
            with_game!(name, G => {
                same_playouts(&G::start(&crate::game::params_from::<G>(&[]).expect("defaults")));
            }, _ => unreachable!());
        }
    }
}
