//! Spades' blind nil, worked through: a side 100 or more behind is dealt face down, bids blind
//! nil before looking (200 made, -200 failed, its tricks the side's bags), the partners
//! exchange two cards each way seen by nobody else, and random matches with blind nil on keep
//! every hand hidden from its holder until they look or bid.

mod common;

use common::{bid, deck_of, finish_hand, refused, set};
use parlor_shared::bots::RandomBot;
use parlor_shared::rules::{Legal, RuleError};
use parlor_shared::{
    Action, CardSet, Event, Game, Options, Phase, PlayerView, Seat, SeatSet, Variant,
};

/// One suit a seat: seat 0 spades, 1 clubs, 2 hearts, 3 diamonds.
const SUITS: [&str; 4] = [
    "23456789TJQKAS",
    "23456789TJQKAC",
    "23456789TJQKAH",
    "23456789TJQKAD",
];

fn blind_options(behind: i32) -> Options {
    Options {
        blind_nil: Some(true),
        blind_nil_behind: Some(behind),
        ..Options::default()
    }
}

/// A match whose first hand leaves East/West (seats 1 and 3) 250 behind: seat 0 holds every
/// spade and takes every trick on its bid of 13, seat 2 makes nil, East/West are set on 1 + 1.
/// The second hand (seat 0 deals) is dealt one suit a seat again.
fn east_west_behind(options: &Options) -> Game {
    behind_then(options, &SUITS)
}

/// [`east_west_behind`] with the second hand dealt `second`.
fn behind_then(options: &Options, second: &[&str; 4]) -> Game {
    let deck = deck_of(3, &SUITS, "");
    let mut game = Game::with_deck(Variant::Spades, options, 1, deck).unwrap();
    game.stack_deck(deck_of(0, second, ""));
    for (seat, tricks) in [(0, 13), (1, 1), (2, 0), (3, 1)] {
        bid(&mut game, seat, tricks);
    }
    finish_hand(&mut game);
    assert_eq!(game.totals().as_slice(), &[230, -20, 230, -20]);
    assert_eq!(game.dealer(), Seat(0));
    game
}

fn apply(game: &mut Game, seat: u8, action: Action) -> Vec<Event> {
    game.apply(Seat(seat), &action)
        .unwrap_or_else(|e| panic!("seat {seat}: {e}"))
}

fn exchange(cards: &str) -> Action {
    Action::Exchange {
        cards: set(cards).to_vec(),
    }
}

#[test]
fn a_blind_nil_bidder_sees_nothing_until_they_bid_then_partners_exchange_two_cards() {
    let mut game = east_west_behind(&Options {
        blind_nil: Some(true),
        ..Options::default()
    });
    // Seats 1 and 3 hold their cards face down; seats 0 and 2, ahead, see theirs.
    assert_eq!(
        game.face_down().iter().collect::<Vec<_>>(),
        [Seat(1), Seat(3)]
    );
    let view = PlayerView::of(&game, Some(Seat(1)));
    assert_eq!(view.hand, CardSet::EMPTY);
    assert_eq!(view.hand_sizes[Seat(1)], 13);
    assert_eq!(view.legal, Legal::Blind);
    assert_eq!(PlayerView::of(&game, Some(Seat(0))).hand, set(SUITS[0]));
    refused(
        &mut game,
        1,
        Action::Bid { tricks: 2 },
        RuleError::CardsFaceDown,
        "your cards are face down: bid blind nil, or look at them first",
    );
    refused(
        &mut game,
        2,
        Action::BlindNil,
        RuleError::NotYourTurn,
        "it is not your turn",
    );

    let events = apply(&mut game, 1, Action::BlindNil);
    assert_eq!(
        events,
        [
            Event::BlindNil { seat: Seat(1) },
            Event::CardsSeen { seat: Seat(1) },
            Event::Dealt {
                seat: Seat(1),
                cards: set(SUITS[1])
            },
            Event::CardsSeen { seat: Seat(3) },
            Event::Dealt {
                seat: Seat(3),
                cards: set(SUITS[3])
            },
            Event::Bid {
                seat: Seat(1),
                tricks: 0
            },
        ]
    );
    assert_eq!(PlayerView::of(&game, Some(Seat(1))).hand, set(SUITS[1]));
    // Seat 2 (ahead) may not bid blind; seat 3's partner has, and seat 3 has seen its cards.
    refused(
        &mut game,
        2,
        Action::BlindNil,
        RuleError::BlindNilNotBehind { behind: 100 },
        "blind nil is allowed only for a side behind by 100 or more",
    );
    bid(&mut game, 2, 0);
    assert!(matches!(game.legal_actions(Seat(3)), Legal::Bid { .. }));
    refused(
        &mut game,
        3,
        Action::BlindNil,
        RuleError::PartnerBidBlind,
        "your partner has bid blind nil: one blind nil a side",
    );
    bid(&mut game, 3, 1);
    bid(&mut game, 0, 13);

    // The partner gives two cards first, then the blind nil bidder gives two back.
    assert_eq!(game.phase(), Phase::Exchanging);
    assert_eq!(
        game.legal_actions(Seat(3)),
        Legal::Exchange {
            count: 2,
            to: Seat(1),
            from: set(SUITS[3])
        }
    );
    assert_eq!(game.legal_actions(Seat(1)), Legal::Wait);
    refused(
        &mut game,
        1,
        exchange("AKC"),
        RuleError::NotYourTurn,
        "it is not your turn",
    );
    refused(
        &mut game,
        3,
        exchange("234D"),
        RuleError::WrongPassCount {
            expected: 2,
            got: 3,
        },
        "pass exactly 2 cards, not 3",
    );
    refused(
        &mut game,
        3,
        exchange("2D 2C"),
        RuleError::CardNotHeld("2C".parse().unwrap()),
        "you do not hold the two of clubs",
    );
    refused(
        &mut game,
        3,
        Action::Play {
            card: "2D".parse().unwrap(),
        },
        RuleError::ExchangingNow,
        "the blind nil bidder and their partner are exchanging cards now",
    );
    let events = apply(&mut game, 3, exchange("23D"));
    assert_eq!(
        events,
        [
            Event::Exchanged {
                from: Seat(3),
                to: Seat(1),
                count: 2
            },
            Event::CardsPassed {
                from: Seat(3),
                to: Seat(1),
                cards: set("23D")
            },
        ]
    );
    for viewer in [Some(Seat(0)), Some(Seat(2)), None] {
        assert!(
            !events[1].visible_to(viewer),
            "{viewer:?} sees the exchange"
        );
    }
    assert_eq!(game.hand(Seat(1)), set(SUITS[1]) | set("23D"));
    assert_eq!(game.hand(Seat(3)).len(), 11);
    apply(&mut game, 1, exchange("AKC"));
    assert_eq!(game.hand(Seat(1)), set("23456789TJQC 23D"));
    assert_eq!(game.hand(Seat(3)), set("456789TJQKAD AKC"));
    assert_eq!(game.phase(), Phase::Playing);
    // Each partner's view shows what it gave and got; the opponents' and a spectator's show
    // neither, nor any card of the partners' hands.
    let blind = PlayerView::of(&game, Some(Seat(1))).blind.unwrap();
    assert_eq!((blind.given, blind.received), (set("AKC"), set("23D")));
    assert_eq!(blind.bid.to_vec(), [Seat(1)]);
    for viewer in [Some(Seat(0)), Some(Seat(2)), None] {
        let view = PlayerView::of(&game, viewer);
        let blind = view.blind.unwrap();
        assert_eq!(
            (blind.given, blind.received),
            (CardSet::EMPTY, CardSet::EMPTY)
        );
        assert!((view.hand & (game.hand(Seat(1)) | game.hand(Seat(3)))).is_empty());
    }

    // Seat 0's spades take every trick: the blind nil is made, 200; seat 3 is set on 1.
    let events = finish_hand(&mut game);
    let line = game.history()[1].clone();
    assert!(events.contains(&Event::HandScored(line.clone())));
    assert_eq!(line.points.as_slice(), &[230, 190, 230, 190]);
    assert_eq!(line.blind_nil, Some(SeatSet::one(Seat(1))));
    assert_eq!(
        line.nil.unwrap().as_slice(),
        &[None, Some(true), Some(true), None]
    );
}

#[test]
fn a_side_may_look_instead_and_then_bids_as_usual() {
    let mut game = east_west_behind(&blind_options(100));
    let events = apply(&mut game, 1, Action::SeeCards);
    assert_eq!(events[0], Event::CardsSeen { seat: Seat(1) });
    assert!(!events[1].visible_to(Some(Seat(3))) && events[1].visible_to(Some(Seat(1))));
    refused(
        &mut game,
        1,
        Action::BlindNil,
        RuleError::CardsAlreadySeen,
        "blind nil is bid before looking at your cards, and you have seen them",
    );
    bid(&mut game, 1, 0);
    bid(&mut game, 2, 1);
    // Seat 3 still holds its cards face down and may bid blind nil on its turn.
    assert_eq!(game.legal_actions(Seat(3)), Legal::Blind);
    apply(&mut game, 3, Action::BlindNil);
    bid(&mut game, 0, 12);
    assert_eq!(
        game.to_act().first(),
        Some(Seat(1)),
        "seat 3's partner gives first"
    );
}

#[test]
fn only_a_side_behind_by_the_threshold_is_dealt_face_down() {
    // 250 behind: face down at a threshold of 250, not at 251.
    let game = east_west_behind(&blind_options(250));
    assert_eq!(game.face_down().len(), 2);
    let mut game = east_west_behind(&blind_options(251));
    assert!(game.face_down().is_empty());
    assert!(matches!(game.legal_actions(Seat(1)), Legal::Bid { .. }));
    refused(
        &mut game,
        1,
        Action::BlindNil,
        RuleError::BlindNilNotBehind { behind: 251 },
        "blind nil is allowed only for a side behind by 251 or more",
    );
    // Without the option nobody is: blind nil is not played.
    let mut game = east_west_behind(&Options::default());
    assert!(game.face_down().is_empty());
    refused(
        &mut game,
        1,
        Action::BlindNil,
        RuleError::NoBlindNil,
        "blind nil is not played at this table",
    );
    // Level totals (the first hand): nobody is behind, whatever the threshold.
    let game = Game::new(Variant::Spades, &blind_options(0), 3).unwrap();
    assert!(game.face_down().is_empty());
}

#[test]
fn a_failed_blind_nil_costs_200_and_its_tricks_are_bags_not_the_partner_s() {
    // Seat 1 bids blind nil on every spade: it cannot help taking tricks.
    let second = [SUITS[1], SUITS[0], SUITS[2], SUITS[3]];
    let mut game = behind_then(&blind_options(100), &second);
    apply(&mut game, 1, Action::BlindNil);
    bid(&mut game, 2, 1);
    bid(&mut game, 3, 1);
    bid(&mut game, 0, 1);
    apply(&mut game, 3, exchange("23D"));
    apply(&mut game, 1, exchange("AKS"));
    finish_hand(&mut game);
    let line = game.history()[1].clone();
    let took = line.tricks;
    assert!(took[Seat(1)] > 0);
    assert_eq!(line.nil.unwrap()[Seat(1)], Some(false));
    // East/West: -200, and seat 3's bid of 1 made by seat 3 alone: seat 1's tricks are bags.
    let contract = if took[Seat(3)] >= 1 { 10 } else { -10 };
    let bags = i32::from(took[Seat(1)]) + i32::from(took[Seat(3)].saturating_sub(1));
    // Ten bags cost 100 and leave the rest counted (East/West had none before).
    let penalty = if bags >= 10 { -100 } else { 0 };
    assert_eq!(line.points[Seat(1)], -200 + contract + bags + penalty);
    assert_eq!(line.bags.unwrap()[Seat(1)], bags % 10);
}

/// Random players with blind nil on, dealt by many seeds: blind bids and exchanges happen, a
/// face-down hand is in no view (its holder's included) and no event sent to a viewer names
/// a card of it, and an exchange leaves both partners with thirteen cards.
#[test]
fn random_matches_with_blind_nil_hide_face_down_hands_and_exchange_two_for_two() {
    let (mut blind_bids, mut exchanges, mut looks) = (0, 0, 0);
    for seed in 0..40 {
        let options = Options {
            target: Some(300),
            ..blind_options((seed % 3) as i32 * 50)
        };
        let mut game = Game::new(Variant::Spades, &options, seed).unwrap();
        let mut bot = RandomBot::new(seed);
        while let Some(seat) = game.to_act().first() {
            let hidden = game.face_down();
            for viewer in Seat::all(4).map(Some).chain([None]) {
                let view = PlayerView::of(&game, viewer);
                for s in hidden.iter() {
                    assert!((view.hand & game.hand(s)).is_empty(), "{viewer:?} sees {s}");
                }
            }
            let legal = game.legal_actions(seat);
            let action = bot.choose_legal(&legal).unwrap();
            let events = game.apply(seat, &action).unwrap();
            for event in &events {
                // A hand goes to its holder only as it stops being face down.
                if let Event::Dealt { seat: to, .. } = event {
                    assert!(!game.face_down().contains(*to));
                }
                match event {
                    Event::BlindNil { .. } => blind_bids += 1,
                    Event::CardsSeen { .. } => looks += 1,
                    Event::Exchanged { .. } if game.phase() == Phase::Playing => {
                        exchanges += 1;
                        let bidder = game.blind_bids().first().unwrap();
                        assert_eq!(game.hand(bidder).len(), 13);
                        assert_eq!(game.hand(bidder.partner()).len(), 13);
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(
        blind_bids >= 10 && looks > blind_bids,
        "{blind_bids} blind, {looks} looks"
    );
    assert_eq!(
        exchanges, blind_bids,
        "every blind nil is followed by an exchange"
    );
}

/// The heuristic and strong players at a blind nil table (nil itself off, so a blind nil is the
/// only bid of 0): every move they choose from their views is legal, and they bid blind nil
/// exactly when 200 or more behind (the same view with the totals further apart: blind nil).
#[test]
fn the_built_in_players_choose_legal_blind_nil_moves() {
    use parlor_shared::bots::{HeuristicBot, Rollout, Strategy, StrongBot};
    let (mut blind_bids, mut choices) = (0, 0);
    for seed in 0..6 {
        let options = Options {
            nil: Some(false),
            target: Some(400),
            ..blind_options(100)
        };
        let mut game = Game::new(Variant::Spades, &options, seed).unwrap();
        let mut strong = StrongBot::new(seed, 8, Rollout::Heuristic);
        while let Some(seat) = game.to_act().first() {
            let view = PlayerView::of(&game, Some(seat));
            let action = if seat == Seat(0) {
                strong.choose(&view)
            } else {
                HeuristicBot.choose(&view)
            };
            assert!(
                view.legal.allows(&action),
                "{action:?} for {:?}",
                view.legal
            );
            if view.legal == Legal::Blind {
                choices += 1;
                let behind = view.totals[seat.next(4)] - view.totals[seat];
                assert_eq!(action == Action::BlindNil, behind >= 200, "{behind} behind");
                let mut far = view.clone();
                far.totals[seat] -= 200;
                blind_bids += usize::from(HeuristicBot.choose(&far) == Action::BlindNil);
            }
            game.apply(seat, &action).unwrap();
        }
    }
    assert!(choices > 0, "no seat was dealt face down");
    assert_eq!(
        blind_bids, choices,
        "200 further behind, every choice is blind nil"
    );
}
