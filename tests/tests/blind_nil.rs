//! Blind nil on a real server: whole Spades matches with blind nil on, played by WebSocket
//! clients with a spectator watching. A seat dealt face down receives no card of its hand,
//! in any frame (events, prompts, snapshots), until it looks or bids blind nil; the cards the
//! partners exchange reach nobody else; and every frame passes the general secrecy check.

use parlor_shared::Event;
use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_tests::secrecy::{cards_in, violations};
use parlor_tests::{Rng, TestServer, drive, seat_players, start};
use serde_json::{Value, json};

/// What one recipient's frames show of blind nil: the frames it got while its own hand was
/// face down that named a card, and the blind nil prompts, bids and exchanges it saw.
#[derive(Default, Debug)]
struct Seen {
    cards_while_face_down: Vec<String>,
    blind_prompts: usize,
    blind_bids: usize,
    exchanges: usize,
}

fn seen(frames: &[String], seat: Option<u8>) -> Seen {
    let mut seen = Seen::default();
    let mut face_down = false;
    for text in frames {
        let frame: Value = serde_json::from_str(text).expect("frames are JSON");
        let event = &frame["event"];
        let mine = |key: &str| seat.is_some() && event[key].as_u64() == seat.map(u64::from);
        match event["kind"].as_str().unwrap_or_default() {
            "hand_started" => face_down = false,
            "dealt_face_down" => {
                face_down = event["seats"]
                    .as_array()
                    .is_some_and(|s| s.iter().any(|v| seat.is_some_and(|me| v == me)));
            }
            "cards_seen" if mine("seat") => face_down = false,
            "blind_nil" => seen.blind_bids += 1,
            "exchanged" => seen.exchanges += 1,
            _ => {}
        }
        if frame["type"] == "your_turn" && frame["legal"]["type"] == "blind" {
            seen.blind_prompts += 1;
        }
        if face_down && !cards_in(&frame).is_empty() {
            seen.cards_while_face_down.push(text.clone());
        }
    }
    seen
}

#[tokio::test]
async fn a_face_down_hand_and_the_exchanged_cards_reach_nobody_who_may_not_see_them() {
    let server = TestServer::start().await;
    let (mut blind_bids, mut blind_prompts, mut exchanges_seen_by_others) = (0, 0, 0);
    for seed in 0..6u64 {
        let options = json!({"target": 250, "blind_nil": true, "blind_nil_behind": 20});
        let id = server
            .create_table(json!({"variant": "spades", "options": options, "seed": seed}))
            .await;
        let mut clients = seat_players(&server, &id, 4).await;
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
            finished == 5
        })
        .await;

        for client in &clients {
            let found = violations(&client.frames, client.seat);
            assert!(found.is_empty(), "seed {seed}: {found:#?}");
            let me = client.seat.map(|s| s.0);
            let shown = seen(&client.frames, me);
            assert!(
                shown.cards_while_face_down.is_empty(),
                "seed {seed}: seat {me:?} got cards while its hand was face down: {:#?}",
                shown.cards_while_face_down
            );
            blind_prompts += shown.blind_prompts;
            if me == Some(0) {
                blind_bids += shown.blind_bids;
            }
            // A `cards_passed` of an exchange goes to the two partners alone (the secrecy
            // check refuses any other seat's); the public `exchanged` reaches everyone.
            if me.is_none() {
                exchanges_seen_by_others += shown.exchanges;
                assert!(
                    !client
                        .frames
                        .iter()
                        .any(|f| f.contains(r#""kind":"cards_passed""#)),
                    "the spectator got an exchange's cards"
                );
            }
        }
    }
    assert!(blind_prompts > 0, "no seat was dealt face down");
    assert!(blind_bids > 0, "nobody bid blind nil");
    assert_eq!(exchanges_seen_by_others, 2 * blind_bids);
}
