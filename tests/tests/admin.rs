//! The admin API: off without a key, 401 without the right one, and with it every table with
//! its players and the WebSocket sessions at it (with their ages).

use std::net::SocketAddr;

use parlor_server::Config;
use parlor_server::http::{AdminKey, AdminTables};
use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_tests::TestServer;
use serde_json::json;
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
