//! `GET /api/stats`: what the server holds right now (tables, connections, memory, the
//! store's log), for operators and for `parlor loadtest`'s memory figures.
//!
//! It reads figures; it changes nothing.

use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};

use super::AppState;
use crate::store::StoreStats;

/// The server right now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerStats {
    /// Tables open.
    pub tables: usize,
    /// WebSocket connections open.
    pub connections: usize,
    /// The process's memory, where the system tells (Linux).
    pub memory: Option<Memory>,
    /// The table log, when the server keeps one.
    pub store: Option<StoreStats>,
    /// This node's part in its cluster, when it is one node of several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<crate::cluster::ClusterStats>,
    /// What the ladder has played, when the server runs one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ladder: Option<crate::ladder::LadderFigures>,
}

/// The process's resident memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Memory {
    /// Resident set: everything in RAM, the program's own code included.
    pub rss_bytes: u64,
    /// The anonymous part of it: heap and stacks, what tables and connections cost.
    pub anon_bytes: u64,
}

/// `GET /api/stats`.
pub async fn get(State(state): State<AppState>) -> Json<ServerStats> {
    Json(ServerStats {
        tables: state.lobby.len(),
        connections: state.tracker.len(),
        memory: memory(),
        store: state.lobby.store().and_then(|store| store.stats()),
        cluster: match &state.cluster {
            Some(cluster) => Some(cluster.stats().await),
            None => None,
        },
        ladder: state.ladder.as_ref().map(|ladder| ladder.figures()),
    })
}

/// Reads this process's memory from `/proc/self/status`; `None` elsewhere.
#[must_use]
pub fn memory() -> Option<Memory> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    Some(Memory {
        rss_bytes: status_kib(&status, "VmRSS:")? * 1024,
        anon_bytes: status_kib(&status, "RssAnon:")? * 1024,
    })
}

/// One `Name:   123 kB` line of `/proc/self/status`, in KiB.
fn status_kib(status: &str, name: &str) -> Option<u64> {
    let line = status.lines().find(|line| line.starts_with(name))?;
    line[name.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_lines_are_read_in_kib() {
        let status = "Name:\tparlor\nVmRSS:\t   21564 kB\nRssAnon:\t   13616 kB\n";
        assert_eq!(status_kib(status, "VmRSS:"), Some(21564));
        assert_eq!(status_kib(status, "RssAnon:"), Some(13616));
        assert_eq!(status_kib(status, "RssFile:"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_has_memory() {
        let memory = memory().expect("linux tells");
        assert!(memory.rss_bytes >= memory.anon_bytes);
        assert!(memory.anon_bytes > 0);
    }
}
