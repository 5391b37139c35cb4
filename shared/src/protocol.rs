//! The wire format: one JSON message enum per direction, tagged by `type`.
//!
//! Browsers, the Rust bot client and remote bots all speak exactly this. Cards are ASCII
//! strings (`"QS"`). Every message the server sends about the game carries the table's event
//! counter `seq`, so a client can tell whether it missed something; on (re)joining it gets a
//! fresh snapshot of its view.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::card::Card;
use crate::rules::{Action, Event, Legal, Options, RuleError, Variant};
use crate::seat::Seat;
use crate::view::PlayerView;

/// The protocol version; bumped on any incompatible change.
pub const PROTOCOL_VERSION: u32 = 1;

/// The largest message a client may send, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;

/// What a client sends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Take a seat at a table: a free one (`seat` left out: the first free), or your own
    /// back with the `token` you were given.
    Join {
        /// The table's id.
        table: String,
        /// The seat wanted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// The name shown to others.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// The secret seat token from an earlier `welcome`, to reclaim a seat.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
        /// True for a program: the seat is marked as a bot seat, and a built-in bot plays
        /// for it when it does not answer in time.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        bot: bool,
    },
    /// Watch a table without a seat.
    Watch {
        /// The table's id.
        table: String,
    },
    /// Choose the cards to pass.
    Pass {
        /// The cards, as many as the prompt's `count`.
        cards: Vec<Card>,
    },
    /// Play a card.
    Play {
        /// The card.
        card: Card,
    },
    /// Host only: seat a built-in bot.
    AddBot {
        /// The empty seat.
        seat: Seat,
        /// A strategy name from `GET /api/variants`.
        strategy: String,
    },
    /// Host only: take a built-in bot out of its seat.
    RemoveBot {
        /// The bot's seat.
        seat: Seat,
    },
    /// Host only: start the match (or the next one) once every seat is filled.
    Start {},
    /// Give up your seat for good.
    Leave {},
    /// Ask for a `pong`.
    Ping {},
}

impl ClientMsg {
    /// The game action this message carries, if it is one.
    #[must_use]
    pub fn action(&self) -> Option<Action> {
        match self {
            ClientMsg::Pass { cards } => Some(Action::Pass {
                cards: cards.clone(),
            }),
            ClientMsg::Play { card } => Some(Action::Play { card: *card }),
            _ => None,
        }
    }

    /// Parses one text frame, telling malformed JSON, unknown types and bad fields apart.
    pub fn parse(text: &str) -> Result<ClientMsg, ProtocolError> {
        if text.len() > MAX_MESSAGE_BYTES {
            return Err(ProtocolError::TooLarge {
                limit: MAX_MESSAGE_BYTES,
            });
        }
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ProtocolError::MalformedJson(e.to_string()))?;
        let kind = value
            .get("type")
            .and_then(|t| t.as_str())
            .ok_or(ProtocolError::MissingType)?;
        if !CLIENT_TYPES.contains(&kind) {
            return Err(ProtocolError::UnknownType(kind.to_string()));
        }
        serde_json::from_value(value).map_err(|e| ProtocolError::Invalid(e.to_string()))
    }
}

/// Every `type` a client may send.
pub const CLIENT_TYPES: [&str; 9] = [
    "join",
    "watch",
    "pass",
    "play",
    "add_bot",
    "remove_bot",
    "start",
    "leave",
    "ping",
];

/// What the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// You joined or are watching a table.
    Welcome {
        /// The protocol version the server speaks.
        protocol: u32,
        /// The table's id.
        table: String,
        /// Your seat; `None` when watching.
        seat: Option<Seat>,
        /// Keep this secret: it gives the seat back after a lost connection.
        token: Option<String>,
        /// True when you are the table's host.
        host: bool,
    },
    /// Who sits where and how the table stands; sent whenever that changes.
    Table {
        /// The table's event counter.
        seq: u64,
        /// The table.
        table: TableInfo,
    },
    /// A complete picture of the game as you may see it.
    State {
        /// The table's event counter this snapshot is current with.
        seq: u64,
        /// Your view.
        view: Box<PlayerView>,
    },
    /// Something happened in the game.
    Event {
        /// The table's event counter: one more than the last event.
        seq: u64,
        /// What happened.
        event: Event,
    },
    /// It is your turn: here is what you may do.
    YourTurn {
        /// The table's event counter.
        seq: u64,
        /// Your legal moves.
        legal: Legal,
        /// Milliseconds you have before a built-in bot plays for you (bot seats only).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        timeout_ms: Option<u64>,
    },
    /// Your last message was refused; nothing changed.
    Error {
        /// A stable code for programs.
        code: String,
        /// A sentence for people.
        message: String,
    },
    /// The answer to `ping`.
    Pong {},
    /// The server is shutting down; reconnect with your token later.
    Goodbye {
        /// Why.
        reason: String,
    },
}

impl ServerMsg {
    /// An error message from a stable code and a sentence.
    #[must_use]
    pub fn error(code: &str, message: impl Into<String>) -> ServerMsg {
        ServerMsg::Error {
            code: code.to_string(),
            message: message.into(),
        }
    }

    /// The error message for a refused move.
    #[must_use]
    pub fn rule_error(err: &RuleError) -> ServerMsg {
        ServerMsg::error(err.code(), err.to_string())
    }
}

/// A table as the lobby and its players see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TableInfo {
    /// The table's id.
    pub id: String,
    /// The variant played.
    pub variant: Variant,
    /// Its options, every one spelled out.
    pub options: Options,
    /// Waiting for players, playing, or finished.
    pub status: TableStatus,
    /// Every seat.
    pub seats: Vec<SeatInfo>,
    /// The host's seat, if the host has one.
    pub host: Option<Seat>,
    /// People watching.
    pub spectators: u32,
    /// Matches finished at this table.
    pub matches_played: u32,
}

/// Where a table stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TableStatus {
    /// Seats are being filled; the host starts the match.
    Waiting,
    /// A match is on.
    Playing,
    /// The match has ended; the host may start another.
    Finished,
}

/// Who is in one seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SeatInfo {
    /// The seat.
    pub seat: Seat,
    /// Nobody, a person, a built-in bot or a remote program.
    pub occupant: Occupant,
    /// The name shown.
    pub name: Option<String>,
    /// Whether a person or remote program is connected now.
    pub connected: bool,
    /// True while a built-in bot plays for an absent player.
    pub bot_playing: bool,
}

/// What kind of player a seat holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Occupant {
    /// Free.
    Empty,
    /// A person.
    Human,
    /// A built-in bot run by the server.
    Bot,
    /// A program connected over the protocol.
    RemoteBot,
}

/// Why a client frame could not be understood.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ProtocolError {
    /// Not JSON at all.
    #[error("that is not valid JSON: {0}")]
    MalformedJson(String),
    /// JSON without a `type`.
    #[error("every message needs a \"type\" field")]
    MissingType,
    /// A `type` the server does not know.
    #[error("unknown message type `{0}`")]
    UnknownType(String),
    /// A known type with missing or wrong fields.
    #[error("invalid message: {0}")]
    Invalid(String),
    /// Over the size limit.
    #[error("message too large: the limit is {limit} bytes")]
    TooLarge {
        /// The limit.
        limit: usize,
    },
}

impl ProtocolError {
    /// A stable code for programs.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            ProtocolError::MalformedJson(_) => "malformed_json",
            ProtocolError::MissingType => "missing_type",
            ProtocolError::UnknownType(_) => "unknown_type",
            ProtocolError::Invalid(_) => "invalid_message",
            ProtocolError::TooLarge { .. } => "too_large",
        }
    }
}

/// The JSON Schema of both directions, as written to `docs/protocol.schema.json`.
#[must_use]
pub fn json_schema() -> serde_json::Value {
    let client = schemars::schema_for!(ClientMsg);
    let server = schemars::schema_for!(ServerMsg);
    serde_json::json!({
        "title": "Parlor protocol",
        "version": PROTOCOL_VERSION,
        "client_to_server": client,
        "server_to_client": server,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_use_the_documented_shape() {
        let play = ClientMsg::parse(r#"{"type":"play","card":"QS"}"#).unwrap();
        assert_eq!(
            play,
            ClientMsg::Play {
                card: Card::QUEEN_OF_SPADES
            }
        );
        let join = ClientMsg::parse(r#"{"type":"join","table":"t1","name":"Ann"}"#).unwrap();
        assert!(matches!(
            join,
            ClientMsg::Join {
                seat: None,
                bot: false,
                ..
            }
        ));
        assert_eq!(
            serde_json::to_string(&ClientMsg::Start {}).unwrap(),
            r#"{"type":"start"}"#
        );
    }

    #[test]
    fn each_kind_of_bad_frame_has_its_own_code() {
        let code = |text: &str| ClientMsg::parse(text).unwrap_err().code();
        assert_eq!(code("{nope"), "malformed_json");
        assert_eq!(code(r#"{"card":"QS"}"#), "missing_type");
        assert_eq!(code(r#"{"type":"dance"}"#), "unknown_type");
        assert_eq!(code(r#"{"type":"play"}"#), "invalid_message");
        assert_eq!(code(r#"{"type":"play","card":"ZZ"}"#), "invalid_message");
        assert_eq!(code(&" ".repeat(MAX_MESSAGE_BYTES + 1)), "too_large");
    }

    #[test]
    fn a_bad_card_names_the_card() {
        let err = ClientMsg::parse(r#"{"type":"play","card":"floober"}"#).unwrap_err();
        assert!(err.to_string().contains("`floober` is not a card"), "{err}");
    }

    #[test]
    fn client_types_match_the_enum() {
        let schema = serde_json::to_string(&schemars::schema_for!(ClientMsg)).unwrap();
        for kind in CLIENT_TYPES {
            assert!(
                schema.contains(&format!("\"{kind}\"")),
                "{kind} missing from schema"
            );
        }
    }
}
