//! The Postgres backend of the [`Store`] (`parlor serve --store postgres://...`), with the SQLite
//! backend's guarantees. One writer task owns the writing connection: tables queue writes and are
//! acknowledged once their batch commits (group commit, `writer`); reads go through the same
//! queue, so they see every write appended before them. While the database cannot be reached the
//! writer retries with a growing wait and the store is not `saving` (tables pause); it never
//! panics on a database error. [`PgStore::open`] connects (waiting a while for a database starting
//! beside the server), migrates the schema ([`schema`]) and reads every open table ([`Startup`]).

pub mod accounts;
mod load;
pub mod schema;
pub mod tls;
mod writer;

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::future::BoxFuture;
use tokio::sync::watch;

use super::health::Health;
use super::queue::{AccountOp, Queue, Request};
use super::{
    Ack, BotAccount, BotAccounts, NewBot, ResultRow, Results, Startup, Store, StoreError,
    StoreStats, TableLog, Upkeep, Write,
};
pub use tls::Target;

/// How long [`PgStore::open`] keeps trying to reach the database before giving up.
const OPEN_PATIENCE: Duration = Duration::from_secs(30);

/// A handle on the Postgres store. Cheap to clone; every clone talks to the same writer task.
#[derive(Debug, Clone)]
pub struct PgStore {
    /// Where requests for the writer task go.
    queue: Queue,
    /// Whether the writer's commits go through, and why not while they fail.
    health: Arc<Health>,
    /// What the writer has done.
    counters: Arc<writer::Counters>,
}

/// The database a URL names, with its TLS (see [`tls`]).
pub fn config(url: &str) -> Result<Target, StoreError> {
    Target::parse(url)
}

/// Connects, retrying refused connections for up to [`OPEN_PATIENCE`].
async fn connect_patiently(config: &Target) -> Result<tokio_postgres::Client, StoreError> {
    let started = Instant::now();
    let mut wait = Duration::from_millis(100);
    loop {
        match writer::open_client(config).await {
            Ok(client) => return Ok(client),
            // A certificate that does not verify will not verify later either.
            Err(StoreError::Postgres(err))
                if (err.as_db_error().is_none() || writer::is_connection_lost(&err))
                    && !err.to_string().contains("TLS")
                    && started.elapsed() < OPEN_PATIENCE =>
            {
                let err = StoreError::Postgres(err);
                tracing::warn!(%err, "cannot reach the database yet: trying again");
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(Duration::from_secs(2));
            }
            Err(err) => return Err(err),
        }
    }
}

/// Opens a connection for a one-off command (`parlor bots`): connected and migrated.
pub async fn open_offline(url: &str) -> Result<tokio_postgres::Client, StoreError> {
    let mut client = writer::open_client(&config(url)?).await?;
    schema::migrate(&mut client).await?;
    Ok(client)
}

impl PgStore {
    /// Connects to the database at `url`, migrates it, reads every open table and starts the
    /// writer task (on the current Tokio runtime).
    pub async fn open(url: &str) -> Result<(PgStore, Startup), StoreError> {
        PgStore::open_fenced(url, None).await
    }

    /// [`PgStore::open`] for one node of a cluster: every batch's transaction first checks
    /// `fence` (this node's leases), and a table this node no longer owns is not written.
    pub async fn open_fenced(
        url: &str,
        fence: Option<Arc<dyn crate::store::fence::Fence>>,
    ) -> Result<(PgStore, Startup), StoreError> {
        let config = config(url)?;
        let mut client = connect_patiently(&config).await?;
        schema::migrate(&mut client).await?;
        let mut startup = Startup::default();
        for id in load::open_table_ids(&client).await? {
            match load::table_log(&client, &id, load::Scope::LastMatch).await {
                Ok(Some(log)) => startup.tables.push(log),
                Ok(None) => {}
                Err(err) => startup.unreadable.push((id, err.to_string())),
            }
        }
        let conn = writer::Conn::new(client).await?;
        let health = Arc::new(Health::new());
        let counters = Arc::new(writer::Counters::default());
        let (queue, rx) = Queue::new();
        tokio::spawn(writer::run(
            writer::Writer::new(config, conn, Arc::clone(&health), Arc::clone(&counters))
                .with_fence(fence),
            rx,
        ));
        Ok((
            PgStore {
                queue,
                health,
                counters,
            },
            startup,
        ))
    }
}

impl Store for PgStore {
    fn append_then(&self, write: Write, ack: Ack) {
        self.queue.write(write, ack);
    }

    fn flushed(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        self.queue.wait(|reply| Request::Barrier { reply })
    }

    fn table_log(&self, id: &str) -> BoxFuture<'_, Result<Option<TableLog>, StoreError>> {
        let id = id.to_string();
        self.queue.ask(|reply| Request::Load { id, reply })
    }

    fn saving(&self) -> watch::Receiver<bool> {
        self.health.saving()
    }

    /// The writer's commits, writes, failed tries and reconnections (no checkpoints: those
    /// are Postgres's own business).
    fn stats(&self) -> Option<StoreStats> {
        Some(StoreStats {
            checkpoints: 0,
            log_restarts: 0,
            log_pages: 0,
            postgres: Some(self.counters.figures()),
        })
    }

    /// Commits everything queued, then stops the writer. Later writes fail.
    fn close(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        self.queue.wait(|reply| Request::Shutdown { reply })
    }
}

impl Results for PgStore {
    fn results(&self) -> BoxFuture<'_, Result<Vec<ResultRow>, StoreError>> {
        let all = self.queue.ask(|reply| Request::Results { after: 0, reply });
        Box::pin(async move { Ok(all.await?.into_iter().map(|(_, row)| row).collect()) })
    }

    fn results_after(
        &self,
        after: i64,
    ) -> BoxFuture<'_, Result<Vec<(i64, ResultRow)>, StoreError>> {
        self.queue
            .ask(move |reply| Request::Results { after, reply })
    }
}

impl BotAccounts for PgStore {
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

impl Upkeep for PgStore {
    /// Healthy when a small real commit goes through the writer (after everything queued
    /// before it); unhealthy at once while the writer's commits fail.
    fn health(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        if let Some(err) = self.health.failing() {
            return Box::pin(async move { Err(StoreError::Failing(err)) });
        }
        let probe = self.queue.ask(|reply| Request::Probe { reply });
        Box::pin(async move {
            probe.await?;
            match self.health.failing() {
                Some(err) => Err(StoreError::Failing(err)),
                None => Ok(()),
            }
        })
    }

    fn prune(&self, before: i64, limit: usize) -> BoxFuture<'_, Result<usize, StoreError>> {
        self.queue.ask(|reply| Request::Prune {
            before,
            limit,
            reply,
        })
    }
}
