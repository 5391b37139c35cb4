//! One seat as the seating keeps it: who holds it, their secret token and connection. What
//! the other parts keep per seat (deadlines, prompts, the server's play) is theirs.
//!
//! Plain state of one seat; the actor decides when it changes.

use parlor_shared::protocol::Occupant;

use super::Conn;

/// Who holds one seat, and how they reach it.
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
            open: false,
            account: None,
        }
    }

    /// True when someone (or a built-in bot) holds the seat.
    #[must_use]
    pub fn is_taken(&self) -> bool {
        self.occupant != Occupant::Empty
    }

    /// Frees the seat completely (its token stops working).
    pub fn clear(&mut self) {
        *self = SeatState::empty();
    }
}

/// A fresh secret seat token: a UUID v4 (122 bits read from the operating system's random
/// source), the one source of the server's ids and tokens, written as 32 hex digits.
#[must_use]
pub fn new_token() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}
