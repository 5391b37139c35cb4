//! One person, one seat, and the host is who set the table up, against the real `parlor
//! serve`: a program's host key (kept across a restart) outranks whoever sits down, a host
//! away stays host, a seat given up mid-match is closed to a player's second window until the
//! host opens it, names are tidied and cannot pose as a computer or the host, and a table takes
//! only so many spectators.

mod support;

use std::net::SocketAddr;

use parlor_shared::Seat;
use parlor_shared::protocol::{ClientMsg, Occupant, ServerMsg, TableInfo, TableStatus, codes};
use parlor_tests::{WsClient, http};
use serde_json::{Value, json};
use support::{ServerProcess, TempDir};

/// Creates a whist table; returns its id and host key.
async fn create(addr: SocketAddr, table_options: Value) -> (String, String) {
    let body =
        json!({"variant": "whist", "options": {"target": 1}, "table_options": table_options});
    let (status, reply) = http(addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 201, "{reply}");
    let id = reply["id"].as_str().expect("an id").to_string();
    let key = reply["host_key"].as_str().expect("a host key").to_string();
    (id, key)
}

/// A `join` with these fields.
fn join(table: &str, seat: Option<u8>, name: &str) -> ClientMsg {
    ClientMsg::Join {
        table: table.to_string(),
        seat: seat.map(Seat),
        name: Some(name.to_string()),
        token: None,
        bot: false,
    }
}

/// Reads until a `table` frame satisfies `check`.
async fn table_where(client: &mut WsClient, check: impl Fn(&TableInfo) -> bool) -> TableInfo {
    loop {
        if let ServerMsg::Table { table, .. } = client.recv().await
            && check(&table)
        {
            return table;
        }
    }
}

/// A watcher that claims the host role with `key`.
async fn key_holder(addr: SocketAddr, id: &str, key: &str) -> WsClient {
    let mut program = WsClient::connect(addr).await;
    program
        .send(&ClientMsg::Watch {
            table: id.to_string(),
        })
        .await;
    program
        .recv_until(|m| matches!(m, ServerMsg::Welcome { .. }))
        .await;
    program
        .send(&ClientMsg::ClaimHost {
            key: key.to_string(),
        })
        .await;
    let answer = program
        .recv_until(|m| matches!(m, ServerMsg::Hosting {} | ServerMsg::Error { .. }))
        .await;
    assert_eq!(answer, ServerMsg::Hosting {}, "the key is accepted");
    program
}

/// A program sets a table up with its key and built-in bots; a person who sits down does not
/// become host and cannot take the program's bots out; a wrong key is refused; the key still
/// works after a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_program_that_set_a_table_up_hosts_it() {
    let data = TempDir::new("seats-host-key");
    let server = ServerProcess::start(data.path());
    let (id, key) = create(server.addr, json!({})).await;
    let mut program = key_holder(server.addr, &id, &key).await;
    for seat in [1, 2, 3] {
        program
            .send(&ClientMsg::AddBot {
                seat: Seat(seat),
                strategy: "random".into(),
            })
            .await;
    }
    table_where(&mut program, |t| {
        t.seats[1..].iter().all(|s| s.occupant == Occupant::Bot)
    })
    .await;

    let mut person = WsClient::connect(server.addr).await;
    let host = person.join(&id, "Ann").await;
    assert!(!host, "the person who sits down is not the host");
    person.send(&ClientMsg::RemoveBot { seat: Seat(1) }).await;
    assert_eq!(person.recv_error().await.0, codes::NOT_HOST);
    person
        .send(&ClientMsg::ClaimHost {
            key: "0123456789abcdef0123456789abcdef".into(),
        })
        .await;
    assert_eq!(person.recv_error().await.0, codes::BAD_HOST_KEY);
    let info = table_where(&mut program, |t| t.seats[0].occupant == Occupant::Human).await;
    assert_eq!(info.host, None, "the host has no seat");

    // The program's key still works after a restart; the person still does not host.
    server.stop();
    let server = ServerProcess::start(data.path());
    let mut program = key_holder(server.addr, &id, &key).await;
    program.send(&ClientMsg::RemoveBot { seat: Seat(3) }).await;
    table_where(&mut program, |t| t.seats[3].occupant == Occupant::Empty).await;
    let mut person = WsClient::connect(server.addr).await;
    person.send(&join(&id, Some(3), "Bea")).await;
    let welcome = person.recv().await;
    assert!(
        matches!(welcome, ServerMsg::Welcome { host: false, .. }),
        "{welcome:?}"
    );
    server.stop();
}

/// The host who loses the connection stays host; a seat given up during the match is closed
/// to a newcomer (a player's second window, say) until the host opens it; a connection holds
/// one seat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_given_up_mid_match_are_the_host_s_to_open() {
    let data = TempDir::new("seats-closed");
    let server = ServerProcess::start(data.path());
    let (id, _key) = create(server.addr, json!({"turn_clock_ms": 0})).await;
    let mut host = WsClient::connect(server.addr).await;
    assert!(host.join(&id, "Ann").await, "the first to sit hosts");
    let mut leaver = WsClient::connect(server.addr).await;
    assert!(!leaver.join(&id, "Bob").await);
    leaver.send(&join(&id, None, "Bob again")).await;
    assert_eq!(leaver.recv_error().await.0, codes::ALREADY_JOINED);
    for seat in [2, 3] {
        host.send(&ClientMsg::AddBot {
            seat: Seat(seat),
            strategy: "random".into(),
        })
        .await;
    }
    table_where(&mut host, |t| {
        t.seats.iter().all(|s| s.occupant != Occupant::Empty)
    })
    .await;
    host.send(&ClientMsg::Start {}).await;
    table_where(&mut leaver, |t| t.status == TableStatus::Playing).await;

    // Bob gives his seat up; his second window tries to take it back without the token.
    leaver.send(&ClientMsg::Leave {}).await;
    table_where(&mut host, |t| t.seats[1].bot_playing).await;
    let mut second = WsClient::connect(server.addr).await;
    second.send(&join(&id, None, "Bob")).await;
    assert_eq!(second.recv_error().await.0, codes::SEAT_CLOSED);
    second.send(&join(&id, Some(1), "Bob")).await;
    assert_eq!(second.recv_error().await.0, codes::SEAT_CLOSED);

    // Grandma arrives: the host opens the seat for her.
    host.send(&ClientMsg::OpenSeat { seat: Seat(1) }).await;
    table_where(&mut host, |t| t.seats[1].open).await;
    let mut grandma = WsClient::connect(server.addr).await;
    assert!(!grandma.join(&id, "Grandma").await);
    assert_eq!(grandma.seat, Some(Seat(1)));

    // The host's connection drops: grandma does not become host, and cannot host.
    drop(host);
    let info = table_where(&mut grandma, |t| !t.seats[0].connected).await;
    assert_eq!(info.host, Some(Seat(0)), "the host away is still host");
    grandma.send(&ClientMsg::StandIn { seat: Seat(0) }).await;
    assert_eq!(grandma.recv_error().await.0, codes::NOT_HOST);
    server.stop();
}

/// Names are tidied (and the tidy name comes back in `welcome`); one that poses as a computer
/// or the host, or looks like it does, is refused; a table takes only so many spectators.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_are_tidied_and_spectators_capped() {
    let data = TempDir::new("seats-names");
    let server = ServerProcess::start_with(data.path(), &["--max-spectators", "2"]);
    let (id, _key) = create(server.addr, json!({})).await;
    for name in [
        "heuristic bot",
        "Ada (computer)",
        "Ann (host)",
        "h\u{200B}ost",
        // Look-alikes: fullwidth, Greek omicron, mathematical bold, digits for letters.
        "\u{FF22}\u{FF4F}\u{FF54}",
        "b\u{3BF}t",
        "\u{1D41B}\u{1D428}\u{1D42D}",
        "H\u{3BF}st",
        "h0st",
    ] {
        let mut client = WsClient::connect(server.addr).await;
        client.send(&join(&id, None, name)).await;
        let (code, message) = client.recv_error().await;
        assert_eq!(code, codes::BAD_NAME, "{name:?}");
        assert!(message.contains("choose another name"), "{message}");
    }
    let mut ann = WsClient::connect(server.addr).await;
    ann.send(&join(&id, None, "  \u{202E}Ann\u{200D}  \t Lee\u{2066} "))
        .await;
    let welcome = ann.recv().await;
    let ServerMsg::Welcome { name, .. } = welcome else {
        panic!("expected welcome, got {welcome:?}");
    };
    assert_eq!(name.as_deref(), Some("Ann Lee"));
    let info = table_where(&mut ann, |_| true).await;
    assert_eq!(info.seats[0].name.as_deref(), Some("Ann Lee"));
    assert_eq!(
        info.table_options.turn_clock_ms,
        Some(600_000),
        "a private table's default clock is shown"
    );

    let mut watchers = Vec::new();
    for _ in 0..2 {
        let mut watcher = WsClient::connect(server.addr).await;
        watcher
            .send(&ClientMsg::Watch {
                table: id.to_string(),
            })
            .await;
        assert!(matches!(watcher.recv().await, ServerMsg::Welcome { .. }));
        watchers.push(watcher);
    }
    let mut third = WsClient::connect(server.addr).await;
    third
        .send(&ClientMsg::Watch {
            table: id.to_string(),
        })
        .await;
    assert_eq!(third.recv_error().await.0, codes::TOO_MANY_SPECTATORS);
    // Past the tables sent while the watchers came, then the one after one left.
    table_where(&mut ann, |t| t.spectators == 2).await;
    watchers.pop().expect("a watcher").close().await;
    table_where(&mut ann, |t| t.spectators == 1).await;
    third
        .send(&ClientMsg::Watch {
            table: id.to_string(),
        })
        .await;
    let answer = third.recv().await;
    assert!(matches!(answer, ServerMsg::Welcome { .. }), "{answer:?}");
    server.stop();
}
