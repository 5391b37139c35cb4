//! `parlor arena` end to end: the JSON report's figures, bots named on the command line
//! (built-in and `exec:`), and results that do not depend on the number of threads.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn arena(args: &[&str]) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .arg("arena")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The report without its timings.
fn figures(report: &Value) -> Value {
    let mut r = report.clone();
    for key in ["seconds", "hands_per_second", "threads", "ms_per_move"] {
        r.as_object_mut().unwrap().remove(key);
    }
    r
}

#[test]
fn the_report_counts_every_seat_and_hand() {
    let r = arena(&[
        "--variant",
        "hearts",
        "--bots",
        "heuristic,random,random,random",
        "--games",
        "6",
        "--seed",
        "3",
    ]);
    // Rounded up to whole rotations: 8 matches.
    assert_eq!(r["games"], 8);
    let bots = r["bots"].as_array().unwrap();
    assert_eq!(bots.len(), 2);
    assert_eq!(bots[0]["bot"], "heuristic");
    assert_eq!(bots[0]["seat_matches"], 8);
    assert_eq!(bots[1]["seat_matches"], 24);
    let hands = r["hands"].as_u64().unwrap();
    assert_eq!(bots[0]["hands"].as_u64().unwrap(), hands);
    assert_eq!(bots[1]["hands"].as_u64().unwrap(), 3 * hands);
    let p = &bots[0]["points_per_hand"];
    assert!(p["low"].as_f64().unwrap() <= p["mean"].as_f64().unwrap());
    assert!(p["mean"].as_f64().unwrap() <= p["high"].as_f64().unwrap());
    assert_eq!(r["lower_is_better"], true);
    // Two distinct bots: the ratio of their points per hand, and the heuristic's time per
    // move (random takes a fast path without a view and is not timed).
    let mean = |b: &Value| b["points_per_hand"]["mean"].as_f64().unwrap();
    let ratio = r["points_ratio"].as_f64().unwrap();
    assert!((ratio - mean(&bots[0]) / mean(&bots[1])).abs() < 1e-9);
    assert!(r["ms_per_move"]["heuristic"].as_f64().unwrap() > 0.0);
    assert!(r["ms_per_move"]["random"].is_null());
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let args = [
        "--variant",
        "whist",
        "--bots",
        "heuristic,random,strong:8,random",
        "--games",
        "8",
    ];
    let one = arena(&[&args[..], &["--threads", "1"]].concat());
    let two = arena(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(figures(&one), figures(&two));
}

#[test]
fn exec_bots_play_in_the_arena() {
    let client =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/bots/line_client.py");
    let spec = format!("exec:python3 {}", client.display());
    let bots = format!("{spec},heuristic,heuristic,heuristic");
    let r = arena(&[
        "--variant",
        "tricks",
        "--bots",
        &bots,
        "--games",
        "4",
        "--target",
        "40",
    ]);
    let rows = r["bots"].as_array().unwrap();
    assert_eq!(rows[0]["bot"], spec.as_str());
    assert_eq!(rows[0]["seat_matches"], 4);
    assert_eq!(rows[0]["fallbacks"], 0);
}

#[test]
fn script_bots_play_in_the_arena_and_their_fallbacks_are_counted() {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/bots/heartless_script.py");
    let good = format!("script:{}", script.display());
    let bots = format!("{good},heuristic,script:/bin/false,heuristic");
    let r = arena(&[
        "--variant",
        "hearts",
        "--bots",
        &bots,
        "--games",
        "4",
        "--target",
        "20",
    ]);
    let rows = r["bots"].as_array().unwrap();
    let row = |name: &str| rows.iter().find(|b| b["bot"] == name).unwrap().clone();
    let hands = r["hands"].as_u64().unwrap();
    // Every decision of the failing script fell back: at least 13 per hand.
    assert!(row("script:/bin/false")["fallbacks"].as_u64().unwrap() >= 13 * hands);
    assert!(row(&good)["fallbacks"].as_u64().unwrap() < 13 * hands);
}

#[test]
fn unknown_bots_and_wrong_seat_counts_are_refused() {
    for bots in [
        "heuristic,random,random",
        "heuristic,random,random,nonsense",
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_parlor"))
            .args([
                "arena",
                "--variant",
                "hearts",
                "--bots",
                bots,
                "--games",
                "4",
            ])
            .output()
            .unwrap();
        assert!(!output.status.success(), "{bots}");
    }
}
