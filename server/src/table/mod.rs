//! One table: a [`TableHandle`] that anyone may hold, and the actor task that owns the game.
//!
//! The actor (`actor::TableActor`) is the only owner of the [`parlor_shared::Game`], the
//! seats, their tokens and timers. Connections talk to it through [`TableMsg`]s in its
//! bounded mailbox; it answers through each connection's own bounded outbound queue
//! ([`Conn`]), by way of its [`outbox::Outbox`], which holds a step's output until the store
//! has acknowledged the step's writes. There is no lock around a game. The server's own bots
//! think off the runtime ([`thinking`]), so a slow one never holds up a table's mailbox.
//!
//! It may import `conn` and `store`, never `lobby`, `ws` or `http`.

mod actor;
mod error;
pub mod host_key;
pub mod names;
pub mod outbox;
#[cfg(test)]
mod seat_tests;
mod seats;
mod secret;
#[cfg(test)]
mod tests;
pub mod thinking;

pub use actor::{DEFAULT_MAX_SPECTATORS, TableSetup, spawn};
pub use error::TableError;

use parlor_shared::protocol::{TableInfo, TableStatus};
use parlor_shared::{Action, Seat};
use tokio::sync::{oneshot, watch};

use crate::conn::queue::Sender;
use crate::conn::{Conn, ConnId, PushError};

/// Messages waiting in a table's mailbox; few, so a flooded table pushes back on its senders.
pub const MAILBOX: usize = 64;

/// A request to sit down at (or watch) a table.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// The registered bot account taking the seat (by invitation; the seat is then the
    /// invited one and the name the account's).
    pub account: Option<String>,
}

/// What an invited bot is told about the table, once the table has agreed to the invitation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invitable {
    /// The variant played.
    pub variant: parlor_shared::Variant,
    /// Its rule options, every one spelled out.
    pub options: parlor_shared::Options,
}

/// What a connection at the table asks of it: everything a client sends but `join`, `watch`
/// and `ping`, which the connection's reader handles itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableRequest {
    /// `play` or `pass`.
    Move {
        /// The move.
        action: Action,
        /// The seat the client says it acts for, checked against its own.
        seat: Option<Seat>,
        /// The `seq` of the prompt it answers: an answer to an older one is stale, to a newer
        /// one unknown; without it, the move answers the current prompt.
        seq: Option<u64>,
    },
    /// Host only: seat a built-in bot.
    AddBot {
        /// The empty seat.
        seat: Seat,
        /// The strategy's name.
        strategy: String,
    },
    /// Host only: take a built-in bot out.
    RemoveBot {
        /// Its seat.
        seat: Seat,
    },
    /// Host only: start a match.
    Start,
    /// Give up the seat (or stop watching).
    Leave,
    /// A fresh snapshot, and the prompt again if it is the sender's turn.
    Sync,
    /// A chat line for the table.
    Chat {
        /// What was said.
        text: String,
    },
    /// The `heuristic` bot's move for the sender's seat, on its turn.
    Hint,
    /// Become host with the table's host key.
    ClaimHost {
        /// The key.
        key: String,
    },
    /// Host only: a computer plays this seat for now.
    StandIn {
        /// The seat.
        seat: Seat,
    },
    /// Play one's own seat again after a computer stood in.
    Back,
    /// Host only: let a newcomer have a seat given up during the match.
    OpenSeat {
        /// The seat.
        seat: Seat,
    },
}

/// What arrives in a table's mailbox.
#[derive(Debug)]
pub enum TableMsg {
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
    /// A request from a connection already at the table (moves, host requests, `leave`).
    Request {
        /// Who sent it.
        conn: ConnId,
        /// What it asks (boxed: it is the largest message, and the mailbox's slots are as
        /// big as its largest message).
        request: Box<TableRequest>,
    },
    /// The connection is gone.
    Disconnected {
        /// Which one.
        conn: ConnId,
    },
    /// May this connection (the host) invite a registered bot to this seat (free, and
    /// there)? Nothing changes at the table; the invitation itself is the lobby's.
    Invite {
        /// Who asks.
        conn: ConnId,
        /// The seat.
        seat: Seat,
        /// Yes with what the bot is told, or why not.
        reply: oneshot::Sender<Result<Invitable, TableError>>,
    },
    /// The server's operator, through the admin API.
    Admin {
        /// What to do.
        command: AdminCommand,
        /// Done, or why not.
        reply: oneshot::Sender<Result<(), TableError>>,
    },
}

/// What the server's operator can do to a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdminCommand {
    /// Close the table for good: everyone there is told why (`goodbye`) and disconnected.
    Close {
        /// Why, in the operator's words (added to the `goodbye`).
        reason: Option<String>,
    },
    /// Empty a seat: its connection is told (`kicked`) and closed, a person's token stops
    /// working, a built-in bot goes; during a match the stand-in plays the seat, as after
    /// `leave`.
    Kick {
        /// The seat.
        seat: Seat,
    },
    /// Seat a built-in bot, as the host would (the ladder fills its tables this way).
    AddBot {
        /// The empty seat.
        seat: Seat,
        /// The strategy's name.
        strategy: String,
    },
    /// Start a match, as the host would. A match started this way is played to its end even
    /// with nobody connected: the idle timer waits until it is over.
    Start,
    /// Stop serving the table here without closing it (another node of the cluster takes
    /// it): what was done is stored and sent, then everyone is told to reconnect
    /// (`goodbye`) and let go.
    HandOff {
        /// Why, for the `goodbye`.
        reason: String,
    },
}

/// A cheap, cloneable reference to a running table.
#[derive(Debug, Clone)]
pub struct TableHandle {
    /// The table's id.
    pub id: String,
    /// The table's mailbox.
    tx: Sender<TableMsg>,
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

    /// Asks the table to carry out an admin command; `Err(None)` when the table has closed.
    pub async fn admin(&self, command: AdminCommand) -> Result<(), Option<TableError>> {
        let (reply, answer) = oneshot::channel();
        self.send(TableMsg::Admin { command, reply })
            .await
            .map_err(|_| None)?;
        answer.await.map_err(|_| None)?.map_err(Some)
    }

    /// Waits until the table has finished `matches` matches; `None` when it closed before.
    pub async fn finished(&self, matches: u32) -> Option<TableInfo> {
        let mut info = self.info.clone();
        let done = info
            .wait_for(|t| t.status == TableStatus::Finished && t.matches_played >= matches)
            .await
            .ok()?;
        Some(done.clone())
    }

    /// Waits until the table's actor has stopped and the lobby has forgotten it.
    pub async fn closed(&self) {
        let mut info = self.info.clone();
        while info.changed().await.is_ok() {}
    }

    /// Asks the table whether `conn` may invite a bot to `seat`; `Err(None)` when the table
    /// has closed.
    pub async fn may_invite(
        &self,
        conn: ConnId,
        seat: Seat,
    ) -> Result<Invitable, Option<TableError>> {
        let (reply, answer) = oneshot::channel();
        self.send(TableMsg::Invite { conn, seat, reply })
            .await
            .map_err(|_| None)?;
        answer.await.map_err(|_| None)?.map_err(Some)
    }

    /// Puts a message in the table's mailbox, waiting while it is full. Fails when the table
    /// has closed.
    pub async fn send(&self, msg: TableMsg) -> Result<(), TableClosed> {
        self.tx.push(msg).await.map_err(|_| TableClosed)
    }

    /// Puts a message in the table's mailbox if it has room now, or gives it back with the
    /// reason: [`PushError::Full`] (wait for room with [`Self::send`]) or
    /// [`PushError::Closed`].
    pub fn try_send(&self, msg: TableMsg) -> Result<(), (PushError, TableMsg)> {
        self.tx.try_push_or_return(msg)
    }

    /// A handle on a mailbox of `room` messages that no actor reads: the test holds the
    /// receiving end and plays the table.
    #[cfg(test)]
    pub(crate) fn detached(
        id: &str,
        room: usize,
    ) -> (TableHandle, crate::conn::Receiver<TableMsg>) {
        let (tx, rx) = crate::conn::bounded(room);
        let info = actor::placeholder_info(id, parlor_shared::Variant::Hearts);
        let (_, info) = watch::channel(info);
        let handle = TableHandle {
            id: id.to_string(),
            tx,
            info,
        };
        (handle, rx)
    }
}

/// The table's actor has stopped (it was idle and got cleaned up, or the server is stopping).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the table has closed")]
pub struct TableClosed;
