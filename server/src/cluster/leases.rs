//! The cluster's two tables in Postgres, and every statement run on them outside the
//! store's writer: `nodes` (one row a node: where it is reached, its heartbeat, how many
//! tables it owns, whether it is draining) and `leases` (one row a live table: its owner,
//! the owner's epoch, when the lease runs out).
//!
//! An epoch only ever grows: each adoption adds one, and the writer's fence
//! ([`super::fence::LeaseFence`]) refuses a write whose node and epoch no longer match the
//! row. Times are the database's own (`now()`), so the nodes' clocks need not agree.

use std::time::Duration;

use tokio_postgres::Client;

/// Creates the cluster's tables if they are missing. Serialized by an advisory lock, so
/// nodes starting together do not race each other's `CREATE`.
pub async fn migrate(db: &mut Client) -> Result<(), tokio_postgres::Error> {
    let tx = db.transaction().await?;
    tx.batch_execute(
        "SELECT pg_advisory_xact_lock(7170001);
         CREATE TABLE IF NOT EXISTS nodes (
             id TEXT PRIMARY KEY,
             address TEXT NOT NULL,
             heartbeat TIMESTAMPTZ NOT NULL,
             tables INT NOT NULL DEFAULT 0,
             draining BOOLEAN NOT NULL DEFAULT FALSE
         );
         CREATE TABLE IF NOT EXISTS leases (
             table_id TEXT PRIMARY KEY,
             node TEXT NOT NULL,
             epoch BIGINT NOT NULL,
             expires TIMESTAMPTZ NOT NULL
         );
         CREATE INDEX IF NOT EXISTS leases_by_node ON leases (node);
         CREATE INDEX IF NOT EXISTS leases_by_expiry ON leases (expires);",
    )
    .await?;
    tx.commit().await
}

/// Seconds, as Postgres's `make_interval` takes them.
pub fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

/// Says this node is alive: where it is reached, how many tables it owns, whether it drains.
pub async fn heartbeat(
    db: &Client,
    node: &str,
    address: &str,
    tables: usize,
    draining: bool,
) -> Result<(), tokio_postgres::Error> {
    let tables = i32::try_from(tables).unwrap_or(i32::MAX);
    db.execute(
        "INSERT INTO nodes (id, address, heartbeat, tables, draining)
         VALUES ($1, $2, now(), $3, $4)
         ON CONFLICT (id) DO UPDATE SET address = $2, heartbeat = now(), tables = $3, draining = $4",
        &[&node, &address, &tables, &draining],
    )
    .await
    .map(drop)
}

/// Renews every lease this node holds; returns the tables it still holds, with their epochs.
/// It changes only `expires`, so it never waits for the writer's check (see
/// [`super::fence`]).
pub async fn renew(
    db: &Client,
    node: &str,
    lease: Duration,
) -> Result<Vec<(String, i64)>, tokio_postgres::Error> {
    let rows = db
        .query(
            "UPDATE leases SET expires = now() + make_interval(secs => $2)
             WHERE node = $1 RETURNING table_id, epoch",
            &[&node, &secs(lease)],
        )
        .await?;
    Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
}

/// The tables whose lease has run out (their owner died, stopped or drained) that this
/// node should adopt now: live ones first, finished ones after them. Each is given to one
/// of the live nodes by a hash of its id, so the survivors share a dead node's tables in
/// one round instead of racing for each; a table left unadopted for a whole lease (its node
/// died too) is anyone's.
pub async fn expired(
    db: &Client,
    node: &str,
    lease: Duration,
) -> Result<Vec<String>, tokio_postgres::Error> {
    let rows = db
        .query(
            "WITH live AS (
                 SELECT id, row_number() OVER (ORDER BY id) - 1 AS rank, count(*) OVER () AS n
                 FROM nodes
                 WHERE NOT draining AND heartbeat > now() - make_interval(secs => $2)
             ), me AS (SELECT rank, n FROM live WHERE id = $1)
             SELECT l.table_id FROM leases l LEFT JOIN tables t ON t.id = l.table_id
             WHERE l.expires < now()
               AND (l.expires < now() - make_interval(secs => $2)
                    OR NOT EXISTS (SELECT 1 FROM me)
                    OR (SELECT mod(abs(hashtext(l.table_id)::bigint), n) = rank FROM me))
             ORDER BY COALESCE(t.status IN ('finished', 'closed'), FALSE), l.expires",
            &[&node, &secs(lease)],
        )
        .await?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}

/// Takes an expired lease: this node becomes the owner at the next epoch. Atomic: of nodes
/// racing for one table exactly one gets `Some(epoch)`. The row is locked `FOR UPDATE`
/// first, so the adoption waits for a writer's transaction that checked the old owner.
pub async fn adopt(
    db: &Client,
    table: &str,
    node: &str,
    lease: Duration,
) -> Result<Option<i64>, tokio_postgres::Error> {
    let row = db
        .query_opt(
            "UPDATE leases SET node = $2, epoch = epoch + 1,
                 expires = now() + make_interval(secs => $3)
             WHERE table_id = (SELECT table_id FROM leases
                               WHERE table_id = $1 AND expires < now() FOR UPDATE)
             RETURNING epoch",
            &[&table, &node, &secs(lease)],
        )
        .await?;
    Ok(row.map(|r| r.get(0)))
}

/// Lets a table go at once (its lease expires now), so another node adopts it without
/// waiting for the lease to run out. Does nothing if the lease moved on meanwhile.
pub async fn release(
    db: &Client,
    table: &str,
    node: &str,
    epoch: i64,
) -> Result<(), tokio_postgres::Error> {
    db.execute(
        "UPDATE leases SET expires = now() - interval '1 second'
         WHERE table_id = $1 AND node = $2 AND epoch = $3",
        &[&table, &node, &epoch],
    )
    .await
    .map(drop)
}

/// Lets every table of this node go at once (draining, after its writes are flushed).
pub async fn release_all(db: &Client, node: &str) -> Result<u64, tokio_postgres::Error> {
    db.execute(
        "UPDATE leases SET expires = now() - interval '1 second' WHERE node = $1",
        &[&node],
    )
    .await
}

/// Forgets the lease of a table that is closed for good (or gone), if this node holds it.
pub async fn forget(
    db: &Client,
    table: &str,
    node: &str,
    epoch: i64,
) -> Result<(), tokio_postgres::Error> {
    db.execute(
        "DELETE FROM leases WHERE table_id = $1 AND node = $2 AND epoch = $3",
        &[&table, &node, &epoch],
    )
    .await
    .map(drop)
}

/// Who owns a table now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    /// The owner's node id.
    pub node: String,
    /// Where the owner is reached (`None`: it never said).
    pub address: Option<String>,
    /// True when the lease has run out (the table waits for adoption).
    pub expired: bool,
}

/// The owner of `table`, if it has a lease.
pub async fn owner(db: &Client, table: &str) -> Result<Option<Owner>, tokio_postgres::Error> {
    let row = db
        .query_opt(
            "SELECT l.node, n.address, l.expires < now()
             FROM leases l LEFT JOIN nodes n ON n.id = l.node WHERE l.table_id = $1",
            &[&table],
        )
        .await?;
    Ok(row.map(|r| Owner {
        node: r.get(0),
        address: r.get(1),
        expired: r.get(2),
    }))
}

/// One node as the `nodes` table has it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NodeRow {
    /// Its id.
    pub id: String,
    /// Where it is reached.
    pub address: String,
    /// Tables it owns (as of its last heartbeat).
    pub tables: i32,
    /// True while it drains.
    pub draining: bool,
    /// True when its heartbeat is recent (within three leases).
    pub live: bool,
}

/// Every node that has ever said it is alive, by id.
pub async fn nodes(db: &Client, lease: Duration) -> Result<Vec<NodeRow>, tokio_postgres::Error> {
    let rows = db
        .query(
            "SELECT id, address, tables, draining,
                    heartbeat > now() - make_interval(secs => $1) * 3
             FROM nodes ORDER BY id",
            &[&secs(lease)],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|r| NodeRow {
            id: r.get(0),
            address: r.get(1),
            tables: r.get(2),
            draining: r.get(3),
            live: r.get(4),
        })
        .collect())
}

/// Gives the open tables that have no lease (stored before the cluster started, or by a
/// server on its own) an expired one, so some node adopts each. Returns how many.
pub async fn orphans(db: &Client, tables: &[String]) -> Result<u64, tokio_postgres::Error> {
    if tables.is_empty() {
        return Ok(0);
    }
    db.execute(
        "INSERT INTO leases (table_id, node, epoch, expires)
         SELECT t, '', 0, now() - interval '1 second' FROM unnest($1::text[]) AS t
         ON CONFLICT (table_id) DO NOTHING",
        &[&tables],
    )
    .await
}

/// Takes back every lease still naming this node (held by an earlier run of it, which has
/// stopped): each at the next epoch, so if that run were somehow still alive its writes
/// would be refused; locked `FOR UPDATE` in table order, as the writer's check locks them,
/// so it waits for such a write to end. Returns the tables with their new epochs.
pub async fn reclaim(
    db: &Client,
    node: &str,
    lease: Duration,
) -> Result<Vec<(String, i64)>, tokio_postgres::Error> {
    let rows = db
        .query(
            "UPDATE leases SET epoch = epoch + 1, expires = now() + make_interval(secs => $2)
             WHERE table_id IN (SELECT table_id FROM leases WHERE node = $1
                                ORDER BY table_id FOR UPDATE)
             RETURNING table_id, epoch",
            &[&node, &secs(lease)],
        )
        .await?;
    Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
}

/// The lease rows of `tables`: (table, node, epoch) for each that has one.
pub async fn rows(
    db: &Client,
    tables: &[String],
) -> Result<Vec<(String, String, i64)>, tokio_postgres::Error> {
    if tables.is_empty() {
        return Ok(Vec::new());
    }
    let rows = db
        .query(
            "SELECT table_id, node, epoch FROM leases WHERE table_id = ANY($1)",
            &[&tables],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect())
}
