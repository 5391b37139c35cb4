//! The leases this node holds, and the check the store's writer runs with them in every
//! transaction ([`crate::store::fence::Fence`]).
//!
//! A table created here takes its lease (epoch 1) in the transaction that stores its
//! creation; every later transaction writing a table locks the table's lease row and checks
//! it still names this node and the epoch held. The lock is `FOR KEY SHARE`, which only a
//! row lock `FOR UPDATE` waits for: an adoption takes one (and so waits for the transaction
//! to end, and a transaction after it sees the new owner), while the renewal of leases,
//! which changes nothing but `expires`, never waits for a writer nor a writer for it. One
//! statement covers every table of a group commit, locking its rows in table order.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use dashmap::DashMap;
use futures_util::future::BoxFuture;
use tokio_postgres::types::Type;

use super::leases::secs;
use crate::store::fence::Fence;

/// The leases this node holds: table id to epoch.
#[derive(Debug)]
pub struct LeaseFence {
    /// This node's id.
    node: String,
    /// How long a lease runs.
    lease: Duration,
    /// Held leases.
    held: DashMap<String, i64>,
    /// Writes refused because the lease had moved on (per table and transaction).
    refused: AtomicU64,
}

impl LeaseFence {
    /// A node holding nothing yet.
    #[must_use]
    pub fn new(node: &str, lease: Duration) -> LeaseFence {
        LeaseFence {
            node: node.to_string(),
            lease,
            held: DashMap::new(),
            refused: AtomicU64::new(0),
        }
    }

    /// The epoch held for `table`, if any.
    #[must_use]
    pub fn epoch(&self, table: &str) -> Option<i64> {
        self.held.get(table).map(|e| *e)
    }

    /// Records a lease taken (by adoption).
    pub fn hold(&self, table: &str, epoch: i64) {
        self.held.insert(table.to_string(), epoch);
    }

    /// Forgets a lease; returns the epoch that was held.
    pub fn drop_lease(&self, table: &str) -> Option<i64> {
        self.held.remove(table).map(|(_, e)| e)
    }

    /// Every lease held, by table id.
    #[must_use]
    pub fn held(&self) -> Vec<(String, i64)> {
        let mut all: Vec<_> = self
            .held
            .iter()
            .map(|e| (e.key().clone(), *e.value()))
            .collect();
        all.sort();
        all
    }

    /// How many leases are held.
    #[must_use]
    pub fn count(&self) -> usize {
        self.held.len()
    }

    /// Writes refused so far because another node had taken the table.
    #[must_use]
    pub fn refused(&self) -> u64 {
        self.refused.load(Ordering::Relaxed)
    }

    /// Tables held whose lease is not in `renewed` at the same epoch: perhaps taken by
    /// another node, perhaps created by a transaction not yet committed when the renewal
    /// ran ([`LeaseFence::lost`] tells them apart).
    #[must_use]
    pub fn missing(&self, renewed: &[(String, i64)]) -> Vec<String> {
        let renewed: std::collections::HashMap<&str, i64> =
            renewed.iter().map(|(t, e)| (t.as_str(), *e)).collect();
        self.held
            .iter()
            .filter(|e| renewed.get(e.key().as_str()) != Some(e.value()))
            .map(|e| e.key().clone())
            .collect()
    }

    /// Of the `rows` read back for missing tables (table, node, epoch), those whose lease
    /// now names another node or epoch: they are forgotten and returned. A table with no
    /// row is still being created here, and stays held.
    pub fn lost(&self, rows: &[(String, String, i64)]) -> Vec<String> {
        let mut lost = Vec::new();
        for (table, node, epoch) in rows {
            let Some(held) = self.epoch(table) else {
                continue;
            };
            if *node != self.node || *epoch != held {
                self.held.remove(table);
                lost.push(table.clone());
            }
        }
        lost
    }

    /// The check itself (see [`Fence::check`]).
    async fn check_in(
        &self,
        tx: &tokio_postgres::Client,
        created: &[String],
        written: &[String],
    ) -> Result<HashSet<String>, tokio_postgres::Error> {
        let mut refused = HashSet::new();
        // The tables to check: each written one held here at its epoch (those created in
        // this transaction take their lease instead; one not held at all is refused).
        let mut ids = Vec::new();
        let mut epochs = Vec::new();
        for table in written {
            if created.contains(table) || ids.contains(table) {
                continue;
            }
            match self.epoch(table) {
                Some(epoch) => {
                    ids.push(table.clone());
                    epochs.push(epoch);
                }
                None => {
                    refused.insert(table.clone());
                }
            }
        }
        // A node frozen in the middle of this transaction would hold the lease rows locked
        // and so keep every other node from adopting its tables: Postgres ends the session
        // instead once it has idled in the transaction for a lease.
        let idle = format!(
            "SET LOCAL idle_in_transaction_session_timeout = {}",
            self.lease.as_millis().max(1)
        );
        let lease = secs(self.lease);
        // The statements are pipelined (sent together, answered in order) and typed, so the
        // check costs one round trip however many tables the batch writes.
        let take = async {
            if created.is_empty() {
                return Ok(Vec::new());
            }
            tx.query_typed(
                "INSERT INTO leases (table_id, node, epoch, expires)
                 SELECT t, $2, 1, now() + make_interval(secs => $3)
                 FROM unnest($1::text[]) AS t
                 ON CONFLICT (table_id) DO UPDATE SET expires = EXCLUDED.expires
                 WHERE leases.node = EXCLUDED.node AND leases.epoch = 1
                 RETURNING table_id",
                &[
                    (&created, Type::TEXT_ARRAY),
                    (&self.node, Type::TEXT),
                    (&lease, Type::FLOAT8),
                ],
            )
            .await
        };
        let check = async {
            if ids.is_empty() {
                return Ok(Vec::new());
            }
            tx.query_typed(
                "SELECT l.table_id FROM leases l
                 JOIN unnest($1::text[], $2::int8[]) AS h(t, e)
                   ON l.table_id = h.t AND l.epoch = h.e
                 WHERE l.node = $3 ORDER BY l.table_id FOR KEY SHARE OF l",
                &[
                    (&ids, Type::TEXT_ARRAY),
                    (&epochs, Type::INT8_ARRAY),
                    (&self.node, Type::TEXT),
                ],
            )
            .await
        };
        let ((), taken, ok) = futures_util::try_join!(tx.batch_execute(&idle), take, check)?;
        let taken: HashSet<String> = taken.iter().map(|r| r.get(0)).collect();
        for table in created {
            if taken.contains(table) {
                self.held.insert(table.clone(), 1);
            } else {
                refused.insert(table.clone());
            }
        }
        let ok: HashSet<String> = ok.iter().map(|r| r.get(0)).collect();
        for table in ids {
            if !ok.contains(&table) {
                refused.insert(table);
            }
        }
        for table in &refused {
            self.held.remove(table);
            tracing::warn!(
                table = %crate::store::log_tag(table),
                node = %self.node,
                "stale write refused: another node owns this table now; it is dropped here"
            );
        }
        self.refused
            .fetch_add(refused.len() as u64, Ordering::Relaxed);
        if !refused.is_empty() {
            metrics::counter!("parlor_cluster_refused_writes_total")
                .increment(refused.len() as u64);
        }
        Ok(refused)
    }
}

impl Fence for LeaseFence {
    fn check<'a>(
        &'a self,
        tx: &'a tokio_postgres::Client,
        created: &'a [String],
        written: &'a [String],
    ) -> BoxFuture<'a, Result<HashSet<String>, tokio_postgres::Error>> {
        Box::pin(self.check_in(tx, created, written))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lease_is_lost_only_when_its_row_names_another_node_or_epoch() {
        let fence = LeaseFence::new("a", Duration::from_secs(3));
        fence.hold("kept", 2);
        fence.hold("taken", 1);
        fence.hold("bumped", 4);
        fence.hold("creating", 1);
        let renewed = vec![("kept".to_string(), 2)];
        let mut missing = fence.missing(&renewed);
        missing.sort();
        assert_eq!(missing, ["bumped", "creating", "taken"]);
        // "creating" has no row yet (its transaction is open): it stays held.
        let rows = vec![
            ("taken".to_string(), "b".to_string(), 2),
            ("bumped".to_string(), "a".to_string(), 5),
        ];
        let mut lost = fence.lost(&rows);
        lost.sort();
        assert_eq!(lost, ["bumped", "taken"]);
        assert_eq!(fence.epoch("kept"), Some(2));
        assert_eq!(fence.epoch("creating"), Some(1));
        assert_eq!(fence.epoch("taken"), None);
        assert_eq!(fence.count(), 2);
    }
}
