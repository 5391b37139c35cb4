//! One table: a [`TableHandle`] that anyone may hold, and the actor task that owns the game.
//!
//! The actor ([`actor::TableActor`]) is the only owner of the [`parlor_shared::Game`], the
//! seats, their tokens and timers, and the action log. Connections and the lobby talk to it
//! through [`Command`]s over a bounded channel; it answers through each connection's own
//! bounded outbound queue ([`Conn`]). There is no lock around a game.

mod actor;
mod error;
mod log;
pub mod outbox;
mod seats;
#[cfg(test)]
mod tests;

pub use actor::{TableSetup, spawn};
pub use error::TableError;
pub use log::ActionLog;

use parlor_shared::Seat;
use parlor_shared::protocol::{ClientMsg, TableInfo};
use tokio::sync::{oneshot, watch};

use crate::conn::queue::Sender;
use crate::conn::{Conn, ConnId};

/// Commands waiting for a table actor; small, so a flooded table pushes back on its senders.
pub const COMMAND_QUEUE: usize = 64;

/// A request to sit down at (or watch) a table.
#[derive(Debug, Clone)]
pub struct JoinRequest {
    /// The seat wanted (`None`: the first free one).
    pub seat: Option<Seat>,
    /// The name shown to others.
    pub name: Option<String>,
    /// A seat token from an earlier `welcome`, to reclaim that seat.
    pub token: Option<String>,
    /// True for a remote program.
    pub bot: bool,
    /// True for `watch`: no seat, public information only.
    pub watch: bool,
}

/// What a connection or the lobby asks of a table.
#[derive(Debug)]
pub enum Command {
    /// Seat (or seat as a spectator) a connection. The table sends `welcome` and the rest
    /// itself, or an `error`; the reply says whether the connection is now at the table.
    Join {
        /// The connection's outbound queue.
        conn: Conn,
        /// What it asked for (boxed, like `Message`).
        request: Box<JoinRequest>,
        /// `true` when the connection joined.
        reply: oneshot::Sender<bool>,
    },
    /// A message from a connection already at the table (moves, host commands, `leave`).
    Message {
        /// Who sent it.
        conn: ConnId,
        /// What it says (boxed: it is the largest command, and the queue's slots are as
        /// big as its largest command).
        msg: Box<ClientMsg>,
    },
    /// The connection is gone.
    Disconnected {
        /// Which one.
        conn: ConnId,
    },
}

/// A cheap, cloneable reference to a running table.
#[derive(Debug, Clone)]
pub struct TableHandle {
    /// The table's id.
    pub id: String,
    /// Where commands go.
    tx: Sender<Command>,
    /// The table as the lobby shows it, republished by the actor on every change, so listing
    /// tables never waits on an actor.
    info: watch::Receiver<TableInfo>,
}

impl TableHandle {
    /// The table's latest public description.
    #[must_use]
    pub fn info(&self) -> TableInfo {
        self.info.borrow().clone()
    }

    /// Sends a command, waiting while the table's queue is full. Fails when the table has
    /// closed.
    pub async fn send(&self, command: Command) -> Result<(), TableClosed> {
        self.tx.push(command).await.map_err(|_| TableClosed)
    }
}

/// The table's actor has stopped (it was idle and got cleaned up, or the server is stopping).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the table has closed")]
pub struct TableClosed;
