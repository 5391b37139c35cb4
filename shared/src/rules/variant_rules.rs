//! The one seam between [`Game`](super::Game) and the variant files.
//!
//! [`VariantRules`] lists every decision a variant makes; its default methods are plain trick
//! taking (lead anything, follow suit or discard anything, dealer's left leads, no trump, no
//! passing), so each variant file overrides only what differs. [`VariantState`] holds one
//! variant's rules and its own state and forwards each call with a `match` (no dynamic
//! dispatch in the engine's hot loop). This module owns no rule itself and may not reach
//! into `Game`: hooks get exactly the facts they decide from.

use super::event::PassDirection;
use super::variant::{Rules, Variant};
use super::{RuleError, filippa, filippa::Filippa, hearts::Hearts, hearts5::Hearts5};
use super::{tricks::Tricks, whist::Whist};
use crate::card::{Card, CardSet, Suit};
use crate::seat::{PerSeat, Seat};

/// What a variant sets up for a freshly dealt hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct HandSetup {
    /// This hand's trump suit, if any.
    pub trump: Option<Suit>,
    /// Cards shown to everyone that nobody holds (the undealt pair, the dealer's trump card).
    pub face_up: CardSet,
    /// Where cards are passed before play, if they are.
    pub pass: Option<PassDirection>,
}

impl HandSetup {
    /// No trump, nothing face up, no passing.
    pub const PLAIN: HandSetup = HandSetup {
        trump: None,
        face_up: CardSet::EMPTY,
        pass: None,
    };
}

/// What legality may depend on besides the player's hand and the trick.
#[derive(Clone, Copy, Debug)]
pub(super) struct Table {
    /// No trick of this hand is finished yet.
    pub first_trick: bool,
    /// Every card played this hand, on the table or in finished tricks.
    pub played: CardSet,
    /// This hand's trump suit.
    pub trump: Option<Suit>,
}

/// The score sheet line a variant computes at the end of a hand (everything but the numbers
/// `Game` already knows).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct HandScore {
    /// Points each seat scored this hand.
    pub points: PerSeat<i32>,
    /// Penalty points this hand (filippa); zeros elsewhere.
    pub penalties: PerSeat<i32>,
    /// The prize pool carried to the next hand (filippa).
    pub pool_carried: i32,
    /// Who shot the moon (hearts).
    pub moon: Option<Seat>,
}

impl HandScore {
    /// A line with only points.
    pub fn points(points: PerSeat<i32>) -> HandScore {
        HandScore {
            penalties: PerSeat::new(points.len() as u8),
            points,
            pool_carried: 0,
            moon: None,
        }
    }
}

/// Every decision that differs between variants. Defaults are plain trick taking.
pub(super) trait VariantRules {
    /// Sets up the hand numbered `hand` (from 0) that was just dealt from `deck`, whose first
    /// `dealt` cards went to the players.
    fn start_hand(&mut self, hand: u32, deck: &[Card; 52], dealt: usize) -> HandSetup {
        let _ = (hand, deck, dealt);
        HandSetup::PLAIN
    }

    /// Who leads the first trick: the dealer's left.
    fn first_leader(&self, hands: &PerSeat<CardSet>, dealer: Seat) -> Seat {
        dealer.next(hands.len() as u8)
    }

    /// The cards of `hand` that may lead a trick: all of them.
    #[inline]
    fn lead_options(&self, hand: CardSet, table: Table) -> CardSet {
        let _ = table;
        hand
    }

    /// The cards a player void in the led suit must play if they hold any; they may play
    /// anything when they hold none. By default every card: no constraint. Asked once per
    /// trick rather than per card, so playing a card needs no dispatch.
    fn discard_preference(&self, table: Table) -> CardSet {
        let _ = table;
        CardSet::FULL
    }

    /// Why a lead from `hand` outside [`VariantRules::lead_options`] is refused. Only called
    /// for a variant that narrows the lead.
    fn lead_refusal(&self, hand: CardSet, table: Table) -> RuleError {
        let _ = (hand, table);
        unreachable!("plain rules allow every lead")
    }

    /// Why a void player's card outside [`VariantRules::discard_preference`] is refused. Only
    /// called for a variant that narrows discards.
    fn discard_refusal(&self, hand: CardSet, table: Table) -> RuleError {
        let _ = (hand, table);
        unreachable!("plain rules allow every discard")
    }

    /// Takes an illegal card as a penalty instead of refusing it: returns the points lost
    /// (already added to `totals`), and the hand ends. `None` refuses the card.
    fn bad_card(&mut self, seat: Seat, totals: &mut PerSeat<i32>) -> Option<i32> {
        let _ = (seat, totals);
        None
    }

    /// Notes a trick taken by `winner`; true ends the hand at once.
    #[inline]
    fn trick_won(&mut self, winner: Seat, totals: &mut PerSeat<i32>) -> bool {
        let _ = (winner, totals);
        false
    }

    /// Scores the finished hand and adds it to `totals`.
    fn score_hand(
        &mut self,
        taken: &PerSeat<CardSet>,
        tricks_won: &PerSeat<u8>,
        totals: &mut PerSeat<i32>,
    ) -> HandScore;

    /// The winners if the match ends after the hand numbered `hand` (from 0).
    fn match_winners(&self, totals: &PerSeat<i32>, hand: u32) -> Option<Vec<Seat>>;
}

/// Adds a hand's points to the match totals.
pub(super) fn add_points(totals: &mut PerSeat<i32>, points: &PerSeat<i32>) {
    for (total, p) in totals.as_mut_slice().iter_mut().zip(points.as_slice()) {
        *total += p;
    }
}

/// The seats with the highest total, once it reaches `target`.
pub(super) fn highest_at(totals: &PerSeat<i32>, target: i32) -> Option<Vec<Seat>> {
    let max = *totals.as_slice().iter().max().expect("seats");
    (max >= target).then(|| seats_with(totals, max))
}

/// The seats with the lowest total.
pub(super) fn lowest(totals: &PerSeat<i32>) -> Vec<Seat> {
    let min = *totals.as_slice().iter().min().expect("seats");
    seats_with(totals, min)
}

fn seats_with(totals: &PerSeat<i32>, value: i32) -> Vec<Seat> {
    totals
        .iter()
        .filter(|(_, total)| **total == value)
        .map(|(seat, _)| seat)
        .collect()
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
    pub fn start_hand(&mut self, hand: u32, deck: &[Card; 52], dealt: usize) -> HandSetup {
        forward!(self, v => v.start_hand(hand, deck, dealt))
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

    /// [`VariantRules::score_hand`].
    pub fn score_hand(
        &mut self,
        taken: &PerSeat<CardSet>,
        tricks_won: &PerSeat<u8>,
        totals: &mut PerSeat<i32>,
    ) -> HandScore {
        forward!(self, v => v.score_hand(taken, tricks_won, totals))
    }

    /// [`VariantRules::match_winners`].
    pub fn match_winners(&self, totals: &PerSeat<i32>, hand: u32) -> Option<Vec<Seat>> {
        forward!(self, v => v.match_winners(totals, hand))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn totals(values: &[i32]) -> PerSeat<i32> {
        PerSeat::from_slice(values)
    }

    #[test]
    fn the_highest_total_ends_a_match_only_at_the_target_and_ties_share() {
        assert_eq!(highest_at(&totals(&[9, 4, 9, 1]), 10), None);
        assert_eq!(
            highest_at(&totals(&[10, 4, 10, 1]), 10),
            Some(vec![Seat(0), Seat(2)])
        );
        assert_eq!(lowest(&totals(&[10, 4, 10, 4])), vec![Seat(1), Seat(3)]);
    }

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
        assert_eq!(plain.discard_preference(table), CardSet::FULL);
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
