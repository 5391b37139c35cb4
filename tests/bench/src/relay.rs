//! A bare WebSocket relay with the traffic shape of a Parlor table: the speed a server could
//! reach on this machine doing nothing but moving the same frames, measured in the same run
//! as Parlor (`versus-relay`) so that the two can be compared.
//!
//! It speaks just enough of the protocol for `parlor loadtest`'s clients (make a table, join,
//! a move answered with the `played` event to all four seats and a real Hearts match's next
//! prompt), with no rules, views or storage. It runs on its own threads, as a separate server
//! would, and listens on 127.0.0.1 only. With `--relay-linger-ms` it holds others' moves in
//! Parlor's own frame queue, as a server with `--ws-linger-ms` does; without, each frame goes
//! out as soon as the connection's writer runs.

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::Context;
use axum::Router;
use axum::extract::State;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use axum::routing::{get, post};
use axum::serve::ListenerExt;
use futures_util::{SinkExt, StreamExt};
use parlor_shared::bots::RandomBot;
use parlor_shared::fair::practice_master;
use parlor_shared::protocol::{PROTOCOL_VERSION, ServerMsg};
use parlor_shared::rules::Rules;
use parlor_shared::{Game, Options, PlayerView, Seat, Variant};
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};
use tokio_util::sync::CancellationToken;

use parlor_server::conn::{Linger, lingering};
use parlor_server::http::CpuTime;

/// A running relay; stops when dropped.
pub struct Relay {
    /// Where it listens.
    pub addr: SocketAddr,
    stop: CancellationToken,
    thread: Option<JoinHandle<()>>,
    /// Its threads, for the CPU time it uses.
    threads: ThreadCpu,
}

impl Relay {
    /// Starts a relay on a free port of 127.0.0.1 with `threads` workers (0: one per core),
    /// holding others' moves up to `linger` (zero: the bare relay).
    pub fn start(threads: usize, linger: Duration) -> anyhow::Result<Relay> {
        let cpu = ThreadCpu::default();
        let noted = cpu.clone();
        let runtime =
            parlor_server::tools::runtime_on_start(threads, move || noted.note_this_thread())?;
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .context("binding the relay's port")?;
        let addr = listener.local_addr()?;
        let stop = CancellationToken::new();
        let stopped = stop.clone();
        let noted = cpu.clone();
        let hub = Hub {
            tables: Arc::default(),
            next_table: Arc::default(),
            prompt: Arc::new(Prompt::new()),
            linger: Linger::new(linger),
        };
        let thread = std::thread::Builder::new()
            .name("relay".into())
            .spawn(move || {
                // This thread runs the accept loop.
                noted.note_this_thread();
                runtime.block_on(async move {
                    let listener = listener.tap_io(|tcp| {
                        let _ = tcp.set_nodelay(true);
                    });
                    let app = Router::new()
                        .route("/api/tables", post(create_table))
                        .route("/ws", get(upgrade))
                        .with_state(hub);
                    let _ = axum::serve(listener, app)
                        .with_graceful_shutdown(async move { stopped.cancelled().await })
                        .await;
                });
                // Connections still open end with the runtime.
                runtime.shutdown_background();
            })
            .context("starting the relay's thread")?;
        Ok(Relay {
            addr,
            stop,
            thread: Some(thread),
            threads: cpu,
        })
    }

    /// The CPU time its threads have used so far (`None` off Linux).
    #[must_use]
    pub fn cpu_time(&self) -> Option<CpuTime> {
        self.threads.time()
    }
}

/// The CPU time of the threads that noted themselves, read from each one's `/proc` entry
/// (Linux): the relay shares its process with the load generator, so the process's own
/// figure would count both.
#[derive(Clone, Default)]
struct ThreadCpu(Arc<Mutex<Vec<String>>>);

impl ThreadCpu {
    /// Adds the calling thread.
    fn note_this_thread(&self) {
        // `/proc/thread-self` links to `<pid>/task/<tid>`.
        if let Ok(link) = std::fs::read_link("/proc/thread-self") {
            let stat = format!("/proc/{}/stat", link.display());
            self.0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(stat);
        }
    }

    /// Their CPU time so far; threads that have ended are left out.
    fn time(&self) -> Option<CpuTime> {
        let stats = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if stats.is_empty() {
            return None;
        }
        Some(
            stats
                .iter()
                .filter_map(|stat| parlor_server::http::cpu_time_in(stat))
                .fold(CpuTime::default(), |sum, time| sum + time),
        )
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop.cancel();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// What every connection shares.
#[derive(Clone)]
struct Hub {
    tables: Arc<Mutex<HashMap<String, Arc<Mutex<Table>>>>>,
    next_table: Arc<AtomicU64>,
    prompt: Arc<Prompt>,
    linger: Linger,
}

/// A connection's outbound frames: a plain channel (the bare relay), or Parlor's own queue,
/// where others' moves may wait for company.
#[derive(Clone)]
enum Outbound {
    Plain(UnboundedSender<Utf8Bytes>),
    Lingering(parlor_server::conn::Sender<Utf8Bytes>),
}

impl Outbound {
    /// Queues a frame to go out at once.
    fn send(&self, frame: Utf8Bytes) {
        match self {
            Outbound::Plain(tx) => drop(tx.send(frame)),
            Outbound::Lingering(tx) => drop(tx.try_push(frame)),
        }
    }

    /// Queues a frame that may wait for company (when lingering).
    fn send_lazy(&self, frame: Utf8Bytes) {
        match self {
            Outbound::Plain(tx) => drop(tx.send(frame)),
            Outbound::Lingering(tx) => drop(tx.try_push_lazy(frame)),
        }
    }
}

/// The most frames a lingering relay connection queues (never reached by the load test).
const LINGERING_QUEUE: usize = 1 << 16;

/// Four seats passing the turn around.
#[derive(Default)]
struct Table {
    seats: [Option<Outbound>; 4],
    joined: u8,
    turn: u8,
    seq: u64,
}

/// The `your_turn` frames of a whole Hearts match as a Parlor table sends them (fair deal with
/// its commitment, the score sheet growing hand by hand), made once; a table's n-th move is
/// answered with the n-th, its `seq` filled in. A single prompt from the first hand would be
/// smaller than the average one a real table sends, and the relay's traffic would not be the
/// server's.
struct Prompt {
    /// Each prompt's text before and after its `seq`.
    frames: Vec<(String, String)>,
}

impl Prompt {
    /// Plays a match with random legal moves and keeps the prompt of every seat asked to act,
    /// in order.
    fn new() -> Prompt {
        const MARK: u64 = 987_654_321_012_345;
        let rules = Rules::new(Variant::Hearts, &Options::default()).expect("default options");
        let mut game = Game::with_master(rules, practice_master(1));
        let mut bot = RandomBot::new(1);
        let mut events = Vec::new();
        let mut frames = Vec::new();
        while !game.is_over() {
            let seat = game.to_act().first().expect("someone acts");
            let msg = ServerMsg::YourTurn {
                seq: MARK,
                legal: game.legal_actions(seat),
                view: Box::new(PlayerView::of(&game, Some(seat))),
                timeout_ms: Some(600_000),
            };
            let text = serde_json::to_string(&msg).expect("server messages serialize");
            let (before, after) = text
                .split_once(&MARK.to_string())
                .expect("the prompt names its seq");
            frames.push((before.to_string(), after.to_string()));
            bot.act_on(&mut game, seat, &mut events)
                .expect("random legal moves are accepted");
        }
        Prompt { frames }
    }

    /// The prompt of a table's move `seq`.
    fn with_seq(&self, seq: u64) -> Utf8Bytes {
        let (before, after) = &self.frames[(seq % self.frames.len() as u64) as usize];
        format!("{before}{seq}{after}").into()
    }
}

/// `POST /api/tables`: a fresh table id.
async fn create_table(State(hub): State<Hub>) -> String {
    let id = format!("r{}", hub.next_table.fetch_add(1, Ordering::Relaxed));
    hub.tables
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(id.clone(), Arc::default());
    format!(r#"{{"id":"{id}"}}"#)
}

/// `GET /ws`: the same socket settings as a Parlor server's defaults would give a fast
/// client: small read buffer, `TCP_NODELAY` (set on accept).
async fn upgrade(ws: WebSocketUpgrade, State(hub): State<Hub>) -> Response {
    ws.read_buffer_size(4096)
        .on_upgrade(move |socket| connection(socket, hub))
}

/// The fields of a client message the relay reads.
#[derive(serde::Deserialize)]
struct Incoming<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(default)]
    table: Option<&'a str>,
    #[serde(default)]
    card: Option<&'a str>,
}

/// One connection: a writer task draining its queue, and this task reading moves.
async fn connection(socket: WebSocket, hub: Hub) {
    let (mut sink, mut stream) = socket.split();
    let (tx, writer) = if hub.linger.wait().is_zero() {
        let (tx, mut rx) = unbounded_channel::<Utf8Bytes>();
        let writer = tokio::spawn(async move {
            while let Some(first) = rx.recv().await {
                let mut next = Some(first);
                while let Some(frame) = next {
                    if sink.feed(Message::Text(frame)).await.is_err() {
                        return;
                    }
                    next = rx.try_recv().ok();
                }
                if sink.flush().await.is_err() {
                    return;
                }
            }
        });
        (Outbound::Plain(tx), writer)
    } else {
        let (tx, mut rx) = lingering::<Utf8Bytes>(LINGERING_QUEUE, &hub.linger);
        let writer = tokio::spawn(async move {
            let mut batch = VecDeque::new();
            while rx.recv_due(&mut batch).await {
                for frame in batch.drain(..) {
                    if sink.feed(Message::Text(frame)).await.is_err() {
                        return;
                    }
                }
                if sink.flush().await.is_err() {
                    return;
                }
            }
        });
        (Outbound::Lingering(tx), writer)
    };
    let mut seated: Option<(Arc<Mutex<Table>>, u8)> = None;
    while let Some(Ok(frame)) = stream.next().await {
        let Message::Text(text) = frame else { continue };
        let Ok(msg) = serde_json::from_str::<Incoming>(text.as_str()) else {
            continue;
        };
        match (msg.kind, &seated) {
            ("join", None) => seated = join(&hub, msg.table.unwrap_or_default(), &tx),
            ("play" | "pass", Some((table, seat))) => {
                let card = msg.card.unwrap_or("2C");
                relay_move(table, *seat, card, &hub.prompt);
            }
            _ => {}
        }
    }
    if let Some((table, seat)) = seated {
        table.lock().unwrap_or_else(PoisonError::into_inner).seats[usize::from(seat)] = None;
    }
    writer.abort();
}

/// Seats a connection at the next free seat of `id`; the fourth starts the play.
fn join(hub: &Hub, id: &str, tx: &Outbound) -> Option<(Arc<Mutex<Table>>, u8)> {
    let table = hub
        .tables
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(id)?
        .clone();
    let mut state = table.lock().unwrap_or_else(PoisonError::into_inner);
    if state.joined == 4 {
        return None;
    }
    let seat = state.joined;
    state.joined += 1;
    state.seats[usize::from(seat)] = Some(tx.clone());
    let welcome = ServerMsg::Welcome {
        protocol: PROTOCOL_VERSION,
        table: id.to_string(),
        seat: Some(Seat(seat)),
        token: None,
        host: seat == 0,
        practice: false,
        name: None,
    };
    tx.send(serde_json::to_string(&welcome).ok()?.into());
    if state.joined == 4
        && let Some(first) = &state.seats[0]
    {
        first.send(hub.prompt.with_seq(0));
    }
    drop(state);
    Some((table, seat))
}

/// A move from the seat whose turn it is: the event to everyone (at once to the mover, whose
/// move it answers), the prompt to the next.
fn relay_move(table: &Mutex<Table>, seat: u8, card: &str, prompt: &Prompt) {
    let mut state = table.lock().unwrap_or_else(PoisonError::into_inner);
    if state.turn != seat || state.joined < 4 {
        return;
    }
    state.seq += 1;
    state.turn = (seat + 1) % 4;
    let seq = state.seq;
    let event: Utf8Bytes = format!(
        r#"{{"type":"event","seq":{seq},"prev":{},"event":{{"kind":"played","seat":{seat},"card":"{card}"}}}}"#,
        seq - 1
    )
    .into();
    for (i, tx) in state.seats.iter().enumerate() {
        let Some(tx) = tx else { continue };
        if i == usize::from(seat) {
            tx.send(event.clone());
        } else {
            tx.send_lazy(event.clone());
        }
    }
    if let Some(next) = &state.seats[usize::from(state.turn)] {
        next.send(prompt.with_seq(seq));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_server::tools::loadtest::{create_table, join_as_bot};
    use tokio_tungstenite::WebSocketStream;
    use tokio_tungstenite::tungstenite::Message as ClientMessage;

    /// The next text frame a client gets.
    async fn text(ws: &mut WebSocketStream<tokio::net::TcpStream>) -> String {
        loop {
            match ws.next().await {
                Some(Ok(ClientMessage::Text(text))) => return text.to_string(),
                Some(Ok(_)) => {}
                other => panic!("the relay closed the connection: {other:?}"),
            }
        }
    }

    /// Plays `card` for a client.
    async fn play(ws: &mut WebSocketStream<tokio::net::TcpStream>, card: &str) {
        let play = format!(r#"{{"type":"play","card":"{card}"}}"#);
        ws.send(ClientMessage::text(play)).await.unwrap();
    }

    /// Held an hour here, others' copies of a move can only come with their seat's turn.
    #[test]
    fn a_lingering_relay_answers_the_mover_at_once_and_holds_the_others_copies() {
        let relay = Relay::start(1, Duration::from_secs(3600)).unwrap();
        let host = relay.addr.to_string();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let table = create_table(&host, "{}").await.unwrap();
            let mut seats = Vec::new();
            for i in 0..4 {
                let mut ws = join_as_bot(&host, &table, None, format!("seat{i}"))
                    .await
                    .unwrap();
                assert!(text(&mut ws).await.contains(r#""type":"welcome""#));
                seats.push(ws);
            }
            assert!(text(&mut seats[0]).await.contains("your_turn"));
            play(&mut seats[0], "2C").await;
            assert!(
                text(&mut seats[0])
                    .await
                    .contains(r#""seat":0,"card":"2C""#),
                "the mover's own move at once"
            );
            let next = [text(&mut seats[1]).await, text(&mut seats[1]).await];
            assert!(next[0].contains(r#""card":"2C""#), "{next:?}");
            assert!(next[1].contains("your_turn"), "{next:?}");
            let early = tokio::time::timeout(Duration::from_millis(200), text(&mut seats[2]));
            assert!(early.await.is_err(), "seat 2's copy waits for its turn");
            play(&mut seats[1], "3C").await;
            let got = [
                text(&mut seats[2]).await,
                text(&mut seats[2]).await,
                text(&mut seats[2]).await,
            ];
            assert!(got[0].contains(r#""seat":0,"card":"2C""#), "{got:?}");
            assert!(got[1].contains(r#""seat":1,"card":"3C""#), "{got:?}");
            assert!(got[2].contains("your_turn"), "{got:?}");
        });
    }

    #[test]
    fn the_prompts_are_a_whole_matchs_real_your_turns_with_their_seq() {
        let prompt = Prompt::new();
        // At least one hand's 52 plays and four passes; the last hands carry a score sheet.
        assert!(prompt.frames.len() > 56, "{} prompts", prompt.frames.len());
        let mut passes = 0;
        for seq in 0..prompt.frames.len() as u64 {
            match serde_json::from_str::<ServerMsg>(prompt.with_seq(seq).as_str()).unwrap() {
                ServerMsg::YourTurn {
                    seq: got,
                    legal,
                    view,
                    ..
                } => {
                    assert_eq!(got, seq);
                    assert!(view.deal_commitment.is_some(), "a fair deal's prompt");
                    passes += usize::from(matches!(legal, parlor_shared::Legal::Pass { .. }));
                }
                other => panic!("not a prompt: {other:?}"),
            }
        }
        assert!(passes >= 4, "the passing prompts are in the cycle too");
        let last = prompt.with_seq(prompt.frames.len() as u64 - 1);
        let ServerMsg::YourTurn { view, .. } = serde_json::from_str(last.as_str()).unwrap() else {
            panic!("not a prompt");
        };
        assert!(
            !view.history.is_empty(),
            "the last prompts carry the match's score sheet"
        );
    }
}
