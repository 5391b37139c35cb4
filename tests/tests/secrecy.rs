//! No client ever receives a card it may not see. Whole matches of every variant are played
//! by real WebSocket clients with a spectator watching; every frame each one received is then
//! checked against what that recipient could know at that moment (see
//! `parlor_tests::secrecy`).

use parlor_server::Config;
use parlor_shared::Event;
use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_tests::secrecy::violations;
use parlor_tests::{
    Rng, TestServer, VARIANTS, drive, play_cards, players, seat_players, short_options, start,
};
use serde_json::json;

#[tokio::test]
async fn no_frame_holds_a_card_its_recipient_may_not_see() {
    // Two tables of every variant from one address: more than a minute's default quota.
    let server = TestServer::with_config(Config {
        tables_per_ip_per_minute: 0,
        ..Config::default()
    })
    .await;
    for variant in VARIANTS {
        for seed in 0..2u64 {
            let id = server
                .create_table(
                    json!({"variant": variant, "options": short_options(variant), "seed": seed}),
                )
                .await;
            let n = players(variant);
            let mut clients = seat_players(&server, &id, n).await;
            let mut spectator = server.client().await;
            spectator
                .send(&ClientMsg::Watch { table: id.clone() })
                .await;
            spectator
                .recv_until(|m| matches!(m, ServerMsg::Welcome { .. }))
                .await;
            clients.push(spectator);
            start(&mut clients).await;
            let mut finished = 0;
            drive(&mut clients, &mut Rng::new(seed), |_, m| {
                if matches!(
                    m,
                    ServerMsg::Event {
                        event: Event::MatchOver { .. },
                        ..
                    }
                ) {
                    finished += 1;
                }
                finished == n + 1
            })
            .await;

            let mut private_events = 0;
            for client in &clients {
                let found = violations(&client.frames, client.seat);
                assert!(found.is_empty(), "{variant} seed {seed}: {found:#?}");
                private_events += client
                    .frames
                    .iter()
                    .filter(|f| {
                        f.contains(r#""kind":"dealt""#) || f.contains(r#""kind":"cards_passed""#)
                    })
                    .count();
            }
            // The check had something to check: each player saw its own deals.
            assert!(
                private_events >= n,
                "{variant}: {private_events} private events"
            );
            let spectator = clients.last().unwrap();
            assert!(spectator.seat.is_none());
            assert!(
                spectator
                    .frames
                    .iter()
                    .any(|f| f.contains(r#""kind":"played""#)),
                "the spectator saw the play"
            );
        }
    }
}

/// A spectator who arrives mid-match gets a snapshot with no hand in it.
#[tokio::test]
async fn a_late_spectator_sees_only_public_information() {
    let server = TestServer::start().await;
    let id = server
        .create_table(json!({"variant": "hearts5", "options": {"hands": 1}, "seed": 8}))
        .await;
    let mut clients = seat_players(&server, &id, 5).await;
    start(&mut clients).await;
    play_cards(&mut clients, &mut Rng::new(1), 12).await;
    let mut late = server.client().await;
    late.send(&ClientMsg::Watch { table: id }).await;
    let ServerMsg::State { view, .. } = late
        .recv_until(|m| matches!(m, ServerMsg::State { .. }))
        .await
    else {
        unreachable!()
    };
    assert!(view.hand.is_empty());
    assert_eq!(view.seat, None);
    assert_eq!(view.face_up.len(), 2, "hearts5's undealt pair is public");
    assert_eq!(view.played_cards().len(), 12);
    assert_eq!(view.legal, parlor_shared::Legal::Wait);
}
