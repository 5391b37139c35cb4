//! Taking seats, watching, leaving and losing the connection.
//!
//! An `impl TableActor` block: it changes seats and connections, never the game.

use std::time::Duration;

use parlor_shared::protocol::{Occupant, PROTOCOL_VERSION, SeatInfo, ServerMsg, TableStatus};
use parlor_shared::{PlayerView, Seat};
use tokio::time::Instant;

use crate::conn::{Conn, ConnId};
use crate::digest::of_secret;
use crate::store::{RestoredSeat, SeatRow};
use crate::table::JoinRequest;
use crate::table::TableError;
use crate::table::names::clean_name;
use crate::table::seats::{SeatState, new_token};

use super::bots::TableBots;
use super::{Changes, Role, TableActor};

/// The seats and who watches.
pub(super) struct Seating {
    /// One entry per seat.
    seats: Vec<SeatState>,
    /// Connections watching.
    spectators: Vec<Conn>,
    /// The most spectators at once.
    max_spectators: usize,
    /// True once a person or a remote program has sat at the table (restored tables that
    /// played count): until then an empty table is deleted when it closes.
    ever_seated: bool,
}

impl Seating {
    /// `players` empty seats, and room for `max_spectators`.
    pub(super) fn new(players: u8, max_spectators: usize) -> Seating {
        Seating {
            seats: (0..players).map(|_| SeatState::empty()).collect(),
            spectators: Vec::new(),
            max_spectators,
            ever_seated: false,
        }
    }

    /// Who `conn` is here.
    pub(super) fn role_of(&self, conn: ConnId) -> Option<Role> {
        let seated = |s: &SeatState| s.conn.as_ref().is_some_and(|c| c.id == conn);
        if let Some(i) = self.seats.iter().position(seated) {
            return Some(Role::Seat(Seat(i as u8)));
        }
        let watching = self.spectators.iter().any(|c| c.id == conn);
        watching.then_some(Role::Spectator)
    }

    /// The connections watching.
    pub(super) fn spectators(&self) -> &[Conn] {
        &self.spectators
    }

    /// True once a person or a remote program has sat at the table, or it played before a
    /// restart: it is kept when it closes.
    pub(super) fn ever_seated(&self) -> bool {
        self.ever_seated
    }

    /// Notes whether a person or a remote program holds a seat now (built-in bots do not
    /// count).
    pub(super) fn note_who_sits(&mut self) {
        self.ever_seated |= self
            .seats
            .iter()
            .any(|s| matches!(s.occupant, Occupant::Human | Occupant::RemoteBot));
    }

    /// The table played before a restart: it counts as sat at.
    pub(super) fn note_played_before(&mut self) {
        self.ever_seated = true;
    }

    /// Every connection at the table: the seated ones, then the spectators.
    pub(super) fn connected(&self) -> impl Iterator<Item = &Conn> {
        let seated = self.seats.iter().filter_map(|s| s.conn.as_ref());
        seated.chain(&self.spectators)
    }

    /// The connection `conn` at this table, seated or watching.
    pub(super) fn conn_of(&self, conn: ConnId) -> Option<&Conn> {
        self.connected().find(|c| c.id == conn)
    }

    /// Connections at the table, seated or watching.
    pub(super) fn connections(&self) -> usize {
        let seated = self.seats.iter().filter(|s| s.conn.is_some()).count();
        seated + self.spectators.len()
    }

    /// Every seat, in order.
    pub(super) fn all(&self) -> impl Iterator<Item = Seat> + use<> {
        (0..self.seats.len() as u8).map(Seat)
    }

    /// Who holds `seat`.
    pub(super) fn occupant(&self, seat: Seat) -> Occupant {
        self.seats[seat.index()].occupant
    }

    /// Who holds `seat`, refused when there is no such seat.
    pub(super) fn occupant_at(&self, seat: Seat) -> Result<Occupant, TableError> {
        let state = self.seats.get(seat.index());
        state
            .map(|s| s.occupant)
            .ok_or(TableError::NoSuchSeat(seat))
    }

    /// True when someone (or a built-in bot) holds `seat`.
    pub(super) fn is_taken(&self, seat: Seat) -> bool {
        self.seats[seat.index()].is_taken()
    }

    /// The connection playing `seat` now, if any.
    pub(super) fn conn(&self, seat: Seat) -> Option<&Conn> {
        self.seats[seat.index()].conn.as_ref()
    }

    /// The name shown for `seat`.
    pub(super) fn name(&self, seat: Seat) -> Option<&str> {
        self.seats[seat.index()].name.as_deref()
    }

    /// The registered bot account playing `seat`, if one is.
    pub(super) fn account(&self, seat: Seat) -> Option<&str> {
        self.seats[seat.index()].account.as_deref()
    }

    /// True when the host opened `seat` to newcomers.
    pub(super) fn is_open(&self, seat: Seat) -> bool {
        self.seats[seat.index()].open
    }

    /// The host opens `seat` to newcomers.
    pub(super) fn open(&mut self, seat: Seat) {
        self.seats[seat.index()].open = true;
    }

    /// A built-in bot holds `seat`, under `name`.
    pub(super) fn seat_bot(&mut self, seat: Seat, name: String) {
        let state = &mut self.seats[seat.index()];
        state.clear();
        state.occupant = Occupant::Bot;
        state.name = Some(name);
    }

    /// Frees `seat` completely (its token stops working).
    pub(super) fn clear(&mut self, seat: Seat) {
        self.seats[seat.index()].clear();
    }

    /// The seats as everyone sees them; `bots` says which the server plays, and how.
    pub(super) fn infos(&self, bots: &TableBots) -> Vec<SeatInfo> {
        let infos = self.all().map(|seat| {
            let s = &self.seats[seat.index()];
            SeatInfo {
                seat,
                occupant: s.occupant,
                name: s.name.clone(),
                connected: s.conn.is_some(),
                bot_playing: bots.standing_in(seat),
                strategy: strategy(s, seat, bots).map(str::to_string),
                open: s.open,
                account: s.account.clone(),
            }
        });
        infos.collect()
    }

    /// The seats as the store keeps them; `bots` says which the server plays, and how.
    pub(super) fn seat_rows(&self, bots: &TableBots) -> Vec<SeatRow> {
        let rows = self.all().map(|seat| {
            let s = &self.seats[seat.index()];
            SeatRow {
                seat: seat.0,
                occupant: s.occupant,
                name: s.name.clone(),
                token: s.token.clone(),
                strategy: strategy(s, seat, bots).map(str::to_string),
                bot_playing: bots.standing_in(seat),
                account: s.account.clone(),
            }
        });
        rows.collect()
    }

    /// Takes `seat` back as the store kept it (nobody connected).
    pub(super) fn restore(&mut self, seat: Seat, saved: &RestoredSeat) {
        let state = &mut self.seats[seat.index()];
        state.occupant = saved.occupant;
        state.name.clone_from(&saved.name);
        state.token.clone_from(&saved.token);
        state.account.clone_from(&saved.account);
    }
    /// Lets every connection go: the seated ones (the seats stay theirs), then the spectators.
    pub(super) fn take_everyone(&mut self) -> Vec<Conn> {
        let seated = self.seats.iter_mut().filter_map(|s| s.conn.take());
        seated.chain(self.spectators.drain(..)).collect()
    }
}

/// A built-in bot's strategy name (`None` for every other occupant, stand-ins included).
fn strategy(state: &SeatState, seat: Seat, bots: &TableBots) -> Option<&'static str> {
    if state.occupant != Occupant::Bot {
        return None;
    }
    bots.strategy(seat)
}

impl TableActor {
    /// Seats a connection: back into its own seat with a token, or into a free one.
    pub(super) fn handle_join(
        &mut self,
        conn: Conn,
        request: JoinRequest,
    ) -> Result<Changes, TableError> {
        let (seat, token) = match &request.token {
            Some(token) => (self.reclaim(&conn, token)?, token.clone()),
            None => {
                let name = clean_name(request.name.as_deref(), request.bot)?;
                self.take_free_seat(&request, name)?
            }
        };
        let state = &mut self.seating.seats[seat.index()];
        state.conn = Some(conn.clone());
        state.open = false;
        self.clock.set_grace(seat, None);
        self.bots.set_standing_in(seat, false);
        // Back in time for a turn the server was about to play: the seat decides it.
        self.play.clear_turn(seat);
        self.hosting.first_to_sit(seat);
        tracing::info!(table = %crate::store::log_tag(&self.spec.id), %seat, conn = conn.id.0, "seat taken");
        self.outbox.queue_msg(
            &conn,
            &ServerMsg::Welcome {
                protocol: PROTOCOL_VERSION,
                table: self.spec.id.clone(),
                seat: Some(seat),
                token: Some(token),
                host: self.hosting.host() == Some(seat),
                practice: self.spec.is_practice(),
                name: self.seating.seats[seat.index()].name.clone(),
            },
        );
        let mut changes = self.publish_table();
        self.send_snapshot(&conn, Some(seat));
        changes.merge(self.send_recent_chat(&conn));
        changes.merge(self.prompt());
        Ok(changes)
    }

    /// The seat whose token this is, disconnecting whoever played it before.
    pub(super) fn reclaim(&mut self, conn: &Conn, token: &str) -> Result<Seat, TableError> {
        let digest = of_secret(token);
        let index = self
            .seating
            .seats
            .iter()
            .position(|s| s.token.as_deref() == Some(digest.as_str()))
            .ok_or(TableError::BadToken)?;
        if let Some(old) = self.seating.seats[index].conn.take()
            && old.id != conn.id
        {
            // Told why before it closes, so its page stops instead of taking the seat back.
            tracing::info!(table = %crate::store::log_tag(&self.spec.id), seat = index, conn = old.id.0, "seat taken over by a newer connection");
            self.outbox.queue_msg(&old, &TableError::Replaced.to_msg());
            self.outbox.queue_close(&old);
        }
        Ok(Seat(index as u8))
    }

    /// Refuses a seat that does not exist or is taken.
    pub(super) fn check_free(&self, seat: Seat) -> Result<(), TableError> {
        if self.seating.occupant_at(seat)? != Occupant::Empty {
            return Err(TableError::SeatTaken(seat));
        }
        Ok(())
    }

    /// True for a seat given up during the match: a computer plays it, and only the host
    /// can let a newcomer have it before the match ends.
    pub(super) fn vacated(&self, seat: Seat) -> bool {
        self.seating.occupant(seat) == Occupant::Empty && self.bots.standing_in(seat)
    }

    /// True when the server decides `seat`'s moves: a built-in bot, or a stand-in for an
    /// absent player.
    pub(super) fn server_plays(&self, seat: Seat) -> bool {
        self.bots.server_plays(seat, self.seating.occupant(seat))
    }

    /// Frees `seat` completely (its token stops working), and every part forgets it.
    pub(super) fn free_seat(&mut self, seat: Seat) {
        self.seating.clear(seat);
        self.clock.stop_seat(seat);
        self.play.forget_seat(seat);
        self.bots.forget_seat(seat);
    }

    /// A free seat (the one asked for, or the first), now held by the joining connection
    /// under `name`, and its fresh token (the seat keeps only the token's digest). A seat given up during the match is free only once the host opened it:
    /// otherwise a second window of a player could take it and see two hands.
    pub(super) fn take_free_seat(
        &mut self,
        request: &JoinRequest,
        name: Option<String>,
    ) -> Result<(Seat, String), TableError> {
        let closed = |seat: Seat| self.vacated(seat) && !self.seating.is_open(seat);
        let index = match request.seat {
            Some(seat) => {
                self.check_free(seat)?;
                if closed(seat) {
                    return Err(TableError::SeatClosed(seat));
                }
                seat.index()
            }
            None => match self
                .seating
                .all()
                .find(|&s| !self.seating.is_taken(s) && !closed(s))
            {
                Some(seat) => seat.index(),
                None => {
                    let closed = self.seating.all().find(|&s| closed(s));
                    return Err(closed.map_or(TableError::TableFull, TableError::SeatClosed));
                }
            },
        };
        let state = &mut self.seating.seats[index];
        state.occupant = if request.bot || request.account.is_some() {
            Occupant::RemoteBot
        } else {
            Occupant::Human
        };
        state.name = request.account.clone().or(name);
        state.account.clone_from(&request.account);
        let token = new_token();
        state.token = Some(of_secret(&token));
        Ok((Seat(index as u8), token))
    }

    /// Adds a spectator, unless the table has as many as it may.
    pub(super) fn handle_watch(&mut self, conn: Conn) -> Result<Changes, TableError> {
        if self.seating.spectators.len() >= self.seating.max_spectators {
            return Err(TableError::TooManySpectators(self.seating.max_spectators));
        }
        self.outbox.queue_msg(
            &conn,
            &ServerMsg::Welcome {
                protocol: PROTOCOL_VERSION,
                table: self.spec.id.clone(),
                seat: None,
                token: None,
                host: false,
                practice: self.spec.is_practice(),
                name: None,
            },
        );
        self.seating.spectators.push(conn.clone());
        let mut changes = self.publish_table();
        self.send_snapshot(&conn, None);
        changes.merge(self.send_recent_chat(&conn));
        Ok(changes)
    }

    /// A newcomer's first picture of the game, if one is being played.
    fn send_snapshot(&mut self, conn: &Conn, viewer: Option<Seat>) {
        if let Some(game) = self.play.game() {
            let state = ServerMsg::State {
                seq: self.play.seq(),
                view: Box::new(PlayerView::of(game, viewer)),
            };
            self.outbox.queue_msg(conn, &state);
        }
    }

    /// A connection went away: its seat waits for it (a grace period), or it stops watching.
    pub(super) fn handle_disconnect(&mut self, conn: ConnId) -> Changes {
        self.hosting.forget(conn);
        match self.seating.role_of(conn) {
            Some(Role::Seat(seat)) => {
                let grace = Duration::from_millis(self.spec.table_options.grace_ms);
                self.seating.seats[seat.index()].conn = None;
                self.clock.set_grace(seat, Some(Instant::now() + grace));
                self.play.lapse_prompt(seat);
                tracing::info!(table = %crate::store::log_tag(&self.spec.id), %seat, conn = conn.0, "player disconnected");
                Changes::table_changed()
            }
            Some(Role::Spectator) => {
                self.seating.spectators.retain(|c| c.id != conn);
                Changes::table_changed()
            }
            None => Changes::default(),
        }
    }

    /// Empties a seat for good (its token stops working) and returns what changed with the
    /// seat's connection: during a match the stand-in keeps playing it until someone sits
    /// down.
    pub(super) fn vacate(&mut self, seat: Seat) -> (Changes, Option<Conn>) {
        let state = &mut self.seating.seats[seat.index()];
        let conn = state.conn.take();
        if self.play.status() == TableStatus::Playing {
            // The match goes on: a built-in bot keeps the seat until someone sits.
            state.occupant = Occupant::Empty;
            state.name = None;
            state.token = None;
            state.account = None;
            state.open = false;
            self.bots.set_strategy(seat, None);
            self.bots.set_standing_in(seat, true);
            self.clock.stop_seat(seat);
        } else {
            self.free_seat(seat);
        }
        self.play.lapse_prompt(seat);
        self.hosting.seat_given_up(seat, &self.seating);
        (Changes::table_changed(), conn)
    }

    /// `leave`: the seat is given up for good (its token stops working).
    pub(super) fn handle_leave(&mut self, conn: ConnId, role: Role) -> Changes {
        self.hosting.forget(conn);
        let (changes, conn) = match role {
            Role::Seat(seat) => self.vacate(seat),
            Role::Spectator => {
                let index = self.seating.spectators.iter().position(|c| c.id == conn);
                let conn = index.map(|i| self.seating.spectators.swap_remove(i));
                (Changes::table_changed(), conn)
            }
        };
        if let Some(conn) = conn {
            self.outbox.queue_msg(
                &conn,
                &ServerMsg::Table {
                    seq: self.play.seq(),
                    table: self.table_info(),
                },
            );
        }
        changes
    }
}
