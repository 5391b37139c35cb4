//! The writer thread: the only user of the database connection after start.
//!
//! It sleeps until a request arrives, then takes every request already queued (never waiting
//! for more: a move adds one page or two to a commit whatever its size), writes the writes
//! in one transaction, commits, and only then acknowledges them (group commit). Reads and
//! barriers are answered in queue order, after the writes queued before them.
//!
//! It owns the writing connection; nothing else writes to the database after start.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use rusqlite::{Connection, params};
use tokio::sync::{mpsc, oneshot};

use super::checkpoint::Checkpointer;
use super::table_numbers::{self, TableNumbers};
use super::{accounts, action_rows, load};
use crate::store::StoreError;
use crate::store::ack_task::AckTask;
use crate::store::health::Health;
use crate::store::queue::{
    AccountOp, RETRY_FIRST, Request, Retry, commit_failed, commit_worked, committed, count_commit,
    head_writes, longer, stopping_unwritten, take_waiting,
};
use crate::store::records::{
    CLOSED, ChatRow, MatchRow, SeatRow, TableLog, TableRow, Write, occupant_name,
};

/// The thread's loop; returns when asked to stop or when every [`super::SqliteStore`] is gone.
/// The checkpointer, if any, is nudged after each commit. The data directory's `lock` is
/// released when the loop ends, before the stop is answered.
///
/// A commit that fails for a reason that may pass (a full disk, an I/O error, a locked or
/// read-only file) is rolled back and tried again, the same writes in the same order, with a
/// growing wait, until it goes through: nothing is acknowledged meanwhile, so no table sends
/// what is not stored, and nothing is written twice. Requests queued meanwhile wait behind
/// it; a stop gives up on it (the process is going away: what was never stored was never
/// sent).
pub fn run(
    mut conn: Connection,
    mut rx: mpsc::UnboundedReceiver<Request>,
    checkpointer: Option<Checkpointer>,
    health: &Health,
    lock: Option<std::fs::File>,
    ack_task: &AckTask,
) {
    run_as_batch_thread();
    let mut queue: VecDeque<Request> = VecDeque::new();
    let mut numbers = TableNumbers::default();
    loop {
        if queue.is_empty() {
            let Some(first) = rx.blocking_recv() else {
                break;
            };
            queue.push_back(first);
        }
        take_waiting(&mut rx, &mut queue);
        if let Some(reply) = serve(
            &mut conn,
            &mut numbers,
            &mut queue,
            &mut rx,
            checkpointer.as_ref(),
            health,
            ack_task,
        ) {
            finish(conn, checkpointer);
            drop(lock);
            if let Some(reply) = reply {
                let _ = reply.send(());
            }
            return;
        }
    }
    finish(conn, checkpointer);
    drop(lock);
}

/// Makes the calling thread a batch thread (Linux's `SCHED_BATCH`, niceness 0). The first
/// write after the writer caught up wakes it; as a batch thread it waits for a free turn
/// instead of preempting a connection's thread mid-step, so on a busy server its commits
/// gather more writes and the server's threads switch less (docs/PERFORMANCE.md, "The
/// writer as a batch thread"). Where that fails, the thread keeps its default scheduling.
fn run_as_batch_thread() {
    #[cfg(target_os = "linux")]
    {
        use thread_priority::{
            NormalThreadSchedulePolicy, ThreadPriority, ThreadPriorityOsValue,
            ThreadSchedulePolicy, set_thread_priority_and_policy, thread_native_id,
        };
        let batch = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Batch);
        let nice_zero = ThreadPriority::Os(ThreadPriorityOsValue::default());
        if let Err(err) = set_thread_priority_and_policy(thread_native_id(), nice_zero, batch) {
            tracing::debug!(?err, "the store's writer keeps the default scheduling");
        }
    }
}

/// Answers the queued requests in order. Returns `Some` when the writer is to stop (with
/// the stop request's answer, `None` when every sender is gone).
fn serve(
    conn: &mut Connection,
    numbers: &mut TableNumbers,
    queue: &mut VecDeque<Request>,
    rx: &mut mpsc::UnboundedReceiver<Request>,
    checkpointer: Option<&Checkpointer>,
    health: &Health,
    ack_task: &AckTask,
) -> Option<Option<oneshot::Sender<()>>> {
    let mut wait = RETRY_FIRST;
    while let Some(front) = queue.front() {
        if !matches!(front, Request::Write { .. }) {
            match queue.pop_front() {
                None | Some(Request::Write { .. }) => {}
                Some(Request::Barrier { reply }) => {
                    let _ = reply.send(());
                }
                Some(Request::Load { id, reply }) => {
                    let _ = reply.send(load::table_log(conn, &id, load::Scope::All));
                }
                Some(Request::Results { after, reply }) => {
                    let _ = reply.send(load::results(conn, after));
                }
                Some(Request::Prune {
                    before,
                    limit,
                    reply,
                }) => {
                    let _ = reply.send(prune(conn, numbers, before, limit));
                }
                Some(Request::Probe { reply }) => {
                    let result = probe(conn);
                    health.set(result.as_ref().err().map(ToString::to_string));
                    let _ = reply.send(result);
                }
                Some(Request::Account(op)) => account(conn, op),
                Some(Request::Shutdown { reply }) => return Some(Some(reply)),
            }
            continue;
        }
        // The writes up to the next read, barrier or stop, in one transaction.
        let writes = head_writes(queue);
        let count = writes.len();
        let started = Instant::now();
        let result = write_all(conn, numbers, &writes);
        count_commit(started, result.as_ref().ok().map(|_| count));
        let outcomes = match result {
            Ok(outcomes) => outcomes,
            Err(err) => {
                // Nothing of it is stored: the same writes are tried again after a wait.
                commit_failed(health, &err, count);
                match wait_to_retry(rx, queue, wait) {
                    Retry::Again => {
                        wait = longer(wait);
                        continue;
                    }
                    Retry::Stop(reply) => {
                        stopping_unwritten(count);
                        queue.clear();
                        return Some(reply);
                    }
                }
            }
        };
        commit_worked(health);
        wait = RETRY_FIRST;
        let outcomes = outcomes
            .into_iter()
            .map(|outcome| outcome.map_err(|err| err.to_string()))
            .collect();
        ack_task.acknowledge(committed(queue, count, outcomes));
        // Acknowledged first, then healthy: a table's held output goes out as it resumes.
        health.set(None);
        if let Some(checkpointer) = checkpointer {
            checkpointer.nudge();
        }
    }
    None
}

/// Answers one bot account request.
fn account(conn: &mut Connection, op: AccountOp) {
    match op {
        AccountOp::Add(bot, reply) => {
            let _ = reply.send(accounts::insert(conn, &bot));
        }
        AccountOp::List(reply) => {
            let _ = reply.send(accounts::list(conn));
        }
        AccountOp::Revoke(name, reply) => {
            let _ = reply.send(accounts::revoke(conn, &name));
        }
        AccountOp::ByToken(hash, reply) => {
            let _ = reply.send(accounts::by_token(conn, &hash));
        }
    }
}

/// Waits `wait` before a failed commit is tried again, queueing what arrives meanwhile; a
/// stop request (or every sender gone) ends the wait and the tries.
fn wait_to_retry(
    rx: &mut mpsc::UnboundedReceiver<Request>,
    queue: &mut VecDeque<Request>,
    wait: Duration,
) -> Retry {
    let until = Instant::now() + wait;
    loop {
        loop {
            match rx.try_recv() {
                Ok(Request::Shutdown { reply }) => return Retry::Stop(Some(reply)),
                Ok(request) => queue.push_back(request),
                Err(mpsc::error::TryRecvError::Empty) => break,
                Err(mpsc::error::TryRecvError::Disconnected) => return Retry::Stop(None),
            }
        }
        let now = Instant::now();
        if now >= until {
            return Retry::Again;
        }
        std::thread::sleep((until - now).min(Duration::from_millis(10)));
    }
}

/// Deletes up to `limit` closed tables created before `before`, and everything of theirs,
/// in one transaction.
fn prune(
    conn: &mut Connection,
    numbers: &mut TableNumbers,
    before: i64,
    limit: usize,
) -> Result<usize, StoreError> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let ids: Vec<String> = tx
        .prepare_cached(
            "SELECT id FROM tables WHERE status = ?1 AND created < ?2 ORDER BY created LIMIT ?3",
        )?
        .query_map(params![CLOSED, before, limit as i64], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    for id in &ids {
        delete_table(&tx, numbers, id)?;
    }
    tx.commit()?;
    metrics::counter!("parlor_store_pruned_tables_total").increment(ids.len() as u64);
    Ok(ids.len())
}

/// Deletes a table and every row of it (its actions before the number they are found by).
fn delete_table(tx: &Connection, numbers: &mut TableNumbers, id: &str) -> rusqlite::Result<()> {
    numbers.forget(id);
    for sql in [
        "DELETE FROM actions WHERE table_no = (SELECT no FROM table_numbers WHERE id = ?1)",
        "DELETE FROM table_numbers WHERE id = ?1",
        "DELETE FROM chat WHERE table_id = ?1",
        "DELETE FROM seats WHERE table_id = ?1",
        "DELETE FROM matches WHERE table_id = ?1",
        "DELETE FROM tables WHERE id = ?1",
    ] {
        tx.prepare_cached(sql)?.execute(params![id])?;
    }
    Ok(())
}

/// A real commit that changes nothing: the schema version written over itself (SQLite
/// writes the header page, so a full disk, a read-only file or a moved database fails it).
pub fn probe(conn: &mut Connection) -> Result<(), StoreError> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let version: i64 = tx.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    tx.pragma_update(None, "user_version", version)?;
    tx.commit()?;
    Ok(())
}

/// Stops the checkpointer, then folds the whole write-ahead log into the main file so the
/// data directory is one tidy file.
fn finish(conn: Connection, checkpointer: Option<Checkpointer>) {
    if let Some(checkpointer) = checkpointer {
        checkpointer.stop();
    }
    if let Err(err) = conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)") {
        tracing::warn!(%err, "could not checkpoint the database on closing");
    }
    if let Err((_, err)) = conn.close() {
        tracing::warn!(%err, "could not close the database");
    }
}

/// Writes every change in one transaction. A change the database refuses for what it is (a
/// constraint, a type) is logged and answered with its error while the others still go in;
/// any other failure (a full disk, an I/O error, a read-only file) fails the whole
/// transaction, which is rolled back. Returns each change's outcome, in order.
///
/// `BEGIN IMMEDIATE` and `COMMIT` are prepared once and kept, like every statement here: run
/// through `Connection::transaction`, each commit parsed and compiled both again. Immediate:
/// the write lock (held for a moment by the checkpointer restarting the log) is waited for
/// with the busy timeout, rather than given up at once by a transaction that has read.
fn write_all(
    conn: &mut Connection,
    numbers: &mut TableNumbers,
    writes: &[&Write],
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    conn.prepare_cached("BEGIN IMMEDIATE")?.execute([])?;
    let result = write_in(conn, numbers, writes).and_then(|outcomes| {
        conn.prepare_cached("COMMIT")?.execute([])?;
        Ok(outcomes)
    });
    if result.is_err() {
        // A number given inside the transaction is gone with it.
        numbers.clear();
    }
    if result.is_err()
        && !conn.is_autocommit()
        && let Err(err) = conn.execute_batch("ROLLBACK")
    {
        tracing::warn!(%err, "could not roll back a failed transaction");
    }
    result
}

/// [`write_all`]'s work inside the transaction: each run of consecutive actions in a few
/// statements ([`action_rows`]), every other write on its own, in order.
pub(super) fn write_in(
    tx: &Connection,
    numbers: &mut TableNumbers,
    writes: &[&Write],
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let mut outcomes = Vec::with_capacity(writes.len());
    let mut rest = writes;
    while let Some(write) = rest.first() {
        let actions = action_rows::write_leading(tx, numbers, rest, &mut outcomes)?;
        if actions > 0 {
            rest = &rest[actions..];
            continue;
        }
        rest = &rest[1..];
        match apply(tx, numbers, write) {
            Err(err) if !refused_for_itself(&err) => return Err(err),
            Err(err) => {
                tracing::error!(%err, change = write.what(), "could not store a change");
                outcomes.push(Err(err));
            }
            Ok(()) => outcomes.push(Ok(())),
        }
    }
    Ok(outcomes)
}

/// True when the database refused a change for what it is, so trying it again cannot help.
pub(super) fn refused_for_itself(err: &StoreError) -> bool {
    use rusqlite::ErrorCode::{ConstraintViolation, TooBig, TypeMismatch};
    match err {
        StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => {
            matches!(e.code, ConstraintViolation | TypeMismatch | TooBig)
        }
        StoreError::Sqlite(rusqlite::Error::ToSqlConversionFailure(_)) => true,
        _ => false,
    }
}

/// One change.
fn apply(tx: &Connection, numbers: &mut TableNumbers, write: &Write) -> Result<(), StoreError> {
    match write {
        Write::Table(row) => {
            insert_table(tx, row)?;
        }
        Write::Match { table, row } => {
            insert_match(tx, table, row)?;
        }
        Write::State {
            table,
            status,
            host,
            seats,
        } => {
            tx.prepare_cached("UPDATE tables SET status = ?2, host = ?3 WHERE id = ?1")?
                .execute(params![table, status, host])?;
            for seat in seats {
                upsert_seat(tx, table, seat)?;
            }
        }
        Write::Action { table, row } => {
            let no = numbers.of(tx, table)?;
            action_rows::insert_all(tx, no, std::slice::from_ref(row))?;
        }
        Write::Chat { table, row, keep } => {
            insert_chat(tx, table, row)?;
            tx.prepare_cached("DELETE FROM chat WHERE table_id = ?1 AND n <= ?2")?
                .execute(params![table, row.n.saturating_sub(*keep) as i64])?;
        }
        Write::Result(row) => {
            tx.prepare_cached(
                "INSERT OR IGNORE INTO results (table_id, match_no, variant, at, places, listed)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![
                row.table,
                row.match_no,
                row.variant,
                row.at,
                row.places,
                row.listed
            ])?;
        }
        Write::Closed { table } => {
            tx.prepare_cached("UPDATE tables SET status = ?2 WHERE id = ?1")?
                .execute(params![table, CLOSED])?;
        }
        Write::Cut {
            table,
            match_no,
            from,
        } => {
            tx.prepare_cached(
                "DELETE FROM actions
                 WHERE table_no = (SELECT no FROM table_numbers WHERE id = ?1)
                   AND (match_no > ?2 OR (match_no = ?2 AND idx >= ?3))",
            )?
            .execute(params![table, match_no, from])?;
            tx.prepare_cached("DELETE FROM matches WHERE table_id = ?1 AND match_no > ?2")?
                .execute(params![table, match_no])?;
        }
        Write::Deleted { table } => delete_table(tx, numbers, table)?,
    }
    Ok(())
}

fn insert_table(tx: &Connection, row: &TableRow) -> rusqlite::Result<usize> {
    tx.prepare_cached(
        "INSERT INTO tables (id, variant, options, table_options, seed, created, status, host,
                             host_key)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?
    .execute(params![
        row.id,
        row.variant,
        row.options,
        row.table_options,
        row.seed.map(|s| s as i64),
        row.created,
        row.status,
        row.host,
        row.host_key,
    ])
}

fn insert_match(tx: &Connection, table: &str, row: &MatchRow) -> rusqlite::Result<usize> {
    tx.prepare_cached(
        "INSERT OR REPLACE INTO matches (table_id, match_no, seed, seq, secret)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![
        table,
        row.match_no,
        row.seed as i64,
        row.seq as i64,
        row.secret.map(|s| s.to_hex()),
    ])
}

fn upsert_seat(tx: &Connection, table: &str, seat: &SeatRow) -> rusqlite::Result<usize> {
    tx.prepare_cached(
        "INSERT OR REPLACE INTO seats
         (table_id, seat, occupant, name, token, strategy, bot_playing, account)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        table,
        seat.seat,
        occupant_name(seat.occupant),
        seat.name,
        seat.token,
        seat.strategy,
        seat.bot_playing,
        seat.account,
    ])
}

fn insert_chat(tx: &Connection, table: &str, row: &ChatRow) -> rusqlite::Result<usize> {
    tx.prepare_cached(
        "INSERT OR REPLACE INTO chat (table_id, n, seat, name, text, at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        table,
        row.n as i64,
        row.seat,
        row.name,
        row.text,
        row.at
    ])
}

/// Copies a whole table into a fresh database (when salvaging a damaged file).
pub fn insert_log(tx: &Connection, log: &TableLog) -> Result<(), StoreError> {
    insert_table(tx, &log.table)?;
    for row in &log.matches {
        insert_match(tx, &log.table.id, row)?;
    }
    for seat in &log.seats {
        upsert_seat(tx, &log.table.id, seat)?;
    }
    if !log.actions.is_empty() {
        let no = table_numbers::number_of(tx, &log.table.id)?;
        action_rows::insert_all(tx, no, &log.actions)?;
    }
    for row in &log.chat {
        insert_chat(tx, &log.table.id, row)?;
    }
    Ok(())
}
