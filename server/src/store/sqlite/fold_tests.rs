//! The action log's two tiers: actions waiting in the log are read with their table, survive
//! a killed process, are folded into `actions` as they age, and cuts and repeats behave as
//! they did with `actions` alone.

use std::path::Path;

use rusqlite::Connection;

use super::fold::{BATCH_BYTES, KEEP, RING};
use super::{DB_FILE, SqliteStore, schema};
use crate::store::records::{ActionRow, MatchRow, TableRow, Write};
use crate::store::test_support::{Dir, seat_rows};
use crate::store::{Ack, Startup, Store};

fn table_row(id: &str) -> TableRow {
    TableRow {
        id: id.into(),
        variant: "hearts".into(),
        options: "{}".into(),
        table_options: "{}".into(),
        seed: Some(5),
        created: 0,
        status: "playing".into(),
        host: Some(0),
        host_key: None,
    }
}

fn action(idx: u32, text: &str) -> ActionRow {
    ActionRow {
        match_no: 1,
        idx,
        seat: (idx % 4) as u8,
        action: format!(r#"{{"type":"play","card":"{text}"}}"#),
        seq: u64::from(idx) + 10,
    }
}

/// Writes `row` of `table` straight into `log` (`action_log` or `action_log_b`) as row `n`,
/// as a process killed before folding it left it.
pub(super) fn insert_log_row(conn: &Connection, log: &str, n: i64, table: &str, row: &ActionRow) {
    conn.execute(
        &format!(
            "INSERT INTO {log} (n, table_id, match_no, idx, seat, action, seq)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
        ),
        rusqlite::params![
            n,
            table,
            row.match_no,
            row.idx,
            row.seat,
            row.action,
            row.seq as i64
        ],
    )
    .unwrap();
}

/// Writes `row` of `table` into `actions`, the table of a row per action of files before
/// runs.
fn insert_old_action(conn: &Connection, table: &str, row: &ActionRow) {
    conn.execute(
        "INSERT INTO actions (table_id, match_no, idx, seat, action, seq)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        rusqlite::params![
            table,
            row.match_no,
            row.idx,
            row.seat,
            row.action,
            row.seq as i64
        ],
    )
    .unwrap();
}

/// The actions read on opening for table `id`.
/// A file of schema `version` in `dir` (made by the migrations up to it), holding a playing
/// Hearts table of each of `tables`.
fn file_of_version(dir: &Path, version: usize, tables: &[&str]) -> Connection {
    std::fs::create_dir_all(dir).unwrap();
    let conn = Connection::open(dir.join(DB_FILE)).unwrap();
    for sql in &schema::MIGRATIONS[..version] {
        conn.execute_batch(sql).unwrap();
    }
    conn.pragma_update(None, "user_version", version).unwrap();
    for id in tables {
        conn.execute(
            "INSERT INTO tables (id, variant, options, table_options, seed, created, status)
             VALUES (?1, 'hearts', '{}', '{}', 5, 0, 'playing')",
            [id],
        )
        .unwrap();
    }
    conn
}

fn opened_actions(startup: &Startup, id: &str) -> Vec<ActionRow> {
    let table = startup.tables.iter().find(|log| log.table.id == id);
    table.expect("the table was read").actions.clone()
}

/// Appends a table with its first match and seats.
fn open_table(store: &SqliteStore, id: &str) -> Vec<Ack> {
    vec![
        store.append(Write::Table(table_row(id))),
        store.append(Write::Match {
            table: id.into(),
            row: MatchRow {
                match_no: 1,
                seed: 5,
                secret: None,
                seq: 0,
            },
        }),
        store.append(Write::State {
            table: id.into(),
            status: "playing",
            host: Some(0),
            seats: seat_rows(),
        }),
    ]
}

fn append_actions(
    store: &SqliteStore,
    id: &str,
    rows: impl IntoIterator<Item = ActionRow>,
) -> Vec<Ack> {
    rows.into_iter()
        .map(|row| {
            store.append(Write::Action {
                table: id.into(),
                row,
            })
        })
        .collect()
}

async fn all_ok(acks: Vec<Ack>) {
    for ack in acks {
        ack.await.unwrap().unwrap();
    }
}

fn count(conn: &Connection, sql: &str, id: &str) -> i64 {
    conn.query_row(sql, [id], |row| row.get(0)).unwrap()
}

/// What a process killed now leaves on disk: the database and its write-ahead log as they are
/// (every acknowledged commit is in them), copied to `to`.
fn copy_as_killed(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for suffix in ["-wal", ""] {
        let name = format!("{DB_FILE}{suffix}");
        if from.join(&name).exists() {
            std::fs::copy(from.join(&name), to.join(&name)).unwrap();
        }
    }
}

#[tokio::test]
async fn actions_waiting_in_the_log_are_read_with_their_table_and_survive_a_kill() {
    let dir = Dir::new("fold-kill");
    let (store, _) = SqliteStore::open(&dir.0).unwrap();
    all_ok(open_table(&store, "t")).await;
    all_ok(append_actions(
        &store,
        "t",
        (0..10).map(|i| action(i, "2C")),
    ))
    .await;

    // Read while they wait in the log: every one, in order.
    let log = store.table_log("t").await.unwrap().unwrap();
    let idx: Vec<u32> = log.actions.iter().map(|a| a.idx).collect();
    assert_eq!(idx, (0..10).collect::<Vec<_>>());
    assert_eq!(log.actions[3], action(3, "2C"));

    // They are in the log, not yet in `actions`.
    let copy = Dir::new("fold-kill-copy");
    copy_as_killed(&dir.0, &copy.0);
    {
        let conn = Connection::open(copy.0.join(DB_FILE)).unwrap();
        let logged = count(
            &conn,
            "SELECT count(*) FROM action_log_all WHERE table_id = ?1",
            "t",
        );
        let folded = count(
            &conn,
            "SELECT coalesce(sum(last_idx - first_idx + 1), 0) FROM action_runs WHERE table_id = ?1",
            "t",
        );
        assert_eq!((logged, folded), (10, 0));
    }

    // Opened after a kill: every acknowledged action is read back and folded.
    let (reopened, startup) = SqliteStore::open(&copy.0).unwrap();
    assert_eq!(startup.tables.len(), 1);
    assert_eq!(startup.tables[0].actions, log.actions);
    reopened.close().await.unwrap();
    let conn = Connection::open(copy.0.join(DB_FILE)).unwrap();
    assert_eq!(
        count(
            &conn,
            "SELECT coalesce(sum(last_idx - first_idx + 1), 0) FROM action_runs WHERE table_id = ?1",
            "t"
        ),
        10
    );
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM action_log_all WHERE table_id <> ?1",
            ""
        ),
        0
    );
    store.close().await.unwrap();
}

#[tokio::test]
async fn actions_are_folded_as_they_age_and_the_log_is_emptied_behind_them() {
    let dir = Dir::new("fold-age");
    let (store, _) = SqliteStore::open(&dir.0).unwrap();
    all_ok(open_table(&store, "quiet")).await;
    all_ok(open_table(&store, "busy")).await;
    all_ok(append_actions(&store, "quiet", [action(0, "2C")])).await;
    let busy = 2 * KEEP as u32 + 1000;
    all_ok(append_actions(
        &store,
        "busy",
        (0..busy).map(|i| action(i, "3C")),
    ))
    .await;
    store.flushed().await.unwrap();

    let conn = Connection::open(dir.0.join(DB_FILE)).unwrap();
    // The quiet table's action aged out of the log's window: it is folded.
    assert_eq!(
        count(
            &conn,
            "SELECT coalesce(sum(last_idx - first_idx + 1), 0) FROM action_runs WHERE table_id = ?1",
            "quiet"
        ),
        1
    );
    // The log is its batches: many actions to a row.
    let batches = count(
        &conn,
        "SELECT count(*) FROM action_batches WHERE ?1 = ?1",
        "",
    );
    assert!(
        batches > 0 && batches * 10 < i64::from(busy),
        "{batches} batches in the log"
    );
    // The busy table is read whole, in order, folded or not.
    let log = store.table_log("busy").await.unwrap().unwrap();
    assert_eq!(log.actions.len(), busy as usize);
    assert!(
        log.actions
            .iter()
            .enumerate()
            .all(|(i, a)| a.idx == i as u32)
    );
    store.close().await.unwrap();
    // Closing folds the rest.
    assert_eq!(
        count(
            &conn,
            "SELECT coalesce(sum(last_idx - first_idx + 1), 0) FROM action_runs WHERE table_id = ?1",
            "busy"
        ),
        i64::from(busy)
    );
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM action_log_all WHERE table_id <> ?1",
            ""
        ),
        0
    );
}

#[tokio::test]
async fn a_cut_reaches_the_log_and_a_repeated_action_is_refused() {
    let dir = Dir::new("fold-cut");
    let (store, _) = SqliteStore::open(&dir.0).unwrap();
    all_ok(open_table(&store, "t")).await;
    all_ok(append_actions(
        &store,
        "t",
        (0..10).map(|i| action(i, "2C")),
    ))
    .await;
    // A repeated key is refused, as `actions`' primary key refused it.
    let repeated = append_actions(&store, "t", [action(4, "9H")]);
    for ack in repeated {
        assert!(ack.await.unwrap().is_err());
    }
    // Cut from action 6 on; the table goes on from there.
    store
        .append(Write::Cut {
            table: "t".into(),
            match_no: 1,
            from: 6,
        })
        .await
        .unwrap()
        .unwrap();
    all_ok(append_actions(&store, "t", (6..8).map(|i| action(i, "KD")))).await;
    let mut expected: Vec<ActionRow> = (0..6).map(|i| action(i, "2C")).collect();
    expected.extend((6..8).map(|i| action(i, "KD")));
    let log = store.table_log("t").await.unwrap().unwrap();
    assert_eq!(log.actions, expected);

    // The same after a kill: the cut actions do not come back from the log.
    let copy = Dir::new("fold-cut-copy");
    copy_as_killed(&dir.0, &copy.0);
    let (reopened, startup) = SqliteStore::open(&copy.0).unwrap();
    assert_eq!(startup.tables[0].actions, expected);
    reopened.close().await.unwrap();
    store.close().await.unwrap();
}

#[tokio::test]
async fn a_database_of_the_previous_schema_opens_with_its_actions() {
    let dir = Dir::new("fold-old");
    {
        let conn = file_of_version(&dir.0, 6, &["old"]);
        for i in 0..5u32 {
            insert_old_action(&conn, "old", &action(i, "2C"));
        }
    }
    let (store, startup) = SqliteStore::open(&dir.0).unwrap();
    assert_eq!(
        startup.tables[0].actions,
        (0..5).map(|i| action(i, "2C")).collect::<Vec<_>>()
    );
    // New actions follow the old ones; a repeat of an old one is refused.
    all_ok(append_actions(&store, "old", [action(5, "3C")])).await;
    let repeated = append_actions(&store, "old", [action(2, "3C")]);
    for ack in repeated {
        assert!(ack.await.unwrap().is_err());
    }
    let log = store.table_log("old").await.unwrap().unwrap();
    assert_eq!(log.actions.len(), 6);
    store.close().await.unwrap();
}

/// A file of schema version 8, killed with actions in its ring of a row per action (and some
/// already folded): opened by this version, every action is read back in order, the old ring
/// is emptied, and new actions go to the batches.
#[tokio::test]
async fn a_file_killed_with_actions_in_its_per_action_ring_opens_with_all_of_them() {
    let dir = Dir::new("fold-v8");
    let folded: Vec<ActionRow> = (0..3).map(|i| action(i, "2C")).collect();
    let logged: Vec<ActionRow> = (3..7).map(|i| action(i, "4D")).collect();
    {
        let conn = file_of_version(&dir.0, 8, &["v8"]);
        super::fold::insert_actions(&conn, "v8", &folded).unwrap();
        for (n, row) in (100..).zip(&logged) {
            insert_log_row(&conn, "action_log", n, "v8", row);
        }
    }
    let (store, startup) = SqliteStore::open(&dir.0).unwrap();
    let expected: Vec<ActionRow> = folded.iter().chain(&logged).cloned().collect();
    assert_eq!(opened_actions(&startup, "v8"), expected);
    all_ok(append_actions(&store, "v8", [action(7, "5H")])).await;
    store.flushed().await.unwrap();
    {
        let conn = Connection::open(dir.0.join(DB_FILE)).unwrap();
        assert_eq!(
            count(&conn, "SELECT count(*) FROM action_log WHERE ?1 = ?1", ""),
            0
        );
        assert_eq!(
            count(
                &conn,
                "SELECT count(*) FROM action_log_all WHERE table_id = ?1",
                "v8"
            ),
            1,
            "the new action waits in a batch"
        );
    }
    let log = store.table_log("v8").await.unwrap().unwrap();
    assert_eq!(log.actions.len(), 8);
    assert_eq!(log.actions[7], action(7, "5H"));
    store.close().await.unwrap();
}

/// Every row on disk of `table` in the log, in the order appended: (index, action).
fn logged(conn: &Connection, table: &str) -> Vec<(u32, String)> {
    let mut select = conn
        .prepare("SELECT idx, action FROM action_log_all WHERE table_id = ?1 ORDER BY n")
        .unwrap();
    let found = select
        .query_map([table], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap();
    let mut rows: Vec<(u32, String)> = found.map(Result::unwrap).collect();
    rows.sort_by_key(|(idx, _)| *idx);
    rows
}

#[tokio::test]
async fn many_tables_actions_queued_at_once_with_a_cut_and_a_repeat_are_stored_as_sent() {
    let dir = Dir::new("fold-many");
    let (store, _) = SqliteStore::open(&dir.0).unwrap();
    for id in ["a", "b", "c"] {
        all_ok(open_table(&store, id)).await;
    }
    // Queued without waiting, so that they share commits: more rows than the largest
    // multi-row insert, from three tables taken in turn, past the end of the first log table.
    let turns = KEEP as u32 / 2 + 77;
    let mut acks = Vec::new();
    for i in 0..turns {
        for id in ["a", "b", "c"] {
            acks.extend(append_actions(&store, id, [action(i, id)]));
        }
    }
    // A cut among them (the queued rows before it are written first, then cut), the table
    // going on after it, and a repeat that alone is refused.
    let cut = turns - 50;
    acks.push(store.append(Write::Cut {
        table: "b".into(),
        match_no: 1,
        from: cut,
    }));
    acks.extend(append_actions(
        &store,
        "b",
        (cut..cut + 9).map(|i| action(i, "9H")),
    ));
    let repeat = append_actions(&store, "a", [action(5, "KD")]);
    acks.extend(append_actions(
        &store,
        "c",
        (turns..turns + 3).map(|i| action(i, "c")),
    ));
    all_ok(acks).await;
    for ack in repeat {
        assert!(ack.await.unwrap().is_err());
    }

    let expected = |id: &str| -> Vec<ActionRow> {
        match id {
            "a" => (0..turns).map(|i| action(i, "a")).collect(),
            "b" => (0..cut)
                .map(|i| action(i, "b"))
                .chain((cut..cut + 9).map(|i| action(i, "9H")))
                .collect(),
            _ => (0..turns + 3).map(|i| action(i, "c")).collect(),
        }
    };
    for id in ["a", "b", "c"] {
        let log = store.table_log(id).await.unwrap().unwrap();
        assert_eq!(log.actions, expected(id), "table {id}");
    }

    // On disk after a kill: the log holds no cut action and no refused one, and what it
    // holds of a table it holds in the order appended.
    let copy = Dir::new("fold-many-copy");
    copy_as_killed(&dir.0, &copy.0);
    {
        let conn = Connection::open(copy.0.join(DB_FILE)).unwrap();
        let b = logged(&conn, "b");
        assert!(
            b.iter()
                .all(|(idx, text)| *idx < cut || text.contains("9H")),
            "a cut action is still in the log"
        );
        assert!(
            !logged(&conn, "a")
                .iter()
                .any(|(_, text)| text.contains("KD"))
        );
        let idx: Vec<u32> = conn
            .prepare("SELECT idx FROM action_log_all WHERE table_id = 'c' ORDER BY n")
            .unwrap()
            .query_map([], |row| row.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert!(idx.windows(2).all(|w| w[0] < w[1]), "the log out of order");
    }
    let (reopened, startup) = SqliteStore::open(&copy.0).unwrap();
    for log in &startup.tables {
        assert_eq!(
            log.actions,
            expected(&log.table.id),
            "table {}",
            log.table.id
        );
    }
    assert_eq!(startup.tables.len(), 3);
    reopened.close().await.unwrap();
    store.close().await.unwrap();
}

#[tokio::test]
async fn the_log_is_a_ring_overwritten_only_behind_the_fold_and_a_kill_loses_nothing() {
    let dir = Dir::new("fold-ring");
    let (store, _) = SqliteStore::open(&dir.0).unwrap();
    all_ok(open_table(&store, "first")).await;
    all_ok(open_table(&store, "busy")).await;
    all_ok(append_actions(&store, "first", [action(0, "2C")])).await;
    // Round the ring once and a half: a commit of a few actions writes one batch, and a
    // commit of many writes several. Fewer than KEEP actions in all, so the first table's
    // action is folded because the ring came round to it, not for its age.
    let commits = RING as u32 * 3 / 2;
    let mut sent = 0;
    for i in 0..commits {
        let size = if i % 300 == 299 { 200 } else { i % 2 + 1 };
        all_ok(append_actions(
            &store,
            "busy",
            (sent..sent + size).map(|i| action(i, "3C")),
        ))
        .await;
        sent += size;
    }
    let busy = sent;
    assert!(i64::from(busy) < KEEP);
    store.flushed().await.unwrap();

    let copy = Dir::new("fold-ring-copy");
    copy_as_killed(&dir.0, &copy.0);
    {
        let conn = Connection::open(copy.0.join(DB_FILE)).unwrap();
        // The ring holds at most its rows, numbered within it.
        let (rows, top): (i64, i64) = conn
            .query_row("SELECT count(*), max(n) FROM action_batches", [], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })
            .unwrap();
        assert_eq!(rows, RING);
        assert!(top < RING, "row {top} is outside the ring");
        // Each batch fits in its page.
        let longest: i64 = conn
            .query_row(
                "SELECT max(length(entries)) FROM action_batches",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert!(
            longest as usize <= BATCH_BYTES,
            "a batch of {longest} bytes"
        );
        // The first table's action was overwritten in the log, so it is folded.
        assert_eq!(
            count(
                &conn,
                "SELECT coalesce(sum(last_idx - first_idx + 1), 0) FROM action_runs WHERE table_id = ?1",
                "first"
            ),
            1
        );
        assert_eq!(
            count(
                &conn,
                "SELECT count(*) FROM action_log_all WHERE table_id = ?1",
                "first"
            ),
            0
        );
    }
    let (reopened, startup) = SqliteStore::open(&copy.0).unwrap();
    let by_id = |id: &str| opened_actions(&startup, id);
    assert_eq!(by_id("first"), vec![action(0, "2C")]);
    assert_eq!(
        by_id("busy"),
        (0..busy).map(|i| action(i, "3C")).collect::<Vec<_>>()
    );
    reopened.close().await.unwrap();
    store.close().await.unwrap();
}

#[tokio::test]
async fn a_write_that_reads_first_waits_for_the_lock_instead_of_failing() {
    let dir = Dir::new("fold-lock");
    let (store, _) = SqliteStore::open(&dir.0).unwrap();
    all_ok(open_table(&store, "t")).await;
    store.close().await.unwrap();
    // Reopened, the writer does not know the table's last action: its first append reads it
    // from the file before writing.
    let (store, _) = SqliteStore::open(&dir.0).unwrap();
    let saving = store.saving();
    // Another connection holds the write lock for a moment, as the checkpointer does when it
    // restarts the log.
    let other = Connection::open(dir.0.join(DB_FILE)).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    let acks = append_actions(&store, "t", [action(0, "2C")]);
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    other.execute_batch("COMMIT").unwrap();
    all_ok(acks).await;
    // The writer waited for the lock: no commit failed meanwhile.
    assert!(
        !saving.has_changed().unwrap(),
        "a commit failed while the lock was held"
    );
    assert!(*saving.borrow());
    let log = store.table_log("t").await.unwrap().unwrap();
    assert_eq!(log.actions, vec![action(0, "2C")]);
    store.close().await.unwrap();
}

fn action_in(match_no: u32, idx: u32, text: &str) -> ActionRow {
    ActionRow {
        match_no,
        ..action(idx, text)
    }
}

fn new_match(store: &SqliteStore, id: &str, match_no: u32) -> Ack {
    store.append(Write::Match {
        table: id.into(),
        row: MatchRow {
            match_no,
            seed: 5 + u64::from(match_no),
            secret: None,
            seq: 0,
        },
    })
}

/// A run on disk: (match, first index, last index, how many actions its JSON array holds).
type RunOnDisk = (u32, u32, u32, u32);

/// The runs of `table` on disk, in key order.
fn runs_on_disk(conn: &Connection, table: &str) -> Vec<RunOnDisk> {
    conn.prepare(
        "SELECT match_no, first_idx, last_idx, json_array_length(actions) FROM action_runs
         WHERE table_id = ?1 ORDER BY match_no, first_idx",
    )
    .unwrap()
    .query_map([table], |row| {
        Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
    })
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

/// Appends `count` actions to table `filler`, from index `from`, so that every other table's
/// pending actions age past [`KEEP`] and are folded.
async fn age_out(store: &SqliteStore, filler: &str, from: u32) -> u32 {
    let count = KEEP as u32 + 1;
    all_ok(append_actions(
        store,
        filler,
        (from..from + count).map(|i| action(i, "4S")),
    ))
    .await;
    store.flushed().await.unwrap();
    from + count
}

#[tokio::test]
async fn a_fold_spanning_a_match_boundary_makes_a_run_per_match_and_reads_back_in_order() {
    let dir = Dir::new("runs-matches");
    let (store, _) = SqliteStore::open(&dir.0).unwrap();
    all_ok(open_table(&store, "t")).await;
    all_ok(open_table(&store, "filler")).await;
    // Escapes and nesting in an action's text are kept as they are.
    let odd = r#"{"type":"say","text":"caf\u00e9 \"q\" \\ é","n":[1.50e3,{}]}"#;
    let mut expected: Vec<ActionRow> = (0..6).map(|i| action_in(1, i, "2C")).collect();
    expected[3].action = odd.into();
    all_ok(append_actions(&store, "t", expected.clone())).await;
    new_match(&store, "t", 2).await.unwrap().unwrap();
    let second: Vec<ActionRow> = (0..4).map(|i| action_in(2, i, "5D")).collect();
    all_ok(append_actions(&store, "t", second.clone())).await;
    expected.extend(second);
    // One fold takes both matches' actions.
    let next = age_out(&store, "filler", 0).await;

    let conn = Connection::open(dir.0.join(DB_FILE)).unwrap();
    assert_eq!(runs_on_disk(&conn, "t"), vec![(1, 0, 5, 6), (2, 0, 3, 4)]);
    // The stored form is JSON that SQLite reads: each action is its own JSON value.
    let card: String = conn
        .query_row(
            "SELECT actions ->> '$[2][1].card' FROM action_runs WHERE table_id = 't'
             AND match_no = 1",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(card, "2C");
    let log = store.table_log("t").await.unwrap().unwrap();
    assert_eq!(log.actions, expected);

    // More actions of the second match: a run of their own after the first.
    let more: Vec<ActionRow> = (4..7).map(|i| action_in(2, i, "6D")).collect();
    all_ok(append_actions(&store, "t", more.clone())).await;
    expected.extend(more);
    age_out(&store, "filler", next).await;
    assert_eq!(
        runs_on_disk(&conn, "t"),
        vec![(1, 0, 5, 6), (2, 0, 3, 4), (2, 4, 6, 3)]
    );
    assert_eq!(
        store.table_log("t").await.unwrap().unwrap().actions,
        expected
    );

    // Killed now: nothing folded is lost, and the last match is read back on start.
    let copy = Dir::new("runs-matches-copy");
    copy_as_killed(&dir.0, &copy.0);
    let (reopened, startup) = SqliteStore::open(&copy.0).unwrap();
    assert_eq!(opened_actions(&startup, "t"), expected[6..]);
    assert_eq!(
        reopened.table_log("t").await.unwrap().unwrap().actions,
        expected
    );
    reopened.close().await.unwrap();
    store.close().await.unwrap();
}

/// A table "t" whose actions are folded into the runs (1, 0..=9), (1, 10..=19) and
/// (2, 0..=4), each by closing the store; returns its actions.
async fn table_of_three_runs(dir: &Path) -> Vec<ActionRow> {
    let mut expected = Vec::new();
    let parts: [(u32, std::ops::Range<u32>); 3] = [(1, 0..10), (1, 10..20), (2, 0..5)];
    for (n, (match_no, range)) in parts.into_iter().enumerate() {
        let (store, _) = SqliteStore::open(dir).unwrap();
        if n == 0 {
            all_ok(open_table(&store, "t")).await;
        }
        if n == 2 {
            new_match(&store, "t", 2).await.unwrap().unwrap();
        }
        let rows: Vec<ActionRow> = range.map(|i| action_in(match_no, i, "2C")).collect();
        all_ok(append_actions(&store, "t", rows.clone())).await;
        expected.extend(rows);
        store.close().await.unwrap();
    }
    let conn = Connection::open(dir.join(DB_FILE)).unwrap();
    assert_eq!(
        runs_on_disk(&conn, "t"),
        vec![(1, 0, 9, 10), (1, 10, 19, 10), (2, 0, 4, 5)]
    );
    expected
}

#[tokio::test]
async fn a_cut_in_a_run_at_its_first_action_or_before_it_then_new_actions_read_back_exactly() {
    // (match, from) of each cut, and the runs left by it.
    let cases: [((u32, u32), Vec<RunOnDisk>); 6] = [
        ((1, 15), vec![(1, 0, 9, 10), (1, 10, 14, 5)]),
        ((1, 11), vec![(1, 0, 9, 10), (1, 10, 10, 1)]),
        ((1, 10), vec![(1, 0, 9, 10)]),
        ((1, 4), vec![(1, 0, 3, 4)]),
        ((2, 0), vec![(1, 0, 9, 10), (1, 10, 19, 10)]),
        ((2, 3), vec![(1, 0, 9, 10), (1, 10, 19, 10), (2, 0, 2, 3)]),
    ];
    for (n, ((match_no, from), left)) in cases.into_iter().enumerate() {
        let dir = Dir::new(&format!("runs-cut-{n}"));
        let all = table_of_three_runs(&dir.0).await;
        let (store, _) = SqliteStore::open(&dir.0).unwrap();
        store
            .append(Write::Cut {
                table: "t".into(),
                match_no,
                from,
            })
            .await
            .unwrap()
            .unwrap();
        let mut expected: Vec<ActionRow> = all
            .into_iter()
            .filter(|row| (row.match_no, row.idx) < (match_no, from))
            .collect();
        {
            let conn = Connection::open(dir.0.join(DB_FILE)).unwrap();
            assert_eq!(runs_on_disk(&conn, "t"), left, "cut at {match_no}/{from}");
        }
        // The table goes on from the cut.
        let after: Vec<ActionRow> = (from..from + 3)
            .map(|i| action_in(match_no, i, "KD"))
            .collect();
        all_ok(append_actions(&store, "t", after.clone())).await;
        expected.extend(after);
        // A repeat of a kept action is still refused.
        if from > 0 {
            for ack in append_actions(&store, "t", [action_in(match_no, from - 1, "9H")]) {
                assert!(ack.await.unwrap().is_err());
            }
        }
        let read = store.table_log("t").await.unwrap().unwrap().actions;
        assert_eq!(read, expected, "cut at {match_no}/{from}");

        // Killed, then closed: the same each time.
        let copy = Dir::new(&format!("runs-cut-{n}-copy"));
        copy_as_killed(&dir.0, &copy.0);
        let (reopened, _) = SqliteStore::open(&copy.0).unwrap();
        assert_eq!(
            reopened.table_log("t").await.unwrap().unwrap().actions,
            expected,
            "cut at {match_no}/{from}, killed"
        );
        reopened.close().await.unwrap();
        store.close().await.unwrap();
        let (reopened, _) = SqliteStore::open(&dir.0).unwrap();
        assert_eq!(
            reopened.table_log("t").await.unwrap().unwrap().actions,
            expected,
            "cut at {match_no}/{from}, closed"
        );
        reopened.close().await.unwrap();
        let conn = Connection::open(dir.0.join(DB_FILE)).unwrap();
        let inconsistent = count(
            &conn,
            "SELECT count(*) FROM action_runs WHERE table_id = ?1
             AND json_array_length(actions) <> last_idx - first_idx + 1",
            "t",
        );
        assert_eq!(inconsistent, 0);
    }
}

#[tokio::test]
async fn a_database_with_actions_a_row_each_opens_as_runs_with_every_action() {
    let dir = Dir::new("runs-old");
    // The schema before runs: actions a row each, and the log.
    let odd = r#"{"type":"say","text":"caf\u00e9 \"q\"","n":[1.50e3,{}]}"#;
    let mut old: Vec<ActionRow> = (0..5).map(|i| action_in(1, i, "2C")).collect();
    old[2].action = odd.into();
    // Indexes that skip, then a second match.
    old.extend((7..9).map(|i| action_in(1, i, "3C")));
    old.extend((0..4).map(|i| action_in(2, i, "4C")));
    // The log holds the second match's last folded action again, and newer ones.
    let logged: Vec<ActionRow> = (3..7).map(|i| action_in(2, i, "4C")).collect();
    {
        let conn = file_of_version(&dir.0, 7, &["old", "other"]);
        for id in ["old", "other"] {
            for match_no in [1, 2] {
                conn.execute(
                    "INSERT INTO matches (table_id, match_no, seed, seq) VALUES (?1, ?2, 5, 0)",
                    rusqlite::params![id, match_no],
                )
                .unwrap();
            }
        }
        for (id, rows) in [("old", &old[..]), ("other", &old[..5])] {
            for row in rows {
                insert_old_action(&conn, id, row);
            }
        }
        for (n, row) in logged.iter().enumerate() {
            let log = if n == 3 { "action_log_b" } else { "action_log" };
            insert_log_row(&conn, log, n as i64 + 1, "old", row);
        }
    }
    let mut expected = old.clone();
    expected.extend(logged[1..].iter().cloned());

    let (store, startup) = SqliteStore::open(&dir.0).unwrap();
    let by_id = |id: &str| opened_actions(&startup, id);
    assert_eq!(by_id("old"), expected[7..]);
    assert!(by_id("other").is_empty(), "its last match has no action");
    assert_eq!(
        store.table_log("old").await.unwrap().unwrap().actions,
        expected
    );
    assert_eq!(
        store.table_log("other").await.unwrap().unwrap().actions,
        old[..5]
    );
    {
        let conn = Connection::open(dir.0.join(DB_FILE)).unwrap();
        // Runs where the indexes follow each other; the log's rows folded into runs of their
        // own after them; `actions` gone.
        assert_eq!(
            runs_on_disk(&conn, "old"),
            vec![(1, 0, 4, 5), (1, 7, 8, 2), (2, 0, 3, 4), (2, 4, 6, 3)]
        );
        assert_eq!(runs_on_disk(&conn, "other"), vec![(1, 0, 4, 5)]);
        let left = count(
            &conn,
            "SELECT count(*) FROM sqlite_master WHERE name = ?1",
            "actions",
        );
        assert_eq!(left, 0);
    }
    // New actions follow the old ones; a repeat of an old one is refused.
    all_ok(append_actions(&store, "old", [action_in(2, 7, "5C")])).await;
    for ack in append_actions(&store, "old", [action_in(2, 6, "5C")]) {
        assert!(ack.await.unwrap().is_err());
    }
    expected.push(action_in(2, 7, "5C"));
    store.close().await.unwrap();
    let (store, _) = SqliteStore::open(&dir.0).unwrap();
    assert_eq!(
        store.table_log("old").await.unwrap().unwrap().actions,
        expected
    );
    store.close().await.unwrap();
}

#[tokio::test]
async fn a_damaged_action_in_the_log_does_not_stop_the_file_from_opening() {
    let dir = Dir::new("runs-damaged");
    let (store, _) = SqliteStore::open(&dir.0).unwrap();
    all_ok(open_table(&store, "t")).await;
    all_ok(append_actions(&store, "t", (0..4).map(|i| action(i, "2C")))).await;
    let copy = Dir::new("runs-damaged-copy");
    copy_as_killed(&dir.0, &copy.0);
    store.close().await.unwrap();
    {
        let conn = Connection::open(copy.0.join(DB_FILE)).unwrap();
        // The action of index 2 becomes a string that is not JSON, in its batch.
        let (batch, key): (i64, i64) = conn
            .query_row(
                "SELECT b.n, e.key FROM action_batches AS b, json_each(b.entries) AS e
                 WHERE e.value ->> 0 = 't' AND e.value ->> 2 = 2",
                [],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .unwrap();
        let damaged = conn
            .execute(
                "UPDATE action_batches SET entries = json_replace(entries, ?2, 'not {json')
                 WHERE n = ?1",
                rusqlite::params![batch, format!("$[{key}][5]")],
            )
            .unwrap();
        assert_eq!(damaged, 1);
    }
    let (reopened, startup) = SqliteStore::open(&copy.0).unwrap();
    let mut expected: Vec<ActionRow> = (0..4).map(|i| action(i, "2C")).collect();
    expected[2].action = r#""not {json""#.into();
    assert_eq!(startup.tables[0].actions, expected);
    reopened.close().await.unwrap();
}
