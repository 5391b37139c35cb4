//! `parlor serve` as one node of a cluster (when the store is Postgres): its id and address,
//! joining, and the background round of leases.

use std::net::SocketAddr;
use std::time::Duration;

use crate::cluster::{Cluster, ClusterConfig};

use super::Settings;

/// A node id nobody else has: the host name and a random suffix.
#[must_use]
pub fn default_node_id() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "parlor".to_string());
    let suffix = uuid::Uuid::new_v4().simple().to_string();
    format!("{host}-{}", &suffix[..6])
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

/// The cluster settings of a node whose store is the Postgres database at `url`, listening
/// on `bound`.
#[must_use]
pub fn config(settings: &Settings, url: &str, bound: SocketAddr) -> ClusterConfig {
    ClusterConfig {
        url: url.to_string(),
        node: settings.node_id.clone().unwrap_or_else(default_node_id),
        advertise: settings
            .advertise
            .clone()
            .unwrap_or_else(|| default_advertise(bound)),
        lease: Duration::from_millis(settings.lease_ms.max(100)),
        secret: settings.cluster_secret.clone(),
    }
}

/// Joins the cluster, or says why not.
pub async fn join(config: ClusterConfig) -> anyhow::Result<Cluster> {
    use anyhow::Context;
    Cluster::join(config)
        .await
        .context("joining the cluster (its tables in the Postgres store)")
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
        assert_ne!(default_node_id(), default_node_id());
    }
}
