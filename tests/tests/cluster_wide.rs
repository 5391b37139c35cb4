//! What the cluster must show the same on every node, against three real `parlor serve`
//! nodes on one real, private Postgres: the leaderboard counts a match finished on any node.
//!
//! Every wait is bounded.

mod support;

use std::net::SocketAddr;
use std::time::Duration;

use parlor_shared::Seat;
use parlor_shared::protocol::{ClientMsg, Occupant, ServerMsg};
use parlor_tests::{Rng, WsClient, http, play_to_end, start};
use serde_json::{Value, json};
use support::{Backend, ServerProcess, Storage};

/// Starts node `name` of the cluster on `storage`'s Postgres database.
fn node(storage: &Storage, name: &str) -> ServerProcess {
    storage.start_with(&[
        "--node-id",
        name,
        "--lease-ms",
        "1000",
        "--cluster-secret",
        "test-secret",
    ])
}

/// A person and three built-in strategies play one short `tricks` match at a new table
/// opened through the node at `addr`; returns the table's id.
async fn play_a_match(addr: SocketAddr, seed: u64) -> String {
    let body = json!({"variant": "tricks", "options": {"target": 3}, "seed": seed});
    let (status, reply) = http(addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 201, "{reply}");
    let id = reply["id"].as_str().expect("an id").to_string();
    let mut host = WsClient::connect(addr).await;
    assert!(host.join(&id, "Ann").await);
    for (seat, strategy) in [(1u8, "random"), (2, "heuristic"), (3, "strong")] {
        host.send(&ClientMsg::AddBot {
            seat: Seat(seat),
            strategy: strategy.into(),
        })
        .await;
        host.recv_until(|m| {
            matches!(m, ServerMsg::Table { table, .. }
                if table.seats[seat as usize].occupant == Occupant::Bot)
        })
        .await;
    }
    let mut clients = vec![host];
    start(&mut clients).await;
    let winners = play_to_end(&mut clients, &mut Rng::new(seed)).await;
    assert!(!winners.is_empty());
    id
}

/// The `tricks` leaderboard as the node at `addr` answers it.
async fn board(addr: SocketAddr) -> Value {
    let (status, board) = http(addr, "GET", "/api/leaderboard?variant=tricks", None).await;
    assert_eq!(status, 200, "{board}");
    board
}

/// Each entrant's name and match count, by name.
fn counts(board: &Value) -> Vec<(String, u64)> {
    let mut counts: Vec<(String, u64)> = board["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| {
            (
                e["name"].as_str().expect("a name").to_string(),
                e["matches"].as_u64().expect("a count"),
            )
        })
        .collect();
    counts.sort();
    counts
}

/// Waits (at most 10 s) until the node at `addr` counts `matches` matches for each of the
/// three strategies; returns its board.
async fn until_counted(addr: SocketAddr, matches: u64) -> Value {
    let want: Vec<(String, u64)> = ["heuristic", "random", "strong"]
        .iter()
        .map(|n| ((*n).to_string(), matches))
        .collect();
    let mut last = Value::Null;
    for _ in 0..100 {
        last = board(addr).await;
        if counts(&last) == want {
            return last;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the node at {addr} never counted {matches} matches: {last}");
}

#[tokio::test]
async fn every_node_ranks_the_matches_finished_on_any_node() {
    let storage = Storage::new(Backend::Postgres, "cluster_ratings").await;
    let a = node(&storage, "a");
    let b = node(&storage, "b");
    let c = node(&storage, "c");
    for server in [&a, &b, &c] {
        assert!(counts(&board(server.addr).await).is_empty());
    }
    // One match through `a`, one through `b`: whichever nodes own the tables, every node's
    // board holds both, with the same standings.
    let first = play_a_match(a.addr, 1).await;
    let second = play_a_match(b.addr, 2).await;
    assert_ne!(first, second);
    let boards = [
        until_counted(a.addr, 2).await,
        until_counted(b.addr, 2).await,
        until_counted(c.addr, 2).await,
    ];
    for server in [&a, &b, &c] {
        let (status, one) = http(
            server.addr,
            "GET",
            "/api/leaderboard/builtin/strong?variant=tricks",
            None,
        )
        .await;
        assert_eq!(status, 200, "{one}");
        assert_eq!(one["matches"], 2, "{one}");
    }
    // Asking again counts nothing twice.
    assert_eq!(counts(&board(c.addr).await), counts(&boards[2]));
    for server in [a, b, c] {
        server.stop();
    }
}
