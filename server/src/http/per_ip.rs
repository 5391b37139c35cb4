//! Counting what each address holds at once (open connections), with a guard that gives the
//! place back when dropped, so no code path can leak a count.
//!
//! It owns the counts only; the accept loop and the WebSocket upgrade decide what to count.

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use dashmap::DashMap;

/// Places held per address, at most `max` each.
#[derive(Debug)]
pub struct PerIp {
    /// Places held now, by address; an address holding none has no entry.
    held: DashMap<IpAddr, usize>,
    /// The most one address may hold.
    max: usize,
}

impl PerIp {
    /// No place held yet.
    #[must_use]
    pub fn new(max: usize) -> Arc<PerIp> {
        Arc::new(PerIp {
            held: DashMap::new(),
            max,
        })
    }

    /// The most one address may hold.
    #[must_use]
    pub fn max(&self) -> usize {
        self.max
    }

    /// A place for `ip`, or `None` when it holds `max` already.
    #[must_use]
    pub fn acquire(self: &Arc<PerIp>, ip: IpAddr) -> Option<IpPlace> {
        let mut held = self.held.entry(ip).or_insert(0);
        if *held >= self.max {
            return None;
        }
        *held += 1;
        Some(IpPlace {
            counts: Arc::clone(self),
            ip,
        })
    }
}

/// One place held by an address; given back when dropped.
#[derive(Debug)]
pub struct IpPlace {
    /// Whose count this is.
    counts: Arc<PerIp>,
    /// The address.
    ip: IpAddr,
}

impl Drop for IpPlace {
    fn drop(&mut self) {
        self.counts.held.remove_if_mut(&self.ip, |_, held| {
            *held -= 1;
            *held == 0
        });
    }
}

/// A count of places server-wide, at most `max`.
#[derive(Debug)]
pub struct Total {
    /// Held now.
    held: AtomicUsize,
    /// The most at once.
    max: usize,
}

impl Total {
    /// None held yet.
    #[must_use]
    pub fn new(max: usize) -> Arc<Total> {
        Arc::new(Total {
            held: AtomicUsize::new(0),
            max,
        })
    }

    /// How many are held now.
    #[must_use]
    pub fn held(&self) -> usize {
        self.held.load(Ordering::Relaxed)
    }

    /// The most at once.
    #[must_use]
    pub fn max(&self) -> usize {
        self.max
    }

    /// A place, or `None` when `max` are held.
    #[must_use]
    pub fn acquire(self: &Arc<Total>) -> Option<TotalPlace> {
        self.held
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |held| {
                (held < self.max).then_some(held + 1)
            })
            .ok()?;
        Some(TotalPlace(Arc::clone(self)))
    }
}

/// One place of a [`Total`]; given back when dropped.
#[derive(Debug)]
pub struct TotalPlace(Arc<Total>);

impl Drop for TotalPlace {
    fn drop(&mut self) {
        self.0.held.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_capped_per_address_and_given_back_on_drop() {
        let counts = PerIp::new(2);
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let first = counts.acquire(a).unwrap();
        let _second = counts.acquire(a).unwrap();
        assert!(counts.acquire(a).is_none(), "a third is refused");
        assert!(counts.acquire(b).is_some(), "another address is not");
        drop(first);
        assert!(
            counts.acquire(a).is_some(),
            "a place given back can be taken"
        );

        let total = Total::new(1);
        let held = total.acquire().unwrap();
        assert!(total.acquire().is_none());
        drop(held);
        assert_eq!(total.held(), 0);
        assert!(total.acquire().is_some());
    }
}
