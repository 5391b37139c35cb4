//! Waiting for a cancellation without locking the token at every poll.
//!
//! Why: tokio-util's `WaitForCancellationFuture` locks the token's node (`is_cancelled`) and
//! then its notifier's list of waiters at every poll, and a connection's writer and a table's
//! loop poll theirs at every wake-up, whatever woke them. Wrapped in a
//! [`CancelWatch`], the wait is polled only when its own wake-up has fired (or the task's
//! waker changed); any other poll is one atomic swap.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, Wake, Waker};

/// A pinned future that ends when a cancellation comes (`token.cancelled()`), polled only
/// when it has been woken. Once ready it stays ready, as the wrapped future does.
pub struct CancelWatch<'a, F> {
    /// The wait itself.
    inner: Pin<&'a mut F>,
    /// The waker the wait was last polled with: the task's, marking when it fires.
    flag: Option<Arc<Flag>>,
    /// The wait has ended.
    done: bool,
}

/// Wakes the task and remembers that it did.
struct Flag {
    fired: AtomicBool,
    task: Waker,
}

impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.fired.store(true, Ordering::Release);
        self.task.wake_by_ref();
    }
}

impl<'a, F: Future<Output = ()>> CancelWatch<'a, F> {
    /// Watches `inner`, a pinned `cancelled()` future.
    pub fn new(inner: Pin<&'a mut F>) -> Self {
        CancelWatch {
            inner,
            flag: None,
            done: false,
        }
    }
}

impl<F: Future<Output = ()>> Future for CancelWatch<'_, F> {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = &mut *self;
        if this.done {
            return Poll::Ready(());
        }
        let flag = match &this.flag {
            // Polled before with this task's waker: only a wake-up of its own can have
            // ended the wait.
            Some(flag) if flag.task.will_wake(cx.waker()) => {
                if !flag.fired.swap(false, Ordering::Acquire) {
                    return Poll::Pending;
                }
                Arc::clone(flag)
            }
            _ => {
                let flag = Arc::new(Flag {
                    fired: AtomicBool::new(false),
                    task: cx.waker().clone(),
                });
                this.flag = Some(Arc::clone(&flag));
                flag
            }
        };
        let waker = Waker::from(flag);
        let polled = this.inner.as_mut().poll(&mut Context::from_waker(&waker));
        this.done = polled.is_ready();
        polled
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tokio_util::sync::CancellationToken;

    /// Pending until the token is cancelled, however often it is polled; then ready, and
    /// ready again when polled after.
    #[tokio::test]
    async fn ends_when_cancelled_and_stays_ended() {
        let token = CancellationToken::new();
        let wait = token.cancelled();
        tokio::pin!(wait);
        let mut watch = CancelWatch::new(wait.as_mut());
        for _ in 0..3 {
            let polled = std::future::poll_fn(|cx| Poll::Ready(Pin::new(&mut watch).poll(cx)));
            assert!(polled.await.is_pending());
        }
        token.cancel();
        tokio::time::timeout(Duration::from_secs(5), &mut watch)
            .await
            .expect("the cancellation ends the wait");
        let again = std::future::poll_fn(|cx| Poll::Ready(Pin::new(&mut watch).poll(cx)));
        assert!(again.await.is_ready());
    }

    /// A wait polled among other wake-ups (a select with a busy branch) still ends when a
    /// parent token is cancelled from another task, as the server's shutdown is.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_parent_cancelled_elsewhere_wakes_a_busy_select() {
        let parent = CancellationToken::new();
        let child = parent.child_token();
        let wait = child.cancelled();
        tokio::pin!(wait);
        let mut watch = CancelWatch::new(wait.as_mut());
        let cancel = tokio::spawn({
            let parent = parent.clone();
            async move {
                tokio::time::sleep(Duration::from_millis(50)).await;
                parent.cancel();
            }
        });
        let mut ticks = 0u32;
        let ended = tokio::time::timeout(Duration::from_secs(5), async {
            loop {
                tokio::select! {
                    biased;
                    () = &mut watch => break,
                    () = tokio::time::sleep(Duration::from_millis(1)) => ticks += 1,
                }
            }
        })
        .await;
        assert!(ended.is_ok(), "the cancellation reached the watch");
        assert!(ticks > 0, "the other branch woke the select meanwhile");
        cancel.await.unwrap();
    }

    /// A wait first polled with one waker and then by its task (a new waker) wakes that task.
    /// The watch runs in a task of its own, so nothing else polls it: only its own wake-up
    /// can finish the task.
    #[tokio::test]
    async fn a_new_waker_is_watched() {
        let token = CancellationToken::new();
        let task = tokio::spawn({
            let token = token.clone();
            async move {
                let wait = token.cancelled();
                tokio::pin!(wait);
                let mut watch = CancelWatch::new(wait.as_mut());
                let other = Waker::noop();
                let first = Pin::new(&mut watch).poll(&mut Context::from_waker(other));
                assert!(first.is_pending());
                watch.await;
            }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        token.cancel();
        tokio::time::timeout(Duration::from_secs(5), task)
            .await
            .expect("the task's own waker is registered and woken")
            .unwrap();
    }
}
