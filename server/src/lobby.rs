//! The table directory: every open table by id, table creation, and bringing stored tables
//! back when the server starts.
//!
//! It owns the map from id to [`TableHandle`] and nothing else: the games live in their
//! actors. Beside it, [`bot_directory`] keeps the online registered bots and their
//! invitations. It may import `table`, `store` and `conn`, never `ws` or `http`.

pub mod bot_directory;

pub use bot_directory::{BotDirectory, BotError, Claim};

use std::sync::Arc;
use std::time::Duration;

use dashmap::DashMap;
use parlor_shared::protocol::{CreateTable, TableInfo};
use parlor_shared::rules::OptionsError;
use tokio_util::sync::CancellationToken;

use crate::store::restore::rebuild;
use crate::store::{Restored, SharedStore, Startup};
use crate::table::{self, TableHandle, TableSetup};

/// Why a table could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum LobbyError {
    /// The server holds as many tables as it may.
    #[error("the server already has {0} tables: try again later")]
    TooManyTables(usize),
    /// Table options out of range.
    #[error("{0}")]
    BadTableOptions(String),
    /// Rule options the variant does not take.
    #[error(transparent)]
    BadOptions(#[from] OptionsError),
}

/// Every open table. Cheap to clone: all clones share one directory.
#[derive(Clone)]
pub struct Lobby {
    /// The tables by id. Each entry is only a handle: the games live in their actors.
    tables: Arc<DashMap<String, TableHandle>>,
    /// How long a table lives with nobody connected.
    idle_ttl: Duration,
    /// The most tables at once.
    max_tables: usize,
    /// Cancelled when the server stops; table actors stop with it.
    shutdown: CancellationToken,
    /// Where tables are logged so they survive a restart (`None`: they do not).
    store: Option<SharedStore>,
    /// The online registered bots and the invitations sent to them.
    bots: BotDirectory,
}

impl Lobby {
    /// An empty lobby.
    #[must_use]
    pub fn new(idle_ttl: Duration, max_tables: usize, shutdown: CancellationToken) -> Lobby {
        Lobby {
            tables: Arc::new(DashMap::new()),
            idle_ttl,
            max_tables,
            shutdown,
            store: None,
            bots: BotDirectory::new(bot_directory::DEFAULT_INVITE_TIMEOUT),
        }
    }

    /// This lobby with invitations to bots lapsing after `timeout`.
    #[must_use]
    pub fn with_invite_timeout(mut self, timeout: Duration) -> Lobby {
        self.bots = BotDirectory::new(timeout);
        self
    }

    /// The online registered bots.
    #[must_use]
    pub fn bots(&self) -> &BotDirectory {
        &self.bots
    }

    /// This lobby logging every table it opens from now on to `store`.
    #[must_use]
    pub fn with_store(mut self, store: SharedStore) -> Lobby {
        self.store = Some(store);
        self
    }

    /// The store tables are logged to, if any.
    #[must_use]
    pub fn store(&self) -> Option<&SharedStore> {
        self.store.as_ref()
    }

    /// Opens a table rebuilt from the store after a restart, under its old id.
    pub fn restore(&self, restored: Restored) -> Result<TableInfo, LobbyError> {
        let setup = TableSetup {
            id: restored.id.clone(),
            variant: restored.variant,
            options: restored.options.clone(),
            table_options: restored.table_options.clone(),
            seed: restored.seed,
            idle_ttl: self.idle_ttl,
            store: self.store.clone(),
            restored: Some(Box::new(restored)),
        };
        self.open(setup)
    }

    /// Rebuilds every table of `startup` and opens it in the lobby. A table that cannot be read
    /// or replayed is logged as an error naming it and skipped; the others still come back.
    /// Returns how many tables came back.
    pub fn restore_all(&self, startup: Startup) -> usize {
        if let Some(aside) = &startup.moved_aside {
            tracing::error!(
                moved_to = %aside.display(),
                "the old database file was unreadable and has been moved aside; tables it held \
                 that could not be read are gone from this server"
            );
        }
        for (id, err) in &startup.unreadable {
            tracing::error!(table = %id, error = %err, "a stored table is skipped: its rows cannot be read");
        }
        let mut restored = 0;
        for log in startup.tables {
            let id = log.table.id.clone();
            let table = match rebuild(&log) {
                Ok(table) => table,
                Err(err) => {
                    tracing::error!(table = %id, error = %err, "a stored table is skipped: its log does not replay");
                    continue;
                }
            };
            match self.restore(table) {
                Ok(info) => {
                    restored += 1;
                    tracing::info!(
                        table = %id,
                        variant = %info.variant,
                        status = ?info.status,
                        "table restored from the log"
                    );
                }
                Err(err) => {
                    tracing::error!(table = %id, error = %err, "a stored table is skipped: it cannot be opened");
                }
            }
        }
        restored
    }

    /// Creates a table and starts its actor.
    pub fn create(&self, mut request: CreateTable) -> Result<TableInfo, LobbyError> {
        if self.tables.len() >= self.max_tables {
            return Err(LobbyError::TooManyTables(self.max_tables));
        }
        request.table_options.tidy();
        request
            .table_options
            .check()
            .map_err(LobbyError::BadTableOptions)?;
        let id = new_table_id();
        let setup = TableSetup {
            id: id.clone(),
            variant: request.variant,
            options: request.options,
            table_options: request.table_options,
            seed: request.seed,
            idle_ttl: self.idle_ttl,
            store: self.store.clone(),
            restored: None,
        };
        self.open(setup)
    }

    /// Starts a table's actor and lists it.
    fn open(&self, setup: TableSetup) -> Result<TableInfo, LobbyError> {
        let id = setup.id.clone();
        let tables = Arc::downgrade(&self.tables);
        let closing_id = id.clone();
        let handle = table::spawn(setup, self.shutdown.clone(), move || {
            if let Some(tables) = tables.upgrade() {
                tables.remove(&closing_id);
            }
        })?;
        let info = handle.info();
        self.tables.insert(id, handle);
        Ok(info)
    }

    /// The table with this id, if it is open.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<TableHandle> {
        self.tables.get(id).map(|entry| entry.value().clone())
    }

    /// Every open table, oldest id order not guaranteed: sorted by id for a stable listing.
    #[must_use]
    pub fn list(&self) -> Vec<TableInfo> {
        let mut tables: Vec<TableInfo> = self.tables.iter().map(|t| t.value().info()).collect();
        tables.sort_by(|a, b| a.id.cmp(&b.id));
        tables
    }

    /// How many tables are open.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// True when no table is open.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }
}

/// A short random table id: 10 lowercase letters and digits, easy to read out in an invite
/// (50 of the random bits of a UUID v4, the one source of the server's ids and tokens).
fn new_table_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let bits = uuid::Uuid::new_v4().as_u128();
    (0..10)
        .map(|i| ALPHABET[((bits >> (i * 5)) & 31) as usize] as char)
        .collect()
}
