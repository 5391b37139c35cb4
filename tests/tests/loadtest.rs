//! `parlor loadtest` loads a real server with fast remote bots and reports; `--human` loads it
//! with tables of people in growing steps and prints a row a step. Only that it runs and
//! reports is checked: no speed is asserted. (Its comparison with a bare relay is
//! `parlor-bench versus-relay`, tested in `tests/bench`.)

mod support;

use std::process::Command;

use support::{ServerProcess, TempDir, parlor_bin};

/// The number after `key` in `line` (`key` ends with its separator).
fn number_after(line: &str, key: &str) -> f64 {
    let (_, rest) = line
        .split_once(key)
        .unwrap_or_else(|| panic!("no {key:?} in {line:?}"));
    rest.split_whitespace()
        .next()
        .and_then(|word| word.trim_end_matches([',', ')']).parse().ok())
        .unwrap_or_else(|| panic!("no number after {key:?} in {line:?}"))
}

/// Runs `parlor loadtest` with `flags` at two tables for a second against a fresh server (its
/// store in a temporary directory named after `name`), and returns what it printed.
fn small_loadtest(name: &str, flags: &[&str]) -> std::process::Output {
    let data = TempDir::new(name);
    let server = ServerProcess::start(data.path());
    let out = Command::new(parlor_bin())
        .args(["loadtest", "--url"])
        .arg(format!("ws://{}", server.addr))
        .args(["--tables", "2", "--seconds", "1", "--threads", "1"])
        .args(flags)
        .output()
        .expect("running parlor loadtest");
    server.stop();
    out
}

/// What a run that must have succeeded printed (its errors shown if it failed).
fn succeeded(out: &std::process::Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "loadtest failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// A client the server refuses before it joins ends the run with its error: the others do not
/// wait for it forever.
#[test]
fn a_client_refused_before_joining_ends_the_run_with_its_error() {
    let data = TempDir::new("loadtest-refused");
    // Three connections from one address: one of the table's four clients is refused (the
    // table is made first, by a request whose connection is then closed).
    let server = ServerProcess::start_with(data.path(), &["--max-connections-per-ip", "3"]);
    let child = Command::new(parlor_bin())
        .args(["loadtest", "--url"])
        .arg(format!("ws://{}", server.addr))
        .args(["--tables", "1", "--seconds", "1", "--threads", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("running parlor loadtest");
    let pid = child.id();
    // Read on a thread, waited for with a bound: a run that waits forever fails the test
    // instead of hanging it.
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait_with_output());
    });
    let Ok(output) = finished.recv_timeout(std::time::Duration::from_secs(120)) else {
        let _ = Command::new("kill").arg(pid.to_string()).status();
        panic!("loadtest still waiting for a refused client after two minutes");
    };
    server.stop();
    let output = output.expect("loadtest ran");
    let (status, stderr) = (output.status, String::from_utf8_lossy(&output.stderr));
    assert!(!status.success(), "{stderr}");
    assert!(
        stderr.contains("before every client had joined"),
        "the error says why: {stderr}"
    );
}

/// `--marginal-memory` opens half the tables, lets them play, then opens the rest, and reports
/// the growth between the two per table added, beside the usual figure per table.
#[test]
fn marginal_memory_opens_half_the_tables_first_and_reports_the_growth_per_table_added() {
    let out = small_loadtest("loadtest-marginal", &["--marginal-memory"]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "loadtest failed: {stdout}\n{stderr}");
    assert!(
        stderr.contains("1 tables playing; the rest open in 1 s"),
        "the first half plays on its own first: {stderr}"
    );
    assert!(
        stdout.contains("tables: 2 clients: 8 failed: 0"),
        "every table of both halves plays: {stdout}"
    );
    assert!(number_after(&stdout, "moves/s: ") > 0.0, "{stdout}");
    if cfg!(target_os = "linux") {
        let line = stdout
            .lines()
            .find(|l| l.starts_with("server memory per table added:"))
            .unwrap_or_else(|| panic!("no marginal memory line in {stdout}"));
        assert!(line.contains("over the 1 added"), "{line}");
        assert!(number_after(line, "added: ") >= 0.0, "{line}");
        assert!(number_after(line, "resident, ") >= 0.0, "{line}");
    }
}

/// Runs `command` to its end, waiting at most `limit`: a run that hangs fails the test
/// instead of hanging it.
fn output_within(mut command: Command, limit: std::time::Duration) -> std::process::Output {
    let child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("running parlor loadtest");
    let pid = child.id();
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait_with_output());
    });
    let Ok(output) = finished.recv_timeout(limit) else {
        let _ = Command::new("kill").arg(pid.to_string()).status();
        panic!("loadtest still running after {} s", limit.as_secs());
    };
    output.expect("loadtest ran")
}

/// The cells of the table's rows that `--human` prints (not its header or rule).
fn human_rows(stdout: &str) -> Vec<Vec<String>> {
    stdout
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| tables"))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect()
}

/// `--human` opens tables of four people in growing steps, the earlier tables playing on, and
/// prints a row for each step: tables, connections, moves/s, p50 and p99, the server's memory
/// and CPU, the generator's CPU, the load average and the failed connections; then what a table
/// and a move cost, and why it stopped. A step whose p99 passes `--max-p99-ms` is the last.
#[test]
fn human_pace_opens_growing_steps_of_people_and_prints_a_row_for_each() {
    let data = TempDir::new("loadtest-human");
    let server = ServerProcess::start_with(
        data.path(),
        &[
            "--max-connections-per-ip",
            "0",
            "--tables-per-ip",
            "0",
            "--tables-per-ip-per-minute",
            "0",
        ],
    );
    let human = |flags: &[&str]| {
        let mut command = Command::new(parlor_bin());
        command
            .args(["loadtest", "--human", "--url"])
            .arg(format!("ws://{}", server.addr))
            // People quicker than the default one to three seconds, for a short test.
            .args([
                "--think-min-ms",
                "100",
                "--think-max-ms",
                "400",
                "--threads",
                "1",
            ])
            .args(["--settle-seconds", "1"])
            .args(flags);
        output_within(command, std::time::Duration::from_secs(120))
    };

    let out = human(&["--steps", "4,8", "--seconds", "3"]);
    let stdout = succeeded(&out);
    let header = stdout
        .lines()
        .find(|l| l.starts_with("| tables"))
        .unwrap_or_else(|| panic!("no table in {stdout}"));
    assert_eq!(
        header,
        "| tables | connections | moves/s | p50 ms | p99 ms | server RSS MB | server CPU % \
         | generator CPU % | load avg | failed |",
        "{stdout}"
    );
    let rows = human_rows(&stdout);
    assert_eq!(rows.len(), 2, "a row a step: {stdout}");
    for (row, tables) in rows.iter().zip([4.0, 8.0]) {
        assert_eq!(row.len(), 10, "{stdout}");
        let cell = |i: usize| -> f64 {
            row[i]
                .parse()
                .unwrap_or_else(|_| panic!("cell {i} of {row:?} is not a number: {stdout}"))
        };
        assert_eq!(cell(0), tables, "{stdout}");
        // Four people a table, all still connected (the server's own count).
        assert_eq!(cell(1), tables * 4.0, "{stdout}");
        assert!(cell(2) > 0.0, "moves were made: {stdout}");
        let (p50, p99) = (cell(3), cell(4));
        assert!(p50 > 0.0 && p99 >= p50, "latencies recorded: {stdout}");
        assert_eq!(cell(9), 0.0, "no connection failed: {stdout}");
        if cfg!(target_os = "linux") {
            assert!(cell(5) > 0.0, "the server's memory: {stdout}");
            assert!(cell(6) >= 0.0 && cell(7) >= 0.0, "CPU shares: {stdout}");
        }
    }
    if cfg!(target_os = "linux") {
        assert!(
            number_after(&stdout, "server CPU per move: ") > 0.0,
            "{stdout}"
        );
        assert!(
            number_after(&stdout, "server memory per table: ") >= 0.0,
            "{stdout}"
        );
        assert!(
            stdout.contains("server memory per table added: "),
            "{stdout}"
        );
    }
    assert_eq!(
        stdout.lines().last(),
        Some("stopped: every step ran, up to 8 tables"),
        "{stdout}"
    );

    // Any latency passes a limit of 0 ms: the first step is the last.
    let out = human(&["--steps", "2,4", "--seconds", "2", "--max-p99-ms", "0"]);
    let stdout = succeeded(&out);
    assert_eq!(human_rows(&stdout).len(), 1, "{stdout}");
    let last = stdout.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("stopped: p99 ") && last.ends_with(" ms passed 0 ms at 2 tables"),
        "{stdout}"
    );
    server.stop();

    // Steps must grow; `--human` does not go with the fast modes.
    for flags in [
        &["--human", "--steps", "8,4"][..],
        &["--human", "--strong-tables", "1"],
        &["--steps", "4,8"],
    ] {
        let out = Command::new(parlor_bin())
            .args(["loadtest", "--url", "ws://127.0.0.1:9"])
            .args(flags)
            .output()
            .expect("running parlor loadtest");
        assert!(!out.status.success(), "{flags:?} accepted");
    }
}
