//! End-to-end test helpers: the real server on port 0, a tiny HTTP client, and WebSocket
//! clients that record every frame they receive and can play random legal moves.

use std::collections::VecDeque;
use std::net::SocketAddr;

use futures_util::future::select_all;
use futures_util::{SinkExt, StreamExt};
use parlor_server::{AppState, Config, serve};
use parlor_shared::bots::RandomBot;
use parlor_shared::protocol::{ClientMsg, Occupant, ServerMsg};
use parlor_shared::{Action, Event, Legal, Seat};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub mod postgres;
pub mod secrecy;
pub mod watchdog;

/// A server running in this process on a free port.
pub struct TestServer {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its state: the lobby, and the shutdown token.
    pub state: AppState,
    /// The serving task.
    task: JoinHandle<std::io::Result<()>>,
}

impl TestServer {
    /// Starts a server with the default settings.
    pub async fn start() -> TestServer {
        TestServer::with_config(Config::default()).await
    }

    /// Starts a server with `config`.
    pub async fn with_config(config: Config) -> TestServer {
        TestServer::with_state(AppState::new(config)).await
    }

    /// Starts a server on this state (with a store, say).
    pub async fn with_state(state: AppState) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("local addr");
        let task = tokio::spawn(serve(listener, state.clone()));
        TestServer { addr, state, task }
    }

    /// Creates a table with this `POST /api/tables` body and returns its id.
    pub async fn create_table(&self, body: Value) -> String {
        let (status, reply) = http(self.addr, "POST", "/api/tables", Some(&body)).await;
        assert_eq!(status, 201, "creating a table: {reply}");
        reply["id"].as_str().expect("an id").to_string()
    }

    /// A new WebSocket client.
    pub async fn client(&self) -> WsClient {
        WsClient::connect(self.addr).await
    }

    /// Stops the server (clients get `goodbye`) and waits for it to finish.
    pub async fn stop(self) {
        self.state.shutdown.cancel();
        self.task
            .await
            .expect("server task")
            .expect("server result");
    }
}

/// One HTTP/1.1 request over a fresh connection; returns the status and the body (parsed as
/// JSON when it is JSON, else as a JSON string).
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> (u16, Value) {
    let (status, _, text) = http_raw(addr, method, path, body.map(Value::to_string)).await;
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, value)
}

/// [`http`] with extra request headers (an admin key, the cluster secret).
pub async fn http_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> (u16, Value) {
    let (status, _, text) =
        http_raw_with(addr, method, path, headers, body.map(Value::to_string)).await;
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, value)
}

/// One HTTP/1.1 request; returns status, headers (lowercased) and body text.
pub async fn http_raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<String>,
) -> (u16, String, String) {
    http_raw_with(addr, method, path, &[], body).await
}

/// [`http_raw`] with extra request headers.
pub async fn http_raw_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<String>,
) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let body = body.unwrap_or_default();
    let extra: String = headers
        .iter()
        .map(|(name, value)| format!("{name}: {value}\r\n"))
        .collect();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         {extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.expect("read");
    let response = String::from_utf8(response).expect("utf-8 response");
    let (head, body) = response.split_once("\r\n\r\n").expect("a response head");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    (status, head.to_ascii_lowercase(), body.to_string())
}

/// A WebSocket client that keeps every text frame it received, in order.
pub struct WsClient {
    /// The socket.
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every text frame received, as sent.
    pub frames: Vec<String>,
    /// The seat taken, once welcomed.
    pub seat: Option<Seat>,
    /// The seat token, once welcomed.
    pub token: Option<String>,
    /// Messages read and handed back, read again before the socket ([`WsClient::recv_until`]).
    unread: VecDeque<ServerMsg>,
    /// The prompt a [`WsClient::recv_until`] in progress read past. Kept here rather than in
    /// the wait, so that a wait cancelled (by a timeout, say) does not lose it: the next read
    /// returns it first.
    held_prompt: Option<ServerMsg>,
    /// The `seq` of the last prompt [`drive`] answered: a prompt may come again (after `sync`,
    /// say) with the same `seq`, and is answered once.
    answered: Option<u64>,
}

impl WsClient {
    /// Connects to `/ws`.
    pub async fn connect(addr: SocketAddr) -> WsClient {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .expect("websocket connect");
        WsClient {
            ws,
            frames: Vec::new(),
            seat: None,
            token: None,
            unread: VecDeque::new(),
            held_prompt: None,
            answered: None,
        }
    }

    /// Sends a message.
    pub async fn send(&mut self, msg: &ClientMsg) {
        let text = serde_json::to_string(msg).expect("serialize");
        self.send_text(&text).await;
    }

    /// Sends a raw text frame.
    pub async fn send_text(&mut self, text: &str) {
        self.ws
            .send(Message::text(text.to_string()))
            .await
            .expect("send");
    }

    /// Sends a raw binary frame.
    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.ws.send(Message::binary(bytes)).await.expect("send");
    }

    /// The next message, or `None` when the server closed the connection. Cancel-safe.
    pub async fn try_recv(&mut self) -> Option<ServerMsg> {
        self.hand_back_held_prompt();
        self.read_next().await
    }

    /// Puts the prompt a cancelled [`WsClient::recv_until`] was holding back in front.
    fn hand_back_held_prompt(&mut self) {
        if let Some(prompt) = self.held_prompt.take() {
            self.unread.push_front(prompt);
        }
    }

    /// The next message handed back, else the next from the socket.
    async fn read_next(&mut self) -> Option<ServerMsg> {
        if let Some(msg) = self.unread.pop_front() {
            return Some(msg);
        }
        let _bounded = watchdog::waiting();
        loop {
            match self.ws.next().await {
                Some(Ok(Message::Text(text))) => {
                    let msg: ServerMsg = serde_json::from_str(text.as_str())
                        .unwrap_or_else(|e| panic!("unparseable server frame {text}: {e}"));
                    self.frames.push(text.to_string());
                    if let ServerMsg::Welcome { seat, token, .. } = &msg {
                        self.seat = *seat;
                        self.token.clone_from(token);
                    }
                    return Some(msg);
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(_)) => {}
            }
        }
    }

    /// The next message; panics when the connection closed. Cancel-safe.
    pub async fn recv(&mut self) -> ServerMsg {
        self.try_recv()
            .await
            .expect("the server closed the connection")
    }

    /// Reads until a message matches, returning it. The last prompt read on the way is handed
    /// back (the next read returns it), so that whoever plays on still answers it: dropped, it
    /// would stall the match. An earlier one is stale, as a seat has one prompt at a time.
    /// Cancel-safe: a wait cancelled after reading past a prompt leaves it for the next read.
    pub async fn recv_until(&mut self, mut pred: impl FnMut(&ServerMsg) -> bool) -> ServerMsg {
        self.hand_back_held_prompt();
        loop {
            let msg = self
                .read_next()
                .await
                .expect("the server closed the connection");
            if pred(&msg) {
                self.hand_back_held_prompt();
                return msg;
            }
            if matches!(msg, ServerMsg::YourTurn { .. }) {
                self.held_prompt = Some(msg);
            }
        }
    }

    /// Reads until a message matches, returning it, and drops the prompts read on the way: for
    /// a wait after which the server asks again anyway (`sync`), or a test of what comes next.
    pub async fn recv_until_dropping_prompts(
        &mut self,
        mut pred: impl FnMut(&ServerMsg) -> bool,
    ) -> ServerMsg {
        loop {
            let msg = self.recv().await;
            if pred(&msg) {
                return msg;
            }
        }
    }

    /// Reads until an `error`, returning its code and message.
    pub async fn recv_error(&mut self) -> (String, String) {
        match self
            .recv_until(|m| matches!(m, ServerMsg::Error { .. }))
            .await
        {
            ServerMsg::Error { code, message } => (code, message),
            _ => unreachable!(),
        }
    }

    /// Asks to take back a seat at `table` with its `token` (the answer is left to the caller).
    pub async fn send_rejoin(&mut self, table: &str, token: &str) {
        self.send(&ClientMsg::Join {
            table: table.to_string(),
            seat: None,
            name: None,
            token: Some(token.to_string()),
            bot: false,
        })
        .await;
    }

    /// Joins a table as a person and waits for `welcome`; returns whether it is host.
    pub async fn join(&mut self, table: &str, name: &str) -> bool {
        self.join_with(table, name, false).await
    }

    /// Joins a table (as a remote bot when `bot`) and waits for `welcome`.
    pub async fn join_with(&mut self, table: &str, name: &str, bot: bool) -> bool {
        self.send(&ClientMsg::Join {
            table: table.to_string(),
            seat: None,
            name: Some(name.to_string()),
            token: None,
            bot,
        })
        .await;
        match self.recv().await {
            ServerMsg::Welcome { host, .. } => host,
            other => panic!("expected welcome, got {other:?}"),
        }
    }

    /// As the host, puts built-in bots of `strategies` in seats 1, 2, ..., waits until the
    /// table shows them all seated and starts the match.
    pub async fn seat_bots_and_start(&mut self, strategies: &[&str]) {
        for (i, strategy) in strategies.iter().enumerate() {
            let seat = Seat(u8::try_from(i + 1).expect("a seat"));
            self.send(&ClientMsg::AddBot {
                seat,
                strategy: (*strategy).into(),
            })
            .await;
        }
        let seated = strategies.len() + 1;
        self.recv_until(|m| {
            matches!(m, ServerMsg::Table { table, .. }
                if table.seats[1..seated].iter().all(|s| s.occupant == Occupant::Bot))
        })
        .await;
        self.send(&ClientMsg::Start {}).await;
    }

    /// Asks for a snapshot and returns the `state` frame's JSON as sent. A prompt read before
    /// it is dropped: the server sends the seat's prompt again after the snapshot.
    pub async fn snapshot(&mut self) -> Value {
        self.send(&ClientMsg::Sync {}).await;
        self.recv_until_dropping_prompts(|m| matches!(m, ServerMsg::State { .. }))
            .await;
        serde_json::from_str(self.frames.last().expect("a frame")).expect("json")
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// The tests' deterministic source of random legal moves: the engine's own random bot.
pub type Rng = RandomBot;

/// A random legal move for a prompt.
pub fn random_move(legal: &Legal, rng: &mut Rng) -> Option<ClientMsg> {
    rng.choose_legal(legal).map(move_message)
}

/// The message that makes `action`.
#[must_use]
pub fn move_message(action: Action) -> ClientMsg {
    ClientMsg::for_action(action, None)
}

/// The action a move message carries (for bookkeeping in tests).
#[must_use]
pub fn action_of(msg: &ClientMsg) -> Option<Action> {
    msg.action()
}

/// The next message from any of `clients`, with the index of the one that got it.
pub async fn next_any(clients: &mut [WsClient]) -> (usize, ServerMsg) {
    let futures: Vec<_> = clients.iter_mut().map(|c| Box::pin(c.recv())).collect();
    let (msg, index, _) = select_all(futures).await;
    (index, msg)
}

/// Plays random legal moves for every client until `stop` says so (it sees each message
/// with the index of the client that got it). Returns the number of moves sent. A prompt
/// sent again after it was answered is passed over: each is answered once.
pub async fn drive(
    clients: &mut [WsClient],
    rng: &mut Rng,
    mut stop: impl FnMut(usize, &ServerMsg) -> bool,
) -> usize {
    let mut moves = 0;
    loop {
        let (i, msg) = next_any(clients).await;
        if let ServerMsg::Error { code, message } = &msg {
            panic!("client {i} got an error while playing legal moves: {code}: {message}");
        }
        if let ServerMsg::YourTurn { seq, legal, .. } = &msg {
            if clients[i].answered == Some(*seq) {
                continue;
            }
            if let Some(reply) = random_move(legal, rng) {
                clients[i].send(&reply).await;
                clients[i].answered = Some(*seq);
                moves += 1;
            }
        }
        if stop(i, &msg) {
            return moves;
        }
    }
}

/// The `played` events among the frames `client` has read.
fn plays_seen(client: &WsClient) -> usize {
    client
        .frames
        .iter()
        .filter(|frame| {
            matches!(
                serde_json::from_str(frame),
                Ok(ServerMsg::Event {
                    event: Event::Played { .. },
                    ..
                })
            )
        })
        .count()
}

/// Plays random legal moves until exactly `cards` more cards are played (no prompt is
/// answered after the last), then reads on until every client has seen all of them. What a
/// client has seen says nothing of where the table is until then: the server may hold the
/// events of others' moves a little (`--ws-linger-ms`).
pub async fn play_cards(clients: &mut [WsClient], rng: &mut Rng, cards: usize) {
    let before: Vec<usize> = clients.iter().map(plays_seen).collect();
    let mut plays = 0;
    drive(clients, rng, |_, m| {
        if let ServerMsg::YourTurn {
            legal: Legal::Play { .. },
            ..
        } = m
        {
            plays += 1;
        }
        plays == cards
    })
    .await;
    for (client, before) in clients.iter_mut().zip(before) {
        let mut missing = (before + cards).saturating_sub(plays_seen(client));
        if missing > 0 {
            client
                .recv_until(|msg| {
                    if matches!(
                        msg,
                        ServerMsg::Event {
                            event: Event::Played { .. },
                            ..
                        }
                    ) {
                        missing -= 1;
                    }
                    missing == 0
                })
                .await;
        }
    }
}

/// Plays until client 0 sees the match end; returns the winners.
pub async fn play_to_end(clients: &mut [WsClient], rng: &mut Rng) -> Vec<Seat> {
    let mut winners = Vec::new();
    drive(clients, rng, |i, msg| {
        if let ServerMsg::Event {
            event: Event::MatchOver { winners: w, .. },
            ..
        } = msg
            && i == 0
        {
            winners = w.to_vec();
            return true;
        }
        false
    })
    .await;
    winners
}

/// Options that make a match of `variant` short.
#[must_use]
pub fn short_options(variant: &str) -> Value {
    match variant {
        "hearts" => serde_json::json!({"target": 30}),
        "filippa" => serde_json::json!({"target": 5}),
        "hearts5" => serde_json::json!({"hands": 2}),
        "tricks" => serde_json::json!({"target": 8}),
        "whist" => serde_json::json!({"target": 1}),
        "bridge" => serde_json::json!({"hands": 2}),
        "spades" => serde_json::json!({"target": 100}),
        "ohhell" => serde_json::json!({"players": 6, "schedule": "up"}),
        "euchre" => serde_json::json!({"target": 3}),
        other => panic!("no short options for {other}"),
    }
}

/// Every variant's name.
pub const VARIANTS: [&str; 9] = [
    "hearts", "filippa", "hearts5", "tricks", "whist", "spades", "ohhell", "euchre", "bridge",
];

/// Seats at a table of `variant` with its [`short_options`].
#[must_use]
pub fn players(variant: &str) -> usize {
    match variant {
        "hearts5" => 5,
        "ohhell" => 6,
        _ => 4,
    }
}

/// Creates a table of `variant` and seats `n` people; the first is host and starts nothing.
pub async fn seat_players(server: &TestServer, table: &str, n: usize) -> Vec<WsClient> {
    let mut clients = Vec::new();
    for i in 0..n {
        let mut client = server.client().await;
        let host = client.join(table, &format!("p{i}")).await;
        assert_eq!(host, i == 0, "the first person seated is the host");
        clients.push(client);
    }
    clients
}

/// Sends `start` from the host (client 0).
pub async fn start(clients: &mut [WsClient]) {
    clients[0].send(&ClientMsg::Start {}).await;
}

/// A person (`Ann`) and three built-in strategies (`random`, `heuristic`, `strong`) play one
/// whole match at a new table made with `body` (`POST /api/tables`), the person's moves drawn
/// from `seed`; returns the table's id. Every match with computers in it is rated.
pub async fn play_with_computers(addr: SocketAddr, body: &Value, seed: u64) -> String {
    let (status, reply) = http(addr, "POST", "/api/tables", Some(body)).await;
    assert_eq!(status, 201, "{reply}");
    let id = reply["id"].as_str().expect("an id").to_string();
    let mut host = WsClient::connect(addr).await;
    assert!(host.join(&id, "Ann").await);
    for (seat, strategy) in [(1u8, "random"), (2, "heuristic"), (3, "strong")] {
        host.send(&ClientMsg::AddBot {
            seat: Seat(seat),
            strategy: strategy.into(),
        })
        .await;
        host.recv_until(|m| {
            matches!(m, ServerMsg::Table { table, .. }
                if table.seats[seat as usize].occupant == parlor_shared::protocol::Occupant::Bot)
        })
        .await;
    }
    let mut clients = vec![host];
    start(&mut clients).await;
    let winners = play_to_end(&mut clients, &mut Rng::new(seed)).await;
    assert!(!winners.is_empty());
    id
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// A wait cancelled after reading past a prompt (by a timeout) does not lose it: whoever
    /// reads next gets it, and can still answer it.
    #[tokio::test]
    async fn a_cancelled_wait_keeps_the_prompt_it_read_past() {
        let server = TestServer::start().await;
        let id = server
            .create_table(serde_json::json!({"variant": "hearts", "seed": 3}))
            .await;
        let mut clients = seat_players(&server, &id, 4).await;
        start(&mut clients).await;
        let client = &mut clients[0];
        // Nobody plays, so after the passing prompt the server has nothing more to send: the
        // waits end only by timing out, each after reading what had come.
        let mut read_a_prompt = false;
        for _ in 0..600 {
            let never = client.recv_until(|m| {
                read_a_prompt |= matches!(m, ServerMsg::YourTurn { .. });
                false
            });
            let _ = tokio::time::timeout(Duration::from_millis(100), never).await;
            if read_a_prompt {
                break;
            }
        }
        assert!(read_a_prompt, "no prompt came");
        let next = tokio::time::timeout(Duration::from_secs(60), client.recv())
            .await
            .expect("the prompt the cancelled wait read past was lost");
        assert!(matches!(next, ServerMsg::YourTurn { .. }), "{next:?}");
    }
}
