//! Hand replays against the real `parlor` binary: `GET /api/tables/{id}/hands/{n}` serves a
//! finished hand with every card face up and refuses the hand being played;
//! `parlor replay FILE_OR_URL` prints a finished hand in the compact card notation.

mod support;

use std::collections::BTreeSet;
use std::process::Command;

use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_shared::{CardSet, Event, Seat};
use parlor_tests::http;
use serde_json::{Value, json};
use support::{Backend, Storage, parlor_bin, play_moves};

/// `GET path`, expecting `status` and, for errors, the code.
async fn get(addr: std::net::SocketAddr, path: &str, status: u16, code: Option<&str>) -> Value {
    let (got, body) = http(addr, "GET", path, None).await;
    assert_eq!(got, status, "GET {path}: {body}");
    if let Some(code) = code {
        assert_eq!(body["code"], code, "GET {path}: {body}");
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    body
}

/// A replay shows a finished hand face up and agrees with what the players were shown; the
/// hand being played, and hands not begun, are refused.
async fn finished_hands_are_served_face_up_and_the_hand_in_play_is_refused(backend: Backend) {
    let dir = Storage::new(backend, "replay").await;
    let server = dir.start();
    let addr = server.addr;
    let body = json!({"variant": "hearts", "options": {"target": 100}, "seed": 77});
    let (_, created) = http(addr, "POST", "/api/tables", Some(&body)).await;
    let id = created["id"].as_str().expect("an id").to_string();
    let hands = format!("/api/tables/{id}/hands");

    get(
        addr,
        "/api/tables/nosuchtable/hands/0",
        404,
        Some("no_such_table"),
    )
    .await;
    get(addr, &format!("{hands}/0"), 404, Some("no_such_hand")).await;
    get(addr, &format!("{hands}/zero"), 404, Some("no_such_hand")).await;

    let mut clients = support::join_four(addr, &id).await;
    clients[0].send(&ClientMsg::Start {}).await;
    let (_, last) = play_moves(&mut clients, 10, |_, _| false).await;
    clients[last.expect("a mover")].snapshot().await;
    // The first hand is being played: no replay of it, not even in part.
    let refused = get(addr, &format!("{hands}/0"), 409, Some("hand_not_finished")).await;
    assert!(refused.get("dealt").is_none());
    assert_eq!(get(addr, &hands, 200, None).await, json!([]));

    // Finish the first hand and play a little of the second.
    let mut scored = None;
    play_moves(&mut clients, usize::MAX, |i, msg| {
        if let ServerMsg::Event {
            event: Event::HandScored(result),
            ..
        } = msg
            && i == 0
        {
            scored = Some(result.clone());
            return true;
        }
        false
    })
    .await;
    let (_, last) = play_moves(&mut clients, 5, |_, _| false).await;
    clients[last.expect("a mover")].snapshot().await;

    let list = get(addr, &hands, 200, None).await;
    assert_eq!(list.as_array().map(Vec::len), Some(1), "{list}");
    assert_eq!(list[0]["url"], format!("{hands}/0"));
    let hand = get(addr, &format!("{hands}/0"), 200, None).await;
    get(addr, &format!("{hands}/1"), 409, Some("hand_not_finished")).await;
    get(addr, &format!("{hands}/2"), 404, Some("no_such_hand")).await;

    // Every card face up: 52 distinct cards dealt, each seat's hand as it was dealt to it.
    let dealt: Vec<CardSet> = serde_json::from_value(hand["dealt"].clone()).expect("dealt");
    assert_eq!(dealt.len(), 4);
    let all: BTreeSet<String> = dealt
        .iter()
        .flat_map(|s| s.iter())
        .map(|c| c.to_string())
        .collect();
    assert_eq!(all.len(), 52);
    for client in &clients {
        let seat = client.seat.expect("seated");
        let own = client
            .frames
            .iter()
            .filter_map(|f| serde_json::from_str::<ServerMsg>(f).ok())
            .find_map(|m| match m {
                ServerMsg::Event {
                    event: Event::Dealt { seat: s, cards },
                    ..
                } if s == seat => Some(cards),
                _ => None,
            })
            .expect("the client was dealt a hand");
        assert_eq!(dealt[seat.index()], own, "{seat}'s dealt hand");
    }
    // Passes, then 13 tricks of four cards, each led by the last winner.
    assert_eq!(hand["passes"].as_array().map(Vec::len), Some(4));
    let tricks = hand["tricks"].as_array().expect("tricks");
    assert_eq!(tricks.len(), 13);
    let mut played = BTreeSet::new();
    for (k, trick) in tricks.iter().enumerate() {
        let plays = trick["plays"].as_array().expect("plays");
        assert_eq!(plays.len(), 4);
        assert_eq!(trick["leader"], plays[0]["seat"]);
        if k > 0 {
            assert_eq!(trick["leader"], tricks[k - 1]["winner"]);
        }
        for play in plays {
            played.insert(play["card"].as_str().expect("a card").to_string());
        }
    }
    assert_eq!(played, all, "every dealt card is played");
    let result = serde_json::to_value(scored.expect("the hand was scored")).expect("json");
    assert_eq!(hand["result"], result);
    assert_eq!(hand["players"][1]["name"], "p1");
    assert_eq!(hand["hand"], 0);
    assert_eq!(hand["match_no"], 1);
    // The seed deals the hands still to come: never in a replay.
    assert!(
        hand.as_object()
            .expect("an object")
            .keys()
            .all(|k| !k.contains("seed"))
    );
    for client in &clients {
        let token = client.token.as_deref().expect("a token");
        assert!(
            !hand.to_string().contains(token),
            "no seat token in a replay"
        );
    }
    server.stop();
}

#[tokio::test]
async fn finished_hands_are_served_face_up_and_the_hand_in_play_is_refused_on_sqlite() {
    finished_hands_are_served_face_up_and_the_hand_in_play_is_refused(Backend::Sqlite).await;
}

#[tokio::test]
async fn finished_hands_are_served_face_up_and_the_hand_in_play_is_refused_on_postgres() {
    finished_hands_are_served_face_up_and_the_hand_in_play_is_refused(Backend::Postgres).await;
}

/// `parlor replay` prints a finished hand from a file or from the server, in the compact
/// notation, and explains a refusal.
async fn parlor_replay_prints_a_finished_hand_in_compact_notation(backend: Backend) {
    let dir = Storage::new(backend, "replay-cli").await;
    let server = dir.start();
    let addr = server.addr;
    let body = json!({"variant": "whist", "options": {"target": 8}, "seed": 3});
    let (_, created) = http(addr, "POST", "/api/tables", Some(&body)).await;
    let id = created["id"].as_str().expect("an id").to_string();
    let mut clients = support::join_four(addr, &id).await;
    clients[0].send(&ClientMsg::Start {}).await;
    // Whist: a hand is 52 cards; play it and one more card.
    let (_, last) = play_moves(&mut clients, 53, |_, _| false).await;
    clients[last.expect("a mover")].snapshot().await;

    let url = format!("http://{addr}/api/tables/{id}/hands/0");
    let (_, hand) = http(addr, "GET", &format!("/api/tables/{id}/hands/0"), None).await;
    let file = dir.dir.path().join("hand0.json");
    std::fs::write(&file, hand.to_string()).expect("write");

    let dealt: Vec<CardSet> = serde_json::from_value(hand["dealt"].clone()).expect("dealt");
    for source in [file.to_string_lossy().to_string(), url.clone()] {
        let out = Command::new(parlor_bin())
            .args(["replay", &source])
            .output()
            .expect("run parlor replay");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{source}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains(&format!("whist table {id}")), "{text}");
        assert!(text.contains("trump"), "{text}");
        for (seat, cards) in dealt.iter().enumerate() {
            let line = format!("{} (p{seat}): {}", Seat(seat as u8), cards.to_compact(true));
            assert!(text.contains(&line), "missing `{line}` in:\n{text}");
        }
        let trick_lines = text.lines().filter(|l| l.contains("won by")).count();
        assert_eq!(trick_lines, 13, "{text}");
    }

    let out = Command::new(parlor_bin())
        .args(["replay", &format!("http://{addr}/api/tables/{id}/hands/1")])
        .output()
        .expect("run parlor replay");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("409") && err.contains("not over"), "{err}");
    server.stop();
}

#[tokio::test]
async fn parlor_replay_prints_a_finished_hand_in_compact_notation_on_sqlite() {
    parlor_replay_prints_a_finished_hand_in_compact_notation(Backend::Sqlite).await;
}

#[tokio::test]
async fn parlor_replay_prints_a_finished_hand_in_compact_notation_on_postgres() {
    parlor_replay_prints_a_finished_hand_in_compact_notation(Backend::Postgres).await;
}

/// A server that keeps no log (in-process here, as `parlor serve --no-store`) says so rather
/// than pretending the table has no hands.
#[tokio::test]
async fn without_a_store_replays_are_refused_with_a_reason() {
    let server = parlor_tests::TestServer::start().await;
    let id = server
        .create_table(json!({"variant": "hearts", "seed": 1}))
        .await;
    get(
        server.addr,
        &format!("/api/tables/{id}/hands/0"),
        404,
        Some("no_storage"),
    )
    .await;
    server.stop().await;
}

/// A Bridge table's finished boards download as PBN that reads back to the board as played:
/// the deal, the auction from the dealer, the contract, the result, the score and the play.
#[tokio::test]
async fn finished_bridge_boards_download_as_pbn() {
    use parlor_shared::bridge::pbn;
    use parlor_shared::bridge::{AuctionResult, Call, Contract};
    use parlor_shared::rules::Call as TableCall;

    let dir = Storage::new(Backend::Sqlite, "replay-pbn").await;
    let server = dir.start();
    let addr = server.addr;
    let body = json!({"variant": "bridge", "options": {"hands": 2}, "seed": 12});
    let (_, created) = http(addr, "POST", "/api/tables", Some(&body)).await;
    let id = created["id"].as_str().expect("an id").to_string();
    let mut clients = support::join_four(addr, &id).await;
    clients[0].send(&ClientMsg::Start {}).await;
    // Not finished: no board to download yet. The start reaches the table as a message, so
    // the first board may not have begun (404) when the request arrives.
    let first = format!("/api/tables/{id}/hands/0/pbn");
    for attempt in 0.. {
        let (status, body) = http(addr, "GET", &first, None).await;
        if status == 404 && attempt < 200 {
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
            continue;
        }
        assert_eq!(status, 409, "GET {first}: {body}");
        assert_eq!(body["code"], "hand_not_finished", "GET {first}: {body}");
        break;
    }
    support::play_to_end(&mut clients).await;

    let mut boards = Vec::new();
    for n in 0..2 {
        let hand = get(addr, &format!("/api/tables/{id}/hands/{n}"), 200, None).await;
        let path = format!("/api/tables/{id}/hands/{n}/pbn");
        let (status, head, text) = parlor_tests::http_raw(addr, "GET", &path, None).await;
        assert_eq!(status, 200, "{text}");
        assert!(
            head.contains(&format!(
                "attachment; filename=\"parlor-{id}-board-{n}.pbn\""
            )),
            "{head}"
        );
        assert!(text.starts_with("% PBN 2.1"), "{text}");
        let board = pbn::read(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        let result = &hand["result"]["board"];
        assert_eq!(u64::from(board.board.0), result["board"].as_u64().unwrap());
        assert_eq!(board.board.0, n + 1, "boards are numbered from 1");
        let dealt: Vec<CardSet> = serde_json::from_value(hand["dealt"].clone()).unwrap();
        for seat in 0..4u8 {
            assert_eq!(
                board.deal[Seat(seat)],
                dealt[usize::from(seat)],
                "seat {seat}"
            );
        }
        assert_eq!(board.dealer.0, hand["dealer"].as_u64().unwrap() as u8);
        let calls: Vec<TableCall> = hand["calls"]
            .as_array()
            .expect("the auction's calls")
            .iter()
            .map(|c| serde_json::from_value(c.clone()).unwrap())
            .collect();
        let auction: Vec<Call> = calls.iter().filter_map(|c| c.in_auction()).collect();
        assert_eq!(auction.len(), calls.len(), "every call is the auction's");
        assert_eq!(board.auction, auction);
        assert_eq!(board.score, result["score"].as_i64().map(|s| s as i32));
        match board.contract.expect("a contract or a pass-out") {
            AuctionResult::PassedOut => {
                assert!(result.get("contract").is_none());
                assert!(board.play.is_empty());
            }
            AuctionResult::Contract(contract) => {
                let played: Contract = serde_json::from_value(result["contract"].clone()).unwrap();
                assert_eq!(contract, played);
                assert_eq!(
                    board.tricks.map(u64::from),
                    result["declarer_tricks"].as_u64()
                );
                let play: Vec<String> = hand["tricks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .flat_map(|t| t["plays"].as_array().unwrap().clone())
                    .map(|p| p["card"].as_str().unwrap().to_string())
                    .collect();
                let read: Vec<String> = board.play.iter().map(ToString::to_string).collect();
                assert_eq!(read, play, "the play in order");
            }
        }
        // `parlor replay --pbn` writes the same board from the replay's JSON.
        let file = dir.dir.path().join(format!("board{n}.json"));
        std::fs::write(&file, hand.to_string()).expect("write");
        let out = Command::new(parlor_bin())
            .args(["replay", "--pbn", &file.to_string_lossy()])
            .output()
            .expect("run parlor replay");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            format!(
                "% PBN 2.1\n% EXPORT\n{}",
                String::from_utf8_lossy(&out.stdout)
            ),
            text
        );
        boards.push(text);
    }
    // The whole table in one file: the header once, then each board.
    let (status, _, all) =
        parlor_tests::http_raw(addr, "GET", &format!("/api/tables/{id}/pbn"), None).await;
    assert_eq!(status, 200);
    assert_eq!(all.matches("% PBN 2.1").count(), 1);
    for board in &boards {
        let body = board.trim_start_matches("% PBN 2.1\n% EXPORT\n");
        assert!(all.contains(body), "{all}");
    }

    // Another game has no PBN.
    let body = json!({"variant": "hearts", "seed": 1});
    let (_, created) = http(addr, "POST", "/api/tables", Some(&body)).await;
    let hearts = created["id"].as_str().expect("an id");
    get(
        addr,
        &format!("/api/tables/{hearts}/pbn"),
        404,
        Some("not_bridge"),
    )
    .await;
    server.stop();
}
