//! Built-in strategies. A strategy decides from a [`PlayerView`] alone (exactly what a person
//! in that seat would see) and is deterministic given its seed.

mod random;
mod uva181;

pub use random::RandomBot;
pub use uva181::Uva181Bot;

use crate::rules::{Action, Variant};
use crate::view::PlayerView;

/// A player program: given what its seat sees, pick a legal action.
pub trait Strategy: Send {
    /// The strategy's name, as used in `add_bot` and `parlor arena --bots`.
    fn name(&self) -> &'static str;

    /// The move to make. Only called when the view's `legal` asks for one.
    fn choose(&mut self, view: &PlayerView) -> Action;
}

/// The strategies offered for `variant`, weakest first.
#[must_use]
pub fn strategy_names(variant: Variant) -> Vec<&'static str> {
    let mut names = vec!["random"];
    if variant == Variant::Hearts5 {
        names.push("uva181");
    }
    names
}

/// A strategy by name, seeded so that bot matches replay exactly.
#[must_use]
pub fn strategy(name: &str, variant: Variant, seed: u64) -> Option<Box<dyn Strategy>> {
    match name {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "uva181" if variant == Variant::Hearts5 => Some(Box::new(Uva181Bot)),
        _ => None,
    }
}
