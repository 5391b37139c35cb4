//! `parlor-bench`: the instruments Parlor is tuned with, kept out of the binary a family runs.
//! `engine` plays random hands through the engine (and compares its rate with other
//! programs'); `versus-relay` loads a running server and a bare relay of the same traffic in
//! the same run and prints their ratio. Figures and how to read them: docs/PERFORMANCE.md.

mod engine;
mod relay;
mod spread;
mod versus_relay;

use clap::{Parser, Subcommand};

/// Parlor's benchmarks: the engine's speed, and the server's against a bare relay.
#[derive(Parser)]
#[command(name = "parlor-bench", version, about)]
struct Cli {
    #[command(subcommand)]
    instrument: Instrument,
}

#[derive(Subcommand)]
enum Instrument {
    /// Play random hands single-threaded and print hands per second (`--versus`: as a ratio
    /// to other programs' rates, in alternating rounds).
    Engine(engine::EngineArgs),
    /// Load a bare relay and a running server alike (`parlor loadtest`'s load) and print the
    /// ratio of their moves per second and CPU time per move.
    VersusRelay(versus_relay::VersusRelayArgs),
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().instrument {
        Instrument::Engine(args) => engine::run(&args),
        Instrument::VersusRelay(args) => versus_relay::run(&args),
    }
}
