//! `/healthz` follows whether the table log can write, and says why not; `/livez` answers
//! all the same; `/readyz` is separate; `--log-format
//! json` writes one JSON object a line, with a line per HTTP request.

mod support;

use parlor_tests::http_raw;
use support::{ServerProcess, TempDir};

#[tokio::test]
async fn healthz_is_unhealthy_while_the_data_directory_cannot_be_written() {
    let dir = TempDir::new("health");
    let data = dir.path().join("data");
    let server = ServerProcess::start(&data);
    let get = |path: &'static str| http_raw(server.addr, "GET", path, None);
    assert_eq!(get("/healthz").await.0, 200);
    assert_eq!(get("/readyz").await.0, 200);
    assert_eq!(get("/livez").await.0, 200);

    // The data directory taken away and a file in its place: nothing can be written there,
    // whoever the tests run as (root ignores permission bits), and SQLite sees its
    // database moved.
    let aside = dir.path().join("aside");
    std::fs::rename(&data, &aside).unwrap();
    std::fs::write(&data, "not a directory").unwrap();
    let (status, _, body) = get("/healthz").await;
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("cannot write"), "{body}");
    assert_eq!(get("/readyz").await.0, 200, "readiness is separate");
    // Alive all the same: a restart would not give the disk room, and would cut every game.
    let (status, _, body) = get("/livez").await;
    assert_eq!((status, body.as_str()), (200, "alive"));

    // Put back: healthy again.
    std::fs::remove_file(&data).unwrap();
    std::fs::rename(&aside, &data).unwrap();
    let (status, _, body) = get("/healthz").await;
    assert_eq!(status, 200, "{body}");
    server.stop();
}

#[tokio::test]
async fn json_logs_have_a_line_per_request() {
    let dir = TempDir::new("json-log");
    let server = ServerProcess::start_with(dir.path(), &["--log-format", "json"]);
    let (status, _, _) = http_raw(server.addr, "GET", "/api/tables", None).await;
    assert_eq!(status, 200);
    // The line is written before the answer goes out; the pipe may deliver it a moment later.
    for _ in 0..200 {
        if server.log().contains("/api/tables") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let log = server.log();
    server.stop();
    let lines: Vec<serde_json::Value> = log
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|_| panic!("not JSON: {line}")))
        .collect();
    let request = lines
        .iter()
        .find(|l| {
            l["message"] == "finished processing request" && l["span"]["uri"] == "/api/tables"
        })
        .unwrap_or_else(|| panic!("no request line in:\n{log}"));
    assert_eq!(request["status"], 200);
    assert_eq!(request["span"]["method"], "GET");
}
