//! Spades with jokers: the big and little joker replace the twos of clubs and diamonds, rank
//! as the two highest spades, follow and break spades as spades, and the dealer's left leads.
//! Worked deals played card by card, then whole matches of every built-in bot.

mod common;

use common::*;
use parlor_shared::bots::strategy;
use parlor_shared::deck::Deck;
use parlor_shared::fair::{self, Hash32};
use parlor_shared::rules::{Legal, Rules};
use parlor_shared::{
    Action, Card, CardSet, Event, Game, Options, PlayerView, RuleError, Seat, Suit, Variant,
};

fn jokers(spades_broken: bool) -> Options {
    Options {
        jokers: Some(true),
        spades_broken: Some(spades_broken),
        ..Options::default()
    }
}

/// Everyone bids one, from the dealer's left.
fn bid_ones(game: &mut Game) {
    for k in 1..=4 {
        bid(game, game.dealer().left(k, 4).0, 1);
    }
}

fn legal(game: &Game, seat: u8) -> CardSet {
    match game.legal_actions(Seat(seat)) {
        Legal::Play { cards } => cards,
        other => panic!("seat {seat} cannot play: {other:?}"),
    }
}

fn winner(events: &[Event]) -> Seat {
    events
        .iter()
        .find_map(|e| match e {
            Event::TrickWon { winner, .. } => Some(*winner),
            _ => None,
        })
        .expect("the trick is won")
}

/// Seat 3 deals. Seat 0: the clubs but the two, and the big joker. Seat 1: the hearts but the
/// ace, and the little joker. Seat 2: the diamonds but the two, and the ace of hearts.
/// Seat 3: every plain spade.
fn beat_the_ace_deal() -> [Card; 52] {
    deck_of(
        3,
        &[
            "3456789TJQKAc BJ",
            "23456789TJQKh LJ",
            "3456789TJQKAd Ah",
            "23456789TJQKAs",
        ],
        "",
    )
}

#[test]
fn the_jokers_take_the_ace_of_spades_and_break_spades() {
    let mut game = Game::with_deck(Variant::Spades, &jokers(true), 1, beat_the_ace_deal()).unwrap();
    bid_ones(&mut game);
    // The dealer's left leads: no two of clubs to find.
    assert_eq!(game.next_to_play(), Seat(0));
    // The big joker is a spade: not led before spades are broken.
    assert_eq!(legal(&game, 0), set("3456789TJQKAc"));
    refused(
        &mut game,
        0,
        play_action("BJ"),
        RuleError::SpadesNotBroken,
        &RuleError::SpadesNotBroken.to_string(),
    );
    play(&mut game, 0, "AC");
    // Void in clubs, seat 1 may trump with the little joker; the ace of spades does not beat it.
    play(&mut game, 1, "LJ");
    play(&mut game, 2, "AH");
    let events = play(&mut game, 3, "AS");
    assert_eq!(
        winner(&events),
        Seat(1),
        "the little joker beats the ace of spades"
    );
    // The joker broke spades: seat 0 may lead its big joker now.
    let events = trick(&mut game, 1, "KH AD 2S BJ");
    assert_eq!(winner(&events), Seat(0), "the big joker trumps");
}

/// Seat 3 deals. Seat 0: the big joker and the clubs but the two. Seat 1: the little joker
/// and the hearts but the ace. Seat 2: the spades but the ace, and the ace of hearts. Seat 3:
/// the diamonds but the two, and the ace of spades.
fn joker_led_deal() -> [Card; 52] {
    deck_of(
        3,
        &[
            "3456789TJQKAc BJ",
            "23456789TJQKh LJ",
            "23456789TJQKs Ah",
            "3456789TJQKAd As",
        ],
        "",
    )
}

#[test]
fn a_joker_led_is_a_spade_lead_and_a_joker_follows_it() {
    let mut game = Game::with_deck(Variant::Spades, &jokers(false), 1, joker_led_deal()).unwrap();
    bid_ones(&mut game);
    play(&mut game, 0, "BJ");
    // Seat 1 holds the little joker and hearts: the joker is its only spade, so it must play it.
    assert_eq!(legal(&game, 1), CardSet::single(Card::LITTLE_JOKER));
    refused(
        &mut game,
        1,
        play_action("2H"),
        RuleError::MustFollowSuit(Suit::Spades),
        &RuleError::MustFollowSuit(Suit::Spades).to_string(),
    );
    play(&mut game, 1, "LJ");
    // Seat 2 must follow with a spade, not its ace of hearts; seat 3 with its one spade.
    assert_eq!(legal(&game, 2), set("23456789TJQKs"));
    play(&mut game, 2, "KS");
    assert_eq!(legal(&game, 3), set("As"));
    let events = play(&mut game, 3, "AS");
    assert_eq!(
        winner(&events),
        Seat(0),
        "the big joker beats the little one and the ace"
    );
}

#[test]
fn a_jokers_deal_holds_52_cards_without_the_black_and_red_twos_and_the_dealers_left_leads() {
    let rules = Rules::new(Variant::Spades, &jokers(true)).unwrap();
    for (i, dealer) in [0u8, 1, 2, 3].into_iter().enumerate() {
        let master = Hash32([i as u8 + 1; 32]);
        let mut game = Game::with_master_dealt_by(rules, master, Seat(dealer));
        let mut dealt = CardSet::EMPTY;
        for seat in Seat::all(4) {
            assert_eq!(game.hand(seat).len(), 13);
            assert!((dealt & game.hand(seat)).is_empty(), "a card dealt twice");
            dealt |= game.hand(seat);
        }
        assert_eq!(dealt, Deck::SPADES_JOKERS.cards());
        // The engine deals what the fair recipe says.
        let secret = fair::hand_secret(&master, 0);
        let deal = fair::deal_hand_of(&rules, 0, Seat(dealer), &secret);
        for seat in Seat::all(4) {
            assert_eq!(deal.hands[seat], game.hand(seat));
        }
        bid_ones(&mut game);
        assert_eq!(game.next_to_play(), Seat(dealer).next(4));
    }
}

/// Whole matches with jokers for every built-in bot: every hand deals the jokers' deck, each
/// card once; every move a bot makes is legal; the first trick of each hand is led from the
/// dealer's left; no view shows a card its viewer may not see.
#[test]
fn every_bot_plays_whole_matches_with_jokers() {
    let options = Options {
        target: Some(150),
        ..jokers(true)
    };
    let rules = Rules::new(Variant::Spades, &options).unwrap();
    for (m, name) in ["random", "heuristic", "strong:8"].into_iter().enumerate() {
        let mut game = Game::with_master(rules, Hash32([m as u8 + 9; 32]));
        let mut bots: Vec<_> = (0..4)
            .map(|s| strategy(name, Variant::Spades, s).unwrap())
            .collect();
        let mut jokers_played = 0;
        let mut hands = 0;
        let check_deal = |game: &Game| {
            let all = Seat::all(4).fold(CardSet::EMPTY, |a, s| a | game.hand(s));
            assert_eq!(all, Deck::SPADES_JOKERS.cards(), "{name}");
        };
        check_deal(&game);
        let mut steps = 0;
        while !game.is_over() && steps < 2000 {
            steps += 1;
            let seat = game.to_act().iter().next().unwrap();
            let view = PlayerView::of(&game, Some(seat));
            let unseen = view.unseen_cards();
            assert!((unseen & view.hand).is_empty());
            assert!((unseen - Deck::SPADES_JOKERS.cards()).is_empty(), "{name}");
            let action = bots[usize::from(seat.0)].choose(&view);
            if let Action::Play { card } = action {
                jokers_played += usize::from(card.is_joker());
                if game.completed_count() == 0 && game.trick().is_empty() {
                    assert_eq!(seat, game.dealer().next(4), "{name}: the first lead");
                }
            }
            let events = game.apply(seat, &action).unwrap_or_else(|e| {
                panic!("{name} made an illegal move {action:?}: {e}");
            });
            if events
                .iter()
                .any(|e| matches!(e, Event::HandStarted { .. }))
            {
                hands += 1;
                check_deal(&game);
            }
        }
        assert!(game.is_over(), "{name}: the match ends");
        // Every hand is played out, so both jokers are played in each.
        assert_eq!(jokers_played, 2 * (hands + 1), "{name}");
    }
}
