//! Fair deals anyone can check: each hand is dealt from a 32-byte secret that the server
//! commits to (its SHA-256 hash, sent when the hand starts) and reveals when the hand ends.
//!
//! The deal must be a short, documented function of the secret, so that a player can recompute
//! it without Parlor: docs/FAIRNESS.md spells it out byte by byte, and the Python SDK
//! reimplements it. This module is that recipe and nothing else: a hand's secret from the
//! match's master secret ([`hand_secret`]; [`practice_master`] at a practice table), the
//! commitment ([`commitment`]), the shuffled deck ([`deck_of`]) and the deal ([`deal_hand`]).
//! Pure: no I/O, no clock. Drawing a master secret is the server's job.

use std::fmt;

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

use crate::card::{Card, CardSet};
use crate::deck::{Deck, fisher_yates};
use crate::rules::{Rules, Variant};
use crate::seat::{PerSeat, Seat};

/// 32 bytes written as 64 lowercase hex digits: a deal secret or a commitment.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hash32(pub [u8; 32]);

impl Hash32 {
    /// The hex form.
    #[must_use]
    pub fn to_hex(&self) -> String {
        self.with_hex(str::to_string)
    }

    /// Hands the hex form to `f` from a buffer on the stack: a view carries its hand's
    /// commitment, so every prompt writes one, and `hex::encode` builds its `String` a
    /// character at a time.
    fn with_hex<T>(&self, f: impl FnOnce(&str) -> T) -> T {
        let mut digits = [0u8; 64];
        hex::encode_to_slice(self.0, &mut digits).expect("64 digits for 32 bytes");
        f(std::str::from_utf8(&digits).expect("hex digits are ASCII"))
    }

    /// Reads 64 hex digits.
    pub fn from_hex(text: &str) -> Result<Hash32, BadHex> {
        let mut bytes = [0u8; 32];
        hex::decode_to_slice(text.trim(), &mut bytes).map_err(|_| BadHex(text.to_string()))?;
        Ok(Hash32(bytes))
    }
}

/// Text that is not 64 hex digits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected 64 hex digits (32 bytes), got {0:?}")]
pub struct BadHex(pub String);

impl fmt::Debug for Hash32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Display for Hash32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl Serialize for Hash32 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.with_hex(|hex| s.serialize_str(hex))
    }
}

impl<'de> Deserialize<'de> for Hash32 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Hash32::from_hex(&text).map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for Hash32 {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Hash32".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "32 bytes as 64 lowercase hex digits.",
            "type": "string",
            "pattern": "^[0-9a-f]{64}$"
        })
    }
}

fn sha256(parts: &[&[u8]]) -> Hash32 {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part);
    }
    Hash32(hasher.finalize().into())
}

/// The secret hand `hand` (from 0 within its match) is dealt from.
#[must_use]
pub fn hand_secret(master: &Hash32, hand: u32) -> Hash32 {
    sha256(&[b"parlor hand v1", &master.0, &hand.to_be_bytes()])
}

/// What the server publishes at a hand's start: the SHA-256 hash of its secret.
#[must_use]
pub fn commitment(secret: &Hash32) -> Hash32 {
    sha256(&[&secret.0])
}

/// The master secret of a practice table's match whose seed is `seed` (the creator's seed,
/// plus one per match already played there). Anyone who knows the seed knows every deal.
#[must_use]
pub fn practice_master(seed: u64) -> Hash32 {
    sha256(&[b"parlor practice v1", &seed.to_be_bytes()])
}

/// Which of a seat's decisions in a match: its hand, whether it is choosing a pass, and how
/// many cards it holds (one fewer after each card it plays). It names the decision by the
/// game alone, not by when other seats acted, so it is the same however moves interleave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The hand, from 0 within the match.
    pub hand: u32,
    /// True while choosing cards to pass.
    pub passing: bool,
    /// Cards the seat holds.
    pub held: u8,
}

/// The seed of a built-in bot's random choices for one decision: fixed by the match, the seat
/// and the decision, so a table rebuilt after a crash makes the same choices. One-way: it
/// reveals nothing of the deal secrets.
#[must_use]
pub fn bot_seed(master: &Hash32, seat: Seat, decision: Decision) -> u64 {
    let hash = sha256(&[
        b"parlor bot v1",
        &master.0,
        &[seat.0, u8::from(decision.passing), decision.held],
        &decision.hand.to_be_bytes(),
    ]);
    u64::from_le_bytes(hash.0[..8].try_into().expect("8 bytes"))
}

/// The shuffled deck of `secret`: Fisher-Yates over the ordered deck with the first 204 bytes
/// of the ChaCha20 keystream (key = the secret, nonce and counter 0), read as 51
/// little-endian 32-bit words.
#[must_use]
pub fn deck(secret: &Hash32) -> [Card; 52] {
    let mut bytes = [0u8; 51 * 4];
    ChaCha20Rng::from_seed(secret.0).fill_bytes(&mut bytes);
    fisher_yates(&bytes)
}

/// The shuffled `deck` of `secret`: Fisher-Yates over the deck's cards in index order with
/// the first `4 * (cards - 1)` bytes of the ChaCha20 keystream (key = the secret, nonce and
/// counter 0), read as little-endian 32-bit words. For the standard deck, exactly [`deck`].
#[must_use]
pub fn deck_of(secret: &Hash32, deck: Deck) -> Vec<Card> {
    let mut bytes = vec![0u8; deck.shuffle_bytes()];
    ChaCha20Rng::from_seed(secret.0).fill_bytes(&mut bytes);
    deck.shuffled(&bytes)
}

/// A deal: each seat's cards, the cards left over and the cards turned face up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    /// Each seat's hand.
    pub hands: PerSeat<CardSet>,
    /// Cards nobody was dealt (hearts5's pair, the rest of an Oh Hell deck).
    pub undealt: CardSet,
    /// Cards shown to everyone at the deal: hearts5's undealt pair, whist's last card (the
    /// dealer's, the deck's last), Oh Hell's first card after the deal; none in the other
    /// variants.
    pub face_up: CardSet,
}

/// Deals `deck` for `variant` when `dealer` deals: one card at a time, starting at the
/// dealer's left (the next seat) and going round, `hand_size` cards each. The variant's
/// default table and first hand: a game with other options or a later Oh Hell hand is dealt by
/// [`deal_hand`].
#[must_use]
pub fn deal(variant: Variant, dealer: Seat, deck: &[Card]) -> Deal {
    deal_hand(&Rules::standard(variant), 0, dealer, deck)
}

/// Deals `deck` for the hand numbered `hand` (from 0) of a game of `rules` when `dealer` deals:
/// one card at a time from the dealer's left, as many each as the rules deal in that hand
/// (never more than the deck holds).
#[must_use]
pub fn deal_hand(rules: &Rules, hand: u32, dealer: Seat, deck: &[Card]) -> Deal {
    let n = rules.players();
    let dealt = (usize::from(n) * rules.hand_size(hand) as usize).min(deck.len());
    let mut hands: PerSeat<CardSet> = PerSeat::new(n);
    let mut seat = dealer.next(n);
    for &card in &deck[..dealt] {
        hands[seat].insert(card);
        seat = seat.next(n);
    }
    let undealt: CardSet = deck[dealt..].iter().copied().collect();
    let face_up = match rules.variant {
        Variant::Hearts5 => undealt,
        Variant::Whist => deck.last().map_or(CardSet::EMPTY, |c| CardSet::single(*c)),
        Variant::OhHell => deck
            .get(dealt)
            .map_or(CardSet::EMPTY, |c| CardSet::single(*c)),
        _ => CardSet::EMPTY,
    };
    Deal {
        hands,
        undealt,
        face_up,
    }
}

/// The deal of one hand from its secret: [`deck`] then [`deal`].
#[must_use]
pub fn deal_of(variant: Variant, dealer: Seat, secret: &Hash32) -> Deal {
    deal(variant, dealer, &deck(secret))
}

/// The deal of the hand numbered `hand` of a game of `rules` from its secret: [`deck_of`]
/// the rules' deck, then [`deal_hand`].
#[must_use]
pub fn deal_hand_of(rules: &Rules, hand: u32, dealer: Seat, secret: &Hash32) -> Deal {
    deal_hand(rules, hand, dealer, &deck_of(secret, rules.deck()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Event, Game, Options};

    fn text(deck: [Card; 52]) -> String {
        deck.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The recipe must never change: players check old hands with it. This is the worked
    /// example in docs/FAIRNESS.md.
    #[test]
    fn the_recipe_is_pinned() {
        let master = practice_master(42);
        let secret = hand_secret(&master, 0);
        let pinned = (
            master.to_hex(),
            secret.to_hex(),
            commitment(&secret).to_hex(),
            text(deck(&secret)),
        );
        let expected = (
            String::from("255f9ceb251b102c7698f98ef4174281053199d5f844935e110c24bb6dfe7dd6"),
            String::from("9ae6f517b2eb2fb4db9c788cb718e046801743a40d7d3dc744def3ba91dcc548"),
            String::from("764e4e0460226d04e79d44dfc28fc9f41c22062cca520696b4035aace52db440"),
            String::from(
                "8H 4H 4S TC 7S 6C 2D 7H TD 5S QC 3C 5D JS 9C TH QH 5C JH 7C 8C 2S 2H 3H 6D 5H 6S \
                 4D 7D 3D QS 9H 8S 4C KS 3S 9S KD KC 9D AS JD AH KH QD AC 6H TS AD 8D JC 2C",
            ),
        );
        assert_eq!(pinned, expected);
    }

    /// The engine deals every hand of a match exactly as the recipe says.
    #[test]
    fn the_engine_deals_by_the_recipe() {
        let mut tables: Vec<(Variant, Options)> = Variant::ALL
            .iter()
            .map(|&v| (v, Options::default()))
            .collect();
        // The jokers' deck, and Oh Hell's smallest and largest tables (three seats leave a stock).
        tables.push((
            Variant::Spades,
            Options {
                jokers: Some(true),
                ..Options::default()
            },
        ));
        for players in [3, 7] {
            tables.push((
                Variant::OhHell,
                Options {
                    players: Some(players),
                    ..Options::default()
                },
            ));
        }
        for (variant, mut options) in tables {
            let master = practice_master(7);
            // Random bidders sink a Spades side to the mercy line in a hand or two.
            if variant == Variant::Spades {
                options.mercy = Some(0);
            }
            let rules = crate::Rules::new(variant, &options).unwrap();
            let mut game = Game::with_master(rules, master);
            let mut bot = crate::bots::RandomBot::new(1);
            let mut events = game.opening_events();
            let mut checked = 0;
            loop {
                let mut dealer = None;
                for event in &events {
                    match event {
                        Event::HandStarted {
                            hand,
                            dealer: d,
                            commitment: c,
                            ..
                        } => {
                            let secret = hand_secret(&master, *hand);
                            assert_eq!(*c, Some(commitment(&secret)), "{variant}");
                            dealer = Some((*d, deal_hand_of(&rules, *hand, *d, &secret)));
                        }
                        Event::Dealt { seat, cards } => {
                            let (_, deal) = dealer.as_ref().expect("hand started first");
                            assert_eq!(*cards, deal.hands[*seat], "{variant}");
                            checked += 1;
                        }
                        Event::TrumpShown { cards, .. } => {
                            let (_, deal) = dealer.as_ref().expect("hand started first");
                            assert_eq!(*cards, deal.face_up, "{variant}");
                        }
                        Event::HandScored(result) => {
                            let secret = result.secret.expect("revealed");
                            assert_eq!(secret, hand_secret(&master, result.hand), "{variant}");
                        }
                        _ => {}
                    }
                }
                if game.is_over() || checked > 40 {
                    break;
                }
                let seat = game.to_act().iter().next().expect("someone acts");
                let view = crate::PlayerView::of(&game, Some(seat));
                let action = crate::bots::Strategy::choose(&mut bot, &view);
                events = game.apply(seat, &action).unwrap();
            }
            assert!(checked >= 8, "{variant}: {checked}");
        }
    }

    #[test]
    fn the_standard_deck_of_a_secret_is_the_pinned_deck_and_the_jokers_deck_its_own() {
        let secret = hand_secret(&practice_master(42), 0);
        assert_eq!(deck_of(&secret, Deck::STANDARD), deck(&secret).to_vec());
        let jokers = deck_of(&secret, Deck::SPADES_JOKERS);
        // The worked example's secret over the jokers' deck; the Python SDK's independent
        // recipe pins the same cards.
        let pinned = "TH 6H 6S JC 9S 7C 4D 9H QD 7S KC 4C 7D KS TC QH AH 6C KH 8C 9C 4S 4H 5H 8D \
                      7H 8S 6D 9D 5D AS JH TS 5C LJ 5S JS 2H AC JD BJ KD 3S 2S AD 3D 8H QS 3H TD \
                      QC 3C";
        let text: Vec<String> = jokers.iter().map(ToString::to_string).collect();
        assert_eq!(text.join(" "), pinned);
        assert_eq!(
            jokers.iter().copied().collect::<CardSet>(),
            Deck::SPADES_JOKERS.cards()
        );
        let rules = crate::Rules::new(
            Variant::Spades,
            &Options {
                jokers: Some(true),
                ..Options::default()
            },
        )
        .unwrap();
        let deal = deal_hand_of(&rules, 0, Seat(3), &secret);
        let mut all = CardSet::EMPTY;
        for (_, hand) in deal.hands.iter() {
            assert_eq!(hand.len(), 13);
            all |= *hand;
        }
        assert_eq!(all, Deck::SPADES_JOKERS.cards());
        assert!(deal.undealt.is_empty());
    }

    /// A deck of any size deals by the same recipe: 24 cards to three seats of eight, 54 to
    /// four of thirteen with two left over.
    #[test]
    fn decks_of_24_to_54_cards_deal_every_card_once() {
        let secret = hand_secret(&practice_master(3), 1);
        let euchre =
            Deck::new(CardSet::parse_compact("9TJQKAc 9TJQKAd 9TJQKAh 9TJQKAs").unwrap()).unwrap();
        let every = Deck::new(CardSet::EVERY).unwrap();
        for (deck, players) in [(euchre, 3), (every, 4)] {
            let cards = deck_of(&secret, deck);
            assert_eq!(cards.iter().copied().collect::<CardSet>(), deck.cards());
            let options = Options {
                players: Some(players),
                schedule: Some(crate::rules::Schedule::Up),
                ..Options::default()
            };
            let rules = crate::Rules::new(Variant::OhHell, &options).unwrap();
            let deal = deal_hand(&rules, 7, Seat(0), &cards);
            let dealt: CardSet = deal.hands.iter().fold(CardSet::EMPTY, |a, (_, h)| a | *h);
            assert_eq!(dealt.len(), 8 * u32::from(players));
            assert_eq!(dealt | deal.undealt, deck.cards());
            assert!((dealt & deal.undealt).is_empty());
        }
    }

    #[test]
    fn hex_round_trips_and_refuses_bad_text() {
        let h = practice_master(1);
        assert_eq!(Hash32::from_hex(&h.to_hex()), Ok(h));
        assert!(Hash32::from_hex("abc").is_err());
        let json = serde_json::to_string(&h).unwrap();
        assert_eq!(serde_json::from_str::<Hash32>(&json).unwrap(), h);
    }
}
