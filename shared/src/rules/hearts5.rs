//! UVa 181 Hearts: everything that differs from plain trick taking. Trump from the two undealt
//! cards (shown face up), must-trump when void, hearts scored at face value, and a match of a
//! fixed number of hands won by the lowest total. Reads only what the [`VariantRules`] hooks
//! hand it; it may not touch the game's state.

use super::RuleError;
use super::facts::{FirstLead, TrumpRule, VariantFacts};
use super::variant::Rules;
use super::variant_rules::{HandScore, HandSetup, Table, VariantRules, add_points, lowest};
use crate::card::{Card, CardSet, Suit};
use crate::seat::{PerSeat, Seat};

/// Hearts5's options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Hearts5 {
    /// Hands in a match.
    hands: u32,
}

impl Hearts5 {
    pub(super) fn new(rules: &Rules) -> Hearts5 {
        Hearts5 { hands: rules.hands }
    }
}

impl VariantRules for Hearts5 {
    /// The two undealt cards are turned face up and set trump.
    fn start_hand(&mut self, _hand: u32, deck: &[Card], dealt: usize) -> HandSetup {
        let leftover: CardSet = deck[dealt..].iter().copied().collect();
        HandSetup {
            trump: Some(trump_of(leftover)),
            face_up: leftover,
            pass: None,
        }
    }

    /// A player who cannot follow suit must trump if able.
    fn discard_preference(&self, table: Table) -> CardSet {
        table.trump.map_or(CardSet::FULL, CardSet::suit)
    }

    fn discard_refusal(&self, _hand: CardSet, table: Table) -> RuleError {
        RuleError::MustTrump(table.trump.expect("hearts5 always has trump"))
    }

    fn score_hand(
        &mut self,
        taken: &PerSeat<CardSet>,
        _tricks_won: &PerSeat<u8>,
        _bids: &PerSeat<Option<u8>>,
        totals: &mut PerSeat<i32>,
    ) -> HandScore {
        let points = score(taken);
        add_points(totals, &points);
        HandScore::points(points)
    }

    /// After the last hand, the lowest total wins.
    fn match_winners(&self, totals: &PerSeat<i32>, hand: u32) -> Option<Vec<Seat>> {
        (hand + 1 >= self.hands).then(|| lowest(totals))
    }
}

/// The trump suit: the suit of the higher-ranked leftover card; on equal ranks the higher suit
/// (clubs < diamonds < hearts < spades).
pub(super) fn trump_of(leftover: CardSet) -> Suit {
    leftover
        .iter()
        .max_by_key(|c| (c.rank(), c.suit()))
        .expect("two cards are left over")
        .suit()
}

/// Each heart taken scores its face value (2 to 10, J 11, Q 12, K 13, A 14).
pub(super) fn score(taken: &PerSeat<CardSet>) -> PerSeat<i32> {
    let mut points = PerSeat::new(taken.len() as u8);
    for (seat, cards) in taken.iter() {
        points[seat] = cards
            .of_suit(Suit::Hearts)
            .iter()
            .map(|c| i32::from(c.rank().value()))
            .sum();
    }
    points
}

/// What clients need to know to follow and draw a hand of hearts5.
pub(super) fn facts() -> VariantFacts {
    VariantFacts {
        hand_size: super::Variant::Hearts5.hand_size(),
        pass_count: 0,
        prize: 0,
        partnerships: false,
        first_lead: FirstLead::DealerLeft,
        trump: TrumpRule::Undealt,
        bad_card_penalty: None,
        low_score_wins: true,
        two_totals: false,
        points_in_hand: true,
        trick_points: false,
        card_points: super::facts::card_points(|taken| score(taken)[Seat(0)]),
        scoring: "Each heart taken scores its face value; lowest total wins.".into(),
        bidding: false,
        hand_size_varies: false,
        player_counts: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn the_undealt_pair_is_shown_and_sets_trump_that_a_void_player_must_play() {
        let mut hearts5 = Hearts5::new(&Rules::standard(Variant::Hearts5));
        let mut deck: [Card; 52] = std::array::from_fn(|i| Card::from_index(i as u8));
        // The last two cards are left over: 9♦ and 9♠ rank alike, so spades (higher) is trump.
        deck.swap(
            50,
            Card::new(crate::card::Rank::from_index(7), Suit::Diamonds).index() as usize,
        );
        deck.swap(
            51,
            Card::new(crate::card::Rank::from_index(7), Suit::Spades).index() as usize,
        );
        let setup = hearts5.start_hand(0, &deck, 50);
        assert_eq!(setup.trump, Some(Suit::Spades));
        assert_eq!(setup.face_up, CardSet::parse_compact("9d 9s").unwrap());
        assert_eq!(setup.pass, None);
        let table = Table {
            first_trick: true,
            played: CardSet::EMPTY,
            trump: setup.trump,
        };
        assert_eq!(
            hearts5.discard_preference(table),
            CardSet::suit(Suit::Spades)
        );
        assert_eq!(
            hearts5.discard_refusal(CardSet::EMPTY, table),
            RuleError::MustTrump(Suit::Spades)
        );
    }

    #[test]
    fn the_match_lasts_the_hands_asked_for_and_the_lowest_total_wins() {
        let options = crate::rules::Options {
            hands: Some(3),
            ..Default::default()
        };
        let hearts5 = Hearts5::new(&Rules::new(Variant::Hearts5, &options).unwrap());
        let totals = PerSeat::from_slice(&[30, 2, 50, 2, 9]);
        assert_eq!(hearts5.match_winners(&totals, 1), None);
        assert_eq!(
            hearts5.match_winners(&totals, 2),
            Some(vec![Seat(1), Seat(3)])
        );
    }
}
