//! The SQLite backend of the [`Store`]: an embedded database file that logs every table's
//! setup, seats, match seeds and accepted actions.
//!
//! One writer thread owns the database connection. Table actors queue writes on an unbounded
//! channel and get an acknowledgement back; the writer takes everything queued, writes it in
//! one transaction and then acknowledges each write (group commit), so a busy server pays for
//! one commit per batch, not per move. A table sends a step's messages to its clients only
//! once that step's writes are acknowledged (the table's outbox): what a client saw is on disk.
//!
//! On start, [`SqliteStore::open`] reads every open table ([`Startup`]). A database file that
//! cannot be read at all is moved aside and a fresh one started.

pub mod accounts;
mod action_rows;
pub mod backup;
mod checkpoint;
pub mod identity;
mod load;
mod schema;
mod table_numbers;
mod writer;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread;
use std::time::{SystemTime, UNIX_EPOCH};

use futures_util::future::BoxFuture;
use rusqlite::Connection;
use tokio::sync::watch;

use super::{
    Ack, BotAccount, BotAccounts, NewBot, ResultRow, Results, Startup, Store, StoreError,
    StoreStats, TableLog, Upkeep, Write,
};
use crate::store::ack_task::AckTask;
use crate::store::health::Health;
use crate::store::queue::{AccountOp, Queue, Request};
use checkpoint::{CheckpointStats, Checkpointer};
use identity::Identity;

/// The database's file name inside the data directory.
pub const DB_FILE: &str = "parlor.db";

/// A handle on the SQLite store. Cheap to clone; every clone talks to the same writer thread.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    /// Where requests for the writer thread go.
    queue: Queue,
    /// The database file, or `None` in memory.
    path: Option<PathBuf>,
    /// What the checkpointer has done, when there is one.
    checkpoints: Option<Arc<CheckpointStats>>,
    /// Whether the writer's commits go through, and why not while they fail.
    health: Arc<Health>,
}

impl SqliteStore {
    /// Opens (or creates) `dir/parlor.db`, migrates it, reads every open table and starts the
    /// writer thread. A file that is not a readable database is moved aside to
    /// `parlor.db.corrupt-<unix seconds>` (with its `-wal` and `-shm` files) and a fresh one is
    /// started; open tables that could still be read from it are copied into the fresh one
    /// (with their current match: older hands of theirs can no longer be replayed).
    ///
    /// Refused: a directory another process holds (its lock, see [`identity`]), a file that is
    /// another program's database, and a database that cannot be written.
    pub fn open(dir: &Path) -> Result<(SqliteStore, Startup), StoreError> {
        std::fs::create_dir_all(dir).map_err(|err| StoreError::Io {
            what: format!("creating the data directory {}", dir.display()),
            err,
        })?;
        let lock = identity::lock(dir)?;
        let path = dir.join(DB_FILE);
        let (conn, startup) = match open_file(&path) {
            Ok((conn, startup, false)) => (conn, startup),
            Ok((conn, startup, true)) => {
                // Some pages are damaged: keep what could be read, in a fresh file.
                drop(conn);
                tracing::error!(
                    file = %path.display(),
                    "the database file is damaged: moving it aside and keeping the tables that could be read"
                );
                salvage(&path, startup)?
            }
            Err(err) if err.is_corruption() => {
                tracing::error!(
                    file = %path.display(),
                    %err,
                    "the database file cannot be read: moving it aside and keeping the tables that can still be read"
                );
                let startup = read_damaged(&path);
                salvage(&path, startup)?
            }
            Err(err) => return Err(err),
        };
        Ok((SqliteStore::start(conn, Some(path), Some(lock)), startup))
    }

    /// A store kept in memory: nothing survives the process, but replays work.
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        let mut conn = Connection::open_in_memory()?;
        schema::migrate(&mut conn)?;
        Ok(SqliteStore::start(conn, None, None))
    }

    /// Starts the writer thread on an open, migrated connection, and beside it the
    /// checkpointer for a file (without one, SQLite checkpoints inside commits). The writer
    /// holds the data directory's `lock` until it stops.
    fn start(conn: Connection, path: Option<PathBuf>, lock: Option<std::fs::File>) -> SqliteStore {
        let (queue, rx) = Queue::new();
        // Every statement of the writer stays prepared (more than the default 16), with the
        // inserts of actions.
        conn.set_prepared_statement_cache_capacity(64 + action_rows::STATEMENTS);
        let checkpointer = path.as_deref().and_then(|path| {
            let started =
                Checkpointer::start(path, checkpoint::LOG_LIMIT).and_then(|checkpointer| {
                    conn.pragma_update(None, "wal_autocheckpoint", 0)?;
                    Ok(checkpointer)
                });
            started
                .inspect_err(|err| tracing::warn!(%err, "checkpoints stay inside commits"))
                .ok()
        });
        let checkpoints = checkpointer.as_ref().map(Checkpointer::stats);
        let health = Arc::new(Health::new());
        let writer_health = Arc::clone(&health);
        let ack_task = AckTask::start();
        thread::Builder::new()
            .name("parlor-store".into())
            .spawn(move || writer::run(conn, rx, checkpointer, &writer_health, lock, &ack_task))
            .expect("spawning the database writer thread");
        SqliteStore {
            queue,
            path,
            checkpoints,
            health,
        }
    }

    /// The database file, or `None` for a store in memory.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
}

impl Store for SqliteStore {
    /// Queues a write; `ack` is answered when it is committed. Writes are committed and
    /// acknowledged in the order they were appended, so the acknowledgement of a step's last
    /// write covers the whole step.
    fn append_then(&self, write: Write, ack: Ack) {
        self.queue.write(write, ack);
    }

    /// Waits until everything queued before this call is committed.
    fn flushed(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        self.queue.wait(|reply| Request::Barrier { reply })
    }

    /// Everything stored about one table (open or closed), read after every write queued
    /// before this call.
    fn table_log(&self, id: &str) -> BoxFuture<'_, Result<Option<TableLog>, StoreError>> {
        let id = id.to_string();
        self.queue.ask(|reply| Request::Load { id, reply })
    }

    /// `false` while the writer's commits fail and it retries them.
    fn saving(&self) -> watch::Receiver<bool> {
        self.health.saving()
    }

    /// The checkpointer's figures (`None` for a store in memory).
    fn stats(&self) -> Option<StoreStats> {
        let stats = self.checkpoints.as_deref()?;
        Some(StoreStats {
            checkpoints: stats.checkpoints.load(Ordering::Relaxed),
            log_restarts: stats.restarts.load(Ordering::Relaxed),
            log_pages: stats.log_pages.load(Ordering::Relaxed),
            postgres: None,
        })
    }

    /// Commits everything queued, stops the writer thread and waits for it to finish.
    /// Later writes fail (their tables never send what they would have written).
    fn close(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        self.queue.wait(|reply| Request::Shutdown { reply })
    }
}

impl Results for SqliteStore {
    /// Reads the results in the writer thread, after everything queued before.
    fn results(&self) -> BoxFuture<'_, Result<Vec<ResultRow>, StoreError>> {
        let all = self.queue.ask(|reply| Request::Results { after: 0, reply });
        Box::pin(async move { Ok(all.await?.into_iter().map(|(_, row)| row).collect()) })
    }
}

impl BotAccounts for SqliteStore {
    fn add_bot(&self, bot: NewBot) -> BoxFuture<'_, Result<bool, StoreError>> {
        self.queue.account(|reply| AccountOp::Add(bot, reply))
    }

    fn bot_accounts(&self) -> BoxFuture<'_, Result<Vec<BotAccount>, StoreError>> {
        self.queue.account(AccountOp::List)
    }

    fn revoke_bot(&self, name: &str) -> BoxFuture<'_, Result<Option<BotAccount>, StoreError>> {
        let name = name.to_string();
        self.queue.account(|reply| AccountOp::Revoke(name, reply))
    }

    fn bot_by_token(
        &self,
        token_hash: &str,
    ) -> BoxFuture<'_, Result<Option<BotAccount>, StoreError>> {
        let hash = token_hash.to_string();
        self.queue.account(|reply| AccountOp::ByToken(hash, reply))
    }
}

impl Upkeep for SqliteStore {
    /// Healthy when a small real commit goes through the writer (after everything queued
    /// before it) and a file can be created, written and synced in the data directory.
    /// Unhealthy at once while the writer's commits fail (it is retrying them).
    fn health(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        if let Some(err) = self.health.failing() {
            return Box::pin(async move { Err(StoreError::Failing(err)) });
        }
        let probe = self.queue.ask(|reply| Request::Probe { reply });
        let dir = self
            .path
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf);
        Box::pin(async move {
            probe.await?;
            if let Some(dir) = dir {
                tokio::task::spawn_blocking(move || probe_dir(&dir))
                    .await
                    .map_err(|_| StoreError::Closed)??;
            }
            match self.health.failing() {
                Some(err) => Err(StoreError::Failing(err)),
                None => Ok(()),
            }
        })
    }

    /// Deletes old closed tables in the writer thread, between commits.
    fn prune(&self, before: i64, limit: usize) -> BoxFuture<'_, Result<usize, StoreError>> {
        self.queue.ask(|reply| Request::Prune {
            before,
            limit,
            reply,
        })
    }
}

/// Creates, writes, syncs and removes a small file in the data directory.
fn probe_dir(dir: &Path) -> Result<(), StoreError> {
    use std::io::Write as _;
    let path = dir.join(".parlor-health");
    let io = |err| StoreError::Io {
        what: format!("writing {}", path.display()),
        err,
    };
    let mut file = std::fs::File::create(&path).map_err(io)?;
    file.write_all(b"ok\n").map_err(io)?;
    file.sync_all().map_err(io)?;
    drop(file);
    std::fs::remove_file(&path).map_err(io)
}

/// Opens the file, sets it up and reads every open table. The flag is true when some rows
/// sat on damaged pages.
fn open_file(path: &Path) -> Result<(Connection, Startup, bool), StoreError> {
    let mut conn = Connection::open(path)?;
    // Before anything is changed: another program's file is left as it is.
    let identity = identity::check(&conn, path)?;
    configure(&conn)?;
    schema::migrate(&mut conn)?;
    if identity == Identity::Unstamped {
        identity::stamp(&conn).map_err(|err| read_only(path, err))?;
    }
    writer::probe(&mut conn).map_err(|err| read_only(path, err))?;
    let mut startup = Startup::default();
    let mut damaged = false;
    for id in load::open_table_ids(&conn)? {
        match load::table_log(&conn, &id, load::Scope::LastMatch) {
            Ok(Some(log)) => startup.tables.push(log),
            Ok(None) => {}
            Err(err) => {
                damaged |= err.is_corruption();
                startup.unreadable.push((id, err.to_string()));
            }
        }
    }
    Ok((conn, startup, damaged))
}

/// A write that failed on start: the database cannot be written.
fn read_only(path: &Path, err: StoreError) -> StoreError {
    StoreError::ReadOnly {
        file: path.to_path_buf(),
        err: err.to_string(),
    }
}

/// WAL journal (readers never block the writer, commits are appends) with `synchronous =
/// NORMAL`: a commit survives the process being killed; an operating-system crash may lose
/// the last moments. A 512 KiB page cache. A busy timeout covers a second process opening the
/// file.
fn configure(conn: &Connection) -> Result<(), StoreError> {
    // Small pages for a new file (an existing one keeps its own): each move dirties one page of
    // its table's log, written whole at the next commit, and more of the pages live tables
    // write to stay in the small cache.
    conn.pragma_update(None, "page_size", 1024)?;
    let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") && !mode.eq_ignore_ascii_case("memory") {
        tracing::warn!(mode, "the database could not switch to WAL mode");
    }
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    // A small cache saves memory per table; the pages it misses come from the operating
    // system's cache.
    conn.pragma_update(None, "cache_size", -512)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(())
}

/// Reads what can still be read from a damaged file: on a copy, cut-off pages are put back as
/// zeros (a truncated file is otherwise refused whole), then each open table is read on its
/// own. Never fails: what cannot be read is reported in [`Startup::unreadable`].
fn read_damaged(path: &Path) -> Startup {
    let mut startup = Startup::default();
    let copy = PathBuf::from(format!("{}.salvage", path.display()));
    let result = (|| -> Result<(), StoreError> {
        let io = |what: &str, err| StoreError::Io {
            what: format!("{what} {}", copy.display()),
            err,
        };
        std::fs::copy(path, &copy).map_err(|err| io("copying the database to", err))?;
        let wal = PathBuf::from(format!("{}-wal", path.display()));
        if wal.exists() {
            std::fs::copy(&wal, format!("{}-wal", copy.display()))
                .map_err(|err| io("copying the log to", err))?;
        }
        let header = std::fs::read(&copy).map_err(|err| io("reading", err))?;
        if header.len() < 100 || !header.starts_with(b"SQLite format 3\0") {
            return Ok(());
        }
        let page_size = match u16::from_be_bytes([header[16], header[17]]) {
            1 => 65_536,
            size => u64::from(size),
        };
        let pages = u64::from(u32::from_be_bytes([
            header[28], header[29], header[30], header[31],
        ]));
        let expected = page_size * pages;
        if (header.len() as u64) < expected {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(&copy)
                .map_err(|err| io("opening", err))?;
            file.set_len(expected).map_err(|err| io("padding", err))?;
        }
        let mut conn = Connection::open(&copy)?;
        if let Err(err) = schema::migrate(&mut conn) {
            tracing::error!(%err, "the damaged file's schema could not be brought up to date: its tables may not be readable");
        }
        for id in load::open_table_ids(&conn)? {
            match load::table_log(&conn, &id, load::Scope::LastMatch) {
                Ok(Some(log)) => startup.tables.push(log),
                Ok(None) => {}
                Err(err) => startup.unreadable.push((id, err.to_string())),
            }
        }
        Ok(())
    })();
    if let Err(err) = result {
        tracing::error!(%err, "no table could be read from the damaged database file");
    }
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", copy.display()));
    }
    startup
}

/// Moves the file aside and starts a fresh database holding the tables in `startup`.
fn salvage(path: &Path, mut startup: Startup) -> Result<(Connection, Startup), StoreError> {
    let aside = move_aside(path)?;
    tracing::error!(
        moved_to = %aside.display(),
        kept = startup.tables.len(),
        "the old database file was moved aside; a fresh one is started"
    );
    let mut conn = Connection::open(path)?;
    configure(&conn)?;
    schema::migrate(&mut conn)?;
    identity::stamp(&conn)?;
    let tx = conn.transaction()?;
    for log in &startup.tables {
        writer::insert_log(&tx, log)?;
    }
    tx.commit()?;
    startup.moved_aside = Some(aside);
    Ok((conn, startup))
}

/// Renames `path` (and its `-wal` and `-shm` companions) to `<path>.corrupt-<unix seconds>`.
fn move_aside(path: &Path) -> Result<PathBuf, StoreError> {
    let stamp = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let aside = PathBuf::from(format!("{}.corrupt-{stamp}", path.display()));
    for suffix in ["", "-wal", "-shm"] {
        let from = PathBuf::from(format!("{}{suffix}", path.display()));
        if from.exists() {
            let to = PathBuf::from(format!("{}{suffix}", aside.display()));
            std::fs::rename(&from, &to).map_err(|err| StoreError::Io {
                what: format!("moving {} aside", from.display()),
                err,
            })?;
        }
    }
    Ok(aside)
}

#[cfg(test)]
mod tests;
