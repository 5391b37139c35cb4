//! The reading half of a connection: rate limit, parse, and route each frame. `ping`,
//! `join` and `watch` are handled here and only here; everything else goes to the table the
//! connection is at, as a [`TableRequest`].

use std::time::Duration;

use axum::extract::ws::Message;
use futures_util::{Stream, StreamExt};
use parlor_shared::Action;
use parlor_shared::protocol::{ClientMsg, MAX_MESSAGE_BYTES, ProtocolError, ServerMsg};
use tokio::sync::oneshot;
use tokio::time::{Instant, sleep_until};

use super::TokenBucket;
use super::refusal::Refusal;
use crate::conn::Conn;
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
    bucket: TokenBucket,
    /// Messages per second allowed (for the error text).
    rate: u32,
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
        bucket: TokenBucket,
        rate: u32,
        sessions: super::Sessions,
    ) -> Reader {
        Reader {
            conn,
            lobby,
            table: None,
            bucket,
            rate,
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
            match message {
                // Each message is handled in its own boxed future: the connection's task then
                // stays small however deep the handling goes (thousands of them are alive).
                // A move, when its table has room, needs no future at all.
                Ok(Message::Text(text)) => {
                    self.received(text.len());
                    if self.allowed(heard).await {
                        let parsed = ClientMsg::parse(text.as_str());
                        if !matches!(&parsed, Ok(msg) if self.moved_at_once(msg)) {
                            Box::pin(self.on_parsed(text.as_str(), parsed)).await;
                            if self.relay_to.is_some() {
                                return ReadEnd::Relay;
                            }
                        }
                    }
                }
                Ok(Message::Binary(bytes)) => {
                    self.received(bytes.len());
                    if self.allowed(heard).await {
                        Box::pin(self.refuse(Refusal::BinaryFrame)).await;
                    }
                }
                Ok(Message::Close(_)) => return ReadEnd::ClientClosed,
                Ok(Message::Ping(_) | Message::Pong(_)) => {}
                Err(err) => {
                    // tungstenite refuses frames over the hard limit and ends the stream.
                    tracing::debug!(conn = self.conn.id.0, %err, "read error");
                    let text = err.to_string();
                    if text.contains("too long") || text.contains("too big") {
                        Box::pin(self.refuse_too_large()).await;
                    }
                    return ReadEnd::Gone;
                }
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

    /// Takes a token from the bucket for a frame read at `now`, or refuses the frame with
    /// `rate_limited`.
    async fn allowed(&mut self, now: Instant) -> bool {
        self.bucket.give_back(self.conn.take_refunds());
        let allowed = self.bucket.take(now);
        if !allowed {
            metrics::counter!("parlor_rate_limited_total").increment(1);
            Box::pin(self.refuse(Refusal::RateLimited(self.rate))).await;
        }
        allowed
    }

    /// Answers with `refusal`. The answer is made here, inside the caller's boxed future,
    /// not in the reader's loop: a message held across an await there stays in the loop's
    /// future for the connection's whole life.
    async fn refuse(&self, refusal: Refusal) {
        self.reply(&refusal.to_msg()).await;
    }

    /// One text frame, read here (the reader's loop reads it first, for [`Self::moved_at_once`]).
    #[cfg(test)]
    pub(super) async fn on_text(&mut self, text: &str) {
        self.on_parsed(text, ClientMsg::parse(text)).await;
    }

    /// One text frame, read as `parsed`.
    async fn on_parsed(&mut self, text: &str, parsed: Result<ClientMsg, ProtocolError>) {
        match parsed {
            Ok(msg) => {
                if self.cluster.is_some()
                    && matches!(msg, ClientMsg::Join { .. } | ClientMsg::Watch { .. })
                {
                    self.joining = Some(text.into());
                }
                self.dispatch(msg).await;
                self.joining = None;
            }
            Err(err) => {
                self.reply(&ServerMsg::error(err.code(), err.to_string()))
                    .await
            }
        }
    }

    /// Hands a move to this connection's table at once, if the table's mailbox has room:
    /// nearly every frame of a busy connection is a move, and each is then spared the boxed
    /// future the other messages are handled in (allocated and freed per frame, too large for
    /// the allocator's per-thread cache). False when `msg` is not a move, the
    /// connection is at no table, or the mailbox is full or closed: the message is then
    /// handled as any other (waiting for room, or answering).
    fn moved_at_once(&self, msg: &ClientMsg) -> bool {
        let Some(table) = &self.table else {
            return false;
        };
        let Some(request) = move_request(msg) else {
            return false;
        };
        self.conn.move_read();
        table.try_send(TableMsg::Request {
            conn: self.conn.id,
            request: Box::new(request),
        })
    }

    /// Acts on one well-formed message.
    async fn dispatch(&mut self, msg: ClientMsg) {
        if let Some(request) = move_request(&msg) {
            return self.ask_table(request).await;
        }
        let request = match msg {
            ClientMsg::Ping {} => return self.reply(&ServerMsg::Pong {}).await,
            ClientMsg::Join {
                table,
                seat,
                name,
                token,
                bot,
            } => {
                let request = JoinRequest {
                    seat,
                    name,
                    token,
                    bot,
                    watch: false,
                    account: None,
                };
                Box::pin(self.join(&table, request)).await;
                return;
            }
            ClientMsg::Watch { table } => {
                let request = JoinRequest {
                    seat: None,
                    name: None,
                    token: None,
                    bot: false,
                    watch: true,
                    account: None,
                };
                Box::pin(self.join(&table, request)).await;
                return;
            }
            ClientMsg::Play { .. }
            | ClientMsg::Pass { .. }
            | ClientMsg::Bid { .. }
            | ClientMsg::BlindNil { .. }
            | ClientMsg::SeeCards { .. }
            | ClientMsg::Exchange { .. }
            | ClientMsg::Call { .. }
            | ClientMsg::Discard { .. }
            | ClientMsg::Claim { .. }
            | ClientMsg::AnswerClaim { .. } => {
                unreachable!("moves are made into requests above")
            }
            ClientMsg::AddBot { seat, strategy } => TableRequest::AddBot { seat, strategy },
            ClientMsg::RemoveBot { seat } => TableRequest::RemoveBot { seat },
            ClientMsg::Start {} => TableRequest::Start,
            ClientMsg::Leave {} => TableRequest::Leave,
            ClientMsg::Sync {} => TableRequest::Sync,
            ClientMsg::Chat { text } => TableRequest::Chat { text },
            ClientMsg::Hint {} => TableRequest::Hint,
            ClientMsg::ClaimHost { key } => TableRequest::ClaimHost { key },
            ClientMsg::StandIn { seat } => TableRequest::StandIn { seat },
            ClientMsg::Back {} => TableRequest::Back,
            ClientMsg::OpenSeat { seat } => TableRequest::OpenSeat { seat },
            ClientMsg::Available { .. }
            | ClientMsg::Accept { .. }
            | ClientMsg::Decline { .. }
            | ClientMsg::InviteBot { .. } => return Box::pin(self.on_bot_msg(msg)).await,
        };
        self.ask_table(request).await;
    }

    /// Hands `request` to this connection's table, waiting for room in its mailbox.
    async fn ask_table(&mut self, request: TableRequest) {
        let Some(table) = &self.table else {
            self.reply(&Refusal::NotJoined.to_msg()).await;
            return;
        };
        let leaving = request == TableRequest::Leave;
        let msg = TableMsg::Request {
            conn: self.conn.id,
            request: Box::new(request),
        };
        if table.send(msg).await.is_err() {
            self.table = None;
            self.reply(&Refusal::TableClosed.to_msg()).await;
        } else if leaving {
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

/// The table request a move (`play`, `pass`, `bid`, `blind_nil`, `see_cards`, `exchange`,
/// `call`, `discard`, `claim`, `answer_claim`)
/// makes; `None` for any other message.
fn move_request(msg: &ClientMsg) -> Option<TableRequest> {
    match msg {
        ClientMsg::BlindNil { seat, seq }
        | ClientMsg::SeeCards { seat, seq }
        | ClientMsg::Exchange { seat, seq, .. }
        | ClientMsg::Call { seat, seq, .. }
        | ClientMsg::Discard { seat, seq, .. }
        | ClientMsg::Claim { seat, seq, .. }
        | ClientMsg::AnswerClaim { seat, seq, .. } => Some(TableRequest::Move {
            action: msg.action().expect("a move"),
            seat: *seat,
            seq: *seq,
        }),
        ClientMsg::Play { card, seat, seq } => Some(TableRequest::Move {
            action: Action::Play { card: *card },
            seat: *seat,
            seq: *seq,
        }),
        ClientMsg::Pass { cards, seat, seq } => Some(TableRequest::Move {
            action: Action::Pass {
                cards: cards.clone(),
            },
            seat: *seat,
            seq: *seq,
        }),
        ClientMsg::Bid { tricks, seat, seq } => Some(TableRequest::Move {
            action: Action::Bid { tricks: *tricks },
            seat: *seat,
            seq: *seq,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use parlor_shared::Card;
    use tokio_util::sync::CancellationToken;

    use super::*;
    use crate::conn::{ConnId, bounded};

    /// A reader at `table`, with room for any number of frames.
    fn reader_at(table: TableHandle) -> Reader {
        let (tx, _) = bounded(8);
        let conn = Conn::new(ConnId::next(), tx, CancellationToken::new());
        let lobby = Lobby::new(Duration::from_secs(600), 8, CancellationToken::new());
        let bucket = TokenBucket::new(1_000, 1_000);
        let mut reader = Reader::new(
            conn,
            lobby,
            bucket,
            1_000,
            super::super::Sessions::default(),
        );
        reader.table = Some(table);
        reader
    }

    /// Whether the reader's loop would hand `text` to the table at once.
    fn moved(reader: &Reader, text: &str) -> bool {
        ClientMsg::parse(text).is_ok_and(|msg| reader.moved_at_once(&msg))
    }

    /// The card a mailbox message plays.
    fn played(msg: TableMsg) -> Card {
        match msg {
            TableMsg::Request { request, .. } => match *request {
                TableRequest::Move {
                    action: Action::Play { card },
                    ..
                } => card,
                other => panic!("not a play: {other:?}"),
            },
            _ => panic!("not a request"),
        }
    }

    /// A move goes into the table's mailbox at once while there is room. When it is full,
    /// the move is handled as any other message: it waits for room, and arrives after what
    /// was there, as sent. Other messages never take the quick way.
    #[tokio::test]
    async fn a_move_reaches_the_table_at_once_or_waits_for_room_in_order() {
        let (table, mut mailbox) = TableHandle::detached("t", 1);
        let mut reader = reader_at(table);
        let two: Card = "2C".parse().unwrap();
        let three: Card = "3C".parse().unwrap();
        assert!(moved(&reader, r#"{"type":"play","card":"2C"}"#));
        assert!(!moved(&reader, r#"{"type":"play","card":"3C"}"#));
        let waiting = tokio::spawn(async move {
            reader.on_text(r#"{"type":"play","card":"3C"}"#).await;
            reader
        });
        // Bounded, so a move that never arrives fails the test instead of hanging it.
        let mut next = async || {
            let msg = tokio::time::timeout(Duration::from_secs(10), mailbox.recv()).await;
            played(msg.expect("a move arrives").expect("the mailbox is open"))
        };
        assert_eq!(next().await, two);
        assert_eq!(next().await, three);
        let reader = waiting.await.unwrap();
        assert!(!moved(&reader, r#"{"type":"chat","text":"hi"}"#));
        assert!(!moved(&reader, "not json"));
        assert!(mailbox.try_recv().is_none());
    }
}
