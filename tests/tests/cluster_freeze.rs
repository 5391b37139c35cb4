//! Not a test but a measurement (`cargo test -p parlor-tests --test cluster_freeze --
//! --ignored --nocapture`): how long a table's players wait when its owner freezes (SIGSTOP)
//! while they are relayed to it through another node, from the freeze to the first move
//! accepted at the node that adopted the table. Each trial has a database of its own, so no
//! earlier trial's table is adopted meanwhile. Prints the figures; asserts only that every
//! trial recovered. Every wait is bounded.

mod support;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_tests::WsClient;
use serde_json::json;
use support::{Backend, ServerProcess, Storage, play_moves};

/// The lease the nodes take on their tables, in milliseconds.
const LEASE_MS: &str = "1000";

/// How many freezes are timed.
const TRIALS: usize = 6;

/// Starts node `name` of the cluster on `storage`'s Postgres database.
fn node(storage: &Storage, name: &str) -> ServerProcess {
    storage.start_node(name, LEASE_MS, &[])
}

/// Sends a signal to a process.
fn signal(which: &str, pid: u32) {
    let status = std::process::Command::new("kill")
        .args([which, &pid.to_string()])
        .status()
        .expect("running kill");
    assert!(status.success(), "kill {which} failed");
}

/// Creates a hearts table on the node at `addr` and seats four players through `through`,
/// the first of whom starts the match.
async fn started_table(
    addr: SocketAddr,
    through: SocketAddr,
    seed: u64,
) -> (String, Vec<WsClient>) {
    let body = json!({
        "variant": "hearts",
        "options": {"target": 100},
        "seed": seed,
        "table_options": {"grace_ms": 600_000},
    });
    let (status, reply) = parlor_tests::http(addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 201, "{reply}");
    let id = reply["id"].as_str().expect("an id").to_string();
    let mut clients = Vec::new();
    for i in 0..4 {
        let mut client = WsClient::connect(through).await;
        client.join(&id, &format!("p{i}")).await;
        clients.push(client);
    }
    clients[0].send(&ClientMsg::Start {}).await;
    (id, clients)
}

/// Reads until the connection ends (at most 20 s).
async fn until_closed(client: &mut WsClient) {
    while let Ok(Some(_)) = tokio::time::timeout(Duration::from_secs(20), client.try_recv()).await {
    }
}

/// Reconnects with a seat token through `addr`, once welcomed.
async fn reconnect(addr: SocketAddr, id: &str, token: &str) -> WsClient {
    let mut client = WsClient::connect(addr).await;
    client.send_rejoin(id, token).await;
    let welcome = client.recv().await;
    assert!(
        matches!(welcome, ServerMsg::Welcome { .. }),
        "expected welcome, got {welcome:?}"
    );
    client
}

#[tokio::test]
#[ignore = "a measurement: run it by name"]
async fn freeze_time() {
    let mut times = Vec::new();
    for trial in 0..TRIALS {
        let storage = Storage::new(Backend::Postgres, &format!("cluster_freeze_{trial}")).await;
        let a = node(&storage, "a");
        let b = node(&storage, "b");
        // Opened on a (neither node holds a table), every player relayed to it by b.
        let (id, mut clients) = started_table(a.addr, b.addr, trial as u64).await;
        let (sent, _) = play_moves(&mut clients, 6, |_, _| false).await;
        assert_eq!(sent, 6);
        let tokens: Vec<String> = clients
            .iter()
            .map(|c| c.token.clone().expect("a token"))
            .collect();
        let frozen = Instant::now();
        signal("-STOP", a.pid());
        for client in &mut clients {
            until_closed(client).await;
        }
        let mut back = Vec::new();
        for token in &tokens {
            back.push(reconnect(b.addr, &id, token).await);
        }
        let (sent, _) = play_moves(&mut back, 1, |_, _| false).await;
        assert_eq!(sent, 1);
        // The move is accepted once its event comes back to the table.
        parlor_tests::next_any(&mut back).await;
        let ms = frozen.elapsed().as_secs_f64() * 1000.0;
        println!("trial {trial}: freeze to first move after adoption {ms:.0} ms");
        times.push(ms);
        signal("-CONT", a.pid());
        drop(back);
        drop(clients);
        a.stop();
        b.stop();
    }
    times.sort_by(f64::total_cmp);
    println!(
        "freeze (lease {LEASE_MS} ms, {TRIALS} trials): min {:.0} ms, median {:.0} ms, max {:.0} ms",
        times[0],
        times[TRIALS / 2],
        times[TRIALS - 1]
    );
}
