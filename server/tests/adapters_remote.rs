//! The remote bot client (`parlor bot`) against the real server on a local port: it plays a
//! whole match, and it comes back with its seat token after the connection is cut.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use parlor_server::tools::remote_bot::{self, MoveSource, Target};
use parlor_server::{AppState, Config, serve};
use parlor_shared::Seat;
use parlor_shared::protocol::{ClientMsg, Occupant, ServerMsg};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

async fn start_server() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve(listener, AppState::new(Config::default())));
    addr
}

/// `POST /api/tables` with `body`; returns the new table's id.
async fn create_table(addr: SocketAddr, body: &Value) -> String {
    let body = body.to_string();
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "POST /api/tables HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut reply = String::new();
    tcp.read_to_string(&mut reply).await.unwrap();
    let json_start = reply.find("\r\n\r\n").unwrap() + 4;
    let value: Value = serde_json::from_str(&reply[json_start..]).unwrap();
    value["id"].as_str().unwrap().to_string()
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn frame(m: &ClientMsg) -> Message {
    Message::text(serde_json::to_string(m).unwrap())
}

/// Hosts the table from seat 0 (joining first, so it is the host) and adds built-in bots to
/// seats 2 and 3; seat 1 is left for the remote bot.
async fn host(addr: SocketAddr, table: &str) -> Ws {
    let (mut ws, _) = connect_async(format!("ws://{addr}/ws")).await.unwrap();
    let join = ClientMsg::Join {
        table: table.to_string(),
        seat: Some(Seat(0)),
        name: Some("Ann".into()),
        token: None,
        bot: false,
    };
    ws.send(frame(&join)).await.unwrap();
    while let Some(Ok(Message::Text(text))) = ws.next().await {
        if let Ok(ServerMsg::Welcome { .. }) = serde_json::from_str(&text) {
            break;
        }
    }
    for (seat, strategy) in [(2, "heuristic"), (3, "random")] {
        let add = ClientMsg::AddBot {
            seat: Seat(seat),
            strategy: strategy.into(),
        };
        ws.send(frame(&add)).await.unwrap();
    }
    ws
}

/// Once every seat is taken, starts the match and leaves for good (a built-in bot keeps
/// seat 0).
async fn start_and_leave(mut ws: Ws) {
    while let Some(Ok(msg)) = ws.next().await {
        let Message::Text(text) = msg else { continue };
        if let Ok(ServerMsg::Table { table, .. }) = serde_json::from_str(&text)
            && table.seats.iter().all(|s| s.occupant != Occupant::Empty)
        {
            break;
        }
    }
    ws.send(frame(&ClientMsg::Start {})).await.unwrap();
    ws.send(frame(&ClientMsg::Leave {})).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
}

fn table_body() -> Value {
    json!({
        "variant": "whist",
        "options": {"target": 2},
        "table_options": {"bot_timeout_ms": 10000}
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_bot_plays_a_whole_match() {
    let addr = start_server().await;
    let table = create_table(addr, &table_body()).await;
    let hosting = host(addr, &table).await;
    let target = Target {
        url: format!("ws://{addr}"),
        table: table.clone(),
        seat: Some(Seat(1)),
        name: "remote".into(),
        invitation: None,
    };
    let bot = tokio::spawn(async move {
        remote_bot::play(&target, MoveSource::Strategy("heuristic".into(), 1), 0).await
    });
    start_and_leave(hosting).await;
    let outcome = tokio::time::timeout(Duration::from_secs(60), bot)
        .await
        .expect("the match ends")
        .unwrap()
        .unwrap();
    assert_eq!(outcome.seat, Seat(1));
    assert!(
        outcome.moves >= 13,
        "at least one hand's cards: {}",
        outcome.moves
    );
    assert!(!outcome.winners.is_empty());
    assert_eq!(outcome.reconnects, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exec_program_plays_through_the_remote_client() {
    let addr = start_server().await;
    let table = create_table(addr, &table_body()).await;
    let hosting = host(addr, &table).await;
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/bots/line_client.py")
        .to_string_lossy()
        .into_owned();
    let target = Target {
        url: format!("ws://{addr}"),
        table: table.clone(),
        seat: Some(Seat(1)),
        name: "remote-exec".into(),
        invitation: None,
    };
    let spec = MoveSource::Exec(vec!["python3".into(), script], Duration::from_secs(5));
    let bot = tokio::spawn(async move { remote_bot::play(&target, spec, 0).await });
    start_and_leave(hosting).await;
    let outcome = tokio::time::timeout(Duration::from_secs(60), bot)
        .await
        .expect("the match ends")
        .unwrap()
        .unwrap();
    assert!(outcome.moves >= 13);
}

/// A TCP proxy that cuts its first connection after `cut_after` bytes from the server.
async fn flaky_proxy(upstream: SocketAddr, cut_after: usize) -> (SocketAddr, Arc<AtomicBool>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let cut = Arc::new(AtomicBool::new(false));
    let was_cut = cut.clone();
    tokio::spawn(async move {
        let mut first = true;
        while let Ok((client, _)) = listener.accept().await {
            let server = TcpStream::connect(upstream).await.unwrap();
            let limit = if first { Some(cut_after) } else { None };
            first = false;
            let was_cut = was_cut.clone();
            tokio::spawn(async move {
                let (mut cr, mut cw) = client.into_split();
                let (mut sr, mut sw) = server.into_split();
                let up = tokio::spawn(async move {
                    let _ = tokio::io::copy(&mut cr, &mut sw).await;
                });
                let mut seen = 0;
                let mut buf = vec![0u8; 4096];
                while let Ok(n) = sr.read(&mut buf).await {
                    if n == 0 {
                        break;
                    }
                    if cw.write_all(&buf[..n]).await.is_err() {
                        break;
                    }
                    seen += n;
                    if limit.is_some_and(|l| seen >= l) {
                        was_cut.store(true, Ordering::SeqCst);
                        break;
                    }
                }
                up.abort();
            });
        }
    });
    (addr, cut)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_connection_is_resumed_with_the_seat_token() {
    let addr = start_server().await;
    let body = json!({
        "variant": "whist",
        "options": {"target": 2},
        // Long grace: the seat waits for its owner to come back.
        "table_options": {"bot_timeout_ms": 10000, "grace_ms": 60000}
    });
    let table = create_table(addr, &body).await;
    let hosting = host(addr, &table).await;
    let (proxy, cut) = flaky_proxy(addr, 6000).await;
    let target = Target {
        url: format!("ws://{proxy}"),
        table: table.clone(),
        seat: Some(Seat(1)),
        name: "flaky".into(),
        invitation: None,
    };
    let bot = tokio::spawn(async move {
        remote_bot::play(&target, MoveSource::Strategy("heuristic".into(), 1), 5).await
    });
    start_and_leave(hosting).await;
    let outcome = tokio::time::timeout(Duration::from_secs(60), bot)
        .await
        .expect("the match ends")
        .unwrap()
        .unwrap();
    assert!(
        cut.load(Ordering::SeqCst),
        "the proxy cut the first connection"
    );
    assert!(outcome.reconnects >= 1);
    assert_eq!(outcome.seat, Seat(1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_example_bot_plays_a_whole_match() {
    let has_websockets = std::process::Command::new("python3")
        .args(["-c", "import websockets"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_websockets {
        // tests/run.sh puts a venv with websockets on PATH; only a bare `cargo test` skips.
        assert!(
            std::env::var_os("CI").is_none(),
            "python3 with the websockets package is needed for this test"
        );
        eprintln!("SKIPPED: python3 with the websockets package is needed for this test");
        return;
    }
    let addr = start_server().await;
    let table = create_table(addr, &table_body()).await;
    let hosting = host(addr, &table).await;
    let example = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/python/bot.py");
    let child = tokio::process::Command::new("python3")
        .arg(example)
        .arg(format!("ws://{addr}/ws"))
        .arg(&table)
        .arg("1")
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    start_and_leave(hosting).await;
    let output = tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .expect("the match ends")
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    assert!(stdout.contains("seated at 1"), "{stdout}");
    assert!(stdout.contains("match over"), "{stdout}");
}
