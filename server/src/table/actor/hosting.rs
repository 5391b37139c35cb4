//! Who hosts the table, and the host's say over seats during a match. The host is whoever set the
//! table up: the holder of the host key (`claim_host`), or else the first to sit down. The role
//! stays with its holder while they are away and passes on only when they give up their seat or a
//! match ends while they are away; a key holder keeps it for good, and the key always takes it
//! back. The host can let a computer play a seat for now (`stand_in`) and open a seat given up
//! mid-match to a newcomer (`open_seat`); a player takes their seat back with `back`. An
//! `impl TableActor` block: it changes the host, stand-ins and open flags, never the game.

use parlor_shared::Seat;
use parlor_shared::protocol::{Occupant, ServerMsg, TableStatus};

use crate::conn::ConnId;
use crate::table::TableError;
use crate::table::host_key::key_matches;

use super::seating::Seating;
use super::{Changes, Role, TableActor};

/// How the host key's holder is stored in the `host` column: no seat.
pub(crate) const KEY_HOST: u8 = u8::MAX;

/// How fit `seat`'s holder is to take the host role over: people first, connected first.
fn rank(seating: &Seating, seat: Seat, connected_only: bool) -> Option<u8> {
    let connected = seating.conn(seat).is_some();
    if connected_only && !connected {
        return None;
    }
    match (seating.occupant(seat), connected) {
        (Occupant::Human, true) => Some(0),
        (Occupant::Human, false) => Some(1),
        (Occupant::RemoteBot, true) => Some(2),
        (Occupant::RemoteBot, false) => Some(3),
        _ => None,
    }
}

/// Who hosts the table, and who holds its key.
#[derive(Debug)]
pub(super) struct Hosting {
    /// The seat whose occupant may add bots and start matches.
    host: Option<Seat>,
    /// The SHA-256 (hex) of the host key, if the table has one.
    host_key: Option<String>,
    /// True when the host key's holder hosts without a seat.
    host_by_key: bool,
    /// Connections that gave the host key: they may do what the host may.
    key_hosts: Vec<ConnId>,
}

impl Hosting {
    /// A new table's: nobody hosts yet; `host_key` is the digest of its key, if it has one.
    pub(super) fn new(host_key: Option<String>) -> Hosting {
        Hosting {
            host: None,
            host_key,
            host_by_key: false,
            key_hosts: Vec::new(),
        }
    }

    /// A restored table's, from the host as the store keeps it ([`Hosting::stored`]).
    pub(super) fn restored(host_key: Option<String>, stored: Option<Seat>) -> Hosting {
        let mut hosting = Hosting::new(host_key);
        if stored == Some(Seat(KEY_HOST)) {
            hosting.host_by_key = true;
        } else {
            hosting.host = stored;
        }
        hosting
    }

    /// The seat that hosts, if a seat does.
    pub(super) fn host(&self) -> Option<Seat> {
        self.host
    }

    /// The SHA-256 (hex) of the host key, if the table has one.
    pub(super) fn key_digest(&self) -> Option<&str> {
        self.host_key.as_deref()
    }

    /// The host as the store keeps it: a seat, or [`KEY_HOST`] for the key's holder.
    pub(super) fn stored(&self) -> Option<Seat> {
        if self.host_by_key {
            Some(Seat(KEY_HOST))
        } else {
            self.host
        }
    }

    /// `conn` left the table: it no longer counts as having given the key.
    pub(super) fn forget(&mut self, conn: ConnId) {
        self.key_hosts.retain(|&c| c != conn);
    }

    /// True when `conn` (in `role`) may do what only the host may.
    pub(super) fn allows(&self, conn: ConnId, role: Role) -> bool {
        self.key_hosts.contains(&conn)
            || matches!(role, Role::Seat(seat) if self.host == Some(seat))
    }

    /// Someone sat down at `seat` without the key: they host a table nobody hosts yet.
    pub(super) fn first_to_sit(&mut self, seat: Seat) {
        if self.host.is_none() && !self.host_by_key {
            self.host = Some(seat);
        }
    }

    /// `given_up` was given up: if it hosted, the role goes to the fittest other player, if
    /// any.
    pub(super) fn seat_given_up(&mut self, given_up: Seat, seating: &Seating) {
        if self.host != Some(given_up) {
            return;
        }
        let best = seating
            .all()
            .filter(|&seat| seat != given_up)
            .filter_map(|seat| rank(seating, seat, false).map(|r| (r, seat.0)))
            .min();
        self.host = best.map(|(_, i)| Seat(i));
    }

    /// A match ended: a host who is away hands the role to a connected player, so the next
    /// match can start. The new host, if the role was handed on.
    pub(super) fn match_ended(&mut self, seating: &Seating) -> Option<Seat> {
        let host = self.host?;
        if seating.conn(host).is_some() {
            return None;
        }
        let best = seating
            .all()
            .filter_map(|seat| rank(seating, seat, true).map(|r| (r, seat.0)))
            .min();
        let (_, i) = best?;
        self.host = Some(Seat(i));
        self.host
    }
}

impl TableActor {
    /// `claim_host`: the key makes this connection the host (its seat, if it has one).
    pub(super) fn claim_host(
        &mut self,
        conn: ConnId,
        role: Role,
        key: &str,
    ) -> Result<Changes, TableError> {
        let good = self
            .hosting
            .host_key
            .as_deref()
            .is_some_and(|hash| key_matches(key, hash));
        if !good {
            tracing::info!(table = %crate::store::log_tag(&self.spec.id), conn = conn.0, "a wrong host key was refused");
            return Err(TableError::BadHostKey);
        }
        if !self.hosting.key_hosts.contains(&conn) {
            self.hosting.key_hosts.push(conn);
        }
        match role {
            Role::Seat(seat) => {
                self.hosting.host = Some(seat);
                self.hosting.host_by_key = false;
            }
            Role::Spectator => {
                self.hosting.host = None;
                self.hosting.host_by_key = true;
            }
        }
        tracing::info!(table = %crate::store::log_tag(&self.spec.id), conn = conn.0, "host key used");
        let mut changes = Changes::table_changed();
        changes.merge(self.send_to(conn, &ServerMsg::Hosting {}));
        Ok(changes)
    }

    /// `stand_in`: a computer plays a person's or program's seat until they say `back`.
    pub(super) fn stand_in(&mut self, seat: Seat) -> Result<Changes, TableError> {
        let occupant = self.seating.occupant_at(seat)?;
        if !matches!(occupant, Occupant::Human | Occupant::RemoteBot) {
            return Err(TableError::NoPlayer(seat));
        }
        if self.play.status() != TableStatus::Playing {
            return Err(TableError::NoMatch);
        }
        tracing::info!(table = %crate::store::log_tag(&self.spec.id), %seat, "the host let a computer play a seat for now");
        Ok(self.start_standing_in(seat))
    }

    /// A computer plays `seat` from now on (its holder keeps it and may come `back`).
    pub(super) fn start_standing_in(&mut self, seat: Seat) -> Changes {
        self.bots.set_standing_in(seat, true);
        self.clock.set_turn(seat, None);
        self.play.clear_turn(seat);
        Changes::table_changed()
    }

    /// `back`: the player plays their own seat again (and is asked at once if it is their turn).
    pub(super) fn back(&mut self, role: Role) -> Result<Changes, TableError> {
        let Role::Seat(seat) = role else {
            return Err(TableError::NotSeated);
        };
        if !self.bots.standing_in(seat) {
            return Ok(Changes::default());
        }
        self.bots.set_standing_in(seat, false);
        tracing::info!(table = %crate::store::log_tag(&self.spec.id), %seat, "player back from a stand-in");
        let mut changes = self.publish_table();
        changes.merge(self.prompt());
        Ok(changes)
    }

    /// `open_seat`: a newcomer may take a seat given up during the match.
    pub(super) fn open_seat(&mut self, seat: Seat) -> Result<Changes, TableError> {
        if self.seating.occupant_at(seat)? != Occupant::Empty {
            return Err(TableError::SeatTaken(seat));
        }
        if !self.vacated(seat) || self.seating.is_open(seat) {
            return Ok(Changes::default());
        }
        self.seating.open(seat);
        Ok(Changes::table_changed())
    }
}
