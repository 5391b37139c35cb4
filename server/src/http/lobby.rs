//! The REST lobby: variants, listing, reading and creating tables.
//!
//! It parses requests and shapes responses; opening tables is the lobby's job.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use parlor_shared::protocol::{CreateTable, CreatedTable, TableInfo, TableOptions, VariantInfo};
use parlor_shared::{Options, Variant};
use serde_json::Value;

use super::{AppError, AppState};

/// `GET /api/variants`.
pub(super) async fn variants() -> Json<Vec<VariantInfo>> {
    Json(Variant::ALL.into_iter().map(VariantInfo::of).collect())
}

/// `GET /api/tables`.
pub(super) async fn list(State(state): State<AppState>) -> Json<Vec<TableInfo>> {
    Json(state.lobby.list())
}

/// `GET /api/tables/{id}`.
pub(super) async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<TableInfo>, AppError> {
    let table = state.lobby.get(&id).ok_or(AppError::NoSuchTable(id))?;
    Ok(Json(table.info()))
}

/// `POST /api/tables`.
pub(super) async fn create(
    State(state): State<AppState>,
    body: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<CreatedTable>), AppError> {
    let Json(body) = body.map_err(|err| AppError::BadRequest(err.body_text()))?;
    let request = parse_create(body)?;
    let (table, host_key) = state.lobby.create(request)?;
    // The table is on disk before anyone learns its id.
    if let Some(store) = state.lobby.store()
        && let Err(err) = store.flushed().await
    {
        tracing::warn!(table = %table.id, %err, "the new table may not be stored");
    }
    tracing::info!(table = %table.id, variant = %table.variant, "table created");
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
                "`variant` is required: one of hearts, filippa, hearts5, tricks, whist".into(),
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
    if let Some(name) = fields.keys().next() {
        return Err(AppError::BadRequest(format!(
            "unknown field `{name}`: expected variant, options, table_options, seed"
        )));
    }
    Ok(CreateTable {
        variant,
        options,
        table_options,
        seed,
    })
}
