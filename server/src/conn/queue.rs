//! A small bounded queue between tasks: a connection's outbound frames, a table's mailbox.
//! Senders push without waiting ([`Sender::try_push`]) or wait for room ([`Sender::push`]); the
//! receiver takes one item or everything queued. An item pushed as one that can wait
//! ([`Sender::try_push_lazy`]) is held by [`Receiver::recv_due`], in a queue made with a
//! [`Linger`] clock, until an urgent one joins it or the clock releases it.
//! Why not `tokio::sync::mpsc`: its blocks of slots take memory per channel even when idle, and a
//! server holds several channels per table; this queue keeps only what is waiting. The receiver
//! waits on an [`AtomicWaker`] (not a `Notify`, a locked list per wait) registered before it
//! looks at the queue, so an item pushed in between wakes it. It knows nothing of frames.

use std::collections::VecDeque;
use std::future::poll_fn;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::Poll;

use futures_util::task::AtomicWaker;
use tokio::sync::Notify;
use tokio::time::Instant;

use super::linger::{Linger, Lingering};

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
    /// The receiver's waker, woken when an item is queued (or the last sender leaves).
    readable: AtomicWaker,
    /// Woken when the receiver has taken items (room for waiting senders).
    writable: Notify,
    /// The most items waiting at once.
    limit: usize,
    /// Holds lazy items back; without one they go as urgent ones do.
    linger: Option<Linger>,
}

#[derive(Debug)]
struct State<T> {
    items: VecDeque<T>,
    /// The receiving end was dropped.
    closed: bool,
    /// Live [`Sender`]s.
    senders: usize,
    /// [`Sender::push`]es waiting for room: the receiver wakes them only when there are any
    /// (each wake of a `Notify` takes its lock, waiters or not).
    pushers_waiting: usize,
    /// What is waiting must go out now: an urgent item is among it ([`Sender::try_push`],
    /// [`Sender::push`]), or the held ones have waited long enough.
    due: bool,
    /// When the oldest item that may wait ([`Sender::try_push_lazy`]) was queued, if any: the
    /// round the clock will release.
    lazy_since: Option<Instant>,
}

impl<T> Shared<T> {
    fn lock(&self) -> MutexGuard<'_, State<T>> {
        // A panic while holding this lock leaves only a queue of items behind: keep going.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A new queue holding at most `limit` items; those that may wait go as urgent ones do (see
/// [`lingering`]).
#[must_use]
pub fn bounded<T>(limit: usize) -> (Sender<T>, Receiver<T>) {
    with_linger(limit, None)
}

/// A new queue holding at most `limit` items, whose items that may wait `linger` holds (none
/// are held at a zero wait).
///
/// # Panics
/// Outside a Tokio runtime, for the first queue of `linger` (which starts its task).
#[must_use]
pub fn lingering<T>(limit: usize, linger: &Linger) -> (Sender<T>, Receiver<T>) {
    if linger.wait().is_zero() {
        return bounded(limit);
    }
    linger.start();
    with_linger(limit, Some(linger.clone()))
}

fn with_linger<T>(limit: usize, linger: Option<Linger>) -> (Sender<T>, Receiver<T>) {
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            items: VecDeque::new(),
            closed: false,
            senders: 1,
            pushers_waiting: 0,
            due: false,
            lazy_since: None,
        }),
        readable: AtomicWaker::new(),
        writable: Notify::new(),
        limit: limit.max(1),
        linger,
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
            self.shared.readable.wake();
        }
    }
}

impl<T: Send + 'static> Sender<T> {
    /// Queues an item now, or says why not.
    pub fn try_push(&self, item: T) -> Result<(), PushError> {
        self.offer(item, true, false).map_err(|(err, _)| err)
    }

    /// [`Self::try_push`], giving the item back when it cannot be queued.
    pub fn try_push_or_return(&self, item: T) -> Result<(), (PushError, T)> {
        self.offer(item, true, false)
    }

    /// Queues an item that may wait a little for company ([`Receiver::recv_due`]), or says
    /// why not. The receiver is not woken: the item goes with the next urgent one, or when
    /// the queue's clock releases it. In a queue without a clock it is an urgent item.
    pub fn try_push_lazy(&self, item: T) -> Result<(), PushError> {
        let urgent = self.shared.linger.is_none();
        self.offer(item, urgent, false).map_err(|(err, _)| err)
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
            match self.offer(item, true, true) {
                Ok(()) => return Ok(()),
                Err((PushError::Closed, _)) => return Err(PushError::Closed),
                Err((PushError::Full, back)) => item = back,
            }
            // Counted by `offer` as it found the queue full, under the same lock.
            let _waiting = WaitingForRoom(&self.shared);
            room.await;
        }
    }

    /// Queues an item, or gives it back with the reason. An `urgent` item wakes the receiver;
    /// the first of a round that may wait is handed to the clock. A push that will wait for
    /// room (`waits`) is counted as waiting when the queue is full.
    fn offer(&self, item: T, urgent: bool, waits: bool) -> Result<(), (PushError, T)> {
        let held_since = {
            let mut state = self.shared.lock();
            if state.closed {
                return Err((PushError::Closed, item));
            }
            if state.items.len() >= self.shared.limit {
                if waits {
                    state.pushers_waiting += 1;
                }
                return Err((PushError::Full, item));
            }
            state.items.push_back(item);
            if urgent {
                state.due = true;
                None
            } else if state.lazy_since.is_none() {
                let now = Instant::now();
                state.lazy_since = Some(now);
                Some(now)
            } else {
                None
            }
        };
        if urgent {
            self.shared.readable.wake();
        } else if let (Some(since), Some(linger)) = (held_since, &self.shared.linger) {
            let queue: std::sync::Weak<dyn Lingering> = Arc::downgrade(&self.shared) as _;
            linger.hold(since, queue);
        }
        Ok(())
    }
}

/// A push waiting for room, counted when [`Sender::offer`] found the queue full; no longer
/// counted once this is dropped (the push got room, or was itself dropped).
struct WaitingForRoom<'a, T>(&'a Shared<T>);

impl<T> Drop for WaitingForRoom<'_, T> {
    fn drop(&mut self) {
        self.0.lock().pushers_waiting -= 1;
    }
}

/// The receiving end.
#[derive(Debug)]
pub struct Receiver<T> {
    shared: Arc<Shared<T>>,
}

impl<T: Send> Lingering for Shared<T> {
    fn release(&self, since: Instant) {
        let mut state = self.lock();
        if state.lazy_since != Some(since) || state.closed {
            return;
        }
        state.due = true;
        drop(state);
        self.readable.wake();
    }
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
        poll_fn(|cx| {
            self.shared.readable.register(cx.waker());
            let state = self.shared.lock();
            if !state.items.is_empty() {
                self.took(Self::take_all(state, batch));
                return Poll::Ready(true);
            }
            if state.senders == 0 {
                return Poll::Ready(false);
            }
            Poll::Pending
        })
        .await
    }

    /// [`Receiver::recv_all`], except that items pushed with [`Sender::try_push_lazy`] are
    /// held until an urgent item joins them or the queue's clock releases them: what may wait
    /// leaves in fewer, larger writes. Cancel-safe: nothing is taken until it is returned.
    pub async fn recv_due(&mut self, batch: &mut VecDeque<T>) -> bool {
        poll_fn(|cx| {
            self.shared.readable.register(cx.waker());
            let state = self.shared.lock();
            if !state.items.is_empty() && (state.due || state.senders == 0) {
                self.took(Self::take_all(state, batch));
                return Poll::Ready(true);
            }
            if state.senders == 0 {
                return Poll::Ready(false);
            }
            Poll::Pending
        })
        .await
    }

    /// Moves every item into `batch` (empty; its memory is reused) and clears the marks.
    /// Returns the lock, for [`Receiver::took`].
    fn take_all<'a>(
        mut state: MutexGuard<'a, State<T>>,
        batch: &mut VecDeque<T>,
    ) -> MutexGuard<'a, State<T>> {
        std::mem::swap(&mut state.items, batch);
        if state.items.capacity() > KEEP_CAPACITY {
            state.items = VecDeque::new();
        }
        state.due = false;
        state.lazy_since = None;
        state
    }

    /// After items were taken (the lock still held): lets go of the lock and wakes the
    /// pushes waiting for room, if any.
    fn took(&self, state: MutexGuard<'_, State<T>>) {
        let waiting = state.pushers_waiting > 0;
        drop(state);
        if waiting {
            self.shared.writable.notify_waiters();
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
        let mut state = self.shared.lock();
        let item = state.items.pop_front();
        if state.items.is_empty() {
            state.due = false;
            state.lazy_since = None;
        }
        if item.is_some() {
            self.took(state);
        }
        item
    }

    /// Waits for the next item; `None` once every sender is gone. Cancel-safe: nothing is
    /// taken until it is returned.
    pub async fn recv(&mut self) -> Option<T> {
        poll_fn(|cx| {
            self.shared.readable.register(cx.waker());
            let mut state = self.shared.lock();
            if let Some(item) = state.items.pop_front() {
                if state.items.is_empty() {
                    state.due = false;
                    state.lazy_since = None;
                }
                self.took(state);
                return Poll::Ready(Some(item));
            }
            if state.senders == 0 {
                return Poll::Ready(None);
            }
            Poll::Pending
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::Frame;
    use std::time::Duration;

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

    const LINGER: Duration = Duration::from_millis(20);

    /// A queue of eight frames whose clock holds lazy ones `LINGER`.
    fn held_queue() -> (Sender<Frame>, Receiver<Frame>) {
        lingering(8, &Linger::new(LINGER))
    }

    /// Takes what `recv_due` gives within `wait` (of paused time), if anything.
    async fn due_within(rx: &mut Receiver<Frame>, wait: Duration) -> Option<Vec<String>> {
        let mut batch = VecDeque::new();
        let got = tokio::time::timeout(wait, rx.recv_due(&mut batch)).await;
        got.ok().map(|more| {
            assert!(more);
            batch.iter().map(|frame| frame.to_string()).collect()
        })
    }

    #[tokio::test(start_paused = true)]
    async fn what_may_wait_waits_for_an_urgent_item_and_leaves_with_it_in_order() {
        let (tx, mut rx) = held_queue();
        let start = tokio::time::Instant::now();
        tx.try_push_lazy("move 1".into()).unwrap();
        tx.try_push_lazy("move 2".into()).unwrap();
        assert_eq!(due_within(&mut rx, LINGER / 2).await, None, "held");
        tx.try_push("your turn".into()).unwrap();
        assert_eq!(
            due_within(&mut rx, LINGER).await.unwrap(),
            ["move 1", "move 2", "your turn"]
        );
        assert_eq!(
            start.elapsed(),
            LINGER / 2,
            "taken as soon as the urgent one came"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn what_may_wait_leaves_once_the_oldest_has_waited_the_linger() {
        let (tx, mut rx) = held_queue();
        let start = tokio::time::Instant::now();
        tx.try_push_lazy("move 1".into()).unwrap();
        tokio::time::advance(LINGER / 2).await;
        tx.try_push_lazy("move 2".into()).unwrap();
        assert_eq!(
            due_within(&mut rx, LINGER * 10).await.unwrap(),
            ["move 1", "move 2"]
        );
        assert_eq!(start.elapsed(), LINGER, "timed from the oldest");
        // The next one is timed afresh.
        tx.try_push_lazy("move 3".into()).unwrap();
        assert_eq!(
            due_within(&mut rx, LINGER - Duration::from_millis(1)).await,
            None
        );
        assert_eq!(due_within(&mut rx, LINGER).await.unwrap(), ["move 3"]);
    }

    #[tokio::test(start_paused = true)]
    async fn urgent_items_and_a_zero_linger_never_wait() {
        let (tx, mut rx) = held_queue();
        let start = tokio::time::Instant::now();
        tx.try_push("reply".into()).unwrap();
        assert_eq!(due_within(&mut rx, LINGER).await.unwrap(), ["reply"]);
        for queue in [lingering(8, &Linger::new(Duration::ZERO)), bounded(8)] {
            let (tx, mut rx) = queue;
            tx.try_push_lazy("move".into()).unwrap();
            assert_eq!(due_within(&mut rx, LINGER).await.unwrap(), ["move"]);
        }
        assert_eq!(start.elapsed(), Duration::ZERO);
    }

    /// A round sent early with an urgent item is not released again by the clock: the round
    /// after it waits its own full linger.
    #[tokio::test(start_paused = true)]
    async fn the_clock_releases_only_the_round_it_was_given() {
        let (tx, mut rx) = held_queue();
        let start = tokio::time::Instant::now();
        tx.try_push_lazy("move 1".into()).unwrap();
        tx.try_push("your turn".into()).unwrap();
        assert_eq!(
            due_within(&mut rx, LINGER).await.unwrap(),
            ["move 1", "your turn"]
        );
        tokio::time::advance(LINGER / 2).await;
        tx.try_push_lazy("move 2".into()).unwrap();
        assert_eq!(
            due_within(&mut rx, LINGER - Duration::from_millis(1)).await,
            None,
            "the first round's release does not send the second"
        );
        assert_eq!(due_within(&mut rx, LINGER).await.unwrap(), ["move 2"]);
        assert_eq!(start.elapsed(), LINGER / 2 + LINGER);
    }

    /// Queues of one clock, held at different times, are each released at their own due time,
    /// in the order they began.
    #[tokio::test(start_paused = true)]
    async fn one_clock_releases_many_queues_each_at_its_time() {
        let linger = Linger::new(LINGER);
        let start = tokio::time::Instant::now();
        let mut queues = Vec::new();
        for i in 0..3u32 {
            let (tx, rx) = lingering::<Frame>(8, &linger);
            tx.try_push_lazy(format!("move {i}").into()).unwrap();
            queues.push((tx, rx));
            tokio::time::advance(Duration::from_millis(5)).await;
        }
        for (i, (_tx, rx)) in queues.iter_mut().enumerate() {
            assert_eq!(
                due_within(rx, LINGER * 10).await.unwrap(),
                [format!("move {i}")]
            );
            let waited = Duration::from_millis(5) * i as u32 + LINGER;
            assert_eq!(start.elapsed(), waited, "queue {i}");
        }
    }

    #[tokio::test(start_paused = true)]
    async fn what_may_wait_leaves_at_once_when_the_last_sender_goes() {
        let (tx, mut rx) = held_queue();
        tx.try_push_lazy("last move".into()).unwrap();
        drop(tx);
        let start = tokio::time::Instant::now();
        assert_eq!(due_within(&mut rx, LINGER).await.unwrap(), ["last move"]);
        assert_eq!(start.elapsed(), Duration::ZERO);
        let mut batch = VecDeque::new();
        assert!(!rx.recv_due(&mut batch).await, "then the queue ends");
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

    /// Senders on other threads push while the receiver waits, in each of its three ways:
    /// every item arrives, in each sender's order (a wake-up lost between the receiver's look
    /// and its wait would stall this test).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn items_pushed_from_other_threads_while_the_receiver_waits_all_arrive() {
        const SENDERS: usize = 3;
        const EACH: usize = 2000;
        let linger = Linger::new(Duration::from_millis(1));
        for way in 0..3 {
            let (tx, mut rx) = lingering::<(usize, usize)>(64, &linger);
            let mut senders = Vec::new();
            for s in 0..SENDERS {
                let tx = tx.clone();
                senders.push(tokio::spawn(async move {
                    for i in 0..EACH {
                        if i % 3 == 0 {
                            tx.push((s, i)).await.unwrap();
                        } else {
                            while tx.try_push_lazy((s, i)).is_err() {
                                tokio::task::yield_now().await;
                            }
                        }
                    }
                }));
            }
            drop(tx);
            let mut next = [0; SENDERS];
            let mut batch = VecDeque::new();
            let received = async {
                loop {
                    let more = match way {
                        0 => rx.recv().await.map(|item| batch.push_back(item)).is_some(),
                        1 => rx.recv_all(&mut batch).await,
                        _ => rx.recv_due(&mut batch).await,
                    };
                    for (s, i) in batch.drain(..) {
                        assert_eq!(i, next[s], "sender {s} out of order");
                        next[s] += 1;
                    }
                    if !more {
                        break;
                    }
                }
            };
            // A bound on a stall, not a measure of speed: this takes milliseconds.
            tokio::time::timeout(Duration::from_secs(120), received)
                .await
                .unwrap_or_else(|_| panic!("way {way}: the receiver stalled"));
            assert_eq!(next, [EACH; SENDERS], "way {way}");
            for sender in senders {
                sender.await.unwrap();
            }
        }
    }
}
