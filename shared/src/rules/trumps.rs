//! What trump is this hand: a suit, and in games with bowers (Euchre) the two jacks that
//! change rank and suit.
//!
//! Without bowers a card plays as its own suit and rank, so the trick's hot path stays the
//! plain comparison of [`Trumps::beats`]; with them, the jack of trump (right bower) is the
//! highest trump and the jack of the same colour (left bower) the second, a trump for
//! following suit too.

use crate::card::{Card, CardSet, Rank, Suit};

/// This hand's trump suit, and its left bower where the game plays bowers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Trumps {
    suit: Option<Suit>,
    left_bower: Option<Card>,
}

impl Trumps {
    /// No trump.
    pub const NONE: Trumps = Trumps {
        suit: None,
        left_bower: None,
    };

    /// `suit` is trump (or none is), every card keeping its own rank.
    #[must_use]
    pub const fn plain(suit: Option<Suit>) -> Trumps {
        Trumps {
            suit,
            left_bower: None,
        }
    }

    /// `suit` is trump with its bowers: its jack is the highest trump and the jack of the same
    /// colour the second.
    #[must_use]
    pub fn with_bowers(suit: Suit) -> Trumps {
        Trumps {
            suit: Some(suit),
            left_bower: Some(Card::new(Rank::JACK, same_colour(suit))),
        }
    }

    /// The trump suit, if any.
    #[must_use]
    pub const fn suit(self) -> Option<Suit> {
        self.suit
    }

    /// The left bower, in a game with bowers once trump is made.
    #[must_use]
    pub const fn left_bower(self) -> Option<Card> {
        self.left_bower
    }

    /// The suit `card` plays as: trump for the left bower, else its own.
    #[must_use]
    pub fn suit_of(self, card: Card) -> Suit {
        match (self.left_bower, self.suit) {
            (Some(left), Some(trump)) if left == card => trump,
            _ => card.suit(),
        }
    }

    /// Every card that plays as `suit`: a follower of a trick led in it must play one of these.
    #[must_use]
    pub fn cards_of(self, suit: Suit) -> CardSet {
        let own = CardSet::suit(suit);
        match (self.left_bower, self.suit) {
            (Some(left), Some(trump)) if trump == suit => own | CardSet::single(left),
            (Some(left), _) => own - CardSet::single(left),
            _ => own,
        }
    }

    /// Every card of the suit `card` plays as.
    #[must_use]
    #[inline]
    pub fn suit_cards(self, card: Card) -> CardSet {
        if self.left_bower.is_none() {
            return card.suit_set();
        }
        self.cards_of(self.suit_of(card))
    }

    /// Whether `card` beats `best`, the card winning a trick so far: a higher card of its
    /// suit, or a trump over a non-trump. Plain `&` and `|` rather than `if`: in random play
    /// whether a card beats is a coin toss, and a branch on it would often guess wrong.
    #[must_use]
    #[inline]
    pub fn beats(self, card: Card, best: Card) -> bool {
        if self.left_bower.is_some() {
            return self.beats_with_bowers(card, best);
        }
        let same = card.suit() == best.suit();
        (same & (card.index() > best.index())) | (!same & (Some(card.suit()) == self.suit))
    }

    fn beats_with_bowers(self, card: Card, best: Card) -> bool {
        let (suit, best_suit) = (self.suit_of(card), self.suit_of(best));
        if suit == best_suit {
            self.strength(card) > self.strength(best)
        } else {
            Some(suit) == self.suit
        }
    }

    /// A card's order within the suit it plays as: the right bower above the left, both above
    /// the ace.
    fn strength(self, card: Card) -> u8 {
        let trump = self.suit.map(|s| Card::new(Rank::JACK, s));
        if Some(card) == trump {
            20
        } else if Some(card) == self.left_bower {
            19
        } else {
            card.rank().index()
        }
    }
}

/// The other suit of the same colour: clubs and spades, diamonds and hearts.
#[must_use]
pub fn same_colour(suit: Suit) -> Suit {
    match suit {
        Suit::Clubs => Suit::Spades,
        Suit::Spades => Suit::Clubs,
        Suit::Diamonds => Suit::Hearts,
        Suit::Hearts => Suit::Diamonds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    #[test]
    fn the_bowers_are_the_two_highest_trumps_and_the_left_follows_trump() {
        let hearts = Trumps::with_bowers(Suit::Hearts);
        assert_eq!(hearts.left_bower(), Some(card("JD")));
        assert_eq!(hearts.suit_of(card("JD")), Suit::Hearts);
        assert_eq!(hearts.suit_of(card("JC")), Suit::Clubs);
        assert!(hearts.beats(card("JH"), card("JD")), "right over left");
        assert!(hearts.beats(card("JD"), card("AH")), "left over the ace");
        assert!(!hearts.beats(card("AH"), card("JD")));
        assert!(
            hearts.beats(card("9H"), card("AD")),
            "a trump over a diamond"
        );
        assert!(
            hearts.beats(card("JD"), card("AS")),
            "the left bower trumps"
        );
        assert!(
            !hearts.beats(card("AD"), card("JD")),
            "the ace of diamonds is no trump"
        );
        assert!(hearts.beats(card("AD"), card("KD")));
        assert!(
            !hearts.beats(card("AC"), card("9D")),
            "off-suit does not win"
        );
        assert_eq!(
            hearts.cards_of(Suit::Hearts),
            CardSet::suit(Suit::Hearts) | CardSet::single(card("JD"))
        );
        assert_eq!(
            hearts.cards_of(Suit::Diamonds),
            CardSet::suit(Suit::Diamonds) - CardSet::single(card("JD"))
        );
        assert_eq!(hearts.cards_of(Suit::Clubs), CardSet::suit(Suit::Clubs));
        assert_eq!(hearts.suit_cards(card("JD")), hearts.cards_of(Suit::Hearts));
    }

    #[test]
    fn plain_trump_keeps_every_card_s_own_suit_and_rank() {
        let spades = Trumps::plain(Some(Suit::Spades));
        assert_eq!(spades.suit_of(card("JC")), Suit::Clubs);
        assert!(spades.beats(card("AS"), card("JS")));
        assert!(spades.beats(card("2S"), card("AH")));
        assert!(!spades.beats(card("2H"), card("3H")));
        assert_eq!(spades.cards_of(Suit::Clubs), CardSet::suit(Suit::Clubs));
        assert!(!Trumps::NONE.beats(card("AS"), card("2H")));
    }
}
