//! A pass over a batch of environments split over threads: the environments and the rows
//! of their output arrays cut into matching chunks, handed out to the caller's thread and
//! the helpers of a [`Workers`] pool (or threads started for the call) until none are left.

use super::pool::Workers;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Below this many environments per thread started for a call, threads cost more than
/// they save (starting one and waiting for it to end takes about as long as a step of
/// this many environments).
const MIN_ENVS_PER_THREAD: usize = 256;

/// Below this many environments per helper already awake, sharing the work costs more
/// than it saves (handing it over and waiting for it: a few microseconds).
const MIN_ENVS_PER_HELPER: usize = 64;

/// The fewest environments in a chunk of a split pass.
const MIN_CHUNK: usize = 32;

/// Output arrays of one row per environment, cut along with the environments when a batch
/// is split over threads.
pub(crate) trait Rows: Send + Sized {
    /// The rows of the first `envs` environments, and the rest.
    fn split_rows(self, envs: usize) -> (Self, Self);
}

/// `per` values per environment.
#[derive(Debug)]
pub(crate) struct Per<'a, T>(pub(crate) &'a mut [T], pub(crate) usize);

impl<T: Send> Rows for Per<'_, T> {
    fn split_rows(self, envs: usize) -> (Self, Self) {
        let (head, tail) = self.0.split_at_mut(envs * self.1);
        (Per(head, self.1), Per(tail, self.1))
    }
}

/// One value per environment, read only.
#[derive(Debug)]
pub(crate) struct Given<'a, T>(pub(crate) &'a [T]);

impl<T: Sync> Rows for Given<'_, T> {
    fn split_rows(self, envs: usize) -> (Self, Self) {
        let (head, tail) = self.0.split_at(envs);
        (Given(head), Given(tail))
    }
}

/// No rows.
impl Rows for () {
    fn split_rows(self, _envs: usize) -> (Self, Self) {
        ((), ())
    }
}

impl<R: Rows> Rows for Option<R> {
    fn split_rows(self, envs: usize) -> (Self, Self) {
        match self {
            Some(rows) => {
                let (head, tail) = rows.split_rows(envs);
                (Some(head), Some(tail))
            }
            None => (None, None),
        }
    }
}

impl<A: Rows, B: Rows> Rows for (A, B) {
    fn split_rows(self, envs: usize) -> (Self, Self) {
        let (a, a_tail) = self.0.split_rows(envs);
        let (b, b_tail) = self.1.split_rows(envs);
        ((a, b), (a_tail, b_tail))
    }
}

/// How a pass over the environments may be split over threads: the workers it may use.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Split<'a>(pub(crate) &'a Workers);

impl Split<'_> {
    /// Runs `job` (which takes the chunks of `items` from a shared supply) on as many
    /// threads as `items` environments are worth: with helpers awake, one per
    /// [`MIN_ENVS_PER_HELPER`]; on threads started for the call, one per
    /// [`MIN_ENVS_PER_THREAD`].
    fn run(self, items: usize, job: &(impl Fn(bool) + Sync)) {
        let warm = self.0.threads().min(items / MIN_ENVS_PER_HELPER);
        let started = self.0.threads().min(items / MIN_ENVS_PER_THREAD);
        self.0.run(warm.max(started), started > 1, job);
    }

    /// How many environments each chunk holds: a few chunks per thread, so that a thread
    /// that starts late leaves its share to the others.
    fn chunk(self, items: usize) -> usize {
        items.div_ceil(4 * self.0.threads()).max(MIN_CHUNK)
    }

    /// Whether `items` environments are too few to split at all.
    fn too_few(self, items: usize) -> bool {
        self.0.threads() == 1 || items < 2 * MIN_ENVS_PER_HELPER
    }
}

/// Runs `work` over matching chunks of `items` and the rows of `out`, split as `split`
/// allows.
pub(crate) fn chunked<T: Send, O: Rows>(
    items: &mut [T],
    out: O,
    split: Split<'_>,
    work: impl Fn(&mut [T], O) + Sync,
) {
    if split.too_few(items.len()) {
        work(items, out);
        return;
    }
    let total = items.len();
    let pieces = cut(items, out, split.chunk(total));
    share_chunks(split, total, pieces, |(items, out)| work(items, out));
}

/// [`chunked`] in two passes: `check` goes over every chunk first, and `work` over them
/// only if `check` found every chunk good. Both passes hand out the chunks as
/// [`take_chunk`] does, so that a thread mostly works the chunks it checked, and finds
/// their data in its cache. Returns whether all were good.
pub(crate) fn checked_chunks<T: Send, O: Rows>(
    items: &mut [T],
    out: O,
    split: Split<'_>,
    check: impl Fn(&mut [T], &O) -> bool + Sync,
    work: impl Fn(&mut [T], O) + Sync,
) -> bool {
    if split.too_few(items.len()) {
        let good = check(items, &out);
        if good {
            work(items, out);
        }
        return good;
    }
    let total = items.len();
    let pieces = cut(items, out, split.chunk(total));
    let count = pieces.len();
    let supply = Mutex::new(pieces.into_iter().enumerate().collect::<VecDeque<_>>());
    let checked = Mutex::new(Checked {
        chunks: (0..count).map(|_| None).collect(),
        front: 0,
        back: count,
    });
    let (done, bad) = (AtomicUsize::new(0), AtomicBool::new(false));
    let lock = || {
        checked
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    split.run(total, &|caller| {
        while let Some((i, (items, out))) = take_chunk(&supply, caller) {
            let _counted = Checking {
                done: &done,
                bad: &bad,
            };
            if !check(items, &out) {
                bad.store(true, Ordering::Relaxed);
            }
            lock().chunks[i] = Some((items, out));
        }
        // No chunk is worked before every chunk is checked (each thread holding one is
        // checking it, so this wait is short).
        let mut spins = 0u32;
        while done.load(Ordering::Acquire) < count {
            spins += 1;
            if spins < 1 << 12 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        if bad.load(Ordering::Relaxed) {
            return;
        }
        loop {
            // Taken in a statement of its own, so that the lock is let go before the work.
            let next = lock().take(caller);
            let Some((items, out)) = next else { break };
            work(items, out);
        }
    });
    !bad.into_inner()
}

/// Counts a chunk of [`checked_chunks`] as checked when dropped, also when its check
/// panicked (then as bad), so that no thread waits for it forever.
#[derive(Debug)]
struct Checking<'a> {
    done: &'a AtomicUsize,
    bad: &'a AtomicBool,
}

impl Drop for Checking<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.bad.store(true, Ordering::Relaxed);
        }
        self.done.fetch_add(1, Ordering::Release);
    }
}

/// The chunks of [`checked_chunks`] once checked, in their places, and the next to work
/// from each end.
#[derive(Debug)]
struct Checked<C> {
    chunks: Vec<Option<C>>,
    front: usize,
    back: usize,
}

impl<C> Checked<C> {
    /// The next chunk to work, as [`take_chunk`] hands them out.
    fn take(&mut self, caller: bool) -> Option<C> {
        if self.front == self.back {
            None
        } else if caller {
            self.front += 1;
            self.chunks[self.front - 1].take()
        } else {
            self.back -= 1;
            self.chunks[self.back].take()
        }
    }
}

/// `items` and the matching rows of `out` cut into chunks of `chunk` environments.
fn cut<T, O: Rows>(items: &mut [T], out: O, chunk: usize) -> Vec<(&mut [T], O)> {
    let mut pieces = Vec::with_capacity(items.len().div_ceil(chunk));
    let (mut items, mut out) = (items, out);
    while !items.is_empty() {
        let take = chunk.min(items.len());
        let (head, tail) = items.split_at_mut(take);
        let (rows, rest) = out.split_rows(take);
        pieces.push((head, rows));
        (items, out) = (tail, rest);
    }
    pieces
}

/// Runs `work` over chunks of `out` (`per_item` values per environment) with the matching
/// environments, read-only, split as `split` allows.
pub(crate) fn chunked_read<T: Sync, U: Send>(
    items: &[T],
    out: &mut [U],
    per_item: usize,
    split: Split<'_>,
    work: impl Fn(&[T], &mut [U]) + Sync,
) {
    if split.too_few(items.len()) || per_item == 0 {
        work(items, out);
        return;
    }
    let chunk = split.chunk(items.len());
    let pieces = items
        .chunks(chunk)
        .zip(out.chunks_mut(chunk * per_item))
        .collect();
    share_chunks(split, items.len(), pieces, |(items, out)| work(items, out));
}

/// Hands out `chunks` (of `items` environments in all) to the threads `split` allows, the
/// caller's among them, until none are left, as [`take_chunk`] does.
fn share_chunks<C: Send>(split: Split<'_>, items: usize, chunks: Vec<C>, work: impl Fn(C) + Sync) {
    let supply = Mutex::new(VecDeque::from(chunks));
    split.run(items, &|caller| {
        while let Some(chunk) = take_chunk(&supply, caller) {
            work(chunk);
        }
    });
}

/// The next chunk for a thread: the caller takes them from the front, the other threads
/// from the back. Each environment is then stepped by the same thread from one call to the
/// next (but near where the two meet), and finds its data in that core's cache, where the
/// helpers' cores keep it (the caller's own work between steps evicts the caller's).
fn take_chunk<C>(supply: &Mutex<VecDeque<C>>, caller: bool) -> Option<C> {
    let mut chunks = supply
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if caller {
        chunks.pop_front()
    } else {
        chunks.pop_back()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A check that panics (a bug in a game) raises the panic in the caller and leaves no
    /// thread waiting for its chunk, whichever thread checks it.
    #[test]
    fn a_check_that_panics_leaves_no_thread_waiting() {
        let workers = Workers::new(3);
        let mut items = vec![0u32; 1000];
        for round in 0..60 {
            items.fill(0);
            items[(round * 331) % 1000] = 1;
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                checked_chunks(
                    &mut items,
                    (),
                    Split(&workers),
                    |chunk, ()| {
                        assert!(!chunk.contains(&1), "a bug in a check");
                        true
                    },
                    |chunk, ()| chunk.fill(2),
                )
            }));
            assert!(outcome.is_err(), "the panic reaches the caller");
            assert!(!items.contains(&2), "nothing is worked");
        }
    }
}
