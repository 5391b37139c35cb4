//! The `bot_accounts` rows: register, list, revoke, and find an account by its token's hash.
//!
//! Plain functions on a connection: the server's writer thread runs them on its connection,
//! and `parlor bots` on one of its own ([`open_offline`]) while the server may be running
//! (SQLite's WAL lets both write; the busy timeout covers the moment they meet).

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};

use super::{DB_FILE, configure, schema};
use crate::store::{BotAccount, NewBot, StoreError, now_millis};

/// Opens the data directory's database for `parlor bots`, creating and migrating it if
/// needed. It does not read tables, start threads or move anything aside.
pub fn open_offline(dir: &Path) -> Result<Connection, StoreError> {
    std::fs::create_dir_all(dir).map_err(|err| StoreError::Io {
        what: format!("creating the data directory {}", dir.display()),
        err,
    })?;
    let mut conn = Connection::open(dir.join(DB_FILE))?;
    configure(&conn)?;
    schema::migrate(&mut conn)?;
    Ok(conn)
}

/// Inserts a new account; `false` when the name is taken (compared without case).
pub fn insert(conn: &Connection, bot: &NewBot) -> Result<bool, StoreError> {
    let added = conn
        .prepare_cached(
            "INSERT INTO bot_accounts (name, owner, token_hash, created) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (name) DO NOTHING",
        )?
        .execute(params![bot.name, bot.owner, bot.token_hash, now_millis()])?;
    Ok(added == 1)
}

/// Every account, by name.
pub fn list(conn: &Connection) -> Result<Vec<BotAccount>, StoreError> {
    let accounts = conn
        .prepare_cached(
            "SELECT name, owner, created, revoked FROM bot_accounts ORDER BY name COLLATE NOCASE",
        )?
        .query_map([], row_account)?
        .collect::<Result<_, _>>()?;
    Ok(accounts)
}

/// Revokes the account named `name` (any case), keeping the first revocation's time.
pub fn revoke(conn: &Connection, name: &str) -> Result<Option<BotAccount>, StoreError> {
    conn.prepare_cached("UPDATE bot_accounts SET revoked = coalesce(revoked, ?2) WHERE name = ?1")?
        .execute(params![name, now_millis()])?;
    let account = conn
        .prepare_cached("SELECT name, owner, created, revoked FROM bot_accounts WHERE name = ?1")?
        .query_row([name], row_account)
        .optional()?;
    Ok(account)
}

/// The account whose token hashes to `hash`, unless it was revoked.
pub fn by_token(conn: &Connection, hash: &str) -> Result<Option<BotAccount>, StoreError> {
    let account = conn
        .prepare_cached(
            "SELECT name, owner, created, revoked FROM bot_accounts
             WHERE token_hash = ?1 AND revoked IS NULL",
        )?
        .query_row([hash], row_account)
        .optional()?;
    Ok(account)
}

/// One row as an account.
fn row_account(row: &rusqlite::Row<'_>) -> rusqlite::Result<BotAccount> {
    Ok(BotAccount {
        name: row.get(0)?,
        owner: row.get(1)?,
        created: row.get(2)?,
        revoked: row.get(3)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::accounts::{hash_token, prepare};

    #[test]
    fn accounts_are_unique_by_name_and_revoking_stops_the_token() {
        let dir = std::env::temp_dir().join(format!("parlor-accounts-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let conn = open_offline(&dir).unwrap();
        let (bot, token) = prepare("Deep Queen", "ann").unwrap();
        assert!(insert(&conn, &bot).unwrap());
        let (again, _) = prepare("deep queen", "bob").unwrap();
        assert!(
            !insert(&conn, &again).unwrap(),
            "names are unique without case"
        );
        let found = by_token(&conn, &hash_token(&token)).unwrap().unwrap();
        assert_eq!(
            (found.name.as_str(), found.owner.as_str()),
            ("Deep Queen", "ann")
        );
        assert_eq!(by_token(&conn, &hash_token("pbt_wrong")).unwrap(), None);
        // Only the hash is stored.
        let stored: String = conn
            .query_row("SELECT token_hash FROM bot_accounts", [], |r| r.get(0))
            .unwrap();
        assert_eq!(stored, hash_token(&token));
        assert!(!stored.contains(&token));
        let revoked = revoke(&conn, "DEEP QUEEN").unwrap().unwrap();
        assert!(revoked.revoked.is_some());
        assert_eq!(by_token(&conn, &hash_token(&token)).unwrap(), None);
        assert_eq!(revoke(&conn, "nobody").unwrap(), None);
        assert_eq!(list(&conn).unwrap().len(), 1);
        drop(conn);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
