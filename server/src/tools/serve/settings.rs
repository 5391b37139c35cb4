//! `parlor serve`'s settings: each one a flag, an environment variable `PARLOR_*` or a key of
//! a TOML config file (`--config FILE` / `PARLOR_CONFIG`), in that order of precedence, over
//! a built-in default.
//!
//! It owns reading and merging the settings; it starts nothing. Clap reads flags and the
//! environment (a flag wins over its variable); a value neither gave is taken from the file,
//! then from [`Settings::default`].

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;
use clap::builder::BoolishValueParser;
use serde::{Deserialize, Serialize};

use crate::http::{AdminKey, Config};

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line, for a log shipper.
    Json,
}

/// Options of `parlor serve`. Each has an environment variable and a config-file key of the
/// same name (`--rate-limit`, `PARLOR_RATE_LIMIT`, `rate_limit`).
#[derive(Debug, Default, Args)]
pub struct ServeArgs {
    /// A TOML file of settings (keys as the flags, with `_`: `rate_limit = 50`).
    #[arg(long, env = "PARLOR_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Print the settings in effect as TOML (a config file) and exit.
    #[arg(long)]
    pub print_config: bool,
    /// Where to listen [default: 127.0.0.1:8080].
    #[arg(long, env = "PARLOR_ADDR", value_name = "HOST:PORT")]
    pub addr: Option<SocketAddr>,
    /// Where tables are kept (the SQLite file `parlor.db`) so they survive a restart
    /// [default: ./data].
    #[arg(long, env = "PARLOR_DATA", value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Where tables are kept, instead of `--data`: `sqlite:DIR` (the same as `--data DIR`) or
    /// a Postgres database, `postgres://user[:password]@host:port/database` [default: the
    /// SQLite file in --data]. Prefer the variable or the file for a URL with a password.
    #[arg(long, env = "PARLOR_STORE", value_name = "URL", hide_env_values = true)]
    pub store: Option<String>,
    /// Keep nothing on disk: tables are lost on restart and hands cannot be replayed.
    #[arg(long, env = "PARLOR_NO_STORE", num_args = 0..=1, default_missing_value = "true",
          value_parser = BoolishValueParser::new(), value_name = "BOOL")]
    pub no_store: Option<bool>,
    /// Seconds a table lives with nobody connected [default: 600].
    #[arg(long, env = "PARLOR_IDLE_TABLE_SECS", value_name = "SECS")]
    pub idle_table_secs: Option<u64>,
    /// Messages per second each connection may send (bursts of twice that) [default: 100].
    #[arg(long, env = "PARLOR_RATE_LIMIT", value_name = "N")]
    pub rate_limit: Option<u32>,
    /// The most tables at once [default: 10000].
    #[arg(long, env = "PARLOR_MAX_TABLES", value_name = "N")]
    pub max_tables: Option<usize>,
    /// Worker threads (0: one per CPU core) [default: 0].
    #[arg(long, env = "PARLOR_THREADS", value_name = "N")]
    pub threads: Option<usize>,
    /// Bytes of each connection's WebSocket read buffer [default: 512].
    #[arg(long, env = "PARLOR_WS_READ_BUFFER", value_name = "BYTES")]
    pub ws_read_buffer: Option<usize>,
    /// Bytes a connection keeps between writes for the frames waiting to go out; a batch
    /// that needed more gives its room back once written (0: keep none) [default: 0].
    #[arg(long, env = "PARLOR_WS_WRITE_BUFFER", value_name = "BYTES")]
    pub ws_write_buffer: Option<usize>,
    /// Seconds an HTTP request may take before it is answered 408 (not WebSocket sessions)
    /// [default: 30].
    #[arg(long, env = "PARLOR_REQUEST_TIMEOUT_SECS", value_name = "SECS")]
    pub request_timeout_secs: Option<u64>,
    /// Delete closed tables (and their hands) created more than this many days ago, in the
    /// background (0: keep everything) [default: 0].
    #[arg(long, env = "PARLOR_RETENTION_DAYS", value_name = "DAYS")]
    pub retention_days: Option<u64>,
    /// Turn on the admin API (`/api/admin/...`) with this key, sent as `Authorization:
    /// Bearer KEY` [default: off]. Prefer the variable or the file to the flag, which other
    /// users of the machine can see.
    #[arg(
        long,
        env = "PARLOR_ADMIN_KEY",
        value_name = "KEY",
        hide_env_values = true
    )]
    pub admin_key: Option<String>,
    /// Milliseconds a table waits for a built-in bot's move before playing the fallback for
    /// it (a safety net: bots do a fixed amount of work per move) [default: 2000].
    #[arg(long, env = "PARLOR_BOT_THINK_MS", value_name = "MS")]
    pub bot_think_ms: Option<u64>,
    /// Keep playing rated duplicate matches between the built-in strategies in every variant,
    /// so the leaderboard's ratings grow surer [default: off].
    #[arg(long, env = "PARLOR_LADDER", num_args = 0..=1, default_missing_value = "true",
          value_parser = BoolishValueParser::new(), value_name = "BOOL")]
    pub ladder: Option<bool>,
    /// Milliseconds the ladder waits after each round of matches [default: 5000].
    #[arg(long, env = "PARLOR_LADDER_PAUSE_MS", value_name = "MS")]
    pub ladder_pause_ms: Option<u64>,
    /// The variants the ladder plays, comma-separated (empty: all) [default: all].
    #[arg(long, env = "PARLOR_LADDER_VARIANTS", value_name = "LIST")]
    pub ladder_variants: Option<String>,
    /// The built-in strategies the ladder seats beside the registered bots online,
    /// comma-separated (`strong:400` too) [default: random,heuristic,strong].
    #[arg(long, env = "PARLOR_LADDER_STRATEGIES", value_name = "LIST")]
    pub ladder_strategies: Option<String>,
    /// The target score of every ladder match (0: the ladder's own, 100 in Tricks, else the
    /// rules') [default: 0].
    #[arg(long, env = "PARLOR_LADDER_TARGET", value_name = "POINTS")]
    pub ladder_target: Option<u32>,
    /// This node's id in a cluster (several servers on one Postgres store)
    /// [default: the host name and a hash of `--data`].
    #[arg(long, env = "PARLOR_NODE_ID", value_name = "ID")]
    pub node_id: Option<String>,
    /// Where the other nodes of a cluster reach this one [default: http:// and the listen
    /// address].
    #[arg(long, env = "PARLOR_ADVERTISE", value_name = "URL")]
    pub advertise: Option<String>,
    /// Milliseconds a node's lease on a table runs without renewal; a dead node's tables are
    /// adopted by another node after this [default: 3000].
    #[arg(long, env = "PARLOR_LEASE_MS", value_name = "MS")]
    pub lease_ms: Option<u64>,
    /// A secret the nodes of a cluster share, so a node relaying a client may pass on the
    /// client's address, and registered bots are listed and invited across the nodes.
    #[arg(long, env = "PARLOR_CLUSTER_SECRET", value_name = "SECRET")]
    pub cluster_secret: Option<String>,
    /// The most spectators each table takes [default: 50].
    #[arg(long, env = "PARLOR_MAX_SPECTATORS", value_name = "N")]
    pub max_spectators: Option<usize>,
    /// Log lines as `text` or `json` [default: text].
    #[arg(long, env = "PARLOR_LOG_FORMAT", value_name = "FORMAT")]
    pub log_format: Option<LogFormat>,
    /// Which log lines to keep, as `RUST_LOG` (`info`, `parlor_server=debug,warn`)
    /// [default: `RUST_LOG`, else info].
    #[arg(long, env = "PARLOR_LOG", value_name = "FILTER")]
    pub log: Option<String>,
    /// Seconds a client may take to send a request's headers before its connection is
    /// closed [default: 10].
    #[arg(long, env = "PARLOR_HEADER_TIMEOUT_SECS", value_name = "SECS")]
    pub header_timeout_secs: Option<u64>,
    /// The most connections (HTTP and WebSocket) open at once; at most the open-file limit
    /// less a reserve [default: 4096].
    #[arg(long, env = "PARLOR_MAX_CONNECTIONS", value_name = "N")]
    pub max_connections: Option<usize>,
    /// The most connections open at once from one address (0: no limit) [default: 64].
    #[arg(long, env = "PARLOR_MAX_CONNECTIONS_PER_IP", value_name = "N")]
    pub max_connections_per_ip: Option<usize>,
    /// Tables one address may create a minute (0: no limit) [default: 10].
    #[arg(long, env = "PARLOR_TABLES_PER_IP_PER_MINUTE", value_name = "N")]
    pub tables_per_ip_per_minute: Option<usize>,
    /// Tables created from one address that may be open at once (0: no limit) [default: 20].
    #[arg(long, env = "PARLOR_TABLES_PER_IP", value_name = "N")]
    pub tables_per_ip: Option<usize>,
    /// Take client addresses from `X-Forwarded-For`/`Forwarded`: only behind a reverse proxy
    /// that sets them, which clients cannot reach around [default: false].
    #[arg(long, env = "PARLOR_TRUST_PROXY", num_args = 0..=1, default_missing_value = "true",
          value_parser = BoolishValueParser::new(), value_name = "BOOL")]
    pub trust_proxy: Option<bool>,
    /// Seconds a WebSocket may stay silent (not even answering the server's pings) before
    /// it is closed [default: 60].
    #[arg(long, env = "PARLOR_WS_IDLE_SECS", value_name = "SECS")]
    pub ws_idle_secs: Option<u64>,
    /// Seconds a WebSocket may stay without joining or watching a table [default: 30].
    #[arg(long, env = "PARLOR_WS_JOIN_SECS", value_name = "SECS")]
    pub ws_join_secs: Option<u64>,
    /// Milliseconds another player's move may wait for the frames after it before it is
    /// written (0: each at once) [default: 20].
    #[arg(long, env = "PARLOR_WS_LINGER_MS", value_name = "MS")]
    pub ws_linger_ms: Option<u64>,
    /// Seconds a table nobody ever sat at lives with nobody connected; it is then deleted
    /// [default: 300].
    #[arg(long, env = "PARLOR_UNSAT_TABLE_SECS", value_name = "SECS")]
    pub unsat_table_secs: Option<u64>,
    /// Milliseconds a registered bot has to take a seat it was invited to [default: 15000].
    #[arg(long, env = "PARLOR_INVITE_TIMEOUT_MS", value_name = "MS")]
    pub invite_timeout_ms: Option<u64>,
}

/// Every setting of `parlor serve`, resolved. As a TOML table it is the config file's format.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The data directory.
    pub data: PathBuf,
    /// Where tables are kept when not in `data`: `sqlite:DIR` or a Postgres URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub store: Option<String>,
    /// Keep nothing on disk.
    pub no_store: bool,
    /// Seconds a table lives with nobody connected.
    pub idle_table_secs: u64,
    /// Messages per second per connection.
    pub rate_limit: u32,
    /// The most tables at once.
    pub max_tables: usize,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// WebSocket read buffer bytes.
    pub ws_read_buffer: usize,
    /// WebSocket write buffer bytes.
    pub ws_write_buffer: usize,
    /// HTTP request timeout in seconds.
    pub request_timeout_secs: u64,
    /// Days closed tables are kept (0: forever).
    pub retention_days: u64,
    /// The admin API's key (never printed).
    #[serde(skip_serializing)]
    pub admin_key: Option<AdminKey>,
    /// Milliseconds a built-in bot may think about one move.
    pub bot_think_ms: u64,
    /// Whether the ladder plays.
    pub ladder: bool,
    /// The ladder's pause after each round, in milliseconds.
    pub ladder_pause_ms: u64,
    /// The ladder's variants, comma-separated (empty: all).
    pub ladder_variants: String,
    /// The ladder's built-in strategies, comma-separated.
    pub ladder_strategies: String,
    /// The ladder's target score (0: its own).
    pub ladder_target: u32,
    /// This node's id in a cluster (`None`: made up on start).
    pub node_id: Option<String>,
    /// Where the other nodes reach this one (`None`: the listen address).
    pub advertise: Option<String>,
    /// Milliseconds a lease runs.
    pub lease_ms: u64,
    /// The cluster's shared secret (never printed).
    #[serde(skip_serializing)]
    pub cluster_secret: Option<String>,
    /// The most spectators each table takes.
    pub max_spectators: usize,
    /// `text` or `json`.
    pub log_format: LogFormat,
    /// The log filter.
    pub log: String,
    /// Seconds to send a request's headers.
    pub header_timeout_secs: u64,
    /// The most connections at once.
    pub max_connections: usize,
    /// The most connections from one address (0: no limit).
    pub max_connections_per_ip: usize,
    /// Tables one address may create a minute (0: no limit).
    pub tables_per_ip_per_minute: usize,
    /// Tables of one address open at once (0: no limit).
    pub tables_per_ip: usize,
    /// Trust `X-Forwarded-For`/`Forwarded`.
    pub trust_proxy: bool,
    /// Seconds a WebSocket may stay silent.
    pub ws_idle_secs: u64,
    /// Seconds a WebSocket may stay away from every table.
    pub ws_join_secs: u64,
    /// Milliseconds others' moves may wait for company.
    pub ws_linger_ms: u64,
    /// Seconds a table nobody ever sat at lives with nobody connected.
    pub unsat_table_secs: u64,
    /// Milliseconds an invited bot has to take its seat.
    pub invite_timeout_ms: u64,
}

impl Default for Settings {
    fn default() -> Self {
        let config = Config::default();
        Settings {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            data: PathBuf::from("./data"),
            store: None,
            no_store: false,
            idle_table_secs: config.idle_table_ttl.as_secs(),
            rate_limit: config.rate_per_sec,
            max_tables: config.max_tables,
            threads: 0,
            ws_read_buffer: config.read_buffer_bytes,
            ws_write_buffer: config.write_buffer_bytes,
            request_timeout_secs: config.request_timeout.as_secs(),
            retention_days: 0,
            admin_key: None,
            bot_think_ms: crate::table::thinking::DEFAULT_BUDGET.as_millis() as u64,
            ladder: false,
            ladder_pause_ms: 5_000,
            ladder_variants: String::new(),
            ladder_strategies: "random,heuristic,strong".into(),
            ladder_target: 0,
            node_id: None,
            advertise: None,
            lease_ms: crate::cluster::DEFAULT_LEASE.as_millis() as u64,
            cluster_secret: None,
            max_spectators: config.max_spectators,
            log_format: LogFormat::Text,
            log: std::env::var("RUST_LOG").unwrap_or_else(|_| "info".into()),
            header_timeout_secs: config.header_timeout.as_secs(),
            max_connections: config.max_connections,
            max_connections_per_ip: config.max_connections_per_ip,
            tables_per_ip_per_minute: config.tables_per_ip_per_minute,
            tables_per_ip: config.tables_per_ip,
            trust_proxy: config.trust_proxy,
            ws_idle_secs: config.ws_idle.as_secs(),
            ws_join_secs: config.ws_join.as_secs(),
            ws_linger_ms: config.ws_linger.as_millis() as u64,
            unsat_table_secs: config.unsat_table_ttl.as_secs(),
            invite_timeout_ms: config.invite_timeout.as_millis() as u64,
        }
    }
}

/// The config file's keys, each optional: what it leaves out falls to the default.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSettings {
    addr: Option<SocketAddr>,
    data: Option<PathBuf>,
    store: Option<String>,
    no_store: Option<bool>,
    idle_table_secs: Option<u64>,
    rate_limit: Option<u32>,
    max_tables: Option<usize>,
    threads: Option<usize>,
    ws_read_buffer: Option<usize>,
    ws_write_buffer: Option<usize>,
    request_timeout_secs: Option<u64>,
    retention_days: Option<u64>,
    admin_key: Option<AdminKey>,
    bot_think_ms: Option<u64>,
    ladder: Option<bool>,
    ladder_pause_ms: Option<u64>,
    ladder_variants: Option<String>,
    ladder_strategies: Option<String>,
    ladder_target: Option<u32>,
    node_id: Option<String>,
    advertise: Option<String>,
    lease_ms: Option<u64>,
    cluster_secret: Option<String>,
    max_spectators: Option<usize>,
    log_format: Option<LogFormat>,
    log: Option<String>,
    header_timeout_secs: Option<u64>,
    max_connections: Option<usize>,
    max_connections_per_ip: Option<usize>,
    tables_per_ip_per_minute: Option<usize>,
    tables_per_ip: Option<usize>,
    trust_proxy: Option<bool>,
    ws_idle_secs: Option<u64>,
    ws_join_secs: Option<u64>,
    ws_linger_ms: Option<u64>,
    unsat_table_secs: Option<u64>,
    invite_timeout_ms: Option<u64>,
}

impl Settings {
    /// The settings from flags and environment (`args`), then the config file they name, then
    /// the defaults.
    pub fn resolve(args: &ServeArgs) -> anyhow::Result<Settings> {
        let file = match &args.config {
            Some(path) => read_file(path)?,
            None => FileSettings::default(),
        };
        Ok(merge(args, file))
    }

    /// The server's [`Config`] from these settings.
    #[must_use]
    pub fn config(&self) -> Config {
        Config {
            idle_table_ttl: std::time::Duration::from_secs(self.idle_table_secs),
            rate_per_sec: self.rate_limit.max(1),
            burst: self.rate_limit.max(1) * 2,
            max_tables: self.max_tables,
            read_buffer_bytes: self.ws_read_buffer,
            write_buffer_bytes: self.ws_write_buffer,
            request_timeout: std::time::Duration::from_secs(self.request_timeout_secs.max(1)),
            admin_key: self.admin_key.clone().filter(|key| !key.0.is_empty()),
            header_timeout: secs(self.header_timeout_secs),
            max_connections: self.max_connections.max(1),
            max_connections_per_ip: self.max_connections_per_ip,
            tables_per_ip_per_minute: self.tables_per_ip_per_minute,
            tables_per_ip: self.tables_per_ip,
            trust_proxy: self.trust_proxy,
            ws_idle: secs(self.ws_idle_secs),
            ws_join: secs(self.ws_join_secs),
            ws_linger: std::time::Duration::from_millis(self.ws_linger_ms),
            unsat_table_ttl: std::time::Duration::from_secs(self.unsat_table_secs),
            max_spectators: self.max_spectators,
            invite_timeout: std::time::Duration::from_millis(self.invite_timeout_ms.max(1)),
            ..Config::default()
        }
    }

    /// What the ladder plays, from the `ladder_*` settings.
    pub fn ladder_config(&self) -> anyhow::Result<crate::ladder::LadderConfig> {
        let mut config = crate::ladder::LadderConfig {
            pause: std::time::Duration::from_millis(self.ladder_pause_ms),
            ..crate::ladder::LadderConfig::default()
        };
        let list = |text: &str| -> Vec<String> {
            text.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect()
        };
        let variants = list(&self.ladder_variants);
        if !variants.is_empty() {
            config.variants = variants
                .iter()
                .map(|name| {
                    name.parse::<parlor_shared::Variant>()
                        .map_err(|err| anyhow::anyhow!("ladder_variants: {err}"))
                })
                .collect::<anyhow::Result<_>>()?;
        }
        config.strategies = list(&self.ladder_strategies);
        anyhow::ensure!(
            !config.strategies.is_empty(),
            "ladder_strategies: name at least one built-in strategy (they fill the seats \
             no registered bot takes)"
        );
        if self.ladder_target > 0 {
            config.options = config
                .variants
                .iter()
                // A game played for a fixed number of hands (Oh Hell) has no target.
                .filter(|&&variant| variant.option_specs().iter().any(|o| o.name == "target"))
                .map(|&variant| {
                    let options = parlor_shared::Options {
                        target: Some(i32::try_from(self.ladder_target).unwrap_or(i32::MAX)),
                        ..parlor_shared::Options::default()
                    };
                    (variant, options)
                })
                .collect();
        }
        Ok(config)
    }

    /// Where the tables are kept: `store` when given, else the SQLite file in `data`.
    pub fn store_location(&self) -> anyhow::Result<crate::store::StoreLocation> {
        Ok(crate::store::StoreLocation::resolve(
            self.store.as_deref(),
            &self.data,
        )?)
    }

    /// These settings as a TOML config file, without a secret: the admin key and the cluster
    /// secret are left out (a comment says whether one is set) and the store's password is
    /// shown as `***`.
    #[must_use]
    pub fn to_toml(&self) -> String {
        let store = self.store.as_deref().map(crate::store::location::redact);
        let redacted = store.is_some() && store != self.store;
        let shown = Settings {
            store,
            ..self.clone()
        };
        let mut text = toml::to_string(&shown).expect("settings always serialize");
        if redacted {
            text.push_str("# the store's password is not shown\n");
        }
        if self.admin_key.is_some() {
            text.push_str("# admin_key is set (not shown)\n");
        }
        if self.cluster_secret.is_some() {
            text.push_str("# cluster_secret is set (not shown)\n");
        }
        text
    }
}

/// A duration of at least one second.
fn secs(secs: u64) -> std::time::Duration {
    std::time::Duration::from_secs(secs.max(1))
}

/// Reads and checks a config file (unknown keys are refused, so a typo is not ignored).
fn read_file(path: &Path) -> anyhow::Result<FileSettings> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading the config file {}", path.display()))?;
    toml::from_str(&text).with_context(|| format!("in the config file {}", path.display()))
}

/// Flag or environment, else file, else default.
fn merge(args: &ServeArgs, file: FileSettings) -> Settings {
    let d = Settings::default();
    Settings {
        addr: args.addr.or(file.addr).unwrap_or(d.addr),
        data: args.data.clone().or(file.data).unwrap_or(d.data),
        store: args.store.clone().or(file.store).or(d.store),
        no_store: args.no_store.or(file.no_store).unwrap_or(d.no_store),
        idle_table_secs: args
            .idle_table_secs
            .or(file.idle_table_secs)
            .unwrap_or(d.idle_table_secs),
        rate_limit: args.rate_limit.or(file.rate_limit).unwrap_or(d.rate_limit),
        max_tables: args.max_tables.or(file.max_tables).unwrap_or(d.max_tables),
        threads: args.threads.or(file.threads).unwrap_or(d.threads),
        ws_read_buffer: args
            .ws_read_buffer
            .or(file.ws_read_buffer)
            .unwrap_or(d.ws_read_buffer),
        ws_write_buffer: args
            .ws_write_buffer
            .or(file.ws_write_buffer)
            .unwrap_or(d.ws_write_buffer),
        request_timeout_secs: args
            .request_timeout_secs
            .or(file.request_timeout_secs)
            .unwrap_or(d.request_timeout_secs),
        retention_days: args
            .retention_days
            .or(file.retention_days)
            .unwrap_or(d.retention_days),
        admin_key: args.admin_key.clone().map(AdminKey).or(file.admin_key),
        bot_think_ms: args
            .bot_think_ms
            .or(file.bot_think_ms)
            .unwrap_or(d.bot_think_ms),
        ladder: args.ladder.or(file.ladder).unwrap_or(d.ladder),
        ladder_pause_ms: args
            .ladder_pause_ms
            .or(file.ladder_pause_ms)
            .unwrap_or(d.ladder_pause_ms),
        ladder_variants: args
            .ladder_variants
            .clone()
            .or(file.ladder_variants)
            .unwrap_or(d.ladder_variants),
        ladder_strategies: args
            .ladder_strategies
            .clone()
            .or(file.ladder_strategies)
            .unwrap_or(d.ladder_strategies),
        ladder_target: args
            .ladder_target
            .or(file.ladder_target)
            .unwrap_or(d.ladder_target),
        node_id: args.node_id.clone().or(file.node_id),
        advertise: args.advertise.clone().or(file.advertise),
        lease_ms: args.lease_ms.or(file.lease_ms).unwrap_or(d.lease_ms),
        cluster_secret: args.cluster_secret.clone().or(file.cluster_secret),
        max_spectators: args
            .max_spectators
            .or(file.max_spectators)
            .unwrap_or(d.max_spectators),
        log_format: args.log_format.or(file.log_format).unwrap_or(d.log_format),
        log: args.log.clone().or(file.log).unwrap_or(d.log),
        header_timeout_secs: args
            .header_timeout_secs
            .or(file.header_timeout_secs)
            .unwrap_or(d.header_timeout_secs),
        max_connections: args
            .max_connections
            .or(file.max_connections)
            .unwrap_or(d.max_connections),
        max_connections_per_ip: args
            .max_connections_per_ip
            .or(file.max_connections_per_ip)
            .unwrap_or(d.max_connections_per_ip),
        tables_per_ip_per_minute: args
            .tables_per_ip_per_minute
            .or(file.tables_per_ip_per_minute)
            .unwrap_or(d.tables_per_ip_per_minute),
        tables_per_ip: args
            .tables_per_ip
            .or(file.tables_per_ip)
            .unwrap_or(d.tables_per_ip),
        trust_proxy: args
            .trust_proxy
            .or(file.trust_proxy)
            .unwrap_or(d.trust_proxy),
        ws_idle_secs: args
            .ws_idle_secs
            .or(file.ws_idle_secs)
            .unwrap_or(d.ws_idle_secs),
        ws_join_secs: args
            .ws_join_secs
            .or(file.ws_join_secs)
            .unwrap_or(d.ws_join_secs),
        ws_linger_ms: args
            .ws_linger_ms
            .or(file.ws_linger_ms)
            .unwrap_or(d.ws_linger_ms),
        unsat_table_secs: args
            .unsat_table_secs
            .or(file.unsat_table_secs)
            .unwrap_or(d.unsat_table_secs),
        invite_timeout_ms: args
            .invite_timeout_ms
            .or(file.invite_timeout_ms)
            .unwrap_or(d.invite_timeout_ms),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_comes_from_the_flag_then_the_file_then_the_default() {
        let file: FileSettings =
            toml::from_str("rate_limit = 7\nmax_tables = 9\nno_store = true\n").unwrap();
        let args = ServeArgs {
            rate_limit: Some(3),
            ..ServeArgs::default()
        };
        let settings = merge(&args, file);
        assert_eq!(settings.rate_limit, 3, "the flag wins");
        assert_eq!(settings.max_tables, 9, "then the file");
        assert!(settings.no_store);
        assert_eq!(settings.threads, 0, "then the default");
    }

    #[test]
    fn printed_settings_read_back_as_a_config_file() {
        let settings = Settings {
            rate_limit: 42,
            log_format: LogFormat::Json,
            ..Settings::default()
        };
        let again: Settings = toml::from_str(&settings.to_toml()).unwrap();
        assert_eq!(again, settings);
    }

    #[test]
    fn the_store_comes_from_the_flag_then_the_file_and_sqlite_is_an_alias_of_data() {
        use crate::store::StoreLocation;
        let file: FileSettings =
            toml::from_str("store = \"postgres://p@db:5432/parlor\"\n").unwrap();
        let settings = merge(&ServeArgs::default(), file);
        assert_eq!(
            settings.store_location().unwrap(),
            StoreLocation::Postgres("postgres://p@db:5432/parlor".into())
        );
        let args = ServeArgs {
            store: Some("sqlite:/srv/parlor".into()),
            ..ServeArgs::default()
        };
        let settings = merge(&args, FileSettings::default());
        assert_eq!(
            settings.store_location().unwrap(),
            StoreLocation::Sqlite(PathBuf::from("/srv/parlor"))
        );
        let settings = merge(&ServeArgs::default(), FileSettings::default());
        assert_eq!(
            settings.store_location().unwrap(),
            StoreLocation::Sqlite(PathBuf::from("./data")),
            "the default is unchanged"
        );
    }

    #[test]
    fn printed_settings_hold_no_secret() {
        let settings = Settings {
            store: Some("postgres://ann:hunter2@db:5432/parlor?password=hunter3".into()),
            admin_key: Some(AdminKey("hunter4".into())),
            cluster_secret: Some("hunter5".into()),
            ..Settings::default()
        };
        let text = settings.to_toml();
        assert!(!text.contains("hunter"), "{text}");
        assert!(
            text.contains("store = \"postgres://ann:***@db:5432/parlor?password=***\""),
            "{text}"
        );
        assert!(
            text.contains("# the store's password is not shown"),
            "{text}"
        );
        assert!(text.contains("# admin_key is set (not shown)"), "{text}");
        assert!(
            text.contains("# cluster_secret is set (not shown)"),
            "{text}"
        );
        let without = Settings {
            store: Some("postgres://ann@db/parlor".into()),
            ..Settings::default()
        };
        assert!(!without.to_toml().contains("not shown"), "nothing to hide");
    }

    #[test]
    fn unknown_keys_are_refused() {
        assert!(toml::from_str::<FileSettings>("rate_limt = 7\n").is_err());
    }
}
