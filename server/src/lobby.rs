//! The table directory: every open table by id, table creation, and bringing stored tables
//! back when the server starts.
//!
//! It owns the map from id to [`TableHandle`] and nothing else: the games live in their
//! actors. Beside it, [`bot_directory`] keeps the online registered bots and their
//! invitations. It may import `table`, `store` and `conn`, never `ws` or `http`.

pub mod bot_directory;
pub mod invitation_id;

pub use bot_directory::{BotDirectory, BotError, Claim, Inviter};

use std::sync::Arc;
use std::time::Duration;

use dashmap::DashMap;
use parlor_shared::protocol::{CreateTable, PbnSetupError, TableInfo};
use parlor_shared::rules::OptionsError;
use tokio_util::sync::CancellationToken;

use crate::ratings::Ratings;
use crate::store::restore::rebuild;
use crate::store::{Restored, SharedLog, SharedStore, Startup};
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
    /// A practice table's PBN board that cannot be read.
    #[error(transparent)]
    BadPbn(#[from] PbnSetupError),
}

/// Every open table. Cheap to clone: all clones share one directory, behind one pointer.
///
/// One pointer, not the directory's dozen fields, because every connection holds a lobby
/// for its whole life (twice: its reader's and its hub's), and each byte of it is paid a
/// thousand times at 250 tables.
#[derive(Clone)]
pub struct Lobby {
    inner: Arc<Directory>,
}

/// What a lobby is: its tables and the settings it opens them with.
#[derive(Clone)]
struct Directory {
    /// The tables by id. Each entry is only a handle: the games live in their actors.
    tables: Arc<DashMap<String, TableHandle>>,
    /// How long a table lives with nobody connected.
    idle_ttl: Duration,
    /// How long a table nobody ever sat at lives with nobody connected.
    unsat_ttl: Duration,
    /// The most tables at once.
    max_tables: usize,
    /// Cancelled when the server stops; table actors stop with it.
    shutdown: CancellationToken,
    /// Where tables are logged so they survive a restart (`None`: they do not).
    store: Option<SharedStore>,
    /// The ratings every table reports its finished matches to.
    ratings: Ratings,
    /// The most spectators each table takes.
    max_spectators: usize,
    /// The online registered bots and the invitations sent to them.
    bots: BotDirectory,
    /// Told the id of each table whose actor has stopped (the cluster lets its lease go).
    on_stopped: Option<StopHook>,
}

/// What a lobby runs when a table's actor stops.
pub type StopHook = Arc<dyn Fn(&str) + Send + Sync>;

impl Lobby {
    /// An empty lobby.
    #[must_use]
    pub fn new(idle_ttl: Duration, max_tables: usize, shutdown: CancellationToken) -> Lobby {
        let directory = Directory {
            tables: Arc::new(DashMap::new()),
            idle_ttl,
            unsat_ttl: idle_ttl,
            max_tables,
            shutdown,
            store: None,
            ratings: Ratings::default(),
            max_spectators: table::DEFAULT_MAX_SPECTATORS,
            bots: BotDirectory::new(bot_directory::DEFAULT_INVITE_TIMEOUT),
            on_stopped: None,
        };
        Lobby {
            inner: Arc::new(directory),
        }
    }

    /// This lobby running `hook` with the id of each table whose actor stops (for good, on
    /// shutdown, or handed off), after the table's last write was acknowledged.
    #[must_use]
    pub fn with_stop_hook(mut self, hook: StopHook) -> Lobby {
        Arc::make_mut(&mut self.inner).on_stopped = Some(hook);
        self
    }

    /// Stops a table here without closing it: its output so far is stored and sent, then
    /// everyone at it is told to reconnect (`goodbye`), which brings them to the table's
    /// next owner. For a table another node has taken, or one this node gives away.
    pub async fn hand_off(&self, id: &str, reason: &str) {
        if let Some(table) = self.get(id) {
            let command = table::AdminCommand::HandOff {
                reason: reason.to_string(),
            };
            if table.admin(command).await.is_err() {
                tracing::debug!(table = %crate::store::log_tag(id), "the table had already stopped");
            }
        }
    }

    /// This lobby's tables reporting their finished matches to `ratings` (loaded from the
    /// store on start) instead of a board of their own.
    #[must_use]
    pub fn with_ratings(mut self, ratings: Ratings) -> Lobby {
        Arc::make_mut(&mut self.inner).ratings = ratings;
        self
    }

    /// The ratings the tables report to.
    #[must_use]
    pub fn ratings(&self) -> &Ratings {
        &self.inner.ratings
    }

    /// This lobby closing (and deleting) tables nobody ever sat at after `ttl` with nobody
    /// connected.
    #[must_use]
    pub fn with_unsat_ttl(mut self, ttl: Duration) -> Lobby {
        Arc::make_mut(&mut self.inner).unsat_ttl = ttl;
        self
    }

    /// This lobby's tables taking at most `max` spectators each.
    #[must_use]
    pub fn with_max_spectators(mut self, max: usize) -> Lobby {
        Arc::make_mut(&mut self.inner).max_spectators = max;
        self
    }

    /// This lobby with invitations to bots lapsing after `timeout`.
    #[must_use]
    pub fn with_invite_timeout(mut self, timeout: Duration) -> Lobby {
        Arc::make_mut(&mut self.inner).bots = BotDirectory::new(timeout);
        self
    }

    /// The online registered bots.
    #[must_use]
    pub fn bots(&self) -> &BotDirectory {
        &self.inner.bots
    }

    /// Takes the online bot `name` offline if its account was revoked while it was online
    /// (by `parlor bots revoke`, which the server does not hear of); checked before each
    /// invitation. True when it was.
    pub async fn drop_if_revoked(&self, name: &str) -> bool {
        if let (Some(hash), Some(store)) =
            (self.inner.bots.token_hash(name), self.inner.store.as_ref())
            && matches!(store.bot_by_token(&hash).await, Ok(None))
        {
            self.inner.bots.revoke(name);
            return true;
        }
        false
    }

    /// This lobby logging every table it opens from now on to `store`.
    #[must_use]
    pub fn with_store(mut self, store: SharedStore) -> Lobby {
        Arc::make_mut(&mut self.inner).store = Some(store);
        self
    }

    /// The store tables are logged to, if any.
    #[must_use]
    pub fn store(&self) -> Option<&SharedStore> {
        self.inner.store.as_ref()
    }

    /// Opens a table rebuilt from the store after a restart, under its old id.
    pub fn restore(&self, restored: Restored) -> Result<TableInfo, LobbyError> {
        let setup = TableSetup {
            id: restored.id.clone(),
            variant: restored.variant,
            options: restored.options.clone(),
            // A table stored before turn clocks existed gets the default clock.
            table_options: restored
                .table_options
                .clone()
                .resolved(restored.table_options.listed),
            seed: restored.seed,
            idle_ttl: self.inner.idle_ttl,
            unsat_ttl: self.inner.unsat_ttl,
            store: self.inner.store.clone().map(|store| store as SharedLog),
            host_key: restored.host_key.clone(),
            max_spectators: self.inner.max_spectators,
            restored: Some(Box::new(restored)),
            ratings: self.inner.ratings.clone(),
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
            tracing::error!(table = %crate::store::log_tag(id), error = %err, "a stored table is skipped: its rows cannot be read");
        }
        let mut restored = 0;
        let mut forgotten = 0;
        for log in startup.tables {
            match self.restore_log(&log) {
                RestoreOutcome::Open => restored += 1,
                RestoreOutcome::Forgotten => forgotten += 1,
                RestoreOutcome::Skipped => {}
            }
        }
        if forgotten > 0 {
            tracing::info!(
                tables = forgotten,
                "tables nobody ever sat at were deleted, not restored"
            );
        }
        restored
    }

    /// Rebuilds one stored table and opens it (on start, or when this node adopts a table
    /// of the cluster). A table nobody ever sat at is deleted instead; one that cannot be
    /// replayed or opened is logged and skipped.
    pub fn restore_log(&self, log: &crate::store::TableLog) -> RestoreOutcome {
        let id = log.table.id.clone();
        if never_seated(log) {
            // Nothing of it is worth bringing back: it is deleted instead.
            if let Some(store) = &self.inner.store {
                drop(store.append(crate::store::Write::Deleted { table: id }));
            }
            return RestoreOutcome::Forgotten;
        }
        let table = match rebuild(log) {
            Ok(table) => {
                self.cut_log(&table);
                table
            }
            Err(err) => {
                tracing::error!(table = %crate::store::log_tag(&id), error = %err, "a stored table is skipped: its log does not replay");
                return RestoreOutcome::Skipped;
            }
        };
        match self.restore(table) {
            Ok(info) => {
                tracing::info!(
                    table = %crate::store::log_tag(&id),
                    variant = %info.variant,
                    status = ?info.status,
                    "table restored from the log"
                );
                RestoreOutcome::Open
            }
            Err(err) => {
                tracing::error!(table = %crate::store::log_tag(&id), error = %err, "a stored table is skipped: it cannot be opened");
                RestoreOutcome::Skipped
            }
        }
    }

    /// A log restored only up to its last good step: says what was left out, and deletes it
    /// from the store (before anything the table writes next) so the table goes on from there.
    fn cut_log(&self, table: &Restored) {
        let Some(cut) = &table.cut else { return };
        tracing::warn!(
            table = %crate::store::log_tag(&table.id),
            why = %cut.why,
            kept_match = cut.match_no,
            kept_actions = cut.from,
            left_out = cut.dropped,
            "a stored table's log does not replay to its end: it is restored up to its last good step and the rest is deleted"
        );
        if let Some(store) = &self.inner.store {
            drop(store.append(crate::store::Write::Cut {
                table: table.id.clone(),
                match_no: cut.match_no,
                from: cut.from,
            }));
        }
    }

    /// Creates a table and starts its actor.
    /// Returns it with its host key (shown only here).
    pub fn create(&self, mut request: CreateTable) -> Result<(TableInfo, String), LobbyError> {
        if self.inner.tables.len() >= self.inner.max_tables {
            return Err(LobbyError::TooManyTables(self.inner.max_tables));
        }
        request.take_pbn()?;
        request.table_options.tidy();
        request
            .table_options
            .check()
            .map_err(LobbyError::BadTableOptions)?;
        let id = new_table_id();
        let (host_key, hash) = table::host_key::new_host_key();
        // A listed table's people get a shorter default turn clock than a family's.
        let listed = request.table_options.listed;
        let setup = TableSetup {
            id: id.clone(),
            variant: request.variant,
            options: request.options,
            table_options: request.table_options.resolved(listed),
            seed: request.seed,
            idle_ttl: self.inner.idle_ttl,
            unsat_ttl: self.inner.unsat_ttl,
            store: self.inner.store.clone().map(|store| store as SharedLog),
            restored: None,
            ratings: self.inner.ratings.clone(),
            host_key: Some(hash),
            max_spectators: self.inner.max_spectators,
        };
        Ok((self.open(setup)?, host_key))
    }

    /// Starts a table's actor and lists it.
    fn open(&self, setup: TableSetup) -> Result<TableInfo, LobbyError> {
        let id = setup.id.clone();
        let tables = Arc::downgrade(&self.inner.tables);
        let closing_id = id.clone();
        let hook = self.inner.on_stopped.clone();
        let handle = table::spawn(setup, self.inner.shutdown.clone(), move || {
            if let Some(tables) = tables.upgrade() {
                tables.remove(&closing_id);
            }
            if let Some(hook) = hook {
                hook(&closing_id);
            }
        })?;
        let info = handle.info();
        self.inner.tables.insert(id, handle);
        Ok(info)
    }

    /// The table with this id, if it is open.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<TableHandle> {
        self.inner.tables.get(id).map(|entry| entry.value().clone())
    }

    /// Every open table, oldest id order not guaranteed: sorted by id for a stable listing.
    #[must_use]
    pub fn list(&self) -> Vec<TableInfo> {
        let mut tables: Vec<TableInfo> =
            self.inner.tables.iter().map(|t| t.value().info()).collect();
        tables.sort_by(|a, b| a.id.cmp(&b.id));
        tables
    }

    /// The open tables whose host chose to list them (`table_options.listed`), by id: the
    /// others are reachable by their link only.
    #[must_use]
    pub fn listed(&self) -> Vec<TableInfo> {
        let mut tables: Vec<TableInfo> = self
            .inner
            .tables
            .iter()
            .map(|t| t.value().info())
            .filter(|info| info.table_options.listed)
            .collect();
        tables.sort_by(|a, b| a.id.cmp(&b.id));
        tables
    }

    /// How many tables are open.
    #[must_use]
    pub fn len(&self) -> usize {
        self.inner.tables.len()
    }

    /// True when no table is open.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.inner.tables.is_empty()
    }
}

/// What became of one stored table brought back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RestoreOutcome {
    /// It is open again.
    Open,
    /// Nobody ever sat at it: it was deleted instead.
    Forgotten,
    /// It could not be replayed or opened (logged).
    Skipped,
}

/// True for a stored table nobody ever sat at: no person or program in a seat and no match
/// started.
fn never_seated(log: &crate::store::TableLog) -> bool {
    use parlor_shared::protocol::Occupant;
    log.matches.is_empty()
        && !log
            .seats
            .iter()
            .any(|s| matches!(s.occupant, Occupant::Human | Occupant::RemoteBot))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every connection holds lobbies for its whole life: a lobby must stay one pointer.
    #[test]
    fn a_lobby_is_one_pointer() {
        assert_eq!(std::mem::size_of::<Lobby>(), std::mem::size_of::<usize>());
    }

    /// Settings given after a clone reach the lobby they were given to, and the clones
    /// still share one directory of tables.
    #[test]
    fn clones_share_the_tables_and_keep_their_own_settings() {
        let lobby = Lobby::new(Duration::from_secs(60), 10, CancellationToken::new());
        let other = lobby.clone().with_max_spectators(3);
        assert_eq!(other.inner.max_spectators, 3);
        assert_eq!(lobby.inner.max_spectators, table::DEFAULT_MAX_SPECTATORS);
        assert!(Arc::ptr_eq(&lobby.inner.tables, &other.inner.tables));
    }
}
