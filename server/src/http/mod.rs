//! The HTTP surface: `fn app(state) -> Router` (REST lobby, replays, stats, `/ws`, the
//! embedded web client) and [`serve`], which runs it on a listener until the shutdown token is
//! cancelled.
//!
//! It owns routing, request parsing and HTTP errors ([`AppError`]); it is the top layer of the
//! server and may import every other module (`ws`, `lobby`, `table`, `store`, `conn`), while
//! none of them imports it.

mod admin;
mod bots;
mod error;
mod hands;
mod health;
mod lobby;
pub mod metrics;
mod security;
mod stats;
mod web;

pub use admin::{AdminKey, AdminSession, AdminTable, AdminTables};
pub use bots::{AdminBot, RegisterBot, RegisteredBot};
pub use error::{AppError, json_error};
pub use stats::{Memory, ServerStats, memory};

use std::io;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::extract::ws::WebSocketUpgrade;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower_http::classify::{ServerErrorsAsFailures, SharedClassifier};
use tower_http::compression::CompressionLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::lobby::Lobby;
use crate::store::SharedStore;
use crate::ws;

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
    /// How long an HTTP request may take before it is answered 408 (WebSocket sessions, once
    /// upgraded, are not bound by it).
    pub request_timeout: Duration,
    /// The key of the admin API (`None`: the admin API is off).
    pub admin_key: Option<AdminKey>,
    /// How long a registered bot has to take a seat it was invited to.
    pub invite_timeout: Duration,
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
            request_timeout: Duration::from_secs(30),
            admin_key: None,
            invite_timeout: crate::lobby::bot_directory::DEFAULT_INVITE_TIMEOUT,
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
    /// The live WebSocket sessions' ages and tables, for the admin API.
    pub sessions: ws::Sessions,
}

impl AppState {
    /// A fresh server state with no tables.
    #[must_use]
    pub fn new(config: Config) -> AppState {
        metrics::handle();
        let shutdown = CancellationToken::new();
        AppState {
            lobby: Lobby::new(config.idle_table_ttl, config.max_tables, shutdown.clone())
                .with_invite_timeout(config.invite_timeout),
            config: Arc::new(config),
            shutdown,
            tracker: TaskTracker::new(),
            sessions: ws::Sessions::default(),
        }
    }

    /// What each WebSocket connection needs of this state.
    #[must_use]
    pub fn hub(&self) -> ws::Hub {
        ws::Hub {
            lobby: self.lobby.clone(),
            limits: ws::Limits {
                rate_per_sec: self.config.rate_per_sec,
                burst: self.config.burst,
                outbound_queue: self.config.outbound_queue,
            },
            shutdown: self.shutdown.clone(),
            sessions: self.sessions.clone(),
        }
    }

    /// This state with tables logged to `store` (so they survive a restart) and hand
    /// replays read from it.
    #[must_use]
    pub fn with_store(mut self, store: SharedStore) -> AppState {
        self.lobby = self.lobby.with_store(store);
        self
    }
}

/// Every route of the server. Plain HTTP requests are compressed when the client accepts it
/// and bounded by the request timeout; the `/ws` upgrade is routed beside them, so a game
/// session is neither. Every response carries the security headers, and each request is
/// logged.
pub fn app(state: AppState) -> Router {
    let timeout = state.config.request_timeout;
    let routes = Router::new()
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route("/metrics", get(metrics::get))
        .route("/api/stats", get(stats::get))
        .route("/api/variants", get(lobby::variants))
        .route("/api/admin/tables", get(admin::tables))
        .route("/api/admin/tables/{id}/close", post(admin::close))
        .route(
            "/api/admin/tables/{id}/seats/{seat}/kick",
            post(admin::kick),
        )
        .route("/api/tables", get(lobby::list).post(lobby::create))
        .route("/api/bots", get(bots::online))
        .route("/api/admin/bots", get(bots::list).post(bots::register))
        .route(
            "/api/admin/bots/{name}",
            axum::routing::delete(bots::revoke),
        )
        .route("/api/tables/{id}", get(lobby::get))
        .route("/api/tables/{id}/hands", get(hands::list))
        .route("/api/tables/{id}/hands/{n}", get(hands::get))
        .route("/", get(web::index))
        .route("/t/{id}", get(web::table_page))
        .fallback(web::file)
        .layer(CompressionLayer::new())
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            timeout,
        ))
        .merge(Router::new().route("/ws", get(upgrade)));
    security::apply(routes)
        .layer(request_log())
        .with_state(state)
}

/// One log line per HTTP request (method, path, status, latency; the `/ws` upgrade too,
/// whose session logs its own line when it ends). No request carries a token or a card.
fn request_log()
-> TraceLayer<SharedClassifier<ServerErrorsAsFailures>, DefaultMakeSpan, (), DefaultOnResponse> {
    TraceLayer::new_for_http()
        .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
        .on_request(())
        .on_response(DefaultOnResponse::new().level(Level::INFO))
}

/// `GET /ws`: upgrades to the game protocol; the connection is tracked so shutdown waits for
/// its `goodbye`.
async fn upgrade(ws: WebSocketUpgrade, State(state): State<AppState>) -> Response {
    let config = &state.config;
    let hub = state.hub();
    ws.read_buffer_size(config.read_buffer_bytes)
        .write_buffer_size(config.write_buffer_bytes)
        .max_message_size(ws::HARD_MESSAGE_LIMIT)
        .max_frame_size(ws::HARD_MESSAGE_LIMIT)
        .on_upgrade(move |socket| state.tracker.track_future(ws::connection(socket, hub)))
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
