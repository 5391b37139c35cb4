//! What the SQLite and Postgres writers share: the requests they take, in one queue, and the
//! steps of their loop that are the same. Each writer takes every queued request, writes the
//! writes at the head of the queue in one transaction, acknowledges them after the commit
//! (group commit) and answers the other requests in queue order, so a read sees every write
//! before it. A commit that fails is tried again, the same writes, after a growing wait.

use std::collections::VecDeque;
use std::time::Duration;

use futures_util::future::BoxFuture;
use tokio::sync::{mpsc, oneshot};

use super::health::Health;
use super::records::{ResultRow, TableLog, Write};
use super::{Ack, BotAccount, NewBot, StoreError};

/// The most writes in one transaction.
pub const MAX_BATCH: usize = 4096;

/// The first wait before a failed commit is tried again; it doubles up to [`RETRY_MAX`].
pub const RETRY_FIRST: Duration = Duration::from_millis(50);

/// The longest wait between tries of a failed commit.
pub const RETRY_MAX: Duration = Duration::from_secs(2);

/// What a writer is asked to do.
#[derive(Debug)]
pub enum Request {
    /// Store this; answer once committed (or refused).
    Write {
        /// The change.
        write: Write,
        /// The acknowledgement.
        ack: Ack,
    },
    /// Answer once everything before is committed.
    Barrier {
        /// The answer.
        reply: oneshot::Sender<()>,
    },
    /// Read one table.
    Load {
        /// Which.
        id: String,
        /// The answer.
        reply: oneshot::Sender<Result<Option<TableLog>, StoreError>>,
    },
    /// Read the match results stored after the one numbered `after`, in order, with their
    /// numbers.
    Results {
        /// The last number already read (0: from the start).
        after: i64,
        /// The answer.
        reply: oneshot::Sender<Result<Vec<(i64, ResultRow)>, StoreError>>,
    },
    /// Delete old closed tables (see [`crate::store::Upkeep::prune`]).
    Prune {
        /// Created before this, Unix milliseconds.
        before: i64,
        /// The most tables this time.
        limit: usize,
        /// How many went.
        reply: oneshot::Sender<Result<usize, StoreError>>,
    },
    /// Write something small (a real commit) and answer whether it worked: the health probe.
    Probe {
        /// The answer.
        reply: oneshot::Sender<Result<(), StoreError>>,
    },
    /// A bot account request.
    Account(AccountOp),
    /// Commit what is queued and stop.
    Shutdown {
        /// Answered after the last commit, just before the writer ends.
        reply: oneshot::Sender<()>,
    },
}

/// The bot account requests, run on the writer's connection in queue order.
#[derive(Debug)]
pub enum AccountOp {
    /// Register.
    Add(NewBot, oneshot::Sender<Result<bool, StoreError>>),
    /// List.
    List(oneshot::Sender<Result<Vec<BotAccount>, StoreError>>),
    /// Revoke by name.
    Revoke(
        String,
        oneshot::Sender<Result<Option<BotAccount>, StoreError>>,
    ),
    /// Find by token hash.
    ByToken(
        String,
        oneshot::Sender<Result<Option<BotAccount>, StoreError>>,
    ),
}

/// A store's end of its writer's queue. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Queue(mpsc::UnboundedSender<Request>);

impl Queue {
    /// A queue, and the writer's end of it.
    #[must_use]
    pub fn new() -> (Queue, mpsc::UnboundedReceiver<Request>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (Queue(tx), rx)
    }

    /// Queues a write. A writer gone drops the request, and with it `ack`, which reports it.
    pub fn write(&self, write: Write, ack: Ack) {
        let _ = self.0.send(Request::Write { write, ack });
    }

    /// Sends a request made with a reply channel and awaits the answer; a writer gone is
    /// [`StoreError::Closed`].
    pub fn ask<T: Send + 'static>(
        &self,
        request: impl FnOnce(oneshot::Sender<Result<T, StoreError>>) -> Request,
    ) -> BoxFuture<'static, Result<T, StoreError>> {
        let (reply, rx) = oneshot::channel();
        let sent = self.0.send(request(reply));
        Box::pin(async move {
            sent.map_err(|_| StoreError::Closed)?;
            rx.await.map_err(|_| StoreError::Closed)?
        })
    }

    /// Answered once everything queued before is committed ([`Request::Barrier`]), or
    /// with [`Request::Shutdown`], once the writer has stopped.
    pub fn wait(
        &self,
        request: impl FnOnce(oneshot::Sender<()>) -> Request,
    ) -> BoxFuture<'static, Result<(), StoreError>> {
        let (reply, rx) = oneshot::channel();
        let sent = self.0.send(request(reply));
        Box::pin(async move {
            sent.map_err(|_| StoreError::Closed)?;
            rx.await.map_err(|_| StoreError::Closed)
        })
    }

    /// A bot account request.
    pub fn account<T: Send + 'static>(
        &self,
        op: impl FnOnce(oneshot::Sender<Result<T, StoreError>>) -> AccountOp,
    ) -> BoxFuture<'static, Result<T, StoreError>> {
        self.ask(|reply| Request::Account(op(reply)))
    }
}

/// Moves the requests already waiting in `rx` to the queue, up to [`MAX_BATCH`] queued.
pub fn take_waiting(rx: &mut mpsc::UnboundedReceiver<Request>, queue: &mut VecDeque<Request>) {
    while queue.len() < MAX_BATCH {
        match rx.try_recv() {
            Ok(request) => queue.push_back(request),
            Err(_) => break,
        }
    }
}

/// The writes at the head of the queue, up to the next other request (at most
/// [`MAX_BATCH`]): what the next transaction holds.
pub fn head_writes(queue: &VecDeque<Request>) -> Vec<&Write> {
    queue
        .iter()
        .take(MAX_BATCH)
        .map_while(|request| match request {
            Request::Write { write, .. } => Some(write),
            _ => None,
        })
        .collect()
}

/// Takes the first `count` requests (the writes just committed) off the queue, paired with
/// their outcomes, for the acknowledgements.
pub fn committed(
    queue: &mut VecDeque<Request>,
    count: usize,
    outcomes: Vec<Result<(), String>>,
) -> Vec<(Ack, Result<(), String>)> {
    queue
        .drain(..count)
        .zip(outcomes)
        .filter_map(|(request, outcome)| match request {
            Request::Write { ack, .. } => Some((ack, outcome)),
            _ => None,
        })
        .collect()
}

/// What to do after a failed commit.
pub enum Retry {
    /// Try it again.
    Again,
    /// Stop (answering this, if anyone asked).
    Stop(Option<oneshot::Sender<()>>),
}

/// Records a commit: its time and, when it went through, its writes.
pub fn count_commit(started: std::time::Instant, writes: Option<usize>) {
    metrics::histogram!("parlor_store_commit_seconds").record(started.elapsed().as_secs_f64());
    metrics::counter!("parlor_store_commits_total").increment(1);
    match writes {
        Some(count) => {
            metrics::counter!("parlor_store_writes_total").increment(count as u64);
            tracing::trace!(writes = count, "committed");
        }
        None => metrics::counter!("parlor_store_commit_failures_total").increment(1),
    }
}

/// Says that a commit of `count` writes failed (once, when the writer was healthy) and
/// records why, which pauses the tables.
pub fn commit_failed(health: &Health, err: &StoreError, count: usize) {
    let err = err.to_string();
    if health.failing().is_none() {
        tracing::error!(%err, writes = count, "could not write to the database: tables pause and it is tried again until it works");
    }
    health.set(Some(err));
}

/// Says, after a commit went through, that the database takes writes again if it did not.
/// The writer marks itself healthy only after the acknowledgements: a table's held output
/// goes out as it resumes.
pub fn commit_worked(health: &Health) {
    if health.failing().is_some() {
        tracing::info!("the database takes writes again: tables resume");
    }
}

/// Says that the writer stops with `count` writes never committed.
pub fn stopping_unwritten(count: usize) {
    tracing::error!(
        writes = count,
        "stopping with writes the database did not take: they were never sent to anyone"
    );
}

/// The wait after `wait` (doubled, up to [`RETRY_MAX`]).
#[must_use]
pub fn longer(wait: Duration) -> Duration {
    (wait * 2).min(RETRY_MAX)
}
