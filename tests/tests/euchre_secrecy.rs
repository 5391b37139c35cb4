//! Euchre on a real server: whole matches (defending alone on, so seats sit hands out) played
//! by four WebSocket clients with a spectator watching, every frame each received checked.
//! The dealer's discard reaches nobody but the dealer (it is never played); a seat sitting out
//! shows its cards to nobody; the three cards under the turned card reach nobody at all; and
//! every card dealt reaches only its holder until it is played.

use std::collections::BTreeMap;

use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_shared::{Card, CardSet, Event};
use parlor_tests::secrecy::{cards_in, violations};
use parlor_tests::{Rng, TestServer, WsClient, drive, seat_players, start};
use serde_json::{Value, json};

/// One hand as the five recipients' streams tell it together.
#[derive(Default, Debug)]
struct Hand {
    dealer: u8,
    /// Each seat's dealt cards, from its own `dealt`.
    dealt: BTreeMap<u8, CardSet>,
    turned: CardSet,
    /// The dealer's discard, from its own `discarded_card`.
    discarded: Option<Card>,
    out: Vec<u8>,
}

/// Each recipient's frames split by hand: the hand's number and its frames, in order.
fn by_hand(frames: &[String]) -> Vec<(u32, Vec<Value>)> {
    let mut hands: Vec<(u32, Vec<Value>)> = Vec::new();
    for text in frames {
        let frame: Value = serde_json::from_str(text).expect("frames are JSON");
        if frame["event"]["kind"] == "hand_started" {
            let number = frame["event"]["hand"].as_u64().expect("a hand number") as u32;
            hands.push((number, Vec::new()));
        }
        if let Some((_, current)) = hands.last_mut() {
            current.push(frame);
        }
    }
    hands
}

/// What the streams say of each hand.
fn hands_of(clients: &[WsClient]) -> BTreeMap<u32, Hand> {
    let mut hands: BTreeMap<u32, Hand> = BTreeMap::new();
    for client in clients {
        for (number, frames) in by_hand(&client.frames) {
            let hand = hands.entry(number).or_default();
            for frame in &frames {
                let event = &frame["event"];
                let seat = event["seat"].as_u64().map(|s| s as u8);
                match event["kind"].as_str().unwrap_or_default() {
                    "hand_started" => hand.dealer = event["dealer"].as_u64().unwrap() as u8,
                    "dealt" => {
                        hand.dealt.insert(seat.unwrap(), cards_in(&event["cards"]));
                    }
                    "turned_up" => hand.turned = cards_in(&event["cards"]),
                    "discarded_card" => hand.discarded = cards_in(&event["card"]).iter().next(),
                    "sits_out" if !hand.out.contains(&seat.unwrap()) => {
                        hand.out.push(seat.unwrap());
                    }
                    _ => {}
                }
            }
        }
    }
    hands
}

/// True when `value` says which card was discarded: a `discarded_card` event, or a view's
/// `discarded` naming a card.
fn names_discard(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.iter().any(|(key, v)| {
            (key == "discarded" && v.is_string())
                || (key == "kind" && v == "discarded_card")
                || names_discard(v)
        }),
        Value::Array(items) => items.iter().any(names_discard),
        _ => false,
    }
}

/// Euchre's 24 cards, nine to ace of each suit.
fn euchre_deck() -> CardSet {
    let mut deck = CardSet::EMPTY;
    for suit in ["C", "D", "H", "S"] {
        for rank in ["9", "T", "J", "Q", "K", "A"] {
            deck.insert(format!("{rank}{suit}").parse().unwrap());
        }
    }
    deck
}

#[tokio::test]
async fn the_discard_the_kitty_and_a_hand_sitting_out_reach_nobody_else() {
    let server = TestServer::start().await;
    let (mut discards, mut sit_outs, mut hands_checked) = (0, 0, 0);
    for seed in 0..3u64 {
        let options = json!({"target": 10, "defend_alone": true});
        let id = server
            .create_table(json!({"variant": "euchre", "options": options, "seed": seed}))
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

        let deck = euchre_deck();
        let hands = hands_of(&clients);
        assert!(hands.len() >= 2, "seed {seed}: a match is several hands");
        for (number, hand) in &hands {
            assert_eq!(
                hand.dealt.len(),
                4,
                "seed {seed} hand {number}: every deal seen"
            );
            let dealt = hand.dealt.values().fold(CardSet::EMPTY, |all, c| all | *c);
            assert_eq!(
                dealt.len(),
                20,
                "seed {seed} hand {number}: five cards each"
            );
            assert_eq!(
                hand.turned.len(),
                1,
                "seed {seed} hand {number}: one turned up"
            );
            let kitty = deck - dealt - hand.turned;
            assert_eq!(kitty.len(), 3);
            discards += usize::from(hand.discarded.is_some());
            sit_outs += hand.out.len();
            hands_checked += 1;
        }

        for client in &clients {
            let found = violations(&client.frames, client.seat);
            assert!(found.is_empty(), "seed {seed}: {found:#?}");
            let me = client.seat.map(|s| s.0);
            for (number, frames) in by_hand(&client.frames) {
                let hand = &hands[&number];
                let dealt = hand.dealt.values().fold(CardSet::EMPTY, |all, c| all | *c);
                let kitty = deck - dealt - hand.turned;
                let mut played = CardSet::EMPTY;
                for frame in &frames {
                    if frame["event"]["kind"] == "played" {
                        played |= cards_in(&frame["event"]["card"]);
                    }
                    let shown = cards_in(frame);
                    let at = format!("seed {seed} hand {number}, {me:?} got {frame}");
                    assert!((shown & kitty).is_empty(), "the kitty: {at}");
                    if let Some(card) = hand.discarded
                        && me != Some(hand.dealer)
                    {
                        // The dealer may discard the very card turned up: everyone saw it
                        // turned and picked up (views keep it as `picked_up`), but no frame
                        // may say it was discarded.
                        if hand.turned.contains(card) {
                            assert!(!names_discard(frame), "the dealer's discard {card}: {at}");
                        } else {
                            assert!(!shown.contains(card), "the dealer's discard {card}: {at}");
                        }
                    }
                    for (&seat, &cards) in &hand.dealt {
                        if me == Some(seat) {
                            continue;
                        }
                        if hand.out.contains(&seat) {
                            assert!((shown & cards).is_empty(), "seat {seat} sits out: {at}");
                        }
                        let early = (shown & cards) - played;
                        assert!(
                            early.is_empty(),
                            "seat {seat}'s {early} before played: {at}"
                        );
                    }
                }
                if let Some(card) = hand.discarded
                    && me == Some(hand.dealer)
                {
                    // The dealer's own stream names its discard, and play never shows it.
                    assert!(
                        frames
                            .iter()
                            .any(|f| f["event"]["kind"] == "discarded_card")
                    );
                    assert!(!played.contains(card));
                }
            }
        }
    }
    assert!(hands_checked >= 6, "{hands_checked} hands");
    assert!(discards > 0, "no dealer picked up and discarded");
    assert!(sit_outs > 0, "nobody sat a hand out");
}
