//! Whether the host may invite a registered bot to a seat.
//!
//! An `impl TableActor` block: it only answers; the invitation lives in the lobby's bot
//! directory, and the bot takes the seat through an ordinary join.

use parlor_shared::Seat;

use crate::conn::ConnId;
use crate::table::{Invitable, TableError};

use super::TableActor;

impl TableActor {
    /// Yes (with what the bot is told) when `conn` is the host and `seat` is free.
    pub(super) fn check_invite(&self, conn: ConnId, seat: Seat) -> Result<Invitable, TableError> {
        let role = self.seating.role_of(conn).ok_or(TableError::NotHere)?;
        self.require_host(conn, role)?;
        self.check_free(seat)?;
        Ok(Invitable {
            variant: self.spec.variant,
            options: self.spec.options.shown(),
        })
    }
}
