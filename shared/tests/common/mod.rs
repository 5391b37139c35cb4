//! Helpers shared by the integration tests: stacked decks, forced play, state snapshots.

#![allow(dead_code)]

pub mod bids;
pub mod table;

use parlor_shared::rules::Legal;
use parlor_shared::{Action, Card, CardSet, Event, Game, PlayerView, RuleError, Seat};

/// One card from its ASCII form.
pub fn card(text: &str) -> Card {
    text.parse().unwrap()
}

/// A set from the compact notation (`"2345c AKh"`).
pub fn set(text: &str) -> CardSet {
    CardSet::parse_compact(text).unwrap()
}

/// Space-separated cards, in the order written.
pub fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace().map(card).collect()
}

/// A deck that deals `hands[s]` to seat `s` when `dealer` deals: card `i` goes to the seat
/// `i + 1` places left of the dealer. Each hand is dealt in the order given (so the last card
/// of the dealer's list is the deck's last dealt card), then `leftover` in order.
pub fn deck_for(dealer: u8, hands: &[Vec<Card>], leftover: &[Card]) -> [Card; 52] {
    let n = hands.len();
    let size = hands[0].len();
    assert!(hands.iter().all(|h| h.len() == size), "hands of equal size");
    let mut deck = Vec::with_capacity(52);
    for i in 0..n * size {
        let seat = (dealer as usize + 1 + i % n) % n;
        deck.push(hands[seat][i / n]);
    }
    deck.extend_from_slice(leftover);
    let all: CardSet = deck.iter().copied().collect();
    assert_eq!(all.len(), 52, "the scripted deck holds every card once");
    deck.try_into().unwrap()
}

/// [`deck_for`] with hands in the compact notation (each dealt lowest card first).
pub fn deck_of(dealer: u8, hands: &[&str], leftover: &str) -> [Card; 52] {
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| set(h).to_vec()).collect();
    deck_for(dealer, &hands, &cards(leftover))
}

/// Plays `text` (a card) for whoever is to play, checking that it is `seat`'s turn.
pub fn play(game: &mut Game, seat: u8, text: &str) -> Vec<Event> {
    assert_eq!(game.next_to_play(), Seat(seat), "whose turn before {text}");
    game.apply(Seat(seat), &Action::Play { card: card(text) })
        .unwrap_or_else(|e| panic!("seat {seat} playing {text}: {e}"))
}

/// Plays one whole trick: `plays` in order starting with the leader.
pub fn trick(game: &mut Game, leader: u8, plays: &str) -> Vec<Event> {
    let n = game.players();
    let mut events = Vec::new();
    for (i, c) in plays.split_whitespace().enumerate() {
        events.extend(play(game, (leader + i as u8) % n, c));
    }
    events
}

/// `seat` passes the given cards.
pub fn pass(game: &mut Game, seat: u8, text: &str) -> Vec<Event> {
    game.apply(Seat(seat), &Action::Pass { cards: cards(text) })
        .unwrap_or_else(|e| panic!("seat {seat} passing {text}: {e}"))
}

/// The first legal action of whoever acts (the lowest cards), or `None` once over.
pub fn lowest_action(game: &Game) -> Option<(Seat, Action)> {
    let seat = game.to_act().iter().next()?;
    let action = match game.legal_actions(seat) {
        Legal::Play { cards } => Action::Play {
            card: cards.lowest().unwrap(),
        },
        Legal::Pass { count, from, .. } => Action::Pass {
            cards: from.iter().take(count as usize).collect(),
        },
        Legal::Bid { min, forbidden, .. } => Action::Bid {
            tricks: if forbidden == Some(min) { min + 1 } else { min },
        },
        Legal::Blind => Action::SeeCards,
        Legal::Exchange { count, from, .. } => Action::Exchange {
            cards: from.iter().take(count as usize).collect(),
        },
        Legal::Call { .. } => Action::Call(game.legal_actions(seat).calls()[0]),
        Legal::Discard { from } => Action::Discard {
            card: from.lowest().unwrap(),
        },
        Legal::AnswerClaim { .. } => Action::AnswerClaim { accept: true },
        Legal::Wait => unreachable!("a seat to act has something to do"),
    };
    Some((seat, action))
}

/// Plays lowest legal moves until the hand number changes or the match ends; returns the
/// events.
pub fn finish_hand(game: &mut Game) -> Vec<Event> {
    let hand = game.hand_number();
    let mut events = Vec::new();
    while !game.is_over() && game.hand_number() == hand {
        let (seat, action) = lowest_action(game).unwrap();
        events.extend(game.apply(seat, &action).unwrap());
    }
    events
}

/// Every seat's view and the spectator's, as JSON: what anyone could observe.
pub fn all_views(game: &Game) -> Vec<String> {
    let mut viewers: Vec<Option<Seat>> = Seat::all(game.players()).map(Some).collect();
    viewers.push(None);
    viewers
        .into_iter()
        .map(|v| serde_json::to_string(&PlayerView::of(game, v)).unwrap())
        .collect()
}

/// Applies an action that must be refused with `expected` (and its exact message), and checks
/// that the game, and every view of it, is unchanged.
pub fn refused(game: &mut Game, seat: u8, action: Action, expected: RuleError, message: &str) {
    let before = game.clone();
    let views = all_views(game);
    let err = game.apply(Seat(seat), &action).unwrap_err();
    assert_eq!(err, expected);
    assert_eq!(err.to_string(), message);
    assert!(*game == before, "the game changed after {err}");
    assert_eq!(all_views(game), views);
}

/// A play action.
pub fn play_action(text: &str) -> Action {
    Action::Play { card: card(text) }
}

/// `seat` bids `tricks`.
pub fn bid(game: &mut Game, seat: u8, tricks: u8) -> Vec<Event> {
    game.apply(Seat(seat), &Action::Bid { tricks })
        .unwrap_or_else(|e| panic!("seat {seat} bidding {tricks}: {e}"))
}

/// A pass action.
pub fn pass_action(text: &str) -> Action {
    Action::Pass { cards: cards(text) }
}
