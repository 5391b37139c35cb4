//! The `/ws` handshake and the frames the server writes itself: a request that is not a
//! WebSocket handshake is refused with a reason, a client's ping is answered with its
//! payload, and frames of every length arrive whole.

use futures_util::{SinkExt, StreamExt};
use parlor_tests::{TestServer, http, http_raw};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{Bytes, Message};

/// Sends a raw request head to `/ws` and returns the response head.
async fn handshake(server: &TestServer, headers: &str) -> String {
    let mut stream = TcpStream::connect(server.addr).await.expect("connect");
    let request = format!("GET /ws HTTP/1.1\r\nHost: {}\r\n{headers}\r\n", server.addr);
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 4096 {
        if stream.read(&mut byte).await.expect("read") == 0 {
            break;
        }
        head.push(byte[0]);
    }
    String::from_utf8(head)
        .expect("utf-8 head")
        .to_ascii_lowercase()
}

#[tokio::test]
async fn a_request_that_is_not_a_handshake_is_refused_with_its_reason() {
    let server = TestServer::start().await;
    let (status, body) = http(server.addr, "GET", "/ws", None).await;
    assert_eq!(status, 400);
    assert_eq!(body["code"], "bad_request");
    let message = body["message"].as_str().expect("a message");
    assert!(message.contains("not a WebSocket handshake"), "{message}");
    assert!(message.contains("Connection"), "{message}");

    let key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    let upgrade = "Connection: Upgrade\r\nUpgrade: websocket\r\n";
    let head = handshake(
        &server,
        &format!("{upgrade}Sec-WebSocket-Version: 8\r\n{key}"),
    )
    .await;
    assert!(head.starts_with("http/1.1 400"), "{head}");
    let head = handshake(&server, &format!("{upgrade}Sec-WebSocket-Version: 13\r\n")).await;
    assert!(head.starts_with("http/1.1 400"), "{head}");

    // The RFC's own example key gets the RFC's answer.
    let head = handshake(
        &server,
        &format!("{upgrade}Sec-WebSocket-Version: 13\r\n{key}"),
    )
    .await;
    assert!(head.starts_with("http/1.1 101"), "{head}");
    assert!(
        head.contains("sec-websocket-accept: s3pplmbitxaq9kygzzhzrbk+xoo="),
        "{head}"
    );
    assert!(head.contains("upgrade: websocket"), "{head}");

    // A POST is not a handshake either.
    let (status, _, _) = http_raw(server.addr, "POST", "/ws", None).await;
    assert_eq!(status, 405);
    server.stop().await;
}

#[tokio::test]
async fn a_client_s_ping_is_answered_with_its_payload() {
    let server = TestServer::start().await;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", server.addr))
        .await
        .expect("connect");
    ws.send(Message::Ping(Bytes::from_static(b"are you there")))
        .await
        .expect("ping");
    // At once, not with the server's next frame: nothing else is coming to this client.
    let answer = tokio::time::timeout(std::time::Duration::from_secs(10), ws.next()).await;
    match answer {
        Ok(Some(Ok(Message::Pong(payload)))) => assert_eq!(&payload[..], b"are you there"),
        other => panic!("no pong: {other:?}"),
    }
    server.stop().await;
}

/// Chat lines are echoed to the table, so their length sets the frame's: under 126 bytes (a
/// 7-bit length) and over (a 16-bit length); two-byte characters check the payload is
/// written byte for byte.
#[tokio::test]
async fn frames_short_and_long_arrive_whole() {
    use parlor_shared::protocol::{ClientMsg, ServerMsg};
    let server = TestServer::start().await;
    let table = server
        .create_table(json!({"variant": "hearts", "options": {}}))
        .await;
    let mut client = server.client().await;
    assert!(client.join(&table, "talker").await);
    let said = ["a".to_string(), "é".repeat(60), "é".repeat(200)];
    for text in &said {
        client.send(&ClientMsg::Chat { text: text.clone() }).await;
        let msg = client
            .recv_until(|m| matches!(m, ServerMsg::Chat { .. } | ServerMsg::Error { .. }))
            .await;
        match msg {
            ServerMsg::Chat { text: echoed, .. } => assert_eq!(&echoed, text),
            other => panic!("{other:?}"),
        }
    }
    server.stop().await;
}
