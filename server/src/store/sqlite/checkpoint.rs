//! The checkpointer thread: folds the write-ahead log back into the database file beside the
//! writer, on a connection of its own. SQLite's automatic checkpoint runs inside the commit that
//! crosses its threshold, so every table waiting for that commit waited for the copy and its
//! `fsync`s too. Here the writer only appends and nudges this thread, which lets a few commits
//! gather, then runs a passive checkpoint that never blocks the writer. Under steady load the log
//! is never fully copied (there is always a newer commit), so past [`LOG_LIMIT`] one blocking
//! checkpoint holds the writer briefly and restarts the log. It never writes rows.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, sync_channel};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use rusqlite::Connection;

use crate::store::StoreError;

/// How long commits gather before a checkpoint: under load each table's pages change several
/// times a second, and one checkpoint copies a page once for all the versions gathered since
/// the last (docs/PERFORMANCE.md, "Where the code's shape comes from").
const GATHER: Duration = Duration::from_millis(500);

/// How often the gathering checks whether the writer has gone (the thread then stops
/// without waiting out the rest of [`GATHER`]).
const GATHER_STEP: Duration = Duration::from_millis(50);

/// Log pages (16 MiB of the store's 1 KiB pages) past which the checkpointer holds the writer
/// for a moment to restart the log.
pub const LOG_LIMIT: i64 = 16_384;

/// What the checkpointer has done, for tests and curious operators.
#[derive(Debug, Default)]
pub struct CheckpointStats {
    /// Checkpoints run.
    pub checkpoints: AtomicU64,
    /// Times the log was restarted past the limit.
    pub restarts: AtomicU64,
    /// The log's length in pages after the last checkpoint.
    pub log_pages: AtomicU64,
}

/// A running checkpointer.
#[derive(Debug)]
pub struct Checkpointer {
    /// Nudges after commits; dropping it stops the thread.
    nudge: Option<SyncSender<()>>,
    /// The thread, joined on [`Checkpointer::stop`].
    thread: Option<JoinHandle<()>>,
    /// What it has done.
    stats: Arc<CheckpointStats>,
}

impl Checkpointer {
    /// Opens a second connection on `path` and starts the thread, which restarts the log
    /// once it is longer than `log_limit` pages.
    pub fn start(path: &Path, log_limit: i64) -> Result<Checkpointer, StoreError> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(Duration::from_secs(5))?;
        let (nudge, nudges) = sync_channel(1);
        let stats = Arc::new(CheckpointStats::default());
        let thread_stats = stats.clone();
        let thread = thread::Builder::new()
            .name("parlor-checkpoint".into())
            .spawn(move || run(&conn, &nudges, log_limit, &thread_stats))
            .map_err(|err| StoreError::Io {
                what: "starting the checkpoint thread".into(),
                err,
            })?;
        Ok(Checkpointer {
            nudge: Some(nudge),
            thread: Some(thread),
            stats,
        })
    }

    /// What the thread has done so far.
    #[must_use]
    pub fn stats(&self) -> Arc<CheckpointStats> {
        self.stats.clone()
    }

    /// Says that a commit happened; never waits.
    pub fn nudge(&self) {
        if let Some(nudge) = &self.nudge {
            let _ = nudge.try_send(());
        }
    }

    /// Stops the thread after its current checkpoint, if any.
    pub fn stop(mut self) {
        self.nudge = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The thread's loop: one checkpoint per batch of nudges, until the writer is gone.
fn run(conn: &Connection, nudges: &Receiver<()>, log_limit: i64, stats: &CheckpointStats) {
    while nudges.recv().is_ok() {
        let mut gathered = Duration::ZERO;
        while gathered < GATHER {
            thread::sleep(GATHER_STEP);
            gathered += GATHER_STEP;
            match nudges.try_recv() {
                Ok(()) | Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => return,
            }
        }
        stats.checkpoints.fetch_add(1, Ordering::Relaxed);
        let mut result = checkpoint(conn, "PASSIVE");
        if let Ok(log) = result
            && log > log_limit
        {
            tracing::debug!(pages = log, "the write-ahead log is long: restarting it");
            // Catch up first, so the writer is held only for the last few commits.
            result = checkpoint(conn, "PASSIVE").and_then(|_| checkpoint(conn, "RESTART"));
            if result.is_ok() {
                stats.restarts.fetch_add(1, Ordering::Relaxed);
                // The writer's next commit starts the log over.
                result = Ok(0);
            }
        }
        match result {
            Ok(log) => stats.log_pages.store(log.max(0) as u64, Ordering::Relaxed),
            Err(err) => tracing::warn!(%err, "checkpoint failed; the next one will retry"),
        }
    }
}

/// Runs one checkpoint and returns the log's length in pages. A checkpoint that could not
/// finish (a reader or the writer held on for longer than the busy timeout) is an error.
fn checkpoint(conn: &Connection, mode: &str) -> rusqlite::Result<i64> {
    let (busy, log): (i64, i64) =
        conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })?;
    if busy != 0 {
        return Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
            Some(format!("the {mode} checkpoint could not finish")),
        ));
    }
    Ok(log)
}
