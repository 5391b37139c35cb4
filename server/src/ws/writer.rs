//! The writing half of a connection: drains its queue into the socket, says `goodbye` when
//! the server stops, and closes after its last frames when the table says so (`finish`).

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::ratelimit::Asked;
use crate::conn::{CancelWatch, Closing, Conn, Frame, Receiver};
use axum::extract::ws::{CloseFrame, Message, close_code};
use futures_util::{Sink, SinkExt};
use parlor_shared::protocol::ServerMsg;

/// What the writer has sent, for the session's log line.
#[derive(Debug, Default)]
pub(super) struct Sent {
    /// Frames written.
    pub(super) frames: AtomicU64,
    /// Their bytes.
    pub(super) bytes: AtomicU64,
}

/// Drains the connection's queue into the socket, batching what is waiting into one flush.
/// Stops when the connection is kicked; says `goodbye` when the server stops; writes what is
/// queued and closes when told to finish. All three arrive as the one signal of `conn`
/// ([`Conn::signal`]), so each wake-up checks one token rather than three.
pub(super) async fn write_loop<W>(
    mut sink: W,
    mut rx: Receiver<Frame>,
    conn: Conn,
    sent_so_far: &Sent,
    asked: Arc<Asked>,
    ping_every: Duration,
) where
    W: Sink<Message> + Unpin,
{
    // Pings keep a quiet but live client heard from (its pong is a frame), and find a dead
    // one: the reader closes a connection nothing arrives from.
    let mut ping = tokio::time::interval_at(
        tokio::time::Instant::now() + ping_every,
        ping_every.max(Duration::from_millis(10)),
    );
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // Made once: a fresh `cancelled()` per frame would lock the token's tree every time, and
    // watched, so that a wake-up of the queue or the socket does not lock it either.
    let signal = conn.signal();
    let wait = signal.cancelled();
    tokio::pin!(wait);
    let mut closed = CancelWatch::new(wait);
    let mut batch = VecDeque::new();
    // The `seq` of the latest prompt written (see [`Asked::writing`]).
    let mut last_prompt = None;
    'frames: loop {
        let more = tokio::select! {
            biased;
            () = &mut closed => match conn.closing() {
                Closing::Kicked => return,
                Closing::Stopping => break 'frames,
                Closing::Finish => {
                    finish_with(&mut sink, &mut rx, &mut batch).await;
                    return;
                }
            },
            more = rx.recv_due(&mut batch) => more,
            _ = ping.tick() => {
                let sent = tokio::select! {
                    biased;
                    // Any reason to close is handled at the top of the loop.
                    () = &mut closed => continue 'frames,
                    sent = sink.send(Message::Ping(Default::default())) => sent,
                };
                if sent.is_err() {
                    return;
                }
                continue;
            }
        };
        if !more {
            return;
        }
        let mut bytes = 0;
        for frame in &batch {
            bytes += frame.len();
            asked.writing(frame.as_str(), &mut last_prompt);
        }
        crate::tally::WS_BYTES_SENT.add(bytes as u64);
        sent_so_far
            .frames
            .fetch_add(batch.len() as u64, Ordering::Relaxed);
        sent_so_far.bytes.fetch_add(bytes as u64, Ordering::Relaxed);
        let send = async {
            for frame in batch.drain(..) {
                sink.feed(Message::Text(frame)).await?;
            }
            sink.flush().await
        };
        tokio::pin!(send);
        // A finish lets the frames being written go out first (the next turn of the loop
        // writes the rest and closes); a kick or the server stopping cuts them short.
        let mut watching = true;
        let sent = loop {
            tokio::select! {
                biased;
                () = &mut closed, if watching => match conn.closing() {
                    Closing::Kicked => return,
                    Closing::Stopping => break 'frames,
                    Closing::Finish => watching = false,
                },
                sent = &mut send => break sent,
            }
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

/// Closes the socket with `code` and `reason` (the reader ended the connection: a silent
/// client, or one that never joined a table).
pub(super) async fn close_with<W>(sink: &mut W, code: u16, reason: String)
where
    W: Sink<Message> + Unpin,
{
    let close = sink.send(Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    })));
    let _ = Box::pin(tokio::time::timeout(Duration::from_secs(1), close)).await;
}

/// Writes the frames still queued, then closes the socket normally. Those frames were all
/// queued before the signal (the table sends nothing more to a connection it let go).
async fn finish_with<W>(sink: &mut W, rx: &mut Receiver<Frame>, batch: &mut VecDeque<Frame>)
where
    W: Sink<Message> + Unpin,
{
    while let Some(frame) = rx.try_recv() {
        batch.push_back(frame);
    }
    let last = async {
        for frame in batch.drain(..) {
            sink.feed(Message::Text(frame)).await?;
        }
        sink.send(Message::Close(Some(CloseFrame {
            code: close_code::NORMAL,
            reason: "closed by the table".into(),
        })))
        .await
    };
    let _ = Box::pin(tokio::time::timeout(Duration::from_secs(1), last)).await;
}
