//! Seeded shuffling and dealing.
//!
//! The shuffle is written out here rather than taken from `rand::seq`, because a game must replay
//! identically for as long as its log is kept: ChaCha8's output is fixed by its specification, and
//! this Fisher-Yates and `below` never change with a dependency upgrade.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::card::Card;

/// The engine's random source: reproducible from a `u64` seed on every platform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeckRng(ChaCha8Rng);

impl DeckRng {
    /// The stream for `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        DeckRng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A uniform number in `0..n` (multiply-shift; the bias is below 2^-50 for n <= 52).
    pub fn below(&mut self, n: u32) -> u32 {
        ((u64::from(self.0.next_u32()) * u64::from(n)) >> 32) as u32
    }

    /// The next raw 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

/// A fresh deck in index order: clubs 2..A, diamonds, hearts, spades.
#[must_use]
pub fn ordered_deck() -> [Card; 52] {
    std::array::from_fn(|i| Card::from_index(i as u8))
}

/// A shuffled deck (Fisher-Yates).
pub fn shuffled_deck(rng: &mut DeckRng) -> [Card; 52] {
    let mut deck = ordered_deck();
    for i in (1..52).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        deck.swap(i, j);
    }
    deck
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::CardSet;

    #[test]
    fn same_seed_same_deck_and_every_card_once() {
        let a = shuffled_deck(&mut DeckRng::new(7));
        let b = shuffled_deck(&mut DeckRng::new(7));
        let c = shuffled_deck(&mut DeckRng::new(8));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.iter().copied().collect::<CardSet>(), CardSet::FULL);
    }
}
