//! Exact gap detection: every event carries `prev`, the `seq` of the previous event sent to
//! that recipient. A client that keeps the last `seq` it saw (from an event or a `state`)
//! knows it missed an event exactly when an event's `prev` is newer than that. Whole matches
//! are recorded for every seat and a spectator; the rule never fires on a full stream, and
//! fires at the very next event when any one event is withheld.

use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_shared::{Event, Seat};
use parlor_tests::{Rng, TestServer, drive, seat_players, short_options, start};
use serde_json::json;

/// The client's rule: the index of the first frame at which a missed event shows.
fn first_gap(frames: &[ServerMsg]) -> Option<usize> {
    let mut seen: Option<u64> = None;
    for (i, msg) in frames.iter().enumerate() {
        match msg {
            ServerMsg::State { seq, .. } => seen = Some(*seq),
            ServerMsg::Event { seq, prev, .. } => {
                // Before the first snapshot there is nothing to follow.
                let Some(last) = seen else { continue };
                if *seq <= last {
                    continue; // already in the snapshot
                }
                if *prev > last {
                    return Some(i);
                }
                seen = Some(*seq);
            }
            _ => {}
        }
    }
    None
}

/// Every frame each of four seats and one spectator got over a whole match of `variant`.
async fn record_a_match(variant: &str) -> Vec<(String, Vec<ServerMsg>)> {
    let server = TestServer::start().await;
    let id = server
        .create_table(json!({"variant": variant, "options": short_options(variant), "seed": 8}))
        .await;
    let players = if variant == "hearts5" { 5 } else { 4 };
    let mut clients = seat_players(&server, &id, players).await;
    let mut watcher = server.client().await;
    watcher.send(&ClientMsg::Watch { table: id.clone() }).await;
    watcher
        .recv_until(|m| matches!(m, ServerMsg::Welcome { .. }))
        .await;
    clients.push(watcher);
    start(&mut clients).await;
    let mut frames: Vec<Vec<ServerMsg>> = vec![Vec::new(); clients.len()];
    let mut over = vec![false; clients.len()];
    let mut rng = Rng::new(6);
    drive(&mut clients, &mut rng, |i, msg| {
        frames[i].push(msg.clone());
        if matches!(
            msg,
            ServerMsg::Event {
                event: Event::MatchOver { .. },
                ..
            }
        ) {
            over[i] = true;
        }
        over.iter().all(|&o| o)
    })
    .await;
    frames
        .into_iter()
        .enumerate()
        .map(|(i, f)| {
            let who = if i < players {
                format!("{variant} {}", Seat(i as u8))
            } else {
                format!("{variant} spectator")
            };
            (who, f)
        })
        .collect()
}

#[tokio::test]
async fn a_withheld_event_is_detected_at_the_next_event_and_never_otherwise() {
    for variant in ["hearts", "hearts5", "tricks"] {
        for (who, frames) in record_a_match(variant).await {
            assert_eq!(first_gap(&frames), None, "{who}: no event is missing");
            let first_state = frames
                .iter()
                .position(|m| matches!(m, ServerMsg::State { .. }))
                .expect("a snapshot");
            let events: Vec<usize> = (first_state..frames.len())
                .filter(|&i| matches!(frames[i], ServerMsg::Event { .. }))
                .collect();
            assert!(events.len() > 20, "{who}: {} events", events.len());
            let mut private_seen = false;
            for (n, &k) in events.iter().enumerate() {
                let ServerMsg::Event { event, .. } = &frames[k] else {
                    unreachable!()
                };
                private_seen |= !event.visible_to(None);
                let mut withheld = frames.clone();
                withheld.remove(k);
                // The next event is at `k` in the shortened stream.
                let expected = events.get(n + 1).map(|_| k);
                let found = first_gap(&withheld);
                // Without a next event (the last, `match_over`) nothing can show it.
                assert_eq!(found.map(|_| k), expected, "{who}: event {k} withheld");
                if let Some(at) = found {
                    assert!(
                        withheld[k..=at]
                            .iter()
                            .filter(|m| matches!(m, ServerMsg::Event { .. }))
                            .count()
                            == 1,
                        "{who}: detected at the first event after the withheld one"
                    );
                }
            }
            if !who.ends_with("spectator") && variant != "tricks" {
                assert!(
                    private_seen,
                    "{who}: private events were among those withheld"
                );
            }
        }
    }
}
