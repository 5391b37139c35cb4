//! The table's outbox: it records what the table does into the store, and holds what the
//! table sends until those records are acknowledged (output after commit).
//!
//! While a store is attached, every frame (and join reply) a table produces during one step
//! waits in the [`Outbox`]. At the end of the step the actor seals it ([`Outbox::seal`]):
//! the step's output then waits for the acknowledgement of the step's last write, and the
//! actor goes on with its next message meanwhile (its writes join the same or the next group
//! commit). [`Outbox::deliver_next`] waits for the oldest sealed step's acknowledgement
//! and delivers its output; steps go out strictly in order, so a step that wrote nothing
//! still waits behind the steps before it. Without a store frames go straight out.
//!
//! It owns the held frames and the rows it builds; it talks to the store only through
//! [`crate::store::Store::append`] and never touches the game, the seats or a socket.

use std::collections::VecDeque;

use parlor_shared::Seat;
use parlor_shared::protocol::{ServerMsg, TableStatus};
use tokio::sync::oneshot;

use crate::conn::{Conn, ConnId, Frame, frame};
use crate::store::{Ack, SeatRow, SharedStore};

/// Sealed steps a table may have waiting for the database before it stops taking messages:
/// enough to cover a group commit, few enough that a table cannot outrun the writer.
pub const MAX_IN_FLIGHT: usize = 16;

/// Room a step's output starts with: a move's event for four or five seats and the next
/// prompt. Reserved at once, a step's list is allocated once instead of growing from four
/// to eight (two allocations and a copy for most moves).
const STEP_ROOM: usize = 8;

/// Something the table produced that waits for the step's writes.
enum Held {
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
    Then(Box<dyn FnOnce() + Send>),
}

/// One sealed step: its output, and the write it waits for (`None`: it wrote nothing and
/// waits only for the steps before it).
struct Step {
    ack: Option<Ack>,
    held: Vec<Held>,
}

/// Records a table's changes and holds its output until they are durable.
pub struct Outbox {
    /// The store, if the server keeps one.
    store: Option<SharedStore>,
    /// The table's id.
    table: String,
    /// Output of the step being made.
    held: Vec<Held>,
    /// The acknowledgement of the current step's last write (the writer acknowledges in
    /// order, so the last one covers the step).
    pending: Option<Ack>,
    /// Sealed steps waiting for the database, oldest first.
    sealed: VecDeque<Step>,
    /// The current match's number (0 before the first).
    match_no: u32,
    /// The seats, host and status last written, so unchanged ones are not written again.
    last_state: Option<(TableStatus, Option<Seat>, Vec<SeatRow>)>,
    /// True once a write was refused because another node owns the table now: nothing more
    /// is sent or written, and the table stops.
    fenced: bool,
}

impl Outbox {
    /// A table that keeps nothing: frames go straight out.
    #[must_use]
    pub fn disabled(table: &str) -> Outbox {
        Outbox {
            store: None,
            table: table.to_string(),
            held: Vec::new(),
            pending: None,
            sealed: VecDeque::new(),
            match_no: 0,
            last_state: None,
            fenced: false,
        }
    }

    /// A table that records into `store` (`None`: keeps nothing), `match_no` matches in.
    #[must_use]
    pub fn new(store: Option<SharedStore>, table: &str, match_no: u32) -> Outbox {
        Outbox {
            store,
            match_no,
            ..Outbox::disabled(table)
        }
    }

    /// The store, if one is attached.
    #[must_use]
    pub fn store(&self) -> Option<SharedStore> {
        self.store.clone()
    }

    /// True when a store is attached.
    #[must_use]
    pub fn is_durable(&self) -> bool {
        self.store.is_some()
    }

    // ---- output -------------------------------------------------------------------------

    /// Queues a frame for `client`. Returns `false` when it is known at once that the
    /// connection is gone or too slow (only without a store; with one, delivery reports
    /// those connections).
    pub fn queue(&mut self, conn: &Conn, frame: Frame) -> bool {
        self.hold(conn, frame, false)
    }

    /// [`Self::queue`] for a frame that may wait a little for company ([`Conn::send_lazy`]):
    /// an event, which nobody answers.
    pub fn queue_lazy(&mut self, conn: &Conn, frame: Frame) -> bool {
        self.hold(conn, frame, true)
    }

    /// Holds a frame for the step's writes, or (without a store) sends it now.
    fn hold(&mut self, conn: &Conn, frame: Frame, lazy: bool) -> bool {
        if self.store.is_some() {
            let conn = conn.clone();
            self.push_held(Held::Frame { conn, frame, lazy });
            true
        } else {
            send(conn, frame, lazy)
        }
    }

    /// Adds to the step's output, reserving [`STEP_ROOM`] when the step starts.
    fn push_held(&mut self, held: Held) {
        if self.held.capacity() == 0 {
            self.held.reserve_exact(STEP_ROOM);
        }
        self.held.push(held);
    }

    /// Serializes and queues one message (see [`Self::queue`]).
    pub fn queue_msg(&mut self, conn: &Conn, msg: &ServerMsg) -> bool {
        self.queue(conn, frame(msg))
    }

    /// Answers a join request, after the step's writes.
    pub fn queue_reply(&mut self, reply: oneshot::Sender<bool>, joined: bool) {
        if self.store.is_some() {
            self.push_held(Held::Reply(reply, joined));
        } else {
            let _ = reply.send(joined);
        }
    }

    /// Makes `conn` close once the frames queued for it so far have been written (after the
    /// step's writes, like them).
    pub fn queue_close(&mut self, conn: &Conn) {
        let conn = conn.clone();
        self.queue_then(Box::new(move || conn.finish()));
    }

    /// Runs `then` once the step's output before it is out.
    fn queue_then(&mut self, then: Box<dyn FnOnce() + Send>) {
        if self.store.is_some() {
            self.push_held(Held::Then(then));
        } else {
            then();
        }
    }

    /// Ends the current step. Its output goes out at once when it wrote nothing and nothing
    /// is waiting before it (the returned connections were found gone or too slow);
    /// otherwise it waits for [`Self::deliver_next`].
    pub fn seal(&mut self) -> Vec<ConnId> {
        let ack = self.pending.take();
        if ack.is_none() && self.sealed.is_empty() {
            return deliver(self.held.drain(..));
        }
        if ack.is_none() && self.held.is_empty() {
            return Vec::new();
        }
        let held = std::mem::take(&mut self.held);
        self.sealed.push_back(Step { ack, held });
        Vec::new()
    }

    /// True once a write was refused because another node of the cluster owns the table
    /// (see [`crate::store::fence`]): the table must stop here.
    #[must_use]
    pub fn is_fenced(&self) -> bool {
        self.fenced
    }

    /// Sealed steps still waiting for the database.
    #[must_use]
    pub fn in_flight(&self) -> usize {
        self.sealed.len()
    }

    /// Waits for the oldest sealed step's writes, then delivers its output and that of every
    /// later step already acknowledged. Returns the connections found gone or too slow.
    /// Cancel-safe: a step leaves the queue only once delivered. Never resolves while nothing
    /// is sealed.
    ///
    /// A store that cannot write keeps retrying and answers only once the write is stored,
    /// so the output waits for that. A write the database refused for what it is (never for
    /// a full or failing disk) is logged and the output still goes out (the game in memory
    /// has moved on); when the writer has stopped (the server is stopping) the output is
    /// dropped.
    pub async fn deliver_next(&mut self) -> Vec<ConnId> {
        let Some(front) = self.sealed.front_mut() else {
            return std::future::pending().await;
        };
        let mut outcome = match front.ack.as_mut() {
            Some(ack) => Outcome::of(ack.await),
            None => Outcome::Stored,
        };
        let mut dropped = Vec::new();
        while let Some(step) = self.sealed.pop_front() {
            match outcome {
                Outcome::Refused(err) if crate::store::fence::is_fenced(&err) => {
                    tracing::warn!(table = %self.table, "a change was refused: another node owns this table now");
                    // Not stored, so never sent, nor anything after it: the table's new
                    // owner goes on from its log.
                    self.fenced = true;
                    self.sealed.clear();
                    self.held.clear();
                    break;
                }
                Outcome::Stored => dropped.extend(deliver(step.held)),
                Outcome::Refused(err) => {
                    tracing::error!(table = %self.table, %err, "a change was not stored; play goes on");
                    dropped.extend(deliver(step.held));
                }
                Outcome::WriterGone => {
                    // Only when the server is stopping: what was not stored is not sent.
                    tracing::warn!(table = %self.table, "the database writer has stopped");
                }
            }
            // Go on with the next step if it is already acknowledged (or wrote nothing).
            let Some(next) = self.sealed.front_mut() else {
                break;
            };
            outcome = match next.ack.as_mut().map(oneshot::Receiver::try_recv) {
                None => Outcome::Stored,
                Some(Err(oneshot::error::TryRecvError::Empty)) => break,
                Some(Ok(result)) => Outcome::of(Ok(result)),
                Some(Err(oneshot::error::TryRecvError::Closed)) => Outcome::WriterGone,
            };
        }
        dropped
    }

    /// Seals the current step and delivers everything, waiting for every write: for a table
    /// that is closing, and for tests.
    pub async fn flush(&mut self) -> Vec<ConnId> {
        let mut dropped = self.seal();
        while !self.sealed.is_empty() {
            dropped.extend(self.deliver_next().await);
        }
        dropped
    }
}

/// Sends a frame at once, or as one that may wait ([`Conn::send_lazy`]).
fn send(conn: &Conn, frame: Frame, lazy: bool) -> bool {
    if lazy {
        conn.send_lazy(frame)
    } else {
        conn.send(frame)
    }
}

/// Delivers held output in order; returns the connections found gone or too slow.
fn deliver(held: impl IntoIterator<Item = Held>) -> Vec<ConnId> {
    let mut dropped = Vec::new();
    for held in held {
        match held {
            Held::Frame { conn, frame, lazy } => {
                if !send(&conn, frame, lazy) {
                    dropped.push(conn.id);
                }
            }
            Held::Reply(reply, joined) => {
                let _ = reply.send(joined);
            }
            Held::Then(then) => then(),
        }
    }
    dropped
}

/// What became of a step's writes.
enum Outcome {
    /// Committed (or there was nothing to write).
    Stored,
    /// The database refused them.
    Refused(String),
    /// The writer stopped before answering.
    WriterGone,
}

impl Outcome {
    fn of(ack: Result<Result<(), String>, oneshot::error::RecvError>) -> Outcome {
        match ack {
            Ok(Ok(())) => Outcome::Stored,
            Ok(Err(err)) => Outcome::Refused(err),
            Err(_) => Outcome::WriterGone,
        }
    }
}

mod records;
#[cfg(test)]
mod tests;
