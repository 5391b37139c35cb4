//! Blind bids, as a kit part: a hand dealt face down until its holder looks or bids blind,
//! and the exchange of cards between a blind bidder and their partner before play. The
//! variant says who may bid blind at the deal and scores the bid; this module keeps the hand
//! hidden, takes the bid (as a bid of 0), and runs the exchange: the partner gives first,
//! then the blind bidder gives back, [`EXCHANGE_COUNT`] cards each way, seen by the two alone.

use super::{Game, Phase};
use crate::card::{Card, CardSet};
use crate::rules::RuleError;
use crate::rules::event::{Event, Legal};
use crate::seat::{Seat, SeatList, SeatSet};

/// Cards each partner gives in a blind bid's exchange.
pub const EXCHANGE_COUNT: u32 = 2;

impl Game {
    /// Hides the hands of the seats the variant lets bid blind this hand: they are dealt
    /// face down.
    pub(super) fn deal_face_down(&mut self) {
        self.may_bid_blind = self.variant_rules.blind_bidders(&self.totals);
        self.face_down = self.may_bid_blind;
        self.blind = SeatSet::EMPTY;
        self.giving.clear();
    }

    /// The events of a deal that hides some hands: who holds theirs face down.
    pub(super) fn announce_face_down(&self, events: &mut Vec<Event>) {
        if !self.face_down.is_empty() {
            let seats: Vec<Seat> = self.face_down.iter().collect();
            events.push(Event::DealtFaceDown {
                seats: SeatList::from_slice(&seats),
            });
        }
    }

    /// [`Game::apply`] of `Action::SeeCards`: the seat to bid looks at its face-down hand.
    pub(super) fn see_cards(
        &mut self,
        seat: Seat,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_bidder(seat)?;
        if !self.face_down.contains(seat) {
            return Err(RuleError::CardsAlreadySeen);
        }
        self.turn_up(seat, events);
        Ok(())
    }

    /// [`Game::apply`] of `Action::BlindNil`: a bid of 0 before looking. The partner may
    /// no longer bid blind and sees their cards.
    pub(super) fn bid_blind(
        &mut self,
        seat: Seat,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_bidder(seat)?;
        if self.blind.contains(seat.partner()) {
            return Err(RuleError::PartnerBidBlind);
        }
        if !self.may_bid_blind.contains(seat) {
            return Err(self.variant_rules.blind_refusal());
        }
        if !self.face_down.contains(seat) {
            return Err(RuleError::CardsAlreadySeen);
        }
        self.blind.insert(seat);
        self.variant_rules.blind_bid(seat);
        events.push(Event::BlindNil { seat });
        self.turn_up(seat, events);
        let partner = seat.partner();
        self.may_bid_blind.remove(partner);
        if self.face_down.contains(partner) {
            self.turn_up(partner, events);
        }
        self.record_bid(seat, 0, events);
        Ok(())
    }

    /// Refuses a blind bid or a look from anyone but the seat to bid.
    fn check_bidder(&self, seat: Seat) -> Result<(), RuleError> {
        if seat.0 >= self.players {
            return Err(RuleError::NoSuchSeat(seat));
        }
        match self.phase {
            Phase::Bidding => {}
            Phase::Exchanging => return Err(RuleError::ExchangingNow),
            Phase::Calling => return Err(RuleError::CallingNow),
            Phase::Discarding => return Err(RuleError::DiscardingNow),
            Phase::Passing | Phase::Playing => return Err(RuleError::NotBiddingNow),
            Phase::MatchOver => return Err(RuleError::MatchOver),
        }
        if seat != self.next_bidder() {
            return Err(RuleError::NotYourTurn);
        }
        Ok(())
    }

    /// Shows `seat` its hand: everyone learns it looked, and it alone what it holds.
    fn turn_up(&mut self, seat: Seat, events: &mut Vec<Event>) {
        self.face_down.remove(seat);
        events.push(Event::CardsSeen { seat });
        events.push(Event::Dealt {
            seat,
            cards: self.hands[seat],
        });
    }

    /// After the last bid: each blind bidder's exchange (its partner gives first), else play.
    pub(super) fn start_exchange_or_play(&mut self) {
        for bidder in self.blind.iter() {
            let partner = bidder.partner();
            self.giving.push((partner, bidder));
            self.giving.push((bidder, partner));
        }
        if self.giving.is_empty() {
            self.start_play();
        } else {
            self.phase = Phase::Exchanging;
            self.legal = CardSet::EMPTY;
        }
    }

    /// The seat whose cards the exchange waits for, and who receives them.
    fn next_giving(&self) -> Option<(Seat, Seat)> {
        self.giving.first().copied()
    }

    /// The seat the exchange waits for (meaningful while exchanging).
    pub(super) fn next_giver(&self) -> Seat {
        self.next_giving().map_or(self.dealer, |(from, _)| from)
    }

    /// What the giver may do.
    pub(super) fn legal_exchange(&self, seat: Seat) -> Legal {
        match self.next_giving() {
            Some((from, to)) if from == seat => Legal::Exchange {
                count: EXCHANGE_COUNT,
                to,
                from: self.hands[seat],
            },
            _ => Legal::Wait,
        }
    }

    /// [`Game::apply`] of `Action::Exchange`: the cards go to the partner at once.
    pub(super) fn exchange(
        &mut self,
        seat: Seat,
        cards: &[Card],
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        match self.phase {
            Phase::Exchanging => {}
            Phase::MatchOver => return Err(RuleError::MatchOver),
            _ => return Err(RuleError::NotExchangingNow),
        }
        let Some((from, to)) = self.next_giving() else {
            return Err(RuleError::NotExchangingNow);
        };
        if seat != from {
            return Err(RuleError::NotYourTurn);
        }
        if cards.len() != EXCHANGE_COUNT as usize {
            return Err(RuleError::WrongPassCount {
                expected: EXCHANGE_COUNT,
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
        self.hands[from] -= chosen;
        self.hands[to] |= chosen;
        self.passed[from] = chosen;
        self.received[to] = chosen;
        self.giving.remove(0);
        events.push(Event::Exchanged {
            from,
            to,
            count: EXCHANGE_COUNT,
        });
        events.push(Event::CardsPassed {
            from,
            to,
            cards: chosen,
        });
        if self.giving.is_empty() {
            self.start_play();
        }
        Ok(())
    }

    /// The seats whose hands are face down: their holders have not seen them.
    #[must_use]
    pub fn face_down(&self) -> SeatSet {
        self.face_down
    }

    /// The seats that bid blind this hand.
    #[must_use]
    pub fn blind_bids(&self) -> SeatSet {
        self.blind
    }

    /// True when the variant plays blind bids at this table (Spades with `blind_nil`).
    #[must_use]
    pub fn plays_blind(&self) -> bool {
        self.rules.blind_nil
    }
}
