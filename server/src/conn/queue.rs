//! A small bounded queue between tasks: a connection's outbound frames, a table's mailbox.
//! Senders push without waiting ([`Sender::try_push`]) or wait for room ([`Sender::push`]);
//! the receiver takes one item or everything queued in one go.
//!
//! Why not `tokio::sync::mpsc`: its blocks of 32 slots cost one to three kilobytes per
//! channel even when idle, and a server holds five channels per table. This queue keeps only
//! what is waiting (usually a handful of items).
//!
//! It knows nothing of frames, tables or sockets.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

/// More spare room than this is given back after a burst.
const KEEP_CAPACITY: usize = 16;

/// Why an item could not be queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushError {
    /// The queue holds its limit: the receiver is too slow.
    Full,
    /// The receiver is gone.
    Closed,
}

/// What both ends share.
#[derive(Debug)]
struct Shared<T> {
    /// The items waiting, and whether the receiver is gone.
    state: Mutex<State<T>>,
    /// Woken when an item is queued (or the last sender leaves).
    readable: Notify,
    /// Woken when the receiver has taken items (room for waiting senders).
    writable: Notify,
    /// The most items waiting at once.
    limit: usize,
}

#[derive(Debug)]
struct State<T> {
    items: VecDeque<T>,
    /// The receiving end was dropped.
    closed: bool,
    /// Live [`Sender`]s.
    senders: usize,
}

impl<T> Shared<T> {
    fn lock(&self) -> MutexGuard<'_, State<T>> {
        // A panic while holding this lock leaves only a queue of items behind: keep going.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A new queue holding at most `limit` items.
#[must_use]
pub fn bounded<T>(limit: usize) -> (Sender<T>, Receiver<T>) {
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            items: VecDeque::new(),
            closed: false,
            senders: 1,
        }),
        readable: Notify::new(),
        writable: Notify::new(),
        limit: limit.max(1),
    });
    (
        Sender {
            shared: shared.clone(),
        },
        Receiver { shared },
    )
}

/// The pushing end; cheap to clone.
#[derive(Debug)]
pub struct Sender<T> {
    shared: Arc<Shared<T>>,
}

impl<T> Clone for Sender<T> {
    fn clone(&self) -> Self {
        self.shared.lock().senders += 1;
        Sender {
            shared: self.shared.clone(),
        }
    }
}

impl<T> Drop for Sender<T> {
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

impl<T> Sender<T> {
    /// Queues an item now, or says why not.
    pub fn try_push(&self, item: T) -> Result<(), PushError> {
        self.offer(item).map_err(|(err, _)| err)
    }

    /// Queues an item, waiting for room. Fails only when the receiver is gone.
    ///
    /// It also spends tokio's cooperative budget, as tokio's own channels do: a connection's
    /// reader answering a burst of frames then lets the writer of the same task run.
    pub async fn push(&self, mut item: T) -> Result<(), PushError> {
        tokio::task::consume_budget().await;
        loop {
            // Registered before looking, so room made in between is not missed.
            let room = self.shared.writable.notified();
            tokio::pin!(room);
            room.as_mut().enable();
            match self.offer(item) {
                Ok(()) => return Ok(()),
                Err((PushError::Closed, _)) => return Err(PushError::Closed),
                Err((PushError::Full, back)) => item = back,
            }
            room.await;
        }
    }

    /// Queues an item, or gives it back with the reason.
    fn offer(&self, item: T) -> Result<(), (PushError, T)> {
        {
            let mut state = self.shared.lock();
            if state.closed {
                return Err((PushError::Closed, item));
            }
            if state.items.len() >= self.shared.limit {
                return Err((PushError::Full, item));
            }
            state.items.push_back(item);
        }
        self.shared.readable.notify_one();
        Ok(())
    }
}

/// The receiving end.
#[derive(Debug)]
pub struct Receiver<T> {
    shared: Arc<Shared<T>>,
}

impl<T> Drop for Receiver<T> {
    fn drop(&mut self) {
        let mut state = self.shared.lock();
        state.closed = true;
        state.items.clear();
        drop(state);
        self.shared.writable.notify_waiters();
    }
}

impl<T> Receiver<T> {
    /// Waits until items are queued and moves all of them into `batch` (which should be
    /// empty; its memory is reused). Returns `false` once every sender is gone and nothing is
    /// left.
    pub async fn recv_all(&mut self, batch: &mut VecDeque<T>) -> bool {
        loop {
            {
                let mut state = self.shared.lock();
                if !state.items.is_empty() {
                    std::mem::swap(&mut state.items, batch);
                    if state.items.capacity() > KEEP_CAPACITY {
                        state.items = VecDeque::new();
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

    /// Items waiting.
    #[must_use]
    pub fn len(&self) -> usize {
        self.shared.lock().items.len()
    }

    /// True when nothing is waiting.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Takes the oldest item queued, if any.
    pub fn try_recv(&mut self) -> Option<T> {
        let item = self.shared.lock().items.pop_front();
        if item.is_some() {
            self.shared.writable.notify_waiters();
        }
        item
    }

    /// Waits for the next item; `None` once every sender is gone. Cancel-safe: nothing is
    /// taken until it is returned.
    pub async fn recv(&mut self) -> Option<T> {
        loop {
            {
                let mut state = self.shared.lock();
                if let Some(item) = state.items.pop_front() {
                    drop(state);
                    self.shared.writable.notify_waiters();
                    return Some(item);
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
    use crate::conn::Frame;

    fn frames(batch: &VecDeque<Frame>) -> Vec<&str> {
        batch.iter().map(Frame::as_str).collect()
    }

    #[tokio::test]
    async fn the_writer_takes_everything_queued_in_order() {
        let (tx, mut rx) = bounded::<Frame>(8);
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
        let (tx, rx) = bounded::<Frame>(2);
        tx.try_push("1".into()).unwrap();
        tx.try_push("2".into()).unwrap();
        assert_eq!(tx.try_push("3".into()), Err(PushError::Full));
        drop(rx);
        assert_eq!(tx.try_push("4".into()), Err(PushError::Closed));
    }

    #[tokio::test]
    async fn a_waiting_push_goes_in_once_the_writer_makes_room() {
        let (tx, mut rx) = bounded::<Frame>(1);
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
        let (tx, rx) = bounded::<Frame>(1);
        tx.try_push("first".into()).unwrap();
        let waiting = tokio::spawn(async move { tx.push("second".into()).await });
        tokio::task::yield_now().await;
        drop(rx);
        assert_eq!(waiting.await.unwrap(), Err(PushError::Closed));
    }

    #[tokio::test]
    async fn the_writer_ends_when_every_sender_is_gone() {
        let (tx, mut rx) = bounded::<Frame>(4);
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
