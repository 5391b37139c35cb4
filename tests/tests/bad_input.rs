//! Bad input never hurts a game: each kind gets an `error` with its stable code, and the
//! game state is exactly as before (compared as `state` snapshots).

use parlor_shared::protocol::{ClientMsg, MAX_MESSAGE_BYTES, ServerMsg};
use parlor_shared::{Card, CardSet, Legal, Seat};
use parlor_tests::{TestServer, WsClient, seat_players, start};
use serde_json::{Value, json};

/// Sends a raw frame and returns the error code the server answers with. Prompts read on the
/// way are dropped: the test checks that a refused move brings one right after its error.
async fn code_for(client: &mut WsClient, text: &str) -> String {
    client.send_text(text).await;
    let ServerMsg::Error { code, message } = client
        .recv_until_dropping_prompts(|m| matches!(m, ServerMsg::Error { .. }))
        .await
    else {
        unreachable!()
    };
    assert!(!message.is_empty(), "every error has a sentence");
    code
}

/// Every seat's snapshot.
async fn snapshots(clients: &mut [WsClient]) -> Vec<Value> {
    let mut all = Vec::new();
    for client in clients.iter_mut() {
        all.push(client.snapshot().await);
    }
    all
}

#[tokio::test]
async fn every_bad_input_gets_its_code_and_changes_nothing() {
    let server = TestServer::start().await;
    let id = server
        .create_table(json!({"variant": "hearts", "options": {"passing": false}, "seed": 42}))
        .await;
    let mut clients = seat_players(&server, &id, 4).await;
    start(&mut clients).await;
    // Everyone reads up to their snapshot; find who leads (the two of clubs).
    let mut hands = Vec::new();
    for client in &mut clients {
        let ServerMsg::State { view, .. } = client
            .recv_until(|m| matches!(m, ServerMsg::State { .. }))
            .await
        else {
            unreachable!()
        };
        hands.push(view.hand);
    }
    let leader = clients[0]
        .snapshot()
        .await
        .pointer("/view/to_act/0")
        .and_then(Value::as_u64)
        .unwrap() as usize;
    clients[leader]
        .recv_until(|m| matches!(m, ServerMsg::YourTurn { .. }))
        .await;
    let other = (leader + 1) % 4;
    let before = snapshots(&mut clients).await;

    let c = &mut clients[leader];
    assert_eq!(code_for(c, "{nope").await, "malformed_json");
    assert_eq!(code_for(c, r#"{"card":"2C"}"#).await, "missing_type");
    assert_eq!(code_for(c, r#"{"type":"dance"}"#).await, "unknown_type");
    assert_eq!(code_for(c, r#"{"type":"play"}"#).await, "invalid_message");
    assert_eq!(
        code_for(c, r#"{"type":"play","card":"ZZ"}"#).await,
        "invalid_message"
    );
    assert_eq!(
        code_for(c, r#"{"type":"play","card":"2C","extra":1}"#).await,
        "invalid_message"
    );
    // One card syntax: what is not a rank then a suit is refused, and the sentence says how to
    // write a card. (Either case and `10` are the syntax: see the card parser's tests.)
    for spelling in [" 2C", "2♣", "2CC", "1C"] {
        c.send_text(&format!(r#"{{"type":"play","card":"{spelling}"}}"#))
            .await;
        let (code, message) = c.recv_error().await;
        assert_eq!(code, "invalid_message", "{spelling}");
        assert!(message.contains("like QS, TD or 10H"), "{message}");
    }
    // An illegal card: one held by someone else, and a held one the rules forbid.
    let not_held = hands[other].lowest().unwrap();
    assert_eq!(
        code_for(c, &format!(r#"{{"type":"play","card":"{not_held}"}}"#)).await,
        "card_not_held"
    );
    let held_illegal = (hands[leader] - CardSet::single(Card::TWO_OF_CLUBS))
        .lowest()
        .unwrap();
    assert_eq!(
        code_for(c, &format!(r#"{{"type":"play","card":"{held_illegal}"}}"#)).await,
        "must_lead_two_of_clubs"
    );
    // The same player is asked again, right after the reason, with the same legal moves.
    let next = tokio::time::timeout(std::time::Duration::from_secs(30), c.recv())
        .await
        .expect("the prompt again after a refused move");
    match next {
        ServerMsg::YourTurn { legal, .. } => assert_eq!(
            legal,
            Legal::Play {
                cards: CardSet::single(Card::TWO_OF_CLUBS)
            }
        ),
        other => panic!("expected the prompt again after a refused move, got {other:?}"),
    }
    // A pass when nobody passes.
    let three: Vec<String> = hands[leader]
        .iter()
        .take(3)
        .map(|c| format!("\"{c}\""))
        .collect();
    assert_eq!(
        code_for(
            c,
            &format!(r#"{{"type":"pass","cards":[{}]}}"#, three.join(","))
        )
        .await,
        "not_passing_now"
    );
    // A move for another seat.
    assert_eq!(
        code_for(
            c,
            &format!(r#"{{"type":"play","card":"2C","seat":{other}}}"#)
        )
        .await,
        "not_your_seat"
    );
    // Host commands from someone who is not host, a second join, binary frames.
    let non_host = if leader == 0 { 1 } else { leader };
    let c = &mut clients[non_host];
    assert_eq!(code_for(c, r#"{"type":"start"}"#).await, "not_host");
    assert_eq!(
        code_for(c, r#"{"type":"remove_bot","seat":0}"#).await,
        "not_host"
    );
    assert_eq!(
        code_for(c, &format!(r#"{{"type":"join","table":"{id}"}}"#)).await,
        "already_joined"
    );
    c.send_binary(vec![1, 2, 3]).await;
    assert_eq!(c.recv_error().await.0, "binary_frame");
    // Host commands that do not fit now.
    let c = &mut clients[0];
    assert_eq!(
        code_for(c, r#"{"type":"start"}"#).await,
        "match_in_progress"
    );
    assert_eq!(
        code_for(c, r#"{"type":"add_bot","seat":1,"strategy":"random"}"#).await,
        "seat_taken"
    );
    assert_eq!(
        code_for(c, r#"{"type":"remove_bot","seat":1}"#).await,
        "not_a_bot"
    );
    assert_eq!(
        code_for(c, r#"{"type":"add_bot","seat":9,"strategy":"random"}"#).await,
        "no_such_seat"
    );
    // Out of turn.
    let c = &mut clients[other];
    let card = hands[other].lowest().unwrap();
    assert_eq!(
        code_for(c, &format!(r#"{{"type":"play","card":"{card}"}}"#)).await,
        "not_your_turn"
    );
    // Oversized: refused, and the connection still works.
    let big = format!(
        r#"{{"type":"ping","pad":"{}"}}"#,
        "x".repeat(MAX_MESSAGE_BYTES)
    );
    assert_eq!(code_for(c, &big).await, "too_large");
    c.send(&ClientMsg::Ping {}).await;
    assert!(matches!(c.recv().await, ServerMsg::Pong {}));

    // A spectator cannot play; a connection at no table cannot either.
    let mut watcher = server.client().await;
    watcher.send(&ClientMsg::Watch { table: id.clone() }).await;
    watcher
        .recv_until(|m| matches!(m, ServerMsg::State { .. }))
        .await;
    assert_eq!(
        code_for(&mut watcher, r#"{"type":"play","card":"2C"}"#).await,
        "not_seated"
    );
    let mut stranger = server.client().await;
    assert_eq!(
        code_for(&mut stranger, r#"{"type":"play","card":"2C"}"#).await,
        "not_joined"
    );
    assert_eq!(
        code_for(&mut stranger, r#"{"type":"join","table":"nope"}"#).await,
        "no_such_table"
    );
    let wrong = format!(r#"{{"type":"join","table":"{id}","token":"0123"}}"#);
    assert_eq!(code_for(&mut stranger, &wrong).await, "bad_token");
    assert_eq!(
        code_for(
            &mut stranger,
            &format!(r#"{{"type":"join","table":"{id}"}}"#)
        )
        .await,
        "table_full"
    );

    let after = snapshots(&mut clients).await;
    assert_eq!(before, after, "no bad input changed the game");
    // And the game goes on: the leader's legal move is accepted.
    let c = &mut clients[leader];
    c.send(&ClientMsg::Play {
        card: Card::TWO_OF_CLUBS,
        seat: Some(Seat(leader as u8)),
        seq: None,
    })
    .await;
    c.recv_until(|m| matches!(m, ServerMsg::Event { .. })).await;
}

/// Paused time: the bucket refills only when tokio's clock moves, so the count is exact
/// however slow the machine (at most one refill if the runtime ever idles to a timer).
#[tokio::test(start_paused = true)]
async fn a_flood_is_rate_limited_without_touching_the_game() {
    let burst = 50;
    let server = TestServer::with_config(parlor_server::Config {
        rate_per_sec: 25,
        burst,
        ..parlor_server::Config::default()
    })
    .await;
    let id = server
        .create_table(json!({"variant": "whist", "seed": 1}))
        .await;
    let mut clients = seat_players(&server, &id, 4).await;
    start(&mut clients).await;
    for client in &mut clients {
        client
            .recv_until(|m| matches!(m, ServerMsg::State { .. }))
            .await;
    }
    let before = clients[1].snapshot().await;
    // Seat 0 floods with moves it may not make and pings.
    let flood = 1000;
    for i in 0..flood {
        let text = if i % 2 == 0 {
            r#"{"type":"ping"}"#
        } else {
            r#"{"type":"play","card":"2C","seat":3}"#
        };
        clients[0].send_text(text).await;
    }
    let mut limited = 0;
    let mut answered = 0;
    while answered < flood {
        match clients[0].recv().await {
            ServerMsg::Error { code, .. } if code == "rate_limited" => {
                limited += 1;
                answered += 1;
            }
            ServerMsg::Error { code, .. } => {
                assert!(
                    ["not_your_seat", "card_not_held"].contains(&code.as_str()),
                    "{code}"
                );
                answered += 1;
            }
            ServerMsg::Pong {} => answered += 1,
            _ => {}
        }
    }
    assert!(
        limited >= flood - 2 * burst as usize,
        "most of the flood was refused: {limited}"
    );
    let after = clients[1].snapshot().await;
    assert_eq!(before, after);
}

#[tokio::test]
async fn a_huge_frame_gets_an_error_then_the_connection_closes() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    client.send_text(&"x".repeat(MAX_MESSAGE_BYTES * 8)).await;
    assert_eq!(client.recv_error().await.0, "too_large");
    assert!(client.try_recv().await.is_none());
}

#[tokio::test]
async fn legal_moves_in_the_prompt_are_exactly_the_ones_accepted() {
    let server = TestServer::start().await;
    let id = server
        .create_table(json!({"variant": "hearts", "options": {"passing": false}, "seed": 3}))
        .await;
    let mut clients = seat_players(&server, &id, 4).await;
    start(&mut clients).await;
    let mut leader = None;
    for (i, client) in clients.iter_mut().enumerate() {
        let ServerMsg::State { view, .. } = client
            .recv_until(|m| matches!(m, ServerMsg::State { .. }))
            .await
        else {
            unreachable!()
        };
        if view.to_act[..] == [Seat(i as u8)] {
            leader = Some((i, view.hand));
        }
    }
    let (i, hand) = leader.unwrap();
    let ServerMsg::YourTurn { legal, .. } = clients[i]
        .recv_until(|m| matches!(m, ServerMsg::YourTurn { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(
        legal,
        Legal::Play {
            cards: CardSet::single(Card::TWO_OF_CLUBS)
        }
    );
    for card in hand.iter().filter(|c| *c != Card::TWO_OF_CLUBS) {
        clients[i]
            .send(&ClientMsg::Play {
                card,
                seat: None,
                seq: None,
            })
            .await;
        assert_eq!(clients[i].recv_error().await.0, "must_lead_two_of_clubs");
    }
}
