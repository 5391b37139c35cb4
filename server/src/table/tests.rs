//! The actor on its own, driven through its mailbox with hand-made connections, and with
//! bots the test holds while they think.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use parlor_shared::bots::{HeuristicBot, Strategy, strategy};
use parlor_shared::protocol::{Occupant, ServerMsg, TableOptions};
use parlor_shared::{Action, Event, Options, PlayerView, Seat, Variant};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::actor::start;
use super::thinking::{Bots, LATE, MakeStrategy};
use super::{JoinRequest, TableHandle, TableMsg, TableRequest, TableSetup, spawn};
use crate::conn::{Conn, ConnId, Frame, Receiver, bounded};

/// A client whose frames the test reads.
struct Probe {
    conn: Conn,
    rx: Receiver<Frame>,
    kicked: CancellationToken,
}

fn probe(queue: usize) -> Probe {
    let (tx, rx) = bounded(queue);
    let kicked = CancellationToken::new();
    Probe {
        conn: Conn::new(ConnId::next(), tx, kicked.clone()),
        rx,
        kicked,
    }
}

async fn join(table: &TableHandle, conn: &Conn) {
    let (reply, joined) = oneshot::channel();
    let request = JoinRequest {
        seat: None,
        name: None,
        token: None,
        bot: false,
        watch: false,
        account: None,
    };
    table
        .send(TableMsg::Join {
            conn: conn.clone(),
            request: Box::new(request),
            reply,
        })
        .await
        .unwrap();
    assert!(joined.await.unwrap());
}

async fn say(table: &TableHandle, conn: &Conn, request: TableRequest) {
    let msg = TableMsg::Request {
        conn: conn.id,
        request: Box::new(request),
    };
    table.send(msg).await.unwrap();
}

/// A client that stops reading is dropped when its queue is full, a bot takes its seat, and
/// the table plays on: nobody else waits for it.
#[tokio::test]
async fn a_stuck_client_is_dropped_and_never_stalls_the_table() {
    let setup = TableSetup {
        id: "stuck".into(),
        variant: Variant::Whist,
        options: Options {
            target: Some(1),
            ..Options::default()
        },
        table_options: TableOptions {
            grace_ms: 0,
            ..TableOptions::default()
        },
        seed: Some(5),
        idle_ttl: Duration::from_secs(600),
        unsat_ttl: Duration::from_secs(600),
        store: None,
        restored: None,
        ratings: crate::ratings::Ratings::default(),
        host_key: None,
        max_spectators: 50,
    };
    let table = spawn(setup, CancellationToken::new(), || {}).unwrap();
    let mut host = probe(100_000);
    let stuck = probe(4);
    join(&table, &host.conn).await;
    join(&table, &stuck.conn).await;
    for seat in [2, 3] {
        let strategy = "random".to_string();
        say(
            &table,
            &host.conn,
            TableRequest::AddBot {
                seat: Seat(seat),
                strategy,
            },
        )
        .await;
    }
    say(&table, &host.conn, TableRequest::Start).await;
    let mut stuck_dropped = false;
    loop {
        let frame = host.rx.recv().await.expect("the table keeps talking");
        match serde_json::from_str::<ServerMsg>(frame.as_str()).unwrap() {
            ServerMsg::YourTurn { legal, .. } => {
                let msg = match legal {
                    parlor_shared::Legal::Play { cards } => TableRequest::Move {
                        action: parlor_shared::Action::Play {
                            card: cards.lowest().unwrap(),
                        },
                        seat: None,
                        seq: None,
                    },
                    other => panic!("whist has no {other:?}"),
                };
                say(&table, &host.conn, msg).await;
            }
            ServerMsg::Table { table, .. }
                if table.seats[1].occupant == Occupant::Human && !table.seats[1].connected =>
            {
                stuck_dropped = true;
                assert!(
                    stuck.kicked.is_cancelled(),
                    "its connection is told to close"
                );
            }
            ServerMsg::Event {
                event: Event::MatchOver { .. },
                ..
            } => break,
            _ => {}
        }
    }
    assert!(stuck_dropped, "the stuck conn was dropped");
    assert!(stuck.rx.len() <= 4, "and never held more than its queue");
}

// ---- bots thinking off the table's task --------------------------------------------------

/// A strategy that tells the test when it is asked, then waits for the test's word.
struct Gated {
    asked: tokio::sync::mpsc::UnboundedSender<()>,
    go: Arc<Mutex<std::sync::mpsc::Receiver<()>>>,
}

impl Strategy for Gated {
    fn name(&self) -> &'static str {
        "gated"
    }

    fn choose(&mut self, view: &PlayerView) -> Action {
        let _ = self.asked.send(());
        // A table that waited on this on its own task would hang the test (and the test's
        // runtime with it): give up after a while, so the test fails on what it sees.
        let _ = self
            .go
            .lock()
            .unwrap()
            .recv_timeout(Duration::from_secs(10));
        HeuristicBot.choose(view)
    }
}

/// The test's side of the gated strategies: when one is asked, and the word to answer.
struct Gate {
    asked: tokio::sync::mpsc::UnboundedReceiver<()>,
    go: std::sync::mpsc::Sender<()>,
}

/// Bots where the strategies named in `gated` are [`Gated`], and the rest the built-in ones.
fn gated_bots(gated: &'static [&'static str]) -> (Bots, Gate) {
    let (asked_tx, asked) = tokio::sync::mpsc::unbounded_channel();
    let (go, go_rx) = std::sync::mpsc::channel();
    let go_rx = Arc::new(Mutex::new(go_rx));
    let make: MakeStrategy = Arc::new(move |name: &str, variant, seed| {
        if gated.contains(&name) {
            Some(Box::new(Gated {
                asked: asked_tx.clone(),
                go: go_rx.clone(),
            }) as Box<dyn Strategy>)
        } else {
            strategy(name, variant, seed)
        }
    });
    (Bots::with(Duration::from_secs(2), make), Gate { asked, go })
}

/// A hearts match just started by a host in seat 0, with the test-held bot in seat 1 (now
/// asked for its pass and held) and random bots in seats 2 and 3.
async fn hearts_with_a_held_bot(id: &str) -> (TableHandle, Probe, Gate) {
    let (bots, mut gate) = gated_bots(&["gated"]);
    let table = hearts_table(id, bots, 60_000);
    let host = probe(100_000);
    join(&table, &host.conn).await;
    add_bot(&table, &host.conn, 1, "gated").await;
    for seat in [2, 3] {
        add_bot(&table, &host.conn, seat, "random").await;
    }
    say(&table, &host.conn, TableRequest::Start).await;
    gate.asked
        .recv()
        .await
        .expect("seat 1's bot is asked to pass");
    (table, host, gate)
}

/// A hearts table (every seat passes at once first) whose bots are `bots`.
fn hearts_table(id: &str, bots: Bots, grace_ms: u64) -> TableHandle {
    let setup = TableSetup {
        id: id.into(),
        variant: Variant::Hearts,
        options: Options::default(),
        table_options: TableOptions {
            grace_ms,
            ..TableOptions::default()
        },
        seed: Some(3),
        idle_ttl: Duration::from_secs(600),
        unsat_ttl: Duration::from_secs(600),
        store: None,
        restored: None,
        ratings: crate::ratings::Ratings::default(),
        host_key: None,
        max_spectators: 50,
    };
    start(setup, bots, CancellationToken::new(), || {}).unwrap()
}

async fn add_bot(table: &TableHandle, host: &Conn, seat: u8, strategy: &str) {
    let strategy = strategy.to_string();
    let seat = Seat(seat);
    say(table, host, TableRequest::AddBot { seat, strategy }).await;
}

/// The next message in `probe`'s queue.
async fn next(probe: &mut Probe) -> ServerMsg {
    let frame = probe.rx.recv().await.expect("the table keeps talking");
    serde_json::from_str(frame.as_str()).unwrap()
}

/// Everything already in `probe`'s queue.
fn drain(probe: &mut Probe) -> Vec<ServerMsg> {
    std::iter::from_fn(|| probe.rx.try_recv())
        .map(|frame| serde_json::from_str(frame.as_str()).unwrap())
        .collect()
}

fn passed(msg: &ServerMsg, seat: u8) -> bool {
    matches!(msg, ServerMsg::Event { event: Event::PassChosen { seat: s }, .. } if *s == Seat(seat))
}

/// Reads `probe`'s queue to its next `your_turn`, and answers it as the heuristic would from
/// the latest snapshot.
async fn answer_prompt(table: &TableHandle, probe: &mut Probe) {
    let mut view = None;
    loop {
        match next(probe).await {
            ServerMsg::State { view: v, .. } => view = Some(*v),
            ServerMsg::YourTurn { .. } => break,
            _ => {}
        }
    }
    let action = HeuristicBot.choose(&view.expect("a snapshot before the prompt"));
    let request = TableRequest::Move {
        action,
        seat: None,
        seq: None,
    };
    say(table, &probe.conn, request).await;
}

/// Lets everything that can run, run: with time paused, tokio moves its clock only once
/// every task waits and no blocking task (a bot's thought) is running.
async fn settle_down() {
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

/// While a bot thinks (held by the test), the table still answers: a `sync` gets its
/// snapshot before the bot's move.
#[tokio::test]
async fn a_table_whose_bot_is_thinking_still_answers() {
    let (table, mut host, gate) = hearts_with_a_held_bot("thinking").await;
    let seen = drain(&mut host);
    assert!(
        !seen.iter().any(|m| passed(m, 1)),
        "the bot moved: {seen:?}"
    );
    say(&table, &host.conn, TableRequest::Sync).await;
    loop {
        let msg = next(&mut host).await;
        assert!(!passed(&msg, 1), "the bot moved before the table answered");
        if matches!(msg, ServerMsg::State { .. }) {
            break;
        }
    }
    gate.go.send(()).unwrap();
    while !passed(&next(&mut host).await, 1) {}
}

/// A person takes their seat back while the stand-in thinks for them: the stand-in's answer
/// is discarded, and the person's own move is the one played.
#[tokio::test(start_paused = true)]
async fn a_thought_is_discarded_when_its_seat_is_taken_back() {
    let (bots, mut gate) = gated_bots(&["heuristic"]);
    let table = hearts_table("reclaimed", bots, 0);
    let host = probe(100_000);
    let mut away = probe(100_000);
    join(&table, &host.conn).await;
    join(&table, &away.conn).await;
    let token = loop {
        if let ServerMsg::Welcome { token, .. } = next(&mut away).await {
            break token.unwrap();
        }
    };
    for seat in [2, 3] {
        add_bot(&table, &host.conn, seat, "random").await;
    }
    say(&table, &host.conn, TableRequest::Start).await;
    let gone = TableMsg::Disconnected { conn: away.conn.id };
    table.send(gone).await.unwrap();
    gate.asked
        .recv()
        .await
        .expect("the stand-in is asked to pass for seat 1");

    let mut back = probe(100_000);
    let (reply, joined) = oneshot::channel();
    let request = JoinRequest {
        seat: None,
        name: None,
        token: Some(token),
        bot: false,
        watch: false,
        account: None,
    };
    let msg = TableMsg::Join {
        conn: back.conn.clone(),
        request: Box::new(request),
        reply,
    };
    table.send(msg).await.unwrap();
    assert!(joined.await.unwrap());
    gate.go.send(()).unwrap();
    settle_down().await;
    let seen = drain(&mut back);
    assert!(
        seen.iter().any(|m| matches!(m, ServerMsg::YourTurn { .. })),
        "the person is asked: {seen:?}"
    );
    assert!(
        !seen.iter().any(|m| passed(m, 1)),
        "the stand-in's late answer was played: {seen:?}"
    );
    let state = seen.iter().rev().find_map(|m| match m {
        ServerMsg::State { view, .. } => Some(view.clone()),
        _ => None,
    });
    let action = HeuristicBot.choose(&state.expect("a snapshot on joining"));
    let request = TableRequest::Move {
        action,
        seat: None,
        seq: None,
    };
    say(&table, &back.conn, request).await;
    while !passed(&next(&mut back).await, 1) {}
}

/// Another seat moves while a bot thinks: the answer, about a position that is gone, is
/// discarded and the bot asked again, though its old answer would still be legal.
#[tokio::test(start_paused = true)]
async fn a_thought_about_an_old_position_is_discarded_and_asked_again() {
    let (table, mut host, mut gate) = hearts_with_a_held_bot("moved-on").await;
    answer_prompt(&table, &mut host).await;
    while !passed(&next(&mut host).await, 0) {}
    gate.go.send(()).unwrap();
    loop {
        tokio::select! {
            asked = gate.asked.recv() => {
                asked.expect("asked again");
                break;
            }
            msg = next(&mut host) => assert!(!passed(&msg, 1), "the old answer was played"),
        }
    }
    gate.go.send(()).unwrap();
    while !passed(&next(&mut host).await, 1) {}
}

/// A bot that does not answer within its budget: the table plays the fallback for it while
/// it still thinks, and goes on; the late answer is dropped.
#[tokio::test(start_paused = true)]
async fn a_bot_out_of_time_is_played_for_and_its_late_answer_dropped() {
    let (table, mut host, gate) = hearts_with_a_held_bot("late").await;
    // The bot is held, so tokio's clock stays put: it is moved by hand.
    tokio::time::advance(Duration::from_secs(2)).await;
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
    assert!(
        !drain(&mut host).iter().any(|m| passed(m, 1)),
        "nothing plays for the bot within its budget and a little more"
    );
    tokio::time::advance(LATE).await;
    while !passed(&next(&mut host).await, 1) {}
    // The fallback passed while the bot still thinks; now it answers, too late.
    gate.go.send(()).unwrap();
    // The prompt again (the first one was read above), and the host's own pass.
    say(&table, &host.conn, TableRequest::Sync).await;
    answer_prompt(&table, &mut host).await;
    let mut others = 0;
    while others < 3 {
        let msg = next(&mut host).await;
        assert!(!passed(&msg, 1), "seat 1 passed twice");
        if passed(&msg, 0) || passed(&msg, 2) || passed(&msg, 3) {
            others += 1;
        }
    }
}
