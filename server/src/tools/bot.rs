//! `parlor bot`: a remote bot that joins a table over the WebSocket protocol and plays a
//! built-in strategy, or a line-protocol program (`--exec`), until the match ends; or, with a
//! registered bot's `--token`, goes online and plays every table it is invited to (by hosts
//! or the ladder) until stopped.

use std::time::Duration;

use anyhow::Context;
use clap::Args;
use parlor_shared::{Seat, Variant};

use crate::tools::adapters::exec::split_command;
use crate::tools::available_bot::{self, Availability};
use crate::tools::remote_bot::{self, MoveSource, Target};

/// Options of `parlor bot`.
#[derive(Args, Debug)]
pub struct BotArgs {
    /// The server, e.g. `ws://127.0.0.1:8080`.
    #[arg(long)]
    pub url: String,
    /// The table's id: play this one table (else `--token`).
    #[arg(long, required_unless_present = "token")]
    pub table: Option<String>,
    /// A registered bot's token (see `parlor bots add`): go online and play every table the
    /// bot is invited to, until stopped.
    #[arg(long, env = "PARLOR_BOT_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// With `--token`: the variants offered, comma-separated (default: all).
    #[arg(long, value_delimiter = ',')]
    pub variants: Vec<Variant>,
    /// With `--token`: the most tables played at once.
    #[arg(long, default_value_t = 4)]
    pub max_tables: u32,
    /// The seat to take (default: the first free one).
    #[arg(long)]
    pub seat: Option<u8>,
    /// The built-in strategy to play.
    #[arg(long, default_value = "heuristic")]
    pub strategy: String,
    /// Play a line-protocol program instead (started as `CMD NAME`, no shell).
    #[arg(long)]
    pub exec: Option<String>,
    /// Per-move budget of the `--exec` program, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    pub move_ms: u64,
    /// The name shown at the table.
    #[arg(long)]
    pub name: Option<String>,
    /// Seed of the strategy.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How many times to reconnect with the seat token before giving up.
    #[arg(long, default_value_t = 20)]
    pub reconnects: u32,
}

/// Plays one match and prints how it ended.
pub fn run(args: &BotArgs) -> anyhow::Result<()> {
    let spec = match &args.exec {
        Some(cmd) => MoveSource::Exec(
            split_command(cmd)
                .with_context(|| format!("--exec {cmd:?}: no command, or unbalanced quotes"))?,
            Duration::from_millis(args.move_ms),
        ),
        None => MoveSource::Strategy(args.strategy.clone(), args.seed),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let Some(table) = &args.table else {
        let offer = Availability {
            url: args.url.clone(),
            token: args.token.clone().context("--table or --token")?,
            variants: args.variants.clone(),
            max_tables: args.max_tables,
            max_reconnects: args.reconnects,
        };
        return runtime.block_on(available_bot::serve(&offer, spec));
    };
    let target = Target {
        url: args.url.clone(),
        table: table.clone(),
        seat: args.seat.map(Seat),
        name: args
            .name
            .clone()
            .unwrap_or_else(|| format!("parlor {}", args.strategy)),
        invitation: None,
    };
    let outcome = runtime.block_on(remote_bot::play(&target, spec, args.reconnects))?;
    let won = outcome.winners.contains(&outcome.seat);
    println!(
        "match over: played {} as {} with {} moves ({} reconnections); {}",
        target.table,
        outcome.seat,
        outcome.moves,
        outcome.reconnects,
        if won { "won" } else { "lost" }
    );
    Ok(())
}
