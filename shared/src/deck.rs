//! Seeded shuffling and dealing.
//!
//! The shuffle is written out here rather than taken from `rand::seq`, because a game must replay
//! identically for as long as its log is kept: ChaCha8's output is fixed by its specification, and
//! this Fisher-Yates and `below` never change with a dependency upgrade.
//!
//! [`DeckRng`] keeps ChaCha8's output buffer itself rather than wrapping `ChaCha8Rng`: the words
//! are the same, in the same order (a test compares the two streams), but a shuffle copies its 51
//! words out of the buffer in one go instead of going through `fill_bytes`, whose byte-wise
//! bookkeeping cost as much as the Fisher-Yates it fed (a third of a hand's shuffle, measured
//! by counted instructions).

use rand::SeedableRng;
use rand::rand_core::block::BlockRngCore;
use rand_chacha::ChaCha8Core;

use crate::card::Card;

/// ChaCha8's output block: four 16-word blocks, as the SIMD backend makes them at once.
type Block = <ChaCha8Core as BlockRngCore>::Results;

/// Words in one [`Block`].
const BLOCK_WORDS: usize = 64;

/// Words a shuffle draws: one per Fisher-Yates step.
const SHUFFLE_WORDS: usize = 51;

/// The engine's random source: reproducible from a `u64` seed on every platform. Its words are
/// `ChaCha8Rng::seed_from_u64(seed)`'s `next_u32` words, in order.
#[derive(Clone)]
pub struct DeckRng {
    core: ChaCha8Core,
    /// The current block of output; `next` words of it are used.
    block: Block,
    next: usize,
}

impl PartialEq for DeckRng {
    fn eq(&self, other: &DeckRng) -> bool {
        (&self.core, self.next) == (&other.core, other.next)
            && self.block.as_ref() == other.block.as_ref()
    }
}

impl Eq for DeckRng {}

impl std::fmt::Debug for DeckRng {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeckRng").finish_non_exhaustive()
    }
}

impl DeckRng {
    /// The stream for `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        DeckRng {
            core: ChaCha8Core::seed_from_u64(seed),
            block: Block::default(),
            next: BLOCK_WORDS,
        }
    }

    /// The next block of output, once this one is used up (the caller resets `next`).
    #[inline(never)]
    fn refill(&mut self) {
        self.core.generate(&mut self.block);
    }

    /// The next 32-bit word.
    #[inline]
    fn next_u32(&mut self) -> u32 {
        let mut next = self.next;
        if next >= BLOCK_WORDS {
            self.refill();
            next = 0;
        }
        self.next = next + 1;
        self.block.as_ref()[next]
    }

    /// A uniform number in `0..n` (multiply-shift; the bias is below 2^-50 for n <= 52).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        ((u64::from(self.next_u32()) * u64::from(n)) >> 32) as u32
    }

    /// The next raw 64 bits (the low half first, as `RngCore::next_u64` of a block generator).
    pub fn next_u64(&mut self) -> u64 {
        let low = self.next_u32();
        u64::from(self.next_u32()) << 32 | u64::from(low)
    }

    /// A shuffle of the next 51 words: read in place when the block holds them all, else
    /// copied out across a refill.
    #[inline]
    fn shuffle_next(&mut self) -> [Card; 52] {
        let start = self.next;
        if let Some(words) = self.block.as_ref().get(start..start + SHUFFLE_WORDS) {
            let words: &[u32; SHUFFLE_WORDS] = words.try_into().expect("51 words");
            self.next = start + SHUFFLE_WORDS;
            return shuffle(words);
        }
        shuffle(&self.shuffle_words_across())
    }

    /// The next 51 words when they run past the block's end.
    #[cold]
    #[inline(never)]
    fn shuffle_words_across(&mut self) -> [u32; SHUFFLE_WORDS] {
        let mut words = [0u32; SHUFFLE_WORDS];
        let here = (BLOCK_WORDS - self.next).min(SHUFFLE_WORDS);
        words[..here].copy_from_slice(&self.block.as_ref()[self.next..self.next + here]);
        self.refill();
        let rest = SHUFFLE_WORDS - here;
        words[here..].copy_from_slice(&self.block.as_ref()[..rest]);
        self.next = rest;
        words
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
    rng.shuffle_next()
}

/// Fisher-Yates over the ordered deck, driven by 51 little-endian 32-bit words: step `k`
/// (from 0) swaps position `i = 51 - k` with `j = (word_k * (i + 1)) >> 32`. Shared by the
/// seeded shuffle and the fair deal (`crate::fair`), whose recipe documents it.
#[must_use]
pub fn fisher_yates(bytes: &[u8; SHUFFLE_WORDS * 4]) -> [Card; 52] {
    let mut words = [0u32; SHUFFLE_WORDS];
    for (word, le) in words.iter_mut().zip(bytes.chunks_exact(4)) {
        *word = u32::from_le_bytes([le[0], le[1], le[2], le[3]]);
    }
    shuffle(&words)
}

/// [`fisher_yates`] from the words themselves.
///
/// The swaps run on a 64-entry copy indexed by `j & 63` (always `j`, which is at most `i`): the
/// compiler cannot see that `j` is below 52 and would check it on every step.
#[inline]
fn shuffle(words: &[u32; SHUFFLE_WORDS]) -> [Card; 52] {
    let mut deck: [u8; 64] = std::array::from_fn(|i| i as u8);
    for (step, &word) in words.iter().enumerate() {
        let i = 51 - step;
        // `below(i + 1)`: multiply-shift.
        let j = ((u64::from(word) * (i as u64 + 1)) >> 32) as usize;
        deck.swap(i & 63, j & 63);
    }
    std::array::from_fn(|i| Card::from_packed(deck[i]))
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

    /// The engine's stream is `ChaCha8Rng`'s, word for word, whatever mix of draws reads it:
    /// shuffles straddling a block's end, single words and 64-bit draws.
    #[test]
    fn the_stream_is_chacha8_word_for_word() {
        use rand::RngCore;
        use rand_chacha::ChaCha8Rng;
        for seed in [0, 1, 7, 42, 0xDEAD_BEEF, u64::MAX] {
            let mut ours = DeckRng::new(seed);
            let mut reference = ChaCha8Rng::seed_from_u64(seed);
            for round in 0..40 {
                // 13 words then a shuffle: the shuffles start at every offset of a block.
                for _ in 0..13 + round % 5 {
                    assert_eq!(ours.next_u32(), reference.next_u32(), "seed {seed}");
                }
                let expected: [u32; SHUFFLE_WORDS] = std::array::from_fn(|_| reference.next_u32());
                assert_eq!(
                    ours.shuffle_next(),
                    shuffle(&expected),
                    "seed {seed} round {round}"
                );
                assert_eq!(ours.next_u64(), reference.next_u64(), "seed {seed}");
                let n = 1 + round % 52;
                assert_eq!(
                    ours.below(n),
                    ((u64::from(reference.next_u32()) * u64::from(n)) >> 32) as u32
                );
            }
        }
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
