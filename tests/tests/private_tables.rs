//! Tables are private unless their host lists them, and seat tokens never rest in clear: the
//! lobby's listing, joining by link, and the database file read directly.

mod support;

use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_tests::{TestServer, WsClient, http};
use serde_json::json;
use support::{ServerProcess, TempDir};

#[tokio::test]
async fn an_unlisted_table_is_left_out_of_the_listing_yet_joinable_by_its_link() {
    let server = TestServer::start().await;
    let private = server.create_table(json!({"variant": "hearts"})).await;
    let listed = server
        .create_table(json!({"variant": "whist", "table_options": {"listed": true}}))
        .await;

    let (status, tables) = http(server.addr, "GET", "/api/tables", None).await;
    assert_eq!(status, 200);
    let ids: Vec<&str> = tables
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|t| t["id"].as_str())
        .collect();
    assert_eq!(ids, [listed.as_str()], "only the listed table: {tables}");
    assert_eq!(tables[0]["table_options"]["listed"], true);

    // Whoever has the link still finds the table and sits down.
    let (status, one) = http(server.addr, "GET", &format!("/api/tables/{private}"), None).await;
    assert_eq!(status, 200, "{one}");
    assert_eq!(one["table_options"]["listed"], false);
    let mut guest = server.client().await;
    assert!(guest.join(&private, "Ann").await, "the first to sit hosts");
    server.stop().await;
}

#[tokio::test]
async fn seat_tokens_are_stored_hashed_and_still_give_the_seat_back_after_a_restart() {
    let dir = TempDir::new("hashed-tokens");
    let server = ServerProcess::start(dir.path());
    let (status, created) = http(
        server.addr,
        "POST",
        "/api/tables",
        Some(&json!({"variant": "hearts", "table_options": {"grace_ms": 600_000}})),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("an id").to_string();
    let mut ann = WsClient::connect(server.addr).await;
    ann.join(&id, "Ann").await;
    let token = ann.token.clone().expect("a seat token");
    ann.close().await;
    server.stop();

    // Nothing in the file gives the seat back: the token is in no row, in any form.
    let db = rusqlite::Connection::open(dir.path().join("parlor.db")).expect("open the database");
    let kept: Vec<String> = db
        .prepare("SELECT token FROM seats WHERE token IS NOT NULL")
        .expect("select")
        .query_map([], |row| row.get(0))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("read");
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_ne!(kept[0], token);
    assert_eq!(kept[0].len(), 64, "a SHA-256 digest in hex: {}", kept[0]);
    drop(db);
    let bytes = std::fs::read(dir.path().join("parlor.db")).expect("read the file");
    let text = String::from_utf8_lossy(&bytes);
    assert!(!text.contains(&token), "the token is nowhere in the file");

    // After a restart the token still reclaims the seat.
    let server = ServerProcess::start(dir.path());
    let mut back = WsClient::connect(server.addr).await;
    back.send(&ClientMsg::Join {
        table: id.clone(),
        seat: None,
        name: None,
        token: Some(token.clone()),
        bot: false,
    })
    .await;
    match back.recv().await {
        ServerMsg::Welcome {
            seat, token: again, ..
        } => {
            assert_eq!(seat.map(|s| s.0), Some(0));
            assert_eq!(again.as_deref(), Some(token.as_str()), "the same token");
        }
        other => panic!("expected welcome, got {other:?}\n{}", server.log()),
    }
    // A wrong token is still refused.
    let mut thief = WsClient::connect(server.addr).await;
    thief
        .send(&ClientMsg::Join {
            table: id,
            seat: None,
            name: None,
            token: Some(kept[0].clone()),
            bot: false,
        })
        .await;
    let (code, _) = thief.recv_error().await;
    assert_eq!(code, "bad_token", "the stored digest is no token");
    server.stop();
}
