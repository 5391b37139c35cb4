//! `hint`: the `heuristic` bot's move for a seat, from that seat's own view, sent to the one
//! connection that asked.
//!
//! An `impl TableActor` block. It reads the game and never changes it: a hint plays nothing,
//! and it is computed from the same `PlayerView` the player already has, so nothing secret
//! leaks.

use parlor_shared::bots::HeuristicBot;
use parlor_shared::protocol::{ServerMsg, TableStatus};
use parlor_shared::{PlayerView, RuleError};

use crate::conn::ConnId;
use crate::table::TableError;

use super::{Changes, Role, TableActor};

impl TableActor {
    /// Answers `hint` with the `heuristic` bot's move, or refuses it: hints off, a spectator,
    /// no match, or not the seat's turn.
    pub(super) fn handle_hint(&mut self, conn: ConnId, role: Role) -> Result<Changes, TableError> {
        if !self.spec.table_options.hints {
            return Err(TableError::HintsOff);
        }
        let Role::Seat(seat) = role else {
            return Err(TableError::NotSeated);
        };
        let game = match self.play.game() {
            Some(game) if self.play.status() == TableStatus::Playing => game,
            _ => return Err(TableError::NoMatch),
        };
        // The rule-of-thumb bot is cheap: computing it here does not hold up the table.
        let view = PlayerView::of(game, Some(seat));
        let action = HeuristicBot::fallback(&view).ok_or(RuleError::NotYourTurn)?;
        let hint = ServerMsg::Hint {
            seq: self.play.seq(),
            action,
        };
        Ok(self.send_to(conn, &hint))
    }
}
