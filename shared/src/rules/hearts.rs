//! Microsoft Hearts: passing cycle, the first-trick and broken-hearts rules, moon scoring.

use super::event::PassDirection;
use super::variant::Moon;
use crate::card::{Card, CardSet, Suit};
use crate::seat::{PerSeat, Seat};

/// Hearts and the queen of spades: the cards that score.
pub(super) const POINT_CARDS: CardSet = CardSet::from_bits(
    CardSet::suit(Suit::Hearts).bits() | CardSet::single(Card::QUEEN_OF_SPADES).bits(),
);

/// Left, right, across, then a hand without passing; repeat.
pub(super) fn pass_direction(hand: u32, passing: bool) -> Option<PassDirection> {
    if !passing {
        return None;
    }
    match hand % 4 {
        0 => Some(PassDirection::Left),
        1 => Some(PassDirection::Right),
        2 => Some(PassDirection::Across),
        _ => None,
    }
}

/// What may be led: the two of clubs to the first trick; no heart before hearts are broken,
/// unless the hand is all hearts.
pub(super) fn lead_options(hand: CardSet, first_trick: bool, hearts_broken: bool) -> CardSet {
    if first_trick && hand.contains(Card::TWO_OF_CLUBS) {
        return CardSet::single(Card::TWO_OF_CLUBS);
    }
    let not_hearts = hand - CardSet::suit(Suit::Hearts);
    if hearts_broken || not_hearts.is_empty() {
        hand
    } else {
        not_hearts
    }
}

/// What a player void in the led suit may discard: on the first trick no point card, unless
/// the hand holds nothing else.
pub(super) fn discard_options(hand: CardSet, first_trick: bool) -> CardSet {
    let safe = hand - POINT_CARDS;
    if first_trick & !safe.is_empty() {
        safe
    } else {
        hand
    }
}

/// A hand's points: a heart 1, the queen of spades 13; a player who took all 26 shoots the
/// moon.
pub(super) fn score(taken: &PerSeat<CardSet>, moon: Moon) -> (PerSeat<i32>, Option<Seat>) {
    let mut points = PerSeat::new(taken.len() as u8);
    for (seat, cards) in taken.iter() {
        let hearts = cards.of_suit(Suit::Hearts).len() as i32;
        let queen = if cards.contains(Card::QUEEN_OF_SPADES) {
            13
        } else {
            0
        };
        points[seat] = hearts + queen;
    }
    let shooter = points.iter().find(|(_, p)| **p == 26).map(|(s, _)| s);
    if let Some(shooter) = shooter {
        for (seat, p) in points.as_mut_slice().iter_mut().enumerate() {
            let is_shooter = seat == shooter.index();
            *p = match (moon, is_shooter) {
                (Moon::Add, true) | (Moon::Subtract, false) => 0,
                (Moon::Add, false) => 26,
                (Moon::Subtract, true) => -26,
            };
        }
    }
    (points, shooter)
}
