//! `parlor serve`: the game server and web client, with embedded defaults.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;

use crate::http::{AppState, Config, serve};
use crate::store::SqliteStore;

/// Options of `parlor serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Where to listen.
    #[arg(long, env = "PARLOR_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Seconds a table lives with nobody connected.
    #[arg(long, default_value_t = 600)]
    pub idle_table_secs: u64,
    /// Messages per second each connection may send (bursts of twice that).
    #[arg(long, default_value_t = 100)]
    pub rate_limit: u32,
    /// The most tables at once.
    #[arg(long, default_value_t = 10_000)]
    pub max_tables: usize,
    /// Worker threads (0: one per CPU core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Bytes of each connection's WebSocket read buffer.
    #[arg(long, default_value_t = Config::default().read_buffer_bytes)]
    pub ws_read_buffer: usize,
    /// Bytes a connection gathers before writing to its socket (0: write each frame).
    #[arg(long, default_value_t = Config::default().write_buffer_bytes)]
    pub ws_write_buffer: usize,
    /// Where tables are kept (the SQLite file `parlor.db`) so they survive a restart.
    #[arg(long, env = "PARLOR_DATA", default_value = "./data")]
    pub data: PathBuf,
    /// Keep nothing on disk: tables are lost on restart and hands cannot be replayed.
    #[arg(long)]
    pub no_store: bool,
    /// Milliseconds a built-in bot may think about one move (the `strong` bot decides from
    /// what it has searched by then).
    #[arg(long, env = "PARLOR_BOT_THINK_MS", default_value_t = crate::table::thinking::DEFAULT_BUDGET.as_millis() as u64)]
    pub bot_think_ms: u64,
}

/// Runs the server until Ctrl-C or SIGTERM.
pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    init_tracing();
    crate::table::thinking::set_budget(Duration::from_millis(args.bot_think_ms));
    let runtime = super::runtime(args.threads)?;
    runtime.block_on(async {
        let config = Config {
            idle_table_ttl: Duration::from_secs(args.idle_table_secs),
            rate_per_sec: args.rate_limit.max(1),
            burst: args.rate_limit.max(1) * 2,
            max_tables: args.max_tables,
            read_buffer_bytes: args.ws_read_buffer,
            write_buffer_bytes: args.ws_write_buffer,
            ..Config::default()
        };
        let mut state = AppState::new(config);
        if args.no_store {
            tracing::warn!("--no-store: tables will not survive a restart");
        } else {
            let (store, startup) = SqliteStore::open(&args.data)
                .with_context(|| format!("opening the table log in {}", args.data.display()))?;
            tracing::info!(file = %args.data.join(crate::store::DB_FILE).display(), "table log opened");
            state = state.with_store(std::sync::Arc::new(store));
            let restored = state.lobby.restore_all(startup);
            tracing::info!(tables = restored, "tables restored from the log");
        }
        let listener = TcpListener::bind(args.addr)
            .await
            .with_context(|| format!("listening on {}", args.addr))?;
        tracing::info!(addr = %listener.local_addr()?, "parlor is serving: open http://{}/", listener.local_addr()?);
        let shutdown = state.shutdown.clone();
        tokio::spawn(async move {
            wait_for_signal().await;
            tracing::info!("shutting down: telling clients goodbye");
            shutdown.cancel();
        });
        let store = state.lobby.store().cloned();
        serve(listener, state).await.context("serving")?;
        if let Some(store) = store {
            match tokio::time::timeout(Duration::from_secs(5), store.close()).await {
                Ok(Ok(())) => tracing::info!("table log flushed and closed"),
                Ok(Err(err)) => tracing::error!(%err, "could not flush the table log"),
                Err(_) => tracing::error!("the table log did not finish writing in 5 s"),
            }
        }
        tracing::info!("stopped");
        Ok(())
    })
}

/// Logs to stderr; `RUST_LOG` overrides the default level.
fn init_tracing() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

/// Waits for Ctrl-C or (on Unix) SIGTERM.
async fn wait_for_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
