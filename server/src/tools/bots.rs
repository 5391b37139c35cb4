//! `parlor bots`: register, list and revoke bot accounts on the server's machine, in the
//! data directory's database or the Postgres database of `--store` (the server may be
//! running: it reads the accounts from the same store). `add` prints the bot's token once;
//! only its hash is stored.

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};

use crate::store::postgres::accounts as pg;
use crate::store::sqlite::accounts::{insert, list, open_offline, revoke};
use crate::store::{BotAccount, NewBot, StoreError, StoreLocation, accounts};

/// Arguments of `parlor bots`.
#[derive(Debug, Args)]
pub struct BotsArgs {
    /// The server's data directory (where `parlor.db` is) [default: ./data].
    #[arg(long, env = "PARLOR_DATA", value_name = "DIR", global = true)]
    pub data: Option<PathBuf>,
    /// The server's store, when not the data directory: `sqlite:DIR` or a Postgres URL (as
    /// `parlor serve --store`).
    #[arg(
        long,
        env = "PARLOR_STORE",
        value_name = "URL",
        global = true,
        hide_env_values = true
    )]
    pub store: Option<String>,
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

/// The accounts' database: the data directory's SQLite file or a Postgres database.
enum Accounts {
    /// The SQLite file.
    Sqlite(rusqlite::Connection),
    /// A Postgres connection, with the runtime its driver runs on.
    Postgres(tokio::runtime::Runtime, tokio_postgres::Client),
}

impl Accounts {
    /// Opens the store `location` names, creating and migrating its schema if needed.
    fn open(location: &StoreLocation) -> anyhow::Result<Accounts> {
        Ok(match location {
            StoreLocation::Sqlite(dir) => Accounts::Sqlite(
                open_offline(dir)
                    .with_context(|| format!("opening the database in {}", dir.display()))?,
            ),
            StoreLocation::Postgres(url) => {
                let runtime = super::runtime(1)?;
                let client = runtime
                    .block_on(crate::store::postgres::open_offline(url))
                    .with_context(|| format!("opening the database {}", location.redacted()))?;
                Accounts::Postgres(runtime, client)
            }
        })
    }

    fn insert(&self, bot: &NewBot) -> Result<bool, StoreError> {
        match self {
            Accounts::Sqlite(conn) => insert(conn, bot),
            Accounts::Postgres(rt, client) => rt.block_on(pg::insert(client, bot)),
        }
    }

    fn list(&self) -> Result<Vec<BotAccount>, StoreError> {
        match self {
            Accounts::Sqlite(conn) => list(conn),
            Accounts::Postgres(rt, client) => rt.block_on(pg::list(client)),
        }
    }

    fn revoke(&self, name: &str) -> Result<Option<BotAccount>, StoreError> {
        match self {
            Accounts::Sqlite(conn) => revoke(conn, name),
            Accounts::Postgres(rt, client) => rt.block_on(pg::revoke(client, name)),
        }
    }
}

/// Runs `parlor bots`.
pub fn run(args: &BotsArgs) -> anyhow::Result<()> {
    let dir = args.data.clone().unwrap_or_else(|| PathBuf::from("./data"));
    let conn = Accounts::open(&StoreLocation::resolve(args.store.as_deref(), &dir)?)?;
    match &args.command {
        BotsCommand::Add { name, owner } => {
            let (bot, token) = accounts::prepare(name, owner)?;
            if !conn.insert(&bot)? {
                bail!("{}", accounts::NameTaken::among(&conn.list()?, &bot.name));
            }
            println!("registered bot `{}` (owner {})", bot.name, bot.owner);
            println!("token: {token}");
            println!("This token is shown once and stored only as a hash: give it to the bot now.");
        }
        BotsCommand::List => {
            let bots = conn.list()?;
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
        BotsCommand::Revoke { name } => match conn.revoke(name)? {
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
