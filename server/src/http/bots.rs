//! Registered bots over HTTP: `GET /api/bots?variant=...` lists the online ones (anyone may
//! read it: the web client's seat menu does), and the admin API registers, lists and revokes
//! accounts (`POST /api/admin/bots`, `GET /api/admin/bots`, `DELETE /api/admin/bots/{name}`,
//! with the admin key).
//!
//! In a cluster, the listing and the admin list's `online` cover every node, and a bot
//! revoked through one node goes offline on the node it is online on.
//!
//! A new bot's token is in the answer to its registration and nowhere else: the store keeps
//! only its SHA-256 hash.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use parlor_shared::Variant;
use parlor_shared::protocol::{OnlineBot, codes};
use serde::{Deserialize, Serialize};

use super::admin::authorize;
use super::{AppError, AppState, json_error};
use crate::ratings::Entrant;
use crate::skeleton::skeleton;
use crate::store::accounts::{self, NameError, NameTaken};
use crate::store::{BotAccount, SharedStore, StoreError};

/// The query of `GET /api/bots`.
#[derive(Debug, Deserialize)]
pub(super) struct BotsQuery {
    /// Only bots that play this variant.
    variant: Option<String>,
    /// This node's bots only, without ratings (`?local=1`): how the nodes of a cluster ask
    /// each other.
    local: Option<u8>,
}

/// `GET /api/bots`: the online registered bots, by name; in a cluster, those of every node
/// (a bot online on two nodes is listed once, as this node or the first other node has it).
pub(super) async fn online(
    State(state): State<AppState>,
    Query(query): Query<BotsQuery>,
) -> Result<Json<Vec<OnlineBot>>, AppError> {
    let variant = match query.variant.as_deref() {
        None | Some("") => None,
        Some(name) => Some(name.parse::<Variant>()?),
    };
    let mut bots = state.lobby.bots().list(variant);
    if query.local.is_some() {
        return Ok(Json(bots));
    }
    if let Some(cluster) = &state.cluster {
        bots.extend(
            cluster
                .bots_elsewhere(variant)
                .await
                .into_iter()
                .map(|b| b.bot),
        );
        bots = merge(bots);
    }
    // With a variant, each bot's rating there (the mean; the leaderboard has its interval).
    if let Some(variant) = variant {
        super::leaderboard::catch_up(&state).await;
        let variant = variant.to_string();
        state.lobby.ratings().read(|board| {
            for bot in &mut bots {
                bot.rating = board
                    .entry(&variant, &Entrant::bot(&bot.name))
                    .map(|entry| entry.rating);
            }
        });
    }
    Ok(Json(bots))
}

/// The bots by name, each name once, by skeleton (the first listing kept).
fn merge(bots: Vec<OnlineBot>) -> Vec<OnlineBot> {
    let mut seen = std::collections::HashSet::new();
    let mut merged: Vec<OnlineBot> = bots
        .into_iter()
        .filter(|b| seen.insert(skeleton(&b.name)))
        .collect();
    merged.sort_by_key(|b| b.name.to_lowercase());
    merged
}

/// The body of `POST /api/admin/bots`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegisterBot {
    /// The bot's name: 1 to 32 letters, digits, `-`, `_` or spaces.
    pub name: String,
    /// Who runs it.
    pub owner: String,
}

/// The answer to a registration: the only place the token ever appears.
#[derive(Debug, Serialize, Deserialize)]
pub struct RegisteredBot {
    /// The account.
    #[serde(flatten)]
    pub account: BotAccount,
    /// The bot token, shown this once.
    pub token: String,
}

/// An account as the admin list shows it.
#[derive(Debug, Serialize, Deserialize)]
pub struct AdminBot {
    /// The account.
    #[serde(flatten)]
    pub account: BotAccount,
    /// True while it is announced `available`.
    pub online: bool,
}

/// `POST /api/admin/bots`: registers a bot and shows its token once.
pub(super) async fn register(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if let Err(answer) = authorize(&state, &headers) {
        return *answer;
    }
    let store = match store(&state) {
        Ok(store) => store,
        Err(answer) => return *answer,
    };
    let request: RegisterBot = match serde_json::from_slice(&body) {
        Ok(request) => request,
        Err(err) => {
            return AppError::BadRequest(format!(
                "the body is {{\"name\": ..., \"owner\": ...}}: {err}"
            ))
            .into_response();
        }
    };
    let (bot, token) = match accounts::prepare(&request.name, &request.owner) {
        Ok(prepared) => prepared,
        Err(err) => return name_error(&err),
    };
    let name = bot.name.clone();
    match store.add_bot(bot).await {
        Ok(true) => {}
        Ok(false) => {
            let taken = match store.bot_accounts().await {
                Ok(accounts) => NameTaken::among(&accounts, &name),
                Err(err) => return store_error(&err),
            };
            return json_error(
                StatusCode::CONFLICT,
                codes::BOT_NAME_TAKEN,
                taken.to_string(),
            );
        }
        Err(err) => return store_error(&err),
    }
    let account = match find(&store, &name).await {
        Ok(Some(account)) => account,
        Ok(None) => return store_error(&StoreError::Closed),
        Err(err) => return store_error(&err),
    };
    tracing::info!(bot = %account.name, owner = %account.owner, "bot registered");
    (StatusCode::CREATED, Json(RegisteredBot { account, token })).into_response()
}

/// `GET /api/admin/bots`: every account, revoked ones included.
pub(super) async fn list(State(state): State<AppState>, headers: HeaderMap) -> Response {
    if let Err(answer) = authorize(&state, &headers) {
        return *answer;
    }
    let store = match store(&state) {
        Ok(store) => store,
        Err(answer) => return *answer,
    };
    let mut online = state.lobby.bots().list(None);
    if let Some(cluster) = &state.cluster {
        online.extend(
            cluster
                .bots_elsewhere(None)
                .await
                .into_iter()
                .map(|b| b.bot),
        );
    }
    match store.bot_accounts().await {
        Ok(accounts) => {
            let bots: Vec<AdminBot> = accounts
                .into_iter()
                .map(|account| AdminBot {
                    // The online bot carries its account's name as registered.
                    online: online.iter().any(|b| b.name == account.name),
                    account,
                })
                .collect();
            Json(serde_json::json!({ "bots": bots })).into_response()
        }
        Err(err) => store_error(&err),
    }
}

/// `DELETE /api/admin/bots/{name}`: revokes the account; an online bot is disconnected.
pub(super) async fn revoke(
    State(state): State<AppState>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response {
    if let Err(answer) = authorize(&state, &headers) {
        return *answer;
    }
    let store = match store(&state) {
        Ok(store) => store,
        Err(answer) => return *answer,
    };
    match store.revoke_bot(&name).await {
        Ok(Some(account)) => {
            // Only when it is this account that is online, not one whose name looks the same.
            if state
                .lobby
                .bots()
                .list(None)
                .iter()
                .any(|b| b.name == account.name)
            {
                state.lobby.bots().revoke(&account.name);
            }
            if let Some(cluster) = &state.cluster {
                cluster.revoke_elsewhere(&account.name).await;
            }
            tracing::info!(bot = %account.name, "bot revoked");
            Json(account).into_response()
        }
        Ok(None) => json_error(
            StatusCode::NOT_FOUND,
            codes::NO_SUCH_BOT,
            format!("no bot named `{name}` is registered"),
        ),
        Err(err) => store_error(&err),
    }
}

/// The account named exactly `name`, read back.
async fn find(store: &SharedStore, name: &str) -> Result<Option<BotAccount>, StoreError> {
    let accounts = store.bot_accounts().await?;
    Ok(accounts.into_iter().find(|a| a.name == name))
}

/// The server's store, or the answer that there is none.
fn store(state: &AppState) -> Result<SharedStore, Box<Response>> {
    state.lobby.store().cloned().ok_or_else(|| {
        Box::new(json_error(
            StatusCode::SERVICE_UNAVAILABLE,
            codes::NO_STORE,
            "bot accounts need the server's database, and this server runs with --no-store".into(),
        ))
    })
}

/// A refused name or owner.
fn name_error(err: &NameError) -> Response {
    let code = match err {
        NameError::BadOwner => codes::BAD_REQUEST,
        NameError::BadName | NameError::Builtin(_) => codes::BAD_BOT_NAME,
    };
    json_error(StatusCode::BAD_REQUEST, code, err.to_string())
}

/// The store failed: logged, and a plain 503 for the client.
fn store_error(err: &StoreError) -> Response {
    tracing::error!(%err, "bot accounts: the database failed");
    json_error(
        StatusCode::SERVICE_UNAVAILABLE,
        codes::NO_STORE,
        "the server's database could not be reached: try again later".into(),
    )
}
