//! Limits that keep one client from holding the server: header and WebSocket timeouts,
//! connection caps (per address and server-wide, with `/healthz` still answering), table
//! creation per address, and tables nobody ever sat at expiring instead of coming back. All
//! against the real `parlor serve`, with short limits set by its flags; other loopback
//! addresses (127.0.0.2) stand for other clients.

mod support;

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use parlor_tests::{WsClient, http};
use serde_json::{Value, json};
use support::{ServerProcess, TempDir};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// What `/healthz` answers when all is well.
const HEALTHY: &str = concat!("ok\nversion ", env!("CARGO_PKG_VERSION"), "\n");

/// A TCP connection to `addr` from the loopback address `from`.
async fn connect_from(from: [u8; 4], addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("socket");
    socket
        .bind(SocketAddr::from((from, 0)))
        .expect("bind a loopback address");
    socket.connect(addr).await.expect("connect")
}

/// One HTTP request from the loopback address `from`, with extra header lines; returns the
/// status, the head (lowercased) and the body as JSON.
async fn request_from(
    from: [u8; 4],
    addr: SocketAddr,
    method: &str,
    path: &str,
    extra: &str,
    body: Option<&Value>,
) -> (u16, String, Value) {
    let mut stream = connect_from(from, addr).await;
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{extra}\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.expect("read");
    let response = String::from_utf8(response).expect("utf-8");
    let (head, body) = response.split_once("\r\n\r\n").expect("a response head");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    let body = serde_json::from_str(body).unwrap_or(Value::String(body.to_string()));
    (status, head.to_ascii_lowercase(), body)
}

/// A WebSocket to `/ws` from the loopback address `from`, or the HTTP status it was refused
/// with.
async fn ws_from(
    from: [u8; 4],
    addr: SocketAddr,
) -> Result<tokio_tungstenite::WebSocketStream<TcpStream>, u16> {
    let tcp = connect_from(from, addr).await;
    match tokio_tungstenite::client_async(format!("ws://{addr}/ws"), tcp).await {
        Ok((ws, _)) => Ok(ws),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            Err(response.status().as_u16())
        }
        Err(err) => panic!("websocket handshake: {err}"),
    }
}

/// Reads until the server closes the socket; returns its close frame's code and reason (a
/// generous ceiling: a connection never closed fails the test, however slow the machine).
async fn closed_with(ws: &mut tokio_tungstenite::WebSocketStream<TcpStream>) -> (u16, String) {
    let read = async {
        while let Some(frame) = ws.next().await {
            match frame {
                Ok(Message::Close(Some(close))) => {
                    return (u16::from(close.code), close.reason.to_string());
                }
                Ok(Message::Close(None)) => return (1005, String::new()),
                Ok(_) => {}
                Err(err) => panic!("the socket failed before a close frame: {err}"),
            }
        }
        panic!("the socket ended without a close frame");
    };
    tokio::time::timeout(Duration::from_secs(120), read)
        .await
        .expect("the server never closed the connection")
}

#[tokio::test]
async fn clients_trickling_headers_are_closed() {
    let dir = TempDir::new("slowloris");
    let server = ServerProcess::start_with(
        dir.path(),
        &[
            "--header-timeout-secs",
            "1",
            "--max-connections-per-ip",
            "0",
        ],
    );
    let mut clients = Vec::new();
    for _ in 0..100 {
        let mut tcp = TcpStream::connect(server.addr).await.expect("connect");
        tcp.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
            .await
            .expect("write");
        clients.push(tcp);
    }
    // Each client sends one more header byte every 100 ms and never finishes its headers;
    // the server must close every one of them (bounded: 600 rounds, a minute).
    let mut open: Vec<TcpStream> = clients;
    for _ in 0..600 {
        let mut still = Vec::new();
        for mut tcp in open {
            let mut byte = [0u8; 512];
            let closed = match tcp.try_read(&mut byte) {
                Ok(0) => true,
                Ok(_) => true, // an answer (408/400) before closing counts as closed
                Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => {
                    tcp.write_all(b"X").await.is_err()
                }
                Err(_) => true,
            };
            if !closed {
                still.push(tcp);
            }
        }
        open = still;
        if open.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        open.is_empty(),
        "{} connections trickling headers are still open",
        open.len()
    );
    let (status, body) = http(server.addr, "GET", "/healthz", None).await;
    assert_eq!((status, body), (200, HEALTHY.into()));
    server.stop();
}

#[tokio::test]
async fn a_websocket_that_never_joins_or_falls_silent_is_closed_with_a_reason() {
    let dir = TempDir::new("silent-ws");
    let server =
        ServerProcess::start_with(dir.path(), &["--ws-join-secs", "1", "--ws-idle-secs", "3"]);
    // Connected, never a word.
    let mut silent = ws_from([127, 0, 0, 1], server.addr).await.expect("upgrade");
    let (code, reason) = closed_with(&mut silent).await;
    assert_eq!(code, u16::from(CloseCode::Policy), "{reason}");
    assert!(reason.contains("join"), "{reason}");

    // At a table, reading (so answering the server's pings) but never sending: kept open
    // over several idle periods.
    let (_, created) = http(
        server.addr,
        "POST",
        "/api/tables",
        Some(&json!({"variant": "hearts"})),
    )
    .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let mut quiet = WsClient::connect(server.addr).await;
    quiet.join(&id, "Quiet").await;
    let mut seated = ws_from([127, 0, 0, 1], server.addr).await.expect("upgrade");
    seated
        .send(Message::text(
            json!({"type": "watch", "table": id}).to_string(),
        ))
        .await
        .expect("send watch");
    let kept = tokio::time::timeout(Duration::from_secs(8), async {
        while let Some(frame) = seated.next().await {
            if matches!(frame, Ok(Message::Close(_)) | Err(_)) {
                return false;
            }
        }
        false
    })
    .await;
    assert!(kept.is_err(), "a live, reading watcher stays connected");

    // One that stops reading answers no ping: it is closed as silent. (Its close frame may
    // be lost to the client, whose pending pongs then meet a closed socket: the server's log
    // says why.)
    tokio::time::sleep(Duration::from_secs(8)).await;
    let ended = tokio::time::timeout(Duration::from_secs(120), async {
        while let Some(frame) = seated.next().await {
            match frame {
                Ok(Message::Close(close)) => return close.map(|c| c.reason.to_string()),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
        None
    })
    .await
    .expect("the silent connection was never closed");
    if let Some(reason) = ended {
        assert!(reason.contains("nothing received"), "{reason}");
    }
    let log = server.log();
    assert!(
        log.contains("websocket closed: nothing received for 3 s"),
        "{log}"
    );
    server.stop();
}

#[tokio::test]
async fn one_address_flooding_table_creation_is_refused_while_another_still_creates() {
    let dir = TempDir::new("creation-flood");
    let server = ServerProcess::start_with(
        dir.path(),
        &["--tables-per-ip-per-minute", "5", "--tables-per-ip", "100"],
    );
    let body = json!({"variant": "hearts"});
    let me = [127, 0, 0, 1];
    for i in 0..5 {
        let (status, _, reply) =
            request_from(me, server.addr, "POST", "/api/tables", "", Some(&body)).await;
        assert_eq!(status, 201, "table {i}: {reply}");
    }
    let (status, head, reply) =
        request_from(me, server.addr, "POST", "/api/tables", "", Some(&body)).await;
    assert_eq!(status, 429, "{reply}");
    assert_eq!(reply["code"], "too_many_requests");
    assert!(head.contains("retry-after:"), "{head}");
    let (status, _, reply) = request_from(
        [127, 0, 0, 2],
        server.addr,
        "POST",
        "/api/tables",
        "",
        Some(&body),
    )
    .await;
    assert_eq!(status, 201, "another address is not held back: {reply}");
    // Without a trusted proxy, a client's own X-Forwarded-For changes nothing.
    let (status, _, _) = request_from(
        me,
        server.addr,
        "POST",
        "/api/tables",
        "X-Forwarded-For: 198.51.100.9\r\n",
        Some(&body),
    )
    .await;
    assert_eq!(status, 429);
    server.stop();

    // A cap on open tables per address, and behind a trusted proxy each client counts apart.
    let server = ServerProcess::start_with(dir.path(), &["--tables-per-ip", "2", "--trust-proxy"]);
    let from = |client: &str| format!("X-Forwarded-For: {client}\r\n");
    for _ in 0..2 {
        let (status, _, reply) = request_from(
            me,
            server.addr,
            "POST",
            "/api/tables",
            &from("198.51.100.1"),
            Some(&body),
        )
        .await;
        assert_eq!(status, 201, "{reply}");
    }
    let (status, _, reply) = request_from(
        me,
        server.addr,
        "POST",
        "/api/tables",
        &from("198.51.100.1"),
        Some(&body),
    )
    .await;
    assert_eq!(status, 429, "{reply}");
    assert!(
        reply["message"]
            .as_str()
            .unwrap_or("")
            .contains("open tables"),
        "{reply}"
    );
    let (status, _, reply) = request_from(
        me,
        server.addr,
        "POST",
        "/api/tables",
        &from("198.51.100.2"),
        Some(&body),
    )
    .await;
    assert_eq!(status, 201, "another client behind the proxy: {reply}");
    server.stop();
}

#[tokio::test]
async fn connections_are_capped_per_address_and_server_wide_and_healthz_still_answers() {
    let dir = TempDir::new("conn-caps");
    let server = ServerProcess::start_with(dir.path(), &["--max-connections-per-ip", "4"]);
    let me = [127, 0, 0, 1];
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(ws_from(me, server.addr).await.expect("under the cap"));
    }
    assert_eq!(ws_from(me, server.addr).await.err(), Some(429));
    let (status, _, reply) = request_from(me, server.addr, "GET", "/api/tables", "", None).await;
    assert_eq!(status, 429, "{reply}");
    assert_eq!(reply["code"], "too_many_connections");
    let (status, _, reply) = request_from(me, server.addr, "GET", "/healthz", "", None).await;
    assert_eq!(
        (status, reply),
        (200, HEALTHY.into()),
        "health checks still answer"
    );
    let (status, _, reply) = request_from(me, server.addr, "GET", "/livez", "", None).await;
    assert_eq!(
        (status, reply),
        (200, "alive".into()),
        "so do liveness checks"
    );
    assert!(
        ws_from([127, 0, 0, 2], server.addr).await.is_ok(),
        "another address"
    );
    // A connection closed gives its place back (bounded retries: the close is asynchronous).
    let mut first = held.remove(0);
    first.close(None).await.expect("close");
    drop(first);
    let mut back = false;
    for _ in 0..200 {
        if ws_from(me, server.addr).await.is_ok() {
            back = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(back, "a place given back is taken again");
    drop(held);
    server.stop();

    let server = ServerProcess::start_with(
        dir.path(),
        &["--max-connections", "3", "--max-connections-per-ip", "0"],
    );
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(ws_from(me, server.addr).await.expect("under the cap"));
    }
    let (status, _, reply) = request_from(me, server.addr, "GET", "/api/tables", "", None).await;
    assert_eq!(status, 503, "{reply}");
    assert_eq!(reply["code"], "server_full");
    let (status, _, reply) = request_from(me, server.addr, "GET", "/healthz", "", None).await;
    assert_eq!((status, reply), (200, HEALTHY.into()));
    let (status, _, reply) = request_from(me, server.addr, "GET", "/livez", "", None).await;
    assert_eq!((status, reply), (200, "alive".into()));
    drop(held);
    server.stop();
}

#[tokio::test]
async fn tables_nobody_sat_at_expire_and_are_not_restored() {
    let dir = TempDir::new("unsat");
    let server = ServerProcess::start(dir.path());
    let create = |addr| async move {
        let (status, reply) = http(
            addr,
            "POST",
            "/api/tables",
            Some(&json!({"variant": "hearts"})),
        )
        .await;
        assert_eq!(status, 201, "{reply}");
        reply["id"].as_str().expect("an id").to_string()
    };
    let empty = create(server.addr).await;
    let sat = create(server.addr).await;
    let mut ann = WsClient::connect(server.addr).await;
    ann.join(&sat, "Ann").await;
    ann.close().await;
    server.stop();

    let server = ServerProcess::start(dir.path());
    let (status, _) = http(server.addr, "GET", &format!("/api/tables/{empty}"), None).await;
    assert_eq!(status, 404, "a table nobody sat at is not restored");
    let (status, _) = http(server.addr, "GET", &format!("/api/tables/{sat}"), None).await;
    assert_eq!(status, 200, "one someone sat at is:\n{}", server.log());
    server.stop();
    let rows = |id: &str| -> i64 {
        let db = rusqlite::Connection::open(dir.path().join("parlor.db")).expect("open");
        db.query_row("SELECT count(*) FROM tables WHERE id = ?1", [id], |row| {
            row.get(0)
        })
        .expect("count")
    };
    assert_eq!(rows(&empty), 0, "and its rows are gone");
    assert_eq!(rows(&sat), 1);

    // While the server runs, an empty table closes after its short idle time and is deleted.
    let server = ServerProcess::start_with(dir.path(), &["--unsat-table-secs", "1"]);
    let idle = create(server.addr).await;
    let mut gone = false;
    for _ in 0..600 {
        let (status, _) = http(server.addr, "GET", &format!("/api/tables/{idle}"), None).await;
        if status == 404 {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(gone, "the empty table expired");
    server.stop();
    assert_eq!(rows(&idle), 0, "and was deleted from the store");
}
