//! The outbox with a real (in-memory or on-disk) store: what a table records rebuilds the
//! same game after a restart, and its output waits for the store and keeps its order.

use parlor_shared::protocol::{TableOptions, TableStatus};
use parlor_shared::{Action, Game, Seat, Variant};

use super::Outbox;
use crate::store::test_support::{Dir, first_legal, hearts_options, seat_rows};
use crate::store::{SqliteStore, Store, restore};

/// Plays `moves` first-legal moves of a hearts match through an outbox, the way a table
/// does, and returns the game.
async fn record_match(outbox: &mut Outbox, seed: u64, moves: usize) -> Game {
    let options = hearts_options();
    outbox.record_table_created(
        Variant::Hearts,
        &options,
        &TableOptions::default(),
        Some(seed),
        None,
    );
    outbox.record_state(TableStatus::Waiting, Some(Seat(0)), seat_rows());
    let master = parlor_shared::fair::practice_master(seed);
    let rules = parlor_shared::Rules::new(Variant::Hearts, &options).expect("rules");
    let mut game = Game::with_master(rules, master);
    let mut seq = game.opening_events().len() as u64;
    outbox.record_match_started(seed, master, seq);
    outbox.record_state(TableStatus::Playing, Some(Seat(0)), seat_rows());
    for i in 0..moves {
        let (seat, action) = first_legal(&game);
        let events = game.apply(seat, &action).expect("legal");
        seq += events.len() as u64;
        outbox.record_action(i, seat, &action, seq);
        assert!(outbox.flush().await.is_empty());
    }
    game
}

#[tokio::test]
async fn a_recorded_table_reopens_and_rebuilds_to_the_same_game() {
    let dir = Dir::new("reopen");
    let (store, startup) = SqliteStore::open(&dir.0).expect("open");
    assert!(startup.tables.is_empty());
    let mut outbox = Outbox::new(Some(std::sync::Arc::new(store.clone())), "t1", 0);
    let game = record_match(&mut outbox, 11, 30).await;
    // A closed table is not brought back.
    let mut closed = Outbox::new(Some(std::sync::Arc::new(store.clone())), "t2", 0);
    record_match(&mut closed, 12, 3).await;
    closed.record_closed();
    store.close().await.expect("close");

    let (store, startup) = SqliteStore::open(&dir.0).expect("reopen");
    assert!(startup.unreadable.is_empty());
    assert_eq!(startup.tables.len(), 1, "only the open table");
    let restored = restore::rebuild(&startup.tables[0]).expect("rebuild");
    assert_eq!(restored.id, "t1");
    assert_eq!(
        restored.game.as_ref(),
        Some(&game),
        "the same game, card for card"
    );
    assert_eq!(restored.log.len(), 30);
    assert_eq!(restored.status, TableStatus::Playing);
    assert_eq!(restored.host, Some(Seat(0)));
    assert_eq!(restored.match_no, 1);
    assert_eq!(restored.matches_played, 0);
    assert_eq!(
        restored.seats[1].token.as_deref(),
        Some(crate::digest::of_secret("token1").as_str()),
        "a token written in clear comes back as its digest"
    );
    assert_eq!(restored.seats[3].strategy.as_deref(), Some("heuristic"));
    let rules = parlor_shared::Rules::new(Variant::Hearts, &hearts_options()).unwrap();
    let mut replay = Game::with_master(rules, parlor_shared::fair::practice_master(11));
    let mut events = replay.opening_events().len() as u64;
    for (seat, action) in &restored.log {
        events += replay.apply(*seat, action).unwrap().len() as u64;
    }
    assert_eq!(restored.seq, events, "the event counter is restored");
    store.close().await.expect("close");
}

#[tokio::test]
async fn output_waits_for_the_write_and_keeps_its_order() {
    let store = SqliteStore::in_memory().expect("memory store");
    let mut outbox = Outbox::new(Some(std::sync::Arc::new(store.clone())), "t", 0);
    let (conn, mut rx) = probe_conn();
    record_match(&mut outbox, 1, 1).await;
    outbox.record_action(
        1,
        Seat(1),
        &Action::Play {
            card: "2C".parse().unwrap(),
        },
        9,
    );
    assert!(outbox.queue(&conn, "one".into()));
    assert!(outbox.queue(&conn, "two".into()));
    assert!(
        rx.try_recv().is_none(),
        "nothing goes out before the commit"
    );
    assert!(outbox.flush().await.is_empty());
    assert_eq!(rx.try_recv().unwrap().as_str(), "one");
    assert_eq!(rx.try_recv().unwrap().as_str(), "two");
    let log = store.table_log("t").await.unwrap().expect("the table");
    assert_eq!(
        log.actions.len(),
        2,
        "both actions are stored before the output"
    );
}

/// A connection whose frames the test reads.
fn probe_conn() -> (crate::conn::Conn, crate::conn::Receiver<crate::conn::Frame>) {
    let (tx, rx) = crate::conn::bounded(8);
    let id = crate::conn::ConnId::next();
    let kick = tokio_util::sync::CancellationToken::new();
    (crate::conn::Conn::new(id, tx, kick), rx)
}

/// Sealed steps wait for their own writes, go out in order as the database answers, and a
/// step that wrote nothing still waits behind the steps before it.
#[tokio::test]
async fn sealed_steps_go_out_in_order_once_stored() {
    let store = SqliteStore::in_memory().expect("memory store");
    let mut outbox = Outbox::new(Some(std::sync::Arc::new(store.clone())), "t", 0);
    let (conn, mut rx) = probe_conn();
    record_match(&mut outbox, 1, 0).await;
    let play = |card: &str| Action::Play {
        card: card.parse().unwrap(),
    };
    // Step 1 writes; step 2 only talks.
    outbox.record_action(0, Seat(0), &play("2C"), 1);
    assert!(outbox.queue(&conn, "one".into()));
    assert!(outbox.seal().is_empty());
    assert!(outbox.queue(&conn, "two".into()));
    assert!(outbox.seal().is_empty());
    assert_eq!(outbox.in_flight(), 2, "both steps wait");
    assert!(
        rx.try_recv().is_none(),
        "nothing goes out before the commit"
    );
    // Step 3 writes too, sealed while the others are in flight.
    outbox.record_action(1, Seat(1), &play("3C"), 2);
    assert!(outbox.queue(&conn, "three".into()));
    assert!(outbox.seal().is_empty());
    assert!(outbox.flush().await.is_empty());
    let got: Vec<String> = std::iter::from_fn(|| rx.try_recv())
        .map(|f| f.as_str().to_string())
        .collect();
    assert_eq!(got, ["one", "two", "three"]);
    let log = store.table_log("t").await.unwrap().expect("the table");
    assert_eq!(log.actions.len(), 2, "both actions were stored first");
    // Nothing in flight and nothing written: out at once.
    assert!(outbox.queue(&conn, "four".into()));
    assert!(outbox.seal().is_empty());
    assert_eq!(rx.try_recv().unwrap().as_str(), "four");
}

/// A backend of the test's own, answering each write only when told: the outbox works with
/// any [`Store`], and holds a step's output until that step's own acknowledgement.
#[derive(Debug, Default)]
struct ManualStore {
    acks: std::sync::Mutex<Vec<crate::store::Ack>>,
}

impl Store for ManualStore {
    fn append_then(&self, _write: crate::store::Write, ack: crate::store::Ack) {
        self.acks.lock().unwrap().push(ack);
    }

    fn flushed(&self) -> futures_util::future::BoxFuture<'_, Result<(), crate::store::StoreError>> {
        Box::pin(async { Ok(()) })
    }

    fn table_log(
        &self,
        _id: &str,
    ) -> futures_util::future::BoxFuture<
        '_,
        Result<Option<crate::store::TableLog>, crate::store::StoreError>,
    > {
        Box::pin(async { Ok(None) })
    }

    fn stats(&self) -> Option<crate::store::StoreStats> {
        None
    }

    fn close(&self) -> futures_util::future::BoxFuture<'_, Result<(), crate::store::StoreError>> {
        Box::pin(async { Ok(()) })
    }
}

#[tokio::test]
async fn another_backend_gates_the_output_the_same_way() {
    let store = std::sync::Arc::new(ManualStore::default());
    let mut outbox = Outbox::new(Some(store.clone()), "t", 0);
    let (conn, mut rx) = probe_conn();
    outbox.record_match_started(1, parlor_shared::fair::practice_master(1), 0);
    assert!(outbox.queue(&conn, "one".into()));
    assert!(outbox.seal().is_empty());
    outbox.record_action(
        0,
        Seat(0),
        &Action::Play {
            card: "2C".parse().unwrap(),
        },
        1,
    );
    assert!(outbox.queue(&conn, "two".into()));
    assert!(outbox.seal().is_empty());
    assert_eq!(outbox.in_flight(), 2);
    assert!(rx.try_recv().is_none(), "nothing before the store answers");
    let acks: Vec<_> = store.acks.lock().unwrap().drain(..).collect();
    assert_eq!(acks.len(), 2, "one write per step");
    let mut acks = acks.into_iter();
    // The acknowledgement itself delivers: the table is not asked.
    acks.next().unwrap().acknowledge(Ok(()));
    assert_eq!(rx.try_recv().unwrap().as_str(), "one");
    assert!(
        rx.try_recv().is_none(),
        "the second step waits for its own write"
    );
    assert_eq!(outbox.in_flight(), 1);
    acks.next().unwrap().acknowledge(Ok(()));
    assert_eq!(rx.try_recv().unwrap().as_str(), "two");
    assert_eq!(outbox.in_flight(), 0);
}

/// An outbox on a [`ManualStore`], with a connection whose frames the test reads.
fn manual_outbox() -> (
    std::sync::Arc<ManualStore>,
    Outbox,
    crate::conn::Conn,
    crate::conn::Receiver<crate::conn::Frame>,
) {
    let store = std::sync::Arc::new(ManualStore::default());
    let outbox = Outbox::new(Some(store.clone()), "t", 0);
    let (conn, rx) = probe_conn();
    (store, outbox, conn, rx)
}

/// A write of one played card, as a move records it.
fn record_play(outbox: &mut Outbox, index: usize) {
    let card = ["2C", "3C", "4C", "5C"][index % 4].parse().unwrap();
    outbox.record_action(index, Seat(0), &Action::Play { card }, index as u64);
}

/// The store's acknowledgements so far, oldest first.
fn take_acks(store: &ManualStore) -> Vec<crate::store::Ack> {
    store.acks.lock().unwrap().drain(..).collect()
}

/// Polls `future` once: its value if it is ready.
fn ready_now<T>(future: impl std::future::Future<Output = T>) -> Option<T> {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(value) => Some(value),
        std::task::Poll::Pending => None,
    }
}

/// A commit can land before the table seals its step (the writer runs beside it): the step
/// then goes out as it is sealed, and not before.
#[tokio::test]
async fn a_step_acknowledged_before_it_is_sealed_goes_out_at_the_seal() {
    let (store, mut outbox, conn, mut rx) = manual_outbox();
    record_play(&mut outbox, 0);
    for ack in take_acks(&store) {
        ack.acknowledge(Ok(()));
    }
    assert!(outbox.queue(&conn, "one".into()));
    assert!(rx.try_recv().is_none(), "held until the step is sealed");
    assert!(outbox.seal().is_empty());
    assert_eq!(rx.try_recv().unwrap().as_str(), "one");
    assert_eq!(outbox.in_flight(), 0);
}

/// Only a step's last write decides when it goes out, and a step that wrote nothing waits
/// behind the steps before it, whoever delivers them.
#[tokio::test]
async fn a_step_waits_for_its_last_write_and_for_the_steps_before_it() {
    let (store, mut outbox, conn, mut rx) = manual_outbox();
    record_play(&mut outbox, 0);
    record_play(&mut outbox, 1);
    assert!(outbox.queue(&conn, "one".into()));
    assert!(outbox.seal().is_empty());
    assert!(outbox.queue(&conn, "two".into()));
    assert!(outbox.seal().is_empty(), "wrote nothing, waits behind");
    let mut acks = take_acks(&store).into_iter();
    acks.next().unwrap().acknowledge(Ok(()));
    assert!(
        rx.try_recv().is_none(),
        "the step's last write is not stored"
    );
    acks.next().unwrap().acknowledge(Ok(()));
    assert_eq!(rx.try_recv().unwrap().as_str(), "one");
    assert_eq!(rx.try_recv().unwrap().as_str(), "two");
    assert_eq!(outbox.in_flight(), 0);
}

/// A connection found gone while the store's side delivers reaches the table through
/// `news`, which otherwise stays quiet while steps are in flight.
#[tokio::test]
async fn a_connection_found_gone_on_delivery_is_news_for_the_table() {
    let (store, mut outbox, conn, rx) = manual_outbox();
    record_play(&mut outbox, 0);
    assert!(outbox.queue(&conn, "one".into()));
    assert!(outbox.seal().is_empty());
    assert_eq!(ready_now(outbox.news(0)), None, "nothing to act on yet");
    drop(rx);
    for ack in take_acks(&store) {
        ack.acknowledge(Ok(()));
    }
    assert_eq!(ready_now(outbox.news(0)), Some(vec![conn.id]));
    assert_eq!(ready_now(outbox.news(0)), None, "told once");
}

/// A table far ahead of the database is woken when room frees up, and a flush ends once
/// everything is out.
#[tokio::test]
async fn news_tells_a_waiting_table_of_room() {
    let (store, mut outbox, conn, mut rx) = manual_outbox();
    for i in 0..3 {
        record_play(&mut outbox, i);
        assert!(outbox.queue(&conn, format!("{i}").into()));
        assert!(outbox.seal().is_empty());
    }
    assert_eq!(outbox.in_flight(), 3);
    assert_eq!(ready_now(outbox.news(3)), None, "no room below 3");
    let mut acks = take_acks(&store).into_iter();
    acks.next().unwrap().acknowledge(Ok(()));
    assert_eq!(ready_now(outbox.news(3)), Some(vec![]), "room for one");
    let rest: Vec<_> = acks.collect();
    let flushing = tokio::spawn(async move {
        let dropped = outbox.flush().await;
        (outbox, dropped)
    });
    tokio::task::yield_now().await;
    for ack in rest {
        ack.acknowledge(Ok(()));
    }
    let (outbox, dropped) = flushing.await.unwrap();
    assert!(dropped.is_empty());
    assert_eq!(outbox.in_flight(), 0);
    let got: Vec<String> = std::iter::from_fn(|| rx.try_recv())
        .map(|f| f.as_str().to_string())
        .collect();
    assert_eq!(got, ["0", "1", "2"]);
}

/// A refusal that fences the table drops its output and everything after it, and is news;
/// a write the writer never answered (it stopped) drops its step's output too.
#[tokio::test]
async fn a_fenced_or_unanswered_step_sends_nothing() {
    let (store, mut outbox, conn, mut rx) = manual_outbox();
    record_play(&mut outbox, 0);
    assert!(outbox.queue(&conn, "lost".into()));
    assert!(outbox.seal().is_empty());
    record_play(&mut outbox, 1);
    assert!(outbox.queue(&conn, "kept".into()));
    assert!(outbox.seal().is_empty());
    let mut acks = take_acks(&store).into_iter();
    drop(acks.next());
    assert!(rx.try_recv().is_none(), "not stored, not sent");
    assert_eq!(outbox.in_flight(), 1);
    acks.next().unwrap().acknowledge(Ok(()));
    assert_eq!(rx.try_recv().unwrap().as_str(), "kept");

    record_play(&mut outbox, 2);
    assert!(outbox.queue(&conn, "fenced".into()));
    assert!(outbox.seal().is_empty());
    assert!(outbox.queue(&conn, "after".into()));
    assert!(outbox.seal().is_empty());
    assert!(!outbox.is_fenced());
    for ack in take_acks(&store) {
        ack.acknowledge(Err(crate::store::fence::FENCED.to_string()));
    }
    assert!(outbox.is_fenced());
    assert_eq!(ready_now(outbox.news(0)), Some(vec![]));
    assert!(
        rx.try_recv().is_none(),
        "nothing after the refusal goes out"
    );
    assert_eq!(outbox.in_flight(), 0);
}
