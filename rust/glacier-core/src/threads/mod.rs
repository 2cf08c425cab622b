//! Work on threads, in one place: every thread the engine starts is started by [`spread`],
//! which perft, perft divide, playouts ([`run_tasks_until`]), the searches and the batched
//! environment's helpers ([`pool`]) all go through.
//!
//! [`spread`] keeps the properties every caller relies on:
//! - threads are spawned only while there is room for them ([`threads_with_room`]): under a
//!   memory limit a thread that cannot be had leaves its share to the others, or to the
//!   caller's thread, instead of aborting the process;
//! - the caller's thread watches while the others work, running the [`Interrupt`]'s check
//!   (Ctrl-C, from the binding) every [`POLL_INTERVAL`], so that long work stops within a
//!   fraction of a second;
//! - a panic on any thread reaches the caller once every thread has ended, and leaves no
//!   thread waiting for the one that panicked.
//!
//! Tasks are numbered and their results stored by number, so results never depend on the
//! thread count. [`chunks`] splits a batch of environments over threads; [`pool`] keeps
//! helper threads awake between the short, frequent calls of the batched environment.

pub(crate) mod chunks;
pub(crate) mod pool;

use crate::interrupt::{Interrupt, Stopped, Watch, POLL_INTERVAL};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The most threads one call uses: more than any machine glacier runs on has cores, and few
/// enough that their stacks fit in memory. Larger requests are refused by the bindings.
pub const MAX_THREADS: usize = 256;

/// The address space a thread is spawned only with: its stack (2 MiB), and room to spare
/// for what the C library allocates as it starts. glibc aborts the process when it cannot
/// allocate a new thread's thread-local data, so under a memory limit a thread must not be
/// spawned into the last of the room.
const ROOM_FOR_A_THREAD: usize = 8 << 20;

/// How many of `wanted` new threads there is room for: `wanted`, or else the first of its
/// halves whose [`ROOM_FOR_A_THREAD`] each can be reserved at once (and given back at
/// once). Asked once, before any of them is spawned: a question asked beside threads that
/// are starting would take, for a moment, the very room they allocate their thread-local
/// data from, and glibc aborts the process when that fails.
#[must_use]
pub(crate) fn threads_with_room(wanted: usize) -> usize {
    let mut threads = wanted;
    while threads > 0 {
        let mut probe: Vec<u8> = Vec::new();
        let room = threads
            .checked_mul(ROOM_FOR_A_THREAD)
            .is_some_and(|bytes| probe.try_reserve_exact(bytes).is_ok());
        // Kept from being optimised away: an allocation nothing reads may be assumed to
        // succeed.
        std::hint::black_box(&mut probe);
        if room {
            break;
        }
        threads /= 2;
    }
    threads
}

/// The number of threads to use for a request of `threads` (0 means every available core),
/// at most [`MAX_THREADS`].
#[must_use]
pub fn thread_count(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    } else {
        threads
    }
    .min(MAX_THREADS)
}

/// Counts a thread of [`spread`] as finished when dropped, also when its job panicked, and
/// wakes the caller's thread.
struct Finished<'a> {
    count: &'a AtomicUsize,
    caller: std::thread::Thread,
}

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.count.fetch_add(1, Ordering::Release);
        self.caller.unpark();
    }
}

/// Runs `job(t, watch)` on up to `threads` new threads (`t` = 0, 1, ...) while the caller's
/// thread watches, running `interrupt`'s check every [`POLL_INTERVAL`]; returns when every
/// job has returned. Only as many threads are spawned as there is room for, so `job` must
/// take its work from a shared supply (or leave what it cannot do to the others); when none
/// can be spawned, `job(0)` runs on the caller's thread, with the caller's watch. A panic
/// in a job reaches the caller after every thread has ended.
pub fn spread(
    threads: usize,
    interrupt: &Interrupt<'_>,
    job: impl Fn(usize, &mut Watch<'_, '_>) + Sync,
) {
    let finished = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let caller = std::thread::current();
        let mut spawned = 0;
        for t in 0..threads_with_room(threads) {
            let (job, finished, caller) = (&job, &finished, caller.clone());
            let worker = std::thread::Builder::new().spawn_scoped(scope, move || {
                let _finished = Finished {
                    count: finished,
                    caller,
                };
                job(t, &mut interrupt.worker());
            });
            if worker.is_err() {
                break;
            }
            spawned += 1;
        }
        if spawned == 0 {
            job(0, &mut interrupt.caller());
        }
        while finished.load(Ordering::Acquire) < spawned {
            std::thread::park_timeout(POLL_INTERVAL);
            interrupt.poll();
        }
    });
}

/// Runs `work` on a thread of its own while the caller's thread watches `interrupt` (as
/// [`spread`] does), and returns its result; `work` stops early by reading the interrupt's
/// flag ([`Interrupt::flag`]). With no room for a thread it runs on the caller's thread.
pub fn run_watched<T: Send>(interrupt: &Interrupt<'_>, work: impl FnOnce() -> T + Send) -> T {
    let work = Mutex::new(Some(work));
    let out = Mutex::new(None);
    spread(1, interrupt, |_, _| {
        let work = work
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(work) = work {
            let value = work();
            *out.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(value);
        }
    });
    out.into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .expect("the work ran")
}

/// Runs `work(i)` for every `i` in `0..tasks` on `threads` threads and returns the results
/// in task order.
pub fn run_tasks<T: Send>(
    tasks: usize,
    threads: usize,
    work: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    run_tasks_until(tasks, threads, &Interrupt::never(), |i, _| work(i))
        .expect("work without an interrupt runs to its end")
}

/// [`run_tasks`] that stops handing out tasks when `interrupt` says stop (and gives `work`
/// the thread's [`Watch`], to stop inside a task too), and that reports results it cannot
/// allocate. With one thread the tasks run on the caller's thread, which runs the check
/// through its watch.
pub fn run_tasks_until<T: Send>(
    tasks: usize,
    threads: usize,
    interrupt: &Interrupt<'_>,
    work: impl Fn(usize, &mut Watch<'_, '_>) -> T + Sync,
) -> Result<Vec<T>, Stopped> {
    let threads = thread_count(threads).min(tasks.max(1));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new({
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(tasks)
            .map_err(|_| Stopped::OutOfMemory)?;
        slots.extend((0..tasks).map(|_| None));
        slots
    });
    let run = |watch: &mut Watch<'_, '_>| loop {
        if watch.should_stop() {
            break;
        }
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= tasks {
            break;
        }
        let value = work(i, watch);
        results
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)[i] = Some(value);
    };
    if threads <= 1 {
        run(&mut interrupt.caller());
    } else {
        spread(threads, interrupt, |_, watch| run(watch));
    }
    interrupt.result(())?;
    Ok(results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .into_iter()
        .map(|r| r.expect("every task ran"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn tasks_give_the_same_results_on_any_number_of_threads() {
        let one = run_tasks(100, 1, |i| i * i);
        for threads in [2, 3, 8] {
            assert_eq!(run_tasks(100, threads, |i| i * i), one);
        }
    }

    #[test]
    fn a_panic_reaches_the_caller_and_leaves_no_thread_waiting() {
        for threads in [1, 2, 4] {
            let caught = std::panic::catch_unwind(|| {
                run_tasks(16, threads, |i| {
                    assert!(i != 5, "task 5 fails");
                    i
                })
            });
            assert!(caught.is_err(), "{threads} threads");
        }
    }

    #[test]
    fn a_check_that_says_stop_stops_every_thread() {
        let asked = AtomicBool::new(false);
        let check = || asked.load(Ordering::Relaxed);
        let interrupt = Interrupt::new(&check);
        let out = run_watched(&interrupt, || {
            asked.store(true, Ordering::Relaxed);
            while !interrupt.is_stopped() {
                std::thread::yield_now();
            }
            7
        });
        assert_eq!(out, 7);
        let stopped = run_tasks_until(1000, 3, &interrupt, |_, watch| {
            while !watch.should_stop() {
                std::thread::yield_now();
            }
        });
        assert_eq!(stopped.unwrap_err(), Stopped::Interrupted);
    }
}
