//! `parlor arena`: many whole matches, headless and in-process on every core, with seats
//! rotated and deals duplicated; prints per-bot wins and points per hand with 95% intervals.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;
use parlor_shared::arena::{self, Fixture, MatchRecord, Seated};
use parlor_shared::{Options, Variant};

use crate::tools::adapters;

/// Options of `parlor arena`.
#[derive(Args, Debug)]
pub struct ArenaArgs {
    /// The variant to play.
    #[arg(long)]
    pub variant: Variant,
    /// One bot per seat, comma separated: a strategy name, `exec:CMD` or `script:PATH`.
    #[arg(long, value_delimiter = ',', required = true)]
    pub bots: Vec<String>,
    /// How many matches to play (rounded up to a multiple of the seats so every deal is
    /// replayed with each bot in each seat).
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Seed of the first deal.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The match target (points that end a match), when not the variant's default.
    #[arg(long)]
    pub target: Option<i32>,
    /// Per-move time budget for external programs, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    pub move_ms: u64,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Runs the arena and prints the report.
pub fn run(args: &ArenaArgs) -> anyhow::Result<()> {
    let players = args.variant.players() as usize;
    if args.bots.len() != players {
        bail!(
            "{} seats at {} but {} bots given",
            players,
            args.variant,
            args.bots.len()
        );
    }
    for spec in &args.bots {
        adapters::check_spec(spec, args.variant)?;
    }
    let options = Options {
        target: args.target,
        ..Options::default()
    };
    parlor_shared::Rules::new(args.variant, &options)?;
    let games = args.games.div_ceil(players as u64) * players as u64;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let start = Instant::now();
    let results = play_all(args, games, threads)?;
    let seconds = start.elapsed().as_secs_f64();
    let hands: usize = results.iter().map(|(_, r)| r.points.len()).sum();
    let report = arena::summarize(&args.bots, &results);
    if args.json {
        let out = serde_json::json!({
            "variant": args.variant,
            "games": games,
            "seed": args.seed,
            "threads": threads,
            "hands": hands,
            "seconds": seconds,
            "hands_per_second": hands as f64 / seconds,
            "lower_is_better": args.variant.low_score_wins(),
            "bots": report,
        });
        println!("{}", serde_json::to_string(&out)?);
        return Ok(());
    }
    println!(
        "{}: {games} matches, {hands} hands in {seconds:.1} s ({:.0} hands/s on {threads} threads); points per hand: {} is better",
        args.variant,
        hands as f64 / seconds,
        if args.variant.low_score_wins() {
            "lower"
        } else {
            "higher"
        },
    );
    println!(
        "{:<24} {:>7} {:>22} {:>26}",
        "bot", "seats", "won (95% CI)", "points/hand (95% CI)"
    );
    for r in &report {
        println!(
            "{:<24} {:>7} {:>6.1}% [{:>5.1}, {:>5.1}] {:>9.3} [{:>7.3}, {:>7.3}]{}",
            r.bot,
            r.seat_matches,
            100.0 * r.win_share.mean,
            100.0 * r.win_share.low,
            100.0 * r.win_share.high,
            r.points_per_hand.mean,
            r.points_per_hand.low,
            r.points_per_hand.high,
            if r.fallbacks > 0 {
                format!("  ({} fallback moves)", r.fallbacks)
            } else {
                String::new()
            }
        );
    }
    Ok(())
}

/// Plays games `0..games` on `threads` workers; results come back in schedule order.
fn play_all(
    args: &ArenaArgs,
    games: u64,
    threads: usize,
) -> anyhow::Result<Vec<(Fixture, MatchRecord)>> {
    let players = args.variant.players() as usize;
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let results: Mutex<Vec<(u64, Fixture, MatchRecord)>> = Mutex::new(Vec::new());
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let options = Options {
        target: args.target,
        ..Options::default()
    };
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= games || failure.lock().expect("lock").is_some() {
                        break;
                    }
                    let fixture = arena::fixture(args.seed, index, players);
                    match play_one(args, &options, index, &fixture) {
                        Ok(record) => {
                            results.lock().expect("lock").push((index, fixture, record));
                        }
                        Err(e) => {
                            *failure.lock().expect("lock") = Some(e);
                            break;
                        }
                    }
                    let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                    progress(finished, games);
                }
            });
        }
    });
    eprintln!();
    if let Some(e) = failure.into_inner().expect("lock") {
        return Err(e);
    }
    let mut results = results.into_inner().expect("lock");
    results.sort_by_key(|(i, _, _)| *i);
    Ok(results.into_iter().map(|(_, f, r)| (f, r)).collect())
}

/// One match of the schedule.
fn play_one(
    args: &ArenaArgs,
    options: &Options,
    index: u64,
    fixture: &Fixture,
) -> anyhow::Result<MatchRecord> {
    let mut seats: Vec<Seated> = fixture
        .seating
        .iter()
        .enumerate()
        .map(|(seat, &bot)| {
            let seed = arena::bot_seed(args.seed, index, seat);
            adapters::seated(
                &args.bots[bot],
                args.variant,
                parlor_shared::Seat(seat as u8),
                seed,
                args.move_ms,
            )
        })
        .collect::<anyhow::Result<_>>()?;
    arena::play_match(args.variant, options, fixture.seed, &mut seats).context("playing a match")
}

/// Redraws the progress bar on standard error (only when its width changes, so it is cheap).
fn progress(done: u64, total: u64) {
    const WIDTH: u64 = 40;
    let filled = done * WIDTH / total.max(1);
    let before = (done - 1) * WIDTH / total.max(1);
    let percent = done * 100 / total.max(1);
    let before_percent = (done - 1) * 100 / total.max(1);
    if filled == before && percent == before_percent && done != total {
        return;
    }
    let bar: String = (0..WIDTH)
        .map(|i| if i < filled { '#' } else { '-' })
        .collect();
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "\r[{bar}] {done}/{total} matches ({percent}%)");
    let _ = err.flush();
}
