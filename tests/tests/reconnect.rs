//! Lost connections: reclaiming a seat with its token, a built-in bot standing in after the
//! grace period and handing the seat back, a newer connection taking the seat over (the older
//! one told why before it closes), and tables closing when everyone has gone.
//! Timers run on paused tokio time where they matter.

use std::sync::Arc;
use std::time::Duration;

use parlor_server::store::{PgStore, SqliteStore};
use parlor_server::{AppState, Config};
use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_shared::{CardSet, Event, Legal, Seat};
use parlor_tests::{
    Rng, TestServer, WsClient, drive, play_cards, play_to_end, seat_players, start,
};
use serde_json::json;

/// The cards `client` should hold now, from its own event stream.
fn tracked_hand(client: &WsClient) -> CardSet {
    let me = client.seat.expect("seated");
    let mut hand = CardSet::EMPTY;
    for frame in &client.frames {
        if let Ok(ServerMsg::Event { event, .. }) = serde_json::from_str(frame) {
            match event {
                Event::Dealt { seat, cards } if seat == me => hand = cards,
                Event::CardsPassed { from, cards, .. } if from == me => hand -= cards,
                Event::CardsPassed { to, cards, .. } if to == me => hand |= cards,
                Event::Played { seat, card } if seat == me => {
                    hand.remove(card);
                }
                _ => {}
            }
        }
    }
    hand
}

/// Rejoins with a token on a fresh connection; returns the client after `welcome`.
async fn rejoin(server: &TestServer, table: &str, token: &str) -> WsClient {
    let mut client = server.client().await;
    client.send_rejoin(table, token).await;
    match client.recv().await {
        ServerMsg::Welcome { .. } => client,
        other => panic!("expected welcome, got {other:?}"),
    }
}

#[tokio::test]
async fn a_player_who_drops_mid_hand_gets_the_seat_back_with_a_snapshot() {
    let server = TestServer::start().await;
    let id = server
        .create_table(json!({"variant": "hearts", "options": {"target": 30}, "seed": 11}))
        .await;
    let mut clients = seat_players(&server, &id, 4).await;
    start(&mut clients).await;
    let mut rng = Rng::new(5);
    // Play into the middle of the first hand.
    play_cards(&mut clients, &mut rng, 17).await;

    let old = clients.remove(2);
    let token = old.token.clone().unwrap();
    let expected_hand = tracked_hand(&old);
    old.close().await;
    let others_see_it = clients[0]
        .recv_until(|m| matches!(m, ServerMsg::Table { table, .. } if !table.seats[2].connected))
        .await;
    assert!(matches!(others_see_it, ServerMsg::Table { .. }));

    let mut back = rejoin(&server, &id, &token).await;
    assert_eq!(back.seat, Some(Seat(2)), "the same seat");
    assert_eq!(
        back.token.as_deref(),
        Some(token.as_str()),
        "the same token"
    );
    let ServerMsg::Table { table, .. } = back.recv().await else {
        panic!("table after welcome")
    };
    assert!(table.seats[2].connected && !table.seats[2].bot_playing);
    let ServerMsg::State { view, .. } = back.recv().await else {
        panic!("state after table")
    };
    assert_eq!(view.seat, Some(Seat(2)));
    assert_eq!(
        view.hand, expected_hand,
        "the snapshot holds the seat's cards"
    );
    assert_eq!(view.played_cards().len() % 4, 1, "17 cards were played");
    if view.to_act.contains(&Seat(2)) {
        let prompt = back.recv().await;
        let ServerMsg::YourTurn { legal, .. } = prompt else {
            panic!("your_turn after state when it is the seat's turn, got {prompt:?}")
        };
        assert_eq!(legal, view.legal);
        assert!(matches!(legal, Legal::Play { .. }));
        // Answer the prompt we just read, then carry on.
        let reply = parlor_tests::random_move(&legal, &mut rng).unwrap();
        back.send(&reply).await;
    }
    clients.insert(2, back);
    let winners = play_to_end(&mut clients, &mut rng).await;
    assert!(
        !winners.is_empty(),
        "the match finishes with the player back"
    );
}

#[tokio::test(start_paused = true)]
async fn a_bot_plays_for_an_absent_player_after_the_grace_period_and_hands_back() {
    let server = TestServer::start().await;
    let id = server
        .create_table(json!({"variant": "whist", "options": {"target": 2},
            "table_options": {"grace_ms": 30000}, "seed": 4}))
        .await;
    let mut clients = seat_players(&server, &id, 4).await;
    start(&mut clients).await;
    let mut rng = Rng::new(9);
    play_cards(&mut clients, &mut rng, 5).await;

    let gone = clients.remove(1);
    let token = gone.token.clone().unwrap();
    gone.close().await;
    // The others keep playing; when seat 1's turn comes the table waits out the grace
    // period (paused time skips ahead), then a bot plays the seat, shown to everyone.
    let mut takeover_seen = false;
    let mut bot_plays = 0;
    drive(&mut clients, &mut rng, |i, m| {
        match m {
            ServerMsg::Table { table, .. } if i == 0 && table.seats[1].bot_playing => {
                takeover_seen = true;
            }
            ServerMsg::Event {
                event: Event::Played { seat: Seat(1), .. },
                ..
            } if i == 0 => {
                assert!(takeover_seen, "seat 1 only plays once the bot took over");
                bot_plays += 1;
            }
            _ => {}
        }
        bot_plays == 3
    })
    .await;

    // The player comes back: the seat is theirs again, and nobody plays for them.
    let mut back = rejoin(&server, &id, &token).await;
    let ServerMsg::Table { table, .. } = back.recv().await else {
        panic!("table after welcome")
    };
    assert!(!table.seats[1].bot_playing, "the bot hands the seat back");
    assert!(table.seats[1].connected);
    clients[0]
        .recv_until(|m| matches!(m, ServerMsg::Table { table, .. } if !table.seats[1].bot_playing))
        .await;
    clients.insert(1, back);
    let mut prompted = false;
    drive(&mut clients, &mut rng, |i, m| {
        if i == 1 && matches!(m, ServerMsg::YourTurn { .. }) {
            prompted = true;
        }
        prompted
    })
    .await;
    let winners = play_to_end(&mut clients, &mut rng).await;
    assert!(!winners.is_empty());
}

#[tokio::test]
async fn a_newer_connection_takes_the_seat_and_the_older_is_told_before_it_closes() {
    let store = SqliteStore::in_memory().expect("a store in memory");
    let with_store = AppState::new(Config::default()).with_store(Arc::new(store));
    let pg = tokio::task::spawn_blocking(parlor_tests::postgres::Postgres::start)
        .await
        .expect("postgres");
    let (pg_store, _) = PgStore::open(&pg.database("newer").await)
        .await
        .expect("a Postgres store");
    let with_pg = AppState::new(Config::default()).with_store(Arc::new(pg_store));
    for server in [
        TestServer::start().await,
        TestServer::with_state(with_store).await,
        TestServer::with_state(with_pg).await,
    ] {
        let id = server.create_table(json!({"variant": "hearts"})).await;
        let mut first = server.client().await;
        first.join(&id, "Ann").await;
        let token = first.token.clone().expect("a token");
        let mut second = rejoin(&server, &id, &token).await;
        assert_eq!(second.seat, Some(Seat(0)));
        let mut got = Vec::new();
        while let Some(msg) = first.try_recv().await {
            got.push(msg);
        }
        match got.last() {
            Some(ServerMsg::Error { code, message }) => {
                assert_eq!(code, "replaced", "{message}");
                assert!(message.contains("another window"), "{message}");
            }
            other => panic!("the old connection's last message is `replaced`, not {other:?}"),
        }
        // The newer connection plays the seat.
        let ServerMsg::Table { table, .. } = second
            .recv_until(|m| matches!(m, ServerMsg::Table { .. }))
            .await
        else {
            unreachable!()
        };
        assert!(table.seats[0].connected);
        second.send(&ClientMsg::Sync {}).await;
        second
            .recv_until(|m| matches!(m, ServerMsg::Table { .. }))
            .await;
        second.close().await;
        server.stop().await;
    }
}

#[tokio::test]
async fn wrong_and_stale_tokens_are_refused() {
    let server = TestServer::start().await;
    let id = server.create_table(json!({"variant": "hearts"})).await;
    let mut ann = server.client().await;
    ann.join(&id, "Ann").await;
    let mut bob = server.client().await;
    bob.join(&id, "Bob").await;
    let bob_token = bob.token.clone().unwrap();
    bob.send(&ClientMsg::Leave {}).await;
    bob.recv_until(|m| matches!(m, ServerMsg::Table { .. }))
        .await;
    bob.close().await;

    for token in ["not-a-token", bob_token.as_str()] {
        let mut client = server.client().await;
        client
            .send(&ClientMsg::Join {
                table: id.clone(),
                seat: None,
                name: None,
                token: Some(token.to_string()),
                bot: false,
            })
            .await;
        let (code, message) = client.recv_error().await;
        assert_eq!(code, "bad_token", "{message}");
        // Still not at the table.
        client.send(&ClientMsg::Start {}).await;
        assert_eq!(client.recv_error().await.0, "not_joined");
    }
    // Bob's seat is free again; Ann is still host.
    let ServerMsg::Table { table, .. } = ann
        .recv_until(|m| matches!(m, ServerMsg::Table { table, .. } if !table.seats[1].connected))
        .await
    else {
        unreachable!()
    };
    assert_eq!(
        table.seats[1].occupant,
        parlor_shared::protocol::Occupant::Empty
    );
    assert_eq!(table.host, Some(Seat(0)));
}

#[tokio::test]
async fn the_host_role_passes_on_when_the_host_leaves() {
    let server = TestServer::start().await;
    let id = server.create_table(json!({"variant": "hearts"})).await;
    let mut clients = seat_players(&server, &id, 2).await;
    clients[0].send(&ClientMsg::Leave {}).await;
    let msg = clients[1]
        .recv_until(|m| matches!(m, ServerMsg::Table { table, .. } if table.host == Some(Seat(1))))
        .await;
    assert!(matches!(msg, ServerMsg::Table { .. }));
    clients[1]
        .send(&ClientMsg::AddBot {
            seat: Seat(0),
            strategy: "random".into(),
        })
        .await;
    clients[1]
        .recv_until(
            |m| matches!(m, ServerMsg::Table { table, .. } if table.seats[0].name.is_some()),
        )
        .await;
}

#[tokio::test(start_paused = true)]
async fn a_table_nobody_is_at_is_closed_after_a_while() {
    let config = parlor_server::Config {
        idle_table_ttl: Duration::from_secs(600),
        // Ann's client reads nothing during the long sleep, so it answers no ping: the
        // WebSocket idle timeout is lifted here, this test is about the table's.
        ws_idle: Duration::from_secs(7200),
        ..parlor_server::Config::default()
    };
    let server = TestServer::with_config(config).await;
    let id = server.create_table(json!({"variant": "hearts"})).await;
    let mut ann = server.client().await;
    ann.join(&id, "Ann").await;
    // While someone is connected the table stays, however long.
    tokio::time::sleep(Duration::from_secs(3600)).await;
    assert!(server.state.lobby.get(&id).is_some());
    ann.close().await;
    for _ in 0..100 {
        if server.state.lobby.get(&id).is_none() {
            break;
        }
        tokio::time::sleep(Duration::from_secs(60)).await;
    }
    assert!(server.state.lobby.get(&id).is_none(), "closed once idle");
    let mut late = server.client().await;
    late.send(&ClientMsg::Join {
        table: id,
        seat: None,
        name: None,
        token: None,
        bot: false,
    })
    .await;
    assert_eq!(late.recv_error().await.0, "no_such_table");
}

#[tokio::test]
async fn a_seat_given_up_mid_match_is_played_by_a_bot_until_the_host_opens_it() {
    let server = TestServer::start().await;
    let id = server
        .create_table(
            json!({"variant": "hearts", "options": {"target": 20, "passing": false}, "seed": 21}),
        )
        .await;
    let mut clients = seat_players(&server, &id, 4).await;
    start(&mut clients).await;
    let mut rng = Rng::new(3);
    play_cards(&mut clients, &mut rng, 6).await;
    let mut leaver = clients.pop().unwrap();
    leaver.send(&ClientMsg::Leave {}).await;
    leaver.close().await;
    let mut seat_3_moves = 0;
    drive(&mut clients, &mut rng, |i, m| {
        if let ServerMsg::Table { table, .. } = m
            && i == 0
        {
            assert_eq!(
                table.seats[3].occupant,
                parlor_shared::protocol::Occupant::Empty
            );
            assert!(table.seats[3].bot_playing, "a bot keeps the seat");
        }
        if i == 0
            && matches!(
                m,
                ServerMsg::Event {
                    event: Event::Played { seat: Seat(3), .. },
                    ..
                }
            )
        {
            seat_3_moves += 1;
        }
        seat_3_moves == 2
    })
    .await;
    // Closed to newcomers (a player's second window could see two hands) until the host
    // opens it.
    let mut newcomer = server.client().await;
    newcomer
        .send(&ClientMsg::Join {
            table: id.clone(),
            seat: None,
            name: Some("Dee".into()),
            token: None,
            bot: false,
        })
        .await;
    assert_eq!(newcomer.recv_error().await.0, "seat_closed");
    clients[0]
        .send(&ClientMsg::OpenSeat { seat: Seat(3) })
        .await;
    drive(&mut clients, &mut rng, |i, m| {
        i == 0 && matches!(m, ServerMsg::Table { table, .. } if table.seats[3].open)
    })
    .await;
    assert!(!newcomer.join(&id, "Dee").await);
    assert_eq!(newcomer.seat, Some(Seat(3)), "the free seat");
    newcomer
        .recv_until(|m| matches!(m, ServerMsg::State { .. }))
        .await;
    clients.push(newcomer);
    let winners = play_to_end(&mut clients, &mut rng).await;
    assert!(!winners.is_empty());
}
