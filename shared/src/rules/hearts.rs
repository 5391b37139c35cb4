//! Microsoft Hearts: everything that differs from plain trick taking. The passing cycle, the
//! two of clubs leading, the first-trick and broken-hearts rules, moon scoring, and the match
//! ending at the target with the lowest total winning. Reads only what the
//! [`VariantRules`] hooks hand it; it may not touch the game's state.

use super::RuleError;
use super::event::PassDirection;
use super::facts::{FirstLead, TrumpRule, VariantFacts};
use super::variant::{Moon, Rules};
use super::variant_rules::{HandScore, HandSetup, Table, VariantRules};
use super::variant_rules::{add_points, highest_at, lowest};
use crate::card::{Card, CardSet, Suit};
use crate::seat::{PerSeat, Seat};

/// Hearts' options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Hearts {
    /// Points that end the match.
    target: i32,
    /// Whether cards are passed.
    passing: bool,
    /// How shooting the moon scores.
    moon: Moon,
}

impl Hearts {
    pub(super) fn new(rules: &Rules) -> Hearts {
        Hearts {
            target: rules.target,
            passing: rules.passing,
            moon: rules.moon,
        }
    }
}

impl VariantRules for Hearts {
    fn start_hand(&mut self, hand: u32, _deck: &[Card], _dealt: usize) -> HandSetup {
        HandSetup {
            pass: pass_direction(hand, self.passing),
            ..HandSetup::PLAIN
        }
    }

    /// The holder of the two of clubs leads the first trick.
    fn first_leader(&self, hands: &PerSeat<CardSet>, _dealer: Seat) -> Seat {
        Seat::all(hands.len() as u8)
            .find(|s| hands[*s].contains(Card::TWO_OF_CLUBS))
            .expect("someone holds the two of clubs")
    }

    #[inline]
    fn lead_options(&self, hand: CardSet, table: Table) -> CardSet {
        lead_options(hand, table.first_trick, table.played.has_suit(Suit::Hearts))
    }

    fn discard_preference(&self, table: Table) -> CardSet {
        discard_preference(table.first_trick)
    }

    fn lead_refusal(&self, hand: CardSet, table: Table) -> RuleError {
        if table.first_trick && hand.contains(Card::TWO_OF_CLUBS) {
            RuleError::MustLeadTwoOfClubs
        } else {
            RuleError::HeartsNotBroken
        }
    }

    fn discard_refusal(&self, _hand: CardSet, _table: Table) -> RuleError {
        RuleError::NoPointsOnFirstTrick
    }

    fn score_hand(
        &mut self,
        taken: &PerSeat<CardSet>,
        _tricks_won: &PerSeat<u8>,
        _bids: &PerSeat<Option<u8>>,
        totals: &mut PerSeat<i32>,
    ) -> HandScore {
        let (points, moon) = score(taken, self.moon);
        add_points(totals, &points);
        HandScore {
            moon,
            ..HandScore::points(points)
        }
    }

    /// Once someone reaches the target, the lowest total wins.
    fn match_winners(&self, totals: &PerSeat<i32>, _hand: u32) -> Option<Vec<Seat>> {
        highest_at(totals, self.target).map(|_| lowest(totals))
    }
}

/// Hearts and the queen of spades: the cards that score.
pub(super) const POINT_CARDS: CardSet = CardSet::from_bits(
    CardSet::suit(Suit::Hearts).bits() | CardSet::single(Card::QUEEN_OF_SPADES).bits(),
);

/// Left, right, across, then a hand without passing; repeat.
pub(super) fn pass_direction(hand: u32, passing: bool) -> Option<PassDirection> {
    if !passing {
        return None;
    }
    match hand % 4 {
        0 => Some(PassDirection::Left),
        1 => Some(PassDirection::Right),
        2 => Some(PassDirection::Across),
        _ => None,
    }
}

/// What may be led: the two of clubs to the first trick; no heart before hearts are broken,
/// unless the hand is all hearts.
pub(super) fn lead_options(hand: CardSet, first_trick: bool, hearts_broken: bool) -> CardSet {
    if first_trick && hand.contains(Card::TWO_OF_CLUBS) {
        return CardSet::single(Card::TWO_OF_CLUBS);
    }
    let not_hearts = hand - CardSet::suit(Suit::Hearts);
    if hearts_broken || not_hearts.is_empty() {
        hand
    } else {
        not_hearts
    }
}

/// What a player void in the led suit must discard if they hold any: on the first trick no
/// point card (unless the hand holds nothing else); later anything.
pub(super) fn discard_preference(first_trick: bool) -> CardSet {
    if first_trick {
        CardSet::FULL - POINT_CARDS
    } else {
        CardSet::FULL
    }
}

/// A hand's points: a heart 1, the queen of spades 13; a player who took all 26 shoots the
/// moon.
pub(super) fn score(taken: &PerSeat<CardSet>, moon: Moon) -> (PerSeat<i32>, Option<Seat>) {
    let mut points = PerSeat::new(taken.len() as u8);
    for (seat, cards) in taken.iter() {
        let hearts = cards.of_suit(Suit::Hearts).len() as i32;
        let queen = if cards.contains(Card::QUEEN_OF_SPADES) {
            13
        } else {
            0
        };
        points[seat] = hearts + queen;
    }
    let shooter = points.iter().find(|(_, p)| **p == 26).map(|(s, _)| s);
    if let Some(shooter) = shooter {
        for (seat, p) in points.as_mut_slice().iter_mut().enumerate() {
            let is_shooter = seat == shooter.index();
            *p = match (moon, is_shooter) {
                (Moon::Add, true) | (Moon::Subtract, false) => 0,
                (Moon::Add, false) => 26,
                (Moon::Subtract, true) => -26,
            };
        }
    }
    (points, shooter)
}

/// What clients need to know to follow and draw a hand of hearts.
pub(super) fn facts() -> VariantFacts {
    VariantFacts {
        hand_size: super::Variant::Hearts.hand_size(),
        pass_count: super::PASS_COUNT,
        prize: 0,
        partnerships: false,
        first_lead: FirstLead::TwoOfClubs,
        trump: TrumpRule::NoTrump,
        bad_card_penalty: None,
        low_score_wins: true,
        two_totals: false,
        points_in_hand: true,
        trick_points: false,
        card_points: super::facts::card_points(|taken| score(taken, Moon::Add).0[Seat(0)]),
        scoring: "Each heart 1 point, Q♠ 13; lowest total wins.".into(),
        bidding: false,
        hand_size_varies: false,
        player_counts: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    fn hearts() -> Hearts {
        Hearts::new(&Rules::standard(Variant::Hearts))
    }

    fn cards(text: &str) -> CardSet {
        CardSet::parse_compact(text).unwrap()
    }

    fn table(first_trick: bool, played: &str) -> Table {
        Table {
            first_trick,
            played: cards(played),
            trump: None,
        }
    }

    #[test]
    fn the_holder_of_the_two_of_clubs_leads_whoever_dealt() {
        let mut hands = PerSeat::new(4);
        hands[Seat(2)] = cards("2C");
        hands[Seat(0)] = cards("AS");
        for dealer in 0..4 {
            assert_eq!(hearts().first_leader(&hands, Seat(dealer)), Seat(2));
        }
    }

    #[test]
    fn a_refused_lead_names_the_rule_it_breaks() {
        let rules = hearts();
        let hand = cards("2C 5H");
        assert_eq!(rules.lead_options(hand, table(true, "")), cards("2C"));
        assert_eq!(
            rules.lead_refusal(hand, table(true, "")),
            RuleError::MustLeadTwoOfClubs
        );
        let hand = cards("3D 5H");
        assert_eq!(rules.lead_options(hand, table(false, "4C")), cards("3D"));
        assert_eq!(
            rules.lead_refusal(hand, table(false, "4C")),
            RuleError::HeartsNotBroken
        );
        // A heart played earlier in the hand (even on the table now) breaks hearts.
        assert_eq!(rules.lead_options(hand, table(false, "4C 2H")), hand);
    }

    #[test]
    fn only_the_first_trick_keeps_points_from_a_void_player() {
        let rules = hearts();
        assert_eq!(
            rules.discard_preference(table(true, "2C")),
            CardSet::FULL - POINT_CARDS
        );
        assert_eq!(rules.discard_preference(table(false, "")), CardSet::FULL);
    }

    #[test]
    fn the_lowest_total_wins_once_anyone_reaches_the_target() {
        let rules = hearts();
        let below = PerSeat::from_slice(&[99, 20, 5, 5]);
        assert_eq!(rules.match_winners(&below, 7), None);
        let reached = PerSeat::from_slice(&[100, 20, 5, 5]);
        assert_eq!(
            rules.match_winners(&reached, 7),
            Some(vec![Seat(2), Seat(3)])
        );
    }
}
