//! `parlor loadtest --versus-relay` runs the same load against its bare relay and then against
//! a real server, and prints both runs and their ratio; `--human` loads it with tables of
//! people in growing steps and prints a row a step. Only that it runs and reports is checked:
//! no speed is asserted.

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

/// The number after `key` on each line that starts with `prefix`.
fn numbers_on(lines: &[&str], prefix: &str, key: &str) -> Vec<f64> {
    lines
        .iter()
        .filter(|l| l.starts_with(prefix))
        .map(|l| number_after(l, key))
        .collect()
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

#[test]
fn versus_relay_loads_the_relay_then_the_server_and_prints_the_ratio() {
    let out = small_loadtest("loadtest", &["--versus-relay"]);
    let stdout = succeeded(&out);
    let lines: Vec<&str> = stdout.lines().collect();
    let relay_at = lines
        .iter()
        .position(|l| l.starts_with("bare relay"))
        .unwrap_or_else(|| panic!("no relay run in {stdout}"));
    let parlor_at = lines
        .iter()
        .position(|l| l.starts_with("parlor ("))
        .unwrap_or_else(|| panic!("no parlor run in {stdout}"));
    assert!(relay_at < parlor_at, "the relay runs first: {stdout}");
    let moves = |from: usize, to: usize| {
        lines[from..to]
            .iter()
            .find(|l| l.starts_with("moves/s:"))
            .map(|l| number_after(l, "moves/s: "))
            .unwrap_or_else(|| panic!("no moves/s line in {stdout}"))
    };
    let relay = moves(relay_at, parlor_at);
    let parlor = moves(parlor_at, lines.len());
    assert!(relay > 0.0, "the relay made no moves: {stdout}");
    assert!(parlor > 0.0, "the server made no moves: {stdout}");
    // The server's memory is reported for the server only.
    assert!(
        !lines[relay_at..parlor_at]
            .iter()
            .any(|l| l.starts_with("server memory")),
        "{stdout}"
    );
    let versus = lines
        .iter()
        .find(|l| l.starts_with("versus relay: moves/s"))
        .unwrap_or_else(|| panic!("no versus line in {stdout}"));
    let ratio = number_after(versus, "ratio: ");
    assert!(
        (ratio - parlor / relay).abs() < 0.01 + 0.01 * ratio,
        "the ratio is parlor over relay: {stdout}"
    );
    if cfg!(target_os = "linux") {
        // Each run says what a move cost the server in CPU time, and the last line compares.
        // Each run's figure is split into user and system time, which add up to it.
        let cpu = |from: usize, to: usize| {
            let line = lines[from..to]
                .iter()
                .find(|l| l.starts_with("server CPU per move:"))
                .unwrap_or_else(|| panic!("no CPU line in {stdout}"));
            let total = number_after(line, "server CPU per move: ");
            let (user, system) = (number_after(line, "user "), number_after(line, "system "));
            assert!(user >= 0.0 && system >= 0.0, "{stdout}");
            assert!((user + system - total).abs() < 0.15, "{stdout}");
            total
        };
        let (relay_us, parlor_us) = (cpu(relay_at, parlor_at), cpu(parlor_at, lines.len()));
        assert!(relay_us >= 0.0 && parlor_us > 0.0, "{stdout}");
        let last = lines.last().expect("output");
        assert!(
            last.starts_with("versus relay: server CPU per move:"),
            "{stdout}"
        );
        // Both printed to a tenth.
        assert!(
            (number_after(last, "parlor ") - parlor_us).abs() < 0.06,
            "{stdout}"
        );
        assert!(
            (number_after(last, "relay ") - relay_us).abs() < 0.06,
            "{stdout}"
        );
    }
}

/// `--relay-linger-ms` runs the relay holding others' moves, as the server does; the load
/// still flows (every move waits on its own event, which is never held).
#[test]
fn a_lingering_relay_carries_the_load_and_says_so() {
    let out = small_loadtest(
        "loadtest-linger",
        &["--versus-relay", "--relay-linger-ms", "20"],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "loadtest failed: {stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    let relay_at = lines
        .iter()
        .position(|l| l.starts_with("bare relay") && l.contains("held up to 20 ms"))
        .unwrap_or_else(|| panic!("no lingering relay run in {stdout}"));
    let relay_moves = lines[relay_at..]
        .iter()
        .find(|l| l.starts_with("moves/s:"))
        .map(|l| number_after(l, "moves/s: "))
        .unwrap_or_else(|| panic!("no moves/s line in {stdout}"));
    assert!(relay_moves > 0.0, "the relay made no moves: {stdout}");
}

/// `--rounds` repeats the comparison, the server first in even rounds, and ends with the
/// medians and ranges of the rounds' ratios; it needs `--versus-relay` and at least one round.
/// With `--busy`, threads spin beside the whole run, and every window says the machine's load.
#[test]
fn rounds_alternate_which_goes_first_and_end_with_the_medians() {
    let out = small_loadtest(
        "loadtest-rounds",
        &["--versus-relay", "--rounds", "2", "--busy", "1"],
    );
    let stdout = succeeded(&out);
    let lines: Vec<&str> = stdout.lines().collect();
    let at = |prefix: &str, from: usize| {
        from + lines[from..]
            .iter()
            .position(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} after line {from} in {stdout}"))
    };
    let (first, second) = (at("round 1 of 2:", 0), at("round 2 of 2:", 0));
    assert!(at("bare relay", first) < at("parlor (", first), "{stdout}");
    assert!(
        at("parlor (", second) < at("bare relay", second),
        "{stdout}"
    );
    let ratios = numbers_on(&lines, "versus relay: moves/s ratio: ", "ratio: ");
    assert_eq!(ratios.len(), 2, "one comparison a round: {stdout}");
    let summary = lines[at("versus relay over 2 rounds: moves/s ratio:", second)];
    let (low, high) = (ratios[0].min(ratios[1]), ratios[0].max(ratios[1]));
    assert!(
        (number_after(summary, "median ") - (low + high) / 2.0).abs() < 0.011,
        "the median of two is their mean: {stdout}"
    );
    assert!(
        summary.contains(&format!("(range {low:.2}-{high:.2})")),
        "{stdout}"
    );
    assert!(
        stdout.contains("versus relay over 2 rounds: p99_ms: parlor median "),
        "{stdout}"
    );
    assert!(
        at("busy: threads spinning beside the load: 1", 0) < first,
        "{stdout}"
    );
    if cfg!(target_os = "linux") {
        let after = numbers_on(&lines, "machine load average: ", "before the window, ");
        assert_eq!(after.len(), 4, "one a window: {stdout}");
        let summary = lines[at(
            "versus relay over 2 rounds: machine load average after each window:",
            second,
        )];
        let low = after.iter().copied().fold(f64::INFINITY, f64::min);
        let high = after.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        assert!(
            summary.contains(&format!("(range {low:.2}-{high:.2})")),
            "{stdout}"
        );
    }

    for flags in [&["--rounds", "2"][..], &["--versus-relay", "--rounds", "0"]] {
        let out = Command::new(parlor_bin())
            .args(["loadtest", "--url", "ws://127.0.0.1:9"])
            .args(flags)
            .output()
            .expect("running parlor loadtest");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{flags:?} accepted");
        assert!(stderr.contains("--rounds"), "{flags:?}: {stderr}");
    }
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
        &["--human", "--versus-relay"],
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
