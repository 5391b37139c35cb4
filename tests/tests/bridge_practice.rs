//! A practice table of Bridge set up from a PBN board over HTTP: four people seated there are
//! each dealt exactly their hand of the board's `Deal` tag, as the board its `Board` tag
//! names, with no commitment (a fixed deal is not dealt from a secret), and nobody is shown
//! the deal itself; a bad board is refused with 400 and the PBN reader's reason.

use std::sync::Arc;

use parlor_server::Config;
use parlor_server::http::AppState;
use parlor_server::store::SqliteStore;
use parlor_server::store::hands::HandReplay;
use parlor_server::tools::verify::check;
use parlor_shared::bridge::Vulnerability;
use parlor_shared::protocol::ServerMsg;
use parlor_shared::{CardSet, Event, Seat};
use parlor_tests::{Rng, TestServer, http, play_to_end, seat_players, start};
use serde_json::json;

/// A board as another program writes it: comments, an auction and tags the table ignores.
const BOARD: &str = r#"% PBN 2.1
[Event "Club pairs"]
[Site "?"]
[Board "6"]
[Dealer "E"]
[Vulnerable "EW"]
[Deal "W:QT5.QJ9.KJ84.QJ5 AKJ9742.A2.73.K6 3.T763.T652.A972 86.K854.AQ9.T843"]
[Declarer "N"]
[Contract "4S"]
[Result "10"]
[Auction "E"]
Pass Pass Pass 1S
Pass 2H Pass 4S
Pass Pass Pass
"#;

/// North's, East's, South's and West's hands in `BOARD`.
fn expected(seat: Seat) -> CardSet {
    let compact = [
        "AKJ9742s A2h 73d K6c",
        "3s T763h T652d A972c",
        "86s K854h AQ9d T843c",
        "QT5s QJ9h KJ84d QJ5c",
    ][seat.index()];
    CardSet::parse_compact(compact).unwrap()
}

#[tokio::test]
async fn each_seat_is_dealt_its_hand_of_the_pbn_board() {
    // A store, for the finished board's record.
    let store = SqliteStore::in_memory().expect("a store in memory");
    let server =
        TestServer::with_state(AppState::new(Config::default()).with_store(Arc::new(store))).await;
    let id = server
        .create_table(json!({"variant": "bridge", "options": {"hands": 1}, "pbn": BOARD}))
        .await;
    let (status, info) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(status, 200, "{info}");
    // The deal is every hand of the board: the table keeps it, nobody is shown it.
    assert_eq!(info["options"].get("deal"), None, "{info}");
    assert_eq!(info["options"]["board"], 6);
    assert_eq!(
        info["practice"], true,
        "whoever knows the deal knows every hand"
    );

    let mut clients = seat_players(&server, &id, 4).await;
    start(&mut clients).await;
    for client in &mut clients {
        let me = client.seat.expect("seated");
        let started = client
            .recv_until(|m| {
                matches!(
                    m,
                    ServerMsg::Event {
                        event: Event::HandStarted { .. },
                        ..
                    }
                )
            })
            .await;
        let ServerMsg::Event {
            event: Event::HandStarted {
                dealer, commitment, ..
            },
            ..
        } = started
        else {
            unreachable!()
        };
        // Board 6: East deals, East-West vulnerable; no secret dealt it, so nothing to commit.
        assert_eq!(dealer, Seat(1), "{me}");
        assert_eq!(commitment, None, "{me}");
        let board = client
            .recv_until(|m| {
                matches!(
                    m,
                    ServerMsg::Event {
                        event: Event::Board { .. },
                        ..
                    }
                )
            })
            .await;
        assert!(matches!(
            board,
            ServerMsg::Event {
                event: Event::Board {
                    board: 6,
                    vulnerability: Vulnerability::EastWest
                },
                ..
            }
        ));
        let dealt = client
            .recv_until(|m| {
                matches!(
                    m,
                    ServerMsg::Event {
                        event: Event::Dealt { .. },
                        ..
                    }
                )
            })
            .await;
        let ServerMsg::Event {
            event: Event::Dealt { seat, cards },
            ..
        } = dealt
        else {
            unreachable!()
        };
        assert_eq!(seat, me);
        assert_eq!(cards, expected(me), "{me}");
    }

    // The finished board's record: no commitment, no secret, and `parlor verify` says why.
    play_to_end(&mut clients, &mut Rng::new(6)).await;
    // No frame named the deal (views and table info carry the options without it).
    for client in &clients {
        for frame in &client.frames {
            assert!(
                !frame.contains("\"deal\"") && !frame.contains("AKJ9742.A2"),
                "a frame shows the deal: {frame}"
            );
        }
    }
    let (status, record) = http(
        server.addr,
        "GET",
        &format!("/api/tables/{id}/hands/0"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["commitment"], serde_json::Value::Null, "{record}");
    assert_eq!(
        record["result"]["secret"],
        serde_json::Value::Null,
        "{record}"
    );
    let replay: HandReplay = serde_json::from_value(record).unwrap();
    assert_eq!(replay.dealt[0], expected(Seat(0)));
    let refused = check(&replay).unwrap_err().to_string();
    assert!(
        refused.contains("fixed deal") && refused.contains("no fair deal to verify"),
        "{refused}"
    );
    server.stop().await;
}

/// `POST /api/tables` with `body`.
async fn create(addr: std::net::SocketAddr, body: serde_json::Value) -> (u16, serde_json::Value) {
    http(addr, "POST", "/api/tables", Some(&body)).await
}

#[tokio::test]
async fn a_bad_pbn_board_is_refused_with_the_reader_s_reason() {
    let server = TestServer::start().await;
    let addr = server.addr;

    let twice = BOARD.replace("A972 86", "A972 66");
    let (status, reply) = create(addr, json!({"variant": "bridge", "pbn": twice})).await;
    assert_eq!(status, 400, "{reply}");
    assert_eq!(reply["code"], "bad_pbn", "{reply}");
    let message = reply["message"].as_str().unwrap();
    assert!(
        message.starts_with("bad PBN board: deal `W:") && message.contains("appears twice"),
        "{message}"
    );

    let (status, reply) = create(
        addr,
        json!({"variant": "bridge", "pbn": "[Deal \"N:AKQ\"]\n"}),
    )
    .await;
    assert_eq!(
        (status, &reply["code"]),
        (400, &json!("bad_pbn")),
        "{reply}"
    );
    assert_eq!(
        reply["message"],
        "bad PBN board: the [Board \"...\"] tag is missing"
    );

    // A board number past any a club plays is refused, not dealt.
    let huge = BOARD.replace("[Board \"6\"]", "[Board \"4294967295\"]");
    let (status, reply) = create(addr, json!({"variant": "bridge", "pbn": huge})).await;
    assert_eq!(status, 400, "{reply}");
    assert_eq!(
        reply["message"],
        "the option `board` must be between 1 and 9999"
    );

    let (status, reply) = create(addr, json!({"variant": "hearts", "pbn": BOARD})).await;
    assert_eq!(status, 400, "{reply}");
    assert_eq!(
        reply["message"],
        "the option `deal` does not apply to hearts"
    );

    let (status, reply) = create(addr, json!({
        "variant": "bridge",
        "options": {"deal": "N:AKJ9742.A2.73.K6 3.T763.T652.A972 86.K854.AQ9.T843 QT5.QJ9.KJ84.QJ5"},
        "pbn": BOARD,
    }))
    .await;
    assert_eq!(status, 400, "{reply}");
    assert!(
        reply["message"]
            .as_str()
            .unwrap()
            .contains("give the deal once"),
        "{reply}"
    );
    assert_eq!(reply["code"], "bad_pbn", "{reply}");

    let (status, reply) = create(addr, json!({"variant": "bridge", "pbn": 6})).await;
    assert_eq!(
        (status, &reply["code"]),
        (400, &json!("bad_request")),
        "{reply}"
    );

    // The options themselves, as stored: a deal of twelve cards in a hand.
    let (status, reply) = create(addr, json!({
        "variant": "bridge",
        "options": {"deal": "N:AKJ9742.A2.73.K 3.T763.T652.A972 86.K854.AQ9.T843 QT5.QJ9.KJ84.QJ5"},
    }))
    .await;
    assert_eq!(
        (status, &reply["code"]),
        (400, &json!("bad_options")),
        "{reply}"
    );
    assert!(
        reply["message"].as_str().unwrap().contains("thirteen"),
        "{reply}"
    );
    server.stop().await;
}
