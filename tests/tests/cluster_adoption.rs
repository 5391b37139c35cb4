//! A node holding many tables killed at once: three nodes on one real Postgres, one of them
//! owning 36 live tables (each a person's turn mid-hand, three built-in bots waiting for
//! them) and 6 finished ones. Killed with SIGKILL, its live tables are adopted by the two
//! survivors in one adoption round each (the `round` of every survivor's "table adopted"
//! lines is one number), shared between them, and every game goes on: the person,
//! reconnecting through a survivor, has a move accepted at each table. The finished tables
//! are adopted as well (a finished table may start its next match), never before a live one.
//!
//! 36 live tables shared by two survivors leave one of them at least 18: adoption limited to
//! 16 tables a round would take two rounds there, and this test would fail.
//!
//! Prints how long each table waited, from the kill to its first move accepted.

mod support;

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use parlor_shared::Event;
use parlor_shared::protocol::ServerMsg;
use parlor_shared::{Legal, Seat};
use parlor_tests::{WsClient, http};
use serde_json::json;
use sha2::{Digest, Sha256};
use support::{Backend, ServerProcess, Storage, cluster_stats, move_for};

/// The lease the nodes take on their tables, in milliseconds: the default, so a node held up
/// for a second or two on a busy machine neither loses its tables nor looks dead to the
/// other survivor while the dead node's tables are shared.
const LEASE_MS: &str = "3000";

/// Live tables on the node killed: over twice 16, so a survivor gets more than 16.
const LIVE: usize = 36;

/// Finished tables on the node killed.
const FINISHED: usize = 6;

/// The bound on every wait for one message or one condition.
const WAIT: Duration = Duration::from_secs(60);

/// Starts node `name` on `storage`'s Postgres database.
fn node(storage: &Storage, name: &str) -> ServerProcess {
    storage.start_node(
        name,
        LEASE_MS,
        &[
            // One address opens every table and connection of the test.
            "--max-connections-per-ip",
            "0",
            "--tables-per-ip",
            "0",
            "--tables-per-ip-per-minute",
            "0",
        ],
    )
}

/// A hearts table to `target` points on the node at `addr`, a person in seat 0 (seats kept
/// ten minutes while away) and three built-in bots, started; returns its id and the person.
async fn table_with_bots(addr: SocketAddr, target: i32) -> (String, WsClient) {
    let body = json!({"variant": "hearts", "options": {"target": target},
                      "table_options": {"grace_ms": 600_000}});
    let (status, reply) = http(addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 201, "{reply}");
    let id = reply["id"].as_str().expect("an id").to_string();
    let mut person = WsClient::connect(addr).await;
    assert!(person.join(&id, "person").await, "the first to join hosts");
    person
        .seat_bots_and_start(&["random", "random", "random"])
        .await;
    (id, person)
}

/// Waits for the person's next prompt; returns what it may do.
async fn next_prompt(person: &mut WsClient) -> Legal {
    loop {
        let msg = tokio::time::timeout(WAIT, person.recv())
            .await
            .expect("a prompt within the bound");
        match msg {
            ServerMsg::YourTurn { legal, .. } => return legal,
            ServerMsg::Error { code, message } => panic!("an error: {code}: {message}"),
            _ => {}
        }
    }
}

/// A live table: the person passes, then it is their turn to play (mid-hand).
async fn live_table(addr: SocketAddr) -> (String, String) {
    let (id, mut person) = table_with_bots(addr, 100).await;
    let pass = next_prompt(&mut person).await;
    assert!(matches!(pass, Legal::Pass { .. }), "{pass:?}");
    person
        .send(&move_for(Seat(0), &pass).expect("a pass"))
        .await;
    let play = next_prompt(&mut person).await;
    assert!(matches!(play, Legal::Play { .. }), "{play:?}");
    let token = person.token.clone().expect("a seat token");
    person.close().await;
    (id, token)
}

/// A finished table: one hand to a target of one point, played to the match's end.
async fn finished_table(addr: SocketAddr) -> String {
    let (id, mut person) = table_with_bots(addr, 1).await;
    loop {
        let msg = tokio::time::timeout(WAIT, person.recv())
            .await
            .expect("the match ends within the bound");
        match msg {
            ServerMsg::YourTurn { legal, .. } => {
                if let Some(reply) = move_for(Seat(0), &legal) {
                    person.send(&reply).await;
                }
            }
            ServerMsg::Event {
                event: Event::MatchOver { .. },
                ..
            } => break,
            ServerMsg::Error { code, message } => panic!("an error: {code}: {message}"),
            _ => {}
        }
    }
    person.close().await;
    id
}

/// Back at table `id` with the seat's token through `addr`, once the table is open again
/// (a join that finds it still moving is tried again); then one move, waited for until the
/// table accepts it. Returns how long after `killed` it was accepted.
async fn move_after_failover(addr: SocketAddr, id: &str, token: &str, killed: Instant) -> f64 {
    let deadline = Instant::now() + WAIT;
    let mut person = loop {
        assert!(Instant::now() < deadline, "table {id} never came back");
        let mut person = WsClient::connect(addr).await;
        person.send_rejoin(id, token).await;
        // Anything but a welcome (an error, the connection closed) is tried again.
        match tokio::time::timeout(WAIT, person.try_recv()).await {
            Ok(Some(ServerMsg::Welcome { .. })) => break person,
            Ok(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            Err(_) => panic!("no answer to a join at table {id}"),
        }
    };
    let legal = next_prompt(&mut person).await;
    person
        .send(&move_for(Seat(0), &legal).expect("a play"))
        .await;
    loop {
        let msg = tokio::time::timeout(WAIT, person.recv())
            .await
            .expect("the move accepted within the bound");
        match msg {
            ServerMsg::Event {
                event: Event::Played { seat: Seat(0), .. },
                ..
            } => return killed.elapsed().as_secs_f64() * 1000.0,
            ServerMsg::Error { code, message } => panic!("an error: {code}: {message}"),
            _ => {}
        }
    }
}

/// How the nodes' logs name a table (`t-` and the first 4 bytes of its id's SHA-256).
fn log_tag(id: &str) -> String {
    let digest = Sha256::digest(id.as_bytes());
    format!("t-{}", hex::encode(&digest[..4]))
}

/// The value of field `name` in a text log line, if it has it.
fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    line.split_whitespace()
        .find_map(|word| word.strip_prefix(name)?.strip_prefix('='))
}

/// A node's adoptions as its log has them, in order: (table tag, round).
fn adoptions(log: &str) -> Vec<(String, u64)> {
    log.lines()
        .filter(|line| line.contains("table adopted"))
        .map(|line| {
            let table = field(line, "table").expect("a table field").to_string();
            let round = field(line, "round")
                .and_then(|r| r.parse().ok())
                .unwrap_or_else(|| panic!("a round field: {line}"));
            (table, round)
        })
        .collect()
}

/// Every lease of the test's database: table to (node, epoch).
async fn leases(storage: &Storage) -> HashMap<String, (String, i64)> {
    let (pg, url) = storage.postgres.as_ref().expect("a Postgres");
    let name = url.rsplit('/').next().expect("a database name");
    let db = pg.connect(name).await;
    db.query("SELECT table_id, node, epoch FROM leases", &[])
        .await
        .expect("the leases")
        .iter()
        .map(|row| (row.get(0), (row.get(1), row.get(2))))
        .collect()
}

#[tokio::test]
async fn a_killed_node_s_live_tables_are_all_adopted_in_one_round_and_play_on() {
    let storage = Storage::new(Backend::Postgres, "cluster_adoption").await;
    // Alone at first, so every table opens on it.
    let a = node(&storage, "a");
    let mut live = Vec::new();
    for _ in 0..LIVE {
        live.push(live_table(a.addr).await);
    }
    let mut finished = Vec::new();
    for _ in 0..FINISHED {
        finished.push(finished_table(a.addr).await);
    }
    let b = node(&storage, "b");
    let c = node(&storage, "c");
    let before = leases(&storage).await;
    for id in live.iter().map(|(id, _)| id).chain(&finished) {
        let (owner, epoch) = before.get(id).expect("a lease for every table");
        assert_eq!((owner.as_str(), *epoch), ("a", 1), "table {id} is a's");
    }
    // The survivors know each other before the kill (their heartbeats share the tables).
    let mut live_nodes = 0;
    for _ in 0..100 {
        let nodes = cluster_stats(b.addr).await["nodes"].clone();
        live_nodes = nodes
            .as_array()
            .map_or(0, |n| n.iter().filter(|n| n["live"] == true).count());
        if live_nodes == 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(live_nodes, 3, "every node has said it is alive");

    let killed = Instant::now();
    a.kill9();
    let survivors = [b.addr, c.addr];
    let waits = futures_util::future::join_all(
        live.iter()
            .enumerate()
            .map(|(i, (id, token))| move_after_failover(survivors[i % 2], id, token, killed)),
    )
    .await;

    // Every table, finished ones too, is the survivors' at the next epoch.
    let after = leases(&storage).await;
    let mut owners: HashMap<&str, usize> = HashMap::new();
    for (id, _) in &live {
        let (owner, epoch) = after.get(id).expect("a lease for every live table");
        assert!(
            owner == "b" || owner == "c",
            "table {id} is owned by {owner}"
        );
        assert_eq!(*epoch, 2, "table {id} was adopted once");
        *owners.entry(owner.as_str()).or_default() += 1;
    }
    assert_eq!(owners.len(), 2, "both survivors adopt: {owners:?}");
    assert!(
        owners.values().any(|&n| n > 16),
        "a survivor adopts more than 16 live tables: {owners:?}"
    );
    // Finished tables are adopted too (one may start its next match), after the live ones.
    let deadline = Instant::now() + WAIT;
    loop {
        let after = leases(&storage).await;
        let adopted = finished.iter().all(|id| {
            after
                .get(id)
                .is_some_and(|(owner, epoch)| (owner == "b" || owner == "c") && *epoch == 2)
        });
        if adopted {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "every finished table adopted: {after:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    let live_tags: HashSet<String> = live.iter().map(|(id, _)| log_tag(id)).collect();
    let finished_tags: HashSet<String> = finished.iter().map(|id| log_tag(id)).collect();
    let mut adopted_live = 0;
    for survivor in [&b, &c] {
        let log = survivor.log();
        let adopted = adoptions(&log);
        let rounds: HashSet<u64> = adopted
            .iter()
            .filter(|(tag, _)| live_tags.contains(tag))
            .map(|(_, round)| *round)
            .collect();
        assert_eq!(
            rounds.len(),
            1,
            "{} adopted its live tables in one round: {adopted:?}",
            survivor.addr
        );
        // Live tables first: no finished table is adopted before a live one.
        let last_live = adopted.iter().rposition(|(tag, _)| live_tags.contains(tag));
        let first_finished = adopted
            .iter()
            .position(|(tag, _)| finished_tags.contains(tag));
        if let (Some(last_live), Some(first_finished)) = (last_live, first_finished) {
            assert!(
                last_live < first_finished,
                "{} adopted a finished table before a live one: {adopted:?}",
                survivor.addr
            );
        }
        adopted_live += adopted
            .iter()
            .filter(|(tag, _)| live_tags.contains(tag))
            .count();
    }
    assert_eq!(adopted_live, LIVE, "each live table adopted once");

    let mut ms = waits;
    ms.sort_by(f64::total_cmp);
    eprintln!(
        "failover of {LIVE} live tables (lease {LEASE_MS} ms): kill to first move accepted: \
         min {:.0} ms, p50 {:.0} ms, max {:.0} ms; adopted by survivor: {owners:?}",
        ms[0],
        ms[ms.len() / 2],
        ms[ms.len() - 1]
    );
    b.stop();
    c.stop();
}
