//! The `bot_accounts` rows in Postgres: register, list, revoke, and find an account by its
//! token's hash. Plain functions on a client: the server's writer runs them on its
//! connection, and `parlor bots --store postgres://...` on one of its own while servers run.

use tokio_postgres::{Client, Row};

use crate::store::{BotAccount, NewBot, StoreError, now_millis};

/// Inserts a new account; `false` when the name is taken (compared without case).
pub async fn insert(client: &Client, bot: &NewBot) -> Result<bool, StoreError> {
    let added = client
        .execute(
            "INSERT INTO bot_accounts (name, owner, token_hash, created) VALUES ($1, $2, $3, $4)
             ON CONFLICT ((lower(name))) DO NOTHING",
            &[&bot.name, &bot.owner, &bot.token_hash, &now_millis()],
        )
        .await?;
    Ok(added == 1)
}

/// Every account, by name.
pub async fn list(client: &Client) -> Result<Vec<BotAccount>, StoreError> {
    let rows = client
        .query(
            "SELECT name, owner, created, revoked FROM bot_accounts ORDER BY lower(name)",
            &[],
        )
        .await?;
    Ok(rows.iter().map(row_account).collect::<Result<_, _>>()?)
}

/// Revokes the account named `name` (any case), keeping the first revocation's time.
pub async fn revoke(client: &Client, name: &str) -> Result<Option<BotAccount>, StoreError> {
    let row = client
        .query_opt(
            "UPDATE bot_accounts SET revoked = coalesce(revoked, $2) WHERE lower(name) = lower($1)
             RETURNING name, owner, created, revoked",
            &[&name, &now_millis()],
        )
        .await?;
    Ok(row.as_ref().map(row_account).transpose()?)
}

/// The account whose token hashes to `hash`, unless it was revoked.
pub async fn by_token(client: &Client, hash: &str) -> Result<Option<BotAccount>, StoreError> {
    let row = client
        .query_opt(
            "SELECT name, owner, created, revoked FROM bot_accounts
             WHERE token_hash = $1 AND revoked IS NULL",
            &[&hash],
        )
        .await?;
    Ok(row.as_ref().map(row_account).transpose()?)
}

/// One row as an account.
fn row_account(row: &Row) -> Result<BotAccount, tokio_postgres::Error> {
    Ok(BotAccount {
        name: row.try_get(0)?,
        owner: row.try_get(1)?,
        created: row.try_get(2)?,
        revoked: row.try_get(3)?,
    })
}
