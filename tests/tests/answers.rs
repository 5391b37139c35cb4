//! Each prompt is answered once: a bot that answers every `your_turn` twice (once with the
//! prompt's `seq` and once without, or twice with the same `seq`) gets `stale_move` for the
//! second answer and nothing else: no bad card, no `rate_limited`, no repeated prompt, and
//! the match finishes. Also: a `seq` newer than any prompt is `unknown_prompt`.

use std::collections::HashSet;

use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_shared::{Event, Legal};
use parlor_tests::{Rng, TestServer, next_any, random_move, seat_players, start};
use serde_json::{Value, json};

/// How a doubling bot repeats its answer.
#[derive(Clone, Copy, Debug)]
enum Twice {
    /// With the prompt's `seq`, then the same move without `seq`.
    WithThenWithout,
    /// Without `seq`, then the same move with the prompt's `seq`.
    WithoutThenWith,
    /// Twice with the prompt's `seq`.
    SameSeq,
}

/// `msg` naming the prompt `seq` (or none).
fn with_seq(msg: &ClientMsg, named: Option<u64>) -> ClientMsg {
    match msg.clone() {
        ClientMsg::Play { card, seat, .. } => ClientMsg::Play {
            card,
            seat,
            seq: named,
        },
        ClientMsg::Pass { cards, seat, .. } => ClientMsg::Pass {
            cards,
            seat,
            seq: named,
        },
        other => other,
    }
}

/// Plays a whole match of `variant` with four doubling bots; returns the refusals counted.
async fn doubling_match(variant: &str, options: Value, twice: Twice) -> usize {
    let server = TestServer::start().await;
    let id = server
        .create_table(json!({"variant": variant, "options": options, "seed": 11}))
        .await;
    let mut clients = seat_players(&server, &id, 4).await;
    start(&mut clients).await;
    let mut rng = Rng::new(5);
    let mut prompts: HashSet<(usize, u64)> = HashSet::new();
    let mut refused = 0;
    for _ in 0..200_000 {
        let (i, msg) = next_any(&mut clients).await;
        match &msg {
            ServerMsg::YourTurn { seq, legal, .. } => {
                assert!(
                    prompts.insert((i, *seq)),
                    "{variant} {twice:?}: client {i} was sent the prompt of seq {seq} twice"
                );
                let Some(reply) = random_move(legal, &mut rng) else {
                    continue;
                };
                let (first, second) = match twice {
                    Twice::WithThenWithout => (Some(*seq), None),
                    Twice::WithoutThenWith => (None, Some(*seq)),
                    Twice::SameSeq => (Some(*seq), Some(*seq)),
                };
                clients[i].send(&with_seq(&reply, first)).await;
                clients[i].send(&with_seq(&reply, second)).await;
            }
            ServerMsg::Error { code, message } => {
                assert_eq!(
                    code, "stale_move",
                    "{variant} {twice:?}: client {i}: {message}"
                );
                assert!(message.contains("answer each prompt once"), "{message}");
                refused += 1;
            }
            ServerMsg::Event { event, .. } => match event {
                Event::BadCard { seat, card, .. } => {
                    panic!("{variant} {twice:?}: a repeated answer cost {seat} a bad card ({card})")
                }
                Event::MatchOver { .. } if i == 0 => return refused,
                _ => {}
            },
            _ => {}
        }
    }
    panic!("{variant} {twice:?}: the match did not finish");
}

/// `tricks` with its default `bad_card: penalty`: a repeated card must never be a bad card.
#[tokio::test]
async fn answering_twice_in_tricks_costs_no_penalty_and_the_match_finishes() {
    for twice in [
        Twice::WithThenWithout,
        Twice::WithoutThenWith,
        Twice::SameSeq,
    ] {
        let refused = doubling_match("tricks", json!({"target": 30}), twice).await;
        assert!(refused > 0, "{twice:?}: the second answers were refused");
    }
}

/// `hearts`, passing included.
#[tokio::test]
async fn answering_twice_in_hearts_is_refused_each_time_and_the_match_finishes() {
    for twice in [
        Twice::WithThenWithout,
        Twice::WithoutThenWith,
        Twice::SameSeq,
    ] {
        let refused = doubling_match("hearts", json!({"target": 30}), twice).await;
        assert!(refused > 0, "{twice:?}: the second answers were refused");
    }
}

/// A move naming a prompt newer than any sent is refused with its own code, and the prompt
/// still stands: the same move with the right `seq` is taken.
#[tokio::test]
async fn a_seq_newer_than_the_prompt_is_an_unknown_prompt() {
    let server = TestServer::start().await;
    let id = server
        .create_table(json!({"variant": "whist", "options": {"target": 1}, "seed": 2}))
        .await;
    let mut clients = seat_players(&server, &id, 4).await;
    start(&mut clients).await;
    let mut rng = Rng::new(1);
    let (i, seq, legal) = loop {
        if let (i, ServerMsg::YourTurn { seq, legal, .. }) = next_any(&mut clients).await {
            break (i, seq, legal);
        }
    };
    assert!(matches!(legal, Legal::Play { .. }));
    let reply = random_move(&legal, &mut rng).expect("a move");
    clients[i].send(&with_seq(&reply, Some(seq + 1000))).await;
    // The refusal, or (were it taken) the card played: either ends the wait.
    let answer = clients[i]
        .recv_until(|m| {
            matches!(
                m,
                ServerMsg::Error { .. }
                    | ServerMsg::Event {
                        event: Event::Played { .. },
                        ..
                    }
            )
        })
        .await;
    let ServerMsg::Error { code, message } = answer else {
        panic!("a move naming a prompt never sent was taken: {answer:?}")
    };
    assert_eq!(code, "unknown_prompt", "{message}");
    assert!(message.contains(&format!("seq {seq}")), "{message}");
    clients[i].send(&with_seq(&reply, Some(seq))).await;
    let next = clients[i]
        .recv_until(|m| {
            matches!(
                m,
                ServerMsg::Event {
                    event: Event::Played { .. },
                    ..
                } | ServerMsg::YourTurn { .. }
                    | ServerMsg::Error { .. }
            )
        })
        .await;
    assert!(
        matches!(
            next,
            ServerMsg::Event {
                event: Event::Played { .. },
                ..
            }
        ),
        "the prompt still stood and no new one was sent: {next:?}"
    );
}
