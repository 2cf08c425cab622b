//! Perft: the number of leaves of the legal-move tree, the standard move-generator test.

use crate::interrupt::{Interrupt, Watch};
use crate::{Error, Game};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Copy-make perft with bulk counting at the last ply.
pub fn perft<G: Game>(state: &G, depth: u32) -> u64 {
    perft_until(state, depth, &mut Interrupt::never().caller())
}

/// Perft that plays every leaf move instead of counting them in bulk
/// (to measure the cost of `play`; same result as [`perft`]).
pub fn perft_no_bulk<G: Game>(state: &G, depth: u32) -> u64 {
    perft_no_bulk_until(state, depth, &mut Interrupt::never().caller())
}

/// [`perft`] that gives up when `watch` says stop (once per interior node): the count is
/// then short, and the watch's interrupt says so.
///
/// A game with a faster count of its own for a position ([`Game::own_perft`]: Ice Age
/// Chess where the next `depth` plies hold no Ice Age and no end of the game) counts it
/// that way; the count is the same.
pub fn perft_until<G: Game>(state: &G, depth: u32, watch: &mut Watch<'_, '_>) -> u64 {
    if let Some(count) = state.own_perft(depth, watch) {
        return count;
    }
    match depth {
        0 => 1,
        1 => state.count_moves(),
        _ => {
            let mut nodes = 0;
            if watch.should_stop() {
                return nodes;
            }
            state.generate_moves(&mut |mv| {
                let mut child = state.clone();
                child.play_unchecked(mv);
                nodes += perft_until(&child, depth - 1, watch);
            });
            nodes
        }
    }
}

/// [`perft_no_bulk`] that gives up when `watch` says stop, as [`perft_until`].
pub fn perft_no_bulk_until<G: Game>(state: &G, depth: u32, watch: &mut Watch<'_, '_>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    if depth >= 2 && watch.should_stop() {
        return nodes;
    }
    state.generate_moves(&mut |mv| {
        let mut child = state.clone();
        child.play_unchecked(mv);
        nodes += perft_no_bulk_until(&child, depth - 1, watch);
    });
    nodes
}

/// The most memory a [`PerftTable`] may take, in MiB (1 TiB): a larger request is refused
/// rather than left for the allocator to fail.
pub const MAX_HASH_MB: usize = 1 << 20;

/// A transposition table for perft: leaf counts by [`Game::transposition_key`] and depth,
/// in `2^k` slots of two words. Threads share one table without locks: a slot holds
/// `key ^ data` and `data` (`data` = count << 16 | generation << 8 | depth), so a slot torn
/// by two writers no longer matches its key and is simply a miss. Every slot is replaced by
/// the latest store.
///
/// Each count belongs to a generation: [`PerftTable::reuse`] starts a new one, after which
/// the older entries never match (their ply counts may differ), so a table is reused
/// without clearing it.
#[derive(Debug)]
pub struct PerftTable {
    slots: Vec<AtomicU64>,
    /// The number of slots minus one (slot `i` is words `2i` and `2i + 1`).
    mask: u64,
    /// 1-255; 0 marks the empty slots.
    generation: u64,
    hash_mb: usize,
}

impl PerftTable {
    /// A table of at most `hash_mb` MiB (the largest power of two of slots that fits; at
    /// least one slot).
    pub fn new(hash_mb: usize) -> Result<PerftTable, Error> {
        if hash_mb > MAX_HASH_MB {
            return Err(Error::InvalidParameter(format!(
                "hash_mb must be at most {MAX_HASH_MB}, got {hash_mb}"
            )));
        }
        let wanted = (hash_mb << 20) / 16;
        let slots = if wanted <= 1 {
            1
        } else {
            1usize << (usize::BITS - 1 - wanted.leading_zeros())
        };
        let mut words = Vec::new();
        words.try_reserve_exact(2 * slots).map_err(|_| {
            Error::InvalidParameter(format!("no memory for a perft table of {hash_mb} MiB"))
        })?;
        words.extend((0..2 * slots).map(|_| AtomicU64::new(0)));
        Ok(PerftTable {
            slots: words,
            mask: slots as u64 - 1,
            generation: 1,
            hash_mb,
        })
    }

    /// Empties the table for a new count: a new generation, or every slot cleared once the
    /// 255 generations are used up.
    pub fn reuse(&mut self) {
        self.generation += 1;
        if self.generation > 0xFF {
            for word in &self.slots {
                word.store(0, Ordering::Relaxed);
            }
            self.generation = 1;
        }
    }

    /// The table's size as asked for, in MiB.
    #[must_use]
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    #[inline]
    fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let i = 2 * (key & self.mask) as usize;
        let data = self.slots[i + 1].load(Ordering::Relaxed);
        let check = self.slots[i].load(Ordering::Relaxed);
        let tag = self.generation << 8 | u64::from(depth);
        (check ^ data == key && data & 0xFFFF == tag).then_some(data >> 16)
    }

    #[inline]
    fn store(&self, key: u64, depth: u32, nodes: u64) {
        // Counts of 2^48 (2.8 * 10^14) or more are not kept: each takes days to count.
        if nodes >> 48 == 0 {
            let data = nodes << 16 | self.generation << 8 | u64::from(depth);
            let i = 2 * (key & self.mask) as usize;
            self.slots[i].store(key ^ data, Ordering::Relaxed);
            self.slots[i + 1].store(data, Ordering::Relaxed);
        }
    }
}

/// The most memory, in MiB, of a table kept for the next call by [`with_table`].
pub const MAX_SPARE_MB: usize = 256;

/// The table the last count with a table left behind, for the next one of the same size:
/// allocating (and first touching) tens of MiB takes longer than many perfts it serves.
static SPARE_TABLE: Mutex<Option<PerftTable>> = Mutex::new(None);

/// Runs `count` with an empty table of `hash_mb` MiB: the one the last such call kept
/// when it has that size (and no other call is using it), else a new one. A table of at
/// most [`MAX_SPARE_MB`] is kept afterwards for the next call (replacing any other).
pub fn with_table<T>(hash_mb: usize, count: impl FnOnce(&PerftTable) -> T) -> Result<T, Error> {
    let spare = SPARE_TABLE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    // A spare of another size is dropped here, before a new table takes memory.
    let mut table = match spare.filter(|t| t.hash_mb == hash_mb) {
        Some(table) => table,
        None => PerftTable::new(hash_mb)?,
    };
    let result = count(&table);
    if hash_mb <= MAX_SPARE_MB {
        table.reuse();
        *SPARE_TABLE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(table);
    }
    Ok(result)
}

/// [`perft`] that looks every state of depth 2 or more up in `table` first, and stores its
/// count there: transpositions are counted once. The result is [`perft`]'s (the keys are
/// 64-bit, compared in full).
pub fn perft_hashed<G: Game>(state: &G, depth: u32, table: &PerftTable) -> u64 {
    perft_hashed_until(state, depth, table, &mut Interrupt::never().caller())
}

/// [`perft_hashed`] that gives up when `watch` says stop, as [`perft_until`]. A count cut
/// short is never stored, so the table (which a later count may reuse) holds whole counts
/// only.
pub fn perft_hashed_until<G: Game>(
    state: &G,
    depth: u32,
    table: &PerftTable,
    watch: &mut Watch<'_, '_>,
) -> u64 {
    match depth {
        0 => 1,
        1 => state.count_moves(),
        _ => {
            if watch.should_stop() {
                return 0;
            }
            // A depth must fit the slot's 8 bits (deeper perfts never finish anyway).
            let key = (depth <= 0xFF).then(|| state.transposition_key(depth));
            if let Some(nodes) = key.and_then(|key| table.probe(key, depth)) {
                return nodes;
            }
            let mut nodes = 0;
            state.generate_moves(&mut |mv| {
                let mut child = state.clone();
                child.play_unchecked(mv);
                nodes += perft_hashed_until(&child, depth - 1, table, watch);
            });
            if let Some(key) = key {
                if !watch.is_stopped() {
                    table.store(key, depth, nodes);
                }
            }
            nodes
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{with_game, ActionEncoding, Notation, Session};

    fn agree<G: Notation + ActionEncoding>(
        text: Option<&str>,
        params: &[(&str, crate::ParamValue)],
        depth: u32,
    ) {
        let session = match text {
            Some(text) => Session::<G>::from_text(text, params),
            None => Session::<G>::new(params),
        }
        .expect("a valid position");
        let state = session.state();
        // A table of one slot (every store overwrites) and a roomy one, emptied for each
        // count (a count may find only states from its own root at its own ply counts).
        for hash_mb in [0, 4] {
            let mut table = PerftTable::new(hash_mb).expect("a small table");
            for d in 0..=depth {
                table.reuse();
                assert_eq!(
                    perft_hashed(state, d, &table),
                    perft(state, d),
                    "{} {text:?} perft({d}), {hash_mb} MiB",
                    G::NAME
                );
            }
        }
    }

    #[test]
    fn the_table_changes_no_count() {
        // Each game's checks: from its start, and where the game ends within the depth (by
        // ply limits, by chess's halfmove clock).
        for &name in crate::games::GAME_NAMES {
            with_game!(name, G => {
                for case in <G as crate::game::Facts>::FACTS.table_checks {
                    let params: Vec<(&str, crate::ParamValue)> =
                        case.params.iter().map(|&(k, v)| (k, crate::ParamValue::Int(v))).collect();
                    agree::<G>(case.text, &params, case.depth);
                }
            }, _ => unreachable!());
        }
    }

    #[test]
    fn a_table_too_large_is_refused() {
        assert!(PerftTable::new(MAX_HASH_MB + 1).is_err());
        assert_eq!(PerftTable::new(1).expect("1 MiB").slots.len(), 2 << 16);
    }

    #[test]
    fn a_reused_table_forgets_the_last_count() {
        for &name in crate::games::GAME_NAMES {
            with_game!(name, G => forgets::<G>(), _ => unreachable!());
        }
    }

    fn forgets<G: crate::game::Facts>() {
        let start = G::start(&crate::game::params_from::<G>(&[]).expect("the defaults"));
        let depth = <G as crate::game::Facts>::FACTS.table_checks[0]
            .depth
            .min(5);
        let mut table = PerftTable::new(1).expect("1 MiB");
        assert_eq!(perft_hashed(&start, depth, &table), perft(&start, depth));
        // From a position one ply further on, the same positions come at other depths and
        // ply counts: the old entries must not answer.
        let mut child = start.clone();
        child.play_unchecked(child.nth_move(0).expect("a move"));
        for _ in 0..300 {
            table.reuse();
            assert_eq!(
                perft_hashed(&child, depth - 1, &table),
                perft(&child, depth - 1)
            );
        }
        for d in [depth - 2, depth - 1] {
            let count = with_table(1, |t| perft_hashed(&start, d, t)).expect("a table");
            assert_eq!(count, perft(&start, d));
        }
    }
}
