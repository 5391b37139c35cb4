//! Durable tables: a store logs every table's setup, seats, match seeds and accepted actions, so
//! a restarted server rebuilds every open table by replaying its log through the engine.
//! The [`Store`] trait is what a table sees: append a write and be acknowledged once it is
//! durable, wait for everything before, read a table's log, close. [`Results`], [`BotAccounts`]
//! and [`Upkeep`] are the rest; SQLite and Postgres implement all four ([`Backend`]) and keep a
//! table's log in the same shape, a row per action. Opening one returns the tables open when
//! the server stopped ([`Startup`]), which [`restore::rebuild`] turns into tables ready for
//! their actors ([`hands`] builds finished hands from a log). Backends count commits through the `metrics` facade.
//! The store imports nothing else of the server but the leaves below it (`digest`, `skeleton`):
//! its vocabulary is the rows of [`records`] and the engine of `parlor-shared`.

pub mod accounts;
pub mod ack_task;
pub mod fence;
pub mod hands;
pub mod health;
pub mod location;
pub mod log_tag;
pub mod pbn;
pub mod postgres;
pub mod queue;
pub mod records;
pub mod restore;
pub mod secret;
pub mod sqlite;
#[cfg(test)]
pub(crate) mod test_support;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};
use thiserror::Error;
use tokio::sync::{oneshot, watch};

pub use accounts::{BotAccount, NewBot};
pub use location::StoreLocation;
pub use log_tag::log_tag;
pub use postgres::PgStore;
pub use records::{ActionRow, ChatRow, MatchRow, ResultRow, SeatRow, TableLog, TableRow, Write};
pub use restore::{Restored, RestoredSeat};
pub use sqlite::{DB_FILE, SqliteStore};

/// Tables' logs: append a write and be told once it is durable, load a table's log back,
/// close. All a table needs of its store; object-safe, so a table holds any backend as a
/// [`SharedLog`].
pub trait Store: Send + Sync + std::fmt::Debug {
    /// Queues one write; `ack` is answered once it is durable (or refused), off the caller's
    /// task (SQLite: on its [`ack_task`]; Postgres: on its writer's task).
    /// Writes are committed and acknowledged in the order appended, so the acknowledgement of
    /// a step's last write covers the whole step.
    fn append_then(&self, write: Write, ack: Ack);

    /// [`Store::append_then`], answered through a channel.
    fn append(&self, write: Write) -> AckReceiver {
        let (tx, rx) = oneshot::channel();
        self.append_then(
            write,
            Ack::new(move |outcome| {
                // A writer gone drops `tx`: the receiver reports it.
                if let Some(result) = outcome.result() {
                    let _ = tx.send(result);
                }
            }),
        );
        rx
    }

    /// Waits until everything appended before this call is durable.
    fn flushed(&self) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Everything stored about one table (open or closed), read after every write appended
    /// before this call; `None` when there is no such table.
    fn table_log(&self, id: &str) -> BoxFuture<'_, Result<Option<TableLog>, StoreError>>;

    /// Whether writes go through: `true` while they do, `false` while the backend cannot
    /// write and keeps trying (tables pause meanwhile, see the table's outbox). A backend
    /// that cannot fail is always saving.
    fn saving(&self) -> watch::Receiver<bool> {
        watch::channel(true).1
    }

    /// The figures of the log's writing for `GET /api/stats`, if the backend keeps any.
    fn stats(&self) -> Option<StoreStats> {
        None
    }

    /// Makes everything appended durable and stops; later writes fail (their tables never
    /// send what they would have written).
    fn close(&self) -> BoxFuture<'_, Result<(), StoreError>>;
}

/// Finished matches' results, from which the ratings are built.
pub trait Results: Send + Sync {
    /// Every finished match's result, in the order stored (the ratings are rebuilt from them
    /// on start).
    fn results(&self) -> BoxFuture<'_, Result<Vec<ResultRow>, StoreError>>;

    /// The results stored after the one numbered `after` (0: from the start), in order, with
    /// their numbers: how a server sharing its database with others learns of the matches
    /// they finished. A backend no other server writes to says none (the server's own
    /// results reach its ratings directly).
    fn results_after(
        &self,
        after: i64,
    ) -> BoxFuture<'_, Result<Vec<(i64, ResultRow)>, StoreError>> {
        let _ = after;
        Box::pin(async { Ok(Vec::new()) })
    }
}

/// Registered bot accounts.
pub trait BotAccounts: Send + Sync {
    /// Registers a bot account; `Ok(false)` when the name is taken (revoked names too).
    fn add_bot(&self, bot: NewBot) -> BoxFuture<'_, Result<bool, StoreError>>;

    /// Every registered bot account, revoked ones included, by name.
    fn bot_accounts(&self) -> BoxFuture<'_, Result<Vec<BotAccount>, StoreError>>;

    /// Revokes a bot account (its token stops working; the name stays taken) and returns it;
    /// `Ok(None)` when no bot has that name.
    fn revoke_bot(&self, name: &str) -> BoxFuture<'_, Result<Option<BotAccount>, StoreError>>;

    /// The account whose token hashes to `token_hash`, unless it was revoked.
    fn bot_by_token(
        &self,
        token_hash: &str,
    ) -> BoxFuture<'_, Result<Option<BotAccount>, StoreError>>;
}

/// What an operator's server asks of its store besides play: is it healthy, and clearing
/// out old tables.
pub trait Upkeep: Send + Sync {
    /// Whether the store can write now (`GET /healthz`): `Err` says why not.
    fn health(&self) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Deletes up to `limit` closed tables created before `before` (Unix milliseconds), with
    /// their matches, seats and moves; returns how many went. Open tables are never touched.
    /// Called in small batches, so play never waits long behind it.
    fn prune(&self, before: i64, limit: usize) -> BoxFuture<'_, Result<usize, StoreError>>;
}

/// A whole backend: the tables' logs, results, bot accounts and upkeep behind one handle
/// (the SQLite and Postgres stores are each all four).
pub trait Backend: Store + Results + BotAccounts + Upkeep {}

impl<T: Store + Results + BotAccounts + Upkeep + ?Sized> Backend for T {}

/// A backend shared by the lobby, the HTTP handlers and the ratings.
pub type SharedStore = Arc<dyn Backend>;

/// The tables' logs of a backend, as each table holds it.
pub type SharedLog = Arc<dyn Store>;

/// Why the store failed.
#[derive(Debug, Error)]
pub enum StoreError {
    /// SQLite refused.
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// Postgres refused, or could not be reached.
    #[error("postgres: {}", postgres_error(.0))]
    Postgres(#[from] tokio_postgres::Error),
    /// A `--store` that names no store Parlor knows.
    #[error("{0}")]
    Location(String),
    /// The file system refused.
    #[error("{what}: {err}")]
    Io {
        /// What was being done.
        what: String,
        /// The error.
        err: std::io::Error,
    },
    /// The database was written by a newer Parlor.
    #[error(
        "the database has schema version {found}, newer than this Parlor knows ({known}): \
         run a newer parlor, or start with another --data directory"
    )]
    NewerSchema {
        /// The database's version.
        found: i64,
        /// The newest this build knows.
        known: i64,
    },
    /// The writer thread has stopped (the server is shutting down).
    #[error("the database writer has stopped")]
    Closed,
    /// The last write failed; the store is unhealthy until one succeeds.
    #[error("the last write failed: {0}")]
    Failing(String),
    /// Another process (a second `parlor serve`) holds the data directory.
    #[error(
        "the data directory {dir} is in use by another parlor process (it holds the lock \
         {lock}): stop that one first, or start with another --data directory"
    )]
    Locked {
        /// The data directory.
        dir: PathBuf,
        /// The lock file.
        lock: PathBuf,
    },
    /// The database file belongs to another program.
    #[error(
        "{file} is not a Parlor database ({why}): it is left untouched; move it away or \
         start with another --data directory"
    )]
    Foreign {
        /// The file.
        file: PathBuf,
        /// What gave it away.
        why: String,
    },
    /// The database can be read but not written.
    #[error(
        "the database {file} cannot be written ({err}): make the data directory and its files \
         writable by the user parlor runs as"
    )]
    ReadOnly {
        /// The file.
        file: PathBuf,
        /// What SQLite said.
        err: String,
    },
}

impl StoreError {
    /// True when the file is not a database or its pages are damaged (as opposed to a
    /// missing permission or a full disk, which moving the file aside would not cure).
    #[must_use]
    pub fn is_corruption(&self) -> bool {
        use rusqlite::ErrorCode::{DatabaseCorrupt, NotADatabase};
        matches!(self, StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _))
            if matches!(e.code, DatabaseCorrupt | NotADatabase))
    }
}

/// A Postgres error with the server's own message when there is one (the client's display
/// says only "db error").
fn postgres_error(err: &tokio_postgres::Error) -> String {
    match err.as_db_error() {
        Some(db) => format!("{} ({})", db.message(), db.code().code()),
        None => match std::error::Error::source(err) {
            Some(source) => format!("{err}: {source}"),
            None => err.to_string(),
        },
    }
}

/// The table log's background work, as `GET /api/stats` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoreStats {
    /// Checkpoints run beside the writer.
    pub checkpoints: u64,
    /// Times the write-ahead log was started over because it grew long.
    pub log_restarts: u64,
    /// Pages in the write-ahead log at the last checkpoint.
    pub log_pages: u64,
    /// The Postgres writer's figures, for a Postgres store (absent for SQLite).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub postgres: Option<PgStats>,
}

/// What the Postgres writer has done since start, for `GET /api/stats`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PgStats {
    /// Transactions committed (each holds a batch of writes).
    pub commits: u64,
    /// Writes committed.
    pub writes: u64,
    /// Tries of a batch that failed (each is tried again).
    pub failed_commits: u64,
    /// Connections opened after the first (the database was lost and found again).
    pub reconnects: u64,
}

/// What was found in the database on start.
#[derive(Debug, Default)]
pub struct Startup {
    /// Every table that was open when the server stopped, as stored (not yet replayed).
    pub tables: Vec<TableLog>,
    /// Tables whose rows could not be read: `(table id, why)`.
    pub unreadable: Vec<(String, String)>,
    /// Where an unreadable database file was moved, if it was.
    pub moved_aside: Option<PathBuf>,
}

/// The acknowledgement of one write: `Err` holds why the database refused it; a closed
/// channel means the writer has stopped.
pub type AckReceiver = oneshot::Receiver<Result<(), String>>;

/// What became of one write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteOutcome {
    /// It is durable.
    Stored,
    /// The database refused it, for this reason.
    Refused(String),
    /// The writer stopped before answering (the server is stopping).
    WriterGone,
}

impl WriteOutcome {
    /// As the store reports it: `None` when the writer is gone.
    #[must_use]
    pub fn result(self) -> Option<Result<(), String>> {
        match self {
            WriteOutcome::Stored => Some(Ok(())),
            WriteOutcome::Refused(err) => Some(Err(err)),
            WriteOutcome::WriterGone => None,
        }
    }
}

/// The acknowledgement of one write: the store gives it the write's outcome, once, after the
/// commit (or refusal). A call rather than a channel, so that a table's output goes out as
/// its commit lands, without waking the table once more for every move. Dropped without an
/// outcome (a writer that stopped), it gives [`WriteOutcome::WriterGone`].
pub struct Ack(Option<AckTo>);

/// Whom an [`Ack`] gives the outcome to.
enum AckTo {
    /// The receiver all of a table's writes share (its outbox's delivery), by the write's
    /// number: nothing is allocated per write.
    Numbered(Arc<dyn OnAck>, u64),
    /// A function, called once.
    Call(Box<dyn FnOnce(WriteOutcome) + Send>),
}

impl AckTo {
    fn run(self, outcome: WriteOutcome) {
        match self {
            AckTo::Numbered(to, write) => to.on_ack(write, outcome),
            AckTo::Call(then) => then(outcome),
        }
    }
}

/// Takes the acknowledgements of numbered writes ([`Ack::numbered`]): a table's delivery
/// (`table::outbox::delivery`), which sends the output they release.
pub trait OnAck: Send + Sync {
    /// Write number `write` came to `outcome`.
    fn on_ack(&self, write: u64, outcome: WriteOutcome);
}

impl Ack {
    /// An acknowledgement that calls `then` with the outcome.
    pub fn new(then: impl FnOnce(WriteOutcome) + Send + 'static) -> Ack {
        Ack(Some(AckTo::Call(Box::new(then))))
    }

    /// An acknowledgement that tells `to` the outcome of write number `write`.
    pub fn numbered(to: Arc<dyn OnAck>, write: u64) -> Ack {
        Ack(Some(AckTo::Numbered(to, write)))
    }

    /// Gives the store's result.
    pub fn acknowledge(mut self, result: Result<(), String>) {
        if let Some(then) = self.0.take() {
            then.run(match result {
                Ok(()) => WriteOutcome::Stored,
                Err(err) => WriteOutcome::Refused(err),
            });
        }
    }
}

impl Drop for Ack {
    fn drop(&mut self) {
        if let Some(then) = self.0.take() {
            then.run(WriteOutcome::WriterGone);
        }
    }
}

impl std::fmt::Debug for Ack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Ack")
    }
}

/// The status's name in the database.
#[must_use]
pub fn status_name(status: parlor_shared::protocol::TableStatus) -> &'static str {
    use parlor_shared::protocol::TableStatus;
    match status {
        TableStatus::Waiting => "waiting",
        TableStatus::Playing => "playing",
        TableStatus::Finished => "finished",
    }
}

/// Milliseconds since the Unix epoch, for the `created` column.
#[must_use]
pub fn now_millis() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
