//! The cluster's internal endpoints for registered bots (see [`crate::cluster::bots`]):
//! `POST /api/cluster/invitations` (the bot's node sends an invitation for another node's
//! host), `POST /api/cluster/invite-status` (the host's node hears how it ended) and `POST
//! /api/cluster/revoke` (the bot's node hears its account was revoked elsewhere).
//!
//! Only another node may call them: each needs the cluster's secret in
//! [`crate::cluster::SECRET_HEADER`], and a node without a secret (or not in a cluster)
//! answers 403 to all.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

use super::{AppError, AppState, json_error};
use crate::cluster::Cluster;
use crate::cluster::bots::{RemoteInvite, RemoteInvited, RemoteRevoke, StatusReport};
use crate::lobby::{BotError, Inviter};
use crate::table::Invitable;

/// The cluster, when the request shows its secret; else the 403 to answer.
fn internal<'a>(state: &'a AppState, headers: &HeaderMap) -> Result<&'a Cluster, Box<Response>> {
    let refused = || {
        Box::new(json_error(
            StatusCode::FORBIDDEN,
            "forbidden",
            "only another node of the cluster, showing its secret, may ask this".into(),
        ))
    };
    let cluster = state.cluster.as_ref().ok_or_else(refused)?;
    let secret = cluster.secret().ok_or_else(refused)?;
    let shown = headers
        .get(crate::cluster::SECRET_HEADER)
        .and_then(|v| v.to_str().ok())
        .ok_or_else(refused)?;
    if super::admin::constant_time_eq(shown.as_bytes(), secret.as_bytes()) {
        Ok(cluster)
    } else {
        Err(refused())
    }
}

/// Another node's request: the cluster (the secret shown) and the body as `T`; else the 403
/// or 400 to answer.
fn request<'a, T: DeserializeOwned>(
    state: &'a AppState,
    headers: &HeaderMap,
    bytes: &Bytes,
) -> Result<(&'a Cluster, T), Box<Response>> {
    let cluster = internal(state, headers)?;
    let body = serde_json::from_slice(bytes)
        .map_err(|err| Box::new(AppError::BadRequest(err.to_string()).into_response()))?;
    Ok((cluster, body))
}

/// A directory's refusal, as the inviting node passes it on to its host.
fn refusal(err: &BotError) -> Response {
    json_error(StatusCode::CONFLICT, err.code(), err.to_string())
}

/// `POST /api/cluster/invitations`: the bot is online here; the invitation is sent as for a
/// host of this node, with the checks a local host's has (revoked token, variant,
/// capacity, the seat's invitation out).
pub(super) async fn invite(
    State(state): State<AppState>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Response {
    let (cluster, invite) = match request::<RemoteInvite>(&state, &headers, &bytes) {
        Ok(request) => request,
        Err(answer) => return *answer,
    };
    state.lobby.drop_if_revoked(&invite.bot).await;
    let invitable = Invitable {
        variant: invite.variant,
        options: invite.options.clone(),
    };
    let inviter = Inviter::Remote(cluster.remote_inviter(&invite.inviter));
    match state.lobby.bots().invite_as(
        Some(invite.invitation.clone()),
        &invite.bot,
        &invite.table,
        invite.seat,
        &invitable,
        inviter,
    ) {
        Ok(invitation) => Json(RemoteInvited { invitation }).into_response(),
        Err(err) => refusal(&err),
    }
}

/// `POST /api/cluster/invite-status`: an invitation this node forwarded ended.
pub(super) async fn status(
    State(state): State<AppState>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Response {
    let (_, report) = match request::<StatusReport>(&state, &headers, &bytes) {
        Ok(request) => request,
        Err(answer) => return *answer,
    };
    if state
        .lobby
        .bots()
        .forward_status(&report.invitation, report.status)
    {
        StatusCode::NO_CONTENT.into_response()
    } else {
        refusal(&BotError::NoSuchInvitation(report.invitation))
    }
}

/// `POST /api/cluster/revoke`: the bot's account was revoked through another node: it goes
/// offline here now, as for a revocation here.
pub(super) async fn revoke(
    State(state): State<AppState>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Response {
    let (_, revoke) = match request::<RemoteRevoke>(&state, &headers, &bytes) {
        Ok(request) => request,
        Err(answer) => return *answer,
    };
    state.lobby.bots().revoke(&revoke.bot);
    tracing::info!(bot = %revoke.bot, "bot revoked through another node");
    StatusCode::NO_CONTENT.into_response()
}
