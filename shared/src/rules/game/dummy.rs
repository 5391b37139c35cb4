//! A seat whose cards its partner plays (Bridge's dummy), and claims. When a call names a
//! contract, declarer's partner becomes dummy: their hand goes face up for everyone after the
//! opening lead, declarer plays it on dummy's turns, and dummy does nothing until the next
//! hand. On their own or dummy's turn declarer may claim some of the tricks still to play,
//! facing their hand: both defenders accepting ends the hand, one rejecting lets play go on.

use super::{Game, Phase};
use crate::card::CardSet;
use crate::rules::RuleError;
use crate::rules::event::Event;
use crate::seat::{Seat, SeatSet};

/// Declarer's claim, while the defenders answer it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    /// Declarer.
    pub seat: Seat,
    /// The tricks claimed of those still to play.
    pub tricks: u8,
    /// The defenders who accepted so far.
    pub accepted: SeatSet,
}

impl Game {
    /// The seat that acts for `seat`'s cards: declarer for dummy, else the seat itself.
    #[inline]
    pub(super) fn player_of(&self, seat: Seat) -> Seat {
        self.seating.player(seat)
    }

    /// The seat whose card `seat` plays: dummy's, when declarer plays on dummy's turn. Dummy
    /// plays none of its own.
    pub(super) fn cards_played_by(&self, seat: Seat) -> Result<Seat, RuleError> {
        let Some(dummy) = self.dummy else {
            return Ok(seat);
        };
        if self.phase == Phase::Playing {
            if seat == dummy {
                return Err(RuleError::DummyDoesNotPlay);
            }
            if self.claim.is_some() {
                return Err(RuleError::ClaimPending);
            }
        }
        if seat == dummy.partner() && self.turn == dummy {
            return Ok(dummy);
        }
        Ok(seat)
    }

    /// After the opening lead: dummy's hand goes face up.
    pub(super) fn show_dummy(&self, events: &mut Vec<Event>) {
        if let Some(seat) = self.dummy {
            events.push(Event::DummyShown {
                seat,
                cards: self.hands[seat],
            });
        }
    }

    /// Tricks still to play this hand.
    fn tricks_left(&self) -> u8 {
        let size = u8::try_from(self.rules.hand_size(self.hand)).expect("a hand of cards");
        size - u8::try_from(self.completed.len()).expect("a hand of tricks")
    }

    /// Why `seat` may not claim `tricks` now, if it may not.
    pub(super) fn check_claim(&self, seat: Seat, tricks: u8) -> Result<(), RuleError> {
        if self.phase == Phase::MatchOver {
            return Err(RuleError::MatchOver);
        }
        if self.claim.is_some() {
            return Err(RuleError::ClaimPending);
        }
        let declarer = self.dummy.map(Seat::partner);
        if self.phase != Phase::Playing
            || declarer != Some(seat)
            || self.player_of(self.turn) != seat
        {
            return Err(RuleError::NotDeclarersClaim);
        }
        let remaining = self.tricks_left();
        if tricks > remaining {
            return Err(RuleError::ClaimTooLarge { remaining });
        }
        Ok(())
    }

    /// [`Game::apply`] of `Action::Claim`.
    pub(super) fn claim(
        &mut self,
        seat: Seat,
        tricks: u8,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_claim(seat, tricks)?;
        self.claim = Some(Claim {
            seat,
            tricks,
            accepted: SeatSet::EMPTY,
        });
        self.legal = CardSet::EMPTY;
        events.push(Event::Claimed {
            seat,
            tricks,
            cards: self.hands[seat],
        });
        Ok(())
    }

    /// [`Game::apply`] of `Action::AnswerClaim`.
    pub(super) fn answer_claim(
        &mut self,
        seat: Seat,
        accept: bool,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if self.phase == Phase::MatchOver {
            return Err(RuleError::MatchOver);
        }
        let Some(mut claim) = self.claim else {
            return Err(RuleError::NoClaimToAnswer);
        };
        if !self.claim_answerers().contains(seat) {
            return Err(RuleError::NoClaimToAnswer);
        }
        events.push(Event::ClaimAnswered { seat, accept });
        if !accept {
            self.claim = None;
            self.claims_rejected = self.claims_rejected.saturating_add(1);
            self.legal = self.playable(self.turn);
            return Ok(());
        }
        claim.accepted.insert(seat);
        self.claim = Some(claim);
        if self.claim_answerers().is_empty() {
            let conceded = self.tricks_left() - claim.tricks;
            self.tricks_won[claim.seat] += claim.tricks;
            self.tricks_won[claim.seat.next(self.players)] += conceded;
            self.claim = None;
            self.finish_hand(events);
        }
        Ok(())
    }

    /// The defenders who have still to answer a pending claim.
    pub(super) fn claim_answerers(&self) -> SeatSet {
        let Some(claim) = self.claim else {
            return SeatSet::EMPTY;
        };
        let mut defenders = SeatSet::EMPTY;
        for defender in [
            claim.seat.next(self.players),
            claim.seat.partner().next(self.players),
        ] {
            if !claim.accepted.contains(defender) {
                defenders.insert(defender);
            }
        }
        defenders
    }

    /// Dummy's seat and remaining cards, once shown after the opening lead.
    #[must_use]
    pub fn dummy_shown(&self) -> Option<(Seat, CardSet)> {
        let dummy = self.dummy?;
        let led = !self.completed.is_empty() || !self.trick.is_empty();
        (self.phase == Phase::Playing && led).then(|| (dummy, self.hands[dummy]))
    }

    /// Dummy's seat, once the auction has named declarer (dummy's cards are not shown before
    /// the opening lead: see [`Game::dummy_shown`]).
    #[must_use]
    pub fn dummy(&self) -> Option<Seat> {
        self.dummy
    }

    /// Claims the defenders rejected this hand.
    #[must_use]
    pub fn claims_rejected(&self) -> u8 {
        self.claims_rejected
    }

    /// Declarer's claim while the defenders answer it.
    #[must_use]
    pub fn pending_claim(&self) -> Option<Claim> {
        self.claim
    }
}
