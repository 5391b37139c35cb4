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
    Ok(rows.iter().map(|row| row.get(0)).collect())
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
        id: table.get(0),
        variant: table.get(1),
        options: table.get(2),
        table_options: table.get(3),
        seed: table.get::<_, Option<i64>>(4).map(|s| s as u64),
        created: table.get(5),
        status: table.get(6),
        host: table.get::<_, Option<i16>>(7).map(|h| h as u8),
        host_key: table.get(8),
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
        .map(|row| ActionRow {
            match_no: row.get::<_, i64>(0) as u32,
            idx: row.get::<_, i64>(1) as u32,
            seat: row.get::<_, i16>(2) as u8,
            action: row.get(3),
            seq: row.get::<_, i64>(4) as u64,
        })
        .collect();
    let chat = chat
        .iter()
        .map(|row| ChatRow {
            n: row.get::<_, i64>(0) as u64,
            seat: row.get::<_, Option<i16>>(1).map(|s| s as u8),
            name: row.get(2),
            text: row.get(3),
            at: row.get(4),
        })
        .collect();
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
        .get::<_, Option<String>>(3)
        .map(|hex| {
            Hash32::from_hex(&hex).map_err(|err| bad(table, format!("a match secret: {err}")))
        })
        .transpose()?;
    Ok(MatchRow {
        match_no: row.get::<_, i64>(0) as u32,
        seed: row.get::<_, i64>(1) as u64,
        seq: row.get::<_, i64>(2) as u64,
        secret,
    })
}

fn seat_row(table: &str, row: &Row) -> Result<SeatRow, StoreError> {
    let occupant: String = row.get(1);
    let occupant = occupant_from(&occupant)
        .ok_or_else(|| bad(table, format!("unknown occupant `{occupant}`")))?;
    Ok(SeatRow {
        seat: row.get::<_, i16>(0) as u8,
        occupant,
        name: row.get(2),
        // Only digests are ever written here; a clear token is hashed all the same.
        token: row.get::<_, Option<String>>(3).map(|kept| {
            if secret::is_digest(&kept) {
                kept
            } else {
                secret::digest(&kept)
            }
        }),
        strategy: row.get(4),
        bot_playing: row.get(5),
        account: row.get(6),
    })
}

/// Every match result, in the order stored.
pub async fn results(client: &Client) -> Result<Vec<ResultRow>, StoreError> {
    let rows = client
        .query(
            "SELECT table_id, match_no, variant, at, places FROM results ORDER BY n",
            &[],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|row| ResultRow {
            table: row.get(0),
            match_no: row.get::<_, i64>(1) as u32,
            variant: row.get(2),
            at: row.get(3),
            places: row.get(4),
        })
        .collect())
}
