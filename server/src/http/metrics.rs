//! `GET /metrics`: the server's counters in Prometheus text format, through the `metrics` facade
//! and `metrics-exporter-prometheus`, followed by what this module writes itself: the build, the
//! process (from `/proc`) and the move-latency histogram. Modules below count what they see with
//! `metrics::counter!` (no import of this module needed), or, for the counters bumped at every
//! move, in [`crate::tally`]; this module installs the one process-wide recorder, describes every
//! metric and, at each scrape, sets the gauges read from the lobby and the tallies' totals. The
//! metrics: docs/DEPLOY.md, "Metrics". The failure counters are there at 0 from the first scrape,
//! since a rate over a series that appears with its first failure misses it. It reads figures; it
//! changes nothing.

mod process;

use std::fmt::Write as _;
use std::sync::OnceLock;

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use parlor_shared::protocol::TableStatus;

use super::AppState;
use crate::tally::{LATENCY_BOUNDS, MOVE_LATENCY};

/// Commit-time buckets, in seconds: from a quarter millisecond to a second.
const COMMIT_BUCKETS: &[f64] = &[
    0.000_25, 0.000_5, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0,
];

/// How often recorded histogram samples are folded into their buckets.
const UPKEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// What a metric counts, for its `# TYPE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Only goes up (its name ends in `_total`).
    Counter,
    /// Goes up and down.
    Gauge,
    /// Samples in buckets.
    Histogram,
}

/// Every metric counted through the `metrics` facade, with its `# HELP` text. A metric
/// counted without a line here would have no `# HELP` (`tests/tests/metrics.rs` checks).
pub const DESCRIPTIONS: &[(&str, Kind, &str)] = &[
    (
        "parlor_tables",
        Kind::Gauge,
        "Open tables, by status (waiting, playing, finished).",
    ),
    (
        "parlor_connections",
        Kind::Gauge,
        "WebSocket connections open.",
    ),
    (
        "parlor_connections_opened_total",
        Kind::Counter,
        "WebSocket connections opened.",
    ),
    (
        "parlor_connections_closed_total",
        Kind::Counter,
        "WebSocket connections closed.",
    ),
    (
        "parlor_connections_refused_total",
        Kind::Counter,
        "TCP connections refused at a cap, by why (server_full, per_ip).",
    ),
    (
        "parlor_ws_timed_out_total",
        Kind::Counter,
        "WebSockets closed by the server, by why (silent: nothing heard; never_joined: no table).",
    ),
    (
        "parlor_moves_total",
        Kind::Counter,
        "Moves accepted by tables, people's and bots'.",
    ),
    (
        "parlor_matches_finished_total",
        Kind::Counter,
        "Matches played to the end.",
    ),
    (
        "parlor_errors_total",
        Kind::Counter,
        "Error frames sent to clients, by stable code.",
    ),
    (
        "parlor_rate_limited_total",
        Kind::Counter,
        "Frames refused for their connection's rate.",
    ),
    (
        "parlor_ws_received_bytes_total",
        Kind::Counter,
        "WebSocket text bytes received.",
    ),
    (
        "parlor_ws_sent_bytes_total",
        Kind::Counter,
        "WebSocket text bytes sent.",
    ),
    (
        "parlor_store_commits_total",
        Kind::Counter,
        "Group commits of the table log.",
    ),
    (
        "parlor_store_writes_total",
        Kind::Counter,
        "Writes committed to the table log.",
    ),
    (
        "parlor_store_commit_failures_total",
        Kind::Counter,
        "Group commits of the table log that failed (tables pause until one succeeds).",
    ),
    (
        "parlor_store_commit_seconds",
        Kind::Histogram,
        "How long each group commit of the table log took, in seconds.",
    ),
    (
        "parlor_store_pruned_tables_total",
        Kind::Counter,
        "Closed tables deleted from the table log past the retention.",
    ),
    (
        "parlor_cluster_lease_renewals_total",
        Kind::Counter,
        "Leases on tables this node renewed.",
    ),
    (
        "parlor_cluster_adoptions_total",
        Kind::Counter,
        "Tables this node adopted from a node whose lease ran out.",
    ),
    (
        "parlor_cluster_refused_writes_total",
        Kind::Counter,
        "Writes the database refused because this node no longer held the table's lease.",
    ),
    (
        "parlor_cluster_relayed_total",
        Kind::Counter,
        "WebSocket connections relayed to the node owning their table.",
    ),
    (
        "parlor_cluster_bot_invitations_total",
        Kind::Counter,
        "Invitations sent to a registered bot through the node it is online on.",
    ),
    (
        "parlor_cluster_bot_reports_lost_total",
        Kind::Counter,
        "Ends of a bot invitation that could not be reported to the node holding it.",
    ),
];

/// The failure counters every server has, with their labels: registered at 0 on install.
const FAILURES: &[(&str, Option<(&str, &str)>)] = &[
    (
        "parlor_connections_refused_total",
        Some(("why", "server_full")),
    ),
    ("parlor_connections_refused_total", Some(("why", "per_ip"))),
    ("parlor_ws_timed_out_total", Some(("why", "silent"))),
    ("parlor_ws_timed_out_total", Some(("why", "never_joined"))),
    ("parlor_rate_limited_total", None),
    // The refusals an operator alerts on: the server's own trouble and clients it turns away.
    ("parlor_errors_total", Some(("code", "storage_unavailable"))),
    ("parlor_errors_total", Some(("code", "rate_limited"))),
    ("parlor_errors_total", Some(("code", "server_full"))),
    (
        "parlor_errors_total",
        Some(("code", "too_many_connections")),
    ),
    ("parlor_errors_total", Some(("code", "too_many_requests"))),
    ("parlor_errors_total", Some(("code", "malformed_json"))),
    ("parlor_errors_total", Some(("code", "invalid_message"))),
];

/// The failure counters of a server with a store.
const STORE_FAILURES: &[&str] = &["parlor_store_commit_failures_total"];

/// The failure counters of a cluster node.
const CLUSTER_FAILURES: &[&str] = &[
    "parlor_cluster_refused_writes_total",
    "parlor_cluster_bot_reports_lost_total",
];

/// The process's recorder, installed on first use. When another recorder was installed
/// first (a test harness), `/metrics` renders this one's (empty) registry.
pub fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let builder = PrometheusBuilder::new()
            .set_buckets_for_metric(
                Matcher::Full("parlor_store_commit_seconds".into()),
                COMMIT_BUCKETS,
            )
            .expect("the buckets are not empty");
        let recorder = builder.build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("a metrics recorder was already installed: /metrics stays empty");
        }
        describe();
        for (name, label) in FAILURES {
            match label {
                Some((key, value)) => metrics::counter!(*name, *key => *value).increment(0),
                None => metrics::counter!(*name).increment(0),
            }
        }
        // A histogram keeps every sample recorded until upkeep folds them into its buckets:
        // without a scrape of /metrics (which runs it too) the commit histogram alone would
        // grow by a sample per commit for as long as the server runs.
        let kept = handle.clone();
        let upkeep = std::thread::Builder::new()
            .name("parlor-metrics".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(UPKEEP_EVERY);
                    kept.run_upkeep();
                }
            });
        if let Err(err) = upkeep {
            tracing::warn!(%err, "could not start the metrics upkeep thread");
        }
        handle
    })
}

/// Gives each metric of [`DESCRIPTIONS`] its help text.
fn describe() {
    for &(name, kind, help) in DESCRIPTIONS {
        match kind {
            Kind::Counter => metrics::describe_counter!(name, help),
            Kind::Gauge => metrics::describe_gauge!(name, help),
            Kind::Histogram => metrics::describe_histogram!(name, help),
        }
    }
}

/// `GET /metrics`.
pub async fn get(State(state): State<AppState>) -> impl IntoResponse {
    let handle = handle();
    let mut counts = [0u32; 3];
    for table in state.lobby.list() {
        let i = match table.status {
            TableStatus::Waiting => 0,
            TableStatus::Playing => 1,
            TableStatus::Finished => 2,
        };
        counts[i] += 1;
    }
    for (status, count) in ["waiting", "playing", "finished"].into_iter().zip(counts) {
        metrics::gauge!("parlor_tables", "status" => status).set(f64::from(count));
    }
    metrics::gauge!("parlor_connections").set(state.tracker.len() as f64);
    if state.lobby.store().is_some() {
        for name in STORE_FAILURES {
            metrics::counter!(*name).increment(0);
        }
    }
    if state.cluster.is_some() {
        for name in CLUSTER_FAILURES {
            metrics::counter!(*name).increment(0);
        }
    }
    crate::tally::publish();
    handle.run_upkeep();
    let mut text = handle.render();
    write_own(&mut text);
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
}

/// Appends what is not in the recorder: the build, the move-latency histogram (kept in
/// [`crate::tally`], cheaper per move than the recorder's) and the process.
fn write_own(text: &mut String) {
    family(
        text,
        "parlor_build_info",
        "gauge",
        "Always 1: the version of this server in its label.",
    );
    let _ = writeln!(
        text,
        "parlor_build_info{{version=\"{}\"}} 1\n",
        env!("CARGO_PKG_VERSION")
    );
    let name = "parlor_move_latency_seconds";
    family(
        text,
        name,
        "histogram",
        "From reading a move off a WebSocket to handing its event to that connection, \
         once the table log holds it, in seconds.",
    );
    let latency = MOVE_LATENCY.snapshot();
    for (bound, at_most) in LATENCY_BOUNDS.iter().zip(latency.at_most) {
        let _ = writeln!(text, "{name}_bucket{{le=\"{bound}\"}} {at_most}");
    }
    let _ = writeln!(text, "{name}_bucket{{le=\"+Inf\"}} {}", latency.count);
    let _ = writeln!(text, "{name}_sum {}", latency.sum_secs);
    let _ = writeln!(text, "{name}_count {}\n", latency.count);
    process::write(text);
}

/// A family's `# HELP` and `# TYPE` lines.
fn family(text: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(text, "# HELP {name} {help}\n# TYPE {name} {kind}");
}
