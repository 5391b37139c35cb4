//! The random stream of a bot's choices: xoshiro256++, seeded through SplitMix64.
//!
//! Deals keep ChaCha8 ([`crate::deck::DeckRng`]), whose output nobody can work back from.
//! A bot's choices need no such thing: a server's bot is seeded per decision by a one-way hash
//! of the match's secret ([`crate::fair::bot_seed`]), so its stream reveals nothing of a deal.
//! What they need is speed (random play and the strong bot's simulations draw a number for
//! almost every card) and a stream fixed by its seed, which xoshiro256++'s specification gives
//! as ChaCha8's does (docs/PERFORMANCE.md, "Where the code's shape comes from", has the
//! measurement).

use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::card::Card;
use crate::deck::fisher_yates;

/// A bot's reproducible stream of random numbers.
#[derive(Clone, Debug)]
pub struct BotRng(Xoshiro256PlusPlus);

impl BotRng {
    /// The stream for `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        BotRng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    /// A uniform number in `0..n` (multiply-shift on the high 32 bits; the bias is below
    /// 2^-26 for n <= 52).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.0.next_u64() >> 32) * u64::from(n)) >> 32) as u32
    }

    /// The next raw 64 bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A shuffled deck: the Fisher-Yates of the deal ([`fisher_yates`]) on this stream's
    /// words, for a bot imagining a deal.
    #[must_use]
    pub fn shuffled_deck(&mut self) -> [Card; 52] {
        let mut bytes = [0u8; 51 * 4];
        self.0.fill_bytes(&mut bytes);
        fisher_yates(&bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arena matches replay from their seeds: the stream must not change with a dependency
    /// upgrade. These are xoshiro256++'s words for seed 0 through SplitMix64, as the reference
    /// implementation gives them.
    #[test]
    fn the_stream_for_a_seed_is_pinned() {
        let mut rng = BotRng::new(0);
        let words: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(words, PINNED_WORDS);
        let mut rng = BotRng::new(0);
        let draws: Vec<u32> = (0..3).map(|_| rng.below(52)).collect();
        let expected: Vec<u32> = PINNED_WORDS
            .iter()
            .map(|w| (((w >> 32) * 52) >> 32) as u32)
            .collect();
        assert_eq!(draws, expected);
    }

    const PINNED_WORDS: [u64; 3] = [0x53175d61490b23df, 0x61da6f3dc380d507, 0x5c0fdf91ec9a7bfc];

    #[test]
    fn draws_stay_below_their_bound_and_reach_every_value() {
        let mut rng = BotRng::new(9);
        let mut seen = [false; 13];
        for _ in 0..2_000 {
            let k = rng.below(13) as usize;
            seen[k] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn a_shuffled_deck_holds_every_card_once() {
        let deck = BotRng::new(3).shuffled_deck();
        let mut cards: Vec<u8> = deck.iter().map(|c| c.index()).collect();
        cards.sort_unstable();
        assert_eq!(cards, (0..52).collect::<Vec<u8>>());
        assert_ne!(deck, BotRng::new(4).shuffled_deck());
    }
}
