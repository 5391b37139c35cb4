//! The cluster, against real `parlor serve` nodes on one real, private Postgres: a match whose
//! players connect through three different nodes (relayed to the table's owner, and no card
//! leaks on a relayed connection); the owner killed with SIGKILL mid-trick, its table adopted
//! by another node and finished exactly as without the crash; and a split brain: the owner
//! frozen past its lease while another node adopts the table and plays on, then thawed, its
//! stale write refused, its clients moved, the stored log holding each move once.
//!
//! Leases are short (1 s) so adoption comes quickly; every wait is bounded.

mod support;

use std::net::SocketAddr;
use std::time::Duration;

use parlor_shared::Event;
use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_tests::{WsClient, http};
use serde_json::{Value, json};
use support::{Backend, ServerProcess, Storage, all_hands, cluster_stats, play_moves, play_to_end};

/// The lease the nodes take on their tables, in milliseconds.
const LEASE_MS: &str = "1000";

/// Starts node `name` of the cluster on `storage`'s Postgres database.
fn node(storage: &Storage, name: &str) -> ServerProcess {
    storage.start_node(name, LEASE_MS, &[])
}

/// Creates a hearts table with a fixed seed on the node at `addr`.
async fn create_table(addr: SocketAddr, seed: u64) -> String {
    let body = json!({
        "variant": "hearts",
        "options": {"target": 30},
        "seed": seed,
        "table_options": {"grace_ms": 600_000, "listed": true},
    });
    let (status, reply) = http(addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 201, "{reply}");
    reply["id"].as_str().expect("an id").to_string()
}

/// Seats one player per address (in order) and starts the match from the first.
async fn seat_players(id: &str, through: &[SocketAddr]) -> Vec<WsClient> {
    let mut clients = Vec::new();
    for (i, addr) in through.iter().enumerate() {
        let mut client = WsClient::connect(*addr).await;
        let host = client.join(id, &format!("p{i}")).await;
        assert_eq!(host, i == 0);
        clients.push(client);
    }
    clients[0].send(&ClientMsg::Start {}).await;
    clients
}

/// Waits (at most 20 s) until the node at `addr` owns table `id`.
async fn until_owned(addr: SocketAddr, id: &str, log: impl Fn() -> String) {
    for _ in 0..200 {
        let owned = cluster_stats(addr).await["owned"].clone();
        if owned.as_array().is_some_and(|t| t.iter().any(|t| t == id)) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the node never adopted table {id}; its log:\n{}", log());
}

/// Reads until the connection ends (at most 20 s), returning whether `goodbye` came.
async fn until_closed(client: &mut WsClient) -> bool {
    let mut goodbye = false;
    while let Ok(Some(msg)) = tokio::time::timeout(Duration::from_secs(20), client.try_recv()).await
    {
        goodbye |= matches!(msg, ServerMsg::Goodbye { .. });
    }
    goodbye
}

/// Reconnects with a seat token through `addr`; returns the client and its `state` frame.
async fn reconnect(addr: SocketAddr, id: &str, token: &str) -> (WsClient, Value) {
    let mut client = WsClient::connect(addr).await;
    client.send_rejoin(id, token).await;
    let welcome = client.recv().await;
    assert!(
        matches!(welcome, ServerMsg::Welcome { .. }),
        "expected welcome, got {welcome:?}"
    );
    client
        .recv_until(|m| matches!(m, ServerMsg::State { .. }))
        .await;
    let state = serde_json::from_str(client.frames.last().expect("a frame")).expect("json");
    (client, state)
}

/// Snapshots from every client, the last mover first (its move is then applied).
async fn snapshots(clients: &mut [WsClient], last: Option<usize>) -> Vec<Value> {
    let mut order: Vec<usize> = (0..clients.len()).collect();
    if let Some(last) = last {
        order.retain(|&i| i != last);
        order.insert(0, last);
    }
    let mut shots = vec![Value::Null; clients.len()];
    for i in order {
        shots[i] = clients[i].snapshot().await;
    }
    shots
}

/// The reference: the same match (same seed, same moves) played straight through on one
/// node, its finished hands.
async fn reference_hands(seed: u64) -> Vec<Value> {
    let storage = Storage::new(Backend::Postgres, "cluster_reference").await;
    let server = node(&storage, "solo");
    let id = create_table(server.addr, seed).await;
    let mut clients = seat_players(&id, &[server.addr; 4]).await;
    play_to_end(&mut clients).await;
    let hands = all_hands(server.addr, &id).await;
    assert!(hands.len() >= 2, "the match lasts more than one hand");
    server.stop();
    hands
}

/// Four players through three nodes: two at the owner, one relayed by each other node. The
/// match plays to its end, the other nodes list the table and serve its hands, and no
/// frame on any connection, relayed or not, shows a card its recipient may not see.
#[tokio::test]
async fn a_match_plays_through_three_nodes_and_relays_leak_no_card() {
    let storage = Storage::new(Backend::Postgres, "cluster_three").await;
    let a = node(&storage, "a");
    let b = node(&storage, "b");
    let c = node(&storage, "c");
    let id = create_table(a.addr, 77).await;
    let mut clients = seat_players(&id, &[a.addr, a.addr, b.addr, c.addr]).await;
    play_to_end(&mut clients).await;
    for (i, client) in clients.iter_mut().enumerate() {
        if !client.frames.iter().any(|f| f.contains("match_over")) {
            let over = |m: &ServerMsg| {
                matches!(
                    m,
                    ServerMsg::Event {
                        event: Event::MatchOver { .. },
                        ..
                    }
                )
            };
            tokio::time::timeout(Duration::from_secs(20), client.recv_until(over))
                .await
                .unwrap_or_else(|_| panic!("client {i} never saw the match end"));
        }
        let seat = client.seat.expect("seated");
        let leaks = parlor_tests::secrecy::violations(&client.frames, Some(seat));
        assert!(leaks.is_empty(), "client {i} (seat {seat}) saw: {leaks:?}");
    }
    // Every node's lobby lists the table; the owner names itself, the others do not own it.
    for server in [&a, &b, &c] {
        let (status, list) = http(server.addr, "GET", "/api/tables", None).await;
        assert_eq!(status, 200);
        assert!(
            list.as_array()
                .is_some_and(|t| t.iter().any(|t| t["id"] == id.as_str())),
            "the lobby of every node lists the table: {list}"
        );
        let (status, info) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
        assert_eq!(status, 200, "{info}");
        assert_eq!(info["seats"][3]["name"], "p3");
    }
    let stats = cluster_stats(a.addr).await;
    assert_eq!(stats["node"], "a");
    assert!(
        stats["owned"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t == id.as_str()))
    );
    assert_eq!(stats["nodes"].as_array().map(Vec::len), Some(3), "{stats}");
    let elsewhere = cluster_stats(c.addr).await;
    assert!(
        elsewhere["tables_owned"] == 0 && elsewhere.get("owned").is_none(),
        "{elsewhere}"
    );
    // The hands are read from the database by any node.
    assert_eq!(all_hands(c.addr, &id).await, all_hands(a.addr, &id).await);
    for server in [a, b, c] {
        server.stop();
    }
}

/// SIGKILL the owner in the middle of a trick: another node adopts the table from the log,
/// the players reconnect with their tokens (through that node), find the game as it was,
/// and the match ends exactly as the same match played without a crash.
#[tokio::test]
async fn the_owner_killed_mid_trick_its_table_is_adopted_and_ends_as_without_the_crash() {
    const SEED: u64 = 4242;
    let reference = reference_hands(SEED).await;

    let storage = Storage::new(Backend::Postgres, "cluster_failover").await;
    let a = node(&storage, "a");
    let b = node(&storage, "b");
    let id = create_table(a.addr, SEED).await;
    let mut clients = seat_players(&id, &[a.addr; 4]).await;
    // The second hand: 4 passes and 52 cards, then 4 passes and 2 cards of the first trick.
    let (sent, last) = play_moves(&mut clients, 62, |_, _| false).await;
    assert_eq!(sent, 62);
    let before = snapshots(&mut clients, last).await;
    assert_eq!(
        before[0]["view"]["trick"]["plays"].as_array().map(Vec::len),
        Some(2),
        "mid-trick"
    );
    let tokens: Vec<String> = clients
        .iter()
        .map(|c| c.token.clone().expect("a token"))
        .collect();
    a.kill9();
    for client in &mut clients {
        until_closed(client).await;
    }
    // The players come back through the surviving node straight away: their joins wait
    // there until the dead node's lease has run out and the table is adopted.
    let mut resumed = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let (client, state) = reconnect(b.addr, &id, token).await;
        assert_eq!(
            state["view"], before[i]["view"],
            "seat {i} sees the same game"
        );
        assert_eq!(state["seq"], before[i]["seq"], "the event counter goes on");
        resumed.push(client);
    }
    let stats = cluster_stats(b.addr).await;
    assert_eq!(stats["adoptions"], 1, "{stats}");
    assert!(
        stats["owned"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t == id.as_str()))
    );
    play_to_end(&mut resumed).await;
    let after = all_hands(b.addr, &id).await;
    assert_eq!(after.len(), reference.len(), "as many hands");
    for (n, (x, y)) in reference.iter().zip(&after).enumerate() {
        assert_eq!(x, y, "hand {n} is the same with and without the crash");
    }
    b.stop();
}

/// Split brain: the owner frozen (SIGSTOP) past its lease; another node adopts the table and
/// the players play on there; the old owner thawed (SIGCONT) tries to store a line of chat
/// it had been sent meanwhile: the database refuses it, the old owner drops the table and
/// tells its clients to reconnect, and the stored log holds every move exactly once (the
/// match ends as the same match without any of this).
#[tokio::test]
async fn a_frozen_owner_is_fenced_when_it_wakes_and_every_move_is_stored_once() {
    const SEED: u64 = 99;
    let reference = reference_hands(SEED).await;

    let storage = Storage::new(Backend::Postgres, "cluster_split").await;
    let a = node(&storage, "a");
    let b = node(&storage, "b");
    let id = create_table(a.addr, SEED).await;
    let mut old = seat_players(&id, &[a.addr; 4]).await;
    let (sent, last) = play_moves(&mut old, 20, |_, _| false).await;
    assert_eq!(sent, 20);
    let before = snapshots(&mut old, last).await;
    let tokens: Vec<String> = old
        .iter()
        .map(|c| c.token.clone().expect("a token"))
        .collect();

    signal("-STOP", a.pid());
    until_owned(b.addr, &id, || b.log()).await;
    // A line said to the frozen node: it reaches it only when it wakes.
    old[0]
        .send(&ClientMsg::Chat {
            text: "still here?".into(),
        })
        .await;
    let mut moved = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let (client, state) = reconnect(b.addr, &id, token).await;
        assert_eq!(
            state["view"], before[i]["view"],
            "seat {i} sees the same game"
        );
        moved.push(client);
    }
    let (sent, _) = play_moves(&mut moved, 10, |_, _| false).await;
    assert_eq!(sent, 10);

    signal("-CONT", a.pid());
    for (i, client) in old.iter_mut().enumerate() {
        let mut heard = Vec::new();
        while let Ok(Some(msg)) =
            tokio::time::timeout(Duration::from_secs(20), client.try_recv()).await
        {
            heard.push(msg);
        }
        assert!(
            heard.iter().any(|m| matches!(m, ServerMsg::Goodbye { .. })),
            "old client {i} was told to reconnect: {heard:?}"
        );
        // Only that: the thawed node does not first say it cannot save.
        assert!(
            !heard
                .iter()
                .any(|m| matches!(m, ServerMsg::Storage { saving: false, .. })),
            "old client {i} heard \"can't save\" before \"moved\": {heard:?}"
        );
    }
    let mut fenced = Value::Null;
    for _ in 0..100 {
        fenced = cluster_stats(a.addr).await;
        if fenced["refused_writes"].as_u64().unwrap_or(0) >= 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        fenced["refused_writes"].as_u64().unwrap_or(0) >= 1,
        "the thawed node's write was refused: {fenced}\n{}",
        a.log()
    );
    assert!(
        !fenced["owned"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t == id.as_str())),
        "the thawed node dropped the table: {fenced}"
    );
    assert!(a.log().contains("stale write refused"), "{}", a.log());

    play_to_end(&mut moved).await;
    let after = all_hands(b.addr, &id).await;
    assert_eq!(after.len(), reference.len(), "as many hands");
    for (n, (x, y)) in reference.iter().zip(&after).enumerate() {
        assert_eq!(x, y, "hand {n} is the same as without the split brain");
    }
    // Each move once in the stored log: as many as the reference match made, no more.
    let stored = storage.stored_actions(&id).await;
    let reference_moves: usize = reference
        .iter()
        .map(|hand| {
            let passes = hand["passes"].as_array().map_or(0, Vec::len);
            let plays: usize = hand["tricks"].as_array().map_or(0, |t| {
                t.iter()
                    .map(|t| t["plays"].as_array().map_or(0, Vec::len))
                    .sum()
            });
            passes + plays
        })
        .sum();
    assert!(
        reference_moves > 52,
        "the reference has more than a hand of moves"
    );
    assert_eq!(
        stored.len(),
        reference_moves,
        "every move stored exactly once"
    );
    a.stop();
    b.stop();
}

/// Sends a signal to a process.
fn signal(which: &str, pid: u32) {
    let status = std::process::Command::new("kill")
        .args([which, &pid.to_string()])
        .status()
        .expect("running kill");
    assert!(status.success(), "kill {which} failed");
}

/// SIGTERM drains a node: it stores what its tables did, lets their leases go and exits
/// cleanly; its players reconnect through another node, which adopts the table at once, and
/// the match goes on from where it was.
#[tokio::test]
async fn sigterm_drains_a_node_and_its_table_goes_on_elsewhere() {
    let storage = Storage::new(Backend::Postgres, "cluster_drain").await;
    let a = node(&storage, "a");
    let b = node(&storage, "b");
    let id = create_table(a.addr, 5).await;
    let mut clients = seat_players(&id, &[a.addr; 4]).await;
    let (sent, last) = play_moves(&mut clients, 30, |_, _| false).await;
    assert_eq!(sent, 30);
    let before = snapshots(&mut clients, last).await;
    let tokens: Vec<String> = clients
        .iter()
        .map(|c| c.token.clone().expect("a token"))
        .collect();
    a.stop();
    for (i, client) in clients.iter_mut().enumerate() {
        assert!(until_closed(client).await, "client {i} was told goodbye");
    }
    let mut moved = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let (client, state) = reconnect(b.addr, &id, token).await;
        assert_eq!(
            state["view"], before[i]["view"],
            "seat {i} sees the same game"
        );
        assert_eq!(state["seq"], before[i]["seq"], "the event counter goes on");
        moved.push(client);
    }
    play_to_end(&mut moved).await;
    let stats = cluster_stats(b.addr).await;
    assert_eq!(stats["adoptions"], 1, "{stats}");
    b.stop();
}

/// A new table opens on the least-loaded node: with one table on `a` and none on `b`, the
/// next table asked of `a` is opened (and owned) by `b`, and its players reach it through
/// `a` all the same.
#[tokio::test]
async fn a_new_table_opens_on_the_least_loaded_node() {
    let storage = Storage::new(Backend::Postgres, "cluster_placement").await;
    let a = node(&storage, "a");
    let b = node(&storage, "b");
    let first = create_table(a.addr, 1).await;
    let second = create_table(a.addr, 2).await;
    let owned = |stats: &Value, id: &str| {
        stats["owned"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t == id))
    };
    let on_a = cluster_stats(a.addr).await;
    let on_b = cluster_stats(b.addr).await;
    assert!(owned(&on_a, &first), "{on_a}");
    assert!(owned(&on_b, &second), "{on_b}\n{}", a.log());
    assert!(!owned(&on_a, &second), "{on_a}");
    let mut client = WsClient::connect(a.addr).await;
    assert!(client.join(&second, "p0").await, "the first to join hosts");
    a.stop();
    b.stop();
}

/// Not a test but a measurement (`cargo test -p parlor-tests --test cluster -- --ignored
/// --nocapture failover_time`): over ten trials, the time from SIGKILL of a table's owner to
/// the first move accepted after another node adopted it, the players reconnecting through
/// that node at once. Prints the figures; asserts only that every trial recovered.
#[tokio::test]
#[ignore = "a measurement: run it by name"]
async fn failover_time() {
    let storage = Storage::new(Backend::Postgres, "cluster_failover_time").await;
    let mut times = Vec::new();
    for trial in 0..10 {
        let a = node(&storage, &format!("a{trial}"));
        let b = node(&storage, &format!("b{trial}"));
        let id = create_table(a.addr, trial).await;
        let mut clients = seat_players(&id, &[a.addr; 4]).await;
        play_moves(&mut clients, 6, |_, _| false).await;
        let tokens: Vec<String> = clients
            .iter()
            .map(|c| c.token.clone().expect("a token"))
            .collect();
        let killed = std::time::Instant::now();
        a.kill9();
        drop(clients);
        let mut back = Vec::new();
        for token in &tokens {
            back.push(reconnect(b.addr, &id, token).await.0);
        }
        let (sent, _) = play_moves(&mut back, 1, |_, _| false).await;
        assert_eq!(sent, 1);
        // The move is accepted once its event comes back to the mover's table.
        parlor_tests::next_any(&mut back).await;
        let ms = killed.elapsed().as_secs_f64() * 1000.0;
        println!("trial {trial}: kill to first move after adoption {ms:.0} ms");
        times.push(ms);
        b.stop();
    }
    times.sort_by(f64::total_cmp);
    println!(
        "failover (lease {LEASE_MS} ms, 10 trials): min {:.0} ms, median {:.0} ms, max {:.0} ms",
        times[0], times[5], times[9]
    );
}

/// A frozen owner (SIGSTOP) keeps its TCP connections open: the node relaying the players to
/// it notices it has gone silent and that the table went on elsewhere, and tells them to
/// reconnect while the owner is still frozen; reconnecting, they find the same game at the
/// adopting node and play on.
#[tokio::test]
async fn relayed_players_leave_a_frozen_owner_by_themselves() {
    let storage = Storage::new(Backend::Postgres, "cluster_frozen_relay").await;
    let a = node(&storage, "a");
    let b = node(&storage, "b");
    let id = create_table(a.addr, 21).await;
    // Every player comes in through b, which pipes them to a, the table's owner.
    let mut relayed = seat_players(&id, &[b.addr; 4]).await;
    let (sent, last) = play_moves(&mut relayed, 12, |_, _| false).await;
    assert_eq!(sent, 12);
    let before = snapshots(&mut relayed, last).await;
    let tokens: Vec<String> = relayed
        .iter()
        .map(|c| c.token.clone().expect("a token"))
        .collect();

    signal("-STOP", a.pid());
    for (i, client) in relayed.iter_mut().enumerate() {
        assert!(
            until_closed(client).await,
            "relayed player {i} was told to reconnect while the owner is frozen; b's log:\n{}",
            b.log()
        );
    }
    let mut moved = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let (client, state) = reconnect(b.addr, &id, token).await;
        assert_eq!(
            state["view"], before[i]["view"],
            "seat {i} sees the same game"
        );
        moved.push(client);
    }
    let (sent, _) = play_moves(&mut moved, 8, |_, _| false).await;
    assert_eq!(sent, 8, "play goes on at the adopting node");
    assert!(
        b.log().contains("moved on from a silent node"),
        "{}",
        b.log()
    );
    signal("-CONT", a.pid());
    a.stop();
    b.stop();
}
