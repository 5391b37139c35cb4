//! Registered bots against a real `parlor serve`: registering (CLI and admin API) shows the
//! token once and stores only its hash; a registered bot goes online, is invited by a host,
//! takes the seat and plays a whole match with its account on the seat (which survives a
//! restart); a bot that declines or does not answer leaves the seat free; only the bot
//! invited can answer its invitation, and its host never learns the invitation's id; wrong
//! and revoked tokens are refused; one bot process plays two tables at once.

mod support;

use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;

use parlor_shared::protocol::{ClientMsg, InviteState, Occupant, ServerMsg, TableInfo};
use parlor_shared::{Event, Seat, Variant};
use parlor_tests::{Rng, WsClient, random_move};
use serde_json::{Value, json};
use support::{Backend, ServerProcess, Storage, TempDir, go_online, parlor_bin};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The admin key the servers here run with.
const KEY: &str = "k3y";

/// One HTTP request with an optional bearer key; the status and the body (JSON when it is).
async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    key: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let auth = key.map_or(String::new(), |k| format!("Authorization: Bearer {k}\r\n"));
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let text = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Type: application/json\r\n\
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

/// A server with the admin key and invitations lapsing after `invite_ms`.
fn server(data: &Path, invite_ms: u64) -> ServerProcess {
    ServerProcess::start_with(
        data,
        &[
            "--admin-key",
            KEY,
            "--invite-timeout-ms",
            &invite_ms.to_string(),
        ],
    )
}

/// Registers a bot over the admin API and returns its token.
async fn register(addr: SocketAddr, name: &str) -> String {
    let (status, body) = request(
        addr,
        "POST",
        "/api/admin/bots",
        Some(KEY),
        Some(json!({"name": name, "owner": "ann"})),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    body["token"].as_str().expect("a token").to_string()
}

/// A hearts table with a short match: the host in seat 0, built-in bots in 1 and 2, seat 3
/// free. Returns the table's id and the host's connection.
async fn table_with_a_free_seat(addr: SocketAddr) -> (String, WsClient) {
    let (status, body) = request(
        addr,
        "POST",
        "/api/tables",
        None,
        Some(json!({"variant": "hearts", "options": {"target": 20}, "seed": 7})),
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

/// The next `invite_status` the host hears.
async fn status(host: &mut WsClient) -> InviteState {
    match host
        .recv_until(|m| matches!(m, ServerMsg::InviteStatus { .. } | ServerMsg::Error { .. }))
        .await
    {
        ServerMsg::InviteStatus { status, .. } => status,
        other => panic!("expected invite_status, got {other:?}"),
    }
}

/// The next invitation the bot gets: its id and table.
async fn invitation(bot: &mut WsClient) -> (String, String) {
    match bot
        .recv_until(|m| matches!(m, ServerMsg::Invitation { .. } | ServerMsg::Error { .. }))
        .await
    {
        ServerMsg::Invitation {
            invitation,
            table,
            seat,
            variant,
            ..
        } => {
            assert_eq!((seat, variant), (Seat(3), Variant::Hearts));
            (invitation, table)
        }
        other => panic!("expected an invitation, got {other:?}"),
    }
}

/// Accepts an invitation with the bot's token on a new connection; the seat's connection
/// once welcomed.
async fn accept(addr: SocketAddr, invitation: &str, token: &str) -> WsClient {
    let mut seat = WsClient::connect(addr).await;
    seat.send(&ClientMsg::Accept {
        invitation: invitation.into(),
        token: token.into(),
    })
    .await;
    match seat.recv().await {
        ServerMsg::Welcome { seat: Some(s), .. } => {
            assert_eq!(s, Seat(3));
            seat
        }
        other => panic!("expected welcome, got {other:?}"),
    }
}

/// `GET /api/tables/{id}`.
async fn table(addr: SocketAddr, id: &str) -> TableInfo {
    let (status, body) = request(addr, "GET", &format!("/api/tables/{id}"), None, None).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_value(body).expect("a table")
}

/// The online bots for a variant.
async fn online(addr: SocketAddr, variant: &str) -> Vec<Value> {
    let (status, body) = request(
        addr,
        "GET",
        &format!("/api/bots?variant={variant}"),
        None,
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    body.as_array().expect("a list").clone()
}

/// Plays random legal moves on every connection until each has seen its match end.
async fn play_all_to_end(clients: &mut [WsClient], rng: &mut Rng) {
    let mut over = vec![false; clients.len()];
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
}

/// Runs `parlor bots ARGS --data DIR`; its success and standard output.
fn cli(data: &Path, args: &[&str]) -> (bool, String) {
    let out = Command::new(parlor_bin())
        .arg("bots")
        .args(args)
        .arg("--data")
        .arg(data)
        .output()
        .expect("running parlor bots");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

/// Every byte of the database and its log, for looking for secrets in them.
fn database_bytes(data: &Path) -> Vec<u8> {
    let mut bytes = Vec::new();
    for name in ["parlor.db", "parlor.db-wal"] {
        if let Ok(b) = std::fs::read(data.join(name)) {
            bytes.extend(b);
        }
    }
    bytes
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

#[tokio::test]
async fn registering_shows_the_token_once_and_stores_only_its_hash() {
    let data = TempDir::new("bots-register");
    let srv = server(data.path(), 15_000);
    let addr = srv.addr;

    // Without the key: refused; bad names: refused with their own codes.
    let body = json!({"name": "Deep", "owner": "ann"});
    let (status, _) = request(addr, "POST", "/api/admin/bots", None, Some(body.clone())).await;
    assert_eq!(status, 401);
    for (name, code) in [
        ("", "bad_bot_name"),
        ("x<script>", "bad_bot_name"),
        ("Heuristic", "bad_bot_name"),
        ("strong bot", "bad_bot_name"),
    ] {
        let (status, body) = request(
            addr,
            "POST",
            "/api/admin/bots",
            Some(KEY),
            Some(json!({"name": name, "owner": "ann"})),
        )
        .await;
        assert_eq!(
            (status, body["code"].as_str()),
            (400, Some(code)),
            "{name}: {body}"
        );
    }

    let token = register(addr, "Deep").await;
    assert!(token.starts_with("pbt_") && token.len() > 40, "{token}");
    let (status, body) = request(
        addr,
        "POST",
        "/api/admin/bots",
        Some(KEY),
        Some(json!({"name": "deep", "owner": "bob"})),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("bot_name_taken"))
    );

    // The CLI writes to the same database while the server runs.
    let (ok, out) = cli(data.path(), &["add", "Cli Bot", "--owner", "carol"]);
    assert!(ok, "{out}");
    let cli_token = out
        .lines()
        .find_map(|l| l.strip_prefix("token: "))
        .expect("the token is printed")
        .to_string();
    let (ok, out) = cli(data.path(), &["add", "cli bot", "--owner", "dan"]);
    assert!(!ok && out.contains("already registered"), "{out}");
    let (ok, out) = cli(data.path(), &["list"]);
    assert!(
        ok && out.contains("Cli Bot\tcarol\tactive") && out.contains("Deep\tann"),
        "{out}"
    );
    assert!(!out.contains(&cli_token), "list never shows a token");

    // The admin list shows both, without any token; the CLI's bot can go online at once.
    let mut bot = go_online(addr, &cli_token, vec![], 1).await;
    let (status, body) = request(addr, "GET", "/api/admin/bots", Some(KEY), None).await;
    assert_eq!(status, 200);
    let text = body.to_string();
    assert!(
        !text.contains(&token) && !text.contains(&cli_token),
        "{text}"
    );
    let bots = body["bots"].as_array().unwrap();
    assert_eq!(bots.len(), 2);
    assert_eq!(bots[0]["name"], "Cli Bot");
    assert_eq!(bots[0]["online"], true);
    assert_eq!(bots[1]["online"], false);

    bot.send(&ClientMsg::Ping {}).await;
    bot.recv_until(|m| matches!(m, ServerMsg::Pong {})).await;
    drop(bot);
    srv.stop();
    let bytes = database_bytes(data.path());
    for t in [&token, &cli_token] {
        assert!(!contains(&bytes, t), "a token is stored in the clear");
        let hash = parlor_server::digest::of_secret(t);
        assert!(contains(&bytes, &hash), "the token's hash is stored");
    }
}

#[tokio::test]
async fn an_invited_bot_plays_a_whole_match_with_its_account_on_the_seat() {
    let data = TempDir::new("bots-match");
    let srv = server(data.path(), 15_000);
    let addr = srv.addr;
    let token = register(addr, "Deep Queen").await;
    assert!(online(addr, "hearts").await.is_empty());
    let mut bot = go_online(addr, &token, vec![Variant::Hearts], 2).await;
    let listed = online(addr, "hearts").await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["name"], "Deep Queen");
    assert_eq!(listed[0]["owner"], "ann");
    assert_eq!(listed[0]["free"], 2);
    assert_eq!(listed[0]["rating"], Value::Null);
    assert!(
        online(addr, "whist").await.is_empty(),
        "it plays hearts only"
    );

    let (id, mut host) = table_with_a_free_seat(addr).await;
    // Only the host invites, a free seat, an online bot of the table's variant.
    let mut guest = WsClient::connect(addr).await;
    guest.send(&ClientMsg::Watch { table: id.clone() }).await;
    guest
        .send(&ClientMsg::InviteBot {
            seat: Seat(3),
            bot: "Deep Queen".into(),
        })
        .await;
    assert_eq!(guest.recv_error().await.0, "not_host");
    host.send(&ClientMsg::InviteBot {
        seat: Seat(1),
        bot: "Deep Queen".into(),
    })
    .await;
    assert_eq!(host.recv_error().await.0, "seat_taken");
    host.send(&ClientMsg::InviteBot {
        seat: Seat(3),
        bot: "Nobody".into(),
    })
    .await;
    assert_eq!(host.recv_error().await.0, "no_such_bot");

    host.send(&ClientMsg::InviteBot {
        seat: Seat(3),
        bot: "deep queen".into(),
    })
    .await;
    assert_eq!(status(&mut host).await, InviteState::Sent);
    let (invitation, table_id) = invitation(&mut bot).await;
    assert_eq!(table_id, id);
    let seat = accept(addr, &invitation, &token).await;
    assert_eq!(status(&mut host).await, InviteState::Accepted);
    // The invitation is used up.
    let mut again = WsClient::connect(addr).await;
    again
        .send(&ClientMsg::Accept {
            invitation: invitation.clone(),
            token: token.clone(),
        })
        .await;
    assert_eq!(again.recv_error().await.0, "no_such_invitation");
    assert_eq!(online(addr, "hearts").await[0]["free"], 1);

    let info = table(addr, &id).await;
    assert_eq!(info.seats[3].occupant, Occupant::RemoteBot);
    assert_eq!(info.seats[3].account.as_deref(), Some("Deep Queen"));
    assert_eq!(info.seats[3].name.as_deref(), Some("Deep Queen"));
    assert_eq!(info.seats[0].account, None, "people have no account");

    host.send(&ClientMsg::Start {}).await;
    let mut players = vec![host, seat];
    play_all_to_end(&mut players, &mut Rng::new(3)).await;
    let info = table(addr, &id).await;
    assert_eq!(info.matches_played, 1);
    assert_eq!(info.seats[3].account.as_deref(), Some("Deep Queen"));

    // The match rated the bot by its account, beside the built-in `random` bots, and the
    // online list shows its rating in the variant asked for.
    let (status, board) = request(addr, "GET", "/api/leaderboard?variant=hearts", None, None).await;
    assert_eq!(status, 200, "{board}");
    let entries = board["entries"].as_array().unwrap();
    let deep = entries
        .iter()
        .find(|e| e["kind"] == "bot")
        .unwrap_or_else(|| panic!("the bot is rated: {board}"));
    assert_eq!(deep["name"], "Deep Queen");
    assert_eq!(deep["owner"], "ann");
    assert_eq!(deep["matches"], 1);
    // The table is private: its match is rated, but the board does not name it.
    assert_eq!(deep["recent"][0]["of"], 4, "{deep}");
    assert!(deep["recent"][0].get("table").is_none(), "{deep}");
    assert!(!board.to_string().contains(id.as_str()), "{board}");
    assert!(
        entries
            .iter()
            .any(|e| e["kind"] == "builtin" && e["name"] == "random")
    );
    assert_eq!(entries.len(), 2, "the person is not rated: {board}");
    let listed = online(addr, "hearts").await;
    assert_eq!(listed[0]["rating"], deep["rating"]);

    // The account is kept with the seat: it is still there after a restart.
    drop(players);
    drop(bot);
    srv.stop();
    let srv = server(data.path(), 15_000);
    let info = table(srv.addr, &id).await;
    assert_eq!(info.seats[3].account.as_deref(), Some("Deep Queen"));
    srv.stop();
}

#[tokio::test]
async fn a_bot_that_declines_or_does_not_answer_leaves_the_seat_free() {
    let data = TempDir::new("bots-decline");
    let srv = server(data.path(), 500);
    let addr = srv.addr;
    let token = register(addr, "Shy").await;
    let mut bot = go_online(addr, &token, vec![], 1).await;
    let (id, mut host) = table_with_a_free_seat(addr).await;

    host.send(&ClientMsg::InviteBot {
        seat: Seat(3),
        bot: "Shy".into(),
    })
    .await;
    assert_eq!(status(&mut host).await, InviteState::Sent);
    // One invitation per seat at a time, and the bot takes one table.
    host.send(&ClientMsg::InviteBot {
        seat: Seat(3),
        bot: "Shy".into(),
    })
    .await;
    assert_eq!(host.recv_error().await.0, "bot_busy");
    let (first, _) = invitation(&mut bot).await;
    bot.send(&ClientMsg::Decline {
        invitation: first.clone(),
    })
    .await;
    assert_eq!(status(&mut host).await, InviteState::Declined);
    assert_eq!(table(addr, &id).await.seats[3].occupant, Occupant::Empty);
    assert_eq!(online(addr, "hearts").await[0]["free"], 1);

    host.send(&ClientMsg::InviteBot {
        seat: Seat(3),
        bot: "Shy".into(),
    })
    .await;
    assert_eq!(status(&mut host).await, InviteState::Sent);
    let (second, _) = invitation(&mut bot).await;
    // No answer: it lapses, and the seat stays free.
    assert_eq!(status(&mut host).await, InviteState::Expired);
    let late = table(addr, &id).await;
    assert_eq!(late.seats[3].occupant, Occupant::Empty);
    let mut seat = WsClient::connect(addr).await;
    seat.send(&ClientMsg::Accept {
        invitation: second,
        token,
    })
    .await;
    assert_eq!(seat.recv_error().await.0, "no_such_invitation");
    assert_eq!(table(addr, &id).await.seats[3].occupant, Occupant::Empty);
    assert_eq!(online(addr, "hearts").await[0]["free"], 1);

    // A person can still take the seat.
    let mut person = WsClient::connect(addr).await;
    person.join(&id, "Late").await;
    assert_eq!(
        table(addr, &id).await.seats[3].name.as_deref(),
        Some("Late")
    );
    srv.stop();
}

/// The attack this guards against: a host invites a registered bot and, with what its
/// `invite_status` says, sits as the bot itself (its match then rates the bot, and takes up
/// the bot's capacity). Neither the host nor anyone else without the bot's token or
/// `available` connection can answer the invitation: every try is refused and leaves the
/// seat empty and the invitation waiting, the bot then takes the seat, and no frame the
/// host received holds the invitation's id.
#[tokio::test]
async fn only_the_invited_bot_can_answer_and_its_host_never_sees_the_id() {
    let data = TempDir::new("bots-not-yours");
    let srv = server(data.path(), 15_000);
    let addr = srv.addr;
    let token = register(addr, "Deep Queen").await;
    let mallory_token = register(addr, "Mallory").await;
    let mut bot = go_online(addr, &token, vec![Variant::Hearts], 1).await;
    let mut mallory = go_online(addr, &mallory_token, vec![Variant::Hearts], 1).await;
    let (id, mut host) = table_with_a_free_seat(addr).await;

    host.send(&ClientMsg::InviteBot {
        seat: Seat(3),
        bot: "Deep Queen".into(),
    })
    .await;
    let handle = match host
        .recv_until(|m| matches!(m, ServerMsg::InviteStatus { .. } | ServerMsg::Error { .. }))
        .await
    {
        ServerMsg::InviteStatus {
            invitation, status, ..
        } => {
            assert_eq!(status, InviteState::Sent);
            invitation
        }
        other => panic!("expected invite_status, got {other:?}"),
    };
    let (invitation, _) = invitation(&mut bot).await;
    assert_ne!(handle, invitation, "the host's handle is not the bot's id");

    // What the host saw answers nothing, whatever token comes with it.
    let mut intruder = WsClient::connect(addr).await;
    for token in [&mallory_token, &token] {
        intruder
            .send(&ClientMsg::Accept {
                invitation: handle.clone(),
                token: token.clone(),
            })
            .await;
        assert_eq!(intruder.recv_error().await.0, "no_such_invitation");
    }
    // The bot's id itself, without the bot's token: another bot's, a made-up one, none.
    for token in [mallory_token.as_str(), "pbt_guess", ""] {
        intruder
            .send(&ClientMsg::Accept {
                invitation: invitation.clone(),
                token: token.into(),
            })
            .await;
        let (code, message) = intruder.recv_error().await;
        assert_eq!(code, "not_invited", "{message}");
    }
    // A decline: by the host, by another connection, by another bot's `available` one.
    for (who, id) in [(&mut host, &handle), (&mut intruder, &invitation)] {
        who.send(&ClientMsg::Decline {
            invitation: id.clone(),
        })
        .await;
        assert_eq!(who.recv_error().await.0, "not_invited");
    }
    mallory
        .send(&ClientMsg::Decline {
            invitation: invitation.clone(),
        })
        .await;
    assert_eq!(mallory.recv_error().await.0, "not_invited");
    let info = table(addr, &id).await;
    assert_eq!(
        info.seats[3].occupant,
        Occupant::Empty,
        "the seat is not taken"
    );
    let listed = online(addr, "hearts").await;
    let deep = listed.iter().find(|b| b["name"] == "Deep Queen").unwrap();
    assert_eq!(deep["free"], 0, "the invitation still waits for the bot");

    // The bot itself takes the seat.
    let _seat = accept(addr, &invitation, &token).await;
    assert_eq!(status(&mut host).await, InviteState::Accepted);
    let info = table(addr, &id).await;
    assert_eq!(info.seats[3].account.as_deref(), Some("Deep Queen"));
    let leaked: Vec<&String> = host
        .frames
        .iter()
        .filter(|f| f.contains(&invitation))
        .collect();
    assert!(
        leaked.is_empty(),
        "the host was sent the bot's id: {leaked:?}"
    );
    assert!(
        host.frames.iter().filter(|f| f.contains(&handle)).count() >= 2,
        "the host's status messages name its handle"
    );
    srv.stop();
}

#[tokio::test]
async fn wrong_and_revoked_tokens_are_refused() {
    let data = TempDir::new("bots-revoke");
    let srv = server(data.path(), 15_000);
    let addr = srv.addr;
    let mut stranger = WsClient::connect(addr).await;
    stranger
        .send(&ClientMsg::Available {
            token: "pbt_guess".into(),
            variants: vec![],
            max_tables: 1,
        })
        .await;
    assert_eq!(stranger.recv_error().await.0, "bad_bot_token");
    assert!(online(addr, "hearts").await.is_empty());

    let token = register(addr, "Gone").await;
    let mut bot = WsClient::connect(addr).await;
    bot.send(&ClientMsg::Available {
        token: token.clone(),
        variants: vec![],
        max_tables: 0,
    })
    .await;
    assert_eq!(bot.recv_error().await.0, "bad_availability");
    let mut bot = go_online(addr, &token, vec![], 1).await;
    assert_eq!(online(addr, "hearts").await.len(), 1);

    // Revoked over the admin API while online: told, disconnected, gone from the list.
    let (status, body) = request(addr, "DELETE", "/api/admin/bots/gone", Some(KEY), None).await;
    assert_eq!(status, 200, "{body}");
    assert!(body["revoked"].is_number());
    assert_eq!(bot.recv_error().await.0, "bad_bot_token");
    assert!(bot.try_recv().await.is_none(), "the connection is closed");
    assert!(online(addr, "hearts").await.is_empty());
    let mut back = WsClient::connect(addr).await;
    back.send(&ClientMsg::Available {
        token: token.clone(),
        variants: vec![],
        max_tables: 1,
    })
    .await;
    assert_eq!(back.recv_error().await.0, "bad_bot_token");
    let (status, _) = request(addr, "DELETE", "/api/admin/bots/nobody", Some(KEY), None).await;
    assert_eq!(status, 404);

    // Revoked with the CLI while online: the next invitation finds it gone.
    let token = register(addr, "Quiet").await;
    let _quiet = go_online(addr, &token, vec![], 1).await;
    let (ok, out) = cli(data.path(), &["revoke", "Quiet"]);
    assert!(ok, "{out}");
    let (_, mut host) = table_with_a_free_seat(addr).await;
    host.send(&ClientMsg::InviteBot {
        seat: Seat(3),
        bot: "Quiet".into(),
    })
    .await;
    assert_eq!(host.recv_error().await.0, "no_such_bot");
    assert!(online(addr, "hearts").await.is_empty());
    srv.stop();
}

#[tokio::test]
async fn one_bot_process_plays_two_tables_at_once() {
    let data = TempDir::new("bots-two");
    let srv = server(data.path(), 15_000);
    let addr = srv.addr;
    let token = register(addr, "Busy Bee").await;
    let mut bot = go_online(addr, &token, vec![Variant::Hearts], 2).await;
    let (first, mut host1) = table_with_a_free_seat(addr).await;
    let (second, mut host2) = table_with_a_free_seat(addr).await;
    let (third, mut host3) = table_with_a_free_seat(addr).await;
    let mut seats = Vec::new();
    for host in [&mut host1, &mut host2] {
        host.send(&ClientMsg::InviteBot {
            seat: Seat(3),
            bot: "Busy Bee".into(),
        })
        .await;
        let (invitation, _) = invitation(&mut bot).await;
        seats.push(accept(addr, &invitation, &token).await);
        assert_eq!(status(host).await, InviteState::Sent);
        assert_eq!(status(host).await, InviteState::Accepted);
    }
    // Two tables is all it offered.
    host3
        .send(&ClientMsg::InviteBot {
            seat: Seat(3),
            bot: "Busy Bee".into(),
        })
        .await;
    assert_eq!(host3.recv_error().await.0, "bot_busy");
    let _ = third;
    for id in [&first, &second] {
        assert_eq!(
            table(addr, id).await.seats[3].account.as_deref(),
            Some("Busy Bee")
        );
    }
    host1.send(&ClientMsg::Start {}).await;
    host2.send(&ClientMsg::Start {}).await;
    // Both matches are played at the same time, moves interleaved.
    let mut players = vec![host1, host2];
    players.extend(seats);
    play_all_to_end(&mut players, &mut Rng::new(5)).await;
    for id in [&first, &second] {
        assert_eq!(table(addr, id).await.matches_played, 1);
    }
    // Its seats given up, it is free for two tables again.
    for seat in players.iter_mut().skip(2) {
        seat.send(&ClientMsg::Leave {}).await;
    }
    let mut free = 0;
    for _ in 0..200 {
        free = online(addr, "hearts").await[0]["free"].as_u64().unwrap();
        if free == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(free, 2);
    srv.stop();
}

/// Bot accounts in a Postgres store: `parlor bots --store URL` registers, lists and revokes
/// while the server runs on the same database; the server sees them at once, and the
/// database holds only the tokens' hashes.
#[tokio::test]
async fn bot_accounts_live_in_a_postgres_store_too() {
    let storage = Storage::new(Backend::Postgres, "bots-pg").await;
    let url = storage.postgres.as_ref().expect("postgres").1.clone();
    let srv = storage.start_with(&["--admin-key", KEY]);
    let addr = srv.addr;
    let token = register(addr, "Deep").await;
    let bots = |args: &[&str]| {
        let out = Command::new(parlor_bin())
            .arg("bots")
            .args(args)
            .args(["--store", &url])
            .output()
            .expect("running parlor bots");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let (ok, out) = bots(&["add", "Cli Bot", "--owner", "carol"]);
    assert!(ok, "{out}");
    let cli_token = out
        .lines()
        .find_map(|l| l.strip_prefix("token: "))
        .expect("the token is printed")
        .to_string();
    for name in ["DEEP", "\u{FF24}eep"] {
        let (ok, out) = bots(&["add", name, "--owner", "dan"]);
        assert!(!ok && out.contains("`Deep` is already registered"), "{out}");
    }
    let (ok, out) = bots(&["list"]);
    assert!(
        ok && out.contains("Cli Bot\tcarol\tactive") && out.contains("Deep\tann\tactive"),
        "{out}"
    );
    // The server finds the CLI's account by its token.
    let mut bot = go_online(addr, &cli_token, vec![], 1).await;
    bot.send(&ClientMsg::Ping {}).await;
    bot.recv_until(|m| matches!(m, ServerMsg::Pong {})).await;
    drop(bot);
    let (ok, out) = bots(&["revoke", "cli bot"]);
    assert!(ok, "{out}");
    let (ok, out) = bots(&["list"]);
    assert!(ok && out.contains("Cli Bot\tcarol\trevoked"), "{out}");
    srv.stop();

    let pg = storage.postgres().expect("postgres");
    let client = pg.connect(url.rsplit('/').next().expect("a name")).await;
    let stored: Vec<String> = client
        .query(
            "SELECT token_hash FROM bot_accounts ORDER BY lower(name)",
            &[],
        )
        .await
        .expect("accounts")
        .iter()
        .map(|r| r.get(0))
        .collect();
    let hashes = [&cli_token, &token].map(|t| parlor_server::digest::of_secret(t));
    assert_eq!(stored, hashes, "only the hashes are stored");
    // Accounts stored before names had skeletons get theirs at the next opening.
    client
        .execute("UPDATE bot_accounts SET skeleton = NULL", &[])
        .await
        .expect("clearing the skeletons");
    let (ok, out) = bots(&["list"]);
    assert!(ok, "{out}");
    let skeletons: Vec<Option<String>> = client
        .query(
            "SELECT skeleton FROM bot_accounts ORDER BY lower(name)",
            &[],
        )
        .await
        .expect("accounts")
        .iter()
        .map(|r| r.get(0))
        .collect();
    let expected = ["Cli Bot", "Deep"].map(|n| Some(parlor_server::skeleton::skeleton(n)));
    assert_eq!(skeletons, expected);
    // `parlor backup` is SQLite's: refused for a Postgres store, saying what to use.
    let out = Command::new(parlor_bin())
        .args(["backup", "--store", &url, "/tmp/never-written.db"])
        .output()
        .expect("running parlor backup");
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && text.contains("pg_dump"), "{text}");
}

/// Names are unique by what they look like, not only without case: `åsa` beside `Åsa`
/// (SQLite's `NOCASE` folds ASCII letters only) and fullwidth or Cyrillic look-alikes of `Deep
/// Queen` are refused, over the admin API and the CLI, naming the bot they clash with. A host
/// inviting a look-alike of the name reaches the one bot that has it.
#[tokio::test]
async fn names_that_look_the_same_cannot_both_register() {
    let data = TempDir::new("bots-look-alike");
    let srv = server(data.path(), 15_000);
    let addr = srv.addr;
    let token = register(addr, "\u{C5}sa").await;
    register(addr, "Deep Queen").await;
    for (name, registered) in [
        ("\u{E5}sa", "\u{C5}sa"),
        ("\u{C5}SA", "\u{C5}sa"),
        ("\u{FF24}eep Queen", "Deep Queen"),
        ("D\u{435}\u{435}p Queen", "Deep Queen"),
    ] {
        let (status, body) = request(
            addr,
            "POST",
            "/api/admin/bots",
            Some(KEY),
            Some(json!({"name": name, "owner": "mallory"})),
        )
        .await;
        assert_eq!(
            (status, body["code"].as_str()),
            (409, Some("bot_name_taken")),
            "{name}: {body}"
        );
        let message = body["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(&format!("`{registered}` is already registered")),
            "{message}"
        );
    }
    let (ok, out) = cli(data.path(), &["add", "\u{E5}sa", "--owner", "mallory"]);
    assert!(!ok && out.contains("already registered"), "{out}");
    let (ok, out) = cli(data.path(), &["list"]);
    assert!(ok && !out.contains("mallory"), "{out}");
    // Different names stay apart.
    register(addr, "Deep Queens").await;

    let mut bot = go_online(addr, &token, vec![Variant::Hearts], 1).await;
    let (_, mut host) = table_with_a_free_seat(addr).await;
    host.send(&ClientMsg::InviteBot {
        seat: Seat(3),
        bot: "\u{E5}SA".into(),
    })
    .await;
    assert_eq!(status(&mut host).await, InviteState::Sent);
    invitation(&mut bot).await;
    srv.stop();
}
