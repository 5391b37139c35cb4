//! Ratings over real HTTP: a finished match with built-in strategies moves their per-variant
//! ratings, `GET /api/leaderboard` ranks them with an uncertainty and their recent matches,
//! people are not rated, and after a restart the board is rebuilt the same from the stored
//! results.

mod support;

use parlor_tests::http;
use serde_json::{Value, json};
use support::{ServerProcess, TempDir};

/// A person and three built-in strategies play one short `tricks` match at a new table,
/// listed in the lobby or private.
async fn play_a_match(addr: std::net::SocketAddr, seed: u64, listed: bool) -> String {
    let body = json!({
        "variant": "tricks",
        "options": {"target": 3},
        "seed": seed,
        "table_options": {"listed": listed},
    });
    parlor_tests::play_with_computers(addr, &body, seed).await
}

async fn board(addr: std::net::SocketAddr, variant: &str) -> Value {
    let (status, board) = http(
        addr,
        "GET",
        &format!("/api/leaderboard?variant={variant}"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{board}");
    board
}

#[tokio::test]
async fn finished_matches_rate_the_built_in_strategies_and_survive_a_restart() {
    let dir = TempDir::new("ratings");
    let server = ServerProcess::start(dir.path());
    let first = play_a_match(server.addr, 1, true).await;
    let private = play_a_match(server.addr, 2, false).await;

    let tricks = board(server.addr, "tricks").await;
    let entries = tricks["entries"].as_array().unwrap();
    let mut names: Vec<&str> = entries
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(
        names,
        ["heuristic", "random", "strong"],
        "people are not rated: {tricks}"
    );
    for (i, entry) in entries.iter().enumerate() {
        assert_eq!(entry["rank"], i + 1);
        assert_eq!(entry["kind"], "builtin");
        assert_eq!(entry["matches"], 2);
        let (rating, sd) = (
            entry["rating"].as_f64().unwrap(),
            entry["uncertainty"].as_f64().unwrap(),
        );
        assert!(sd < 25.0 / 3.0, "two matches make it surer: {entry}");
        assert!((entry["interval"][0].as_f64().unwrap() - (rating - 1.96 * sd)).abs() < 1e-9);
        assert_eq!(entry["history"].as_array().unwrap().len(), 2);
        assert_eq!(entry["recent"][0]["table"], first.as_str());
        assert_eq!(entry["recent"][0]["of"], 4);
        // The private table's match counts, but names no table and links no replay.
        assert_eq!(entry["recent"][1]["of"], 4);
        assert!(entry["recent"][1].get("table").is_none(), "{entry}");
        assert!(entry["recent"][1].get("replays").is_none(), "{entry}");
        assert!(!entry.to_string().contains(&private), "{entry}");
    }
    let ratings: Vec<f64> = entries
        .iter()
        .map(|e| e["rating"].as_f64().unwrap())
        .collect();
    assert!(
        ratings.windows(2).all(|w| w[0] >= w[1]),
        "best first: {ratings:?}"
    );
    assert!(ratings[0] > ratings[2], "the ratings moved: {ratings:?}");
    // Another variant has nobody rated yet.
    assert_eq!(board(server.addr, "hearts").await["entries"], json!([]));

    let (status, one) = http(
        server.addr,
        "GET",
        "/api/leaderboard/builtin/strong?variant=tricks",
        None,
    )
    .await;
    assert_eq!(status, 200, "{one}");
    let replays = one["recent"][0]["replays"].as_str().unwrap();
    let (status, hands) = http(server.addr, "GET", &format!("/{replays}"), None).await;
    assert_eq!(status, 200, "the replay link works: {hands}");

    server.kill9();
    let server = ServerProcess::start(dir.path());
    assert_eq!(
        board(server.addr, "tricks").await,
        tricks,
        "rebuilt the same from the stored results"
    );
    server.stop();
}

#[tokio::test]
async fn the_leaderboard_says_what_is_wrong_with_a_request() {
    let server = parlor_tests::TestServer::start().await;
    let (status, body) = http(server.addr, "GET", "/api/leaderboard", None).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_request")));
    let (status, body) = http(server.addr, "GET", "/api/leaderboard?variant=poker", None).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("unknown_variant"))
    );
    let (status, body) = http(
        server.addr,
        "GET",
        "/api/leaderboard/builtin/nobody?variant=hearts",
        None,
    )
    .await;
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")));
}
