//! `parlor bot` decides from the view each `your_turn` carries: one round trip per move, no
//! `sync` in normal play. Its frames pass through a counting proxy on the way to a real
//! server.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use futures_util::{SinkExt, StreamExt};
use parlor_server::tools::remote_bot::{self, MoveSource, Target};
use parlor_shared::protocol::{ClientMsg, Occupant, ServerMsg};
use parlor_shared::{Event, Seat};
use parlor_tests::{Rng, TestServer, drive, short_options};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;

/// Frames counted on their way from the bots to the server.
#[derive(Default)]
struct Counts {
    syncs: AtomicUsize,
    moves: AtomicUsize,
}

/// A WebSocket proxy to `server`: returns its address; counts what clients send.
async fn counting_proxy(server: std::net::SocketAddr, counts: Arc<Counts>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let counts = counts.clone();
            tokio::spawn(async move {
                let Ok(client) = tokio_tungstenite::accept_async(stream).await else {
                    return;
                };
                let (upstream, _) = tokio_tungstenite::connect_async(format!("ws://{server}/ws"))
                    .await
                    .expect("connect to the server");
                let (mut to_client, mut from_client) = client.split();
                let (mut to_server, mut from_server) = upstream.split();
                let up = async {
                    while let Some(Ok(frame)) = from_client.next().await {
                        if let Message::Text(text) = &frame {
                            let msg: Value = serde_json::from_str(text).unwrap_or_default();
                            match msg["type"].as_str() {
                                Some("sync") => counts.syncs.fetch_add(1, Ordering::SeqCst),
                                Some("play" | "pass") => {
                                    counts.moves.fetch_add(1, Ordering::SeqCst)
                                }
                                _ => 0,
                            };
                        }
                        if to_server.send(frame).await.is_err() {
                            break;
                        }
                    }
                };
                let down = async {
                    while let Some(Ok(frame)) = from_server.next().await {
                        if to_client.send(frame).await.is_err() {
                            break;
                        }
                    }
                };
                tokio::select! { () = up => {}, () = down => {} }
            });
        }
    });
    format!("ws://{addr}")
}

#[tokio::test]
async fn parlor_bot_plays_a_whole_match_without_a_sync() {
    for variant in ["hearts", "whist"] {
        let server = TestServer::start().await;
        let counts = Arc::new(Counts::default());
        let url = counting_proxy(server.addr, counts.clone()).await;
        let id = server
            .create_table(json!({"variant": variant, "options": short_options(variant), "seed": 4}))
            .await;
        let mut host = server.client().await;
        assert!(host.join(&id, "Hana").await, "the first person hosts");
        let mut bots = Vec::new();
        for seat in 1..4u8 {
            let target = Target {
                url: url.clone(),
                table: id.clone(),
                seat: Some(Seat(seat)),
                name: format!("bot {seat}"),
                invitation: None,
            };
            bots.push(tokio::spawn(async move {
                remote_bot::play(&target, MoveSource::Strategy("heuristic".into(), 7), 0).await
            }));
        }
        host.recv_until(|m| {
            matches!(m, ServerMsg::Table { table, .. }
                if table.seats.iter().all(|s| s.occupant != Occupant::Empty))
        })
        .await;
        host.send(&ClientMsg::Start {}).await;
        let mut rng = Rng::new(3);
        let mut clients = [host];
        drive(&mut clients, &mut rng, |_, msg| {
            matches!(
                msg,
                ServerMsg::Event {
                    event: Event::MatchOver { .. },
                    ..
                }
            )
        })
        .await;
        for bot in bots {
            let outcome = bot.await.expect("the bot task").expect("the bot finished");
            assert!(outcome.moves > 0, "{variant}: {outcome:?}");
        }
        assert!(
            counts.moves.load(Ordering::SeqCst) > 20,
            "{variant}: the bots played through the proxy"
        );
        assert_eq!(
            counts.syncs.load(Ordering::SeqCst),
            0,
            "{variant}: parlor bot sent sync in normal play"
        );
    }
}
