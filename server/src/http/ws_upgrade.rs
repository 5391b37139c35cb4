//! The WebSocket handshake of `GET /ws` (RFC 6455 §4.2), done here rather than by axum's
//! `WebSocketUpgrade` because that hands over a socket whose writing the server cannot own:
//! Parlor writes its own frames ([`crate::ws::socket`], which says why).

use axum::extract::FromRequestParts;
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::request::Parts;
use axum::http::{StatusCode, Version};
use axum::response::{IntoResponse, Response};
use hyper::upgrade::OnUpgrade;
use hyper_util::rt::TokioIo;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use super::AppError;
use crate::ws::socket::{self, FrameSink, MessageStream};

/// The connection once upgraded, as tokio reads and writes it.
pub type Upgraded = TokioIo<hyper::upgrade::Upgraded>;

/// A valid WebSocket handshake request, ready to be answered.
pub struct WsUpgrade {
    key: HeaderValue,
    on_upgrade: OnUpgrade,
}

impl<S: Send + Sync> FromRequestParts<S> for WsUpgrade {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, AppError> {
        let refuse = |why: &str| AppError::BadRequest(format!("not a WebSocket handshake: {why}"));
        if parts.version > Version::HTTP_11 {
            return Err(refuse("connect over HTTP/1.1"));
        }
        if !header_has_token(&parts.headers, header::CONNECTION, "upgrade") {
            return Err(refuse("the `Connection` header must name `upgrade`"));
        }
        if !header_has_token(&parts.headers, header::UPGRADE, "websocket") {
            return Err(refuse("the `Upgrade` header must be `websocket`"));
        }
        if parts.headers.get(header::SEC_WEBSOCKET_VERSION) != Some(&HeaderValue::from_static("13"))
        {
            return Err(refuse("`Sec-WebSocket-Version` must be 13"));
        }
        let key = parts
            .headers
            .get(header::SEC_WEBSOCKET_KEY)
            .cloned()
            .ok_or_else(|| refuse("`Sec-WebSocket-Key` is missing"))?;
        let on_upgrade = parts
            .extensions
            .remove::<OnUpgrade>()
            .ok_or_else(|| refuse("this connection cannot be upgraded"))?;
        Ok(WsUpgrade { key, on_upgrade })
    }
}

impl WsUpgrade {
    /// Answers `101 Switching Protocols` and, once the client has the answer, runs `serve`
    /// on the split socket (in its own task). `config` sets the reading limits; `keep` is the
    /// most write buffer kept between writes.
    pub fn on_upgrade<F, Fut>(self, config: WebSocketConfig, keep: usize, serve: F) -> Response
    where
        F: FnOnce(FrameSink<Upgraded>, MessageStream<Upgraded>) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let accept = derive_accept_key(self.key.as_bytes());
        let on_upgrade = self.on_upgrade;
        // The connection runs in a task of its own, spawned once the socket is split: this
        // task, which holds what the upgrade needed, then ends. Awaited here, the connection
        // would live beside those captures, for its whole life.
        tokio::spawn(async move {
            let Ok(upgraded) = on_upgrade.await else {
                tracing::debug!("the WebSocket upgrade did not complete");
                return;
            };
            let (sink, stream) = socket::split(TokioIo::new(upgraded), config, keep).await;
            tokio::spawn(serve(sink, stream));
        });
        let mut response = StatusCode::SWITCHING_PROTOCOLS.into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
        headers.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
        if let Ok(accept) = HeaderValue::from_str(&accept) {
            headers.insert(header::SEC_WEBSOCKET_ACCEPT, accept);
        }
        response
    }
}

/// Whether header `name` lists `token` (comma-separated, any case).
fn header_has_token(headers: &HeaderMap, name: header::HeaderName, token: &str) -> bool {
    headers.get_all(name).iter().any(|value| {
        value
            .to_str()
            .is_ok_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connection_tokens_are_found_in_lists_and_any_case() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::CONNECTION,
            HeaderValue::from_static("keep-alive, Upgrade"),
        );
        assert!(header_has_token(&headers, header::CONNECTION, "upgrade"));
        assert!(!header_has_token(&headers, header::UPGRADE, "websocket"));
        headers.insert(header::UPGRADE, HeaderValue::from_static("WebSocket"));
        assert!(header_has_token(&headers, header::UPGRADE, "websocket"));
    }

    /// The example of RFC 6455 §1.3.
    #[test]
    fn the_accept_key_is_the_rfc_s() {
        assert_eq!(
            derive_accept_key(b"dGhlIHNhbXBsZSBub25jZQ=="),
            "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        );
    }
}
