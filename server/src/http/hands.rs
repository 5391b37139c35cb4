//! `GET /api/tables/{id}/hands` (the finished hands of a table) and
//! `GET /api/tables/{id}/hands/{n}` (one finished hand, every card face up).
//!
//! Both read the stored log, so they work for tables that have closed too. A hand that has
//! not been scored is refused with 409 `hand_not_finished`: its cards stay hidden.
//!
//! It only reads, through the store's trait; building the hands is `store::hands`' job.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use parlor_shared::protocol::codes;

use super::AppState;
use crate::store::hands::{HandReplay, HandSummary, TableHands, table_hands};

/// Why a replay request was refused.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// No table has that id (in the store).
    #[error("there is no table `{0}`")]
    NoSuchTable(String),
    /// The hand is being played: its cards are still hidden.
    #[error("hand {0} is not over yet: replays show finished hands only")]
    NotFinished(u32),
    /// No hand has that number yet.
    #[error("table `{table}` has no hand {n}: it has {finished} finished hands (numbered from 0)")]
    NoSuchHand {
        /// The table.
        table: String,
        /// The number asked for.
        n: String,
        /// Hands finished there.
        finished: usize,
    },
    /// The server keeps no log.
    #[error("this server keeps no game history (it was started with --no-store)")]
    NoStorage,
    /// The stored log could not be read or replayed.
    #[error("the table's history cannot be read")]
    Unreadable,
}

impl ReplayError {
    /// The stable code and HTTP status.
    #[must_use]
    pub fn code_and_status(&self) -> (&'static str, StatusCode) {
        match self {
            ReplayError::NoSuchTable(_) => (codes::NO_SUCH_TABLE, StatusCode::NOT_FOUND),
            ReplayError::NotFinished(_) => ("hand_not_finished", StatusCode::CONFLICT),
            ReplayError::NoSuchHand { .. } => ("no_such_hand", StatusCode::NOT_FOUND),
            ReplayError::NoStorage => ("no_storage", StatusCode::NOT_FOUND),
            ReplayError::Unreadable => ("history_unreadable", StatusCode::INTERNAL_SERVER_ERROR),
        }
    }
}

impl IntoResponse for ReplayError {
    fn into_response(self) -> Response {
        let (code, status) = self.code_and_status();
        super::json_error(status, code, self.to_string())
    }
}

/// Reads and replays a table's whole log.
async fn hands_of(state: &AppState, id: &str) -> Result<TableHands, ReplayError> {
    let store = state.lobby.store().ok_or(ReplayError::NoStorage)?;
    let log = store.table_log(id).await.map_err(|err| {
        tracing::error!(table = %crate::store::log_tag(id), %err, "could not read a table's history");
        ReplayError::Unreadable
    })?;
    let log = log.ok_or_else(|| ReplayError::NoSuchTable(id.to_string()))?;
    table_hands(&log).map_err(|err| {
        tracing::error!(table = %crate::store::log_tag(id), %err, "a table's history does not replay");
        ReplayError::Unreadable
    })
}

/// `GET /api/tables/{id}/hands`: every finished hand of the table, oldest first.
pub async fn list(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Vec<HandSummary>>, ReplayError> {
    let hands = hands_of(&state, &id).await?;
    Ok(Json(
        hands.finished.iter().map(HandReplay::summary).collect(),
    ))
}

/// `GET /api/tables/{id}/hands/{n}`: finished hand `n` (from 0, over every match of the
/// table) with every card face up.
pub async fn get(
    State(state): State<AppState>,
    Path((id, n)): Path<(String, String)>,
) -> Result<Json<HandReplay>, ReplayError> {
    let mut hands = hands_of(&state, &id).await?;
    let finished = hands.finished.len();
    let number: Option<u32> = n.parse().ok();
    match number {
        Some(i) if (i as usize) < finished => Ok(Json(hands.finished.swap_remove(i as usize))),
        Some(i) if i as usize == finished && hands.in_progress => Err(ReplayError::NotFinished(i)),
        _ => Err(ReplayError::NoSuchHand {
            table: id,
            n,
            finished,
        }),
    }
}
