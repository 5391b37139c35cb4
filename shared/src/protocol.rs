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
use crate::rules::{Action, Call, Event, Legal, Options, Variant, VariantFacts};
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
        /// The name shown to others, tidied (Unicode NFC; control, bidi and zero-width
        /// characters dropped; runs of spaces made one; at most 32 characters) and sent back
        /// in `welcome`. A person's name may not say `bot`, `computer` or `host` (a program's
        /// may not say `host`): `bad_name`.
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
        /// Optional check: the seat you act for. When given it must be your own seat,
        /// otherwise the move is refused with `not_your_seat`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// The `seq` of the `your_turn` this answers (recommended): each prompt is answered
        /// once. A `seq` older than your current prompt (or of a prompt already answered) is
        /// refused with `stale_move`, a newer one with `unknown_prompt`; the prompt still
        /// stands and is not sent again. Without `seq` the move answers your current prompt,
        /// except that a repeated answer (a card you already played) is `stale_move`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seq: Option<u64>,
    },
    /// Play a card.
    Play {
        /// The card.
        card: Card,
        /// Optional check: the seat you act for (see `pass`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// Optional: the `seq` of the `your_turn` this answers (see `pass`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seq: Option<u64>,
    },
    /// Bid the tricks you expect to take (spades, ohhell), within the prompt's `min` and
    /// `max` and not its `forbidden`.
    Bid {
        /// The tricks bid.
        tricks: u8,
        /// Optional check: the seat you act for (see `pass`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// Optional: the `seq` of the `your_turn` this answers (see `pass`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seq: Option<u64>,
    },
    /// Bid blind nil (spades with `blind_nil`), answering a `blind` prompt: nil, bid before
    /// looking at your cards.
    BlindNil {
        /// Optional check: the seat you act for (see `pass`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// Optional: the `seq` of the `your_turn` this answers (see `pass`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seq: Option<u64>,
    },
    /// Look at your cards instead of bidding blind nil, answering a `blind` prompt: your
    /// `dealt` follows, then a `bid` prompt.
    SeeCards {
        /// Optional check: the seat you act for (see `pass`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// Optional: the `seq` of the `your_turn` this answers (see `pass`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seq: Option<u64>,
    },
    /// Give your partner cards in a blind nil exchange, answering an `exchange` prompt.
    Exchange {
        /// The cards, as many as the prompt's `count`.
        cards: Vec<Card>,
        /// Optional check: the seat you act for (see `pass`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// Optional: the `seq` of the `your_turn` this answers (see `pass`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seq: Option<u64>,
    },
    /// Make a call, answering a `call` prompt: while trump is made (euchre) pass, order up
    /// the turned-up card, name a suit, or defend alone, e.g. `{"type": "call", "call":
    /// "trump", "suit": "H", "alone": true}`; in the auction (bridge) pass, bid, double or
    /// redouble, e.g. `{"type": "call", "call": "bid", "level": 3, "strain": "NT"}`.
    Call {
        /// The call.
        #[serde(flatten)]
        call: Call,
        /// Optional check: the seat you act for (see `pass`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// Optional: the `seq` of the `your_turn` this answers (see `pass`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seq: Option<u64>,
    },
    /// Put a card away face down (euchre's dealer after picking up), answering a `discard`
    /// prompt.
    Discard {
        /// The card.
        card: Card,
        /// Optional check: the seat you act for (see `pass`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// Optional: the `seq` of the `your_turn` this answers (see `pass`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seq: Option<u64>,
    },
    /// Declarer claims `tricks` of the tricks still to play, conceding the rest (bridge), on
    /// their own or dummy's turn: their hand is faced and the defenders answer.
    Claim {
        /// The tricks claimed.
        tricks: u8,
        /// Optional check: the seat you act for (see `pass`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// Optional: the `seq` of the `your_turn` this answers (see `pass`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seq: Option<u64>,
    },
    /// A defender accepts or rejects declarer's claim (bridge), answering an `answer_claim`
    /// prompt.
    AnswerClaim {
        /// True to accept.
        accept: bool,
        /// Optional check: the seat you act for (see `pass`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// Optional: the `seq` of the `your_turn` this answers (see `pass`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seq: Option<u64>,
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
    /// Ask for a fresh `state` snapshot (and `your_turn` again when you have to act), e.g.
    /// after noticing a gap in the `seq` numbers.
    Sync {},
    /// Say something to the table (seated players; spectators too when the table allows
    /// it). At most [`MAX_CHAT_CHARS`] characters; a few lines per ten seconds.
    Chat {
        /// The line, plain text (never markup): clients show it as text.
        text: String,
    },
    /// On your turn, ask what the `heuristic` bot would do in your place. Answered with
    /// `hint` to you alone; refused with `not_your_turn`, or `hints_off` when the host turned
    /// hints off for the table.
    Hint {},
    /// Become the table's host with the key `POST /api/tables` answered (a program that set
    /// the table up, or its creator on another device). Works seated or watching; answered
    /// with `hosting`, or refused with `bad_host_key`.
    ClaimHost {
        /// The `host_key` of the `POST /api/tables` answer.
        key: String,
    },
    /// Host only, during a match: let a computer play this person's (or program's) seat for
    /// now. The person keeps the seat and plays again after `back` (or on rejoining).
    StandIn {
        /// The seat.
        seat: Seat,
    },
    /// Play your own seat again after a computer stood in for you (your turn clock ran out,
    /// or the host asked it).
    Back {},
    /// Host only: let a newcomer sit in a seat that was given up during the match (a computer
    /// plays it meanwhile; without this, only the next match's seats are free).
    OpenSeat {
        /// The seat.
        seat: Seat,
    },
    /// A registered bot says it is online and may be invited to tables, on a connection of
    /// its own that then carries its `invitation`s. Sending it again changes the offer.
    Available {
        /// The bot token its operator was given when the bot was registered.
        token: String,
        /// The variants it plays (empty: every variant).
        #[serde(default)]
        variants: Vec<Variant>,
        /// How many tables it plays at once, 1 to [`MAX_BOT_TABLES`].
        #[serde(default = "one")]
        max_tables: u32,
    },
    /// A registered bot takes the seat it was invited to, on a new connection (not its
    /// `available` one): like `join` with that table and seat as a program (`bot: true`),
    /// answered with `welcome` and the rest. The seat carries the bot's `account`.
    Accept {
        /// The invitation's id, from `invitation`.
        invitation: String,
        /// The bot's token, as in `available`: only the bot invited may take the seat.
        token: String,
    },
    /// A registered bot turns an invitation down, on its `available` connection (the one
    /// the invitation came on: no other may).
    Decline {
        /// The invitation's id, from `invitation`.
        invitation: String,
    },
    /// Host only: invite an online registered bot (`GET /api/bots`) to an empty seat. The
    /// bot has a limited time to take it; the host hears how it went in `invite_status`.
    InviteBot {
        /// The empty seat.
        seat: Seat,
        /// The registered bot's name.
        bot: String,
    },
}

/// The most tables one registered bot may offer to play at once.
pub const MAX_BOT_TABLES: u32 = 64;

/// `max_tables`' default.
fn one() -> u32 {
    1
}

/// The longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 200;

impl ClientMsg {
    /// The protocol message for an action, answering the prompt of `seq` when given (so a late
    /// answer is refused rather than taken for the next turn).
    #[must_use]
    pub fn for_action(action: Action, seq: Option<u64>) -> ClientMsg {
        match action {
            Action::Play { card } => ClientMsg::Play {
                card,
                seat: None,
                seq,
            },
            Action::Pass { cards } => ClientMsg::Pass {
                cards,
                seat: None,
                seq,
            },
            Action::Bid { tricks } => ClientMsg::Bid {
                tricks,
                seat: None,
                seq,
            },
            Action::BlindNil => ClientMsg::BlindNil { seat: None, seq },
            Action::SeeCards => ClientMsg::SeeCards { seat: None, seq },
            Action::Exchange { cards } => ClientMsg::Exchange {
                cards,
                seat: None,
                seq,
            },
            Action::Call(call) => ClientMsg::Call {
                call,
                seat: None,
                seq,
            },
            Action::Discard { card } => ClientMsg::Discard {
                card,
                seat: None,
                seq,
            },
            Action::Claim { tricks } => ClientMsg::Claim {
                tricks,
                seat: None,
                seq,
            },
            Action::AnswerClaim { accept } => ClientMsg::AnswerClaim {
                accept,
                seat: None,
                seq,
            },
        }
    }

    /// The game action this message carries, if it is one.
    #[must_use]
    pub fn action(&self) -> Option<Action> {
        match self {
            ClientMsg::Pass { cards, .. } => Some(Action::Pass {
                cards: cards.clone(),
            }),
            ClientMsg::Play { card, .. } => Some(Action::Play { card: *card }),
            ClientMsg::Bid { tricks, .. } => Some(Action::Bid { tricks: *tricks }),
            ClientMsg::BlindNil { .. } => Some(Action::BlindNil),
            ClientMsg::SeeCards { .. } => Some(Action::SeeCards),
            ClientMsg::Exchange { cards, .. } => Some(Action::Exchange {
                cards: cards.clone(),
            }),
            ClientMsg::Call { call, .. } => Some(Action::Call(*call)),
            ClientMsg::Discard { card, .. } => Some(Action::Discard { card: *card }),
            ClientMsg::Claim { tricks, .. } => Some(Action::Claim { tricks: *tricks }),
            ClientMsg::AnswerClaim { accept, .. } => Some(Action::AnswerClaim { accept: *accept }),
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
        if let Some(play) = compact_play(text) {
            return Ok(play);
        }
        // The common case, a well-formed message, in one pass; the slower diagnosis below
        // only runs for frames that are refused anyway.
        if let Ok(msg) = serde_json::from_str(text) {
            return Ok(msg);
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
        if kind == "call" {
            return parse_call(value);
        }
        serde_json::from_value(value).map_err(|e| ProtocolError::Invalid(e.to_string()))
    }
}

/// Reads a `call` message. Its call's fields sit beside `type`, `seat` and `seq` (a flattened
/// [`Call`]), which serde cannot read under `deny_unknown_fields` (it takes them for unknown
/// fields); so they are checked here: the call's own fields, and no others.
fn parse_call(value: serde_json::Value) -> Result<ClientMsg, ProtocolError> {
    let invalid = |e: serde_json::Error| ProtocolError::Invalid(e.to_string());
    let serde_json::Value::Object(mut fields) = value else {
        return Err(ProtocolError::Invalid("a message is a JSON object".into()));
    };
    fields.remove("type");
    let seat = match fields.remove("seat") {
        Some(seat) => serde_json::from_value::<Option<Seat>>(seat).map_err(invalid)?,
        None => None,
    };
    let seq = match fields.remove("seq") {
        Some(seq) => serde_json::from_value::<Option<u64>>(seq).map_err(invalid)?,
        None => None,
    };
    let own: &[&str] = match fields.get("call").and_then(serde_json::Value::as_str) {
        Some("order_up") => &["call", "alone"],
        Some("trump") => &["call", "suit", "alone"],
        Some("bid") => &["call", "level", "strain"],
        _ => &["call"],
    };
    if let Some(key) = fields.keys().find(|key| !own.contains(&key.as_str())) {
        return Err(ProtocolError::Invalid(format!("unknown field `{key}`")));
    }
    let call = serde_json::from_value(serde_json::Value::Object(fields)).map_err(invalid)?;
    Ok(ClientMsg::Call { call, seat, seq })
}

/// The message of nearly every move, `{"type":"play","card":"QS"}` with an optional `"seq":N`
/// after the card, read without the JSON parser, which reads a tagged enum twice (once for
/// its tag; the cost is in docs/PERFORMANCE.md). Anything else, spaces or other fields
/// included, returns `None` and goes through `serde_json`, which reads what this reads the
/// same way (a test holds it to that).
fn compact_play(text: &str) -> Option<ClientMsg> {
    let rest = text.strip_prefix(r#"{"type":"play","card":""#)?;
    let (card, rest) = rest.split_once('"')?;
    if !card.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    let card = card.parse().ok()?;
    let seq = match rest {
        "}" => None,
        _ => {
            let digits = rest.strip_prefix(r#","seq":"#)?.strip_suffix('}')?;
            let leading_zero = digits.len() > 1 && digits.starts_with('0');
            if digits.is_empty() || leading_zero || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Some(digits.parse().ok()?)
        }
    };
    Some(ClientMsg::Play {
        card,
        seat: None,
        seq,
    })
}

/// Every `type` a client may send.
pub const CLIENT_TYPES: [&str; 28] = [
    "join",
    "watch",
    "pass",
    "call",
    "discard",
    "claim",
    "answer_claim",
    "play",
    "bid",
    "blind_nil",
    "see_cards",
    "exchange",
    "add_bot",
    "remove_bot",
    "start",
    "leave",
    "ping",
    "sync",
    "chat",
    "hint",
    "claim_host",
    "stand_in",
    "back",
    "open_seat",
    "available",
    "accept",
    "decline",
    "invite_bot",
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
        /// True at a practice table: its creator chose the seed, so they can know every
        /// deal (see `TableInfo::practice`). Shown to everyone who joins or watches.
        #[serde(default)]
        practice: bool,
        /// Your name as the table shows it (tidied: see `join`'s `name`); `None` when
        /// watching or without a name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
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
        /// The table's event counter. It counts every event of the table, private ones sent
        /// to other seats included, so gaps in the numbers you see are normal.
        seq: u64,
        /// The `seq` of the previous event sent to you (0 when none was). If it is newer than
        /// the last event you saw (or than your latest `state`), you missed an event.
        #[serde(default)]
        prev: u64,
        /// What happened.
        event: Event,
    },
    /// It is your turn: here is what you may do.
    YourTurn {
        /// The prompt's number: the table's event counter when it was first sent (a prompt
        /// sent again keeps it). Name it in your answer's `seq`; answer each prompt once.
        seq: u64,
        /// Your legal moves.
        legal: Legal,
        /// Your view now (the same as a `state` snapshot's): your hand, the trick so far,
        /// scores and everything else the decision needs, so no `sync` is needed to play.
        view: Box<PlayerView>,
        /// Milliseconds you have before a built-in bot plays for you: remote bot seats
        /// (`bot_timeout_ms`), and people at a table with a turn clock (`turn_clock_ms`).
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
    /// The answer to `hint`, sent only to the seat that asked: the move the `heuristic`
    /// bot would make from that seat's own view. Nothing is played.
    Hint {
        /// The table's event counter when the hint was computed.
        seq: u64,
        /// The suggested move.
        action: Action,
    },
    /// The server is shutting down; reconnect with your token later.
    Goodbye {
        /// Why.
        reason: String,
    },
    /// A chat line said at the table; the recent ones are sent again after the snapshot on
    /// (re)joining. Not part of the game: programs may ignore it.
    Chat {
        /// The speaker's seat; `None` for a spectator.
        seat: Option<Seat>,
        /// The speaker's name as shown at the table.
        name: String,
        /// The line, plain text: show it as text, never as markup.
        text: String,
        /// When it was said, in milliseconds since the Unix epoch (server clock).
        at: u64,
    },
    /// Whether the server can save the table now. `saving: false`: it cannot (its disk is
    /// full or failing); the table is paused, moves and requests are refused with
    /// `storage_unavailable`, and nothing more happens until it can. `saving: true`: it can
    /// again and play goes on where it stopped (nothing was lost). Sent to everyone at the
    /// table when that changes.
    Storage {
        /// True when saving works again, false when it stopped working.
        saving: bool,
        /// A sentence for people.
        message: String,
    },
    /// The answer to a good `claim_host`: you are the table's host now (`table.host` names
    /// your seat when you have one).
    Hosting {},
    /// The answer to `available`: the bot is online under its registered name.
    Available {
        /// The bot's registered name.
        name: String,
        /// The variants it is invited to (every variant when it named none).
        variants: Vec<Variant>,
        /// How many tables it plays at once.
        max_tables: u32,
    },
    /// To a registered bot's `available` connection: a host invites it to a seat. Accept by
    /// sending `accept` with this `invitation` and the bot's token on a new connection, or
    /// turn it down with `decline` on this one. Unanswered after `timeout_ms`, it lapses.
    Invitation {
        /// The invitation's id, to name in `accept` or `decline`. Only the bot is told it.
        invitation: String,
        /// The table's id.
        table: String,
        /// The seat offered.
        seat: Seat,
        /// The variant played there.
        variant: Variant,
        /// Its rule options, every one spelled out.
        options: Options,
        /// Milliseconds left to take the seat.
        timeout_ms: u64,
    },
    /// To the host who invited a registered bot: how the invitation stands.
    InviteStatus {
        /// The host's handle for the invitation, the same in each of its `invite_status`
        /// messages. It is not the id the bot was sent, and answers nothing.
        invitation: String,
        /// The seat it is for.
        seat: Seat,
        /// The bot's registered name.
        bot: String,
        /// Sent, accepted, declined, expired or cancelled.
        status: InviteState,
    },
}

/// How an invitation of a registered bot stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum InviteState {
    /// Sent to the bot; waiting for its answer.
    Sent,
    /// The bot took the seat.
    Accepted,
    /// The bot said no; the seat stays free.
    Declined,
    /// The bot did not take the seat in time; the seat stays free.
    Expired,
    /// The bot went offline (or was revoked), or the seat was taken first; the seat is as it
    /// was.
    Cancelled,
}

/// A registered bot that is online, as `GET /api/bots` lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OnlineBot {
    /// Its registered name (what `invite_bot` names).
    pub name: String,
    /// Who runs it.
    pub owner: String,
    /// The variants it plays.
    pub variants: Vec<Variant>,
    /// How many tables it plays at once.
    pub max_tables: u32,
    /// Tables it could still be invited to now.
    pub free: u32,
    /// Its rating in the variant asked for; `null` while it has none (no rated match yet,
    /// or no variant asked for).
    pub rating: Option<f64>,
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
    /// Timers and pacing of the table.
    pub table_options: TableOptions,
    /// People watching.
    pub spectators: u32,
    /// Matches finished at this table.
    pub matches_played: u32,
    /// True at a practice table: created with a `seed`, so whoever knows the seed knows
    /// every deal. At other tables the server draws each match's secret from the operating
    /// system's secure random source (docs/FAIRNESS.md).
    #[serde(default)]
    pub practice: bool,
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
    /// The built-in strategy (`random`, `heuristic`, `strong`, `uva181`) of a built-in bot's
    /// seat, so clients need not read it out of the name; omitted for every other seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy: Option<String>,
    /// True for a seat given up during the match that the host opened: a newcomer may sit
    /// here now (a computer plays it meanwhile).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open: bool,
    /// The registered bot account playing the seat (it took the seat through an invitation);
    /// omitted for every other seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
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

/// Table settings that are not rules of the game: its name, timers and pacing. Every field is
/// optional in a request; absent ones take their default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct TableOptions {
    /// How long a remote bot seat may think before a built-in bot plays that turn for it.
    pub bot_timeout_ms: u64,
    /// How long a disconnected player's seat waits before a built-in bot plays it.
    pub grace_ms: u64,
    /// Pause before each built-in bot move, so people can follow the play (0: at once).
    pub bot_delay_ms: u64,
    /// Spectators may chat too (by default only the seated players may).
    pub spectator_chat: bool,
    /// Whether players may ask for a `hint` on their turn.
    pub hints: bool,
    /// What the host calls the table ("Sunday hearts"), shown in the lobby and at the table;
    /// without one the table is named after its host. At most [`MAX_TABLE_NAME_CHARS`]
    /// characters, with control and invisible formatting characters removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Whether `GET /api/tables` lists the table for anyone to find. Off by default: a table
    /// is reachable by its link only.
    pub listed: bool,
    /// How long a person may take over one move before a computer plays it and then stands
    /// in for them until they say `back` (0: no clock; the host can still hand a seat to a
    /// computer with `stand_in`). Absent in a request: [`TURN_CLOCK_PRIVATE_MS`], or
    /// [`TURN_CLOCK_LISTED_MS`] on a table listed publicly; a table always shows the value
    /// in effect.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_clock_ms: Option<u64>,
}

/// The longest table name, in characters.
pub const MAX_TABLE_NAME_CHARS: usize = 40;

/// Control characters and the invisible ones that change how text around them looks
/// (zero-width spaces and joiners, bidirectional overrides and isolates, the byte-order mark).
fn is_hidden_char(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{00AD}' | '\u{061C}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// A person's turn clock at a private table unless the request sets one: generous (ten
/// minutes), for families.
pub const TURN_CLOCK_PRIVATE_MS: u64 = 600_000;

/// A person's turn clock at a publicly listed table unless the request sets one: strangers
/// should not wait long for each other.
pub const TURN_CLOCK_LISTED_MS: u64 = 90_000;

/// The longest turn clock a request may set.
pub const TURN_CLOCK_MAX_MS: u64 = 86_400_000;

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions {
            bot_timeout_ms: 10_000,
            grace_ms: 30_000,
            bot_delay_ms: 0,
            spectator_chat: false,
            hints: true,
            name: None,
            listed: false,
            turn_clock_ms: None,
        }
    }
}

impl TableOptions {
    /// The accepted range of each option, as `(name, min, max)`.
    pub const RANGES: [(&'static str, u64, u64); 3] = [
        ("bot_timeout_ms", 1, 600_000),
        ("grace_ms", 0, 86_400_000),
        ("bot_delay_ms", 0, 10_000),
    ];

    /// Tidies the table's name: trimmed, without control characters or invisible formatting
    /// (zero-width, bidi overrides) that could disguise it; an empty name is no name.
    pub fn tidy(&mut self) {
        self.name = self.name.take().and_then(|name| {
            let name: String = name.chars().filter(|&c| !is_hidden_char(c)).collect();
            let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
            (!name.is_empty()).then_some(name)
        });
    }

    /// These options with every default filled in: the turn clock a table without one gets
    /// depends on whether it is listed publicly.
    #[must_use]
    pub fn resolved(mut self, listed: bool) -> TableOptions {
        let default = if listed {
            TURN_CLOCK_LISTED_MS
        } else {
            TURN_CLOCK_PRIVATE_MS
        };
        self.turn_clock_ms.get_or_insert(default);
        self
    }

    /// The person's turn clock in effect (`None`: no clock).
    #[must_use]
    pub fn turn_clock(&self) -> Option<u64> {
        let ms = self.turn_clock_ms.unwrap_or(TURN_CLOCK_PRIVATE_MS);
        (ms > 0).then_some(ms)
    }

    /// Refuses values outside [`TableOptions::RANGES`], a turn clock too long and names
    /// longer than [`MAX_TABLE_NAME_CHARS`], naming the option.
    pub fn check(&self) -> Result<(), String> {
        if let Some(name) = &self.name
            && name.chars().count() > MAX_TABLE_NAME_CHARS
        {
            return Err(format!(
                "the table option `name` may have at most {MAX_TABLE_NAME_CHARS} characters"
            ));
        }
        if self.turn_clock_ms.is_some_and(|ms| ms > TURN_CLOCK_MAX_MS) {
            return Err(format!(
                "the table option `turn_clock_ms` must be between 0 (no clock) and {TURN_CLOCK_MAX_MS}"
            ));
        }
        let values = [self.bot_timeout_ms, self.grace_ms, self.bot_delay_ms];
        for ((name, min, max), value) in Self::RANGES.iter().zip(values) {
            if !(*min..=*max).contains(&value) {
                return Err(format!(
                    "the table option `{name}` must be between {min} and {max}"
                ));
            }
        }
        Ok(())
    }
}

/// `POST /api/tables`: create a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTable {
    /// The variant to play.
    pub variant: Variant,
    /// Rule options; absent ones take the variant's default.
    #[serde(default)]
    pub options: Options,
    /// Timers and pacing.
    #[serde(default)]
    pub table_options: TableOptions,
    /// The first match's deal seed, for reproducible games (random when absent). Never shown
    /// to clients: it determines every hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// A practice table's board as PBN text (bridge): its `Deal` and `Board` tags become the
    /// options `deal` and `board`, so every board deals those hands. An auction or play it
    /// records must still be legal (the reader checks them); the table plays its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pbn: Option<String>,
}

/// Why a create request's PBN board cannot set up a table.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PbnSetupError {
    /// The text is not a board the PBN reader understands.
    #[error("bad PBN board: {0}")]
    Pbn(#[from] crate::bridge::pbn::PbnError),
    /// Its deal is not four hands of the standard deck.
    #[error("bad PBN board: {0}")]
    Deal(#[from] crate::rules::DealError),
    /// The deal was given both as PBN and in the options.
    #[error("give the deal once: as `pbn`, or as the options `deal` and `board`")]
    Twice,
}

impl CreateTable {
    /// Moves the `pbn` board's deal and number into the options (`pbn` is then `None`), so
    /// the table is created, stored and shown as if they had been given as options.
    pub fn take_pbn(&mut self) -> Result<(), PbnSetupError> {
        let Some(text) = self.pbn.take() else {
            return Ok(());
        };
        if self.options.deal.is_some() || self.options.board.is_some() {
            return Err(PbnSetupError::Twice);
        }
        let board = crate::bridge::pbn::read(&text)?;
        self.options.deal = Some(crate::rules::FixedDeal::new(&board.deal)?);
        self.options.board = Some(board.board.0);
        Ok(())
    }
}

/// The answer to `POST /api/tables`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CreatedTable {
    /// The new table's id, used in `join` and `watch`.
    pub id: String,
    /// The path of the invite link (`/t/{id}`).
    pub invite: String,
    /// The table.
    pub table: TableInfo,
    /// Keep this secret: `claim_host` with it makes a connection the table's host (add and
    /// remove bots, start, ...). Shown only here, once; the server keeps only its hash.
    pub host_key: String,
}

/// One variant as `GET /api/variants` lists it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct VariantInfo {
    /// The variant's name.
    pub name: &'static str,
    /// One line for people choosing a game.
    pub description: &'static str,
    /// Seats at the table; where the `players` option chooses (ohhell), its default, and
    /// `facts.player_counts` the counts allowed.
    pub players: u8,
    /// Its options, with types and defaults.
    pub options: Vec<crate::rules::OptionSpec>,
    /// Built-in bot strategies for `add_bot`, weakest first.
    pub strategies: Vec<&'static str>,
    /// What clients need to know about its rules (hand size, prize, bad-card rule, ...).
    pub facts: VariantFacts,
    /// Named house rules to offer when a table is created, the rules' own first (absent
    /// where there are none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub presets: Vec<crate::rules::Preset>,
}

impl VariantInfo {
    /// The lobby's description of `variant`.
    #[must_use]
    pub fn of(variant: Variant) -> VariantInfo {
        VariantInfo {
            name: variant.name(),
            description: variant.description(),
            players: variant.players(),
            options: variant.option_specs(),
            strategies: crate::bots::strategy_names(variant),
            facts: variant.facts(),
            presets: crate::rules::presets(variant),
        }
    }
}

/// The body of every HTTP error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct HttpError {
    /// A stable code for programs.
    pub code: String,
    /// A sentence for people.
    pub message: String,
}

/// The stable error codes the server sends besides [`ProtocolError::code`] and
/// [`crate::rules::RuleError::code`].
pub mod codes {
    /// Too many messages too fast: this one was ignored.
    pub const RATE_LIMITED: &str = "rate_limited";
    /// Binary frames are not part of the protocol.
    pub const BINARY_FRAME: &str = "binary_frame";
    /// The message needs a seat or a table, and you have not joined one.
    pub const NOT_JOINED: &str = "not_joined";
    /// You are already at a table on this connection.
    pub const ALREADY_JOINED: &str = "already_joined";
    /// No table has that id (or it was closed).
    pub const NO_SUCH_TABLE: &str = "no_such_table";
    /// The seat token is wrong, or belongs to a seat that was given up.
    pub const BAD_TOKEN: &str = "bad_token";
    /// Someone already sits there.
    pub const SEAT_TAKEN: &str = "seat_taken";
    /// Every seat is taken.
    pub const TABLE_FULL: &str = "table_full";
    /// The table has no such seat.
    pub const NO_SUCH_SEAT: &str = "no_such_seat";
    /// Spectators do not play.
    pub const NOT_SEATED: &str = "not_seated";
    /// A move named a seat that is not yours.
    pub const NOT_YOUR_SEAT: &str = "not_your_seat";
    /// Only the host may do that.
    pub const NOT_HOST: &str = "not_host";
    /// Not while a match is being played.
    pub const MATCH_IN_PROGRESS: &str = "match_in_progress";
    /// No match is being played.
    pub const NO_MATCH: &str = "no_match";
    /// The match cannot start with empty seats.
    pub const SEATS_EMPTY: &str = "seats_empty";
    /// No built-in strategy has that name for this variant.
    pub const UNKNOWN_STRATEGY: &str = "unknown_strategy";
    /// That seat does not hold a built-in bot.
    pub const NOT_A_BOT: &str = "not_a_bot";
    /// A move answered a prompt that was already answered (or played for you), or repeated a
    /// card already played: answer each prompt once.
    pub const STALE_MOVE: &str = "stale_move";
    /// A move named a prompt (`seq`) newer than any prompt you were sent.
    pub const UNKNOWN_PROMPT: &str = "unknown_prompt";
    /// HTTP: the request body is not what the endpoint takes.
    pub const BAD_REQUEST: &str = "bad_request";
    /// HTTP: no variant has that name.
    pub const UNKNOWN_VARIANT: &str = "unknown_variant";
    /// HTTP: rule options the variant does not take or out of range.
    pub const BAD_OPTIONS: &str = "bad_options";
    /// HTTP: a practice table's PBN board cannot be read, or gives the deal the options give too.
    pub const BAD_PBN: &str = "bad_pbn";
    /// HTTP: table options out of range.
    pub const BAD_TABLE_OPTIONS: &str = "bad_table_options";
    /// HTTP: the server holds as many tables as it may.
    pub const TOO_MANY_TABLES: &str = "too_many_tables";
    /// HTTP: no such page.
    pub const NOT_FOUND: &str = "not_found";
    /// Your seat was taken over by a newer connection with its token (another window or
    /// device); this connection closes next. Do not reconnect on your own: that would take
    /// the seat back from the other one.
    pub const REPLACED: &str = "replaced";
    /// The server's operator took you out of your seat; its token no longer works and this
    /// connection closes next.
    pub const KICKED: &str = "kicked";
    /// Admin: nobody sits in that seat.
    pub const SEAT_EMPTY: &str = "seat_empty";
    /// Chat: the line is longer than `MAX_CHAT_CHARS` characters, or empty.
    pub const CHAT_TOO_LONG: &str = "chat_too_long";
    /// Chat: too many lines in a short time; wait a few seconds.
    pub const CHAT_TOO_FAST: &str = "chat_too_fast";
    /// The host turned hints off for this table.
    pub const HINTS_OFF: &str = "hints_off";
    /// The server cannot save right now (its disk is full or failing): nothing was done; try
    /// again after a `storage` message with `saving: true`. Over HTTP, with status 503.
    pub const STORAGE_UNAVAILABLE: &str = "storage_unavailable";
    /// HTTP 429: this address created tables too fast, or has as many open tables as one
    /// address may; the message says which and when to try again.
    pub const TOO_MANY_REQUESTS: &str = "too_many_requests";
    /// HTTP 429: this address has as many connections open as one address may.
    pub const TOO_MANY_CONNECTIONS: &str = "too_many_connections";
    /// HTTP 503: the server has as many connections open as it may; try again shortly.
    pub const SERVER_FULL: &str = "server_full";
    /// The seat was given up during the match and a computer plays it until the match ends:
    /// only the host can open it to a newcomer (`open_seat`).
    pub const SEAT_CLOSED: &str = "seat_closed";
    /// The name poses as a computer player or the host (it says `bot`, `computer` or
    /// `host`): choose another.
    pub const BAD_NAME: &str = "bad_name";
    /// The table has as many spectators as the server allows.
    pub const TOO_MANY_SPECTATORS: &str = "too_many_spectators";
    /// `claim_host`: that is not this table's host key.
    pub const BAD_HOST_KEY: &str = "bad_host_key";
    /// `stand_in`: nobody (no person or program) holds that seat.
    pub const NO_PLAYER: &str = "no_player";
    /// `available`: the bot token is unknown or was revoked.
    pub const BAD_BOT_TOKEN: &str = "bad_bot_token";
    /// `invite_bot` (and the admin API): no registered bot of that name is online (or
    /// registered).
    pub const NO_SUCH_BOT: &str = "no_such_bot";
    /// `invite_bot`: the bot already plays as many tables as it offered.
    pub const BOT_BUSY: &str = "bot_busy";
    /// `accept` on the connection that sent `available`: take seats on new connections.
    pub const ACCEPT_ELSEWHERE: &str = "accept_elsewhere";
    /// `invite_bot`: the bot does not play this table's variant.
    pub const BOT_WRONG_VARIANT: &str = "bot_wrong_variant";
    /// `invite_bot`: that seat already has an invitation waiting for an answer.
    pub const INVITE_PENDING: &str = "invite_pending";
    /// `accept` or `decline`: no invitation has that id (unknown, or it was answered, lapsed
    /// or cancelled).
    pub const NO_SUCH_INVITATION: &str = "no_such_invitation";
    /// `accept` or `decline` not from the bot invited: `accept` needs its token, `decline`
    /// its `available` connection.
    pub const NOT_INVITED: &str = "not_invited";
    /// `available`: `max_tables` out of range.
    pub const BAD_AVAILABILITY: &str = "bad_availability";
    /// Admin API: the bot name is not 1 to 32 letters, digits, `-`, `_` or spaces, or it
    /// poses as a built-in strategy.
    pub const BAD_BOT_NAME: &str = "bad_bot_name";
    /// Admin API: a bot of that name is already registered (revoked ones included).
    pub const BOT_NAME_TAKEN: &str = "bot_name_taken";
    /// Bot accounts need the server's database; it runs with `--no-store`.
    pub const NO_STORE: &str = "no_store";
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
        "http": {
            "create_table_request": schemars::schema_for!(CreateTable),
            "create_table_response": schemars::schema_for!(CreatedTable),
            "variant": schemars::schema_for!(VariantInfo),
            "error": schemars::schema_for!(HttpError),
            "online_bot": schemars::schema_for!(OnlineBot),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compact reading of `play` agrees with `serde_json` wherever it answers, and
    /// answers the messages clients send on every move.
    #[test]
    fn a_compact_play_reads_as_serde_json_reads_it() {
        let agrees = |text: &str| {
            let fast = compact_play(text);
            if let Some(fast) = &fast {
                let slow: ClientMsg = serde_json::from_str(text).expect("serde reads it too");
                assert_eq!(fast, &slow, "{text}");
            }
            fast.is_some()
        };
        for card in crate::card::CardSet::FULL.iter() {
            assert!(agrees(&format!(r#"{{"type":"play","card":"{card}"}}"#)));
            assert!(agrees(&format!(
                r#"{{"type":"play","card":"{card}","seq":17}}"#
            )));
        }
        assert!(agrees(r#"{"type":"play","card":"10h","seq":0}"#));
        assert!(agrees(
            r#"{"type":"play","card":"qs","seq":18446744073709551615}"#
        ));
        for other in [
            r#"{"type": "play", "card": "QS"}"#,
            r#"{"type":"play","card":"QS","seat":1}"#,
            r#"{"type":"play","card":"QS","seq":01}"#,
            r#"{"type":"play","card":"QS","seq":-1}"#,
            r#"{"type":"play","card":"QS","seq":18446744073709551616}"#,
            r#"{"type":"play","card":"QS","seq":}"#,
            r#"{"type":"play","card":"QS","seq":1.5}"#,
            r#"{"type":"play","card":"Q\u0053"}"#,
            r#"{"type":"play","card":"ZZ"}"#,
            r#"{"type":"play","card":"QS"} "#,
            r#"{"type":"play","card":"QS"}}"#,
            r#"{"type":"play","card":"QS","seq":1,"seq":2}"#,
        ] {
            assert!(!agrees(other), "{other:?} goes through serde_json");
        }
    }

    proptest::proptest! {
        /// Whatever follows the compact start, the compact reading never disagrees.
        #[test]
        fn a_compact_play_never_disagrees(card in "[0-9A-Za-z\\\"]{0,4}", tail in "[0-9,:\"a-z}-]{0,12}") {
            let text = format!(r#"{{"type":"play","card":"{card}"{tail}"#);
            if let Some(fast) = compact_play(&text) {
                let slow: ClientMsg = serde_json::from_str(&text).unwrap();
                proptest::prop_assert_eq!(fast, slow);
            }
        }
    }

    #[test]
    fn client_messages_use_the_documented_shape() {
        let play = ClientMsg::parse(r#"{"type":"play","card":"QS"}"#).unwrap();
        assert_eq!(
            play,
            ClientMsg::Play {
                card: Card::QUEEN_OF_SPADES,
                seat: None,
                seq: None,
            }
        );
        let bid = ClientMsg::parse(r#"{"type":"bid","tricks":3,"seq":7}"#).unwrap();
        assert_eq!(
            bid,
            ClientMsg::Bid {
                tricks: 3,
                seat: None,
                seq: Some(7),
            }
        );
        assert_eq!(bid.action(), Some(Action::Bid { tricks: 3 }));
        let blind = ClientMsg::parse(r#"{"type":"blind_nil","seq":8}"#).unwrap();
        assert_eq!(blind.action(), Some(Action::BlindNil));
        let look = ClientMsg::parse(r#"{"type":"see_cards"}"#).unwrap();
        assert_eq!(look.action(), Some(Action::SeeCards));
        let give = ClientMsg::parse(r#"{"type":"exchange","cards":["2D","3D"],"seq":9}"#).unwrap();
        assert_eq!(
            give.action(),
            Some(Action::Exchange {
                cards: vec!["2D".parse().unwrap(), "3D".parse().unwrap()]
            })
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

    /// Every kind of call reads as sent, a serialized call reads back the same, and a call
    /// with a field no call has is refused.
    #[test]
    fn calls_read_as_sent() {
        use crate::card::Suit;
        let cases = [
            (r#"{"type":"call","call":"pass"}"#, Call::Pass),
            (
                r#"{"type":"call","call":"order_up"}"#,
                Call::OrderUp { alone: false },
            ),
            (
                r#"{"type":"call","call":"order_up","alone":true,"seq":4}"#,
                Call::OrderUp { alone: true },
            ),
            (
                r#"{"type":"call","call":"trump","suit":"H","alone":true}"#,
                Call::Trump {
                    suit: Suit::Hearts,
                    alone: true,
                },
            ),
            (
                r#"{"type":"call","call":"defend_alone","seat":1}"#,
                Call::DefendAlone,
            ),
        ];
        for (text, call) in cases {
            let msg = ClientMsg::parse(text).unwrap();
            assert_eq!(msg.action(), Some(Action::Call(call)), "{text}");
            let again = ClientMsg::parse(&serde_json::to_string(&msg).unwrap()).unwrap();
            assert_eq!(again, msg, "{text} read back");
        }
        let extra = ClientMsg::parse(r#"{"type":"call","call":"pass","card":"QS"}"#);
        assert_eq!(extra.unwrap_err().code(), "invalid_message");
        let no_suit = ClientMsg::parse(r#"{"type":"call","call":"trump"}"#);
        assert_eq!(no_suit.unwrap_err().code(), "invalid_message");
    }

    /// Every call a client may send reads back as itself, as the server's own clients write
    /// it and by hand; a call with a field of another call, or an unknown one, is refused.
    #[test]
    fn call_messages_read_back_and_refuse_stray_fields() {
        use crate::card::Suit;
        let calls = [
            Call::Pass,
            Call::OrderUp { alone: false },
            Call::OrderUp { alone: true },
            Call::Trump {
                suit: Suit::Hearts,
                alone: true,
            },
            Call::DefendAlone,
        ];
        for call in calls {
            for (seat, seq) in [(None, None), (Some(Seat(2)), Some(41))] {
                let msg = ClientMsg::Call { call, seat, seq };
                let text = serde_json::to_string(&msg).unwrap();
                assert_eq!(ClientMsg::parse(&text).unwrap(), msg, "{text}");
                assert_eq!(msg.action(), Some(Action::Call(call)));
            }
        }
        let read = |text: &str| ClientMsg::parse(text).map(|m| m.action());
        assert_eq!(
            read(r#"{"type":"call","call":"order_up","seq":3}"#).unwrap(),
            Some(Action::Call(Call::OrderUp { alone: false }))
        );
        assert_eq!(
            read(r#"{"type":"call","call":"trump","suit":"S"}"#).unwrap(),
            Some(Action::Call(Call::Trump {
                suit: Suit::Spades,
                alone: false
            }))
        );
        for bad in [
            r#"{"type":"call"}"#,
            r#"{"type":"call","call":"shout"}"#,
            r#"{"type":"call","call":"trump"}"#,
            r#"{"type":"call","call":"trump","suit":"X"}"#,
            r#"{"type":"call","call":"pass","suit":"H"}"#,
            r#"{"type":"call","call":"pass","alone":true}"#,
            r#"{"type":"call","call":"order_up","suit":"H"}"#,
            r#"{"type":"call","call":"defend_alone","extra":1}"#,
            r#"{"type":"call","call":"pass","seq":"7"}"#,
        ] {
            let err = ClientMsg::parse(bad).unwrap_err();
            assert_eq!(err.code(), "invalid_message", "{bad}: {err}");
        }
        let err = ClientMsg::parse(r#"{"type":"call","call":"pass","sauce":1}"#).unwrap_err();
        assert!(err.to_string().contains("unknown field `sauce`"), "{err}");
        let discard = ClientMsg::parse(r#"{"type":"discard","card":"9C","seq":5}"#).unwrap();
        assert_eq!(
            discard.action(),
            Some(Action::Discard {
                card: "9C".parse().unwrap()
            })
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
