//! The fixed strategy of UVa 181: always the highest card, trumps and higher suits first on
//! equal ranks.

use super::Strategy;
use crate::card::{Card, CardSet, Suit};
use crate::rules::{Action, Legal};
use crate::view::PlayerView;

/// Plays UVa 181's fixed strategy. Within the engine's legal moves (follow suit, else trump,
/// else anything) it always takes the highest card; on equal ranks a trump, else the higher
/// suit.
#[derive(Clone, Copy, Debug, Default)]
pub struct Uva181Bot;

impl Uva181Bot {
    /// The statement's choice among `cards`.
    #[must_use]
    pub fn pick(cards: CardSet, trump: Option<Suit>) -> Option<Card> {
        cards
            .iter()
            .max_by_key(|c| (c.rank(), Some(c.suit()) == trump, c.suit()))
    }
}

impl Strategy for Uva181Bot {
    fn name(&self) -> &'static str {
        "uva181"
    }

    fn choose(&mut self, view: &PlayerView) -> Action {
        match view.legal {
            Legal::Play { cards } => Action::Play {
                card: Self::pick(cards, view.trump).expect("a legal card"),
            },
            Legal::Pass { count, from, .. } => {
                let mut left = from;
                let cards = (0..count)
                    .map(|_| {
                        let card = Self::pick(left, view.trump).expect("enough cards");
                        left.remove(card);
                        card
                    })
                    .collect();
                Action::Pass { cards }
            }
            // UVa 181 has no bidding; in a game that has, the strategy bids the least it may.
            Legal::Bid { min, forbidden, .. } => Action::Bid {
                tricks: if forbidden == Some(min) { min + 1 } else { min },
            },
            Legal::Blind => Action::SeeCards,
            Legal::Exchange { count, from, .. } => {
                let mut left = from;
                let cards = (0..count)
                    .map(|_| {
                        let card = Self::pick(left, view.trump).expect("enough cards");
                        left.remove(card);
                        card
                    })
                    .collect();
                Action::Exchange { cards }
            }
            // Trump calls and discards are not UVa 181's: the heuristic's.
            Legal::Call { .. } | Legal::Discard { .. } | Legal::AnswerClaim { .. } => {
                super::HeuristicBot.choose(view)
            }
            Legal::Wait => panic!("asked to act with nothing legal"),
        }
    }
}
