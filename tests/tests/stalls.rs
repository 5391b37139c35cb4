//! No stalls, against the real `parlor serve`: a person who never plays at a table with a
//! turn clock is stood in for by a computer when it runs out, and the match ends; with the
//! clock off, the host hands the seat to a computer. (The clock's timing itself is tested on
//! paused time in the table's own tests.)

mod support;

use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_shared::{Event, Seat};
use parlor_tests::{WsClient, http};
use serde_json::json;
use support::{ServerProcess, TempDir, move_for};

/// A whist table with these table options, a person who plays (the host, seat 0), one who
/// never does (seat 1) and two built-in bots; the match is started.
async fn table(addr: std::net::SocketAddr, turn_clock_ms: u64) -> (WsClient, WsClient) {
    let body = json!({
        "variant": "whist",
        "options": {"target": 1},
        "table_options": {"turn_clock_ms": turn_clock_ms},
    });
    let (status, reply) = http(addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 201, "{reply}");
    let id = reply["id"].as_str().expect("an id").to_string();
    let mut host = WsClient::connect(addr).await;
    assert!(host.join(&id, "Ann").await);
    let mut staller = WsClient::connect(addr).await;
    staller.join(&id, "Sam").await;
    for seat in [2, 3] {
        host.send(&ClientMsg::AddBot {
            seat: Seat(seat),
            strategy: "random".into(),
        })
        .await;
    }
    host.recv_until(
        |m| matches!(m, ServerMsg::Table { table, .. } if table.seats[3].strategy.is_some()),
    )
    .await;
    host.send(&ClientMsg::Start {}).await;
    (host, staller)
}

/// Plays the host's turns until the match is over.
async fn host_plays_to_the_end(host: &mut WsClient) {
    loop {
        match host.recv().await {
            ServerMsg::YourTurn { legal, .. } => {
                if let Some(reply) = move_for(Seat(0), &legal) {
                    host.send(&reply).await;
                }
            }
            ServerMsg::Event {
                event: Event::MatchOver { .. },
                ..
            } => return,
            ServerMsg::Error { code, message } => panic!("{code}: {message}"),
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_who_never_plays_does_not_stall_a_table_with_a_clock() {
    let data = TempDir::new("stalls-clock");
    let server = ServerProcess::start(data.path());
    let (mut host, mut staller) = table(server.addr, 300).await;
    host_plays_to_the_end(&mut host).await;
    let (mut clock, mut stood_in) = (None, false);
    loop {
        match staller.recv().await {
            ServerMsg::YourTurn { timeout_ms, .. } => clock = clock.or(Some(timeout_ms)),
            ServerMsg::Table { table, .. } => stood_in |= table.seats[1].bot_playing,
            ServerMsg::Event {
                event: Event::MatchOver { .. },
                ..
            } => break,
            _ => {}
        }
    }
    assert_eq!(clock, Some(Some(300)), "prompted with the clock");
    assert!(stood_in, "a computer stood in when it ran out");
    server.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_clock_off_the_host_lets_a_computer_play_for_a_staller() {
    let data = TempDir::new("stalls-off");
    let server = ServerProcess::start(data.path());
    let (mut host, mut staller) = table(server.addr, 0).await;
    // The host plays its turns until the staller is asked.
    let prompt = loop {
        tokio::select! {
            msg = host.recv() => if let ServerMsg::YourTurn { legal, .. } = msg
                && let Some(reply) = move_for(Seat(0), &legal)
            {
                host.send(&reply).await;
            },
            msg = staller.recv() => if matches!(msg, ServerMsg::YourTurn { .. }) {
                break msg;
            },
        }
    };
    assert!(
        matches!(
            prompt,
            ServerMsg::YourTurn {
                timeout_ms: None,
                ..
            }
        ),
        "no clock: {prompt:?}"
    );
    host.send(&ClientMsg::StandIn { seat: Seat(1) }).await;
    host_plays_to_the_end(&mut host).await;
    // Back for the next match: the seat is still the staller's.
    staller.send(&ClientMsg::Back {}).await;
    staller
        .recv_until(|m| matches!(m, ServerMsg::Table { table, .. } if !table.seats[1].bot_playing && table.seats[1].name.as_deref() == Some("Sam")))
        .await;
    server.stop();
}
