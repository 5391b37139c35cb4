//! Applying moves, prompting the next player, and the server's own bot moves.
//!
//! An `impl TableActor` block: it changes the game only through the engine's `apply`.

use std::time::Duration;

use parlor_shared::bots::HeuristicBot;
use parlor_shared::protocol::{Occupant, ServerMsg, TableStatus};
use parlor_shared::{Action, Game, PlayerView, Seat, SeatSet};
use tokio::time::Instant;

use crate::table::TableError;
use crate::table::seats::stand_in;

use super::TableActor;

impl TableActor {
    /// Applies a move, tells everyone what happened and prompts whoever is next.
    pub(super) fn apply(&mut self, seat: Seat, action: Action) -> Result<(), TableError> {
        let game = self.game.as_mut().ok_or(TableError::NoMatch)?;
        let events = game.apply(seat, &action)?;
        let over = game.is_over();
        let seq = self.seq + events.len() as u64;
        self.outbox.record_action(self.moves, seat, &action, seq);
        self.moves += 1;
        metrics::counter!("parlor_moves_total").increment(1);
        self.seats[seat.index()].turn_deadline = None;
        self.awaiting.remove(seat);
        for event in events {
            self.broadcast_event(event);
        }
        if over {
            self.status = TableStatus::Finished;
            self.matches_played += 1;
            metrics::counter!("parlor_matches_finished_total").increment(1);
            self.awaiting = SeatSet::EMPTY;
            for state in &mut self.seats {
                state.turn_deadline = None;
                if !state.is_taken() {
                    // Seats given up during the match were played by a stand-in: free now.
                    state.clear();
                }
            }
            self.dirty = true;
            tracing::info!(table = %self.id, moves = self.moves, "match over");
        } else {
            self.prompt();
        }
        Ok(())
    }

    /// Sends `your_turn` to every connected seat that has to act and was not asked yet, and
    /// starts remote bots' clocks.
    pub(super) fn prompt(&mut self) {
        let Some(game) = &self.game else { return };
        if self.status != TableStatus::Playing {
            return;
        }
        let timeout = self.table_options.bot_timeout_ms;
        for seat in game.to_act().iter() {
            if self.awaiting.contains(seat) {
                continue;
            }
            let state = &mut self.seats[seat.index()];
            if state.server_plays() {
                continue;
            }
            self.awaiting.insert(seat);
            state.prompt_seq = self.seq;
            let remote_bot = state.occupant == Occupant::RemoteBot;
            if remote_bot {
                state.turn_deadline = Some(Instant::now() + Duration::from_millis(timeout));
            }
            if let Some(conn) = &state.conn {
                let msg = ServerMsg::YourTurn {
                    seq: self.seq,
                    legal: game.legal_actions(seat),
                    timeout_ms: remote_bot.then_some(timeout),
                };
                if !self.outbox.queue_msg(conn, &msg) {
                    self.dropped.push(conn.id);
                }
            }
        }
    }

    /// The first seat the server has to move for now, if any.
    pub(super) fn next_bot_seat(&self) -> Option<Seat> {
        if self.status != TableStatus::Playing {
            return None;
        }
        let game = self.game.as_ref()?;
        game.to_act()
            .iter()
            .find(|seat| self.seats[seat.index()].server_plays())
    }

    /// Makes one built-in bot move, if one is due.
    pub(super) fn bot_move(&mut self) {
        if let Some(seat) = self.next_bot_seat() {
            self.server_move(seat);
        }
    }

    /// The server moves for `seat`: its built-in bot, or a stand-in.
    pub(super) fn server_move(&mut self, seat: Seat) {
        let Some(game) = &self.game else { return };
        let view = PlayerView::of(game, Some(seat));
        let seed = self.bot_seed(seat);
        let variant = self.variant;
        let bot = self.seats[seat.index()]
            .bot
            .get_or_insert_with(|| stand_in(variant, seed));
        let mut action = bot.choose(&view);
        if !view.legal.allows(&action) {
            tracing::warn!(table = %self.id, %seat, bot = bot.name(), "bot chose an illegal move");
            match HeuristicBot::fallback(&view) {
                Some(fallback) => action = fallback,
                None => return,
            }
        }
        if let Err(err) = self.apply(seat, action) {
            tracing::error!(table = %self.id, %seat, %err, "a legal bot move was refused");
        }
    }

    /// A seed for a seat's bot, fixed by the table's seed when it has one.
    pub(super) fn bot_seed(&self, seat: Seat) -> u64 {
        let base = self
            .game
            .as_ref()
            .map_or(self.seed.unwrap_or(0), Game::seed);
        base.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(u64::from(seat.0) + 1)
    }
}
