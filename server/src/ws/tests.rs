//! A connection's timeouts on paused time: the writer's pings, the reader closing a silent
//! connection or one that never joins a table, each with its close code and reason.

use std::time::Duration;

use axum::extract::ws::{Message, close_code};
use futures_util::stream;
use tokio::sync::mpsc;
use tokio_util::sync::{CancellationToken, PollSender};

use super::{Hub, Limits, Sessions, run};
use crate::lobby::Lobby;

fn hub(idle: u64, join: u64) -> Hub {
    let shutdown = CancellationToken::new();
    Hub {
        lobby: Lobby::new(Duration::from_secs(600), 10, shutdown.clone()),
        limits: std::sync::Arc::new(Limits {
            rate_per_sec: 100,
            burst: 200,
            outbound_queue: 16,
            idle: Duration::from_secs(idle),
            join: Duration::from_secs(join),
        }),
        shutdown,
        linger: crate::conn::Linger::new(super::DEFAULT_LINGER),
        sessions: Sessions::default(),
        cluster: None,
        client: None,
        vouched: None,
    }
}

/// Runs a connection whose client never sends anything; returns what the server wrote and
/// how long (paused time) the connection lasted.
async fn silent_client(hub: &Hub) -> (Vec<Message>, Duration) {
    let (tx, mut rx) = mpsc::channel(64);
    let mut silence = stream::pending::<Result<Message, axum::Error>>();
    let started = tokio::time::Instant::now();
    // Bounded, so a connection that is never closed fails the test rather than hanging it.
    tokio::time::timeout(
        Duration::from_secs(3600),
        run(PollSender::new(tx), &mut silence, hub),
    )
    .await
    .expect("the server never closed the silent connection");
    let lasted = started.elapsed();
    let mut written = Vec::new();
    while let Ok(message) = rx.try_recv() {
        written.push(message);
    }
    (written, lasted)
}

fn close_of(written: &[Message]) -> (u16, String) {
    match written.last() {
        Some(Message::Close(Some(frame))) => (frame.code, frame.reason.to_string()),
        other => panic!("the last frame is no close frame: {other:?}"),
    }
}

#[tokio::test(start_paused = true)]
async fn a_connection_that_never_joins_is_closed_after_the_join_timeout() {
    let (written, lasted) = silent_client(&hub(60, 30)).await;
    assert_eq!(lasted, Duration::from_secs(30));
    let (code, reason) = close_of(&written);
    assert_eq!(code, close_code::POLICY);
    assert_eq!(reason, "no join or watch within 30 s");
}

#[tokio::test(start_paused = true)]
async fn a_silent_connection_is_pinged_then_closed_after_the_idle_timeout() {
    let (written, lasted) = silent_client(&hub(60, 3600)).await;
    assert_eq!(lasted, Duration::from_secs(60));
    let pings = written
        .iter()
        .filter(|m| matches!(m, Message::Ping(_)))
        .count();
    assert!(pings >= 2, "at 20 s and 40 s: {written:?}");
    let (code, reason) = close_of(&written);
    assert_eq!(code, close_code::AWAY);
    assert_eq!(reason, "nothing received for 60 s");
}

/// A client heard from now and then outlives the idle timeout, and is closed one idle
/// timeout after the last thing it sent (the reader's one timer, set for an older deadline,
/// is set again rather than closing the connection).
#[tokio::test(start_paused = true)]
async fn a_connection_is_closed_an_idle_timeout_after_its_last_frame() {
    let hub = hub(60, 3600);
    let (tx, _rx) = mpsc::channel(64);
    // A pong every 25 s, four times, then nothing.
    let mut client = Box::pin(stream::unfold(0u32, |sent| async move {
        if sent == 4 {
            return std::future::pending().await;
        }
        tokio::time::sleep(Duration::from_secs(25)).await;
        let pong: Result<Message, axum::Error> = Ok(Message::Pong(Default::default()));
        Some((pong, sent + 1))
    }));
    let started = tokio::time::Instant::now();
    tokio::time::timeout(
        Duration::from_secs(3600),
        run(PollSender::new(tx), &mut client, &hub),
    )
    .await
    .expect("the server never closed the connection");
    assert_eq!(started.elapsed(), Duration::from_secs(100 + 60));
}

/// A writer lingering `linger` over a channel: the connection that feeds it, the channel's
/// end where what it writes comes out, and the writer itself (not started).
fn writer_over_channel(
    signal: CancellationToken,
    sent: &super::writer::Sent,
    linger: Duration,
) -> (
    crate::conn::Conn,
    mpsc::Receiver<Message>,
    impl Future<Output = ()> + '_,
) {
    let (tx, rx) = mpsc::channel(64);
    let (queue, frames) = crate::conn::lingering(8, &crate::conn::Linger::new(linger));
    let conn = crate::conn::Conn::new(crate::conn::ConnId::next(), queue, signal);
    let writer = super::writer::write_loop(
        PollSender::new(tx),
        frames,
        conn.clone(),
        sent,
        std::sync::Arc::default(),
        Duration::from_secs(3600),
    );
    (conn, rx, writer)
}

/// Runs a writer over a channel with two frames queued, gives it `signal` once they are
/// written, and returns everything it wrote.
async fn writer_closed_by(
    signal: impl FnOnce(&crate::conn::Conn, &CancellationToken),
) -> Vec<Message> {
    let shutdown = CancellationToken::new();
    let sent = super::writer::Sent::default();
    let (conn, mut rx, writer) =
        writer_over_channel(shutdown.child_token(), &sent, super::DEFAULT_LINGER);
    tokio::pin!(writer);
    assert!(conn.send("one".into()) && conn.send("two".into()));
    let mut written = Vec::new();
    while written.len() < 2 {
        tokio::select! {
            () = &mut writer => panic!("the writer ended before its frames were written"),
            message = rx.recv() => written.push(message.expect("the writer is running")),
        }
    }
    signal(&conn, &shutdown);
    tokio::time::timeout(Duration::from_secs(10), writer)
        .await
        .expect("the writer ends once told");
    while let Ok(message) = rx.try_recv() {
        written.push(message);
    }
    written
}

/// A writer lingering 20 ms: a seat's own answers and turns go out at once, others' moves
/// wait for them or for the linger, in order.
#[tokio::test(start_paused = true)]
async fn a_writer_holds_others_moves_for_the_next_turn_or_the_linger() {
    let linger = Duration::from_millis(20);
    let sent = super::writer::Sent::default();
    let (conn, mut rx, writer) = writer_over_channel(CancellationToken::new(), &sent, linger);
    tokio::pin!(writer);
    let mut next_within = async |wait: Duration| {
        tokio::time::timeout(wait, async {
            tokio::select! {
                () = &mut writer => panic!("the writer ended"),
                message = rx.recv() => message.expect("the writer is running"),
            }
        })
        .await
        .ok()
    };
    let start = tokio::time::Instant::now();
    assert!(conn.send_lazy("west played".into()) && conn.send_lazy("north played".into()));
    assert!(
        next_within(linger / 2).await.is_none(),
        "others' moves wait"
    );
    assert!(conn.send("your turn".into()));
    let mut written = Vec::new();
    while written.len() < 3 {
        written.push(
            next_within(linger)
                .await
                .expect("the turn and the moves before it"),
        );
    }
    assert_eq!(
        texts(&written),
        ["west played", "north played", "your turn"]
    );
    assert_eq!(start.elapsed(), linger / 2, "the turn was not held");
    assert!(conn.send_lazy("east played".into()));
    let east = next_within(linger * 10)
        .await
        .expect("written after the linger");
    assert_eq!(texts(&[east]), ["east played"]);
    assert_eq!(start.elapsed(), linger / 2 + linger);
}

fn texts(written: &[Message]) -> Vec<String> {
    written
        .iter()
        .filter_map(|message| match message {
            Message::Text(text) => Some(text.to_string()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_writer_told_to_finish_writes_what_is_queued_then_closes_normally() {
    let written = writer_closed_by(|conn, _| {
        assert!(conn.send("three".into()));
        conn.finish();
    })
    .await;
    assert_eq!(texts(&written), ["one", "two", "three"]);
    assert_eq!(close_of(&written).0, close_code::NORMAL);
}

#[tokio::test]
async fn a_kicked_writer_stops_without_a_close_frame() {
    let written = writer_closed_by(|conn, _| conn.kick()).await;
    assert_eq!(texts(&written), ["one", "two"]);
    assert!(!written.iter().any(|m| matches!(m, Message::Close(_))));
}

#[tokio::test]
async fn a_writer_says_goodbye_when_the_server_stops() {
    let written = writer_closed_by(|_, shutdown| shutdown.cancel()).await;
    let texts = texts(&written);
    assert_eq!(texts.len(), 3, "{texts:?}");
    assert!(texts[2].contains("\"goodbye\""), "{}", texts[2]);
    assert_eq!(close_of(&written).0, close_code::AWAY);
}

#[tokio::test]
async fn a_kick_wins_over_a_finish() {
    let written = writer_closed_by(|conn, _| {
        conn.finish();
        conn.kick();
    })
    .await;
    assert!(!written.iter().any(|m| matches!(m, Message::Close(_))));
}

#[tokio::test]
async fn a_kick_drops_the_frames_still_queued() {
    let written = writer_closed_by(|conn, _| {
        assert!(conn.send("three".into()));
        conn.kick();
    })
    .await;
    assert_eq!(texts(&written), ["one", "two"]);
}
