//! The WebSocket endpoint: one connection = one reader, in the connection's task, and one
//! writer, in a task of its own; when either ends, both do. A client's close frame is answered
//! with a close frame (the closing handshake) before the socket is dropped.
//!
//! The reader (`reader`) passes each frame through the flood guard (`ratelimit`), parses it
//! with `ClientMsg::parse` and routes it to one side (`route`): the connection's own messages
//! (`ping`, `join`, `watch`, the registered bots') it handles itself, a table's it hands to
//! the table as a `TableRequest`. The writer (`writer`) drains the connection's
//! bounded queue, which the table fills without ever waiting: a client too slow to read is
//! dropped, never the table stalled.
//!
//! It owns the socket and nothing of a game; it finds tables through the lobby. It may import
//! `lobby`, `table` and `conn`, never `http`: the HTTP layer hands it its settings.

#[cfg(test)]
mod fuzz;
mod invites;
mod ratelimit;
mod reader;
mod refusal;
mod route;
mod sessions;
pub mod socket;
#[cfg(test)]
mod tests;
mod writer;

pub use ratelimit::{Asked, FloodGuard, TokenBucket};
pub use refusal::Refusal;
pub use sessions::{Session, Sessions};

use axum::extract::ws::Message;
use std::sync::Arc;

use futures_util::{Sink, SinkExt, Stream};
use parlor_shared::protocol::MAX_MESSAGE_BYTES;
use tokio_util::sync::CancellationToken;

use crate::conn::{Conn, ConnId, Linger, lingering};
use crate::lobby::Lobby;
use crate::table::TableMsg;
use axum::extract::ws::close_code;
use reader::{ReadEnd, Reader};
use writer::write_loop;

/// Frames larger than this close the connection (after a `too_large` error); frames between
/// [`MAX_MESSAGE_BYTES`] and this get the error and the connection stays open.
pub const HARD_MESSAGE_LIMIT: usize = 4 * MAX_MESSAGE_BYTES;

/// A connection's limits, from the server's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Messages a connection may send per second, on average.
    pub rate_per_sec: u32,
    /// Messages a connection may send in a burst.
    pub burst: u32,
    /// Frames waiting for one slow connection before it is dropped.
    pub outbound_queue: usize,
    /// Nothing received for this long (the server pings every third of it) closes the
    /// connection.
    pub idle: std::time::Duration,
    /// Not at a table for this long closes the connection.
    pub join: std::time::Duration,
}

/// [`Hub::linger`]'s wait by default. Others' moves reach a seat waiting for its turn in one or
/// two writes instead of one each; 20 ms is well under what a person notices, and a seat's own
/// move and its turn are never held.
pub const DEFAULT_LINGER: std::time::Duration = std::time::Duration::from_millis(20);

/// What every connection shares: where tables are found, its limits, and the stop signal.
#[derive(Clone)]
pub struct Hub {
    /// The tables.
    pub lobby: Lobby,
    /// Rate and queue limits, the same for every connection: shared rather than copied into
    /// each connection's task, which holds its hub for its whole life.
    pub limits: Arc<Limits>,
    /// Cancelled when the server stops: each connection says `goodbye` and closes.
    pub shutdown: CancellationToken,
    /// Holds a frame that may wait ([`crate::conn::Conn::send_lazy`]) for the frames after
    /// it, one clock for every connection.
    pub linger: Linger,
    /// The live sessions (for the admin API).
    pub sessions: Sessions,
    /// The cluster this node is part of, if any: a table owned by another node is relayed.
    pub cluster: Option<crate::cluster::Cluster>,
    /// The client's address: passed on when the connection is relayed, and what a table
    /// counts its spectators' chat by.
    pub client: Option<std::net::IpAddr>,
    /// The invitation and bot another node of the cluster vouches for on this connection
    /// (it relays a registered bot's `accept` to the table's node).
    pub vouched: Option<crate::cluster::bots::Vouch>,
}

/// Serves one connection over any sink and stream of WebSocket messages (an upgraded socket
/// split by [`socket::split`]; channels in tests) until the client leaves, is dropped, or the
/// server stops.
pub async fn run<W, R>(mut sink: W, stream: &mut R, hub: &Hub)
where
    W: Sink<Message> + Unpin + Send + 'static,
    R: Stream<Item = Result<Message, axum::Error>> + Unpin + Send,
{
    let conn = ConnId::next();
    let (tx, rx) = lingering(hub.limits.outbound_queue, &hub.linger);
    // A child of the server's stop signal: the connection's one signal to close, polled by
    // its writer at every wake-up, is locked only by this connection.
    let handle = Conn::with_client(conn, tx, hub.shutdown.child_token(), hub.client);
    let writer_conn = handle.clone();
    let asked = Arc::new(Asked::default());
    let mut reader = Reader::new(
        handle,
        hub.lobby.clone(),
        FloodGuard::new(
            hub.limits.rate_per_sec,
            hub.limits.burst,
            Arc::clone(&asked),
        ),
        hub.sessions.clone(),
    );
    reader.cluster = hub.cluster.clone();
    reader.vouched = hub.vouched.clone().map(Box::new);
    hub.sessions.opened(conn);
    tracing::debug!(conn = conn.0, "connection opened");
    metrics::counter!("parlor_connections_opened_total").increment(1);
    let opened = std::time::Instant::now();
    // The writer is a task of its own: a frame for this connection wakes the writer alone,
    // straight from the runtime, not through the tracked task, the session's future and a
    // `FuturesUnordered` first. The sink comes back when the writer ends, for the closing
    // handshake or a relay.
    let ping_every = hub.limits.idle / 3;
    let mut writing = tokio::spawn(async move {
        let sent = writer::Sent::default();
        write_loop(&mut sink, rx, writer_conn, &sent, asked, ping_every).await;
        (sink, sent)
    });
    let (ended, written) = tokio::select! {
        ended = reader.run(stream, &hub.limits) => (ended, None),
        written = &mut writing => (ReadEnd::Gone, Some(written)),
    };
    let written = match written {
        Some(written) => written,
        None => {
            // The reader ended first: the writer stops at once, dropping what is queued
            // (the connection is going away), and hands the sink back.
            reader.conn.kick();
            writing.await
        }
    };
    let Ok((mut sink, sent)) = written else {
        // The writer panicked (or the runtime is stopping): the sink went with it.
        return finished(&mut reader, hub, conn, opened, &writer::Sent::default()).await;
    };
    match ended {
        ReadEnd::ClientClosed => {
            // The client's close frame is answered with one (the closing handshake): the reply
            // was handed to the socket when the client's was read (`socket`); closing the sink
            // writes whatever is still waiting and ends the socket's writing side.
            let close = tokio::time::timeout(std::time::Duration::from_secs(1), sink.close());
            let _ = Box::pin(close).await;
        }
        ReadEnd::Silent(after) => {
            metrics::counter!("parlor_ws_timed_out_total", "why" => "silent").increment(1);
            let reason = format!("nothing received for {} s", after.as_secs());
            tracing::info!(conn = conn.0, "websocket closed: {reason}");
            Box::pin(writer::close_with(&mut sink, close_code::AWAY, reason)).await;
        }
        ReadEnd::NeverJoined(after) => {
            metrics::counter!("parlor_ws_timed_out_total", "why" => "never_joined").increment(1);
            let reason = format!("no join or watch within {} s", after.as_secs());
            tracing::info!(conn = conn.0, "websocket closed: {reason}");
            Box::pin(writer::close_with(&mut sink, close_code::POLICY, reason)).await;
        }
        ReadEnd::Relay => {
            if let Some(to) = reader.relay_to.take() {
                Box::pin(relay(&mut sink, stream, hub, conn, *to)).await;
            }
        }
        ReadEnd::Gone => {}
    }
    finished(&mut reader, hub, conn, opened, &sent).await;
}

/// Tells the table the connection left, and logs the session's line.
async fn finished(
    reader: &mut Reader,
    hub: &Hub,
    conn: ConnId,
    opened: std::time::Instant,
    sent: &writer::Sent,
) {
    if let Some(table) = reader.table.take() {
        let _ = Box::pin(table.send(TableMsg::Disconnected { conn })).await;
    }
    reader.gone();
    hub.sessions.closed(conn);
    metrics::counter!("parlor_connections_closed_total").increment(1);
    // The session's log line: how long and how much, never what (no tokens, no cards).
    tracing::info!(
        conn = conn.0,
        secs = opened.elapsed().as_secs_f64(),
        frames_in = reader.frames_in,
        bytes_in = reader.bytes_in,
        frames_out = sent.frames.load(std::sync::atomic::Ordering::Relaxed),
        bytes_out = sent.bytes.load(std::sync::atomic::Ordering::Relaxed),
        table = %reader.table_id.as_deref().map(crate::store::log_tag).map(|t| t.to_string()).unwrap_or_default(),
        "websocket session ended"
    );
}

/// The table a `join` or `watch` frame names.
fn first_table(frame: &str) -> String {
    match parlor_shared::protocol::ClientMsg::parse(frame) {
        Ok(
            parlor_shared::protocol::ClientMsg::Join { table, .. }
            | parlor_shared::protocol::ClientMsg::Watch { table },
        ) => table,
        _ => String::new(),
    }
}

/// Where a connection is piped: the node, the frame that goes first, and the invitation
/// vouched for (a registered bot's `accept` relayed by its node to the table's).
pub(super) struct Upstream {
    /// The node's address.
    address: String,
    /// The client's `join`, `watch` or `accept`.
    first: String,
    /// The invitation this node took up for the connection, and its bot, if any.
    vouch: Option<crate::cluster::bots::Vouch>,
}

impl Upstream {
    /// The node at `address`, to be sent `first` (no invitation vouched for).
    pub(super) fn new(address: String, first: String) -> Upstream {
        Upstream {
            address,
            first,
            vouch: None,
        }
    }
}

/// Pipes the rest of the connection to the node that owns its table (the client's `join`
/// or `watch` first), or to the node of a registered bot's invitation (its `accept`). If
/// that node cannot be reached the client is told to reconnect.
async fn relay<W, R>(sink: &mut W, stream: &mut R, hub: &Hub, conn: ConnId, to: Upstream)
where
    W: Sink<Message> + Unpin,
    R: Stream<Item = Result<Message, axum::Error>> + Unpin,
{
    let Some(cluster) = &hub.cluster else { return };
    let Upstream {
        mut address,
        first,
        vouch,
    } = to;
    tracing::debug!(conn = conn.0, owner = %address, "relaying the connection to the table's node");
    // The owner may have just died: its lease runs out and another node (maybe this one,
    // which then relays to itself) adopts the table. Tried for at most three leases.
    let step = std::time::Duration::from_millis(100);
    let tries = (cluster.lease() * 3).as_millis() / step.as_millis() + 1;
    let table = first_table(&first);
    let watch = crate::cluster::relay::Watch {
        cluster,
        table: Some(table.as_str()).filter(|t| !t.is_empty()),
    };
    let mut piped = Ok(crate::cluster::relay::Ended::Closed);
    for _ in 0..tries {
        piped = crate::cluster::relay::pipe(
            sink,
            stream,
            &address,
            first.clone(),
            hub.client,
            vouch.as_ref(),
            HARD_MESSAGE_LIMIT,
            watch,
        )
        .await;
        if piped
            .as_ref()
            .is_ok_and(|ended| *ended == crate::cluster::relay::Ended::Moved)
        {
            // The owner froze and the table went on elsewhere: the client reconnects there.
            tracing::info!(conn = conn.0, owner = %address, "the relayed table moved on from a silent node");
            let goodbye = parlor_shared::protocol::ServerMsg::Goodbye {
                reason: "this table has moved to another server of the cluster: reconnect to go on"
                    .into(),
            };
            if let Ok(text) = serde_json::to_string(&goodbye) {
                let _ = sink.send(Message::text(text)).await;
            }
            Box::pin(writer::close_with(sink, close_code::AGAIN, "moved".into())).await;
            return;
        }
        if piped.is_ok() {
            return;
        }
        tokio::time::sleep(step).await;
        if !table.is_empty()
            && let Some(now) = cluster.owner_address(&table).await
        {
            address = now;
        }
    }
    if let Err(err) = piped {
        tracing::warn!(conn = conn.0, owner = %address, %err, "could not relay the connection");
        let goodbye = parlor_shared::protocol::ServerMsg::Goodbye {
            reason: "the table's server could not be reached: reconnect to try again".into(),
        };
        if let Ok(text) = serde_json::to_string(&goodbye) {
            let _ = sink.send(Message::text(text)).await;
        }
        Box::pin(writer::close_with(
            sink,
            close_code::AGAIN,
            "try again".into(),
        ))
        .await;
    }
}
