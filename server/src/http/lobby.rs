//! The REST lobby: variants, listing, reading and creating tables.
//!
//! It parses requests and shapes responses; opening tables is the lobby's job.

use std::net::IpAddr;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::{Extension, Json};
use parlor_shared::protocol::{CreateTable, CreatedTable, TableInfo, TableOptions, VariantInfo};
use parlor_shared::{Options, Variant};
use serde_json::Value;

use super::client_addr::{Peer, client_ip};
use super::{AppError, AppState};

/// `GET /api/variants`.
pub(super) async fn variants() -> Json<Vec<VariantInfo>> {
    Json(Variant::ALL.into_iter().map(VariantInfo::of).collect())
}

/// Asks for this node's own tables only (`?local=1`): how the nodes of a cluster ask each
/// other.
#[derive(Debug, Default, serde::Deserialize)]
pub(super) struct Scope {
    /// True: this node's tables, not the cluster's.
    #[serde(default)]
    pub(super) local: Option<u8>,
}

/// `GET /api/tables`: the listed tables only (a table is private unless its host lists it);
/// in a cluster, those of every node.
pub(super) async fn list(
    State(state): State<AppState>,
    Query(scope): Query<Scope>,
) -> Json<Vec<TableInfo>> {
    let mut tables = state.lobby.listed();
    if let Some(cluster) = state.cluster.as_ref().filter(|_| scope.local.is_none()) {
        tables.extend(cluster.listed_elsewhere().await);
        tables.sort_by(|a, b| a.id.cmp(&b.id));
        tables.dedup_by(|a, b| a.id == b.id);
    }
    Json(tables)
}

/// `GET /api/tables/{id}`; in a cluster, a table owned by another node is described by it.
pub(super) async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(scope): Query<Scope>,
) -> Result<Json<TableInfo>, AppError> {
    if let Some(table) = state.lobby.get(&id) {
        return Ok(Json(table.info()));
    }
    if let Some(cluster) = state.cluster.as_ref().filter(|_| scope.local.is_none())
        && let Some(info) = cluster.info_elsewhere(&id).await
    {
        return Ok(Json(info));
    }
    Err(AppError::NoSuchTable(id))
}

/// `POST /api/tables`, within the creating address's quota. In a cluster the table is
/// opened on the least-loaded live node: another node is asked to open it when it holds
/// fewer tables than this one (and this node opens it if that node does not answer).
pub(super) async fn create(
    State(state): State<AppState>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    Query(scope): Query<Scope>,
    body: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<CreatedTable>), AppError> {
    let Json(body) = body.map_err(|err| AppError::BadRequest(err.body_text()))?;
    let raw = body.clone();
    let request = parse_create(body)?;
    if let Some(store) = state.lobby.store() {
        refuse_while_not_saving(store)?;
    }
    let peer = peer.map_or(IpAddr::from([0, 0, 0, 0]), |Extension(peer)| peer.0.ip());
    let ip = super::relayed_client(&state, &headers)
        .unwrap_or_else(|| client_ip(peer, &headers, state.config.trust_proxy));
    if let Some(cluster) = state.cluster.as_ref().filter(|_| scope.local.is_none())
        && let Some(target) = cluster.placement(state.lobby.len()).await
        && let Some(created) = cluster.create_on(&target, &raw, ip).await
    {
        return Ok((StatusCode::CREATED, Json(created)));
    }
    let mut created = None;
    state.table_quota.create(ip, &state.lobby, || {
        let (info, host_key) = state.lobby.create(request)?;
        let id = info.id.clone();
        created = Some((info, host_key));
        Ok(id)
    })?;
    let (table, host_key) = created.expect("created");
    // The table is on disk before anyone learns its id; a store that stops writing
    // meanwhile gets a refusal instead (the unannounced table expires unseen).
    if let Some(store) = state.lobby.store() {
        let mut saving = store.saving();
        let stopped = saving.wait_for(|saving| !saving);
        tokio::select! {
            flushed = store.flushed() => if let Err(err) = flushed {
                tracing::warn!(table = %crate::store::log_tag(&table.id), %err, "the new table may not be stored");
                return Err(AppError::StorageUnavailable(err.to_string()));
            },
            Ok(_) = stopped => {
                return Err(AppError::StorageUnavailable("the table log cannot write".into()));
            }
        }
    }
    tracing::info!(table = %crate::store::log_tag(&table.id), variant = %table.variant, "table created");
    Ok((
        StatusCode::CREATED,
        Json(CreatedTable {
            id: table.id.clone(),
            invite: format!("/t/{}", table.id),
            table,
            host_key,
        }),
    ))
}

/// Refuses at once while the store cannot write.
fn refuse_while_not_saving(store: &crate::store::SharedStore) -> Result<(), AppError> {
    if *store.saving().borrow() {
        Ok(())
    } else {
        Err(AppError::StorageUnavailable(
            "the table log cannot write".into(),
        ))
    }
}

/// Reads a create request field by field, so each kind of mistake gets its own code.
fn parse_create(body: Value) -> Result<CreateTable, AppError> {
    let Value::Object(mut fields) = body else {
        return Err(AppError::BadRequest(
            "the body must be a JSON object".into(),
        ));
    };
    let variant = match fields.remove("variant") {
        Some(Value::String(name)) => name.parse::<Variant>()?,
        _ => {
            return Err(AppError::BadRequest(
                "`variant` is required: one of hearts, filippa, hearts5, tricks, whist, spades, ohhell".into(),
            ));
        }
    };
    let options: Options = match fields.remove("options") {
        None | Some(Value::Null) => Options::default(),
        Some(value) => serde_json::from_value(value)
            .map_err(|err| AppError::BadOptions(format!("bad options: {err}")))?,
    };
    let table_options: TableOptions = match fields.remove("table_options") {
        None | Some(Value::Null) => TableOptions::default(),
        Some(value) => serde_json::from_value(value)
            .map_err(|err| AppError::BadTableOptions(format!("bad table options: {err}")))?,
    };
    let seed = match fields.remove("seed") {
        None | Some(Value::Null) => None,
        Some(value) => Some(value.as_u64().ok_or_else(|| {
            AppError::BadRequest("`seed` must be a whole number from 0 to 2^64-1".into())
        })?),
    };
    let pbn = match fields.remove("pbn") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text),
        Some(_) => {
            return Err(AppError::BadRequest(
                "`pbn` must be a string: a PBN board's text".into(),
            ));
        }
    };
    if let Some(name) = fields.keys().next() {
        return Err(AppError::BadRequest(format!(
            "unknown field `{name}`: expected variant, options, table_options, seed, pbn"
        )));
    }
    let mut request = CreateTable {
        variant,
        options,
        table_options,
        seed,
        pbn,
    };
    // A bad PBN board is refused here, before any quota or other node is asked.
    request
        .take_pbn()
        .map_err(|err| AppError::BadPbn(err.to_string()))?;
    Ok(request)
}
