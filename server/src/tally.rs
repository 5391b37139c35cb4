//! Counters bumped on every move or frame (`parlor_moves_total`, the WebSocket byte counts),
//! kept in one slot per thread and added up when `/metrics` is read; and, kept the same way,
//! the histogram of how long a move takes to answer (`parlor_move_latency_seconds`).
//!
//! Why not `metrics::Counter` for these: every table and connection bumps the same counter
//! from every runtime thread, and the Prometheus recorder's counter is two atomic additions on
//! one shared cache line, which the cores pass back and forth. A slot of its own per thread
//! makes each addition an uncontended one. The rare counters stay `metrics` ones.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Slots a tally keeps; threads past this many share them (still correct, just contended).
const SLOTS: usize = 16;

/// One slot, alone on its cache line (128 bytes: adjacent lines are fetched in pairs).
#[repr(align(128))]
struct Slot(AtomicU64);

/// A counter added to from many threads and read rarely.
pub struct Tally {
    slots: [Slot; SLOTS],
}

impl Tally {
    /// A tally at zero.
    #[must_use]
    pub const fn new() -> Tally {
        Tally {
            slots: [const { Slot(AtomicU64::new(0)) }; SLOTS],
        }
    }

    /// Adds `n`, in this thread's slot.
    pub fn add(&self, n: u64) {
        self.slots[thread_slot()].0.fetch_add(n, Ordering::Relaxed);
    }

    /// The sum of every slot.
    #[must_use]
    pub fn total(&self) -> u64 {
        self.slots
            .iter()
            .map(|slot| slot.0.load(Ordering::Relaxed))
            .fold(0, u64::wrapping_add)
    }
}

impl Default for Tally {
    fn default() -> Tally {
        Tally::new()
    }
}

/// This thread's slot: threads take slots in turn as they first count.
fn thread_slot() -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static SLOT: usize = NEXT.fetch_add(1, Ordering::Relaxed) % SLOTS;
    }
    SLOT.with(|slot| *slot)
}

/// `parlor_moves_total`: moves accepted by tables.
pub static MOVES: Tally = Tally::new();
/// `parlor_ws_received_bytes_total`: WebSocket text bytes read.
pub static WS_BYTES_RECEIVED: Tally = Tally::new();
/// `parlor_ws_sent_bytes_total`: WebSocket text bytes written.
pub static WS_BYTES_SENT: Tally = Tally::new();

/// Sets the `metrics` counters these tallies stand for to their totals (at each scrape).
pub fn publish() {
    for (name, tally) in [
        ("parlor_moves_total", &MOVES),
        ("parlor_ws_received_bytes_total", &WS_BYTES_RECEIVED),
        ("parlor_ws_sent_bytes_total", &WS_BYTES_SENT),
    ] {
        metrics::counter!(name).absolute(tally.total());
    }
}

/// The upper bounds of [`MOVE_LATENCY`]'s buckets, in seconds (Prometheus's `le`): from half a
/// millisecond (a move answered from memory) to two and a half seconds (a stalled disk).
pub const LATENCY_BOUNDS: [f64; 12] = [
    0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

/// [`LATENCY_BOUNDS`] in nanoseconds, as samples are compared.
const LATENCY_BOUNDS_NS: [u64; 12] = [
    500_000,
    1_000_000,
    2_500_000,
    5_000_000,
    10_000_000,
    25_000_000,
    50_000_000,
    100_000_000,
    250_000_000,
    500_000_000,
    1_000_000_000,
    2_500_000_000,
];

/// One thread's share of a [`Latencies`]: a count per bucket (the last one past every bound)
/// and the sum of the samples, alone on their cache lines.
#[repr(align(128))]
struct LatencySlot {
    counts: [AtomicU64; LATENCY_BOUNDS.len() + 1],
    sum_ns: AtomicU64,
}

/// A histogram of durations recorded from many threads and read rarely, in the buckets of
/// [`LATENCY_BOUNDS`].
pub struct Latencies {
    slots: [LatencySlot; SLOTS],
}

/// What a [`Latencies`] holds, summed over its slots.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LatencySnapshot {
    /// Samples at most each bound of [`LATENCY_BOUNDS`] (cumulative, as Prometheus has them).
    pub at_most: [u64; LATENCY_BOUNDS.len()],
    /// Every sample.
    pub count: u64,
    /// Their sum, in seconds.
    pub sum_secs: f64,
}

impl Latencies {
    /// An empty histogram.
    #[must_use]
    pub const fn new() -> Latencies {
        Latencies {
            slots: [const {
                LatencySlot {
                    counts: [const { AtomicU64::new(0) }; LATENCY_BOUNDS.len() + 1],
                    sum_ns: AtomicU64::new(0),
                }
            }; SLOTS],
        }
    }

    /// Records one sample, in this thread's slot.
    pub fn record(&self, took: std::time::Duration) {
        let ns = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        let bucket = LATENCY_BOUNDS_NS.partition_point(|&bound| bound < ns);
        let slot = &self.slots[thread_slot()];
        slot.counts[bucket].fetch_add(1, Ordering::Relaxed);
        slot.sum_ns.fetch_add(ns, Ordering::Relaxed);
    }

    /// The samples so far.
    #[must_use]
    pub fn snapshot(&self) -> LatencySnapshot {
        let mut counts = [0u64; LATENCY_BOUNDS.len() + 1];
        let mut sum_ns = 0u64;
        for slot in &self.slots {
            for (count, slot_count) in counts.iter_mut().zip(&slot.counts) {
                *count = count.wrapping_add(slot_count.load(Ordering::Relaxed));
            }
            sum_ns = sum_ns.wrapping_add(slot.sum_ns.load(Ordering::Relaxed));
        }
        let mut at_most = [0u64; LATENCY_BOUNDS.len()];
        let mut so_far = 0u64;
        for (at_most, count) in at_most.iter_mut().zip(counts) {
            so_far += count;
            *at_most = so_far;
        }
        LatencySnapshot {
            at_most,
            count: so_far + counts[LATENCY_BOUNDS.len()],
            sum_secs: sum_ns as f64 / 1e9,
        }
    }
}

impl Default for Latencies {
    fn default() -> Latencies {
        Latencies::new()
    }
}

/// `parlor_move_latency_seconds`: from reading a move off a WebSocket to handing its event to
/// that connection's writer, once the table log holds it.
pub static MOVE_LATENCY: Latencies = Latencies::new();

#[cfg(test)]
mod tests {
    use super::*;

    /// Additions from many threads, more than there are slots, all land in the total.
    #[test]
    fn a_tally_adds_up_what_every_thread_added() {
        let tally = Tally::new();
        std::thread::scope(|scope| {
            for t in 0..(SLOTS as u64 + 4) {
                let tally = &tally;
                scope.spawn(move || {
                    for _ in 0..1000 {
                        tally.add(t + 1);
                    }
                });
            }
        });
        let threads = SLOTS as u64 + 4;
        assert_eq!(tally.total(), 1000 * threads * (threads + 1) / 2);
    }

    /// Samples land in the first bucket whose bound they do not pass, and the snapshot counts
    /// them cumulatively, as Prometheus's `le` buckets do.
    #[test]
    fn latencies_fall_in_the_buckets_of_their_bounds() {
        use std::time::Duration;
        let latencies = Latencies::new();
        latencies.record(Duration::from_micros(100));
        latencies.record(Duration::from_micros(500));
        latencies.record(Duration::from_millis(3));
        latencies.record(Duration::from_secs(60));
        let snapshot = latencies.snapshot();
        assert_eq!(snapshot.count, 4);
        assert_eq!(
            snapshot.at_most[0], 2,
            "at most 0.5 ms, the bound itself included"
        );
        assert_eq!(snapshot.at_most[2], 2, "at most 2.5 ms");
        assert_eq!(snapshot.at_most[3], 3, "at most 5 ms");
        assert_eq!(
            snapshot.at_most[LATENCY_BOUNDS.len() - 1],
            3,
            "a minute is past them all"
        );
        assert!(
            (snapshot.sum_secs - 60.0036).abs() < 1e-9,
            "{}",
            snapshot.sum_secs
        );
        assert_eq!(std::mem::size_of::<LatencySlot>(), 128);
    }
}
