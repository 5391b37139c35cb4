//! The `bot_accounts` rows in Postgres: register, list, revoke, and find an account by its
//! token's hash; and the skeleton of each name, kept up to date at every opening
//! ([`refresh_skeletons`]). Plain functions on a client: the server's writer runs them on its
//! connection, and `parlor bots --store postgres://...` on one of its own while servers run.

use tokio_postgres::{Client, GenericClient, Row};

use crate::store::accounts::{StoredName, skeletons, warn_clashes};
use crate::store::{BotAccount, NewBot, StoreError, now_millis};

/// Inserts a new account; `false` when the name is taken (an account's name has the same
/// skeleton, or the same letters in another case).
pub async fn insert(client: &Client, bot: &NewBot) -> Result<bool, StoreError> {
    let added = client
        .execute(
            "INSERT INTO bot_accounts (name, owner, token_hash, created, skeleton)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT DO NOTHING",
            &[
                &bot.name,
                &bot.owner,
                &bot.token_hash,
                &now_millis(),
                &bot.skeleton,
            ],
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

/// The account whose token hashes to `hash`, unless it was revoked or another account's
/// name looks the same and holds the skeleton (see [`refresh_skeletons`]).
pub async fn by_token(client: &Client, hash: &str) -> Result<Option<BotAccount>, StoreError> {
    let row = client
        .query_opt(
            "SELECT name, owner, created, revoked FROM bot_accounts
             WHERE token_hash = $1 AND revoked IS NULL AND skeleton IS NOT NULL",
            &[&hash],
        )
        .await?;
    Ok(row.as_ref().map(row_account).transpose()?)
}

/// Stores each account's skeleton: computed here, as SQL cannot, for the accounts from before
/// the column and after an upgrade whose Unicode data reads a name differently. Writes only
/// when one differs, under the migrations' lock and with the table locked against
/// registrations. Accounts from before whose names look the same both stay, one without its
/// skeleton, with a warning ([`skeletons`]).
pub async fn refresh_skeletons(client: &mut Client, lock: i64) -> Result<(), StoreError> {
    let stored = stored_names(&*client).await?;
    let (wanted, clashes) = skeletons(&stored);
    if stored.iter().zip(&wanted).all(|(s, w)| s.skeleton == *w) {
        warn_clashes(&clashes);
        return Ok(());
    }
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&lock])
        .await?;
    tx.batch_execute("LOCK TABLE bot_accounts IN SHARE ROW EXCLUSIVE MODE")
        .await?;
    let stored = stored_names(&tx).await?;
    let (wanted, clashes) = skeletons(&stored);
    tx.execute("UPDATE bot_accounts SET skeleton = NULL", &[])
        .await?;
    let update = tx
        .prepare("UPDATE bot_accounts SET skeleton = $2 WHERE name = $1")
        .await?;
    for (account, skeleton) in stored.iter().zip(&wanted) {
        if skeleton.is_some() {
            tx.execute(&update, &[&account.name, skeleton]).await?;
        }
    }
    tx.commit().await?;
    tracing::info!(
        accounts = stored.len(),
        "bot accounts' name skeletons updated"
    );
    warn_clashes(&clashes);
    Ok(())
}

/// Every account's name and stored skeleton.
async fn stored_names(client: &impl GenericClient) -> Result<Vec<StoredName>, StoreError> {
    let rows = client
        .query(
            "SELECT name, skeleton, created, revoked IS NOT NULL FROM bot_accounts",
            &[],
        )
        .await?;
    let names = rows
        .iter()
        .map(|row| {
            Ok(StoredName {
                name: row.try_get(0)?,
                skeleton: row.try_get(1)?,
                created: row.try_get(2)?,
                revoked: row.try_get(3)?,
            })
        })
        .collect::<Result<_, tokio_postgres::Error>>()?;
    Ok(names)
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
