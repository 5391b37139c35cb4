//! The relay: a client's WebSocket for a table owned by another node is piped to that
//! node's `/ws`, frame for frame both ways, starting with the client's own `join` or
//! `watch`. One WebSocket is one table, so once piped the connection stays piped; when
//! either end closes, both do, and the client reconnects through the same public address
//! (landing wherever the table is then).
//!
//! A frozen owner keeps its TCP connections open, so the pipe pings it: once it has gone
//! silent the pipe asks who owns the table now, and ends as [`Ended::Moved`] when another
//! node does, so the client reconnects to the new owner.
//!
//! The owner sees the relaying node as the TCP peer; the client's own address goes along in
//! [`super::CLIENT_HEADER`], which the owner believes only beside the cluster's shared
//! secret ([`super::SECRET_HEADER`]).

use axum::extract::ws::{CloseFrame as AxumClose, Message as AxumMessage};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};

/// Why a relay could not start.
#[derive(Debug, thiserror::Error)]
pub enum RelayError {
    /// The owner's address is not one a WebSocket can be opened to.
    #[error("bad node address {0}")]
    BadAddress(String),
    /// The owner could not be reached.
    #[error("the table's server could not be reached: {0}")]
    Connect(#[from] tokio_tungstenite::tungstenite::Error),
}

/// The owner's WebSocket URL for a node address (`http://host:port` → `ws://host:port/ws`).
pub fn ws_url(address: &str) -> Result<String, RelayError> {
    let address = address.trim_end_matches('/');
    if let Some(rest) = address.strip_prefix("http://") {
        Ok(format!("ws://{rest}/ws"))
    } else if let Some(rest) = address.strip_prefix("https://") {
        Ok(format!("wss://{rest}/ws"))
    } else if address.starts_with("ws://") || address.starts_with("wss://") {
        Ok(format!("{address}/ws"))
    } else {
        Err(RelayError::BadAddress(address.to_string()))
    }
}

/// How a pipe ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// One side closed.
    Closed,
    /// The owner went silent, and the table is another node's now: the client should
    /// reconnect.
    Moved,
}

/// What a pipe watches its owner with: the cluster (who owns what, the lease) and the
/// table piped to, if the first frame named one.
#[derive(Debug, Clone, Copy)]
pub struct Watch<'a> {
    /// This node's view of the cluster.
    pub cluster: &'a super::Cluster,
    /// The table piped to (none for a bot's `accept`, piped to the bot's node).
    pub table: Option<&'a str>,
}

/// Pipes the client's socket (`sink`, `stream`) to the owner at `address`, after sending it
/// `first` (the client's `join` or `watch`, or a registered bot's `accept`, the invitation
/// it took up and the bot then vouched for in `vouch`). Returns when either side ends or the
/// owner is found gone (see [`Ended`]); `Err` when the owner could not be reached at all
/// (nothing was piped).
#[allow(clippy::too_many_arguments)]
pub async fn pipe<W, R>(
    sink: &mut W,
    stream: &mut R,
    address: &str,
    first: String,
    client: Option<std::net::IpAddr>,
    vouch: Option<&super::bots::Vouch>,
    max_message: usize,
    watch: Watch<'_>,
) -> Result<Ended, RelayError>
where
    W: Sink<AxumMessage> + Unpin,
    R: Stream<Item = Result<AxumMessage, axum::Error>> + Unpin,
{
    let mut request = ws_url(address)?.into_client_request()?;
    let secret = watch.cluster.secret();
    if let Some(secret) = secret.and_then(|s| HeaderValue::from_str(s).ok()) {
        request.headers_mut().insert(super::SECRET_HEADER, secret);
        if let Some(ip) = client.and_then(|ip| HeaderValue::from_str(&ip.to_string()).ok()) {
            request.headers_mut().insert(super::CLIENT_HEADER, ip);
        }
        for (name, value) in vouch.iter().flat_map(|v| v.headers()) {
            if let Ok(value) = HeaderValue::from_str(&value) {
                request.headers_mut().insert(name, value);
            }
        }
    }
    let config = WebSocketConfig::default()
        .max_message_size(Some(max_message))
        .max_frame_size(Some(max_message));
    let (owner, _) =
        tokio_tungstenite::connect_async_with_config(request, Some(config), true).await?;
    metrics::counter!("parlor_cluster_relayed_total").increment(1);
    let (mut up, mut down) = owner.split();
    if up.send(Message::text(first)).await.is_err() {
        return Ok(Ended::Closed);
    }
    // The owner is pinged every sixth of a lease: a live one answers within it.
    let lease = watch.cluster.lease();
    let mut tick = tokio::time::interval(lease / 6);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut heard = tokio::time::Instant::now();
    let ended = loop {
        tokio::select! {
            from_client = stream.next() => {
                let Some(Ok(msg)) = from_client else { break Ended::Closed };
                let Some(msg) = upstream(msg) else { continue };
                let closing = matches!(msg, Message::Close(_));
                if up.send(msg).await.is_err() || closing {
                    break Ended::Closed;
                }
            }
            from_owner = down.next() => {
                let Some(Ok(msg)) = from_owner else { break Ended::Closed };
                heard = tokio::time::Instant::now();
                let Some(msg) = downstream(msg) else { continue };
                let closing = matches!(msg, AxumMessage::Close(_));
                if sink.send(msg).await.is_err() || closing {
                    break Ended::Closed;
                }
            }
            _ = tick.tick() => {
                // Silence alone is no proof (a busy owner answers late): the lease decides.
                if heard.elapsed() >= lease / 3 && watch.moved_from(address).await {
                    break Ended::Moved;
                }
                if up.send(Message::Ping(Vec::new().into())).await.is_err() {
                    break Ended::Closed;
                }
            }
        }
    };
    let _ = up.close().await;
    if ended == Ended::Closed {
        let _ = sink.close().await;
    }
    Ok(ended)
}

impl Watch<'_> {
    /// True when the table is owned, under a live lease, by a node other than the one at
    /// `address`.
    async fn moved_from(&self, address: &str) -> bool {
        let Some(table) = self.table else {
            return false;
        };
        let now = self.cluster.owner_address(table).await;
        now.is_some_and(|now| now.trim_end_matches('/') != address.trim_end_matches('/'))
    }
}

/// A client's frame as the owner gets it; pings and pongs stay on their own hop.
fn upstream(msg: AxumMessage) -> Option<Message> {
    match msg {
        AxumMessage::Text(text) => Some(Message::text(text.as_str())),
        AxumMessage::Binary(bytes) => Some(Message::binary(bytes)),
        AxumMessage::Close(frame) => Some(Message::Close(frame.map(|f| CloseFrame {
            code: f.code.into(),
            reason: f.reason.as_str().into(),
        }))),
        AxumMessage::Ping(_) | AxumMessage::Pong(_) => None,
    }
}

/// The owner's frame as the client gets it; pings and pongs stay on their own hop.
fn downstream(msg: Message) -> Option<AxumMessage> {
    match msg {
        Message::Text(text) => Some(AxumMessage::text(text.as_str())),
        Message::Binary(bytes) => Some(AxumMessage::binary(bytes)),
        Message::Close(frame) => Some(AxumMessage::Close(frame.map(|f| AxumClose {
            code: f.code.into(),
            reason: f.reason.as_str().into(),
        }))),
        Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_addresses_become_websocket_urls() {
        assert_eq!(
            ws_url("http://10.0.0.2:8080").unwrap(),
            "ws://10.0.0.2:8080/ws"
        );
        assert_eq!(ws_url("https://a.example/").unwrap(), "wss://a.example/ws");
        assert!(ws_url("10.0.0.2:8080").is_err());
    }
}
