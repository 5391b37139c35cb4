//! `PlayerView::apply` follows a game from the messages a viewer receives and agrees with the
//! server's own snapshot (`PlayerView::of`) after every move, except where the view module
//! documents that a client cannot know: random matches of every variant, every seat and a
//! spectator, with reconnections (a fresh snapshot) at random moments.

mod common;

use common::table::{Message, Table};
use parlor_shared::deck::DeckRng;
use parlor_shared::rules::{BadCard, FirstLead, Phase};
use parlor_shared::{Action, Card, CardSet, Game, Options, PlayerView, Seat, Variant};

/// Options that keep a match to a few hands.
fn short(variant: Variant, bad_card: BadCard, seed: u64) -> Options {
    match variant {
        Variant::Hearts5 => Options {
            hands: Some(3),
            ..Options::default()
        },
        Variant::Whist => Options {
            target: Some(2),
            ..Options::default()
        },
        Variant::Tricks => Options {
            target: Some(12),
            bad_card: Some(bad_card),
            ..Options::default()
        },
        Variant::Hearts | Variant::Filippa => Options {
            target: Some(40),
            ..Options::default()
        },
        // Half the matches with blind nil: face-down hands, blind bids and exchanges.
        Variant::Spades => Options {
            target: Some(150),
            blind_nil: (seed % 2 == 1).then_some(true),
            blind_nil_behind: (seed % 2 == 1).then_some(30),
            ..Options::default()
        },
        // Both ways of defending, stuck dealers and thrown-in hands.
        Variant::Euchre => Options {
            target: Some(5),
            defend_alone: Some(seed % 2 == 1),
            stick_the_dealer: Some(seed % 3 == 1),
            ..Options::default()
        },
        // Duplicate boards and rubbers.
        Variant::Bridge => Options {
            hands: Some(2),
            rubber: Some(seed % 3 == 1),
            ..Options::default()
        },
        // Every table size; the hands go up to the largest.
        Variant::OhHell => Options {
            players: Some(3 + (seed % 5) as u8),
            schedule: Some(parlor_shared::rules::Schedule::Up),
            ..Options::default()
        },
    }
}

/// Checks `followed` against the snapshot, allowing only the documented differences.
fn assert_agrees(followed: &PlayerView, truth: &PlayerView, context: &str) {
    let mut followed = followed.clone();
    let n = truth.players;
    let nobody_played = truth.tricks.is_empty() && truth.trick.plays.is_empty();
    // The placeholder leader, unless the view came from a snapshot since.
    let placeholder = [truth.dealer.next(n), truth.trick.leader];
    if truth.phase == Phase::Passing {
        // Nobody leads yet; the viewer's own pass shows only once the cards move.
        assert!(placeholder.contains(&followed.trick.leader), "{context}");
        followed.trick.leader = truth.trick.leader;
        let given = followed.pass.as_ref().map(|p| p.given);
        let known = truth.pass.as_ref().map(|p| p.given);
        assert!(given == Some(CardSet::EMPTY) || given == known, "{context}");
        followed.pass.clone_from(&truth.pass);
    }
    let first_lead = truth.variant.facts().first_lead;
    if truth.phase == Phase::Playing
        && first_lead == FirstLead::TwoOfClubs
        && nobody_played
        && followed.to_act.is_empty()
    {
        // Who holds 2♣ is hidden from this viewer: it neither holds it nor passed it.
        let passed_it = truth
            .pass
            .as_ref()
            .is_some_and(|p| p.given.contains(Card::TWO_OF_CLUBS));
        assert!(
            !truth.hand.contains(Card::TWO_OF_CLUBS) && !passed_it,
            "{context}: the viewer could know who leads"
        );
        assert!(placeholder.contains(&followed.trick.leader), "{context}");
        followed.trick.leader = truth.trick.leader;
        followed.to_act.clone_from(&truth.to_act);
    }
    assert_eq!(&followed, truth, "{context}");
}

/// Plays one match, following every viewer's view, and checks it after every move.
fn follow_match(variant: Variant, bad_card: BadCard, seed: u64) -> usize {
    let game = Game::new(variant, &short(variant, bad_card, seed), seed).unwrap();
    let mut viewers: Vec<Option<Seat>> = Seat::all(game.players()).map(Some).collect();
    viewers.push(None);
    let mut table = Table::new(game, seed);
    let mut views: Vec<PlayerView> = viewers.iter().map(|v| table.game.view(*v)).collect();
    let mut rng = DeckRng::new(seed);
    let mut prompts = table.prompts();
    let mut moves = 0;
    loop {
        for (view, viewer) in views.iter_mut().zip(&viewers) {
            for message in Table::messages_for(*viewer, &[], &prompts) {
                let Message::Prompt(legal) = message else {
                    unreachable!()
                };
                view.apply_legal(legal);
            }
            let context = format!("{variant} seed {seed} viewer {viewer:?} after {moves} moves");
            assert_agrees(view, &table.game.view(*viewer), &context);
            if rng.below(40) == 0 {
                // A reconnection: the snapshot, then the prompt again if it is this seat's turn.
                *view = table.game.view(*viewer);
                if let Some(legal) = table.prompt_on_sync(*viewer) {
                    view.apply_legal(legal);
                }
            }
        }
        let bad = rng.below(30) == 0;
        let Some((seat, action)) = table.next_move(bad) else {
            break;
        };
        let events = table.apply(seat, &action);
        moves += 1;
        prompts = table.prompts();
        for (view, viewer) in views.iter_mut().zip(&viewers) {
            for message in Table::messages_for(*viewer, &events, &[]) {
                if let Message::Event(event) = message {
                    view.apply(&event);
                }
            }
        }
    }
    assert!(table.game.is_over());
    moves
}

#[test]
fn a_followed_view_agrees_with_the_snapshot_after_every_move() {
    for variant in Variant::ALL {
        let mut moves = 0;
        for seed in 0..12 {
            moves += follow_match(variant, BadCard::Penalty, seed);
        }
        assert!(moves > 500, "{variant}: only {moves} moves");
    }
    for seed in 0..4 {
        follow_match(Variant::Tricks, BadCard::Reject, seed);
    }
}

/// Follows `game` from its opening events, as a viewer who joined before the deal would.
fn followed_from_the_deal(game: &Game, viewer: Option<Seat>) -> PlayerView {
    let mut view = game.view(viewer);
    for event in game.opening_events() {
        if event.visible_to(viewer) {
            view.apply(&event);
        }
    }
    view
}

#[test]
fn only_who_can_know_it_knows_who_leads_the_first_hearts_trick() {
    let options = Options {
        passing: Some(false),
        ..Options::default()
    };
    let game = Game::new(Variant::Hearts, &options, 5).unwrap();
    let holder = game.to_act().first().unwrap();
    for viewer in Seat::all(4).map(Some).chain([None]) {
        let view = followed_from_the_deal(&game, viewer);
        if viewer == Some(holder) {
            assert_eq!(view.to_act[..], [holder]);
            assert_eq!(view.trick.leader, holder);
        } else {
            assert!(view.to_act.is_empty(), "{viewer:?} cannot know");
            assert_eq!(view.trick.leader, view.dealer.next(4), "the placeholder");
        }
    }
}

#[test]
fn the_seat_that_passed_the_two_of_clubs_knows_who_leads() {
    let mut game = Game::new(Variant::Hearts, &Options::default(), 5).unwrap();
    let giver = Seat::all(4)
        .find(|s| game.hand(*s).contains(Card::TWO_OF_CLUBS))
        .unwrap();
    let receiver = giver.next(4); // the first hand passes left
    let mut views: Vec<(Option<Seat>, PlayerView)> = Seat::all(4)
        .map(Some)
        .chain([None])
        .map(|v| (v, followed_from_the_deal(&game, v)))
        .collect();
    for seat in Seat::all(4) {
        // Everyone passes their three lowest cards: the giver's include the two of clubs.
        let cards = game.hand(seat).iter().take(3).collect();
        let events = game.apply(seat, &Action::Pass { cards }).unwrap();
        for (viewer, view) in &mut views {
            for event in events.iter().filter(|e| e.visible_to(*viewer)) {
                view.apply(event);
            }
        }
    }
    assert_eq!(game.to_act().first(), Some(receiver));
    for (viewer, view) in &views {
        assert_eq!(view.phase, Phase::Playing);
        if *viewer == Some(giver) || *viewer == Some(receiver) {
            assert_eq!(view.to_act[..], [receiver], "{viewer:?} knows");
            assert_eq!(view.trick.leader, receiver);
        } else {
            assert!(view.to_act.is_empty(), "{viewer:?} cannot know");
        }
    }
}
