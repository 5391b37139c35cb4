//! What a release carries: one version in every crate and package (and the changelog), the
//! same licence everywhere, the version shown by `parlor --version`, `/healthz` and
//! `/metrics`, and `/metrics` named as Prometheus has it from the first scrape of a fresh
//! server.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use parlor_tests::http_raw;
use support::{ServerProcess, TempDir, parlor_bin};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A file of the repository.
fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|err| panic!("{path}: {err}"))
}

/// The string value of `key = "..."` in the `[section]` of a TOML file.
fn toml_value(text: &str, section: &str, key: &str) -> Option<String> {
    let mut inside = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == format!("[{section}]");
            continue;
        }
        if !inside {
            continue;
        }
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        if k.trim() == key {
            return Some(v.trim().trim_matches('"').to_string());
        }
    }
    None
}

/// The workspace's version, which every crate inherits.
fn version() -> String {
    toml_value(&read("Cargo.toml"), "workspace.package", "version").expect("a workspace version")
}

#[test]
fn every_crate_and_package_has_the_one_version_and_licence() {
    let version = version();
    let licence = "MIT OR Apache-2.0";
    let workspace = read("Cargo.toml");
    assert_eq!(
        toml_value(&workspace, "workspace.package", "license").as_deref(),
        Some(licence)
    );
    for krate in ["shared", "server", "tests"] {
        let manifest = read(&format!("{krate}/Cargo.toml"));
        for key in ["version", "license", "rust-version"] {
            assert_eq!(
                toml_value(&manifest, "package", &format!("{key}.workspace")).as_deref(),
                Some("true"),
                "{krate}/Cargo.toml: {key} comes from the workspace"
            );
        }
    }
    assert_eq!(env!("CARGO_PKG_VERSION"), version, "the built crates");

    let pyproject = read("sdk/python/pyproject.toml");
    assert_eq!(
        toml_value(&pyproject, "project", "version").as_deref(),
        Some(version.as_str()),
        "sdk/python/pyproject.toml"
    );
    assert!(
        pyproject.contains(&format!("license = {{ text = \"{licence}\" }}")),
        "sdk/python/pyproject.toml's licence"
    );
    assert!(
        read("sdk/python/src/parlor_bot/__init__.py")
            .contains(&format!("__version__ = \"{version}\"")),
        "parlor_bot.__version__"
    );

    let package: serde_json::Value =
        serde_json::from_str(&read("sdk/typescript/package.json")).unwrap();
    assert_eq!(package["version"], version.as_str(), "package.json");
    assert_eq!(package["license"], licence, "package.json's licence");
    let lock: serde_json::Value =
        serde_json::from_str(&read("sdk/typescript/package-lock.json")).unwrap();
    assert_eq!(lock["version"], version.as_str(), "package-lock.json");
    assert_eq!(lock["packages"][""]["version"], version.as_str());

    // The changelog's newest release is this one.
    let changelog = read("CHANGELOG.md");
    let newest = changelog
        .lines()
        .filter_map(|line| line.strip_prefix("## ["))
        .find(|heading| !heading.starts_with("Unreleased"))
        .expect("a release in CHANGELOG.md");
    assert!(
        newest.starts_with(&format!("{version}]")),
        "CHANGELOG.md's newest release is {newest:?}, the crates' {version}"
    );

    for file in ["LICENSE-MIT", "LICENSE-APACHE"] {
        assert!(root().join(file).is_file(), "{file}");
    }
    assert!(read("LICENSE-APACHE").contains("Version 2.0, January 2004"));
    assert!(read("LICENSE-MIT").contains("Permission is hereby granted, free of charge"));
}

#[test]
fn parlor_version_prints_the_version() {
    let out = Command::new(parlor_bin())
        .arg("--version")
        .output()
        .expect("running parlor --version");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("parlor {}", version())
    );
}

/// One scrape's families: each name with its `# HELP` (if any), `# TYPE` (if any) and samples.
#[derive(Debug, Default)]
struct Family {
    help: Option<String>,
    kind: Option<String>,
    samples: Vec<(String, f64)>,
}

/// Reads Prometheus text into families: a sample belongs to the family of its own name, or,
/// for a histogram, to that of its name without `_bucket`, `_sum` or `_count`.
fn families(text: &str) -> BTreeMap<String, Family> {
    let mut families: BTreeMap<String, Family> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        if let Some(rest) = line.strip_prefix("# HELP ") {
            let (name, help) = rest.split_once(' ').unwrap_or((rest, ""));
            families.entry(name.into()).or_default().help = Some(help.into());
        } else if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').expect("a type");
            families.entry(name.into()).or_default().kind = Some(kind.into());
        } else if !line.starts_with('#') {
            let (series, value) = line.rsplit_once(' ').expect("a value");
            let value: f64 = value.parse().unwrap_or_else(|_| panic!("{line}"));
            let name = &series[..series.find('{').unwrap_or(series.len())];
            let family = ["_bucket", "_sum", "_count"]
                .iter()
                .filter_map(|suffix| name.strip_suffix(suffix))
                .find(|base| {
                    families
                        .get(*base)
                        .is_some_and(|f| f.kind.as_deref() == Some("histogram"))
                })
                .unwrap_or(name);
            families
                .entry(family.into())
                .or_default()
                .samples
                .push((series.into(), value));
        }
    }
    families
}

/// A fresh server's first scrape: every family described and typed, counters ending in
/// `_total`, units in names, the failure counters there at 0, the build and the process.
#[tokio::test]
async fn a_fresh_server_s_metrics_are_named_as_prometheus_has_them() {
    let dir = TempDir::new("release-metrics");
    let server = ServerProcess::start(dir.path());
    let (status, _, text) = http_raw(server.addr, "GET", "/metrics", None).await;
    assert_eq!(status, 200);
    let families = families(&text);
    for (name, family) in &families {
        assert!(family.help.is_some(), "{name} has no # HELP in:\n{text}");
        let kind = family
            .kind
            .as_deref()
            .unwrap_or_else(|| panic!("{name} has no # TYPE in:\n{text}"));
        assert!(!family.samples.is_empty(), "{name} has no sample");
        match kind {
            "counter" => assert!(name.ends_with("_total"), "counter {name}"),
            "gauge" | "histogram" => assert!(!name.ends_with("_total"), "{kind} {name}"),
            _ => panic!("{name}: type {kind}"),
        }
        // Base units only, and the unit last (before `_total`).
        let parts: Vec<&str> = name.trim_end_matches("_total").split('_').collect();
        for unit in ["seconds", "bytes"] {
            if parts.contains(&unit) {
                assert_eq!(parts.last(), Some(&unit), "{name}: the unit ends the name");
            }
        }
        for unit in ["ms", "millis", "milliseconds", "kb", "kib", "mb"] {
            assert!(!parts.contains(&unit), "{name}: {unit} is not a base unit");
        }
    }
    let value = |series: &str| -> f64 {
        families
            .values()
            .flat_map(|f| &f.samples)
            .find(|(s, _)| s == series)
            .unwrap_or_else(|| panic!("no {series} in:\n{text}"))
            .1
    };
    for failure in [
        "parlor_store_commit_failures_total",
        "parlor_connections_refused_total{why=\"server_full\"}",
        "parlor_connections_refused_total{why=\"per_ip\"}",
        "parlor_ws_timed_out_total{why=\"silent\"}",
        "parlor_ws_timed_out_total{why=\"never_joined\"}",
        "parlor_rate_limited_total",
        "parlor_errors_total{code=\"storage_unavailable\"}",
        "parlor_errors_total{code=\"rate_limited\"}",
        "parlor_errors_total{code=\"malformed_json\"}",
    ] {
        assert_eq!(value(failure), 0.0, "{failure}");
    }
    let version = version();
    assert_eq!(
        value(&format!("parlor_build_info{{version=\"{version}\"}}")),
        1.0
    );
    assert_eq!(
        families["parlor_move_latency_seconds"].kind.as_deref(),
        Some("histogram")
    );
    assert_eq!(value("parlor_move_latency_seconds_count"), 0.0);
    assert!(value("process_resident_memory_bytes") > 0.0);
    assert!(value("process_open_fds") > 0.0);
    assert!(value("process_max_fds") >= value("process_open_fds"));
    assert!(value("process_cpu_seconds_total") >= 0.0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64();
    let started = value("process_start_time_seconds");
    assert!(
        started <= now + 1.0 && started > now - 600.0,
        "{started} against {now}"
    );
    let names: BTreeSet<&str> = families.keys().map(String::as_str).collect();
    for renamed in [
        "parlor_ws_bytes_received_total",
        "parlor_ws_bytes_sent_total",
    ] {
        assert!(!names.contains(renamed), "{renamed} is renamed");
    }

    // `/healthz` names the version under its status.
    let (status, _, body) = http_raw(server.addr, "GET", "/healthz", None).await;
    assert_eq!(status, 200);
    assert_eq!(body, format!("ok\nversion {version}\n"));
    server.stop();
}
