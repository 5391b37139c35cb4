//! The cluster: several `parlor serve` nodes on one Postgres, with no other component. Each live
//! table is owned by one node through a row of `leases` with an epoch ([`leases`]), renewed in
//! the background; the store's writer checks it in every transaction ([`fence`]), so a node
//! paused past its lease can never write an adopted table again. Every node adopts tables whose
//! lease expired, rebuilding them as a restart does ([`Cluster::run`]). A WebSocket whose `join`
//! or `watch` names another node's table is piped there ([`relay`]), so a balancer needs to know
//! nothing of tables. Draining is a SIGTERM: tables store and stop, their leases are let go, and
//! the other nodes adopt them. It may import `lobby`, `store` and `table`, never `ws` or `http`.

pub mod admin;
pub mod bots;
pub mod fence;
pub mod leases;
pub mod peers;
pub mod relay;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::Mutex;
use tokio_postgres::Client;

use crate::store::postgres::Target;
use tokio_util::sync::CancellationToken;

use crate::lobby::Lobby;
use crate::store::SharedStore;
use fence::LeaseFence;
use leases::NodeRow;

/// The lease unless `--lease-ms` says otherwise.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(3);

/// The header a node sends with the WebSocket it relays, carrying the shared secret; only
/// a request bearing the right secret may name its client's address.
pub const SECRET_HEADER: &str = "x-parlor-cluster-secret";

/// The header naming the relayed client's address (trusted only beside the secret).
pub const CLIENT_HEADER: &str = "x-parlor-cluster-client";

/// How one node takes part.
#[derive(Debug, Clone)]
pub struct ClusterConfig {
    /// The Postgres URL (the store's).
    pub url: String,
    /// This node's id, unique in the cluster.
    pub node: String,
    /// Where the other nodes reach this one (`http://HOST:PORT`).
    pub advertise: String,
    /// How long a lease runs without renewal.
    pub lease: Duration,
    /// The secret nodes show each other when relaying (`None`: relayed clients' addresses
    /// are not passed on).
    pub secret: Option<String>,
}

/// Why the cluster could not start.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// Postgres refused.
    #[error("cluster database: {0}")]
    Db(#[from] tokio_postgres::Error),
    /// The database's URL does not say how to reach it.
    #[error("cluster database: {0}")]
    Url(#[from] crate::store::StoreError),
}

/// One node's part in the cluster. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Cluster {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    config: ClusterConfig,
    /// The database, as `config.url` names it (with its TLS).
    target: Target,
    /// The leases held, checked by the store's writer.
    fence: Arc<LeaseFence>,
    /// The connection for leases and heartbeats (not the store's), made again when lost.
    db: Mutex<Option<Arc<Client>>>,
    /// True once the node drains: it adopts nothing more.
    draining: AtomicBool,
    /// Rounds of renewals that went through.
    renewals: AtomicU64,
    /// Tables adopted.
    adoptions: AtomicU64,
    /// Tables found taken by another node when renewing.
    lost: AtomicU64,
    /// Tables found taken by another node at the last round, handed off at the next: their
    /// writes are refused at once meanwhile (the lease is no longer held), so what the
    /// table does on waking is refused by the fence rather than raced by the hand-off.
    to_hand_off: std::sync::Mutex<Vec<String>>,
    /// Tables this node placed on each other node since the last round read the nodes'
    /// counts (a burst of creations is spread, not all sent to the one node whose count
    /// was lowest at the last heartbeat).
    placed: std::sync::Mutex<std::collections::HashMap<String, i32>>,
}

impl Cluster {
    /// Joins the cluster: creates its tables if needed and says this node is alive.
    /// `fence` is the one the store's writer checks (made with [`LeaseFence::new`] before
    /// the store was opened).
    pub async fn join(
        config: ClusterConfig,
        fence: Arc<LeaseFence>,
    ) -> Result<Cluster, ClusterError> {
        let target = Target::parse(&config.url)?;
        let cluster = Cluster {
            inner: Arc::new(Inner {
                target,
                config,
                fence,
                db: Mutex::new(None),
                draining: AtomicBool::new(false),
                renewals: AtomicU64::new(0),
                adoptions: AtomicU64::new(0),
                lost: AtomicU64::new(0),
                to_hand_off: std::sync::Mutex::new(Vec::new()),
                placed: std::sync::Mutex::new(std::collections::HashMap::new()),
            }),
        };
        let (mut client, connection) = cluster.inner.target.connect().await?;
        let task = tokio::spawn(connection);
        leases::migrate(&mut client).await?;
        drop(client);
        task.abort();
        let db = cluster.db().await?;
        leases::heartbeat(&db, cluster.node(), cluster.address(), 0, false).await?;
        tracing::info!(
            node = %cluster.node(),
            address = %cluster.address(),
            lease_ms = cluster.lease().as_millis() as u64,
            "joined the cluster"
        );
        Ok(cluster)
    }

    /// This node's id.
    #[must_use]
    pub fn node(&self) -> &str {
        &self.inner.config.node
    }

    /// Where the other nodes reach this one.
    #[must_use]
    pub fn address(&self) -> &str {
        &self.inner.config.advertise
    }

    /// How long a lease runs.
    #[must_use]
    pub fn lease(&self) -> Duration {
        self.inner.config.lease
    }

    /// The relay's shared secret, if any.
    #[must_use]
    pub fn secret(&self) -> Option<&str> {
        self.inner.config.secret.as_deref()
    }

    /// The fence the store's writer checks in each transaction.
    #[must_use]
    pub fn fence(&self) -> Arc<LeaseFence> {
        self.inner.fence.clone()
    }

    /// The lease connection, made (again) if it is missing or lost.
    async fn db(&self) -> Result<Arc<Client>, tokio_postgres::Error> {
        let mut slot = self.inner.db.lock().await;
        if let Some(client) = slot.as_ref()
            && !client.is_closed()
        {
            return Ok(client.clone());
        }
        let (client, connection) = self.inner.target.connect().await?;
        tokio::spawn(async move {
            if let Err(err) = connection.await {
                tracing::warn!(%err, "the cluster's database connection ended");
            }
        });
        // A lease row locked by a frozen node's open transaction is passed over this round
        // (tried again next round) rather than waited for.
        let wait = (self.lease() / 2).as_millis().max(1);
        client
            .batch_execute(&format!("SET lock_timeout = {wait}"))
            .await?;
        let client = Arc::new(client);
        *slot = Some(client.clone());
        Ok(client)
    }

    /// The lobby's hook for a table whose actor stopped: its lease is let go at once (a
    /// table closed for good is then forgotten by whoever looks at it next).
    #[must_use]
    pub fn stop_hook(&self) -> crate::lobby::StopHook {
        let cluster = self.clone();
        Arc::new(move |table: &str| {
            let Some(epoch) = cluster.inner.fence.drop_lease(table) else {
                return;
            };
            let cluster = cluster.clone();
            let table = table.to_string();
            tokio::spawn(async move {
                let released = match cluster.db().await {
                    Ok(db) => leases::release(&db, &table, cluster.node(), epoch).await,
                    Err(err) => Err(err),
                };
                match released {
                    Ok(()) => {
                        tracing::info!(table = %crate::store::log_tag(&table), epoch, "lease let go")
                    }
                    Err(err) => {
                        tracing::warn!(table = %crate::store::log_tag(&table), %err, "could not let the lease go: it runs out by itself");
                    }
                }
            });
        })
    }

    /// Where a table not open here is: owned by another live node (its address), about to
    /// be adopted (wait), or nowhere (no such table).
    pub async fn locate(&self, table: &str) -> Location {
        let owner = match self.db().await {
            Ok(db) => leases::owner(&db, table).await,
            Err(err) => Err(err),
        };
        match owner {
            Ok(None) => Location::Nowhere,
            Ok(Some(owner)) if owner.expired || owner.node == self.node() => Location::Moving,
            Ok(Some(owner)) => match owner.address {
                Some(address) => Location::Remote(address),
                None => Location::Moving,
            },
            Err(err) => {
                tracing::warn!(table = %crate::store::log_tag(table), %err, "could not look up the table's owner");
                Location::Moving
            }
        }
    }

    /// Makes sure every table open in the store has a lease (tables of a server that ran on
    /// its own get an expired one, so the cluster adopts them); on start, instead of
    /// restoring them here.
    pub async fn claim_orphans(&self, open: &[String]) -> Result<u64, ClusterError> {
        let db = self.db().await?;
        Ok(leases::orphans(&db, open).await?)
    }

    /// The address of the node owning `table` now, this one included; `None` while its
    /// lease has run out (or it has none).
    pub async fn owner_address(&self, table: &str) -> Option<String> {
        let db = self.db().await.ok()?;
        let owner = leases::owner(&db, table).await.ok()??;
        if owner.expired {
            return None;
        }
        owner.address
    }

    /// On start: takes back the tables an earlier run of this node held (a restarted node
    /// serves its own tables at once, without waiting for their leases to run out) and
    /// opens those of `startup` in `lobby`. Returns how many came back.
    pub async fn reclaim(
        &self,
        lobby: &Lobby,
        startup: &crate::store::Startup,
    ) -> Result<usize, ClusterError> {
        let db = self.db().await?;
        let mut back = 0;
        for (table, epoch) in leases::reclaim(&db, self.node(), self.lease()).await? {
            self.inner.fence.hold(&table, epoch);
            let log = startup.tables.iter().find(|log| log.table.id == table);
            let outcome = log.map(|log| lobby.restore_log(log));
            if outcome == Some(crate::lobby::RestoreOutcome::Open) {
                back += 1;
            } else {
                self.inner.fence.drop_lease(&table);
                leases::forget(&db, &table, self.node(), epoch).await?;
            }
        }
        Ok(back)
    }

    /// Every node of the cluster, as the `nodes` table has it.
    pub async fn nodes(&self) -> Vec<NodeRow> {
        match self.db().await {
            Ok(db) => leases::nodes(&db, self.lease()).await.unwrap_or_default(),
            Err(_) => Vec::new(),
        }
    }

    /// Stops adopting and lets every lease go (after the store has flushed the tables'
    /// writes, so a node that adopts them reads everything).
    pub async fn leave(&self) {
        self.inner.draining.store(true, Ordering::Relaxed);
        let result = match self.db().await {
            Ok(db) => {
                let count = self.inner.fence.count();
                let _ = leases::heartbeat(&db, self.node(), self.address(), count, true).await;
                leases::release_all(&db, self.node()).await
            }
            Err(err) => Err(err),
        };
        match result {
            Ok(n) => {
                tracing::info!(node = %self.node(), leases = n, "left the cluster: leases let go")
            }
            Err(err) => {
                tracing::warn!(%err, "could not let the leases go: they run out by themselves")
            }
        }
    }

    /// Says the node drains, here and in its row of `nodes` at once: it adopts nothing more,
    /// the other nodes place no new table on it and share its tables among themselves as
    /// their leases are let go, without waiting for a round of its own.
    pub async fn drain(&self) {
        self.inner.draining.store(true, Ordering::Relaxed);
        let said = match self.db().await {
            Ok(db) => {
                let count = self.inner.fence.count();
                leases::heartbeat(&db, self.node(), self.address(), count, true).await
            }
            Err(err) => Err(err),
        };
        match said {
            Ok(()) => {
                tracing::info!(node = %self.node(), "draining: the other nodes take the tables")
            }
            Err(err) => {
                tracing::warn!(%err, "could not say the node drains: its tables are adopted once their leases run out")
            }
        }
    }

    /// True once the node drains.
    #[must_use]
    pub fn is_draining(&self) -> bool {
        self.inner.draining.load(Ordering::Relaxed)
    }

    /// Renews, watches and adopts every third of a lease until `shutdown`. Rounds start on a
    /// fixed beat, so a slow round (a busy machine, many tables adopted) delays the next
    /// renewal by what it overran, not by its whole length.
    pub async fn run(self, lobby: Lobby, store: SharedStore, shutdown: CancellationToken) {
        let mut beat = tokio::time::interval(self.lease() / 3);
        beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                biased;
                () = shutdown.cancelled() => {
                    self.drain().await;
                    return;
                }
                _ = beat.tick() => {}
            }
            if let Err(err) = self.round(&lobby, &store).await {
                tracing::warn!(%err, node = %self.node(), "cluster round failed; trying again");
            }
        }
    }

    /// One round: heartbeat, renewals (a table found taken by another node is handed off
    /// here), then adoption of expired tables.
    async fn round(&self, lobby: &Lobby, store: &SharedStore) -> Result<(), tokio_postgres::Error> {
        let started = tokio::time::Instant::now();
        let db = self.db().await?;
        let draining = self.inner.draining.load(Ordering::Relaxed);
        leases::heartbeat(
            &db,
            self.node(),
            self.address(),
            self.inner.fence.count(),
            draining,
        )
        .await?;
        let renewed = leases::renew(&db, self.node(), self.lease()).await?;
        self.inner.placed.lock().expect("lock").clear();
        // Numbers the rounds in the adoptions' log lines: what one round adopted shows there.
        let round = self.inner.renewals.fetch_add(1, Ordering::Relaxed) + 1;
        metrics::counter!("parlor_cluster_lease_renewals_total").increment(1);
        tracing::debug!(node = %self.node(), leases = renewed.len(), "leases renewed");
        let due = std::mem::take(&mut *self.inner.to_hand_off.lock().expect("lock"));
        for table in due {
            lobby
                .hand_off(
                    &table,
                    "this table has moved to another server of the cluster: reconnect to go on",
                )
                .await;
        }
        let missing = self.inner.fence.missing(&renewed);
        let lost = self.inner.fence.lost(&leases::rows(&db, &missing).await?);
        for table in &lost {
            self.inner.lost.fetch_add(1, Ordering::Relaxed);
            tracing::warn!(table = %crate::store::log_tag(table), node = %self.node(), "lease lost: another node owns this table now; it is dropped here");
        }
        self.inner.to_hand_off.lock().expect("lock").extend(lost);
        if draining {
            return Ok(());
        }
        for table in leases::expired(&db, self.node(), self.lease()).await? {
            if lobby.get(&table).is_some() {
                // Still stopping here (its lease was let go): adopted again by whoever is
                // next, never twice by one node.
                continue;
            }
            let epoch = match leases::adopt(&db, &table, self.node(), self.lease()).await {
                Ok(Some(epoch)) => epoch,
                Ok(None) => continue,
                Err(err) => {
                    tracing::debug!(table = %crate::store::log_tag(&table), %err, "could not adopt a table this round");
                    continue;
                }
            };
            self.adopt(&db, lobby, store, &table, epoch, round).await;
        }
        // A round that adopted many tables may have run past the next beat: renew at once,
        // so this node's own leases never run short while it took over another's.
        if started.elapsed() > self.lease() / 3 {
            leases::renew(&db, self.node(), self.lease()).await?;
        }
        Ok(())
    }

    /// Brings a table this node has just taken the lease of back from its log, in round
    /// number `round` of this node.
    async fn adopt(
        &self,
        db: &Client,
        lobby: &Lobby,
        store: &SharedStore,
        table: &str,
        epoch: i64,
        round: u64,
    ) {
        self.inner.fence.hold(table, epoch);
        let log = match store.table_log(table).await {
            Ok(log) => log,
            Err(err) => {
                tracing::warn!(table = %crate::store::log_tag(table), %err, "could not read an adopted table's log; letting it go");
                self.inner.fence.drop_lease(table);
                let _ = leases::release(db, table, self.node(), epoch).await;
                return;
            }
        };
        let open = log
            .as_ref()
            .filter(|log| log.table.status != crate::store::records::CLOSED);
        let Some(log) = open else {
            // Closed for good or deleted: nothing to serve, so its lease goes too.
            self.inner.fence.drop_lease(table);
            let _ = leases::forget(db, table, self.node(), epoch).await;
            tracing::debug!(table = %crate::store::log_tag(table), "an expired lease of a closed table forgotten");
            return;
        };
        match lobby.restore_log(log) {
            crate::lobby::RestoreOutcome::Open => {
                self.inner.adoptions.fetch_add(1, Ordering::Relaxed);
                metrics::counter!("parlor_cluster_adoptions_total").increment(1);
                tracing::info!(table = %crate::store::log_tag(table), node = %self.node(), epoch, round, "table adopted");
            }
            crate::lobby::RestoreOutcome::Forgotten | crate::lobby::RestoreOutcome::Skipped => {
                self.inner.fence.drop_lease(table);
                let _ = leases::forget(db, table, self.node(), epoch).await;
            }
        }
    }

    /// The node's figures for `GET /api/stats`.
    pub async fn stats(&self) -> ClusterStats {
        let owned: Vec<String> = self
            .inner
            .fence
            .held()
            .into_iter()
            .map(|(t, _)| t)
            .collect();
        ClusterStats {
            node: self.node().to_string(),
            address: self.address().to_string(),
            lease_ms: u64::try_from(self.lease().as_millis()).unwrap_or(u64::MAX),
            tables_owned: owned.len(),
            owned,
            lease_renewals: self.inner.renewals.load(Ordering::Relaxed),
            adoptions: self.inner.adoptions.load(Ordering::Relaxed),
            refused_writes: self.inner.fence.refused(),
            leases_lost: self.inner.lost.load(Ordering::Relaxed),
            draining: self.inner.draining.load(Ordering::Relaxed),
            nodes: self.nodes().await,
        }
    }
}

/// Where a table not open on this node is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// Owned by the node at this address.
    Remote(String),
    /// Its lease ran out or is being taken: it will be open somewhere shortly.
    Moving,
    /// No live table has this id.
    Nowhere,
}

/// This node's part of `GET /api/stats`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClusterStats {
    /// This node's id.
    pub node: String,
    /// Where the other nodes reach it.
    pub address: String,
    /// How long a lease runs, in milliseconds.
    pub lease_ms: u64,
    /// How many tables it owns.
    #[serde(default)]
    pub tables_owned: usize,
    /// The tables it owns, by id: shown only to the operator (the admin key) and the other
    /// nodes (the cluster secret), since a private table's id is its key.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub owned: Vec<String>,
    /// Renewal rounds that went through.
    pub lease_renewals: u64,
    /// Tables it adopted.
    pub adoptions: u64,
    /// Writes refused because another node had taken the table.
    pub refused_writes: u64,
    /// Tables found taken by another node when renewing.
    pub leases_lost: u64,
    /// True while it drains.
    pub draining: bool,
    /// Every node of the cluster.
    pub nodes: Vec<NodeRow>,
}
