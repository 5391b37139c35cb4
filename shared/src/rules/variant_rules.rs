//! The one seam between [`Game`](super::Game) and the variant files.
//!
//! [`VariantRules`] lists every decision a variant makes; its default methods are plain trick
//! taking (lead anything, follow suit or discard anything, dealer's left leads, no trump, no
//! passing, no bidding), so each variant file overrides only what differs; `per_variant` picks
//! the file.
//! This module owns no rule itself and may not reach into `Game` or name a variant: hooks get
//! exactly the facts they decide from.

use super::RuleError;
use super::event::{BoardResult, Call, Legal, PassDirection, TrumpMade};
use crate::bridge::{Contract, Vulnerability};
use crate::card::{Card, CardSet, Suit};
use crate::seat::{PerSeat, Seat, SeatSet};

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

/// The bids a seat may make: `min..=max` but not `forbidden`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct BidRange {
    /// The lowest bid allowed.
    pub min: u8,
    /// The highest bid allowed.
    pub max: u8,
    /// The dealer's bid that would make the bids add up to the tricks, where that is refused.
    pub forbidden: Option<u8>,
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
    /// Each side's bags after the hand (spades).
    pub bags: Option<PerSeat<i32>>,
    /// What bags cost this hand, when they cost something (spades).
    pub bag_penalty: Option<PerSeat<i32>>,
    /// Each nil bid's outcome, when someone bid nil (spades).
    pub nil: Option<PerSeat<Option<bool>>>,
    /// The seats whose nil was bid blind, when someone did (spades).
    pub blind_nil: Option<SeatSet>,
    /// How trump was made, in a game whose players make it (euchre).
    pub trump_made: Option<TrumpMade>,
    /// The board's contract and score (bridge).
    pub board: Option<BoardResult>,
}

/// What a call in the making of trump did, and what comes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CallOutcome {
    /// Trump made by this call, with bowers or without.
    pub made: Option<(TrumpMade, bool)>,
    /// A seat that sits the hand out from now on (a lone player's partner).
    pub sits_out: Option<Seat>,
    /// The contract an auction ended in (bridge): its strain is trump, declarer plays dummy's
    /// cards too, and declarer's left leads.
    pub contract: Option<Contract>,
    /// What happens next.
    pub next: AfterCall,
}

/// What follows a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AfterCall {
    /// This seat calls next.
    Call(Seat),
    /// Nobody made trump: the hand is thrown in.
    ThrowIn,
    /// This seat picks up this face-up card, discards one, and play starts.
    PickUp(Seat, Card),
    /// Play starts.
    Play,
}

impl HandScore {
    /// A line with only points.
    pub fn points(points: PerSeat<i32>) -> HandScore {
        HandScore {
            penalties: PerSeat::new(points.len() as u8),
            points,
            pool_carried: 0,
            moon: None,
            bags: None,
            bag_penalty: None,
            nil: None,
            blind_nil: None,
            trump_made: None,
            board: None,
        }
    }
}

/// Every decision that differs between variants. Defaults are plain trick taking.
pub(super) trait VariantRules {
    /// Sets up the hand numbered `hand` (from 0) that was just dealt from `deck`, whose first
    /// `dealt` cards went to the players.
    fn start_hand(&mut self, hand: u32, deck: &[Card], dealt: usize) -> HandSetup {
        let _ = (hand, deck, dealt);
        HandSetup::PLAIN
    }

    /// Who deals the hand numbered `hand` (from 0), when the variant fixes it (a Bridge
    /// board's number does); `None`: the deal moves one seat on each hand.
    fn dealer(&self, hand: u32) -> Option<Seat> {
        let _ = hand;
        None
    }

    /// The board being played and who is vulnerable on it (bridge); `None` elsewhere.
    fn board(&self) -> Option<(u32, Vulnerability)> {
        None
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
        CardSet::EVERY
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

    /// True when every seat bids the tricks it expects, in turn from the dealer's left, after
    /// the deal (and any passing) and before play. By default nobody bids.
    fn bids(&self) -> bool {
        false
    }

    /// The bids allowed to the next bidder in a hand of `tricks` tricks, when the bids made
    /// before it add up to `earlier` and `last` says it bids last (the dealer). By default
    /// any number of tricks from none to all.
    fn bid_range(&self, tricks: u8, earlier: u32, last: bool) -> BidRange {
        let _ = (earlier, last);
        BidRange {
            min: 0,
            max: tricks,
            forbidden: None,
        }
    }

    /// The seats that may bid blind, before looking at the cards just dealt, given the match
    /// `totals`: their hands are dealt face down. By default nobody.
    fn blind_bidders(&self, totals: &PerSeat<i32>) -> SeatSet {
        let _ = totals;
        SeatSet::EMPTY
    }

    /// Why a seat outside [`VariantRules::blind_bidders`] may not bid blind.
    fn blind_refusal(&self) -> RuleError {
        RuleError::NoBlindNil
    }

    /// Notes that `seat` bid blind this hand (its bid is 0, handed to `score_hand` as usual).
    fn blind_bid(&mut self, seat: Seat) {
        let _ = seat;
    }

    /// True when trump is made by calls after the deal, starting from the dealer's left
    /// (Euchre). By default it is set at the deal.
    fn calls(&self) -> bool {
        false
    }

    /// Who calls first: the dealer's left (Bridge's auction starts with the dealer).
    fn first_caller(&self, dealer: Seat, players: u8) -> Seat {
        dealer.next(players)
    }

    /// What `seat`, whose turn it is to call, may call; `dealer` dealt the hand.
    fn legal_calls(&self, seat: Seat, dealer: Seat) -> Legal {
        let _ = (seat, dealer);
        Legal::Wait
    }

    /// Why a call the seat may not make now is refused.
    fn call_refusal(&self, call: Call) -> RuleError {
        let _ = call;
        RuleError::NotCallingNow
    }

    /// Makes `seat`'s call, already checked against [`VariantRules::legal_calls`].
    fn call(&mut self, seat: Seat, call: Call, dealer: Seat) -> CallOutcome {
        let _ = (seat, call, dealer);
        unreachable!("only a variant that calls is asked to make a call")
    }

    /// Scores the finished hand and adds it to `totals`. `bids` holds each seat's bid in the
    /// variants that bid, `None` everywhere in the others.
    fn score_hand(
        &mut self,
        taken: &PerSeat<CardSet>,
        tricks_won: &PerSeat<u8>,
        bids: &PerSeat<Option<u8>>,
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

/// The seats with the highest total.
pub(super) fn highest(totals: &PerSeat<i32>) -> Vec<Seat> {
    let max = *totals.as_slice().iter().max().expect("seats");
    seats_with(totals, max)
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
}
