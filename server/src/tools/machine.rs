//! The machine around a measurement: how busy it was, and a way to make it busy on purpose.
//!
//! A figure taken on a shared machine means little without how quiet the machine was, so
//! `parlor loadtest` prints the load average beside each window; and `--busy N` spins N
//! threads beside the load, so that a figure on a busy machine can be taken again by one
//! command rather than by whatever else happened to run.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;

/// The one-minute load average, where the system says (`/proc/loadavg` on Linux).
#[must_use]
pub fn load_average() -> Option<f64> {
    parse_load_average(&std::fs::read_to_string("/proc/loadavg").ok()?)
}

/// The first field of `/proc/loadavg`'s text.
fn parse_load_average(text: &str) -> Option<f64> {
    text.split_whitespace().next()?.parse().ok()
}

/// Threads that spin until dropped: a busy machine, made on purpose.
pub struct Busy {
    stop: Arc<AtomicBool>,
    spins: Arc<AtomicU64>,
    threads: Vec<JoinHandle<()>>,
}

/// Iterations of busy work between two looks at the stop flag: a few milliseconds.
const SPINS_PER_LOOK: u64 = 1 << 20;

impl Busy {
    /// Starts `threads` spinning threads (none for zero).
    ///
    /// # Errors
    /// When a thread cannot be started.
    pub fn start(threads: usize) -> std::io::Result<Busy> {
        let mut busy = Busy {
            stop: Arc::new(AtomicBool::new(false)),
            spins: Arc::new(AtomicU64::new(0)),
            threads: Vec::with_capacity(threads),
        };
        for i in 0..threads {
            let (stop, spins) = (busy.stop.clone(), busy.spins.clone());
            let thread = std::thread::Builder::new()
                .name(format!("parlor-busy-{i}"))
                .spawn(move || spin_until(&stop, &spins))?;
            busy.threads.push(thread);
        }
        Ok(busy)
    }

    /// How many threads spin.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// Rounds of busy work done so far, over every thread.
    #[must_use]
    pub fn spins(&self) -> u64 {
        self.spins.load(Ordering::Relaxed)
    }
}

/// Works until `stop` is set, counting rounds of work into `spins`.
fn spin_until(stop: &AtomicBool, spins: &AtomicU64) {
    let mut x = 0u64;
    while !stop.load(Ordering::Relaxed) {
        for i in 0..SPINS_PER_LOOK {
            x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(i));
        }
        spins.fetch_add(1, Ordering::Relaxed);
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_load_average_is_the_first_field() {
        assert_eq!(parse_load_average("0.42 1.10 2.00 1/74 2663\n"), Some(0.42));
        assert_eq!(parse_load_average(""), None);
        assert_eq!(parse_load_average("busy"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn linux_says_its_load_average() {
        assert!(load_average().is_some_and(|load| load >= 0.0));
    }

    /// The threads work while the value lives and stop when it is dropped (the drop joins
    /// them: it returns only once every thread has seen the flag).
    #[test]
    fn busy_threads_work_until_dropped() {
        let busy = Busy::start(2).unwrap();
        assert_eq!(busy.threads(), 2);
        let started = std::time::Instant::now();
        while busy.spins() < 4 && started.elapsed() < std::time::Duration::from_secs(30) {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert!(busy.spins() >= 4, "the threads work");
        let spins = busy.spins.clone();
        let stop = busy.stop.clone();
        drop(busy);
        assert!(stop.load(Ordering::Relaxed));
        let after = spins.load(Ordering::Relaxed);
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert_eq!(
            spins.load(Ordering::Relaxed),
            after,
            "no thread works after the drop"
        );
        assert_eq!(Busy::start(0).unwrap().threads(), 0);
    }
}
