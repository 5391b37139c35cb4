//! `parlor-bench` run as a developer runs it: `versus-relay` loads its bare relay and then a
//! real server (started here) and prints both runs and their ratio; `engine` plays hands and
//! prints their rate. Only that they run and report is checked: no speed is asserted.

use std::process::{Command, Output};

use parlor_tests::TestServer;

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

/// `parlor-bench` with `args`, run to its end.
fn bench(args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parlor-bench"))
        .args(args)
        .output()
        .expect("running parlor-bench")
}

/// Runs `versus-relay` with `flags` at two tables for a second against a fresh server, and
/// returns what it printed.
async fn small_versus(flags: &[&str]) -> Output {
    let server = TestServer::start().await;
    let mut args: Vec<String> = ["versus-relay", "--url"].map(String::from).to_vec();
    args.push(format!("ws://{}", server.addr));
    args.extend(["--tables", "2", "--seconds", "1", "--threads", "1"].map(String::from));
    args.extend(flags.iter().map(|f| f.to_string()));
    let out = tokio::task::spawn_blocking(move || bench(&args))
        .await
        .expect("the run's thread");
    server.stop().await;
    out
}

/// What a run that must have succeeded printed (its errors shown if it failed).
fn succeeded(out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "parlor-bench failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn versus_relay_loads_the_relay_then_the_server_and_prints_the_ratio() {
    let out = small_versus(&[]).await;
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
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lingering_relay_carries_the_load_and_says_so() {
    let out = small_versus(&["--relay-linger-ms", "20"]).await;
    let stdout = succeeded(&out);
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
/// medians and ranges of the rounds' ratios; it takes at least one round. With `--busy`,
/// threads spin beside the whole run, and every window says the machine's load.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rounds_alternate_which_goes_first_and_end_with_the_medians() {
    let out = small_versus(&["--rounds", "2", "--busy", "1"]).await;
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
}

/// No rounds, or people's pace, is refused before any load starts.
#[test]
fn zero_rounds_and_human_pace_are_refused() {
    for (flag, named) in [
        (&["--rounds", "0"][..], "--rounds"),
        (&["--human"], "--human"),
    ] {
        let mut args: Vec<String> = ["versus-relay", "--url", "ws://127.0.0.1:9"]
            .map(String::from)
            .to_vec();
        args.extend(flag.iter().map(|f| f.to_string()));
        let out = bench(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{flag:?} accepted");
        assert!(stderr.contains(named), "{flag:?}: {stderr}");
    }
}

/// `engine` plays the hands asked for and prints their rate, with what the build targets.
#[test]
fn engine_prints_the_hands_played_and_their_rate() {
    let args = [
        "engine",
        "--variant",
        "spades",
        "--hands",
        "40",
        "--seed",
        "3",
    ]
    .map(String::from);
    let stdout = succeeded(&bench(&args));
    assert!(stdout.contains("played 40 hands in "), "{stdout}");
    assert!(stdout.contains("built for: "), "{stdout}");
    let rate = stdout
        .lines()
        .find(|l| l.starts_with("spades: "))
        .map(|l| number_after(l, "spades: "))
        .unwrap_or_else(|| panic!("no rate line in {stdout}"));
    assert!(rate > 0.0, "{stdout}");
}
