//! The data directory is Parlor's alone, against the real `parlor` binary: a second server on
//! the same directory is refused (and the lock goes with the first one, even after
//! `kill -9`); a directory it cannot write (with SQLite's `-wal`/`-shm` files left over) is
//! refused at start, not served while storing nothing; another program's SQLite file is
//! refused and left untouched, while an older Parlor database is adopted; a log damaged part
//! way comes back up to its last good step; `--store sqlite:DIR` is `--data DIR`.

mod support;

use std::path::Path;
use std::process::{Command, Stdio};

use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_tests::{WsClient, http};
use support::{ServerProcess, TempDir, parlor_bin, play_moves};

/// Parlor's `application_id` (the bytes `PRLR`).
const APPLICATION_ID: i32 = 0x5052_4C52;

/// Runs `parlor serve` on `data` expecting it to refuse to start; returns its output.
fn refused(data: &Path, configure: impl FnOnce(&mut Command)) -> String {
    let mut command = Command::new(parlor_bin());
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(data)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null());
    configure(&mut command);
    // A server that wrongly starts would serve forever: it is stopped once it says it
    // listens, and the test fails on its exit status.
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting parlor serve");
    let stderr = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        use std::io::{BufRead, BufReader};
        let mut log = String::new();
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if line.contains("parlor is serving") {
                log.push_str("STARTED\n");
                break;
            }
            log.push_str(&line);
            log.push('\n');
        }
        log
    });
    let log = reader.join().expect("the log reader");
    let _ = child.kill();
    let status = child.wait().expect("reaping parlor serve");
    assert!(
        !log.contains("STARTED") && !status.success(),
        "parlor serve started on {}; its log:\n{log}",
        data.display()
    );
    log
}

#[tokio::test]
async fn a_second_server_on_the_same_directory_is_refused() {
    let dir = TempDir::new("two-servers");
    let first = ServerProcess::start(dir.path());
    let (id, _clients) = support::started_hearts_table(first.addr, 30).await;
    let log = refused(dir.path(), |_| {});
    assert!(
        log.contains("in use by another parlor process"),
        "no clear message; the log:\n{log}"
    );
    // The first one goes on unharmed; after kill -9 the lock is gone with it.
    let (status, _) = http(first.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(status, 200);
    first.kill9();
    let second = ServerProcess::start(dir.path());
    let (status, table) = http(second.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(status, 200, "{table}");
    second.stop();
}

/// The current user id (`Uid:` of `/proc/self/status`).
fn uid() -> u32 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|u| u.parse().ok())
        .expect("a uid")
}

/// Sets `path`'s permission bits.
fn chmod(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

#[tokio::test]
async fn a_read_only_directory_with_leftover_log_files_is_refused() {
    let dir = TempDir::new("read-only");
    let server = ServerProcess::start(dir.path());
    let (_id, mut clients) = support::started_hearts_table(server.addr, 30).await;
    play_moves(&mut clients, 6, |_, _| false).await;
    server.kill9();
    let db = dir.path().join("parlor.db");
    for suffix in ["-wal", "-shm"] {
        assert!(
            Path::new(&format!("{}{suffix}", db.display())).exists(),
            "kill -9 leaves the {suffix} file"
        );
    }
    for entry in std::fs::read_dir(dir.path()).expect("read_dir") {
        chmod(&entry.expect("entry").path(), 0o444);
    }
    chmod(dir.path(), 0o555);
    let before = std::fs::read(&db).expect("the database");
    // Permission bits do not stop root: as root, the server runs as `nobody`.
    let as_root = uid() == 0;
    let log = refused(dir.path(), |command| {
        if as_root {
            use std::os::unix::process::CommandExt;
            command.uid(65_534).gid(65_534);
        }
    });
    chmod(dir.path(), 0o755);
    assert!(
        log.contains("cannot be written"),
        "no clear message; the log:\n{log}"
    );
    assert_eq!(std::fs::read(&db).expect("the database"), before);
}

#[tokio::test]
async fn another_program_s_sqlite_file_is_refused_and_left_untouched() {
    // Tables of its own, no application id.
    let dir = TempDir::new("foreign");
    let db = dir.path().join("parlor.db");
    let conn = rusqlite::Connection::open(&db).expect("create");
    conn.execute_batch("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');")
        .expect("a foreign table");
    drop(conn);
    let before = std::fs::read(&db).expect("the file");
    let log = refused(dir.path(), |_| {});
    assert!(
        log.contains("is not a Parlor database") && log.contains("notes"),
        "no clear message; the log:\n{log}"
    );
    assert_eq!(
        std::fs::read(&db).expect("the file"),
        before,
        "left as it was"
    );
    assert!(
        !Path::new(&format!("{}-wal", db.display())).exists(),
        "not switched to WAL"
    );

    // Another program's application id, even with no tables yet.
    let dir = TempDir::new("foreign-id");
    let db = dir.path().join("parlor.db");
    let conn = rusqlite::Connection::open(&db).expect("create");
    conn.pragma_update(None, "application_id", 0x4750_4B47)
        .expect("an id");
    drop(conn);
    let log = refused(dir.path(), |_| {});
    assert!(
        log.contains("is not a Parlor database") && log.contains("application_id"),
        "no clear message; the log:\n{log}"
    );
}

#[tokio::test]
async fn an_older_parlor_database_is_adopted_and_stamped() {
    let dir = TempDir::new("older");
    let server = ServerProcess::start(dir.path());
    let (id, _clients) = support::started_hearts_table(server.addr, 30).await;
    server.stop();
    let db = dir.path().join("parlor.db");
    let conn = rusqlite::Connection::open(&db).expect("open");
    let stamped: i32 = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .expect("id");
    assert_eq!(stamped, APPLICATION_ID, "a new database is stamped");
    // As an older Parlor left it: no application id.
    conn.pragma_update(None, "application_id", 0)
        .expect("unstamp");
    drop(conn);
    let server = ServerProcess::start(dir.path());
    let (status, table) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(status, 200, "{table}");
    server.stop();
    let conn = rusqlite::Connection::open(&db).expect("open");
    let stamped: i32 = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .expect("id");
    assert_eq!(stamped, APPLICATION_ID, "adopted and stamped");
}

#[tokio::test]
async fn a_log_damaged_part_way_comes_back_up_to_its_last_good_step() {
    let dir = TempDir::new("cut");
    let server = ServerProcess::start(dir.path());
    let (id, mut clients) = support::started_hearts_table(server.addr, 30).await;
    play_moves(&mut clients, 12, |_, _| false).await;
    let tokens: Vec<String> = clients
        .iter()
        .map(|c| c.token.clone().expect("a token"))
        .collect();
    server.stop();
    // Action 8 of the match is damaged; 9 and later can no longer be replayed after it.
    let db = dir.path().join("parlor.db");
    let conn = rusqlite::Connection::open(&db).expect("open");
    let (actions, seq_7): (i64, i64) = conn
        .query_row(
            "SELECT count(*), (SELECT seq FROM actions WHERE table_no = n.no AND idx = 7)
             FROM actions, (SELECT no FROM table_numbers WHERE id = ?1) AS n
             WHERE table_no = n.no",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("the log");
    // The last moves sent may still be on their way when the server stops.
    assert!(actions >= 10, "{actions} actions stored");
    let damaged = r#"json('{"type":"play","card":"??"}')"#;
    assert_eq!(support::change_stored_action(&conn, &id, 8, 1, damaged), 1);
    drop(conn);

    let server = ServerProcess::start(dir.path());
    let (status, table) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(status, 200, "the table is back: {table}\n{}", server.log());
    assert!(
        server.log().contains("restored up to its last good step"),
        "a warning says what was cut:\n{}",
        server.log()
    );
    // Everyone rejoins with their token: the game is where action 7 left it, and goes on.
    let mut clients = Vec::new();
    for token in &tokens {
        let mut client = WsClient::connect(server.addr).await;
        client
            .send(&ClientMsg::Join {
                table: id.clone(),
                seat: None,
                name: None,
                token: Some(token.clone()),
                bot: false,
            })
            .await;
        client
            .recv_until(|m| matches!(m, ServerMsg::Welcome { .. }))
            .await;
        clients.push(client);
    }
    let state = clients[0].snapshot().await;
    assert_eq!(state["seq"].as_i64(), Some(seq_7), "{state}");
    let (sent, last) = play_moves(&mut clients, 6, |_, _| false).await;
    assert_eq!(sent, 6);
    // The last move is stored once its event is out: wait for it before stopping (a move
    // still on its way when the server stops is not one it accepted).
    let last = last.expect("someone moved");
    let mover = clients[last].seat.expect("a seated client");
    clients[last]
        .recv_until(|m| {
            matches!(m, ServerMsg::Event { event: parlor_shared::Event::Played { seat, .. }, .. } if *seat == mover)
        })
        .await;
    server.stop();
    let conn = rusqlite::Connection::open(&db).expect("open");
    let kept: i64 = conn
        .query_row(
            "SELECT count(*) FROM actions
             WHERE table_no = (SELECT no FROM table_numbers WHERE id = ?1)",
            [&id],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(
        kept,
        8 + 6,
        "the cut rows are gone and the new moves stored"
    );
}

/// `--store sqlite:DIR` is `--data DIR`: the tables live in that directory and come back from
/// it; an unknown store is refused at start with what to give instead.
#[tokio::test]
async fn store_sqlite_dir_is_the_data_directory() {
    let unused = TempDir::new("store-alias-unused");
    let dir = TempDir::new("store-alias");
    let store = format!("sqlite:{}", dir.path().display());
    let server = ServerProcess::start_with(unused.path(), &["--store", &store]);
    let (id, _clients) = support::started_hearts_table(server.addr, 30).await;
    server.stop();
    assert!(
        dir.path().join("parlor.db").exists(),
        "the store's directory"
    );
    assert!(!unused.path().join("parlor.db").exists(), "not --data");
    let server = ServerProcess::start(dir.path());
    let (status, table) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(status, 200, "{table}");
    server.stop();

    let log = refused(unused.path(), |c| {
        c.args(["--store", "mysql://ann@db/parlor"]);
    });
    assert!(
        log.contains("unknown store") && log.contains("postgres://"),
        "{log}"
    );
}
