//! Filippa: everything that differs from plain trick taking. Three cards passed left every
//! hand, negative penalty cards, the prize pool shared by the clean players (and carried over
//! when nobody is clean), the negative totals, and the match ending when a positive total
//! reaches the target. Owns the pool and the negative totals; it may not touch the game's
//! state beyond what the `VariantRules` hooks hand it.

use super::event::PassDirection;
use super::facts::{FirstLead, TrumpRule, VariantFacts};
use super::variant::Rules;
use super::variant_rules::{HandScore, HandSetup, VariantRules, add_points, highest_at};
use crate::card::{Card, CardSet, Rank, Suit};
use crate::seat::{PerSeat, Seat};

/// The positive points added to the pool every hand.
pub(super) const PRIZE: i32 = 36;

/// Filippa's options and the state only it keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Filippa {
    /// Positive points that end the match.
    target: i32,
    /// Prize points carried over from hands nobody was clean in.
    carried_pool: i32,
    /// The match's negative totals.
    negatives: PerSeat<i32>,
}

impl Filippa {
    pub(super) fn new(rules: &Rules) -> Filippa {
        Filippa {
            target: rules.target,
            carried_pool: 0,
            negatives: PerSeat::new(rules.variant.players()),
        }
    }

    /// The prize pool of the hand being played: 36 plus what was carried over.
    pub(super) fn pool(&self) -> i32 {
        self.carried_pool + PRIZE
    }

    /// The negative totals.
    pub(super) fn negatives(&self) -> PerSeat<i32> {
        self.negatives
    }
}

impl VariantRules for Filippa {
    fn start_hand(&mut self, _hand: u32, _deck: &[Card], _dealt: usize) -> HandSetup {
        HandSetup {
            pass: Some(PassDirection::Left),
            ..HandSetup::PLAIN
        }
    }

    /// The clean players share the pool; penalties go to the negative totals.
    fn score_hand(
        &mut self,
        taken: &PerSeat<CardSet>,
        _tricks_won: &PerSeat<u8>,
        _bids: &PerSeat<Option<u8>>,
        totals: &mut PerSeat<i32>,
    ) -> HandScore {
        let (prize, minus, carried) = score(taken, self.pool());
        self.carried_pool = carried;
        add_points(totals, &prize);
        add_points(&mut self.negatives, &minus);
        HandScore {
            penalties: minus,
            pool_carried: carried,
            ..HandScore::points(prize)
        }
    }

    /// The highest positive total wins once it reaches the target.
    fn match_winners(&self, totals: &PerSeat<i32>, _hand: u32) -> Option<Vec<Seat>> {
        highest_at(totals, self.target)
    }
}

/// A card's penalty: Q♠ −13, A♥ −5, K♥ −4, Q♥ −3, J♥ −2, any other heart −1.
#[must_use]
pub fn penalty(card: Card) -> i32 {
    if card == Card::QUEEN_OF_SPADES {
        return -13;
    }
    if card.suit() != Suit::Hearts {
        return 0;
    }
    match card.rank() {
        Rank::ACE => -5,
        Rank::KING => -4,
        Rank::QUEEN => -3,
        Rank::JACK => -2,
        _ => -1,
    }
}

/// The total penalty of the cards taken: −1 a heart, −1 to −4 more for J♥ to A♥, −13 for
/// Q♠ (bit counts, as [`penalty`] summed over the cards).
fn penalties(taken: CardSet) -> i32 {
    let hearts = taken.of_suit(Suit::Hearts);
    let has = |rank: Rank| i32::from(hearts.contains(Card::new(rank, Suit::Hearts)));
    let extra = 4 * has(Rank::ACE) + 3 * has(Rank::KING) + 2 * has(Rank::QUEEN) + has(Rank::JACK);
    let queen = 13 * i32::from(taken.contains(Card::QUEEN_OF_SPADES));
    -(hearts.len() as i32 + extra + queen)
}

/// Scores a hand: `(prize per seat, penalties per seat, pool carried over)`. The pool (this
/// hand's 36 plus what was carried) goes in equal shares to the players with no penalty card;
/// when nobody is clean it all carries over.
pub(super) fn score(taken: &PerSeat<CardSet>, pool: i32) -> (PerSeat<i32>, PerSeat<i32>, i32) {
    let n = taken.len() as u8;
    let mut prize = PerSeat::new(n);
    let mut minus = PerSeat::new(n);
    for (seat, cards) in taken.iter() {
        minus[seat] = penalties(*cards);
    }
    let clean = minus.as_slice().iter().filter(|p| **p == 0).count() as i32;
    if clean == 0 {
        return (prize, minus, pool);
    }
    for (seat, p) in minus.iter() {
        if *p == 0 {
            prize[seat] = pool / clean;
        }
    }
    (prize, minus, 0)
}

/// What clients need to know to follow and draw a hand of filippa.
pub(super) fn facts() -> VariantFacts {
    VariantFacts {
        hand_size: super::Variant::Filippa.hand_size(),
        pass_count: super::PASS_COUNT,
        prize: PRIZE,
        partnerships: false,
        first_lead: FirstLead::DealerLeft,
        trump: TrumpRule::NoTrump,
        bad_card_penalty: None,
        low_score_wins: false,
        two_totals: true,
        points_in_hand: true,
        trick_points: false,
        card_points: super::facts::card_points(|taken| score(taken, PRIZE).1[Seat(0)]),
        scoring: format!(
            "Hearts and Q♠ are penalties; players who take none share the {PRIZE}-point prize \
             pool; highest prize total wins."
        ),
        bidding: false,
        hand_size_varies: false,
        player_counts: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    /// Seat 0 takes `cards`; seat 1 takes the rest of a harmless trick.
    fn taken(seat0: &str, seat1: &str) -> PerSeat<CardSet> {
        let mut taken = PerSeat::new(4);
        taken[Seat(0)] = CardSet::parse_compact(seat0).unwrap();
        taken[Seat(1)] = CardSet::parse_compact(seat1).unwrap();
        taken
    }

    #[test]
    fn the_pool_and_negatives_live_in_filippas_own_state() {
        let mut filippa = Filippa::new(&Rules::standard(Variant::Filippa));
        let mut totals = PerSeat::new(4);
        let tricks = PerSeat::new(4);
        // Everyone took a penalty card: the 36 carries over, nobody's total moves.
        let mut everyone = taken("QS", "2H");
        everyone[Seat(2)] = CardSet::parse_compact("3H").unwrap();
        everyone[Seat(3)] = CardSet::parse_compact("4H").unwrap();
        let first = filippa.score_hand(&everyone, &tricks, &PerSeat::new(4), &mut totals);
        assert_eq!(first.pool_carried, 36);
        assert_eq!(filippa.pool(), 72);
        assert_eq!(totals, PerSeat::new(4));
        assert_eq!(filippa.negatives().as_slice(), &[-13, -1, -1, -1]);
        // Then seats 2 and 3 are clean and share the 72.
        let second = filippa.score_hand(&taken("QS", "AH"), &tricks, &PerSeat::new(4), &mut totals);
        assert_eq!(second.points.as_slice(), &[0, 0, 36, 36]);
        assert_eq!(second.penalties.as_slice(), &[-13, -5, 0, 0]);
        assert_eq!(filippa.pool(), 36);
        assert_eq!(totals.as_slice(), &[0, 0, 36, 36]);
        assert_eq!(filippa.negatives().as_slice(), &[-26, -6, -1, -1]);
    }

    #[test]
    fn every_hand_passes_left() {
        let mut filippa = Filippa::new(&Rules::standard(Variant::Filippa));
        let deck: [_; 52] = std::array::from_fn(|i| Card::from_index(i as u8));
        for hand in 0..5 {
            let setup = filippa.start_hand(hand, &deck, 52);
            assert_eq!(setup.pass, Some(PassDirection::Left));
        }
    }

    #[test]
    fn set_penalties_are_the_sum_of_card_penalties() {
        let mut bits = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..500 {
            bits = bits.rotate_left(7).wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ (bits >> 3);
            let set = CardSet::from_bits(bits);
            assert_eq!(penalties(set), set.iter().map(penalty).sum::<i32>());
        }
        assert_eq!(penalties(CardSet::FULL), -36);
    }
}
