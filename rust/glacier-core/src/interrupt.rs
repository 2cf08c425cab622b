//! Stopping long work early, and work that cannot get its memory or its threads.
//!
//! An [`Interrupt`] is shared by every thread of one piece of work. Only the thread that
//! started the work (the caller's) runs its check, every [`POLL_INTERVAL`] at most: the
//! Python binding's check asks whether Ctrl-C was pressed, which only that thread may ask.
//! When the check says stop, the flag goes up and every thread, polling it through its
//! [`Watch`] at cheap points (once per interior perft node, once per playout), winds up.
//! Work started without a check ([`Interrupt::never`]) never stops early.
//!
//! Results are allocated with [`try_vec`], so a size that cannot be allocated is
//! [`Stopped::OutOfMemory`] instead of an abort; threads are spawned through
//! `std::thread::Builder`, so a thread that cannot be had leaves its share to the others.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The longest the caller's thread goes between two runs of the check.
pub const POLL_INTERVAL: Duration = Duration::from_millis(20);

/// Watch calls between two looks at the clock on the caller's thread (a look costs about as
/// much as a few dozen flag reads).
const TICKS_PER_CLOCK: u32 = 64;

/// Why work ended before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// The check of its [`Interrupt`] said stop.
    Interrupted,
    /// Its results could not be allocated.
    OutOfMemory,
}

/// A stop request shared by the threads of one piece of work.
pub struct Interrupt<'a> {
    stopped: AtomicBool,
    check: &'a (dyn Fn() -> bool + Sync),
}

impl std::fmt::Debug for Interrupt<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Interrupt(stopped: {})", self.is_stopped())
    }
}

impl<'a> Interrupt<'a> {
    /// An interrupt whose `check` (run on the caller's thread only) says when to stop.
    pub fn new(check: &'a (dyn Fn() -> bool + Sync)) -> Self {
        Interrupt {
            stopped: AtomicBool::new(false),
            check,
        }
    }

    /// An interrupt that never stops the work.
    #[must_use]
    pub fn never() -> Interrupt<'static> {
        Interrupt::new(&|| false)
    }

    /// Whether the work has been told to stop.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// The flag itself, for work that stops on an `AtomicBool` (a search's
    /// [`crate::search::Budget`]).
    #[must_use]
    pub fn flag(&self) -> &AtomicBool {
        &self.stopped
    }

    /// Runs the check now (on the caller's thread) and raises the flag if it says stop.
    pub fn poll(&self) -> bool {
        if !self.is_stopped() && (self.check)() {
            self.stopped.store(true, Ordering::Relaxed);
        }
        self.is_stopped()
    }

    /// The watch of the caller's thread: it runs the check every [`POLL_INTERVAL`].
    #[must_use]
    pub fn caller(&self) -> Watch<'_, 'a> {
        Watch {
            interrupt: self,
            polls: true,
            ticks: 0,
            last_poll: Instant::now(),
        }
    }

    /// The watch of any other thread: it only reads the flag.
    #[must_use]
    pub fn worker(&self) -> Watch<'_, 'a> {
        Watch {
            interrupt: self,
            polls: false,
            ticks: 0,
            last_poll: Instant::now(),
        }
    }

    /// `Err(Interrupted)` if the work was told to stop, else `Ok(value)`.
    pub fn result<T>(&self, value: T) -> Result<T, Stopped> {
        if self.is_stopped() {
            Err(Stopped::Interrupted)
        } else {
            Ok(value)
        }
    }
}

/// One thread's view of an [`Interrupt`]: cheap enough to ask at every interior node.
#[derive(Debug)]
pub struct Watch<'i, 'a> {
    interrupt: &'i Interrupt<'a>,
    polls: bool,
    ticks: u32,
    last_poll: Instant,
}

impl Watch<'_, '_> {
    /// Whether to stop now. On the caller's thread this now and then runs the check.
    #[inline]
    pub fn should_stop(&mut self) -> bool {
        if self.polls {
            self.ticks = self.ticks.wrapping_add(1);
            if self.ticks % TICKS_PER_CLOCK == 0 && self.last_poll.elapsed() >= POLL_INTERVAL {
                self.last_poll = Instant::now();
                return self.interrupt.poll();
            }
        }
        self.interrupt.is_stopped()
    }

    /// Whether to stop now, running the check at once on the caller's thread: for work
    /// that asks seldom (once per batch of a search), where [`Watch::should_stop`] would
    /// run it too rarely.
    pub fn check_now(&mut self) -> bool {
        if self.polls {
            self.last_poll = Instant::now();
            return self.interrupt.poll();
        }
        self.interrupt.is_stopped()
    }

    /// Whether the work has been told to stop (without running the check).
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.interrupt.is_stopped()
    }
}

/// A vector of `len` copies of `value`, or `OutOfMemory` when it cannot be allocated.
pub fn try_vec<T: Clone>(len: usize, value: T) -> Result<Vec<T>, Stopped> {
    let mut out = Vec::new();
    out.try_reserve_exact(len)
        .map_err(|_| Stopped::OutOfMemory)?;
    out.resize(len, value);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn a_check_that_says_stop_stops_the_caller_and_the_workers() {
        let checks = AtomicUsize::new(0);
        let check = || checks.fetch_add(1, Ordering::Relaxed) >= 1;
        let interrupt = Interrupt::new(&check);
        assert!(!interrupt.poll());
        let mut worker = interrupt.worker();
        assert!(!worker.should_stop());
        assert!(interrupt.poll());
        assert!(worker.should_stop());
        assert_eq!(interrupt.result(1), Err(Stopped::Interrupted));
    }

    #[test]
    fn the_caller_runs_the_check_only_now_and_then() {
        let checks = AtomicUsize::new(0);
        let check = || {
            checks.fetch_add(1, Ordering::Relaxed);
            false
        };
        let interrupt = Interrupt::new(&check);
        let mut watch = interrupt.caller();
        let start = Instant::now();
        while start.elapsed() < 3 * POLL_INTERVAL {
            assert!(!watch.should_stop());
        }
        let n = checks.load(Ordering::Relaxed);
        assert!((1..=4).contains(&n), "{n} checks");
    }

    #[test]
    fn sizes_that_cannot_be_allocated_are_errors() {
        assert_eq!(
            try_vec(usize::MAX / 2, 0u64).unwrap_err(),
            Stopped::OutOfMemory
        );
        assert_eq!(try_vec(3, 7u8).unwrap(), vec![7, 7, 7]);
    }
}
