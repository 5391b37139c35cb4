//! The action log's two tiers: actions waiting in the log are read with their table, survive
//! a killed process, are folded into `actions` as they age, and cuts and repeats behave as
//! they did with `actions` alone.

use std::path::Path;

use rusqlite::Connection;

use super::fold::{KEEP, RING};
use super::{DB_FILE, SqliteStore, schema};
use crate::store::records::{ActionRow, MatchRow, TableRow, Write};
use crate::store::test_support::{Dir, seat_rows};
use crate::store::{Ack, Store};

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
            "SELECT count(*) FROM (SELECT * FROM action_log UNION ALL SELECT * FROM action_log_b) WHERE table_id = ?1",
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
            "SELECT count(*) FROM (SELECT * FROM action_log UNION ALL SELECT * FROM action_log_b) WHERE table_id <> ?1",
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
    // Folded rows do not stay in the log.
    let logged = count(
        &conn,
        "SELECT count(*) FROM (SELECT * FROM action_log UNION ALL SELECT * FROM action_log_b) WHERE table_id <> ?1",
        "",
    );
    assert!(logged < i64::from(busy), "{logged} rows in the log");
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
            "SELECT count(*) FROM (SELECT * FROM action_log UNION ALL SELECT * FROM action_log_b) WHERE table_id <> ?1",
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
    std::fs::create_dir_all(&dir.0).unwrap();
    {
        let conn = Connection::open(dir.0.join(DB_FILE)).unwrap();
        for sql in &schema::MIGRATIONS[..6] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 6).unwrap();
        conn.execute(
            "INSERT INTO tables (id, variant, options, table_options, seed, created, status)
             VALUES ('old', 'hearts', '{}', '{}', 5, 0, 'playing')",
            [],
        )
        .unwrap();
        for i in 0..5u32 {
            let row = action(i, "2C");
            conn.execute(
                "INSERT INTO actions (table_id, match_no, idx, seat, action, seq)
                 VALUES ('old', 1, ?1, ?2, ?3, ?4)",
                rusqlite::params![row.idx, row.seat, row.action, row.seq as i64],
            )
            .unwrap();
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

/// Every row on disk of `table` in the log, in the order appended: (index, action).
fn logged(conn: &Connection, table: &str) -> Vec<(u32, String)> {
    let mut rows = Vec::new();
    for log in ["action_log", "action_log_b"] {
        let mut select = conn
            .prepare(&format!(
                "SELECT idx, action FROM {log} WHERE table_id = ?1 ORDER BY n"
            ))
            .unwrap();
        let found = select
            .query_map([table], |row| Ok((row.get(0)?, row.get(1)?)))
            .unwrap();
        rows.extend(found.map(Result::unwrap));
    }
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
        for log in ["action_log", "action_log_b"] {
            let idx: Vec<u32> = conn
                .prepare(&format!(
                    "SELECT idx FROM {log} WHERE table_id = 'c' ORDER BY n"
                ))
                .unwrap()
                .query_map([], |row| row.get(0))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            assert!(idx.windows(2).all(|w| w[0] < w[1]), "{log} out of order");
        }
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
    // Round the ring once and a half, in commits of every size.
    let busy = RING as u32 * 3 / 2;
    let mut sent = 0;
    for size in (1..).map(|i| i * 37 % 1500 + 1) {
        let end = (sent + size).min(busy);
        all_ok(append_actions(
            &store,
            "busy",
            (sent..end).map(|i| action(i, "3C")),
        ))
        .await;
        sent = end;
        if sent == busy {
            break;
        }
    }
    store.flushed().await.unwrap();

    let copy = Dir::new("fold-ring-copy");
    copy_as_killed(&dir.0, &copy.0);
    {
        let conn = Connection::open(copy.0.join(DB_FILE)).unwrap();
        // The ring holds at most its rows, numbered within it.
        let (rows, top): (i64, i64) = conn
            .query_row("SELECT count(*), max(n) FROM action_log", [], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })
            .unwrap();
        assert_eq!(rows, RING);
        assert!(top < RING, "row {top} is outside the ring");
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
                "SELECT count(*) FROM action_log WHERE table_id = ?1",
                "first"
            ),
            0
        );
    }
    let (reopened, startup) = SqliteStore::open(&copy.0).unwrap();
    let by_id = |id: &str| {
        startup
            .tables
            .iter()
            .find(|log| log.table.id == id)
            .unwrap()
            .actions
            .clone()
    };
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
