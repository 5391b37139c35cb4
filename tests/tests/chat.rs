//! Table talk over real WebSockets: a line and a reaction reach every other player and the
//! spectators with the speaker's name, markup arrives as plain text, spectators may only read
//! unless the table allows them, long and fast lines are refused (reconnecting buys no more),
//! hidden characters are taken out, and someone (re)joining gets the recent lines after the
//! snapshot, also after the server was killed and restarted.

mod support;

use parlor_shared::Seat;
use parlor_shared::protocol::{ClientMsg, MAX_CHAT_CHARS, ServerMsg};
use parlor_tests::{TestServer, WsClient, http, seat_players};
use serde_json::json;
use support::{ServerProcess, TempDir};

/// Says `text` from `client`.
async fn say(client: &mut WsClient, text: &str) {
    client
        .send(&ClientMsg::Chat {
            text: text.to_string(),
        })
        .await;
}

/// The next chat line `client` hears, as `(seat, name, text)`.
async fn heard(client: &mut WsClient) -> (Option<Seat>, String, String) {
    match client
        .recv_until(|m| matches!(m, ServerMsg::Chat { .. }))
        .await
    {
        ServerMsg::Chat {
            seat, name, text, ..
        } => (seat, name, text),
        _ => unreachable!(),
    }
}

/// A spectator at `table`, after its `welcome`.
async fn watcher(server: &TestServer, table: &str) -> WsClient {
    let mut client = server.client().await;
    client
        .send(&ClientMsg::Watch {
            table: table.to_string(),
        })
        .await;
    client
        .recv_until(|m| matches!(m, ServerMsg::Welcome { .. }))
        .await;
    client
}

#[tokio::test]
async fn a_line_and_a_reaction_reach_every_player_and_spectator_as_text() {
    let server = TestServer::start().await;
    let id = server.create_table(json!({"variant": "hearts"})).await;
    let mut clients = seat_players(&server, &id, 3).await;
    let mut spectator = watcher(&server, &id).await;

    say(&mut clients[1], "  <script>alert(1)</script> <b>hi</b>  ").await;
    say(&mut clients[2], "👍").await;
    let line = (
        Some(Seat(1)),
        "p1".to_string(),
        "<script>alert(1)</script> <b>hi</b>".to_string(),
    );
    let reaction = (Some(Seat(2)), "p2".to_string(), "👍".to_string());
    for client in clients.iter_mut().chain([&mut spectator]) {
        assert_eq!(heard(client).await, line);
        assert_eq!(heard(client).await, reaction);
    }
    // The wire carries the line as a JSON string, never turned into markup.
    let frame = spectator
        .frames
        .iter()
        .find(|f| f.contains("alert(1)"))
        .expect("the line's frame");
    let value: serde_json::Value = serde_json::from_str(frame).unwrap();
    assert_eq!(value["type"], "chat");
    assert_eq!(value["text"], "<script>alert(1)</script> <b>hi</b>");
    assert!(value["at"].as_u64().unwrap() > 0);
}

#[tokio::test]
async fn spectators_read_but_write_only_when_the_table_allows_it() {
    let server = TestServer::start().await;
    let id = server.create_table(json!({"variant": "hearts"})).await;
    let mut clients = seat_players(&server, &id, 1).await;
    let mut spectator = watcher(&server, &id).await;
    say(&mut spectator, "can I talk?").await;
    let (code, _) = spectator.recv_error().await;
    assert_eq!(code, "not_seated");
    // Nobody heard it: the next line the player hears is its own.
    say(&mut clients[0], "no").await;
    assert_eq!(heard(&mut clients[0]).await.2, "no");
    assert_eq!(heard(&mut spectator).await.2, "no");

    let open = server
        .create_table(json!({"variant": "hearts", "table_options": {"spectator_chat": true}}))
        .await;
    let mut clients = seat_players(&server, &open, 1).await;
    let mut spectator = watcher(&server, &open).await;
    say(&mut spectator, "hello from the rail").await;
    let expected = (
        None,
        "Spectator".to_string(),
        "hello from the rail".to_string(),
    );
    assert_eq!(heard(&mut clients[0]).await, expected);
    assert_eq!(heard(&mut spectator).await, expected);
}

#[tokio::test]
async fn long_empty_and_fast_lines_are_refused() {
    let server = TestServer::start().await;
    let id = server.create_table(json!({"variant": "hearts"})).await;
    let mut clients = seat_players(&server, &id, 1).await;
    let me = &mut clients[0];

    say(me, &"x".repeat(MAX_CHAT_CHARS + 1)).await;
    let (code, message) = me.recv_error().await;
    assert_eq!(code, "chat_too_long");
    assert!(message.contains("200"), "{message}");
    say(me, "   ").await;
    assert_eq!(me.recv_error().await.0, "chat_too_long");

    say(me, &"y".repeat(MAX_CHAT_CHARS)).await;
    assert_eq!(heard(me).await.2.len(), MAX_CHAT_CHARS);
    for i in 1..5 {
        say(me, &format!("line {i}")).await;
        assert_eq!(heard(me).await.2, format!("line {i}"));
    }
    say(me, "one too many").await;
    let (code, _) = me.recv_error().await;
    assert_eq!(code, "chat_too_fast");
}

/// Lines one seat (or the spectators of one address) may send in the limit's window, as
/// docs/PROTOCOL.md says.
const BURST: usize = 5;

/// Says `text` from `client` and tells whether it was heard (`true`) or refused as too fast
/// (`false`). Lines heard again on rejoining are passed over: each line said is unique.
async fn said(client: &mut WsClient, text: &str) -> bool {
    say(client, text).await;
    let reply = client
        .recv_until(|m| match m {
            ServerMsg::Chat { text: heard, .. } => heard == text,
            ServerMsg::Error { .. } => true,
            _ => false,
        })
        .await;
    match reply {
        ServerMsg::Chat { .. } => true,
        ServerMsg::Error { code, .. } => {
            assert_eq!(code, "chat_too_fast");
            false
        }
        _ => unreachable!(),
    }
}

/// A fresh connection back into the seat `token` holds, after its `welcome`.
async fn rejoin(server: &TestServer, table: &str, token: &str) -> WsClient {
    let mut client = server.client().await;
    client.send_rejoin(table, token).await;
    client
        .recv_until(|m| matches!(m, ServerMsg::Welcome { .. }))
        .await;
    client
}

/// The limit is the seat's, not the connection's: coming back with the token again and again
/// gets no more lines through than one burst.
#[tokio::test]
async fn reconnecting_with_the_seat_token_buys_no_more_lines() {
    const RECONNECTS: usize = 10;
    const LINES_EACH: usize = 2;
    let server = TestServer::start().await;
    let id = server.create_table(json!({"variant": "hearts"})).await;
    let mut clients = seat_players(&server, &id, 2).await;
    let token = clients[1].token.clone().expect("a token");
    let mut me = clients.pop().unwrap();
    let mut heard_lines = 0;
    for round in 0..RECONNECTS {
        for line in 0..LINES_EACH {
            if said(&mut me, &format!("line {round}.{line}")).await {
                heard_lines += 1;
            }
        }
        me.close().await;
        me = rejoin(&server, &id, &token).await;
    }
    assert!(
        (1..=BURST).contains(&heard_lines),
        "{heard_lines} of {} lines got through",
        RECONNECTS * LINES_EACH
    );
    // Another seat has a burst of its own.
    assert!(said(&mut clients[0], "my turn to talk").await);
}

/// Spectators are counted by address: new connections from the same one share its burst.
#[tokio::test]
async fn spectators_from_one_address_share_one_limit() {
    const WATCHERS: usize = 4;
    const LINES_EACH: usize = 3;
    let server = TestServer::start().await;
    let id = server
        .create_table(json!({"variant": "hearts", "table_options": {"spectator_chat": true}}))
        .await;
    let mut players = seat_players(&server, &id, 1).await;
    let mut heard_lines = 0;
    for watcher_n in 0..WATCHERS {
        let mut spectator = watcher(&server, &id).await;
        for line in 0..LINES_EACH {
            if said(&mut spectator, &format!("rail {watcher_n}.{line}")).await {
                heard_lines += 1;
            }
        }
        spectator.close().await;
    }
    assert!(
        (1..=BURST).contains(&heard_lines),
        "{heard_lines} of {} lines got through",
        WATCHERS * LINES_EACH
    );
    assert!(said(&mut players[0], "quiet please").await);
}

/// Bidi overrides and zero-width characters are taken out before anyone hears the line; a
/// line of nothing else is refused as empty.
#[tokio::test]
async fn hidden_characters_never_reach_the_table() {
    let server = TestServer::start().await;
    let id = server.create_table(json!({"variant": "hearts"})).await;
    let mut clients = seat_players(&server, &id, 2).await;
    say(
        &mut clients[0],
        "\u{202E}gg\u{200B} wp\u{2066}\u{FEFF}\u{200F}",
    )
    .await;
    for client in &mut clients {
        assert_eq!(heard(client).await.2, "gg wp");
    }
    say(&mut clients[0], "\u{202E}\u{200B}\u{2069} \u{200D}").await;
    assert_eq!(clients[0].recv_error().await.0, "chat_too_long");
    let frames = clients[1].frames.join("\n");
    for hidden in ["\u{202E}", "\u{200B}", "\u{2066}", "\u{FEFF}", "\u{200F}"] {
        assert!(!frames.contains(hidden), "{hidden:?} reached a player");
    }
}

#[tokio::test]
async fn a_reconnecting_player_and_a_new_spectator_get_the_recent_lines() {
    let server = TestServer::start().await;
    let id = server.create_table(json!({"variant": "hearts"})).await;
    let mut clients = seat_players(&server, &id, 2).await;
    say(&mut clients[0], "hello").await;
    say(&mut clients[1], "😂").await;
    heard(&mut clients[1]).await;
    heard(&mut clients[1]).await;
    let token = clients[1].token.clone().expect("a token");
    clients.pop().unwrap().close().await;

    let mut back = server.client().await;
    back.send(&ClientMsg::Join {
        table: id.clone(),
        seat: None,
        name: None,
        token: Some(token),
        bot: false,
    })
    .await;
    assert!(matches!(
        back.recv().await,
        ServerMsg::Welcome {
            seat: Some(Seat(1)),
            ..
        }
    ));
    assert_eq!(
        heard(&mut back).await,
        (Some(Seat(0)), "p0".into(), "hello".into())
    );
    assert_eq!(
        heard(&mut back).await,
        (Some(Seat(1)), "p1".into(), "😂".into())
    );

    let mut spectator = watcher(&server, &id).await;
    assert_eq!(heard(&mut spectator).await.2, "hello");
    assert_eq!(heard(&mut spectator).await.2, "😂");
}

#[tokio::test]
async fn parlor_bot_plays_a_whole_match_through_table_talk() {
    use parlor_server::tools::remote_bot::{self, MoveSource, Target};
    use parlor_shared::protocol::Occupant;
    use parlor_tests::{Rng, play_to_end};

    let server = TestServer::start().await;
    let id = server
        .create_table(json!({"variant": "whist", "options": {"target": 1}, "seed": 4}))
        .await;
    let mut host = seat_players(&server, &id, 1).await.remove(0);
    // Said before the bot sits: it gets the line again after its snapshot.
    say(&mut host, "hello, bot").await;
    for seat in [2, 3] {
        host.send(&ClientMsg::AddBot {
            seat: Seat(seat),
            strategy: "random".into(),
        })
        .await;
    }
    let target = Target {
        url: format!("ws://{}", server.addr),
        table: id.clone(),
        seat: Some(Seat(1)),
        name: "remote".into(),
        invitation: None,
    };
    let bot = tokio::spawn(async move {
        remote_bot::play(&target, MoveSource::Strategy("random".into(), 7), 0).await
    });
    host.recv_until(|m| match m {
        ServerMsg::Table { table, .. } => table.seats.iter().all(|s| s.occupant != Occupant::Empty),
        _ => false,
    })
    .await;
    host.send(&ClientMsg::Start {}).await;
    say(&mut host, "good luck <b>everyone</b>").await;
    play_to_end(std::slice::from_mut(&mut host), &mut Rng::new(3)).await;
    let outcome = bot.await.unwrap().expect("the bot plays to the end");
    assert_eq!(outcome.seat, Seat(1));
    assert!(outcome.moves > 0);
}

/// The recent lines are in the table's log: after SIGKILL and a restart on the same data, a
/// player coming back with their token hears them again, in order.
#[tokio::test]
async fn recent_lines_outlast_a_server_crash() {
    let dir = TempDir::new("chat-restart");
    let server = ServerProcess::start(dir.path());
    let body = json!({"variant": "hearts", "table_options": {"grace_ms": 600_000}});
    let (status, reply) = http(server.addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 201, "{reply}");
    let id = reply["id"].as_str().expect("an id").to_string();
    let mut ann = WsClient::connect(server.addr).await;
    assert!(ann.join(&id, "Ann").await);
    let mut bob = WsClient::connect(server.addr).await;
    bob.join(&id, "Bob").await;
    // One after the other, so the order they were said in is known.
    say(&mut ann, "hello <b>all</b>").await;
    heard(&mut ann).await;
    say(&mut bob, "👍").await;
    heard(&mut ann).await;
    let token = bob.token.clone().expect("a token");
    server.kill9();

    let server = ServerProcess::start(dir.path());
    let mut back = WsClient::connect(server.addr).await;
    back.send(&ClientMsg::Join {
        table: id.clone(),
        seat: None,
        name: None,
        token: Some(token),
        bot: false,
    })
    .await;
    assert!(matches!(back.recv().await, ServerMsg::Welcome { .. }));
    assert_eq!(
        heard(&mut back).await,
        (Some(Seat(0)), "Ann".into(), "hello <b>all</b>".into())
    );
    assert_eq!(
        heard(&mut back).await,
        (Some(Seat(1)), "Bob".into(), "👍".into())
    );
    server.stop();
}
