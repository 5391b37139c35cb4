//! Making trump by calls (Euchre): after the deal each seat in turn from the dealer's left
//! calls or passes; the variant says which calls are open, what each does and who calls next.
//! This module keeps the turn, checks each call, and carries out what the variant decides:
//! trump made (with bowers or without), a seat sitting the hand out, the hand thrown in, or the
//! dealer picking up the turned-up card and discarding one face down before play; or (Bridge)
//! the auction's contract, naming trump, declarer and dummy.

use super::{Game, Phase};
use crate::bridge::Contract;
use crate::card::{Card, CardSet};
use crate::rules::RuleError;
use crate::rules::event::{Call, Event, TrumpMade};
use crate::rules::trumps::Trumps;
use crate::rules::variant_rules::AfterCall;
use crate::seat::Seat;

/// The making of trump this hand, as everyone saw it but the discard.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Calling {
    /// The calls made, in order.
    pub calls: Vec<(Seat, Call)>,
    /// Trump as made, once made.
    pub made: Option<TrumpMade>,
    /// The turned-up card the dealer picked up, once picked up.
    pub picked_up: Option<Card>,
    /// The card the dealer discarded (the dealer's alone to see).
    pub discarded: Option<Card>,
    /// The contract the auction ended in (Bridge).
    pub contract: Option<Contract>,
}

impl Game {
    /// After the deal: the dealer's left calls first (the dealer, in Bridge's auction).
    pub(super) fn start_calling(&mut self) {
        self.calling = Calling::default();
        self.phase = Phase::Calling;
        self.legal = CardSet::EMPTY;
        self.caller = self.variant_rules.first_caller(self.dealer, self.players);
        // Nobody has led: the trick waits for the dealer's left, as during bidding.
        self.start_trick(self.caller);
    }

    /// [`Game::apply`] of `Action::Call`.
    pub(super) fn call(
        &mut self,
        seat: Seat,
        call: Call,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        match self.phase {
            Phase::Calling => {}
            Phase::Discarding => return Err(RuleError::DiscardingNow),
            Phase::MatchOver => return Err(RuleError::MatchOver),
            _ => return Err(RuleError::NotCallingNow),
        }
        if seat != self.caller {
            return Err(RuleError::NotYourTurn);
        }
        let legal = self.variant_rules.legal_calls(seat, self.dealer);
        if !legal.allows(&crate::rules::Action::Call(call)) {
            return Err(self.variant_rules.call_refusal(call));
        }
        events.push(Event::Called { seat, call });
        self.calling.calls.push((seat, call));
        let outcome = self.variant_rules.call(seat, call, self.dealer);
        if let (Call::DefendAlone, Some(made)) = (call, &mut self.calling.made) {
            made.defender_alone = Some(seat);
        }
        if let Some((made, bowers)) = outcome.made {
            self.calling.made = Some(made);
            self.trumps = if bowers {
                Trumps::with_bowers(made.trump)
            } else {
                Trumps::plain(Some(made.trump))
            };
            events.push(Event::TrumpMade {
                trump: made.trump,
                maker: made.maker,
                alone: made.alone,
            });
        }
        if let Some(contract) = outcome.contract {
            self.calling.contract = Some(contract);
            self.trumps = Trumps::plain(contract.bid.strain().trump());
            self.dummy = Some(contract.dummy());
            self.update_seating();
            events.push(Event::Contract { contract });
        }
        if let Some(out) = outcome.sits_out {
            self.out.insert(out);
            self.update_seating();
            events.push(Event::SitsOut { seat: out });
        }
        match outcome.next {
            AfterCall::Call(next) => self.caller = next,
            AfterCall::ThrowIn => {
                events.push(Event::ThrownIn);
                self.finish_hand(events);
            }
            AfterCall::PickUp(dealer, card) => self.pick_up(dealer, card, events),
            // The turned-up card stays in view: everyone saw it, and nobody holds it.
            AfterCall::Play => self.start_play(),
        }
        Ok(())
    }

    /// `dealer` takes the turned-up `card` into their hand and must discard one.
    fn pick_up(&mut self, dealer: Seat, card: Card, events: &mut Vec<Event>) {
        self.face_up.remove(card);
        self.hands[dealer].insert(card);
        self.calling.picked_up = Some(card);
        events.push(Event::PickedUp { seat: dealer, card });
        self.phase = Phase::Discarding;
        self.caller = dealer;
    }

    /// [`Game::apply`] of `Action::Discard`: the card leaves the hand face down and play
    /// starts.
    pub(super) fn discard(
        &mut self,
        seat: Seat,
        card: Card,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        match self.phase {
            Phase::Discarding => {}
            Phase::Calling => return Err(RuleError::CallingNow),
            Phase::MatchOver => return Err(RuleError::MatchOver),
            _ => return Err(RuleError::NotDiscardingNow),
        }
        if seat != self.caller {
            return Err(RuleError::NotYourTurn);
        }
        if !self.hands[seat].contains(card) {
            return Err(RuleError::CardNotHeld(card));
        }
        self.hands[seat].remove(card);
        self.calling.discarded = Some(card);
        events.push(Event::Discarded { seat });
        events.push(Event::DiscardedCard { seat, card });
        self.start_play();
        Ok(())
    }

    /// This hand's calls, in a game whose players make trump.
    #[must_use]
    pub fn calling(&self) -> Option<&Calling> {
        self.variant_rules.calls().then_some(&self.calling)
    }
}
