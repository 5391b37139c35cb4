//! The Postgres schema and its migrations, numbered in the one-row table `parlor_schema`.
//!
//! Migration `i` (0-based) takes a database from version `i` to `i + 1`, each in its own
//! transaction under an advisory lock, so several nodes starting at once on one database
//! migrate it once. A database with a higher version than [`MIGRATIONS`] knows was written by
//! a newer Parlor and is refused rather than guessed at.
//!
//! The rows are the SQLite backend's (see `store::records`), with Postgres types. Every row
//! of a table's log carries its `table_id`, so a cluster layer can fence each write by a
//! per-table epoch inside the writer's transaction (see `writer::fence`).

use tokio_postgres::Client;

use crate::store::StoreError;

/// The advisory lock key taken while migrating (the bytes `PRLR`).
const MIGRATION_LOCK: i64 = 0x5052_4C52;

/// Every migration in order. Append; never edit one that has shipped.
pub const MIGRATIONS: &[&str] = &[
    // 1: the whole schema of the SQLite backend's version 6, and the writers' commit marks.
    "
    CREATE TABLE tables (
        id            TEXT PRIMARY KEY,
        variant       TEXT NOT NULL,
        options       TEXT NOT NULL,    -- JSON: parlor_shared::Options
        table_options TEXT NOT NULL,    -- JSON: parlor_shared::protocol::TableOptions
        seed          BIGINT,           -- the table's first seed when it was given (u64 bits)
        created       BIGINT NOT NULL,  -- Unix time in milliseconds
        status        TEXT NOT NULL,    -- waiting | playing | finished | closed
        host          SMALLINT,         -- the host's seat (255: the host key's holder)
        host_key      TEXT              -- SHA-256 (hex) of the host key
    );
    CREATE INDEX tables_by_status ON tables (status, created);
    CREATE TABLE matches (
        table_id  TEXT NOT NULL,
        match_no  BIGINT NOT NULL,      -- from 1
        seed      BIGINT NOT NULL,      -- u64 bits
        seq       BIGINT NOT NULL,      -- the table's event counter after the opening deal
        secret    TEXT,                 -- 64 hex digits: the match's master secret
        PRIMARY KEY (table_id, match_no)
    );
    CREATE TABLE seats (
        table_id    TEXT NOT NULL,
        seat        SMALLINT NOT NULL,
        occupant    TEXT NOT NULL,      -- empty | human | bot | remote_bot
        name        TEXT,
        token       TEXT,               -- SHA-256 (hex) of the seat token
        strategy    TEXT,
        bot_playing BOOLEAN NOT NULL,
        account     TEXT,               -- the bot account playing the seat
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE actions (
        table_id  TEXT NOT NULL,
        match_no  BIGINT NOT NULL,
        idx       BIGINT NOT NULL,      -- from 0 within the match
        seat      SMALLINT NOT NULL,
        action    TEXT NOT NULL,        -- JSON: parlor_shared::Action
        seq       BIGINT NOT NULL,      -- the table's event counter after this action
        PRIMARY KEY (table_id, match_no, idx)
    );
    CREATE TABLE chat (
        table_id  TEXT NOT NULL,
        n         BIGINT NOT NULL,
        seat      SMALLINT,
        name      TEXT NOT NULL,
        text      TEXT NOT NULL,
        at        BIGINT NOT NULL,
        PRIMARY KEY (table_id, n)
    );
    CREATE TABLE results (
        n         BIGSERIAL PRIMARY KEY, -- the order results were stored in
        table_id  TEXT NOT NULL,
        match_no  BIGINT NOT NULL,
        variant   TEXT NOT NULL,
        at        BIGINT NOT NULL,
        places    TEXT NOT NULL,
        UNIQUE (table_id, match_no)
    );
    CREATE TABLE bot_accounts (
        name       TEXT NOT NULL,
        owner      TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created    BIGINT NOT NULL,
        revoked    BIGINT
    );
    CREATE UNIQUE INDEX bot_accounts_by_name ON bot_accounts (lower(name));
    -- One row per writer (a running server): the number of its last committed batch, written
    -- in the batch's transaction, so a commit whose answer was lost with the connection is
    -- known to have happened (or not) when the writer reconnects.
    CREATE TABLE parlor_writers (
        writer   TEXT PRIMARY KEY,
        batch    BIGINT NOT NULL,
        at       BIGINT NOT NULL
    );
    ",
    // 2: whether a result's table was listed, so the public leaderboard names listed tables
    // only. Results stored before are taken as private.
    "
    ALTER TABLE results ADD COLUMN listed BOOLEAN NOT NULL DEFAULT FALSE;
    ",
    // 3: each bot account's name skeleton (`crate::skeleton`: what the name looks like),
    // unique, so no bot can register a name that passes for another's. Computed in Rust at
    // every opening (`accounts::refresh_skeletons`); NULL for an account whose name looks like
    // an older account's.
    "
    ALTER TABLE bot_accounts ADD COLUMN skeleton TEXT;
    CREATE UNIQUE INDEX bot_accounts_by_skeleton ON bot_accounts (skeleton);
    ",
];

/// Brings the database up to the newest schema, each migration in its own transaction, then
/// brings the bot accounts' name skeletons up to date.
pub async fn migrate(client: &mut Client) -> Result<(), StoreError> {
    migrate_schema(client).await?;
    super::accounts::refresh_skeletons(client, MIGRATION_LOCK).await
}

/// Runs the migrations the database has not had.
async fn migrate_schema(client: &mut Client) -> Result<(), StoreError> {
    client
        .batch_execute(
            "CREATE TABLE IF NOT EXISTS parlor_schema (
                 one     BOOLEAN PRIMARY KEY DEFAULT true CHECK (one),
                 version BIGINT NOT NULL
             );
             INSERT INTO parlor_schema (version) VALUES (0) ON CONFLICT DO NOTHING;",
        )
        .await
        .or_else(|err| {
            // Two nodes creating it at once: the loser's statement fails, the table is there.
            if err.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION) {
                Ok(())
            } else {
                Err(err)
            }
        })?;
    let known = MIGRATIONS.len() as i64;
    loop {
        let tx = client.transaction().await?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .await?;
        let version: i64 = tx
            .query_one("SELECT version FROM parlor_schema", &[])
            .await?
            .try_get(0)?;
        if version > known {
            return Err(StoreError::NewerSchema {
                found: version,
                known,
            });
        }
        if version == known {
            tx.commit().await?;
            return Ok(());
        }
        tx.batch_execute(MIGRATIONS[version as usize]).await?;
        tx.execute("UPDATE parlor_schema SET version = $1", &[&(version + 1)])
            .await?;
        tx.commit().await?;
        tracing::info!(version = version + 1, "database schema migrated");
    }
}
