//! Seeded shuffling and dealing.
//!
//! The shuffle is written out here rather than taken from `rand::seq`, because a game must replay
//! identically for as long as its log is kept: ChaCha8's output is fixed by its specification, and
//! this Fisher-Yates and `below` never change with a dependency upgrade.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::card::Card;

/// The deals' random source: reproducible from a `u64` seed on every platform (bots draw from
/// [`crate::bots::BotRng`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeckRng(ChaCha8Rng);

impl DeckRng {
    /// The stream for `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        DeckRng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A uniform number in `0..n` (multiply-shift; the bias is below 2^-50 for n <= 52).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        ((u64::from(self.0.next_u32()) * u64::from(n)) >> 32) as u32
    }
}

/// A fresh deck in index order: clubs 2..A, diamonds, hearts, spades.
#[must_use]
pub fn ordered_deck() -> [Card; 52] {
    std::array::from_fn(|i| Card::from_index(i as u8))
}

/// A shuffled deck (Fisher-Yates).
///
/// The 51 random words are drawn in one call: the same words, in the same order, as 51 calls of
/// [`DeckRng::below`] (the golden test below pins the result).
pub fn shuffled_deck(rng: &mut DeckRng) -> [Card; 52] {
    let mut bytes = [0u8; 51 * 4];
    rng.0.fill_bytes(&mut bytes);
    fisher_yates(&bytes)
}

/// Fisher-Yates over the ordered deck, driven by 51 little-endian 32-bit words: step `k`
/// (from 0) swaps position `i = 51 - k` with `j = (word_k * (i + 1)) >> 32`. Shared by the
/// seeded shuffle and the fair deal (`crate::fair`), whose recipe documents it.
#[must_use]
pub fn fisher_yates(bytes: &[u8; 51 * 4]) -> [Card; 52] {
    let mut deck = ordered_deck();
    for (step, word) in bytes.chunks_exact(4).enumerate() {
        let i = 51 - step;
        let word = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
        // `below(i + 1)`: multiply-shift.
        let j = ((u64::from(word) * (i as u64 + 1)) >> 32) as usize;
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

    fn text(deck: [Card; 52]) -> String {
        deck.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The shuffle must never change: saved games and logs replay from their seeds.
    #[test]
    fn the_shuffle_is_pinned() {
        assert_eq!(
            text(shuffled_deck(&mut DeckRng::new(0))),
            "AH 8D 7S TD 8S 6C 7D 2C 8C 4S 2H 9D KC 2S JC QC 9C QS 5C QD 5H AC JH 3C 6S 5S 3D \
             2D 3S 9H 3H 4D 7C 6H 4H 6D AS 7H 9S 5D JS TS KH TC 4C AD 8H KD JD KS QH TH"
        );
        assert_eq!(
            text(shuffled_deck(&mut DeckRng::new(42))),
            "7C 6S JC 7D AH 2D 6C TC JH KD 7H QH 2C 6H QD 9H 4C 3C QC 8D 5C TS 3H TD 3D JS AD \
             5D KS AS 8S 6D QS 7S 4S JD 5H 3S 2S 5S 8C 2H AC 8H 4H 4D 9D KH 9S 9C TH KC"
        );
        let mut rng = DeckRng::new(7);
        assert_eq!(
            text(shuffled_deck(&mut rng)),
            "5H JS 3H 8D 7D KD 2D 9D AS 4S 2H AH 4C 2C 6C QC 8S 6D TD 9S 4H 7C 5S KH 6H QD QH \
             4D KC JD 8C 3S 7S 5D JH TS 7H 2S 6S QS 3D TH AD 5C 8H 3C 9H AC KS JC TC 9C"
        );
        // The second deck of a stream, straddling the generator's 64-word blocks.
        assert_eq!(
            text(shuffled_deck(&mut rng)),
            "2S 6H 9S 7D JH 3D TH 2C TC KS JD 6C JS 4C 9D 2D 3H 8D 4H KD 2H JC TS 8H QS QH QD \
             3C 4S 6S 7H 9H QC 5D 7C AC 4D TD KH 3S 6D 5H 8S 5S AS 8C 9C 5C AH 7S KC AD"
        );
    }
}
