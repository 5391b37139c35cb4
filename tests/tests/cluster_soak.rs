//! A soak of a cluster under load with short leases: three nodes on one real Postgres, each
//! loaded by `parlor loadtest` at once, leases of 1 s (renewed every 333 ms, so renewals
//! and the writers' checks meet all the time). Afterwards Postgres's log holds no deadlock and
//! no lock timeout, no node paused its tables for a failed write, and every load finished.
//!
//! Every finding (loads, Postgres's log, each node's log) is printed with how often it came
//! before the test fails on any, so one run reports all it saw.
//!
//! Long by design: run it by name, for `PARLOR_SOAK_SECONDS` (default 1800):
//! `cargo test -p parlor-tests --test cluster_soak -- --ignored`. `tests/tests/cluster_fence.rs`
//! is the short check, run by CI, of the lock order itself.

mod support;

use std::process::{Command, Stdio};

use support::{Backend, Storage, parlor_bin};

#[tokio::test]
#[ignore = "a soak of half an hour: run it by name"]
async fn a_cluster_under_load_with_short_leases_never_deadlocks_nor_pauses() {
    let seconds: u64 = std::env::var("PARLOR_SOAK_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1800);
    let tables: u32 = std::env::var("PARLOR_SOAK_TABLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let storage = Storage::new(Backend::Postgres, "cluster_soak").await;
    let nodes: Vec<_> = ["a", "b", "c"]
        .iter()
        .map(|name| {
            storage.start_with(&[
                "--node-id",
                name,
                "--lease-ms",
                "1000",
                "--cluster-secret",
                "soak-secret",
                // One address opens every table and connection of the load.
                "--max-connections-per-ip",
                "0",
                "--tables-per-ip",
                "0",
                "--tables-per-ip-per-minute",
                "0",
            ])
        })
        .collect();
    let loads: Vec<_> = nodes
        .iter()
        .map(|node| {
            Command::new(parlor_bin())
                .args(["loadtest", "--url", &format!("ws://{}", node.addr)])
                .args(["--tables", &tables.to_string()])
                .args(["--seconds", &seconds.to_string(), "--threads", "1"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("starting parlor loadtest")
        })
        .collect();
    // Every finding is gathered and printed before anything is asserted, so one run of half
    // an hour reports all it saw.
    let mut problems = Vec::new();
    for load in loads {
        let out = tokio::task::spawn_blocking(move || load.wait_with_output())
            .await
            .expect("waiting")
            .expect("parlor loadtest's output");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        eprintln!("{text}");
        if !out.status.success() {
            problems.push(format!("a load failed:\n{text}"));
        } else if !text.contains(" failed: 0 ") {
            problems.push(format!(
                "a load's clients did not all play to the end:\n{text}"
            ));
        }
    }

    let postgres_log = storage.postgres().expect("a Postgres").log();
    for sign in ["deadlock detected", "lock timeout"] {
        let lines: Vec<&str> = postgres_log.lines().filter(|l| l.contains(sign)).collect();
        eprintln!("Postgres logged {sign}: {} times", lines.len());
        if !lines.is_empty() {
            problems.push(format!("Postgres logged {sign}:\n{}", lines.join("\n")));
        }
    }
    for node in &nodes {
        let log = node.log();
        for sign in [
            "could not write to the database",
            "cluster round failed",
            "lease lost",
            "stale write refused",
        ] {
            let lines: Vec<&str> = log.lines().filter(|l| l.contains(sign)).collect();
            eprintln!("node {} logged {sign}: {} times", node.addr, lines.len());
            if !lines.is_empty() {
                problems.push(format!(
                    "node {} logged {sign}:\n{}",
                    node.addr,
                    lines.join("\n")
                ));
            }
        }
    }
    for node in nodes {
        node.stop();
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}
