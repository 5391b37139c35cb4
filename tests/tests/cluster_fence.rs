//! The writer's lease check and the cluster's own statements on the lease rows, on a real
//! Postgres: renewing leases never waits for a writer's open transaction (so the two cannot
//! deadlock), while an adoption waits for it and then fences the old owner out.

use std::time::Duration;

use parlor_server::cluster::{fence::LeaseFence, leases};
use parlor_server::store::fence::Fence;
use parlor_tests::postgres::Postgres;

/// Waits (boundedly) until a session of `db` runs a statement starting with `prefix` and
/// waits for a lock; true if it was seen.
async fn waits_for_a_lock(observer: &tokio_postgres::Client, prefix: &str) -> bool {
    for _ in 0..200 {
        let rows = observer
            .query(
                "SELECT 1 FROM pg_stat_activity
                 WHERE wait_event_type = 'Lock' AND starts_with(query, $1)",
                &[&prefix],
            )
            .await
            .expect("pg_stat_activity");
        if !rows.is_empty() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

#[tokio::test]
async fn renewals_never_wait_for_a_writer_and_adoptions_do() {
    let postgres = Postgres::start();
    let url = postgres.database("cluster_fence").await;
    let name = url.rsplit('/').next().expect("a database name").to_string();
    let mut setup = postgres.connect(&name).await;
    leases::migrate(&mut setup)
        .await
        .expect("the cluster's tables");

    // Node a creates three tables: their leases are taken in the creating transaction.
    let lease = Duration::from_secs(30);
    let fence = LeaseFence::new("a", lease);
    let tables: Vec<String> = ["t3", "t1", "t2"].iter().map(|t| t.to_string()).collect();
    let writer = postgres.connect(&name).await;
    writer.batch_execute("BEGIN").await.unwrap();
    let refused = fence.check(&writer, &tables, &tables).await.unwrap();
    assert!(refused.is_empty(), "{refused:?}");
    writer.batch_execute("COMMIT").await.unwrap();

    // A group commit of node a checks all three and holds its transaction open...
    writer.batch_execute("BEGIN").await.unwrap();
    let refused = fence.check(&writer, &[], &tables).await.unwrap();
    assert!(refused.is_empty(), "{refused:?}");

    // ...while node a's lease round renews them: it must not wait for the writer (with a
    // lock the renewal waits for, this fails with a lock timeout instead).
    let renewer = postgres.connect(&name).await;
    renewer
        .batch_execute("SET lock_timeout = '10s'")
        .await
        .unwrap();
    let mut renewed = leases::renew(&renewer, "a", lease)
        .await
        .expect("the renewal does not wait for the writer's transaction");
    renewed.sort();
    assert_eq!(
        renewed,
        [("t1".into(), 1), ("t2".into(), 1), ("t3".into(), 1)]
    );

    // Node a stops renewing t1 (frozen, say): its lease runs out, and node b adopts it. The
    // adoption must wait until the writer's transaction that checked node a has ended.
    setup
        .execute(
            "UPDATE leases SET expires = now() - interval '1 second' WHERE table_id = 't1'",
            &[],
        )
        .await
        .unwrap();
    let adopter = postgres.connect(&name).await;
    let adoption = tokio::spawn(async move { leases::adopt(&adopter, "t1", "b", lease).await });
    assert!(
        waits_for_a_lock(&setup, "UPDATE leases SET node").await,
        "the adoption waits for the writer's lock"
    );
    assert!(
        !adoption.is_finished(),
        "adopted under an open write of the old owner"
    );
    writer.batch_execute("COMMIT").await.unwrap();
    let epoch = adoption.await.unwrap().expect("the adoption's statement");
    assert_eq!(epoch, Some(2), "node b owns t1 at epoch 2");

    // Node a's next write of t1 is refused; t2 and t3 are still its own.
    writer.batch_execute("BEGIN").await.unwrap();
    let refused = fence.check(&writer, &[], &tables).await.unwrap();
    writer.batch_execute("COMMIT").await.unwrap();
    assert_eq!(refused.into_iter().collect::<Vec<_>>(), ["t1"]);
    assert_eq!(fence.epoch("t1"), None);
    assert_eq!(fence.epoch("t2"), Some(1));
}

#[tokio::test]
async fn a_restarted_node_reclaims_its_leases_only_after_a_write_of_its_earlier_run() {
    let postgres = Postgres::start();
    let url = postgres.database("cluster_reclaim").await;
    let name = url.rsplit('/').next().expect("a database name").to_string();
    let mut setup = postgres.connect(&name).await;
    leases::migrate(&mut setup)
        .await
        .expect("the cluster's tables");
    let lease = Duration::from_secs(30);
    let earlier = LeaseFence::new("a", lease);
    let tables: Vec<String> = ["t1", "t2"].iter().map(|t| t.to_string()).collect();
    let writer = postgres.connect(&name).await;
    writer.batch_execute("BEGIN").await.unwrap();
    assert!(
        earlier
            .check(&writer, &tables, &tables)
            .await
            .unwrap()
            .is_empty()
    );
    writer.batch_execute("COMMIT").await.unwrap();

    // The earlier run of node a is in the middle of a write when node a starts again.
    writer.batch_execute("BEGIN").await.unwrap();
    assert!(
        earlier
            .check(&writer, &[], &tables)
            .await
            .unwrap()
            .is_empty()
    );
    let restarted = postgres.connect(&name).await;
    let reclaim = tokio::spawn(async move { leases::reclaim(&restarted, "a", lease).await });
    assert!(
        waits_for_a_lock(&setup, "UPDATE leases SET epoch").await,
        "the reclaim waits for the earlier run's write"
    );
    writer.batch_execute("COMMIT").await.unwrap();
    let mut reclaimed = reclaim.await.unwrap().expect("the reclaim's statement");
    reclaimed.sort();
    assert_eq!(reclaimed, [("t1".into(), 2), ("t2".into(), 2)]);

    // The earlier run, if it were still alive, can write neither table again.
    writer.batch_execute("BEGIN").await.unwrap();
    let refused = earlier.check(&writer, &[], &tables).await.unwrap();
    writer.batch_execute("COMMIT").await.unwrap();
    assert_eq!(refused.len(), 2, "{refused:?}");
}

#[tokio::test]
async fn the_survivors_share_a_dead_node_s_tables_in_one_round_live_ones_first() {
    let postgres = Postgres::start();
    let url = postgres.database("cluster_share").await;
    let name = url.rsplit('/').next().expect("a database name").to_string();
    let mut db = postgres.connect(&name).await;
    leases::migrate(&mut db)
        .await
        .expect("the cluster's tables");
    // The columns of the store's `tables` the adoption order reads.
    db.batch_execute("CREATE TABLE tables (id TEXT PRIMARY KEY, status TEXT NOT NULL)")
        .await
        .unwrap();
    let lease = Duration::from_secs(3);
    for node in ["a", "b", "c"] {
        leases::heartbeat(&db, node, &format!("127.0.0.1:1/{node}"), 0, false)
            .await
            .unwrap();
    }
    // Node c died a lease ago, holding 24 playing and 24 finished tables.
    db.batch_execute(
        "UPDATE nodes SET heartbeat = now() - interval '4 seconds' WHERE id = 'c';
         INSERT INTO tables SELECT 'p' || i, 'playing' FROM generate_series(1, 24) i;
         INSERT INTO tables SELECT 'f' || i, 'finished' FROM generate_series(1, 24) i;
         INSERT INTO leases SELECT id, 'c', 1, now() - interval '1 second' FROM tables;",
    )
    .await
    .unwrap();
    let a = leases::expired(&db, "a", lease).await.unwrap();
    let b = leases::expired(&db, "b", lease).await.unwrap();
    assert_eq!(
        a.len() + b.len(),
        48,
        "every table goes to one survivor: {a:?} {b:?}"
    );
    assert!(
        a.iter().all(|t| !b.contains(t)),
        "no table is given to both"
    );
    assert!(
        a.len() >= 12 && b.len() >= 12,
        "shared, not queued: {} and {}",
        a.len(),
        b.len()
    );
    for mine in [&a, &b] {
        let first_finished = mine.iter().position(|t| t.starts_with('f'));
        let last_live = mine.iter().rposition(|t| t.starts_with('p'));
        assert!(
            first_finished.zip(last_live).is_none_or(|(f, l)| l < f),
            "live tables come before finished ones: {mine:?}"
        );
    }

    // A table nobody adopted for a whole lease (its survivor died too) is anyone's.
    db.batch_execute(
        "UPDATE leases SET expires = now() - interval '5 seconds' WHERE table_id = 'p1'",
    )
    .await
    .unwrap();
    for node in ["a", "b"] {
        let mine = leases::expired(&db, node, lease).await.unwrap();
        assert_eq!(
            mine.first().map(String::as_str),
            Some("p1"),
            "{node}: {mine:?}"
        );
    }
}
