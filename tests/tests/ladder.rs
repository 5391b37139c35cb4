//! The ladder, in process: it keeps playing duplicate matches between built-in strategies by
//! itself, every match reaches the ratings, and `random` comes out clearly below `heuristic`.
//! (`strong` is left out here for speed; its strength is measured by `parlor arena`.)

use std::sync::atomic::Ordering;
use std::time::Duration;

use parlor_server::ladder::{self, LadderConfig};
use parlor_server::lobby::Lobby;
use parlor_shared::{Options, Variant};
use tokio_util::sync::CancellationToken;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ladder_plays_by_itself_and_rates_random_below_the_others() {
    let matches: u64 = std::env::var("LADDER_MATCHES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(24);
    // The clock is only a safety net: every move is a fixed amount of work.
    parlor_server::table::thinking::set_budget(Duration::from_secs(30));
    let shutdown = CancellationToken::new();
    let lobby = Lobby::new(Duration::from_secs(600), 1_000, shutdown.clone());
    let config = LadderConfig {
        variants: vec![Variant::Hearts],
        // `strong` searches hard: a debug build on a busy machine would take minutes.
        strategies: ["random", "heuristic"].map(String::from).to_vec(),
        substitute: "heuristic".into(),
        pause: Duration::ZERO,
        options: vec![(
            Variant::Hearts,
            Options {
                target: Some(50),
                ..Options::default()
            },
        )],
    };
    let started = std::time::Instant::now();
    let stats = ladder::spawn(lobby.clone(), config, shutdown.clone());
    // Bounded: the ladder plays its matches, however long this machine takes for them.
    for _ in 0..3_600 {
        if stats.matches.load(Ordering::Relaxed) >= matches {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    shutdown.cancel();
    let played = stats.matches.load(Ordering::Relaxed);
    assert!(played >= matches, "the ladder played {played} matches");
    assert_eq!(stats.failed.load(Ordering::Relaxed), 0);
    let board: Vec<(String, f64, f64, u32)> = lobby.ratings().read(|board| {
        board
            .standings("hearts")
            .iter()
            .map(|e| (e.entrant.name.clone(), e.rating, e.uncertainty, e.matches))
            .collect()
    });
    eprintln!(
        "{played} ladder matches in {:.0?}: {board:?}",
        started.elapsed()
    );
    assert_eq!(board.len(), 2, "{board:?}");
    // Matches already under way when the ladder was stopped still finish and are rated, so the
    // board may hold a few more than `played`; every one of them rated both players once.
    let rated = board[0].3;
    assert!(u64::from(rated) >= played, "{board:?}");
    assert!(
        board.iter().all(|entry| entry.3 == rated),
        "every match rates everyone once: {board:?}"
    );
    let (last, rating, sd, _) = board.last().expect("two entries");
    assert_eq!(last, "random", "{board:?}");
    for (name, r, s, _) in &board[..1] {
        assert!(
            r - 1.96 * s > rating + 1.96 * sd,
            "{name}'s interval is above random's: {board:?}"
        );
    }
}
