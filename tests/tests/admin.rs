//! The admin API: off without a key, 401 without the right one, and with it every table with
//! its players and the WebSocket sessions at it (with their ages); closing a table and
//! emptying a seat, seen from the players' own WebSockets.

use std::net::SocketAddr;
use std::sync::Arc;

use parlor_server::Config;
use parlor_server::http::{AdminKey, AdminTables, AppState};
use parlor_server::store::SqliteStore;
use parlor_shared::Seat;
use parlor_shared::protocol::{ClientMsg, Occupant, ServerMsg, TableInfo, TableStatus};
use parlor_tests::{Rng, TestServer, WsClient, play_to_end, seat_players, start};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// `GET path` with an optional bearer key; returns the status and the body.
async fn get(addr: SocketAddr, path: &str, key: Option<&str>) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let auth = key.map_or(String::new(), |k| format!("Authorization: Bearer {k}\r\n"));
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Connection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut response = String::new();
    stream.read_to_string(&mut response).await.expect("read");
    let (head, body) = response.split_once("\r\n\r\n").expect("a head");
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, body.to_string())
}

#[tokio::test]
async fn the_admin_lists_tables_players_and_sessions_with_the_key_only() {
    let off = TestServer::start().await;
    assert_eq!(
        get(off.addr, "/api/admin/tables", Some("x")).await.0,
        404,
        "off without a key"
    );
    off.stop().await;

    let server = TestServer::with_config(Config {
        admin_key: Some(AdminKey("s3cret".into())),
        ..Config::default()
    })
    .await;
    let id = server.create_table(json!({"variant": "hearts"})).await;
    let mut ann = server.client().await;
    assert!(ann.join(&id, "Ann").await);
    let mut bob = server.client().await;
    bob.join(&id, "Bob").await;
    let mut lobby_only = server.client().await;
    // Answered by its session, so the session is running.
    lobby_only.send(&ClientMsg::Ping {}).await;
    lobby_only
        .recv_until(|m| matches!(m, ServerMsg::Pong {}))
        .await;

    assert_eq!(get(server.addr, "/api/admin/tables", None).await.0, 401);
    assert_eq!(
        get(server.addr, "/api/admin/tables", Some("wrong")).await.0,
        401
    );
    let (status, body) = get(server.addr, "/api/admin/tables", Some("s3cret")).await;
    assert_eq!(status, 200, "{body}");
    let list: AdminTables = serde_json::from_str(&body).expect("the admin list");
    assert_eq!(list.tables.len(), 1);
    let table = &list.tables[0];
    assert_eq!(table.table.id, id);
    assert_eq!(
        table.players,
        vec![Some("Ann".to_string()), Some("Bob".to_string()), None, None]
    );
    assert_eq!(table.sessions.len(), 2, "Ann's and Bob's");
    assert!(
        table.sessions[0].age_secs >= table.sessions[1].age_secs,
        "oldest first"
    );
    assert_eq!(list.idle_sessions.len(), 1, "the one in the lobby");

    ann.close().await;
    bob.close().await;
    lobby_only.close().await;
    server.stop().await;
}

/// `POST path` with a bearer key and an optional body; returns the status and the JSON body.
async fn post(addr: SocketAddr, path: &str, key: Option<&str>, body: Option<&str>) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let auth = key.map_or(String::new(), |k| format!("Authorization: Bearer {k}\r\n"));
    let body = body.unwrap_or_default();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut response = String::new();
    stream.read_to_string(&mut response).await.expect("read");
    let (head, body) = response.split_once("\r\n\r\n").expect("a head");
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (
        status,
        serde_json::from_str(body).unwrap_or(Value::String(body.into())),
    )
}

/// A server with the admin key `s3cret` and a store in memory.
async fn admin_server() -> TestServer {
    let store = SqliteStore::in_memory().expect("a store in memory");
    let config = Config {
        admin_key: Some(AdminKey("s3cret".into())),
        ..Config::default()
    };
    TestServer::with_state(AppState::new(config).with_store(Arc::new(store))).await
}

/// Everything `client` gets until the server closes the connection.
async fn until_closed(client: &mut WsClient) -> Vec<ServerMsg> {
    let mut got = Vec::new();
    while let Some(msg) = client.try_recv().await {
        got.push(msg);
    }
    got
}

/// Reads until a `table` frame satisfies `pred`.
async fn table_where(client: &mut WsClient, pred: impl Fn(&TableInfo) -> bool) -> TableInfo {
    match client
        .recv_until(|m| matches!(m, ServerMsg::Table { table, .. } if pred(table)))
        .await
    {
        ServerMsg::Table { table, .. } => table,
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn closing_a_table_tells_everyone_why_and_it_is_gone_for_good() {
    let server = admin_server().await;
    let id = server.create_table(json!({"variant": "hearts"})).await;
    let mut ann = server.client().await;
    assert!(ann.join(&id, "Ann").await);
    let mut bob = server.client().await;
    bob.join(&id, "Bob").await;
    let mut watcher = server.client().await;
    watcher.send(&ClientMsg::Watch { table: id.clone() }).await;
    watcher
        .recv_until(|m| matches!(m, ServerMsg::Welcome { .. }))
        .await;
    let path = format!("/api/admin/tables/{id}/close");

    let refused = post(server.addr, &path, Some("wrong"), None).await;
    assert_eq!(refused.0, 401, "{refused:?}");
    let (status, body) = post(
        server.addr,
        &path,
        Some("s3cret"),
        Some(r#"{"reason": "the server moves to a new machine"}"#),
    )
    .await;
    assert_eq!(status, 200, "{body}");

    for client in [&mut ann, &mut bob, &mut watcher] {
        let got = until_closed(client).await;
        match got.last() {
            Some(ServerMsg::Goodbye { reason }) => assert!(
                reason.contains("closed this table")
                    && reason.contains("the server moves to a new machine"),
                "{reason}"
            ),
            other => panic!("the last message before the close is goodbye, not {other:?}"),
        }
    }
    // The answer came once the table was gone from the lobby.
    assert!(server.state.lobby.get(&id).is_none());
    let (_, listed) = parlor_tests::http(server.addr, "GET", "/api/tables", None).await;
    assert!(!listed.to_string().contains(&id), "{listed}");
    // Closed for good in the store, as an idle table is: it does not come back.
    let store = server.state.lobby.store().expect("a store");
    store.flushed().await.expect("flushed");
    let log = store
        .table_log(&id)
        .await
        .expect("read")
        .expect("the table's rows");
    assert_eq!(log.table.status, "closed");
    let mut late = server.client().await;
    late.send(&ClientMsg::Join {
        table: id.clone(),
        seat: None,
        name: None,
        token: ann.token.clone(),
        bot: false,
    })
    .await;
    assert_eq!(late.recv_error().await.0, "no_such_table");
    assert_eq!(post(server.addr, &path, Some("s3cret"), None).await.0, 404);
    late.close().await;
    server.stop().await;
}

#[tokio::test]
async fn a_kicked_player_is_told_loses_the_seat_and_its_token_and_everyone_sees_it() {
    let server = admin_server().await;
    let id = server.create_table(json!({"variant": "hearts"})).await;
    let mut ann = server.client().await;
    assert!(ann.join(&id, "Ann").await);
    let mut bob = server.client().await;
    bob.join(&id, "Bob").await;
    ann.send(&ClientMsg::AddBot {
        seat: Seat(2),
        strategy: "random".into(),
    })
    .await;
    table_where(&mut ann, |t| t.seats[2].occupant == Occupant::Bot).await;
    let kick = |seat: u8| format!("/api/admin/tables/{id}/seats/{seat}/kick");

    assert_eq!(post(server.addr, &kick(1), None, None).await.0, 401);
    let (status, body) = post(server.addr, &kick(1), Some("s3cret"), None).await;
    assert_eq!(status, 200, "{body}");
    let got = until_closed(&mut bob).await;
    match got.last() {
        Some(ServerMsg::Error { code, .. }) => assert_eq!(code, "kicked"),
        other => panic!("the last message before the close is the kick, not {other:?}"),
    }
    let table = table_where(&mut ann, |t| t.seats[1].occupant == Occupant::Empty).await;
    assert_eq!(table.seats[1].name, None);
    // Bob's token does not open the seat any more.
    let mut back = server.client().await;
    back.send(&ClientMsg::Join {
        table: id.clone(),
        seat: None,
        name: None,
        token: bob.token.clone(),
        bot: false,
    })
    .await;
    assert_eq!(back.recv_error().await.0, "bad_token");

    // A built-in bot goes.
    assert_eq!(
        post(server.addr, &kick(2), Some("s3cret"), None).await.0,
        200
    );
    table_where(&mut ann, |t| t.seats[2].occupant == Occupant::Empty).await;

    // Refusals are the table's, with their codes.
    let (status, body) = post(server.addr, &kick(3), Some("s3cret"), None).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("seat_empty")),
        "{body}"
    );
    let (status, body) = post(server.addr, &kick(9), Some("s3cret"), None).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("no_such_seat")),
        "{body}"
    );
    let missing = "/api/admin/tables/nope/seats/0/kick";
    assert_eq!(
        post(server.addr, missing, Some("s3cret"), None).await.0,
        404
    );
    // Ann is still seated and playing on.
    assert!(server.state.lobby.get(&id).is_some());
    ann.send(&ClientMsg::Ping {}).await;
    ann.recv_until(|m| matches!(m, ServerMsg::Pong {})).await;

    back.close().await;
    ann.close().await;
    server.stop().await;
}

#[tokio::test]
async fn a_seat_kicked_during_a_match_is_played_by_the_stand_in_to_the_end() {
    let server = admin_server().await;
    let id = server
        .create_table(
            json!({"variant": "hearts", "options": {"target": 20, "passing": false}, "seed": 5}),
        )
        .await;
    let mut clients = seat_players(&server, &id, 4).await;
    start(&mut clients).await;
    let mut dee = clients.pop().expect("four players");
    let path = format!("/api/admin/tables/{id}/seats/3/kick");
    let (status, body) = post(server.addr, &path, Some("s3cret"), None).await;
    assert_eq!(status, 200, "{body}");
    let got = until_closed(&mut dee).await;
    assert!(
        matches!(got.last(), Some(ServerMsg::Error { code, .. }) if code == "kicked"),
        "{got:?}"
    );
    let table = table_where(&mut clients[0], |t| {
        t.status == TableStatus::Playing && t.seats[3].occupant == Occupant::Empty
    })
    .await;
    assert!(table.seats[3].bot_playing, "the stand-in keeps the seat");
    let winners = play_to_end(&mut clients, &mut Rng::new(7)).await;
    assert!(
        !winners.is_empty(),
        "the match ends with the stand-in in seat 3"
    );
    for client in clients {
        client.close().await;
    }
    server.stop().await;
}
