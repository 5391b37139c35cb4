//! Bidding, as every bidding variant shares it: after the deal (and any passing) each seat in
//! turn from the dealer's left bids once the tricks it expects to take, and play starts after
//! the dealer's bid. The bids are kept per seat for the hand and handed to the variant's
//! scoring. The variant says whether its players bid and which bids it allows (a range, and
//! the one bid its hook refuses); this module may not decide either, and names no variant.

use super::{Game, Phase};
use crate::card::CardSet;
use crate::rules::RuleError;
use crate::rules::event::{Event, Legal};
use crate::rules::variant_rules::BidRange;
use crate::seat::{PerSeat, Seat};

impl Game {
    /// [`Game::apply`] of `Action::Bid { tricks }`, without building the action.
    pub fn bid(
        &mut self,
        seat: Seat,
        tricks: u8,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
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
        if self.face_down.contains(seat) {
            return Err(RuleError::CardsFaceDown);
        }
        let range = self.bid_range();
        if !(range.min..=range.max).contains(&tricks) {
            return Err(RuleError::BidOutOfRange {
                min: range.min,
                max: range.max,
            });
        }
        if range.forbidden == Some(tricks) {
            return Err(RuleError::BidsWouldAddUp {
                bid: tricks,
                tricks: range.max,
            });
        }
        self.record_bid(seat, tricks, events);
        Ok(())
    }

    /// Records a checked bid; after the last one, any blind bid's exchange or play starts.
    pub(super) fn record_bid(&mut self, seat: Seat, tricks: u8, events: &mut Vec<Event>) {
        self.bids[seat] = Some(tricks);
        events.push(Event::Bid { seat, tricks });
        if self.bids.as_slice().iter().all(Option::is_some) {
            self.start_exchange_or_play();
        }
    }

    /// After the deal and any passing: bidding in a variant whose players bid, else play.
    pub(super) fn start_bidding_or_play(&mut self) {
        if !self.variant_rules.bids() {
            self.start_play();
            return;
        }
        self.phase = Phase::Bidding;
        // No card is awaited (see `Game::legal`), and nobody has led: the trick waits for the
        // dealer's left, as a viewer following the events shows it until play starts.
        self.legal = CardSet::EMPTY;
        self.start_trick(self.dealer.next(self.players));
    }

    /// The seat whose bid is awaited: the first from the dealer's left without one (the
    /// dealer's left once everyone has bid, which no caller asks while bidding).
    pub(super) fn next_bidder(&self) -> Seat {
        let n = self.players;
        (1..=n)
            .map(|k| self.dealer.left(k, n))
            .find(|seat| self.bids[*seat].is_none())
            .unwrap_or(self.dealer.next(n))
    }

    /// The bids the next bidder may make, as the variant allows them.
    fn bid_range(&self) -> BidRange {
        let bidder = self.next_bidder();
        let earlier: u32 = self
            .bids
            .as_slice()
            .iter()
            .flatten()
            .map(|b| u32::from(*b))
            .sum();
        let tricks = u8::try_from(self.rules.hand_size(self.hand)).expect("at most 17 cards");
        self.variant_rules
            .bid_range(tricks, earlier, bidder == self.dealer)
    }

    /// What the next bidder may do: with its cards face down, bid blind or look first.
    pub(super) fn legal_bid(&self) -> Legal {
        if self.face_down.contains(self.next_bidder()) {
            return Legal::Blind;
        }
        let BidRange {
            min,
            max,
            forbidden,
        } = self.bid_range();
        Legal::Bid {
            min,
            max,
            forbidden,
        }
    }

    /// Each seat's bid this hand (`None` until made), in a variant whose players bid.
    #[must_use]
    pub fn bids(&self) -> Option<PerSeat<Option<u8>>> {
        self.variant_rules.bids().then_some(self.bids)
    }

    /// Every seat's bid once all are made, in a variant whose players bid: the score line's.
    pub(super) fn bids_made(&self) -> Option<PerSeat<u8>> {
        let mut made = PerSeat::new(self.players);
        for (seat, bid) in self.bids()?.iter() {
            made[seat] = (*bid)?;
        }
        Some(made)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Action, Options, Rules, Variant};

    /// A fresh Oh Hell game of five seats (ten cards in the first hand), seat 4 dealing.
    fn ohhell() -> Game {
        let options = Options {
            players: Some(5),
            ..Options::default()
        };
        Game::new(Variant::OhHell, &options, 7).unwrap()
    }

    #[test]
    fn each_seat_bids_once_in_turn_from_the_dealer_s_left_and_play_follows() {
        let mut game = ohhell();
        assert_eq!(game.phase(), Phase::Bidding);
        assert_eq!(game.dealer(), Seat(4));
        let mut events = Vec::new();
        for (seat, tricks) in [(0, 2), (1, 0), (2, 3), (3, 1)] {
            assert_eq!(game.to_act().first(), Some(Seat(seat)));
            let other = Seat((seat + 1) % 5);
            assert_eq!(game.bid(other, 1, &mut events), Err(RuleError::NotYourTurn));
            game.bid(Seat(seat), tricks, &mut events).unwrap();
        }
        assert_eq!(
            game.bids().unwrap().as_slice(),
            &[Some(2), Some(0), Some(3), Some(1), None]
        );
        // The dealer may not make ten.
        assert_eq!(
            game.legal_actions(Seat(4)),
            Legal::Bid {
                min: 0,
                max: 10,
                forbidden: Some(4)
            }
        );
        let before = game.clone();
        let err = game.apply(Seat(4), &Action::Bid { tricks: 4 }).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the dealer may not bid 4: the bids would add up to the tricks (10)"
        );
        let err = game
            .apply(Seat(4), &Action::Bid { tricks: 11 })
            .unwrap_err();
        assert_eq!(err.to_string(), "bid between 0 and 10");
        let card = game.hand(Seat(4)).lowest().unwrap();
        assert_eq!(
            game.apply(Seat(4), &Action::Play { card }),
            Err(RuleError::BiddingNow)
        );
        assert!(game == before, "refusals change nothing");
        let events = game.apply(Seat(4), &Action::Bid { tricks: 5 }).unwrap();
        assert_eq!(
            events,
            [Event::Bid {
                seat: Seat(4),
                tricks: 5
            }]
        );
        assert_eq!(game.phase(), Phase::Playing);
        assert_eq!(game.next_to_play(), Seat(0));
        assert_eq!(
            game.apply(Seat(0), &Action::Bid { tricks: 1 }),
            Err(RuleError::NotBiddingNow)
        );
    }

    #[test]
    fn a_variant_without_bidding_has_no_bids() {
        let game = Game::new(Variant::Whist, &Options::default(), 1).unwrap();
        assert_eq!(game.bids(), None);
        assert_eq!(game.phase(), Phase::Playing);
        let mut copy = game.clone();
        assert_eq!(
            copy.apply(Seat(0), &Action::Bid { tricks: 1 }),
            Err(RuleError::NotBiddingNow)
        );
        let rules = Rules::standard(Variant::Spades);
        let spades = Game::with_rules(rules, 1, None);
        assert_eq!(spades.bids().unwrap(), PerSeat::new(4));
    }
}
