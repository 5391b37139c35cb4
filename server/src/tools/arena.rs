//! `parlor arena`: many whole matches, headless and in-process on every core, with seats
//! rotated and deals duplicated; prints per-bot wins and points per hand with 95% intervals,
//! the time built-in bots take per move, with two distinct bots the ratio of their points per
//! hand, and in the games that bid, how each bot's bids went (made, nil, bags).

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;
use parlor_shared::arena::{self, Fixture, MatchRecord, Seated};
use parlor_shared::bots::Strategy;
use parlor_shared::{Action, Options, PlayerView, Variant};

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
    let clocks: Vec<Arc<Clock>> = args.bots.iter().map(|_| Arc::default()).collect();
    let results = play_all(args, games, threads, &clocks)?;
    let seconds = start.elapsed().as_secs_f64();
    let hands: usize = results.iter().map(|(_, r)| r.points.len()).sum();
    let report = arena::summarize(&args.bots, &results);
    let timing: Vec<Option<f64>> = report
        .iter()
        .map(|r| ms_per_move(&args.bots, &clocks, &r.bot))
        .collect();
    // With two distinct bots scoring points (not a zero-sum game's differences): the first
    // one's points per hand over the other's.
    let ratio = match report.as_slice() {
        [a, b] if a.points_per_hand.mean > 0.0 && b.points_per_hand.mean > 0.0 => {
            Some(a.points_per_hand.mean / b.points_per_hand.mean)
        }
        _ => None,
    };
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
            "ms_per_move": report
                .iter()
                .zip(&timing)
                .map(|(r, t)| (r.bot.clone(), serde_json::json!(t)))
                .collect::<serde_json::Map<_, _>>(),
            "points_ratio": ratio,
        });
        println!("{}", serde_json::to_string(&out)?);
        return Ok(());
    }
    println!(
        "{}: {games} matches, {hands} hands in {seconds:.1} s ({:.1} hands/s on {threads} threads); points per hand: {} is better",
        args.variant,
        hands as f64 / seconds,
        if args.variant.low_score_wins() {
            "lower"
        } else {
            "higher"
        },
    );
    println!(
        "{:<24} {:>7} {:>22} {:>26} {:>9}",
        "bot", "seats", "won (95% CI)", "points/hand (95% CI)", "ms/move"
    );
    for (r, t) in report.iter().zip(&timing) {
        println!(
            "{:<24} {:>7} {:>6.1}% [{:>5.1}, {:>5.1}] {:>9.3} [{:>7.3}, {:>7.3}] {:>9}{}",
            r.bot,
            r.seat_matches,
            100.0 * r.win_share.mean,
            100.0 * r.win_share.low,
            100.0 * r.win_share.high,
            r.points_per_hand.mean,
            r.points_per_hand.low,
            r.points_per_hand.high,
            t.map_or_else(|| "-".to_string(), |ms| format!("{ms:.3}")),
            if r.fallbacks > 0 {
                format!("  ({} fallback moves)", r.fallbacks)
            } else {
                String::new()
            }
        );
    }
    if let (Some(ratio), [a, b]) = (ratio, report.as_slice()) {
        println!("{} / {} points per hand: {ratio:.3}", a.bot, b.bot);
    }
    print_bidding(&report);
    print_imps(&report);
    Ok(())
}

/// Bridge's duplicate: IMPs per board against the other pair on the same boards, and the
/// matchpoint percentage against every table of the deal.
fn print_imps(report: &[arena::BotReport]) {
    if report.iter().all(|r| r.imps_per_board.is_none()) {
        return;
    }
    println!(
        "{:<24} {:>26} {:>28}",
        "bot", "IMPs/board (95% CI)", "matchpoints % (95% CI)"
    );
    for r in report {
        let (Some(imps), Some(mp)) = (&r.imps_per_board, &r.matchpoints) else {
            continue;
        };
        println!(
            "{:<24} {:>+8.2} [{:>+6.2}, {:>+6.2}] {:>12.1} [{:>5.1}, {:>5.1}]",
            r.bot, imps.mean, imps.low, imps.high, mp.mean, mp.low, mp.high
        );
    }
}

/// The bids' table, in the games that bid: bids made, nil bids made, bags per hand.
fn print_bidding(report: &[arena::BotReport]) {
    if report.iter().all(|r| r.bidding.is_none()) {
        return;
    }
    println!(
        "{:<24} {:>7} {:>22} {:>26} {:>22}",
        "bot", "hands", "bids made (95% CI)", "nils made (95% CI)", "bags/hand (95% CI)"
    );
    let percent = |e: &arena::Estimate| {
        format!(
            "{:>5.1}% [{:>5.1}, {:>5.1}]",
            100.0 * e.mean,
            100.0 * e.low,
            100.0 * e.high
        )
    };
    for r in report {
        let Some(b) = &r.bidding else { continue };
        let nils = b.nil_success.as_ref().map_or_else(
            || "no nil bid".to_string(),
            |e| format!("{}/{} {}", b.nils_made, b.nil_bids, percent(e)),
        );
        println!(
            "{:<24} {:>7} {:>22} {:>26} {:>6.3} [{:>5.3}, {:>5.3}]",
            r.bot,
            b.hands,
            percent(&b.made),
            nils,
            b.bags_per_hand.mean,
            b.bags_per_hand.low,
            b.bags_per_hand.high,
        );
    }
}

/// Decisions a built-in bot made and the time they took, summed over its seats and threads.
#[derive(Debug, Default)]
struct Clock {
    moves: AtomicU64,
    nanos: AtomicU64,
}

/// Mean milliseconds per decision of the bot named `name` (every seat it sat in); `None` for
/// outside programs, which are not timed here.
fn ms_per_move(bots: &[String], clocks: &[Arc<Clock>], name: &str) -> Option<f64> {
    let (moves, nanos) =
        bots.iter()
            .zip(clocks)
            .filter(|(b, _)| *b == name)
            .fold((0, 0), |(m, n), (_, c)| {
                (
                    m + c.moves.load(Ordering::Relaxed),
                    n + c.nanos.load(Ordering::Relaxed),
                )
            });
    (moves > 0).then(|| nanos as f64 / moves as f64 / 1e6)
}

/// A built-in strategy that adds each decision's wall-clock time to its bot's [`Clock`]. The
/// time is only reported: the decision itself never sees the clock.
struct Timed {
    inner: Box<dyn Strategy>,
    clock: Arc<Clock>,
}

impl Timed {
    fn timed(&mut self, decide: impl FnOnce(&mut dyn Strategy) -> Action) -> Action {
        let start = Instant::now();
        let action = decide(self.inner.as_mut());
        let nanos = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.clock.moves.fetch_add(1, Ordering::Relaxed);
        self.clock.nanos.fetch_add(nanos, Ordering::Relaxed);
        action
    }
}

impl Strategy for Timed {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn choose(&mut self, view: &PlayerView) -> Action {
        self.timed(|s| s.choose(view))
    }

    fn choose_until(&mut self, view: &PlayerView, stop: &dyn Fn() -> bool) -> Action {
        self.timed(|s| s.choose_until(view, stop))
    }
}

/// Plays games `0..games` on `threads` workers; results come back in schedule order.
fn play_all(
    args: &ArenaArgs,
    games: u64,
    threads: usize,
    clocks: &[Arc<Clock>],
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
                    match play_one(args, &options, index, &fixture, clocks) {
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
    clocks: &[Arc<Clock>],
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
            .map(|seated| match seated {
                Seated::Bot(inner) => Seated::Bot(Box::new(Timed {
                    inner,
                    clock: Arc::clone(&clocks[bot]),
                })),
                other => other,
            })
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
