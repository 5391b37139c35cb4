//! Uniformly random legal moves: the baseline every other bot must beat.

use super::Strategy;
use crate::card::CardSet;
use crate::deck::DeckRng;
use crate::rules::{Action, Legal};
use crate::view::PlayerView;

/// Picks uniformly among the legal moves.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: DeckRng,
}

impl RandomBot {
    /// A random bot with its own reproducible stream.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        RandomBot {
            rng: DeckRng::new(seed),
        }
    }

    /// A uniformly random card of `cards`.
    pub fn pick(&mut self, cards: CardSet) -> Option<crate::card::Card> {
        cards.nth(self.rng.below(cards.len()))
    }

    /// A uniformly random legal action, or `None` when there is nothing to do.
    pub fn choose_legal(&mut self, legal: &Legal) -> Option<Action> {
        match *legal {
            Legal::Play { cards } => self.pick(cards).map(|card| Action::Play { card }),
            Legal::Pass { count, from, .. } => {
                let mut left = from;
                let mut cards = Vec::with_capacity(count as usize);
                for _ in 0..count {
                    let card = self.pick(left)?;
                    left.remove(card);
                    cards.push(card);
                }
                Some(Action::Pass { cards })
            }
            Legal::Wait => None,
        }
    }
}

impl Strategy for RandomBot {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(&mut self, view: &PlayerView) -> Action {
        self.choose_legal(&view.legal)
            .expect("asked to act with nothing legal")
    }
}
