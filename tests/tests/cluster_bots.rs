//! Registered bots across the nodes of a cluster, against real `parlor serve` nodes on one
//! real, private Postgres: a bot whose `available` connection is on one node is listed by
//! every node, invited by a host whose table is on another, accepts on a connection to a
//! third, and plays the whole match seated as its account at the table's node; its
//! capacity is counted on its own node and frees when its seat's connection ends. Only the
//! bot answers its invitation, on whichever node, and the host never learns its id. Declines
//! and lapses through the nodes reach the host, refusals give the host the codes a host on
//! the bot's own node would get, and the internal endpoints refuse a caller without the
//! cluster's secret. One node's ladder invites a bot online on another.
//!
//! Every wait is bounded.

mod support;

use std::net::SocketAddr;
use std::time::Duration;

use parlor_shared::protocol::{ClientMsg, InviteState, Occupant, ServerMsg, TableInfo};
use parlor_shared::{Event, Seat, Variant};
use parlor_tests::{Rng, WsClient, random_move};
use serde_json::{Value, json};
use support::{Backend, ServerProcess, Storage, go_online};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The admin key the nodes run with.
const KEY: &str = "k3y";
/// The secret the nodes share.
const SECRET: &str = "test-secret";

/// One HTTP request with extra headers; the status and the body (JSON when it is).
async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let extra: String = headers
        .iter()
        .map(|(name, value)| format!("{name}: {value}\r\n"))
        .collect();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let text = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}Content-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(text.as_bytes()).await.expect("write");
    let mut response = String::new();
    stream.read_to_string(&mut response).await.expect("read");
    let (head, body) = response.split_once("\r\n\r\n").expect("a head");
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (
        status,
        serde_json::from_str(body).unwrap_or(Value::String(body.into())),
    )
}

/// Starts node `name` with invitations lapsing after `invite_ms`.
fn node(storage: &Storage, name: &str, invite_ms: u64) -> ServerProcess {
    storage.start_with(&[
        "--node-id",
        name,
        "--lease-ms",
        "1000",
        "--cluster-secret",
        SECRET,
        "--admin-key",
        KEY,
        "--invite-timeout-ms",
        &invite_ms.to_string(),
    ])
}

/// Registers a bot (the account is in the shared database) and returns its token.
async fn register(addr: SocketAddr, name: &str) -> String {
    let auth = format!("Bearer {KEY}");
    let (status, body) = request(
        addr,
        "POST",
        "/api/admin/bots",
        &[("Authorization", &auth)],
        Some(json!({"name": name, "owner": "ann"})),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    body["token"].as_str().expect("a token").to_string()
}

/// A short table of `variant` opened on the node at `addr` itself (`?local=1`: not placed
/// elsewhere): the host in seat 0, built-in bots in 1 and 2, seat 3 free.
async fn table_with_a_free_seat(addr: SocketAddr, variant: &str) -> (String, WsClient) {
    let (status, body) = request(
        addr,
        "POST",
        "/api/tables?local=1",
        &[],
        Some(json!({"variant": variant, "options": {"target": 20}, "seed": 7})),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let mut host = WsClient::connect(addr).await;
    assert!(host.join(&id, "Ann").await);
    for seat in [1, 2] {
        host.send(&ClientMsg::AddBot {
            seat: Seat(seat),
            strategy: "random".into(),
        })
        .await;
    }
    host.recv_until(
        |m| matches!(m, ServerMsg::Table { table, .. } if table.seats[2].occupant == Occupant::Bot),
    )
    .await;
    (id, host)
}

/// The host invites `bot` to seat 3.
async fn invite(host: &mut WsClient, bot: &str) {
    host.send(&ClientMsg::InviteBot {
        seat: Seat(3),
        bot: bot.into(),
    })
    .await;
}

/// The next `invite_status` the host hears (at most 20 s), with the host's handle for the
/// invitation.
async fn status(host: &mut WsClient) -> (InviteState, String) {
    let next =
        host.recv_until(|m| matches!(m, ServerMsg::InviteStatus { .. } | ServerMsg::Error { .. }));
    match tokio::time::timeout(Duration::from_secs(20), next).await {
        Ok(ServerMsg::InviteStatus {
            status, invitation, ..
        }) => (status, invitation),
        other => panic!("expected invite_status, got {other:?}"),
    }
}

/// The next invitation the bot gets (at most 20 s): its id and table.
async fn invitation(bot: &mut WsClient) -> (String, String) {
    let next =
        bot.recv_until(|m| matches!(m, ServerMsg::Invitation { .. } | ServerMsg::Error { .. }));
    match tokio::time::timeout(Duration::from_secs(20), next).await {
        Ok(ServerMsg::Invitation {
            invitation,
            table,
            seat,
            ..
        }) => {
            assert_eq!(seat, Seat(3));
            (invitation, table)
        }
        other => panic!("expected an invitation, got {other:?}"),
    }
}

/// Accepts an invitation with the bot's token on a new connection to `addr`; the seat's
/// connection once welcomed.
async fn accept(addr: SocketAddr, invitation: &str, token: &str) -> WsClient {
    let mut seat = WsClient::connect(addr).await;
    seat.send(&ClientMsg::Accept {
        invitation: invitation.into(),
        token: token.into(),
    })
    .await;
    match tokio::time::timeout(Duration::from_secs(20), seat.recv()).await {
        Ok(ServerMsg::Welcome { seat: Some(s), .. }) => {
            assert_eq!(s, Seat(3));
            seat
        }
        other => panic!("expected welcome, got {other:?}"),
    }
}

/// The bots `GET /api/bots?variant=hearts` lists on the node at `addr`.
async fn online(addr: SocketAddr) -> Vec<Value> {
    let (status, body) = request(addr, "GET", "/api/bots?variant=hearts", &[], None).await;
    assert_eq!(status, 200, "{body}");
    body.as_array().expect("a list").clone()
}

/// The free tables of the one bot listed at `addr`, waiting (at most 10 s) for `want`.
async fn until_free(addr: SocketAddr, want: u64) -> u64 {
    let mut free = u64::MAX;
    for _ in 0..100 {
        let listed = online(addr).await;
        assert_eq!(listed.len(), 1, "one bot listed once: {listed:?}");
        free = listed[0]["free"].as_u64().expect("free");
        if free == want {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    free
}

/// `GET /api/tables/{id}` on the node at `addr`.
async fn table(addr: SocketAddr, id: &str) -> TableInfo {
    let (status, body) = request(addr, "GET", &format!("/api/tables/{id}"), &[], None).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_value(body).expect("a table")
}

/// Plays random legal moves on every connection until each has seen its match end (at
/// most 3 minutes).
async fn play_all_to_end(clients: &mut [WsClient], rng: &mut Rng) {
    let mut over = vec![false; clients.len()];
    let play = async {
        while over.iter().any(|o| !o) {
            let (i, msg) = parlor_tests::next_any(clients).await;
            match msg {
                ServerMsg::YourTurn { legal, .. } => {
                    if let Some(reply) = random_move(&legal, rng) {
                        clients[i].send(&reply).await;
                    }
                }
                ServerMsg::Event {
                    event: Event::MatchOver { .. },
                    ..
                } => over[i] = true,
                ServerMsg::Error { code, message } => panic!("client {i}: {code}: {message}"),
                _ => {}
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(180), play)
        .await
        .expect("the match ended within 3 minutes");
}

/// The bot online on node `b`, the table on node `a`, the bot's `accept` on node `c`: every
/// node lists the bot with its free capacity, the invitation reaches the bot's connection
/// on `b`, an `accept` without the bot's token is refused through the nodes, the bot sits at
/// `a`'s table as its account, the host hears `sent` then `accepted` (never the bot's id),
/// the match plays to its end, and the bot's capacity frees once its seat's connection ends.
#[tokio::test]
async fn a_bot_online_on_one_node_is_invited_from_another_and_plays_there() {
    let storage = Storage::new(Backend::Postgres, "cluster_bots_match").await;
    let a = node(&storage, "a", 15_000);
    let b = node(&storage, "b", 15_000);
    let c = node(&storage, "c", 15_000);
    let token = register(a.addr, "Deep Queen").await;
    let mut bot = go_online(b.addr, &token, vec![Variant::Hearts], 2).await;
    for server in [&a, &b, &c] {
        let listed = online(server.addr).await;
        assert_eq!(listed.len(), 1, "every node lists the bot once: {listed:?}");
        assert_eq!(listed[0]["name"], "Deep Queen");
        assert_eq!(listed[0]["free"], 2);
    }

    let (id, mut host) = table_with_a_free_seat(a.addr, "hearts").await;
    invite(&mut host, "deep queen").await;
    let (sent, handle) = status(&mut host).await;
    assert_eq!(sent, InviteState::Sent);
    let (invitation, table_id) = invitation(&mut bot).await;
    assert_eq!(table_id, id);
    assert_ne!(handle, invitation, "the host's handle is not the bot's id");
    assert!(
        invitation.starts_with("b."),
        "the id names the bot's node: {invitation}"
    );
    assert_eq!(until_free(c.addr, 1).await, 1, "the invitation counts");

    // On any node, what the host saw answers nothing, and the id needs the bot's token
    // (checked on the bot's node, which the connection is relayed to).
    for (addr, invitation, code) in [
        (a.addr, &handle, "no_such_invitation"),
        (c.addr, &invitation, "not_invited"),
        (a.addr, &invitation, "not_invited"),
    ] {
        let mut intruder = WsClient::connect(addr).await;
        intruder
            .send(&ClientMsg::Accept {
                invitation: invitation.clone(),
                token: "pbt_guess".into(),
            })
            .await;
        let refused = tokio::time::timeout(Duration::from_secs(20), intruder.recv_error()).await;
        assert_eq!(refused.expect("refused in time").0, code);
    }
    assert_eq!(table(a.addr, &id).await.seats[3].occupant, Occupant::Empty);

    let seat = accept(c.addr, &invitation, &token).await;
    let (accepted, same) = status(&mut host).await;
    assert_eq!((accepted, same), (InviteState::Accepted, handle));
    assert!(
        host.frames.iter().all(|f| !f.contains(&invitation)),
        "the host was sent the bot's id"
    );
    let info = table(a.addr, &id).await;
    assert_eq!(info.seats[3].occupant, Occupant::RemoteBot);
    assert_eq!(info.seats[3].account.as_deref(), Some("Deep Queen"));
    assert_eq!(info.seats[3].name.as_deref(), Some("Deep Queen"));
    assert_eq!(
        table(c.addr, &id).await.seats[3].account.as_deref(),
        Some("Deep Queen")
    );
    assert_eq!(
        until_free(a.addr, 1).await,
        1,
        "the seat counts on the bot's node"
    );

    host.send(&ClientMsg::Start {}).await;
    let mut players = vec![host, seat];
    play_all_to_end(&mut players, &mut Rng::new(3)).await;
    assert_eq!(table(a.addr, &id).await.matches_played, 1);
    let seat = players.pop().expect("the seat");
    seat.close().await;
    assert_eq!(until_free(a.addr, 2).await, 2, "its capacity frees after");

    drop(bot);
    for server in [a, b, c] {
        server.stop();
    }
}

/// Through the nodes: a decline (on the bot's own connection: one on a connection to a third
/// node is refused) and a lapse reach the host as `declined` and `expired`; a bot of the
/// wrong variant or with no table to spare gives the host the same error as on the bot's own
/// node; the internal endpoints refuse a caller without the secret; revoking the bot through
/// another node takes it offline on its own.
#[tokio::test]
async fn declines_lapses_and_refusals_reach_the_host_through_the_nodes() {
    let storage = Storage::new(Backend::Postgres, "cluster_bots_refusals").await;
    let a = node(&storage, "a", 1500);
    let b = node(&storage, "b", 1500);
    let c = node(&storage, "c", 1500);
    let token = register(a.addr, "Deep").await;
    let mut bot = go_online(b.addr, &token, vec![Variant::Hearts], 1).await;

    let (_, mut host) = table_with_a_free_seat(a.addr, "hearts").await;
    invite(&mut host, "Deep").await;
    let (sent, handle) = status(&mut host).await;
    assert_eq!(sent, InviteState::Sent);
    let (declined, _) = invitation(&mut bot).await;
    let mut elsewhere = WsClient::connect(c.addr).await;
    elsewhere
        .send(&ClientMsg::Decline {
            invitation: declined.clone(),
        })
        .await;
    assert_eq!(elsewhere.recv_error().await.0, "not_invited");
    bot.send(&ClientMsg::Decline {
        invitation: declined.clone(),
    })
    .await;
    assert_eq!(status(&mut host).await, (InviteState::Declined, handle));
    // Declined once: a second decline is refused.
    bot.send(&ClientMsg::Decline {
        invitation: declined,
    })
    .await;
    assert_eq!(bot.recv_error().await.0, "no_such_invitation");

    invite(&mut host, "Deep").await;
    let (sent, handle) = status(&mut host).await;
    assert_eq!(sent, InviteState::Sent);
    invitation(&mut bot).await;
    assert_eq!(status(&mut host).await, (InviteState::Expired, handle));

    // The same refusals as a host on the bot's own node gets.
    let (_, mut local_host) = table_with_a_free_seat(b.addr, "whist").await;
    invite(&mut local_host, "Deep").await;
    let (local_code, local_message) = local_host.recv_error().await;
    assert_eq!(local_code, "bot_wrong_variant");
    let (_, mut whist_host) = table_with_a_free_seat(a.addr, "whist").await;
    invite(&mut whist_host, "Deep").await;
    assert_eq!(whist_host.recv_error().await, (local_code, local_message));

    invite(&mut host, "Deep").await;
    assert_eq!(status(&mut host).await.0, InviteState::Sent);
    let (taken, _) = invitation(&mut bot).await;
    let _seat = accept(b.addr, &taken, &token).await;
    assert_eq!(status(&mut host).await.0, InviteState::Accepted);
    let (_, mut local_host) = table_with_a_free_seat(b.addr, "hearts").await;
    invite(&mut local_host, "Deep").await;
    let (local_code, local_message) = local_host.recv_error().await;
    assert_eq!(local_code, "bot_busy");
    let (_, mut busy_host) = table_with_a_free_seat(a.addr, "hearts").await;
    invite(&mut busy_host, "Deep").await;
    assert_eq!(busy_host.recv_error().await, (local_code, local_message));

    // The internal endpoints: no secret, or a wrong one, is refused.
    let internal = [
        ("/api/cluster/invitations", json!({})),
        (
            "/api/cluster/invite-status",
            json!({"invitation": taken, "status": "declined"}),
        ),
        ("/api/cluster/revoke", json!({"bot": "Deep"})),
    ];
    for (path, body) in &internal {
        for headers in [vec![], vec![("x-parlor-cluster-secret", "wrong")]] {
            let (status, reply) = request(b.addr, "POST", path, &headers, Some(body.clone())).await;
            assert_eq!(status, 403, "{path}: {reply}");
        }
    }
    // With the secret, a report of an invitation this node never forwarded is refused.
    let (status, reply) = request(
        a.addr,
        "POST",
        "/api/cluster/invite-status",
        &[("x-parlor-cluster-secret", SECRET)],
        Some(json!({"invitation": "b.0123456789abcdef0123456789abcdef", "status": "declined"})),
    )
    .await;
    assert_eq!(status, 409, "{reply}");
    assert_eq!(reply["code"], "no_such_invitation");

    // The admin API of another node sees the bot online, and revoking it there takes it
    // offline on its own node at once.
    let auth = format!("Bearer {KEY}");
    let admin = [("Authorization", auth.as_str())];
    let (status, accounts) = request(a.addr, "GET", "/api/admin/bots", &admin, None).await;
    assert_eq!(status, 200, "{accounts}");
    assert_eq!(accounts["bots"][0]["online"], true, "{accounts}");
    let (status, reply) = request(a.addr, "DELETE", "/api/admin/bots/Deep", &admin, None).await;
    assert_eq!(status, 200, "{reply}");
    let revoked = tokio::time::timeout(Duration::from_secs(10), bot.recv_error()).await;
    assert_eq!(revoked.expect("told at once").0, "bad_bot_token");
    assert!(online(c.addr).await.is_empty(), "listed nowhere");

    drop(bot);
    for server in [a, b, c] {
        server.stop();
    }
}

/// The ladder of one node invites a registered bot online on another: the bot (a `parlor
/// bot --token` process whose `available` connection is on `b`) plays ladder matches at
/// `a`'s tables, rated by its account, and its node `b` counts its seats.
#[tokio::test]
async fn a_ladder_invites_a_bot_online_on_another_node() {
    let storage = Storage::new(Backend::Postgres, "cluster_bots_ladder").await;
    let a = storage.start_with(&[
        "--node-id",
        "a",
        "--lease-ms",
        "1000",
        "--cluster-secret",
        SECRET,
        "--admin-key",
        KEY,
        "--ladder",
        "--ladder-variants",
        "hearts",
        "--ladder-strategies",
        "random",
        "--ladder-target",
        "20",
        "--ladder-pause-ms",
        "0",
    ]);
    let b = node(&storage, "b", 15_000);
    let token = register(a.addr, "Far").await;
    let mut bot = std::process::Command::new(support::parlor_bin())
        .args([
            "bot",
            "--url",
            &format!("ws://{}", b.addr),
            "--token",
            &token,
        ])
        .args(["--variants", "hearts", "--max-tables", "2"])
        .env("RUST_LOG", "warn")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("starting parlor bot");
    let mut matches = 0;
    for _ in 0..600 {
        let (status, board) =
            request(a.addr, "GET", "/api/leaderboard?variant=hearts", &[], None).await;
        assert_eq!(status, 200, "{board}");
        matches = board["entries"]
            .as_array()
            .and_then(|e| e.iter().find(|e| e["kind"] == "bot" && e["name"] == "Far"))
            .and_then(|e| e["matches"].as_u64())
            .unwrap_or(0);
        if matches >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = bot.kill();
    let _ = bot.wait();
    assert!(
        matches >= 2,
        "the bot on b played a's ladder matches: {matches}\n{}",
        a.log()
    );
    let (_, stats) = request(a.addr, "GET", "/api/stats", &[], None).await;
    assert!(
        stats["ladder"]["invited"].as_u64().unwrap_or(0) >= 2,
        "{stats}"
    );
    assert!(
        a.log().contains("bot invited through its node"),
        "the invitations went through b"
    );
    a.stop();
    b.stop();
}
