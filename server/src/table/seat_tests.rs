//! The seat and host rules on the actor alone, on paused tokio time: a person's turn clock
//! hands their moves to a computer until they are back, the host can do the same with the
//! clock off, the host role stays with its holder while they are away, and a seat given up
//! during a match is closed to newcomers until the host opens it.

use std::time::Duration;

use parlor_shared::protocol::{ServerMsg, TableInfo, TableOptions, codes};
use parlor_shared::{Action, Event, Legal, Options, Seat, Variant};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::{JoinRequest, TableHandle, TableMsg, TableRequest, TableSetup, spawn};
use crate::conn::{Conn, ConnId, Frame, Receiver, bounded};

/// A client whose frames the test reads.
struct Client {
    conn: Conn,
    rx: Receiver<Frame>,
}

impl Client {
    fn new() -> Client {
        let (tx, rx) = bounded(100_000);
        Client {
            conn: Conn::new(ConnId::next(), tx, CancellationToken::new()),
            rx,
        }
    }

    /// The next message the table sent this client.
    async fn next(&mut self) -> ServerMsg {
        let frame = self.rx.recv().await.expect("the table keeps talking");
        serde_json::from_str(frame.as_str()).unwrap()
    }

    /// Reads until `pick` returns something.
    async fn until<T>(&mut self, mut pick: impl FnMut(&ServerMsg) -> Option<T>) -> T {
        loop {
            let msg = self.next().await;
            if let Some(found) = pick(&msg) {
                return found;
            }
        }
    }

    /// The next refusal's code.
    async fn error(&mut self) -> String {
        self.until(|m| match m {
            ServerMsg::Error { code, .. } => Some(code.clone()),
            _ => None,
        })
        .await
    }

    /// Reads until a `table` frame satisfies `check`.
    async fn table_where(&mut self, check: impl Fn(&TableInfo) -> bool) -> TableInfo {
        self.until(|m| match m {
            ServerMsg::Table { table, .. } if check(table) => Some(table.clone()),
            _ => None,
        })
        .await
    }
}

/// A whist table of one hand with this turn clock.
fn whist(turn_clock_ms: u64) -> TableHandle {
    let setup = TableSetup {
        id: "seats".into(),
        variant: Variant::Whist,
        options: Options {
            target: Some(1),
            ..Options::default()
        },
        table_options: TableOptions {
            turn_clock_ms: Some(turn_clock_ms),
            ..TableOptions::default()
        },
        seed: Some(11),
        idle_ttl: Duration::from_secs(600),
        store: None,
        restored: None,
        host_key: None,
        max_spectators: 2,
        ratings: crate::ratings::Ratings::default(),
        unsat_ttl: Duration::from_secs(600),
    };
    spawn(setup, CancellationToken::new(), || {}).unwrap()
}

/// Asks the table to seat (or, with `watch`, take as a spectator) `client`; true when it did.
async fn join(table: &TableHandle, client: &Client, seat: Option<u8>, watch: bool) -> bool {
    let (reply, joined) = oneshot::channel();
    let request = JoinRequest {
        seat: seat.map(Seat),
        name: None,
        token: None,
        bot: false,
        account: None,
        watch,
    };
    let msg = TableMsg::Join {
        conn: client.conn.clone(),
        request: Box::new(request),
        reply,
    };
    table.send(msg).await.unwrap();
    joined.await.unwrap()
}

async fn say(table: &TableHandle, client: &Client, request: TableRequest) {
    let msg = TableMsg::Request {
        conn: client.conn.id,
        request: Box::new(request),
    };
    table.send(msg).await.unwrap();
}

async fn add_bots(table: &TableHandle, host: &Client, seats: &[u8]) {
    for &seat in seats {
        let strategy = "random".to_string();
        let seat = Seat(seat);
        say(table, host, TableRequest::AddBot { seat, strategy }).await;
    }
}

/// The lowest legal card, as a move.
fn lowest(legal: &Legal) -> TableRequest {
    let Legal::Play { cards } = legal else {
        panic!("whist only plays cards: {legal:?}")
    };
    let card = cards.lowest().unwrap();
    TableRequest::Move {
        action: Action::Play { card },
        seat: None,
        seq: None,
    }
}

/// A person who never plays: when their clock runs out a computer plays for them and keeps
/// doing so (the match ends without them); after `back` they are asked again.
#[tokio::test(start_paused = true)]
async fn a_person_out_of_time_is_stood_in_for_until_they_are_back() {
    let table = whist(5_000);
    let mut idle = Client::new();
    assert!(join(&table, &idle, None, false).await);
    add_bots(&table, &idle, &[1, 2, 3]).await;
    say(&table, &idle, TableRequest::Start).await;
    let timeout = idle
        .until(|m| match m {
            ServerMsg::YourTurn { timeout_ms, .. } => Some(*timeout_ms),
            _ => None,
        })
        .await;
    assert_eq!(
        timeout,
        Some(5_000),
        "the prompt says how long the clock is"
    );
    // Not answering: the clock runs out and a computer stands in, the seat still theirs.
    let info = idle.table_where(|t| t.seats[0].bot_playing).await;
    assert!(info.seats[0].connected);
    assert_eq!(info.host, Some(Seat(0)), "still host");
    idle.until(|m| match m {
        ServerMsg::Event {
            event: Event::Played { seat: Seat(0), .. },
            ..
        } => Some(()),
        _ => None,
    })
    .await;
    say(&table, &idle, TableRequest::Back).await;
    idle.table_where(|t| !t.seats[0].bot_playing).await;
    let legal = idle
        .until(|m| match m {
            ServerMsg::YourTurn { legal, .. } => Some(*legal),
            _ => None,
        })
        .await;
    say(&table, &idle, lowest(&legal)).await;
    // Stalling again to the end: the match finishes all the same.
    idle.until(|m| match m {
        ServerMsg::Event {
            event: Event::MatchOver { .. },
            ..
        } => Some(()),
        _ => None,
    })
    .await;
}

/// With the clock off nobody is hurried, and the host lets a computer play a stalling
/// person's seat; the host role stays with its holder while they are away.
#[tokio::test(start_paused = true)]
async fn with_no_clock_the_host_hands_a_stalling_seat_to_a_computer() {
    let table = whist(0);
    let mut host = Client::new();
    let mut staller = Client::new();
    assert!(join(&table, &host, Some(0), false).await);
    assert!(join(&table, &staller, Some(1), false).await);
    add_bots(&table, &host, &[2, 3]).await;
    say(&table, &staller, TableRequest::Start).await;
    assert_eq!(staller.error().await, codes::NOT_HOST);
    say(&table, &host, TableRequest::Start).await;
    // The host plays its turns until the staller is asked.
    let timeout = loop {
        tokio::select! {
            msg = host.next() => if let ServerMsg::YourTurn { legal, .. } = msg {
                say(&table, &host, lowest(&legal)).await;
            },
            msg = staller.next() => if let ServerMsg::YourTurn { timeout_ms, .. } = msg {
                break timeout_ms;
            },
        }
    };
    assert_eq!(timeout, None, "no clock");
    // An hour on paused time: nothing moves for the staller.
    tokio::time::sleep(Duration::from_secs(3600)).await;
    say(&table, &staller, TableRequest::StandIn { seat: Seat(0) }).await;
    assert_eq!(staller.error().await, codes::NOT_HOST);
    say(&table, &host, TableRequest::StandIn { seat: Seat(2) }).await;
    assert_eq!(host.error().await, codes::NO_PLAYER, "a built-in bot");
    say(&table, &host, TableRequest::StandIn { seat: Seat(1) }).await;
    staller.table_where(|t| t.seats[1].bot_playing).await;
    // The host plays on; the match ends.
    loop {
        match host.next().await {
            ServerMsg::YourTurn { legal, .. } => say(&table, &host, lowest(&legal)).await,
            ServerMsg::Event {
                event: Event::MatchOver { .. },
                ..
            } => break,
            _ => {}
        }
    }
}

/// The host who goes away stays host; only giving the seat up hands the role on. A seat given
/// up during the match is closed to newcomers until the host opens it.
#[tokio::test(start_paused = true)]
async fn the_host_role_and_given_up_seats() {
    let table = whist(0);
    let mut host = Client::new();
    let mut other = Client::new();
    assert!(join(&table, &host, Some(0), false).await);
    assert!(join(&table, &other, Some(1), false).await);
    add_bots(&table, &host, &[2, 3]).await;
    say(&table, &host, TableRequest::Start).await;
    // The host's connection drops: the role stays with the seat.
    let msg = TableMsg::Disconnected { conn: host.conn.id };
    table.send(msg).await.unwrap();
    let info = other.table_where(|t| !t.seats[0].connected).await;
    assert_eq!(info.host, Some(Seat(0)));
    say(&table, &other, TableRequest::OpenSeat { seat: Seat(2) }).await;
    assert_eq!(other.error().await, codes::NOT_HOST);
    // The host comes back (a new connection with the token would; here the same seat).
    let mut back = Client::new();
    let (reply, joined) = oneshot::channel();
    let token = host
        .until(|m| match m {
            ServerMsg::Welcome { token, .. } => token.clone(),
            _ => None,
        })
        .await;
    let request = JoinRequest {
        seat: None,
        name: None,
        token: Some(token),
        bot: false,
        account: None,
        watch: false,
    };
    let msg = TableMsg::Join {
        conn: back.conn.clone(),
        request: Box::new(request),
        reply,
    };
    table.send(msg).await.unwrap();
    assert!(joined.await.unwrap());
    // The other player gives their seat up mid-match: a computer plays it, and a newcomer
    // (say, the other player's second window) cannot sit there.
    say(&table, &other, TableRequest::Leave).await;
    back.table_where(|t| t.seats[1].bot_playing && t.host == Some(Seat(0)))
        .await;
    let mut newcomer = Client::new();
    assert!(!join(&table, &newcomer, None, false).await);
    assert_eq!(newcomer.error().await, codes::SEAT_CLOSED);
    assert!(!join(&table, &newcomer, Some(1), false).await);
    assert_eq!(newcomer.error().await, codes::SEAT_CLOSED);
    // The host opens it: now the newcomer may sit.
    say(&table, &back, TableRequest::OpenSeat { seat: Seat(1) }).await;
    back.table_where(|t| t.seats[1].open).await;
    assert!(join(&table, &newcomer, None, false).await);
    let info = newcomer
        .table_where(|t| t.seats[1].connected && !t.seats[1].bot_playing)
        .await;
    assert!(!info.seats[1].open);
    // Spectators: two at most here.
    let watchers: Vec<Client> = (0..3).map(|_| Client::new()).collect();
    assert!(join(&table, &watchers[0], None, true).await);
    assert!(join(&table, &watchers[1], None, true).await);
    let mut third = Client::new();
    assert!(!join(&table, &third, None, true).await);
    assert_eq!(third.error().await, codes::TOO_MANY_SPECTATORS);
    // The host gives up the seat: the role goes to the person still there.
    say(&table, &back, TableRequest::Leave).await;
    newcomer.table_where(|t| t.host == Some(Seat(1))).await;
}
