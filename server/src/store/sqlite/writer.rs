//! The writer thread: the only user of the database connection after start.
//!
//! It sleeps until a request arrives, then takes every request already queued (when busy,
//! after a short wait for more), writes the writes in one transaction, commits, and only
//! then acknowledges them (group commit). Reads and barriers are answered in queue order,
//! after the writes queued before them.
//!
//! It owns the writing connection; nothing else writes to the database after start.

use std::sync::Mutex;
use std::time::Instant;

use rusqlite::{Connection, Transaction, params};
use tokio::sync::{mpsc, oneshot};

use super::checkpoint::Checkpointer;
use super::load;
use crate::store::StoreError;
use crate::store::records::{
    ActionRow, CLOSED, ChatRow, MatchRow, SeatRow, TableLog, TableRow, Write, occupant_name,
};

/// The most requests written in one transaction.
const MAX_BATCH: usize = 4096;

/// How long a busy writer waits for more writes before committing (a quiet one never
/// waits). About a tenth of a move's round trip under load; it halves the pages written.
const LINGER: std::time::Duration = std::time::Duration::from_micros(300);

/// What the writer thread is asked to do.
#[derive(Debug)]
pub enum Request {
    /// Store this; answer once committed (or failed).
    Write {
        /// The change.
        write: Write,
        /// The acknowledgement.
        ack: oneshot::Sender<Result<(), String>>,
    },
    /// Answer once everything before is committed.
    Barrier {
        /// The answer.
        reply: oneshot::Sender<()>,
    },
    /// Read one table.
    Load {
        /// Which.
        id: String,
        /// The answer.
        reply: oneshot::Sender<Result<Option<TableLog>, StoreError>>,
    },
    /// Delete old closed tables (see [`crate::store::Store::prune`]).
    Prune {
        /// Created before this, Unix milliseconds.
        before: i64,
        /// The most tables this time.
        limit: usize,
        /// How many went.
        reply: oneshot::Sender<Result<usize, StoreError>>,
    },
    /// Write something small (a real commit) and answer whether it worked: the health probe.
    Probe {
        /// The answer.
        reply: oneshot::Sender<Result<(), StoreError>>,
    },
    /// Run this on the connection, after the writes queued before it (bot accounts).
    Run(Job),
    /// Commit what is queued and stop.
    Shutdown {
        /// Answered after the last commit, just before the thread ends.
        reply: oneshot::Sender<()>,
    },
}

/// Work for the writer's connection that answers through its own channel.
pub struct Job(pub Box<dyn FnOnce(&mut Connection) + Send>);

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Job")
    }
}

/// The thread's loop; returns when asked to stop or when every [`super::SqliteStore`] is gone.
/// The checkpointer, if any, is nudged after each commit.
pub fn run(
    mut conn: Connection,
    mut rx: mpsc::UnboundedReceiver<Request>,
    checkpointer: Option<Checkpointer>,
    failing: &Mutex<Option<String>>,
) {
    let mut batch = Vec::new();
    let mut acks = Vec::new();
    let mut busy = false;
    while let Some(first) = rx.blocking_recv() {
        batch.push(first);
        if busy {
            // Under load, let a few more writes join this commit: tables touch different
            // pages, and each commit writes every page it touched once.
            std::thread::sleep(LINGER);
        }
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(request) => batch.push(request),
                Err(_) => break,
            }
        }
        busy = batch.len() > 1;
        let mut stop = None;
        let mut requests = batch.drain(..).peekable();
        while requests.peek().is_some() {
            // The writes up to the next read, barrier or stop, in one transaction.
            let mut writes = Vec::new();
            while let Some(Request::Write { .. }) = requests.peek() {
                if let Some(Request::Write { write, ack }) = requests.next() {
                    writes.push(write);
                    acks.push(ack);
                }
            }
            if !writes.is_empty() {
                let started = Instant::now();
                let result = write_all(&mut conn, &writes).map_err(|err| err.to_string());
                metrics::histogram!("parlor_store_commit_seconds")
                    .record(started.elapsed().as_secs_f64());
                metrics::counter!("parlor_store_commits_total").increment(1);
                metrics::counter!("parlor_store_writes_total").increment(writes.len() as u64);
                tracing::trace!(writes = writes.len(), "committed");
                if let Err(err) = &result {
                    metrics::counter!("parlor_store_commit_failures_total").increment(1);
                    tracing::error!(%err, writes = writes.len(), "could not write to the database");
                }
                set_failing(failing, result.as_ref().err().cloned());
                for ack in acks.drain(..) {
                    let _ = ack.send(result.clone());
                }
                if let Some(checkpointer) = &checkpointer {
                    checkpointer.nudge();
                }
            }
            match requests.next() {
                None | Some(Request::Write { .. }) => {}
                Some(Request::Barrier { reply }) => {
                    let _ = reply.send(());
                }
                Some(Request::Load { id, reply }) => {
                    let _ = reply.send(load::table_log(&conn, &id, load::Scope::All));
                }
                Some(Request::Prune {
                    before,
                    limit,
                    reply,
                }) => {
                    let _ = reply.send(prune(&mut conn, before, limit));
                }
                Some(Request::Probe { reply }) => {
                    let result = probe(&mut conn);
                    set_failing(failing, result.as_ref().err().map(ToString::to_string));
                    let _ = reply.send(result);
                }
                Some(Request::Run(job)) => (job.0)(&mut conn),
                Some(Request::Shutdown { reply }) => stop = Some(reply),
            }
        }
        if let Some(reply) = stop {
            finish(conn, checkpointer);
            let _ = reply.send(());
            return;
        }
    }
    finish(conn, checkpointer);
}

/// Records whether the last write worked, for the health check.
fn set_failing(failing: &Mutex<Option<String>>, err: Option<String>) {
    if let Ok(mut failing) = failing.lock() {
        *failing = err;
    }
}

/// Deletes up to `limit` closed tables created before `before`, and everything of theirs,
/// in one transaction.
fn prune(conn: &mut Connection, before: i64, limit: usize) -> Result<usize, StoreError> {
    let tx = conn.transaction()?;
    let ids: Vec<String> = tx
        .prepare_cached(
            "SELECT id FROM tables WHERE status = ?1 AND created < ?2 ORDER BY created LIMIT ?3",
        )?
        .query_map(params![CLOSED, before, limit as i64], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    for id in &ids {
        for sql in [
            "DELETE FROM actions WHERE table_id = ?1",
            "DELETE FROM chat WHERE table_id = ?1",
            "DELETE FROM seats WHERE table_id = ?1",
            "DELETE FROM matches WHERE table_id = ?1",
            "DELETE FROM tables WHERE id = ?1",
        ] {
            tx.prepare_cached(sql)?.execute(params![id])?;
        }
    }
    tx.commit()?;
    metrics::counter!("parlor_store_pruned_tables_total").increment(ids.len() as u64);
    Ok(ids.len())
}

/// A real commit that changes nothing: the schema version written over itself (SQLite
/// writes the header page, so a full disk, a read-only file or a moved database fails it).
fn probe(conn: &mut Connection) -> Result<(), StoreError> {
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

/// Writes every change in one transaction. A change that fails is logged and the others
/// still go in; only a failed commit fails them all.
fn write_all(conn: &mut Connection, writes: &[Write]) -> Result<(), StoreError> {
    let tx = conn.transaction()?;
    let mut first_error = None;
    for write in writes {
        if let Err(err) = apply(&tx, write) {
            tracing::error!(%err, change = write.what(), "could not store a change");
            first_error.get_or_insert(err);
        }
    }
    tx.commit()?;
    first_error.map_or(Ok(()), Err)
}

/// One change.
fn apply(tx: &Transaction<'_>, write: &Write) -> Result<(), StoreError> {
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
            insert_action(tx, table, row)?;
        }
        Write::Chat { table, row, keep } => {
            insert_chat(tx, table, row)?;
            tx.prepare_cached("DELETE FROM chat WHERE table_id = ?1 AND n <= ?2")?
                .execute(params![table, row.n.saturating_sub(*keep) as i64])?;
        }
        Write::Closed { table } => {
            tx.prepare_cached("UPDATE tables SET status = ?2 WHERE id = ?1")?
                .execute(params![table, CLOSED])?;
        }
    }
    Ok(())
}

fn insert_table(tx: &Transaction<'_>, row: &TableRow) -> rusqlite::Result<usize> {
    tx.prepare_cached(
        "INSERT INTO tables (id, variant, options, table_options, seed, created, status, host)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
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
    ])
}

fn insert_match(tx: &Transaction<'_>, table: &str, row: &MatchRow) -> rusqlite::Result<usize> {
    tx.prepare_cached(
        "INSERT OR REPLACE INTO matches (table_id, match_no, seed, seq) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![
        table,
        row.match_no,
        row.seed as i64,
        row.seq as i64
    ])
}

fn upsert_seat(tx: &Transaction<'_>, table: &str, seat: &SeatRow) -> rusqlite::Result<usize> {
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

fn insert_action(tx: &Transaction<'_>, table: &str, row: &ActionRow) -> rusqlite::Result<usize> {
    tx.prepare_cached(
        "INSERT INTO actions (table_id, match_no, idx, seat, action, seq)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        table,
        row.match_no,
        row.idx,
        row.seat,
        row.action,
        row.seq as i64
    ])
}

fn insert_chat(tx: &Transaction<'_>, table: &str, row: &ChatRow) -> rusqlite::Result<usize> {
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
pub fn insert_log(tx: &Transaction<'_>, log: &TableLog) -> Result<(), StoreError> {
    insert_table(tx, &log.table)?;
    for row in &log.matches {
        insert_match(tx, &log.table.id, row)?;
    }
    for seat in &log.seats {
        upsert_seat(tx, &log.table.id, seat)?;
    }
    for row in &log.actions {
        insert_action(tx, &log.table.id, row)?;
    }
    for row in &log.chat {
        insert_chat(tx, &log.table.id, row)?;
    }
    Ok(())
}
