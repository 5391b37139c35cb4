//! `parlor`: the game server and its command-line tools.

use clap::{Parser, Subcommand};

use parlor_server::commands;

/// Parlor: a self-hosted server for trick-taking card games.
#[derive(Parser)]
#[command(name = "parlor", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the game server and web client (no configuration needed).
    Serve(commands::serve::ServeArgs),
    /// Print a finished hand (file, `-` or the URL of /api/tables/ID/hands/N) in compact notation.
    Replay(commands::replay::ReplayArgs),
    /// Load a running server: N tables of four remote bots playing as fast as they can.
    Loadtest(commands::loadtest::LoadtestArgs),
    /// Solve UVa 181: read decks from standard input until `#`, print the five scores per deck.
    Uva181,
    /// Play random hands single-threaded and print hands per second.
    Bench(commands::bench::BenchArgs),
    /// Play many headless matches between bots and report wins and points with 95% intervals.
    Arena(commands::arena::ArenaArgs),
    /// Act as a heartless AI script: read its 24 `--key=value` arguments, print the move.
    HeartlessMove(commands::heartless_move::HeartlessMoveArgs),
    /// Join a table over the WebSocket protocol as a bot and play until the match ends.
    Bot(commands::bot::BotArgs),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve(args) => commands::serve::run(&args),
        Command::Replay(args) => commands::replay::run(&args),
        Command::Loadtest(args) => commands::loadtest::run(&args),
        Command::Uva181 => commands::uva181::run(),
        Command::Bench(args) => commands::bench::run(&args),
        Command::Arena(args) => commands::arena::run(&args),
        Command::HeartlessMove(args) => commands::heartless_move::run(&args),
        Command::Bot(args) => commands::bot::run(&args),
    }
}
