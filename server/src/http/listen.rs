//! The accept loop: every TCP connection is counted against a server-wide cap and a cap per
//! address, and served by hyper with a deadline for reading each request's headers; requests
//! carry the connection's peer address and its places (so a WebSocket upgraded from it keeps
//! counting). On shutdown the listener closes and open HTTP connections finish gracefully.
//!
//! Why not `axum::serve`: it sets no header timeout (a client trickling headers holds its
//! connection forever) and counts nothing. A connection over a cap is still answered, from a
//! small reserve: `/healthz`, `/readyz` and `/livez` as usual (a full server is alive),
//! anything else a 429 or 503 that says why, and it is closed after that one answer; past the
//! reserve it is closed at once.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::response::{IntoResponse, Response};
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use parlor_shared::protocol::codes;
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

use super::client_addr::Peer;
use super::per_ip::{IpPlace, PerIp, Total, TotalPlace};
use super::{AppState, json_error};

/// Connections answered (with a refusal or a health check) beyond the cap at once.
const OVERFLOW_RESERVE: usize = 64;

/// What an admitted connection holds while it is open. Each of its requests carries a clone,
/// so a WebSocket upgraded from it holds the places until the socket closes.
#[derive(Debug, Clone)]
pub struct ConnPlaces(#[allow(dead_code)] Arc<(TotalPlace, Option<IpPlace>)>);

/// The connection caps.
#[derive(Debug, Clone)]
pub struct ConnLimits {
    /// Connections open server-wide.
    pub total: Arc<Total>,
    /// Connections open per peer address (`None` behind a trusted proxy, whose address is
    /// every client's: WebSockets are then counted per client at the upgrade).
    pub per_ip: Option<Arc<PerIp>>,
    /// Connections being answered over a cap.
    overflow: Arc<Total>,
}

impl ConnLimits {
    /// Caps of `max_total` connections, `max_per_ip` per peer address (unless `trust_proxy`).
    #[must_use]
    pub fn new(max_total: usize, max_per_ip: usize, trust_proxy: bool) -> ConnLimits {
        ConnLimits {
            total: Total::new(max_total),
            per_ip: (!trust_proxy).then(|| PerIp::new(max_per_ip)),
            overflow: Total::new(OVERFLOW_RESERVE),
        }
    }
}

/// Why a connection was not admitted.
#[derive(Debug, Clone, Copy)]
enum Refused {
    /// The server-wide cap.
    Full(usize),
    /// The peer address's cap.
    PerIp(usize),
}

/// Accepts connections until `state.shutdown` is cancelled, then lets open HTTP exchanges
/// finish (at most `grace`).
pub async fn accept_loop(
    listener: TcpListener,
    state: AppState,
    grace: Duration,
) -> io::Result<()> {
    let app = super::app(state.clone());
    let limits = state.conn_limits.clone();
    let mut builder = Builder::new(TokioExecutor::new()).http1_only();
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(state.config.header_timeout);
    let mut refusing = Builder::new(TokioExecutor::new()).http1_only();
    refusing
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(state.config.header_timeout)
        .keep_alive(false);
    let graceful = GracefulShutdown::new();
    loop {
        let accepted = tokio::select! {
            () = state.shutdown.cancelled() => break,
            accepted = listener.accept() => accepted,
        };
        let (tcp, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(err) => {
                // Out of file descriptors, most likely: wait for some to close rather than
                // spin. Connections already open go on.
                tracing::warn!(%err, "could not accept a connection");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        if let Err(err) = tcp.set_nodelay(true) {
            tracing::debug!(%err, "could not set TCP_NODELAY");
        }
        match admit(&limits, peer) {
            Ok(places) => {
                let service = app.clone().map_request(move |req: Request<Incoming>| {
                    let mut req = req.map(Body::new);
                    req.extensions_mut().insert(Peer(peer));
                    req.extensions_mut().insert(places.clone());
                    req
                });
                let conn = builder
                    .serve_connection_with_upgrades(
                        TokioIo::new(tcp),
                        TowerToHyperService::new(service),
                    )
                    .into_owned();
                let conn = graceful.watch(conn);
                tokio::spawn(async move {
                    if let Err(err) = conn.await {
                        tracing::debug!(%err, %peer, "connection ended with an error");
                    }
                });
            }
            Err(refused) => refuse(&refusing, &limits, &app, tcp, peer, refused),
        }
    }
    drop(listener);
    if tokio::time::timeout(grace, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("some HTTP requests did not finish in time");
    }
    Ok(())
}

/// The places of a new connection, or why it gets none.
fn admit(limits: &ConnLimits, peer: SocketAddr) -> Result<ConnPlaces, Refused> {
    let ip_place = match &limits.per_ip {
        Some(per_ip) => Some(
            per_ip
                .acquire(peer.ip())
                .ok_or(Refused::PerIp(per_ip.max()))?,
        ),
        None => None,
    };
    let total = limits
        .total
        .acquire()
        .ok_or(Refused::Full(limits.total.max()))?;
    Ok(ConnPlaces(Arc::new((total, ip_place))))
}

/// Answers one request of a connection over a cap (health checks as usual, the rest refused),
/// then closes it; past the reserve, closes it at once.
fn refuse(
    builder: &Builder<TokioExecutor>,
    limits: &ConnLimits,
    app: &Router,
    tcp: TcpStream,
    peer: SocketAddr,
    refused: Refused,
) {
    match refused {
        Refused::Full(max) => {
            metrics::counter!("parlor_connections_refused_total", "why" => "server_full")
                .increment(1);
            tracing::warn!(%peer, max, "connection refused: the server is at its connection cap");
        }
        Refused::PerIp(max) => {
            metrics::counter!("parlor_connections_refused_total", "why" => "per_ip").increment(1);
            tracing::info!(%peer, max, "connection refused: this address is at its connection cap");
        }
    }
    let Some(place) = limits.overflow.acquire() else {
        return;
    };
    let app = app.clone();
    let service = tower::service_fn(move |req: Request<Incoming>| {
        let app = app.clone();
        async move {
            let mut req = req.map(Body::new);
            req.extensions_mut().insert(Peer(peer));
            let health = matches!(req.uri().path(), "/healthz" | "/readyz" | "/livez");
            if health {
                return app.oneshot(req).await;
            }
            Ok::<_, std::convert::Infallible>(refusal(refused))
        }
    });
    let conn = builder
        .serve_connection(TokioIo::new(tcp), TowerToHyperService::new(service))
        .into_owned();
    tokio::spawn(async move {
        let _place = place;
        let _ = conn.await;
    });
}

/// The answer to a request on a connection over a cap.
fn refusal(refused: Refused) -> Response {
    let mut response = match refused {
        Refused::Full(max) => json_error(
            StatusCode::SERVICE_UNAVAILABLE,
            codes::SERVER_FULL,
            format!("the server has {max} connections open, the most it may: try again shortly"),
        ),
        Refused::PerIp(max) => json_error(
            StatusCode::TOO_MANY_REQUESTS,
            codes::TOO_MANY_CONNECTIONS,
            format!("this address already has {max} connections open: close some and try again"),
        ),
    };
    response.headers_mut().insert(
        axum::http::header::CONNECTION,
        axum::http::HeaderValue::from_static("close"),
    );
    response.into_response()
}
