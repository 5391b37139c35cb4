//! Where the server's own bots think: off the async runtime, a few at a time, each move
//! within a time budget. A table that must move for a seat hands the strategy and view to
//! [`Bots::think`] and goes on with its mailbox; the [`Thought`] brings the move back. On the
//! table's task the `strong` bot's hundreds of simulated hands would hold a runtime worker.
//!
//! Tokio's blocking pool (whose clock paused tests do not jump), behind a semaphore of
//! [`thinkers`] (half the cores), so the runtime keeps CPU for every other table: a crowded
//! server makes bots slower, never weaker. A bot's work per move is fixed, never cut by the
//! clock, so its choice is the same on any machine; past the budget and [`LATE`] the table
//! plays `HeuristicBot::fallback`. It knows nothing of tables, seats or connections.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use parlor_shared::bots::{Strategy, strategy};
use parlor_shared::protocol::Occupant;
use parlor_shared::{Action, PlayerView, Seat, Variant};
use tokio::sync::{Semaphore, oneshot};
use tokio::time::Instant;

/// The default time a bot has for one move.
pub const DEFAULT_BUDGET: Duration = Duration::from_secs(2);

/// How long past its budget a table still waits for a thought before playing without it
/// (a search notices its budget only between simulated deals).
pub const LATE: Duration = Duration::from_millis(250);

/// The budget in milliseconds, as `parlor serve --bot-think-ms` set it.
static BUDGET_MS: AtomicU64 = AtomicU64::new(DEFAULT_BUDGET.as_millis() as u64);

/// Sets the time every bot of this process has for one move, for tables opened from now on.
pub fn set_budget(budget: Duration) {
    let ms = u64::try_from(budget.as_millis()).unwrap_or(u64::MAX).max(1);
    BUDGET_MS.store(ms, Ordering::Relaxed);
}

/// How many thoughts run at once in this process: half the cores, at least one.
#[must_use]
pub fn thinkers() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    (cores / 2).max(1)
}

/// The permits every table of the process shares.
fn shared_permits() -> Arc<Semaphore> {
    static PERMITS: OnceLock<Arc<Semaphore>> = OnceLock::new();
    PERMITS
        .get_or_init(|| Arc::new(Semaphore::new(thinkers())))
        .clone()
}

/// Makes a strategy by name (`parlor_shared::bots::strategy`, or a test's own).
pub type MakeStrategy =
    Arc<dyn Fn(&str, Variant, u64) -> Option<Box<dyn Strategy>> + Send + Sync + 'static>;

/// Where a table's bots come from and where they think. Cheap to clone.
#[derive(Clone)]
pub struct Bots {
    /// The time a bot has for one move.
    budget: Duration,
    /// Shared by every table: how many may think at once.
    permits: Arc<Semaphore>,
    /// Makes strategies by name.
    make: MakeStrategy,
}

impl fmt::Debug for Bots {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bots")
            .field("budget", &self.budget)
            .finish_non_exhaustive()
    }
}

impl Bots {
    /// The process's settings and the built-in strategies.
    #[must_use]
    pub fn shared() -> Bots {
        Bots {
            budget: Duration::from_millis(BUDGET_MS.load(Ordering::Relaxed)),
            permits: shared_permits(),
            make: Arc::new(strategy),
        }
    }

    /// Bots made by `make`, with their own budget and limit (tests).
    #[cfg(test)]
    #[must_use]
    pub fn with(budget: Duration, make: MakeStrategy) -> Bots {
        Bots {
            budget,
            permits: Arc::new(Semaphore::new(1)),
            make,
        }
    }

    /// A strategy by name, seeded.
    #[must_use]
    pub fn make(&self, name: &str, variant: Variant, seed: u64) -> Option<Box<dyn Strategy>> {
        (self.make)(name, variant, seed)
    }

    /// The bot that plays for an absent player: the heuristic one where the variant has it,
    /// random otherwise.
    #[must_use]
    pub fn stand_in(&self, variant: Variant, seed: u64) -> Box<dyn Strategy> {
        self.make("heuristic", variant, seed)
            .or_else(|| self.make("random", variant, seed))
            .expect("the random strategy exists for every variant")
    }

    /// Starts `bot` thinking about `view` for `seat`, asked at the table's event `seq`, when
    /// the seat held `occupant`.
    #[must_use]
    pub fn think(&self, mut bot: Box<dyn Strategy>, view: PlayerView, asked: Asked) -> Thought {
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = oneshot::channel();
        let permits = self.permits.clone();
        let cancelled = cancel.clone();
        tokio::spawn(async move {
            let Ok(_permit) = permits.acquire_owned().await else {
                return;
            };
            if cancelled.load(Ordering::Relaxed) {
                // Given up on while it waited: the bot goes back without thinking.
                let _ = tx.send(Answer { bot, action: None });
                return;
            }
            let thinking = tokio::task::spawn_blocking(move || {
                // Only a table that gave up stops the search: the clock never cuts it short,
                // so a move is the same on a busy machine, an idle one, and after a restart.
                let stop = || cancelled.load(Ordering::Relaxed);
                let action = bot.choose_until(&view, &stop);
                Answer {
                    bot,
                    action: Some(action),
                }
            });
            // A strategy that panicked is lost: the table sees no answer and plays for it.
            if let Ok(answer) = thinking.await {
                let _ = tx.send(answer);
            }
        });
        Thought {
            asked,
            deadline: Instant::now() + self.budget + LATE,
            answer: rx,
            cancel,
        }
    }
}

/// What a thought was asked about: enough to tell whether its answer still applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asked {
    /// The seat it moves for.
    pub seat: Seat,
    /// The table's event counter then: any move since changes it.
    pub seq: u64,
    /// Who held the seat then (the bot goes back only to the same kind of occupant).
    pub occupant: Occupant,
}

/// A thought under way: the table keeps at most one.
pub struct Thought {
    /// What it was asked.
    pub asked: Asked,
    /// When the table stops waiting for it.
    pub deadline: Instant,
    /// Where its answer comes.
    answer: oneshot::Receiver<Answer>,
    /// Set to stop it early; read by its `stop()`.
    cancel: Arc<AtomicBool>,
}

/// A thought's answer: the bot back, and its move (`None`: it was given up before starting).
pub struct Answer {
    /// The strategy, with whatever it learned.
    pub bot: Box<dyn Strategy>,
    /// The move it chose.
    pub action: Option<Action>,
}

impl Thought {
    /// Tells the bot to decide now: its answer is no longer wanted.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// The answer, or `None` if the thought was lost (its strategy panicked).
    pub async fn answer(&mut self) -> Option<Answer> {
        (&mut self.answer).await.ok()
    }
}

impl Drop for Thought {
    /// A thought nobody waits for stops at once (table closed, server stopping, answer late).
    fn drop(&mut self) {
        self.cancel();
    }
}
