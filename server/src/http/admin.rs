//! The admin API, on when the server has an admin key (`--admin-key`, `PARLOR_ADMIN_KEY` or
//! `admin_key` in the config file): `GET /api/admin/tables` lists every table with its
//! players and the WebSocket sessions at it, with their ages, and the sessions at no table.
//! Requests carry `Authorization: Bearer KEY`.
//!
//! Without a key every admin path answers 404; a wrong key 401. The key is compared in
//! constant time and never logged (the request log has no headers; its `Debug` is redacted).
//! It reads the lobby and the session list; it changes nothing.

use std::fmt;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use parlor_shared::protocol::{Occupant, TableInfo};
use serde::{Deserialize, Serialize};

use super::{AppError, AppState};

/// The admin key: a secret that never shows in `Debug` output.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct AdminKey(pub String);

impl fmt::Debug for AdminKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AdminKey(<redacted>)")
    }
}

/// A table as the admin sees it.
#[derive(Debug, Serialize, Deserialize)]
pub struct AdminTable {
    /// The table, as the lobby lists it (seats, names, who is connected).
    pub table: TableInfo,
    /// The players' names by seat (`null`: empty; bots have their strategy's name).
    pub players: Vec<Option<String>>,
    /// The WebSocket sessions at the table, oldest first.
    pub sessions: Vec<AdminSession>,
}

/// One WebSocket session.
#[derive(Debug, Serialize, Deserialize)]
pub struct AdminSession {
    /// The connection's id.
    pub conn: u64,
    /// Seconds since it opened.
    pub age_secs: f64,
}

/// Everything the admin list shows.
#[derive(Debug, Serialize, Deserialize)]
pub struct AdminTables {
    /// Every open table.
    pub tables: Vec<AdminTable>,
    /// Sessions at no table (in the lobby, or connecting).
    pub idle_sessions: Vec<AdminSession>,
}

/// Checks the bearer key; `Err` is the answer to give.
fn authorize(state: &AppState, headers: &HeaderMap) -> Result<(), Box<Response>> {
    let Some(AdminKey(key)) = &state.config.admin_key else {
        return Err(Box::new(
            AppError::NotFound("/api/admin".into()).into_response(),
        ));
    };
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    if constant_time_eq(given.as_bytes(), key.as_bytes()) {
        Ok(())
    } else {
        Err(Box::new(super::json_error(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "this needs the admin key: Authorization: Bearer KEY".into(),
        )))
    }
}

/// Compares without stopping at the first difference.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    let mut diff = u8::from(a.len() != b.len());
    for (i, &x) in a.iter().enumerate() {
        diff |= x ^ b.get(i % b.len().max(1)).copied().unwrap_or(0);
    }
    diff == 0
}

/// `GET /api/admin/tables`.
pub async fn tables(State(state): State<AppState>, headers: HeaderMap) -> Response {
    if let Err(answer) = authorize(&state, &headers) {
        return *answer;
    }
    let sessions = state.sessions.list();
    let session = |s: &crate::ws::Session| AdminSession {
        conn: s.conn,
        age_secs: s.age.as_secs_f64(),
    };
    let tables = state
        .lobby
        .list()
        .into_iter()
        .map(|table| AdminTable {
            players: table
                .seats
                .iter()
                .map(|seat| match seat.occupant {
                    Occupant::Empty => None,
                    Occupant::Bot => seat.name.clone().or_else(|| seat.strategy.clone()),
                    _ => seat.name.clone(),
                })
                .collect(),
            sessions: sessions
                .iter()
                .filter(|s| s.table.as_deref() == Some(table.id.as_str()))
                .map(session)
                .collect(),
            table,
        })
        .collect();
    let idle_sessions = sessions
        .iter()
        .filter(|s| s.table.is_none())
        .map(session)
        .collect();
    Json(AdminTables {
        tables,
        idle_sessions,
    })
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_compare_equal_only_when_equal() {
        assert!(constant_time_eq(b"secret", b"secret"));
        assert!(!constant_time_eq(b"secret", b"secreT"));
        assert!(!constant_time_eq(b"secre", b"secret"));
        assert!(!constant_time_eq(b"", b"secret"));
        assert!(!constant_time_eq(b"secretsecret", b"secret"));
    }

    #[test]
    fn the_key_does_not_show_in_debug_output() {
        let key = AdminKey("hunter2".into());
        assert!(!format!("{key:?}").contains("hunter2"));
    }
}
