//! Determinization: deals of the cards a seat cannot see that agree with everything its view
//! shows (hand sizes, voids revealed by play, cards it passed, cards face up). Where not every
//! card is dealt (Oh Hell), the unseen cards no seat holds stay undealt.

use super::BotRng;
use crate::card::{Card, CardSet, Suit};
use crate::rules::Variant;
use crate::seat::{PerSeat, Seat};
use crate::view::PlayerView;

/// What the view says about where the unseen cards are.
#[derive(Clone, Debug)]
pub struct Constraints {
    /// Seats at the table.
    pub players: u8,
    /// The viewer.
    pub me: Seat,
    /// The viewer's hand.
    pub hand: CardSet,
    /// Cards each seat holds now.
    pub sizes: PerSeat<u8>,
    /// Suits each seat is known to lack (bit `suit as u8`).
    pub voids: PerSeat<u8>,
    /// Cards known to be in a given seat's hand.
    pub known: PerSeat<CardSet>,
    /// The cards to distribute among the other seats (known ones included), and those nobody
    /// was dealt.
    pub pool: CardSet,
    /// How many cards of the pool nobody holds (Oh Hell deals part of the deck).
    pub undealt: u32,
}

fn bit(suit: Suit) -> u8 {
    1 << suit as u8
}

impl Constraints {
    /// Reads the constraints off `view` (the viewer must be seated).
    #[must_use]
    pub fn of(view: &PlayerView) -> Option<Constraints> {
        let me = view.seat?;
        let n = view.players;
        let mut voids = PerSeat::<u8>::new(n);
        let spades_must_break =
            view.variant == Variant::Spades && view.options.spades_broken != Some(false);
        let mut note = |leader: Seat,
                        cards: &[Card],
                        (hearts_broken_before, spades_broken_before): (bool, bool),
                        first: bool| {
            let Some(led) = cards.first().map(|c| c.suit()) else {
                return;
            };
            if spades_must_break && led == Suit::Spades && !spades_broken_before {
                // Leading a spade before they are broken means holding nothing else.
                voids[leader] |= bit(Suit::Clubs) | bit(Suit::Diamonds) | bit(Suit::Hearts);
            }
            if view.variant == Variant::Hearts
                && led == Suit::Hearts
                && !hearts_broken_before
                && !first
            {
                // Leading a heart before they are broken means holding nothing else.
                voids[leader] |= bit(Suit::Clubs) | bit(Suit::Diamonds) | bit(Suit::Spades);
            }
            for (i, c) in cards.iter().enumerate().skip(1) {
                let seat = leader.left(i as u8, n);
                if c.suit() != led {
                    voids[seat] |= bit(led);
                    if view.variant == Variant::Hearts5
                        && let Some(trump) = view.trump
                        && c.suit() != trump
                    {
                        // hearts5 forces a trump when void in the led suit.
                        voids[seat] |= bit(trump);
                    }
                    if view.variant == Variant::Hearts && first && c.suit() == Suit::Hearts {
                        // Points on the first trick: the player held nothing but hearts and
                        // perhaps the queen of spades.
                        voids[seat] |= bit(Suit::Clubs) | bit(Suit::Diamonds);
                    }
                }
            }
        };
        let mut broken = (false, false);
        for (i, t) in view.tricks.iter().enumerate() {
            note(t.leader, &t.cards, broken, i == 0);
            broken.0 |= t.cards.iter().any(|c| c.suit() == Suit::Hearts);
            broken.1 |= t.cards.iter().any(|c| c.suit() == Suit::Spades);
        }
        let table: Vec<Card> = view.trick.plays.iter().map(|p| p.card).collect();
        note(view.trick.leader, &table, broken, view.tricks.is_empty());

        let mut known = PerSeat::<CardSet>::new(n);
        let pool = view.unseen_cards();
        if let Some(pass) = &view.pass
            && !pass.received.is_empty()
        {
            // The cards we gave are with the receiver until played.
            let to = me.left(pass.direction.steps(n), n);
            known[to] |= pass.given & pool;
        }
        if view.variant == Variant::Whist && view.dealer != me {
            known[view.dealer] |= view.face_up;
        }
        let mut pool = pool;
        if view.variant == Variant::Whist {
            pool |= view.face_up - view.hand;
        }
        let held: u32 = Seat::all(n)
            .filter(|s| *s != me)
            .map(|s| u32::from(view.hand_sizes[s]))
            .sum();
        Some(Constraints {
            players: n,
            me,
            hand: view.hand,
            sizes: view.hand_sizes,
            voids,
            known,
            pool,
            undealt: pool.len().saturating_sub(held),
        })
    }

    /// A random deal of the pool consistent with the constraints: every seat's hand. Tries a
    /// few times; if the voids cannot all be met (they can always be in a real game, but the
    /// sampler is greedy), the last tries ignore them.
    pub fn sample(&self, rng: &mut BotRng) -> PerSeat<CardSet> {
        for attempt in 0..40 {
            if let Some(hands) = self.try_sample(rng, attempt < 30) {
                return hands;
            }
        }
        self.try_sample(rng, false)
            .expect("hand sizes always add up to the unseen cards")
    }

    fn try_sample(&self, rng: &mut BotRng, respect_voids: bool) -> Option<PerSeat<CardSet>> {
        let n = self.players;
        let mut hands = PerSeat::<CardSet>::new(n);
        let mut room = PerSeat::<i32>::new(n);
        for seat in Seat::all(n) {
            if seat == self.me {
                hands[seat] = self.hand;
                continue;
            }
            let known = self.known[seat] & self.pool;
            hands[seat] = known;
            room[seat] = i32::from(self.sizes[seat]) - known.len() as i32;
        }
        let mut placed = CardSet::EMPTY;
        for seat in Seat::all(n) {
            if seat != self.me {
                placed |= hands[seat];
            }
        }
        // The cards nobody holds, which any card may be.
        let mut spare = self.undealt as i32;
        // Most constrained cards first, random order among equals.
        let mut cards: Vec<(u32, u32, Card)> = (self.pool - placed)
            .iter()
            .map(|c| {
                let eligible = Seat::all(n)
                    .filter(|s| *s != self.me && self.voids[*s] & bit(c.suit()) == 0)
                    .count() as u32;
                (eligible, rng.below(1 << 16), c)
            })
            .collect();
        cards.sort_unstable();
        for (_, _, card) in cards {
            let ok = |s: Seat| {
                s != self.me
                    && room[s] > 0
                    && (!respect_voids || self.voids[s] & bit(card.suit()) == 0)
            };
            let total: i32 = Seat::all(n)
                .filter(|s| ok(*s))
                .map(|s| room[s])
                .sum::<i32>()
                + spare;
            if total <= 0 {
                return None;
            }
            let mut pick = rng.below(total as u32) as i32;
            let seat = Seat::all(n).filter(|s| ok(*s)).find(|s| {
                pick -= room[*s];
                pick < 0
            });
            match seat {
                Some(seat) => {
                    hands[seat].insert(card);
                    room[seat] -= 1;
                }
                None => spare -= 1,
            }
        }
        Some(hands)
    }
}
