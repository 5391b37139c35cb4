//! One trick: who led, what was played in order, and who is winning it.
//!
//! [`Trick`] is the trick on the table; [`Plays`] is a finished one as a hand's history keeps
//! it, and [`CompletedTrick`] the same as players see it. The cards sit inline in a small
//! array ([`TrickCards`]), so playing and keeping tricks never allocates.

use std::fmt;
use std::hint::select_unpredictable;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::trumps::Trumps;
use crate::card::{Card, CardSet, Suit};
use crate::seat::{MAX_SEATS, Seat, SeatSet};

/// A finished trick as the hand's history keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plays {
    leader: Seat,
    cards: TrickCards,
    winner: Seat,
}

impl Plays {
    /// Who led the trick.
    #[must_use]
    pub fn leader(self) -> Seat {
        self.leader
    }

    /// How many cards were played.
    #[must_use]
    pub fn len(self) -> usize {
        self.cards.len()
    }

    /// True for a trick without a card (never kept in a hand's history).
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.cards.is_empty()
    }

    /// The cards in play order.
    #[must_use]
    pub fn cards(self) -> TrickCards {
        self.cards
    }

    /// Who took the trick.
    #[must_use]
    pub fn winner(self) -> Seat {
        self.winner
    }
}

/// A trick's cards in play order, held inline: it derefs to the slice. Two are equal when
/// their cards are: what lies past the last card is not compared.
#[derive(Clone, Copy)]
pub struct TrickCards {
    cards: [Card; MAX_SEATS],
    len: u8,
}

impl TrickCards {
    /// No cards.
    const EMPTY: TrickCards = TrickCards {
        cards: [Card::TWO_OF_CLUBS; MAX_SEATS],
        len: 0,
    };

    /// The cards of `cards` (at most [`MAX_SEATS`]: one a seat).
    ///
    /// # Panics
    /// When given more cards than a trick holds.
    #[must_use]
    pub fn from_slice(cards: &[Card]) -> TrickCards {
        cards.iter().copied().collect()
    }

    /// How many cards. Read from the count rather than through the slice, which would test
    /// the count against the array's size first: a trick's length is asked on every card.
    #[must_use]
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// True before the first card.
    #[must_use]
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds a card after the others.
    ///
    /// # Panics
    /// When the trick already holds a card a seat.
    #[inline]
    fn push(&mut self, card: Card) {
        let len = usize::from(self.len);
        assert!(len < MAX_SEATS, "a trick holds at most {MAX_SEATS} cards");
        self.cards[len] = card;
        self.len += 1;
    }
}

impl FromIterator<Card> for TrickCards {
    /// # Panics
    /// When given more cards than a trick holds.
    fn from_iter<I: IntoIterator<Item = Card>>(cards: I) -> TrickCards {
        let mut held = TrickCards::EMPTY;
        for card in cards {
            held.push(card);
        }
        held
    }
}

impl PartialEq for TrickCards {
    fn eq(&self, other: &TrickCards) -> bool {
        **self == **other
    }
}

impl Eq for TrickCards {}

/// Written as the list of its cards.
impl Serialize for TrickCards {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(serializer)
    }
}

/// Read from a list of at most [`MAX_SEATS`] cards.
impl<'de> Deserialize<'de> for TrickCards {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<TrickCards, D::Error> {
        let cards = Vec::<Card>::deserialize(deserializer)?;
        if cards.len() > MAX_SEATS {
            return Err(serde::de::Error::invalid_length(
                cards.len(),
                &"at most one card a seat",
            ));
        }
        Ok(TrickCards::from_slice(&cards))
    }
}

/// The schema of a list of cards.
impl JsonSchema for TrickCards {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        <Vec<Card>>::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Vec<Card>>::json_schema(generator)
    }
}

impl std::ops::Deref for TrickCards {
    type Target = [Card];
    fn deref(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }
}

impl fmt::Debug for TrickCards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

/// A trick in progress. The winner is kept up to date as cards arrive, so ending a trick needs
/// no second look at its cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trick {
    /// Who leads (or led) it.
    leader: Seat,
    /// The cards in play order.
    cards: TrickCards,
    /// Every card of the led suit (empty before the lead): what a follower must match.
    led: CardSet,
    /// The cards played so far, as a set.
    set: CardSet,
    /// Who played the winning card (the leader before the lead).
    winner: Seat,
    /// The winning card (meaningless before the lead).
    best: Card,
}

impl Trick {
    /// An empty trick that `leader` will lead.
    #[must_use]
    pub fn new(leader: Seat) -> Trick {
        Trick {
            leader,
            cards: TrickCards::EMPTY,
            led: CardSet::EMPTY,
            set: CardSet::EMPTY,
            winner: leader,
            best: Card::TWO_OF_CLUBS,
        }
    }

    /// Empties the trick for `leader`.
    pub fn restart(&mut self, leader: Seat) {
        *self = Trick::new(leader);
    }

    /// The finished trick as the hand's history keeps it, taken by `winner`.
    #[must_use]
    pub fn record(&self, winner: Seat) -> Plays {
        Plays {
            leader: self.leader,
            cards: self.cards,
            winner,
        }
    }

    /// Who leads (or led) this trick.
    #[must_use]
    pub fn leader(&self) -> Seat {
        self.leader
    }

    /// How many cards have been played to it.
    #[must_use]
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// True before the lead.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// The suit led, once a card is down.
    #[must_use]
    pub fn led_suit(&self) -> Option<Suit> {
        self.cards.first().map(|card| card.suit())
    }

    /// Every card of the led suit; empty before the lead.
    #[must_use]
    pub fn led_cards(&self) -> CardSet {
        self.led
    }

    /// The cards in play order.
    #[must_use]
    pub fn cards(&self) -> TrickCards {
        self.cards
    }

    /// The cards as a set.
    #[must_use]
    pub fn card_set(&self) -> CardSet {
        self.set
    }

    /// The plays in order, with who played each, at a table of `n` where the seats of `out`
    /// sit this hand out.
    pub fn plays(&self, n: u8, out: SeatSet) -> impl Iterator<Item = (Seat, Card)> + use<> {
        let cards = self.cards;
        let mut seat = self.leader;
        (0..cards.len()).map(move |i| {
            let played = seat;
            seat = out.next_outside(played, n);
            (played, cards[i])
        })
    }

    /// The seat whose card is winning so far (the leader before the lead).
    #[must_use]
    pub fn winner(&self) -> Seat {
        self.winner
    }

    /// The card that is winning so far.
    #[must_use]
    pub fn winning_card(&self) -> Option<Card> {
        (!self.is_empty()).then_some(self.best)
    }

    /// Adds `seat`'s card (cards come in turn from the leader) and returns who is winning now.
    /// Inline: it runs for every card, and the engine's callers are many enough that the
    /// compiler would otherwise keep it a call.
    #[inline]
    pub fn push(&mut self, seat: Seat, card: Card, trumps: Trumps) -> Seat {
        let lead = self.is_empty();
        if lead {
            self.led = trumps.suit_cards(card);
        }
        // Whether a card takes the trick is a coin toss in random play: select, not branch.
        let takes = lead | trumps.beats(card, self.best);
        self.winner = select_unpredictable(takes, seat, self.winner);
        self.best = select_unpredictable(takes, card, self.best);
        self.cards.push(card);
        self.set.insert(card);
        self.winner
    }
}

/// A finished trick as every player saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CompletedTrick {
    /// Who led.
    pub leader: Seat,
    /// The cards in play order, the leader's first.
    pub cards: TrickCards,
    /// Who took it.
    pub winner: Seat,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finished trick's cards are written and read as a list of cards; a list longer than a
    /// trick is refused, not cut; and two lists of the same cards are equal whatever lies past
    /// their last card.
    #[test]
    fn a_trick_s_cards_are_a_list_of_cards_in_json() {
        let cards: Vec<Card> = ["QS", "2H", "AS", "TC"]
            .iter()
            .map(|c| c.parse().unwrap())
            .collect();
        let trick = CompletedTrick {
            leader: Seat(3),
            cards: cards.iter().copied().collect(),
            winner: Seat(1),
        };
        assert_eq!(
            serde_json::to_value(&trick).unwrap(),
            serde_json::json!({"leader": 3, "cards": cards, "winner": 1})
        );
        let json = serde_json::to_string(&trick).unwrap();
        let back: CompletedTrick = serde_json::from_str(&json).unwrap();
        assert_eq!(back, trick);
        // Cards left past the last one do not count.
        let mut longer: TrickCards = cards
            .iter()
            .copied()
            .chain([Card::from_index(51)])
            .collect();
        longer.len -= 1;
        assert_eq!(longer, trick.cards);
        assert_eq!(&*back.cards, &cards[..]);
        let eight = r#"{"leader":0,"cards":["2C","3C","4C","5C","6C","7C","8C","9C"],"winner":0}"#;
        let err = serde_json::from_str::<CompletedTrick>(eight).unwrap_err();
        assert!(err.to_string().contains("invalid length 8"), "{err}");
    }

    fn play(cards: &[&str], trump: Option<Suit>) -> Seat {
        let mut trick = Trick::new(Seat(1));
        for (i, c) in cards.iter().enumerate() {
            trick.push(
                Seat(1).left(i as u8, 4),
                c.parse().unwrap(),
                Trumps::plain(trump),
            );
        }
        trick.winner()
    }

    #[test]
    fn highest_of_the_led_suit_wins_without_trump() {
        assert_eq!(play(&["6C", "AD", "AH", "KD"], None), Seat(1));
        assert_eq!(play(&["6C", "7C", "AH", "KC"], None), Seat(0));
    }

    #[test]
    fn a_finished_trick_keeps_its_leader_cards_and_winner() {
        let mut trick = Trick::new(Seat(3));
        let cards: Vec<Card> = ["6C", "AC", "AH", "KC", "QS"]
            .iter()
            .map(|c| c.parse().unwrap())
            .collect();
        for (i, card) in cards.iter().enumerate() {
            trick.push(Seat(3).left(i as u8, 5), *card, Trumps::NONE);
        }
        assert_eq!(trick.winner(), Seat(4));
        assert_eq!(trick.winning_card(), Some(cards[1]));
        let record = trick.record(trick.winner());
        assert_eq!(record.leader(), Seat(3));
        assert_eq!(&*record.cards(), &cards[..]);
        assert_eq!(record.winner(), Seat(4));
        assert_eq!(&*trick.cards(), &cards[..]);
        trick.restart(Seat(4));
        assert!(trick.is_empty());
        assert_eq!(trick.winner(), Seat(4));
        assert_eq!(trick, Trick::new(Seat(4)));
    }

    /// Seven seats (Oh Hell's largest table): a trick holds seven cards.
    #[test]
    fn a_trick_of_seven_cards_keeps_every_card_and_its_seats() {
        let mut trick = Trick::new(Seat(6));
        let cards: Vec<Card> = ["6C", "AC", "AH", "KC", "QS", "2D", "3C"]
            .iter()
            .map(|c| c.parse().unwrap())
            .collect();
        for (i, card) in cards.iter().enumerate() {
            trick.push(
                Seat(6).left(i as u8, 7),
                *card,
                Trumps::plain(Some(Suit::Diamonds)),
            );
        }
        assert_eq!(trick.winner(), Seat(4), "the two of diamonds trumps");
        let record = trick.record(trick.winner());
        assert_eq!(record.leader(), Seat(6));
        assert_eq!(record.len(), 7);
        assert_eq!(&*record.cards(), &cards[..]);
        assert_eq!(record.winner(), Seat(4));
    }

    #[test]
    fn the_highest_trump_wins() {
        // The Whist seed's own example: spades trump, a two of spades takes the trick.
        assert_eq!(play(&["6C", "AD", "AH", "2S"], Some(Suit::Spades)), Seat(0));
        assert_eq!(play(&["6C", "3S", "AH", "2S"], Some(Suit::Spades)), Seat(2));
        assert_eq!(play(&["6S", "3S", "AC", "2S"], Some(Suit::Spades)), Seat(1));
    }
}
