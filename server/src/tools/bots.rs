//! `parlor bots`: register, list and revoke bot accounts on the server's machine, in the
//! data directory's database (the server may be running: it reads the accounts from the same
//! file). `add` prints the bot's token once; only its hash is stored.

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};

use crate::store::accounts;
use crate::store::sqlite::accounts::{insert, list, open_offline, revoke};

/// Arguments of `parlor bots`.
#[derive(Debug, Args)]
pub struct BotsArgs {
    /// The server's data directory (where `parlor.db` is) [default: ./data].
    #[arg(long, env = "PARLOR_DATA", value_name = "DIR", global = true)]
    pub data: Option<PathBuf>,
    /// What to do.
    #[command(subcommand)]
    pub command: BotsCommand,
}

/// `parlor bots` subcommands.
#[derive(Debug, Subcommand)]
pub enum BotsCommand {
    /// Register a bot and print its token (shown this once).
    Add {
        /// The bot's name: 1 to 32 letters, digits, `-`, `_` or spaces.
        name: String,
        /// Who runs it.
        #[arg(long)]
        owner: String,
    },
    /// List the registered bots.
    List,
    /// Revoke a bot: its token stops working (the name stays taken).
    Revoke {
        /// The bot's name.
        name: String,
    },
}

/// Runs `parlor bots`.
pub fn run(args: &BotsArgs) -> anyhow::Result<()> {
    let dir = args.data.clone().unwrap_or_else(|| PathBuf::from("./data"));
    let conn =
        open_offline(&dir).with_context(|| format!("opening the database in {}", dir.display()))?;
    match &args.command {
        BotsCommand::Add { name, owner } => {
            let (bot, token) = accounts::prepare(name, owner)?;
            if !insert(&conn, &bot)? {
                bail!("a bot named `{}` is already registered", bot.name);
            }
            println!("registered bot `{}` (owner {})", bot.name, bot.owner);
            println!("token: {token}");
            println!("This token is shown once and stored only as a hash: give it to the bot now.");
        }
        BotsCommand::List => {
            let bots = list(&conn)?;
            if bots.is_empty() {
                println!("no bots registered");
            }
            for bot in bots {
                let state = if bot.revoked.is_some() {
                    "revoked"
                } else {
                    "active"
                };
                println!("{}\t{}\t{state}", bot.name, bot.owner);
            }
        }
        BotsCommand::Revoke { name } => match revoke(&conn, name)? {
            Some(bot) => println!(
                "revoked bot `{}`: its token no longer works (a running server takes it offline \
                 when it is next invited)",
                bot.name
            ),
            None => bail!("no bot named `{name}` is registered"),
        },
    }
    Ok(())
}
