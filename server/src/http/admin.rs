//! The admin API, on only when the server has an admin key: list every table with its players
//! and sessions, close a table, kick a seat (docs/DEPLOY.md, "The admin API"). Without a key
//! every admin path answers 404, a wrong key 401; the key is compared in constant time and
//! never logged. In a cluster a close or kick at another node's table is passed on to its owner
//! (`?local=1`) and the table list gathers every live node's (one that does not answer within a
//! second is left out, and `nodes` says so), so the API works through any node.
//! It reads the lobby and the session list; changes go to the table itself ([`AdminCommand`]
//! in its mailbox), which decides what its players are told.

use std::collections::HashSet;
use std::fmt;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{OriginalUri, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use parlor_shared::Seat;
use parlor_shared::protocol::{Occupant, TableInfo, codes};
use serde::{Deserialize, Serialize};

use super::lobby::Scope;
use super::{AppError, AppState};
use crate::cluster::admin::NodeAnswer;
use crate::table::{AdminCommand, TableError, TableHandle};

/// The longest close reason passed on to players, in characters.
pub const MAX_REASON_CHARS: usize = 200;

/// The body of `POST /api/admin/tables/{id}/close` (may be left out).
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct CloseRequest {
    /// Why, told to the players.
    #[serde(default)]
    pub reason: Option<String>,
}

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
    /// In a cluster, the node that owns the table (its sessions are that node's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    /// What the server's log lines call the table (they never print its id).
    #[serde(default)]
    pub log_tag: String,
}

/// One WebSocket session.
#[derive(Debug, Serialize, Deserialize)]
pub struct AdminSession {
    /// The connection's id.
    pub conn: u64,
    /// Seconds since it opened.
    pub age_secs: f64,
    /// In a cluster, the node the connection is on (connection ids are per node).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
}

/// Everything the admin list shows.
#[derive(Debug, Serialize, Deserialize)]
pub struct AdminTables {
    /// Every open table.
    pub tables: Vec<AdminTable>,
    /// Sessions at no table (in the lobby, or connecting).
    pub idle_sessions: Vec<AdminSession>,
    /// In a cluster (unless only this node's part was asked for with `?local=1`): the nodes
    /// whose tables and sessions are listed, and those left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<AdminNodes>,
}

/// Which nodes of a cluster an admin list covers.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct AdminNodes {
    /// The nodes whose part is in the list: the node asked first, then the others by id.
    pub answered: Vec<String>,
    /// Live nodes that did not answer within a second (or refused the key): their tables
    /// are missing from the list.
    pub missing: Vec<String>,
}

/// Checks the bearer key; `Err` is the answer to give.
pub(super) fn authorize(state: &AppState, headers: &HeaderMap) -> Result<(), Box<Response>> {
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
pub(super) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    let mut diff = u8::from(a.len() != b.len());
    for (i, &x) in a.iter().enumerate() {
        diff |= x ^ b.get(i % b.len().max(1)).copied().unwrap_or(0);
    }
    diff == 0
}

/// `GET /api/admin/tables`; in a cluster, every live node's tables (`?local=1`: this
/// node's only, as the nodes ask each other).
pub async fn tables(
    State(state): State<AppState>,
    Query(scope): Query<Scope>,
    headers: HeaderMap,
) -> Response {
    if let Err(answer) = authorize(&state, &headers) {
        return *answer;
    }
    let mut list = local_tables(&state);
    if let Some(cluster) = state.cluster.as_ref().filter(|_| scope.local.is_none()) {
        let authorization = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok());
        let mut nodes = AdminNodes {
            answered: vec![cluster.node().to_string()],
            missing: Vec::new(),
        };
        let answers = cluster
            .ask_others::<AdminTables>("/api/admin/tables", authorization)
            .await;
        for NodeAnswer { node, answer } in answers {
            match answer {
                Some(theirs) => {
                    merge(&mut list, theirs);
                    nodes.answered.push(node);
                }
                None => nodes.missing.push(node),
            }
        }
        list.nodes = Some(nodes);
    }
    Json(list).into_response()
}

/// This node's tables and sessions, each named with this node in a cluster.
fn local_tables(state: &AppState) -> AdminTables {
    let node = state.cluster.as_ref().map(|c| c.node().to_string());
    let sessions = state.sessions.list();
    let session = |s: &crate::ws::Session| AdminSession {
        conn: s.conn,
        age_secs: s.age.as_secs_f64(),
        node: node.clone(),
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
            node: node.clone(),
            log_tag: crate::store::log_tag(&table.id).to_string(),
            table,
        })
        .collect();
    let idle_sessions = sessions
        .iter()
        .filter(|s| s.table.is_none())
        .map(session)
        .collect();
    AdminTables {
        tables,
        idle_sessions,
        nodes: None,
    }
}

/// Adds another node's part to `list`. A table listed already (one moving between nodes
/// while they were asked) keeps its first entry, so no table shows twice.
fn merge(list: &mut AdminTables, theirs: AdminTables) {
    let known: HashSet<String> = list.tables.iter().map(|t| t.table.id.clone()).collect();
    list.tables.extend(
        theirs
            .tables
            .into_iter()
            .filter(|t| !known.contains(&t.table.id)),
    );
    list.idle_sessions.extend(theirs.idle_sessions);
}

/// `POST /api/admin/tables/{id}/close`: the table says goodbye to everyone, stops and leaves
/// the lobby; the answer comes once it has.
pub async fn close(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(scope): Query<Scope>,
    OriginalUri(uri): OriginalUri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if let Err(answer) = authorize(&state, &headers) {
        return *answer;
    }
    if let Some(answer) = by_owner(&state, &id, &scope, uri.path(), &headers, &body).await {
        return answer;
    }
    let request: CloseRequest = if body.iter().all(u8::is_ascii_whitespace) {
        CloseRequest::default()
    } else {
        match serde_json::from_slice(&body) {
            Ok(request) => request,
            Err(err) => return AppError::BadRequest(err.to_string()).into_response(),
        }
    };
    let reason = request.reason.as_deref().and_then(clean_reason);
    let table = match table(&state, &id) {
        Ok(table) => table,
        Err(answer) => return *answer,
    };
    if let Err(answer) = command(&table, AdminCommand::Close { reason }).await {
        return *answer;
    }
    table.closed().await;
    Json(serde_json::json!({ "table": id, "closed": true })).into_response()
}

/// `POST /api/admin/tables/{id}/seats/{seat}/kick`: empties the seat.
pub async fn kick(
    State(state): State<AppState>,
    Path((id, seat)): Path<(String, u8)>,
    Query(scope): Query<Scope>,
    OriginalUri(uri): OriginalUri,
    headers: HeaderMap,
) -> Response {
    if let Err(answer) = authorize(&state, &headers) {
        return *answer;
    }
    if let Some(answer) = by_owner(&state, &id, &scope, uri.path(), &headers, &[]).await {
        return answer;
    }
    let table = match table(&state, &id) {
        Ok(table) => table,
        Err(answer) => return *answer,
    };
    let seat = Seat(seat);
    if let Err(answer) = command(&table, AdminCommand::Kick { seat }).await {
        return *answer;
    }
    Json(serde_json::json!({ "table": id, "seat": seat, "kicked": true })).into_response()
}

/// In a cluster, the answer of the node owning table `id` when that is not this node (and
/// the request was not already passed on by another node); `None`: answer here.
async fn by_owner(
    state: &AppState,
    id: &str,
    scope: &Scope,
    path: &str,
    headers: &HeaderMap,
    body: &[u8],
) -> Option<Response> {
    if scope.local.is_some() || state.lobby.get(id).is_some() {
        return None;
    }
    let cluster = state.cluster.as_ref()?;
    let authorization = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let answer = cluster
        .forward_post(id, path, authorization, body.to_vec())
        .await?;
    let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::BAD_GATEWAY);
    Some(
        (
            status,
            [(header::CONTENT_TYPE, "application/json")],
            answer.body,
        )
            .into_response(),
    )
}

/// The open table `id`, or the 404 to answer.
fn table(state: &AppState, id: &str) -> Result<TableHandle, Box<Response>> {
    state
        .lobby
        .get(id)
        .ok_or_else(|| Box::new(AppError::NoSuchTable(id.to_string()).into_response()))
}

/// Has the table carry out `command`; `Err` is the answer to give when it refused.
async fn command(table: &TableHandle, command: AdminCommand) -> Result<(), Box<Response>> {
    table.admin(command).await.map_err(|err| {
        Box::new(match err {
            None => AppError::NoSuchTable(table.id.clone()).into_response(),
            Some(err) => refusal(&err),
        })
    })
}

/// A table's refusal as an HTTP answer.
fn refusal(err: &TableError) -> Response {
    let status = match err.code() {
        codes::NO_SUCH_SEAT => StatusCode::NOT_FOUND,
        codes::STORAGE_UNAVAILABLE => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::CONFLICT,
    };
    super::json_error(status, err.code(), err.to_string())
}

/// A reason as players will see it: no control characters, at most [`MAX_REASON_CHARS`].
fn clean_reason(reason: &str) -> Option<String> {
    let reason: String = reason
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_REASON_CHARS)
        .collect();
    let reason = reason.trim();
    (!reason.is_empty()).then(|| reason.to_string())
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
    fn reasons_are_cleaned_and_bounded() {
        assert_eq!(clean_reason("  maintenance\n "), Some("maintenance".into()));
        assert_eq!(clean_reason(" \t"), None);
        let long = "x".repeat(500);
        assert_eq!(
            clean_reason(&long).map(|r| r.chars().count()),
            Some(MAX_REASON_CHARS)
        );
    }

    /// An admin entry for table `id` on `node`, with one session.
    fn entry(id: &str, node: &str, conn: u64) -> AdminTable {
        AdminTable {
            table: TableInfo {
                id: id.to_string(),
                variant: parlor_shared::Variant::Hearts,
                options: parlor_shared::Options::default(),
                status: parlor_shared::protocol::TableStatus::Waiting,
                seats: Vec::new(),
                host: None,
                table_options: parlor_shared::protocol::TableOptions::default(),
                spectators: 0,
                matches_played: 0,
                practice: false,
            },
            players: Vec::new(),
            sessions: vec![AdminSession {
                conn,
                age_secs: 1.0,
                node: Some(node.to_string()),
            }],
            node: Some(node.to_string()),
            log_tag: String::new(),
        }
    }

    #[test]
    fn another_nodes_part_adds_its_tables_and_sessions_but_no_table_twice() {
        let idle = |conn, node: &str| AdminSession {
            conn,
            age_secs: 0.5,
            node: Some(node.to_string()),
        };
        let mut list = AdminTables {
            tables: vec![entry("t1", "a", 1)],
            idle_sessions: vec![idle(2, "a")],
            nodes: None,
        };
        // t1 moved to b while the nodes were asked: a's entry stays, b's is dropped.
        let theirs = AdminTables {
            tables: vec![entry("t1", "b", 7), entry("t2", "b", 8)],
            idle_sessions: vec![idle(2, "b")],
            nodes: None,
        };
        merge(&mut list, theirs);
        let tables: Vec<(&str, Option<&str>)> = list
            .tables
            .iter()
            .map(|t| (t.table.id.as_str(), t.node.as_deref()))
            .collect();
        assert_eq!(tables, [("t1", Some("a")), ("t2", Some("b"))]);
        let idle: Vec<(u64, Option<&str>)> = list
            .idle_sessions
            .iter()
            .map(|s| (s.conn, s.node.as_deref()))
            .collect();
        assert_eq!(idle, [(2, Some("a")), (2, Some("b"))]);
    }

    #[test]
    fn the_key_does_not_show_in_debug_output() {
        let key = AdminKey("hunter2".into());
        assert!(!format!("{key:?}").contains("hunter2"));
    }
}
