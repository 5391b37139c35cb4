//! Requests from connections at the table: moves, host requests, `leave`, `sync`.
//!
//! An `impl TableActor` block: join, watch and ping never reach it (the connection's reader
//! handles them).

use parlor_shared::bots::strategy_names;
use parlor_shared::fair;
use parlor_shared::protocol::{Occupant, ServerMsg, TableStatus};
use parlor_shared::rules::first_dealer;
use parlor_shared::{Game, PlayerView, Rules, Seat};
use tokio::time::Instant;

use crate::conn::ConnId;
use crate::table::{TableError, TableRequest, secret};

use super::{Changes, Role, TableActor};

impl TableActor {
    /// A request from a connection at this table.
    pub(super) fn handle_request(
        &mut self,
        conn: ConnId,
        request: TableRequest,
    ) -> Result<Changes, TableError> {
        let role = self.seating.role_of(conn).ok_or(TableError::NotHere)?;
        match request {
            TableRequest::Move {
                action,
                seat: claimed,
                seq: answered,
            } => {
                let Role::Seat(seat) = role else {
                    return Err(TableError::NotSeated);
                };
                if let Some(claimed) = claimed
                    && claimed != seat
                {
                    return Err(TableError::NotYourSeat { seat, claimed });
                }
                if self.play.status() != TableStatus::Playing {
                    return Err(TableError::NoMatch);
                }
                self.check_answer(seat, answered, &action)?;
                self.apply(seat, action)
            }
            TableRequest::AddBot { seat, strategy } => {
                self.require_host(conn, role)?;
                self.add_bot(seat, &strategy)
            }
            TableRequest::RemoveBot { seat } => {
                self.require_host(conn, role)?;
                self.remove_bot(seat)
            }
            TableRequest::Start => {
                self.require_host(conn, role)?;
                self.start()
            }
            TableRequest::ClaimHost { key } => self.claim_host(conn, role, &key),
            TableRequest::StandIn { seat } => {
                self.require_host(conn, role)?;
                self.stand_in(seat)
            }
            TableRequest::Back => self.back(role),
            TableRequest::OpenSeat { seat } => {
                self.require_host(conn, role)?;
                self.open_seat(seat)
            }
            TableRequest::Leave => Ok(self.handle_leave(conn, role)),
            TableRequest::Sync => Ok(self.handle_sync(conn, role)),
            TableRequest::Chat { text } => self.handle_chat(conn, role, &text),
            TableRequest::Hint => self.handle_hint(conn, role),
        }
    }

    /// `sync`: a fresh snapshot for one connection, and its prompt again if it has to act.
    pub(super) fn handle_sync(&mut self, conn: ConnId, role: Role) -> Changes {
        let viewer = match role {
            Role::Seat(seat) => Some(seat),
            Role::Spectator => None,
        };
        let Some(game) = self.play.game() else {
            let table = ServerMsg::Table {
                seq: self.play.seq(),
                table: self.table_info(),
            };
            return self.send_to(conn, &table);
        };
        let state = ServerMsg::State {
            seq: self.play.seq(),
            view: Box::new(PlayerView::of(game, viewer)),
        };
        // The prompt again, with the time actually left: asking must not buy a bot more.
        let prompt = viewer.and_then(|seat| self.prompt_with_time_left(seat));
        let mut changes = self.send_to(conn, &state);
        if let Some(prompt) = prompt {
            changes.merge(self.send_to(conn, &prompt));
        }
        changes
    }

    /// `seat`'s prompt again, if it has to act now, with the time its clock has left.
    pub(super) fn prompt_with_time_left(&self, seat: Seat) -> Option<ServerMsg> {
        let game = self.play.game()?;
        if self.play.status() != TableStatus::Playing
            || !game.to_act().contains(seat)
            || self.server_plays(seat)
            || self.play.is_overdue(seat)
        {
            return None;
        }
        let left = self.clock.turn_left(seat, Instant::now());
        // The view already holds the seat's legal moves: worked out once.
        let view = PlayerView::of(game, Some(seat));
        Some(ServerMsg::YourTurn {
            // The prompt's own seq: the one a move answering it names.
            seq: self.play.prompt_seq(seat),
            legal: view.legal,
            view: Box::new(view),
            timeout_ms: left,
        })
    }

    /// Refuses host requests from anyone but the host.
    pub(super) fn require_host(&self, conn: ConnId, role: Role) -> Result<(), TableError> {
        if self.hosting.allows(conn, role) {
            Ok(())
        } else {
            Err(TableError::NotHost)
        }
    }

    /// Seats a built-in bot in an empty seat.
    pub(super) fn add_bot(&mut self, seat: Seat, name: &str) -> Result<Changes, TableError> {
        self.check_free(seat)?;
        let seed = self.bot_seed(seat);
        let bot = self
            .bots
            .make(name, self.spec.variant, seed)
            .ok_or_else(|| TableError::UnknownStrategy {
                name: name.to_string(),
                variant: self.spec.variant,
                choices: strategy_names(self.spec.variant).join(", "),
            })?;
        self.free_seat(seat);
        self.seating.seat_bot(seat, format!("{} bot", bot.name()));
        self.bots.set_strategy(seat, Some(bot.name()));
        self.play.lapse_prompt(seat);
        Ok(Changes::table_changed())
    }

    /// Takes a built-in bot out of its seat (not during a match).
    pub(super) fn remove_bot(&mut self, seat: Seat) -> Result<Changes, TableError> {
        if self.seating.occupant_at(seat)? != Occupant::Bot {
            return Err(TableError::NotABot(seat));
        }
        if self.play.status() == TableStatus::Playing {
            return Err(TableError::BotsStayUntilOver);
        }
        self.free_seat(seat);
        Ok(Changes::table_changed())
    }

    /// Starts a match once every seat is filled.
    pub(super) fn start(&mut self) -> Result<Changes, TableError> {
        if self.play.status() == TableStatus::Playing {
            return Err(TableError::AlreadyPlaying);
        }
        let empty: Vec<String> = self
            .seating
            .all()
            .filter(|&seat| !self.seating.is_taken(seat))
            .map(|seat| seat.index().to_string())
            .collect();
        if !empty.is_empty() {
            return Err(TableError::SeatsEmpty(empty.join(", ")));
        }
        let (seed, master) = match self.spec.seed {
            Some(seed) => {
                let seed = seed.wrapping_add(u64::from(self.play.matches_played()));
                (seed, fair::practice_master(seed))
            }
            None => (0, secret::fresh_master()),
        };
        let rules =
            Rules::new(self.spec.variant, &self.spec.options).expect("options were checked");
        let dealer = first_dealer(rules.players(), self.play.matches_played() + 1);
        let game = Game::with_master_dealt_by(rules, master, dealer);
        let opening = game.opening_events();
        self.outbox
            .record_match_started(seed, master, self.play.seq() + opening.len() as u64);
        self.play.begin(game);
        tracing::info!(table = %crate::store::log_tag(&self.spec.id), match_number = self.play.matches_played() + 1, "match started");
        let mut changes = self.publish_table();
        for event in opening {
            changes.merge(self.broadcast_event(event, None));
        }
        changes.merge(self.send_states());
        changes.merge(self.prompt());
        Ok(changes)
    }
}
