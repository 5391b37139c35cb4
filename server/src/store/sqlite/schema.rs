//! The database schema and its migrations, numbered by SQLite's `PRAGMA user_version`.
//!
//! Migration `i` (0-based) takes a database from version `i` to `i + 1`. A database with a
//! higher version than [`MIGRATIONS`] knows was written by a newer Parlor and is refused
//! rather than guessed at.
//!
//! It owns the schema; rows are written by the writer thread only.

use rusqlite::Connection;

use crate::store::{StoreError, secret};

/// Every migration in order. Append; never edit one that has shipped.
pub const MIGRATIONS: &[&str] = &[
    // 1: tables, their matches, seats and the action log.
    "
    CREATE TABLE tables (
        id            TEXT PRIMARY KEY NOT NULL,
        variant       TEXT NOT NULL,
        options       TEXT NOT NULL,    -- JSON: parlor_shared::Options, every option spelled out
        table_options TEXT NOT NULL,    -- JSON: parlor_shared::protocol::TableOptions
        seed          INTEGER,          -- the table's first seed when it was given (u64 bits)
        created       INTEGER NOT NULL, -- Unix time in milliseconds
        status        TEXT NOT NULL,    -- waiting | playing | finished | closed
        host          INTEGER           -- the host's seat
    ) STRICT;
    CREATE TABLE matches (
        table_id  TEXT NOT NULL,
        match_no  INTEGER NOT NULL,     -- from 1
        seed      INTEGER NOT NULL,     -- the match's seed (u64 bits)
        seq       INTEGER NOT NULL,     -- the table's event counter after the opening deal
        PRIMARY KEY (table_id, match_no)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE seats (
        table_id    TEXT NOT NULL,
        seat        INTEGER NOT NULL,
        occupant    TEXT NOT NULL,      -- empty | human | bot | remote_bot
        name        TEXT,
        token       TEXT,               -- the secret that gives the seat back
        strategy    TEXT,               -- a built-in bot's strategy name
        bot_playing INTEGER NOT NULL,   -- 1 while the server plays for the seat
        PRIMARY KEY (table_id, seat)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE actions (
        table_id  TEXT NOT NULL,
        match_no  INTEGER NOT NULL,
        idx       INTEGER NOT NULL,     -- from 0 within the match
        seat      INTEGER NOT NULL,
        action    TEXT NOT NULL,        -- JSON: parlor_shared::Action
        seq       INTEGER NOT NULL,     -- the table's event counter after this action
        PRIMARY KEY (table_id, match_no, idx)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX tables_by_status ON tables (status);
    ",
    // 2: each match's master secret (fair deals); NULL for matches dealt from `seed`.
    "
    ALTER TABLE matches ADD COLUMN secret TEXT; -- 64 hex digits
    ",
    // 3: the table talk kept for those who join later (the last lines of each table).
    "
    CREATE TABLE chat (
        table_id  TEXT NOT NULL,
        n         INTEGER NOT NULL,     -- from 1, every line ever said at the table
        seat      INTEGER,              -- NULL for a spectator
        name      TEXT NOT NULL,
        text      TEXT NOT NULL,
        at        INTEGER NOT NULL,     -- Unix time in milliseconds
        PRIMARY KEY (table_id, n)
    ) STRICT, WITHOUT ROWID;
    ",
    // 4: finished matches' results, read back in order to rebuild the ratings. Kept when a
    // closed table is pruned: the ratings are built from every result ever stored.
    "
    CREATE TABLE results (
        n         INTEGER PRIMARY KEY,  -- the order results were stored in
        table_id  TEXT NOT NULL,
        match_no  INTEGER NOT NULL,
        variant   TEXT NOT NULL,
        at        INTEGER NOT NULL,     -- Unix time in milliseconds
        places    TEXT NOT NULL,        -- JSON: each seat's entrant, team and place
        UNIQUE (table_id, match_no)
    ) STRICT;
    ",
    // 5: the SHA-256 (hex) of a table's host key; `host` 255 stands for the key's holder
    // hosting without a seat.
    "
    ALTER TABLE tables ADD COLUMN host_key TEXT;
    ",
    // 6: registered bot accounts (their tokens only as SHA-256 hashes), and the account
    // playing each seat.
    "
    CREATE TABLE bot_accounts (
        name       TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
        owner      TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE, -- hex SHA-256 of the bot token; the token is not kept
        created    INTEGER NOT NULL,     -- Unix time in milliseconds
        revoked    INTEGER               -- when it was revoked, Unix milliseconds
    ) STRICT;
    ALTER TABLE seats ADD COLUMN account TEXT; -- the bot account playing the seat
    ",
    // 7: accepted actions are appended to one of these in arrival order, whatever their
    // table, and folded into `actions` later, many of a table's at once; the two are used in
    // turn, each emptied whole (until version 12).
    "
    CREATE TABLE action_log (
        n         INTEGER PRIMARY KEY,  -- the order appended
        table_id  TEXT NOT NULL,
        match_no  INTEGER NOT NULL,
        idx       INTEGER NOT NULL,
        seat      INTEGER NOT NULL,
        action    TEXT NOT NULL,        -- JSON: parlor_shared::Action
        seq       INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE action_log_b (
        n         INTEGER PRIMARY KEY,
        table_id  TEXT NOT NULL,
        match_no  INTEGER NOT NULL,
        idx       INTEGER NOT NULL,
        seat      INTEGER NOT NULL,
        action    TEXT NOT NULL,
        seq       INTEGER NOT NULL
    ) STRICT;
    ",
    // 8: actions are folded into runs, a row holding consecutive actions of one table and
    // match, instead of a row each (until version 12). The actions stored so far
    // become runs: a table's actions in one match whose indexes follow each other (an index
    // less its rank is the same for all of them) make one. A damaged action that is not JSON
    // is kept as a JSON string, so that the rest still converts (its table is then restored
    // up to the step before it).
    "
    CREATE TABLE action_runs (
        table_id  TEXT NOT NULL,
        match_no  INTEGER NOT NULL,
        first_idx INTEGER NOT NULL,     -- the first action's index in the match
        last_idx  INTEGER NOT NULL,     -- the last one's: the run holds every index between
        actions   TEXT NOT NULL,        -- JSON: [[seat, parlor_shared::Action, seq], ...]
        PRIMARY KEY (table_id, match_no, first_idx)
    ) STRICT, WITHOUT ROWID;
    INSERT INTO action_runs (table_id, match_no, first_idx, last_idx, actions)
        SELECT table_id, match_no, min(idx), max(idx),
               json_group_array(json_array(seat,
                                           iif(json_valid(action), json(action), action),
                                           seq) ORDER BY idx)
        FROM (SELECT *, idx - row_number() OVER (PARTITION BY table_id, match_no
                                                 ORDER BY idx) AS island
              FROM actions)
        GROUP BY table_id, match_no, island;
    DROP TABLE actions;
    ",
    // 9: the log's ring holds batches of actions, a row each (until version 12), instead of a
    // row per action. `action_log_all` reads every log as rows of one action each: the two
    // tables of earlier versions (folded and emptied on opening) and the batches.
    "
    CREATE TABLE action_batches (
        n        INTEGER PRIMARY KEY,  -- the batch's row in the ring
        entries  TEXT NOT NULL         -- JSON: [[table_id, match_no, idx, seat, seq, action], ...]
    ) STRICT;
    CREATE VIEW action_log_all (n, table_id, match_no, idx, seat, action, seq) AS
        SELECT n, table_id, match_no, idx, seat, action, seq FROM action_log
        UNION ALL
        SELECT n, table_id, match_no, idx, seat, action, seq FROM action_log_b
        UNION ALL
        SELECT (b.n + 1) * 65536 + e.key, e.value ->> 0, e.value ->> 1, e.value ->> 2,
               e.value ->> 3, e.value ->> 5, e.value ->> 4
        FROM action_batches AS b, json_each(iif(json_valid(b.entries), b.entries, '[]')) AS e;
    ",
    // 10: whether a result's table was listed, so the public leaderboard names listed tables
    // only. Results stored before are taken as private.
    "
    ALTER TABLE results ADD COLUMN listed INTEGER NOT NULL DEFAULT 0;
    ",
    // 11: each bot account's name skeleton (`crate::skeleton`: what the name looks like),
    // unique, so no bot can register a name that passes for another's. Computed in Rust at
    // every opening (`accounts::refresh_skeletons`); NULL for an account whose name looks like
    // an older account's.
    "
    ALTER TABLE bot_accounts ADD COLUMN skeleton TEXT;
    CREATE UNIQUE INDEX bot_accounts_by_skeleton ON bot_accounts (skeleton);
    ",
    // 12: the action log is one row per action again, as in Postgres: every action of the
    // runs and of the older logs (the ring of batches, `action_log`, `action_log_b`) moves to
    // `actions`, and those go. An action both in a run and in a log counts once (the run's),
    // and of a repeat in the logs the first appended is kept, as their fold kept it; each
    // action's text is what reading the runs and logs gave back. A damaged run or batch that
    // is not JSON is skipped: its table is then restored up to the step before it.
    "
    CREATE TABLE actions (
        table_id  TEXT NOT NULL,
        match_no  INTEGER NOT NULL,
        idx       INTEGER NOT NULL,     -- from 0 within the match
        seat      INTEGER NOT NULL,
        action    TEXT NOT NULL,        -- JSON: parlor_shared::Action
        seq       INTEGER NOT NULL,     -- the table's event counter after this action
        PRIMARY KEY (table_id, match_no, idx)
    ) STRICT, WITHOUT ROWID;
    INSERT OR IGNORE INTO actions (table_id, match_no, idx, seat, action, seq)
        SELECT r.table_id, r.match_no, r.first_idx + a.key, a.value ->> 0, a.value -> 1,
               a.value ->> 2
        FROM action_runs AS r,
             json_each(iif(json_valid(r.actions), r.actions, '[]')) AS a
        ORDER BY r.table_id, r.match_no, r.first_idx, a.key;
    INSERT OR IGNORE INTO actions (table_id, match_no, idx, seat, action, seq)
        SELECT table_id, match_no, idx, seat, action, seq FROM action_log_all ORDER BY n;
    DROP VIEW action_log_all;
    DROP TABLE action_batches;
    DROP TABLE action_log;
    DROP TABLE action_log_b;
    DROP TABLE action_runs;
    ",
    // 13: `actions` is keyed by a number for each table instead of its text id (shorter keys
    // compared as integers); `table_numbers` gives the numbers, an `INTEGER PRIMARY KEY` that
    // `VACUUM` keeps. Every table and every id in the log gets one, in the order created, and
    // every action moves over as it is.
    "
    CREATE TABLE table_numbers (
        no        INTEGER PRIMARY KEY,  -- the table's number in `actions`
        id        TEXT NOT NULL UNIQUE
    ) STRICT;
    INSERT INTO table_numbers (id) SELECT id FROM tables ORDER BY created, id;
    INSERT OR IGNORE INTO table_numbers (id)
        SELECT DISTINCT table_id FROM actions ORDER BY table_id;
    ALTER TABLE actions RENAME TO actions_by_id;
    CREATE TABLE actions (
        table_no  INTEGER NOT NULL,     -- table_numbers.no
        match_no  INTEGER NOT NULL,
        idx       INTEGER NOT NULL,     -- from 0 within the match
        seat      INTEGER NOT NULL,
        action    TEXT NOT NULL,        -- JSON: parlor_shared::Action
        seq       INTEGER NOT NULL,     -- the table's event counter after this action
        PRIMARY KEY (table_no, match_no, idx)
    ) STRICT, WITHOUT ROWID;
    INSERT INTO actions (table_no, match_no, idx, seat, action, seq)
        SELECT n.no, a.match_no, a.idx, a.seat, a.action, a.seq
        FROM actions_by_id AS a JOIN table_numbers AS n ON n.id = a.table_id
        ORDER BY n.no, a.match_no, a.idx;
    DROP TABLE actions_by_id;
    ",
    // 14: `actions` is kept in the order written (`n`), its key in a unique index: a move then
    // changes its table's page of small index entries and the log's one growing end, where
    // keyed by its table it changed a page of whole rows of each table (docs/PERFORMANCE.md,
    // "The action log in the order written"). Every action moves over as it is.
    "
    ALTER TABLE actions RENAME TO actions_by_key;
    CREATE TABLE actions (
        n         INTEGER PRIMARY KEY,  -- the order written
        table_no  INTEGER NOT NULL,     -- table_numbers.no
        match_no  INTEGER NOT NULL,
        idx       INTEGER NOT NULL,     -- from 0 within the match
        seat      INTEGER NOT NULL,
        action    TEXT NOT NULL,        -- JSON: parlor_shared::Action
        seq       INTEGER NOT NULL      -- the table's event counter after this action
    ) STRICT;
    INSERT INTO actions (table_no, match_no, idx, seat, action, seq)
        SELECT table_no, match_no, idx, seat, action, seq FROM actions_by_key
        ORDER BY table_no, match_no, idx;
    DROP TABLE actions_by_key;
    CREATE UNIQUE INDEX actions_by_table ON actions (table_no, match_no, idx);
    ",
];

/// Checks that a database is Parlor's (it has the `tables` table) and not newer than this
/// build (a backup about to be restored).
pub fn check_version(conn: &Connection) -> Result<(), StoreError> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    let known = MIGRATIONS.len() as i64;
    if version > known {
        return Err(StoreError::NewerSchema {
            found: version,
            known,
        });
    }
    conn.query_row("SELECT count(*) FROM tables", [], |_| Ok(()))?;
    Ok(())
}

/// Brings the database up to the newest schema, each migration in its own transaction.
pub fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    let known = MIGRATIONS.len() as i64;
    if version > known {
        return Err(StoreError::NewerSchema {
            found: version,
            known,
        });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
        tx.commit()?;
        tracing::info!(version = i + 1, "database schema migrated");
    }
    hash_clear_tokens(conn)?;
    super::accounts::refresh_skeletons(conn)
}

/// Replaces every seat token an older version stored in clear by its digest, in one
/// transaction (a no-op once done): the file then holds no token that gives a seat back.
fn hash_clear_tokens(conn: &mut Connection) -> Result<(), StoreError> {
    let tx = conn.transaction()?;
    let mut clear: Vec<(String, i64, String)> = {
        let mut select =
            tx.prepare("SELECT table_id, seat, token FROM seats WHERE token IS NOT NULL")?;
        let rows = select.query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?;
        rows.collect::<Result<_, _>>()?
    };
    clear.retain(|(_, _, kept)| !secret::is_digest(kept));
    if clear.is_empty() {
        return Ok(());
    }
    {
        let mut update =
            tx.prepare("UPDATE seats SET token = ?3 WHERE table_id = ?1 AND seat = ?2")?;
        for (table, seat, token) in &clear {
            update.execute(rusqlite::params![
                table,
                seat,
                crate::digest::of_secret(token)
            ])?;
        }
    }
    tx.commit()?;
    tracing::info!(
        seats = clear.len(),
        "seat tokens stored in clear by an older version are now stored hashed"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use rusqlite::{Connection, params};

    use super::{MIGRATIONS, migrate};

    /// A database of version 11, the last with the log in tiers.
    fn version_11() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        for sql in &MIGRATIONS[..11] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 11).unwrap();
        conn
    }

    /// Which of `names` the schema still holds (tables, views, indexes).
    fn left_of(conn: &Connection, names: &[&str]) -> Vec<String> {
        let mut select = conn
            .prepare("SELECT name FROM sqlite_master WHERE name = ?1")
            .unwrap();
        names
            .iter()
            .filter_map(|name| select.query_row([name], |r| r.get(0)).ok())
            .collect()
    }

    fn play(card: &str) -> String {
        format!(r#"{{"type":"play","card":"{card}"}}"#)
    }

    /// Every action of `table`: (match, index, seat, action, seq).
    fn actions(conn: &Connection, table: &str) -> Vec<(u32, u32, u8, String, i64)> {
        every_action(conn, true)
            .into_iter()
            .filter(|(id, ..)| id == table)
            .map(|(_, match_no, idx, seat, action, seq)| (match_no, idx, seat, action, seq))
            .collect()
    }

    /// Version 12 gathers every tier into `actions`: the runs, then what only the logs hold
    /// (a ring's batch still holding actions already folded, the older two logs), each action
    /// once, the first appended of a repeat; a damaged batch is skipped; the tiers go.
    #[test]
    fn version_12_moves_every_tier_of_the_log_to_one_row_per_action() {
        let mut conn = version_11();
        // Runs: match 1, 0..=2; match 2, 0..=0.
        let run = |first: u32, cards: &[&str]| -> String {
            let items: Vec<String> = cards
                .iter()
                .enumerate()
                .map(|(i, c)| format!("[{},{},{}]", (first as usize + i) % 4, play(c), 10 + i))
                .collect();
            format!("[{}]", items.join(","))
        };
        for (match_no, first, last, json) in [
            (1, 0, 2, run(0, &["2C", "3C", "4C"])),
            (2, 0, 0, run(0, &["5C"])),
        ] {
            conn.execute(
                "INSERT INTO action_runs VALUES ('t', ?1, ?2, ?3, ?4)",
                params![match_no, first, last, json],
            )
            .unwrap();
        }
        // The ring: a batch with an action already folded (1, 2) and newer ones of two tables,
        // then a damaged batch.
        let entries = format!(
            "[[\"t\",1,2,2,12,{}],[\"t\",2,1,1,21,{}],[\"u \\\"odd\\\"\",1,0,3,5,{}]]",
            play("9H"),
            play("6C"),
            play("AS")
        );
        conn.execute(
            "INSERT INTO action_batches VALUES (0, ?1), (1, 'not json')",
            [entries],
        )
        .unwrap();
        // The older logs: a newer action, and a repeat of it appended later (dropped).
        conn.execute(
            "INSERT INTO action_log VALUES (1, 't', 2, 2, 2, ?1, 22)",
            [play("7C")],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO action_log_b VALUES (2, 't', 2, 2, 0, ?1, 99)",
            [play("KD")],
        )
        .unwrap();

        migrate(&mut conn).unwrap();

        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, MIGRATIONS.len() as i64);
        assert_eq!(
            actions(&conn, "t"),
            vec![
                (1, 0, 0, play("2C"), 10),
                (1, 1, 1, play("3C"), 11),
                (1, 2, 2, play("4C"), 12),
                (2, 0, 0, play("5C"), 10),
                (2, 1, 1, play("6C"), 21),
                (2, 2, 2, play("7C"), 22),
            ]
        );
        assert_eq!(actions(&conn, "u \"odd\""), vec![(1, 0, 3, play("AS"), 5)]);
        let tiers = [
            "action_runs",
            "action_batches",
            "action_log",
            "action_log_b",
            "action_log_all",
        ];
        assert_eq!(
            left_of(&conn, &tiers),
            Vec::<String>::new(),
            "the tiers are gone"
        );
    }

    /// A database of version 12, the first with one row per action keyed by the table's id.
    fn version_12() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        for sql in &MIGRATIONS[..12] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 12).unwrap();
        conn
    }

    /// Every action, by table id: (id, match, index, seat, action, seq), read from the
    /// version-12 shape or the numbered one.
    fn every_action(conn: &Connection, numbered: bool) -> Vec<(String, u32, u32, u8, String, i64)> {
        let sql = if numbered {
            "SELECT n.id, a.match_no, a.idx, a.seat, a.action, a.seq
             FROM actions AS a JOIN table_numbers AS n ON n.no = a.table_no
             ORDER BY n.id, a.match_no, a.idx"
        } else {
            "SELECT table_id, match_no, idx, seat, action, seq FROM actions
             ORDER BY table_id, match_no, idx"
        };
        conn.prepare(sql)
            .unwrap()
            .query_map([], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                ))
            })
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }

    /// Version 13 keys `actions` by a number for each table: every action of every table
    /// (ids with quotes, spaces and letters outside ASCII; several matches; one id in the log
    /// only) comes over byte for byte, each table under a number of its own, and `tables` is
    /// untouched.
    #[test]
    fn version_13_numbers_the_tables_and_keeps_every_action_byte_for_byte() {
        let mut conn = version_12();
        let ids = [
            "plain",
            "it's \"odd\"",
            "a b\tc",
            "ünï ☃",
            "'; DROP TABLE actions; --",
        ];
        for (i, id) in ids.iter().enumerate() {
            conn.execute(
                "INSERT INTO tables (id, variant, options, table_options, created, status)
                 VALUES (?1, 'hearts', '{}', '{}', ?2, 'playing')",
                params![id, 100 - i as i64],
            )
            .unwrap();
        }
        // Texts as stored, not necessarily as serde_json writes them.
        let texts = [
            play("2C"),
            r#"{ "type" : "play", "card":"3C" }"#.to_string(),
            r#"{"type":"chat","text":"caf\u00e9 \"x\" ü"}"#.to_string(),
            "not json at all".to_string(),
        ];
        let mut n = 0;
        for id in ids.iter().chain(["only in the log"].iter()) {
            for match_no in 1..=3u32 {
                for idx in 0..(5 + match_no) {
                    let text = &texts[n % texts.len()];
                    conn.execute(
                        "INSERT INTO actions VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                        params![id, match_no, idx, idx % 4, text, 1000 + n as i64],
                    )
                    .unwrap();
                    n += 1;
                }
            }
        }
        let before = every_action(&conn, false);
        assert_eq!(before.len(), n);
        let tables_before: i64 = conn
            .query_row("SELECT count(*) FROM tables", [], |r| r.get(0))
            .unwrap();

        migrate(&mut conn).unwrap();

        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, MIGRATIONS.len() as i64);
        assert_eq!(every_action(&conn, true), before);
        let numbers: Vec<(i64, String)> = conn
            .prepare("SELECT no, id FROM table_numbers ORDER BY no")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(numbers.len(), ids.len() + 1, "a number each: {numbers:?}");
        // The tables in the order created (the last one first here), then the log's own.
        assert_eq!(numbers[0].1, ids[4]);
        assert_eq!(numbers[4].1, ids[0]);
        assert_eq!(numbers[5].1, "only in the log");
        let tables_after: i64 = conn
            .query_row("SELECT count(*) FROM tables", [], |r| r.get(0))
            .unwrap();
        assert_eq!(tables_after, tables_before);
        let columns: Vec<String> = conn
            .prepare("SELECT name FROM pragma_table_info('actions')")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            columns,
            ["n", "table_no", "match_no", "idx", "seat", "action", "seq"]
        );
        assert_eq!(left_of(&conn, &["actions_by_id"]), Vec::<String>::new());
    }

    /// Version 14 keeps `actions` in the order written with its key in a unique index: every
    /// action comes over byte for byte, a repeated key is still refused, and a table's log is
    /// read through the index, not by reading the whole log.
    #[test]
    fn version_14_keeps_the_log_in_the_order_written_and_every_action_byte_for_byte() {
        let mut conn = Connection::open_in_memory().unwrap();
        for sql in &MIGRATIONS[..13] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 13).unwrap();
        for (no, id) in ["first", "it's \"second\"", "ünï"].iter().enumerate() {
            conn.execute(
                "INSERT INTO table_numbers (no, id) VALUES (?1, ?2)",
                params![no as i64 + 1, id],
            )
            .unwrap();
        }
        // Interleaved as live tables write them, a text that is not JSON among them.
        let texts = [play("2C"), "not json at all".to_string(), play("QS")];
        for step in 0..30u32 {
            let no = i64::from(step % 3) + 1;
            let (match_no, idx) = (1 + step / 18, (step / 3) % 6);
            conn.execute(
                "INSERT INTO actions VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    no,
                    match_no,
                    idx,
                    idx % 4,
                    texts[step as usize % 3],
                    100 + step
                ],
            )
            .unwrap();
        }
        let before = every_action(&conn, true);
        assert_eq!(before.len(), 30);

        migrate(&mut conn).unwrap();

        assert_eq!(every_action(&conn, true), before);
        let repeat = conn.execute(
            "INSERT INTO actions (table_no, match_no, idx, seat, action, seq)
             VALUES (1, 1, 0, 0, '{}', 1)",
            [],
        );
        assert!(repeat.is_err(), "a repeated key is refused");
        let plan: Vec<String> = conn
            .prepare(
                "EXPLAIN QUERY PLAN SELECT match_no, idx, seat, action, seq FROM actions
                 WHERE table_no = (SELECT no FROM table_numbers WHERE id = ?1)
                   AND match_no >= ?2 ORDER BY match_no, idx",
            )
            .unwrap()
            .query_map(params!["first", 0], |r| r.get(3))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert!(
            plan.iter()
                .any(|step| step.contains("USING INDEX actions_by_table")),
            "{plan:?}"
        );
        assert!(
            !plan.iter().any(|step| step.contains("TEMP B-TREE")),
            "{plan:?}"
        );
        assert_eq!(left_of(&conn, &["actions_by_key"]), Vec::<String>::new());
        assert_eq!(left_of(&conn, &["actions_by_table"]), ["actions_by_table"]);
    }
}
