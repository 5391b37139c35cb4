//! HTTP errors: each becomes a JSON `{"code","message"}` response. Internals never reach a
//! client.
//!
//! It owns the HTTP error codes and statuses; table refusals are `table::TableError` and go
//! over the WebSocket, not here.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use parlor_shared::protocol::{HttpError, codes};
use parlor_shared::rules::OptionsError;
use thiserror::Error;

use crate::lobby::LobbyError;

/// Why an HTTP request was refused.
#[derive(Debug, Error)]
pub enum AppError {
    /// The body could not be read as the endpoint's request.
    #[error("{0}")]
    BadRequest(String),
    /// No variant has the name asked for.
    #[error("{0}")]
    UnknownVariant(String),
    /// Options the variant does not take, or out of range.
    #[error("{0}")]
    BadOptions(String),
    /// Table options out of range.
    #[error("{0}")]
    BadTableOptions(String),
    /// A practice table's PBN board that cannot set up the table.
    #[error("{0}")]
    BadPbn(String),
    /// No table has that id.
    #[error("there is no table `{0}`")]
    NoSuchTable(String),
    /// No such page or file.
    #[error("there is nothing at {0}")]
    NotFound(String),
    /// The server is at its table limit.
    #[error("the server already has {0} tables: try again later")]
    TooManyTables(usize),
    /// The store cannot write now, so nothing new can be kept.
    #[error("the server cannot save right now ({0}): try again in a moment")]
    StorageUnavailable(String),
    /// One address asked for too much (tables too fast, too many open tables).
    #[error("{message}")]
    TooManyRequests {
        /// What was refused and why, for people.
        message: String,
        /// Seconds before trying again is worth it.
        retry_after_secs: u64,
    },
    /// One address holds as many connections as it may.
    #[error("this address already has {0} connections open: close some and try again")]
    TooManyConnections(usize),
}

impl AppError {
    /// The stable code and HTTP status of this error.
    #[must_use]
    pub fn code_and_status(&self) -> (&'static str, StatusCode) {
        match self {
            AppError::BadRequest(_) => (codes::BAD_REQUEST, StatusCode::BAD_REQUEST),
            AppError::UnknownVariant(_) => (codes::UNKNOWN_VARIANT, StatusCode::BAD_REQUEST),
            AppError::BadOptions(_) => (codes::BAD_OPTIONS, StatusCode::BAD_REQUEST),
            AppError::BadTableOptions(_) => (codes::BAD_TABLE_OPTIONS, StatusCode::BAD_REQUEST),
            AppError::BadPbn(_) => (codes::BAD_PBN, StatusCode::BAD_REQUEST),
            AppError::NoSuchTable(_) => (codes::NO_SUCH_TABLE, StatusCode::NOT_FOUND),
            AppError::NotFound(_) => (codes::NOT_FOUND, StatusCode::NOT_FOUND),
            AppError::TooManyTables(_) => (codes::TOO_MANY_TABLES, StatusCode::SERVICE_UNAVAILABLE),
            AppError::StorageUnavailable(_) => {
                (codes::STORAGE_UNAVAILABLE, StatusCode::SERVICE_UNAVAILABLE)
            }
            AppError::TooManyRequests { .. } => {
                (codes::TOO_MANY_REQUESTS, StatusCode::TOO_MANY_REQUESTS)
            }
            AppError::TooManyConnections(_) => {
                (codes::TOO_MANY_CONNECTIONS, StatusCode::TOO_MANY_REQUESTS)
            }
        }
    }
}

impl From<OptionsError> for AppError {
    fn from(err: OptionsError) -> Self {
        match err {
            OptionsError::UnknownVariant(_) => AppError::UnknownVariant(err.to_string()),
            _ => AppError::BadOptions(err.to_string()),
        }
    }
}

impl From<LobbyError> for AppError {
    fn from(err: LobbyError) -> Self {
        match err {
            LobbyError::TooManyTables(limit) => AppError::TooManyTables(limit),
            LobbyError::BadTableOptions(why) => AppError::BadTableOptions(why),
            LobbyError::BadOptions(err) => err.into(),
            LobbyError::BadPbn(err) => AppError::BadPbn(err.to_string()),
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let (code, status) = self.code_and_status();
        let retry_after = match &self {
            AppError::TooManyRequests {
                retry_after_secs, ..
            } => Some(*retry_after_secs),
            _ => None,
        };
        let mut response = json_error(status, code, self.to_string());
        if let Some(secs) = retry_after {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(secs.max(1)),
            );
        }
        response
    }
}

/// Every HTTP error has the same body: `{"code": ..., "message": ...}`.
pub fn json_error(status: StatusCode, code: &str, message: String) -> Response {
    let body = HttpError {
        code: code.to_string(),
        message,
    };
    (status, Json(body)).into_response()
}
