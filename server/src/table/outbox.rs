//! A connection's outbound queue: the table pushes frames without ever waiting, and the
//! connection's writer takes everything queued in one go.
//!
//! Why not `tokio::sync::mpsc`: its blocks of 32 slots cost about 2.5 KB per connection
//! even when idle, and a server holds four connections per table. This queue keeps only what
//! is waiting (a handful of frames) and hands the writer a whole batch per wake-up.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

use super::Frame;

/// More spare room than this is given back after a burst.
const KEEP_CAPACITY: usize = 16;

/// Why a frame could not be queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushError {
    /// The queue holds its limit: the reader is too slow.
    Full,
    /// The connection's writer is gone.
    Closed,
}

/// What both ends share.
#[derive(Debug)]
struct Shared {
    /// The frames waiting, and whether the writer is gone.
    state: Mutex<State>,
    /// Woken when a frame is queued (or the last sender leaves).
    readable: Notify,
    /// Woken when the writer has taken frames (room for waiting senders).
    writable: Notify,
    /// The most frames waiting at once.
    limit: usize,
}

#[derive(Debug, Default)]
struct State {
    frames: VecDeque<Frame>,
    /// The receiving end was dropped.
    closed: bool,
    /// Live [`OutboxSender`]s.
    senders: usize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding this lock leaves only a queue of frames behind: keep going.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A new queue holding at most `limit` frames.
#[must_use]
pub fn outbox(limit: usize) -> (OutboxSender, OutboxReceiver) {
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            senders: 1,
            ..State::default()
        }),
        readable: Notify::new(),
        writable: Notify::new(),
        limit: limit.max(1),
    });
    (
        OutboxSender {
            shared: shared.clone(),
        },
        OutboxReceiver { shared },
    )
}

/// The pushing end; cheap to clone.
#[derive(Debug)]
pub struct OutboxSender {
    shared: Arc<Shared>,
}

impl Clone for OutboxSender {
    fn clone(&self) -> Self {
        self.shared.lock().senders += 1;
        OutboxSender {
            shared: self.shared.clone(),
        }
    }
}

impl Drop for OutboxSender {
    fn drop(&mut self) {
        let last = {
            let mut state = self.shared.lock();
            state.senders -= 1;
            state.senders == 0
        };
        if last {
            self.shared.readable.notify_one();
        }
    }
}

impl OutboxSender {
    /// Queues a frame now, or says why not.
    pub fn try_push(&self, frame: Frame) -> Result<(), PushError> {
        self.offer(frame).map_err(|(err, _)| err)
    }

    /// Queues a frame, waiting for room. Fails only when the writer is gone.
    ///
    /// It also spends tokio's cooperative budget, as tokio's own channels do: a connection's
    /// reader answering a burst of frames then lets the writer of the same task run.
    pub async fn push(&self, mut frame: Frame) -> Result<(), PushError> {
        tokio::task::consume_budget().await;
        loop {
            // Registered before looking, so room made in between is not missed.
            let room = self.shared.writable.notified();
            tokio::pin!(room);
            room.as_mut().enable();
            match self.offer(frame) {
                Ok(()) => return Ok(()),
                Err((PushError::Closed, _)) => return Err(PushError::Closed),
                Err((PushError::Full, back)) => frame = back,
            }
            room.await;
        }
    }

    /// Queues a frame, or gives it back with the reason.
    fn offer(&self, frame: Frame) -> Result<(), (PushError, Frame)> {
        {
            let mut state = self.shared.lock();
            if state.closed {
                return Err((PushError::Closed, frame));
            }
            if state.frames.len() >= self.shared.limit {
                return Err((PushError::Full, frame));
            }
            state.frames.push_back(frame);
        }
        self.shared.readable.notify_one();
        Ok(())
    }
}

/// The connection writer's end.
#[derive(Debug)]
pub struct OutboxReceiver {
    shared: Arc<Shared>,
}

impl Drop for OutboxReceiver {
    fn drop(&mut self) {
        let mut state = self.shared.lock();
        state.closed = true;
        state.frames.clear();
        drop(state);
        self.shared.writable.notify_waiters();
    }
}

impl OutboxReceiver {
    /// Waits until frames are queued and moves all of them into `batch` (which should be
    /// empty; its memory is reused). Returns `false` once every sender is gone and nothing is
    /// left.
    pub async fn recv_all(&mut self, batch: &mut VecDeque<Frame>) -> bool {
        loop {
            {
                let mut state = self.shared.lock();
                if !state.frames.is_empty() {
                    std::mem::swap(&mut state.frames, batch);
                    if state.frames.capacity() > KEEP_CAPACITY {
                        state.frames = VecDeque::new();
                    }
                    drop(state);
                    self.shared.writable.notify_waiters();
                    return true;
                }
                if state.senders == 0 {
                    return false;
                }
            }
            self.shared.readable.notified().await;
        }
    }

    /// Frames waiting.
    #[must_use]
    pub fn len(&self) -> usize {
        self.shared.lock().frames.len()
    }

    /// True when nothing is waiting.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Takes the oldest frame queued, if any (tests).
    pub fn try_recv(&mut self) -> Option<Frame> {
        let frame = self.shared.lock().frames.pop_front();
        if frame.is_some() {
            self.shared.writable.notify_waiters();
        }
        frame
    }

    /// Waits for the next frame; `None` once every sender is gone (tests).
    pub async fn recv(&mut self) -> Option<Frame> {
        loop {
            {
                let mut state = self.shared.lock();
                if let Some(frame) = state.frames.pop_front() {
                    drop(state);
                    self.shared.writable.notify_waiters();
                    return Some(frame);
                }
                if state.senders == 0 {
                    return None;
                }
            }
            self.shared.readable.notified().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(batch: &VecDeque<Frame>) -> Vec<&str> {
        batch.iter().map(Frame::as_str).collect()
    }

    #[tokio::test]
    async fn the_writer_takes_everything_queued_in_order() {
        let (tx, mut rx) = outbox(8);
        for text in ["a", "b", "c"] {
            tx.try_push(text.into()).unwrap();
        }
        let mut batch = VecDeque::new();
        assert!(rx.recv_all(&mut batch).await);
        assert_eq!(frames(&batch), ["a", "b", "c"]);
        assert!(rx.try_recv().is_none(), "the queue was emptied");
    }

    #[test]
    fn a_full_queue_refuses_and_a_gone_writer_closes() {
        let (tx, rx) = outbox(2);
        tx.try_push("1".into()).unwrap();
        tx.try_push("2".into()).unwrap();
        assert_eq!(tx.try_push("3".into()), Err(PushError::Full));
        drop(rx);
        assert_eq!(tx.try_push("4".into()), Err(PushError::Closed));
    }

    #[tokio::test]
    async fn a_waiting_push_goes_in_once_the_writer_makes_room() {
        let (tx, mut rx) = outbox(1);
        tx.try_push("first".into()).unwrap();
        let waiting = tokio::spawn({
            let tx = tx.clone();
            async move { tx.push("second".into()).await }
        });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "no room yet");
        assert_eq!(rx.recv().await.unwrap().as_str(), "first");
        waiting.await.unwrap().unwrap();
        assert_eq!(rx.recv().await.unwrap().as_str(), "second");
    }

    #[tokio::test]
    async fn a_waiting_push_fails_when_the_writer_goes() {
        let (tx, rx) = outbox(1);
        tx.try_push("first".into()).unwrap();
        let waiting = tokio::spawn(async move { tx.push("second".into()).await });
        tokio::task::yield_now().await;
        drop(rx);
        assert_eq!(waiting.await.unwrap(), Err(PushError::Closed));
    }

    #[tokio::test]
    async fn the_writer_ends_when_every_sender_is_gone() {
        let (tx, mut rx) = outbox(4);
        let other = tx.clone();
        tx.try_push("last".into()).unwrap();
        drop(tx);
        let mut batch = VecDeque::new();
        assert!(
            rx.recv_all(&mut batch).await,
            "what was queued still comes out"
        );
        batch.clear();
        let ended = tokio::spawn(async move { rx.recv_all(&mut batch).await });
        tokio::task::yield_now().await;
        assert!(!ended.is_finished(), "one sender is left");
        drop(other);
        assert!(!ended.await.unwrap());
    }
}
