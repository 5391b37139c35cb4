//! The table actor: one task per table. It waits on its mailbox, its timer ([`Clock`]), the
//! store's acknowledgement of an earlier step and the answer of the bot thinking for it
//! ([`super::thinking`]). Each of those is a step that returns its [`Changes`], acted on in one
//! place ([`TableActor::settle`]). What a step sends goes out once the store has committed the
//! step ([`Outbox`]); meanwhile the next message is handled, so players acting at once share a
//! group commit. Besides what the table is ([`Spec`]), the state is split into parts (seats,
//! host, play, clock, bots, chat), each kept by the child module that changes it, with its own
//! per-seat data. It never touches a socket nor the lobby.

use std::time::Duration;

use parlor_shared::protocol::{Occupant, TableInfo, TableOptions, TableStatus};
use parlor_shared::rules::{OptionsError, Rules};
use parlor_shared::{Options, Seat, Variant};
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use self::bots::TableBots;
use self::clock::Clock;
use self::hosting::Hosting;
use self::play::Play;
use self::seating::Seating;
use super::outbox::{MAX_IN_FLIGHT, Outbox};
use super::thinking::Bots;
use super::{MAILBOX, TableError, TableHandle, TableMsg, TableRequest};
use crate::conn::{ConnId, Receiver, bounded};
use crate::ratings::Ratings;
use crate::store::{Restored, SharedLog};

mod admin;
mod answers;
mod bots;
mod chat;
mod clock;
mod hint;
mod hosting;
mod invite;
mod play;
mod requests;
mod results;
mod seating;
mod send;
mod sheet;
mod storage;

/// What a new table is made of.
#[derive(Debug, Clone)]
pub struct TableSetup {
    /// The table's id.
    pub id: String,
    /// The variant played.
    pub variant: Variant,
    /// Rule options as asked for (checked here).
    pub options: Options,
    /// Timers and pacing.
    pub table_options: TableOptions,
    /// The first match's seed; later matches count up from it. Only for practice tables,
    /// which say so to everyone; `None`: each match's secret comes from the OS.
    pub seed: Option<u64>,
    /// How long the table lives with nobody connected.
    pub idle_ttl: Duration,
    /// How long it lives with nobody connected while nobody has ever sat at it (then it is
    /// deleted, not kept).
    pub unsat_ttl: Duration,
    /// Where the table's setup, seats and actions are logged (`None`: nowhere).
    pub store: Option<SharedLog>,
    /// The table as rebuilt from the store after a restart; `None` for a new table.
    pub restored: Option<Box<Restored>>,
    /// Where finished matches' results go (the board shared with the whole server).
    pub ratings: Ratings,
    /// The SHA-256 (hex) of the table's host key, if it has one.
    pub host_key: Option<String>,
    /// The most spectators at once.
    pub max_spectators: usize,
}

/// The `goodbye` of a table whose writes were refused because another node of the cluster
/// owns it now: reconnecting (to the same address) reaches that node.
const FENCED_GOODBYE: &str =
    "this table has moved to another server of the cluster: reconnect to go on";

/// Spectators a table takes unless the server says otherwise.
pub const DEFAULT_MAX_SPECTATORS: usize = 50;

/// Starts a table's actor and returns its handle. `on_close` runs when the actor stops (the
/// lobby forgets the table then).
pub fn spawn(
    setup: TableSetup,
    shutdown: CancellationToken,
    on_close: impl FnOnce() + Send + 'static,
) -> Result<TableHandle, OptionsError> {
    start(setup, Bots::shared(), shutdown, on_close)
}

/// [`spawn`] with the table's bots made and run by `bots` (tests bring their own).
pub(super) fn start(
    setup: TableSetup,
    bots: Bots,
    shutdown: CancellationToken,
    on_close: impl FnOnce() + Send + 'static,
) -> Result<TableHandle, OptionsError> {
    let rules = Rules::new(setup.variant, &setup.options)?;
    let (tx, rx) = bounded(MAILBOX);
    let players = rules.players();
    let mut actor = TableActor {
        spec: Spec {
            id: setup.id.clone(),
            variant: setup.variant,
            options: rules.options(),
            table_options: setup.table_options,
            seed: setup.seed,
        },
        play: Play::new(players),
        seating: Seating::new(players, setup.max_spectators),
        hosting: Hosting::new(setup.host_key.clone()),
        bots: TableBots::new(bots, players),
        rx,
        info: watch::channel(placeholder_info(&setup.id, setup.variant)).0,
        clock: Clock::new(players, setup.idle_ttl, setup.unsat_ttl),
        shutdown,
        outbox: Outbox::new(setup.store.clone(), &setup.id, 0),
        chat: chat::ChatLog::default(),
        ratings: setup.ratings,
        pause: storage::Pause::new(setup.store.as_ref()),
    };
    let first = match setup.restored {
        Some(restored) => actor.restore(*restored),
        None => {
            actor.outbox.record_table_created(
                actor.spec.variant,
                &actor.spec.options,
                &actor.spec.table_options,
                actor.spec.seed,
                actor.hosting.key_digest().map(str::to_string),
            );
            Changes::default()
        }
    };
    actor.info.send_replace(actor.table_info());
    let handle = TableHandle {
        id: setup.id,
        tx,
        info: actor.info.subscribe(),
    };
    tokio::spawn(async move {
        actor.run(first).await;
        on_close();
    });
    Ok(handle)
}

/// A stand-in description, replaced before anyone can read it.
pub(super) fn placeholder_info(id: &str, variant: Variant) -> TableInfo {
    TableInfo {
        id: id.to_string(),
        variant,
        options: Options::default(),
        status: TableStatus::Waiting,
        seats: Vec::new(),
        host: None,
        table_options: TableOptions::default(),
        spectators: 0,
        matches_played: 0,
        practice: false,
    }
}

/// Who a connection is at this table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// It holds this seat.
    Seat(Seat),
    /// It watches.
    Spectator,
}

/// What one step changed that the loop acts on once the step is done ([`TableActor::settle`]).
/// Each step (a message, a timer, a bot's answer, the store's flag) returns one, made of
/// what the helpers it called returned.
#[derive(Debug, Default)]
#[must_use]
struct Changes {
    /// The seats, the host or the status changed: the table is published and `table` sent.
    table: bool,
    /// Connections found gone or too slow while sending: handled as disconnections.
    dropped: Vec<ConnId>,
    /// The actor stops after this step.
    stop: Option<Stop>,
}

/// How the actor stops.
#[derive(Debug)]
enum Stop {
    /// The table closes: recorded closed (or deleted, if nobody ever sat at it).
    Close,
    /// The table goes on on another node: everyone is told why (this reason) and to
    /// reconnect, and nothing is recorded.
    HandOff(String),
}

impl Changes {
    /// Adds what a later step changed.
    fn merge(&mut self, later: Changes) {
        self.table |= later.table;
        self.dropped.extend(later.dropped);
        self.stop = self.stop.take().or(later.stop);
    }

    /// A step that only found `dropped` gone.
    fn dropping(dropped: Vec<ConnId>) -> Changes {
        Changes {
            dropped,
            ..Changes::default()
        }
    }

    /// The seats, the host or the status changed.
    fn table_changed() -> Changes {
        Changes {
            table: true,
            ..Changes::default()
        }
    }

    /// The actor stops after this step, as `stop` says.
    fn stopping(stop: Stop) -> Changes {
        Changes {
            stop: Some(stop),
            ..Changes::default()
        }
    }
}

/// The changes of a step that may be refused, and whether it was: `Ok(())` or the refusal,
/// which changed nothing.
fn split(result: Result<Changes, TableError>) -> (Changes, Result<(), TableError>) {
    match result {
        Ok(changes) => (changes, Ok(())),
        Err(err) => (Changes::default(), Err(err)),
    }
}

/// What a table is, fixed when it is made: every part reads it, none changes it.
struct Spec {
    /// The table's id.
    id: String,
    /// The variant played.
    variant: Variant,
    /// Every rule option, spelled out.
    options: Options,
    /// Timers and pacing.
    table_options: TableOptions,
    /// The first match's seed at a practice table (its creator chose it; later matches count
    /// up from it). `None` at every other table: each match's secret is drawn from the OS.
    seed: Option<u64>,
}

impl Spec {
    /// A practice table: its creator chose the deals, by a seed or a fixed deal, so whoever
    /// knows that knows every hand; everyone is told.
    fn is_practice(&self) -> bool {
        self.seed.is_some() || self.options.deal.is_some()
    }
}

/// The owner of one table: what it is ([`Spec`]), and the parts its child modules keep.
struct TableActor {
    /// What the table is: fixed when it is made.
    spec: Spec,
    /// The match, the table's event counter and who is asked to move.
    play: Play,
    /// The seats and the spectators.
    seating: Seating,
    /// Who hosts, and who gave the host key.
    hosting: Hosting,
    /// Where the table's bots come from, and the one thinking now.
    bots: TableBots,
    /// The mailbox: messages from connections.
    rx: Receiver<TableMsg>,
    /// Publishes the lobby's description of the table.
    info: watch::Sender<TableInfo>,
    /// The timer, and the table's own deadlines.
    clock: Clock,
    /// Cancelled when the server stops.
    shutdown: CancellationToken,
    /// Logs the table to the store, and holds each step's output until that is committed.
    outbox: Outbox,
    /// The recent chat lines (also in the table's log) and who spoke when.
    chat: chat::ChatLog,
    /// The server's ratings, told of each finished match.
    ratings: Ratings,
    /// Paused while the store cannot write.
    pause: storage::Pause,
}

impl TableActor {
    /// The actor's loop: one message, timer, bot answer or bot start per turn of the loop.
    async fn run(&mut self, first: Changes) {
        tracing::info!(table = %crate::store::log_tag(&self.spec.id), variant = %self.spec.variant, "table opened");
        // A child of the server's token, so that a check locks only this table's node, where
        // the server's own token would be one lock for every table; and watched, so that a
        // turn of the loop woken by anything else does not lock it at all.
        let shutdown = self.shutdown.child_token();
        let wait = shutdown.cancelled();
        tokio::pin!(wait);
        let mut stopping = crate::conn::CancelWatch::new(wait);
        let mut changes = first;
        changes.merge(self.storage_changed(self.pause.saving_at_start()));
        loop {
            let stop = changes.stop.take();
            self.settle(changes);
            // What a step changed is on disk before anyone hears of it; the next message
            // need not wait for that, only the step's output does.
            loop {
                let dropped = self.outbox.seal();
                if dropped.is_empty() {
                    break;
                }
                self.settle(Changes::dropping(dropped));
            }
            if let Some(Stop::HandOff(reason)) = &stop {
                self.outbox.flush().await;
                if !self.outbox.is_fenced() {
                    self.say_goodbye_now(reason);
                    break;
                }
            }
            if self.outbox.is_fenced() {
                self.say_goodbye_now(FENCED_GOODBYE);
                break;
            }
            if let Some(Stop::Close) = stop {
                if self.seating.ever_seated() {
                    self.outbox.record_closed();
                } else {
                    // Nobody ever sat here: nothing worth keeping, and nothing to bring back.
                    self.outbox.record_deleted();
                }
                self.outbox.flush().await;
                break;
            }
            // A table that is far ahead of the database waits for it before doing more; a
            // paused one reads its mailbox only to refuse, and nothing runs on its own.
            let paused = self.pause.is_paused();
            let room = paused || self.outbox.in_flight() < MAX_IN_FLIGHT;
            // Woken by the store's writer only for what the table must act on, and for room
            // when it has none.
            let wake_below = if room { 0 } else { MAX_IN_FLIGHT };
            let durable = self.outbox.is_durable();
            let bot_now = !paused && room && self.bot_starts_now();
            let thinking = !paused && room && self.bots.is_thinking();
            let timer_armed = !paused && self.clock.is_armed();
            changes = tokio::select! {
                dropped = self.outbox.news(wake_below), if durable => {
                    if self.outbox.is_fenced() {
                        self.say_goodbye_now(FENCED_GOODBYE);
                        break;
                    }
                    Changes::dropping(dropped)
                }
                msg = self.rx.recv(), if room => match msg {
                    Some(msg) => self.handle_msg(msg),
                    None => break,
                },
                saving = self.pause.saving_changed() => self.storage_changed(saving),
                () = self.clock.rings(), if timer_armed => self.handle_timer(Instant::now()),
                answer = self.bots.answer(), if thinking => self.take_answer(answer),
                () = std::future::ready(()), if bot_now => {
                    self.bot_move();
                    Changes::default()
                }
                () = &mut stopping => {
                    self.outbox.flush().await;
                    break;
                }
            };
        }
        tracing::info!(table = %crate::store::log_tag(&self.spec.id), matches = self.play.matches_played(), "table closed");
    }

    // ---- the steps -------------------------------------------------------------------

    /// Handles one message from the mailbox (refused at once while paused).
    fn handle_msg(&mut self, msg: TableMsg) -> Changes {
        match msg {
            msg if self.pause.is_paused() => self.refuse(msg),
            TableMsg::Join {
                conn,
                request,
                reply,
            } => {
                let result = if request.watch {
                    self.handle_watch(conn.clone())
                } else {
                    self.handle_join(conn.clone(), *request)
                };
                let (changes, result) = split(result);
                if let Err(err) = &result {
                    self.outbox.queue_msg(&conn, &err.to_msg());
                }
                self.outbox.queue_reply(reply, result.is_ok());
                changes
            }
            TableMsg::Request { conn, request } => {
                let is_move = matches!(*request, TableRequest::Move { .. });
                match self.handle_request(conn, *request) {
                    Ok(changes) => {
                        if is_move && let Some(conn) = self.seating.conn_of(conn) {
                            conn.move_accepted();
                        }
                        changes
                    }
                    Err(err) => self.refuse_request(conn, &err, is_move),
                }
            }
            TableMsg::Disconnected { conn } => self.handle_disconnect(conn),
            TableMsg::Invite { conn, seat, reply } => {
                let _ = reply.send(self.check_invite(conn, seat));
                Changes::default()
            }
            TableMsg::Admin { command, reply } => {
                let (changes, result) = split(self.handle_admin(command));
                let _ = reply.send(result);
                changes
            }
        }
    }

    /// Answers a refused request with its reason. A refused move is followed by the same
    /// player's prompt again (with the time that is left, not a fresh clock), unless the
    /// move answered no current prompt: that prompt still stands.
    fn refuse_request(&mut self, conn: ConnId, err: &TableError, is_move: bool) -> Changes {
        let mut changes = self.send_to(conn, &err.to_msg());
        if is_move
            && !err.prompt_stands()
            && let Some(Role::Seat(seat)) = self.seating.role_of(conn)
            && let Some(prompt) = self.prompt_with_time_left(seat)
        {
            changes.merge(self.send_to(conn, &prompt));
        }
        changes
    }

    /// After every step, what it changed: drop dead connections, publish changes, reschedule
    /// timers.
    fn settle(&mut self, mut changes: Changes) {
        while let Some(conn) = changes.dropped.pop() {
            changes.merge(self.handle_disconnect(conn));
        }
        // Publishing may find more connections gone: each is dropped, and the table
        // published again.
        loop {
            if std::mem::take(&mut changes.table) {
                changes.merge(self.publish_table());
            }
            let Some(conn) = changes.dropped.pop() else {
                break;
            };
            changes.merge(self.handle_disconnect(conn));
        }
        self.cancel_stale_thought();
        self.schedule();
    }

    /// Handles every deadline that has passed.
    fn handle_timer(&mut self, now: Instant) -> Changes {
        if self.clock.idle_over(now) {
            tracing::info!(table = %crate::store::log_tag(&self.spec.id), "nobody connected for a while: closing");
            return Changes::stopping(Stop::Close);
        }
        let mut changes = Changes::default();
        for seat in self.seating.all() {
            if self.clock.take_grace_over(seat, now)
                && self.seating.is_taken(seat)
                && self.seating.conn(seat).is_none()
            {
                tracing::info!(table = %crate::store::log_tag(&self.spec.id), %seat, "grace period over: a bot plays");
                self.bots.set_standing_in(seat, true);
                self.clock.set_turn(seat, None);
                self.play.lapse_prompt(seat);
                changes.table = true;
            }
            if self.clock.take_turn_over(seat, now) {
                let to_act = self.play.game().is_some_and(|g| g.to_act().contains(seat));
                if to_act && !self.server_plays(seat) {
                    if self.seating.occupant(seat) == Occupant::Human {
                        // A person out of time: a computer plays for them until they are back.
                        tracing::info!(table = %crate::store::log_tag(&self.spec.id), %seat, "turn clock ran out: a computer stands in");
                        changes.merge(self.start_standing_in(seat));
                    } else {
                        tracing::debug!(table = %crate::store::log_tag(&self.spec.id), %seat, "remote bot out of time");
                        self.play.out_of_time(seat);
                    }
                }
            }
        }
        if self.bots.thought_due(now) {
            changes.merge(self.thought_overdue());
        }
        if self.clock.take_bot_due(now) {
            self.bot_move();
        }
        changes
    }

    /// Recomputes bot pacing, idle cleanup and the timer.
    fn schedule(&mut self) {
        let now = Instant::now();
        let bot_delay = Duration::from_millis(self.spec.table_options.bot_delay_ms);
        self.clock
            .pace_bot(self.bot_waits_for_pacing().then_some(bot_delay), now);
        self.seating.note_who_sits();
        let empty = self.seating.connections() == 0 && !self.play.goes_on_unattended();
        self.clock
            .count_idle(empty, self.seating.ever_seated(), now);
        self.clock.set_for_next(self.bots.thought_deadline());
    }

    // ---- bookkeeping ---------------------------------------------------------------------

    /// Takes over a table rebuilt from the store: game, log, seats, tokens, bots and host.
    /// Nobody is connected yet: each player's grace period starts now.
    fn restore(&mut self, mut restored: Restored) -> Changes {
        self.play.restore(&mut restored);
        if self.play.game().is_some() || restored.matches_played > 0 {
            self.seating.note_played_before();
        }
        self.hosting = Hosting::restored(restored.host_key.clone(), restored.host);
        let grace = Instant::now() + Duration::from_millis(self.spec.table_options.grace_ms);
        for (i, saved) in restored.seats.iter().enumerate() {
            let seat = Seat(i as u8);
            let seed = self.bot_seed(seat);
            self.seating.restore(seat, saved);
            self.bots.set_standing_in(seat, saved.bot_playing);
            if let Some(name) = saved.strategy.as_deref()
                && saved.occupant == Occupant::Bot
            {
                let bot = self.bots.make(name, self.spec.variant, seed);
                self.bots.set_strategy(seat, bot.map(|bot| bot.name()));
            }
            if matches!(saved.occupant, Occupant::Human | Occupant::RemoteBot) && !saved.bot_playing
            {
                self.clock.set_grace(seat, Some(grace));
            }
        }
        self.chat.restore(restored.chat);
        self.outbox = Outbox::new(self.outbox.store(), &self.spec.id, restored.match_no);
        self.outbox.assume_recorded_state(
            self.play.status(),
            self.hosting.stored(),
            self.seating.seat_rows(&self.bots),
        );
        Changes::table_changed()
    }

    /// The table as the lobby and the players see it.
    fn table_info(&self) -> TableInfo {
        TableInfo {
            id: self.spec.id.clone(),
            variant: self.spec.variant,
            options: self.spec.options.shown(),
            status: self.play.status(),
            seats: self.seating.infos(&self.bots),
            host: self.hosting.host(),
            table_options: self.spec.table_options.clone(),
            spectators: self.seating.spectators().len() as u32,
            matches_played: self.play.matches_played(),
            practice: self.spec.is_practice(),
        }
    }
}
