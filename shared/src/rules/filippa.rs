//! Filippa: negative penalty cards and the prize pool shared by the clean players.

use crate::card::{Card, CardSet, Rank, Suit};
use crate::seat::PerSeat;

/// The positive points added to the pool every hand.
pub(super) const PRIZE: i32 = 36;

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

#[cfg(test)]
mod tests {
    use super::*;

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
