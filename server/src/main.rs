//! `parlor`: the game server and its command-line tools. CLI dispatch only: each subcommand
//! is a module of [`parlor_server::tools`].

use clap::{Parser, Subcommand};

use parlor_server::tools;

/// Parlor: a self-hosted server for trick-taking card games.
#[derive(Parser)]
#[command(name = "parlor", version, about)]
struct Cli {
    #[command(subcommand)]
    tool: Tool,
}

#[derive(Subcommand)]
enum Tool {
    /// Run the game server and web client (no configuration needed).
    Serve(Box<tools::serve::ServeArgs>),
    /// Copy the table log to a file while the server runs (SQLite's online backup).
    Backup(tools::backup::BackupArgs),
    /// Replace a data directory's table log with a backup (stop the server first).
    Restore(tools::backup::RestoreArgs),
    /// Print a finished hand (file, `-` or the URL of /api/tables/ID/hands/N) in compact notation.
    Replay(tools::replay::ReplayArgs),
    /// Load a running server: N tables of four remote bots playing as fast as they can.
    Loadtest(tools::loadtest::LoadtestArgs),
    /// Solve UVa 181: read decks from standard input until `#`, print the five scores per deck.
    Uva181,
    /// Play many headless matches between bots and report wins and points with 95% intervals.
    Arena(tools::arena::ArenaArgs),
    /// Act as a heartless AI script: read its 24 `--key=value` arguments, print the move.
    HeartlessMove(tools::heartless_move::HeartlessMoveArgs),
    /// Join a table over the WebSocket protocol as a bot and play until the match ends.
    Bot(tools::bot::BotArgs),
    /// Check a finished hand's deal (file, `-` or URL): its secret, commitment and cards.
    Verify(tools::verify::VerifyArgs),
    /// Register, list and revoke bot accounts (in the data directory's database).
    Bots(tools::bots::BotsArgs),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.tool {
        Tool::Serve(args) => tools::serve::run(&args),
        Tool::Backup(args) => tools::backup::run_backup(&args),
        Tool::Restore(args) => tools::backup::run_restore(&args),
        Tool::Replay(args) => tools::replay::run(&args),
        Tool::Verify(args) => tools::verify::run(&args),
        Tool::Loadtest(args) => tools::loadtest::run(&args),
        Tool::Uva181 => tools::uva181::run(),
        Tool::Arena(args) => tools::arena::run(&args),
        Tool::HeartlessMove(args) => tools::heartless_move::run(&args),
        Tool::Bot(args) => tools::bot::run(&args),
        Tool::Bots(args) => tools::bots::run(&args),
    }
}
