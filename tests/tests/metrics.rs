//! `GET /metrics`: Prometheus text a scraper reads, whose counters move when a match is
//! played. The only server in this binary, so the process-wide counters are its own; beside
//! it, a check of the server's sources that every metric they count is described.

use std::sync::Arc;

use parlor_server::store::SqliteStore;
use parlor_server::{AppState, Config};
use parlor_shared::protocol::ClientMsg;
use parlor_tests::{Rng, TestServer, http_raw, play_to_end, seat_players, short_options, start};
use prometheus_parse::{Sample, Scrape, Value};
use serde_json::json;

/// One scrape, checked line by line and parsed.
async fn scrape(addr: std::net::SocketAddr) -> Vec<Sample> {
    let (status, head, body) = http_raw(addr, "GET", "/metrics", None).await;
    assert_eq!(status, 200);
    assert!(
        head.contains("content-type: text/plain; version=0.0.4"),
        "{head}"
    );
    for line in body
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        assert!(
            is_sample_line(line),
            "not a Prometheus sample line: {line:?}"
        );
    }
    let lines = body.lines().map(|l| Ok(l.to_string()));
    Scrape::parse(lines).expect("Prometheus text").samples
}

/// `name{labels} value`, as the exposition format has it.
fn is_sample_line(line: &str) -> bool {
    let (series, value) = line.rsplit_once(' ').unwrap_or(("", ""));
    let name_end = series.find('{').unwrap_or(series.len());
    let name = &series[..name_end];
    let labels_ok =
        name_end == series.len() || (series.ends_with('}') && series[name_end..].contains('='));
    let name_ok = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':');
    let value_ok = value.parse::<f64>().is_ok() || ["+Inf", "-Inf", "NaN"].contains(&value);
    name_ok && labels_ok && value_ok
}

/// A counter's or gauge's value (0 when absent), with these labels.
fn value(samples: &[Sample], name: &str, labels: &[(&str, &str)]) -> f64 {
    samples
        .iter()
        .filter(|s| s.metric == name)
        .filter(|s| labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v)))
        .map(|s| match &s.value {
            Value::Counter(v) | Value::Gauge(v) | Value::Untyped(v) => *v,
            _ => 0.0,
        })
        .sum()
}

/// How many observations a histogram holds.
fn histogram_count(samples: &[Sample], name: &str) -> f64 {
    samples
        .iter()
        .filter(|s| s.metric == name)
        .filter_map(|s| match &s.value {
            Value::Histogram(buckets) => buckets.last().map(|b| b.count),
            _ => None,
        })
        .sum()
}

#[tokio::test]
async fn counters_move_when_a_match_is_played() {
    let store = SqliteStore::in_memory().expect("a store in memory");
    let state = AppState::new(Config::default()).with_store(Arc::new(store));
    let test = TestServer::with_state(state.clone()).await;
    let addr = test.addr;
    let before = scrape(addr).await;

    // A refusal the reader gives, then a match of plain tricks to its end.
    let mut stray = test.client().await;
    stray.send(&ClientMsg::Start {}).await;
    assert_eq!(stray.recv_error().await.0, "not_joined");
    let (status, created) = parlor_tests::http(
        addr,
        "POST",
        "/api/tables",
        Some(&json!({"variant": "tricks", "options": short_options("tricks"), "seed": 1})),
    )
    .await;
    assert_eq!(status, 201);
    let id = created["id"].as_str().unwrap();
    let mut clients = seat_players(&test, id, 4).await;
    start(&mut clients).await;
    let winners = play_to_end(&mut clients, &mut Rng::new(1)).await;
    assert!(!winners.is_empty());
    state.lobby.store().unwrap().flushed().await.unwrap();

    let after = scrape(addr).await;
    let delta = |name: &str, labels: &[(&str, &str)]| {
        value(&after, name, labels) - value(&before, name, labels)
    };
    assert!(
        delta("parlor_moves_total", &[]) >= 52.0,
        "a match of tricks is at least a deal"
    );
    assert_eq!(delta("parlor_matches_finished_total", &[]), 1.0);
    assert_eq!(delta("parlor_errors_total", &[("code", "not_joined")]), 1.0);
    assert_eq!(delta("parlor_connections_opened_total", &[]), 5.0);
    assert_eq!(value(&after, "parlor_connections", &[]), 5.0);
    assert_eq!(
        value(&after, "parlor_tables", &[("status", "finished")]),
        1.0
    );
    assert!(delta("parlor_ws_received_bytes_total", &[]) > 0.0);
    assert!(
        delta("parlor_ws_sent_bytes_total", &[]) > delta("parlor_ws_received_bytes_total", &[])
    );
    assert!(delta("parlor_store_commits_total", &[]) > 0.0);
    assert!(
        histogram_count(&after, "parlor_store_commit_seconds")
            > histogram_count(&before, "parlor_store_commit_seconds")
    );
    // Every move the four players sent was answered with its event: a sample each.
    let answered = histogram_count(&after, "parlor_move_latency_seconds")
        - histogram_count(&before, "parlor_move_latency_seconds");
    assert_eq!(
        answered,
        delta("parlor_moves_total", &[]),
        "a sample a move"
    );

    for client in clients {
        client.close().await;
    }
    stray.close().await;
    test.stop().await;
}

/// Every metric the server counts has its `# HELP` and the right `# TYPE`: each name in a
/// `counter!`, `gauge!` or `histogram!` of the server's sources, or published from a tally,
/// is in `DESCRIPTIONS` with that kind (a metric only a cluster or a full server counts would
/// otherwise go undescribed unnoticed).
#[test]
fn every_metric_the_server_counts_is_described() {
    use parlor_server::http::metrics::{DESCRIPTIONS, Kind};
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/src");
    let mut files = vec![src];
    let mut counted = Vec::new();
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        if path.extension().is_none_or(|ext| ext != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let tally = path.ends_with("tally.rs");
        for line in text.lines() {
            let kind = if line.contains("counter!(") || (tally && line.contains("(\"parlor_")) {
                Kind::Counter
            } else if line.contains("gauge!(") {
                Kind::Gauge
            } else if line.contains("histogram!(") {
                Kind::Histogram
            } else {
                continue;
            };
            for piece in line.split('"').skip(1).step_by(2) {
                if piece.starts_with("parlor_") {
                    counted.push((piece.to_string(), kind, path.clone()));
                }
            }
        }
    }
    assert!(counted.len() > 20, "the sources were read: {counted:?}");
    for (name, kind, path) in counted {
        let described = DESCRIPTIONS.iter().find(|(n, _, _)| *n == name);
        assert!(
            described.is_some_and(|(_, k, _)| *k == kind),
            "{name} ({kind:?}, {}) is not described as such in http/metrics.rs",
            path.display()
        );
    }
}
