//! The heuristic in the games where players bid their tricks (spades, ohhell).
//!
//! Bidding counts the tricks the hand should take on its own: high trumps and long trumps,
//! aces and guarded kings, ruffs in short suits; in Spades a hand with nothing high bids nil.
//! Play aims at the bid exactly: take tricks (as in whist or tricks) while the bid, or the
//! side's contract in Spades, still needs them, and duck (as in hearts) once it is made, so no
//! overtrick becomes a bag or breaks an Oh Hell bid. A nil bidder ducks every trick; its
//! partner covers it, overtaking the nil bidder's card and leading high. Blind nil only far
//! behind; its exchange sends the blind bidder low cards and the partner high ones.

use super::heuristic::{avoid, take};
use super::table::Table;
use crate::card::{Card, CardSet, Rank, Suit};
use crate::rules::{Action, Legal, Variant};
use crate::seat::Seat;
use crate::view::PlayerView;

/// The bid of the viewer of `view`, one its `Legal::Bid` allows.
///
/// # Panics
/// When the view asks for no bid.
#[must_use]
pub fn bid(view: &PlayerView) -> u8 {
    let Legal::Bid {
        min,
        max,
        forbidden,
    } = view.legal
    else {
        panic!("asked to bid without a bid to make");
    };
    let estimate = winners(view.hand, view.trump);
    let mut bid = estimate.round() as u8;
    if view.variant == Variant::Spades {
        let partner_nil = view.seat.and_then(|me| {
            let bids = view.bids?;
            bids[me.partner()]
        }) == Some(0);
        bid = if min == 0 && !partner_nil && nil_hand(view.hand) {
            0
        } else {
            bid.max(1)
        };
    }
    let bid = bid.clamp(min, max);
    if forbidden != Some(bid) {
        return bid;
    }
    // The hook: one off, towards what the hand is worth.
    let down = bid > min && (estimate < f64::from(bid) || bid == max);
    if down { bid - 1 } else { bid + 1 }
}

/// How far behind a side must be before this player bids blind nil: a gamble for a side that
/// needs one.
const BLIND_NIL_BEHIND: i32 = 200;

/// Faced with its cards face down: blind nil when the side is far behind, else look.
#[must_use]
pub fn blind(view: &PlayerView) -> Action {
    let behind = view
        .seat
        .map_or(0, |me| view.totals[me.next(view.players)] - view.totals[me]);
    if behind >= BLIND_NIL_BEHIND {
        Action::BlindNil
    } else {
        Action::SeeCards
    }
}

/// The `count` cards of `from` to give `to` in a blind nil exchange: the lowest (short of
/// spades) to the blind bidder, who wants nothing that wins; the highest (spades first) back
/// to the partner, who can use them.
#[must_use]
pub fn exchange(view: &PlayerView, count: u32, to: Seat, from: CardSet) -> Vec<Card> {
    let to_bidder = view.blind.as_ref().is_some_and(|b| b.bid.contains(&to));
    let strength = |c: &Card| (c.suit() == Suit::Spades, c.rank());
    let mut cards = from.to_vec();
    if to_bidder {
        cards.sort_by_key(strength);
    } else {
        cards.sort_by_key(|c| std::cmp::Reverse(strength(c)));
    }
    cards.truncate(count as usize);
    cards
}

/// The tricks `hand` should take on its own with `trump`, roughly: trump honours and length,
/// side aces and kings, and ruffs of short side suits while trumps are spare.
fn winners(hand: CardSet, trump: Option<Suit>) -> f64 {
    let trumps = trump.map_or(0, |t| hand.of_suit(t).len());
    let mut total = 0.0;
    for suit in Suit::ALL {
        let cards = hand.of_suit(suit);
        let len = cards.len();
        let has = |rank: Rank| cards.contains(Card::new(rank, suit));
        let mut count = |yes: bool, worth: f64| {
            if yes {
                total += worth;
            }
        };
        if Some(suit) == trump {
            count(has(Rank::ACE), 1.0);
            count(has(Rank::KING) && len >= 2, 1.0);
            count(has(Rank::QUEEN) && len >= 3, 1.0);
            count(has(Rank::JACK) && len >= 4, 0.5);
            // Trumps past the fourth win once the others' are drawn.
            count(len > 4, f64::from(len.saturating_sub(4)));
        } else {
            count(has(Rank::ACE), 1.0);
            count(
                has(Rank::KING) && len >= 2,
                if has(Rank::ACE) { 1.0 } else { 0.5 },
            );
            // A void or a singleton ruffs, with trumps to spare for it.
            count(trumps >= 2 && len == 0, 1.0);
            count(trumps >= 2 && len == 1, 0.5);
        }
    }
    total
}

/// A Spades hand that should take no trick: nothing above a jack and at most three spades,
/// none above a nine.
fn nil_hand(hand: CardSet) -> bool {
    let spades = hand.of_suit(Suit::Spades);
    spades.len() <= 3
        && spades.iter().all(|c| c.rank() < Rank::TEN)
        && hand.iter().all(|c| c.rank() <= Rank::JACK)
}

/// The card to play (one of `t.legal`), in a game where the seat has bid.
#[must_use]
pub fn play(t: &Table) -> Card {
    let Some(bids) = t.bids else {
        return take::play(t);
    };
    let bid = |seat: Seat| bids[seat].unwrap_or(0);
    let won = |seat: Seat| t.tricks_won[seat];
    if t.variant != Variant::Spades {
        // Oh Hell: each for themselves, exactly the bid.
        return if won(t.me) < bid(t.me) {
            take::play(t)
        } else {
            avoid::play(t)
        };
    }
    let partner = t.me.partner();
    let nil = |seat: Seat| bids[seat] == Some(0);
    if nil(t.me) {
        return avoid::play(t);
    }
    if nil(partner) && won(partner) == 0 {
        return cover(t, partner);
    }
    // The side's contract: a nil partner's bid and tricks do not count towards it.
    let (mut contract, mut toward) = (bid(t.me), won(t.me));
    if !nil(partner) {
        contract += bid(partner);
        toward += won(partner);
    }
    if toward < contract {
        take::play(t)
    } else {
        avoid::play(t)
    }
}

/// Protects a partner's nil: win the trick whenever the partner would take it.
fn cover(t: &Table, partner: Seat) -> Card {
    let Some((winner, best)) = t.winning() else {
        // Lead high, so that the partner can play under it.
        return t
            .legal
            .iter()
            .max_by_key(|c| (Some(c.suit()) != t.trump, c.rank()))
            .expect("a card");
    };
    let beaters: Vec<Card> = t.legal.iter().filter(|c| t.beats(*c, best)).collect();
    if winner == partner {
        // Overtake as cheaply as possible.
        if let Some(c) = beaters
            .iter()
            .min_by_key(|c| (Some(c.suit()) == t.trump, c.rank()))
        {
            return *c;
        }
    } else if !t.has_played(partner) {
        // The partner plays after us: win as high as possible, to leave them room under it.
        if let Some(c) = beaters
            .iter()
            .max_by_key(|c| (Some(c.suit()) != t.trump, c.rank()))
        {
            return *c;
        }
    }
    take::discard(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Game, Options, Phase};

    fn cards(text: &str) -> CardSet {
        CardSet::parse_compact(text).unwrap()
    }

    #[test]
    fn sure_winners_are_counted_from_honours_length_and_ruffs() {
        let spades = Some(Suit::Spades);
        // A♠ K♠ Q♠ and two more spades, A♥, a void in clubs: 3 + 1 + 1 (ruff) + 1 (length).
        let hand = cards("AKQ32S AH 2H 3H 4D 5D 6D 7D");
        assert_eq!(winners(hand, spades), 6.0);
        assert_eq!(winners(cards("2S 3S 4H 5H 6D 7D 8C 9C"), spades), 0.0);
        // Singletons ruff, with two trumps to spare.
        assert_eq!(winners(cards("2S 3S 4H 5H 6D 7C"), spades), 1.0);
        assert!(nil_hand(cards("2S 9S JH 5H 6D 7C")));
        assert!(!nil_hand(cards("2S TS 4H 5H 6D 7C")));
        assert!(!nil_hand(cards("2S 3S QH 5H 6D 7C")));
    }

    #[test]
    fn the_bid_is_always_one_the_view_allows() {
        for variant in [Variant::Spades, Variant::OhHell] {
            for seed in 0..30 {
                let mut game = Game::new(variant, &Options::default(), seed).unwrap();
                while game.phase() == Phase::Bidding {
                    let seat = game.to_act().first().unwrap();
                    let view = game.view(Some(seat));
                    let tricks = bid(&view);
                    let action = crate::rules::Action::Bid { tricks };
                    assert!(view.legal.allows(&action), "{variant} {seed}: {tricks}");
                    game.apply(seat, &action).unwrap();
                }
            }
        }
    }
}
