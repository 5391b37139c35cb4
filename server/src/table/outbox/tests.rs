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
        Some(crate::store::secret::digest("token1").as_str()),
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
    while outbox.in_flight() > 0 {
        assert!(outbox.deliver_next().await.is_empty());
    }
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
    acks: std::sync::Mutex<Vec<tokio::sync::oneshot::Sender<Result<(), String>>>>,
}

impl Store for ManualStore {
    fn append(&self, _write: crate::store::Write) -> crate::store::Ack {
        let (ack, rx) = tokio::sync::oneshot::channel();
        self.acks.lock().unwrap().push(ack);
        rx
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
    acks.next().unwrap().send(Ok(())).unwrap();
    assert!(outbox.deliver_next().await.is_empty());
    assert_eq!(rx.try_recv().unwrap().as_str(), "one");
    assert!(
        rx.try_recv().is_none(),
        "the second step waits for its own write"
    );
    acks.next().unwrap().send(Ok(())).unwrap();
    assert!(outbox.deliver_next().await.is_empty());
    assert_eq!(rx.try_recv().unwrap().as_str(), "two");
}
