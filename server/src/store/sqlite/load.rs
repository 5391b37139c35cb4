//! Reading tables back from the database.
//!
//! It only reads; writes go through the writer thread.

use parlor_shared::fair::Hash32;
use rusqlite::{Connection, OptionalExtension, params};

use crate::store::records::{
    ActionRow, CLOSED, ChatRow, MatchRow, ResultRow, SeatRow, TableLog, TableRow, occupant_from,
};
use crate::store::{StoreError, secret};

/// The ids of every table not closed for good, oldest first.
pub fn open_table_ids(conn: &Connection) -> Result<Vec<String>, StoreError> {
    let mut stmt = conn.prepare("SELECT id FROM tables WHERE status <> ?1 ORDER BY created, id")?;
    let ids = stmt
        .query_map([CLOSED], |row| row.get(0))?
        .collect::<Result<Vec<String>, _>>()?;
    Ok(ids)
}

/// Which actions to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every match's (replays).
    All,
    /// The last match's only (enough to rebuild the table).
    LastMatch,
}

/// Everything stored about table `id` (the actions of `scope`), or `None` when there is no
/// such table.
pub fn table_log(
    conn: &Connection,
    id: &str,
    scope: Scope,
) -> Result<Option<TableLog>, StoreError> {
    let table = conn
        .prepare_cached(
            "SELECT id, variant, options, table_options, seed, created, status, host, host_key
             FROM tables WHERE id = ?1",
        )?
        .query_row([id], |row| {
            Ok(TableRow {
                id: row.get(0)?,
                variant: row.get(1)?,
                options: row.get(2)?,
                table_options: row.get(3)?,
                seed: row.get::<_, Option<i64>>(4)?.map(|s| s as u64),
                created: row.get(5)?,
                status: row.get(6)?,
                host: row.get(7)?,
                host_key: row.get(8)?,
            })
        })
        .optional()?;
    let Some(table) = table else { return Ok(None) };
    let matches = conn
        .prepare_cached(
            "SELECT match_no, seed, seq, secret FROM matches WHERE table_id = ?1
             ORDER BY match_no",
        )?
        .query_map([id], |row| {
            let secret = row
                .get::<_, Option<String>>(3)?
                .map(|hex| {
                    Hash32::from_hex(&hex).map_err(|err| {
                        rusqlite::Error::FromSqlConversionFailure(
                            3,
                            rusqlite::types::Type::Text,
                            Box::new(err),
                        )
                    })
                })
                .transpose()?;
            Ok(MatchRow {
                match_no: row.get(0)?,
                seed: row.get::<_, i64>(1)? as u64,
                seq: row.get::<_, i64>(2)? as u64,
                secret,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let seats = conn
        .prepare_cached(
            "SELECT seat, occupant, name, token, strategy, bot_playing, account
             FROM seats WHERE table_id = ?1 ORDER BY seat",
        )?
        .query_map([id], |row| {
            let occupant: String = row.get(1)?;
            let occupant = occupant_from(&occupant).ok_or_else(|| {
                rusqlite::Error::FromSqlConversionFailure(
                    1,
                    rusqlite::types::Type::Text,
                    format!("unknown occupant `{occupant}`").into(),
                )
            })?;
            Ok(SeatRow {
                seat: row.get(0)?,
                occupant,
                name: row.get(2)?,
                // A clear token from an older version's file is only ever held as its digest.
                token: row.get::<_, Option<String>>(3)?.map(secret::as_kept),
                strategy: row.get(4)?,
                bot_playing: row.get(5)?,
                account: row.get(6)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let from_match = match scope {
        Scope::All => 0,
        Scope::LastMatch => matches.last().map_or(0, |m| m.match_no),
    };
    let actions = conn
        .prepare_cached(
            "SELECT match_no, idx, seat, action, seq FROM actions
             WHERE table_no = (SELECT no FROM table_numbers WHERE id = ?1) AND match_no >= ?2
             ORDER BY match_no, idx",
        )?
        .query_map(params![id, from_match], action_row)?
        .collect::<Result<Vec<_>, _>>()?;
    let chat = conn
        .prepare_cached("SELECT n, seat, name, text, at FROM chat WHERE table_id = ?1 ORDER BY n")?
        .query_map([id], |row| {
            Ok(ChatRow {
                n: row.get::<_, i64>(0)? as u64,
                seat: row.get(1)?,
                name: row.get(2)?,
                text: row.get(3)?,
                at: row.get(4)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(TableLog {
        table,
        matches,
        seats,
        actions,
        chat,
    }))
}

/// One action read from `SELECT match_no, idx, seat, action, seq`.
fn action_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<ActionRow> {
    Ok(ActionRow {
        match_no: row.get(0)?,
        idx: row.get(1)?,
        seat: row.get(2)?,
        action: row.get(3)?,
        seq: row.get::<_, i64>(4)? as u64,
    })
}

/// The match results stored after the one numbered `after`, in the order stored, with their
/// numbers.
pub fn results(conn: &Connection, after: i64) -> Result<Vec<(i64, ResultRow)>, StoreError> {
    let rows = conn
        .prepare_cached(
            "SELECT n, table_id, match_no, variant, at, places, listed FROM results
             WHERE n > ?1 ORDER BY n",
        )?
        .query_map([after], |row| {
            Ok((
                row.get(0)?,
                ResultRow {
                    table: row.get(1)?,
                    match_no: row.get(2)?,
                    variant: row.get(3)?,
                    at: row.get(4)?,
                    places: row.get(5)?,
                    listed: row.get(6)?,
                },
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}
