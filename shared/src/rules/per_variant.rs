//! The one place that names every variant: it picks the variant's file for the engine
//! ([`VariantState`]) and for its published facts ([`Variant::facts`]).
//!
//! [`VariantState`] holds one variant's rules and its own state and forwards each call with a
//! `match` (no dynamic dispatch in the engine's hot loop). Dependencies point one way: `game`
//! uses this module, this module uses the variant files, and they use only `variant_rules`
//! and `facts`. It owns no rule itself.

use super::event::{Call, Legal};
use super::facts::VariantFacts;
use super::variant::{Rules, Variant};
use super::variant_rules::{BidRange, CallOutcome, HandScore, HandSetup, Table, VariantRules};
use super::{
    RuleError, filippa, filippa::Filippa, hearts, hearts::Hearts, hearts5, hearts5::Hearts5,
};
use super::{bridge, bridge::Bridge, euchre, euchre::Euchre, ohhell, ohhell::OhHell};
use super::{spades, spades::Spades};
use super::{tricks, tricks::Tricks, whist, whist::Whist};
use crate::bridge::Vulnerability;
use crate::card::{Card, CardSet};
use crate::seat::{PerSeat, Seat, SeatSet};

impl Variant {
    /// The facts clients need about this variant's rules, from the variant's own file.
    #[must_use]
    pub fn facts(self) -> VariantFacts {
        match self {
            Variant::Hearts => hearts::facts(),
            Variant::Filippa => filippa::facts(),
            Variant::Hearts5 => hearts5::facts(),
            Variant::Tricks => tricks::facts(),
            Variant::Whist => whist::facts(),
            Variant::Spades => spades::facts(),
            Variant::OhHell => ohhell::facts(),
            Variant::Euchre => euchre::facts(),
            Variant::Bridge => bridge::facts(),
        }
    }
}

impl Rules {
    /// The cards each seat is dealt in the hand numbered `hand` (from 0): the variant's hand
    /// size, or Oh Hell's schedule at this table.
    #[must_use]
    pub fn hand_size(&self, hand: u32) -> u32 {
        match self.variant {
            Variant::OhHell => ohhell::hand_size(self.players, self.schedule, hand),
            _ => self.variant.hand_size(),
        }
    }
}

/// One variant's rules and state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum VariantState {
    /// Microsoft Hearts.
    Hearts(Hearts),
    /// Filippa, with its pool and negative totals.
    Filippa(Filippa),
    /// UVa 181 Hearts.
    Hearts5(Hearts5),
    /// Plain tricks, with its bad-card penalties.
    Tricks(Tricks),
    /// Whist.
    Whist(Whist),
    /// Spades, with each side's bags.
    Spades(Spades),
    /// Oh Hell.
    OhHell(OhHell),
    /// Euchre, with the making of trump.
    Euchre(Euchre),
    /// Bridge, with the board's auction and the rubber's sheet.
    Bridge(Bridge),
}

/// Calls the same method on whichever variant `$state` holds.
macro_rules! forward {
    ($state:expr, $v:ident => $call:expr) => {
        match $state {
            VariantState::Hearts($v) => $call,
            VariantState::Filippa($v) => $call,
            VariantState::Hearts5($v) => $call,
            VariantState::Tricks($v) => $call,
            VariantState::Whist($v) => $call,
            VariantState::Spades($v) => $call,
            VariantState::OhHell($v) => $call,
            VariantState::Euchre($v) => $call,
            VariantState::Bridge($v) => $call,
        }
    };
}

impl VariantState {
    /// The rules of a new match.
    pub fn new(rules: &Rules) -> VariantState {
        match rules.variant {
            Variant::Hearts => VariantState::Hearts(Hearts::new(rules)),
            Variant::Filippa => VariantState::Filippa(Filippa::new(rules)),
            Variant::Hearts5 => VariantState::Hearts5(Hearts5::new(rules)),
            Variant::Tricks => VariantState::Tricks(Tricks::new(rules)),
            Variant::Whist => VariantState::Whist(Whist::new(rules)),
            Variant::Spades => VariantState::Spades(Spades::new(rules)),
            Variant::OhHell => VariantState::OhHell(OhHell::new(rules)),
            Variant::Euchre => VariantState::Euchre(Euchre::new(rules)),
            Variant::Bridge => VariantState::Bridge(Bridge::new(rules)),
        }
    }

    /// Filippa's negative totals; zeros for the `n` seats of another variant.
    pub fn negatives(&self, n: u8) -> PerSeat<i32> {
        match self {
            VariantState::Filippa(f) => f.negatives(),
            _ => PerSeat::new(n),
        }
    }

    /// Filippa's prize pool this hand; other variants carry nothing, so it reads 36 there.
    pub fn pool(&self) -> i32 {
        match self {
            VariantState::Filippa(f) => f.pool(),
            _ => filippa::PRIZE,
        }
    }

    /// [`VariantRules::start_hand`].
    pub fn start_hand(&mut self, hand: u32, deck: &[Card], dealt: usize) -> HandSetup {
        forward!(self, v => v.start_hand(hand, deck, dealt))
    }

    /// [`VariantRules::dealer`].
    pub fn dealer(&self, hand: u32) -> Option<Seat> {
        forward!(self, v => v.dealer(hand))
    }

    /// [`VariantRules::board`].
    pub fn board(&self) -> Option<(u32, Vulnerability)> {
        forward!(self, v => v.board())
    }

    /// [`VariantRules::first_leader`].
    pub fn first_leader(&self, hands: &PerSeat<CardSet>, dealer: Seat) -> Seat {
        forward!(self, v => v.first_leader(hands, dealer))
    }

    /// [`VariantRules::lead_options`].
    #[inline]
    pub fn lead_options(&self, hand: CardSet, table: Table) -> CardSet {
        forward!(self, v => v.lead_options(hand, table))
    }

    /// [`VariantRules::discard_preference`].
    pub fn discard_preference(&self, table: Table) -> CardSet {
        forward!(self, v => v.discard_preference(table))
    }

    /// [`VariantRules::lead_refusal`].
    pub fn lead_refusal(&self, hand: CardSet, table: Table) -> RuleError {
        forward!(self, v => v.lead_refusal(hand, table))
    }

    /// [`VariantRules::discard_refusal`].
    pub fn discard_refusal(&self, hand: CardSet, table: Table) -> RuleError {
        forward!(self, v => v.discard_refusal(hand, table))
    }

    /// [`VariantRules::bad_card`].
    pub fn bad_card(&mut self, seat: Seat, totals: &mut PerSeat<i32>) -> Option<i32> {
        forward!(self, v => v.bad_card(seat, totals))
    }

    /// [`VariantRules::trick_won`].
    #[inline]
    pub fn trick_won(&mut self, winner: Seat, totals: &mut PerSeat<i32>) -> bool {
        forward!(self, v => v.trick_won(winner, totals))
    }

    /// [`VariantRules::bids`].
    pub fn bids(&self) -> bool {
        forward!(self, v => v.bids())
    }

    /// [`VariantRules::bid_range`].
    pub fn bid_range(&self, tricks: u8, earlier: u32, last: bool) -> BidRange {
        forward!(self, v => v.bid_range(tricks, earlier, last))
    }

    /// [`VariantRules::blind_bidders`].
    pub fn blind_bidders(&self, totals: &PerSeat<i32>) -> SeatSet {
        forward!(self, v => v.blind_bidders(totals))
    }

    /// [`VariantRules::blind_refusal`].
    pub fn blind_refusal(&self) -> RuleError {
        forward!(self, v => v.blind_refusal())
    }

    /// [`VariantRules::blind_bid`].
    pub fn blind_bid(&mut self, seat: Seat) {
        forward!(self, v => v.blind_bid(seat))
    }

    /// [`VariantRules::calls`].
    pub fn calls(&self) -> bool {
        forward!(self, v => v.calls())
    }

    /// [`VariantRules::first_caller`].
    pub fn first_caller(&self, dealer: Seat, players: u8) -> Seat {
        forward!(self, v => v.first_caller(dealer, players))
    }

    /// [`VariantRules::legal_calls`].
    pub fn legal_calls(&self, seat: Seat, dealer: Seat) -> Legal {
        forward!(self, v => v.legal_calls(seat, dealer))
    }

    /// [`VariantRules::call_refusal`].
    pub fn call_refusal(&self, call: Call) -> RuleError {
        forward!(self, v => v.call_refusal(call))
    }

    /// [`VariantRules::call`].
    pub fn call(&mut self, seat: Seat, call: Call, dealer: Seat) -> CallOutcome {
        forward!(self, v => v.call(seat, call, dealer))
    }

    /// [`VariantRules::score_hand`].
    pub fn score_hand(
        &mut self,
        taken: &PerSeat<CardSet>,
        tricks_won: &PerSeat<u8>,
        bids: &PerSeat<Option<u8>>,
        totals: &mut PerSeat<i32>,
    ) -> HandScore {
        forward!(self, v => v.score_hand(taken, tricks_won, bids, totals))
    }

    /// [`VariantRules::match_winners`].
    pub fn match_winners(&self, totals: &PerSeat<i32>, hand: u32) -> Option<Vec<Seat>> {
        forward!(self, v => v.match_winners(totals, hand))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Suit;

    #[test]
    fn a_plain_variant_allows_every_lead_and_every_discard() {
        let plain = VariantState::new(&Rules::standard(Variant::Whist));
        let table = Table {
            first_trick: true,
            played: CardSet::EMPTY,
            trump: Some(Suit::Spades),
        };
        let hand = CardSet::parse_compact("2AH QS 2C").unwrap();
        assert_eq!(plain.lead_options(hand, table), hand);
        assert_eq!(plain.discard_preference(table), CardSet::EVERY);
    }

    #[test]
    fn only_filippa_keeps_negatives_and_a_carried_pool() {
        for variant in Variant::ALL {
            let state = VariantState::new(&Rules::standard(variant));
            let n = variant.players();
            assert_eq!(state.negatives(n), PerSeat::new(n), "{variant}");
            assert_eq!(state.pool(), filippa::PRIZE, "{variant}");
        }
    }
}
