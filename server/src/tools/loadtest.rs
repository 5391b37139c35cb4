//! `parlor loadtest`, the operator's capacity tool: opens N tables on a running server, each with
//! four remote bots playing random legal moves as fast as they can over real WebSockets, and
//! reports moves per second, a move's latency (sent until its event arrives), the server's CPU
//! time per move and memory per table (`GET /api/stats`) and the machine's load average; the
//! last line is `moves/s: X p50_ms: Y p99_ms: Z`. `--strong-tables N` adds tables where built-in
//! `strong` bots play beside a remote host, to show whether their thinking slows the others;
//! `--busy N` spins N threads beside the run ([`super::machine`]); `--human` loads the server as
//! families do (`human`). `parlor-bench versus-relay` runs this same load ([`load`]) against
//! a bare relay and the server in turn.

mod human;

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::Args;
use futures_util::{SinkExt, StreamExt};
use parlor_shared::bots::RandomBot;
use parlor_shared::protocol::{ClientMsg, Occupant, ServerMsg};
use parlor_shared::{Legal, Seat};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::task::JoinHandle;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};
use tokio_util::sync::{CancellationToken, WaitForCancellationFuture};

use super::machine::{Busy, load_average};
use super::remote_bot::move_message;
use crate::http::{CpuTime, ServerStats};

/// Options of `parlor loadtest`.
#[derive(Debug, Args)]
pub struct LoadtestArgs {
    /// The server's WebSocket URL, e.g. ws://127.0.0.1:8080 (the `/ws` path is added).
    #[arg(long)]
    pub url: String,
    /// Tables to open, four clients each.
    #[arg(long, default_value_t = 250)]
    pub tables: usize,
    /// Seconds to measure for, once every table is playing.
    #[arg(long, default_value_t = 10)]
    pub seconds: u64,
    /// The variant played (a four-seat one).
    #[arg(long, default_value = "hearts")]
    pub variant: String,
    /// Worker threads of the load generator (0: one per CPU core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Extra tables where three built-in `strong` bots play beside a host (not measured).
    #[arg(long, default_value_t = 0)]
    pub strong_tables: usize,
    /// Open half the tables first and let them play for the window's length, then the rest:
    /// the server's growth between the two, per table added, is what one more table costs,
    /// without the fixed amounts (caches, the program's code) the figure per table includes.
    /// Its moves/s are not those of a plain run: half the matches are further on.
    #[arg(long)]
    pub marginal_memory: bool,
    /// Spin this many threads beside the load for the whole run (the relay's windows too):
    /// the figures of a busy machine, taken again by one command.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub busy: usize,
    /// Tables of people at human pace, in growing steps (`--steps`), instead of bots as fast
    /// as they can: each person thinks `--think-min-ms` to `--think-max-ms` before each move.
    /// `--tables` is not used; `--seconds` is each step's window.
    #[arg(long, conflicts_with_all = ["strong_tables", "marginal_memory"])]
    pub human: bool,
    /// With `--human`: the tables open at each step (each step adds to the tables before it).
    #[arg(
        long,
        value_delimiter = ',',
        requires = "human",
        default_value = "250,500,1000,2000,3000,4000,4500"
    )]
    pub steps: Vec<usize>,
    /// With `--human`: seconds every table plays after a step's tables have joined, before
    /// its window opens.
    #[arg(long, default_value_t = 5, requires = "human")]
    pub settle_seconds: u64,
    /// With `--human`: the shortest a person thinks before a move, in milliseconds.
    #[arg(long, default_value_t = 1000, requires = "human")]
    pub think_min_ms: u64,
    /// With `--human`: the longest a person thinks before a move, in milliseconds.
    #[arg(long, default_value_t = 3000, requires = "human")]
    pub think_max_ms: u64,
    /// With `--human`: stop after the step whose p99 passes this, in milliseconds.
    #[arg(long, default_value_t = 100.0, requires = "human")]
    pub max_p99_ms: f64,
    /// With `--human`: stop after the step where the server's resident memory passes this,
    /// in MB (10^6 bytes).
    #[arg(long, default_value_t = 1000, requires = "human")]
    pub max_memory_mb: u64,
}

/// How long every client may take to join its table before the run gives up.
const JOIN_WAIT: Duration = Duration::from_secs(120);

/// What one run measured.
pub struct Figures {
    /// Moves confirmed per second.
    pub moves_per_sec: f64,
    /// The 99th percentile of a move's latency, in milliseconds.
    pub p99_ms: f64,
    /// The server's CPU time per move during the window, when it says.
    pub cpu_per_move: Option<CpuPerMove>,
    /// The machine's load average at the end of the window, where the system says.
    pub load_after: Option<f64>,
}

/// A server's CPU time per move, in microseconds.
#[derive(Clone, Copy)]
pub struct CpuPerMove {
    /// In user space.
    pub user_us: f64,
    /// In the kernel (the sockets' work, mostly).
    pub system_us: f64,
}

impl CpuPerMove {
    /// The time used between two readings, spread over `moves`.
    fn between(before: CpuTime, after: CpuTime, moves: u64) -> CpuPerMove {
        let per_move =
            |before: u64, after: u64| after.saturating_sub(before) as f64 * 1000.0 / moves as f64;
        CpuPerMove {
            user_us: per_move(before.user_ms, after.user_ms),
            system_us: per_move(before.system_ms, after.system_ms),
        }
    }

    /// User and system together.
    #[must_use]
    pub fn total_us(self) -> f64 {
        self.user_us + self.system_us
    }
}

impl std::fmt::Display for CpuPerMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.1} us (user {:.1}, system {:.1})",
            self.total_us(),
            self.user_us,
            self.system_us
        )
    }
}

/// What all clients share.
struct Shared {
    /// Clients that have joined their table.
    joined: AtomicUsize,
    /// True during the measured window.
    measuring: AtomicBool,
    /// Cancelled once the window is over: clients stop.
    stop: CancellationToken,
    /// Moves the strong bots made during the window.
    strong_moves: AtomicUsize,
}

/// What one client measured.
#[derive(Default)]
struct Tally {
    /// Moves confirmed during the window.
    moves: u64,
    /// Their latencies, in microseconds.
    latencies_us: Vec<u32>,
}

/// What is loaded: a Parlor server, or a bare relay of the same traffic, which has no memory
/// report and no built-in bots, and reads its own CPU time.
#[derive(Clone, Copy)]
pub enum Target<'a> {
    /// A Parlor server: its figures come from its `GET /api/stats`.
    Parlor,
    /// A relay, with what reads the CPU time its threads have used so far.
    Relay(&'a dyn Fn() -> Option<CpuTime>),
}

/// The `host:port` of a `ws://` URL, with or without its `/ws` path.
pub fn host_of(url: &str) -> anyhow::Result<String> {
    let host = url
        .trim_start_matches("ws://")
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .trim_end_matches("/ws")
        .to_string();
    if host.contains("://") {
        bail!("only ws:// URLs are supported: {url}");
    }
    Ok(host)
}

/// Runs the load test and prints the figures.
pub fn run(args: &LoadtestArgs) -> anyhow::Result<()> {
    let host = host_of(&args.url)?;
    let runtime = super::runtime(args.threads)?;
    // Spins until the run ends.
    let busy = Busy::start(args.busy).context("starting the busy threads")?;
    if busy.threads() > 0 {
        println!("busy: threads spinning beside the load: {}", busy.threads());
    }
    if args.human {
        return runtime.block_on(human::run(args, &host));
    }
    runtime.block_on(load(args, &host, Target::Parlor))?;
    Ok(())
}

/// The CPU time the server under load has used so far: the relay's threads', or what a
/// Parlor server reports in `GET /api/stats` (on Linux).
async fn server_cpu_time(host: &str, target: Target<'_>) -> Option<CpuTime> {
    match target {
        Target::Relay(cpu_time) => cpu_time(),
        Target::Parlor => {
            let stats = server_stats(host).await.ok()?;
            let (total_ms, user_ms) = (stats.cpu_ms?, stats.cpu_user_ms?);
            Some(CpuTime {
                user_ms,
                system_ms: total_ms.saturating_sub(user_ms),
            })
        }
    }
}

/// Loads `host`, which is `target`, and prints the figures.
pub async fn load(args: &LoadtestArgs, host: &str, target: Target<'_>) -> anyhow::Result<Figures> {
    let relay = matches!(target, Target::Relay(_));
    let host = host.to_string();
    let strong_tables = if relay { 0 } else { args.strong_tables };
    let shared = Arc::new(Shared {
        joined: AtomicUsize::new(0),
        measuring: AtomicBool::new(false),
        stop: CancellationToken::new(),
        strong_moves: AtomicUsize::new(0),
    });
    let body = format!(
        r#"{{"variant":"{}","table_options":{{"bot_timeout_ms":600000}}}}"#,
        args.variant
    );
    let before = if relay {
        None
    } else {
        server_stats(&host).await.ok()
    };
    let mut tasks = Vec::new();
    // With `--marginal-memory`, the first half plays on its own before the rest open.
    let first_step = if args.marginal_memory && !relay {
        args.tables / 2
    } else {
        0
    };
    let mut half = None;
    if first_step > 0 {
        open_tables(&host, &body, 0..first_step, &shared, &mut tasks).await?;
        wait_until_joined(&shared, &mut tasks, &mut Vec::new()).await?;
        eprintln!(
            "{first_step} tables playing; the rest open in {} s",
            args.seconds
        );
        tokio::time::sleep(Duration::from_secs(args.seconds)).await;
        half = server_stats(&host).await.ok();
    }
    open_tables(&host, &body, first_step..args.tables, &shared, &mut tasks).await?;
    let clients = tasks.len();
    let strong_body = format!(
        r#"{{"variant":"{}","table_options":{{"bot_timeout_ms":600000,"bot_delay_ms":0}}}}"#,
        args.variant
    );
    let mut strong_tasks = Vec::new();
    for t in 0..strong_tables {
        let id = create_table(&host, &strong_body).await?;
        let shared = shared.clone();
        let host = host.clone();
        strong_tasks.push(tokio::spawn(async move {
            strong_host(&host, &id, t as u64, &shared).await
        }));
    }
    wait_until_joined(&shared, &mut tasks, &mut strong_tasks).await?;
    eprintln!(
        "{} tables, {clients} clients joined, {strong_tables} strong tables beside them; warming up",
        args.tables
    );
    tokio::time::sleep(Duration::from_secs(1)).await;
    let cpu_before = server_cpu_time(&host, target).await;
    let load_before = load_average();
    shared.measuring.store(true, Ordering::Relaxed);
    let started = Instant::now();
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    shared.measuring.store(false, Ordering::Relaxed);
    let cpu_after = server_cpu_time(&host, target).await;
    let load_after = load_average();
    let during = if relay {
        None
    } else {
        server_stats(&host).await.ok()
    };
    let elapsed = started.elapsed().as_secs_f64();
    shared.stop.cancel();
    for task in strong_tasks {
        if let Err(err) = task.await? {
            eprintln!("a strong table's host failed: {err:#}");
        }
    }

    let mut moves = 0;
    let mut latencies = Vec::new();
    let mut failed = 0;
    for task in tasks {
        match task.await? {
            Ok(tally) => {
                moves += tally.moves;
                latencies.extend(tally.latencies_us);
            }
            Err(err) => {
                failed += 1;
                eprintln!("client failed: {err:#}");
            }
        }
    }
    latencies.sort_unstable();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .map_or(0.0, |us| f64::from(*us) / 1000.0)
    };
    println!(
        "tables: {} clients: {clients} failed: {failed} moves: {moves} seconds: {elapsed:.1}",
        args.tables
    );
    if !relay {
        println!(
            "{}",
            memory_report(before.as_ref(), during.as_ref(), args.tables)
        );
    }
    if first_step > 0 {
        println!(
            "{}",
            marginal_memory_report(half.as_ref(), during.as_ref(), args.tables - first_step)
        );
    }
    if strong_tables > 0 {
        let strong = shared.strong_moves.load(Ordering::Relaxed);
        println!(
            "strong tables: {strong_tables} strong bot moves: {strong} ({:.0}/s, not counted below)",
            strong as f64 / elapsed
        );
    }
    let cpu_per_move = match (cpu_before, cpu_after) {
        (Some(before), Some(after)) if moves > 0 => Some(CpuPerMove::between(before, after, moves)),
        _ => None,
    };
    if let Some(cpu) = cpu_per_move {
        println!("server CPU per move: {cpu} over the window");
    }
    if let (Some(before), Some(after)) = (load_before, load_after) {
        println!("machine load average: {before:.2} before the window, {after:.2} after");
    }
    let figures = Figures {
        moves_per_sec: moves as f64 / elapsed,
        p99_ms: pct(0.99),
        cpu_per_move,
        load_after,
    };
    println!(
        "moves/s: {:.0} p50_ms: {:.2} p99_ms: {:.2}",
        figures.moves_per_sec,
        pct(0.50),
        figures.p99_ms
    );
    Ok(figures)
}

/// Opens the tables numbered `numbers`, with a client task for each of their four seats.
async fn open_tables(
    host: &str,
    body: &str,
    numbers: std::ops::Range<usize>,
    shared: &Arc<Shared>,
    tasks: &mut Vec<JoinHandle<anyhow::Result<Tally>>>,
) -> anyhow::Result<()> {
    for t in numbers {
        let id = create_table(host, body).await?;
        for seat in 0..4u64 {
            let shared = shared.clone();
            let (host, id) = (host.to_string(), id.clone());
            let seed = (t as u64) * 4 + seat;
            tasks.push(tokio::spawn(async move {
                client(&host, &id, seed, &shared).await
            }));
        }
    }
    Ok(())
}

/// Waits until every client and strong table's host has joined. Bounded: a client that fails
/// before joining (refused, disconnected) ends the run with its error instead of leaving the
/// others waiting for it forever.
async fn wait_until_joined(
    shared: &Shared,
    tasks: &mut Vec<JoinHandle<anyhow::Result<Tally>>>,
    strong_tasks: &mut Vec<JoinHandle<anyhow::Result<()>>>,
) -> anyhow::Result<()> {
    let joining_since = Instant::now();
    while shared.joined.load(Ordering::Relaxed) < tasks.len() + strong_tasks.len() {
        if let Some(ended) = tasks.iter().position(JoinHandle::is_finished) {
            shared.stop.cancel();
            let why = match tasks.swap_remove(ended).await? {
                Err(err) => format!("{err:#}"),
                Ok(_) => "it ended".to_string(),
            };
            bail!("a client stopped before every client had joined: {why}");
        }
        if let Some(ended) = strong_tasks.iter().position(JoinHandle::is_finished) {
            shared.stop.cancel();
            let why = match strong_tasks.swap_remove(ended).await? {
                Err(err) => format!("{err:#}"),
                Ok(()) => "it ended".to_string(),
            };
            bail!("a strong table's host stopped before every client had joined: {why}");
        }
        if joining_since.elapsed() > JOIN_WAIT {
            shared.stop.cancel();
            bail!(
                "only {} of {} clients joined within {} s",
                shared.joined.load(Ordering::Relaxed),
                tasks.len() + strong_tasks.len(),
                JOIN_WAIT.as_secs()
            );
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}

/// `POST /api/tables`; returns the new table's id.
pub async fn create_table(host: &str, body: &str) -> anyhow::Result<String> {
    let json = request(host, "POST", "/api/tables", body).await?;
    let created: serde_json::Value =
        serde_json::from_str(&json).with_context(|| format!("creating a table: {json}"))?;
    created["id"]
        .as_str()
        .map(str::to_string)
        .with_context(|| format!("creating a table: {json}"))
}

/// `GET /api/stats`: the server's own count of its memory.
async fn server_stats(host: &str) -> anyhow::Result<ServerStats> {
    let json = request(host, "GET", "/api/stats", "").await?;
    serde_json::from_str(&json).with_context(|| format!("reading the server's stats: {json}"))
}

/// One request over a plain HTTP/1.1 connection; returns the response's body.
async fn request(host: &str, method: &str, path: &str, body: &str) -> anyhow::Result<String> {
    let mut stream = TcpStream::connect(host)
        .await
        .with_context(|| format!("connecting to {host}"))?;
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await?;
    let mut response = String::new();
    stream.read_to_string(&mut response).await?;
    let (_, body) = response
        .split_once("\r\n\r\n")
        .context("an HTTP response")?;
    Ok(body.to_string())
}

/// The server's memory with the tables open, against before: `None` when it does not say.
fn memory_report(
    before: Option<&ServerStats>,
    during: Option<&ServerStats>,
    tables: usize,
) -> String {
    let (Some(now), Some((rss_kb, anon_kb))) = (
        during.and_then(|s| s.memory),
        growth_per_table(before, during, tables),
    ) else {
        return "server memory: not reported (GET /api/stats gives it on Linux)".to_string();
    };
    format!(
        "server memory: {:.1} MB resident, {:.1} MB anonymous; per table: {rss_kb:.1} KB \
         resident, {anon_kb:.1} KB anonymous (growth over the server before the tables opened)",
        now.rss_bytes as f64 / 1e6,
        now.anon_bytes as f64 / 1e6,
    )
}

/// What each table opened after the first half added to the server's memory.
fn marginal_memory_report(
    half: Option<&ServerStats>,
    during: Option<&ServerStats>,
    added: usize,
) -> String {
    let Some((rss_kb, anon_kb)) = growth_per_table(half, during, added) else {
        return "server memory per table added: not reported".to_string();
    };
    format!(
        "server memory per table added: {rss_kb:.1} KB resident, {anon_kb:.1} KB anonymous \
         (growth from half the tables to all of them, over the {added} added)"
    )
}

/// The server's growth from `from` to `to` per table of `tables`, in KB: (resident,
/// anonymous). `None` when either does not report its memory.
fn growth_per_table(
    from: Option<&ServerStats>,
    to: Option<&ServerStats>,
    tables: usize,
) -> Option<(f64, f64)> {
    let (from, to) = (from?.memory?, to?.memory?);
    let per_table = |after: u64, before: u64| {
        (after.saturating_sub(before) / tables.max(1) as u64) as f64 / 1e3
    };
    Some((
        per_table(to.rss_bytes, from.rss_bytes),
        per_table(to.anon_bytes, from.anon_bytes),
    ))
}

/// One remote bot client: joins, (host) starts matches, plays random legal moves.
/// One WebSocket connection to the server (small buffers, no Nagle delay) that has asked to
/// sit at `table` as a bot program.
pub async fn join_as_bot(
    host: &str,
    table: &str,
    seat: Option<Seat>,
    name: String,
) -> anyhow::Result<WebSocketStream<TcpStream>> {
    join(host, table, seat, name, true).await
}

/// [`join_as_bot`], or as a person when `bot` is false.
async fn join(
    host: &str,
    table: &str,
    seat: Option<Seat>,
    name: String,
    bot: bool,
) -> anyhow::Result<WebSocketStream<TcpStream>> {
    let tcp = TcpStream::connect(host).await?;
    tcp.set_nodelay(true)?;
    let config = WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0);
    let (mut ws, _) =
        tokio_tungstenite::client_async_with_config(format!("ws://{host}/ws"), tcp, Some(config))
            .await?;
    let join = ClientMsg::Join {
        table: table.to_string(),
        seat,
        name: Some(name),
        token: None,
        bot,
    };
    ws.send(Message::text(serde_json::to_string(&join)?))
        .await?;
    Ok(ws)
}

/// The one field of a `your_turn` the load generator reads; the rest (the view) is skipped.
#[derive(serde::Deserialize)]
struct PromptLegal {
    legal: Legal,
}

/// The next text frame, or `None` once the run is over (`stopped`).
async fn next_text(
    ws: &mut WebSocketStream<TcpStream>,
    mut stopped: Pin<&mut WaitForCancellationFuture<'_>>,
) -> anyhow::Result<Option<Utf8Bytes>> {
    loop {
        let frame = tokio::select! {
            frame = ws.next() => frame,
            () = stopped.as_mut() => return Ok(None),
        };
        match frame {
            Some(Ok(Message::Text(text))) => return Ok(Some(text)),
            Some(Ok(_)) => {}
            Some(Err(err)) => return Err(err.into()),
            None => bail!("the server closed the connection"),
        }
    }
}

async fn client(host: &str, table: &str, seed: u64, shared: &Shared) -> anyhow::Result<Tally> {
    let mut ws = join_as_bot(host, table, None, format!("load{seed}")).await?;
    let mut random = RandomBot::new(seed);
    let mut tally = Tally::default();
    // What this seat's own moves look like in events, once the seat is known.
    let mut patterns: Option<(String, String)> = None;
    let mut sent: Option<(Instant, String)> = None;
    let mut started = false;
    let mut is_host = false;
    // Made once: a timer or a fresh future per frame would cost more than the frame.
    let stopped = shared.stop.cancelled();
    tokio::pin!(stopped);
    while let Some(text) = next_text(&mut ws, stopped.as_mut()).await? {
        let text = text.as_str();
        // Most frames are events; recognise them without parsing, so the load generator
        // spends its CPU on load rather than on reading it.
        if text.starts_with(r#"{"type":"event""#) {
            let mine = patterns
                .as_ref()
                .is_some_and(|(played, passed)| text.contains(played) || text.contains(passed));
            if mine
                && let Some((at, _)) = sent.take()
                && shared.measuring.load(Ordering::Relaxed)
            {
                tally.moves += 1;
                let us = at.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                tally.latencies_us.push(us);
            }
            if is_host && text.contains(r#""kind":"match_over""#) {
                ws.send(Message::text(r#"{"type":"start"}"#)).await?;
            }
            continue;
        }
        if text.starts_with(r#"{"type":"state""#) {
            continue;
        }
        // A prompt is read for what a fast bot needs, its legal moves: parsing its view as
        // well would spend the generator's CPU on the frame that differs most between servers.
        if text.starts_with(r#"{"type":"your_turn""#) {
            let prompt: PromptLegal = serde_json::from_str(text)?;
            let msg = random
                .choose_legal(&prompt.legal)
                .map_or(ClientMsg::Ping {}, |action| move_message(action, None));
            let text = serde_json::to_string(&msg)?;
            sent = Some((Instant::now(), text.clone()));
            ws.send(Message::text(text)).await?;
            continue;
        }
        let msg: ServerMsg = serde_json::from_str(text)?;
        match msg {
            ServerMsg::Welcome { seat, host, .. } => {
                patterns = seat.map(|Seat(n)| {
                    (
                        format!(r#""kind":"played","seat":{n},"#),
                        format!(r#""kind":"pass_chosen","seat":{n}}}"#),
                    )
                });
                is_host = host;
                shared.joined.fetch_add(1, Ordering::Relaxed);
            }
            ServerMsg::Table { table, .. } => {
                let full = table.seats.iter().all(|s| s.connected);
                if is_host && full && !started {
                    started = true;
                    ws.send(Message::text(r#"{"type":"start"}"#)).await?;
                }
            }
            ServerMsg::Error { code, message } => {
                if code == "rate_limited"
                    && let Some((_, text)) = &sent
                {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    ws.send(Message::text(text.clone())).await?;
                } else if code != "rate_limited" {
                    bail!("server error {code}: {message}");
                }
            }
            _ => {}
        }
    }
    let _ = ws.close(None).await;
    Ok(tally)
}

/// The host of a strong table: sits in seat 0, seats three `strong` bots, starts a match and
/// another each time one ends, and plays its own seat with random moves at once. Counts the
/// bots' moves during the window.
async fn strong_host(host: &str, table: &str, seed: u64, shared: &Shared) -> anyhow::Result<()> {
    let mut ws = join_as_bot(host, table, Some(Seat(0)), format!("strong-host{seed}")).await?;
    let mut random = RandomBot::new(seed);
    let mut started = false;
    let stopped = shared.stop.cancelled();
    tokio::pin!(stopped);
    while let Some(text) = next_text(&mut ws, stopped.as_mut()).await? {
        let text = text.as_str();
        if text.starts_with(r#"{"type":"event""#) {
            let bot_move = text.contains(r#""kind":"played""#) && !text.contains(r#""seat":0,"#);
            if bot_move && shared.measuring.load(Ordering::Relaxed) {
                shared.strong_moves.fetch_add(1, Ordering::Relaxed);
            }
            if text.contains(r#""kind":"match_over""#) {
                ws.send(Message::text(r#"{"type":"start"}"#)).await?;
            }
            continue;
        }
        if text.starts_with(r#"{"type":"state""#) {
            continue;
        }
        match serde_json::from_str::<ServerMsg>(text)? {
            ServerMsg::Welcome { .. } => {
                for seat in 1..4u8 {
                    let add = ClientMsg::AddBot {
                        seat: Seat(seat),
                        strategy: "strong".to_string(),
                    };
                    ws.send(Message::text(serde_json::to_string(&add)?)).await?;
                }
                shared.joined.fetch_add(1, Ordering::Relaxed);
            }
            ServerMsg::Table { table, .. } => {
                let full = table.seats.iter().all(|s| s.occupant != Occupant::Empty);
                if full && !started {
                    started = true;
                    ws.send(Message::text(r#"{"type":"start"}"#)).await?;
                }
            }
            ServerMsg::YourTurn { legal, .. } => {
                if let Some(action) = random.choose_legal(&legal) {
                    let text = serde_json::to_string(&move_message(action, None))?;
                    ws.send(Message::text(text)).await?;
                }
            }
            ServerMsg::Error { code, message } if code != "rate_limited" => {
                bail!("server error {code}: {message}");
            }
            _ => {}
        }
    }
    let _ = ws.close(None).await;
    Ok(())
}
