//! Bridge on a real server: whole matches played by four WebSocket clients with a spectator
//! watching, every frame each received checked. Dummy's hand reaches nobody but dummy before
//! the opening lead, then everyone at once (`dummy_shown`, right after the lead's `played`);
//! every other card dealt reaches only its holder until it is played.

use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_shared::{CardSet, Event};
use parlor_tests::secrecy::{cards_in, violations};
use parlor_tests::{Rng, TestServer, drive, seat_players, start};
use serde_json::{Value, json};

#[tokio::test]
async fn dummys_cards_reach_nobody_before_the_opening_lead() {
    let server = TestServer::start().await;
    let mut dummies = 0;
    for seed in 0..3u64 {
        let id = server
            .create_table(json!({"variant": "bridge", "options": {"hands": 2}, "seed": seed}))
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
            let me = client.seat.map(|s| u64::from(s.0));
            // Within each board: dummy's seat and cards once shown, and the plays before.
            let mut plays = 0;
            let mut dummy: Option<(u64, CardSet)> = None;
            let mut before_lead: Vec<Value> = Vec::new();
            for text in &client.frames {
                let frame: Value = serde_json::from_str(text).expect("JSON frames");
                let event = &frame["event"];
                match event["kind"].as_str().unwrap_or_default() {
                    "hand_started" => {
                        check_dummy_hidden(&before_lead, dummy, me, seed);
                        plays = 0;
                        dummy = None;
                        before_lead.clear();
                    }
                    "played" => plays += 1,
                    "dummy_shown" => {
                        assert_eq!(plays, 1, "seed {seed}: dummy shown after the lead only");
                        dummy = Some((
                            event["seat"].as_u64().expect("a seat"),
                            cards_in(&event["cards"]),
                        ));
                        dummies += 1;
                    }
                    _ => {}
                }
                if dummy.is_none() {
                    before_lead.push(frame);
                }
            }
            check_dummy_hidden(&before_lead, dummy, me, seed);
        }
    }
    assert!(dummies > 0, "some boards were played, dummy shown");
}

/// No frame before `dummy_shown` names a card of dummy's (but to dummy itself).
fn check_dummy_hidden(frames: &[Value], dummy: Option<(u64, CardSet)>, me: Option<u64>, seed: u64) {
    let Some((seat, cards)) = dummy else { return };
    if me == Some(seat) {
        return;
    }
    for frame in frames {
        let shown = cards_in(frame) & cards;
        assert!(
            shown.is_empty(),
            "seed {seed}: {me:?} saw dummy's {shown} before the lead: {frame}"
        );
    }
}
