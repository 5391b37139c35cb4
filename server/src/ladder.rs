//! The ladder: the server keeps playing rated matches between computer players by itself, so a
//! bot left online overnight has a rating with a narrow interval in the morning.
//!
//! Each round, for each ladder variant, it picks as many entrants as the variant has seats
//! (cycling through the entrants given, the built-in strategies by default) and plays them in
//! **duplicate**: one deal seed, as many tables as seats, the entrants rotated one seat further
//! at each table, so every entrant plays every seat's cards and the luck of the deal cancels
//! out. Tables are created and filled through the lobby and the tables' own commands, and
//! their results reach the ratings like any other match. Between rounds it waits as long as
//! the operator asked.
//!
//! It sits above the lobby: it creates and drives tables, and knows nothing of sockets.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures_util::future::join_all;
use parlor_shared::bots::strategy;
use parlor_shared::protocol::{CreateTable, TableOptions};
use parlor_shared::{Options, Seat, Variant};
use tokio_util::sync::CancellationToken;

use crate::lobby::Lobby;
use crate::table::AdminCommand;

/// What the ladder plays.
#[derive(Debug, Clone)]
pub struct LadderConfig {
    /// The variants it plays, in turn.
    pub variants: Vec<Variant>,
    /// The built-in strategies it seats (those a variant does not know are skipped).
    pub strategies: Vec<String>,
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
}

/// Starts the ladder; it stops when `shutdown` is cancelled.
pub fn spawn(lobby: Lobby, config: LadderConfig, shutdown: CancellationToken) -> Arc<LadderStats> {
    let stats = Arc::new(LadderStats::default());
    let figures = Arc::clone(&stats);
    tokio::spawn(async move {
        tracing::info!(variants = ?config.variants, strategies = ?config.strategies, "the ladder is running");
        let mut round: u64 = 0;
        loop {
            for &variant in &config.variants {
                let entrants = entrants_for(variant, &config.strategies, round);
                if entrants.is_empty() {
                    continue;
                }
                let options = config
                    .options
                    .iter()
                    .find(|(v, _)| *v == variant)
                    .map(|(_, o)| o.clone())
                    .unwrap_or_default();
                let played = tokio::select! {
                    () = shutdown.cancelled() => return,
                    played = play_duplicate(&lobby, variant, &options, &entrants) => played,
                };
                figures.matches.fetch_add(played as u64, Ordering::Relaxed);
                figures
                    .failed
                    .fetch_add((entrants.len() - played) as u64, Ordering::Relaxed);
            }
            round += 1;
            tokio::select! {
                () = shutdown.cancelled() => return,
                () = tokio::time::sleep(config.pause) => {}
            }
        }
    });
    stats
}

/// One entrant per seat of `variant`, from the strategies it can seat (`strong:400` too), starting `round` places
/// along the list so every pairing comes up in turn.
#[must_use]
pub fn entrants_for(variant: Variant, strategies: &[String], round: u64) -> Vec<String> {
    let usable: Vec<&String> = strategies
        .iter()
        .filter(|s| strategy(s, variant, 0).is_some())
        .collect();
    if usable.is_empty() {
        return Vec::new();
    }
    let players = usize::from(variant.players());
    (0..players)
        .map(|i| usable[(i + round as usize) % usable.len()].clone())
        .collect()
}

/// Plays one deal seed at as many tables as seats, the entrants rotated one seat further at
/// each; returns how many of those matches were played to the end.
pub async fn play_duplicate(
    lobby: &Lobby,
    variant: Variant,
    options: &Options,
    entrants: &[String],
) -> usize {
    let seed: u64 = rand::random();
    let tables = (0..entrants.len()).map(|rotation| {
        let seats: Vec<String> = (0..entrants.len())
            .map(|i| entrants[(i + rotation) % entrants.len()].clone())
            .collect();
        play_one(lobby, variant, options, seed, seats)
    });
    join_all(tables).await.into_iter().filter(|ok| *ok).count()
}

/// One ladder match: a table with `seats` filled by built-in bots, played to its end, then
/// closed. Says whether it finished.
async fn play_one(
    lobby: &Lobby,
    variant: Variant,
    options: &Options,
    seed: u64,
    seats: Vec<String>,
) -> bool {
    let request = CreateTable {
        variant,
        options: options.clone(),
        table_options: TableOptions {
            name: Some("Ladder".into()),
            ..TableOptions::default()
        },
        seed: Some(seed),
    };
    let info = match lobby.create(request) {
        Ok((info, _host_key)) => info,
        Err(err) => {
            tracing::warn!(%err, "the ladder could not open a table");
            return false;
        }
    };
    let Some(table) = lobby.get(&info.id) else {
        return false;
    };
    for (i, strategy) in seats.into_iter().enumerate() {
        let command = AdminCommand::AddBot {
            seat: Seat(i as u8),
            strategy,
        };
        if let Err(err) = table.admin(command).await {
            tracing::warn!(table = %info.id, ?err, "the ladder could not seat a bot");
            return false;
        }
    }
    if table.admin(AdminCommand::Start).await.is_err() {
        return false;
    }
    let finished = table.finished(1).await.is_some();
    let _ = table
        .admin(AdminCommand::Close {
            reason: Some("the ladder match is over".into()),
        })
        .await;
    finished
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entrants_cycle_through_the_strategies_the_variant_knows() {
        let list = ["random", "uva181", "strong"].map(String::from);
        assert_eq!(
            entrants_for(Variant::Hearts, &list, 0),
            ["random", "strong", "random", "strong"]
        );
        assert_eq!(
            entrants_for(Variant::Hearts, &list, 1),
            ["strong", "random", "strong", "random"]
        );
        assert_eq!(entrants_for(Variant::Hearts5, &list, 0).len(), 5);
        assert!(entrants_for(Variant::Whist, &["uva181".to_string()], 0).is_empty());
    }
}
