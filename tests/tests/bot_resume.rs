//! Built-in bots resume exactly, against the real `parlor` binary: a practice table (so two
//! runs deal alike) with one person and `random`, `heuristic` and `strong` bots is killed with
//! SIGKILL mid-match and restarted; the match then finishes with exactly the events and
//! scores of the same match played without the crash.

mod support;

use std::net::SocketAddr;

use parlor_shared::Event;
use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_tests::{WsClient, http};
use serde_json::json;
use support::{Backend, Storage, all_hands, play_moves};

/// Bots in seats 1, 2 and 3.
const BOTS: [&str; 3] = ["random", "heuristic", "strong"];

/// The bots' safety net, far beyond any move's work: a move never depends on the clock.
const SERVE_ARGS: [&str; 2] = ["--bot-think-ms", "600000"];

async fn table_with_bots(addr: SocketAddr) -> (String, WsClient) {
    let body = json!({"variant": "hearts", "options": {"target": 40}, "seed": 2026});
    let (status, reply) = http(addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 201, "{reply}");
    let id = reply["id"].as_str().expect("an id").to_string();
    let mut person = WsClient::connect(addr).await;
    assert!(person.join(&id, "Ann").await);
    person.seat_bots_and_start(&BOTS).await;
    (id, person)
}

fn match_over(msg: &ServerMsg) -> bool {
    matches!(
        msg,
        ServerMsg::Event {
            event: Event::MatchOver { .. },
            ..
        }
    )
}

/// Every game event the person received, in order, with its counter; but who announced a
/// pass first (`pass_chosen`): the person and the bots choose at once, so that order is a race
/// in any two runs, crash or not. The cards passed (`cards_passed`) are kept.
fn events(client: &WsClient) -> Vec<(u64, Event)> {
    client
        .frames
        .iter()
        .filter_map(|f| match serde_json::from_str(f) {
            Ok(ServerMsg::Event {
                event: Event::PassChosen { .. },
                ..
            }) => None,
            Ok(ServerMsg::Event { seq, event, .. }) => Some((seq, event)),
            _ => None,
        })
        .collect()
}

async fn random_heuristic_and_strong_bots_finish_a_crashed_match_exactly_as_without_the_crash(
    backend: Backend,
) {
    // The match played straight through.
    let reference_dir = Storage::new(backend, "bot-resume-reference").await;
    let server = reference_dir.start_with(&SERVE_ARGS);
    let (id, person) = table_with_bots(server.addr).await;
    let mut clients = vec![person];
    play_moves(&mut clients, usize::MAX, |_, m| match_over(m)).await;
    let reference_events = events(&clients[0]);
    let reference = all_hands(server.addr, &id).await;
    assert!(reference.len() >= 2, "several hands");
    server.stop();

    // The same match, killed in its second hand while the bots are to play.
    let dir = Storage::new(backend, "bot-resume-crash").await;
    let server = dir.start_with(&SERVE_ARGS);
    let (id, person) = table_with_bots(server.addr).await;
    let mut clients = vec![person];
    // Hand 0: a pass and 13 cards; hand 1: a pass and 4 cards.
    play_moves(&mut clients, 19, |_, _| false).await;
    let token = clients[0].token.clone().expect("a token");
    server.kill9();
    while clients[0].try_recv().await.is_some() {}
    let seen_before = events(&clients[0]);

    let server = dir.start_with(&SERVE_ARGS);
    let mut person = WsClient::connect(server.addr).await;
    person
        .send(&ClientMsg::Join {
            table: id.clone(),
            seat: None,
            name: None,
            token: Some(token),
            bot: false,
        })
        .await;
    let welcome = person.recv().await;
    assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");
    let mut clients = vec![person];
    play_moves(&mut clients, usize::MAX, |_, m| match_over(m)).await;

    // Every event the person saw, before the crash and after it, is the uncrashed match's
    // event at that counter, and the match ends at the same counter.
    let reference_at: std::collections::BTreeMap<u64, Event> =
        reference_events.into_iter().collect();
    let seen_after = events(&clients[0]);
    assert!(!seen_before.is_empty() && !seen_after.is_empty());
    for (seq, event) in seen_before.iter().chain(&seen_after) {
        assert_eq!(
            reference_at.get(seq),
            Some(event),
            "the same event at counter {seq}"
        );
    }
    assert_eq!(
        seen_after.last().map(|(seq, _)| *seq),
        reference_at.keys().last().copied(),
        "the match ends at the same counter"
    );
    let after_crash = all_hands(server.addr, &id).await;
    assert_eq!(after_crash, reference, "the same match, hand for hand");
    server.stop();
}

#[tokio::test]
async fn random_heuristic_and_strong_bots_finish_a_crashed_match_exactly_as_without_the_crash_on_sqlite()
 {
    random_heuristic_and_strong_bots_finish_a_crashed_match_exactly_as_without_the_crash(
        Backend::Sqlite,
    )
    .await;
}

#[tokio::test]
async fn random_heuristic_and_strong_bots_finish_a_crashed_match_exactly_as_without_the_crash_on_postgres()
 {
    random_heuristic_and_strong_bots_finish_a_crashed_match_exactly_as_without_the_crash(
        Backend::Postgres,
    )
    .await;
}
