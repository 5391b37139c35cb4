//! The server's own commands (the admin API, the ladder): closing the table, emptying a
//! seat, seating a built-in bot and starting a match without a host.
//!
//! An `impl TableActor` block: it decides what the people at the table are told and reuses
//! seating for the seat itself; the HTTP side only asks, through [`AdminCommand`].

use parlor_shared::Seat;
use parlor_shared::protocol::{Occupant, ServerMsg};

use crate::table::{AdminCommand, TableError};

use super::{Changes, Stop, TableActor};

impl TableActor {
    /// Carries out one admin command.
    pub(super) fn handle_admin(&mut self, command: AdminCommand) -> Result<Changes, TableError> {
        match command {
            AdminCommand::Close { reason } => Ok(self.close_for_good(reason.as_deref())),
            AdminCommand::Kick { seat } => self.kick(seat),
            AdminCommand::AddBot { seat, strategy } => self.add_bot(seat, &strategy),
            AdminCommand::HandOff { reason } => {
                tracing::info!(table = %crate::store::log_tag(&self.spec.id), %reason, "the table is handed off");
                Ok(Changes::stopping(Stop::HandOff(reason)))
            }
            AdminCommand::Start => {
                let changes = self.start()?;
                self.play.run_unattended();
                Ok(changes)
            }
        }
    }

    /// Tells everyone at the table why it closes and lets them go; the table then stops
    /// and is recorded closed, as an idle table is.
    fn close_for_good(&mut self, reason: Option<&str>) -> Changes {
        let reason = match reason {
            Some(why) => format!("the server's operator closed this table: {why}"),
            None => "the server's operator closed this table".to_string(),
        };
        tracing::info!(table = %crate::store::log_tag(&self.spec.id), "closed by the operator");
        let goodbye = ServerMsg::Goodbye { reason };
        let everyone = self.seating.take_everyone();
        for conn in &everyone {
            self.outbox.queue_msg(conn, &goodbye);
            self.outbox.queue_close(conn);
        }
        Changes::stopping(Stop::Close)
    }

    /// Tells everyone at the table to reconnect and lets them go, at once (not through the
    /// outbox: nothing of this is stored). For a table handed off to another node, or one
    /// whose writes that node's lease now refuses.
    pub(super) fn say_goodbye_now(&mut self, reason: &str) {
        let goodbye = crate::conn::frame(&ServerMsg::Goodbye {
            reason: reason.to_string(),
        });
        let everyone = self.seating.take_everyone();
        for conn in &everyone {
            conn.send(goodbye.clone());
            conn.finish();
        }
    }

    /// Empties `seat`: its connection is told and closed, a person's token stops working,
    /// a built-in bot goes. During a match the stand-in plays the seat, as after `leave`.
    fn kick(&mut self, seat: Seat) -> Result<Changes, TableError> {
        let occupant = self.seating.occupant_at(seat)?;
        if occupant == Occupant::Empty {
            return Err(TableError::SeatEmpty(seat));
        }
        tracing::info!(table = %crate::store::log_tag(&self.spec.id), %seat, "seat emptied by the operator");
        let (changes, conn) = self.vacate(seat);
        if let Some(conn) = conn {
            self.outbox.queue_msg(&conn, &TableError::Kicked.to_msg());
            self.outbox.queue_close(&conn);
        }
        Ok(changes)
    }
}
