//! Trick play, as every variant shares it: turn order, following suit, trump taking the trick,
//! and handing a finished trick to its winner. What a variant adds (what may lead, what a void
//! player must play, a bad card's penalty, scoring as tricks are taken) is asked of the
//! variant's rules; this module names no variant.

use super::{Game, Phase};
use crate::card::{Card, CardSet};
use crate::rules::RuleError;
use crate::rules::event::Event;
use crate::rules::variant_rules::Table;
use crate::seat::Seat;

impl Game {
    /// [`Game::apply`] of `Action::Play { card }`, without building the action: the same
    /// checks, the same effects, the same events.
    #[inline]
    pub fn play_card(
        &mut self,
        seat: Seat,
        card: Card,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if seat.0 >= self.players {
            return Err(RuleError::NoSuchSeat(seat));
        }
        self.play(seat, card, events)
    }

    /// What the variant's legality rules may look at besides the hand and the trick.
    #[inline]
    fn table(&self) -> Table {
        Table {
            first_trick: self.completed.is_empty(),
            played: self.played_cards(),
            trump: self.trump,
        }
    }

    /// Every card played this hand, on the table or in finished tricks.
    #[inline]
    pub(super) fn played_cards(&self) -> CardSet {
        self.played | self.trick.card_set()
    }

    /// The cards `seat` may play, assuming it is their turn to play.
    #[inline]
    pub(super) fn playable(&self, seat: Seat) -> CardSet {
        let hand = self.hands[seat];
        let led = self.trick.led_cards();
        if led.is_empty() {
            return self.variant_rules.lead_options(hand, self.table());
        }
        let following = hand & led;
        // Whether a player can follow is random in random play: compute both answers and
        // select, rather than branch.
        let preferred = hand & self.discard_preference;
        let void = if preferred.is_empty() {
            hand
        } else {
            preferred
        };
        if following.is_empty() {
            void
        } else {
            following
        }
    }

    /// Starts a trick led by `leader`.
    pub(super) fn start_trick(&mut self, leader: Seat) {
        self.trick.restart(leader);
        self.turn = leader;
        self.discard_preference = self.variant_rules.discard_preference(self.table());
    }

    #[inline]
    pub(super) fn play(
        &mut self,
        seat: Seat,
        card: Card,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        match self.phase {
            Phase::Playing => {}
            Phase::Passing => return Err(RuleError::PassingNow),
            Phase::MatchOver => return Err(RuleError::MatchOver),
        }
        if seat != self.next_to_play() {
            return Err(RuleError::NotYourTurn);
        }
        if !self.legal.contains(card) {
            return self.illegal_card(seat, card, events);
        }
        self.hands[seat].remove(card);
        self.face_up.remove(card);
        let winner = self.trick.push(seat, card, self.trump);
        events.push(Event::Played { seat, card });
        if self.trick.len() == self.players as usize {
            self.finish_trick(winner, events);
            if self.phase == Phase::Playing {
                self.legal = self.playable(self.turn);
            }
        } else {
            // Mid-trick the phase cannot have changed.
            self.turn = seat.next(self.players);
            self.legal = self.playable(self.turn);
        }
        Ok(())
    }

    /// A card outside the legal ones: refused, or (when the variant says so) a bad card that
    /// costs points and ends the hand.
    #[cold]
    #[inline(never)]
    fn illegal_card(
        &mut self,
        seat: Seat,
        card: Card,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let Some(penalty) = self.variant_rules.bad_card(seat, &mut self.totals) else {
            return Err(self.why_illegal(seat, card));
        };
        events.push(Event::BadCard {
            seat,
            card,
            penalty,
        });
        self.finish_hand(events);
        Ok(())
    }

    /// Names the rule an illegal card breaks (only called once the card is known illegal).
    fn why_illegal(&self, seat: Seat, card: Card) -> RuleError {
        let hand = self.hands[seat];
        if !hand.contains(card) {
            return RuleError::CardNotHeld(card);
        }
        match self.trick.led_suit() {
            None => self.variant_rules.lead_refusal(hand, self.table()),
            Some(led) if hand.has_suit(led) => RuleError::MustFollowSuit(led),
            Some(_) => self.variant_rules.discard_refusal(hand, self.table()),
        }
    }

    /// Hands the finished trick to `winner` (as the last card's push returned).
    #[inline(never)]
    fn finish_trick(&mut self, winner: Seat, events: &mut Vec<Event>) {
        let cards = self.trick.card_set();
        self.taken[winner] |= cards;
        self.tricks_won[winner] += 1;
        self.played |= cards;
        self.completed.push(self.trick.record(winner));
        events.push(Event::TrickWon { winner, cards });
        self.start_trick(winner);
        if self.variant_rules.trick_won(winner, &mut self.totals) || self.hands[winner].is_empty() {
            self.finish_hand(events);
        }
    }
}
