//! One seat of a table: who sits there, their secret token, their connection and timers.
//!
//! Plain state of one seat; the actor decides when it changes.

use parlor_shared::bots::Strategy;
use parlor_shared::protocol::{Occupant, SeatInfo};
use parlor_shared::{Action, Seat};
use tokio::time::Instant;

use super::Conn;

/// Everything a table knows about one seat.
pub struct SeatState {
    /// Nobody, a person, a built-in bot or a remote program.
    pub occupant: Occupant,
    /// The name shown.
    pub name: Option<String>,
    /// The digest ([`crate::digest`]) of the secret that gives the seat back
    /// after a lost connection; `None` when nobody holds the seat (empty, or a built-in bot).
    /// The token itself is only in the holder's `welcome`, never kept.
    pub token: Option<String>,
    /// The connection playing this seat now, if any.
    pub conn: Option<Conn>,
    /// The built-in bot's strategy, or the stand-in that plays for an absent player or a
    /// remote bot that ran out of time. Created when first needed; away while it thinks.
    pub bot: Option<Box<dyn Strategy>>,
    /// A built-in bot's strategy name (kept here: the bot itself is away while it thinks).
    pub bot_name: Option<&'static str>,
    /// True while the stand-in plays for an absent player (shown to everyone).
    pub bot_playing: bool,
    /// When an absent player's grace period ends.
    pub grace_deadline: Option<Instant>,
    /// When a remote bot's time for its current turn runs out.
    pub turn_deadline: Option<Instant>,
    /// The `seq` of the seat's current prompt: a move answering an older one is stale.
    pub prompt_seq: u64,
    /// This seat's last accepted move: a repeat of it without `seq` may be a repeated answer.
    pub last_action: Option<Action>,
    /// The `seq` of the last event this seat was sent (or would have been, while away): the
    /// next event's `prev`, so a missed event shows.
    pub last_event: u64,
    /// A seat given up during the match that the host opened to newcomers.
    pub open: bool,
    /// The registered bot account playing the seat (it took the seat by invitation).
    pub account: Option<String>,
}

impl SeatState {
    /// A free seat.
    #[must_use]
    pub fn empty() -> SeatState {
        SeatState {
            occupant: Occupant::Empty,
            name: None,
            token: None,
            conn: None,
            bot: None,
            bot_name: None,
            bot_playing: false,
            grace_deadline: None,
            turn_deadline: None,
            prompt_seq: 0,
            last_action: None,
            last_event: 0,
            open: false,
            account: None,
        }
    }

    /// True when someone (or a built-in bot) holds the seat.
    #[must_use]
    pub fn is_taken(&self) -> bool {
        self.occupant != Occupant::Empty
    }

    /// True when the server decides this seat's moves: a built-in bot, or a stand-in for an
    /// absent player.
    #[must_use]
    pub fn server_plays(&self) -> bool {
        self.occupant == Occupant::Bot || self.bot_playing
    }

    /// True for a seat given up during the match: a computer plays it, and only the host
    /// can let a newcomer have it before the match ends.
    #[must_use]
    pub fn vacated(&self) -> bool {
        self.occupant == Occupant::Empty && self.bot_playing
    }

    /// Frees the seat completely (its token stops working).
    pub fn clear(&mut self) {
        *self = SeatState::empty();
    }

    /// The seat as everyone sees it.
    #[must_use]
    pub fn info(&self, seat: Seat) -> SeatInfo {
        SeatInfo {
            seat,
            occupant: self.occupant,
            name: self.name.clone(),
            connected: self.conn.is_some(),
            bot_playing: self.bot_playing,
            strategy: self.strategy().map(str::to_string),
            open: self.open,
            account: self.account.clone(),
        }
    }

    /// A built-in bot's strategy name (`None` for every other occupant, stand-ins included).
    #[must_use]
    pub fn strategy(&self) -> Option<&'static str> {
        if self.occupant != Occupant::Bot {
            return None;
        }
        self.bot_name
    }
}

/// A fresh secret seat token: a UUID v4 (122 bits read from the operating system's random
/// source), the one source of the server's ids and tokens, written as 32 hex digits.
#[must_use]
pub fn new_token() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}
