//! Euchre by rule of thumb: calls from the strength of one's trumps and bowers, the dealer's
//! discard, and card play that wins tricks as cheaply as it can and leaves a partner's winning
//! card alone. The play works on a bare [`Trick`] so that the strong bot's playouts use it too.

use crate::card::{Card, CardSet, Rank, Suit};
use crate::rules::{Call, Trumps};
use crate::seat::Seat;
use crate::view::PlayerView;

/// Strength at which a seat makes trump with its partner.
const MAKE: f64 = 7.0;
/// Strength at which the maker goes alone.
const ALONE: f64 = 11.5;

/// The trick as a player sees it when choosing a card.
#[derive(Clone, Copy, Debug)]
pub struct Trick<'a> {
    /// This hand's trump with its bowers.
    pub trumps: Trumps,
    /// Who chooses.
    pub me: Seat,
    /// The cards they may play.
    pub legal: CardSet,
    /// The cards played to the trick so far, in order.
    pub plays: &'a [(Seat, Card)],
}

/// How good `hand` is with `trump` as trump: bowers, trumps, off-suit aces and voids.
#[must_use]
pub fn strength(hand: CardSet, trump: Suit) -> f64 {
    let trumps = Trumps::with_bowers(trump);
    let mut total = 0.0;
    let mut held_trumps = 0;
    for card in hand.iter() {
        if trumps.suit_of(card) == trump {
            held_trumps += 1;
            total += match (card.rank(), card.suit() == trump) {
                (Rank::JACK, true) => 3.2,
                (Rank::JACK, false) => 2.8,
                (Rank::ACE, _) => 2.3,
                (Rank::KING, _) => 2.0,
                (Rank::QUEEN, _) => 1.8,
                _ => 1.5,
            };
        } else if card.rank() == Rank::ACE {
            total += 1.1;
        } else if card.rank() == Rank::KING {
            total += 0.3;
        }
    }
    let voids = Suit::ALL
        .iter()
        .filter(|&&s| s != trump && (trumps.cards_of(s) & hand).is_empty())
        .count();
    if held_trumps >= 2 {
        total += 0.7 * voids as f64;
    }
    total
}

/// The best hand `dealer` could keep after picking up `turned` and discarding one card.
fn with_pick_up(hand: CardSet, turned: Card, trump: Suit) -> CardSet {
    let mut six = hand;
    six.insert(turned);
    let worst = discard_from(six, trump);
    six.remove(worst);
    six
}

/// The call to make from the view's legal calls.
#[must_use]
pub fn call(view: &PlayerView) -> Call {
    let calls = view.legal.calls();
    let me = view.seat.expect("a seat calls");
    let turned = view.face_up.lowest();
    let mut best = (f64::MIN, Call::Pass);
    for &call in &calls {
        let value = match call {
            Call::Pass => MAKE,
            // Bridge's calls are never legal at a Euchre table.
            Call::Bid(_) | Call::Double | Call::Redouble => f64::MIN,
            Call::OrderUp { alone } => {
                let turned = turned.expect("a turned-up card");
                let trump = turned.suit();
                let hand = if me == view.dealer {
                    with_pick_up(view.hand, turned, trump)
                } else {
                    view.hand
                };
                let bonus = if me.partner() == view.dealer {
                    0.8
                } else if me == view.dealer {
                    0.0
                } else {
                    -0.8
                };
                alone_value(strength(hand, trump) + bonus, alone)
            }
            Call::Trump { suit, alone } => alone_value(strength(view.hand, suit), alone),
            Call::DefendAlone => {
                let trump = view.trump.unwrap_or(Suit::Clubs);
                let defend = 12.0 - strength(view.hand, trump);
                if defend > 11.0 { defend } else { f64::MIN }
            }
        };
        // Ties keep the earlier call: passing first, then with a partner before alone.
        if value > best.0 {
            best = (value, call);
        }
    }
    best.1
}

/// A call's value: alone only with a hand strong enough to take all five.
fn alone_value(strength: f64, alone: bool) -> f64 {
    if !alone {
        strength
    } else if strength >= ALONE {
        strength + 1.0
    } else {
        f64::MIN
    }
}

/// The card the dealer discards after picking up.
#[must_use]
pub fn discard(view: &PlayerView) -> Card {
    let trump = view.trump.unwrap_or(Suit::Clubs);
    discard_from(view.hand, trump)
}

/// The least useful card of `hand` with `trump` trump: the lowest off-suit card, from the
/// shortest suit so as to make a void; a trump only when the hand is all trumps.
#[must_use]
pub fn discard_from(hand: CardSet, trump: Suit) -> Card {
    let trumps = Trumps::with_bowers(trump);
    let off = hand - trumps.cards_of(trump);
    let pool = if off.is_empty() { hand } else { off };
    pool.iter()
        .filter(|c| c.rank() != Rank::ACE || pool.iter().all(|o| o.rank() == Rank::ACE))
        .min_by_key(|&c| {
            let suit_len = (trumps.cards_of(trumps.suit_of(c)) & hand).len();
            (suit_len, order(trumps, c))
        })
        .or_else(|| pool.lowest())
        .expect("a card to discard")
}

/// A card's order from the weakest to the strongest: off-suit cards by rank, then trumps with
/// the bowers on top.
#[must_use]
pub fn order(trumps: Trumps, card: Card) -> u8 {
    let rank = card.rank().index();
    match trumps.suit() {
        Some(trump) if trumps.suit_of(card) == trump => {
            if card.rank() == Rank::JACK {
                if card.suit() == trump { 40 } else { 39 }
            } else {
                20 + rank
            }
        }
        _ => rank,
    }
}

/// The card to play from a view of a hand of euchre.
#[must_use]
pub fn play_from_view(view: &PlayerView, legal: CardSet) -> Card {
    let plays: Vec<(Seat, Card)> = view.trick.plays.iter().map(|p| (p.seat, p.card)).collect();
    let trumps = view.trump.map_or(Trumps::NONE, Trumps::with_bowers);
    play(&Trick {
        trumps,
        me: view.seat.expect("a seat plays"),
        legal,
        plays: &plays,
    })
}

/// The card to play.
#[must_use]
pub fn play(t: &Trick) -> Card {
    let weakest = |cards: CardSet| {
        cards
            .iter()
            .min_by_key(|&c| order(t.trumps, c))
            .expect("a legal card")
    };
    if t.legal.len() == 1 {
        return weakest(t.legal);
    }
    if t.plays.is_empty() {
        return lead(t);
    }
    let (winner, best) = t
        .plays
        .iter()
        .skip(1)
        .fold(t.plays[0], |(ws, wc), &(s, c)| {
            if t.trumps.beats(c, wc) {
                (s, c)
            } else {
                (ws, wc)
            }
        });
    if winner == t.me.partner() && order(t.trumps, best) >= 12 {
        return weakest(t.legal);
    }
    let winners: CardSet = t
        .legal
        .iter()
        .filter(|&c| t.trumps.beats(c, best))
        .collect();
    if winners.is_empty() {
        weakest(t.legal)
    } else {
        weakest(winners)
    }
}

/// The lead: the right bower to draw trumps, else an off-suit ace, else the weakest card.
fn lead(t: &Trick) -> Card {
    let by_order = |c: Card| order(t.trumps, c);
    if let Some(trump) = t.trumps.suit() {
        let right = Card::new(Rank::JACK, trump);
        if t.legal.contains(right) {
            return right;
        }
        let off_aces = t
            .legal
            .iter()
            .find(|c| c.rank() == Rank::ACE && t.trumps.suit_of(*c) != trump);
        if let Some(ace) = off_aces {
            return ace;
        }
    }
    t.legal.iter().min_by_key(|&c| by_order(c)).expect("a card")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(text: &str) -> CardSet {
        CardSet::parse_compact(text).unwrap()
    }

    #[test]
    fn bowers_and_trumps_make_a_strong_hand() {
        let hearts = cards("JH JD AH KH AS");
        assert!(strength(hearts, Suit::Hearts) >= ALONE);
        let weak = cards("9H TC 9S QD KC");
        assert!(strength(weak, Suit::Hearts) < MAKE);
    }

    #[test]
    fn the_dealer_discards_a_low_off_suit_card_to_make_a_void() {
        // Spades trump: keep the trumps and the ace, throw the lone nine of diamonds.
        let hand = cards("JS JC AS TH 9D AH");
        assert_eq!(discard_from(hand, Suit::Spades), "9D".parse().unwrap());
    }

    #[test]
    fn a_follower_wins_as_cheaply_as_it_can_and_leaves_its_partner_s_ace() {
        let trumps = Trumps::with_bowers(Suit::Hearts);
        let plays = [(Seat(0), "KS".parse().unwrap())];
        let t = Trick {
            trumps,
            me: Seat(1),
            legal: cards("AS 9S"),
            plays: &plays,
        };
        assert_eq!(play(&t), "AS".parse().unwrap());
        let plays = [
            (Seat(0), "9S".parse().unwrap()),
            (Seat(1), "AS".parse().unwrap()),
        ];
        let t = Trick {
            trumps,
            me: Seat(3),
            legal: cards("KS QS"),
            plays: &plays,
        };
        assert_eq!(play(&t), "QS".parse().unwrap(), "partner's ace holds");
        // Void in spades with the left bower and a low trump: the nine of hearts will do.
        let t = Trick {
            trumps,
            me: Seat(2),
            legal: cards("JD 9H TC"),
            plays: &plays[..1],
        };
        assert_eq!(play(&t), "9H".parse().unwrap());
    }
}
