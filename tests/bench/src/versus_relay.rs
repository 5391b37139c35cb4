//! `parlor-bench versus-relay`: the server's moves per second and CPU time per move as a ratio
//! to a bare relay's under the same load (`parlor loadtest`'s), both taken in the same run.
//! The machine drifts, so only a ratio taken in one run says how close the server comes to
//! what the sockets alone allow. With `--rounds N` the relay goes first in odd rounds and the
//! server in even ones, and the last lines give the ratios' medians and ranges.

use std::time::Duration;

use anyhow::{Context, bail};
use clap::Args;
use parlor_server::tools::loadtest::{self, CpuPerMove, Figures, LoadtestArgs, Target};
use parlor_server::tools::machine::Busy;

use crate::relay::Relay;
use crate::spread::Spread;

/// Options of `parlor-bench versus-relay`: the load's, and the relay's.
#[derive(Debug, Args)]
pub struct VersusRelayArgs {
    /// The load, as `parlor loadtest` takes it (`--human` is not compared with the relay).
    #[command(flatten)]
    pub load: LoadtestArgs,
    /// The relay holds the events of others' moves up to this long for the next frame to the
    /// same seat, as a Parlor server does (`--ws-linger-ms`); 0, the default, is the bare relay.
    #[arg(long, default_value_t = 0, value_name = "MS")]
    pub relay_linger_ms: u64,
    /// Compare this many times, the relay first in odd rounds and the server first in even
    /// ones, then print the ratios' medians and ranges (a machine whose speed drifts shows in
    /// the range, not as a wrong ratio).
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub rounds: u32,
}

/// Loads the relay and the server in turn for `--rounds` rounds and prints how they compare.
pub fn run(args: &VersusRelayArgs) -> anyhow::Result<()> {
    let load = &args.load;
    if load.human {
        bail!(
            "--human loads a server at people's pace and is not compared with the relay: run `parlor loadtest --human`"
        );
    }
    let host = loadtest::host_of(&load.url)?;
    let runtime = parlor_server::tools::runtime(load.threads)?;
    // Spins until the run ends, the relay's windows included.
    let busy = Busy::start(load.busy).context("starting the busy threads")?;
    if busy.threads() > 0 {
        println!("busy: threads spinning beside the load: {}", busy.threads());
    }
    let linger = Duration::from_millis(args.relay_linger_ms);
    let relay = Relay::start(load.threads, linger)?;
    let relay_cpu = || relay.cpu_time();
    let load_relay = || {
        if linger.is_zero() {
            println!("bare relay ({}):", relay.addr);
        } else {
            println!(
                "bare relay ({}, others' moves held up to {} ms):",
                relay.addr, args.relay_linger_ms
            );
        }
        let addr = relay.addr.to_string();
        runtime.block_on(loadtest::load(load, &addr, Target::Relay(&relay_cpu)))
    };
    let load_parlor = || {
        println!("parlor ({host}):");
        runtime.block_on(loadtest::load(load, &host, Target::Parlor))
    };
    let mut rounds = Vec::new();
    for round in 1..=args.rounds {
        if args.rounds > 1 {
            println!("round {round} of {}:", args.rounds);
        }
        let (parlor, bare) = if round % 2 == 1 {
            let bare = load_relay()?;
            (load_parlor()?, bare)
        } else {
            let parlor = load_parlor()?;
            (parlor, load_relay()?)
        };
        print_versus(&parlor, &bare);
        rounds.push((parlor, bare));
    }
    if args.rounds > 1 {
        print_spreads(&rounds);
    }
    Ok(())
}

/// Prints how the server compares with the relay in one round.
fn print_versus(parlor: &Figures, bare: &Figures) {
    println!(
        "versus relay: moves/s ratio: {:.2} (parlor {:.0} / relay {:.0}) p99_ms: parlor {:.2} relay {:.2}",
        parlor.moves_per_sec / bare.moves_per_sec.max(f64::MIN_POSITIVE),
        parlor.moves_per_sec,
        bare.moves_per_sec,
        parlor.p99_ms,
        bare.p99_ms
    );
    if let (Some(parlor_cpu), Some(relay_cpu)) = (parlor.cpu_per_move, bare.cpu_per_move) {
        println!(
            "versus relay: server CPU per move: parlor {parlor_cpu}, relay {relay_cpu} (ratio {:.2})",
            cpu_ratio(parlor_cpu, relay_cpu)
        );
    }
}

/// The relay's CPU time per move over the server's: how close the server comes to it.
fn cpu_ratio(parlor: CpuPerMove, relay: CpuPerMove) -> f64 {
    relay.total_us() / parlor.total_us().max(f64::MIN_POSITIVE)
}

/// Prints the medians and ranges of every round's comparison: `(parlor, relay)` figures.
fn print_spreads(rounds: &[(Figures, Figures)]) {
    let spread = |figure: &dyn Fn(&Figures, &Figures) -> Option<f64>| {
        let figures: Vec<f64> = rounds.iter().filter_map(|(p, r)| figure(p, r)).collect();
        Spread::of(&figures)
    };
    let n = rounds.len();
    if let Some(ratio) =
        spread(&|p, r| Some(p.moves_per_sec / r.moves_per_sec.max(f64::MIN_POSITIVE)))
    {
        println!(
            "versus relay over {n} rounds: moves/s ratio: median {:.2} (range {:.2}-{:.2})",
            ratio.median, ratio.low, ratio.high
        );
    }
    if let (Some(parlor), Some(relay)) = (
        spread(&|p, _| Some(p.p99_ms)),
        spread(&|_, r| Some(r.p99_ms)),
    ) {
        println!(
            "versus relay over {n} rounds: p99_ms: parlor median {:.2} (range {:.2}-{:.2}), relay median {:.2} (range {:.2}-{:.2})",
            parlor.median, parlor.low, parlor.high, relay.median, relay.low, relay.high
        );
    }
    let cpu = |p: &Figures, r: &Figures| Some(cpu_ratio(p.cpu_per_move?, r.cpu_per_move?));
    if let Some(ratio) = spread(&cpu) {
        println!(
            "versus relay over {n} rounds: server CPU per move ratio: median {:.2} (range {:.2}-{:.2})",
            ratio.median, ratio.low, ratio.high
        );
    }
    let loads: Vec<f64> = rounds
        .iter()
        .flat_map(|(p, r)| [p.load_after, r.load_after])
        .flatten()
        .collect();
    if let Some(load) = Spread::of(&loads) {
        println!(
            "versus relay over {n} rounds: machine load average after each window: median {:.2} (range {:.2}-{:.2})",
            load.median, load.low, load.high
        );
    }
}
