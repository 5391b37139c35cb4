//! A connection as the rest of the server sees it: its id, and the handle ([`Conn`]) on its
//! bounded outbound frame queue ([`queue`]), which a table fills without ever waiting and the
//! connection's writer drains; [`linger`], the one clock that releases the frames every queue
//! holds back; and [`watch`], how a writer (or a table) waits for its close signal without
//! locking it at every wake-up.
//!
//! It owns no socket and knows no table: `ws` owns the socket, `table` decides what to send.
//! It may import nothing else of the server but the tallies ([`crate::tally`]), where it
//! records how long its moves took to answer.

pub mod linger;
pub mod queue;
pub mod watch;

use std::net::IpAddr;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use parlor_shared::protocol::ServerMsg;
use parlor_shared::view::{PlayerView, json};
use tokio_util::sync::CancellationToken;

pub use linger::Linger;
pub use queue::{PushError, Receiver, Sender, bounded, lingering};
pub use watch::CancelWatch;

/// One serialized JSON text frame, cheap to clone so a broadcast serializes once.
pub type Frame = axum::extract::ws::Utf8Bytes;

/// Identifies one WebSocket connection for the lifetime of the process.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ConnId(pub u64);

impl ConnId {
    /// A fresh id.
    #[must_use]
    pub fn next() -> ConnId {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        ConnId(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

/// Serializes a server message into a frame. Every `error` sent is counted here, by code
/// (`parlor_errors_total`), whoever refused.
#[must_use]
pub fn frame(msg: &ServerMsg) -> Frame {
    frame_with(msg, None)
}

/// [`frame`], with what a view it carries repeats taken from `cache`, as its table last wrote
/// it (see [`json::ViewCache`]).
#[must_use]
pub fn frame_with(msg: &ServerMsg, cache: Option<&mut json::ViewCache>) -> Frame {
    if let ServerMsg::Error { code, .. } = msg {
        metrics::counter!("parlor_errors_total", "code" => code.to_string()).increment(1);
    }
    // The messages of every move (`your_turn`, `state`, `event`) are written by hand, the
    // same bytes several times cheaper (`parlor_shared::view::json`); the rest go through
    // `serde_json`.
    written(|buffer| {
        if !json::write_message_with(buffer, msg, cache) {
            let mut bytes = std::mem::take(buffer).into_bytes();
            serde_json::to_writer(&mut bytes, msg).expect("server messages always serialize");
            *buffer = String::from_utf8(bytes).expect("JSON is UTF-8");
        }
    })
}

/// A `your_turn` frame written from its parts (what [`frame_with`] makes of
/// [`ServerMsg::YourTurn`]): the table's fresh view is written where it is, not first moved
/// into a boxed message.
#[must_use]
pub fn prompt_frame(
    seq: u64,
    view: &PlayerView,
    timeout_ms: Option<u64>,
    cache: &mut json::ViewCache,
) -> Frame {
    written(|buffer| json::write_your_turn(buffer, seq, &view.legal, view, timeout_ms, Some(cache)))
}

/// The frame `write` writes, into a buffer this thread keeps, then copied into a frame of
/// exactly its size: `serde_json::to_string` would grow a fresh buffer by doubling (several
/// reallocations for a prompt that carries a view) and the frame would keep the spare half
/// while it waits in queues.
fn written(write: impl FnOnce(&mut String)) -> Frame {
    /// Serialization buffers kept larger than this are let go (a rare big snapshot).
    const KEEP_BYTES: usize = 64 * 1024;
    thread_local! {
        static BUFFER: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    BUFFER.with(|buffer| {
        let mut buffer = buffer.borrow_mut();
        buffer.clear();
        write(&mut buffer);
        let frame = Frame::from(buffer.as_str());
        if buffer.capacity() > KEEP_BYTES {
            *buffer = String::new();
        }
        frame
    })
}

/// The sending side of one connection. Sends never wait: a connection whose queue is full is
/// too slow, and is dropped (it may reconnect with its token) so it never stalls a table.
///
/// Cloning is one reference count: a table holds a clone for every frame waiting for its
/// step's commit (several per move), so the queue's sender and the signal live behind one
/// shared [`Arc`] rather than being cloned (each under a lock) one by one.
#[derive(Debug, Clone)]
pub struct Conn {
    /// Which connection.
    pub id: ConnId,
    /// Everything else, shared by the clones.
    parts: Arc<Parts>,
}

/// What the clones of one [`Conn`] share.
#[derive(Debug)]
struct Parts {
    /// Its outbound queue, drained by the connection's writer task.
    tx: Sender<Frame>,
    /// Cancelled for every reason the connection must close: kicked, told to finish, or
    /// (as a child of the server's token) the server stopping. One token, so the writer
    /// waits on one signal at each wake-up; [`Parts::closing`] says which reason it was.
    signal: CancellationToken,
    /// The reasons given so far ([`KICKED`], [`FINISH`]); none while the signal is cancelled
    /// means the server is stopping.
    closing: AtomicU8,
    /// When the move read last was read ([`now_ns`]; 0: none since the table took it).
    move_read: AtomicU64,
    /// When the move the table accepted last was read (0: its event has gone out).
    move_accepted: AtomicU64,
    /// The client's address, when known: a table counts its spectators' chat by address, so
    /// reconnecting buys no more lines.
    client: Option<IpAddr>,
}

/// Nanoseconds since this process first asked, plus one (so that 0 means "none").
fn now_ns() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    let since = EPOCH.get_or_init(Instant::now).elapsed();
    u64::try_from(since.as_nanos()).unwrap_or(u64::MAX - 1) + 1
}

/// [`Parts::closing`]: close at once (too slow, or the reader ended).
const KICKED: u8 = 1;
/// [`Parts::closing`]: close once what is queued has been written.
const FINISH: u8 = 2;

/// Why a connection's signal was given (see [`Conn::closing`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closing {
    /// Close at once, dropping what is queued.
    Kicked,
    /// Write what is queued, then close.
    Finish,
    /// The server is stopping (or no reason was given yet).
    Stopping,
}

impl Conn {
    /// A connection handle from its parts. `signal` is cancelled whenever the connection
    /// must close ([`Conn::kick`], [`Conn::finish`]); a connection makes it a child of the
    /// server's stop signal, so the server stopping cancels it too.
    #[must_use]
    pub fn new(id: ConnId, tx: Sender<Frame>, signal: CancellationToken) -> Conn {
        Conn::with_client(id, tx, signal, None)
    }

    /// [`Conn::new`] for a client at `client`.
    #[must_use]
    pub fn with_client(
        id: ConnId,
        tx: Sender<Frame>,
        signal: CancellationToken,
        client: Option<IpAddr>,
    ) -> Conn {
        Conn {
            id,
            parts: Arc::new(Parts {
                tx,
                signal,
                closing: AtomicU8::new(0),
                move_read: AtomicU64::new(0),
                move_accepted: AtomicU64::new(0),
                client,
            }),
        }
    }

    /// The client's address, when known.
    #[must_use]
    pub fn client(&self) -> Option<IpAddr> {
        self.parts.client
    }

    /// Notes that a move was read from this connection just now (see
    /// [`Conn::move_accepted`]).
    pub fn move_read(&self) {
        self.parts.move_read.store(now_ns(), Ordering::Relaxed);
    }

    /// Says the move read last was accepted: the next frame sent at once ([`Conn::send`]) is
    /// its event, and the time from reading the move to sending that is counted in
    /// `parlor_move_latency_seconds`.
    pub fn move_accepted(&self) {
        let read = self.parts.move_read.swap(0, Ordering::Relaxed);
        if read != 0 {
            self.parts.move_accepted.store(read, Ordering::Relaxed);
        }
    }

    /// Queues a frame. Returns `false` when the connection is gone or was too slow and has
    /// been told to close.
    pub fn send(&self, frame: Frame) -> bool {
        if self.parts.move_accepted.load(Ordering::Relaxed) != 0 {
            let read = self.parts.move_accepted.swap(0, Ordering::Relaxed);
            if read != 0 {
                let took = now_ns().saturating_sub(read);
                crate::tally::MOVE_LATENCY.record(std::time::Duration::from_nanos(took));
            }
        }
        self.pushed(self.parts.tx.try_push(frame))
    }

    /// [`Conn::send`] for a frame nobody answers (an event): the writer may hold it a little
    /// for the next frame, so that a seat waiting for its turn gets the moves before it in
    /// fewer writes.
    pub fn send_lazy(&self, frame: Frame) -> bool {
        self.pushed(self.parts.tx.try_push_lazy(frame))
    }

    /// What a push came to: `false` (and the connection kicked) when its queue was full.
    fn pushed(&self, result: Result<(), PushError>) -> bool {
        match result {
            Ok(()) => true,
            Err(PushError::Full) => {
                tracing::debug!(
                    conn = self.id.0,
                    "outbound queue full: dropping a slow connection"
                );
                self.kick();
                false
            }
            Err(PushError::Closed) => false,
        }
    }

    /// Serializes and queues one message (see [`Conn::send`]).
    pub fn send_msg(&self, msg: &ServerMsg) -> bool {
        self.send(frame(msg))
    }

    /// Queues a message, waiting for room: for the connection's own reader, so a client that
    /// sends faster than it reads is slowed down rather than dropped. Returns `false` when
    /// the connection is closing.
    pub async fn send_wait(&self, msg: &ServerMsg) -> bool {
        tokio::select! {
            sent = self.parts.tx.push(frame(msg)) => sent.is_ok(),
            () = self.parts.signal.cancelled() => false,
        }
    }

    /// Makes the connection close.
    pub fn kick(&self) {
        self.parts.closing.fetch_or(KICKED, Ordering::Release);
        self.parts.signal.cancel();
    }

    /// Makes the connection close after writing every frame queued so far, so the last
    /// message (why it closes) reaches the client.
    pub fn finish(&self) {
        self.parts.closing.fetch_or(FINISH, Ordering::Release);
        self.parts.signal.cancel();
    }

    /// The signal cancelled when the connection must close, for its writer; then
    /// [`Conn::closing`] says why.
    #[must_use]
    pub fn signal(&self) -> CancellationToken {
        self.parts.signal.clone()
    }

    /// Why the connection's signal was given: a kick wins over a finish, and neither means
    /// the server is stopping.
    #[must_use]
    pub fn closing(&self) -> Closing {
        let closing = self.parts.closing.load(Ordering::Acquire);
        if closing & KICKED != 0 {
            Closing::Kicked
        } else if closing & FINISH != 0 {
            Closing::Finish
        } else {
            Closing::Stopping
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_is_the_message_s_json_whatever_was_serialized_before_it() {
        let long = ServerMsg::Goodbye {
            reason: "x".repeat(100_000),
        };
        let short = ServerMsg::Pong {};
        let event = ServerMsg::Event {
            seq: 7,
            prev: 5,
            event: parlor_shared::Event::PassChosen {
                seat: parlor_shared::Seat(2),
            },
        };
        for msg in [&long, &short, &event, &long, &event, &short] {
            assert_eq!(frame(msg).as_str(), serde_json::to_string(msg).unwrap());
        }
    }

    /// A prompt written from its parts is the `your_turn` message's JSON, move after move
    /// of a match, with and without a turn's time limit, one cache kept throughout.
    #[test]
    fn a_prompt_frame_is_the_your_turn_message_s_json() {
        use parlor_shared::bots::RandomBot;
        use parlor_shared::rules::{Options, Variant};
        let mut game = parlor_shared::Game::new(Variant::Hearts, &Options::default(), 5).unwrap();
        let mut bot = RandomBot::new(6);
        let mut events = Vec::new();
        let mut cache = json::ViewCache::default();
        for n in 0..120u64 {
            let seat = game.to_act().first().unwrap();
            let view = PlayerView::of(&game, Some(seat));
            let timeout_ms = (n % 2 == 0).then_some(30_000);
            let msg = ServerMsg::YourTurn {
                seq: n,
                legal: view.legal,
                view: Box::new(view.clone()),
                timeout_ms,
            };
            let written = prompt_frame(n, &view, timeout_ms, &mut cache);
            assert_eq!(written.as_str(), serde_json::to_string(&msg).unwrap());
            bot.act_on(&mut game, seat, &mut events).unwrap();
        }
    }
}
