//! The HTTP surface: `fn app(state) -> Router` (REST lobby, `/ws`, the embedded web client)
//! and [`serve`], which runs it on a listener until the shutdown token is cancelled.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::serve::ListenerExt;
use axum::{Json, Router};
use parlor_shared::protocol::{CreateTable, CreatedTable, TableInfo, TableOptions, VariantInfo};
use parlor_shared::{Options, Variant};
use serde_json::Value;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::error::AppError;
use crate::lobby::Lobby;
use crate::store::{self, Store};
use crate::{stats, web, ws};

/// Server settings. The defaults need no configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// How long a table lives with nobody connected.
    pub idle_table_ttl: Duration,
    /// The most tables at once.
    pub max_tables: usize,
    /// Messages a connection may send per second, on average.
    pub rate_per_sec: u32,
    /// Messages a connection may send in a burst.
    pub burst: u32,
    /// Frames waiting for one slow connection before it is dropped.
    pub outbound_queue: usize,
    /// Each connection's WebSocket read buffer. Client messages are small, and thousands of
    /// connections each keep theirs: tungstenite's default of 128 KiB would dwarf a table.
    pub read_buffer_bytes: usize,
    /// Bytes a connection's writer gathers before writing to the socket: small frames queued
    /// together (an event and the prompt that follows it) go out in one write, while the
    /// buffer, which keeps its largest size per connection, stays small. Measured with
    /// `parlor loadtest`: 512 gives a third more moves per second than 0 for 1 KB more per
    /// table; 4 KiB costs 8 KB per table more.
    pub write_buffer_bytes: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            idle_table_ttl: Duration::from_secs(600),
            max_tables: 10_000,
            rate_per_sec: 100,
            burst: 200,
            outbound_queue: 256,
            read_buffer_bytes: 512,
            write_buffer_bytes: 512,
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The tables.
    pub lobby: Lobby,
    /// Settings.
    pub config: Arc<Config>,
    /// Cancel to stop the server: the listener stops, clients get `goodbye`.
    pub shutdown: CancellationToken,
    /// The live WebSocket connections, awaited on shutdown so every `goodbye` goes out.
    pub tracker: TaskTracker,
}

impl AppState {
    /// A fresh server state with no tables.
    #[must_use]
    pub fn new(config: Config) -> AppState {
        let shutdown = CancellationToken::new();
        AppState {
            lobby: Lobby::new(config.idle_table_ttl, config.max_tables, shutdown.clone()),
            config: Arc::new(config),
            shutdown,
            tracker: TaskTracker::new(),
        }
    }

    /// This state with tables logged to `store` (so they survive a restart) and hand
    /// replays read from it.
    #[must_use]
    pub fn with_store(mut self, store: Store) -> AppState {
        self.lobby = self.lobby.with_store(store);
        self
    }
}

/// Every route of the server.
pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/api/stats", get(stats::get))
        .route("/api/variants", get(variants))
        .route("/api/tables", get(list_tables).post(create_table))
        .route("/api/tables/{id}", get(get_table))
        .route("/api/tables/{id}/hands", get(store::http::list))
        .route("/api/tables/{id}/hands/{n}", get(store::http::get))
        .route("/ws", get(ws::upgrade))
        .route("/", get(web::index))
        .route("/t/{id}", get(web::index))
        .fallback(web::file)
        .with_state(state)
}

/// Serves `app` on `listener` until `state.shutdown` is cancelled, then waits (briefly) for
/// the WebSocket connections to say goodbye.
pub async fn serve(listener: TcpListener, state: AppState) -> io::Result<()> {
    let listener = listener.tap_io(|tcp| {
        if let Err(err) = tcp.set_nodelay(true) {
            tracing::debug!(%err, "could not set TCP_NODELAY");
        }
    });
    let shutdown = state.shutdown.clone();
    axum::serve(listener, app(state.clone()))
        .with_graceful_shutdown(async move { shutdown.cancelled().await })
        .await?;
    state.tracker.close();
    if tokio::time::timeout(Duration::from_secs(3), state.tracker.wait())
        .await
        .is_err()
    {
        tracing::warn!("some connections did not close in time");
    }
    Ok(())
}

/// `GET /api/variants`.
async fn variants() -> Json<Vec<VariantInfo>> {
    Json(Variant::ALL.into_iter().map(VariantInfo::of).collect())
}

/// `GET /api/tables`.
async fn list_tables(State(state): State<AppState>) -> Json<Vec<TableInfo>> {
    Json(state.lobby.list())
}

/// `GET /api/tables/{id}`.
async fn get_table(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<TableInfo>, AppError> {
    let table = state.lobby.get(&id).ok_or(AppError::NoSuchTable(id))?;
    Ok(Json(table.info()))
}

/// `POST /api/tables`.
async fn create_table(
    State(state): State<AppState>,
    body: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<CreatedTable>), AppError> {
    let Json(body) = body.map_err(|err| AppError::BadRequest(err.body_text()))?;
    let request = parse_create(body)?;
    let table = state.lobby.create(request)?;
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
