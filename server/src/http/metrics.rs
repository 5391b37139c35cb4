//! `GET /metrics`: the server's counters in Prometheus text format, through the `metrics`
//! facade and `metrics-exporter-prometheus`.
//!
//! Modules below count what they see with `metrics::counter!` and friends (no import of this
//! module needed), or, for the counters bumped at every move, in [`crate::tally`]; this
//! module installs the one process-wide recorder and, at each scrape, sets the gauges read
//! from the lobby and the tallies' totals. The names:
//!
//! | metric | type | what |
//! |---|---|---|
//! | `parlor_tables{status}` | gauge | open tables by `waiting`, `playing`, `finished` |
//! | `parlor_connections` | gauge | WebSocket connections open |
//! | `parlor_connections_opened_total`, `parlor_connections_closed_total` | counter | connection churn |
//! | `parlor_moves_total` | counter | moves accepted by tables (people and bots) |
//! | `parlor_matches_finished_total` | counter | matches played to the end |
//! | `parlor_errors_total{code}` | counter | `error` frames sent, by stable code (refusals, bad input, rate limits) |
//! | `parlor_rate_limited_total` | counter | frames refused for a connection's rate |
//! | `parlor_ws_bytes_received_total`, `parlor_ws_bytes_sent_total` | counter | WebSocket text bytes in and out |
//! | `parlor_store_commits_total`, `parlor_store_writes_total`, `parlor_store_commit_failures_total` | counter | the table log's group commits |
//! | `parlor_store_commit_seconds` | histogram | how long each commit took |
//!
//! It reads figures; it changes nothing.

use std::sync::OnceLock;

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use parlor_shared::protocol::TableStatus;

use super::AppState;

/// Commit-time buckets, in seconds: from a quarter millisecond to a second.
const COMMIT_BUCKETS: &[f64] = &[
    0.000_25, 0.000_5, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0,
];

/// How often recorded histogram samples are folded into their buckets.
const UPKEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

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
    crate::tally::publish();
    handle.run_upkeep();
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        handle.render(),
    )
}
