//! Helper threads for the short, frequent calls of the batched environment.
//!
//! A step of a few hundred environments takes less time than it takes to start a thread,
//! or to wake one that sleeps. So the environment keeps helper threads in a pool, and after
//! each call they wait for the next one awake for a while ([`STAY_AWAKE`]), yielding their
//! core to any other thread that wants it, as OpenMP runtimes do between parallel regions.
//! A call that comes while helpers are awake shares its work with them; a call that finds
//! none awake runs on the caller's thread alone, unless it is large enough to pay for
//! threads started for it (by [`super::spread`]).
//!
//! The pool is rayon's (the crate forbids `unsafe`, and handing borrowed work to a thread
//! that outlives the call needs it); what is added here is only the choice of helpers and
//! the keeping awake.

use crate::interrupt::Interrupt;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long helpers stay awake after a call, waiting for the next: long enough to cover
/// what a training loop does between two steps (a policy choosing among the masks in
/// numpy), and short enough that an idle environment soon leaves the cores alone.
pub const STAY_AWAKE: Duration = Duration::from_millis(2);

/// How long the caller, its own share done, waits awake for helpers still working before
/// it sleeps until they finish.
const WAIT_AWAKE: Duration = Duration::from_millis(2);

/// Helper threads kept for one environment (shared by its clones).
#[derive(Clone)]
pub(crate) struct Workers {
    threads: usize,
    inner: Option<Arc<Pool>>,
}

/// The pool and what its helpers are doing.
struct Pool {
    pool: rayon::ThreadPool,
    helpers: usize,
    /// Bumped when a call takes the helpers that are awake: each of them stops waiting.
    calls: AtomicU64,
    /// The helpers' waits, read and changed under this lock by calls and by the helpers,
    /// so that a helper is never counted as taken after it has left.
    waits: Mutex<Waits>,
    /// The process the pool's threads belong to: a child made by `fork` has none of them.
    process: u32,
}

/// How many helpers wait for a call, and how many are about to.
#[derive(Debug, Default)]
struct Waits {
    /// Running their wait: only these are handed work, since a thread that is running
    /// now will see it at once.
    awake: usize,
    /// Sent to wait but not yet running (the thread may be asleep, or busy elsewhere).
    coming: usize,
}

impl std::fmt::Debug for Workers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let helpers = self.inner.as_ref().map_or(0, |pool| pool.helpers);
        f.debug_struct("Workers")
            .field("threads", &self.threads)
            .field("helpers", &helpers)
            .finish()
    }
}

impl Workers {
    /// Calls on up to `threads` threads, with up to `threads - 1` helpers (none when a
    /// pool cannot be made: then every call runs on the caller's thread or on threads
    /// started for it).
    pub(crate) fn new(threads: usize) -> Self {
        let helpers = super::threads_with_room(threads.saturating_sub(1));
        let inner = (helpers > 0)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(helpers)
                    .thread_name(|i| format!("glacier-env-{i}"))
                    .build()
                    .ok()
            })
            .flatten()
            .map(|pool| {
                Arc::new(Pool {
                    pool,
                    helpers,
                    calls: AtomicU64::new(0),
                    waits: Mutex::new(Waits::default()),
                    process: std::process::id(),
                })
            });
        Workers { threads, inner }
    }

    /// The most threads a call uses, the caller's among them.
    pub(crate) fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `job` on the caller's thread (`job(true)`) and on up to `most - 1` other
    /// threads (`job(false)`), each running it once, and returns when all have returned:
    /// `job` must take its work from a shared supply until none is left. The other threads
    /// are the helpers awake now; if none are and `start_threads`, threads started for this
    /// call. Afterwards the helpers stay awake for the next call.
    pub(crate) fn run(&self, most: usize, start_threads: bool, job: &(impl Fn(bool) + Sync)) {
        let pool = self
            .inner
            .as_ref()
            .filter(|pool| pool.process == std::process::id());
        let taken = match pool {
            Some(pool) if most > 1 => pool.take_waiting(most - 1),
            _ => 0,
        };
        match pool {
            Some(pool) if taken > 0 => pool.share(taken, job),
            _ if start_threads && most > 1 => start_and_share(most - 1, job),
            _ => job(true),
        }
        if let Some(pool) = pool {
            pool.stay_awake();
        }
    }
}

impl Pool {
    fn waits(&self) -> std::sync::MutexGuard<'_, Waits> {
        self.waits.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes up to `wanted` of the helpers waiting awake; they all stop waiting (those not
    /// taken go back to the pool).
    fn take_waiting(&self, wanted: usize) -> usize {
        let mut waits = self.waits();
        if waits.awake == 0 {
            return 0;
        }
        self.calls.fetch_add(1, Ordering::Release);
        let taken = waits.awake.min(wanted);
        waits.awake = 0;
        taken
    }

    /// Runs `job` here and on `helpers` of the pool's threads.
    fn share(&self, helpers: usize, job: &(impl Fn(bool) + Sync)) {
        let finished = AtomicUsize::new(0);
        self.pool.in_place_scope(|scope| {
            for _ in 0..helpers {
                scope.spawn(|_| {
                    job(false);
                    finished.fetch_add(1, Ordering::Release);
                });
            }
            job(true);
            // The scope's own wait sleeps in the kernel, and waking from there costs as
            // much as the work: wait awake for a while first.
            let since = Instant::now();
            while finished.load(Ordering::Acquire) < helpers && since.elapsed() < WAIT_AWAKE {
                std::hint::spin_loop();
            }
        });
    }

    /// Sends every helper not already waiting (or about to) to wait awake for the next
    /// call, for up to [`STAY_AWAKE`].
    fn stay_awake(self: &Arc<Self>) {
        let mut waits = self.waits();
        let more = self.helpers - waits.awake - waits.coming;
        waits.coming += more;
        drop(waits);
        let call = self.calls.load(Ordering::Acquire);
        for _ in 0..more {
            let pool = Arc::clone(self);
            self.pool.spawn(move || pool.wait_awake(call));
        }
    }

    /// A helper's wait for the call after `call`: it ends when that call comes (which has
    /// then counted this helper as taken or sent back), or after [`STAY_AWAKE`], when the
    /// helper takes itself out of the count, unless a call came meanwhile. A wait that
    /// starts after the call it was sent for has come is over at once.
    fn wait_awake(&self, call: u64) {
        {
            let mut waits = self.waits();
            waits.coming -= 1;
            if self.calls.load(Ordering::Acquire) != call {
                return;
            }
            waits.awake += 1;
        }
        let since = Instant::now();
        loop {
            if self.calls.load(Ordering::Acquire) != call {
                return;
            }
            if since.elapsed() >= STAY_AWAKE {
                let mut waits = self.waits();
                if self.calls.load(Ordering::Acquire) == call {
                    waits.awake -= 1;
                }
                return;
            }
            std::thread::yield_now();
        }
    }
}

/// Runs `job` on `helpers` threads started for it (as many as can be) and on the caller's
/// thread: the first thread started takes the caller's part (`job(true)`) while the caller
/// waits (if none can be started, the caller runs it).
fn start_and_share(helpers: usize, job: &(impl Fn(bool) + Sync)) {
    super::spread(helpers + 1, &Interrupt::never(), |t, _| job(t == 0));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::thread::ThreadId;

    /// Calls in a quick row, as a training loop makes them: every piece of work is done
    /// exactly once, and once helpers are awake, calls share their work with them.
    #[test]
    fn calls_share_work_with_helpers_awake_and_lose_none() {
        let workers = Workers::new(3);
        let mut shared_calls = 0;
        // At least 2000 calls, and more while none was shared: on a loaded machine (other
        // tests beside this one) the helpers may miss many calls in a row.
        let start = std::time::Instant::now();
        for call in 0.. {
            if call >= 2000 && (shared_calls > 0 || start.elapsed().as_secs() >= 30) {
                break;
            }
            let supply = Mutex::new((0..64).collect::<Vec<u32>>());
            let done = Mutex::new(Vec::new());
            let threads = Mutex::new(HashSet::<ThreadId>::new());
            workers.run(3, false, &|_| loop {
                let Some(piece) = supply.lock().unwrap().pop() else {
                    break;
                };
                // Enough work per piece for a helper to take some (about a microsecond).
                let mut sum = 0u64;
                for i in 0..2000u64 {
                    sum = std::hint::black_box(sum + i);
                }
                done.lock().unwrap().push(piece);
                threads.lock().unwrap().insert(std::thread::current().id());
            });
            let mut done = done.into_inner().unwrap();
            done.sort_unstable();
            assert_eq!(done, (0..64).collect::<Vec<_>>(), "call {call}");
            if threads.into_inner().unwrap().len() > 1 {
                shared_calls += 1;
            }
        }
        assert!(shared_calls > 0, "no call was shared with a helper");
    }

    /// Without a pool (one thread), or when told to start threads, work is done all the
    /// same.
    #[test]
    fn calls_without_helpers_do_all_the_work() {
        for (workers, start) in [
            (Workers::new(1), false),
            (Workers::new(1), true),
            (Workers::new(4), true),
        ] {
            let supply = Mutex::new((0..100).collect::<Vec<u32>>());
            let done = AtomicUsize::new(0);
            workers.run(workers.threads(), start, &|_| {
                while supply.lock().unwrap().pop().is_some() {
                    done.fetch_add(1, Ordering::Relaxed);
                }
            });
            assert_eq!(done.into_inner(), 100);
        }
    }
}
