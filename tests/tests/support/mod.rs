//! The real `parlor` binary as a child process, for tests that kill or signal the server.
//!
//! The binary is `PARLOR_BIN` when set (as `tests/run.sh` does), otherwise it is built once
//! per test process with `cargo build -p parlor-server --bin parlor` (a no-op when it is up to
//! date) and taken from the target directory this test executable lives in. Building it here
//! keeps `cargo test -p parlor-tests` from running an old binary: cargo only builds the
//! binaries of the package under test, and `parlor` belongs to `parlor-server`.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use parlor_shared::bots::RandomBot;
use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_shared::{Card, Legal, Seat};
use parlor_tests::{WsClient, move_message};

/// The `parlor` binary to test.
pub fn parlor_bin() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        if let Some(bin) = std::env::var_os("PARLOR_BIN") {
            return PathBuf::from(bin);
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let status = Command::new(cargo)
            .args(["build", "--quiet", "-p", "parlor-server", "--bin", "parlor"])
            .current_dir(&root)
            .status()
            .expect("running cargo build for the parlor binary");
        assert!(status.success(), "building the parlor binary failed");
        // This test runs from <target>/debug/deps/; the binary is in <target>/debug/.
        let exe = std::env::current_exe().expect("the test executable's path");
        let bin = exe
            .parent()
            .and_then(Path::parent)
            .expect("the target directory")
            .join(format!("parlor{}", std::env::consts::EXE_SUFFIX));
        assert!(bin.exists(), "no parlor binary at {}", bin.display());
        bin
    })
    .clone()
}

/// A fresh, empty directory for one test's data, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A new directory under the system's temporary directory.
    pub fn new(name: &str) -> TempDir {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "parlor-test-{name}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("creating a temporary directory");
        TempDir(dir)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A `parlor serve` child process on a free port with its own data directory.
pub struct ServerProcess {
    /// The process.
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
    /// Everything it has logged so far (stderr, without colours).
    log: Arc<Mutex<String>>,
}

impl ServerProcess {
    /// Starts `parlor serve --addr 127.0.0.1:0 --data DIR` and waits until it listens.
    pub fn start(data: &Path) -> ServerProcess {
        ServerProcess::start_with(data, &[])
    }

    /// Starts `parlor serve --addr 127.0.0.1:0 --data DIR ARGS...` and waits until it listens.
    pub fn start_with(data: &Path, args: &[&str]) -> ServerProcess {
        let mut child = Command::new(parlor_bin())
            .args(["serve", "--addr", "127.0.0.1:0", "--data"])
            .arg(data)
            .args(args)
            .env("RUST_LOG", "info")
            .env("NO_COLOR", "1")
            // The store is the test's choice (`--store`), never the environment's.
            .env_remove("PARLOR_STORE")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starting parlor serve");
        let stderr = child.stderr.take().expect("stderr");
        let log = Arc::new(Mutex::new(String::new()));
        let (tx, rx) = std::sync::mpsc::channel();
        let sink = Arc::clone(&log);
        std::thread::spawn(move || {
            let mut tx = Some(tx);
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let line = strip_ansi(&line);
                if let Some(addr) = listening_addr(&line)
                    && let Some(tx) = tx.take()
                {
                    let _ = tx.send(addr);
                }
                let mut log = sink.lock().expect("log lock");
                log.push_str(&line);
                log.push('\n');
            }
        });
        let addr = match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(addr) => addr,
            Err(_) => {
                let _ = child.kill();
                panic!(
                    "parlor serve did not start listening; its log:\n{}",
                    log.lock().expect("log lock")
                );
            }
        };
        ServerProcess { child, addr, log }
    }

    /// What the server has logged so far.
    pub fn log(&self) -> String {
        self.log.lock().expect("log lock").clone()
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills the process with SIGKILL (no chance to flush anything) and reaps it.
    pub fn kill9(mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reaping the server");
    }

    /// Sends SIGTERM.
    pub fn sigterm(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.pid().to_string()])
            .status()
            .expect("running kill");
        assert!(status.success(), "kill -TERM failed");
    }

    /// Waits up to `limit` for the process to exit; `None` if it is still running (then it
    /// is killed).
    pub fn wait_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return Some(status);
            }
            if Instant::now() >= deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Stops the server gracefully and checks that it exits successfully.
    pub fn stop(mut self) {
        self.sigterm();
        let status = self.wait_exit(Duration::from_secs(10));
        assert!(
            status.is_some_and(|s| s.success()),
            "parlor serve did not stop cleanly ({status:?}); its log:\n{}",
            self.log()
        );
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Removes terminal colour codes.
fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The address in the server's "parlor is serving: open http://ADDR/" line.
fn listening_addr(line: &str) -> Option<SocketAddr> {
    let rest = line.split("open http://").nth(1)?;
    rest.split('/').next()?.trim().parse().ok()
}

/// A move chosen from the seat and what it may do alone, so a game played again (or
/// resumed after a crash) makes exactly the same moves.
pub fn move_for(seat: Seat, legal: &Legal) -> Option<ClientMsg> {
    let cards: Vec<Card> = match legal {
        Legal::Play { cards } => cards.iter().collect(),
        Legal::Pass { from, .. } | Legal::Exchange { from, .. } | Legal::Discard { from } => {
            from.iter().collect()
        }
        Legal::Bid { .. } | Legal::Blind | Legal::Call { .. } | Legal::AnswerClaim { .. } => {
            Vec::new()
        }
        Legal::Wait => return None,
    };
    let mut key = u64::from(seat.0) + 1;
    for card in &cards {
        key = key
            .wrapping_mul(31)
            .wrapping_add(card.to_string().len() as u64);
        for b in card.to_string().bytes() {
            key = key.wrapping_mul(131).wrapping_add(u64::from(b));
        }
    }
    RandomBot::new(key).choose_legal(legal).map(move_message)
}

/// Answers prompts with [`move_for`] until `moves` moves have been sent or `stop` says so;
/// returns the moves sent and the index of the client that sent the last one.
pub async fn play_moves(
    clients: &mut [WsClient],
    moves: usize,
    mut stop: impl FnMut(usize, &ServerMsg) -> bool,
) -> (usize, Option<usize>) {
    let mut sent = 0;
    let mut last = None;
    // A prompt repeated (after a `sync`, or on joining) is answered once.
    let mut answered: Vec<Option<u64>> = vec![None; clients.len()];
    while sent < moves {
        let (i, msg) = parlor_tests::next_any(clients).await;
        if let ServerMsg::Error { code, message } = &msg {
            panic!("client {i} got an error: {code}: {message}");
        }
        if let ServerMsg::YourTurn { legal, seq, .. } = &msg {
            let seat = clients[i].seat.expect("a seated client");
            if answered[i] == Some(*seq) {
                continue;
            }
            answered[i] = Some(*seq);
            if let Some(reply) = move_for(seat, legal) {
                clients[i].send(&reply).await;
                sent += 1;
                last = Some(i);
            }
        }
        if stop(i, &msg) {
            break;
        }
    }
    (sent, last)
}

/// Plays with every client until client 0 sees the match end.
pub async fn play_to_end(clients: &mut [WsClient]) {
    play_moves(clients, usize::MAX, |i, msg| {
        i == 0
            && matches!(
                msg,
                ServerMsg::Event {
                    event: parlor_shared::Event::MatchOver { .. },
                    ..
                }
            )
    })
    .await;
}

/// Every finished hand of a table, as the node at `addr` serves them, without the table id
/// (so runs of the same deals at different tables compare equal).
pub async fn all_hands(addr: SocketAddr, id: &str) -> Vec<serde_json::Value> {
    let path = format!("/api/tables/{id}/hands");
    let (status, list) = parlor_tests::http(addr, "GET", &path, None).await;
    assert_eq!(status, 200, "{list}");
    let mut hands = Vec::new();
    for entry in list.as_array().expect("a list") {
        let url = entry["url"].as_str().expect("a url");
        let (status, mut hand) = parlor_tests::http(addr, "GET", url, None).await;
        assert_eq!(status, 200, "{hand}");
        hand.as_object_mut().expect("an object").remove("table");
        hands.push(hand);
    }
    hands
}

/// Creates a hearts table to `target` points (players' seats kept 10 minutes while away),
/// seats four remote clients and starts the match; returns the id and the clients.
pub async fn started_hearts_table(addr: SocketAddr, target: i32) -> (String, Vec<WsClient>) {
    let body = serde_json::json!({"variant": "hearts", "options": {"target": target},
                                  "table_options": {"grace_ms": 600_000}});
    let (status, reply) = parlor_tests::http(addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 201, "{reply}");
    let id = reply["id"].as_str().expect("an id").to_string();
    let mut clients = join_four(addr, &id).await;
    clients[0].send(&ClientMsg::Start {}).await;
    (id, clients)
}

/// Four remote clients, `p0` to `p3`, joined at table `id` (one to a seat).
pub async fn join_four(addr: SocketAddr, id: &str) -> Vec<WsClient> {
    let mut clients = Vec::new();
    for i in 0..4 {
        let mut client = WsClient::connect(addr).await;
        client.join(id, &format!("p{i}")).await;
        clients.push(client);
    }
    clients
}

/// Which store a test's servers keep their tables in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// The embedded SQLite file in a data directory (the default).
    Sqlite,
    /// A database on a real, private Postgres (see `parlor_tests::postgres`).
    Postgres,
}

/// Where one test's servers keep their tables: a data directory, and for [`Backend::Postgres`]
/// a private Postgres with a database of the test's own. Servers started from it one after
/// another find the same tables.
pub struct Storage {
    /// The data directory (`--data`; unused by a Postgres store).
    pub dir: TempDir,
    /// The Postgres server and the test's database URL.
    pub postgres: Option<(parlor_tests::postgres::Postgres, String)>,
}

impl Storage {
    /// Storage on `backend` for the test `name`.
    pub async fn new(backend: Backend, name: &str) -> Storage {
        let dir = TempDir::new(name);
        let postgres = match backend {
            Backend::Sqlite => None,
            Backend::Postgres => {
                let pg = tokio::task::spawn_blocking(parlor_tests::postgres::Postgres::start)
                    .await
                    .expect("starting Postgres");
                let url = pg.database(name).await;
                Some((pg, url))
            }
        };
        Storage { dir, postgres }
    }

    /// The backend.
    pub fn backend(&self) -> Backend {
        if self.postgres.is_some() {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }

    /// Starts `parlor serve` on this storage.
    pub fn start(&self) -> ServerProcess {
        self.start_with(&[])
    }

    /// Starts `parlor serve ARGS...` on this storage.
    pub fn start_with(&self, args: &[&str]) -> ServerProcess {
        let mut all: Vec<&str> = Vec::new();
        if let Some((_, url)) = &self.postgres {
            all.extend(["--store", url.as_str()]);
        }
        all.extend_from_slice(args);
        ServerProcess::start_with(self.dir.path(), &all)
    }

    /// Starts cluster node `name` on this storage with a lease of `lease_ms` and the tests'
    /// cluster secret, then `extra` arguments.
    pub fn start_node(&self, name: &str, lease_ms: &str, extra: &[&str]) -> ServerProcess {
        let mut args = vec![
            "--node-id",
            name,
            "--lease-ms",
            lease_ms,
            "--cluster-secret",
            CLUSTER_SECRET,
        ];
        args.extend_from_slice(extra);
        self.start_with(&args)
    }

    /// The Postgres server, for a Postgres backend.
    pub fn postgres(&self) -> Option<&parlor_tests::postgres::Postgres> {
        self.postgres.as_ref().map(|(pg, _)| pg)
    }

    /// Every stored action of table `id` in order, as (seat, action JSON).
    pub async fn stored_actions(&self, id: &str) -> Vec<(u8, String)> {
        match &self.postgres {
            None => {
                let db = rusqlite::Connection::open(self.dir.path().join("parlor.db"))
                    .expect("open the db");
                let mut stmt = db
                    .prepare(
                        "SELECT seat, action FROM actions \
                         WHERE table_no = (SELECT no FROM table_numbers WHERE id = ?1) \
                         ORDER BY match_no, idx",
                    )
                    .expect("query");
                stmt.query_map([id], |row| Ok((row.get(0)?, row.get(1)?)))
                    .expect("rows")
                    .map(|r| r.expect("row"))
                    .collect()
            }
            Some((pg, url)) => {
                let name = url.rsplit('/').next().expect("a database name");
                let client = pg.connect(name).await;
                client
                    .query(
                        "SELECT seat, action FROM actions WHERE table_id = $1 \
                         ORDER BY match_no, idx",
                        &[&id],
                    )
                    .await
                    .expect("rows")
                    .iter()
                    .map(|row| (row.get::<_, i16>(0) as u8, row.get(1)))
                    .collect()
            }
        }
    }
}

/// Connects a bot's `available` connection and waits for the server's answer.
pub async fn go_online(
    addr: SocketAddr,
    token: &str,
    variants: Vec<parlor_shared::Variant>,
    max: u32,
) -> WsClient {
    let mut bot = WsClient::connect(addr).await;
    bot.send(&ClientMsg::Available {
        token: token.into(),
        variants,
        max_tables: max,
    })
    .await;
    match bot.recv().await {
        ServerMsg::Available { .. } => bot,
        other => panic!("expected available, got {other:?}"),
    }
}

/// Changes one part of the SQLite-stored action `idx` of table `id` (`part` 0: its seat, 1:
/// the action, 2: its `seq`) to the SQL expression `value`, in which `OLD` stands for the
/// part's value now. Returns how many rows changed (one when it is stored).
pub fn change_stored_action(
    db: &rusqlite::Connection,
    id: &str,
    idx: u32,
    part: u8,
    value: &str,
) -> usize {
    let column = ["seat", "action", "seq"][usize::from(part)];
    let value = value.replace("OLD", column);
    db.execute(
        &format!(
            "UPDATE actions SET {column} = {value}
             WHERE table_no = (SELECT no FROM table_numbers WHERE id = ?1) AND idx = ?2"
        ),
        rusqlite::params![id, idx],
    )
    .expect("change a stored action")
}

/// The cluster secret the tests' nodes share.
pub const CLUSTER_SECRET: &str = "test-secret";

/// The cluster part of the node's `GET /api/stats` at `addr`.
pub async fn cluster_stats(addr: SocketAddr) -> serde_json::Value {
    let (status, stats) = parlor_tests::http_with(
        addr,
        "GET",
        "/api/stats",
        &[("x-parlor-cluster-secret", CLUSTER_SECRET)],
        None,
    )
    .await;
    assert_eq!(status, 200, "{stats}");
    stats["cluster"].clone()
}
