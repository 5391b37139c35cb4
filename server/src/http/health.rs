//! `GET /healthz`, `GET /readyz` and `GET /livez`, for container health checks, load
//! balancers and restart policies.
//!
//! Health: the process can do its job, which includes writing the table log (503 while the
//! store cannot write, saying why, and healthy again once it can). Readiness: the server
//! takes new players: it is serving (so stored tables are restored) and not shutting down.
//! Liveness: the process answers requests at all. A restart cures none of what makes the
//! server unhealthy (a full disk, a database down) and loses the tables' live connections, so
//! a restart policy asks `/livez`; `/healthz` is for alerts and for balancers choosing a node.
//! `/healthz` also names the server's version.

use axum::extract::State;
use axum::http::StatusCode;

use super::AppState;

/// `GET /healthz`: `ok`, or 503 with why not; then, on a line of its own, the version.
pub async fn healthz(State(state): State<AppState>) -> (StatusCode, String) {
    let version = concat!("version ", env!("CARGO_PKG_VERSION"));
    let Some(store) = state.lobby.store() else {
        return (StatusCode::OK, format!("ok\n{version}\n"));
    };
    match store.health().await {
        Ok(()) => (StatusCode::OK, format!("ok\n{version}\n")),
        Err(err) => {
            tracing::warn!(%err, "health check: the table log cannot write");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                format!("unhealthy: the table log cannot write: {err}\n{version}\n"),
            )
        }
    }
}

/// `GET /readyz`: `ready`, or 503 while shutting down.
pub async fn readyz(State(state): State<AppState>) -> (StatusCode, &'static str) {
    if state.shutdown.is_cancelled() {
        (StatusCode::SERVICE_UNAVAILABLE, "shutting down")
    } else {
        (StatusCode::OK, "ready")
    }
}

/// `GET /livez`: `alive`, whenever the process serves requests (even while the table log
/// cannot write, or while it shuts down).
pub async fn livez() -> &'static str {
    "alive"
}
