//! The `bot_accounts` rows: register, list, revoke, and find an account by its token's hash;
//! and the skeleton of each name, kept up to date at every opening ([`refresh_skeletons`]).
//!
//! Plain functions on a connection: the server's writer thread runs them on its connection,
//! and `parlor bots` on one of its own ([`open_offline`]) while the server may be running
//! (SQLite's WAL lets both write; the busy timeout covers the moment they meet).

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::{DB_FILE, configure, schema};
use crate::store::accounts::{StoredName, skeletons, warn_clashes};
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

/// Inserts a new account; `false` when the name is taken (an account's name has the same
/// skeleton, or the same letters in another case).
pub fn insert(conn: &Connection, bot: &NewBot) -> Result<bool, StoreError> {
    let added = conn
        .prepare_cached(
            "INSERT INTO bot_accounts (name, owner, token_hash, created, skeleton)
             VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT DO NOTHING",
        )?
        .execute(params![
            bot.name,
            bot.owner,
            bot.token_hash,
            now_millis(),
            bot.skeleton
        ])?;
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

/// The account whose token hashes to `hash`, unless it was revoked or another account's
/// name looks the same and holds the skeleton (see [`refresh_skeletons`]).
pub fn by_token(conn: &Connection, hash: &str) -> Result<Option<BotAccount>, StoreError> {
    let account = conn
        .prepare_cached(
            "SELECT name, owner, created, revoked FROM bot_accounts
             WHERE token_hash = ?1 AND revoked IS NULL AND skeleton IS NOT NULL",
        )?
        .query_row([hash], row_account)
        .optional()?;
    Ok(account)
}

/// Stores each account's skeleton: computed here, as SQL cannot, for the accounts from before
/// the column and after an upgrade whose Unicode data reads a name differently. Writes only
/// when one differs. Accounts from before whose names look the same both stay, one without
/// its skeleton, with a warning ([`skeletons`]).
pub fn refresh_skeletons(conn: &mut Connection) -> Result<(), StoreError> {
    let stored = stored_names(conn)?;
    let (wanted, clashes) = skeletons(&stored);
    if stored.iter().zip(&wanted).all(|(s, w)| s.skeleton == *w) {
        warn_clashes(&clashes);
        return Ok(());
    }
    // Read again under the write lock: `parlor bots` may have added one meanwhile.
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let stored = stored_names(&tx)?;
    let (wanted, clashes) = skeletons(&stored);
    tx.execute("UPDATE bot_accounts SET skeleton = NULL", [])?;
    {
        let mut update = tx.prepare("UPDATE bot_accounts SET skeleton = ?2 WHERE name = ?1")?;
        for (account, skeleton) in stored.iter().zip(&wanted) {
            if skeleton.is_some() {
                update.execute(params![account.name, skeleton])?;
            }
        }
    }
    tx.commit()?;
    tracing::info!(
        accounts = stored.len(),
        "bot accounts' name skeletons updated"
    );
    warn_clashes(&clashes);
    Ok(())
}

/// Every account's name and stored skeleton.
fn stored_names(conn: &Connection) -> Result<Vec<StoredName>, StoreError> {
    let names = conn
        .prepare("SELECT name, skeleton, created, revoked IS NOT NULL FROM bot_accounts")?
        .query_map([], |row| {
            Ok(StoredName {
                name: row.get(0)?,
                skeleton: row.get(1)?,
                created: row.get(2)?,
                revoked: row.get(3)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(names)
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
    use crate::digest::of_secret;
    use crate::store::accounts::prepare;

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
        for look_alike in ["\u{FF24}eep Queen", "D\u{435}\u{435}p Queen", "DEEP QUEEN"] {
            let (again, _) = prepare(look_alike, "bob").unwrap();
            assert!(!insert(&conn, &again).unwrap(), "{look_alike:?}");
        }
        let (asa, _) = prepare("\u{C5}sa", "ann").unwrap();
        assert!(insert(&conn, &asa).unwrap());
        let (asa, _) = prepare("\u{E5}sa", "bob").unwrap();
        assert!(
            !insert(&conn, &asa).unwrap(),
            "SQLite's NOCASE folds ASCII only"
        );
        let found = by_token(&conn, &of_secret(&token)).unwrap().unwrap();
        assert_eq!(
            (found.name.as_str(), found.owner.as_str()),
            ("Deep Queen", "ann")
        );
        assert_eq!(by_token(&conn, &of_secret("pbt_wrong")).unwrap(), None);
        // Only the hash is stored.
        let stored: String = conn
            .query_row(
                "SELECT token_hash FROM bot_accounts WHERE name = 'Deep Queen'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(stored, of_secret(&token));
        assert!(!stored.contains(&token));
        let revoked = revoke(&conn, "DEEP QUEEN").unwrap().unwrap();
        assert!(revoked.revoked.is_some());
        assert_eq!(by_token(&conn, &of_secret(&token)).unwrap(), None);
        assert_eq!(revoke(&conn, "nobody").unwrap(), None);
        assert_eq!(list(&conn).unwrap().len(), 2);
        drop(conn);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Accounts from before the skeleton column get theirs at opening; two that look the
    /// same both stay, and the one left without cannot come online.
    #[test]
    fn older_accounts_get_their_skeletons_and_a_clash_keeps_both() {
        let dir = std::env::temp_dir().join(format!("parlor-skeletons-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut conn = open_offline(&dir).unwrap();
        let tokens: Vec<String> = ["\u{C5}sa", "\u{E5}sa", "Deep"]
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let (bot, token) = prepare(name, "ann").unwrap();
                // As an older version wrote them: without a skeleton.
                conn.execute(
                    "INSERT INTO bot_accounts (name, owner, token_hash, created)
                     VALUES (?1, 'ann', ?2, ?3)",
                    params![bot.name, bot.token_hash, i as i64],
                )
                .unwrap();
                token
            })
            .collect();
        refresh_skeletons(&mut conn).unwrap();
        let stored = stored_names(&conn).unwrap();
        let held: Vec<bool> = stored.iter().map(|s| s.skeleton.is_some()).collect();
        assert_eq!(held, [true, false, true]);
        let online: Vec<bool> = tokens
            .iter()
            .map(|t| by_token(&conn, &of_secret(t)).unwrap().is_some())
            .collect();
        assert_eq!(
            online,
            [true, false, true],
            "the later look-alike stays offline"
        );
        assert_eq!(list(&conn).unwrap().len(), 3, "both are kept");
        // Once the first is revoked, the other takes the skeleton at the next opening.
        revoke(&conn, "\u{C5}sa").unwrap();
        refresh_skeletons(&mut conn).unwrap();
        assert!(by_token(&conn, &of_secret(&tokens[1])).unwrap().is_some());
        drop(conn);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
