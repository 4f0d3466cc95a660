//! The per-file time budget, counted in the CPU time of the thread doing the work.
//!
//! Wall-clock time would charge a file for the machine's load: on a busy 2-core CI runner an
//! honest 25k-line test file ran past a 10 s wall-clock budget and was reported as unreadable.
//! The budget exists to stop a crafted file from holding the gate, and that file spends CPU, so
//! CPU time is what is measured. A file is analysed on one thread from start to end.

use std::time::Duration;

/// When the current thread's budget for a file runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    at: Duration,
}

impl Deadline {
    /// `budget` of this thread's CPU time from now.
    pub fn after(budget: Duration) -> Deadline {
        Deadline {
            at: thread_cpu_time().saturating_add(budget),
        }
    }

    /// A deadline that has already passed (for tests of the cut-off paths).
    pub const fn passed_already() -> Deadline {
        Deadline { at: Duration::ZERO }
    }

    /// Whether this thread has spent the budget.
    pub fn passed(self) -> bool {
        thread_cpu_time() >= self.at
    }

    /// The CPU time left.
    pub fn remaining(self) -> Duration {
        self.at.saturating_sub(thread_cpu_time())
    }
}

/// A check of a [`Deadline`] for callbacks that run very often (parser and query progress):
/// the clock is read on every 64th call only.
pub struct Throttled {
    deadline: Deadline,
    calls: u32,
    passed: bool,
}

impl Throttled {
    /// Checks `deadline` now and then.
    pub fn new(deadline: Deadline) -> Throttled {
        Throttled {
            deadline,
            calls: 0,
            passed: false,
        }
    }

    /// Whether the deadline has passed, as of the last reading of the clock.
    pub fn passed(&mut self) -> bool {
        if !self.passed && self.calls.is_multiple_of(64) {
            self.passed = self.deadline.passed();
        }
        self.calls = self.calls.wrapping_add(1);
        self.passed
    }
}

/// CPU time this thread has used.
#[cfg(unix)]
fn thread_cpu_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec; CLOCK_THREAD_CPUTIME_ID is supported on
    // Linux and macOS and only reads the calling thread's clock.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    if status != 0 {
        return wall_clock();
    }
    Duration::new(
        u64::try_from(now.tv_sec).unwrap_or(0),
        u32::try_from(now.tv_nsec).unwrap_or(0),
    )
}

/// Elsewhere, wall-clock time since the first reading: a budget that still bounds the run.
#[cfg(not(unix))]
fn thread_cpu_time() -> Duration {
    wall_clock()
}

fn wall_clock() -> Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waiting_spends_no_budget_and_work_does() {
        let deadline = Deadline::after(Duration::from_millis(30));
        std::thread::sleep(Duration::from_millis(60));
        assert!(!deadline.passed(), "sleeping is not work");
        let mut spin = 0u64;
        while !deadline.passed() {
            spin = spin.wrapping_add(1);
            std::hint::black_box(spin);
        }
        assert_eq!(deadline.remaining(), Duration::ZERO);
        assert!(Deadline::passed_already().passed());
    }

    #[test]
    fn a_throttled_check_sees_a_passed_deadline_at_once() {
        let mut check = Throttled::new(Deadline::passed_already());
        assert!(check.passed());
        let mut fresh = Throttled::new(Deadline::after(Duration::from_secs(3600)));
        assert!((0..1000).all(|_| !fresh.passed()));
    }
}
