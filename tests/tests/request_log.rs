//! The request log: a line per HTTP request with its path, and never a query's values, so a
//! key a client wrongly sends in the URL stays out of the log.

mod support;

use parlor_tests::http_raw;
use support::{ServerProcess, TempDir};

#[tokio::test]
async fn the_request_log_keeps_the_path_but_not_the_query_values() {
    let dir = TempDir::new("query-log");
    let server = ServerProcess::start(dir.path());
    let path = "/api/tables?key=supersecret123&listed=1&barepassword456";
    let (status, _, _) = http_raw(server.addr, "GET", path, None).await;
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
    assert!(
        log.contains("/api/tables?key=<redacted>&listed=<redacted>&<redacted>"),
        "{log}"
    );
    assert!(!log.contains("supersecret123"), "{log}");
    assert!(!log.contains("barepassword456"), "{log}");
}
