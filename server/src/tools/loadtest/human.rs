//! `parlor loadtest --human`: how many families one server holds. Tables of four people, each a
//! WebSocket joined as a person, playing random legal moves after thinking `--think-min-ms` to
//! `--think-max-ms` at each prompt. Tables open in growing steps (`--steps`), each adding to
//! those before; after `--settle-seconds`, a window of `--seconds` measures moves, latency and
//! the server's memory and CPU, and prints a row. The run stops after the step where the p99
//! passes `--max-p99-ms`, the memory `--max-memory-mb`, or tables could not be opened, and says
//! why. For a window with slow moves, stderr says in which of its seconds they came: a tail
//! spread over the window is the load, one gathered in a second or two a stall. Every wait is
//! bounded: joining, each request, each send, and the end.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use futures_util::{SinkExt, StreamExt};
use parlor_shared::Seat;
use parlor_shared::bots::{BotRng, RandomBot};
use parlor_shared::protocol::ServerMsg;
use tokio::net::TcpStream;
use tokio::task::JoinHandle;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_util::sync::CancellationToken;

use super::{JOIN_WAIT, LoadtestArgs, PromptLegal, create_table, join, server_stats};
use crate::http::{ServerStats, cpu_time_in};
use crate::tools::machine::load_average;
use crate::tools::remote_bot::move_message;

/// Tables opened before waiting for their people to join: the listener's backlog takes a few
/// hundred connections at once, not thousands.
const BATCH: usize = 100;

/// The longest a request to the server (making a table, reading its stats) may take.
const REQUEST_WAIT: Duration = Duration::from_secs(30);

/// The longest one frame may take to send, or the connection to open and join.
const SEND_WAIT: Duration = Duration::from_secs(30);

/// How long the people have to leave once the run is over.
const LEAVE_WAIT: Duration = Duration::from_secs(30);

/// Client errors printed in full; the rest are counted.
const ERRORS_SHOWN: usize = 5;

/// What every person shares.
struct Shared {
    /// People who have joined their table.
    joined: AtomicUsize,
    /// People whose connection failed after joining.
    failed: AtomicUsize,
    /// True during a step's window.
    measuring: AtomicBool,
    /// The moves confirmed during the window: when each was confirmed (milliseconds since
    /// `origin`) and its latency (microseconds).
    moves: Mutex<Vec<(u32, u32)>>,
    /// When the run began.
    origin: Instant,
    /// The same, as Unix time in seconds.
    origin_unix: f64,
    /// Cancelled once the run is over: everyone leaves.
    stop: CancellationToken,
}

/// How long each person thinks, in milliseconds: `min..=max`.
#[derive(Clone, Copy)]
struct Think {
    /// The shortest.
    min: u64,
    /// The longest.
    max: u64,
}

/// One step's row.
struct Row {
    /// Tables open.
    tables: usize,
    /// WebSockets open, as the server counts them (else as the generator does).
    connections: usize,
    /// Moves confirmed during the window.
    moves: usize,
    /// The window's length, in seconds.
    seconds: f64,
    /// Latency percentiles, in milliseconds.
    p50_ms: f64,
    /// The 99th.
    p99_ms: f64,
    /// The server's resident memory at the window's end, in bytes.
    rss_bytes: Option<u64>,
    /// The server's CPU time over the window, in milliseconds, and the wall time between
    /// its two readings.
    server_cpu: Option<(u64, Duration)>,
    /// The load generator's own CPU over the window, as a share of one core.
    generator_cpu_pct: Option<f64>,
    /// The machine's load average at the window's end.
    load: Option<f64>,
    /// People whose connection failed so far.
    failed: usize,
}

impl Row {
    /// Moves a second.
    fn moves_per_sec(&self) -> f64 {
        self.moves as f64 / self.seconds.max(f64::MIN_POSITIVE)
    }

    /// The server's CPU as a share of one core.
    fn server_cpu_pct(&self) -> Option<f64> {
        let (ms, wall) = self.server_cpu?;
        Some(ms as f64 * 100.0 / (wall.as_secs_f64() * 1000.0).max(1.0))
    }
}

/// Runs the steps and prints a row for each, then why the run stopped.
pub(super) async fn run(args: &LoadtestArgs, host: &str) -> anyhow::Result<()> {
    let steps = &args.steps;
    if steps.is_empty() || steps[0] == 0 || steps.windows(2).any(|w| w[1] <= w[0]) {
        bail!("--steps must grow from at least one table: {steps:?}");
    }
    if args.think_max_ms < args.think_min_ms {
        bail!("--think-max-ms is less than --think-min-ms");
    }
    let think = Think {
        min: args.think_min_ms,
        max: args.think_max_ms,
    };
    // Each person is a socket: the soft limit of 1024 would stop at 250 tables.
    let files = rlimit::increase_nofile_limit(u64::MAX).ok();
    let most = steps.last().copied().unwrap_or(0);
    eprintln!(
        "people: {} to {} tables of four, thinking {}-{} ms a move; open-file limit of the load generator: {}",
        steps[0],
        most,
        think.min,
        think.max,
        files.map_or("unknown".to_string(), |n| n.to_string())
    );
    let shared = Arc::new(Shared {
        joined: AtomicUsize::new(0),
        failed: AtomicUsize::new(0),
        measuring: AtomicBool::new(false),
        moves: Mutex::new(Vec::new()),
        origin: Instant::now(),
        origin_unix: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |now| now.as_secs_f64()),
        stop: CancellationToken::new(),
    });
    let body = format!(r#"{{"variant":"{}"}}"#, args.variant);
    let before = stats(host).await.ok();
    if let Some(memory) = before.as_ref().and_then(|s| s.memory) {
        println!(
            "server before the tables: {:.1} MB resident",
            memory.rss_bytes as f64 / 1e6
        );
    }
    println!(
        "| tables | connections | moves/s | p50 ms | p99 ms | server RSS MB | server CPU % | generator CPU % | load avg | failed |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut people: Vec<JoinHandle<anyhow::Result<()>>> = Vec::new();
    let mut rows: Vec<Row> = Vec::new();
    let mut why = None;
    for &step in steps {
        let open = people.len() / 4;
        if let Err(err) = open_tables(host, &body, open..step, think, &shared, &mut people).await {
            why = Some(format!(
                "tables could not be opened past {} (of {step}): {err:#}",
                people.len() / 4
            ));
            break;
        }
        tokio::time::sleep(Duration::from_secs(args.settle_seconds)).await;
        let row = window(args, host, step, &shared).await;
        print_row(&row);
        let p99_over = row.p99_ms > args.max_p99_ms;
        let memory_over = row
            .rss_bytes
            .is_some_and(|rss| rss > args.max_memory_mb * 1_000_000);
        rows.push(row);
        if p99_over {
            why = Some(format!(
                "p99 {:.1} ms passed {} ms at {step} tables",
                rows.last().map_or(0.0, |r| r.p99_ms),
                args.max_p99_ms
            ));
            break;
        }
        if memory_over {
            why = Some(format!(
                "server memory passed {} MB at {step} tables",
                args.max_memory_mb
            ));
            break;
        }
    }
    leave(&shared, people).await;
    print_costs(before.as_ref(), &rows);
    println!(
        "stopped: {}",
        why.unwrap_or_else(|| format!("every step ran, up to {most} tables"))
    );
    Ok(())
}

/// Measures one step's window.
async fn window(args: &LoadtestArgs, host: &str, tables: usize, shared: &Shared) -> Row {
    let server_before = stats(host).await.ok();
    let read_before = Instant::now();
    let own_before = cpu_time_in("/proc/self/stat");
    take_moves(shared);
    shared.measuring.store(true, Ordering::Relaxed);
    let started = Instant::now();
    let origin_ms = since_origin_ms(shared, started);
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    shared.measuring.store(false, Ordering::Relaxed);
    let seconds = started.elapsed().as_secs_f64();
    let own_after = cpu_time_in("/proc/self/stat");
    let moves = take_moves(shared);
    let server_after = stats(host).await.ok();
    let read_wall = read_before.elapsed();
    print_slow_moves(shared, tables, &moves, origin_ms, args.max_p99_ms);
    let mut latencies: Vec<u32> = moves.iter().map(|&(_, us)| us).collect();
    latencies.sort_unstable();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .map_or(0.0, |us| f64::from(*us) / 1000.0)
    };
    let server_cpu = match (&server_before, &server_after) {
        (Some(b), Some(a)) => match (b.cpu_ms, a.cpu_ms) {
            (Some(b), Some(a)) => Some((a.saturating_sub(b), read_wall)),
            _ => None,
        },
        _ => None,
    };
    let generator_cpu_pct = match (own_before, own_after) {
        (Some(b), Some(a)) => {
            Some(a.total_ms().saturating_sub(b.total_ms()) as f64 * 100.0 / (seconds * 1000.0))
        }
        _ => None,
    };
    let failed = shared.failed.load(Ordering::Relaxed);
    Row {
        tables,
        connections: server_after
            .as_ref()
            .map_or(tables * 4 - failed.min(tables * 4), |s| s.connections),
        moves: latencies.len(),
        seconds,
        p50_ms: pct(0.50),
        p99_ms: pct(0.99),
        rss_bytes: server_after.and_then(|s| s.memory).map(|m| m.rss_bytes),
        server_cpu,
        generator_cpu_pct,
        load: load_average(),
        failed,
    }
}

/// The moves gathered so far, leaving none.
fn take_moves(shared: &Shared) -> Vec<(u32, u32)> {
    std::mem::take(
        &mut *shared
            .moves
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    )
}

/// Milliseconds from the run's start to `at`.
fn since_origin_ms(shared: &Shared, at: Instant) -> u32 {
    u32::try_from(at.duration_since(shared.origin).as_millis()).unwrap_or(u32::MAX)
}

/// Prints (to stderr) when in the window the moves slower than `limit_ms` were confirmed, by
/// second: spread evenly, the load is steady; gathered in a few seconds, something stalled.
fn print_slow_moves(
    shared: &Shared,
    tables: usize,
    moves: &[(u32, u32)],
    window_start_ms: u32,
    limit_ms: f64,
) {
    let mut by_second: Vec<(u32, usize)> = Vec::new();
    for &(at_ms, us) in moves {
        if f64::from(us) / 1000.0 <= limit_ms {
            continue;
        }
        let second = at_ms.saturating_sub(window_start_ms) / 1000;
        match by_second.iter_mut().find(|(s, _)| *s == second) {
            Some((_, n)) => *n += 1,
            None => by_second.push((second, 1)),
        }
    }
    if by_second.is_empty() {
        return;
    }
    by_second.sort_unstable();
    let slow: usize = by_second.iter().map(|(_, n)| n).sum();
    let seconds: Vec<String> = by_second
        .iter()
        .map(|(second, n)| format!("{second}s:{n}"))
        .collect();
    // The window's start as Unix time, to set beside other records of the machine.
    let began = shared.origin_unix + f64::from(window_start_ms) / 1000.0;
    eprintln!(
        "{tables} tables: {slow} of {} moves over {limit_ms} ms, by second of the window (from Unix time {began:.0}): {}",
        moves.len(),
        seconds.join(" ")
    );
}

/// Prints one step's row of the table.
fn print_row(row: &Row) {
    let or_dash = |figure: Option<f64>, decimals: usize| {
        figure.map_or("-".to_string(), |f| format!("{f:.decimals$}"))
    };
    println!(
        "| {} | {} | {:.0} | {:.1} | {:.1} | {} | {} | {} | {} | {} |",
        row.tables,
        row.connections,
        row.moves_per_sec(),
        row.p50_ms,
        row.p99_ms,
        or_dash(row.rss_bytes.map(|b| b as f64 / 1e6), 1),
        or_dash(row.server_cpu_pct(), 1),
        or_dash(row.generator_cpu_pct, 1),
        or_dash(row.load, 2),
        row.failed
    );
}

/// Prints what a table costs in memory and a move in CPU, from the rows.
fn print_costs(before: Option<&ServerStats>, rows: &[Row]) {
    let (Some(first), Some(last)) = (rows.first(), rows.last()) else {
        return;
    };
    let moves: usize = rows.iter().map(|r| r.moves).sum();
    let cpu_ms: u64 = rows
        .iter()
        .filter_map(|r| r.server_cpu)
        .map(|(ms, _)| ms)
        .sum();
    if moves > 0 && rows.iter().all(|r| r.server_cpu.is_some()) {
        println!(
            "server CPU per move: {:.1} us (over every window: {moves} moves, {cpu_ms} ms)",
            cpu_ms as f64 * 1000.0 / moves as f64
        );
    }
    let rss = |row: &Row| row.rss_bytes;
    if let (Some(base), Some(end)) = (before.and_then(|s| s.memory), rss(last)) {
        println!(
            "server memory per table: {:.1} KB resident (growth over the server before the tables, at {} tables)",
            kb_per_table(end, base.rss_bytes, last.tables),
            last.tables
        );
    }
    if last.tables > first.tables
        && let (Some(from), Some(to)) = (rss(first), rss(last))
    {
        println!(
            "server memory per table added: {:.1} KB resident (from {} tables to {})",
            kb_per_table(to, from, last.tables - first.tables),
            first.tables,
            last.tables
        );
    }
}

/// Growth of resident memory from `base` to `now` over `tables`, in KB.
fn kb_per_table(now: u64, base: u64, tables: usize) -> f64 {
    now.saturating_sub(base) as f64 / tables.max(1) as f64 / 1e3
}

/// `GET /api/stats`, bounded.
async fn stats(host: &str) -> anyhow::Result<ServerStats> {
    tokio::time::timeout(REQUEST_WAIT, server_stats(host))
        .await
        .context("the server's stats took too long")?
}

/// Opens the tables numbered `numbers` in batches, four people each, and waits until every
/// person has joined (bounded).
async fn open_tables(
    host: &str,
    body: &str,
    numbers: std::ops::Range<usize>,
    think: Think,
    shared: &Arc<Shared>,
    people: &mut Vec<JoinHandle<anyhow::Result<()>>>,
) -> anyhow::Result<()> {
    let mut next = numbers.start;
    while next < numbers.end {
        let end = (next + BATCH).min(numbers.end);
        for t in next..end {
            let id = tokio::time::timeout(REQUEST_WAIT, create_table(host, body))
                .await
                .context("making a table took too long")?
                .with_context(|| format!("making table {t}"))?;
            for seat in 0..4u64 {
                let shared = shared.clone();
                let (host, id) = (host.to_string(), id.clone());
                let seed = (t as u64) * 4 + seat;
                people.push(tokio::spawn(async move {
                    let result = person(&host, &id, seed, think, &shared).await;
                    if let Err(err) = &result {
                        let failed = shared.failed.fetch_add(1, Ordering::Relaxed);
                        if failed < ERRORS_SHOWN && !shared.stop.is_cancelled() {
                            eprintln!("a person's connection failed: {err:#}");
                        }
                    }
                    result
                }));
            }
        }
        let batch = people.len() - (end - next) * 4;
        wait_until_joined(shared, people.len(), &people[batch..]).await?;
        next = end;
    }
    Ok(())
}

/// Waits until all `everyone` people have joined, or one of the `newest` has failed to, or
/// `JOIN_WAIT` has passed.
async fn wait_until_joined(
    shared: &Shared,
    everyone: usize,
    newest: &[JoinHandle<anyhow::Result<()>>],
) -> anyhow::Result<()> {
    let since = Instant::now();
    loop {
        let joined = shared.joined.load(Ordering::Relaxed);
        if joined >= everyone {
            return Ok(());
        }
        // A person that ended before everyone joined was refused, or lost its connection.
        let ended = newest.iter().filter(|p| p.is_finished()).count();
        if ended > 0 {
            bail!(
                "{ended} of the {} people opening stopped before joining ({joined} of {everyone} joined)",
                newest.len()
            );
        }
        if since.elapsed() > JOIN_WAIT {
            bail!(
                "only {joined} of {everyone} people joined within {} s",
                JOIN_WAIT.as_secs()
            );
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Tells everyone to leave and waits for them (bounded).
async fn leave(shared: &Shared, people: Vec<JoinHandle<anyhow::Result<()>>>) {
    shared.stop.cancel();
    let all = futures_util::future::join_all(people);
    if tokio::time::timeout(LEAVE_WAIT, all).await.is_err() {
        eprintln!("some people had not left after {} s", LEAVE_WAIT.as_secs());
    }
}

/// Sends one frame, bounded.
async fn send(ws: &mut WebSocketStream<TcpStream>, text: String) -> anyhow::Result<()> {
    tokio::time::timeout(SEND_WAIT, ws.send(Message::text(text)))
        .await
        .context("a frame took too long to send")??;
    Ok(())
}

/// One person: joins the table as a person, starts each match when it is the host, and at each
/// prompt thinks for a while, reading on meanwhile, then plays a random legal move.
async fn person(
    host: &str,
    table: &str,
    seed: u64,
    think: Think,
    shared: &Shared,
) -> anyhow::Result<()> {
    // One word: a number on its own may read as a reserved word (`807` as `bot`).
    let name = format!("Person{seed}");
    let mut ws = tokio::time::timeout(SEND_WAIT, join(host, table, None, name, false))
        .await
        .context("joining took too long")??;
    let mut random = RandomBot::new(seed);
    let mut thinking = BotRng::new(seed ^ 0x74_6869_6e6b);
    // What this seat's own moves look like in events, once the seat is known.
    let mut patterns: Option<(String, String)> = None;
    let mut sent: Option<Instant> = None;
    let mut started = false;
    let mut is_host = false;
    // The move decided on, sent once `thought` has run out.
    let mut pending: Option<String> = None;
    let thought = tokio::time::sleep(Duration::ZERO);
    tokio::pin!(thought);
    let stopped = shared.stop.cancelled();
    tokio::pin!(stopped);
    loop {
        let frame = tokio::select! {
            () = stopped.as_mut() => break,
            () = thought.as_mut(), if pending.is_some() => {
                if let Some(text) = pending.take() {
                    sent = Some(Instant::now());
                    send(&mut ws, text).await?;
                }
                continue;
            }
            frame = ws.next() => frame,
        };
        let text = match frame {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(_)) => continue,
            Some(Err(err)) => return Err(err.into()),
            None => bail!("the server closed the connection"),
        };
        let text = text.as_str();
        if text.starts_with(r#"{"type":"event""#) {
            let mine = patterns
                .as_ref()
                .is_some_and(|(played, passed)| text.contains(played) || text.contains(passed));
            if mine
                && let Some(at) = sent.take()
                && shared.measuring.load(Ordering::Relaxed)
            {
                let now = Instant::now();
                let us = now.duration_since(at).as_micros().min(u128::from(u32::MAX)) as u32;
                let at_ms = since_origin_ms(shared, now);
                shared
                    .moves
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push((at_ms, us));
            }
            if is_host && text.contains(r#""kind":"match_over""#) {
                send(&mut ws, r#"{"type":"start"}"#.to_string()).await?;
            }
            continue;
        }
        if text.starts_with(r#"{"type":"state""#) {
            continue;
        }
        if text.starts_with(r#"{"type":"your_turn""#) {
            let prompt: PromptLegal = serde_json::from_str(text)?;
            if let Some(action) = random.choose_legal(&prompt.legal) {
                pending = Some(serde_json::to_string(&move_message(action, None))?);
                let span = think.max - think.min + 1;
                let ms = think.min + thinking.next_u64() % span;
                thought
                    .as_mut()
                    .reset(tokio::time::Instant::now() + Duration::from_millis(ms));
            }
            continue;
        }
        match serde_json::from_str::<ServerMsg>(text)? {
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
                    send(&mut ws, r#"{"type":"start"}"#.to_string()).await?;
                }
            }
            ServerMsg::Error { code, message } => bail!("server error {code}: {message}"),
            _ => {}
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(5), ws.close(None)).await;
    Ok(())
}
