//! The table actor: one task per table that owns the game and everything around it.
//!
//! It waits on three things: commands from connections, its single timer (bot pacing,
//! grace periods, remote-bot turn limits, idle cleanup; all on tokio's clock so tests can
//! pause time), and, when a built-in bot is to move with no delay, nothing at all. Everything
//! it sends goes through the connections' bounded queues without waiting, once the step's
//! changes are committed to the store (write-ahead: see [`crate::store::WriteAhead`]).

use std::pin::Pin;
use std::time::Duration;

use parlor_shared::bots::{strategy, strategy_names};
use parlor_shared::protocol::{
    ClientMsg, Occupant, PROTOCOL_VERSION, ServerMsg, TableInfo, TableOptions, TableStatus, codes,
};
use parlor_shared::rules::{OptionsError, Rules};
use parlor_shared::{Action, Event, Game, Options, PlayerView, Seat, Variant};
use tokio::sync::{mpsc, watch};
use tokio::time::{Instant, Sleep, sleep_until};
use tokio_util::sync::CancellationToken;

use super::client::frame;
use super::seats::{SeatMask, SeatState, clean_name, fallback_action, new_token, stand_in};
use super::{ActionLog, COMMAND_QUEUE, Client, Command, ConnId, Frame, JoinRequest, TableHandle};
use crate::error::ClientError;
use crate::store::{Restored, SeatRow, Store, WriteAhead};

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
    /// The first match's seed; later matches count up from it. Random when `None`.
    pub seed: Option<u64>,
    /// How long the table lives with nobody connected.
    pub idle_ttl: Duration,
    /// Where the table's setup, seats and actions are logged (`None`: nowhere).
    pub store: Option<Store>,
    /// The table as rebuilt from the store after a restart; `None` for a new table.
    pub restored: Option<Box<Restored>>,
}

/// Starts a table's actor and returns its handle. `on_close` runs when the actor stops (the
/// lobby forgets the table then).
pub fn spawn(
    setup: TableSetup,
    shutdown: CancellationToken,
    on_close: impl FnOnce() + Send + 'static,
) -> Result<TableHandle, OptionsError> {
    let rules = Rules::new(setup.variant, &setup.options)?;
    let (tx, rx) = mpsc::channel(COMMAND_QUEUE);
    let players = setup.variant.players();
    let mut actor = TableActor {
        id: setup.id.clone(),
        variant: setup.variant,
        options: rules.options(),
        table_options: setup.table_options,
        seed: setup.seed,
        game: None,
        status: TableStatus::Waiting,
        seats: (0..players).map(|_| SeatState::empty()).collect(),
        spectators: Vec::new(),
        host: None,
        log: ActionLog::default(),
        seq: 0,
        matches_played: 0,
        awaiting: SeatMask::default(),
        bot_due: None,
        idle_ttl: setup.idle_ttl,
        idle_deadline: None,
        dirty: false,
        dropped: Vec::new(),
        closing: false,
        rx,
        info: watch::channel(placeholder_info(&setup.id, setup.variant)).0,
        timer: Box::pin(sleep_until(Instant::now())),
        timer_at: None,
        shutdown,
        wal: WriteAhead::new(setup.store.clone(), &setup.id, 0),
    };
    match setup.restored {
        Some(restored) => actor.restore(*restored),
        None => actor.wal.table_created(
            actor.variant,
            &actor.options,
            &actor.table_options,
            actor.seed,
        ),
    }
    actor.info.send_replace(actor.table_info());
    let handle = TableHandle {
        id: setup.id,
        tx,
        info: actor.info.subscribe(),
    };
    tokio::spawn(async move {
        actor.run().await;
        on_close();
    });
    Ok(handle)
}

/// A stand-in description, replaced before anyone can read it.
fn placeholder_info(id: &str, variant: Variant) -> TableInfo {
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

/// The owner of one table's game, seats and timers.
struct TableActor {
    /// The table's id.
    id: String,
    /// The variant played.
    variant: Variant,
    /// Every rule option, spelled out.
    options: Options,
    /// Timers and pacing.
    table_options: TableOptions,
    /// The next match's seed when the table was created with one (tests, replays).
    seed: Option<u64>,
    /// The current (or last finished) match; `None` before the first start.
    game: Option<Game>,
    /// Waiting, playing or finished.
    status: TableStatus,
    /// One entry per seat.
    seats: Vec<SeatState>,
    /// Connections watching.
    spectators: Vec<Client>,
    /// The seat whose occupant may add bots and start matches.
    host: Option<Seat>,
    /// Every action of the current match in order: with the seed, the whole match.
    log: ActionLog,
    /// The table's event counter: the number of events sent so far.
    seq: u64,
    /// Matches finished here.
    matches_played: u32,
    /// Seats that have been sent `your_turn` and have not acted yet.
    awaiting: SeatMask,
    /// When the next built-in bot move is due (only with a bot delay).
    bot_due: Option<Instant>,
    /// How long the table lives with nobody connected.
    idle_ttl: Duration,
    /// When the table closes if still nobody is connected.
    idle_deadline: Option<Instant>,
    /// The seats or status changed: publish and broadcast `table`.
    dirty: bool,
    /// Connections found gone or too slow while sending, handled after the current step.
    dropped: Vec<ConnId>,
    /// The actor stops after this step.
    closing: bool,
    /// Commands from connections.
    rx: mpsc::Receiver<Command>,
    /// Publishes the lobby's description of the table.
    info: watch::Sender<TableInfo>,
    /// The one timer, set to the earliest deadline.
    timer: Pin<Box<Sleep>>,
    /// The deadline the timer is set to, if armed.
    timer_at: Option<Instant>,
    /// Cancelled when the server stops.
    shutdown: CancellationToken,
    /// Logs the table to the store, and holds each step's output until that is committed.
    wal: WriteAhead,
}

impl TableActor {
    /// The actor's loop: one command, timer or bot move per turn of the loop.
    async fn run(&mut self) {
        tracing::info!(table = %self.id, variant = %self.variant, "table opened");
        let shutdown = self.shutdown.clone();
        let stopping = shutdown.cancelled();
        tokio::pin!(stopping);
        loop {
            self.settle();
            // What a step changed is on disk before anyone hears of it.
            loop {
                let dropped = self.wal.commit().await;
                if dropped.is_empty() {
                    break;
                }
                self.dropped.extend(dropped);
                self.settle();
            }
            if self.closing {
                self.wal.closed();
                break;
            }
            let bot_now = self.table_options.bot_delay_ms == 0 && self.next_bot_seat().is_some();
            let timer_armed = self.timer_at.is_some();
            tokio::select! {
                command = self.rx.recv() => match command {
                    Some(command) => self.handle(command),
                    None => break,
                },
                () = &mut self.timer, if timer_armed => {
                    self.timer_at = None;
                    self.on_timer(Instant::now());
                }
                () = std::future::ready(()), if bot_now => {
                    self.bot_move();
                    // Let connections and other tables run between instant bot moves.
                    tokio::task::yield_now().await;
                }
                () = &mut stopping => break,
            }
        }
        tracing::info!(table = %self.id, matches = self.matches_played, "table closed");
    }

    // ---- the steps -------------------------------------------------------------------

    /// Handles one command.
    fn handle(&mut self, command: Command) {
        match command {
            Command::Join {
                client,
                request,
                reply,
            } => {
                let result = if request.watch {
                    self.watch(client.clone());
                    Ok(())
                } else {
                    self.join(client.clone(), *request)
                };
                if let Err(err) = &result {
                    self.wal.send_msg(&client, &err.to_msg());
                }
                self.wal.reply(reply, result.is_ok());
            }
            Command::Message { conn, msg } => {
                if let Err(err) = self.on_message(conn, *msg) {
                    self.send_to(conn, &err.to_msg());
                }
            }
            Command::Disconnected { conn } => self.disconnect(conn),
        }
    }

    /// After every step: drop dead connections, publish changes, reschedule timers.
    fn settle(&mut self) {
        while let Some(conn) = self.dropped.pop() {
            self.disconnect(conn);
        }
        self.flush_table();
        while let Some(conn) = self.dropped.pop() {
            self.disconnect(conn);
            self.flush_table();
        }
        self.schedule();
    }

    /// Handles every deadline that has passed.
    fn on_timer(&mut self, now: Instant) {
        if self.idle_deadline.is_some_and(|at| at <= now) {
            tracing::info!(table = %self.id, "nobody connected for a while: closing");
            self.closing = true;
            return;
        }
        for i in 0..self.seats.len() {
            let seat = Seat(i as u8);
            if self.seats[i].grace_deadline.is_some_and(|at| at <= now) {
                self.seats[i].grace_deadline = None;
                if self.seats[i].is_taken() && self.seats[i].conn.is_none() {
                    tracing::info!(table = %self.id, %seat, "grace period over: a bot plays");
                    self.seats[i].bot_playing = true;
                    self.seats[i].turn_deadline = None;
                    self.awaiting.remove(seat);
                    self.pick_host();
                    self.dirty = true;
                }
            }
            if self.seats[i].turn_deadline.is_some_and(|at| at <= now) {
                self.seats[i].turn_deadline = None;
                let to_act = self
                    .game
                    .as_ref()
                    .is_some_and(|g| g.to_act().contains(seat));
                if to_act && !self.seats[i].server_plays() {
                    tracing::debug!(table = %self.id, %seat, "remote bot out of time");
                    self.server_move(seat);
                }
            }
        }
        if self.bot_due.is_some_and(|at| at <= now) {
            self.bot_due = None;
            self.bot_move();
        }
    }

    /// Recomputes bot pacing, idle cleanup and the timer.
    fn schedule(&mut self) {
        let now = Instant::now();
        if self.table_options.bot_delay_ms > 0 && self.next_bot_seat().is_some() {
            if self.bot_due.is_none() {
                self.bot_due = Some(now + Duration::from_millis(self.table_options.bot_delay_ms));
            }
        } else {
            self.bot_due = None;
        }
        if self.connections() == 0 {
            self.idle_deadline.get_or_insert(now + self.idle_ttl);
        } else {
            self.idle_deadline = None;
        }
        let seat_deadlines = self
            .seats
            .iter()
            .flat_map(|s| [s.grace_deadline, s.turn_deadline]);
        let next = seat_deadlines
            .chain([self.bot_due, self.idle_deadline])
            .flatten()
            .min();
        if next != self.timer_at {
            if let Some(at) = next {
                self.timer.as_mut().reset(at);
            }
            self.timer_at = next;
        }
    }

    // ---- joining and leaving -----------------------------------------------------------

    /// Seats a connection: back into its own seat with a token, or into a free one.
    fn join(&mut self, client: Client, request: JoinRequest) -> Result<(), ClientError> {
        let seat = match &request.token {
            Some(token) => self.reclaim(&client, token)?,
            None => self.take_free_seat(&request)?,
        };
        let state = &mut self.seats[seat.index()];
        state.conn = Some(client.clone());
        state.grace_deadline = None;
        state.bot_playing = false;
        self.awaiting.remove(seat);
        self.pick_host();
        self.dirty = true;
        tracing::info!(table = %self.id, %seat, conn = client.id.0, "seat taken");
        self.wal.send_msg(
            &client,
            &ServerMsg::Welcome {
                protocol: PROTOCOL_VERSION,
                table: self.id.clone(),
                seat: Some(seat),
                token: self.seats[seat.index()].token.clone(),
                host: self.host == Some(seat),
            },
        );
        self.flush_table();
        if let Some(game) = &self.game {
            self.wal.send_msg(
                &client,
                &ServerMsg::State {
                    seq: self.seq,
                    view: Box::new(PlayerView::of(game, Some(seat))),
                },
            );
        }
        self.prompt();
        Ok(())
    }

    /// The seat whose token this is, disconnecting whoever played it before.
    fn reclaim(&mut self, client: &Client, token: &str) -> Result<Seat, ClientError> {
        let index = self
            .seats
            .iter()
            .position(|s| s.token.as_deref() == Some(token))
            .ok_or_else(|| {
                ClientError::new(
                    codes::BAD_TOKEN,
                    "that seat token is not valid at this table (wrong, or the seat was given up)",
                )
            })?;
        if let Some(old) = self.seats[index].conn.take()
            && old.id != client.id
        {
            old.send_msg(&ServerMsg::error(
                codes::BAD_TOKEN,
                "your seat was taken back by a newer connection with its token",
            ));
            old.kick();
        }
        Ok(Seat(index as u8))
    }

    /// A free seat (the one asked for, or the first), now held by the joining connection.
    fn take_free_seat(&mut self, request: &JoinRequest) -> Result<Seat, ClientError> {
        let index = match request.seat {
            Some(seat) => {
                let state = self.seats.get(seat.index()).ok_or_else(|| {
                    ClientError::new(
                        codes::NO_SUCH_SEAT,
                        format!("there is no {seat} at this table"),
                    )
                })?;
                if state.is_taken() {
                    return Err(ClientError::new(
                        codes::SEAT_TAKEN,
                        format!("{seat} is taken"),
                    ));
                }
                seat.index()
            }
            None => self
                .seats
                .iter()
                .position(|s| !s.is_taken())
                .ok_or_else(|| ClientError::new(codes::TABLE_FULL, "every seat is taken"))?,
        };
        let state = &mut self.seats[index];
        state.occupant = if request.bot {
            Occupant::RemoteBot
        } else {
            Occupant::Human
        };
        state.name = clean_name(request.name.as_deref());
        state.token = Some(new_token());
        Ok(Seat(index as u8))
    }

    /// Adds a spectator.
    fn watch(&mut self, client: Client) {
        self.wal.send_msg(
            &client,
            &ServerMsg::Welcome {
                protocol: PROTOCOL_VERSION,
                table: self.id.clone(),
                seat: None,
                token: None,
                host: false,
            },
        );
        self.spectators.push(client.clone());
        self.dirty = true;
        self.flush_table();
        if let Some(game) = &self.game {
            self.wal.send_msg(
                &client,
                &ServerMsg::State {
                    seq: self.seq,
                    view: Box::new(PlayerView::of(game, None)),
                },
            );
        }
    }

    /// A connection went away: its seat waits for it (a grace period), or it stops watching.
    fn disconnect(&mut self, conn: ConnId) {
        match self.role_of(conn) {
            Some(Role::Seat(seat)) => {
                let grace = Duration::from_millis(self.table_options.grace_ms);
                let state = &mut self.seats[seat.index()];
                state.conn = None;
                state.grace_deadline = Some(Instant::now() + grace);
                self.awaiting.remove(seat);
                self.dirty = true;
                tracing::info!(table = %self.id, %seat, conn = conn.0, "player disconnected");
            }
            Some(Role::Spectator) => {
                self.spectators.retain(|c| c.id != conn);
                self.dirty = true;
            }
            None => {}
        }
    }

    /// `leave`: the seat is given up for good (its token stops working).
    fn leave(&mut self, conn: ConnId, role: Role) {
        let client = match role {
            Role::Seat(seat) => {
                let state = &mut self.seats[seat.index()];
                let client = state.conn.take();
                if self.status == TableStatus::Playing {
                    // The match goes on: a built-in bot keeps the seat until someone sits.
                    state.occupant = Occupant::Empty;
                    state.name = None;
                    state.token = None;
                    state.bot_playing = true;
                    state.grace_deadline = None;
                    state.turn_deadline = None;
                } else {
                    state.clear();
                }
                self.awaiting.remove(seat);
                self.pick_host();
                client
            }
            Role::Spectator => {
                let index = self.spectators.iter().position(|c| c.id == conn);
                index.map(|i| self.spectators.swap_remove(i))
            }
        };
        self.dirty = true;
        if let Some(client) = client {
            self.wal.send_msg(
                &client,
                &ServerMsg::Table {
                    seq: self.seq,
                    table: self.table_info(),
                },
            );
        }
    }

    // ---- messages from seated connections -------------------------------------------

    /// A message from a connection at this table.
    fn on_message(&mut self, conn: ConnId, msg: ClientMsg) -> Result<(), ClientError> {
        let role = self.role_of(conn).ok_or_else(|| {
            ClientError::new(codes::NOT_JOINED, "you are not at this table any more")
        })?;
        match msg {
            ClientMsg::Play { seat: claimed, .. } | ClientMsg::Pass { seat: claimed, .. } => {
                let Role::Seat(seat) = role else {
                    return Err(ClientError::new(
                        codes::NOT_SEATED,
                        "spectators cannot play: join to take a seat",
                    ));
                };
                if let Some(claimed) = claimed
                    && claimed != seat
                {
                    return Err(ClientError::new(
                        codes::NOT_YOUR_SEAT,
                        format!(
                            "you sit in {seat}, not {claimed}: you can only move for your own seat"
                        ),
                    ));
                }
                if self.status != TableStatus::Playing {
                    return Err(ClientError::new(
                        codes::NO_MATCH,
                        "no match is being played: the host starts one",
                    ));
                }
                let action = msg.action().expect("play and pass carry an action");
                self.apply(seat, action)?;
                Ok(())
            }
            ClientMsg::AddBot { seat, strategy } => {
                self.require_host(role)?;
                self.add_bot(seat, &strategy)
            }
            ClientMsg::RemoveBot { seat } => {
                self.require_host(role)?;
                self.remove_bot(seat)
            }
            ClientMsg::Start {} => {
                self.require_host(role)?;
                self.start()
            }
            ClientMsg::Leave {} => {
                self.leave(conn, role);
                Ok(())
            }
            ClientMsg::Join { .. } | ClientMsg::Watch { .. } => Err(ClientError::new(
                codes::ALREADY_JOINED,
                "this connection is already at a table: leave first",
            )),
            ClientMsg::Sync {} => {
                self.sync(conn, role);
                Ok(())
            }
            ClientMsg::Ping {} => {
                self.send_to(conn, &ServerMsg::Pong {});
                Ok(())
            }
        }
    }

    /// `sync`: a fresh snapshot for one connection, and its prompt again if it has to act.
    fn sync(&mut self, conn: ConnId, role: Role) {
        let viewer = match role {
            Role::Seat(seat) => Some(seat),
            Role::Spectator => None,
        };
        let Some(game) = &self.game else {
            let table = ServerMsg::Table {
                seq: self.seq,
                table: self.table_info(),
            };
            self.send_to(conn, &table);
            return;
        };
        let state = ServerMsg::State {
            seq: self.seq,
            view: Box::new(PlayerView::of(game, viewer)),
        };
        self.send_to(conn, &state);
        if let Some(seat) = viewer {
            self.awaiting.remove(seat);
            self.prompt();
        }
    }

    /// Refuses host commands from anyone but the host.
    fn require_host(&self, role: Role) -> Result<(), ClientError> {
        match role {
            Role::Seat(seat) if self.host == Some(seat) => Ok(()),
            _ => Err(ClientError::new(
                codes::NOT_HOST,
                "only the table's host can do that",
            )),
        }
    }

    /// Seats a built-in bot in an empty seat.
    fn add_bot(&mut self, seat: Seat, name: &str) -> Result<(), ClientError> {
        let state = self.seats.get(seat.index()).ok_or_else(|| {
            ClientError::new(
                codes::NO_SUCH_SEAT,
                format!("there is no {seat} at this table"),
            )
        })?;
        if state.is_taken() {
            return Err(ClientError::new(
                codes::SEAT_TAKEN,
                format!("{seat} is taken"),
            ));
        }
        let seed = self.bot_seed(seat);
        let bot = strategy(name, self.variant, seed).ok_or_else(|| {
            ClientError::new(
                codes::UNKNOWN_STRATEGY,
                format!(
                    "there is no built-in bot `{name}` for {}: choose one of {}",
                    self.variant,
                    strategy_names(self.variant).join(", ")
                ),
            )
        })?;
        let state = &mut self.seats[seat.index()];
        state.clear();
        state.occupant = Occupant::Bot;
        state.name = Some(format!("{} bot", bot.name()));
        state.bot = Some(bot);
        self.awaiting.remove(seat);
        self.dirty = true;
        Ok(())
    }

    /// Takes a built-in bot out of its seat (not during a match).
    fn remove_bot(&mut self, seat: Seat) -> Result<(), ClientError> {
        let state = self.seats.get(seat.index()).ok_or_else(|| {
            ClientError::new(
                codes::NO_SUCH_SEAT,
                format!("there is no {seat} at this table"),
            )
        })?;
        if state.occupant != Occupant::Bot {
            return Err(ClientError::new(
                codes::NOT_A_BOT,
                format!("{seat} does not hold a built-in bot"),
            ));
        }
        if self.status == TableStatus::Playing {
            return Err(ClientError::new(
                codes::MATCH_IN_PROGRESS,
                "bots stay until the match is over",
            ));
        }
        self.seats[seat.index()].clear();
        self.dirty = true;
        Ok(())
    }

    /// Starts a match once every seat is filled.
    fn start(&mut self) -> Result<(), ClientError> {
        if self.status == TableStatus::Playing {
            return Err(ClientError::new(
                codes::MATCH_IN_PROGRESS,
                "a match is already being played",
            ));
        }
        let empty: Vec<String> = (0..self.seats.len())
            .filter(|&i| !self.seats[i].is_taken())
            .map(|i| i.to_string())
            .collect();
        if !empty.is_empty() {
            return Err(ClientError::new(
                codes::SEATS_EMPTY,
                format!(
                    "every seat must be filled first: seat {} empty (add bots?)",
                    empty.join(", ")
                ),
            ));
        }
        let seed = match self.seed {
            Some(seed) => seed.wrapping_add(u64::from(self.matches_played)),
            None => rand::random(),
        };
        let game = Game::new(self.variant, &self.options, seed).expect("options were checked");
        let opening = game.opening_events();
        self.wal
            .match_started(seed, self.seq + opening.len() as u64);
        self.game = Some(game);
        self.log.clear();
        self.awaiting.clear();
        self.status = TableStatus::Playing;
        self.dirty = true;
        tracing::info!(table = %self.id, match_number = self.matches_played + 1, "match started");
        self.flush_table();
        for event in opening {
            self.broadcast_event(event);
        }
        self.send_states();
        self.prompt();
        Ok(())
    }

    // ---- playing -----------------------------------------------------------------------

    /// Applies a move, tells everyone what happened and prompts whoever is next.
    fn apply(&mut self, seat: Seat, action: Action) -> Result<(), ClientError> {
        let game = self
            .game
            .as_mut()
            .ok_or_else(|| ClientError::new(codes::NO_MATCH, "no match is being played"))?;
        let events = game.apply(seat, &action)?;
        let over = game.is_over();
        let seq = self.seq + events.len() as u64;
        self.wal.action(self.log.len(), seat, &action, seq);
        self.log.push(seat, &action);
        self.seats[seat.index()].turn_deadline = None;
        self.awaiting.remove(seat);
        for event in events {
            self.broadcast_event(event);
        }
        if over {
            self.status = TableStatus::Finished;
            self.matches_played += 1;
            self.awaiting.clear();
            for state in &mut self.seats {
                state.turn_deadline = None;
                if !state.is_taken() {
                    // Seats given up during the match were played by a stand-in: free now.
                    state.clear();
                }
            }
            self.dirty = true;
            tracing::info!(table = %self.id, moves = self.log.len(), "match over");
        } else {
            self.prompt();
        }
        Ok(())
    }

    /// Sends `your_turn` to every connected seat that has to act and was not asked yet, and
    /// starts remote bots' clocks.
    fn prompt(&mut self) {
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
            let remote_bot = state.occupant == Occupant::RemoteBot;
            if remote_bot && state.turn_deadline.is_none() {
                state.turn_deadline = Some(Instant::now() + Duration::from_millis(timeout));
            }
            if let Some(client) = &state.conn {
                let msg = ServerMsg::YourTurn {
                    seq: self.seq,
                    legal: game.legal_actions(seat),
                    timeout_ms: remote_bot.then_some(timeout),
                };
                if !self.wal.send_msg(client, &msg) {
                    self.dropped.push(client.id);
                }
            }
        }
    }

    /// The first seat the server has to move for now, if any.
    fn next_bot_seat(&self) -> Option<Seat> {
        if self.status != TableStatus::Playing {
            return None;
        }
        let game = self.game.as_ref()?;
        game.to_act()
            .iter()
            .find(|seat| self.seats[seat.index()].server_plays())
    }

    /// Makes one built-in bot move, if one is due.
    fn bot_move(&mut self) {
        if let Some(seat) = self.next_bot_seat() {
            self.server_move(seat);
        }
    }

    /// The server moves for `seat`: its built-in bot, or a stand-in.
    fn server_move(&mut self, seat: Seat) {
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
            match fallback_action(&view.legal) {
                Some(fallback) => action = fallback,
                None => return,
            }
        }
        if let Err(err) = self.apply(seat, action) {
            tracing::error!(table = %self.id, %seat, %err, "a legal bot move was refused");
        }
    }

    /// A seed for a seat's bot, fixed by the table's seed when it has one.
    fn bot_seed(&self, seat: Seat) -> u64 {
        let base = self
            .game
            .as_ref()
            .map_or(self.seed.unwrap_or(0), Game::seed);
        base.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(u64::from(seat.0) + 1)
    }

    // ---- sending -------------------------------------------------------------------------

    /// Numbers an event and sends it to everyone allowed to see it.
    fn broadcast_event(&mut self, event: Event) {
        self.seq += 1;
        let msg = ServerMsg::Event {
            seq: self.seq,
            event,
        };
        let ServerMsg::Event { event, .. } = &msg else {
            unreachable!()
        };
        let mut encoded: Option<Frame> = None;
        let mut encode = || encoded.get_or_insert_with(|| frame(&msg)).clone();
        for (i, state) in self.seats.iter().enumerate() {
            if let Some(client) = &state.conn
                && event.visible_to(Some(Seat(i as u8)))
                && !self.wal.send(client, encode())
            {
                self.dropped.push(client.id);
            }
        }
        if event.visible_to(None) {
            for client in &self.spectators {
                if !self.wal.send(client, encode()) {
                    self.dropped.push(client.id);
                }
            }
        }
    }

    /// Sends every connection its own snapshot.
    fn send_states(&mut self) {
        let Some(game) = &self.game else { return };
        for (i, state) in self.seats.iter().enumerate() {
            if let Some(client) = &state.conn {
                let msg = ServerMsg::State {
                    seq: self.seq,
                    view: Box::new(PlayerView::of(game, Some(Seat(i as u8)))),
                };
                if !self.wal.send_msg(client, &msg) {
                    self.dropped.push(client.id);
                }
            }
        }
        if !self.spectators.is_empty() {
            let public = frame(&ServerMsg::State {
                seq: self.seq,
                view: Box::new(PlayerView::of(game, None)),
            });
            for client in &self.spectators {
                if !self.wal.send(client, public.clone()) {
                    self.dropped.push(client.id);
                }
            }
        }
    }

    /// When seats or status changed: publish to the lobby and send `table` to everyone.
    fn flush_table(&mut self) {
        if !self.dirty {
            return;
        }
        self.dirty = false;
        if self.wal.is_enabled() {
            self.wal.state(self.status, self.host, self.seat_rows());
        }
        let info = self.table_info();
        let msg = frame(&ServerMsg::Table {
            seq: self.seq,
            table: info.clone(),
        });
        self.info.send_replace(info);
        let clients = self.seats.iter().filter_map(|s| s.conn.as_ref());
        for client in clients.chain(&self.spectators) {
            if !self.wal.send(client, msg.clone()) {
                self.dropped.push(client.id);
            }
        }
    }

    /// Sends one message to one connection of this table.
    fn send_to(&mut self, conn: ConnId, msg: &ServerMsg) {
        let clients = self.seats.iter().filter_map(|s| s.conn.as_ref());
        if let Some(client) = clients.chain(&self.spectators).find(|c| c.id == conn)
            && !self.wal.send_msg(client, msg)
        {
            self.dropped.push(conn);
        }
    }

    // ---- bookkeeping ---------------------------------------------------------------------

    /// Who `conn` is here.
    fn role_of(&self, conn: ConnId) -> Option<Role> {
        if let Some(i) = self
            .seats
            .iter()
            .position(|s| s.conn.as_ref().is_some_and(|c| c.id == conn))
        {
            return Some(Role::Seat(Seat(i as u8)));
        }
        self.spectators
            .iter()
            .any(|c| c.id == conn)
            .then_some(Role::Spectator)
    }

    /// Connections at the table, seated or watching.
    fn connections(&self) -> usize {
        self.seats.iter().filter(|s| s.conn.is_some()).count() + self.spectators.len()
    }

    /// Keeps the host, or passes the role on: people come first (a connected one first);
    /// a remote program hosts only while no person sits at the table.
    fn pick_host(&mut self) {
        let rank = |state: &SeatState| -> Option<u8> {
            let present = state.conn.is_some() || !state.bot_playing;
            match (state.occupant, present) {
                (Occupant::Human, true) => Some(0),
                (Occupant::Human, false) => Some(1),
                (Occupant::RemoteBot, true) => Some(2),
                (Occupant::RemoteBot, false) => Some(3),
                _ => None,
            }
        };
        let best = (0..self.seats.len())
            .filter_map(|i| rank(&self.seats[i]).map(|r| (r, i)))
            .min();
        let current = self
            .host
            .and_then(|h| rank(&self.seats[h.index()]).map(|r| (r, h)));
        let new_host = match (current, best) {
            // Stay host unless someone of a better kind is there.
            (Some((rank, seat)), Some((best_rank, _))) if rank <= best_rank => Some(seat),
            (_, best) => best.map(|(_, i)| Seat(i as u8)),
        };
        if new_host != self.host {
            self.host = new_host;
            self.dirty = true;
        }
    }

    /// The seats as the store keeps them.
    fn seat_rows(&self) -> Vec<SeatRow> {
        let rows = self.seats.iter().enumerate().map(|(i, s)| SeatRow {
            seat: i as u8,
            occupant: s.occupant,
            name: s.name.clone(),
            token: s.token.clone(),
            strategy: (s.occupant == Occupant::Bot)
                .then(|| s.bot.as_ref().map(|b| b.name().to_string()))
                .flatten(),
            bot_playing: s.bot_playing,
        });
        rows.collect()
    }

    /// Takes over a table rebuilt from the store: game, log, seats, tokens, bots and host.
    /// Nobody is connected yet: each player's grace period starts now.
    fn restore(&mut self, restored: Restored) {
        self.game = restored.game;
        for (seat, action) in &restored.log {
            self.log.push(*seat, action);
        }
        self.seq = restored.seq;
        self.matches_played = restored.matches_played;
        self.status = restored.status;
        self.host = restored.host;
        let grace = Instant::now() + Duration::from_millis(self.table_options.grace_ms);
        for (i, saved) in restored.seats.into_iter().enumerate() {
            let seed = self.bot_seed(Seat(i as u8));
            let state = &mut self.seats[i];
            state.occupant = saved.occupant;
            state.name = saved.name;
            state.token = saved.token;
            state.bot_playing = saved.bot_playing;
            if let Some(name) = saved.strategy.filter(|_| saved.occupant == Occupant::Bot) {
                state.bot = strategy(&name, self.variant, seed);
            }
            if matches!(saved.occupant, Occupant::Human | Occupant::RemoteBot) && !saved.bot_playing
            {
                state.grace_deadline = Some(grace);
            }
        }
        self.wal = WriteAhead::new(self.wal.store(), &self.id, restored.match_no);
        self.wal
            .assume_state(self.status, self.host, self.seat_rows());
        self.dirty = true;
    }

    /// The table as the lobby and the players see it.
    fn table_info(&self) -> TableInfo {
        TableInfo {
            id: self.id.clone(),
            variant: self.variant,
            options: self.options.clone(),
            status: self.status,
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| s.info(Seat(i as u8)))
                .collect(),
            host: self.host,
            table_options: self.table_options,
            spectators: self.spectators.len() as u32,
            matches_played: self.matches_played,
        }
    }
}
