//! Decks, seeded shuffling and dealing.
//!
//! A [`Deck`] says which cards a variant deals (24 to 54 of them); the suit and rank a card
//! plays as are the card's own ([`Card::suit`], [`Card::rank`]: a joker is a spade above the
//! ace). The shuffle is written out here rather than taken from `rand::seq`, because a game
//! must replay identically for as long as its log is kept: ChaCha8's output is fixed by its
//! specification, and this Fisher-Yates and `below` never change with a dependency upgrade.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use crate::card::{Card, CardSet, Rank, Suit};

/// The cards a variant deals, one of each. A deck is a set, so a double deck would need a
/// count per card: the shuffle and the fair deal below already take a deck of any length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deck(CardSet);

/// A set of cards that cannot be a deck.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("a deck holds {min} to {max} cards, not {0}", min = Deck::MIN_CARDS, max = Deck::MAX_CARDS)]
pub struct BadDeck(pub u32);

impl Deck {
    /// The fewest cards a deck holds (a euchre deck, nine to ace).
    pub const MIN_CARDS: u32 = 24;
    /// The most cards a deck holds: the 52 plain cards and both jokers.
    pub const MAX_CARDS: u32 = 54;

    /// The 52 plain cards.
    pub const STANDARD: Deck = Deck(CardSet::FULL);

    /// Spades with jokers: the two jokers replace the twos of clubs and diamonds, still 52.
    pub const SPADES_JOKERS: Deck = Deck(CardSet::from_bits(
        (CardSet::FULL.bits()
            & !CardSet::single(Card::new(Rank::TWO, Suit::Clubs)).bits()
            & !CardSet::single(Card::new(Rank::TWO, Suit::Diamonds)).bits())
            | CardSet::JOKERS.bits(),
    ));

    /// The deck of exactly these cards.
    pub fn new(cards: CardSet) -> Result<Deck, BadDeck> {
        if (Deck::MIN_CARDS..=Deck::MAX_CARDS).contains(&cards.len()) {
            Ok(Deck(cards))
        } else {
            Err(BadDeck(cards.len()))
        }
    }

    /// Its cards.
    #[must_use]
    pub const fn cards(self) -> CardSet {
        self.0
    }

    /// How many cards it holds.
    #[must_use]
    pub const fn len(self) -> usize {
        self.0.len() as usize
    }

    /// Never: a deck holds at least [`Deck::MIN_CARDS`].
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0.is_empty()
    }

    /// The cards in index order, the order a shuffle starts from.
    #[must_use]
    pub fn ordered(self) -> Vec<Card> {
        self.0.to_vec()
    }

    /// The deck shuffled by Fisher-Yates ([`shuffle_in_place`]) driven by `words`, which must
    /// hold at least [`Deck::shuffle_bytes`] bytes.
    #[must_use]
    pub fn shuffled(self, words: &[u8]) -> Vec<Card> {
        let mut cards = self.ordered();
        shuffle_in_place(&mut cards, words);
        cards
    }

    /// The bytes a shuffle of this deck reads: one 32-bit word per card but the first.
    #[must_use]
    pub const fn shuffle_bytes(self) -> usize {
        4 * (self.len() - 1)
    }
}

/// A deck in the order it is dealt, the first card to the dealer's left: 24 to 54 cards,
/// inline, so that stacking and dealing a hand never allocates.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct DealOrder {
    cards: [Card; Deck::MAX_CARDS as usize],
    len: u8,
}

impl DealOrder {
    /// The deck of `cards`, in this order.
    ///
    /// # Panics
    /// When `cards` is not a deck's size (see [`Deck::new`]).
    #[must_use]
    pub fn from_slice(cards: &[Card]) -> DealOrder {
        let n = cards.len();
        assert!(
            (Deck::MIN_CARDS as usize..=Deck::MAX_CARDS as usize).contains(&n),
            "a deck holds {} to {} cards, not {n}",
            Deck::MIN_CARDS,
            Deck::MAX_CARDS
        );
        let mut order = DealOrder {
            cards: [Card::TWO_OF_CLUBS; Deck::MAX_CARDS as usize],
            len: n as u8,
        };
        order.cards[..n].copy_from_slice(cards);
        order
    }
}

impl From<[Card; 52]> for DealOrder {
    fn from(cards: [Card; 52]) -> DealOrder {
        DealOrder::from_slice(&cards)
    }
}

impl std::ops::Deref for DealOrder {
    type Target = [Card];
    fn deref(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }
}

impl std::fmt::Debug for DealOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

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

/// [`shuffled_deck`] of `deck`'s cards: the same words drawn, over the deck's own cards (the
/// standard deck takes exactly [`shuffled_deck`]'s path).
pub fn shuffled_deck_of(deck: Deck, rng: &mut DeckRng) -> DealOrder {
    if deck == Deck::STANDARD {
        return shuffled_deck(rng).into();
    }
    let mut bytes = vec![0u8; deck.shuffle_bytes()];
    rng.0.fill_bytes(&mut bytes);
    DealOrder::from_slice(&deck.shuffled(&bytes))
}

/// Fisher-Yates over the ordered deck, driven by 51 little-endian 32-bit words (see
/// [`shuffle_in_place`]). Shared by the seeded shuffle and the fair deal (`crate::fair`),
/// whose recipe documents it.
#[must_use]
pub fn fisher_yates(bytes: &[u8; 51 * 4]) -> [Card; 52] {
    let mut deck = ordered_deck();
    shuffle_in_place(&mut deck, bytes);
    deck
}

/// Fisher-Yates over `cards` (of any length `n`), driven by `n - 1` little-endian 32-bit
/// words: step `k` (from 0) swaps position `i = n - 1 - k` with `j = (word_k * (i + 1)) >> 32`.
///
/// # Panics
/// When `words` holds fewer than `4 * (n - 1)` bytes.
pub fn shuffle_in_place(cards: &mut [Card], words: &[u8]) {
    let steps = cards.len().saturating_sub(1);
    assert!(words.len() >= 4 * steps, "{steps} words to shuffle");
    for (step, word) in words.chunks_exact(4).take(steps).enumerate() {
        let i = cards.len() - 1 - step;
        let word = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
        // `below(i + 1)`: multiply-shift.
        let j = ((u64::from(word) * (i as u64 + 1)) >> 32) as usize;
        cards.swap(i, j);
    }
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

    #[test]
    fn a_deck_holds_24_to_54_cards_and_the_jokers_deck_drops_the_black_and_red_twos() {
        let jokers = Deck::SPADES_JOKERS.cards();
        assert_eq!(jokers.len(), 52);
        assert!(jokers.contains(Card::BIG_JOKER) && jokers.contains(Card::LITTLE_JOKER));
        for gone in ["2C", "2D"] {
            assert!(!jokers.contains(gone.parse().unwrap()), "{gone}");
        }
        assert_eq!(Deck::new(CardSet::EVERY).map(Deck::len), Ok(54));
        let euchre = CardSet::parse_compact("9TJQKAc 9TJQKAd 9TJQKAh 9TJQKAs").unwrap();
        assert_eq!(Deck::new(euchre).map(Deck::len), Ok(24));
        let small = CardSet::parse_compact("TJQKAc 9TJQKAd 9TJQKAh 9TJQKAs").unwrap();
        assert_eq!(Deck::new(small), Err(BadDeck(23)));
        assert_eq!(
            BadDeck(23).to_string(),
            "a deck holds 24 to 54 cards, not 23"
        );
    }

    #[test]
    fn a_deck_of_any_size_shuffles_to_its_own_cards_and_the_standard_one_as_before() {
        let mut rng = DeckRng::new(5);
        let mut bytes = vec![0u8; 53 * 4];
        rng.0.fill_bytes(&mut bytes);
        let euchre =
            Deck::new(CardSet::parse_compact("9TJQKAc 9TJQKAd 9TJQKAh 9TJQKAs").unwrap()).unwrap();
        for deck in [
            Deck::new(CardSet::EVERY).unwrap(),
            euchre,
            Deck::SPADES_JOKERS,
        ] {
            let cards = deck.shuffled(&bytes);
            assert_eq!(cards.len(), deck.len());
            assert_eq!(cards.iter().copied().collect::<CardSet>(), deck.cards());
            assert_ne!(cards, deck.ordered(), "shuffled");
        }
        let standard: [u8; 204] = bytes[..204].try_into().unwrap();
        assert_eq!(
            Deck::STANDARD.shuffled(&bytes),
            fisher_yates(&standard).to_vec()
        );
        assert_eq!(
            *shuffled_deck_of(Deck::STANDARD, &mut DeckRng::new(0)),
            shuffled_deck(&mut DeckRng::new(0))
        );
        let jokers = shuffled_deck_of(Deck::SPADES_JOKERS, &mut DeckRng::new(0));
        assert_eq!(
            jokers.iter().copied().collect::<CardSet>(),
            Deck::SPADES_JOKERS.cards()
        );
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
