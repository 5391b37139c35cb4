//! A rolling upgrade of a three-node cluster on one real Postgres, under play: six matches are
//! played by WebSocket clients that reconnect with their seat tokens when told goodbye (as the
//! web client and the SDKs do), through a balancer that knows only the nodes that are up, while
//! each node in turn is stopped with SIGTERM and started again with the same node id, as an
//! operator replaces a binary. No table is lost, every match ends as the same match played on
//! one node, the stored log holds each move once, and no client is told goodbye more than once
//! per node replaced.
//!
//! Prints each table's pause per replacement (from its first seat told goodbye to its last seat
//! back at the table): a figure for docs/SCALING.md, never asserted. Every wait is bounded.

mod support;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::future::select_all;
use futures_util::{SinkExt, StreamExt};
use parlor_shared::Event;
use parlor_shared::Seat;
use parlor_shared::protocol::{ClientMsg, ServerMsg};
use serde_json::{Value, json};
use support::{Backend, ServerProcess, Storage, all_hands, move_for, play_to_end};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;

/// The lease the nodes take on their tables, in milliseconds.
const LEASE_MS: &str = "1000";

/// The nodes, replaced in this order.
const NODES: [&str; 3] = ["a", "b", "c"];

/// The matches played meanwhile, one per seed.
const SEEDS: [u64; 6] = [301, 302, 303, 304, 305, 306];

/// Moves a table may make per phase: the budget grows by this before each node is replaced,
/// so every replacement finds every match still being played.
const STEP: usize = 40;

/// A player's thinking time before each move, so tables are playing while a node drains.
const PACE: Duration = Duration::from_millis(10);

/// The longest any one wait of the test lasts.
const LIMIT: Duration = Duration::from_secs(120);

/// Starts node `name` of the cluster on `storage`'s Postgres database.
fn node(storage: &Storage, name: &str) -> ServerProcess {
    storage.start_node(name, LEASE_MS, &[])
}

/// Creates a hearts table with a fixed seed through the node at `addr`.
async fn create_table(addr: SocketAddr, seed: u64) -> String {
    let body = json!({
        "variant": "hearts",
        "options": {"target": 60},
        "seed": seed,
        "table_options": {"grace_ms": 600_000},
    });
    let (status, reply) = parlor_tests::http(addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 201, "{reply}");
    reply["id"].as_str().expect("an id").to_string()
}

/// How many moves (passes and plays) the finished hands hold.
fn moves_in(hands: &[Value]) -> usize {
    hands
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
        .sum()
}

/// The reference: each seed's match played straight through on one node, its finished hands.
async fn reference_hands() -> Vec<Vec<Value>> {
    let storage = Storage::new(Backend::Postgres, "cluster_rolling_reference").await;
    let server = node(&storage, "solo");
    let mut all = Vec::new();
    for seed in SEEDS {
        let id = create_table(server.addr, seed).await;
        let mut clients = Vec::new();
        for i in 0..4 {
            let mut client = parlor_tests::WsClient::connect(server.addr).await;
            client.join(&id, &format!("p{i}")).await;
            clients.push(client);
        }
        clients[0].send(&ClientMsg::Start {}).await;
        play_to_end(&mut clients).await;
        all.push(all_hands(server.addr, &id).await);
    }
    server.stop();
    all
}

/// What stands for the public address: the nodes that are up, taken in turn.
#[derive(Clone, Default)]
struct Balancer {
    up: Arc<Mutex<Vec<SocketAddr>>>,
    turn: Arc<AtomicUsize>,
}

impl Balancer {
    /// The next node up.
    fn pick(&self) -> SocketAddr {
        let up = self.up.lock().expect("lock");
        up[self.turn.fetch_add(1, Ordering::Relaxed) % up.len()]
    }

    /// Takes a node out before it is stopped, as an operator drains it from the balancer.
    fn remove(&self, addr: SocketAddr) {
        self.up.lock().expect("lock").retain(|a| *a != addr);
    }

    /// Puts a node (back) in.
    fn add(&self, addr: SocketAddr) {
        self.up.lock().expect("lock").push(addr);
    }
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Sends a message; false when the connection is gone.
async fn send(ws: &mut Socket, msg: &ClientMsg) -> bool {
    let text = serde_json::to_string(msg).expect("serialize");
    ws.send(Message::text(text)).await.is_ok()
}

/// The next message, or `None` once the connection is closed. Cancel-safe.
async fn recv(ws: &mut Socket) -> Option<ServerMsg> {
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(text))) => {
                return Some(
                    serde_json::from_str(text.as_str())
                        .unwrap_or_else(|e| panic!("unparseable server frame {text}: {e}")),
                );
            }
            Some(Ok(Message::Close(_)) | Err(_)) | None => return None,
            Some(Ok(_)) => {}
        }
    }
}

/// One seat's client.
struct Player {
    ws: Socket,
    seat: Seat,
    token: String,
    /// The `seq` of the last prompt answered on this connection.
    answered: Option<u64>,
    /// The prompt waiting for an answer, with the answer.
    prompt: Option<(u64, ClientMsg)>,
    /// True once the match end reached this client.
    over: bool,
    /// Each connection lost: the phase it happened in, when, and when the seat was back.
    closes: Vec<(usize, Instant, Instant)>,
    /// The goodbyes heard, by phase.
    goodbyes: Vec<usize>,
}

/// Opens a connection through the balancer and joins `table` (as `name` or with `token`);
/// returns the socket, and the seat and token welcomed, once welcomed (coming back with a
/// token: once the table's `state` came).
/// Connections closed before that (a node going away under it) are tried again.
async fn enter(
    balancer: &Balancer,
    table: &str,
    name: &str,
    token: Option<&str>,
    goodbyes: &mut usize,
) -> (Socket, Seat, String) {
    let deadline = Instant::now() + LIMIT;
    while Instant::now() < deadline {
        let addr = balancer.pick();
        let Ok((mut ws, _)) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await
        else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let join = ClientMsg::Join {
            table: table.to_string(),
            seat: None,
            name: token.is_none().then(|| name.to_string()),
            token: token.map(str::to_string),
            bot: false,
        };
        if !send(&mut ws, &join).await {
            continue;
        }
        let mut welcomed = None;
        while let Ok(Some(msg)) = tokio::time::timeout(LIMIT, recv(&mut ws)).await {
            match msg {
                ServerMsg::Welcome {
                    seat, token: given, ..
                } => {
                    let seat = seat.expect("a seat");
                    let given = given.expect("a token");
                    // A new player has no game to see yet; one coming back gets it next.
                    if token.is_none() {
                        return (ws, seat, given);
                    }
                    welcomed = Some((seat, given));
                }
                ServerMsg::State { .. } if welcomed.is_some() => {
                    let (seat, token) = welcomed.expect("welcomed");
                    return (ws, seat, token);
                }
                ServerMsg::Goodbye { .. } => *goodbyes += 1,
                ServerMsg::Error { code, message } => {
                    panic!("joining table {table} as {name}: {code}: {message}")
                }
                _ => {}
            }
        }
    }
    panic!("{name} could not get back to table {table}");
}

/// What one table's driver saw.
struct Played {
    players: Vec<Player>,
}

/// Plays table `id` with four players, at most `budget` moves, until every player has seen the
/// match end; a player whose connection closes reconnects through the balancer with its token.
async fn play(
    id: String,
    balancer: Balancer,
    mut budget: watch::Receiver<usize>,
    phase: Arc<AtomicUsize>,
    moves: Arc<AtomicUsize>,
) -> Played {
    let mut players = Vec::new();
    for i in 0..4 {
        let mut goodbyes = 0;
        let name = format!("p{i}");
        let (ws, seat, token) = enter(&balancer, &id, &name, None, &mut goodbyes).await;
        assert_eq!(goodbyes, 0);
        players.push(Player {
            ws,
            seat,
            token,
            answered: None,
            prompt: None,
            over: false,
            closes: Vec::new(),
            goodbyes: vec![0; NODES.len() + 2],
        });
    }
    assert!(send(&mut players[0].ws, &ClientMsg::Start {}).await);
    let mut made = 0;
    while !players.iter().all(|p| p.over) {
        let allowed = made < *budget.borrow();
        if allowed && let Some(i) = players.iter().position(|p| p.prompt.is_some()) {
            tokio::time::sleep(PACE).await;
            let (seq, answer) = players[i].prompt.take().expect("a prompt");
            if send(&mut players[i].ws, &answer).await {
                players[i].answered = Some(seq);
                made += 1;
                moves.store(made, Ordering::Relaxed);
            }
            continue;
        }
        let next = async {
            let (msg, i, _) =
                select_all(players.iter_mut().map(|p| Box::pin(recv(&mut p.ws)))).await;
            (i, msg)
        };
        let got = tokio::select! {
            got = next => Some(got),
            changed = budget.changed() => {
                changed.expect("the budget is kept");
                None
            }
        };
        let Some((i, msg)) = got else { continue };
        let now = phase.load(Ordering::Relaxed);
        let player = &mut players[i];
        match msg {
            Some(ServerMsg::YourTurn { seq, legal, .. }) => {
                if player.answered != Some(seq) {
                    player.prompt = move_for(player.seat, &legal).map(|m| (seq, m));
                }
            }
            Some(ServerMsg::Event {
                event: Event::MatchOver { .. },
                ..
            }) => player.over = true,
            Some(ServerMsg::Goodbye { .. }) => player.goodbyes[now] += 1,
            Some(ServerMsg::Error { code, message }) => {
                panic!("table {id}, seat {}: {code}: {message}", player.seat.0)
            }
            Some(_) => {}
            None => {
                let closed = Instant::now();
                let name = format!("p{i}");
                let token = player.token.clone();
                let (ws, _, _) = enter(
                    &balancer,
                    &id,
                    &name,
                    Some(&token),
                    &mut player.goodbyes[now],
                )
                .await;
                player.ws = ws;
                player.answered = None;
                player.prompt = None;
                player.closes.push((now, closed, Instant::now()));
            }
        }
    }
    Played { players }
}

/// Waits (at most [`LIMIT`]) until every table has made at least `least` moves.
async fn until_moved(moves: &[Arc<AtomicUsize>], least: usize) {
    let deadline = Instant::now() + LIMIT;
    while moves.iter().any(|m| m.load(Ordering::Relaxed) < least) {
        assert!(
            Instant::now() < deadline,
            "the tables stopped short of {least} moves: {:?}",
            moves
                .iter()
                .map(|m| m.load(Ordering::Relaxed))
                .collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The median and the largest of some durations, in milliseconds.
fn median_and_max(mut ms: Vec<f64>) -> (f64, f64) {
    ms.sort_by(f64::total_cmp);
    (ms[ms.len() / 2], ms[ms.len() - 1])
}

/// Every node replaced in turn (SIGTERM, then started again with the same id) while six
/// matches are played: each match ends exactly as on one node, with every move stored once,
/// and no client is told goodbye twice for one replacement.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_node_replaced_in_turn_under_play_loses_no_table_and_no_move() {
    let reference = reference_hands().await;
    for hands in &reference {
        assert!(
            moves_in(hands) > (NODES.len() + 1) * STEP,
            "every match lasts past the last replacement"
        );
    }

    let storage = Storage::new(Backend::Postgres, "cluster_rolling").await;
    let mut nodes: Vec<Option<ServerProcess>> = NODES
        .iter()
        .map(|name| Some(node(&storage, name)))
        .collect();
    let balancer = Balancer::default();
    for server in nodes.iter().flatten() {
        balancer.add(server.addr);
    }
    let mut ids = Vec::new();
    for seed in SEEDS {
        ids.push(create_table(balancer.pick(), seed).await);
    }
    let (budget, budget_rx) = watch::channel(STEP);
    let phase = Arc::new(AtomicUsize::new(0));
    let moves: Vec<Arc<AtomicUsize>> = ids.iter().map(|_| Arc::default()).collect();
    let drivers: Vec<_> = ids
        .iter()
        .zip(&moves)
        .map(|(id, moves)| {
            tokio::spawn(play(
                id.clone(),
                balancer.clone(),
                budget_rx.clone(),
                phase.clone(),
                moves.clone(),
            ))
        })
        .collect();
    until_moved(&moves, STEP).await;

    for (k, name) in NODES.iter().enumerate() {
        phase.store(k + 1, Ordering::Relaxed);
        budget.send_replace(STEP * (k + 2));
        // The tables are playing when the node is told to stop.
        until_moved(&moves, STEP * (k + 1) + 4).await;
        let old = nodes[k].take().expect("the node is up");
        balancer.remove(old.addr);
        tokio::task::block_in_place(|| old.stop());
        let new = tokio::task::block_in_place(|| node(&storage, name));
        balancer.add(new.addr);
        nodes[k] = Some(new);
        until_moved(&moves, STEP * (k + 2)).await;
    }
    phase.store(NODES.len() + 1, Ordering::Relaxed);
    budget.send_replace(usize::MAX);

    let mut pauses = Vec::new();
    for (t, driver) in drivers.into_iter().enumerate() {
        let played = tokio::time::timeout(LIMIT, driver)
            .await
            .unwrap_or_else(|_| panic!("table {t}'s match did not end"))
            .unwrap_or_else(|err| std::panic::resume_unwind(err.into_panic()));
        for (i, player) in played.players.iter().enumerate() {
            for (p, goodbyes) in player.goodbyes.iter().enumerate() {
                let closes = player.closes.iter().filter(|c| c.0 == p).count();
                assert!(
                    *goodbyes <= 1 && closes <= 1,
                    "table {t}, player {i}: {goodbyes} goodbyes and {closes} lost connections \
                     while node {p} was replaced"
                );
            }
        }
        let mut paused = false;
        for p in 1..=NODES.len() {
            let spans: Vec<_> = played
                .players
                .iter()
                .flat_map(|pl| pl.closes.iter().filter(|c| c.0 == p))
                .collect();
            let (Some(first), Some(last)) = (
                spans.iter().map(|c| c.1).min(),
                spans.iter().map(|c| c.2).max(),
            ) else {
                continue;
            };
            let ms = (last - first).as_secs_f64() * 1000.0;
            println!(
                "table {t}: node {} replaced, pause {ms:.0} ms",
                NODES[p - 1]
            );
            pauses.push(ms);
            paused = true;
        }
        assert!(paused, "table {t}'s node was replaced at least once");
    }
    let (median, max) = median_and_max(pauses.clone());
    println!(
        "rolling upgrade (lease {LEASE_MS} ms, {} pauses): median {median:.0} ms, max {max:.0} ms",
        pauses.len()
    );

    // Every match is the one played on one node, and every move is stored exactly once.
    let any = nodes[0].as_ref().expect("up").addr;
    for (t, id) in ids.iter().enumerate() {
        let hands = all_hands(any, id).await;
        assert_eq!(hands.len(), reference[t].len(), "table {t}: as many hands");
        for (n, (x, y)) in reference[t].iter().zip(&hands).enumerate() {
            assert_eq!(x, y, "table {t}, hand {n} is the same as on one node");
        }
        let stored = storage.stored_actions(id).await;
        assert_eq!(
            stored.len(),
            moves_in(&reference[t]),
            "table {t}: every move stored exactly once"
        );
    }
    // The cluster is whole again: three live nodes, none draining.
    let (status, stats) = parlor_tests::http_with(
        any,
        "GET",
        "/api/stats",
        &[("x-parlor-cluster-secret", "test-secret")],
        None,
    )
    .await;
    assert_eq!(status, 200, "{stats}");
    let nodes_now = stats["cluster"]["nodes"].as_array().expect("nodes").clone();
    assert_eq!(nodes_now.len(), NODES.len(), "{stats}");
    assert!(
        nodes_now
            .iter()
            .all(|n| n["live"] == true && n["draining"] == false),
        "{stats}"
    );
    for server in nodes.into_iter().flatten() {
        tokio::task::block_in_place(|| server.stop());
    }
}
