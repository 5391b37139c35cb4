//! `parlor serve`: the game server and web client, with embedded defaults. Its settings
//! (flags, `PARLOR_*` variables, a TOML file) are read in `settings`.

mod cluster;
mod fd_limit;
mod settings;
mod signals;

pub use settings::{LogFormat, ServeArgs, Settings};

use std::time::Duration;

use anyhow::Context;
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;

use tokio_util::sync::CancellationToken;

use crate::http::{AppState, serve};
use crate::store::SharedStore;
use crate::store::{PgStore, SqliteStore, Startup, StoreLocation};

/// Runs the server until Ctrl-C or SIGTERM.
pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    let settings = Settings::resolve(args)?;
    if args.print_config {
        print!("{}", settings.to_toml());
        return Ok(());
    }
    init_tracing(&settings)?;
    let args = &settings;
    // A misspelt ladder setting stops the server before it opens anything.
    let ladder = args.ladder.then(|| args.ladder_config()).transpose()?;
    let mut config = args.config();
    let files = fd_limit::raise();
    config.max_connections = fd_limit::cap_connections(config.max_connections, files);
    tracing::info!(
        open_files = files,
        max_connections = config.max_connections,
        "connection cap"
    );
    crate::table::thinking::set_budget(std::time::Duration::from_millis(args.bot_think_ms));
    let runtime = super::runtime(args.threads)?;
    runtime.block_on(async {
        let _file_size_signal = signals::ignore_file_size();
        let mut state = AppState::new(config);
        // With a Postgres store the server is one node of a cluster: tables found open are
        // handed to the cluster once this node listens, not restored here.
        let mut joining = None;
        if args.no_store {
            tracing::warn!("--no-store: tables will not survive a restart");
        } else {
            let location = args.store_location()?;
            let node = match &location {
                StoreLocation::Postgres(url) => Some((cluster::Node::new(args), url.clone())),
                StoreLocation::Sqlite(_) => None,
            };
            let fence = node.as_ref().map(|(node, _)| {
                let fence: std::sync::Arc<dyn crate::store::fence::Fence> = node.fence.clone();
                fence
            });
            let (store, startup) = open_store(&location, fence).await?;
            let ratings = crate::ratings::Ratings::load(&store)
                .await
                .context("reading the stored match results for the ratings")?;
            state = state.with_store(store);
            state.lobby = state.lobby.clone().with_ratings(ratings);
            match node {
                Some((node, url)) => joining = Some((node, url, startup)),
                None => {
                    let restored = state.lobby.restore_all(startup);
                    tracing::info!(tables = restored, "tables restored from the log");
                }
            }
            if args.retention_days > 0 {
                let store = state.lobby.store().cloned().expect("just set");
                tokio::spawn(prune_forever(
                    store,
                    args.retention_days,
                    state.shutdown.clone(),
                ));
            }
        }
        let listener = TcpListener::bind(args.addr)
            .await
            .with_context(|| format!("listening on {}", args.addr))?;
        if let Some((node, url, startup)) = joining {
            state = node
                .join(args, &url, listener.local_addr()?, state, startup)
                .await?;
        }
        // After joining: a node's ladder opens its tables in the cluster's lobby and invites
        // the bots online on every node.
        if let Some(ladder) = ladder {
            state.ladder = Some(crate::ladder::spawn_in(
                state.lobby.clone(),
                state.cluster.clone(),
                ladder,
                state.shutdown.clone(),
            ));
        }
        // Taken over before the server says it serves, so that a stop from then on closes the
        // table log cleanly. A stop while it starts still ends it at once, as it always has
        // (both stores survive that); a wait until start-up had finished would leave Ctrl-C
        // unanswered while, say, a database cannot be reached.
        let stop_signal = signals::shutdown();
        tracing::info!(addr = %listener.local_addr()?, "parlor is serving: open http://{}/", listener.local_addr()?);
        let shutdown = state.shutdown.clone();
        tokio::spawn(async move {
            stop_signal.await;
            tracing::info!("shutting down: telling clients goodbye");
            shutdown.cancel();
        });
        let store = state.lobby.store().cloned();
        let cluster = state.cluster.clone();
        serve(listener, state).await.context("serving")?;
        if let Some(store) = store {
            match tokio::time::timeout(Duration::from_secs(5), store.close()).await {
                Ok(Ok(())) => tracing::info!("table log flushed and closed"),
                Ok(Err(err)) => tracing::error!(%err, "could not flush the table log"),
                Err(_) => tracing::error!("the table log did not finish writing in 5 s"),
            }
        }
        if let Some(cluster) = cluster {
            // Everything is stored: the other nodes adopt this node's tables at once.
            cluster.leave().await;
        }
        tracing::info!("stopped");
        Ok(())
    })
}

/// Opens the store at `location` and reads the tables that were open.
async fn open_store(
    location: &StoreLocation,
    fence: Option<std::sync::Arc<dyn crate::store::fence::Fence>>,
) -> anyhow::Result<(SharedStore, Startup)> {
    Ok(match location {
        StoreLocation::Sqlite(dir) => {
            let (store, startup) = SqliteStore::open(dir).with_context(|| {
                format!(
                    "opening the table log in {} (the directory must be writable by the \
                     user parlor runs as; in the Docker image, uid 10001)",
                    dir.display()
                )
            })?;
            tracing::info!(file = %dir.join(crate::store::DB_FILE).display(), "table log opened");
            (std::sync::Arc::new(store), startup)
        }
        StoreLocation::Postgres(url) => {
            let (store, startup) = PgStore::open_fenced(url, fence)
                .await
                .with_context(|| format!("opening the table log in {}", location.redacted()))?;
            tracing::info!(database = %location.redacted(), "table log opened");
            (std::sync::Arc::new(store), startup)
        }
    })
}

/// Deletes closed tables older than `days`, now and every hour, a hundred at a time so the
/// writer goes back to play's commits in between.
async fn prune_forever(store: SharedStore, days: u64, shutdown: CancellationToken) {
    const DAY_MS: i64 = 86_400_000;
    loop {
        let before =
            crate::store::now_millis() - i64::try_from(days).unwrap_or(i64::MAX / DAY_MS) * DAY_MS;
        let mut pruned = 0;
        loop {
            match store.prune(before, 100).await {
                Ok(0) => break,
                Ok(n) => {
                    pruned += n;
                    tokio::task::yield_now().await;
                }
                Err(err) => {
                    tracing::warn!(%err, "could not prune old tables");
                    break;
                }
            }
        }
        if pruned > 0 {
            tracing::info!(
                tables = pruned,
                days,
                "closed tables past the retention deleted"
            );
        }
        tokio::select! {
            () = shutdown.cancelled() => return,
            () = tokio::time::sleep(Duration::from_secs(3600)) => {}
        }
    }
}

/// Logs to stderr, as text or one JSON object a line, keeping what the `log` filter keeps.
fn init_tracing(settings: &Settings) -> anyhow::Result<()> {
    let filter = EnvFilter::try_new(&settings.log)
        .with_context(|| format!("the log filter `{}`", settings.log))?;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match settings.log_format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
    Ok(())
}
