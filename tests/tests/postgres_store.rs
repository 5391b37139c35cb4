//! The Postgres store through the `Store` trait, on a real private Postgres: rows read back as
//! written (u64 seeds and secrets included), a write the database refuses is answered alone
//! while the rest of its batch commits, open tables come back on open, closed ones are
//! pruned, and results come back in order.

use parlor_server::store::{
    ActionRow, ChatRow, MatchRow, PgStore, ResultRow, Results, SeatRow, Store, TableRow, Upkeep,
    Write,
};
use parlor_shared::fair::Hash32;
use parlor_shared::protocol::Occupant;
use parlor_tests::postgres::Postgres;

fn table(id: &str, created: i64) -> TableRow {
    TableRow {
        id: id.into(),
        variant: "hearts".into(),
        options: "{}".into(),
        table_options: "{}".into(),
        seed: Some(u64::MAX - 1),
        created,
        status: "playing".into(),
        host: Some(255),
        host_key: Some("ab".repeat(32)),
    }
}

fn action(table: &str, idx: u32) -> Write {
    Write::Action {
        table: table.into(),
        row: ActionRow {
            match_no: 1,
            idx,
            seat: 3,
            action: format!("{{\"n\":{idx}}}"),
            seq: u64::from(idx) + 10,
        },
    }
}

#[tokio::test]
async fn rows_round_trip_a_refused_write_fails_alone_and_open_tables_come_back() {
    let pg = tokio::task::spawn_blocking(Postgres::start)
        .await
        .expect("postgres");
    let url = pg.database("store").await;
    let (store, startup) = PgStore::open(&url).await.expect("open");
    assert!(startup.tables.is_empty());

    let secret = Hash32([7; 32]);
    let seat = SeatRow {
        seat: 2,
        occupant: Occupant::Bot,
        name: Some("Bot".into()),
        token: None,
        strategy: Some("heuristic".into()),
        bot_playing: true,
        account: None,
    };
    let writes = vec![
        Write::Table(table("t1", 1)),
        Write::Match {
            table: "t1".into(),
            row: MatchRow {
                match_no: 1,
                seed: u64::MAX,
                secret: Some(secret),
                seq: 5,
            },
        },
        Write::State {
            table: "t1".into(),
            status: "playing",
            // The host key's holder without a seat: 255 fits the column.
            host: Some(255),
            seats: vec![seat.clone()],
        },
        action("t1", 0),
        // The same action again: refused by the primary key, alone.
        action("t1", 0),
        action("t1", 1),
        Write::Chat {
            table: "t1".into(),
            row: ChatRow {
                n: 1,
                seat: None,
                name: "watcher".into(),
                text: "hi".into(),
                at: 9,
            },
            keep: 10,
        },
        Write::Result(ResultRow {
            table: "t1".into(),
            match_no: 1,
            variant: "hearts".into(),
            at: 11,
            places: "[]".into(),
            listed: false,
        }),
        Write::Table(table("t2", 2)),
        Write::Closed { table: "t2".into() },
    ];
    // Appended together: one batch (or a few), acknowledged in order.
    let acks: Vec<_> = writes.into_iter().map(|w| store.append(w)).collect();
    let mut outcomes = Vec::new();
    for ack in acks {
        outcomes.push(ack.await.expect("acknowledged").is_ok());
    }
    assert_eq!(
        outcomes,
        [true, true, true, true, false, true, true, true, true, true],
        "only the duplicate is refused"
    );

    let log = store.table_log("t1").await.expect("read").expect("t1");
    assert_eq!(log.table, table("t1", 1));
    assert_eq!(log.matches[0].seed, u64::MAX);
    assert_eq!(log.matches[0].secret, Some(secret));
    assert_eq!(log.seats, vec![seat]);
    let idx: Vec<u32> = log.actions.iter().map(|a| a.idx).collect();
    assert_eq!(idx, [0, 1]);
    assert_eq!(log.chat.len(), 1);
    let results = store.results().await.expect("results");
    assert_eq!(results.len(), 1);
    assert_eq!(results[0].table, "t1");

    // Closed tables go when pruned; open ones never do.
    assert_eq!(store.prune(100, 10).await.expect("prune"), 1);
    assert!(store.table_log("t2").await.expect("read").is_none());
    assert!(store.table_log("t1").await.expect("read").is_some());
    store.health().await.expect("healthy");
    let figures = store.stats().and_then(|s| s.postgres).expect("figures");
    assert!(
        figures.commits >= 1 && figures.writes == 10 && figures.failed_commits == 0,
        "{figures:?}"
    );
    store.close().await.expect("close");
    assert!(store.append(action("t1", 2)).await.is_err(), "closed");

    // Opened again: the open table comes back with its last match.
    let (store, startup) = PgStore::open(&url).await.expect("reopen");
    assert_eq!(startup.tables.len(), 1);
    assert_eq!(startup.tables[0].table.id, "t1");
    assert_eq!(startup.tables[0].actions.len(), 2);
    store.close().await.expect("close");
}
