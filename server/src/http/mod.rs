//! The HTTP surface: `fn app(state) -> Router` (REST lobby, replays, stats, `/ws`, the
//! embedded web client) and [`serve`], which runs it on a listener until the shutdown token is
//! cancelled.
//!
//! It owns routing, request parsing and HTTP errors ([`AppError`]); it is the top layer of the
//! server and may import every other module (`ws`, `lobby`, `table`, `store`, `conn`), while
//! none of them imports it.

mod admin;
mod bots;
mod client_addr;
mod cluster;
mod error;
mod hands;
mod health;
mod leaderboard;
mod listen;
mod lobby;
pub mod metrics;
mod per_ip;
mod security;
mod stats;
mod table_quota;
mod web;
mod ws_upgrade;

pub use admin::{AdminKey, AdminNodes, AdminSession, AdminTable, AdminTables};
pub use bots::{AdminBot, RegisterBot, RegisteredBot};
pub use error::{AppError, json_error};
pub use stats::{CpuTime, Memory, ServerStats, cpu_time_in, memory};

use std::io;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, Request, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower_http::classify::{ServerErrorsAsFailures, SharedClassifier};
use tower_http::compression::CompressionLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::{DefaultOnResponse, MakeSpan, TraceLayer};
use tracing::{Level, Span};

use crate::conn::Linger;
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
    /// connections each keep theirs: tungstenite's default would dwarf a table.
    pub read_buffer_bytes: usize,
    /// The most memory a connection keeps between writes for its waiting frames (each held
    /// as a header and the shared text, never copied): a batch that needed more gives its
    /// room back once written, so thousands of connections do not each keep their largest.
    pub write_buffer_bytes: usize,
    /// How long an HTTP request may take before it is answered 408 (WebSocket sessions, once
    /// upgraded, are not bound by it).
    pub request_timeout: Duration,
    /// The key of the admin API (`None`: the admin API is off).
    pub admin_key: Option<AdminKey>,
    /// How long a client may take to send a request's headers before its connection is
    /// closed (a client trickling bytes holds nothing for long).
    pub header_timeout: Duration,
    /// The most connections (HTTP and WebSocket) open at once, server-wide.
    pub max_connections: usize,
    /// The most connections open at once from one address (0: no limit).
    pub max_connections_per_ip: usize,
    /// Take the client's address from `X-Forwarded-For`/`Forwarded` (only behind a reverse
    /// proxy that sets them): per-address limits then count clients, not the proxy.
    pub trust_proxy: bool,
    /// Tables one address may create a minute (0: no limit).
    pub tables_per_ip_per_minute: usize,
    /// Tables created from one address open at once (0: no limit).
    pub tables_per_ip: usize,
    /// A WebSocket from which nothing (not even a pong) arrives for this long is closed; the
    /// server pings every third of it.
    pub ws_idle: Duration,
    /// A WebSocket that has not joined or watched a table for this long is closed.
    pub ws_join: Duration,
    /// How long an event for a seat that did not make it may wait for the frames after it
    /// (see [`crate::conn::Conn::send_lazy`]); zero writes each frame at once.
    pub ws_linger: Duration,
    /// How long a table at which nobody ever sat lives with nobody connected.
    pub unsat_table_ttl: Duration,
    /// The most spectators each table takes.
    pub max_spectators: usize,
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
            // None kept: memory matters more per table than an allocation per write.
            write_buffer_bytes: 0,
            request_timeout: Duration::from_secs(30),
            admin_key: None,
            header_timeout: Duration::from_secs(10),
            max_connections: 4096,
            max_connections_per_ip: 64,
            trust_proxy: false,
            tables_per_ip_per_minute: 10,
            tables_per_ip: 20,
            ws_idle: Duration::from_secs(60),
            ws_join: Duration::from_secs(30),
            ws_linger: ws::DEFAULT_LINGER,
            unsat_table_ttl: Duration::from_secs(300),
            max_spectators: crate::table::DEFAULT_MAX_SPECTATORS,
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
    /// Connections open, server-wide and per address.
    pub conn_limits: listen::ConnLimits,
    /// Each WebSocket's rate, queue and timeout limits, shared by every connection's hub.
    pub ws_limits: Arc<ws::Limits>,
    /// The one clock holding back every WebSocket's frames that may wait.
    pub ws_linger: Linger,
    /// WebSockets open per client address, counted at the upgrade behind a trusted proxy.
    pub ws_per_ip: Arc<per_ip::PerIp>,
    /// Tables created per address.
    pub table_quota: Arc<table_quota::TableQuota>,
    /// The cluster this node is part of (`None`: a server on its own).
    pub cluster: Option<crate::cluster::Cluster>,
    /// The ladder's figures, when this server runs one.
    pub ladder: Option<Arc<crate::ladder::LadderStats>>,
}

impl AppState {
    /// A fresh server state with no tables.
    #[must_use]
    pub fn new(config: Config) -> AppState {
        metrics::handle();
        let shutdown = CancellationToken::new();
        let per_ip = match config.max_connections_per_ip {
            0 => usize::MAX,
            n => n,
        };
        AppState {
            lobby: Lobby::new(config.idle_table_ttl, config.max_tables, shutdown.clone())
                .with_unsat_ttl(config.unsat_table_ttl)
                .with_max_spectators(config.max_spectators)
                .with_invite_timeout(config.invite_timeout),
            conn_limits: listen::ConnLimits::new(
                config.max_connections,
                per_ip,
                config.trust_proxy,
            ),
            ws_per_ip: per_ip::PerIp::new(per_ip),
            table_quota: Arc::new(table_quota::TableQuota::new(
                config.tables_per_ip_per_minute,
                config.tables_per_ip,
            )),
            ws_limits: Arc::new(ws::Limits {
                rate_per_sec: config.rate_per_sec,
                burst: config.burst,
                outbound_queue: config.outbound_queue,
                idle: config.ws_idle,
                join: config.ws_join,
            }),
            ws_linger: Linger::new(config.ws_linger),
            config: Arc::new(config),
            shutdown,
            tracker: TaskTracker::new(),
            sessions: ws::Sessions::default(),
            cluster: None,
            ladder: None,
        }
    }

    /// What each WebSocket connection needs of this state.
    #[must_use]
    pub fn hub(&self) -> ws::Hub {
        ws::Hub {
            lobby: self.lobby.clone(),
            limits: self.ws_limits.clone(),
            shutdown: self.shutdown.clone(),
            linger: self.ws_linger.clone(),
            sessions: self.sessions.clone(),
            cluster: self.cluster.clone(),
            client: None,
            vouched: None,
        }
    }

    /// This state as one node of `cluster`: tables owned elsewhere are relayed and listed,
    /// and each table's lease is let go when its actor stops here.
    #[must_use]
    pub fn with_cluster(mut self, cluster: crate::cluster::Cluster) -> AppState {
        self.lobby = self.lobby.with_stop_hook(cluster.stop_hook());
        self.lobby.bots().set_node(cluster.node());
        self.cluster = Some(cluster);
        self
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
        .route("/livez", get(health::livez))
        .route("/metrics", get(metrics::get))
        .route("/api/stats", get(stats::get))
        .route("/api/variants", get(lobby::variants))
        .route("/api/leaderboard", get(leaderboard::board))
        .route("/api/leaderboard/{kind}/{name}", get(leaderboard::entrant))
        .route("/api/admin/tables", get(admin::tables))
        .route("/api/admin/tables/{id}/close", post(admin::close))
        .route(
            "/api/admin/tables/{id}/seats/{seat}/kick",
            post(admin::kick),
        )
        .route("/api/tables", get(lobby::list).post(lobby::create))
        .route("/api/bots", get(bots::online))
        .route(
            crate::cluster::bots::INVITATIONS_PATH,
            post(cluster::invite),
        )
        .route(crate::cluster::bots::STATUS_PATH, post(cluster::status))
        .route(crate::cluster::bots::REVOKE_PATH, post(cluster::revoke))
        .route("/api/admin/bots", get(bots::list).post(bots::register))
        .route(
            "/api/admin/bots/{name}",
            axum::routing::delete(bots::revoke),
        )
        .route("/api/tables/{id}", get(lobby::get))
        .route("/api/tables/{id}/hands", get(hands::list))
        .route("/api/tables/{id}/hands/{n}", get(hands::get))
        .route("/api/tables/{id}/hands/{n}/pbn", get(hands::pbn))
        .route("/api/tables/{id}/pbn", get(hands::table_pbn))
        .route("/", get(web::index))
        .route("/t/{id}", get(web::table_page))
        .route("/leaderboard", get(web::index))
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
/// whose session logs its own line when it ends). No request carries a token or a card, and
/// the query's values are left out (see [`RequestSpan`]).
fn request_log()
-> TraceLayer<SharedClassifier<ServerErrorsAsFailures>, RequestSpan, (), DefaultOnResponse> {
    TraceLayer::new_for_http()
        .make_span_with(RequestSpan)
        .on_request(())
        .on_response(DefaultOnResponse::new().level(Level::INFO))
}

/// The request log's span: tower-http's default fields, with the URI's query values redacted.
/// A client may wrongly put a secret there (`?key=...`); the log keeps only which names
/// were sent.
#[derive(Debug, Clone, Copy)]
struct RequestSpan;

impl<B> MakeSpan<B> for RequestSpan {
    fn make_span(&mut self, request: &Request<B>) -> Span {
        tracing::info_span!(
            "request",
            method = %request.method(),
            uri = %redacted_uri(request.uri()),
            version = ?request.version(),
        )
    }
}

/// The path and, for each part of the query, its name with the value replaced. A part without
/// `=` might be a bare secret, so it is replaced whole.
fn redacted_uri(uri: &Uri) -> String {
    let path = tagged_path(uri.path());
    let Some(query) = uri.query() else {
        return path;
    };
    let parts: Vec<String> = query
        .split('&')
        .map(|part| match part.split_once('=') {
            Some((name, _)) => format!("{name}={REDACTED}"),
            None if part.is_empty() => String::new(),
            None => REDACTED.to_string(),
        })
        .collect();
    format!("{path}?{}", parts.join("&"))
}

/// The path with a table's id (after `/t/` or `tables/`) replaced by its log tag: the id of a
/// private table is its key, and the log names tables by tag only.
fn tagged_path(path: &str) -> String {
    let mut out = Vec::new();
    let mut after_table = false;
    for segment in path.split('/') {
        if after_table && !segment.is_empty() {
            out.push(crate::store::log_tag(segment).to_string());
        } else {
            out.push(segment.to_string());
        }
        after_table = out.len() == 2 && segment == "t" || segment == "tables";
    }
    out.join("/")
}

/// What the request log shows in place of a query value.
const REDACTED: &str = "<redacted>";

/// `GET /ws`: upgrades to the game protocol; the connection is tracked so shutdown waits for
/// its `goodbye`. The socket keeps its connection's places (the caps count it while it is
/// open); behind a trusted proxy it also takes a place of its client's address.
async fn upgrade(
    ws: ws_upgrade::WsUpgrade,
    State(state): State<AppState>,
    places: Option<Extension<listen::ConnPlaces>>,
    peer: Option<Extension<client_addr::Peer>>,
    headers: HeaderMap,
) -> Response {
    let config = &state.config;
    let client_place = match peer {
        Some(Extension(peer)) if config.trust_proxy => {
            // A connection relayed by another node of the cluster counts for its client.
            let ip = relayed_client(&state, &headers)
                .unwrap_or_else(|| client_addr::client_ip(peer.0.ip(), &headers, true));
            match state.ws_per_ip.acquire(ip) {
                Some(place) => Some(place),
                None => {
                    tracing::info!(%ip, "websocket refused: this address is at its connection cap");
                    return AppError::TooManyConnections(state.ws_per_ip.max()).into_response();
                }
            }
        }
        _ => None,
    };
    let mut hub = state.hub();
    hub.vouched = vouched(&state, &headers);
    hub.client = peer.map(|Extension(peer)| {
        relayed_client(&state, &headers)
            .unwrap_or_else(|| client_addr::client_ip(peer.0.ip(), &headers, config.trust_proxy))
    });
    let limits = WebSocketConfig::default()
        .read_buffer_size(config.read_buffer_bytes)
        .max_message_size(Some(ws::HARD_MESSAGE_LIMIT))
        .max_frame_size(Some(ws::HARD_MESSAGE_LIMIT));
    // The connection's task keeps what it captures for its whole life: the tracker, not the
    // whole state. The connection runs on what this block captured, by reference: an async
    // fn handed them by value would hold them again (and its caller's copies would stay).
    let tracker = state.tracker.clone();
    ws.on_upgrade(
        limits,
        config.write_buffer_bytes,
        move |sink, mut stream| {
            tracker.track_future(async move {
                ws::run(sink, &mut stream, &hub).await;
                drop((places, client_place));
            })
        },
    )
}

/// The address a cluster peer relaying a connection says its client has, believed only
/// when the peer shows the cluster's secret.
pub(crate) fn relayed_client(state: &AppState, headers: &HeaderMap) -> Option<std::net::IpAddr> {
    let secret = state.cluster.as_ref()?.secret()?;
    let shown = headers.get(crate::cluster::SECRET_HEADER)?.to_str().ok()?;
    if shown != secret {
        return None;
    }
    headers
        .get(crate::cluster::CLIENT_HEADER)?
        .to_str()
        .ok()?
        .parse()
        .ok()
}

/// The invitation and bot a cluster peer vouches for on its relayed connection (the bot's
/// node, relaying the bot's `accept` to the table's node), believed only beside the secret.
fn vouched(state: &AppState, headers: &HeaderMap) -> Option<crate::cluster::bots::Vouch> {
    use crate::cluster::bots::{BOT_HEADER, INVITATION_HEADER, Vouch};
    let secret = state.cluster.as_ref()?.secret()?;
    let shown = headers.get(crate::cluster::SECRET_HEADER)?.to_str().ok()?;
    if !admin::constant_time_eq(shown.as_bytes(), secret.as_bytes()) {
        return None;
    }
    let invitation = headers.get(INVITATION_HEADER)?.to_str().ok()?;
    let bot = headers.get(BOT_HEADER)?.to_str().ok()?;
    Vouch::from_headers(invitation, bot)
}

/// Serves `app` on `listener` (through `listen::accept_loop`: connection caps and header
/// timeouts) until `state.shutdown` is cancelled, then waits (briefly) for the WebSocket
/// connections to say goodbye.
pub async fn serve(listener: TcpListener, state: AppState) -> io::Result<()> {
    listen::accept_loop(listener, state.clone(), Duration::from_secs(5)).await?;
    state.tracker.close();
    if tokio::time::timeout(Duration::from_secs(3), state.tracker.wait())
        .await
        .is_err()
    {
        tracing::warn!("some connections did not close in time");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_logged_uri_keeps_the_path_and_the_query_s_names_only() {
        let uri = |text: &str| redacted_uri(&text.parse().unwrap());
        assert_eq!(uri("/api/tables"), "/api/tables");
        assert_eq!(uri("/api/tables?key=s3cret"), "/api/tables?key=<redacted>");
        assert_eq!(
            uri("/api/tables?a=1&b=&s3cret&&c=x=y"),
            "/api/tables?a=<redacted>&b=<redacted>&<redacted>&&c=<redacted>"
        );
        assert_eq!(uri("http://user:pw@host/x?k=v"), "/x?k=<redacted>");
    }

    #[test]
    fn a_logged_path_names_a_table_by_its_tag_only() {
        let tag = crate::store::log_tag("ab3cd4ef5g").to_string();
        assert_eq!(tagged_path("/t/ab3cd4ef5g"), format!("/t/{tag}"));
        assert_eq!(
            tagged_path("/api/tables/ab3cd4ef5g/hands/2"),
            format!("/api/tables/{tag}/hands/2")
        );
        assert_eq!(
            tagged_path("/api/admin/tables/ab3cd4ef5g/close"),
            format!("/api/admin/tables/{tag}/close")
        );
        assert_eq!(tagged_path("/api/tables"), "/api/tables");
        assert_eq!(tagged_path("/table.js"), "/table.js");
        assert_eq!(tagged_path("/table/t/x.js"), "/table/t/x.js");
    }
}
