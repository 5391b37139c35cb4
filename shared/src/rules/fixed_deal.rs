//! A fixed deal: four hands of thirteen cards chosen by a person (a board read from PBN)
//! instead of shuffled, so a practice table replays a known board. On the wire and in stored
//! options it is PBN's `Deal` tag value (`N:AKQ2.T93.J4.A85 ...`), North first.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

use crate::bridge::pbn::{self, PbnError};
use crate::card::{Card, CardSet};
use crate::deck::DealOrder;
use crate::seat::{PerSeat, Seat};

/// Seats of a fixed deal (Bridge's).
const SEATS: u8 = 4;
/// Cards in each hand.
const HAND: u32 = 13;

/// The four hands of a deal fixed in advance, by seat (seat 0 is North).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FixedDeal([CardSet; SEATS as usize]);

/// Why four hands are not a deal of the standard deck.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DealError {
    /// Not four hands.
    #[error("a deal has four hands, not {0}")]
    NotFourHands(u8),
    /// A hand of the wrong size.
    #[error("seat {seat}'s hand holds {cards} cards, not thirteen")]
    NotThirteen {
        /// The seat, from 0 (North).
        seat: u8,
        /// How many cards it holds.
        cards: u32,
    },
    /// A card dealt to two seats.
    #[error("{0} is in two hands: a deal is 52 distinct cards")]
    Repeated(Card),
    /// A card outside the 52 of the standard deck (a joker).
    #[error("{0} is not a card of the standard 52-card deck")]
    NotInDeck(Card),
    /// The text is not a PBN `Deal` value.
    #[error(transparent)]
    Pbn(#[from] PbnError),
}

impl FixedDeal {
    /// The deal of these hands, by seat: four of thirteen cards, the 52 cards of the deck.
    pub fn new(hands: &PerSeat<CardSet>) -> Result<FixedDeal, DealError> {
        if hands.len() != usize::from(SEATS) {
            return Err(DealError::NotFourHands(hands.len() as u8));
        }
        let mut seen = CardSet::EMPTY;
        let mut out = [CardSet::EMPTY; SEATS as usize];
        for seat in Seat::all(SEATS) {
            let hand = hands[seat];
            if let Some(card) = hand.iter().find(|c| !CardSet::FULL.contains(*c)) {
                return Err(DealError::NotInDeck(card));
            }
            if let Some(card) = hand.iter().find(|c| seen.contains(*c)) {
                return Err(DealError::Repeated(card));
            }
            if hand.len() != HAND {
                return Err(DealError::NotThirteen {
                    seat: seat.0,
                    cards: hand.len(),
                });
            }
            seen |= hand;
            out[seat.index()] = hand;
        }
        Ok(FixedDeal(out))
    }

    /// The hands by seat.
    #[must_use]
    pub fn hands(&self) -> PerSeat<CardSet> {
        PerSeat::from_slice(&self.0)
    }

    /// The hand of `seat`.
    #[must_use]
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.0[seat.index()]
    }

    /// The deck in the order that, dealt one card at a time from `dealer`'s left, gives each
    /// seat its hand: so the engine deals a fixed deal as it deals any stacked deck.
    #[must_use]
    pub fn deal_order(&self, dealer: Seat) -> DealOrder {
        let first = dealer.next(SEATS);
        let by_turn: Vec<Vec<Card>> = (0..SEATS)
            .map(|k| self.hand(first.left(k, SEATS)).iter().collect())
            .collect();
        let cards: Vec<Card> = (0..HAND as usize)
            .flat_map(|round| by_turn.iter().map(move |hand| hand[round]))
            .collect();
        DealOrder::from_slice(&cards)
    }
}

impl fmt::Display for FixedDeal {
    /// PBN's `Deal` tag value, North first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&pbn::format_deal(&self.hands(), Seat(0)))
    }
}

impl FromStr for FixedDeal {
    type Err = DealError;
    fn from_str(text: &str) -> Result<FixedDeal, DealError> {
        FixedDeal::new(&pbn::parse_deal(text)?)
    }
}

impl Serialize for FixedDeal {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for FixedDeal {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl schemars::JsonSchema for FixedDeal {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "FixedDeal".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "Four hands as PBN's Deal tag writes them: the first hand's compass letter (N, E, S or W) and a colon, then the hands clockwise from it separated by spaces, each as spades.hearts.diamonds.clubs with ranks from the ace down (T for ten), e.g. \"N:AKJ9742.A2.73.K6 3.T763.T652.A972 86.K854.AQ9.T843 QT5.QJ9.KJ84.QJ5\". Thirteen cards each, the 52 cards of the deck. The server writes it from North.",
            "pattern": "^\\s*[NESWnesw]:"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEAL: &str = "N:AKJ9742.A2.73.K6 3.T763.T652.A972 86.K854.AQ9.T843 QT5.QJ9.KJ84.QJ5";

    #[test]
    fn the_deal_round_trips_as_pbn_from_north() {
        let deal: FixedDeal = DEAL.parse().unwrap();
        assert_eq!(deal.to_string(), DEAL);
        let json = serde_json::to_string(&deal).unwrap();
        assert_eq!(json, format!("\"{DEAL}\""));
        let from_west = "W:QT5.QJ9.KJ84.QJ5 AKJ9742.A2.73.K6 3.T763.T652.A972 86.K854.AQ9.T843";
        assert_eq!(from_west.parse::<FixedDeal>().unwrap(), deal);
    }

    #[test]
    fn the_deal_order_gives_each_seat_its_hand_whoever_deals() {
        let deal: FixedDeal = DEAL.parse().unwrap();
        for dealer in Seat::all(4) {
            let order = deal.deal_order(dealer);
            let mut hands = [CardSet::EMPTY; 4];
            for (i, card) in order.iter().enumerate() {
                hands[dealer.next(4).left((i % 4) as u8, 4).index()].insert(*card);
            }
            assert_eq!(hands, deal.0, "dealer {dealer}");
        }
    }

    #[test]
    fn hands_that_are_not_a_deal_are_refused() {
        let deal: FixedDeal = DEAL.parse().unwrap();
        let mut hands = deal.hands();
        let moved = hands[Seat(1)].iter().next().unwrap();
        hands[Seat(1)].remove(moved);
        assert_eq!(
            FixedDeal::new(&hands),
            Err(DealError::NotThirteen { seat: 1, cards: 12 })
        );
        let repeated = hands[Seat(0)].iter().next().unwrap();
        hands[Seat(1)].insert(repeated);
        assert_eq!(FixedDeal::new(&hands), Err(DealError::Repeated(repeated)));
        let mut jokers = deal.hands();
        let joker = CardSet::JOKERS.lowest().unwrap();
        jokers[Seat(2)].insert(joker);
        assert_eq!(FixedDeal::new(&jokers), Err(DealError::NotInDeck(joker)));
        let three = PerSeat::from_slice(&deal.0[..3]);
        assert_eq!(FixedDeal::new(&three), Err(DealError::NotFourHands(3)));
        let err = "N:AKJ9742.A2.73.K6 3.T763.T652.A972"
            .parse::<FixedDeal>()
            .unwrap_err();
        assert!(err.to_string().contains("four hands"), "{err}");
        let err = serde_json::from_str::<FixedDeal>(
            "\"N:AKJ9742.A2.73.K6 3.T763.T652.A972 86.K854.AQ9.T843 QT5.QJ9.KJ84.QJ6\"",
        )
        .unwrap_err();
        assert!(err.to_string().contains("appears twice"), "{err}");
    }
}
