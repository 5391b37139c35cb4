//! Uniformly random legal moves: the baseline every other bot must beat.

use super::BotRng;
use super::Strategy;
use crate::card::CardSet;
use crate::rules::{Action, Event, Game, Legal, PASS_COUNT, Phase, RuleError};
use crate::seat::Seat;
use crate::view::PlayerView;

/// Picks uniformly among the legal moves.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: BotRng,
}

impl RandomBot {
    /// A random bot with its own reproducible stream.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        RandomBot {
            rng: BotRng::new(seed),
        }
    }

    /// A uniformly random card of `cards`.
    pub fn pick(&mut self, cards: CardSet) -> Option<crate::card::Card> {
        cards.nth(self.rng.below(cards.len()))
    }

    /// `count` distinct cards of `from`, uniformly.
    fn pick_cards(&mut self, count: u32, from: CardSet) -> Option<Vec<crate::card::Card>> {
        let mut left = from;
        let mut cards = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let card = self.pick(left)?;
            left.remove(card);
            cards.push(card);
        }
        Some(cards)
    }

    /// A uniformly random legal action, or `None` when there is nothing to do.
    pub fn choose_legal(&mut self, legal: &Legal) -> Option<Action> {
        match *legal {
            Legal::Play { cards } => self.pick(cards).map(|card| Action::Play { card }),
            Legal::Pass { count, from, .. } => self
                .pick_cards(count, from)
                .map(|cards| Action::Pass { cards }),
            Legal::Exchange { count, from, .. } => self
                .pick_cards(count, from)
                .map(|cards| Action::Exchange { cards }),
            Legal::Blind => Some(if self.rng.below(2) == 0 {
                Action::BlindNil
            } else {
                Action::SeeCards
            }),
            Legal::Bid {
                min,
                max,
                forbidden,
            } => {
                // Uniform among the allowed bids: the range less the forbidden one.
                let allowed: Vec<u8> = (min..=max).filter(|b| Some(*b) != forbidden).collect();
                let pick = self.rng.below(allowed.len() as u32) as usize;
                allowed.get(pick).map(|&tricks| Action::Bid { tricks })
            }
            Legal::Call { .. } => {
                let calls = legal.calls();
                let pick = self.rng.below(calls.len() as u32) as usize;
                calls.get(pick).map(|&call| Action::Call(call))
            }
            Legal::Discard { from } => self.pick(from).map(|card| Action::Discard { card }),
            Legal::AnswerClaim { .. } => Some(Action::AnswerClaim {
                accept: self.rng.below(2) == 0,
            }),
            Legal::Wait => None,
        }
    }

    /// Makes `seat`'s move directly on `game`: the same choice as [`RandomBot::choose_legal`]
    /// would make from the legal moves, but through the engine's allocation-free entry points,
    /// so headless matches of random bots run at engine speed. It reads only what the seat's
    /// view holds (its legal cards or bids, or its own hand when passing).
    pub fn act_on(
        &mut self,
        game: &mut Game,
        seat: Seat,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        match game.phase() {
            Phase::Playing => {
                let card = self
                    .pick(game.legal_plays(seat))
                    .ok_or(RuleError::NotYourTurn)?;
                game.play_card(seat, card, events)
            }
            Phase::Passing => {
                let mut left = game.hand(seat);
                let mut chosen = CardSet::EMPTY;
                for _ in 0..PASS_COUNT {
                    let card = self.pick(left).ok_or(RuleError::NotYourTurn)?;
                    left.remove(card);
                    chosen.insert(card);
                }
                game.pass_cards(seat, chosen, events)
            }
            Phase::Bidding | Phase::Exchanging | Phase::Calling | Phase::Discarding => {
                let legal = game.legal_actions(seat);
                match self.choose_legal(&legal) {
                    Some(Action::Bid { tricks }) => game.bid(seat, tricks, events),
                    Some(action) => game.apply_into(seat, &action, events),
                    None => Err(RuleError::NotYourTurn),
                }
            }
            Phase::MatchOver => Err(RuleError::MatchOver),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Options, Variant};

    /// The fast path the arena uses must make exactly the moves the view-based path makes.
    #[test]
    fn acting_on_the_game_matches_choosing_from_the_view() {
        for variant in Variant::ALL {
            // Short matches keep the test quick in a debug build.
            let options = match variant {
                Variant::Hearts5 => Options {
                    hands: Some(2),
                    ..Options::default()
                },
                Variant::OhHell => Options {
                    players: Some(6),
                    schedule: Some(crate::rules::Schedule::Down),
                    ..Options::default()
                },
                Variant::Spades => Options {
                    target: Some(100),
                    ..Options::default()
                },
                Variant::Bridge => Options {
                    hands: Some(2),
                    ..Options::default()
                },
                _ => Options {
                    target: Some(if variant == Variant::Whist { 2 } else { 30 }),
                    ..Options::default()
                },
            };
            let mut fast_game = Game::new(variant, &options, 11).unwrap();
            let mut slow_game = fast_game.clone();
            let (mut fast, mut slow) = (RandomBot::new(5), RandomBot::new(5));
            let mut events = Vec::new();
            while !slow_game.is_over() {
                let seat = slow_game.to_act().iter().next().expect("someone acts");
                let action = slow.choose(&PlayerView::of(&slow_game, Some(seat)));
                let slow_events = slow_game.apply(seat, &action).unwrap();
                events.clear();
                fast.act_on(&mut fast_game, seat, &mut events).unwrap();
                assert_eq!(events, slow_events, "{variant}");
                assert_eq!(fast_game, slow_game, "{variant}");
            }
            assert!(fast_game.is_over(), "{variant}");
        }
    }
}
