//! Plain tricks: everything that differs from plain trick taking. A point a trick, counted as
//! each trick is taken so the match stops the moment someone reaches the target, and the bad
//! card: an illegal card costs 100 and ends the hand (option `bad_card = "penalty"`), or is
//! refused as elsewhere (`"reject"`). Owns this hand's bad-card penalties; it may not touch the
//! game's state beyond what the [`VariantRules`] hooks hand it.

use std::collections::BTreeMap;

use super::facts::{FirstLead, TrumpRule, VariantFacts};
use super::variant::{BadCard, Rules};
use super::variant_rules::{HandScore, HandSetup, VariantRules, highest_at};
use crate::card::{Card, CardSet};
use crate::seat::{PerSeat, Seat};

/// What a bad card costs.
pub(super) const BAD_CARD_PENALTY: i32 = -100;

/// Tricks' options and the state only it keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Tricks {
    /// Points that end the match.
    target: i32,
    /// What an illegal card does.
    bad_card: BadCard,
    /// Bad-card points lost this hand.
    penalties: PerSeat<i32>,
}

impl Tricks {
    pub(super) fn new(rules: &Rules) -> Tricks {
        Tricks {
            target: rules.target,
            bad_card: rules.bad_card,
            penalties: PerSeat::new(rules.variant.players()),
        }
    }
}

impl VariantRules for Tricks {
    fn start_hand(&mut self, _hand: u32, _deck: &[Card], _dealt: usize) -> HandSetup {
        self.penalties = PerSeat::new(self.penalties.len() as u8);
        HandSetup::PLAIN
    }

    /// With the penalty rule, the player loses 100 at once and the hand ends with what was
    /// won so far kept.
    fn bad_card(&mut self, seat: Seat, totals: &mut PerSeat<i32>) -> Option<i32> {
        if self.bad_card != BadCard::Penalty {
            return None;
        }
        self.penalties[seat] += BAD_CARD_PENALTY;
        totals[seat] += BAD_CARD_PENALTY;
        Some(BAD_CARD_PENALTY)
    }

    /// A trick is a point at once; reaching the target ends the hand there.
    #[inline]
    fn trick_won(&mut self, winner: Seat, totals: &mut PerSeat<i32>) -> bool {
        totals[winner] += 1;
        totals[winner] >= self.target
    }

    /// Totals were kept trick by trick; the sheet shows the hand's share.
    fn score_hand(
        &mut self,
        _taken: &PerSeat<CardSet>,
        tricks_won: &PerSeat<u8>,
        _bids: &PerSeat<Option<u8>>,
        _totals: &mut PerSeat<i32>,
    ) -> HandScore {
        let mut points = self.penalties;
        for (p, tricks) in points.as_mut_slice().iter_mut().zip(tricks_won.as_slice()) {
            *p += i32::from(*tricks);
        }
        HandScore::points(points)
    }

    /// The highest total wins once it reaches the target.
    fn match_winners(&self, totals: &PerSeat<i32>, _hand: u32) -> Option<Vec<Seat>> {
        highest_at(totals, self.target)
    }
}

/// What clients need to know to follow and draw a hand of tricks.
pub(super) fn facts() -> VariantFacts {
    VariantFacts {
        hand_size: super::Variant::Tricks.hand_size(),
        pass_count: 0,
        prize: 0,
        partnerships: false,
        first_lead: FirstLead::DealerLeft,
        trump: TrumpRule::NoTrump,
        bad_card_penalty: Some(BAD_CARD_PENALTY),
        low_score_wins: false,
        two_totals: false,
        points_in_hand: true,
        trick_points: true,
        card_points: BTreeMap::new(),
        scoring: format!(
            "A point per trick; an illegal card costs {} and the hand is redealt; first to \
             the target wins.",
            -BAD_CARD_PENALTY
        ),
        bidding: false,
        hand_size_varies: false,
        player_counts: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Options, Variant};

    fn tricks(target: i32, bad_card: BadCard) -> Tricks {
        let options = Options {
            target: Some(target),
            bad_card: Some(bad_card),
            ..Options::default()
        };
        Tricks::new(&Rules::new(Variant::Tricks, &options).unwrap())
    }

    #[test]
    fn a_bad_card_costs_100_at_once_and_shows_in_the_hands_points_until_the_next_deal() {
        let mut rules = tricks(1000, BadCard::Penalty);
        let mut totals = PerSeat::from_slice(&[5, 0, 0, 0]);
        assert_eq!(rules.bad_card(Seat(0), &mut totals), Some(-100));
        assert_eq!(totals.as_slice(), &[-95, 0, 0, 0]);
        let won = PerSeat::from_slice(&[2, 1, 0, 0]);
        let score = rules.score_hand(&PerSeat::new(4), &won, &PerSeat::new(4), &mut totals);
        assert_eq!(score.points.as_slice(), &[-98, 1, 0, 0]);
        assert_eq!(totals.as_slice(), &[-95, 0, 0, 0], "already counted");
        let deck: [_; 52] = std::array::from_fn(|i| crate::card::Card::from_index(i as u8));
        rules.start_hand(1, &deck, 52);
        let score = rules.score_hand(&PerSeat::new(4), &won, &PerSeat::new(4), &mut totals);
        assert_eq!(score.points.as_slice(), &[2, 1, 0, 0]);
    }

    #[test]
    fn with_reject_a_bad_card_is_refused_and_costs_nothing() {
        let mut rules = tricks(1000, BadCard::Reject);
        let mut totals = PerSeat::new(4);
        assert_eq!(rules.bad_card(Seat(1), &mut totals), None);
        assert_eq!(totals, PerSeat::new(4));
    }

    #[test]
    fn each_trick_counts_at_once_and_the_target_ends_the_hand() {
        let mut rules = tricks(3, BadCard::Penalty);
        let mut totals = PerSeat::from_slice(&[1, 0, 0, 0]);
        assert!(!rules.trick_won(Seat(0), &mut totals));
        assert!(rules.trick_won(Seat(0), &mut totals));
        assert_eq!(totals.as_slice(), &[3, 0, 0, 0]);
        assert_eq!(rules.match_winners(&totals, 0), Some(vec![Seat(0)]));
    }
}
