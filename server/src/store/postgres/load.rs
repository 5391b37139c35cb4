//! Reading tables back from Postgres: the same rows the SQLite backend reads, each table's
//! five queries sent at once (tokio-postgres pipelines them on the connection).

use parlor_shared::fair::Hash32;
use tokio_postgres::{Client, Row};

use crate::store::records::{
    ActionRow, CLOSED, ChatRow, MatchRow, ResultRow, SeatRow, TableLog, TableRow, occupant_from,
};
use crate::store::{StoreError, secret};

/// Which actions to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every match's (replays).
    All,
    /// The last match's only (enough to rebuild the table).
    LastMatch,
}

/// The ids of every table not closed for good, oldest first.
pub async fn open_table_ids(client: &Client) -> Result<Vec<String>, StoreError> {
    let rows = client
        .query(
            "SELECT id FROM tables WHERE status <> $1 ORDER BY created, id",
            &[&CLOSED],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|row| row.try_get(0))
        .collect::<Result<_, _>>()?)
}

/// A value the database holds that Parlor cannot read back.
fn bad(table: &str, what: String) -> StoreError {
    StoreError::Failing(format!("table {table}: {what}"))
}

/// Everything stored about table `id` (the actions of `scope`), or `None` when there is no
/// such table.
pub async fn table_log(
    client: &Client,
    id: &str,
    scope: Scope,
) -> Result<Option<TableLog>, StoreError> {
    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 1] = [&id];
    let (table, matches, seats, chat) = futures_util::try_join!(
        client.query_opt(
            "SELECT id, variant, options, table_options, seed, created, status, host, host_key
             FROM tables WHERE id = $1",
            &params,
        ),
        client.query(
            "SELECT match_no, seed, seq, secret FROM matches WHERE table_id = $1
             ORDER BY match_no",
            &params,
        ),
        client.query(
            "SELECT seat, occupant, name, token, strategy, bot_playing, account
             FROM seats WHERE table_id = $1 ORDER BY seat",
            &params,
        ),
        client.query(
            "SELECT n, seat, name, text, at FROM chat WHERE table_id = $1 ORDER BY n",
            &params,
        ),
    )?;
    let Some(table) = table else { return Ok(None) };
    let table = TableRow {
        id: table.try_get(0)?,
        variant: table.try_get(1)?,
        options: table.try_get(2)?,
        table_options: table.try_get(3)?,
        seed: table.try_get::<_, Option<i64>>(4)?.map(|s| s as u64),
        created: table.try_get(5)?,
        status: table.try_get(6)?,
        host: table.try_get::<_, Option<i16>>(7)?.map(|h| h as u8),
        host_key: table.try_get(8)?,
    };
    let matches = matches
        .iter()
        .map(|row| match_row(id, row))
        .collect::<Result<Vec<_>, _>>()?;
    let seats = seats
        .iter()
        .map(|row| seat_row(id, row))
        .collect::<Result<Vec<_>, _>>()?;
    let from_match = match scope {
        Scope::All => 0,
        Scope::LastMatch => matches.last().map_or(0, |m| i64::from(m.match_no)),
    };
    let actions = client
        .query(
            "SELECT match_no, idx, seat, action, seq FROM actions
             WHERE table_id = $1 AND match_no >= $2 ORDER BY match_no, idx",
            &[&id, &from_match],
        )
        .await?
        .iter()
        .map(|row| {
            Ok(ActionRow {
                match_no: row.try_get::<_, i64>(0)? as u32,
                idx: row.try_get::<_, i64>(1)? as u32,
                seat: row.try_get::<_, i16>(2)? as u8,
                action: row.try_get(3)?,
                seq: row.try_get::<_, i64>(4)? as u64,
            })
        })
        .collect::<Result<_, tokio_postgres::Error>>()?;
    let chat = chat
        .iter()
        .map(|row| {
            Ok(ChatRow {
                n: row.try_get::<_, i64>(0)? as u64,
                seat: row.try_get::<_, Option<i16>>(1)?.map(|s| s as u8),
                name: row.try_get(2)?,
                text: row.try_get(3)?,
                at: row.try_get(4)?,
            })
        })
        .collect::<Result<_, tokio_postgres::Error>>()?;
    Ok(Some(TableLog {
        table,
        matches,
        seats,
        actions,
        chat,
    }))
}

fn match_row(table: &str, row: &Row) -> Result<MatchRow, StoreError> {
    let secret = row
        .try_get::<_, Option<String>>(3)?
        .map(|hex| {
            Hash32::from_hex(&hex).map_err(|err| bad(table, format!("a match secret: {err}")))
        })
        .transpose()?;
    Ok(MatchRow {
        match_no: row.try_get::<_, i64>(0)? as u32,
        seed: row.try_get::<_, i64>(1)? as u64,
        seq: row.try_get::<_, i64>(2)? as u64,
        secret,
    })
}

fn seat_row(table: &str, row: &Row) -> Result<SeatRow, StoreError> {
    let occupant: String = row.try_get(1)?;
    let occupant = occupant_from(&occupant)
        .ok_or_else(|| bad(table, format!("unknown occupant `{occupant}`")))?;
    Ok(SeatRow {
        seat: row.try_get::<_, i16>(0)? as u8,
        occupant,
        name: row.try_get(2)?,
        // Only digests are ever written here; a clear token is hashed all the same.
        token: row.try_get::<_, Option<String>>(3)?.map(secret::as_kept),
        strategy: row.try_get(4)?,
        bot_playing: row.try_get(5)?,
        account: row.try_get(6)?,
    })
}

/// The match results stored after the one numbered `after`, in order, with their numbers.
pub async fn results(client: &Client, after: i64) -> Result<Vec<(i64, ResultRow)>, StoreError> {
    let rows = client
        .query(
            "SELECT n, table_id, match_no, variant, at, places, listed FROM results
             WHERE n > $1 ORDER BY n",
            &[&after],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|row| {
            Ok((
                row.try_get(0)?,
                ResultRow {
                    table: row.try_get(1)?,
                    match_no: row.try_get::<_, i64>(2)? as u32,
                    variant: row.try_get(3)?,
                    at: row.try_get(4)?,
                    places: row.try_get(5)?,
                    listed: row.try_get(6)?,
                },
            ))
        })
        .collect::<Result<_, tokio_postgres::Error>>()?)
}
