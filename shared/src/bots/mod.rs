//! Built-in strategies. A strategy decides from a [`PlayerView`] alone (exactly what a person
//! in that seat would see) and is deterministic given its seed.
//!
//! The crate has no clock: a caller that must bound a decision's time passes
//! [`Strategy::choose_until`] a `stop` signal of its own (the server reads its clock there).

pub mod bid_outcome;
pub mod bridge;
pub mod bridge_bidding;
pub mod bridge_play;
pub mod bridge_seen;
mod contract;
pub mod euchre;
pub mod heuristic;
mod infer;
mod random;
mod rng;
pub mod sample;
pub mod sim;
pub mod strong;
mod strong_bid;
pub mod strong_bridge;
mod strong_euchre;
pub mod strong_hearts;
mod strong_pass;
pub mod table;
#[cfg(test)]
mod tests;
mod uva181;

pub use heuristic::HeuristicBot;
pub use random::RandomBot;
pub use rng::BotRng;
pub use strong::{Rollout, StrongBot};
pub use uva181::Uva181Bot;

use crate::rules::{Action, Variant};
use crate::view::PlayerView;

/// A built-in strategy: a decision function from what its seat sees to a legal action.
pub trait Strategy: Send {
    /// The strategy's name, as used in `add_bot` and `parlor arena --bots`.
    fn name(&self) -> &'static str;

    /// The move to make. Only called when the view's `legal` asks for one.
    fn choose(&mut self, view: &PlayerView) -> Action;

    /// The move to make, deciding sooner once `stop()` says time is up: a strategy that
    /// searches checks it between steps and decides from what it has. Strategies that decide
    /// at once need not override it. `choose` is this with a `stop` that never fires, so
    /// seeded play (the arena) is the same either way while `stop` stays false.
    fn choose_until(&mut self, view: &PlayerView, stop: &dyn Fn() -> bool) -> Action {
        let _ = stop;
        self.choose(view)
    }
}

/// The strategies offered for `variant`, weakest first.
#[must_use]
pub fn strategy_names(variant: Variant) -> Vec<&'static str> {
    let mut names = vec!["random"];
    if variant == Variant::Hearts5 {
        names.push("uva181");
    }
    names.extend(["heuristic", "strong"]);
    names
}

/// A strategy by name, seeded so that bot matches replay exactly.
#[must_use]
pub fn strategy(name: &str, variant: Variant, seed: u64) -> Option<Box<dyn Strategy>> {
    match name {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "uva181" if variant == Variant::Hearts5 => Some(Box::new(Uva181Bot)),
        "heuristic" => Some(Box::new(HeuristicBot)),
        "strong" => Some(Box::new(StrongBot::new(
            seed,
            StrongBot::default_budget(variant),
            Rollout::Heuristic,
        ))),
        "strong-random" => Some(Box::new(StrongBot::new(
            seed,
            StrongBot::DEFAULT_BUDGET,
            Rollout::Random,
        ))),
        _ => strong_with_budget(name, seed),
    }
}

/// `strong:N` (or `strong-random:N`): the Monte Carlo bot with a budget of `N` simulated hands
/// per decision.
fn strong_with_budget(name: &str, seed: u64) -> Option<Box<dyn Strategy>> {
    let (kind, budget) = name.split_once(':')?;
    let budget: u32 = budget
        .parse()
        .ok()
        .filter(|b| (1..=1_000_000).contains(b))?;
    let rollout = match kind {
        "strong" => Rollout::Heuristic,
        "strong-random" => Rollout::Random,
        _ => return None,
    };
    Some(Box::new(StrongBot::new(seed, budget, rollout)))
}
