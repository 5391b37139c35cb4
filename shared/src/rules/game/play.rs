//! Trick play, as every variant shares it: turn order, following suit, trump taking the trick,
//! and handing a finished trick to its winner. What a variant adds (what may lead, what a void
//! player must play, a bad card's penalty, scoring as tricks are taken) is asked of the
//! variant's rules; this module names no variant.

use super::{Game, Phase};
use crate::card::{Card, CardSet, Suit};
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
        // `play` tells every refusal apart, `NoSuchSeat` first, once its one test fails.
        self.play(seat, card, events)
    }

    /// What the variant's legality rules may look at besides the hand and the trick.
    #[inline]
    fn table(&self) -> Table {
        Table {
            first_trick: self.completed.is_empty(),
            played: self.played_cards(),
            trump: self.trumps.suit(),
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
        self.follow_options(hand, led)
    }

    /// What a follower holding `hand` may play to a trick whose led suit's cards are `led`.
    /// The moves that know the trick is led (every card but the last of a trick) ask this
    /// directly rather than `playable`, which tests for the lead first.
    #[inline]
    fn follow_options(&self, hand: CardSet, led: CardSet) -> CardSet {
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
        // One test lets an accepted card through: `legal` is empty outside the playing phase
        // (see `Game::legal`) and the turn's player is a seat at the table. Which rule a
        // refused card breaks is worked out after it failed, in the order the checks have
        // always had.
        if seat != self.seating.player(self.turn) || !self.legal.contains(card) {
            return self.refused_card(seat, card, events);
        }
        // The card is the turn's seat's: dummy's, when declarer plays it.
        let seat = self.turn;
        self.hands[seat].remove(card);
        self.face_up.remove(card);
        let winner = self.trick.push(seat, card, self.trumps);
        // The event is written last on each path: for all the compiler knows, a write into the
        // event list may change the game, which it would then read again field by field.
        if self.trick.len() == self.seating.trick_size() {
            events.push(Event::Played { seat, card });
            // Sets the next legal cards: the winner's lead, or the next hand's.
            self.finish_trick(winner, events);
        } else {
            // Mid-trick the phase cannot have changed, and the trick is led.
            self.turn = self.seating.next(seat);
            self.legal = self.follow_options(self.hands[self.turn], self.trick.led_cards());
            events.push(Event::Played { seat, card });
            if self.dummy.is_some() && self.completed.is_empty() && self.trick.len() == 1 {
                self.show_dummy(events);
            }
        }
        Ok(())
    }

    /// A card that did not pass `play`'s one test: from dummy or while a claim is answered,
    /// from no seat at the table, out of phase, out of turn, or outside the legal cards.
    #[cold]
    #[inline(never)]
    fn refused_card(
        &mut self,
        mut seat: Seat,
        card: Card,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if self.dummy.is_some() {
            seat = self.cards_played_by(seat)?;
        }
        if seat.0 >= self.players {
            return Err(RuleError::NoSuchSeat(seat));
        }
        match self.phase {
            Phase::Playing => {}
            Phase::Passing => return Err(RuleError::PassingNow),
            Phase::Calling => return Err(RuleError::CallingNow),
            Phase::Discarding => return Err(RuleError::DiscardingNow),
            Phase::Bidding => return Err(RuleError::BiddingNow),
            Phase::Exchanging => return Err(RuleError::ExchangingNow),
            Phase::MatchOver => return Err(RuleError::MatchOver),
        }
        if seat != self.next_to_play() {
            return Err(RuleError::NotYourTurn);
        }
        self.illegal_card(seat, card, events)
    }

    /// A card outside the legal ones: refused, or (when the variant says so) a bad card that
    /// costs points and ends the hand.
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
        match self.trick.cards().first() {
            None => self.variant_rules.lead_refusal(hand, self.table()),
            Some(_) if !(hand & self.trick.led_cards()).is_empty() => {
                RuleError::MustFollowSuit(self.led_suit().expect("a led trick"))
            }
            Some(_) => self.variant_rules.discard_refusal(hand, self.table()),
        }
    }

    /// The suit the trick's first card plays as (the left bower leads trump), once led.
    pub(super) fn led_suit(&self) -> Option<Suit> {
        self.trick
            .cards()
            .first()
            .map(|card| self.trumps.suit_of(*card))
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
        } else {
            self.legal = self
                .variant_rules
                .lead_options(self.hands[winner], self.table());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::{Options, Variant};

    /// `play_card` lets a card through on one test (`legal` is empty outside the playing
    /// phase): each refusal must still name its rule, in the order `apply` names them, and
    /// leave the game as it was.
    #[test]
    fn every_refused_card_names_its_rule_and_changes_nothing() {
        let mut game = Game::new(Variant::Hearts, &Options::default(), 3).unwrap();
        let mut events = Vec::new();
        assert_eq!(game.phase(), Phase::Passing);
        let before = game.clone();
        for seat in Seat::all(4) {
            let card = game.hand(seat).lowest().unwrap();
            assert_eq!(
                game.play_card(seat, card, &mut events),
                Err(RuleError::PassingNow)
            );
        }
        let held = game.hand(Seat(0)).lowest().unwrap();
        assert_eq!(
            game.play_card(Seat(7), held, &mut events),
            Err(RuleError::NoSuchSeat(Seat(7)))
        );
        assert!(game == before && events.is_empty());

        // Pass, then refuse out of turn and outside the legal cards while playing.
        for seat in Seat::all(4) {
            let cards: CardSet = game.hand(seat).iter().take(3).collect();
            game.pass_cards(seat, cards, &mut events).unwrap();
        }
        let turn = game.next_to_play();
        let other = turn.next(4);
        let before = game.clone();
        let events_before = events.len();
        assert_eq!(
            game.play_card(other, game.hand(other).lowest().unwrap(), &mut events),
            Err(RuleError::NotYourTurn)
        );
        let not_held = (CardSet::FULL - game.hand(turn)).lowest().unwrap();
        assert_eq!(
            game.play_card(turn, not_held, &mut events),
            Err(RuleError::CardNotHeld(not_held))
        );
        let held_illegal = (game.hand(turn) - game.legal_plays(turn)).lowest().unwrap();
        assert_eq!(
            game.play_card(turn, held_illegal, &mut events),
            Err(RuleError::MustLeadTwoOfClubs)
        );
        assert!(game == before && events.len() == events_before);

        // Played out, the match refuses every card.
        while !game.is_over() {
            let seat = game.next_to_play();
            if game.phase() == Phase::Passing {
                for seat in game.to_pass().iter() {
                    let cards: CardSet = game.hand(seat).iter().take(3).collect();
                    game.pass_cards(seat, cards, &mut events).unwrap();
                }
                continue;
            }
            let card = game.legal_plays(seat).lowest().unwrap();
            game.play_card(seat, card, &mut events).unwrap();
        }
        let before = game.clone();
        for seat in Seat::all(4) {
            assert_eq!(
                game.play_card(seat, Card::TWO_OF_CLUBS, &mut events),
                Err(RuleError::MatchOver)
            );
        }
        assert_eq!(
            game.play_card(Seat(9), Card::TWO_OF_CLUBS, &mut events),
            Err(RuleError::NoSuchSeat(Seat(9)))
        );
        assert!(game == before);
    }
}
