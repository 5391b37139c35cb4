//! `parlor serve` as one node of a cluster (when the store is Postgres): its id and address,
//! the fence its store's writer checks, joining, and the background round of leases.
//!
//! The order matters: the fence exists before the store is opened (the writer checks it from
//! its first batch), the node joins once it listens (its address is known), and the tables
//! found open in the store are not restored here but given to the cluster, which adopts
//! each on exactly one node.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use crate::cluster::fence::LeaseFence;
use crate::cluster::{Cluster, ClusterConfig};
use crate::http::AppState;
use crate::store::Startup;

use super::Settings;

/// The node id unless `--node-id` says: the host name and a short hash of the data
/// directory. The same server started again on the same host and directory is the same
/// node, and takes its tables back at once; nodes sharing a host need directories (or ids)
/// of their own.
#[must_use]
pub fn default_node_id(data: &std::path::Path) -> String {
    use sha2::Digest;
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "parlor".to_string());
    let dir = std::fs::canonicalize(data).unwrap_or_else(|_| data.to_path_buf());
    let hash = hex::encode(sha2::Sha256::digest(dir.to_string_lossy().as_bytes()));
    format!("{host}-{}", &hash[..8])
}

/// Where the other nodes reach this one unless `--advertise` says: the listen address
/// (a wildcard one is replaced by the loopback, fit only for nodes on one host).
#[must_use]
pub fn default_advertise(addr: SocketAddr) -> String {
    let mut addr = addr;
    if addr.ip().is_unspecified() {
        addr.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
    }
    format!("http://{addr}")
}

/// A node about to join: its id, lease and fence, made before the store opens.
pub struct Node {
    /// The node's id.
    pub id: String,
    /// How long a lease runs.
    pub lease: Duration,
    /// The fence the store's writer checks.
    pub fence: Arc<LeaseFence>,
}

impl Node {
    /// The node these settings describe.
    #[must_use]
    pub fn new(settings: &Settings) -> Node {
        let id = settings
            .node_id
            .clone()
            .unwrap_or_else(|| default_node_id(&settings.data));
        let lease = Duration::from_millis(settings.lease_ms.max(100));
        let fence = Arc::new(LeaseFence::new(&id, lease));
        Node { id, lease, fence }
    }

    /// Joins the cluster of the Postgres store at `url` once listening on `bound`: the
    /// tables open in the store are handed to the cluster (not restored here), and the
    /// round of renewals and adoptions starts. Returns the state serving as this node.
    pub async fn join(
        self,
        settings: &Settings,
        url: &str,
        bound: SocketAddr,
        state: AppState,
        startup: Startup,
    ) -> anyhow::Result<AppState> {
        use anyhow::Context;
        let config = ClusterConfig {
            url: url.to_string(),
            node: self.id,
            advertise: settings
                .advertise
                .clone()
                .unwrap_or_else(|| default_advertise(bound)),
            lease: self.lease,
            secret: settings.cluster_secret.clone(),
        };
        let cluster = Cluster::join(config, self.fence)
            .await
            .context("joining the cluster (its tables in the Postgres store)")?;
        let open: Vec<String> = startup.tables.iter().map(|t| t.table.id.clone()).collect();
        let orphans = cluster.claim_orphans(&open).await?;
        if orphans > 0 {
            tracing::info!(
                tables = orphans,
                "open tables without a lease given to the cluster"
            );
        }
        let state = state.with_cluster(cluster.clone());
        let back = cluster.reclaim(&state.lobby, &startup).await?;
        tracing::info!(tables = back, "this node's own tables taken back");
        let store = state
            .lobby
            .store()
            .cloned()
            .context("a cluster node keeps its tables in the store")?;
        tokio::spawn(cluster.run(state.lobby.clone(), store, state.shutdown.clone()));
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wildcard_listen_address_is_advertised_as_the_loopback() {
        assert_eq!(
            default_advertise("0.0.0.0:8080".parse().unwrap()),
            "http://127.0.0.1:8080"
        );
        assert_eq!(
            default_advertise("10.1.2.3:9000".parse().unwrap()),
            "http://10.1.2.3:9000"
        );
        let a = default_node_id(std::path::Path::new("/srv/a"));
        assert_eq!(a, default_node_id(std::path::Path::new("/srv/a")));
        assert_ne!(a, default_node_id(std::path::Path::new("/srv/b")));
    }
}
