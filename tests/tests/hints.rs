//! `hint`: the `heuristic` bot's move for the asking seat, sent to it alone; refused out of
//! turn, to spectators, and at tables whose host turned hints off.

use parlor_shared::bots::{HeuristicBot, Strategy};
use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_shared::{Action, Legal, PlayerView, Seat};
use parlor_tests::{TestServer, WsClient, move_message, seat_players, start};
use serde_json::json;

/// What a `hint` got: the suggested move, or the refusal's code.
enum Answer {
    Hint(Action),
    Refused(String),
}

/// Asks for a fresh snapshot and then a hint; returns the snapshot's view (the last `state`
/// before the answer, which is the fresh one: nobody moves meanwhile) and the answer.
async fn view_and_hint(client: &mut WsClient) -> (PlayerView, Answer) {
    client.send(&ClientMsg::Sync {}).await;
    client.send(&ClientMsg::Hint {}).await;
    let mut view = None;
    loop {
        match client.recv().await {
            ServerMsg::State { view: v, .. } => view = Some(*v),
            ServerMsg::Hint { action, .. } => {
                return (view.expect("a state first"), Answer::Hint(action));
            }
            ServerMsg::Error { code, .. } => {
                return (view.expect("a state first"), Answer::Refused(code));
            }
            _ => {}
        }
    }
}

/// Plays `action` for `client` and waits until the table has applied it.
async fn play(client: &mut WsClient, action: Action) {
    client.send(&move_message(action)).await;
    client.send(&ClientMsg::Ping {}).await;
    client.recv_until(|m| matches!(m, ServerMsg::Pong {})).await;
}

/// In every seat's turn the hint is what `HeuristicBot` chooses from that seat's own view;
/// the seats that wait are refused with `not_your_turn`; nothing is played by asking.
#[tokio::test]
async fn the_hint_is_the_heuristic_bots_move_and_only_on_your_turn() {
    let server = TestServer::start().await;
    let id = server
        .create_table(json!({"variant": "hearts", "options": {"target": 30}, "seed": 11}))
        .await;
    let mut clients = seat_players(&server, &id, 4).await;

    // Before the match nobody may ask.
    clients[0].send(&ClientMsg::Hint {}).await;
    assert_eq!(clients[0].recv_error().await.0, "no_match");

    start(&mut clients).await;
    let mut given = [0usize; 4];
    // The passing phase: everyone acts; each plays the hint it got, which is legal.
    for client in &mut clients {
        let (view, answer) = view_and_hint(client).await;
        assert!(matches!(view.legal, Legal::Pass { .. }), "passing first");
        let Answer::Hint(action) = answer else {
            panic!("a hint on the seat's turn")
        };
        assert_eq!(action, HeuristicBot.choose(&view));
        play(client, action).await;
    }
    given = given.map(|n| n + 1);
    // Two tricks: one seat acts at a time.
    for _ in 0..8 {
        let mut mover = None;
        for (i, client) in clients.iter_mut().enumerate() {
            let (view, answer) = view_and_hint(client).await;
            match (&view.legal, answer) {
                (Legal::Wait, Answer::Refused(code)) => assert_eq!(code, "not_your_turn"),
                (Legal::Play { .. }, Answer::Hint(action)) => {
                    assert_eq!(action, HeuristicBot.choose(&view), "seat {i}");
                    assert!(mover.is_none(), "one seat acts at a time");
                    mover = Some((i, action));
                }
                (legal, _) => panic!("seat {i}: an unexpected answer while {legal:?}"),
            }
        }
        let (i, action) = mover.expect("someone has to act");
        given[i] += 1;
        play(&mut clients[i], action).await;
    }
    // Each seat heard exactly the hints it was given, nobody else's.
    for (i, client) in clients.iter().enumerate() {
        let hints = client
            .frames
            .iter()
            .filter(|f| f.contains("\"type\":\"hint\""))
            .count();
        assert_eq!(hints, given[i], "seat {i} heard only its own hints");
    }
}

/// A table created with `hints: false` refuses hints even on the seat's turn, and says so in
/// its table options; spectators are refused at any table.
#[tokio::test]
async fn hints_off_and_spectators_are_refused() {
    let server = TestServer::start().await;
    let id = server
        .create_table(json!({"variant": "hearts", "table_options": {"hints": false}, "seed": 5}))
        .await;
    let (_, table) =
        parlor_tests::http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(table["table_options"]["hints"], false);

    let mut host = server.client().await;
    assert!(host.join(&id, "Ann").await);
    for seat in 1..4u8 {
        host.send(&ClientMsg::AddBot {
            seat: Seat(seat),
            strategy: "random".into(),
        })
        .await;
    }
    host.send(&ClientMsg::Start {}).await;
    host.recv_until(|m| matches!(m, ServerMsg::YourTurn { .. }))
        .await;
    host.send(&ClientMsg::Hint {}).await;
    let (code, message) = host.recv_error().await;
    assert_eq!(code, "hints_off");
    assert!(message.contains("hints off"), "{message}");

    // The default is on, but a spectator has no seat to suggest for.
    let open = server.create_table(json!({"variant": "hearts"})).await;
    let (_, table) =
        parlor_tests::http(server.addr, "GET", &format!("/api/tables/{open}"), None).await;
    assert_eq!(
        table["table_options"]["hints"], true,
        "hints are on by default"
    );
    let mut watcher = server.client().await;
    watcher
        .send(&ClientMsg::Watch {
            table: open.clone(),
        })
        .await;
    watcher
        .recv_until(|m| matches!(m, ServerMsg::Welcome { .. }))
        .await;
    watcher.send(&ClientMsg::Hint {}).await;
    assert_eq!(watcher.recv_error().await.0, "not_seated");
}
