//! The reading half of a connection: each frame passes the flood guard, is parsed, and goes
//! to one side ([`Routed`]): a connection's message (`ping`, `join`, `watch`, the registered
//! bots' messages) is handled here, a table's goes to the table the connection is at, as a
//! [`TableRequest`], by [`Reader::hand_to_table`] only.

use std::time::Duration;

use axum::extract::ws::{Message, Utf8Bytes};
use futures_util::future::{BoxFuture, FutureExt, OptionFuture};
use futures_util::{Stream, StreamExt};
use parlor_shared::protocol::{ClientMsg, MAX_MESSAGE_BYTES, ProtocolError, ServerMsg};
use tokio::sync::oneshot;
use tokio::time::{Instant, sleep_until};

use super::FloodGuard;
use super::refusal::Refusal;
use super::route::{ConnectionMsg, Routed};
use crate::conn::{Conn, PushError};
use crate::lobby::Lobby;
use crate::table::{JoinRequest, TableHandle, TableMsg, TableRequest};

/// Why the reader stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ReadEnd {
    /// The client sent a close frame (the connection answers it).
    ClientClosed,
    /// The stream ended or failed.
    Gone,
    /// Nothing arrived for this long, not even a pong.
    Silent(Duration),
    /// No table was joined or watched for this long.
    NeverJoined(Duration),
    /// The table joined or watched is owned by another node of the cluster: the connection
    /// is piped there from now on (see [`Reader::relay_to`]).
    Relay,
}

/// Why a frame was not read.
#[derive(Debug)]
enum Unread {
    /// The flood guard refused it.
    RateLimited,
    /// It is no message the protocol has.
    NotAMessage(ProtocolError),
}

/// What is left of handing a table's message on when it could not go at once.
enum Unhanded {
    /// The connection is at no table.
    NotJoined,
    /// The table's mailbox is full: the message waits for room (`leaving`: it is a `leave`).
    Full { msg: TableMsg, leaving: bool },
    /// The table has closed.
    Closed,
}

/// Where a table not open here was found.
enum Elsewhere {
    /// It opened here meanwhile.
    Here(TableHandle),
    /// Another node owns it (its address).
    There(String),
    /// Nowhere in the cluster.
    Nowhere,
}

/// The reading half of a connection.
pub(super) struct Reader {
    /// This connection's queue, for answers the reader gives itself.
    pub(super) conn: Conn,
    /// Where tables are found.
    pub(super) lobby: Lobby,
    /// The table joined or watched, if any.
    pub(super) table: Option<TableHandle>,
    /// The flood guard.
    guard: FloodGuard,
    /// Text and binary frames received, for the session's log line.
    pub(super) frames_in: u64,
    /// Their bytes.
    pub(super) bytes_in: u64,
    /// The last table joined or watched, for the session's log line.
    pub(super) table_id: Option<Box<str>>,
    /// Where the session's table is recorded for the admin API.
    sessions: super::Sessions,
    /// True once this connection announced a registered bot (`available`).
    pub(super) available: bool,
    /// The registered bot whose invited seat this connection took (`accept`).
    pub(super) account: Option<Box<str>>,
    /// The cluster, if this node is part of one.
    pub(super) cluster: Option<crate::cluster::Cluster>,
    /// The text of the `join` or `watch` being handled (sent on if it is relayed).
    joining: Option<Box<str>>,
    /// The node to pipe the connection to, the frame that goes first, and the invitation
    /// this node vouches it took up (a registered bot's `accept`, relayed on to the table's
    /// node). Boxed, and the strings here `Box<str>`, because a connection's task holds its
    /// reader for the connection's whole life and most connections never fill these.
    pub(super) relay_to: Option<Box<super::Upstream>>,
    /// The invitation and bot another node vouches for on this connection.
    pub(super) vouched: Option<Box<crate::cluster::bots::Vouch>>,
}

impl Reader {
    /// A reader at no table yet.
    pub(super) fn new(
        conn: Conn,
        lobby: Lobby,
        guard: FloodGuard,
        sessions: super::Sessions,
    ) -> Reader {
        Reader {
            conn,
            lobby,
            table: None,
            guard,
            frames_in: 0,
            bytes_in: 0,
            table_id: None,
            sessions,
            available: false,
            account: None,
            cluster: None,
            joining: None,
            relay_to: None,
            vouched: None,
        }
    }

    /// Reads frames until the client goes away or falls silent: nothing at all (not even the
    /// pong to the writer's pings) for `limits.idle`, or no table joined or watched for
    /// `limits.join`.
    pub(super) async fn run<R>(&mut self, stream: &mut R, limits: &super::Limits) -> ReadEnd
    where
        R: Stream<Item = Result<Message, axum::Error>> + Unpin,
    {
        let mut heard = Instant::now();
        let mut unjoined_since = Some(heard);
        // One timer for the connection's life, not one per frame: it stays set to an older
        // deadline while frames arrive, and when it fires before the current deadline it is
        // set again. Frames then cost no work in the runtime's timer wheel.
        let timer = sleep_until(heard + limits.idle.min(limits.join));
        tokio::pin!(timer);
        loop {
            // A registered bot's `available` connection waits for invitations at no table,
            // as long as it likes (overnight on the ladder): it counts as joined.
            match (self.table.is_some() || self.available, unjoined_since) {
                (true, _) => unjoined_since = None,
                (false, None) => unjoined_since = Some(Instant::now()),
                (false, Some(_)) => {}
            }
            let idle_at = heard + limits.idle;
            let join_at = unjoined_since.map(|since| since + limits.join);
            let deadline = join_at.map_or(idle_at, |join_at| join_at.min(idle_at));
            if timer.deadline() > deadline {
                timer.as_mut().reset(deadline);
            }
            let message = tokio::select! {
                message = stream.next() => message,
                () = &mut timer => {
                    if Instant::now() < deadline {
                        // Set for an older deadline: something arrived since.
                        timer.as_mut().reset(deadline);
                        continue;
                    }
                    return if join_at.is_some_and(|at| at <= idle_at) {
                        ReadEnd::NeverJoined(limits.join)
                    } else {
                        ReadEnd::Silent(limits.idle)
                    };
                }
            };
            let Some(message) = message else {
                return ReadEnd::Gone;
            };
            heard = Instant::now();
            // What is not handed on at once is handled in a boxed future of its own, awaited
            // in one place once the frame is consumed: the connection's task then stays small
            // however deep the handling goes (thousands of them are alive).
            let rest = match message {
                Ok(Message::Text(text)) => {
                    self.received(text.len());
                    match self.read(text.as_str(), heard) {
                        Ok(routed) => self.on_routed(text, routed),
                        Err(unread) => Some(self.refuse_unread(unread).boxed()),
                    }
                }
                Ok(Message::Binary(bytes)) => {
                    self.received(bytes.len());
                    Some(match self.admits(heard, false) {
                        Ok(()) => self.refuse(Refusal::BinaryFrame).boxed(),
                        Err(unread) => self.refuse_unread(unread).boxed(),
                    })
                }
                Ok(Message::Close(_)) => return ReadEnd::ClientClosed,
                Ok(Message::Ping(_) | Message::Pong(_)) => None,
                Err(err) => {
                    // tungstenite refuses frames over the hard limit and ends the stream.
                    tracing::debug!(conn = self.conn.id.0, %err, "read error");
                    let text = err.to_string();
                    if text.contains("too long") || text.contains("too big") {
                        Box::pin(self.refuse_too_large()).await;
                    }
                    return ReadEnd::Gone;
                }
            };
            OptionFuture::from(rest).await;
            if self.relay_to.is_some() {
                return ReadEnd::Relay;
            }
        }
    }

    /// Refuses a frame over the hard size limit, and gives the writer a moment to send the
    /// answer before the socket closes.
    async fn refuse_too_large(&self) {
        let err = ProtocolError::TooLarge {
            limit: MAX_MESSAGE_BYTES,
        };
        self.reply(&ServerMsg::error(err.code(), err.to_string()))
            .await;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    /// Counts a frame received.
    fn received(&mut self, bytes: usize) {
        self.frames_in += 1;
        self.bytes_in += bytes as u64;
        crate::tally::WS_BYTES_RECEIVED.add(bytes as u64);
    }

    /// Reads one text frame into a message for one side, or says why not: the flood guard
    /// refused it (see [`FloodGuard`]), or it is no message. A frame the bucket refuses is
    /// parsed only when a prompt's answer is due (it may be that answer).
    fn read(&mut self, text: &str, now: Instant) -> Result<Routed, Unread> {
        let parsed = self
            .guard
            .answer_is_due()
            .then(|| ClientMsg::parse(text).map(Routed::from));
        let is_move = matches!(parsed, Some(Ok(Routed::Table(TableRequest::Move { .. }))));
        self.admits(now, is_move)?;
        parsed
            .unwrap_or_else(|| ClientMsg::parse(text).map(Routed::from))
            .map_err(Unread::NotAMessage)
    }

    /// Asks the flood guard about a frame read at `now`.
    fn admits(&mut self, now: Instant, is_move: bool) -> Result<(), Unread> {
        if self.guard.admits(now, is_move) {
            return Ok(());
        }
        metrics::counter!("parlor_rate_limited_total").increment(1);
        Err(Unread::RateLimited)
    }

    /// Answers a frame that was not read.
    async fn refuse_unread(&self, unread: Unread) {
        let msg = match unread {
            Unread::RateLimited => Refusal::RateLimited(self.guard.rate()).to_msg(),
            Unread::NotAMessage(err) => ServerMsg::error(err.code(), err.to_string()),
        };
        self.reply(&msg).await;
    }

    /// Answers with `refusal`. The answer is made here, inside the caller's boxed future,
    /// not in the reader's loop: a message held across an await there stays in the loop's
    /// future for the connection's whole life.
    async fn refuse(&self, refusal: Refusal) {
        self.reply(&refusal.to_msg()).await;
    }

    /// One text frame, parsed and routed past the flood guard (which the fuzzer and the
    /// tests have no use for).
    #[cfg(test)]
    pub(super) async fn on_text(&mut self, text: &str) {
        match ClientMsg::parse(text) {
            Ok(msg) => {
                OptionFuture::from(self.on_routed(text.into(), Routed::from(msg))).await;
            }
            Err(err) => {
                self.reply(&ServerMsg::error(err.code(), err.to_string()))
                    .await
            }
        }
    }

    /// One message, `text` as read: a table's goes to the table, a connection's is handled
    /// here. What cannot be done at once (a connection's message, a table's message that
    /// waits for room or is refused) comes back as a boxed future: the connection's
    /// long-lived future then holds no message while it waits.
    fn on_routed(&mut self, text: Utf8Bytes, routed: Routed) -> Option<BoxFuture<'_, ()>> {
        match routed {
            Routed::Table(request) => {
                let rest = self.hand_to_table(request).err()?;
                Some(self.finish_handing(rest).boxed())
            }
            Routed::Connection(msg) => Some(self.on_connection_msg(text, msg).boxed()),
        }
    }

    /// A message for the connection itself.
    async fn on_connection_msg(&mut self, text: Utf8Bytes, msg: ConnectionMsg) {
        match msg {
            ConnectionMsg::Ping => self.reply(&ServerMsg::Pong {}).await,
            ConnectionMsg::Join { table, request } => {
                if self.cluster.is_some() {
                    // Sent on as it is if another node owns the table.
                    self.joining = Some(text.as_str().into());
                }
                Box::pin(self.join(&table, request)).await;
                self.joining = None;
            }
            ConnectionMsg::Bot(msg) => Box::pin(self.on_bot_msg(msg)).await,
        }
    }

    /// Hands `request` to this connection's table, the one way a table's message goes: into
    /// its mailbox at once while there is room (nearly every frame of a busy connection),
    /// else it says what is left ([`Reader::finish_handing`]).
    fn hand_to_table(&mut self, request: TableRequest) -> Result<(), Unhanded> {
        let Some(table) = &self.table else {
            return Err(Unhanded::NotJoined);
        };
        if matches!(request, TableRequest::Move { .. }) {
            self.conn.move_read();
        }
        let leaving = matches!(request, TableRequest::Leave);
        let msg = TableMsg::Request {
            conn: self.conn.id,
            request: Box::new(request),
        };
        match table.try_send(msg) {
            Ok(()) => {
                self.handed(leaving);
                Ok(())
            }
            Err((PushError::Full, msg)) => Err(Unhanded::Full { msg, leaving }),
            Err((PushError::Closed, _)) => Err(Unhanded::Closed),
        }
    }

    /// Finishes what [`Reader::hand_to_table`] could not do at once: a full mailbox is
    /// waited on, so a flooded table slows its senders and their messages arrive in the
    /// order sent; a refusal is answered.
    async fn finish_handing(&mut self, rest: Unhanded) {
        match rest {
            Unhanded::NotJoined => return self.refuse(Refusal::NotJoined).await,
            Unhanded::Full { msg, leaving } => {
                if let Some(table) = &self.table
                    && table.send(msg).await.is_ok()
                {
                    self.handed(leaving);
                    return;
                }
            }
            Unhanded::Closed => {}
        }
        self.table = None;
        self.refuse(Refusal::TableClosed).await;
    }

    /// A message is in the table's mailbox; after `leave` the connection is at no table.
    fn handed(&mut self, leaving: bool) {
        if leaving {
            self.table = None;
            self.seat_released();
        }
    }

    /// `join` or `watch`: hands the connection to the table, which answers it directly.
    /// True when the connection is now at the table.
    pub(super) async fn join(&mut self, id: &str, request: JoinRequest) -> bool {
        if self.table.is_some() {
            self.reply(&Refusal::AlreadyJoined.to_msg()).await;
            return false;
        }
        let no_table = || Refusal::NoSuchTable(id.to_string()).to_msg();
        let table = match self.lobby.get(id) {
            Some(table) => table,
            None => match self.elsewhere(id).await {
                Elsewhere::Here(table) => table,
                Elsewhere::There(address) => {
                    if let Some(first) = self.joining.take() {
                        self.relay_to = Some(Box::new(super::Upstream::new(address, first.into())));
                    }
                    return false;
                }
                Elsewhere::Nowhere => {
                    self.reply(&no_table()).await;
                    return false;
                }
            },
        };
        let (reply, joined) = oneshot::channel();
        let msg = TableMsg::Join {
            conn: self.conn.clone(),
            request: Box::new(request),
            reply,
        };
        if table.send(msg).await.is_err() {
            self.reply(&no_table()).await;
            return false;
        }
        if joined.await.unwrap_or(false) {
            self.table_id = Some(id.into());
            self.sessions.at_table(self.conn.id, id);
            self.table = Some(table);
            return true;
        }
        false
    }

    /// Finds a table not open here in the cluster: on another node, or about to open here
    /// (adopted meanwhile). A table whose lease ran out is waited for, at most three leases
    /// (its adoption takes one round).
    async fn elsewhere(&self, id: &str) -> Elsewhere {
        let Some(cluster) = &self.cluster else {
            return Elsewhere::Nowhere;
        };
        let step = Duration::from_millis(100);
        let tries = (cluster.lease() * 3).as_millis() / step.as_millis() + 1;
        for _ in 0..tries {
            match cluster.locate(id).await {
                crate::cluster::Location::Remote(address) => return Elsewhere::There(address),
                crate::cluster::Location::Nowhere => break,
                crate::cluster::Location::Moving => {}
            }
            if let Some(table) = self.lobby.get(id) {
                return Elsewhere::Here(table);
            }
            tokio::time::sleep(step).await;
        }
        match self.lobby.get(id) {
            Some(table) => Elsewhere::Here(table),
            None => Elsewhere::Nowhere,
        }
    }

    /// Queues an answer of the reader's own, waiting for room in the queue (a client that
    /// does not read its answers stops being read, and never costs the table anything).
    pub(super) async fn reply(&self, msg: &ServerMsg) {
        self.conn.send_wait(msg).await;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use parlor_shared::{Action, Card};
    use tokio_util::sync::CancellationToken;

    use super::*;
    use crate::conn::{ConnId, bounded};
    use crate::ws::Asked;

    /// A reader at `table` whose flood guard allows `burst` frames and counts `asked`.
    fn reader_at(table: Option<TableHandle>, burst: u32, asked: Arc<Asked>) -> Reader {
        let (tx, _) = bounded(8);
        let conn = Conn::new(ConnId::next(), tx, CancellationToken::new());
        let lobby = Lobby::new(Duration::from_secs(600), 8, CancellationToken::new());
        let guard = FloodGuard::new(1, burst, asked);
        let mut reader = Reader::new(conn, lobby, guard, super::super::Sessions::default());
        reader.table = table;
        reader
    }

    /// The request a mailbox message carries.
    fn request(msg: TableMsg) -> TableRequest {
        match msg {
            TableMsg::Request { request, .. } => *request,
            _ => panic!("not a request"),
        }
    }

    fn play(card: &str) -> TableRequest {
        TableRequest::Move {
            action: Action::Play {
                card: card.parse::<Card>().unwrap(),
            },
            seat: None,
            seq: None,
        }
    }

    /// The reading loop lives as long as its connection, thousands at once, so what it
    /// awaits besides the socket is boxed: a message's handling (a table's message waiting
    /// for room, a connection's message, a refusal) adds nothing to it.
    #[test]
    fn the_reading_loop_holds_no_message_while_it_waits() {
        let mut reader = reader_at(None, 8, Arc::default());
        let mut stream = futures_util::stream::empty::<Result<Message, axum::Error>>();
        let limits = super::super::Limits {
            rate_per_sec: 1,
            burst: 1,
            outbound_queue: 1,
            idle: Duration::from_secs(1),
            join: Duration::from_secs(1),
        };
        let reading = reader.run(&mut stream, &limits);
        let size = std::mem::size_of_val(&reading);
        // A message's handling awaited in place would stay in every connection's task for
        // its whole life, and this bound fails when it does.
        assert!(size <= 512, "the reading loop's future is {size} bytes");
    }

    /// A table's message goes into the mailbox at once while there is room; when it is
    /// full, the next waits for room and arrives after what was there, as sent. Moves and
    /// other table messages take the same way.
    #[tokio::test]
    async fn a_table_message_goes_in_at_once_or_waits_for_room_in_order() {
        let (table, mut mailbox) = TableHandle::detached("t", 1);
        let mut reader = reader_at(Some(table), 8, Arc::default());
        reader.on_text(r#"{"type":"play","card":"2C"}"#).await;
        let waiting = tokio::spawn(async move {
            reader.on_text(r#"{"type":"play","card":"3C"}"#).await;
            reader.on_text(r#"{"type":"chat","text":"hi"}"#).await;
            reader
        });
        // Bounded, so a message that never arrives fails the test instead of hanging it.
        let mut next = async || {
            let msg = tokio::time::timeout(Duration::from_secs(10), mailbox.recv()).await;
            request(
                msg.expect("a message arrives")
                    .expect("the mailbox is open"),
            )
        };
        assert_eq!(next().await, play("2C"));
        assert_eq!(next().await, play("3C"));
        assert_eq!(
            next().await,
            TableRequest::Chat {
                text: "hi".to_string()
            }
        );
        let mut reader = waiting.await.unwrap();
        reader.on_text(r#"{"type":"ping"}"#).await;
        reader.on_text("not json").await;
        assert!(
            mailbox.try_recv().is_none(),
            "a connection's message stays here"
        );
    }

    /// The flood guard before routing: with the bucket dry, a move answering a prompt the
    /// writer wrote is read, a second move or a ping is refused, and so is a frame that is
    /// no message at all.
    #[tokio::test(start_paused = true)]
    async fn the_guard_admits_a_prompt_s_answer_with_the_bucket_dry() {
        let asked = Arc::new(Asked::default());
        let mut reader = reader_at(None, 1, Arc::clone(&asked));
        let now = Instant::now();
        let ping = r#"{"type":"ping"}"#;
        let play = r#"{"type":"play","card":"2C"}"#;
        assert!(matches!(
            reader.read(ping, now),
            Ok(Routed::Connection(ConnectionMsg::Ping))
        ));
        let limited = |read: Result<Routed, Unread>| matches!(read, Err(Unread::RateLimited));
        assert!(limited(reader.read(play, now)));
        asked.writing(r#"{"type":"your_turn","seq":4,"legal":{}}"#, &mut None);
        assert!(limited(reader.read(ping, now)), "only a move answers");
        assert!(matches!(reader.read(play, now), Ok(Routed::Table(_))));
        assert!(limited(reader.read(play, now)));
        assert!(limited(reader.read("not json", now)));
    }
}
