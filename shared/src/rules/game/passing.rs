//! Passing, as every passing variant shares it: each seat chooses its cards at the same time,
//! and all passes arrive together once the last seat has chosen (then bidding or play starts). The variant only says, at the
//! deal, whether and where cards go this hand; this module may not decide that.

use super::{Game, PASS_COUNT, Phase};
use crate::card::{Card, CardSet};
use crate::rules::RuleError;
use crate::rules::event::Event;
use crate::seat::Seat;

impl Game {
    /// [`Game::apply`] of `Action::Pass` with the cards as a set (so it cannot hold a card
    /// twice), without building the action: the same checks, effects and events.
    #[inline]
    pub fn pass_cards(
        &mut self,
        seat: Seat,
        cards: CardSet,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if seat.0 >= self.players {
            return Err(RuleError::NoSuchSeat(seat));
        }
        self.check_can_pass(seat)?;
        if cards.len() != PASS_COUNT {
            return Err(RuleError::WrongPassCount {
                expected: PASS_COUNT,
                got: cards.len() as usize,
            });
        }
        if let Some(card) = (cards - self.hands[seat]).lowest() {
            return Err(RuleError::CardNotHeld(card));
        }
        self.choose_pass(seat, cards, events);
        Ok(())
    }

    /// Refuses a pass outside the passing phase or from a seat that has passed.
    fn check_can_pass(&self, seat: Seat) -> Result<(), RuleError> {
        match self.phase {
            Phase::Passing => {}
            Phase::Bidding | Phase::Playing => return Err(RuleError::NotPassingNow),
            Phase::Exchanging => return Err(RuleError::ExchangingNow),
            Phase::Calling => return Err(RuleError::CallingNow),
            Phase::Discarding => return Err(RuleError::DiscardingNow),
            Phase::MatchOver => return Err(RuleError::MatchOver),
        }
        if !self.to_pass.contains(seat) {
            return Err(RuleError::AlreadyPassed);
        }
        Ok(())
    }

    /// Records a checked pass; the last one makes every pass arrive.
    #[inline]
    fn choose_pass(&mut self, seat: Seat, chosen: CardSet, events: &mut Vec<Event>) {
        self.passed[seat] = chosen;
        self.to_pass.remove(seat);
        events.push(Event::PassChosen { seat });
        if self.to_pass.is_empty() {
            self.exchange_passes(events);
        }
    }

    pub(super) fn pass(
        &mut self,
        seat: Seat,
        cards: &[Card],
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_can_pass(seat)?;
        if cards.len() != PASS_COUNT as usize {
            return Err(RuleError::WrongPassCount {
                expected: PASS_COUNT,
                got: cards.len(),
            });
        }
        let mut chosen = CardSet::EMPTY;
        for &card in cards {
            if !self.hands[seat].contains(card) {
                return Err(RuleError::CardNotHeld(card));
            }
            if !chosen.insert(card) {
                return Err(RuleError::DuplicateInPass(card));
            }
        }
        self.choose_pass(seat, chosen, events);
        Ok(())
    }

    /// Every pass arrives at once, after everyone has chosen.
    #[inline(never)]
    fn exchange_passes(&mut self, events: &mut Vec<Event>) {
        let steps = self
            .pass_direction
            .expect("passing hand")
            .steps(self.players);
        for from in Seat::all(self.players) {
            self.hands[from] -= self.passed[from];
        }
        for from in Seat::all(self.players) {
            let to = from.left(steps, self.players);
            let cards = self.passed[from];
            self.hands[to] |= cards;
            self.received[to] = cards;
            events.push(Event::CardsPassed { from, to, cards });
        }
        self.start_bidding_or_play();
    }
}
