//! Cards, suits, ranks and the 64-bit [`CardSet`].
//!
//! A card is one byte (`suit * 13 + rank`), so a set of cards is one `u64`: the engine's hot
//! paths (legal moves, following suit, scoring) are a handful of bit operations. The two
//! jokers take the indices after the ace of spades (52 little, 53 big): they are spades ranked
//! above the ace, the only way a game here plays them, so following suit and taking tricks
//! need no case of their own. Which cards a game deals is its deck's business
//! ([`crate::deck::Deck`]).

use std::fmt;
use std::hint::select_unpredictable;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

/// A suit, ordered as UVa 181 ranks them: clubs < diamonds < hearts < spades.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    /// ♣
    Clubs = 0,
    /// ♦
    Diamonds = 1,
    /// ♥
    Hearts = 2,
    /// ♠
    Spades = 3,
}

impl Suit {
    /// All four suits, lowest first.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit with index `i` (0..4).
    #[must_use]
    pub fn from_index(i: usize) -> Suit {
        Suit::ALL[i]
    }

    /// The ASCII letter used on the wire: `C`, `D`, `H`, `S`.
    #[must_use]
    pub fn letter(self) -> char {
        ['C', 'D', 'H', 'S'][self as usize]
    }

    /// The symbol shown to people: `♣`, `♦`, `♥`, `♠`.
    #[must_use]
    pub fn symbol(self) -> char {
        ['♣', '♦', '♥', '♠'][self as usize]
    }

    /// The English name, plural: "clubs".
    #[must_use]
    pub fn name(self) -> &'static str {
        ["clubs", "diamonds", "hearts", "spades"][self as usize]
    }

    /// The English name, singular with article: "a club".
    #[must_use]
    pub fn a_card_of(self) -> &'static str {
        ["a club", "a diamond", "a heart", "a spade"][self as usize]
    }

    /// Parses a suit letter or symbol, in either case.
    #[must_use]
    pub fn from_char(c: char) -> Option<Suit> {
        match c {
            'c' | 'C' | '♣' | '♧' => Some(Suit::Clubs),
            'd' | 'D' | '♦' | '♢' => Some(Suit::Diamonds),
            'h' | 'H' | '♥' | '♡' => Some(Suit::Hearts),
            's' | 'S' | '♠' | '♤' => Some(Suit::Spades),
            _ => None,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl Serialize for Suit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match self {
            Suit::Clubs => "C",
            Suit::Diamonds => "D",
            Suit::Hearts => "H",
            Suit::Spades => "S",
        })
    }
}

impl<'de> Deserialize<'de> for Suit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        match text.to_ascii_uppercase().as_str() {
            "C" => Ok(Suit::Clubs),
            "D" => Ok(Suit::Diamonds),
            "H" => Ok(Suit::Hearts),
            "S" => Ok(Suit::Spades),
            _ => Err(serde::de::Error::custom(format!(
                "`{text}` is not a suit: use C, D, H or S"
            ))),
        }
    }
}

/// A rank, 2 (low) to ace (high).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl Rank {
    /// The two, lowest rank.
    pub const TWO: Rank = Rank(0);
    /// The ten.
    pub const TEN: Rank = Rank(8);
    /// The jack.
    pub const JACK: Rank = Rank(9);
    /// The queen.
    pub const QUEEN: Rank = Rank(10);
    /// The king.
    pub const KING: Rank = Rank(11);
    /// The ace, highest rank of a plain suit.
    pub const ACE: Rank = Rank(12);
    /// The little joker's rank: a spade above the ace.
    pub const LITTLE_JOKER: Rank = Rank(13);
    /// The big joker's rank: the highest spade.
    pub const BIG_JOKER: Rank = Rank(14);

    /// The rank with index `i`: 0 is the two, 12 the ace (13 and 14 are the jokers, spades
    /// only: see [`Card::LITTLE_JOKER`]).
    ///
    /// # Panics
    /// If `i` is 13 or more.
    #[must_use]
    pub fn from_index(i: u8) -> Rank {
        assert!(i < 13, "rank index {i} out of range");
        Rank(i)
    }

    /// Index 0 (two) to 12 (ace).
    #[must_use]
    pub fn index(self) -> u8 {
        self.0
    }

    /// Face value: 2 to 10, jack 11, queen 12, king 13, ace 14 (the jokers 15 and 16).
    #[must_use]
    pub fn value(self) -> u8 {
        self.0 + 2
    }

    /// The ASCII character: `2`..`9`, `T`, `J`, `Q`, `K`, `A` (`L` and `B` for the jokers,
    /// which are written whole: see [`Card`]'s notation).
    #[must_use]
    pub fn letter(self) -> char {
        b"23456789TJQKALB"[self.0 as usize] as char
    }

    /// The English name: "ten", "queen".
    #[must_use]
    pub fn name(self) -> &'static str {
        [
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "jack",
            "queen",
            "king",
            "ace",
            "little joker",
            "big joker",
        ][self.0 as usize]
    }

    /// Parses one rank character (`0` and `T` both mean ten), in either case.
    #[must_use]
    pub fn from_char(c: char) -> Option<Rank> {
        let i = match c.to_ascii_uppercase() {
            d @ '2'..='9' => d as u8 - b'2',
            'T' | '0' => 8,
            'J' => 9,
            'Q' => 10,
            'K' => 11,
            'A' => 12,
            _ => return None,
        };
        Some(Rank(i))
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// How many card indices there are: the 52 plain cards and the two jokers.
pub const CARD_INDICES: u8 = 54;

/// Suit of each card index (64 entries so any masked index is in bounds without a check);
/// the jokers are spades.
const SUIT_OF: [Suit; 64] = {
    let mut table = [Suit::Spades; 64];
    let mut i = 0;
    while i < 52 {
        table[i] = Suit::ALL[i / 13];
        i += 1;
    }
    table
};

/// Rank index of each card index: the jokers are the spades' ranks 13 and 14.
const RANK_OF: [u8; 64] = {
    let mut table = [0; 64];
    let mut i = 0;
    while i < CARD_INDICES as usize {
        table[i] = if i < 52 {
            (i % 13) as u8
        } else {
            (i - 39) as u8
        };
        i += 1;
    }
    table
};

/// `NTH_BIT_OF_BYTE[byte][n]`: the position of the `n`th set bit of `byte` (0-based), or 7
/// when it has fewer (past a set's last card, [`CardSet::select`] then gives card 63, which no
/// deck holds).
const NTH_BIT_OF_BYTE: [[u8; 8]; 256] = {
    let mut table = [[7; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut found) = (0, 0);
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte][found] = bit as u8;
                found += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The suit mask of each card index (a joker's is the spades', jokers included).
const SUIT_MASK_OF: [u64; 64] = {
    let mut table = [0; 64];
    let mut i = 0;
    while i < CARD_INDICES as usize {
        table[i] = CardSet::suit(SUIT_OF[i]).0;
        i += 1;
    }
    table
};

/// One playing card. Written `QS`, `TD`, `2C` on the wire, the jokers `LJ` and `BJ`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Card(u8);

impl Card {
    /// The card of this rank and suit.
    #[must_use]
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(suit as u8 * 13 + rank.0)
    }

    /// The card with index `i` (0..54): clubs 2..A, then diamonds, hearts, spades, then the
    /// little and the big joker.
    ///
    /// # Panics
    /// If `i` is 54 or more.
    #[must_use]
    pub fn from_index(i: u8) -> Card {
        assert!(i < CARD_INDICES, "card index {i} out of range");
        Card(i)
    }

    /// The index 0..54.
    #[must_use]
    #[inline]
    pub fn index(self) -> u8 {
        self.0
    }

    /// The card's suit (a table look-up: this is on every move's path).
    #[must_use]
    #[inline]
    pub fn suit(self) -> Suit {
        SUIT_OF[(self.0 & 63) as usize]
    }

    /// The card's rank.
    #[must_use]
    #[inline]
    pub fn rank(self) -> Rank {
        Rank(RANK_OF[(self.0 & 63) as usize])
    }

    /// Every card of this card's suit, as a set (the mask a follower must match).
    #[must_use]
    #[inline]
    pub fn suit_set(self) -> CardSet {
        CardSet(SUIT_MASK_OF[(self.0 & 63) as usize])
    }

    /// True for the little and the big joker.
    #[must_use]
    #[inline]
    pub const fn is_joker(self) -> bool {
        self.0 >= 52
    }

    /// How people say it: "queen of spades", "big joker".
    #[must_use]
    pub fn name(self) -> String {
        if self.is_joker() {
            return self.rank().name().to_string();
        }
        format!("{} of {}", self.rank().name(), self.suit().name())
    }

    /// The little joker: a spade above the ace, below the big joker.
    pub const LITTLE_JOKER: Card = Card::new(Rank::LITTLE_JOKER, Suit::Spades);
    /// The big joker: the highest spade.
    pub const BIG_JOKER: Card = Card::new(Rank::BIG_JOKER, Suit::Spades);

    /// The queen of spades, Hearts' 13-point card.
    pub const QUEEN_OF_SPADES: Card = Card::new(Rank::QUEEN, Suit::Spades);
    /// The two of clubs, which opens a hand of Hearts.
    pub const TWO_OF_CLUBS: Card = Card::new(Rank::TWO, Suit::Clubs);
}

/// Cards compare by index: by suit (clubs lowest), then by rank.
impl PartialOrd for Card {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Card {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}

impl Card {
    /// The canonical notation: a rank then a suit (`QS`, `TD`), or `LJ` / `BJ` for a joker.
    #[must_use]
    pub fn notation(self) -> [u8; 2] {
        let second = if self.is_joker() {
            b'J'
        } else {
            self.suit().letter() as u8
        };
        [self.rank().letter() as u8, second]
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.notation();
        write!(f, "{}{}", a as char, b as char)
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a piece of text is not a card or a hand.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CardParseError {
    /// The text is not a rank then a suit in the protocol's syntax.
    #[error(
        "`{0}` is not a card: write a rank (2-9, T or 10, J, Q, K, A) then a suit (C, D, H, S), like QS, TD or 10H, or LJ / BJ for the little / big joker (either case)"
    )]
    NotACard(String),
    /// A character in a hand is neither a rank, a suit nor a space.
    #[error("`{0}` is neither a rank nor a suit")]
    BadChar(char),
    /// Ranks were written without a suit after them.
    #[error("the ranks `{0}` have no suit after them")]
    MissingSuit(String),
    /// The same card appears twice.
    #[error("{0} appears twice")]
    Duplicate(Card),
}

/// The protocol's one card syntax, `^(?:(?:10|[2-9TJQKAtjqka])[CDHScdhs]|[LBlb][Jj])$`: a rank
/// (`2`-`9`, `T` or `10`, `J`, `Q`, `K`, `A`) then a suit (`C`, `D`, `H`, `S`), or `LJ` / `BJ`
/// for the little / big joker, in either case, nothing around them.
/// Cards are always written back in the canonical form, two capitals with `T` for ten, so a
/// client that echoes what it was sent is always understood. Symbols and spaces are refused.
/// (The compact notation of [`CardSet::parse_compact`] is a shorthand for tests and tools.)
impl FromStr for Card {
    type Err = CardParseError;

    fn from_str(text: &str) -> Result<Card, CardParseError> {
        let bad = || CardParseError::NotACard(text.to_string());
        let (r, s) = match *text.as_bytes() {
            [r, s] => (r, s),
            [b'1', b'0', s] => (b'T', s),
            _ => return Err(bad()),
        };
        let (r, s) = (r.to_ascii_uppercase(), s.to_ascii_uppercase());
        match (r, s) {
            (b'L', b'J') => return Ok(Card::LITTLE_JOKER),
            (b'B', b'J') => return Ok(Card::BIG_JOKER),
            _ => {}
        }
        let rank = b"23456789TJQKA"
            .iter()
            .position(|&c| c == r)
            .ok_or_else(bad)?;
        let suit = b"CDHS".iter().position(|&c| c == s).ok_or_else(bad)?;
        Ok(Card::new(Rank(rank as u8), Suit::from_index(suit)))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let bytes = self.notation();
        s.serialize_str(std::str::from_utf8(&bytes).expect("ASCII"))
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A set of cards as a 64-bit mask (bit `i` is the card with index `i`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardSet(u64);

const SUIT_MASK: u64 = (1 << 13) - 1;

impl CardSet {
    /// No cards.
    pub const EMPTY: CardSet = CardSet(0);
    /// The 52 plain cards, the standard deck (no joker).
    pub const FULL: CardSet = CardSet((1 << 52) - 1);
    /// The little and the big joker.
    pub const JOKERS: CardSet = CardSet(0b11 << 52);
    /// Every card there is: the 52 plain cards and the two jokers.
    pub const EVERY: CardSet = CardSet(Self::FULL.0 | Self::JOKERS.0);

    /// The set from its bit mask (bits 54 and up are dropped).
    #[must_use]
    pub const fn from_bits(bits: u64) -> CardSet {
        CardSet(bits & Self::EVERY.0)
    }

    /// The raw bit mask.
    #[must_use]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Every card of one suit; the spades hold the jokers.
    #[must_use]
    pub const fn suit(suit: Suit) -> CardSet {
        let jokers = if matches!(suit, Suit::Spades) {
            Self::JOKERS.0
        } else {
            0
        };
        CardSet((SUIT_MASK << (suit as u64 * 13)) | jokers)
    }

    /// A set holding one card.
    #[must_use]
    pub const fn single(card: Card) -> CardSet {
        CardSet(1 << card.0)
    }

    /// How many cards.
    #[must_use]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True when there is no card.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when `card` is in the set.
    #[must_use]
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.0) != 0
    }

    /// Adds a card; returns false if it was already there.
    pub fn insert(&mut self, card: Card) -> bool {
        let had = self.contains(card);
        self.0 |= 1 << card.0;
        !had
    }

    /// Removes a card; returns false if it was not there.
    pub fn remove(&mut self, card: Card) -> bool {
        let had = self.contains(card);
        self.0 &= !(1 << card.0);
        had
    }

    /// The cards of `suit` in this set.
    #[must_use]
    pub const fn of_suit(self, suit: Suit) -> CardSet {
        CardSet(self.0 & Self::suit(suit).0)
    }

    /// True when the set holds a card of `suit`.
    #[must_use]
    pub const fn has_suit(self, suit: Suit) -> bool {
        !self.of_suit(suit).is_empty()
    }

    /// The lowest card (by index), if any.
    #[must_use]
    pub fn lowest(self) -> Option<Card> {
        (self.0 != 0).then(|| Card(self.0.trailing_zeros() as u8))
    }

    /// The highest card (by index), if any. Within one suit, that is the highest rank.
    #[must_use]
    pub fn highest(self) -> Option<Card> {
        (self.0 != 0).then(|| Card(63 - self.0.leading_zeros() as u8))
    }

    /// The `n`th card in index order (0-based), if there are that many.
    #[must_use]
    pub fn nth(self, n: u32) -> Option<Card> {
        (n < self.len()).then(|| self.select(n))
    }

    /// The `n`th card in index order (0-based), for an `n` known to be below [`CardSet::len`]
    /// (a random pick's `below(len)`): [`CardSet::nth`] without testing it again. Past the
    /// last card (a mistake, caught in debug builds) it returns a card not in the set.
    #[must_use]
    pub fn select(self, n: u32) -> Card {
        debug_assert!(n < self.len(), "card {n} of {}", self.len());
        // A pick among the first four cards (the usual one in play, among the cards of one
        // suit) clears the lowest card four times and chooses among the results by selects:
        // no branch, and the shortest wait. A later card is found by halving the set.
        if n >= 4 {
            return self.select_by_halves(n);
        }
        let x0 = self.0;
        let x1 = x0 & x0.wrapping_sub(1);
        let x2 = x1 & x1.wrapping_sub(1);
        let x3 = x2 & x2.wrapping_sub(1);
        let low_pair = select_unpredictable(n & 1 != 0, x1, x0);
        let high_pair = select_unpredictable(n & 1 != 0, x3, x2);
        let bits = select_unpredictable(n & 2 != 0, high_pair, low_pair);
        Card(bits.trailing_zeros().min(63) as u8)
    }

    /// [`CardSet::select`] for any `n`: narrows to the half of the set that holds the card
    /// (32, 16, then 8 bits) by counting the lower half's cards, then reads the card's place in
    /// its byte from a table. Selects, not branches: which half holds a random card is a coin
    /// toss, and clearing cards one at a time would loop a random number of times.
    fn select_by_halves(self, n: u32) -> Card {
        let (mut bits, mut n, mut offset) = (self.0, n, 0);
        for width in [32, 16, 8] {
            let mask = (1 << width) - 1;
            let in_low = (bits & mask).count_ones();
            let above = n >= in_low;
            let shift = select_unpredictable(above, width, 0);
            n -= select_unpredictable(above, in_low, 0);
            bits = (bits >> shift) & mask;
            offset += shift;
        }
        Card(offset as u8 + NTH_BIT_OF_BYTE[bits as usize][(n & 7) as usize])
    }

    /// The cards in index order.
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }

    /// The cards as a vector, in index order.
    #[must_use]
    pub fn to_vec(self) -> Vec<Card> {
        self.iter().collect()
    }

    /// Builds a set from cards, refusing duplicates.
    pub fn try_from_cards(cards: &[Card]) -> Result<CardSet, CardParseError> {
        let mut set = CardSet::EMPTY;
        for &card in cards {
            if !set.insert(card) {
                return Err(CardParseError::Duplicate(card));
            }
        }
        Ok(set)
    }

    /// Parses the compact notation for people, e.g. `467QA♣ 2K♦` or `467QAc2Kd`.
    ///
    /// Whitespace anywhere is ignored; a group of ranks is closed by its suit; ten may be written
    /// `T`, `0` or `10`. Single cards with a suit each (`4c 6c`) are just one-card groups. The
    /// jokers are written whole, `LJ` and `BJ`, between groups.
    pub fn parse_compact(text: &str) -> Result<CardSet, CardParseError> {
        let mut set = CardSet::EMPTY;
        let mut pending: Vec<Rank> = Vec::new();
        let mut chars = text.chars().filter(|c| !c.is_whitespace()).peekable();
        while let Some(c) = chars.next() {
            let joker = match c.to_ascii_uppercase() {
                'L' => Some(Card::LITTLE_JOKER),
                'B' => Some(Card::BIG_JOKER),
                _ => None,
            };
            if let Some(joker) = joker {
                if !chars.next().is_some_and(|j| j.eq_ignore_ascii_case(&'J')) {
                    return Err(CardParseError::BadChar(c));
                }
                if !set.insert(joker) {
                    return Err(CardParseError::Duplicate(joker));
                }
            } else if c == '1' && chars.peek() == Some(&'0') {
                chars.next();
                pending.push(Rank::TEN);
            } else if let Some(rank) = Rank::from_char(c) {
                pending.push(rank);
            } else if let Some(suit) = Suit::from_char(c) {
                for rank in pending.drain(..) {
                    let card = Card::new(rank, suit);
                    if !set.insert(card) {
                        return Err(CardParseError::Duplicate(card));
                    }
                }
            } else {
                return Err(CardParseError::BadChar(c));
            }
        }
        if pending.is_empty() {
            Ok(set)
        } else {
            Err(CardParseError::MissingSuit(
                pending.iter().map(|r| r.letter()).collect(),
            ))
        }
    }

    /// The compact notation: suits in the order clubs, diamonds, spades, hearts, ranks low to
    /// high, each group closed by its suit symbol (`467QA♣ 2K♦`), or by a lower-case letter
    /// when `ascii` (`467QAc 2Kd`); the jokers last, `LJ BJ`.
    #[must_use]
    pub fn to_compact(self, ascii: bool) -> String {
        let plain = self - CardSet::JOKERS;
        let groups = [Suit::Clubs, Suit::Diamonds, Suit::Spades, Suit::Hearts]
            .into_iter()
            .filter(|&s| plain.has_suit(s))
            .map(|suit| {
                let mut group: String = plain
                    .of_suit(suit)
                    .iter()
                    .map(|c| c.rank().letter())
                    .collect();
                group.push(if ascii {
                    suit.letter().to_ascii_lowercase()
                } else {
                    suit.symbol()
                });
                group
            });
        let jokers = (self & CardSet::JOKERS).iter().map(|j| j.to_string());
        groups.chain(jokers).collect::<Vec<_>>().join(" ")
    }
}

impl std::ops::BitOr for CardSet {
    type Output = CardSet;
    fn bitor(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for CardSet {
    fn bitor_assign(&mut self, rhs: CardSet) {
        self.0 |= rhs.0;
    }
}

impl std::ops::BitAnd for CardSet {
    type Output = CardSet;
    fn bitand(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 & rhs.0)
    }
}

impl std::ops::Sub for CardSet {
    type Output = CardSet;
    fn sub(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 & !rhs.0)
    }
}

impl std::ops::SubAssign for CardSet {
    fn sub_assign(&mut self, rhs: CardSet) {
        self.0 &= !rhs.0;
    }
}

/// The plain cards not in the set: the complement within the standard deck, never a joker
/// (a game with jokers takes its complement from its own deck).
impl std::ops::Not for CardSet {
    type Output = CardSet;
    fn not(self) -> CardSet {
        CardSet(!self.0 & Self::FULL.0)
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut set = CardSet::EMPTY;
        for card in iter {
            set.insert(card);
        }
        set
    }
}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

/// Iterates a [`CardSet`] from the lowest index up.
#[derive(Clone)]
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Card(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_compact(true))
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CardSet({})", self.to_compact(true))
    }
}

/// On the wire a set is a list of card strings, lowest first: `["2C", "QS"]`.
impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let cards = Vec::<Card>::deserialize(d)?;
        CardSet::try_from_cards(&cards).map_err(serde::de::Error::custom)
    }
}

impl schemars::JsonSchema for Card {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Card".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "A card: a rank (2-9, T or 10, J, Q, K, A) then a suit (C, D, H, S), or LJ / BJ for the little / big joker, in either case, e.g. \"QS\", \"TD\", \"10h\", \"BJ\". The server always writes two capitals with T for ten.",
            "pattern": "^(?:(?:10|[2-9TJQKAtjqka])[CDHScdhs]|[LBlb][Jj])$"
        })
    }
}

impl schemars::JsonSchema for CardSet {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Cards".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "array",
            "description": "A set of distinct cards, lowest first (clubs, diamonds, hearts, spades; 2 to A; then the little and the big joker).",
            "items": generator.subschema_for::<Card>(),
            "uniqueItems": true
        })
    }
}

impl schemars::JsonSchema for Suit {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Suit".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "enum": ["C", "D", "H", "S"] })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn the_one_card_syntax_is_a_rank_then_a_suit_in_either_case() {
        assert_eq!(card("QS"), Card::QUEEN_OF_SPADES);
        assert_eq!(card("qs"), Card::QUEEN_OF_SPADES);
        assert_eq!(card("2C"), Card::TWO_OF_CLUBS);
        assert_eq!(card("TH"), card("10H"));
        assert_eq!(card("10h"), card("th"));
        assert_eq!(card("10h").to_string(), "TH", "written back canonically");
        let rank = |c: u8| b"23456789TJQKA".contains(&c.to_ascii_uppercase());
        let suit = |c: u8| b"CDHS".contains(&c.to_ascii_uppercase());
        let joker = |a: u8, b: u8| b"LB".contains(&a.to_ascii_uppercase()) && b"Jj".contains(&b);
        // Every two- and three-character ASCII string parses exactly when it matches
        // ^(?:(?:10|[2-9TJQKAtjqka])[CDHScdhs]|[LBlb][Jj])$.
        for a in 32u8..127 {
            for b in 32u8..127 {
                let t = String::from_utf8(vec![a, b]).unwrap();
                let ok = (rank(a) && suit(b)) || joker(a, b);
                assert_eq!(t.parse::<Card>().is_ok(), ok, "{t:?}");
                for c in [b'C', b'h', b'X', b' ', b'0'] {
                    let t = String::from_utf8(vec![a, b, c]).unwrap();
                    let ok = a == b'1' && b == b'0' && suit(c);
                    assert_eq!(t.parse::<Card>().is_ok(), ok, "{t:?}");
                }
            }
        }
    }

    #[test]
    fn the_jokers_are_spades_above_the_ace_written_lj_and_bj() {
        assert_eq!(card("LJ"), Card::LITTLE_JOKER);
        assert_eq!(card("bj"), Card::BIG_JOKER);
        assert_eq!(Card::BIG_JOKER.to_string(), "BJ");
        assert_eq!(Card::LITTLE_JOKER.name(), "little joker");
        assert_eq!(card("AS").name(), "ace of spades");
        for joker in [Card::LITTLE_JOKER, Card::BIG_JOKER] {
            assert!(joker.is_joker());
            assert_eq!(joker.suit(), Suit::Spades);
            assert!(CardSet::suit(Suit::Spades).contains(joker));
            assert_eq!(joker.suit_set(), CardSet::suit(Suit::Spades));
            assert!(joker.rank() > Rank::ACE && joker.index() > card("AS").index());
        }
        assert!(Card::BIG_JOKER.rank() > Card::LITTLE_JOKER.rank());
        assert!(!card("AS").is_joker());
        assert!(!CardSet::FULL.contains(Card::BIG_JOKER));
        assert_eq!(CardSet::EVERY.len(), 54);
        let json = serde_json::to_string(&CardSet::parse_compact("As LJ BJ").unwrap()).unwrap();
        assert_eq!(json, r#"["AS","LJ","BJ"]"#);
        let hand = CardSet::parse_compact("3c bj 2s lj").unwrap();
        assert_eq!(hand.to_compact(false), "3♣ 2♠ LJ BJ");
        assert_eq!(
            CardSet::parse_compact("Lx"),
            Err(CardParseError::BadChar('L'))
        );
        assert_eq!(
            CardSet::parse_compact("LJ lj"),
            Err(CardParseError::Duplicate(Card::LITTLE_JOKER))
        );
    }

    #[test]
    fn refuses_other_spellings_with_the_rule_in_the_message() {
        for bad in [
            "", "Q", "QX", "1H", "11H", "QSS", "floober", "0h", "Q♠", " QS", "QS ", "010H", "JJ",
            "LJJ", "J",
        ] {
            let err = bad.parse::<Card>().unwrap_err().to_string();
            assert!(err.contains("is not a card"), "{bad}: {err}");
            assert!(err.contains("like QS, TD or 10H"), "{bad}: {err}");
        }
    }

    #[test]
    fn compact_notation_round_trips_in_the_seed_order() {
        let hand = CardSet::parse_compact("467QA♣ 2K♦").unwrap();
        assert_eq!(hand.len(), 7);
        assert_eq!(hand.to_compact(false), "467QA♣ 2K♦");
        assert_eq!(hand.to_compact(true), "467QAc 2Kd");
        let mixed = CardSet::parse_compact("2h 3s 10c 0d").unwrap();
        assert_eq!(mixed.to_compact(true), "Tc Td 3s 2h");
        assert_eq!(CardSet::parse_compact("4 6 7 c").unwrap().len(), 3);
    }

    #[test]
    fn compact_notation_errors() {
        assert_eq!(
            CardSet::parse_compact("45"),
            Err(CardParseError::MissingSuit("45".into()))
        );
        assert_eq!(
            CardSet::parse_compact("4x"),
            Err(CardParseError::BadChar('x'))
        );
        assert_eq!(
            CardSet::parse_compact("44c"),
            Err(CardParseError::Duplicate(card("4C")))
        );
    }

    #[test]
    fn set_operations() {
        let hand = CardSet::parse_compact("2QAc 5h").unwrap();
        assert_eq!(hand.of_suit(Suit::Clubs).len(), 3);
        assert_eq!(hand.of_suit(Suit::Clubs).highest(), Some(card("AC")));
        assert_eq!(hand.lowest(), Some(card("2C")));
        assert_eq!(hand.nth(3), Some(card("5H")));
        assert_eq!(hand.nth(4), None);
        assert!(!hand.has_suit(Suit::Spades));
        assert_eq!((!hand).len(), 48);
    }

    #[test]
    fn json_is_ascii_strings() {
        let set = CardSet::parse_compact("Tc Qs").unwrap();
        assert_eq!(serde_json::to_string(&set).unwrap(), r#"["TC","QS"]"#);
        let back: CardSet = serde_json::from_str(r#"["QS","TC"]"#).unwrap();
        assert_eq!(back, set);
        assert!(serde_json::from_str::<CardSet>(r#"["QS","QS"]"#).is_err());
        let lenient: CardSet = serde_json::from_str(r#"["qs","10C"]"#).unwrap();
        assert_eq!(lenient, set);
        assert!(serde_json::from_str::<CardSet>(r#"["Q♠"]"#).is_err());
        assert!(serde_json::from_str::<Suit>(r#""S""#).is_ok());
        assert!(serde_json::from_str::<Suit>(r#""s""#).is_ok());
        assert!(serde_json::from_str::<Suit>(r#""X""#).is_err());
    }

    proptest! {
        #[test]
        fn display_parse_round_trip(i in 0u8..CARD_INDICES) {
            let c = Card::from_index(i);
            prop_assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
            prop_assert_eq!(c.to_string().to_lowercase().parse::<Card>().unwrap(), c);
        }

        #[test]
        fn nth_is_the_nth_card_in_index_order(bits in any::<u64>(), n in 0u32..60) {
            let set = CardSet::from_bits(bits);
            prop_assert_eq!(set.nth(n), set.iter().nth(n as usize));
        }

        #[test]
        fn select_is_the_nth_card_at_every_position_of_the_set(bits in any::<u64>()) {
            let set = CardSet::from_bits(bits);
            for (n, card) in set.iter().enumerate() {
                prop_assert_eq!(set.select(n as u32), card);
            }
        }

        #[test]
        fn suit_and_rank_tables_agree_with_the_index(i in 0u8..52) {
            let c = Card::from_index(i);
            prop_assert_eq!(c.suit() as u8, i / 13);
            prop_assert_eq!(c.rank().index(), i % 13);
            prop_assert_eq!(c.suit_set(), CardSet::suit(c.suit()));
        }

        #[test]
        fn compact_round_trip(bits in any::<u64>(), ascii in any::<bool>()) {
            let set = CardSet::from_bits(bits);
            prop_assert_eq!(CardSet::parse_compact(&set.to_compact(ascii)).unwrap(), set);
        }
    }
}
