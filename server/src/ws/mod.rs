//! The WebSocket endpoint: one connection = one reader and one writer, run side by side in
//! one task; when either ends, both do.
//!
//! The reader ([`reader`]) rate-limits and parses each frame with `ClientMsg::parse`, answers
//! what it can itself (`ping`, `join` and `watch` routing, every malformed input) and forwards
//! the rest to the table as a `TableRequest`. The writer ([`writer`]) drains the connection's
//! bounded queue, which the table fills without ever waiting: a client too slow to read is
//! dropped, never the table stalled.
//!
//! It owns the socket and nothing of a game; it finds tables through the lobby. It may import
//! `lobby`, `table` and `conn`, never `http`: the HTTP layer hands it its settings.

mod ratelimit;
mod reader;
mod writer;

pub use ratelimit::TokenBucket;

use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use futures_util::{Sink, Stream, StreamExt};
use parlor_shared::protocol::MAX_MESSAGE_BYTES;
use tokio_util::sync::CancellationToken;

use crate::app::AppState;
use crate::conn::{Conn, ConnId, bounded};
use crate::table::TableMsg;
use reader::Reader;
use writer::write_loop;

/// Frames larger than this close the connection (after a `too_large` error); frames between
/// [`MAX_MESSAGE_BYTES`] and this get the error and the connection stays open.
pub const HARD_MESSAGE_LIMIT: usize = 4 * MAX_MESSAGE_BYTES;

/// `GET /ws`: upgrades to the game protocol.
pub async fn upgrade(ws: WebSocketUpgrade, State(state): State<AppState>) -> Response {
    let config = &state.config;
    ws.read_buffer_size(config.read_buffer_bytes)
        .write_buffer_size(config.write_buffer_bytes)
        .max_message_size(HARD_MESSAGE_LIMIT)
        .max_frame_size(HARD_MESSAGE_LIMIT)
        .on_upgrade(move |socket| {
            let tracker = state.tracker.clone();
            tracker.track_future(connection(socket, state))
        })
}

/// Serves one connection until the client leaves, is dropped, or the server stops.
async fn connection(socket: WebSocket, state: AppState) {
    let (sink, mut stream) = socket.split();
    run(sink, &mut stream, &state).await;
}

/// Runs a connection over any sink and stream of WebSocket messages (tests can use channels).
pub async fn run<W, R>(sink: W, stream: &mut R, state: &AppState)
where
    W: Sink<Message> + Unpin,
    R: Stream<Item = Result<Message, axum::Error>> + Unpin,
{
    let conn = ConnId::next();
    let (tx, rx) = bounded(state.config.outbound_queue);
    let kick = CancellationToken::new();
    let mut reader = Reader::new(
        Conn::new(conn, tx, kick.clone()),
        state.lobby.clone(),
        TokenBucket::new(state.config.rate_per_sec, state.config.burst),
        state.config.rate_per_sec,
    );
    tracing::debug!(conn = conn.0, "connection opened");
    {
        let read = reader.run(stream);
        let write = write_loop(sink, rx, kick, state.shutdown.clone());
        tokio::select! {
            () = read => {}
            () = write => {}
        }
    }
    if let Some(table) = reader.table.take() {
        let _ = Box::pin(table.send(TableMsg::Disconnected { conn })).await;
    }
    tracing::debug!(conn = conn.0, "connection closed");
}
