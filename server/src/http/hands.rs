//! `GET /api/tables/{id}/hands` (the finished hands of a table),
//! `GET /api/tables/{id}/hands/{n}` (one finished hand, every card face up), and for Bridge
//! tables `GET /api/tables/{id}/hands/{n}/pbn` and `GET /api/tables/{id}/pbn` (one finished
//! board, or all of them, in Portable Bridge Notation).
//!
//! Both read the stored log, so they work for tables that have closed too. A hand that has
//! not been scored is refused with 409 `hand_not_finished`: its cards stay hidden.
//!
//! It only reads, through the store's trait; building the hands is `store::hands`' job.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
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
    /// PBN was asked of a table that does not play Bridge.
    #[error("table `{table}` plays {variant}: PBN is written for Bridge boards only")]
    NotBridge {
        /// The table.
        table: String,
        /// Its game.
        variant: String,
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
            ReplayError::NotBridge { .. } => ("not_bridge", StatusCode::NOT_FOUND),
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
    let hands = hands_of(&state, &id).await?;
    Ok(Json(finished_hand(hands, id, n)?))
}

/// `GET /api/tables/{id}/hands/{n}/pbn`: finished board `n` of a Bridge table as a PBN file.
pub async fn pbn(
    State(state): State<AppState>,
    Path((id, n)): Path<(String, String)>,
) -> Result<Response, ReplayError> {
    let hands = hands_of(&state, &id).await?;
    let hand = finished_hand(hands, id, n)?;
    let text = board_pbn(&hand)?;
    let name = format!("parlor-{}-board-{}.pbn", hand.table, hand.number);
    Ok(pbn_file(&name, format!("{PBN_HEADER}\n{text}")))
}

/// `GET /api/tables/{id}/pbn`: every finished board of a Bridge table in one PBN file.
pub async fn table_pbn(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ReplayError> {
    let hands = hands_of(&state, &id).await?;
    let mut text = format!("{PBN_HEADER}\n");
    if hands.finished.is_empty() {
        // A table that has not finished a board yet: only a Bridge table's file may be empty.
        if hands.variant != parlor_shared::Variant::Bridge {
            return Err(ReplayError::NotBridge {
                table: id,
                variant: hands.variant.to_string(),
            });
        }
    }
    for hand in &hands.finished {
        text.push_str(&board_pbn(hand)?);
        text.push('\n');
    }
    Ok(pbn_file(&format!("parlor-{id}.pbn"), text))
}

/// The first lines of a PBN file: the standard's version, and that it was exported.
const PBN_HEADER: &str = "% PBN 2.1\n% EXPORT";

/// Finished hand `n` of `hands`, or why there is none.
fn finished_hand(mut hands: TableHands, id: String, n: String) -> Result<HandReplay, ReplayError> {
    let finished = hands.finished.len();
    let number: Option<u32> = n.parse().ok();
    match number {
        Some(i) if (i as usize) < finished => Ok(hands.finished.swap_remove(i as usize)),
        Some(i) if i as usize == finished && hands.in_progress => Err(ReplayError::NotFinished(i)),
        _ => Err(ReplayError::NoSuchHand {
            table: id,
            n,
            finished,
        }),
    }
}

/// A Bridge board's PBN text, or `NotBridge`.
fn board_pbn(hand: &HandReplay) -> Result<String, ReplayError> {
    hand.to_pbn().ok_or_else(|| ReplayError::NotBridge {
        table: hand.table.clone(),
        variant: hand.variant.to_string(),
    })
}

/// A PBN file to download.
fn pbn_file(name: &str, text: String) -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        text,
    )
        .into_response()
}
