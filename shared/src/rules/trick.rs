//! One trick: who led, what was played in order, and who is winning it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::card::{Card, CardSet, Suit};
use crate::seat::{MAX_SEATS, Seat};

/// A trick in progress. The winner is kept up to date as cards arrive, so ending a trick is free.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trick {
    leader: Seat,
    cards: [Card; MAX_SEATS],
    len: u8,
    winning: u8,
    /// Every card of the led suit (empty before the lead): what a follower must match.
    led: CardSet,
    /// The cards played so far, as a set.
    set: CardSet,
}

impl Trick {
    /// An empty trick that `leader` will lead.
    #[must_use]
    pub fn new(leader: Seat) -> Trick {
        Trick {
            leader,
            cards: [Card::TWO_OF_CLUBS; MAX_SEATS],
            len: 0,
            winning: 0,
            led: CardSet::EMPTY,
            set: CardSet::EMPTY,
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
        self.len as usize
    }

    /// True before the lead.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The suit led, once a card is down.
    #[must_use]
    pub fn led_suit(&self) -> Option<Suit> {
        (self.len > 0).then(|| self.cards[0].suit())
    }

    /// Every card of the led suit; empty before the lead.
    #[must_use]
    #[inline]
    pub fn led_cards(&self) -> CardSet {
        self.led
    }

    /// The cards in play order.
    #[must_use]
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len()]
    }

    /// The cards as a set.
    #[must_use]
    #[inline]
    pub fn card_set(&self) -> CardSet {
        self.set
    }

    /// The plays in order, with who played each, at a table of `n`.
    pub fn plays(&self, n: u8) -> impl Iterator<Item = (Seat, Card)> + '_ {
        self.cards()
            .iter()
            .enumerate()
            .map(move |(i, &c)| (self.leader.left(i as u8, n), c))
    }

    /// The seat whose card is winning so far, at a table of `n`.
    #[must_use]
    pub fn winner(&self, n: u8) -> Seat {
        self.leader.left(self.winning, n)
    }

    /// The card that is winning so far.
    #[must_use]
    pub fn winning_card(&self) -> Option<Card> {
        (self.len > 0).then(|| self.cards[self.winning as usize])
    }

    /// Adds the next card; a trump beats every non-trump, otherwise only a higher card of the
    /// suit of the winning card takes over.
    #[inline]
    pub fn push(&mut self, card: Card, trump: Option<Suit>) {
        let len = self.len as usize;
        if len == 0 {
            self.led = card.suit_set();
        } else {
            let best = self.cards[self.winning as usize];
            // Within one suit, card indices are in rank order. Plain `&`/`|` on the booleans
            // and a select keep random play free of unpredictable branches.
            let same = card.suit() == best.suit();
            let higher = card.index() > best.index();
            let trumps = Some(card.suit()) == trump;
            let beats = (same & higher) | (!same & trumps);
            self.winning = if beats { self.len } else { self.winning };
        }
        self.cards[len] = card;
        self.set.insert(card);
        self.len += 1;
    }
}

/// A finished trick as every player saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CompletedTrick {
    /// Who led.
    pub leader: Seat,
    /// The cards in play order, the leader's first.
    pub cards: Vec<Card>,
    /// Who took it.
    pub winner: Seat,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(cards: &[&str], trump: Option<Suit>) -> Seat {
        let mut trick = Trick::new(Seat(1));
        for c in cards {
            trick.push(c.parse().unwrap(), trump);
        }
        trick.winner(4)
    }

    #[test]
    fn highest_of_the_led_suit_wins_without_trump() {
        assert_eq!(play(&["6C", "AD", "AH", "KD"], None), Seat(1));
        assert_eq!(play(&["6C", "7C", "AH", "KC"], None), Seat(0));
    }

    #[test]
    fn the_highest_trump_wins() {
        // The Whist seed's own example: spades trump, a two of spades takes the trick.
        assert_eq!(play(&["6C", "AD", "AH", "2S"], Some(Suit::Spades)), Seat(0));
        assert_eq!(play(&["6C", "3S", "AH", "2S"], Some(Suit::Spades)), Seat(2));
        assert_eq!(play(&["6S", "3S", "AC", "2S"], Some(Suit::Spades)), Seat(1));
    }
}
