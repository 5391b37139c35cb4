//! What the cluster must show the same on every node, against three real `parlor serve`
//! nodes on one real, private Postgres: the leaderboard counts a match finished on any node,
//! the admin API closes and kicks at a table through a node that does not own it, and its
//! table list through one node holds every live node's tables.
//!
//! Every wait is bounded.

mod support;

use std::net::SocketAddr;
use std::time::Duration;

use parlor_shared::protocol::ServerMsg;
use parlor_tests::{WsClient, http};
use serde_json::{Value, json};
use support::{Backend, ServerProcess, Storage};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The nodes' admin key.
const ADMIN_KEY: &str = "s3cret";

/// Starts node `name` of the cluster on `storage`'s Postgres database.
fn node(storage: &Storage, name: &str) -> ServerProcess {
    storage.start_node(name, "1000", &["--admin-key", ADMIN_KEY])
}

/// `POST path` with the admin key `key` (if any) and `body`; the status and JSON answer.
async fn post(addr: SocketAddr, path: &str, key: Option<&str>, body: &str) -> (u16, Value) {
    request(addr, "POST", path, key, body).await
}

/// `GET path` with the admin key `key` (if any); the status and JSON answer.
async fn get(addr: SocketAddr, path: &str, key: Option<&str>) -> (u16, Value) {
    request(addr, "GET", path, key, "").await
}

/// One request with the admin key `key` (if any) and `body`; the status and JSON answer.
async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    key: Option<&str>,
    body: &str,
) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let auth = key.map_or(String::new(), |k| format!("Authorization: Bearer {k}\r\n"));
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut response = String::new();
    tokio::time::timeout(
        Duration::from_secs(20),
        stream.read_to_string(&mut response),
    )
    .await
    .expect("an answer within 20 s")
    .expect("read");
    let (head, body) = response.split_once("\r\n\r\n").expect("a head");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    (
        status,
        serde_json::from_str(body).unwrap_or(Value::String(body.into())),
    )
}

/// Which of `nodes` owns table `id` (by index), as their `GET /api/stats` say.
async fn owner_of(nodes: &[&ServerProcess], id: &str) -> usize {
    for (i, server) in nodes.iter().enumerate() {
        let (status, stats) = parlor_tests::http_with(
            server.addr,
            "GET",
            "/api/stats",
            &[("x-parlor-cluster-secret", "test-secret")],
            None,
        )
        .await;
        assert_eq!(status, 200, "{stats}");
        let owned = &stats["cluster"]["owned"];
        if owned.as_array().is_some_and(|t| t.iter().any(|t| t == id)) {
            return i;
        }
    }
    panic!("no node owns table {id}");
}

/// Reads until the connection ends (at most 20 s); the messages read.
async fn until_closed(client: &mut WsClient) -> Vec<ServerMsg> {
    let mut got = Vec::new();
    while let Ok(Some(msg)) = tokio::time::timeout(Duration::from_secs(20), client.try_recv()).await
    {
        got.push(msg);
    }
    got
}

/// A person and three built-in strategies play one short `tricks` match at a new table
/// opened through the node at `addr`; returns the table's id.
async fn play_a_match(addr: SocketAddr, seed: u64) -> String {
    let body = json!({"variant": "tricks", "options": {"target": 3}, "seed": seed});
    parlor_tests::play_with_computers(addr, &body, seed).await
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

#[tokio::test]
async fn the_admin_api_reaches_a_table_through_any_node() {
    let storage = Storage::new(Backend::Postgres, "cluster_admin").await;
    let a = node(&storage, "a");
    let b = node(&storage, "b");
    let c = node(&storage, "c");
    let nodes = [&a, &b, &c];
    let body = json!({"variant": "hearts", "table_options": {"grace_ms": 600_000}});
    let (status, reply) = http(a.addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 201, "{reply}");
    let id = reply["id"].as_str().expect("an id").to_string();
    let owner = owner_of(&nodes, &id).await;
    let other = nodes[(owner + 1) % 3];
    let mut ann = WsClient::connect(nodes[owner].addr).await;
    assert!(ann.join(&id, "Ann").await);
    // Bob plays through a node that does not own the table (relayed).
    let mut bob = WsClient::connect(other.addr).await;
    assert!(!bob.join(&id, "Bob").await);

    // The key is checked where the request comes in.
    let kick = format!("/api/admin/tables/{id}/seats/1/kick");
    assert_eq!(post(other.addr, &kick, Some("wrong"), "").await.0, 401);
    let (status, answer) = post(other.addr, &kick, Some(ADMIN_KEY), "").await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["kicked"], true, "{answer}");
    let got = until_closed(&mut bob).await;
    assert!(
        matches!(got.last(), Some(ServerMsg::Error { code, .. }) if code == "kicked"),
        "Bob is told he was kicked: {got:?}"
    );
    // The owner's refusal comes back as it is.
    let far = format!("/api/admin/tables/{id}/seats/9/kick");
    let (status, answer) = post(other.addr, &far, Some(ADMIN_KEY), "").await;
    assert_eq!(status, 404, "{answer}");
    assert_eq!(answer["code"], "no_such_seat", "{answer}");

    let close = format!("/api/admin/tables/{id}/close");
    let (status, answer) = post(
        other.addr,
        &close,
        Some(ADMIN_KEY),
        r#"{"reason": "maintenance"}"#,
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["closed"], true, "{answer}");
    let got = until_closed(&mut ann).await;
    match got.last() {
        Some(ServerMsg::Goodbye { reason }) => assert!(reason.contains("maintenance"), "{reason}"),
        other => panic!("Ann's last message is goodbye, not {other:?}"),
    }
    // Gone everywhere: no node finds it any more.
    for server in nodes {
        let (status, info) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
        assert_eq!(status, 404, "{info}");
        assert_eq!(post(server.addr, &close, Some(ADMIN_KEY), "").await.0, 404);
    }
    for server in [a, b, c] {
        server.stop();
    }
}

/// Sends `kill -SIGNAL` to a process.
fn signal(which: &str, pid: u32) {
    let status = std::process::Command::new("kill")
        .args([which, &pid.to_string()])
        .status()
        .expect("running kill");
    assert!(status.success(), "kill {which} failed");
}

/// The ids of the tables an admin list holds, with the node each is listed under.
fn listed(list: &Value) -> Vec<(String, String)> {
    let mut tables: Vec<(String, String)> = list["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .map(|t| {
            (
                t["table"]["id"].as_str().expect("an id").to_string(),
                t["node"].as_str().expect("a node").to_string(),
            )
        })
        .collect();
    tables.sort();
    tables
}

#[tokio::test]
async fn the_admin_table_list_through_one_node_holds_every_live_nodes_tables() {
    let storage = Storage::new(Backend::Postgres, "cluster_admin_list").await;
    // A long lease: a frozen node stays live (so it is asked, and its tables are not adopted)
    // for the whole test.
    let nodes: Vec<ServerProcess> = ["a", "b", "c"]
        .iter()
        .map(|name| {
            storage.start_with(&[
                "--node-id",
                name,
                "--lease-ms",
                "20000",
                "--cluster-secret",
                "test-secret",
                "--admin-key",
                ADMIN_KEY,
            ])
        })
        .collect();
    let refs: Vec<&ServerProcess> = nodes.iter().collect();
    // One table on each node (`?local=1`: on the node asked, not placed elsewhere).
    let mut ids = Vec::new();
    for (i, node) in nodes.iter().enumerate() {
        let body = json!({"variant": "hearts", "table_options": {"grace_ms": 600_000}});
        let (status, reply) = http(node.addr, "POST", "/api/tables?local=1", Some(&body)).await;
        assert_eq!(status, 201, "{reply}");
        let id = reply["id"].as_str().expect("an id").to_string();
        assert_eq!(
            owner_of(&refs, &id).await,
            i,
            "table {id} is on the node asked"
        );
        ids.push(id);
    }
    // Ann sits at c's table: the list through `a` shows her, as c describes its table.
    let mut ann = WsClient::connect(nodes[2].addr).await;
    assert!(ann.join(&ids[2], "Ann").await);

    let path = "/api/admin/tables";
    assert_eq!(get(nodes[0].addr, path, Some("wrong")).await.0, 401);
    let (status, list) = get(nodes[0].addr, path, Some(ADMIN_KEY)).await;
    assert_eq!(status, 200, "{list}");
    let mut want: Vec<(String, String)> = ids
        .iter()
        .zip(["a", "b", "c"])
        .map(|(id, node)| (id.clone(), node.to_string()))
        .collect();
    want.sort();
    assert_eq!(
        listed(&list),
        want,
        "every node's table, named by its owner: {list}"
    );
    assert_eq!(list["nodes"]["answered"], json!(["a", "b", "c"]), "{list}");
    assert_eq!(list["nodes"]["missing"], json!([]), "{list}");
    let at_c = list["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .find(|t| t["table"]["id"] == ids[2].as_str())
        .expect("c's table");
    assert_eq!(at_c["players"][0], "Ann", "{at_c}");
    assert_eq!(at_c["sessions"].as_array().map(Vec::len), Some(1), "{at_c}");
    // `?local=1` is the node's own part, as the nodes ask each other.
    let (status, own) = get(nodes[1].addr, "/api/admin/tables?local=1", Some(ADMIN_KEY)).await;
    assert_eq!(status, 200, "{own}");
    assert_eq!(
        listed(&own),
        vec![(ids[1].clone(), "b".to_string())],
        "{own}"
    );
    assert!(own.get("nodes").is_none(), "{own}");

    // c frozen: still live for its lease, but it does not answer. The list through b comes
    // without c's table and says so.
    signal("-STOP", nodes[2].pid());
    let (status, list) = get(nodes[1].addr, path, Some(ADMIN_KEY)).await;
    signal("-CONT", nodes[2].pid());
    assert_eq!(status, 200, "{list}");
    let mut want: Vec<(String, String)> = vec![
        (ids[0].clone(), "a".to_string()),
        (ids[1].clone(), "b".to_string()),
    ];
    want.sort();
    assert_eq!(listed(&list), want, "{list}");
    assert_eq!(list["nodes"]["answered"], json!(["b", "a"]), "{list}");
    assert_eq!(list["nodes"]["missing"], json!(["c"]), "{list}");
    drop(ann);
    for node in nodes {
        node.stop();
    }
}
