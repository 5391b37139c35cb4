//! A disk that stops taking writes mid-match stops the table, never the truth, against the
//! real `parlor` binary. The fault is a file size limit put on the running server
//! (`prlimit --fsize`, which any user may do to their own processes and undo up to the hard
//! limit): every write to the database fails with `EFBIG` until it is lifted, like a full
//! disk, with no mount or privilege needed.
//!
//! The same is checked against the Postgres store with the database itself stopped under a
//! running server and started again.
//!
//! Checked: nobody is sent an event that was not stored (a server killed while paused comes
//! back with everything any client saw), everyone is told the table paused, requests are
//! refused with `storage_unavailable`, `/healthz` and table creation say so, and once the limit
//! is lifted play resumes by itself with no event lost or repeated.

mod support;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::process::Command;

use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_tests::{WsClient, http, next_any};
use serde_json::json;
use support::{Backend, ServerProcess, Storage, TempDir, move_for, play_moves};

/// Sets the soft file size limit of process `pid` (`"0"`, or `"unlimited"` to lift it).
fn set_file_size_limit(pid: u32, limit: &str) {
    let status = Command::new("prlimit")
        .args(["--pid", &pid.to_string(), &format!("--fsize={limit}:")])
        .status()
        .expect("running prlimit");
    assert!(status.success(), "prlimit --fsize={limit}: failed");
}

/// What the clients of one table have seen, per client.
#[derive(Default)]
struct Seen {
    /// The `seq` of the last event each client was sent.
    last_event: HashMap<usize, u64>,
    /// Whether each client's latest `storage` message said saving works.
    saving: HashMap<usize, bool>,
    /// The prompt each client last answered (and was not refused): a prompt sent again after
    /// a pause keeps its `seq`, and is answered only if that answer was refused.
    answered: HashMap<usize, u64>,
}

impl Seen {
    /// Notes one message; panics on an event that skips or repeats one (its `prev` is not the
    /// last event this client saw).
    fn note(&mut self, i: usize, msg: &ServerMsg) {
        match msg {
            ServerMsg::Event { seq, prev, .. } => {
                if let Some(last) = self.last_event.insert(i, *seq) {
                    assert_eq!(
                        *prev, last,
                        "client {i}: an event lost or repeated ({msg:?})"
                    );
                    assert!(*seq > last, "client {i}: events out of order");
                }
            }
            ServerMsg::Storage { saving, message } => {
                assert!(!message.is_empty());
                self.saving.insert(i, *saving);
            }
            _ => {}
        }
    }

    /// Answers a prompt once: the move for client `i`'s prompt, unless already answered.
    fn answer(&mut self, i: usize, client: &WsClient, msg: &ServerMsg) -> Option<ClientMsg> {
        let ServerMsg::YourTurn { seq, legal, .. } = msg else {
            return None;
        };
        if self.answered.get(&i) == Some(seq) {
            return None;
        }
        let reply = move_for(client.seat.expect("seated"), legal)?;
        self.answered.insert(i, *seq);
        Some(reply)
    }

    /// A refusal while paused: client `i`'s last answer did not count.
    fn refused(&mut self, i: usize) {
        self.answered.remove(&i);
    }
}

/// The newest event any of `clients` was ever sent.
fn newest(clients: &[WsClient]) -> u64 {
    let events =
        clients.iter().flat_map(|c| &c.frames).filter_map(|f| {
            match serde_json::from_str::<ServerMsg>(f) {
                Ok(ServerMsg::Event { seq, .. }) => Some(seq),
                _ => None,
            }
        });
    events.max().unwrap_or(0)
}

/// Plays every prompt until all `n` clients were told `storage` with `saving == want`;
/// refusals are expected only while not saving. Bounded by a generous number of messages.
async fn play_until_told(clients: &mut [WsClient], seen: &mut Seen, want: bool) {
    for _ in 0..100_000 {
        if (0..clients.len()).all(|i| seen.saving.get(&i) == Some(&want)) {
            return;
        }
        let (i, msg) = next_any(clients).await;
        seen.note(i, &msg);
        if let Some(reply) = seen.answer(i, &clients[i], &msg) {
            clients[i].send(&reply).await;
        }
        if let ServerMsg::Error { code, message } = &msg {
            assert_eq!(code, "storage_unavailable", "client {i}: {message}");
            seen.refused(i);
        }
    }
    panic!("not every client was told saving = {want}");
}

/// A hearts match with four remote clients, started, with `moves` moves played.
async fn match_under_way(addr: SocketAddr, moves: usize) -> (String, Vec<WsClient>) {
    let (id, mut clients) = support::started_hearts_table(addr, 50).await;
    play_moves(&mut clients, moves, |_, _| false).await;
    (id, clients)
}

/// Checks what the server says while it cannot write: unhealthy, no new tables, requests
/// refused with `storage_unavailable`.
async fn check_paused(addr: SocketAddr, table: &str, client: &mut WsClient) {
    let (status, body) = http(addr, "GET", "/healthz", None).await;
    assert_eq!(status, 503, "{body}");
    let body = json!({"variant": "hearts"});
    let (status, reply) = http(addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 503, "{reply}");
    assert_eq!(reply["code"], "storage_unavailable", "{reply}");
    // A new connection has sent nothing else, so its first reply is its join's.
    let mut watcher = WsClient::connect(addr).await;
    watcher
        .send(&ClientMsg::Watch {
            table: table.to_string(),
        })
        .await;
    match watcher.recv().await {
        ServerMsg::Error { code, message } => {
            assert_eq!(code, "storage_unavailable", "{message}")
        }
        other => panic!("a watcher joined a paused table: {other:?}"),
    }
    // A seat's refusal may follow refusals of moves it sent as the pause began: they all
    // carry the same code, so this one is checked only to be a refusal.
    client.send(&ClientMsg::Sync {}).await;
    let (code, message) = client.recv_error().await;
    assert_eq!(code, "storage_unavailable", "{message}");
}

/// Rejoins a table with each client's token; returns the new clients and each one's `seq`.
async fn rejoin(addr: SocketAddr, id: &str, tokens: &[String]) -> (Vec<WsClient>, Vec<u64>) {
    let mut clients = Vec::new();
    let mut seqs = Vec::new();
    for token in tokens {
        let mut client = WsClient::connect(addr).await;
        client
            .send(&ClientMsg::Join {
                table: id.to_string(),
                seat: None,
                name: None,
                token: Some(token.clone()),
                bot: false,
            })
            .await;
        let state = client
            .recv_until(|m| matches!(m, ServerMsg::State { .. } | ServerMsg::Error { .. }))
            .await;
        let ServerMsg::State { seq, .. } = state else {
            panic!("the table is not back: {state:?}");
        };
        seqs.push(seq);
        clients.push(client);
    }
    (clients, seqs)
}

#[tokio::test]
async fn a_table_pauses_while_the_disk_fails_and_resumes_with_nothing_lost() {
    let dir = TempDir::new("disk-full-resume");
    let server = ServerProcess::start(dir.path());
    let (id, mut clients) = match_under_way(server.addr, 10).await;
    let mut seen = Seen::default();

    set_file_size_limit(server.pid(), "0");
    play_until_told(&mut clients, &mut seen, false).await;
    check_paused(server.addr, &id, &mut clients[0]).await;

    set_file_size_limit(server.pid(), "unlimited");
    play_until_told(&mut clients, &mut seen, true).await;
    // Play goes on where it stopped, every event in order.
    let mut moves = 0;
    while moves < 24 {
        let (i, msg) = next_any(&mut clients).await;
        seen.note(i, &msg);
        if let ServerMsg::Error { code, message } = &msg {
            panic!("client {i}: {code}: {message}");
        }
        if let Some(reply) = seen.answer(i, &clients[i], &msg) {
            clients[i].send(&reply).await;
            moves += 1;
        }
    }
    let (status, body) = http(server.addr, "GET", "/healthz", None).await;
    assert_eq!(status, 200, "{body}");

    // What anyone saw was stored.
    let tokens: Vec<String> = clients
        .iter()
        .map(|c| c.token.clone().expect("token"))
        .collect();
    let newest = newest(&clients);
    server.kill9();
    let server = ServerProcess::start(dir.path());
    let (_clients, seqs) = rejoin(server.addr, &id, &tokens).await;
    assert!(
        seqs.iter().all(|&s| s >= newest),
        "restored at {seqs:?}, seen {newest}"
    );
    server.stop();
}

#[tokio::test]
async fn a_server_killed_while_paused_comes_back_with_everything_anyone_saw() {
    let dir = TempDir::new("disk-full-kill");
    let server = ServerProcess::start(dir.path());
    let (id, mut clients) = match_under_way(server.addr, 10).await;
    let mut seen = Seen::default();

    set_file_size_limit(server.pid(), "0");
    play_until_told(&mut clients, &mut seen, false).await;
    check_paused(server.addr, &id, &mut clients[1]).await;
    let tokens: Vec<String> = clients
        .iter()
        .map(|c| c.token.clone().expect("token"))
        .collect();
    let newest = newest(&clients);
    assert!(newest > 0);
    server.kill9();

    let server = ServerProcess::start(dir.path());
    let (mut clients, seqs) = rejoin(server.addr, &id, &tokens).await;
    assert!(
        seqs.iter().all(|&s| s >= newest),
        "restored at {seqs:?}, but a client saw event {newest}; the log:\n{}",
        server.log()
    );
    // And the match goes on.
    let (sent, _) = play_moves(&mut clients, 8, |_, _| false).await;
    assert_eq!(sent, 8);
    server.stop();
}

/// Postgres stopped under a live server (connections cut, new ones refused): the tables
/// pause and say so, `/healthz` is unhealthy, requests are refused; once Postgres is back
/// play resumes by itself with no event lost or repeated, and a server killed afterwards
/// comes back with everything anyone saw.
#[tokio::test]
async fn postgres_restarted_under_a_live_server_pauses_the_tables_then_play_goes_on() {
    let storage = Storage::new(Backend::Postgres, "pg-restart").await;
    let pg = storage.postgres().expect("a Postgres store");
    if !pg.is_private() {
        eprintln!("PARLOR_TEST_POSTGRES is set: this test needs a Postgres it can stop; skipped");
        return;
    }
    let server = storage.start();
    let (id, mut clients) = match_under_way(server.addr, 10).await;
    let mut seen = Seen::default();

    pg.stop();
    play_until_told(&mut clients, &mut seen, false).await;
    check_paused(server.addr, &id, &mut clients[0]).await;
    assert!(
        server.log().contains("tables pause"),
        "the server says why:\n{}",
        server.log()
    );

    pg.restart();
    play_until_told(&mut clients, &mut seen, true).await;
    let mut moves = 0;
    while moves < 24 {
        let (i, msg) = next_any(&mut clients).await;
        seen.note(i, &msg);
        if let ServerMsg::Error { code, message } = &msg {
            panic!("client {i}: {code}: {message}");
        }
        if let Some(reply) = seen.answer(i, &clients[i], &msg) {
            clients[i].send(&reply).await;
            moves += 1;
        }
    }
    let (status, body) = http(server.addr, "GET", "/healthz", None).await;
    assert_eq!(status, 200, "{body}");

    let tokens: Vec<String> = clients
        .iter()
        .map(|c| c.token.clone().expect("token"))
        .collect();
    let newest = newest(&clients);
    server.kill9();
    let server = storage.start();
    let (mut clients, seqs) = rejoin(server.addr, &id, &tokens).await;
    assert!(
        seqs.iter().all(|&s| s >= newest),
        "restored at {seqs:?}, but a client saw event {newest}; the log:\n{}",
        server.log()
    );
    let (sent, _) = play_moves(&mut clients, 8, |_, _| false).await;
    assert_eq!(sent, 8);
    server.stop();
}
