//! Claims at a Bridge table of four remote players. Both defenders are asked to answer a
//! claim; when one rejects it, play goes on, and the other defender (whose answer is no longer
//! wanted) must be asked for its card when its turn comes. A claim both accept ends the board;
//! the defender answering second is sent its prompt again once the first accepted.

use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_shared::rules::Call;
use parlor_shared::{Action, Event, Legal, Seat};
use parlor_tests::{Rng, TestServer, next_any, random_move, seat_players, start};
use serde_json::json;

/// What the table has shown so far, read from client 0's events.
#[derive(Default)]
struct Seen {
    declarer: Option<Seat>,
    tricks: usize,
    claims: usize,
    rejected_by: Option<Seat>,
    /// Seats asked for a card after the rejection.
    asked_after: Vec<Seat>,
    accepted: usize,
    boards: usize,
    /// Defenders asked again to answer after the other accepted.
    asked_again: usize,
}

#[tokio::test]
async fn after_a_rejected_claim_every_defender_is_asked_for_its_cards() {
    let server = TestServer::start().await;
    let id = server
        .create_table(json!({"variant": "bridge", "options": {"hands": 2}, "seed": 3}))
        .await;
    let mut clients = seat_players(&server, &id, 4).await;
    start(&mut clients).await;
    let mut rng = Rng::new(5);
    let mut seen = Seen::default();
    let mut answered: Vec<Option<u64>> = vec![None; 4];
    let mut heard_partner_accept = [false; 4];
    let mut over = [false; 4];
    while !over.iter().all(|&o| o) {
        let (i, msg) = next_any(&mut clients).await;
        if let ServerMsg::Event {
            event: Event::MatchOver { .. },
            ..
        } = &msg
        {
            over[i] = true;
        }
        // The other defender's acceptance makes a prompt stale: the same prompt comes again.
        if let ServerMsg::Event {
            event: Event::ClaimAnswered { seat, accept: true },
            ..
        } = &msg
        {
            heard_partner_accept[i] = clients[i].seat != Some(*seat);
        }
        if let ServerMsg::YourTurn {
            legal: Legal::AnswerClaim { .. },
            ..
        } = &msg
            && std::mem::take(&mut heard_partner_accept[i])
        {
            seen.asked_again += 1;
        }
        match &msg {
            ServerMsg::Error { code, message } => panic!("client {i}: {code}: {message}"),
            ServerMsg::Event { event, .. } if i == 0 => match event {
                Event::Contract { contract } => seen.declarer = Some(contract.declarer),
                Event::TrickWon { .. } => seen.tricks += 1,
                Event::HandStarted { .. } => {
                    seen.declarer = None;
                    seen.tricks = 0;
                }
                Event::ClaimAnswered { accept: true, .. } => seen.accepted += 1,
                Event::HandScored(_) => seen.boards += 1,
                _ => {}
            },
            ServerMsg::YourTurn { seq, legal, .. } if answered[i] != Some(*seq) => {
                let seat = clients[i].seat.expect("seated");
                let reply = match legal {
                    // Declarer claims a trick, once in each board, after two tricks.
                    Legal::Play { .. }
                        if seen.claims == seen.boards
                            && seen.tricks >= 2
                            && seen.declarer == Some(seat) =>
                    {
                        seen.claims += 1;
                        Some(ClientMsg::Claim {
                            tricks: 1,
                            seq: Some(*seq),
                            seat: None,
                        })
                    }
                    // The first board's claim: the first defender asked rejects it, the other
                    // never answers. The second board's: both accept.
                    Legal::AnswerClaim { .. } if seen.boards > 0 => Some(ClientMsg::AnswerClaim {
                        accept: true,
                        seq: Some(*seq),
                        seat: None,
                    }),
                    Legal::AnswerClaim { .. } => {
                        if seen.rejected_by.is_some() {
                            None
                        } else {
                            seen.rejected_by = Some(seat);
                            Some(ClientMsg::AnswerClaim {
                                accept: false,
                                seq: Some(*seq),
                                seat: None,
                            })
                        }
                    }
                    _ => {
                        if matches!(legal, Legal::Play { .. })
                            && seen.rejected_by.is_some()
                            && seen.boards == 0
                        {
                            seen.asked_after.push(seat);
                        }
                        random_move(legal, &mut rng).map(|m| with_seq(m, *seq))
                    }
                };
                if let Some(reply) = reply {
                    answered[i] = Some(*seq);
                    clients[i].send(&reply).await;
                }
            }
            _ => {}
        }
    }
    assert_eq!(seen.claims, 2, "declarer claimed on each board");
    let rejected_by = seen
        .rejected_by
        .expect("a defender rejected the first claim");
    assert_eq!(seen.boards, 2);
    assert_eq!(seen.accepted, 2, "both defenders accepted the second claim");
    assert_eq!(
        seen.asked_again, 1,
        "the second defender to answer was asked again once the first accepted"
    );
    // The first board played on after the rejection, the other defender asked for its cards.
    assert!(
        seen.asked_after.contains(&rejected_by.partner()),
        "the defender whose answer lapsed was asked for its card: {:?}",
        seen.asked_after
    );
}

/// A move message naming the prompt it answers.
fn with_seq(msg: ClientMsg, seq: u64) -> ClientMsg {
    let action = msg.action().expect("a move");
    ClientMsg::for_action(action, Some(seq))
}

/// East and West hold the top cards of every suit (West's lowest beats the highest of North's
/// and South's in each): whatever they bid, every card they hold will be a winner.
const EAST_WEST_TOPS: &str =
    "N:765.765.876.8765 AKQJ.AKQ.AKQ.AKQ 432.432.5432.432 T98.JT98.JT9.JT9";

#[tokio::test]
async fn a_bot_declarer_claims_once_a_board_and_plays_on_after_a_rejection() {
    let server = TestServer::start().await;
    let id = server
        .create_table(json!({"variant": "bridge",
            "options": {"hands": 1, "deal": EAST_WEST_TOPS, "board": 1}}))
        .await;
    let mut person = server.client().await;
    assert!(person.join(&id, "Ann").await);
    assert_eq!(person.seat, Some(Seat(0)), "the person defends as North");
    person
        .seat_bots_and_start(&["heuristic", "heuristic", "heuristic"])
        .await;
    let mut rng = Rng::new(1);
    let (mut claims, mut tricks_after_rejection, mut rejected) = (0, 0, false);
    let mut answered = None;
    let declarer_tricks = loop {
        match person.recv().await {
            ServerMsg::Error { code, message } => panic!("{code}: {message}"),
            ServerMsg::Event { event, .. } => match event {
                Event::Claimed { seat, .. } => {
                    assert_eq!(seat.0 % 2, 1, "East or West declares");
                    claims += 1;
                }
                Event::TrickWon { .. } if rejected => tricks_after_rejection += 1,
                Event::HandScored(line) => break line.board.expect("a board").declarer_tricks,
                _ => {}
            },
            // A prompt made stale by another's move comes again with its `seq`: answered once.
            ServerMsg::YourTurn { seq, legal, .. } if answered != Some(seq) => {
                answered = Some(seq);
                let reply = match legal {
                    Legal::AnswerClaim { .. } => {
                        rejected = true;
                        ClientMsg::AnswerClaim {
                            accept: false,
                            seq: Some(seq),
                            seat: None,
                        }
                    }
                    // The person passes throughout the auction and plays any card.
                    Legal::Call { .. } => {
                        ClientMsg::for_action(Action::Call(Call::Pass), Some(seq))
                    }
                    legal => random_move(&legal, &mut rng).expect("a move"),
                };
                person.send(&reply).await;
            }
            _ => {}
        }
    };
    assert_eq!(
        claims, 1,
        "the bot claimed once, and not again after the rejection"
    );
    assert!(rejected, "the person was asked to answer the claim");
    assert!(tricks_after_rejection > 0, "the board was played out");
    assert_eq!(
        declarer_tricks, 13,
        "every card East-West held was a winner"
    );
}
