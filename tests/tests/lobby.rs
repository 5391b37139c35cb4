//! The REST lobby, the embedded web client and shutdown, over real HTTP.

use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_tests::{TestServer, http, http_raw};
use serde_json::json;

#[tokio::test]
async fn health_variants_and_tables() {
    let server = TestServer::start().await;
    let (status, body) = http(server.addr, "GET", "/healthz", None).await;
    let healthy = concat!("ok\nversion ", env!("CARGO_PKG_VERSION"), "\n");
    assert_eq!((status, body), (200, json!(healthy)));

    let (status, variants) = http(server.addr, "GET", "/api/variants", None).await;
    assert_eq!(status, 200);
    let names: Vec<&str> = variants
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "hearts", "filippa", "hearts5", "tricks", "whist", "spades", "ohhell", "euchre",
            "bridge"
        ]
    );
    let spades = &variants[5];
    assert_eq!(spades["presets"][0]["name"], "Classic");
    assert_eq!(spades["presets"][0]["options"], json!({}));
    let hearts = &variants[0];
    assert_eq!(hearts["players"], 4);
    assert_eq!(hearts["options"][0]["name"], "target");
    assert_eq!(hearts["options"][0]["default"], 100);
    assert!(
        hearts["strategies"]
            .as_array()
            .unwrap()
            .contains(&json!("random"))
    );
    // The facts clients read instead of writing the rules again.
    assert_eq!(hearts["facts"]["hand_size"], 13);
    assert_eq!(hearts["facts"]["first_lead"], "two_of_clubs");
    assert_eq!(variants[1]["facts"]["prize"], 36);
    assert_eq!(variants[2]["facts"]["hand_size"], 10);
    assert_eq!(variants[3]["facts"]["bad_card_penalty"], -100);
    assert_eq!(variants[4]["facts"]["partnerships"], true);

    let request = json!({"variant": "hearts", "options": {"target": 50},
        "table_options": {"grace_ms": 1000}});
    let (status, created) = http(server.addr, "POST", "/api/tables", Some(&request)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    assert_eq!(created["invite"], format!("/t/{id}"));
    assert_eq!(created["table"]["options"]["target"], 50);
    assert_eq!(created["table"]["options"]["passing"], true);
    assert_eq!(created["table"]["table_options"]["grace_ms"], 1000);
    assert_eq!(created["table"]["table_options"]["bot_timeout_ms"], 10000);
    assert_eq!(created["table"]["status"], "waiting");
    assert_eq!(created["table"]["seats"].as_array().unwrap().len(), 4);

    let (status, one) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(one["id"], id);
    let (status, all) = http(server.addr, "GET", "/api/tables", None).await;
    assert_eq!(status, 200);
    assert_eq!(
        all,
        json!([]),
        "a table is private unless its host lists it"
    );

    // A seat taken over the WebSocket shows in the lobby.
    let mut client = server.client().await;
    client.join(id, "Ann").await;
    let (_, one) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(one["seats"][0]["occupant"], "human");
    assert_eq!(one["seats"][0]["name"], "Ann");
    assert_eq!(one["host"], 0);
}

#[tokio::test]
async fn http_errors_are_json_with_stable_codes() {
    let server = TestServer::start().await;
    let cases = [
        (json!({"variant": "poker"}), 400, "unknown_variant"),
        (json!({"options": {}}), 400, "bad_request"),
        (
            json!({"variant": "whist", "options": {"moon": "add"}}),
            400,
            "bad_options",
        ),
        (
            json!({"variant": "hearts", "options": {"target": 0}}),
            400,
            "bad_options",
        ),
        (
            json!({"variant": "hearts", "options": {"colour": 1}}),
            400,
            "bad_options",
        ),
        (
            json!({"variant": "hearts", "table_options": {"grace_ms": -1}}),
            400,
            "bad_table_options",
        ),
        (
            json!({"variant": "hearts", "table_options": {"bot_timeout_ms": 0}}),
            400,
            "bad_table_options",
        ),
        (
            json!({"variant": "hearts", "colour": "red"}),
            400,
            "bad_request",
        ),
    ];
    for (body, status, code) in cases {
        let (got, reply) = http(server.addr, "POST", "/api/tables", Some(&body)).await;
        assert_eq!(
            (got, reply["code"].as_str()),
            (status, Some(code)),
            "{body} -> {reply}"
        );
        assert!(reply["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let (status, _, body) =
        http_raw(server.addr, "POST", "/api/tables", Some("{nope".into())).await;
    assert_eq!(status, 400);
    assert!(body.contains("bad_request"), "{body}");
    let (status, reply) = http(server.addr, "GET", "/api/tables/nope", None).await;
    assert_eq!(
        (status, reply["code"].as_str()),
        (404, Some("no_such_table"))
    );
    let (status, reply) = http(server.addr, "GET", "/no/such/file.js", None).await;
    assert_eq!((status, reply["code"].as_str()), (404, Some("not_found")));
    let (_, tables) = http(server.addr, "GET", "/api/tables", None).await;
    assert_eq!(tables, json!([]), "refused requests create nothing");
}

#[tokio::test]
async fn the_web_client_is_served_from_the_binary() {
    let server = TestServer::start().await;
    let (status, head, page) = http_raw(server.addr, "GET", "/", None).await;
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/html"), "{head}");
    assert!(page.to_ascii_lowercase().contains("<html") || page.contains("Parlor"));
    let (status, _, invite) = http_raw(server.addr, "GET", "/t/abcdef", None).await;
    // The same page, its relative paths resolved one level up (so it works under a sub-path).
    let one_level_up = page.replacen(r#"<base href="./">"#, r#"<base href="../">"#, 1);
    assert_eq!(
        (status, &invite),
        (200, &one_level_up),
        "invite links serve the same page"
    );
    if std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../web/app.js")).exists() {
        let (status, head, _) = http_raw(server.addr, "GET", "/app.js", None).await;
        assert_eq!(status, 200);
        assert!(head.contains("content-type: text/javascript"), "{head}");
    }
}

#[tokio::test]
async fn shutdown_says_goodbye_to_every_client() {
    let server = TestServer::start().await;
    let id = server.create_table(json!({"variant": "whist"})).await;
    let mut player = server.client().await;
    player.join(&id, "Ann").await;
    let mut watcher = server.client().await;
    watcher.send(&ClientMsg::Watch { table: id.clone() }).await;
    watcher
        .recv_until(|m| matches!(m, ServerMsg::Table { .. }))
        .await;
    let addr = server.addr;
    server.stop().await;
    for client in [&mut player, &mut watcher] {
        let msg = client
            .recv_until(|m| matches!(m, ServerMsg::Goodbye { .. }))
            .await;
        assert!(matches!(msg, ServerMsg::Goodbye { .. }));
        assert!(
            client.try_recv().await.is_none(),
            "then the connection closes"
        );
    }
    assert!(
        tokio::net::TcpStream::connect(addr).await.is_err(),
        "no longer listening"
    );
}

#[tokio::test]
async fn stats_count_tables_and_connections() {
    let server = TestServer::start().await;
    let (status, empty) = http(server.addr, "GET", "/api/stats", None).await;
    assert_eq!(status, 200);
    assert_eq!(
        (empty["tables"].clone(), empty["connections"].clone()),
        (json!(0), json!(0))
    );
    assert_eq!(empty["store"], json!(null), "this server keeps no log");
    if cfg!(target_os = "linux") {
        assert!(empty["memory"]["anon_bytes"].as_u64().unwrap() > 0);
        // The CPU time so far, and its user-space part.
        let total = empty["cpu_ms"].as_u64().expect("linux tells");
        let user = empty["cpu_user_ms"].as_u64().expect("linux tells");
        assert!(user <= total, "{empty}");
    }
    let id = server.create_table(json!({"variant": "hearts"})).await;
    let mut client = server.client().await;
    assert!(client.join(&id, "Ada").await);
    let (_, busy) = http(server.addr, "GET", "/api/stats", None).await;
    assert_eq!(
        (busy["tables"].clone(), busy["connections"].clone()),
        (json!(1), json!(1))
    );
}

/// A built-in bot's seat names its strategy, in the lobby and in `table`; no other seat does.
#[tokio::test]
async fn a_built_in_bot_seat_names_its_strategy() {
    let server = TestServer::start().await;
    let id = server.create_table(json!({"variant": "hearts"})).await;
    let mut host = server.client().await;
    host.join(&id, "Ann").await;
    for (seat, strategy) in [(1, "random"), (2, "strong")] {
        host.send(&ClientMsg::AddBot {
            seat: parlor_shared::Seat(seat),
            strategy: strategy.into(),
        })
        .await;
    }
    host.recv_until(|msg| {
        matches!(msg, ServerMsg::Table { table, .. }
            if table.seats[2].strategy.as_deref() == Some("strong"))
    })
    .await;
    let (_, table) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    let strategies: Vec<_> = (0..4).map(|i| table["seats"][i].get("strategy")).collect();
    assert_eq!(
        strategies,
        [None, Some(&json!("random")), Some(&json!("strong")), None],
        "{table}"
    );
    server.stop().await;
}

/// A host may name a table: the name is tidied (spaces, invisible characters), kept and shown
/// to everyone; a name too long is refused with the option's name.
#[tokio::test]
async fn a_table_takes_the_name_its_host_gives_it() {
    let server = TestServer::start().await;
    let body = json!({
        "variant": "hearts",
        "table_options": {"name": "  Sunday\u{200B}  \u{202E}hearts\t", "spectator_chat": true},
    });
    let (status, created) = http(server.addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let (_, table) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(table["table_options"]["name"], "Sunday hearts");
    assert_eq!(table["table_options"]["spectator_chat"], true);

    let (_, plain) = http(
        server.addr,
        "POST",
        "/api/tables",
        Some(&json!({"variant": "hearts", "table_options": {"name": " \u{200B} "}})),
    )
    .await;
    let (_, plain) = http(
        server.addr,
        "GET",
        &format!("/api/tables/{}", plain["id"].as_str().unwrap()),
        None,
    )
    .await;
    assert!(plain["table_options"].get("name").is_none(), "{plain}");

    let long = "x".repeat(41);
    let (status, refusal) = http(
        server.addr,
        "POST",
        "/api/tables",
        Some(&json!({"variant": "hearts", "table_options": {"name": long}})),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(refusal["code"], "bad_table_options");
    assert!(
        refusal["message"].as_str().unwrap().contains("`name`"),
        "{refusal}"
    );
}
