//! Counters bumped on every move or frame (`parlor_moves_total`, the WebSocket byte counts),
//! kept in one slot per thread and added up when `/metrics` is read.
//!
//! Why not `metrics::Counter` for these: every table and connection bumps the same counter
//! from both runtime threads, and the Prometheus recorder's counter is two atomic additions
//! on one shared cache line (the value and its generation), which the two cores pass back
//! and forth: 1% of the server's CPU at 250 busy tables under `perf`. A slot of its own per
//! thread makes each addition an uncontended one. The rare counters stay `metrics` ones.

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
/// `parlor_ws_bytes_received_total`: WebSocket text bytes read.
pub static WS_BYTES_RECEIVED: Tally = Tally::new();
/// `parlor_ws_bytes_sent_total`: WebSocket text bytes written.
pub static WS_BYTES_SENT: Tally = Tally::new();

/// Sets the `metrics` counters these tallies stand for to their totals (at each scrape).
pub fn publish() {
    for (name, tally) in [
        ("parlor_moves_total", &MOVES),
        ("parlor_ws_bytes_received_total", &WS_BYTES_RECEIVED),
        ("parlor_ws_bytes_sent_total", &WS_BYTES_SENT),
    ] {
        metrics::counter!(name).absolute(tally.total());
    }
}

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
}
