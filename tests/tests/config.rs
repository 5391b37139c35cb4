//! `parlor serve`'s settings: a flag wins over its `PARLOR_*` variable, which wins over the
//! config file, which wins over the default (read back with `--print-config`).

mod support;

use std::process::Command;

use support::{TempDir, parlor_bin};

/// Runs `parlor serve --print-config` with these extra arguments and environment variables.
fn print_config(args: &[&str], env: &[(&str, &str)]) -> (bool, String, String) {
    let mut command = Command::new(parlor_bin());
    command.arg("serve").arg("--print-config").args(args);
    for (key, _) in std::env::vars() {
        if key.starts_with("PARLOR_") && key != "PARLOR_BIN" {
            command.env_remove(key);
        }
    }
    command.env_remove("RUST_LOG");
    for (key, value) in env {
        command.env(key, value);
    }
    let out = command
        .output()
        .expect("running parlor serve --print-config");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn line<'a>(toml: &'a str, key: &str) -> &'a str {
    toml.lines()
        .find(|l| l.starts_with(&format!("{key} =")))
        .unwrap_or_else(|| panic!("no `{key}` in:\n{toml}"))
}

/// The linger of others' moves: 20 ms unless set, and set as every other setting is.
#[test]
fn the_ws_linger_is_20_ms_by_default_and_set_like_the_rest() {
    let dir = TempDir::new("config-linger");
    let file = dir.path().join("parlor.toml");
    std::fs::write(&file, "ws_linger_ms = 7\n").unwrap();
    let file = file.to_str().unwrap();
    let (ok, out, err) = print_config(&[], &[]);
    assert!(ok, "{err}");
    assert_eq!(line(&out, "ws_linger_ms"), "ws_linger_ms = 20");
    let (ok, out, err) = print_config(&["--config", file], &[]);
    assert!(ok, "{err}");
    assert_eq!(line(&out, "ws_linger_ms"), "ws_linger_ms = 7");
    let (ok, out, err) = print_config(&["--config", file], &[("PARLOR_WS_LINGER_MS", "0")]);
    assert!(ok, "{err}");
    assert_eq!(
        line(&out, "ws_linger_ms"),
        "ws_linger_ms = 0",
        "0: each frame at once"
    );
    let (ok, out, err) = print_config(
        &["--config", file, "--ws-linger-ms", "50"],
        &[("PARLOR_WS_LINGER_MS", "0")],
    );
    assert!(ok, "{err}");
    assert_eq!(line(&out, "ws_linger_ms"), "ws_linger_ms = 50");
}

#[test]
fn flag_over_env_over_file_over_default() {
    let dir = TempDir::new("config");
    let file = dir.path().join("parlor.toml");
    std::fs::write(
        &file,
        "rate_limit = 7\nmax_tables = 9\nthreads = 2\nlog_format = \"json\"\n",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let (ok, out, err) = print_config(
        &["--config", file, "--rate-limit", "3"],
        &[("PARLOR_RATE_LIMIT", "5"), ("PARLOR_MAX_TABLES", "8")],
    );
    assert!(ok, "{err}");
    assert_eq!(line(&out, "rate_limit"), "rate_limit = 3", "the flag wins");
    assert_eq!(
        line(&out, "max_tables"),
        "max_tables = 8",
        "then the variable"
    );
    assert_eq!(line(&out, "threads"), "threads = 2", "then the file");
    assert_eq!(line(&out, "log_format"), "log_format = \"json\"");
    assert_eq!(
        line(&out, "idle_table_secs"),
        "idle_table_secs = 600",
        "then the default"
    );
    assert_eq!(line(&out, "addr"), "addr = \"127.0.0.1:8080\"");

    // The file named by PARLOR_CONFIG, and a boolean flag from the environment.
    let (ok, out, err) = print_config(&[], &[("PARLOR_CONFIG", file), ("PARLOR_NO_STORE", "true")]);
    assert!(ok, "{err}");
    assert_eq!(line(&out, "rate_limit"), "rate_limit = 7");
    assert_eq!(line(&out, "no_store"), "no_store = true");

    // What --print-config prints is itself a config file.
    let printed = dir.path().join("printed.toml");
    std::fs::write(&printed, &out).unwrap();
    let (ok, again, err) = print_config(&["--config", printed.to_str().unwrap()], &[]);
    assert!(ok, "{err}");
    assert_eq!(again, out);
}

#[test]
fn a_misspelt_key_stops_the_server() {
    let dir = TempDir::new("config-typo");
    let file = dir.path().join("parlor.toml");
    std::fs::write(&file, "rate_limt = 7\n").unwrap();
    let (ok, _, err) = print_config(&["--config", file.to_str().unwrap()], &[]);
    assert!(!ok);
    assert!(err.contains("rate_limt"), "{err}");
}

#[test]
fn a_ladder_variant_or_strategy_list_that_makes_no_sense_stops_the_server() {
    for (flag, value, said) in [
        ("--ladder-variants", "hearts,poker", "poker"),
        ("--ladder-strategies", " , ", "ladder_strategies"),
    ] {
        let mut child = Command::new(parlor_bin())
            .args(["serve", "--no-store", "--addr", "127.0.0.1:0", "--ladder"])
            .args([flag, value])
            .env("RUST_BACKTRACE", "0")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("running parlor serve");
        // Bounded: a server that started anyway is stopped and the test fails.
        let mut status = None;
        for _ in 0..600 {
            status = child.try_wait().expect("waiting for parlor serve");
            if status.is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        if status.is_none() {
            let _ = child.kill();
        }
        let out = child.wait_with_output().expect("its output");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            status.is_some_and(|s| !s.success()),
            "{flag} {value}: {err}"
        );
        assert!(err.contains(said), "{flag} {value}: {err}");
    }
}

/// `--print-config` shows where the store is but never a password or a key: the store URL's
/// password, the admin key and the cluster secret, whether from flags, variables or the file.
#[test]
fn print_config_shows_no_password_or_key() {
    let dir = TempDir::new("config-secrets");
    let file = dir.path().join("parlor.toml");
    std::fs::write(&file, "cluster_secret = \"file-secret-3\"\n").unwrap();
    let file = file.to_str().unwrap();
    let (ok, out, err) = print_config(
        &["--config", file, "--admin-key", "flag-key-1"],
        &[(
            "PARLOR_STORE",
            "postgres://parlor:env-password-2@db.internal:5432/parlor",
        )],
    );
    assert!(ok, "{err}");
    for secret in ["flag-key-1", "env-password-2", "file-secret-3"] {
        assert!(!out.contains(secret), "{secret} printed:\n{out}");
        assert!(!err.contains(secret), "{secret} logged:\n{err}");
    }
    assert_eq!(
        line(&out, "store"),
        "store = \"postgres://parlor:***@db.internal:5432/parlor\""
    );
    assert!(out.contains("# admin_key is set (not shown)"), "{out}");
    assert!(out.contains("# cluster_secret is set (not shown)"), "{out}");

    // A password in the URL's query is a password too.
    let (ok, out, err) = print_config(
        &[
            "--store",
            "postgres://parlor@db/parlor?password=query-password-4",
        ],
        &[],
    );
    assert!(ok, "{err}");
    assert!(!out.contains("query-password-4"), "{out}");
    assert_eq!(
        line(&out, "store"),
        "store = \"postgres://parlor@db/parlor?password=***\""
    );
}
