//! Whist: everything that differs from plain trick taking. The dealer's last card sets trump
//! (face up until played), partnerships 0+2 against 1+3, the side with more tricks scores those
//! over six, and the first side to the target wins. Reads only what the [`VariantRules`] hooks
//! hand it; it may not touch the game's state.

use std::collections::BTreeMap;

use super::facts::{FirstLead, TrumpRule, VariantFacts};
use super::variant::Rules;
use super::variant_rules::{HandScore, HandSetup, VariantRules, add_points, highest_at};
use crate::card::{Card, CardSet};
use crate::seat::{PerSeat, Seat};

/// Whist's options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Whist {
    /// Points that end the match.
    target: i32,
}

impl Whist {
    pub(super) fn new(rules: &Rules) -> Whist {
        Whist {
            target: rules.target,
        }
    }
}

impl VariantRules for Whist {
    /// The dealer's last card sets trump and stays face up until it is played.
    fn start_hand(&mut self, _hand: u32, deck: &[Card], _dealt: usize) -> HandSetup {
        HandSetup {
            trump: Some(deck[51].suit()),
            face_up: CardSet::single(deck[51]),
            pass: None,
        }
    }

    fn score_hand(
        &mut self,
        _taken: &PerSeat<CardSet>,
        tricks_won: &PerSeat<u8>,
        _bids: &PerSeat<Option<u8>>,
        totals: &mut PerSeat<i32>,
    ) -> HandScore {
        let points = score(tricks_won);
        add_points(totals, &points);
        HandScore::points(points)
    }

    /// The first side to the target wins (both partners, who score alike).
    fn match_winners(&self, totals: &PerSeat<i32>, _hand: u32) -> Option<Vec<Seat>> {
        highest_at(totals, self.target)
    }
}

/// Tricks a side must pass before it scores.
const BOOK: i32 = 6;

/// Points per seat (partners score alike).
pub(super) fn score(tricks: &PerSeat<u8>) -> PerSeat<i32> {
    let side = |s: u8| i32::from(tricks[Seat(s)] + tricks[Seat(s + 2)]);
    let (north_south, east_west) = (side(0), side(1));
    let mut points = PerSeat::new(4);
    for seat in Seat::all(4) {
        let (ours, theirs) = if seat.0 % 2 == 0 {
            (north_south, east_west)
        } else {
            (east_west, north_south)
        };
        points[seat] = if ours > theirs { ours - BOOK } else { 0 };
    }
    points
}

/// What clients need to know to follow and draw a hand of whist.
pub(super) fn facts() -> VariantFacts {
    VariantFacts {
        hand_size: super::Variant::Whist.hand_size(),
        pass_count: 0,
        prize: 0,
        partnerships: true,
        first_lead: FirstLead::DealerLeft,
        trump: TrumpRule::DealerLast,
        bad_card_penalty: None,
        low_score_wins: false,
        two_totals: false,
        points_in_hand: false,
        trick_points: false,
        card_points: BTreeMap::new(),
        scoring: "The side with more tricks scores those over six; first side to the target wins."
            .into(),
        bidding: false,
        hand_size_varies: false,
        player_counts: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Suit;
    use crate::rules::Variant;

    #[test]
    fn the_dealers_last_card_sets_trump_face_up() {
        let mut whist = Whist::new(&Rules::standard(Variant::Whist));
        let deck: [Card; 52] = std::array::from_fn(|i| Card::from_index(51 - i as u8));
        let setup = whist.start_hand(0, &deck, 52);
        assert_eq!(setup.trump, Some(Suit::Clubs));
        assert_eq!(setup.face_up, CardSet::single(deck[51]));
        assert_eq!(setup.pass, None);
    }

    #[test]
    fn partners_score_alike_and_win_together() {
        let mut whist = Whist::new(&Rules::standard(Variant::Whist));
        let mut totals = PerSeat::from_slice(&[3, 0, 3, 0]);
        let won = PerSeat::from_slice(&[5, 1, 4, 3]);
        let score = whist.score_hand(&PerSeat::new(4), &won, &PerSeat::new(4), &mut totals);
        assert_eq!(score.points.as_slice(), &[3, 0, 3, 0]);
        assert_eq!(
            whist.match_winners(&totals, 0),
            Some(vec![Seat(0), Seat(2)])
        );
    }
}
