//! Fair deals, against the real `parlor` binary: a table's deals come from the OS unless the
//! table says to everyone that its creator chose them (a practice table); every hand's
//! commitment and revealed secret, read off real message streams, recompute the cards each
//! seat was dealt by the recipe of docs/FAIRNESS.md (reimplemented here from the document,
//! not taken from Parlor); and `parlor verify` accepts a true record and rejects a changed one.

mod support;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::process::Command;

use parlor_shared::Event;
use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_tests::{WsClient, http, players, short_options};
use rand::{RngCore, SeedableRng};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use support::{ServerProcess, TempDir, parlor_bin, play_moves};

/// The variants whose whole 52-card deck (or 52 less two) is dealt: Bridge's auction and
/// claims change nothing in the deal.
const VARIANTS: [&str; 6] = ["hearts", "filippa", "hearts5", "tricks", "whist", "bridge"];

// --- The recipe, as docs/FAIRNESS.md states it. ---

fn sha256(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

/// A practice table's master secret for a match seed.
fn practice_master(seed: u64) -> [u8; 32] {
    sha256(&[b"parlor practice v1", &seed.to_be_bytes()])
}

fn hand_secret(master: &[u8; 32], hand: u32) -> [u8; 32] {
    sha256(&[b"parlor hand v1", master, &hand.to_be_bytes()])
}

/// The ordered deck of these ranks (low to high) in each suit: clubs, diamonds, hearts, spades.
fn ordered(ranks: &'static str) -> Vec<String> {
    "CDHS"
        .chars()
        .flat_map(|s| ranks.chars().map(move |r| format!("{r}{s}")))
        .collect()
}

/// The deck as card names, from the ordered deck (clubs 2..A, diamonds, hearts, spades).
fn deck(secret: &[u8; 32]) -> Vec<String> {
    shuffled(ordered("23456789TJQKA"), secret)
}

/// `deck` shuffled by the secret: `N - 1` keystream words, Fisher-Yates from the top.
fn shuffled(mut deck: Vec<String>, secret: &[u8; 32]) -> Vec<String> {
    let n = deck.len();
    let mut bytes = vec![0u8; 4 * (n - 1)];
    rand_chacha::ChaCha20Rng::from_seed(*secret).fill_bytes(&mut bytes);
    for (step, w) in bytes.chunks_exact(4).enumerate() {
        let i = n - 1 - step;
        let word = u64::from(u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
        let j = ((word * (i as u64 + 1)) >> 32) as usize;
        deck.swap(i, j);
    }
    deck
}

/// Each seat's cards, sorted: one at a time from the dealer's left.
fn deal(n: usize, size: usize, dealer: usize, secret: &[u8; 32]) -> Vec<Vec<String>> {
    let deck = deck(secret);
    let mut hands = vec![Vec::new(); n];
    for (k, card) in deck[..n * size].iter().enumerate() {
        hands[(dealer + 1 + k) % n].push(card.clone());
    }
    for h in &mut hands {
        h.sort();
    }
    hands
}

fn unhex(text: &str) -> [u8; 32] {
    let mut out = [0u8; 32];
    hex::decode_to_slice(text, &mut out).expect("64 hex digits");
    out
}

fn sorted(cards: &parlor_shared::CardSet) -> Vec<String> {
    let mut v: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
    v.sort();
    v
}

// --- Helpers. ---

async fn create(addr: SocketAddr, body: Value) -> (String, Value) {
    let (status, reply) = http(addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 201, "{reply}");
    (reply["id"].as_str().expect("an id").to_string(), reply)
}

/// Seats `n` remote players at `id` and starts the match; returns the clients and whether
/// `welcome` said practice.
async fn seat_and_start(addr: SocketAddr, id: &str, n: usize) -> (Vec<WsClient>, bool) {
    let mut clients = Vec::new();
    let mut practice = None;
    for i in 0..n {
        let mut c = WsClient::connect(addr).await;
        c.send(&ClientMsg::Join {
            table: id.to_string(),
            seat: None,
            name: Some(format!("p{i}")),
            token: None,
            bot: true,
        })
        .await;
        match c.recv().await {
            ServerMsg::Welcome { practice: p, .. } => {
                assert!(practice.is_none_or(|q| q == p), "welcome agrees");
                practice = Some(p);
            }
            other => panic!("expected welcome, got {other:?}"),
        }
        clients.push(c);
    }
    clients[0].send(&ClientMsg::Start {}).await;
    (clients, practice.expect("a welcome"))
}

/// The first hand's cards of seat 0 and the first commitment, once dealt.
async fn first_deal(client: &mut WsClient) -> (Vec<String>, String) {
    let mut commitment = None;
    loop {
        if let ServerMsg::Event { event, .. } = client.recv().await {
            match event {
                Event::HandStarted { commitment: c, .. } => {
                    commitment = Some(c.expect("a commitment").to_hex());
                }
                Event::Dealt { cards, .. } => {
                    return (sorted(&cards), commitment.expect("hand_started first"));
                }
                _ => {}
            }
        }
    }
}

fn is_match_over(msg: &ServerMsg) -> bool {
    matches!(
        msg,
        ServerMsg::Event {
            event: Event::MatchOver { .. },
            ..
        }
    )
}

/// Whether the listing and the table's own page mark `id` as practice.
async fn marked(addr: SocketAddr, id: &str) -> (bool, bool) {
    let (_, one) = http(addr, "GET", &format!("/api/tables/{id}"), None).await;
    let (_, list) = http(addr, "GET", "/api/tables", None).await;
    let listed = list
        .as_array()
        .expect("a list")
        .iter()
        .find(|t| t["id"] == id)
        .expect("listed");
    (
        one["practice"].as_bool().expect("practice is shown"),
        listed["practice"].as_bool().expect("practice is listed"),
    )
}

/// The seeded-table oracle: the same client seed reproduces deals only at tables marked
/// practice for everyone to see; ordinary tables take no seed and deal unpredictably.
#[tokio::test]
async fn only_tables_marked_practice_deal_from_a_clients_seed() {
    let dir = TempDir::new("fair-oracle");
    let server = ServerProcess::start(dir.path());
    let addr = server.addr;
    const SEED: u64 = 777;

    // Two practice tables from one seed: marked everywhere, and (by design) the same deal.
    let mut practice_deals = Vec::new();
    for _ in 0..2 {
        let (id, reply) = create(
            addr,
            json!({"variant": "hearts", "seed": SEED, "table_options": {"listed": true}}),
        )
        .await;
        assert_eq!(reply["table"]["practice"], true, "{reply}");
        assert_eq!(marked(addr, &id).await, (true, true));
        let (mut clients, welcome_practice) = seat_and_start(addr, &id, 4).await;
        assert!(welcome_practice, "welcome says practice");
        let table = clients[1]
            .recv_until(|m| matches!(m, ServerMsg::Table { .. }))
            .await;
        assert!(matches!(table, ServerMsg::Table { table, .. } if table.practice));
        let (cards, commitment) = first_deal(&mut clients[0]).await;
        // Anyone with the seed knows the deal: that is what "practice" warns of.
        let secret = hand_secret(&practice_master(SEED), 0);
        assert_eq!(hex::encode(sha256(&[&secret])), commitment);
        practice_deals.push(cards);
    }
    assert_eq!(practice_deals[0], practice_deals[1]);

    // Ordinary tables: never marked, never the practice deal, never each other's.
    let mut commitments = Vec::new();
    let mut deals = Vec::new();
    for _ in 0..2 {
        let (id, reply) = create(
            addr,
            json!({"variant": "hearts", "table_options": {"listed": true}}),
        )
        .await;
        assert_eq!(reply["table"]["practice"], false, "{reply}");
        assert_eq!(marked(addr, &id).await, (false, false));
        let (mut clients, welcome_practice) = seat_and_start(addr, &id, 4).await;
        assert!(!welcome_practice);
        let (cards, commitment) = first_deal(&mut clients[0]).await;
        deals.push(cards);
        commitments.push(commitment);
    }
    assert_ne!(deals[0], deals[1], "two ordinary tables deal differently");
    assert_ne!(commitments[0], commitments[1]);
    assert_ne!(deals[0], practice_deals[0]);
    // Nothing a client could send reproduces them: not a seed it might have chosen.
    for seed in 0..2000u64 {
        let c = hex::encode(sha256(&[&hand_secret(&practice_master(seed), 0)]));
        assert!(
            !commitments.contains(&c),
            "an ordinary deal came from seed {seed}"
        );
    }
    server.stop();
}

/// One finished hand as seen on the wire: the commitment at its start, each seat's dealt
/// cards (from that seat's own stream), and the secret revealed at its end.
#[derive(Debug, Default)]
struct SeenHand {
    dealer: usize,
    commitment: Option<String>,
    dealt: BTreeMap<usize, Vec<String>>,
    secret: Option<String>,
}

/// Every hand of a whole match in every variant: the secret hashes to the commitment sent
/// before any card was played, it deals exactly what each seat got, it is never sent before
/// the hand is scored, and `parlor verify` accepts the server's record of the hand and refuses
/// the record with one card moved.
#[tokio::test]
async fn every_hand_of_every_variant_verifies_by_the_recipe() {
    let dir = TempDir::new("fair-verify");
    let server = ServerProcess::start(dir.path());
    let addr = server.addr;
    for variant in VARIANTS {
        let n = players(variant);
        let size = if n == 5 { 10 } else { 13 };
        let body = json!({"variant": variant, "options": short_options(variant)});
        let (id, _) = create(addr, body).await;
        let (mut clients, _) = seat_and_start(addr, &id, n).await;
        play_moves(&mut clients, usize::MAX, |i, msg| {
            i == 0 && is_match_over(msg)
        })
        .await;
        // Each seat reads its own stream to the end of the match.
        for c in clients.iter_mut().skip(1) {
            if !c.frames.iter().any(|f| f.contains("\"match_over\"")) {
                c.recv_until(is_match_over).await;
            }
        }
        let mut hands: BTreeMap<u32, SeenHand> = BTreeMap::new();
        for (i, client) in clients.iter().enumerate() {
            let seat = client.seat.expect("seated").index();
            let mut current = None;
            for frame in &client.frames {
                let Ok(ServerMsg::Event { event, .. }) = serde_json::from_str(frame) else {
                    continue;
                };
                match event {
                    Event::HandStarted {
                        hand,
                        dealer,
                        commitment,
                        ..
                    } => {
                        let c = commitment.expect("every hand has a commitment").to_hex();
                        let seen = hands.entry(hand).or_default();
                        assert!(seen.commitment.as_ref().is_none_or(|s| *s == c));
                        seen.commitment = Some(c);
                        seen.dealer = dealer.index();
                        current = Some(hand);
                    }
                    Event::Dealt { seat: s, cards } => {
                        assert_eq!(s.index(), seat, "only one's own cards");
                        let hand = current.expect("dealt after hand_started");
                        hands
                            .get_mut(&hand)
                            .unwrap()
                            .dealt
                            .insert(seat, sorted(&cards));
                    }
                    Event::HandScored(result) => {
                        let s = result.secret.expect("the secret is revealed").to_hex();
                        let seen = hands.get_mut(&result.hand).expect("started");
                        assert!(seen.secret.as_ref().is_none_or(|x| *x == s));
                        seen.secret = Some(s);
                    }
                    _ => {}
                }
            }
            // The secret of a hand appears in no frame before that hand's `hand_scored`.
            for seen in hands.values() {
                let Some(secret) = &seen.secret else { continue };
                let first = client
                    .frames
                    .iter()
                    .position(|f| f.contains(secret.as_str()));
                let scored = client
                    .frames
                    .iter()
                    .position(|f| f.contains("\"hand_scored\"") && f.contains(secret.as_str()));
                assert_eq!(first, scored, "{variant}: client {i} saw a secret early");
            }
        }
        assert!(!hands.is_empty(), "{variant}: a hand was played");
        for (number, seen) in &hands {
            let secret = unhex(seen.secret.as_ref().expect("revealed"));
            assert_eq!(
                Some(hex::encode(sha256(&[&secret]))),
                seen.commitment,
                "{variant} hand {number}: the secret matches the commitment"
            );
            let want = deal(n, size, seen.dealer, &secret);
            assert_eq!(seen.dealt.len(), n, "{variant}: every seat's deal was seen");
            for (seat, cards) in &seen.dealt {
                assert_eq!(cards, &want[*seat], "{variant} hand {number} seat {seat}");
            }
        }

        // The record the server keeps verifies; a changed one does not.
        let (status, record) = http(addr, "GET", &format!("/api/tables/{id}/hands/0"), None).await;
        assert_eq!(status, 200, "{record}");
        assert_eq!(
            record["commitment"].as_str(),
            hands[&0].commitment.as_deref(),
            "{variant}: the replay carries the commitment"
        );
        let file = dir.path().join(format!("{variant}-hand.json"));
        std::fs::write(&file, record.to_string()).unwrap();
        let ok = Command::new(parlor_bin())
            .arg("verify")
            .arg(&file)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&ok.stdout);
        assert!(
            ok.status.success(),
            "{variant}: {out}{}",
            String::from_utf8_lossy(&ok.stderr)
        );
        assert!(out.starts_with("OK "), "{out}");

        // Move one card from seat 0's dealt hand to seat 1's.
        let mut tampered = record.clone();
        let card = tampered["dealt"][0].as_array().unwrap()[0].clone();
        tampered["dealt"][0].as_array_mut().unwrap().remove(0);
        tampered["dealt"][1].as_array_mut().unwrap().push(card);
        std::fs::write(&file, tampered.to_string()).unwrap();
        let bad = Command::new(parlor_bin())
            .arg("verify")
            .arg(&file)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&bad.stderr);
        assert!(!bad.status.success(), "{variant}: a moved card is caught");
        assert!(err.contains("MISMATCH") && err.contains("seat 0"), "{err}");

        // A secret that is not the committed one.
        let mut tampered = record.clone();
        tampered["result"]["secret"] = json!(hex::encode(hand_secret(&[7; 32], 0)));
        std::fs::write(&file, tampered.to_string()).unwrap();
        let bad = Command::new(parlor_bin())
            .arg("verify")
            .arg(&file)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&bad.stderr);
        assert!(
            !bad.status.success(),
            "{variant}: a swapped secret is caught"
        );
        assert!(err.contains("commitment"), "{err}");
    }
    server.stop();
}

/// `parlor verify --secret` deals a table's own deck and hand sizes: Spades with jokers (52
/// cards, no two of clubs or diamonds), and a later hand of a three-seat Oh Hell match, which
/// leaves a stock; an option the variant does not have is refused.
#[test]
fn verify_with_a_secret_deals_the_tables_deck_and_hand_sizes() {
    let secret = hex::encode(hand_secret(&[9; 32], 0));
    let run = |args: &[&str]| {
        let out = Command::new(parlor_bin())
            .args(["verify", "--secret", &secret])
            .args(args)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        (
            out.status.success(),
            text,
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let seat_cards = |text: &str| -> Vec<Vec<String>> {
        text.lines()
            .filter_map(|l| l.strip_prefix("seat ").and_then(|l| l.split_once(": ")))
            .map(|(_, cards)| cards.split(' ').map(String::from).collect())
            .collect()
    };

    let (ok, out, err) = run(&[
        "--variant",
        "spades",
        "--dealer",
        "3",
        "--options",
        r#"{"jokers":true}"#,
    ]);
    assert!(ok, "{err}");
    let hands = seat_cards(&out);
    assert_eq!(hands.len(), 4, "{out}");
    let all: Vec<&String> = hands.iter().flatten().collect();
    assert!(hands.iter().all(|h| h.len() == 13), "{out}");
    assert!(
        all.iter().any(|c| *c == "BJ") && all.iter().any(|c| *c == "LJ"),
        "{out}"
    );
    assert!(!all.iter().any(|c| *c == "2C" || *c == "2D"), "{out}");
    let (_, plain, _) = run(&["--variant", "spades", "--dealer", "3"]);
    assert_ne!(
        seat_cards(&plain),
        hands,
        "the jokers' deck shuffles to other hands"
    );

    // Hand 5 of a three-seat match deals 12 each (17 down to 12), turns one up, keeps 15.
    let (ok, out, err) = run(&[
        "--variant",
        "ohhell",
        "--dealer",
        "0",
        "--options",
        r#"{"players":3}"#,
        "--hand",
        "5",
    ]);
    assert!(ok, "{err}");
    let hands = seat_cards(&out);
    assert_eq!(
        hands.iter().map(Vec::len).collect::<Vec<_>>(),
        [12, 12, 12],
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("face up: ") && l.len() == "face up: QS".len()),
        "{out}"
    );
    let (ok, _, err) = run(&[
        "--variant",
        "ohhell",
        "--dealer",
        "3",
        "--options",
        r#"{"players":3}"#,
    ]);
    assert!(!ok && err.contains("seats 0 to 2"), "{err}");

    let (ok, _, err) = run(&[
        "--variant",
        "hearts",
        "--dealer",
        "3",
        "--options",
        r#"{"jokers":true}"#,
    ]);
    assert!(
        !ok && err.contains("`jokers` does not apply to hearts"),
        "{err}"
    );
}

/// Euchre deals its 24-card deck (nine to ace) by the same recipe: the secret of every hand
/// of a whole match, read off the seats' streams, hashes to its commitment, deals each seat the
/// five cards it got (one at a time from the dealer's left) and turns up the next card; and
/// `parlor verify` accepts the server's record of a hand and refuses it with a card moved.
#[tokio::test]
async fn euchre_deals_its_short_deck_by_the_recipe() {
    let dir = TempDir::new("fair-euchre");
    let server = ServerProcess::start(dir.path());
    let addr = server.addr;
    let body = json!({"variant": "euchre", "options": {"target": 5, "defend_alone": true}});
    let (id, _) = create(addr, body).await;
    let (mut clients, practice) = seat_and_start(addr, &id, 4).await;
    assert!(!practice, "a table's deals come from the OS");
    parlor_tests::drive(&mut clients, &mut parlor_tests::Rng::new(3), |i, msg| {
        i == 0 && is_match_over(msg)
    })
    .await;
    for c in clients.iter_mut().skip(1) {
        if !c.frames.iter().any(|f| f.contains("\"match_over\"")) {
            c.recv_until(is_match_over).await;
        }
    }
    let mut hands: BTreeMap<u32, SeenHand> = BTreeMap::new();
    let mut turned: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for client in &clients {
        let seat = client.seat.expect("seated").index();
        let mut current = None;
        for frame in &client.frames {
            let Ok(ServerMsg::Event { event, .. }) = serde_json::from_str(frame) else {
                continue;
            };
            match event {
                Event::HandStarted {
                    hand,
                    dealer,
                    commitment,
                    ..
                } => {
                    let seen = hands.entry(hand).or_default();
                    seen.commitment = Some(commitment.expect("a commitment").to_hex());
                    seen.dealer = dealer.index();
                    current = Some(hand);
                }
                Event::Dealt { cards, .. } => {
                    let hand = current.expect("dealt after hand_started");
                    hands
                        .get_mut(&hand)
                        .unwrap()
                        .dealt
                        .insert(seat, sorted(&cards));
                }
                Event::TurnedUp { cards } => {
                    turned.insert(current.expect("turned after hand_started"), sorted(&cards));
                }
                Event::HandScored(result) => {
                    let secret = result.secret.expect("the secret is revealed").to_hex();
                    hands.get_mut(&result.hand).expect("started").secret = Some(secret);
                }
                _ => {}
            }
        }
    }
    assert!(
        hands.len() >= 2,
        "a match of several hands: {}",
        hands.len()
    );
    for (number, seen) in &hands {
        let secret = unhex(seen.secret.as_ref().expect("revealed"));
        assert_eq!(
            Some(hex::encode(sha256(&[&secret]))),
            seen.commitment,
            "hand {number}: the secret matches the commitment"
        );
        let deck = shuffled(ordered("9TJQKA"), &secret);
        let mut want = vec![Vec::new(); 4];
        for (k, card) in deck[..20].iter().enumerate() {
            want[(seen.dealer + 1 + k) % 4].push(card.clone());
        }
        assert_eq!(
            seen.dealt.len(),
            4,
            "hand {number}: every seat's deal was seen"
        );
        for (seat, cards) in &seen.dealt {
            want[*seat].sort();
            assert_eq!(cards, &want[*seat], "hand {number} seat {seat}");
        }
        assert_eq!(
            turned[number],
            vec![deck[20].clone()],
            "hand {number}: the turned card"
        );
    }

    let (status, record) = http(addr, "GET", &format!("/api/tables/{id}/hands/0"), None).await;
    assert_eq!(status, 200, "{record}");
    let file = dir.path().join("euchre-hand.json");
    std::fs::write(&file, record.to_string()).unwrap();
    let ok = Command::new(parlor_bin())
        .arg("verify")
        .arg(&file)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&ok.stdout);
    assert!(
        ok.status.success() && out.starts_with("OK "),
        "{out}{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let mut tampered = record.clone();
    let card = tampered["dealt"][0].as_array().unwrap()[0].clone();
    tampered["dealt"][0].as_array_mut().unwrap().remove(0);
    tampered["dealt"][1].as_array_mut().unwrap().push(card);
    std::fs::write(&file, tampered.to_string()).unwrap();
    let bad = Command::new(parlor_bin())
        .arg("verify")
        .arg(&file)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(!bad.status.success(), "a moved card is caught");
    assert!(err.contains("MISMATCH") && err.contains("seat 0"), "{err}");
    server.stop();
}
