//! The SQLite store on its own: writes survive reopening, tables rebuild by replay, finished hands
//! are built face up, and bad files and rows are refused the way the server expects.

use parlor_shared::protocol::TableOptions;
use parlor_shared::{Event, Game, Variant};

use super::SqliteStore;
use crate::store::records::{ActionRow, ChatRow, MatchRow, TableLog, TableRow, Write};
use crate::store::test_support::{Dir, first_legal, hearts_options, seat_rows};
use crate::store::{Store, StoreError, Upkeep, hands, restore};

/// A table log built by hand: hearts seed 5, `moves` first-legal moves.
fn log_of(moves: usize) -> (TableLog, Game, Vec<Event>) {
    let options = hearts_options();
    let mut game = Game::new(Variant::Hearts, &options, 5).unwrap();
    let mut events = game.opening_events();
    let mut actions = Vec::new();
    for i in 0..moves {
        let (seat, action) = first_legal(&game);
        events.extend(game.apply(seat, &action).unwrap());
        actions.push(ActionRow {
            match_no: 1,
            idx: i as u32,
            seat: seat.0,
            action: serde_json::to_string(&action).unwrap(),
            seq: 0,
        });
    }
    let log = TableLog {
        table: TableRow {
            id: "t".into(),
            variant: "hearts".into(),
            options: serde_json::to_string(&options).unwrap(),
            table_options: serde_json::to_string(&TableOptions::default()).unwrap(),
            seed: Some(5),
            created: 0,
            status: "playing".into(),
            host: Some(0),
            host_key: None,
        },
        matches: vec![MatchRow {
            match_no: 1,
            seed: 5,
            seq: 0,
            secret: None,
        }],
        seats: seat_rows(),
        actions,
        chat: Vec::new(),
    };
    (log, game, events)
}

#[test]
fn finished_hands_are_built_face_up_and_the_hand_in_play_is_not() {
    let (log, _, _) = log_of(20);
    let hands = hands::table_hands(&log).unwrap();
    assert!(hands.finished.is_empty());
    assert!(hands.in_progress);

    let (log, _, events) = log_of(56 + 6);
    let hands = hands::table_hands(&log).unwrap();
    assert_eq!(hands.finished.len(), 1);
    assert!(hands.in_progress);
    let hand = &hands.finished[0];
    for event in &events[..6] {
        if let Event::Dealt { seat, cards } = event {
            assert_eq!(hand.dealt[seat.index()], *cards);
        }
    }
    assert_eq!(hand.passes.len(), 4);
    assert_eq!(hand.tricks.len(), 13);
    assert!(
        hand.tricks
            .iter()
            .all(|t| t.plays.len() == 4 && t.winner.is_some())
    );
    let scored = events.iter().find_map(|e| match e {
        Event::HandScored(r) => Some(r.clone()),
        _ => None,
    });
    assert_eq!(Some(hand.result.clone()), scored);
    let text = hand.to_text();
    assert!(text.contains(&hand.dealt[0].to_compact(true)), "{text}");
    assert_eq!(text.matches("won by").count(), 13, "{text}");
    // The JSON round-trips (what `parlor replay` reads).
    let json = serde_json::to_string(hand).unwrap();
    assert_eq!(
        &serde_json::from_str::<hands::HandReplay>(&json).unwrap(),
        hand
    );
}

#[test]
fn logs_that_do_not_replay_are_cut_or_refused_with_the_reason() {
    let (mut log, _, _) = log_of(8);
    log.table.variant = "pinochle".into();
    let err = restore::rebuild(&log).unwrap_err().to_string();
    assert!(err.contains("unknown variant `pinochle`"), "{err}");

    // A log that stops replaying part way comes back up to its last good step.
    let (mut log, _, _) = log_of(8);
    log.actions[6].action = r#"{"type":"bid","tricks":7}"#.into();
    let restored = restore::rebuild(&log).unwrap();
    let cut = restored.cut.expect("cut");
    assert!(cut.why.contains("action 6 of match 1"), "{cut:?}");
    assert_eq!((cut.match_no, cut.from, cut.dropped), (1, 6, 2));
    assert_eq!(restored.log.len(), 6);
    assert_eq!(restored.seq, log.actions[5].seq);

    let (mut log, _, _) = log_of(8);
    log.actions[7].seat = (log.actions[7].seat + 1) % 4;
    let cut = restore::rebuild(&log).unwrap().cut.expect("cut");
    assert!(
        cut.why.contains("action 7 of match 1") && cut.why.contains("does not replay"),
        "{cut:?}"
    );
    assert_eq!(cut.from, 7);

    let (mut log, _, _) = log_of(8);
    log.actions.remove(3);
    let restored = restore::rebuild(&log).unwrap();
    assert!(restored.cut.expect("cut").why.contains("gap"));
    assert_eq!(restored.log.len(), 3);

    let (log, _, _) = log_of(8);
    assert_eq!(restore::rebuild(&log).unwrap().cut, None);

    let (mut log, _, _) = log_of(8);
    log.seats[3].strategy = Some("psychic".into());
    let err = restore::rebuild(&log).unwrap_err().to_string();
    assert!(err.contains("psychic"), "{err}");
}

#[tokio::test]
async fn a_file_that_is_not_a_database_is_moved_aside() {
    let dir = Dir::new("garbage");
    std::fs::create_dir_all(&dir.0).unwrap();
    std::fs::write(
        dir.0.join("parlor.db"),
        b"not a database at all".repeat(500),
    )
    .unwrap();
    let (store, startup) = SqliteStore::open(&dir.0).expect("a fresh start");
    let aside = startup.moved_aside.expect("moved aside");
    assert!(aside.to_string_lossy().contains("parlor.db.corrupt-"));
    assert!(aside.exists());
    assert!(startup.tables.is_empty());
    store.flushed().await.unwrap();
    store.close().await.unwrap();
}

#[test]
fn a_database_from_a_newer_version_is_refused() {
    let dir = Dir::new("newer");
    std::fs::create_dir_all(&dir.0).unwrap();
    let conn = rusqlite::Connection::open(dir.0.join("parlor.db")).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    let err = SqliteStore::open(&dir.0).unwrap_err();
    assert!(
        matches!(err, StoreError::NewerSchema { found: 99, .. }),
        "{err}"
    );
}

/// Polls `done` for up to ten seconds (the checkpointer runs on its own thread).
fn eventually(done: impl Fn() -> bool) -> bool {
    for _ in 0..1000 {
        if done() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    false
}

/// The scheduling policy of every thread of this process named `name` (field 41 of
/// `/proc/self/task/*/stat`; `SCHED_BATCH` is 3).
#[cfg(target_os = "linux")]
fn policies_of(name: &str) -> Vec<u32> {
    let mut policies = Vec::new();
    for task in std::fs::read_dir("/proc/self/task").unwrap().flatten() {
        let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if comm.trim_end() != name {
            continue;
        }
        let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
            continue;
        };
        // The fields after the name, which may hold spaces, start at field 3.
        let after_name = &stat[stat.rfind(')').unwrap() + 2..];
        policies.push(after_name.split(' ').nth(41 - 3).unwrap().parse().unwrap());
    }
    policies
}

/// The writer runs as a batch thread, so a write that wakes it does not preempt a
/// connection's thread.
#[cfg(target_os = "linux")]
#[test]
fn the_writer_runs_as_a_batch_thread() {
    const SCHED_BATCH: u32 = 3;
    let store = SqliteStore::in_memory().unwrap();
    assert!(
        eventually(|| {
            let policies = policies_of("parlor-store");
            !policies.is_empty() && policies.iter().all(|&policy| policy == SCHED_BATCH)
        }),
        "the writer threads' policies: {:?}",
        policies_of("parlor-store")
    );
    drop(store);
}

/// The checkpointer copies the log into the file beside a writer that never checkpoints, and
/// restarts the log once it passes its limit, with every committed row kept.
#[test]
fn the_checkpointer_folds_and_restarts_the_log_beside_the_writer() {
    use super::checkpoint::Checkpointer;
    use std::sync::atomic::Ordering::Relaxed;

    let dir = Dir::new("checkpoint");
    std::fs::create_dir_all(&dir.0).unwrap();
    let path = dir.0.join("t.db");
    let writer = rusqlite::Connection::open(&path).unwrap();
    super::configure(&writer).unwrap();
    writer.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
    writer
        .execute_batch("CREATE TABLE rows (n INTEGER, pad BLOB)")
        .unwrap();
    let limit = 40;
    let checkpointer = Checkpointer::start(&path, limit).unwrap();
    let stats = checkpointer.stats();
    let commits = 400;
    for n in 0..commits {
        writer
            .execute(
                "INSERT INTO rows VALUES (?1, zeroblob(3000))",
                rusqlite::params![n],
            )
            .unwrap();
        checkpointer.nudge();
        if n % 50 == 0 {
            // Let the checkpointer in now and then, as a busy server's writer would.
            std::thread::sleep(std::time::Duration::from_millis(60));
        }
    }
    checkpointer.nudge();
    // Each checkpoint waits for more commits to gather first: wait for one that restarted.
    assert!(
        eventually(|| stats.restarts.load(Relaxed) > 0),
        "a log past {limit} pages was restarted"
    );
    assert!(
        eventually(|| stats.log_pages.load(Relaxed) <= limit as u64),
        "the log is short again: {} pages",
        stats.log_pages.load(Relaxed)
    );
    assert!(stats.checkpoints.load(Relaxed) >= stats.restarts.load(Relaxed));
    checkpointer.stop();
    drop(writer);
    let reader = rusqlite::Connection::open(&path).unwrap();
    let count: i64 = reader
        .query_row("SELECT count(*) FROM rows", [], |row| row.get(0))
        .unwrap();
    assert_eq!(count, commits, "no committed row was lost");
}

#[tokio::test]
async fn pruning_removes_exactly_the_closed_tables_older_than_the_cutoff() {
    let dir = Dir::new("prune");
    let (store, _) = SqliteStore::open(&dir.0).unwrap();
    let day = 86_400_000;
    // (id, created, closed)
    let tables = [
        ("old-closed-1", day, true),
        ("old-closed-2", 2 * day, true),
        ("old-open", day, false),
        ("new-closed", 20 * day, true),
        ("new-open", 20 * day, false),
    ];
    for (id, created, closed) in tables {
        let (mut log, _, _) = log_of(8);
        log.table.id = id.into();
        log.table.created = created;
        if closed {
            log.table.status = crate::store::records::CLOSED.into();
        }
        let mut acks = vec![store.append(Write::Table(log.table.clone()))];
        acks.push(store.append(Write::Match {
            table: id.into(),
            row: log.matches[0],
        }));
        for row in log.actions {
            acks.push(store.append(Write::Action {
                table: id.into(),
                row,
            }));
        }
        for ack in acks {
            ack.await.unwrap().unwrap();
        }
    }
    store.flushed().await.unwrap();
    // One at a time: the batch limit holds.
    assert_eq!(store.prune(10 * day, 1).await.unwrap(), 1);
    assert_eq!(store.prune(10 * day, 100).await.unwrap(), 1);
    assert_eq!(store.prune(10 * day, 100).await.unwrap(), 0);
    for (id, _, _) in tables {
        let log = store.table_log(id).await.unwrap();
        let gone = id.starts_with("old-closed");
        assert_eq!(log.is_none(), gone, "{id}");
        if let Some(log) = log {
            assert_eq!(log.actions.len(), 8, "{id} keeps its moves");
        }
    }
    // Nothing of the pruned tables is left behind.
    let conn = rusqlite::Connection::open(dir.0.join(super::DB_FILE)).unwrap();
    let orphans: i64 = conn
        .query_row(
            "SELECT (SELECT count(*) FROM table_numbers WHERE id LIKE 'old-closed%')
                  + (SELECT count(*) FROM actions
                     WHERE table_no NOT IN (SELECT no FROM table_numbers))",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(orphans, 0);
    let kept: i64 = conn
        .query_row("SELECT count(*) FROM actions", [], |row| row.get(0))
        .unwrap();
    assert_eq!(kept, 3 * 8, "the other tables' actions stay");
    store.close().await.unwrap();
}

#[tokio::test]
async fn table_talk_keeps_only_the_latest_lines_and_survives_reopening() {
    let dir = Dir::new("chat");
    let (store, _) = SqliteStore::open(&dir.0).unwrap();
    let (log, _, _) = log_of(0);
    store
        .append(Write::Table(log.table.clone()))
        .await
        .unwrap()
        .unwrap();
    let line = |n: u64| ChatRow {
        n,
        seat: n.is_multiple_of(2).then_some(1),
        name: format!("Ann {n}"),
        text: format!("<b>line</b> {n}"),
        at: 1_000 + n as i64,
    };
    let mut acks = Vec::new();
    for n in 1..=7 {
        acks.push(store.append(Write::Chat {
            table: "t".into(),
            row: line(n),
            keep: 3,
        }));
    }
    for ack in acks {
        ack.await.unwrap().unwrap();
    }
    store.close().await.unwrap();

    let (store, _) = SqliteStore::open(&dir.0).unwrap();
    let log = store.table_log("t").await.unwrap().unwrap();
    assert_eq!(log.chat, vec![line(5), line(6), line(7)]);
    store.close().await.unwrap();
}

#[tokio::test]
async fn tokens_an_older_version_stored_in_clear_are_hashed_on_open() {
    let dir = Dir::new("clear-tokens");
    let (store, _) = SqliteStore::open(&dir.0).unwrap();
    let (log, _, _) = log_of(4);
    store.append(Write::Table(log.table.clone()));
    store.append(Write::Match {
        table: "t".into(),
        row: log.matches[0],
    });
    // Rows as an older version wrote them: the tokens themselves.
    let ack = store.append(Write::State {
        table: "t".into(),
        status: "playing",
        host: Some(0),
        seats: seat_rows(),
    });
    ack.await.unwrap().unwrap();
    store.close().await.unwrap();
    drop(store);

    let (store, startup) = SqliteStore::open(&dir.0).unwrap();
    let seats = &startup.tables[0].seats;
    assert_eq!(
        seats[0].token.as_deref(),
        Some(crate::digest::of_secret("token0").as_str()),
        "the seat comes back with its token's digest"
    );
    store.close().await.unwrap();
    let conn = rusqlite::Connection::open(dir.0.join(super::DB_FILE)).unwrap();
    let kept: Vec<String> = conn
        .prepare("SELECT token FROM seats WHERE token IS NOT NULL")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(kept.len(), 3);
    for token in kept {
        assert!(
            crate::store::secret::is_digest(&token),
            "{token} is still in clear"
        );
    }
}

/// A Spades hand with a blind nil, once finished, is built face up like any other: every seat's
/// dealt hand (the bidder's, sent late, included) and the exchange as two passes.
#[test]
fn a_finished_blind_nil_hand_shows_its_exchange() {
    use parlor_shared::bots::RandomBot;
    use parlor_shared::{Options, Seat};
    let options = Options {
        blind_nil: Some(true),
        blind_nil_behind: Some(1),
        // A long match, with no mercy: it goes on until someone bids blind nil.
        target: Some(5000),
        mercy: Some(0),
        ..Options::default()
    };
    let mut game = Game::new(Variant::Spades, &options, 3).unwrap();
    let mut bot = RandomBot::new(3);
    let mut actions = Vec::new();
    let mut dealt = Vec::new();
    let mut blind_hand = None;
    while blind_hand.is_none() || game.hand_number() == blind_hand.unwrap() {
        let seat = game.to_act().first().expect("the match goes on");
        let action = bot.choose_legal(&game.legal_actions(seat)).unwrap();
        let hand = game.hand_number();
        for event in game.apply(seat, &action).unwrap() {
            match event {
                Event::BlindNil { .. } => blind_hand = Some(hand),
                Event::Dealt { seat, cards } if game.hand_number() == hand => {
                    dealt.push((hand, seat, cards));
                }
                _ => {}
            }
        }
        actions.push(ActionRow {
            match_no: 1,
            idx: actions.len() as u32,
            seat: seat.0,
            action: serde_json::to_string(&action).unwrap(),
            seq: 0,
        });
    }
    let (mut log, _, _) = log_of(0);
    log.table.variant = "spades".into();
    log.table.options = serde_json::to_string(&options).unwrap();
    log.table.seed = Some(3);
    log.matches[0].seed = 3;
    log.actions = actions;
    let hands = hands::table_hands(&log).unwrap();
    let blind_hand = blind_hand.unwrap();
    let hand = &hands.finished[blind_hand as usize];
    let bidder = hand.result.blind_nil.expect("a blind nil").first().unwrap();
    assert_eq!(hand.passes.len(), 2);
    assert!(
        hand.passes
            .iter()
            .any(|p| p.to == bidder && p.from == bidder.partner())
    );
    assert!(
        hand.passes
            .iter()
            .any(|p| p.from == bidder && p.to == Seat(bidder.0 ^ 2))
    );
    let (_, _, cards) = dealt
        .iter()
        .find(|(h, s, _)| *h == blind_hand && *s == bidder)
        .expect("the bidder's hand, sent once it bid");
    assert_eq!(hand.dealt[bidder.index()], *cards);
}

/// An action row of match 1 written as `text`.
fn action_row(idx: u32, text: &str) -> ActionRow {
    ActionRow {
        match_no: 1,
        idx,
        seat: (idx % 4) as u8,
        action: text.into(),
        seq: u64::from(idx) + 100,
    }
}

/// Consecutive actions go in together, many to a statement; one refused in the middle of a
/// statement's rows (a repeated index) gets its own error while every other write, before and
/// after it, in the same statement and in the next, is stored and answered as done, in order.
#[test]
fn an_action_refused_inside_a_multi_row_insert_fails_alone() {
    let mut conn = rusqlite::Connection::open_in_memory().unwrap();
    super::schema::migrate(&mut conn).unwrap();
    let (log, _, _) = log_of(0);
    let t: std::sync::Arc<str> = "t".into();
    let u: std::sync::Arc<str> = "u 'other'".into();
    let act = |table: &std::sync::Arc<str>, idx: u32, text: &str| Write::Action {
        table: table.clone(),
        row: action_row(idx, text),
    };
    let mut writes = vec![Write::Table(log.table.clone())];
    let mut refused = Vec::new();
    for idx in 0..10 {
        writes.push(act(&t, idx, &format!("t{idx}")));
    }
    refused.push(writes.len());
    writes.push(act(&t, 5, "again"));
    writes.push(act(&u, 0, "u0"));
    for idx in 10..20 {
        writes.push(act(&t, idx, &format!("t{idx}")));
    }
    writes.push(Write::Chat {
        table: "t".into(),
        row: ChatRow {
            n: 1,
            seat: Some(0),
            name: "p0".into(),
            text: "hi".into(),
            at: 0,
        },
        keep: 10,
    });
    // Past one statement's rows: the repeat falls in the second statement of the run.
    for idx in 20..60 {
        writes.push(act(&t, idx, &format!("t{idx}")));
        if idx == 55 {
            refused.push(writes.len());
            writes.push(act(&t, 0, "again"));
        }
    }
    let writes: Vec<&Write> = writes.iter().collect();

    conn.execute_batch("BEGIN").unwrap();
    let mut numbers = super::table_numbers::TableNumbers::default();
    let outcomes = super::writer::write_in(&conn, &mut numbers, &writes).unwrap();
    conn.execute_batch("COMMIT").unwrap();

    assert_eq!(outcomes.len(), writes.len());
    for (i, outcome) in outcomes.iter().enumerate() {
        match outcome {
            Err(err) => {
                assert!(refused.contains(&i), "write {i} refused: {err}");
                assert!(err.to_string().contains("UNIQUE"), "{err}");
            }
            Ok(()) => assert!(!refused.contains(&i), "write {i} stored"),
        }
    }
    let stored = super::load::table_log(&conn, "t", super::load::Scope::All)
        .unwrap()
        .unwrap();
    let expected: Vec<ActionRow> = (0..60).map(|i| action_row(i, &format!("t{i}"))).collect();
    assert_eq!(stored.actions, expected);
    assert_eq!(stored.chat.len(), 1);
    let other: Vec<(u32, String)> = conn
        .prepare(
            "SELECT idx, action FROM actions
             WHERE table_no = (SELECT no FROM table_numbers WHERE id = 'u ''other''')",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(other, vec![(0, "u0".to_string())]);
}

/// Through the store: the repeated action's acknowledgement carries its error, the others'
/// say stored, and the table reads back without it.
#[tokio::test]
async fn a_refused_action_is_answered_with_its_error_and_the_rest_are_stored() {
    let store = SqliteStore::in_memory().unwrap();
    let (log, _, _) = log_of(0);
    let table: std::sync::Arc<str> = "t".into();
    let mut acks = vec![store.append(Write::Table(log.table.clone()))];
    for (idx, text) in [(0, "a"), (1, "b"), (1, "again"), (2, "c"), (3, "d")] {
        acks.push(store.append(Write::Action {
            table: table.clone(),
            row: action_row(idx, text),
        }));
    }
    let mut answers = Vec::new();
    for ack in acks {
        answers.push(ack.await.unwrap().is_ok());
    }
    assert_eq!(answers, [true, true, true, false, true, true]);
    let stored = store.table_log("t").await.unwrap().unwrap();
    let texts: Vec<&str> = stored.actions.iter().map(|a| a.action.as_str()).collect();
    assert_eq!(texts, ["a", "b", "c", "d"]);
    store.close().await.unwrap();
}
