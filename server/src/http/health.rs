//! `GET /healthz` and `GET /readyz`, for container health checks and load balancers.
//!
//! Health: the process can do its job, which includes writing the table log (503 while the
//! store cannot write, and healthy again once it can). Readiness: the server takes new
//! players: it is serving (so stored tables are restored) and not shutting down.

use axum::extract::State;
use axum::http::StatusCode;

use super::AppState;

/// `GET /healthz`: `ok`, or 503 with why not.
pub async fn healthz(State(state): State<AppState>) -> (StatusCode, String) {
    let Some(store) = state.lobby.store() else {
        return (StatusCode::OK, "ok".into());
    };
    match store.health().await {
        Ok(()) => (StatusCode::OK, "ok".into()),
        Err(err) => {
            tracing::warn!(%err, "health check: the table log cannot write");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                format!("unhealthy: the table log cannot write: {err}"),
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
