//! `GET /api/stats`: what the server holds right now (tables, connections, memory, the
//! store's log), for operators and for `parlor loadtest`'s memory figures.
//!
//! It reads figures; it changes nothing. The ids of the tables a cluster node owns are shown
//! only to the operator (the admin key) and the other nodes (the cluster secret): a private
//! table's id is its key.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
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
    /// CPU time the process has used so far (user and system), in milliseconds: read twice,
    /// the difference over the moves made in between says what a move costs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_ms: Option<u64>,
    /// The user-space part of `cpu_ms`; the rest is the kernel's work for the process (its
    /// sockets, above all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_user_ms: Option<u64>,
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
pub async fn get(State(state): State<AppState>, headers: HeaderMap) -> Json<ServerStats> {
    let cpu = cpu_time();
    let mut cluster = match &state.cluster {
        Some(cluster) => Some(cluster.stats().await),
        None => None,
    };
    if !operator_or_node(&state, &headers)
        && let Some(cluster) = &mut cluster
    {
        cluster.owned.clear();
    }
    Json(ServerStats {
        tables: state.lobby.len(),
        connections: state.tracker.len(),
        memory: memory(),
        cpu_ms: cpu.map(CpuTime::total_ms),
        cpu_user_ms: cpu.map(|time| time.user_ms),
        store: state.lobby.store().and_then(|store| store.stats()),
        cluster,
        ladder: state.ladder.as_ref().map(|ladder| ladder.figures()),
    })
}

/// Whether the request shows the admin key or the cluster's secret.
fn operator_or_node(state: &AppState, headers: &HeaderMap) -> bool {
    if super::admin::authorize(state, headers).is_ok() {
        return true;
    }
    let secret = state.cluster.as_ref().and_then(|c| c.secret());
    let shown = headers
        .get(crate::cluster::SECRET_HEADER)
        .and_then(|v| v.to_str().ok());
    match (secret, shown) {
        (Some(secret), Some(shown)) => {
            super::admin::constant_time_eq(shown.as_bytes(), secret.as_bytes())
        }
        _ => false,
    }
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

/// CPU time used so far, split as Linux counts it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CpuTime {
    /// In user space, in milliseconds.
    pub user_ms: u64,
    /// In the kernel on the process's behalf, in milliseconds.
    pub system_ms: u64,
}

impl CpuTime {
    /// User and system together.
    #[must_use]
    pub fn total_ms(self) -> u64 {
        self.user_ms + self.system_ms
    }
}

impl std::ops::Add for CpuTime {
    type Output = CpuTime;

    fn add(self, other: CpuTime) -> CpuTime {
        CpuTime {
            user_ms: self.user_ms + other.user_ms,
            system_ms: self.system_ms + other.system_ms,
        }
    }
}

/// The CPU time this process has used, from `/proc/self/stat`; `None` elsewhere.
#[must_use]
pub fn cpu_time() -> Option<CpuTime> {
    cpu_time_in("/proc/self/stat")
}

/// The CPU time that a `/proc` `stat` file (a process's or one thread's) gives.
#[must_use]
pub fn cpu_time_in(stat_file: &str) -> Option<CpuTime> {
    stat_cpu_time(&std::fs::read_to_string(stat_file).ok()?)
}

/// `utime` and `stime` of a `stat` line, in milliseconds. Both count clock ticks of
/// `USER_HZ`, which Linux fixes at 100 for user space. The command name (field 2) may hold
/// spaces and parentheses, so fields are counted after its closing one.
fn stat_cpu_time(stat: &str) -> Option<CpuTime> {
    /// Milliseconds per tick of Linux's `USER_HZ`.
    const MS_PER_TICK: u64 = 10;
    let after_name = &stat[stat.rfind(')')? + 1..];
    let mut fields = after_name.split_whitespace();
    // Fields 3 to 13 come first; `utime` is field 14, `stime` field 15.
    let utime: u64 = fields.nth(11)?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(CpuTime {
        user_ms: utime * MS_PER_TICK,
        system_ms: stime * MS_PER_TICK,
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

    #[test]
    fn cpu_time_is_read_after_the_command_name() {
        let stat = "4242 (tokio rt (x)) S 1 4242 4242 0 -1 4194560 900 0 0 0 1234 56 0 0 20 0 3";
        let time = stat_cpu_time(stat).expect("a whole line");
        assert_eq!((time.user_ms, time.system_ms), (12_340, 560));
        assert_eq!(time.total_ms(), 12_900);
        assert_eq!(stat_cpu_time("4242 (cut short) S 1 2"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_has_used_cpu_time() {
        // Busy until a tick of CPU time has been counted (bounded: a stuck count fails).
        let spin = std::time::Instant::now();
        while cpu_time().expect("linux tells").total_ms() == 0 && spin.elapsed().as_secs() < 30 {
            std::hint::black_box(spin.elapsed());
        }
        assert!(
            cpu_time().expect("linux tells").total_ms() >= 10,
            "one tick is 10 ms"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_has_memory() {
        let memory = memory().expect("linux tells");
        assert!(memory.rss_bytes >= memory.anon_bytes);
        assert!(memory.anon_bytes > 0);
    }
}
