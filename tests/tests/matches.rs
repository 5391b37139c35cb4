//! Whole matches over real WebSockets: remote clients in every seat, and a person with
//! built-in bots.

use parlor_shared::bots::strategy_names;
use parlor_shared::protocol::{ClientMsg, Occupant, ServerMsg, TableStatus};
use parlor_shared::{Event, Legal, Seat, Variant};
use parlor_tests::{
    Rng, TestServer, VARIANTS, WsClient, drive, play_to_end, players, seat_players, short_options,
    start,
};
use serde_json::json;

/// Fills seats 1 to 3 with random built-in bots and starts the match (`host` hosts).
async fn add_random_bots_and_start(host: &mut WsClient) {
    host.seat_bots_and_start(&["random"; 3]).await;
}

/// A remote program hosting a one-hand whist match against three random bots, with 2 s a
/// turn; the match has started.
async fn remote_bot_with_a_turn_limit(server: &TestServer) -> WsClient {
    let id = server
        .create_table(json!({"variant": "whist", "options": {"target": 1},
            "table_options": {"bot_timeout_ms": 2000}, "seed": 3}))
        .await;
    let mut bot = server.client().await;
    assert!(
        bot.join_with(&id, "remote", true).await,
        "a program hosts while no person sits"
    );
    add_random_bots_and_start(&mut bot).await;
    bot
}

/// Every variant plays to its end with a remote client in each seat; every client sees the
/// same, consecutively numbered public events and the match-over event.
#[tokio::test]
async fn a_full_match_of_every_variant_with_remote_clients() {
    let server = TestServer::start().await;
    for (k, variant) in VARIANTS.into_iter().enumerate() {
        let id = server
            .create_table(json!({"variant": variant, "options": short_options(variant), "seed": k}))
            .await;
        let mut clients = seat_players(&server, &id, players(variant)).await;
        start(&mut clients).await;
        let winners = play_to_end(&mut clients, &mut Rng::new(k as u64)).await;
        assert!(!winners.is_empty(), "{variant}: the match has winners");

        // Event numbers are consecutive for each recipient of public events.
        for (i, client) in clients.iter().enumerate() {
            let seqs: Vec<u64> = client
                .frames
                .iter()
                .filter_map(|f| serde_json::from_str::<ServerMsg>(f).ok())
                .filter_map(|m| match m {
                    ServerMsg::Event { seq, event, .. } if event.visible_to(None) => Some(seq),
                    _ => None,
                })
                .collect();
            assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{variant} client {i}");
            assert_eq!(seqs[0], 1, "{variant}: the first event is number 1");
        }
        let (_, table) =
            parlor_tests::http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
        assert_eq!(table["status"], "finished", "{variant}");
        assert_eq!(table["matches_played"], 1, "{variant}");
    }
}

/// A person hosts, fills the other seats with built-in bots, plays a match to its end, and
/// starts another one; then the bots can be removed.
#[tokio::test]
async fn a_person_and_built_in_bots_play_two_matches() {
    let server = TestServer::start().await;
    let id = server
        .create_table(json!({"variant": "hearts", "options": {"target": 40}, "seed": 7}))
        .await;
    let mut host = server.client().await;
    assert!(host.join(&id, "Ann").await);
    let names = strategy_names(Variant::Hearts);
    for seat in 1..4u8 {
        let strategy = names[seat as usize % names.len()].to_string();
        host.send(&ClientMsg::AddBot {
            seat: Seat(seat),
            strategy,
        })
        .await;
        let table = host
            .recv_until(|m| {
                matches!(m, ServerMsg::Table { table, .. }
                    if table.seats[seat as usize].occupant == Occupant::Bot)
            })
            .await;
        assert!(matches!(table, ServerMsg::Table { .. }));
    }
    let mut clients = vec![host];
    for round in 0..2u64 {
        start(&mut clients).await;
        let state = clients[0]
            .recv_until(|m| matches!(m, ServerMsg::State { .. }))
            .await;
        let ServerMsg::State { view, .. } = state else {
            unreachable!()
        };
        assert_eq!(view.hand.len(), 13, "a fresh deal");
        // The deal goes round from match to match: West deals the first, North the second.
        assert_eq!(
            view.dealer,
            Seat([3, 0][round as usize]),
            "match {}",
            round + 1
        );
        let winners = play_to_end(&mut clients, &mut Rng::new(round)).await;
        assert!(!winners.is_empty());
        let table = clients[0]
            .recv_until(|m| matches!(m, ServerMsg::Table { .. }))
            .await;
        let ServerMsg::Table { table, .. } = table else {
            unreachable!()
        };
        assert_eq!(table.status, TableStatus::Finished);
        assert_eq!(table.matches_played, round as u32 + 1);
    }
    check_score_sheets(&clients[0].frames);
    clients[0]
        .send(&ClientMsg::RemoveBot { seat: Seat(2) })
        .await;
    clients[0]
        .recv_until(|m| {
            matches!(m, ServerMsg::Table { table, .. }
                if table.seats[2].occupant == Occupant::Empty)
        })
        .await;
}

/// Every view a client was sent (prompts and snapshots) carries as its score sheet exactly the
/// hands scored so far in its match, as the client's events tell them: the table keeps its
/// sheet written from hand to hand and match to match, and must never send a stale one.
fn check_score_sheets(frames: &[String]) {
    let mut scored = Vec::new();
    let mut matches = 0;
    let mut checked_with_lines = 0;
    for frame in frames {
        let view = match serde_json::from_str::<ServerMsg>(frame) {
            Ok(ServerMsg::Event { event, .. }) => {
                match event {
                    Event::HandStarted { hand: 0, .. } => {
                        matches += 1;
                        scored.clear();
                    }
                    Event::HandScored(line) => scored.push(line),
                    _ => {}
                }
                continue;
            }
            Ok(ServerMsg::YourTurn { view, .. } | ServerMsg::State { view, .. }) => view,
            _ => continue,
        };
        assert_eq!(
            *view.history, scored,
            "the score sheet of a view in match {matches}"
        );
        checked_with_lines += usize::from(!scored.is_empty());
    }
    assert_eq!(matches, 2);
    assert!(
        checked_with_lines > 10,
        "views late in a match were checked"
    );
}

/// A remote program that never answers its prompts: a built-in bot plays each of its turns
/// when its time runs out, and the match goes on to the end. Time is paused: the timeouts
/// pass without waiting.
#[tokio::test(start_paused = true)]
async fn a_silent_remote_bot_is_played_for_when_its_time_runs_out() {
    let server = TestServer::start().await;
    let mut bot = remote_bot_with_a_turn_limit(&server).await;
    let mut prompts = 0;
    let mut own_plays = 0;
    loop {
        match bot.recv().await {
            ServerMsg::YourTurn { timeout_ms, .. } => {
                assert_eq!(timeout_ms, Some(2000), "bot seats are told their time");
                prompts += 1;
            }
            ServerMsg::Event {
                event: Event::Played { seat: Seat(0), .. },
                ..
            } => own_plays += 1,
            ServerMsg::Event {
                event: Event::MatchOver { .. },
                ..
            } => break,
            ServerMsg::Table { table, .. } => {
                assert_eq!(table.seats[0].occupant, Occupant::RemoteBot);
                assert!(
                    !table.seats[0].bot_playing,
                    "only that turn is played for it"
                );
            }
            _ => {}
        }
    }
    assert!(
        own_plays > 0 && own_plays == prompts,
        "{own_plays} plays, {prompts} prompts"
    );
}

/// Random moves from every seat of every variant, many matches: the table never refuses a
/// legal move and always reaches the end.
#[tokio::test]
async fn legal_random_moves_are_always_accepted() {
    let server = TestServer::start().await;
    for seed in 0..3u64 {
        let id = server
            .create_table(
                json!({"variant": "tricks", "options": {"target": 13, "bad_card": "reject"}}),
            )
            .await;
        let mut clients = seat_players(&server, &id, 4).await;
        start(&mut clients).await;
        let moves = drive(&mut clients, &mut Rng::new(seed), |_, m| {
            matches!(
                m,
                ServerMsg::Event {
                    event: Event::MatchOver { .. },
                    ..
                }
            )
        })
        .await;
        assert!(moves >= 13);
    }
}

/// With `bot_delay_ms`, built-in bots wait before each move so people can follow; the match
/// still plays to its end. Time is paused: the waits are measured on tokio's clock, between
/// frames that cross a real socket. A frame can arrive late (the paused clock may jump to the
/// next bot's turn while it is on its way), so one gap can be short; summed over the bots'
/// moves in a row, the gaps come to at least half their waits, and to none without them.
#[tokio::test(start_paused = true)]
async fn built_in_bots_pace_their_moves_when_asked() {
    let server = TestServer::start().await;
    let id = server
        .create_table(
            json!({"variant": "hearts", "options": {"target": 10, "passing": false},
            "table_options": {"bot_delay_ms": 600}, "seed": 12}),
        )
        .await;
    let mut host = server.client().await;
    host.join(&id, "Ann").await;
    add_random_bots_and_start(&mut host).await;
    let mut rng = Rng::new(2);
    let mut last_bot_move: Option<tokio::time::Instant> = None;
    let mut since_prompt = true;
    let mut bot_moves = 0;
    let (mut waited, mut waits) = (std::time::Duration::ZERO, 0u32);
    loop {
        match host.recv().await {
            ServerMsg::YourTurn { legal, .. } => {
                let reply = parlor_tests::random_move(&legal, &mut rng).unwrap();
                host.send(&reply).await;
                since_prompt = true;
            }
            ServerMsg::Event {
                event: Event::Played { seat, .. },
                ..
            } if seat != Seat(0) => {
                let now = tokio::time::Instant::now();
                if let Some(last) = last_bot_move
                    && !since_prompt
                {
                    waited += now - last;
                    waits += 1;
                }
                last_bot_move = Some(now);
                since_prompt = false;
                bot_moves += 1;
            }
            ServerMsg::Event {
                event: Event::MatchOver { .. },
                ..
            } => break,
            _ => {}
        }
    }
    assert!(bot_moves >= 39);
    assert!(waits >= 20, "bots moved in a row {waits} times");
    assert!(
        waited >= std::time::Duration::from_millis(600) * waits / 2,
        "{waits} waits of 600 ms took {waited:?}"
    );
}

/// `sync` repeats the prompt with the time actually left: asking again buys no time.
#[tokio::test(start_paused = true)]
async fn sync_repeats_the_prompt_with_the_time_left() {
    let server = TestServer::start().await;
    let id = server
        .create_table(
            json!({"variant": "tricks", "options": {"bad_card": "reject"},
            "table_options": {"bot_timeout_ms": 2000}, "seed": 9}),
        )
        .await;
    let mut bot = server.client().await;
    assert!(bot.join_with(&id, "slow", true).await);
    add_random_bots_and_start(&mut bot).await;
    let ServerMsg::YourTurn {
        legal, timeout_ms, ..
    } = bot
        .recv_until(|m| matches!(m, ServerMsg::YourTurn { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(timeout_ms, Some(2000));
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    bot.send(&ClientMsg::Sync {}).await;
    bot.recv_until(|m| matches!(m, ServerMsg::State { .. }))
        .await;
    let ServerMsg::YourTurn {
        legal: again,
        timeout_ms: left,
        ..
    } = bot.recv().await
    else {
        panic!("your_turn after the snapshot")
    };
    assert_eq!(again, legal);
    assert_eq!(left, Some(1500));
}

/// A remote program answering every prompt at once, against built-in bots that never wait,
/// plays far more moves than its rate limit's burst without a single refusal: the answer to
/// a prompt costs no token. (The flood test in `bad_input.rs` shows other moves do.)
#[tokio::test]
async fn a_fast_remote_bot_is_never_rate_limited_for_its_own_moves() {
    let burst = 10;
    let server = TestServer::with_config(parlor_server::Config {
        rate_per_sec: 2,
        burst,
        ..parlor_server::Config::default()
    })
    .await;
    let id = server
        .create_table(json!({"variant": "hearts", "options": {"target": 30}, "seed": 8}))
        .await;
    let mut bot = server.client().await;
    assert!(bot.join_with(&id, "quick", true).await);
    add_random_bots_and_start(&mut bot).await;
    let mut rng = Rng::new(8);
    let mut moves = 0;
    loop {
        match bot.recv().await {
            ServerMsg::YourTurn { legal, .. } => {
                let msg = parlor_tests::random_move(&legal, &mut rng).expect("a move");
                bot.send(&msg).await;
                moves += 1;
            }
            ServerMsg::Error { code, message } => {
                panic!("refused after {moves} moves: {code}: {message}")
            }
            ServerMsg::Event {
                event: Event::MatchOver { .. },
                ..
            } => break,
            _ => {}
        }
    }
    assert!(moves > 3 * burst as usize, "{moves} moves");
}

/// A slow remote bot names the prompt it answers: once the server has played that turn for
/// it, a late answer is refused with `stale_move` instead of being taken for its next turn.
/// Time is paused: the turn limit passes without waiting.
#[tokio::test(start_paused = true)]
async fn a_late_answer_to_an_old_prompt_is_refused_as_stale() {
    let server = TestServer::start().await;
    let mut bot = remote_bot_with_a_turn_limit(&server).await;
    let ServerMsg::YourTurn { seq: old, .. } = bot
        .recv_until(|m| matches!(m, ServerMsg::YourTurn { .. }))
        .await
    else {
        unreachable!()
    };
    // Unanswered: the server plays that turn, and later asks for the next one.
    let ServerMsg::YourTurn {
        seq: now, legal, ..
    } = bot
        .recv_until(|m| matches!(m, ServerMsg::YourTurn { seq, .. } if *seq > old))
        .await
    else {
        unreachable!()
    };
    let Legal::Play { cards } = legal else {
        panic!("whist only plays: {legal:?}")
    };
    let card = cards.lowest().expect("a card");
    let play = |seq| ClientMsg::Play {
        card,
        seat: None,
        seq: Some(seq),
    };
    bot.send(&play(old)).await;
    assert_eq!(bot.recv_error().await.0, "stale_move");
    bot.send(&play(now)).await;
    bot.recv_until(|m| {
        matches!(m, ServerMsg::Event { event: Event::Played { seat: Seat(0), card: c }, .. }
            if *c == card)
    })
    .await;
}
