//! The closing handshake: a client's close frame is answered with a close frame, so a client
//! sees a clean close rather than a dropped connection.

use futures_util::{SinkExt, StreamExt};
use parlor_tests::TestServer;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// Connects, optionally joins a table, sends a close frame and returns the close frame the
/// server answered with (`None` if the connection ended without one).
async fn close_and_read_the_answer(server: &TestServer, join: Option<&str>) -> Option<CloseFrame> {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", server.addr))
        .await
        .expect("connect");
    if let Some(table) = join {
        let msg = json!({"type": "join", "table": table, "name": "closer"});
        ws.send(Message::text(msg.to_string())).await.expect("send");
        // Read up to the welcome, so the close arrives at a seated connection.
        for _ in 0..10 {
            match ws.next().await {
                Some(Ok(Message::Text(text))) if text.contains("\"welcome\"") => break,
                Some(Ok(_)) => {}
                other => panic!("the connection ended early: {other:?}"),
            }
        }
    }
    ws.send(Message::Close(Some(CloseFrame {
        code: CloseCode::Normal,
        reason: "done".into(),
    })))
    .await
    .expect("send the close frame");
    // Frames already on their way may come first; the answer ends the stream.
    for _ in 0..100 {
        match ws.next().await {
            Some(Ok(Message::Close(frame))) => return frame,
            Some(Ok(_)) => {}
            Some(Err(_)) | None => return None,
        }
    }
    panic!("no end to the stream after 100 frames");
}

#[tokio::test]
async fn a_close_frame_is_answered_with_a_close_frame() {
    let server = TestServer::start().await;
    let frame = close_and_read_the_answer(&server, None).await;
    assert_eq!(
        frame.map(|f| f.code),
        Some(CloseCode::Normal),
        "before joining"
    );
    let id = server
        .create_table(json!({"variant": "hearts", "options": {}}))
        .await;
    let frame = close_and_read_the_answer(&server, Some(&id)).await;
    assert_eq!(frame.map(|f| f.code), Some(CloseCode::Normal), "at a table");
}
