//! A token bucket: each connection may send `rate` messages a second on average, with bursts
//! up to `burst`. It reads tokio's clock, so tests can pause time.

use tokio::time::Instant;

/// One connection's allowance of messages.
#[derive(Debug, Clone)]
pub struct TokenBucket {
    /// Messages allowed now (fractions accumulate between messages).
    tokens: f64,
    /// When `tokens` was last brought up to date.
    last: Instant,
    /// Tokens added per second.
    rate: f64,
    /// The most tokens the bucket holds.
    burst: f64,
}

impl TokenBucket {
    /// A full bucket.
    #[must_use]
    pub fn new(rate: u32, burst: u32) -> TokenBucket {
        TokenBucket {
            tokens: f64::from(burst),
            last: Instant::now(),
            rate: f64::from(rate),
            burst: f64::from(burst),
        }
    }

    /// Puts back `tokens` spent on messages that turned out welcome (never above the burst).
    pub fn give_back(&mut self, tokens: u32) {
        self.tokens = (self.tokens + f64::from(tokens)).min(self.burst);
    }

    /// Takes one token for a message that arrived at `now` (read once per message by the
    /// caller, which times the connection's silence with it too); `false` when the bucket is
    /// empty (the message must be refused).
    pub fn take(&mut self, now: Instant) -> bool {
        let elapsed = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test(start_paused = true)]
    async fn a_burst_is_allowed_then_the_rate() {
        let mut bucket = TokenBucket::new(10, 5);
        assert_eq!((0..8).filter(|_| bucket.take(Instant::now())).count(), 5);
        tokio::time::advance(Duration::from_millis(300)).await;
        assert_eq!((0..8).filter(|_| bucket.take(Instant::now())).count(), 3);
        tokio::time::advance(Duration::from_secs(60)).await;
        assert_eq!((0..8).filter(|_| bucket.take(Instant::now())).count(), 5);
    }

    #[tokio::test(start_paused = true)]
    async fn tokens_given_back_are_spent_again_up_to_the_burst() {
        let mut bucket = TokenBucket::new(10, 5);
        assert_eq!((0..8).filter(|_| bucket.take(Instant::now())).count(), 5);
        bucket.give_back(2);
        assert_eq!((0..8).filter(|_| bucket.take(Instant::now())).count(), 2);
        bucket.give_back(100);
        assert_eq!((0..8).filter(|_| bucket.take(Instant::now())).count(), 5);
    }
}
