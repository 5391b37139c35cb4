//! Applying moves and prompting the next player.
//!
//! An `impl TableActor` block: it changes the game only through the engine's `apply`. The
//! server's own moves are in `bots`.

use std::time::Duration;

use parlor_shared::protocol::{Occupant, ServerMsg, TableStatus};
use parlor_shared::view::json::ViewCache;
use parlor_shared::{Action, Event, Game, Seat, SeatSet};
use tokio::time::Instant;

use crate::conn::{Frame, frame_with, prompt_frame};
use crate::store::Restored;
use crate::table::TableError;

use super::sheet::SharedSheet;
use super::{Changes, TableActor};

thread_local! {
    /// The events of a move, in a buffer each runtime thread keeps for every table it runs:
    /// a buffer a move, grown event by event, was several allocations a move, and one kept by
    /// each table would hold a kilobyte or two per table between moves.
    static EVENTS: std::cell::Cell<Vec<Event>> = const { std::cell::Cell::new(Vec::new()) };
}

/// An empty buffer for a move's events (this thread's, if it is not in use).
fn take_events() -> Vec<Event> {
    EVENTS.take()
}

/// Gives a buffer taken by [`take_events`] back, emptied.
fn give_back_events(mut events: Vec<Event>) {
    events.clear();
    EVENTS.set(events);
}

/// The match and how far it went: what a move changes besides the seats.
pub(super) struct Play {
    /// The current (or last finished) match; `None` before the first start.
    game: Option<Game>,
    /// Waiting, playing or finished.
    status: TableStatus,
    /// Actions accepted in the current match: the next action's place in the stored log.
    moves: usize,
    /// The table's event counter: the number of events sent so far.
    seq: u64,
    /// The `seq` of the last event spectators were sent: the next public event's `prev`.
    last_public_event: u64,
    /// Matches finished here.
    matches_played: u32,
    /// Seats that have been sent `your_turn` and have not acted yet.
    awaiting: SeatSet,
    /// Remote bots whose time ran out: the server moves for them this turn.
    overdue: SeatSet,
    /// What the views sent at every move repeat (the score sheet, the finished tricks, the
    /// deal's commitment), as last written.
    view_cache: ViewCache,
    /// The score sheet the views sent at every move share.
    sheet: SharedSheet,
    /// The server itself started the match (the ladder): it is played to its end with nobody
    /// connected, and only then may the table go idle.
    unattended: bool,
    /// What each seat was asked and sent, and its last move.
    seats: Vec<SeatPlay>,
}

/// What one seat was asked and sent, and its last move.
#[derive(Debug, Default)]
struct SeatPlay {
    /// The `seq` of the seat's current prompt: a move answering an older one is stale.
    prompt_seq: u64,
    /// This seat's last accepted move: a repeat of it without `seq` may be a repeated answer.
    last_action: Option<Action>,
    /// The `seq` of the last event this seat was sent (or would have been, while away): the
    /// next event's `prev`, so a missed event shows.
    last_event: u64,
}

impl Play {
    /// A table's of `players` seats before its first match.
    pub(super) fn new(players: u8) -> Play {
        Play {
            game: None,
            status: TableStatus::Waiting,
            moves: 0,
            seq: 0,
            last_public_event: 0,
            matches_played: 0,
            awaiting: SeatSet::EMPTY,
            overdue: SeatSet::EMPTY,
            view_cache: ViewCache::default(),
            sheet: SharedSheet::default(),
            unattended: false,
            seats: (0..players).map(|_| SeatPlay::default()).collect(),
        }
    }

    /// Takes over the match as the store kept it (its game is taken out of `restored`).
    pub(super) fn restore(&mut self, restored: &mut Restored) {
        self.game = restored.game.take();
        self.moves = restored.log.len();
        self.seq = restored.seq;
        self.matches_played = restored.matches_played;
        self.status = restored.status;
    }

    /// The current (or last finished) match; `None` before the first start.
    pub(super) fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Waiting, playing or finished.
    pub(super) fn status(&self) -> TableStatus {
        self.status
    }

    /// The table's event counter: the number of events sent so far.
    pub(super) fn seq(&self) -> u64 {
        self.seq
    }

    /// Matches finished here.
    pub(super) fn matches_played(&self) -> u32 {
        self.matches_played
    }

    /// Numbers the next event: the counter goes up by one.
    pub(super) fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// The next public event (`seq`) is for the spectators: the `prev` it carries, the last
    /// one they had.
    pub(super) fn next_public_prev(&mut self, seq: u64) -> u64 {
        std::mem::replace(&mut self.last_public_event, seq)
    }

    /// The snapshot (`state`) of the match for `viewer` (`None`: a spectator), if there is
    /// a match.
    pub(super) fn state_frame(&mut self, viewer: Option<Seat>) -> Option<Frame> {
        let game = self.game.as_ref()?;
        let msg = ServerMsg::State {
            seq: self.seq,
            view: Box::new(self.sheet.view(game, viewer)),
        };
        Some(frame_with(&msg, Some(&mut self.view_cache)))
    }

    /// The `seq` of `seat`'s current prompt.
    pub(super) fn prompt_seq(&self, seat: Seat) -> u64 {
        self.seats[seat.index()].prompt_seq
    }

    /// `seat`'s last accepted move.
    pub(super) fn last_action(&self, seat: Seat) -> Option<&Action> {
        self.seats[seat.index()].last_action.as_ref()
    }

    /// The next event (`seq`) is for `seat`: the `prev` it carries, the last one the seat had.
    pub(super) fn next_prev(&mut self, seat: Seat, seq: u64) -> u64 {
        std::mem::replace(&mut self.seats[seat.index()].last_event, seq)
    }

    /// Forgets what `seat` was asked and sent: the seat is free.
    pub(super) fn forget_seat(&mut self, seat: Seat) {
        self.seats[seat.index()] = SeatPlay::default();
    }

    /// A new match, `game`, begins: nobody is asked yet.
    pub(super) fn begin(&mut self, game: Game) {
        self.game = Some(game);
        self.moves = 0;
        self.awaiting = SeatSet::EMPTY;
        self.overdue = SeatSet::EMPTY;
        self.status = TableStatus::Playing;
    }

    /// The match was started by the server itself: it goes on with nobody connected.
    pub(super) fn run_unattended(&mut self) {
        self.unattended = true;
    }

    /// True while a match the server started is played: the table is not idle, even empty.
    pub(super) fn goes_on_unattended(&self) -> bool {
        self.unattended && self.status == TableStatus::Playing
    }

    /// The seats sent `your_turn` that have not acted yet.
    pub(super) fn asked(&self) -> SeatSet {
        self.awaiting
    }

    /// True when `seat` was sent `your_turn` and has not acted yet.
    pub(super) fn is_asked(&self, seat: Seat) -> bool {
        self.awaiting.contains(seat)
    }

    /// `seat` is no longer waited for (gone, or played by the server): it is asked afresh
    /// when it plays its own turn again.
    pub(super) fn lapse_prompt(&mut self, seat: Seat) {
        self.awaiting.remove(seat);
    }

    /// Nothing is pending on `seat`'s turn any more: neither its prompt nor the server's
    /// move for a remote bot out of time.
    pub(super) fn clear_turn(&mut self, seat: Seat) {
        self.awaiting.remove(seat);
        self.overdue.remove(seat);
    }

    /// `seat`'s remote bot ran out of time: the server moves for it this turn.
    pub(super) fn out_of_time(&mut self, seat: Seat) {
        self.overdue.insert(seat);
    }

    /// True when `seat`'s remote bot ran out of time this turn.
    pub(super) fn is_overdue(&self, seat: Seat) -> bool {
        self.overdue.contains(seat)
    }
}

impl TableActor {
    /// Applies a move, tells everyone what happened and prompts whoever is next.
    pub(super) fn apply(&mut self, seat: Seat, action: Action) -> Result<Changes, TableError> {
        let game = self.play.game.as_mut().ok_or(TableError::NoMatch)?;
        let mut events = take_events();
        if let Err(err) = game.apply_into(seat, &action, &mut events) {
            give_back_events(events);
            return Err(err.into());
        }
        let over = game.is_over();
        let seq = self.play.seq + events.len() as u64;
        self.outbox
            .record_action(self.play.moves, seat, &action, seq);
        self.play.seats[seat.index()].last_action = Some(action.clone());
        self.play.moves += 1;
        crate::tally::MOVES.add(1);
        self.clock.set_turn(seat, None);
        self.play.clear_turn(seat);
        let mut changes = Changes::default();
        for event in events.drain(..) {
            changes.merge(self.broadcast_event(event, Some(seat)));
        }
        give_back_events(events);
        if over {
            self.play.status = TableStatus::Finished;
            self.play.matches_played += 1;
            metrics::counter!("parlor_matches_finished_total").increment(1);
            self.play.awaiting = SeatSet::EMPTY;
            self.play.overdue = SeatSet::EMPTY;
            self.clock.stop_turns();
            for seat in self.seating.all() {
                if !self.seating.is_taken(seat) {
                    // Seats given up during the match were played by a stand-in: free now.
                    self.free_seat(seat);
                }
            }
            changes.table = true;
            self.report_result();
            if let Some(host) = self.hosting.match_ended(&self.seating) {
                tracing::info!(table = %crate::store::log_tag(&self.spec.id), to = %host, "host away at the match's end: role handed on");
                changes.table = true;
            }
            tracing::info!(table = %crate::store::log_tag(&self.spec.id), moves = self.play.moves, "match over");
        } else {
            if !matches!(action, Action::Pass { .. }) {
                // The seats still asked (the second defender once the first accepted a
                // claim): any event but another seat's pass choice makes a prompt stale, so
                // the same prompt is sent again.
                changes.merge(self.prompt_again());
            }
            changes.merge(self.prompt());
        }
        Ok(changes)
    }

    /// Sends `your_turn` to every connected seat that has to act and was not asked yet, and
    /// starts the clocks: remote bots' (`bot_timeout_ms`), and people's when the table has a
    /// turn clock.
    pub(super) fn prompt(&mut self) -> Changes {
        let mut changes = Changes::default();
        let Some(game) = &self.play.game else {
            return changes;
        };
        if self.play.status != TableStatus::Playing {
            return changes;
        }
        // A prompt whose move is no longer wanted (the other defender's answer to a Bridge
        // claim one rejected) has lapsed: that seat is asked afresh when its turn comes.
        let to_act = game.to_act();
        for seat in self.play.awaiting.iter().filter(|s| !to_act.contains(*s)) {
            self.play.awaiting.remove(seat);
            self.play.overdue.remove(seat);
            self.clock.set_turn(seat, None);
        }
        let bot_timeout = self.spec.table_options.bot_timeout_ms;
        let turn_clock = self.spec.table_options.turn_clock();
        for seat in to_act.iter() {
            if self.play.awaiting.contains(seat) {
                continue;
            }
            if self.server_plays(seat) {
                continue;
            }
            // Asked now: a move must answer this prompt.
            self.play.awaiting.insert(seat);
            self.play.seats[seat.index()].prompt_seq = self.play.seq;
            let timeout = match self.seating.occupant(seat) {
                Occupant::RemoteBot => Some(bot_timeout),
                Occupant::Human => turn_clock,
                _ => None,
            };
            if let Some(ms) = timeout {
                let at = Instant::now() + Duration::from_millis(ms);
                self.clock.set_turn(seat, Some(at));
            }
            if let Some(conn) = self.seating.conn(seat) {
                // The view already holds the seat's legal moves: worked out once.
                let view = self.play.sheet.view(game, Some(seat));
                let frame = prompt_frame(self.play.seq, &view, timeout, &mut self.play.view_cache);
                if !self.outbox.queue(conn, frame) {
                    changes.dropped.push(conn.id);
                }
            }
        }
        changes
    }
}
