//! The WebSocket endpoint: one connection = one reader and one writer, run side by side in
//! one task; when either ends, both do.
//!
//! The reader rate-limits and parses each frame with [`ClientMsg::parse`], answers what it can
//! itself (`ping`, every malformed input) and forwards the rest to the table. The writer
//! drains the connection's bounded queue, which the table fills without ever waiting: a
//! client too slow to read is dropped, never the table stalled.

use std::collections::VecDeque;
use std::time::Duration;

use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::response::Response;
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use parlor_shared::protocol::{ClientMsg, MAX_MESSAGE_BYTES, ProtocolError, ServerMsg, codes};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use crate::app::AppState;
use crate::conn::{Conn, ConnId, Frame, Receiver, bounded};
use crate::lobby::Lobby;
use crate::ratelimit::TokenBucket;
use crate::table::{Command, JoinRequest, TableHandle};

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
    let mut reader = Reader {
        conn: Conn::new(conn, tx, kick.clone()),
        lobby: state.lobby.clone(),
        table: None,
        bucket: TokenBucket::new(state.config.rate_per_sec, state.config.burst),
        rate: state.config.rate_per_sec,
    };
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
        let _ = Box::pin(table.send(Command::Disconnected { conn })).await;
    }
    tracing::debug!(conn = conn.0, "connection closed");
}

/// The reading half of a connection.
struct Reader {
    /// This connection's queue, for answers the reader gives itself.
    conn: Conn,
    /// Where tables are found.
    lobby: Lobby,
    /// The table joined or watched, if any.
    table: Option<TableHandle>,
    /// The flood guard.
    bucket: TokenBucket,
    /// Messages per second allowed (for the error text).
    rate: u32,
}

impl Reader {
    /// Reads frames until the client goes away.
    async fn run<R>(&mut self, stream: &mut R)
    where
        R: Stream<Item = Result<Message, axum::Error>> + Unpin,
    {
        while let Some(message) = stream.next().await {
            match message {
                // Each message is handled in its own boxed future: the connection's task then
                // stays small however deep the handling goes (thousands of them are alive).
                Ok(Message::Text(text)) => {
                    if self.allowed().await {
                        Box::pin(self.on_text(text.as_str())).await;
                    }
                }
                Ok(Message::Binary(_)) => {
                    if self.allowed().await {
                        let msg = ServerMsg::error(
                            codes::BINARY_FRAME,
                            "send JSON text frames, not binary ones",
                        );
                        Box::pin(self.reply(&msg)).await;
                    }
                }
                Ok(Message::Close(_)) => break,
                Ok(Message::Ping(_) | Message::Pong(_)) => {}
                Err(err) => {
                    // tungstenite refuses frames over the hard limit and ends the stream.
                    let text = err.to_string();
                    if text.contains("too long") || text.contains("too big") {
                        let err = ProtocolError::TooLarge {
                            limit: MAX_MESSAGE_BYTES,
                        };
                        let msg = ServerMsg::error(err.code(), err.to_string());
                        Box::pin(async {
                            self.reply(&msg).await;
                            // Give the writer a moment to send it before the socket closes.
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        })
                        .await;
                    }
                    tracing::debug!(conn = self.conn.id.0, %err, "read error");
                    break;
                }
            }
        }
    }

    /// Takes a token from the bucket, or refuses the frame with `rate_limited`.
    async fn allowed(&mut self) -> bool {
        self.bucket.give_back(self.conn.take_refunds());
        let allowed = self.bucket.take();
        if !allowed {
            let msg = ServerMsg::error(
                codes::RATE_LIMITED,
                format!(
                    "too many messages: at most {} a second; this one was ignored",
                    self.rate
                ),
            );
            Box::pin(self.reply(&msg)).await;
        }
        allowed
    }

    /// One text frame.
    async fn on_text(&mut self, text: &str) {
        match ClientMsg::parse(text) {
            Ok(msg) => self.dispatch(msg).await,
            Err(err) => {
                self.reply(&ServerMsg::error(err.code(), err.to_string()))
                    .await
            }
        }
    }

    /// Acts on one well-formed message.
    async fn dispatch(&mut self, msg: ClientMsg) {
        match msg {
            ClientMsg::Ping {} => self.reply(&ServerMsg::Pong {}).await,
            ClientMsg::Join {
                table,
                seat,
                name,
                token,
                bot,
            } => {
                let request = JoinRequest {
                    seat,
                    name,
                    token,
                    bot,
                    watch: false,
                };
                Box::pin(self.join(&table, request)).await;
            }
            ClientMsg::Watch { table } => {
                let request = JoinRequest {
                    seat: None,
                    name: None,
                    token: None,
                    bot: false,
                    watch: true,
                };
                Box::pin(self.join(&table, request)).await;
            }
            msg => {
                let Some(table) = &self.table else {
                    self.reply(&ServerMsg::error(
                        codes::NOT_JOINED,
                        "join or watch a table first",
                    ))
                    .await;
                    return;
                };
                let leaving = matches!(msg, ClientMsg::Leave {});
                let command = Command::Message {
                    conn: self.conn.id,
                    msg: Box::new(msg),
                };
                if table.send(command).await.is_err() {
                    self.table = None;
                    self.reply(&ServerMsg::error(
                        codes::NO_SUCH_TABLE,
                        "the table has closed",
                    ))
                    .await;
                } else if leaving {
                    self.table = None;
                }
            }
        }
    }

    /// `join` or `watch`: hands the connection to the table, which answers it directly.
    async fn join(&mut self, id: &str, request: JoinRequest) {
        if self.table.is_some() {
            self.reply(&ServerMsg::error(
                codes::ALREADY_JOINED,
                "this connection is already at a table: leave first",
            ))
            .await;
            return;
        }
        let no_table =
            || ServerMsg::error(codes::NO_SUCH_TABLE, format!("there is no table `{id}`"));
        let Some(table) = self.lobby.get(id) else {
            self.reply(&no_table()).await;
            return;
        };
        let (reply, joined) = oneshot::channel();
        let command = Command::Join {
            conn: self.conn.clone(),
            request: Box::new(request),
            reply,
        };
        if table.send(command).await.is_err() {
            self.reply(&no_table()).await;
            return;
        }
        if joined.await.unwrap_or(false) {
            self.table = Some(table);
        }
    }

    /// Queues an answer of the reader's own, waiting for room in the queue (a client that
    /// does not read its answers stops being read, and never costs the table anything).
    async fn reply(&self, msg: &ServerMsg) {
        self.conn.send_wait(msg).await;
    }
}

/// Drains the connection's queue into the socket, batching what is waiting into one flush.
/// Stops when the connection is kicked; says `goodbye` when the server stops.
async fn write_loop<W>(
    mut sink: W,
    mut rx: Receiver<Frame>,
    kick: CancellationToken,
    shutdown: CancellationToken,
) where
    W: Sink<Message> + Unpin,
{
    // Made once: a fresh `cancelled()` per frame would lock the token's tree every time.
    let kicked = kick.cancelled();
    let stopping = shutdown.cancelled();
    tokio::pin!(kicked, stopping);
    let mut batch = VecDeque::new();
    loop {
        let more = tokio::select! {
            biased;
            () = &mut stopping => break,
            () = &mut kicked => return,
            more = rx.recv_all(&mut batch) => more,
        };
        if !more {
            return;
        }
        let send = async {
            for frame in batch.drain(..) {
                sink.feed(Message::Text(frame)).await?;
            }
            sink.flush().await
        };
        let sent = tokio::select! {
            biased;
            () = &mut kicked => return,
            () = &mut stopping => break,
            sent = send => sent,
        };
        if sent.is_err() {
            return;
        }
    }
    let goodbye = async {
        let msg = ServerMsg::Goodbye {
            reason: "the server is shutting down; reconnect with your seat token later".into(),
        };
        sink.send(Message::Text(crate::conn::frame(&msg))).await?;
        sink.send(Message::Close(Some(CloseFrame {
            code: close_code::AWAY,
            reason: "server shutting down".into(),
        })))
        .await
    };
    let _ = Box::pin(tokio::time::timeout(Duration::from_secs(1), goodbye)).await;
}
