//! A bound on waiting for the server: a test client that waits longer than [`LIMIT`] for its
//! next frame ends the whole test run with a message naming the test, instead of hanging until
//! CI's own limit stops everything with nothing said.
//!
//! Why a thread and real time: many tests pause tokio's clock, which then jumps ahead whenever
//! the runtime is idle, so a tokio timeout would fire while a frame is still on its way. A
//! thread sleeping in real time sees only real waits.

use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// How long one wait for a frame may last. No test waits this long on purpose: the longest
/// deliberate waits (a server's idle timeouts) are seconds.
pub const LIMIT: Duration = Duration::from_secs(300);

/// The waits going on: when each started and in which test (the test harness names each
/// test's thread after the test).
fn waits() -> &'static Mutex<HashMap<u64, (Instant, String)>> {
    static WAITS: OnceLock<Mutex<HashMap<u64, (Instant, String)>>> = OnceLock::new();
    WAITS.get_or_init(|| {
        std::thread::spawn(watch);
        Mutex::new(HashMap::new())
    })
}

/// Checks the waits once a second, for as long as the test process lives.
fn watch() {
    loop {
        std::thread::sleep(Duration::from_secs(1));
        let waits = waits().lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((started, test)) = waits
            .values()
            .find(|(started, _)| started.elapsed() > LIMIT)
        {
            // Straight to the stream: `eprintln!` in a thread a test started is captured with
            // the test's output, and lost when the process ends.
            let _ = writeln!(
                std::io::stderr(),
                "{test}: no frame from the server for {} s; ending the test run",
                started.elapsed().as_secs()
            );
            std::process::exit(101);
        }
    }
}

/// One wait for a frame, registered until dropped.
pub struct Waiting(u64);

/// Registers a wait starting now.
pub fn waiting() -> Waiting {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    waits()
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(id, (Instant::now(), test));
    Waiting(id)
}

impl Drop for Waiting {
    fn drop(&mut self) {
        waits()
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_is_watched_under_its_tests_name_until_it_ends() {
        let wait = waiting();
        let id = wait.0;
        let watched = waits().lock().unwrap().get(&id).cloned();
        let (_, test) = watched.expect("the wait is watched");
        assert!(test.ends_with("a_wait_is_watched_under_its_tests_name_until_it_ends"));
        drop(wait);
        assert!(!waits().lock().unwrap().contains_key(&id));
    }
}
