//! Why a connection's reader refused a frame itself, before any table saw it: a typed error
//! with a stable code (the protocol's `codes::*`) and words for people, like `TableError`.
//!
//! It owns the wording of these refusals only; malformed input keeps the protocol's own
//! `ProtocolError`.

use parlor_shared::protocol::{ServerMsg, codes};
use thiserror::Error;

/// A frame the reader answers with an `error` of its own.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Refusal {
    /// A binary frame: the protocol is JSON text.
    #[error("send JSON text frames, not binary ones")]
    BinaryFrame,
    /// Over the connection's rate.
    #[error("too many messages: at most {0} a second; this one was ignored")]
    RateLimited(u32),
    /// A table message before `join` or `watch`.
    #[error("join or watch a table first")]
    NotJoined,
    /// `join` or `watch` while already at a table.
    #[error("this connection is already at a table: leave first")]
    AlreadyJoined,
    /// No open table has that id.
    #[error("there is no table `{0}`")]
    NoSuchTable(String),
    /// The table this connection was at has closed.
    #[error("the table has closed")]
    TableClosed,
}

impl Refusal {
    /// The stable code clients see.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::BinaryFrame => codes::BINARY_FRAME,
            Refusal::RateLimited(_) => codes::RATE_LIMITED,
            Refusal::NotJoined => codes::NOT_JOINED,
            Refusal::AlreadyJoined => codes::ALREADY_JOINED,
            Refusal::NoSuchTable(_) | Refusal::TableClosed => codes::NO_SUCH_TABLE,
        }
    }

    /// The `error` frame sent back.
    #[must_use]
    pub fn to_msg(&self) -> ServerMsg {
        ServerMsg::error(self.code(), self.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_the_protocol_s() {
        let cases = [
            (Refusal::BinaryFrame, "binary_frame"),
            (Refusal::RateLimited(100), "rate_limited"),
            (Refusal::NotJoined, "not_joined"),
            (Refusal::AlreadyJoined, "already_joined"),
            (Refusal::NoSuchTable("x".into()), "no_such_table"),
            (Refusal::TableClosed, "no_such_table"),
        ];
        for (refusal, code) in cases {
            assert_eq!(refusal.code(), code);
            assert!(matches!(refusal.to_msg(), ServerMsg::Error { code: c, .. } if c == code));
        }
    }
}
