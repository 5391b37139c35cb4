//! [`Delivery`]: the one part that sends a table's committed output. It keeps the sealed
//! steps of one table, shared between the table and its store. Whoever learns that a step may
//! go out delivers it, and every step before it, in order, under one lock: the store, as it
//! acknowledges the step's last write ([`OnAck::on_ack`], called from the SQLite store's
//! `AckTask` or the Postgres writer's task), or the table, as it seals a step already
//! acknowledged or one that wrote nothing ([`Delivery::seal`]). It also names what a step
//! holds ([`Piece`]) and how each piece goes out.
//!
//! Why the store's side delivers: the table is then woken only for what it must act on
//! (connections found gone or too slow, a refusal that fences it, room it is waiting for),
//! not a second time per move to hand its frames on. Writes are numbered per table from 1; a
//! step goes out once the write it ended with is acknowledged, which covers the writes
//! before it (the writer acknowledges in order).

use std::collections::VecDeque;
use std::future::poll_fn;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};

use futures_util::task::AtomicWaker;
use tokio::sync::oneshot;

use crate::conn::{Conn, ConnId, Frame};
use crate::store::{OnAck, WriteOutcome};

/// The sealed steps of one table and their delivery, shared by the table and its store.
#[derive(Debug)]
pub(super) struct Delivery {
    /// The table's id, for the log and the table's writes.
    table: Arc<str>,
    state: Mutex<Steps>,
    /// Woken when the table has something to act on (see [`Steps::wake_below`]). One
    /// waiter, so a waker rather than a `Notify` and its list of waiters under a lock.
    news: AtomicWaker,
}

/// One sealed step: its output, and the number of the write it waits for (`None`: it wrote
/// nothing and waits only for the steps before it).
struct Step {
    last_write: Option<u64>,
    held: Vec<Piece>,
}

#[derive(Default)]
struct Steps {
    /// Sealed steps not delivered yet, oldest first.
    steps: VecDeque<Step>,
    /// The highest write number answered.
    answered: u64,
    /// Outcomes other than `Stored` of writes whose step has not gone out yet.
    troubles: Vec<(u64, WriteOutcome)>,
    /// Connections found gone or too slow while delivering, for the table to drop.
    dropped: Vec<ConnId>,
    /// A write was refused because another node owns the table: nothing more goes out.
    fenced: bool,
    /// The table waits until fewer steps than this are waiting (0: it does not).
    wake_below: usize,
}

impl std::fmt::Debug for Steps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Steps")
            .field("steps", &self.steps.len())
            .field("answered", &self.answered)
            .field("fenced", &self.fenced)
            .finish_non_exhaustive()
    }
}

impl Delivery {
    pub(super) fn new(table: &str) -> Delivery {
        Delivery {
            table: Arc::from(table),
            state: Mutex::new(Steps::default()),
            news: AtomicWaker::new(),
        }
    }

    /// The table's id.
    pub(super) fn table(&self) -> &Arc<str> {
        &self.table
    }

    fn lock(&self) -> MutexGuard<'_, Steps> {
        // Delivering only moves frames and flags: a panic elsewhere leaves nothing half-done.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Seals a step (from the table): it goes out now if it may, with everything before it.
    /// Returns the connections found gone or too slow so far.
    pub(super) fn seal(&self, last_write: Option<u64>, held: Vec<Piece>) -> Vec<ConnId> {
        let mut state = self.lock();
        if state.fenced {
            // Nothing more goes out: the table's new owner goes on from its log.
        } else if last_write.is_none() && state.steps.is_empty() {
            let dropped = deliver(held);
            state.dropped.extend(dropped);
        } else {
            state.steps.push_back(Step { last_write, held });
            self.deliver_ready(&mut state);
        }
        std::mem::take(&mut state.dropped)
    }

    /// Delivers the steps at the front whose write is answered (or that wrote nothing).
    fn deliver_ready(&self, state: &mut Steps) {
        while let Some(front) = state.steps.front() {
            let outcome = match front.last_write {
                None => WriteOutcome::Stored,
                Some(write) if write <= state.answered => state.outcome_of(write),
                Some(_) => break,
            };
            let Some(step) = state.steps.pop_front() else {
                break;
            };
            match outcome {
                WriteOutcome::Refused(err) if crate::store::fence::is_fenced(&err) => {
                    tracing::warn!(table = %crate::store::log_tag(&self.table), "a change was refused: another node owns this table now");
                    // Not stored, so never sent, nor anything after it: the table's new
                    // owner goes on from its log.
                    state.fenced = true;
                    state.steps.clear();
                    state.troubles.clear();
                    break;
                }
                WriteOutcome::Stored => {
                    let dropped = deliver(step.held);
                    state.dropped.extend(dropped);
                }
                WriteOutcome::Refused(err) => {
                    tracing::error!(table = %crate::store::log_tag(&self.table), %err, "a change was not stored; play goes on");
                    let dropped = deliver(step.held);
                    state.dropped.extend(dropped);
                }
                WriteOutcome::WriterGone => {
                    // Only when the server is stopping: what was not stored is not sent.
                    tracing::warn!(table = %crate::store::log_tag(&self.table), "the database writer has stopped");
                }
            }
        }
    }

    /// Sealed steps not delivered yet.
    pub(super) fn waiting(&self) -> usize {
        self.lock().steps.len()
    }

    /// True once a write was refused because another node owns the table.
    pub(super) fn is_fenced(&self) -> bool {
        self.lock().fenced
    }

    /// Waits until there is something for the table: connections found gone or too slow,
    /// the table fenced, or (when `wake_below` is not 0) fewer than `wake_below` steps
    /// waiting. Returns the connections found gone. Cancel-safe: nothing is taken before it
    /// returns.
    pub(super) async fn news(&self, wake_below: usize) -> Vec<ConnId> {
        poll_fn(|cx| self.poll_news(cx, wake_below)).await
    }

    /// [`Self::news`]: the waker is registered before the state is read, so an answer that
    /// lands in between wakes it.
    fn poll_news(&self, cx: &mut Context<'_>, wake_below: usize) -> Poll<Vec<ConnId>> {
        self.news.register(cx.waker());
        let mut state = self.lock();
        let room = wake_below > 0 && state.steps.len() < wake_below;
        if room || state.fenced || !state.dropped.is_empty() {
            state.wake_below = 0;
            return Poll::Ready(std::mem::take(&mut state.dropped));
        }
        state.wake_below = wake_below;
        Poll::Pending
    }
}

impl OnAck for Delivery {
    /// Takes the acknowledgement of write `write` (from the store's side) and delivers what
    /// it releases; wakes the table if that gives it something to act on.
    fn on_ack(&self, write: u64, outcome: WriteOutcome) {
        let mut state = self.lock();
        state.answered = state.answered.max(write);
        if outcome != WriteOutcome::Stored {
            state.troubles.push((write, outcome));
        }
        self.deliver_ready(&mut state);
        let room = state.wake_below > 0 && state.steps.len() < state.wake_below;
        if room || state.fenced || !state.dropped.is_empty() {
            drop(state);
            self.news.wake();
        }
    }
}

impl Steps {
    /// The answer to `write`, forgetting those of the writes up to it.
    fn outcome_of(&mut self, write: u64) -> WriteOutcome {
        let mut outcome = WriteOutcome::Stored;
        self.troubles.retain_mut(|(number, trouble)| {
            if *number == write {
                outcome = std::mem::replace(trouble, WriteOutcome::Stored);
            }
            *number > write
        });
        outcome
    }
}

/// Something the table produced that waits for the step's writes.
pub(super) enum Piece {
    /// A frame for one connection; `lazy` if it may wait a little for company
    /// ([`Conn::send_lazy`]).
    Frame {
        conn: Conn,
        frame: Frame,
        lazy: bool,
    },
    /// The answer to a join request.
    Reply(oneshot::Sender<bool>, bool),
    /// Something to do once the frames before it are out (close a connection after its
    /// last message).
    AckTo(Box<dyn FnOnce() + Send>),
}

/// Sends a frame at once, or as one that may wait ([`Conn::send_lazy`]).
pub(super) fn send(conn: &Conn, frame: Frame, lazy: bool) -> bool {
    if lazy {
        conn.send_lazy(frame)
    } else {
        conn.send(frame)
    }
}

/// Delivers held output in order; returns the connections found gone or too slow.
fn deliver(held: impl IntoIterator<Item = Piece>) -> Vec<ConnId> {
    let mut dropped = Vec::new();
    for held in held {
        match held {
            Piece::Frame { conn, frame, lazy } => {
                if !send(&conn, frame, lazy) {
                    dropped.push(conn.id);
                }
            }
            Piece::Reply(reply, joined) => {
                let _ = reply.send(joined);
            }
            Piece::AckTo(then) => then(),
        }
    }
    dropped
}
