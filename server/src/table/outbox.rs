//! The table's outbox: it records what the table does into the store, and holds what the table
//! sends until those records are acknowledged (output after commit). Every frame and join reply
//! of a step waits in the [`Outbox`] until the actor seals the step ([`Outbox::seal`]). Each
//! write goes to the store with an acknowledgement addressed to the table's `Delivery`
//! (`outbox/delivery.rs`, [`crate::store::Ack::numbered`]); the acknowledgement of the step's
//! last write makes the delivery send the step, on the store's side, without waking the table,
//! strictly in order, while the actor goes on with its next message.
//! The table hears from that side only what it must act on ([`Outbox::news`]). Without a store
//! frames go straight out. It talks to the store only through [`crate::store::Store::append_then`]
//! and never touches the game, the seats or a socket.

use std::sync::Arc;

use parlor_shared::Seat;
use parlor_shared::protocol::{ServerMsg, TableStatus};
use tokio::sync::oneshot;

use crate::conn::{Conn, ConnId, Frame, frame};
use crate::store::{SeatRow, SharedLog};
use delivery::{Delivery, Piece, send};

/// Sealed steps a table may have waiting for the database before it stops taking messages:
/// enough to cover a group commit, few enough that a table cannot outrun the writer.
pub const MAX_IN_FLIGHT: usize = 16;

/// Room a step's output starts with: a move's event for four or five seats and the next
/// prompt. Reserved at once, a step's list is allocated once instead of growing from four
/// to eight (two allocations and a copy for most moves).
const STEP_ROOM: usize = 8;

/// Records a table's changes and holds its output until they are durable.
pub struct Outbox {
    /// The store, if the server keeps one.
    store: Option<SharedLog>,
    /// Output of the step being made.
    held: Vec<Piece>,
    /// Writes appended so far; the last one's number.
    writes: u64,
    /// The number of the current step's last write (the writer acknowledges in order, so
    /// the last one covers the step).
    pending: Option<u64>,
    /// Sealed steps waiting for the database, shared with the store's writer, which
    /// delivers them.
    delivery: Arc<Delivery>,
    /// The current match's number (0 before the first).
    match_no: u32,
    /// The seats, host and status last written, so unchanged ones are not written again.
    last_state: Option<(TableStatus, Option<Seat>, Vec<SeatRow>)>,
}

impl Outbox {
    /// A table that keeps nothing: frames go straight out.
    #[must_use]
    pub fn disabled(table: &str) -> Outbox {
        Outbox {
            store: None,
            held: Vec::new(),
            writes: 0,
            pending: None,
            delivery: Arc::new(Delivery::new(table)),
            match_no: 0,
            last_state: None,
        }
    }

    /// A table that records into `store` (`None`: keeps nothing), `match_no` matches in.
    #[must_use]
    pub fn new(store: Option<SharedLog>, table: &str, match_no: u32) -> Outbox {
        Outbox {
            store,
            match_no,
            ..Outbox::disabled(table)
        }
    }

    /// The store, if one is attached.
    #[must_use]
    pub fn store(&self) -> Option<SharedLog> {
        self.store.clone()
    }

    /// The table's id (kept once, by the part shared with the store, which logs with it).
    fn table(&self) -> &str {
        self.delivery.table()
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
            self.push_held(Piece::Frame { conn, frame, lazy });
            true
        } else {
            send(conn, frame, lazy)
        }
    }

    /// Adds to the step's output, reserving [`STEP_ROOM`] when the step starts.
    fn push_held(&mut self, held: Piece) {
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
            self.push_held(Piece::Reply(reply, joined));
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
            self.push_held(Piece::AckTo(then));
        } else {
            then();
        }
    }

    /// Ends the current step. Its output goes out at once when its writes are already
    /// stored (or it wrote nothing) and nothing is waiting before it; otherwise the store's
    /// writer delivers it once they are. Returns the connections found gone or too slow
    /// (by this delivery or the writer's since the last call).
    pub fn seal(&mut self) -> Vec<ConnId> {
        let last_write = self.pending.take();
        if last_write.is_none() && self.held.is_empty() {
            return Vec::new();
        }
        self.delivery
            .seal(last_write, std::mem::take(&mut self.held))
    }

    /// True once a write was refused because another node of the cluster owns the table
    /// now (see [`crate::store::fence`]): nothing more is sent or written, and the table
    /// must stop here.
    #[must_use]
    pub fn is_fenced(&self) -> bool {
        self.store.is_some() && self.delivery.is_fenced()
    }

    /// Sealed steps still waiting for the database.
    #[must_use]
    pub fn in_flight(&self) -> usize {
        if self.store.is_some() {
            self.delivery.waiting()
        } else {
            0
        }
    }

    /// Waits until the store's writer has news for the table: connections found gone or too
    /// slow (returned), the table fenced, or (when `wake_below` is not 0) fewer than
    /// `wake_below` steps in flight. Never resolves without a store. Cancel-safe.
    ///
    /// A store that cannot write keeps retrying and answers only once the write is stored,
    /// so the output waits for that. A write the database refused for what it is (never for
    /// a full or failing disk) is logged and the output still goes out (the game in memory
    /// has moved on); when the writer has stopped (the server is stopping) the output is
    /// dropped.
    pub fn news(&self, wake_below: usize) -> impl Future<Output = Vec<ConnId>> + Send + '_ {
        // Borrows only the shared part: the step being made is not `Sync`.
        let delivery = self.store.is_some().then_some(&*self.delivery);
        async move {
            match delivery {
                Some(delivery) => delivery.news(wake_below).await,
                None => std::future::pending().await,
            }
        }
    }

    /// Seals the current step and waits until everything is delivered: for a table that is
    /// closing, and for tests.
    pub async fn flush(&mut self) -> Vec<ConnId> {
        let mut dropped = self.seal();
        while self.in_flight() > 0 && !self.is_fenced() {
            dropped.extend(self.news(1).await);
        }
        dropped
    }

    /// Numbers the next write; its acknowledgement (on the store's thread) delivers what it
    /// releases.
    fn next_write(&mut self) -> (u64, Arc<Delivery>) {
        self.writes += 1;
        self.pending = Some(self.writes);
        (self.writes, Arc::clone(&self.delivery))
    }
}

mod delivery;
mod records;
#[cfg(test)]
mod tests;
