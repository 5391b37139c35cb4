//! `parlor backup` during a live match and `parlor restore` into a fresh data directory: the
//! restored server has the table as it was when the backup was taken, and the players
//! reconnect with their seat tokens and finish the match.

mod support;

use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use parlor_shared::Event;
use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_tests::{WsClient, http};
use serde_json::{Value, json};
use support::{ServerProcess, TempDir, parlor_bin, play_moves};

/// Runs `parlor ARGS...` and checks it succeeds.
fn parlor(args: &[&str], data: &Path) {
    let out = Command::new(parlor_bin())
        .args(args)
        .arg("--data")
        .arg(data)
        .output()
        .expect("running parlor");
    assert!(
        out.status.success(),
        "parlor {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Joins a table again with a seat token; returns the client and its `state`.
async fn reconnect(addr: SocketAddr, id: &str, old: &WsClient) -> (WsClient, Value) {
    let mut client = WsClient::connect(addr).await;
    client
        .send(&ClientMsg::Join {
            table: id.to_string(),
            seat: None,
            name: None,
            token: old.token.clone(),
            bot: false,
        })
        .await;
    client
        .recv_until(|m| matches!(m, ServerMsg::State { .. }))
        .await;
    let state = serde_json::from_str(client.frames.last().expect("a frame")).expect("json");
    client.seat = old.seat;
    client.token.clone_from(&old.token);
    (client, state)
}

#[tokio::test]
async fn a_backup_taken_during_a_match_restores_to_a_server_that_finishes_it() {
    let live = TempDir::new("backup-live");
    let server = ServerProcess::start(live.path());
    let body = json!({
        "variant": "hearts",
        "options": {"target": 30},
        "seed": 77,
        "table_options": {"grace_ms": 600_000},
    });
    let (status, reply) = http(server.addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 201, "{reply}");
    let id = reply["id"].as_str().unwrap().to_string();
    let mut clients = Vec::new();
    for i in 0..4 {
        let mut client = WsClient::connect(server.addr).await;
        client.join(&id, &format!("p{i}")).await;
        clients.push(client);
    }
    clients[0].send(&ClientMsg::Start {}).await;
    let (_, last) = play_moves(&mut clients, 30, |_, _| false).await;
    // A snapshot after the last move: its answer waits until that move is on disk.
    let at_backup = clients[last.unwrap()].snapshot().await;

    let backup_file = live.path().join("parlor-backup.db");
    parlor(&["backup", backup_file.to_str().unwrap()], live.path());
    // The server goes on; these moves are not in the backup.
    play_moves(&mut clients, 6, |_, _| false).await;
    server.kill9();
    for client in &mut clients {
        while let Ok(Some(_)) =
            tokio::time::timeout(Duration::from_secs(10), client.try_recv()).await
        {}
    }

    let restored = TempDir::new("backup-restored");
    parlor(&["restore", backup_file.to_str().unwrap()], restored.path());
    let server = ServerProcess::start(restored.path());
    let mut resumed = Vec::new();
    for (i, old) in clients.iter().enumerate() {
        let (client, state) = reconnect(server.addr, &id, old).await;
        if Some(i) == last {
            assert_eq!(
                state["view"], at_backup["view"],
                "the game as it was backed up"
            );
        }
        resumed.push(client);
    }
    let (_, _) = play_moves(&mut resumed, usize::MAX, |i, msg| {
        i == 0
            && matches!(
                msg,
                ServerMsg::Event {
                    event: Event::MatchOver { .. },
                    ..
                }
            )
    })
    .await;
    let (_, table) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(table["status"], "finished", "{table}");
    server.stop();
}
