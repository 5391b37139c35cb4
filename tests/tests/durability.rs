//! Durable tables, against the real `parlor` binary: a server killed with SIGKILL in the
//! middle of a trick comes back with every table as it was and the match ends exactly as it
//! would have without the crash; SIGTERM exits cleanly without losing an accepted move;
//! damaged data is skipped with an error naming the table (or, for a log damaged part way,
//! cut to its last good step) while the rest comes back.

mod support;

use std::net::SocketAddr;
use std::time::Duration;

use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_shared::{Event, Seat};
use parlor_tests::{WsClient, http};
use serde_json::{Value, json};
use support::{Backend, ServerProcess, Storage, TempDir, all_hands, play_moves, play_to_end};

/// Creates a hearts table with a fixed seed, seats four remote clients and starts the match.
async fn hearts_table(addr: SocketAddr, seed: u64) -> (String, Vec<WsClient>) {
    let body = json!({
        "variant": "hearts",
        "options": {"target": 30},
        "seed": seed,
        // Listed, so `GET /api/tables` shows which tables came back.
        "table_options": {"grace_ms": 600_000, "listed": true},
    });
    let (status, reply) = http(addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 201, "{reply}");
    let id = reply["id"].as_str().expect("an id").to_string();
    let mut clients = Vec::new();
    for i in 0..4 {
        let mut client = WsClient::connect(addr).await;
        let host = client.join(&id, &format!("p{i}")).await;
        assert_eq!(host, i == 0);
        clients.push(client);
    }
    clients[0].send(&ClientMsg::Start {}).await;
    (id, clients)
}

/// Takes a snapshot from every client, the one that moved last first (so its move, the only
/// one possibly in flight, is applied before any snapshot).
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

/// Reads until the connection ends (the server is gone), returning whether `goodbye` came.
async fn until_closed(client: &mut WsClient) -> bool {
    let mut goodbye = false;
    while let Ok(Some(msg)) = tokio::time::timeout(Duration::from_secs(10), client.try_recv()).await
    {
        goodbye |= matches!(msg, ServerMsg::Goodbye { .. });
    }
    goodbye
}

/// Reconnects to a table with a seat token; returns the client and its `welcome` and `state`.
async fn reconnect(addr: SocketAddr, id: &str, token: &str) -> (WsClient, ServerMsg, Value) {
    let mut client = WsClient::connect(addr).await;
    client
        .send(&ClientMsg::Join {
            table: id.to_string(),
            seat: None,
            name: None,
            token: Some(token.to_string()),
            bot: false,
        })
        .await;
    let welcome = client.recv().await;
    client
        .recv_until(|m| matches!(m, ServerMsg::State { .. }))
        .await;
    let state = serde_json::from_str(client.frames.last().expect("a frame")).expect("json");
    (client, welcome, state)
}

/// SIGKILL in the middle of a trick, restart on the same data, reconnect with the seat tokens:
/// every seat finds the same hand, trick and scores, and the match finishes exactly as the
/// same match (same seed, same moves) played without a crash.
async fn a_match_killed_mid_trick_resumes_and_ends_as_without_the_crash(backend: Backend) {
    const SEED: u64 = 4242;
    // The same match, played straight through.
    let reference_dir = Storage::new(backend, "reference").await;
    let server = reference_dir.start();
    let (id, mut clients) = hearts_table(server.addr, SEED).await;
    play_to_end(&mut clients).await;
    let reference = all_hands(server.addr, &id).await;
    assert!(reference.len() >= 2, "the match lasts more than one hand");
    if backend == Backend::Sqlite {
        // Meanwhile the log was folded into the database file beside the writer.
        let mut checkpoints = 0;
        for _ in 0..100 {
            let (_, stats) = http(server.addr, "GET", "/api/stats", None).await;
            checkpoints = stats["store"]["checkpoints"].as_u64().unwrap_or(0);
            if checkpoints > 0 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert!(checkpoints > 0, "the checkpointer ran\n{}", server.log());
    }
    server.stop();

    // Played again and killed in the second hand: 4 passes and 52 cards, then 4 passes and
    // 2 cards of the first trick.
    let dir = Storage::new(backend, "crash").await;
    let server = dir.start();
    let (id, mut clients) = hearts_table(server.addr, SEED).await;
    let (sent, last) = play_moves(&mut clients, 62, |_, _| false).await;
    assert_eq!(sent, 62);
    let before = snapshots(&mut clients, last).await;
    let trick = &before[0]["view"]["trick"]["plays"];
    assert_eq!(
        trick.as_array().map(Vec::len),
        Some(2),
        "mid-trick: {trick}"
    );
    assert_eq!(before[0]["view"]["hand_number"], 1);
    let tokens: Vec<String> = clients
        .iter()
        .map(|c| c.token.clone().expect("a token"))
        .collect();
    let seats: Vec<Seat> = clients.iter().map(|c| c.seat.expect("a seat")).collect();
    server.kill9();
    for client in &mut clients {
        until_closed(client).await;
    }

    let server = dir.start();
    let (status, table) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(status, 200, "the table is back: {table}\n{}", server.log());
    assert_eq!(table["status"], "playing");
    assert_eq!(table["seats"][2]["name"], "p2");
    let mut resumed = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let (client, welcome, state) = reconnect(server.addr, &id, token).await;
        let ServerMsg::Welcome {
            seat, token, host, ..
        } = welcome
        else {
            panic!("expected welcome, got {welcome:?}\n{}", server.log());
        };
        assert_eq!(seat, Some(seats[i]), "the same seat");
        assert_eq!(token.as_deref(), Some(tokens[i].as_str()), "the same token");
        assert_eq!(host, i == 0, "the same host");
        assert_eq!(
            state["view"], before[i]["view"],
            "seat {i} sees the same game"
        );
        assert_eq!(state["seq"], before[i]["seq"], "the event counter goes on");
        resumed.push(client);
    }
    play_to_end(&mut resumed).await;
    let after_crash = all_hands(server.addr, &id).await;
    assert_eq!(after_crash.len(), reference.len(), "as many hands");
    for (n, (a, b)) in reference.iter().zip(&after_crash).enumerate() {
        assert_eq!(a, b, "hand {n} is the same with and without the crash");
    }
    server.stop();
}

#[tokio::test]
async fn a_match_killed_mid_trick_resumes_and_ends_as_without_the_crash_on_sqlite() {
    a_match_killed_mid_trick_resumes_and_ends_as_without_the_crash(Backend::Sqlite).await;
}

#[tokio::test]
async fn a_match_killed_mid_trick_resumes_and_ends_as_without_the_crash_on_postgres() {
    a_match_killed_mid_trick_resumes_and_ends_as_without_the_crash(Backend::Postgres).await;
}

/// One person and three built-in heuristic bots (deterministic players): after SIGKILL the
/// bots are back in their seats with their names, the person reconnects to the same hand,
/// and the match ends exactly as the same match played without the crash.
async fn built_in_bots_come_back_after_a_crash_and_play_on_as_before(backend: Backend) {
    async fn table_with_bots(addr: SocketAddr) -> (String, WsClient) {
        let body = json!({"variant": "hearts", "options": {"target": 30}, "seed": 808});
        let (status, reply) = http(addr, "POST", "/api/tables", Some(&body)).await;
        assert_eq!(status, 201, "{reply}");
        let id = reply["id"].as_str().expect("an id").to_string();
        let mut person = WsClient::connect(addr).await;
        assert!(person.join(&id, "Ann").await);
        person
            .seat_bots_and_start(&["heuristic", "heuristic", "heuristic"])
            .await;
        (id, person)
    }
    /// Plays `moves` moves for the person, then waits for its next turn (the table is still).
    async fn play_until_my_turn(person: &mut [WsClient], moves: usize) {
        if moves > 0 {
            play_moves(person, moves, |_, _| false).await;
        }
        person[0]
            .recv_until(|m| matches!(m, ServerMsg::YourTurn { .. }))
            .await;
    }

    let reference_dir = Storage::new(backend, "bots-reference").await;
    let server = reference_dir.start();
    let (id, person) = table_with_bots(server.addr).await;
    let mut clients = vec![person];
    play_to_end(&mut clients).await;
    let reference = all_hands(server.addr, &id).await;
    server.stop();

    let dir = Storage::new(backend, "bots-crash").await;
    let server = dir.start();
    let (id, person) = table_with_bots(server.addr).await;
    let mut clients = vec![person];
    // Hand 0: one pass and 13 cards; hand 1: one pass and 5 cards.
    play_until_my_turn(&mut clients, 20).await;
    let before = clients[0].snapshot().await;
    assert_eq!(before["view"]["hand_number"], 1, "{before}");
    let token = clients[0].token.clone().expect("a token");
    let (_, table_before) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    server.kill9();
    until_closed(&mut clients[0]).await;

    let server = dir.start();
    let (_, table) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    for seat in 1..4 {
        assert_eq!(table["seats"][seat]["occupant"], "bot", "{table}");
        assert_eq!(
            table["seats"][seat]["name"],
            table_before["seats"][seat]["name"]
        );
    }
    assert_eq!(table["host"], 0);
    let (person, welcome, state) = reconnect(server.addr, &id, &token).await;
    assert!(
        matches!(welcome, ServerMsg::Welcome { host: true, .. }),
        "{welcome:?}"
    );
    assert_eq!(
        state["view"], before["view"],
        "the same hand, trick and scores"
    );
    let mut clients = vec![person];
    play_to_end(&mut clients).await;
    let after_crash = all_hands(server.addr, &id).await;
    assert_eq!(after_crash, reference, "the same match, hand for hand");
    server.stop();
}

#[tokio::test]
async fn built_in_bots_come_back_after_a_crash_and_play_on_as_before_on_sqlite() {
    built_in_bots_come_back_after_a_crash_and_play_on_as_before(Backend::Sqlite).await;
}

#[tokio::test]
async fn built_in_bots_come_back_after_a_crash_and_play_on_as_before_on_postgres() {
    built_in_bots_come_back_after_a_crash_and_play_on_as_before(Backend::Postgres).await;
}

/// SIGTERM while four clients play: every client is told goodbye, the process exits with
/// status 0 within 5 s, and every move a client saw accepted is in the log and comes back.
async fn sigterm_says_goodbye_exits_zero_and_loses_no_accepted_move(backend: Backend) {
    let dir = Storage::new(backend, "sigterm").await;
    let mut server = dir.start();
    let (id, mut clients) = hearts_table(server.addr, 99).await;
    // The 30th move is sent and the signal follows at once: it is in flight.
    play_moves(&mut clients, 30, |_, _| false).await;
    server.sigterm();
    let terminated = std::time::Instant::now();
    // Read until every connection ends.
    let mut goodbyes = 0;
    for client in &mut clients {
        while let Some(msg) = client.try_recv().await {
            goodbyes += usize::from(matches!(msg, ServerMsg::Goodbye { .. }));
        }
    }
    // Every card client 0 saw played (every frame it received is kept, in order).
    let seen: Vec<(u8, String)> = clients[0]
        .frames
        .iter()
        .filter_map(|f| match serde_json::from_str::<ServerMsg>(f) {
            Ok(ServerMsg::Event {
                event: Event::Played { seat, card },
                ..
            }) => Some((seat.0, card.to_string())),
            _ => None,
        })
        .collect();
    let status = server.wait_exit(Duration::from_secs(5).saturating_sub(terminated.elapsed()));
    let elapsed = terminated.elapsed();
    assert!(
        status.is_some_and(|s| s.success()),
        "exit status {status:?} after {elapsed:?}; log:\n{}",
        server.log()
    );
    assert_eq!(goodbyes, 4, "every client is told goodbye");
    // The process has exited; its last lines may still be on their way through the pipe.
    for _ in 0..250 {
        if server.log().contains("stopped") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(server.log().contains("stopped"), "{}", server.log());

    // Every card a client saw played is in the log, in order.
    let stored: Vec<(u8, String)> = dir
        .stored_actions(&id)
        .await
        .into_iter()
        .filter_map(|(seat, action)| {
            let action: Value = serde_json::from_str(&action).expect("json");
            (action["type"] == "play").then(|| (seat, action["card"].as_str().unwrap().to_string()))
        })
        .collect();
    assert!(!seen.is_empty());
    assert!(
        stored.len() >= seen.len() && stored[..seen.len()] == seen[..],
        "seen {seen:?}\nstored {stored:?}"
    );

    // And the table comes back with all of it.
    let server = dir.start();
    let token = clients[0].token.clone().expect("a token");
    let (_client, _, state) = reconnect(server.addr, &id, &token).await;
    let view = &state["view"];
    let played_this_hand = view["trick"]["plays"].as_array().map_or(0, Vec::len)
        + 4 * view["tricks"].as_array().map_or(0, Vec::len);
    let hands_before = view["history"].as_array().map_or(0, Vec::len);
    assert_eq!(
        hands_before * 52 + played_this_hand,
        stored.len(),
        "the restored game holds every stored card: {view}"
    );
    server.stop();
}

#[tokio::test]
async fn sigterm_says_goodbye_exits_zero_and_loses_no_accepted_move_on_sqlite() {
    sigterm_says_goodbye_exits_zero_and_loses_no_accepted_move(Backend::Sqlite).await;
}

#[tokio::test]
async fn sigterm_says_goodbye_exits_zero_and_loses_no_accepted_move_on_postgres() {
    sigterm_says_goodbye_exits_zero_and_loses_no_accepted_move(Backend::Postgres).await;
}

/// A table whose setup does not load is skipped with an error naming it; a log that stops
/// replaying part way comes back up to its last good step with a warning saying what was cut;
/// the other tables come back.
#[tokio::test]
async fn corrupt_table_rows_are_skipped_and_the_other_tables_come_back() {
    let dir = TempDir::new("corrupt-rows");
    let server = ServerProcess::start(dir.path());
    let (good, mut clients) = hearts_table(server.addr, 1).await;
    let (_, last) = play_moves(&mut clients, 9, |_, _| false).await;
    let before = snapshots(&mut clients, last).await;
    let token = clients[0].token.clone().expect("a token");
    let (newer_variant, _c1) = hearts_table(server.addr, 2).await;
    let (newer_action, mut c2) = hearts_table(server.addr, 3).await;
    let (_, last) = play_moves(&mut c2, 6, |_, _| false).await;
    snapshots(&mut c2, last).await;
    let (illegal_action, mut c3) = hearts_table(server.addr, 4).await;
    let (_, last) = play_moves(&mut c3, 10, |_, _| false).await;
    snapshots(&mut c3, last).await;
    server.stop();

    let db = rusqlite::Connection::open(dir.path().join("parlor.db")).expect("open the db");
    db.execute(
        "UPDATE tables SET variant = 'pinochle' WHERE id = ?1",
        [&newer_variant],
    )
    .expect("update");
    let bid = r#"json('{"type":"bid","tricks":7}')"#;
    assert_eq!(
        support::change_stored_action(&db, &newer_action, 5, 1, bid),
        1
    );
    // The last card played again by the next seat: not that seat's turn.
    let next_seat = "(OLD + 1) % 4";
    assert_eq!(
        support::change_stored_action(&db, &illegal_action, 9, 0, next_seat),
        1
    );
    drop(db);

    let server = ServerProcess::start(dir.path());
    let log = server.log();
    // The log names a table by its tag, never its id (a private table's id is its key).
    let tag = parlor_server::store::log_tag(&newer_variant).to_string();
    let line = log
        .lines()
        .find(|l| l.contains(&tag) && l.contains("ERROR"))
        .unwrap_or_else(|| panic!("no error naming table {newer_variant} in the log:\n{log}"));
    assert!(line.contains("unknown variant `pinochle`"), "{line}");
    assert!(line.contains("skipped"), "{line}");
    let (status, _) = http(
        server.addr,
        "GET",
        &format!("/api/tables/{newer_variant}"),
        None,
    )
    .await;
    assert_eq!(status, 404, "table {newer_variant} is skipped");
    for (id, why, kept) in [
        (&newer_action, "action 5 of match 1", "kept_actions=5"),
        (&illegal_action, "action 9 of match 1", "kept_actions=9"),
    ] {
        let tag = parlor_server::store::log_tag(id).to_string();
        let line = log
            .lines()
            .find(|l| l.contains(&tag) && l.contains("WARN"))
            .unwrap_or_else(|| panic!("no warning naming table {id} in the log:\n{log}"));
        assert!(line.contains(why) && line.contains(kept), "{line}");
        assert!(line.contains("last good step"), "{line}");
        let (status, _) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
        assert_eq!(status, 200, "table {id} is back, cut");
    }
    let (status, tables) = http(server.addr, "GET", "/api/tables", None).await;
    assert_eq!(status, 200);
    let mut ids: Vec<&str> = tables
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|t| t["id"].as_str())
        .collect();
    ids.sort_unstable();
    let mut back = vec![
        good.as_str(),
        newer_action.as_str(),
        illegal_action.as_str(),
    ];
    back.sort_unstable();
    assert_eq!(ids, back, "every table but the unreadable one is back");
    let (_client, _, state) = reconnect(server.addr, &good, &token).await;
    assert_eq!(state["view"], before[0]["view"]);
    server.stop();
}

/// A database file that is not a database at all is moved aside with an error in the log,
/// and the server starts empty and works.
#[tokio::test]
async fn an_unreadable_database_file_is_moved_aside_and_the_server_starts() {
    let dir = TempDir::new("garbage-db");
    std::fs::write(
        dir.path().join("parlor.db"),
        b"this is not an SQLite database, it is a shopping list: eggs, milk, flour".repeat(100),
    )
    .expect("write");
    let server = ServerProcess::start(dir.path());
    let log = server.log();
    assert!(
        log.contains("ERROR") && log.contains("moved aside"),
        "{log}"
    );
    let aside: Vec<String> = std::fs::read_dir(dir.path())
        .expect("read dir")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("parlor.db.corrupt-"))
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    let (status, tables) = http(server.addr, "GET", "/api/tables", None).await;
    assert_eq!((status, tables), (200, json!([])));
    let (id, mut clients) = hearts_table(server.addr, 5).await;
    let (_, last) = play_moves(&mut clients, 5, |_, _| false).await;
    snapshots(&mut clients, last).await;
    server.stop();
    // The fresh database keeps the new table.
    let server = ServerProcess::start(dir.path());
    let (status, _) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(status, 200, "{}", server.log());
    server.stop();
}

/// A database file cut short: the server still starts, keeps the tables it can read, and
/// names each table it had to skip in an error.
#[tokio::test]
async fn a_truncated_database_file_keeps_what_can_be_read_and_names_the_rest() {
    let dir = TempDir::new("truncated-db");
    let server = ServerProcess::start(dir.path());
    let mut ids = Vec::new();
    for seed in 0..6 {
        let (id, mut clients) = hearts_table(server.addr, seed).await;
        let (_, last) = play_moves(&mut clients, 60, |_, _| false).await;
        snapshots(&mut clients, last).await;
        ids.push(id);
    }
    server.stop();
    let path = dir.path().join("parlor.db");
    let bytes = std::fs::read(&path).expect("read the database");
    let len = bytes.len() as u64;
    // The page size, from the file's header (big-endian at offset 16).
    let page = u64::from(u16::from_be_bytes([bytes[16], bytes[17]]));
    assert!(len > 8 * page, "a database of several pages ({len} bytes)");
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .expect("open");
    // The last page is cut off (as by a full disk or a copy that stopped short).
    file.set_len(len - page).expect("truncate");
    drop(file);

    let server = ServerProcess::start(dir.path());
    let log = server.log();
    assert!(
        log.contains("moved aside"),
        "the damage is reported:\n{log}"
    );
    let (status, body) = http(server.addr, "GET", "/healthz", None).await;
    let healthy = concat!("ok\nversion ", env!("CARGO_PKG_VERSION"), "\n");
    assert_eq!((status, body), (200, json!(healthy)));
    let (status, tables) = http(server.addr, "GET", "/api/tables", None).await;
    assert_eq!(status, 200);
    let back: Vec<&str> = tables
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|t| t["id"].as_str())
        .collect();
    for id in &ids {
        let tag = parlor_server::store::log_tag(id).to_string();
        let named = log
            .lines()
            .any(|l| l.contains("ERROR") && l.contains("skipped") && l.contains(&tag));
        assert!(
            back.contains(&id.as_str()) != named,
            "table {id} is either back or named as skipped:\n{log}"
        );
    }
    assert!(!back.is_empty(), "some tables are kept:\n{log}");
    server.stop();
    // What was kept is in a healthy file now.
    let server = ServerProcess::start(dir.path());
    let (_, again) = http(server.addr, "GET", "/api/tables", None).await;
    assert_eq!(
        again.as_array().map(Vec::len),
        Some(back.len()),
        "{}",
        server.log()
    );
    server.stop();
}
