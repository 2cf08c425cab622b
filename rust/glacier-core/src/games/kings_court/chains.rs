//! King's Court's jump chains: the masks of single jumps in a position, the depth-first
//! search over the chains of a piece (no heap allocation), their counting without listing
//! them, and the chain numbered `k` (for drawing a random move).

use super::{bit, shift, squares, KingsCourtMove};

/// Where single jumps go in a position: `masks[d]` holds every square `v` whose neighbour
/// in direction `d` is occupied and whose square beyond that is empty, so a piece on `v`
/// could jump in direction `d`.
///
/// These masks serve every jump of every chain of the side to move, unchanged while a
/// chain runs: a chain's landings keep the parity of both coordinates, so they and its
/// start square lie on one 4x4 sublattice, while every square it jumps over has exactly
/// one coordinate of the other parity, so it is never a square of the sublattice. The
/// moving piece leaving its start therefore opens no jump of its own chain (nothing can
/// jump over its empty start square) and only makes the start a landing, which the
/// no-revisit rule forbids anyway. Jumped pieces stay on the board until the move ends,
/// as the rules say; it makes no difference either, since their squares are never
/// landings and a piece can be jumped only along one line, so jumping it a second time
/// would revisit a landing.
#[inline]
pub(super) fn jump_masks(occupied: u64) -> [u64; 4] {
    let empty = !occupied;
    let mut masks = [0; 4];
    for (d, mask) in masks.iter_mut().enumerate() {
        *mask = shift(occupied & shift(empty, d ^ 2), d ^ 2);
    }
    masks
}

/// The squares a piece on `sq` can jump to, leaving out those in `visited`.
#[inline]
pub(super) fn jump_targets(masks: &[u64; 4], sq: usize, visited: u64) -> u64 {
    let b = bit(sq);
    // The masks only hold squares whose landing is on the board: no wrap-around.
    ((masks[0] & b) << 16 | (masks[1] & b) << 2 | (masks[2] & b) >> 16 | (masks[3] & b) >> 2)
        & !visited
}

/// The direction of the jump from `sq` to `land` (two squares apart on a file or rank).
#[inline]
pub(super) fn jump_direction(sq: usize, land: usize) -> usize {
    // +16 north (0), +2 east (1), -16 south (2), -2 west (3).
    2 * usize::from(land < sq) + usize::from(land.abs_diff(sq) == 2)
}

/// Depth-first search over the jump chains from `from`, on a fixed-size stack (a chain has
/// at most 15 jumps) with a visited bitboard; no heap allocation.
///
/// `visit` is called for every landing (each prefix of a chain is a move of its own) with
/// the number of jumps so far and their packed directions (two bits each, the first jump
/// lowest); it returns `true` to stop the search, and then `jump_chains` returns `true`.
#[inline]
pub(super) fn jump_chains(
    masks: &[u64; 4],
    from: usize,
    visit: impl FnMut(usize, u64) -> bool,
) -> bool {
    chains_beyond(masks, &[from], 0, visit)
}

/// The search of [`jump_chains`] over the chains that go on from a chain already made: the
/// squares `path` (the start, then each landing) reached by the jumps whose directions are
/// packed in `dirs`. `visit` hears of every landing beyond the last, in the order of
/// [`jump_chains`]; the chains are those of `jump_chains` from `path[0]` that begin with
/// `path`.
#[inline(always)]
fn chains_beyond(
    masks: &[u64; 4],
    path: &[usize],
    mut dirs: u64,
    mut visit: impl FnMut(usize, u64) -> bool,
) -> bool {
    let mut at = [0u8; KingsCourtMove::MAX_JUMPS + 1];
    // The landings still to try at each depth.
    let mut todo = [0u64; KingsCourtMove::MAX_JUMPS + 1];
    let mut visited = 0;
    for (square, &sq) in at.iter_mut().zip(path) {
        *square = sq as u8;
        visited |= bit(sq);
    }
    let base = path.len() - 1;
    let mut depth = base;
    todo[depth] = jump_targets(masks, at[depth] as usize, visited);
    loop {
        let pending = todo[depth];
        if pending == 0 {
            if depth == base {
                return false;
            }
            visited ^= bit(at[depth] as usize);
            depth -= 1;
            continue;
        }
        todo[depth] = pending & (pending - 1);
        let land = pending.trailing_zeros() as usize;
        let d = jump_direction(at[depth] as usize, land);
        // Keep the directions of the jumps below this one; drop those of abandoned branches.
        dirs = (dirs & ((1 << (2 * depth)) - 1)) | (d as u64) << (2 * depth);
        depth += 1;
        at[depth] = land as u8;
        visited |= bit(land);
        todo[depth] = jump_targets(masks, land, visited);
        if visit(depth, dirs) {
            return true;
        }
    }
}

/// The squares from which a piece could jump at all in a position: the union of the
/// [`jump_masks`]. A landing outside them ends every chain that reaches it.
#[inline]
pub(super) fn jump_sources(masks: &[u64; 4]) -> u64 {
    masks[0] | masks[1] | masks[2] | masks[3]
}

/// The number of jump chains that continue from a first landing `first`: the simple paths
/// of jumps from `first`, the path that stops there included. It depends only on the
/// position, not on which piece jumped to `first`: the piece's start square is occupied in
/// the position, so no path from `first` can land on it, and (see [`jump_masks`]) its
/// leaving opens no jump.
///
/// The same search as [`jump_chains`], trimmed for counting: the landings outside
/// `sources` ([`jump_sources`]) end their paths and are counted by a popcount, and any
/// other landing with no jump on is counted without being pushed.
///
/// The landings of the paths from `first` lie on its 4x4 sublattice and none is visited
/// twice: the count is at most the number of simple paths from one vertex of a 4x4 grid,
/// 2,111 (from a corner), so it fits in a `u16`.
pub(super) fn continuations(masks: &[u64; 4], sources: u64, first: usize) -> u64 {
    let mut visited = bit(first);
    let targets = jump_targets(masks, first, visited);
    let mut all = 1 + u64::from((targets & !sources).count_ones());
    let mut at = [0u8; KingsCourtMove::MAX_JUMPS + 1];
    let mut todo = [0u64; KingsCourtMove::MAX_JUMPS + 1];
    at[0] = first as u8;
    todo[0] = targets & sources;
    let mut depth = 0usize;
    loop {
        let pending = todo[depth];
        if pending == 0 {
            if depth == 0 {
                return all;
            }
            visited ^= bit(at[depth] as usize);
            depth -= 1;
            continue;
        }
        todo[depth] = pending & (pending - 1);
        let land = pending.trailing_zeros() as usize;
        let onward = jump_targets(masks, land, visited | bit(land));
        all += 1 + u64::from((onward & !sources).count_ones());
        if onward & sources != 0 {
            depth += 1;
            at[depth] = land as u8;
            visited |= bit(land);
            todo[depth] = onward & sources;
        }
    }
}

/// The number of jump chains of the pieces `own` ([`KingsCourt::count_moves`] without the
/// steps). Every chain is a first jump followed by one of the continuations from its first
/// landing: they are counted once per first landing, for all the pieces that jump there.
/// A first landing outside `sources` has one continuation (stopping there): those are
/// counted by popcounts. `keep` is told the count of each other first landing.
#[inline(always)]
pub(super) fn count_chains(masks: &[u64; 4], own: u64, mut keep: impl FnMut(usize, u64)) -> u64 {
    let sources = jump_sources(masks);
    let mut n = 0u64;
    let mut deep_firsts = 0u64;
    // landings[d]: the first landings of the jumps of `own` in direction d.
    let mut landings = [0u64; 4];
    for (d, mask) in masks.iter().enumerate() {
        landings[d] = shift(shift(mask & own, d), d);
        n += u64::from((landings[d] & !sources).count_ones());
        deep_firsts |= landings[d] & sources;
    }
    for first in squares(deep_firsts) {
        // The pieces that jump to `first`: one per direction whose landings hold it.
        let jumpers = landings.iter().map(|&l| (l >> first) & 1).sum::<u64>();
        let chains = continuations(masks, sources, first);
        keep(first, chains);
        n += jumpers * chains;
    }
    n
}

/// The chain of jumps from `from` numbered `k` (from 0) among those whose first jump lands
/// on `first` (in direction `first_dir`), in the order of [`jump_chains`]: the chain that
/// stops at `first`, then depth first over the landings beyond it, lowest square first.
/// `None` when there are not that many.
pub(super) fn nth_chain(
    masks: &[u64; 4],
    from: usize,
    first_dir: usize,
    first: usize,
    mut k: u64,
) -> Option<KingsCourtMove> {
    if k == 0 {
        return Some(KingsCourtMove::chain(from, 1, first_dir as u64));
    }
    let mut found = None;
    chains_beyond(masks, &[from, first], first_dir as u64, |depth, dirs| {
        k -= 1;
        if k == 0 {
            found = Some(KingsCourtMove::chain(from, depth, dirs));
        }
        k == 0
    });
    found
}
