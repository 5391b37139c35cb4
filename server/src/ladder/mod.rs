//! The ladder: the server keeps playing rated matches between computer players by itself, so a
//! bot left online overnight has a rating with a narrow interval in the morning.
//!
//! Each round, per ladder variant, it seats the registered bots online that still take a table
//! ([`entrants`]), fills the other seats with built-in strategies, and plays them in
//! **duplicate**: one deal, as many tables as seats, the entrants rotated a seat further at each,
//! so the luck of the deal cancels out; a bot plays no more tables at once than it has free.
//! Tables are made and filled through the lobby and the bot directory ([`table`]); results reach
//! the ratings like any match's. In a cluster it invites the bots of every node through their
//! nodes. It sits above the lobby and knows nothing of sockets.

pub mod entrants;
pub mod table;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::future::join_all;
use parlor_shared::bots::strategy;
use parlor_shared::{Options, Variant};
use tokio_util::sync::CancellationToken;

pub use entrants::{Entrant, entrants_for, rotations};

use crate::cluster::Cluster;
use crate::lobby::Lobby;

/// Where the ladder plays: this node's lobby, and the cluster it is part of (whose other
/// nodes' registered bots it invites too).
#[derive(Clone, Copy)]
pub struct Venue<'a> {
    /// The tables and this node's bots.
    pub lobby: &'a Lobby,
    /// The cluster, if any.
    pub cluster: Option<&'a Cluster>,
}

/// How soon a ladder with nobody to play looks for registered bots online again.
const IDLE_RECHECK: Duration = Duration::from_secs(1);

/// What the ladder plays.
#[derive(Debug, Clone)]
pub struct LadderConfig {
    /// The variants it plays, in turn.
    pub variants: Vec<Variant>,
    /// The built-in strategies it seats (those a variant does not know are skipped).
    pub strategies: Vec<String>,
    /// The built-in strategy that plays a registered bot's seat when the bot does not take it
    /// (declines, lets the invitation lapse, goes offline).
    pub substitute: String,
    /// The pause after each round.
    pub pause: Duration,
    /// Rule options per variant (absent: the rules' own).
    pub options: Vec<(Variant, Options)>,
}

impl Default for LadderConfig {
    fn default() -> Self {
        LadderConfig {
            variants: Variant::ALL.to_vec(),
            strategies: ["random", "heuristic", "strong"].map(String::from).to_vec(),
            substitute: "heuristic".into(),
            pause: Duration::from_secs(5),
            // The contest's 1,000 points take about 300 hands: a tenth of it is a match.
            options: vec![(
                Variant::Tricks,
                Options {
                    target: Some(100),
                    ..Options::default()
                },
            )],
        }
    }
}

/// The ladder's figures, for the logs and `GET /api/stats`.
#[derive(Debug, Default)]
pub struct LadderStats {
    /// Matches played to the end.
    pub matches: AtomicU64,
    /// Matches that could not be played (a table refused or closed early).
    pub failed: AtomicU64,
    /// Seats registered bots took by invitation.
    pub invited: AtomicU64,
    /// Seats registered bots were invited to but did not take (a built-in played them).
    pub substituted: AtomicU64,
}

/// The ladder's figures at one moment, as `GET /api/stats` shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LadderFigures {
    /// Matches played to the end.
    pub matches: u64,
    /// Matches that could not be played.
    pub failed: u64,
    /// Seats registered bots took by invitation.
    pub invited: u64,
    /// Seats registered bots were invited to but did not take.
    pub substituted: u64,
}

impl LadderStats {
    /// The figures now.
    #[must_use]
    pub fn figures(&self) -> LadderFigures {
        LadderFigures {
            matches: self.matches.load(Ordering::Relaxed),
            failed: self.failed.load(Ordering::Relaxed),
            invited: self.invited.load(Ordering::Relaxed),
            substituted: self.substituted.load(Ordering::Relaxed),
        }
    }
}

/// Starts the ladder; it stops when `shutdown` is cancelled.
pub fn spawn(lobby: Lobby, config: LadderConfig, shutdown: CancellationToken) -> Arc<LadderStats> {
    spawn_in(lobby, None, config, shutdown)
}

/// Starts the ladder on a node of `cluster` (or on its own without one); it stops when
/// `shutdown` is cancelled.
pub fn spawn_in(
    lobby: Lobby,
    cluster: Option<Cluster>,
    config: LadderConfig,
    shutdown: CancellationToken,
) -> Arc<LadderStats> {
    let stats = Arc::new(LadderStats::default());
    let figures = Arc::clone(&stats);
    tokio::spawn(async move {
        tracing::info!(variants = ?config.variants, strategies = ?config.strategies, "the ladder is running");
        let started = Instant::now();
        let mut round: u64 = 0;
        loop {
            let mut played = false;
            for &variant in &config.variants {
                let venue = Venue {
                    lobby: &lobby,
                    cluster: cluster.as_ref(),
                };
                let (entrants, wave) = choose(venue, variant, &config.strategies, round).await;
                if entrants.is_empty() {
                    continue;
                }
                played = true;
                let options = config
                    .options
                    .iter()
                    .find(|(v, _)| *v == variant)
                    .map(|(_, o)| o.clone())
                    .unwrap_or_default();
                // `random` plays every variant.
                let substitute = if strategy(&config.substitute, variant, 0).is_some() {
                    config.substitute.as_str()
                } else {
                    "random"
                };
                let duplicate = play_duplicate(
                    venue, variant, &options, &entrants, wave, substitute, &figures,
                );
                tokio::select! {
                    () = shutdown.cancelled() => return,
                    () = duplicate => {}
                };
                let matches = figures.matches.load(Ordering::Relaxed);
                let minutes = started.elapsed().as_secs_f64() / 60.0;
                tracing::info!(
                    %variant,
                    entrants = ?entrants.iter().map(Entrant::name).collect::<Vec<_>>(),
                    matches,
                    per_minute = format!("{:.1}", matches as f64 / minutes.max(1e-9)),
                    "ladder duplicate played"
                );
            }
            round += 1;
            // Nobody to play (no bot online, and no two built-ins to pair): look again in a
            // while rather than spin.
            let pause = if played {
                config.pause
            } else {
                config.pause.max(IDLE_RECHECK)
            };
            tokio::select! {
                () = shutdown.cancelled() => return,
                () = tokio::time::sleep(pause) => {}
            }
        }
    });
    stats
}

/// This round's entrants for `variant` (the registered bots online for it with a table to
/// spare, then built-ins), and how many of its duplicate tables may be played at once: no
/// more than any of those bots has free. (A seat counts until the bot's connection to it
/// ends, a moment after its match: with no pause between rounds, a bot may sit one out.)
async fn choose(
    venue: Venue<'_>,
    variant: Variant,
    strategies: &[String],
    round: u64,
) -> (Vec<Entrant>, usize) {
    let mut online = venue.lobby.bots().list(Some(variant));
    if let Some(cluster) = venue.cluster {
        for elsewhere in cluster.bots_elsewhere(Some(variant)).await {
            if !online
                .iter()
                .any(|b| crate::skeleton::same(&b.name, &elsewhere.bot.name))
            {
                online.push(elsewhere.bot);
            }
        }
    }
    online.retain(|bot| bot.free > 0);
    let names: Vec<String> = online.iter().map(|bot| bot.name.clone()).collect();
    let entrants = entrants::seating_order(entrants_for(variant, strategies, &names, round), round);
    let wave = entrants::wave(&entrants, |name| {
        online.iter().find(|b| b.name == name).map(|b| b.free)
    });
    (entrants, wave)
}

/// Plays one deal seed at as many tables as seats, the entrants rotated one seat further at
/// each, `wave` tables at a time; counts them in `stats`.
pub async fn play_duplicate(
    venue: Venue<'_>,
    variant: Variant,
    options: &Options,
    entrants: &[Entrant],
    wave: usize,
    substitute: &str,
    stats: &LadderStats,
) {
    let seed: u64 = rand::random();
    let tables = rotations(entrants);
    for chunk in tables.chunks(wave.max(1)) {
        let matches = chunk
            .iter()
            .map(|seats| table::play_one(venue, variant, options, seed, seats, substitute));
        for played in join_all(matches).await {
            let counter = if played.finished {
                &stats.matches
            } else {
                &stats.failed
            };
            counter.fetch_add(1, Ordering::Relaxed);
            stats
                .invited
                .fetch_add(u64::from(played.invited), Ordering::Relaxed);
            stats
                .substituted
                .fetch_add(u64::from(played.substituted), Ordering::Relaxed);
        }
    }
}
