//! Fuzzing the protocol on stable Rust (proptest): random byte strings and random sequences
//! of valid-looking messages from several connections at one table, through the same reader
//! a WebSocket connection uses, with the table's actor and an in-memory store behind it.
//!
//! Each case asserts: nothing panics (the table's actor is still there at the end); every
//! frame the server sends parses as a server message; every message is answered (the sender
//! gets at least one frame, except for the few messages that answer nothing by design); and
//! the game each seat and a spectator are shown is exactly the one the accepted moves alone
//! produce (the stored log replayed on a fresh engine, up to the snapshot's `seq`).
//!
//! CI runs a short campaign; `PARLOR_FUZZ_CASES=N` runs a longer one (use `--release`).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use parlor_shared::protocol::{CreateTable, ServerMsg, TableOptions};
use parlor_shared::rules::Rules;
use parlor_shared::{Action, Legal, Options, PlayerView, Seat, Variant};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::reader::Reader;
use super::{FloodGuard, Sessions};
use crate::conn::{Conn, ConnId, Frame, Receiver, bounded};
use crate::lobby::Lobby;
use crate::store::{SharedStore, SqliteStore};
use crate::table::{AdminCommand, TableError, TableHandle};

/// Connections in a case (more than the seats, so some watch or are refused).
const CONNS: usize = 5;

/// Stand-in for the table's id in generated messages.
const TABLE: &str = "$TABLE";

/// One thing a connection sends.
#[derive(Debug, Clone)]
enum Input {
    /// Any bytes (as text, lossily).
    Bytes(Vec<u8>),
    /// A valid-looking message.
    Json(Value),
    /// A legal answer to the connection's latest prompt (the `n`-th legal move), with the
    /// prompt's `seq` or without; a `sync` when it has none.
    Answer(u16, bool),
}

fn card() -> impl Strategy<Value = String> {
    prop_oneof![
        20 => (0..13usize, 0..4usize).prop_map(|(r, s)| format!(
            "{}{}",
            &"23456789TJQKA"[r..=r],
            &"CDHS"[s..=s]
        )),
        1 => "[A-Z0-9?]{0,3}",
    ]
}

fn seat() -> impl Strategy<Value = Option<u8>> {
    prop::option::of(0..6u8)
}

fn message() -> impl Strategy<Value = Value> {
    let table = prop_oneof![8 => Just(TABLE.to_string()), 1 => "[a-z0-9]{0,12}"];
    prop_oneof![
        3 => (table.clone(), seat(), prop::option::of("\\PC{0,20}"), prop::option::of("[a-z0-9-]{0,40}"), any::<bool>())
            .prop_map(|(table, seat, name, token, bot)| json!({"type": "join", "table": table, "seat": seat, "name": name, "token": token, "bot": bot})),
        1 => table.prop_map(|table| json!({"type": "watch", "table": table})),
        4 => (card(), seat(), prop::option::of(0..600u64))
            .prop_map(|(card, seat, seq)| json!({"type": "play", "card": card, "seat": seat, "seq": seq})),
        2 => (prop::collection::vec(card(), 0..5), seat(), prop::option::of(0..600u64))
            .prop_map(|(cards, seat, seq)| json!({"type": "pass", "cards": cards, "seat": seat, "seq": seq})),
        2 => (0..6u8, prop_oneof![Just("random"), Just("heuristic"), Just("strong"), Just("nope")])
            .prop_map(|(seat, strategy)| json!({"type": "add_bot", "seat": seat, "strategy": strategy})),
        1 => (0..6u8).prop_map(|seat| json!({"type": "remove_bot", "seat": seat})),
        3 => Just(json!({"type": "start"})),
        1 => Just(json!({"type": "leave"})),
        1 => Just(json!({"type": "ping"})),
        1 => Just(json!({"type": "sync"})),
        1 => "\\PC{0,250}".prop_map(|text| json!({"type": "chat", "text": text})),
        1 => Just(json!({"type": "hint"})),
        1 => "[a-z_]{0,10}".prop_map(|kind| json!({"type": kind, "seat": 1})),
    ]
}

fn input() -> impl Strategy<Value = Input> {
    prop_oneof![
        2 => prop::collection::vec(any::<u8>(), 0..64).prop_map(Input::Bytes),
        5 => message().prop_map(Input::Json),
        12 => (any::<u16>(), prop::bool::weighted(0.8)).prop_map(|(n, seq)| Input::Answer(n, seq)),
    ]
}

fn steps() -> impl Strategy<Value = (u64, Vec<(usize, Input)>)> {
    let step = (0..CONNS, input());
    // Mostly a match under way from the start (four join, the host starts), so moves are
    // accepted and refused mid-game, not only before it.
    let opening = prop::bool::weighted(0.8);
    (any::<u64>(), opening, prop::collection::vec(step, 1..160)).prop_map(|(seed, open, steps)| {
        let mut all = Vec::new();
        if open {
            for who in 0..4 {
                let join = json!({"type": "join", "table": TABLE, "name": format!("p{who}")});
                all.push((who, Input::Json(join)));
            }
            all.push((0, Input::Json(json!({"type": "start"}))));
        }
        all.extend(steps);
        (seed, all)
    })
}

/// One connection: its reader, its queue and what it was last asked.
struct Client {
    reader: Reader,
    rx: Receiver<Frame>,
    prompt: Option<(u64, Legal)>,
}

/// Runs one case; counts the inputs.
async fn run_case(seed: u64, steps: &[(usize, Input)]) -> Result<usize, TestCaseError> {
    let shutdown = CancellationToken::new();
    let store: SharedStore = std::sync::Arc::new(SqliteStore::in_memory().expect("a store"));
    let lobby = Lobby::new(Duration::from_secs(600), 8, shutdown.clone()).with_store(store.clone());
    let options = Options {
        target: Some(100),
        ..Options::default()
    };
    let info = lobby
        .create(CreateTable {
            variant: Variant::Hearts,
            options: options.clone(),
            table_options: TableOptions {
                bot_delay_ms: 0,
                ..TableOptions::default()
            },
            seed: Some(seed),
            pbn: None,
        })
        .expect("a table")
        .0;
    let table = lobby.get(&info.id).expect("listed");
    let mut clients: Vec<Client> = (0..CONNS)
        .map(|_| {
            let (tx, rx) = bounded(1 << 16);
            let conn = Conn::new(ConnId::next(), tx, CancellationToken::new());
            let guard = FloodGuard::new(1_000_000, 1_000_000, Arc::default());
            let reader = Reader::new(conn, lobby.clone(), guard, Sessions::default());
            Client {
                reader,
                rx,
                prompt: None,
            }
        })
        .collect();
    // A spectator from the start: its snapshots are compared too.
    let mut watcher = clients.pop().expect("a client");
    watcher
        .reader
        .on_text(&json!({"type": "watch", "table": info.id}).to_string())
        .await;
    settle(&table, &store).await?;
    drain(&mut watcher)?;
    for (who, input) in steps {
        let who = *who % clients.len();
        let client = &mut clients[who];
        let text = match input {
            Input::Bytes(bytes) => String::from_utf8_lossy(bytes).into_owned(),
            Input::Json(value) => value.to_string().replace(TABLE, &info.id),
            Input::Answer(n, with_seq) => answer(client, *n, *with_seq),
        };
        client.reader.on_text(&text).await;
        settle(&table, &store).await?;
        let mut answered = false;
        for (i, other) in clients.iter_mut().enumerate() {
            let got = drain(other)?;
            answered |= i == who && got > 0;
        }
        drain(&mut watcher)?;
        prop_assert!(answered || silent_by_design(&text), "no answer to {text}");
    }
    // The game shown is the accepted moves' game.
    for client in clients.iter_mut().chain([&mut watcher]) {
        client.reader.on_text(r#"{"type":"sync"}"#).await;
        settle(&table, &store).await?;
        let frames = take(client)?;
        for msg in frames {
            if let ServerMsg::State { seq, view } = msg {
                let log = store
                    .table_log(&info.id)
                    .await
                    .expect("read")
                    .expect("stored");
                let expected = replay(&log, &options, seq, view.seat);
                prop_assert_eq!(Some(&*view), expected.as_ref(), "the view at seq {}", seq);
            }
        }
    }
    let log = store
        .table_log(&info.id)
        .await
        .expect("read")
        .expect("stored");
    ACCEPTED.fetch_add(log.actions.len(), Ordering::Relaxed);
    shutdown.cancel();
    let _ = store.close().await;
    Ok(steps.len())
}

/// Moves accepted over the campaign (the server's own included), for its summary line.
static ACCEPTED: AtomicUsize = AtomicUsize::new(0);

/// Messages that answer nothing by design: `leave` (the table lets the connection go) and a
/// `sync` before any match (there is nothing to show).
fn silent_by_design(text: &str) -> bool {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return false;
    };
    matches!(value["type"].as_str(), Some("leave" | "sync"))
}

/// The text of a legal answer to the client's latest prompt (a `sync` without one).
fn answer(client: &mut Client, n: u16, with_seq: bool) -> String {
    let Some((seq, legal)) = &client.prompt else {
        return r#"{"type":"sync"}"#.to_string();
    };
    let seq = with_seq.then_some(*seq);
    match legal {
        Legal::Play { cards } => {
            let cards: Vec<_> = cards.iter().collect();
            let card = cards[usize::from(n) % cards.len()];
            json!({"type": "play", "card": card, "seq": seq}).to_string()
        }
        Legal::Pass { from, count, .. } => {
            let cards: Vec<_> = from.iter().collect();
            let start = usize::from(n) % cards.len();
            let chosen: Vec<_> = (0..*count as usize)
                .map(|i| cards[(start + i) % cards.len()])
                .collect();
            json!({"type": "pass", "cards": chosen, "seq": seq}).to_string()
        }
        Legal::Bid {
            min,
            max,
            forbidden,
        } => {
            let allowed: Vec<u8> = (*min..=*max).filter(|b| Some(*b) != *forbidden).collect();
            let tricks = allowed[usize::from(n) % allowed.len()];
            json!({"type": "bid", "tricks": tricks, "seq": seq}).to_string()
        }
        Legal::Blind if n.is_multiple_of(2) => json!({"type": "blind_nil", "seq": seq}).to_string(),
        Legal::Blind => json!({"type": "see_cards", "seq": seq}).to_string(),
        Legal::AnswerClaim { .. } => {
            json!({"type": "answer_claim", "accept": n.is_multiple_of(2), "seq": seq}).to_string()
        }
        Legal::Exchange { from, count, .. } => {
            let cards: Vec<_> = from.iter().take(*count as usize).collect();
            json!({"type": "exchange", "cards": cards, "seq": seq}).to_string()
        }
        Legal::Call { .. } => {
            let calls = legal.calls();
            let mut call = serde_json::to_value(calls[usize::from(n) % calls.len()]).unwrap();
            call["type"] = json!("call");
            call["seq"] = json!(seq);
            call.to_string()
        }
        Legal::Discard { from } => {
            let cards: Vec<_> = from.iter().collect();
            let card = cards[usize::from(n) % cards.len()];
            json!({"type": "discard", "card": card, "seq": seq}).to_string()
        }
        Legal::Wait => r#"{"type":"sync"}"#.to_string(),
    }
}

/// Waits until the table has handled everything sent so far and its output is out: the
/// table answers an admin request after what came before it, the store commits what the
/// table wrote, and a second request lets the table deliver what was waiting for that.
async fn settle(table: &TableHandle, store: &SharedStore) -> Result<(), TestCaseError> {
    for round in 0..2 {
        let answer = table.admin(AdminCommand::Kick { seat: Seat(9) }).await;
        prop_assert!(
            matches!(
                answer,
                Err(Some(TableError::NoSuchSeat(_) | TableError::SeatEmpty(_)))
            ),
            "the table is gone or misbehaves: {answer:?}"
        );
        if round == 0 {
            store.flushed().await.expect("flushed");
        }
    }
    Ok(())
}

/// Takes every frame queued for `client`, each parsed.
fn take(client: &mut Client) -> Result<Vec<ServerMsg>, TestCaseError> {
    let mut msgs = Vec::new();
    while let Some(frame) = client.rx.try_recv() {
        let msg: ServerMsg = serde_json::from_str(frame.as_str())
            .map_err(|err| TestCaseError::fail(format!("unparseable frame {frame}: {err}")))?;
        if let ServerMsg::YourTurn { seq, legal, .. } = &msg {
            client.prompt = Some((*seq, *legal));
        }
        msgs.push(msg);
    }
    Ok(msgs)
}

/// Like [`take`], returning how many frames there were.
fn drain(client: &mut Client) -> Result<usize, TestCaseError> {
    take(client).map(|msgs| msgs.len())
}

/// The view of `seat` (a spectator's for `None`) after the stored actions up to `seq`,
/// replayed on a fresh engine; `None` before any match.
fn replay(
    log: &crate::store::TableLog,
    options: &Options,
    seq: u64,
    seat: Option<Seat>,
) -> Option<PlayerView> {
    let current = log.matches.iter().rev().find(|m| m.seq <= seq)?;
    let rules = Rules::new(Variant::Hearts, options).expect("rules");
    let mut game = crate::store::restore::match_game(rules, current);
    for row in log
        .actions
        .iter()
        .filter(|a| a.match_no == current.match_no && a.seq <= seq)
    {
        let action: Action = serde_json::from_str(&row.action).expect("a stored action");
        game.apply(Seat(row.seat), &action)
            .expect("a stored action replays");
    }
    Some(PlayerView::of(&game, seat))
}

/// How many cases: `PARLOR_FUZZ_CASES`, or a short campaign.
fn cases() -> u32 {
    std::env::var("PARLOR_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(24)
}

#[test]
fn random_input_from_many_connections_never_breaks_a_table() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let mut runner = TestRunner::new(Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    });
    let inputs = AtomicUsize::new(0);
    let result = runner.run(&steps(), |(seed, steps)| {
        let n = runtime.block_on(run_case(seed, &steps))?;
        inputs.fetch_add(n, Ordering::Relaxed);
        Ok(())
    });
    eprintln!(
        "fuzz: {} inputs in {} cases, {} moves accepted",
        inputs.load(Ordering::Relaxed),
        cases(),
        ACCEPTED.load(Ordering::Relaxed)
    );
    if let Err(err) = result {
        panic!("{err}");
    }
}
