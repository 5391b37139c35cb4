//! One clock for the frames every connection holds back. A frame that may wait
//! ([`Sender::try_push_lazy`](super::Sender::try_push_lazy)) is held until an urgent one joins it
//! or the oldest held has waited the linger. Every queue of a server lingers the same time, so
//! held rounds come due in the order they began: one task keeps them first in, first out, sleeps
//! until the oldest is due, and releases it. Why not a timer in each writer: each held round then
//! woke its writer only to set a timer. Here a round costs a push on this clock's queue, and a
//! writer wakes only when its frames go out. The clock knows a queue only as something `Lingering`:
//! the queue ([`super::queue`]) decides, when a round is released, whether it is still waiting.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;

/// Something holding items since an instant: a queue, released by its clock.
pub(super) trait Lingering: Send + Sync {
    /// The items held since `since` have waited long enough. A queue that has sent those
    /// items since (and perhaps holds newer ones, since a later instant) ignores this.
    fn release(&self, since: Instant);
}

/// The clock: a cheap handle, shared by every queue that lingers the same time
/// ([`lingering`](super::queue::lingering)). Its task is started with the first such queue and
/// ends once every handle is gone.
#[derive(Clone)]
pub struct Linger {
    clock: Arc<Clock>,
}

struct Clock {
    /// How long a held round waits at most.
    wait: Duration,
    /// The rounds held, oldest first.
    rounds: Mutex<VecDeque<Round>>,
    /// Wakes the task when a round arrives at an empty clock, or the clock goes.
    arrived: Arc<Notify>,
    /// The task was spawned.
    started: AtomicBool,
}

/// Items a queue holds since `since`.
struct Round {
    since: Instant,
    queue: Weak<dyn Lingering>,
}

impl Clock {
    /// Moves the rounds due by now into `due`; returns when the next one will be.
    fn take_due(&self, due: &mut Vec<Round>) -> Option<Instant> {
        let now = Instant::now();
        let mut rounds = lock(&self.rounds);
        while rounds.front().is_some_and(|r| r.since + self.wait <= now) {
            due.extend(rounds.pop_front());
        }
        rounds.front().map(|r| r.since + self.wait)
    }
}

impl Drop for Clock {
    fn drop(&mut self) {
        // The task waits on `arrived` when nothing is held: let it see the clock is gone.
        self.arrived.notify_one();
    }
}

impl Linger {
    /// A clock holding rounds for `wait`; zero holds nothing (lazy items go at once).
    #[must_use]
    pub fn new(wait: Duration) -> Linger {
        Linger {
            clock: Arc::new(Clock {
                wait,
                rounds: Mutex::new(VecDeque::new()),
                arrived: Arc::new(Notify::new()),
                started: AtomicBool::new(false),
            }),
        }
    }

    /// How long a held round waits at most.
    #[must_use]
    pub fn wait(&self) -> Duration {
        self.clock.wait
    }

    /// Starts the clock's task on the current runtime, the first time; it stays there: a
    /// server's queues are all made on its one runtime.
    ///
    /// # Panics
    /// The first time, outside a Tokio runtime.
    pub(super) fn start(&self) {
        if !self.clock.started.swap(true, Ordering::AcqRel) {
            tokio::spawn(run(Arc::downgrade(&self.clock), self.clock.arrived.clone()));
        }
    }

    /// Holds `queue`'s items that began waiting at `since`, until `since` plus the wait.
    pub(super) fn hold(&self, since: Instant, queue: Weak<dyn Lingering>) {
        let first = {
            let mut rounds = lock(&self.clock.rounds);
            rounds.push_back(Round { since, queue });
            rounds.len() == 1
        };
        if first {
            self.clock.arrived.notify_one();
        }
    }
}

impl std::fmt::Debug for Linger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Linger")
            .field("wait", &self.clock.wait)
            .finish_non_exhaustive()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic while holding this lock leaves only a list of rounds behind: keep going.
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The clock's task: releases each round once due, oldest first. Rounds are pushed by many
/// threads, each with the instant its queue took under its own lock, so one may sit a few
/// microseconds behind a later one; it is then released with that one, that much late.
async fn run(clock: Weak<Clock>, arrived: Arc<Notify>) {
    let mut due = Vec::new();
    loop {
        let next = {
            let Some(clock) = clock.upgrade() else { return };
            clock.take_due(&mut due)
        };
        for round in due.drain(..) {
            if let Some(queue) = round.queue.upgrade() {
                queue.release(round.since);
            }
        }
        match next {
            // Rounds arriving meanwhile are due no sooner than this one.
            Some(at) => tokio::time::sleep_until(at).await,
            None => arrived.notified().await,
        }
    }
}
