//! UVa 181 Hearts: trump from the two undealt cards, must-trump, hearts at face value.

use crate::card::{CardSet, Suit};
use crate::seat::PerSeat;

/// The trump suit: the suit of the higher-ranked leftover card; on equal ranks the higher suit
/// (clubs < diamonds < hearts < spades).
pub(super) fn trump_of(leftover: CardSet) -> Suit {
    leftover
        .iter()
        .max_by_key(|c| (c.rank(), c.suit()))
        .expect("two cards are left over")
        .suit()
}

/// A player who cannot follow suit must trump if able, otherwise may discard anything.
pub(super) fn discard_options(hand: CardSet, trump: Suit) -> CardSet {
    let trumps = hand.of_suit(trump);
    if trumps.is_empty() { hand } else { trumps }
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
