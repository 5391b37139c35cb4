//! The flood guard, the connection's own rule for what it reads: an answer to the latest
//! prompt its writer wrote is free, and every other frame takes a token from a bucket that
//! holds `burst` and refills at `rate` a second. A program answering each prompt at once is
//! never refused; a flood runs the bucket dry. It reads tokio's clock, so tests can pause time.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::time::Instant;

/// One connection's flood guard.
#[derive(Debug)]
pub struct FloodGuard {
    /// What every frame but an answer to a prompt costs.
    bucket: TokenBucket,
    /// Messages per second allowed (for the refusal's text).
    rate: u32,
    /// The prompts the connection's writer has written.
    asked: Arc<Asked>,
    /// The count of [`Self::asked`] when the last free answer was read.
    answered: u64,
}

impl FloodGuard {
    /// A guard with a full bucket, freeing answers to the prompts counted in `asked`.
    #[must_use]
    pub fn new(rate: u32, burst: u32, asked: Arc<Asked>) -> FloodGuard {
        FloodGuard {
            bucket: TokenBucket::new(rate, burst),
            rate,
            asked,
            answered: 0,
        }
    }

    /// Whether a frame read at `now` may be handled. A move (`is_move`) answering a prompt
    /// written since the last free answer is free; anything else takes a token. Only the
    /// latest prompt can be answered for free, so prompts left unanswered build no credit.
    pub fn admits(&mut self, now: Instant, is_move: bool) -> bool {
        if is_move && self.answer_is_due() {
            self.answered = self.asked.prompts();
            return true;
        }
        self.bucket.take(now)
    }

    /// True when a prompt was written since the last free answer.
    #[must_use]
    pub fn answer_is_due(&self) -> bool {
        self.asked.prompts() > self.answered
    }

    /// Messages per second allowed.
    #[must_use]
    pub fn rate(&self) -> u32 {
        self.rate
    }
}

/// The prompts (`your_turn`) one connection's writer has written, each counted once however
/// often it is repeated (a refused move or a `sync` is asked again with the same `seq`).
#[derive(Debug, Default)]
pub struct Asked {
    /// Prompts written.
    prompts: AtomicU64,
}

impl Asked {
    /// Prompts written so far.
    #[must_use]
    pub fn prompts(&self) -> u64 {
        self.prompts.load(Ordering::Acquire)
    }

    /// Notes a frame about to be written; `last_seq` is the writer's own record of the
    /// latest prompt's `seq`. Called before the frame goes out, so the answer can never be
    /// read before its prompt is counted.
    pub fn writing(&self, frame: &str, last_seq: &mut Option<u64>) {
        if let Some(seq) = prompt_seq(frame)
            && *last_seq != Some(seq)
        {
            *last_seq = Some(seq);
            self.prompts.fetch_add(1, Ordering::Release);
        }
    }
}

/// The `seq` of a `your_turn` frame (the server writes `type` first and `seq` second);
/// `None` for any other frame.
fn prompt_seq(frame: &str) -> Option<u64> {
    let rest = frame.strip_prefix(r#"{"type":"your_turn","seq":"#)?;
    let digits = rest.find(|c: char| !c.is_ascii_digit())?;
    rest[..digits].parse().ok()
}

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

    fn prompt(seq: u64) -> String {
        format!(r#"{{"type":"your_turn","seq":{seq},"legal":{{}}}}"#)
    }

    /// Each new prompt frees one move; a prompt repeated, other frames and other messages
    /// free nothing, and the bucket pays for the rest.
    #[tokio::test(start_paused = true)]
    async fn one_move_a_prompt_is_free_and_the_bucket_pays_for_the_rest() {
        let asked = Arc::new(Asked::default());
        let mut guard = FloodGuard::new(1, 2, Arc::clone(&asked));
        let mut last = None;
        let now = Instant::now();
        for seq in 1..=100 {
            asked.writing(&prompt(seq), &mut last);
            asked.writing(&prompt(seq), &mut last);
            asked.writing(r#"{"type":"event","seq":1}"#, &mut last);
            assert!(guard.admits(now, true), "the answer to prompt {seq}");
        }
        assert_eq!(asked.prompts(), 100);
        // A second answer and a chat line take the two tokens; then the bucket is dry.
        assert!(guard.admits(now, true));
        assert!(guard.admits(now, false));
        assert!(!guard.admits(now, true));
        // Prompts left unanswered build no credit: one answer is free, not three.
        for seq in 101..=103 {
            asked.writing(&prompt(seq), &mut last);
        }
        assert!(guard.admits(now, true));
        assert!(!guard.admits(now, true));
        // Only a move answers: a ping with a prompt due pays (and finds the bucket dry).
        asked.writing(&prompt(104), &mut last);
        assert!(!guard.admits(now, false));
        assert!(guard.admits(now, true));
    }

    /// The prompt a table writes (`conn::prompt_frame`) is recognised, with its `seq`.
    #[test]
    fn the_server_s_own_prompt_is_counted() {
        use parlor_shared::rules::{Options, Variant};
        use parlor_shared::view::{PlayerView, json};
        let game = parlor_shared::Game::new(Variant::Hearts, &Options::default(), 5).unwrap();
        let seat = game.to_act().first().unwrap();
        let view = PlayerView::of(&game, Some(seat));
        let mut cache = json::ViewCache::default();
        let frame = crate::conn::prompt_frame(17, &view, Some(1_000), &mut cache);
        assert_eq!(prompt_seq(frame.as_str()), Some(17));
    }

    #[test]
    fn the_seq_of_a_prompt_and_of_nothing_else() {
        assert_eq!(prompt_seq(&prompt(42)), Some(42));
        assert_eq!(prompt_seq(r#"{"type":"event","seq":42,"prev":41}"#), None);
        assert_eq!(prompt_seq(r#"{"type":"your_turn","seq":"#), None);
    }
}
