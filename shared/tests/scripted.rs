//! Scripted deals: one test (or more) per rule line of the rules reference, every variant.
//!
//! Decks are stacked with `Game::with_deck` / `Game::stack_deck`: card `i` goes to the seat
//! `i + 1` left of the dealer, and the dealer of hand 0 is the last seat, so seat 0 receives
//! the deck's first card.

#![allow(clippy::needless_range_loop)] // Seat-indexed loops read like the rules.

mod common;

use common::*;
use parlor_shared::rules::{HandResult, Legal, Moon, PassDirection};
use parlor_shared::{Action, CardSet, Event, Game, Options, Phase, RuleError, Seat, Suit, Variant};

/// The hand results among `events`.
fn scored(events: &[Event]) -> Vec<HandResult> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::HandScored(r) => Some(r.clone()),
            _ => None,
        })
        .collect()
}

/// Cards taken per seat, from the `TrickWon` events.
fn taken_from(events: &[Event], n: u8) -> Vec<CardSet> {
    let mut taken = vec![CardSet::EMPTY; n as usize];
    for e in events {
        if let Event::TrickWon { winner, cards } = e {
            taken[winner.index()] |= *cards;
        }
    }
    taken
}

fn seats(list: &[u8]) -> Vec<Seat> {
    list.iter().map(|&s| Seat(s)).collect()
}

mod hearts {
    use super::*;

    fn opts(passing: bool, moon: Moon, target: i32) -> Options {
        Options {
            passing: Some(passing),
            moon: Some(moon),
            target: Some(target),
            ..Options::default()
        }
    }

    /// Each seat holds one whole suit: clubs, diamonds, hearts, spades.
    fn suits_deal() -> [parlor_shared::Card; 52] {
        deck_of(
            3,
            &[
                "23456789TJQKAc",
                "23456789TJQKAd",
                "23456789TJQKAh",
                "23456789TJQKAs",
            ],
            "",
        )
    }

    #[test]
    fn passing_cycles_left_right_across_none_and_arrives_after_everyone_chose() {
        let mut game = Game::new(
            Variant::Hearts,
            &Options {
                target: Some(100_000),
                ..Options::default()
            },
            11,
        )
        .unwrap();
        let expected = [
            Some((PassDirection::Left, 1)),
            Some((PassDirection::Right, 3)),
            Some((PassDirection::Across, 2)),
            None,
            Some((PassDirection::Left, 1)),
            Some((PassDirection::Right, 3)),
        ];
        for (h, expect) in expected.into_iter().enumerate() {
            assert_eq!(game.hand_number(), h as u32);
            assert_eq!(game.pass_direction(), expect.map(|(d, _)| d));
            let Some((direction, steps)) = expect else {
                assert_eq!(game.phase(), Phase::Playing);
                assert!(matches!(
                    game.legal_actions(game.next_to_play()),
                    Legal::Play { .. }
                ));
                finish_hand(&mut game);
                continue;
            };
            assert_eq!(game.phase(), Phase::Passing);
            assert_eq!(game.to_act().iter().count(), 4);
            let before: Vec<CardSet> = Seat::all(4).map(|s| game.hand(s)).collect();
            let chosen: Vec<CardSet> = before.iter().map(|h| h.iter().take(3).collect()).collect();
            for s in 0..4u8 {
                assert_eq!(
                    game.legal_actions(Seat(s)),
                    Legal::Pass {
                        count: 3,
                        direction,
                        from: before[s as usize]
                    }
                );
                let events = game
                    .apply(
                        Seat(s),
                        &Action::Pass {
                            cards: chosen[s as usize].to_vec(),
                        },
                    )
                    .unwrap();
                assert_eq!(game.legal_actions(Seat(s)), Legal::Wait);
                if s < 3 {
                    // Nothing moves until the last player has chosen.
                    assert_eq!(events, vec![Event::PassChosen { seat: Seat(s) }]);
                    for t in Seat::all(4) {
                        assert_eq!(game.hand(t), before[t.index()]);
                        assert_eq!(game.received_by(t), CardSet::EMPTY);
                    }
                    let own = game.view(Some(Seat(s))).pass.unwrap();
                    assert_eq!(own.given, chosen[s as usize]);
                    assert_eq!(own.received, CardSet::EMPTY);
                    assert_eq!(game.phase(), Phase::Passing);
                } else {
                    let passed: Vec<_> = events
                        .iter()
                        .filter(|e| matches!(e, Event::CardsPassed { .. }))
                        .collect();
                    assert_eq!(passed.len(), 4);
                }
            }
            assert_eq!(game.phase(), Phase::Playing);
            for from in 0..4usize {
                let to = (from + steps) % 4;
                assert_eq!(game.received_by(Seat(to as u8)), chosen[from]);
                assert_eq!(
                    game.hand(Seat(to as u8)),
                    (before[to] - chosen[to]) | chosen[from]
                );
            }
            finish_hand(&mut game);
        }
    }

    #[test]
    fn the_holder_of_the_two_of_clubs_leads_it_even_after_receiving_it() {
        let mut game =
            Game::with_deck(Variant::Hearts, &Options::default(), 1, suits_deal()).unwrap();
        pass(&mut game, 0, "2C 3C 4C");
        pass(&mut game, 1, "2D 3D 4D");
        pass(&mut game, 2, "2H 3H 4H");
        pass(&mut game, 3, "2S 3S 4S");
        // Seat 1 received the two of clubs from seat 0 and must lead it.
        assert_eq!(game.next_to_play(), Seat(1));
        assert_eq!(
            game.legal_actions(Seat(1)),
            Legal::Play { cards: set("2c") }
        );
        refused(
            &mut game,
            1,
            play_action("3C"),
            RuleError::MustLeadTwoOfClubs,
            "the two of clubs must lead the first trick",
        );
        play(&mut game, 1, "2C");
    }

    #[test]
    fn first_trick_bans_points_unless_the_hand_holds_nothing_else() {
        let deck = deck_of(
            3,
            &[
                "23456789TJQKAc",
                "23456789TJQKAd",
                "23456789TJQKh Qs",
                "Ah 23456789TJKAs",
            ],
            "",
        );
        let options = opts(false, Moon::Add, 100);
        let mut game = Game::with_deck(Variant::Hearts, &options, 1, deck).unwrap();
        assert_eq!(game.next_to_play(), Seat(0));
        play(&mut game, 0, "2C");
        play(&mut game, 1, "2D");
        // Only hearts and the queen of spades: anything goes, even the queen.
        assert_eq!(game.legal_plays(Seat(2)), game.hand(Seat(2)));
        assert_eq!(game.legal_plays(Seat(2)).len(), 13);
        play(&mut game, 2, "QS");
        assert!(
            !game.hearts_broken(),
            "the queen of spades does not break hearts"
        );
        // Seat 3 holds spades besides the ace of hearts: the heart is refused.
        assert_eq!(game.legal_plays(Seat(3)), set("23456789TJKAs"));
        refused(
            &mut game,
            3,
            play_action("AH"),
            RuleError::NoPointsOnFirstTrick,
            "no heart and not the queen of spades on the first trick while you hold another card",
        );
        play(&mut game, 3, "2S");
        // From the second trick on, points may be discarded.
        play(&mut game, 0, "3C");
        play(&mut game, 1, "3D");
        play(&mut game, 2, "2H");
        assert!(game.hearts_broken());
        play(&mut game, 3, "AH");
    }

    /// Seat 0 ends up with nothing but hearts while hearts are still unbroken.
    fn unbroken_deal() -> [parlor_shared::Card; 52] {
        deck_of(
            3,
            &[
                "2QKAc 23456789Th",
                "3456789TJc 2345d",
                "6789TJQKAd 2345s",
                "6789TJQKAs JQKAh",
            ],
            "",
        )
    }

    #[test]
    fn hearts_are_not_led_until_broken_unless_the_leader_holds_only_hearts() {
        let options = opts(false, Moon::Add, 100);
        let mut game = Game::with_deck(Variant::Hearts, &options, 1, unbroken_deal()).unwrap();
        play(&mut game, 0, "2C");
        play(&mut game, 1, "3C");
        play(&mut game, 2, "2S");
        refused(
            &mut game,
            3,
            play_action("QS"),
            RuleError::NoPointsOnFirstTrick,
            "no heart and not the queen of spades on the first trick while you hold another card",
        );
        refused(
            &mut game,
            3,
            play_action("JH"),
            RuleError::NoPointsOnFirstTrick,
            "no heart and not the queen of spades on the first trick while you hold another card",
        );
        play(&mut game, 3, "6S");
        trick(&mut game, 1, "4C 3S 7S AC");
        // Seat 0 leads, holds clubs and hearts, hearts unbroken.
        assert_eq!(game.next_to_play(), Seat(0));
        assert_eq!(game.legal_plays(Seat(0)), set("QKc"));
        refused(
            &mut game,
            0,
            play_action("2H"),
            RuleError::HeartsNotBroken,
            "hearts are not broken yet: lead another suit",
        );
        trick(&mut game, 0, "KC 5C 4S QS");
        assert!(
            !game.hearts_broken(),
            "the queen of spades does not break hearts"
        );
        trick(&mut game, 0, "QC 6C 5S 8S");
        // Only hearts left and still unbroken: a heart may be led.
        assert!(!game.hearts_broken());
        assert_eq!(game.hand(Seat(0)), set("23456789Th"));
        assert_eq!(game.legal_plays(Seat(0)), game.hand(Seat(0)));
        play(&mut game, 0, "2H");
        assert!(game.hearts_broken());

        // The hand scores 26: a heart 1, the queen 13, each to whoever took it.
        let events = finish_hand(&mut game);
        let result = &game.history()[0];
        assert_eq!(result.points.as_slice().iter().sum::<i32>(), 26);
        assert_eq!(result.moon, None);
        // Seat 0 took the queen of spades in the third trick.
        assert!(result.points[Seat(0)] >= 13);
        let mut taken = taken_from(&events, 4);
        // Trick four and the cards before are not in `events`: add what seat 0 took then.
        taken[0] |= set("Qs");
        for s in Seat::all(4) {
            let cards = taken[s.index()];
            let expected = cards.of_suit(Suit::Hearts).len() as i32
                + if cards.contains(card("QS")) { 13 } else { 0 };
            assert_eq!(result.points[s], expected, "{s}");
        }
        assert_eq!(game.totals(), result.points);
    }

    #[test]
    fn shooting_the_moon_adds_26_to_the_others() {
        let options = opts(false, Moon::Add, 100);
        let mut game = Game::with_deck(Variant::Hearts, &options, 1, suits_deal()).unwrap();
        let events = finish_hand(&mut game);
        assert_eq!(taken_from(&events, 4)[0], CardSet::FULL);
        let result = &scored(&events)[0];
        assert_eq!(result.moon, Some(Seat(0)));
        assert_eq!(result.points.as_slice(), &[0, 26, 26, 26]);
        assert_eq!(game.totals().as_slice(), &[0, 26, 26, 26]);
    }

    #[test]
    fn shooting_the_moon_can_subtract_26_from_the_shooter() {
        let options = opts(false, Moon::Subtract, 100);
        let mut game = Game::with_deck(Variant::Hearts, &options, 1, suits_deal()).unwrap();
        let events = finish_hand(&mut game);
        let result = &scored(&events)[0];
        assert_eq!(result.moon, Some(Seat(0)));
        assert_eq!(result.points.as_slice(), &[-26, 0, 0, 0]);
        assert_eq!(game.totals().as_slice(), &[-26, 0, 0, 0]);
    }

    #[test]
    fn the_match_ends_at_the_target_and_the_lowest_total_wins() {
        let options = opts(false, Moon::Add, 26);
        let mut game = Game::with_deck(Variant::Hearts, &options, 1, suits_deal()).unwrap();
        let events = finish_hand(&mut game);
        assert!(game.is_over());
        assert_eq!(game.phase(), Phase::MatchOver);
        assert_eq!(game.winners(), &seats(&[0]));
        assert!(events.contains(&Event::MatchOver {
            winners: seats(&[0]).into(),
            totals: game.totals()
        }));
        assert_eq!(game.to_act().iter().count(), 0);
    }

    #[test]
    fn the_match_goes_on_below_the_target_and_equal_lowest_totals_share_the_win() {
        let options = opts(false, Moon::Add, 50);
        let mut game = Game::with_deck(Variant::Hearts, &options, 1, suits_deal()).unwrap();
        // Hand 1 (dealt by seat 0): seat 1 holds every club and shoots the moon too.
        game.stack_deck(deck_of(
            0,
            &[
                "23456789TJQKAs",
                "23456789TJQKAc",
                "23456789TJQKAd",
                "23456789TJQKAh",
            ],
            "",
        ));
        finish_hand(&mut game);
        assert!(!game.is_over(), "26 is below the target of 50");
        assert_eq!(game.hand_number(), 1);
        assert_eq!(game.dealer(), Seat(0));
        assert_eq!(game.next_to_play(), Seat(1));
        finish_hand(&mut game);
        assert_eq!(game.totals().as_slice(), &[26, 26, 52, 52]);
        assert!(game.is_over());
        assert_eq!(game.winners(), &seats(&[0, 1]));
    }
}

mod filippa {
    use super::*;
    use parlor_shared::Card;
    use parlor_shared::rules::filippa::penalty;

    fn target(t: i32) -> Options {
        Options {
            target: Some(t),
            ..Options::default()
        }
    }

    /// Dealt by `dealer`; after the passes the seat left of the dealer holds the ten top
    /// clubs and the three top spades, and so takes every trick.
    fn takes_all(game: &mut Game, leader: u8) {
        let l = |k: u8| (leader + k) % 4;
        pass(game, l(0), "2C 3C 4C");
        pass(game, l(1), "2D 3D 4D");
        pass(game, l(2), "2H 3H 4H");
        pass(game, l(3), "QS KS AS");
        assert_eq!(game.hand(Seat(l(0))), set("56789TJQKAc QKAs"));
    }

    fn takes_all_deck(dealer: u8) -> [Card; 52] {
        let suits = ["c", "d", "h", "s"];
        let mut hands = [""; 4].map(String::from);
        for k in 0..4u8 {
            hands[((dealer + 1 + k) % 4) as usize] = format!("23456789TJQKA{}", suits[k as usize]);
        }
        let hands: Vec<&str> = hands.iter().map(String::as_str).collect();
        deck_of(dealer, &hands, "")
    }

    #[test]
    fn every_hand_passes_three_cards_to_the_left() {
        let mut game = Game::new(Variant::Filippa, &target(100_000), 4).unwrap();
        for h in 0..5 {
            assert_eq!(game.hand_number(), h);
            assert_eq!(game.pass_direction(), Some(PassDirection::Left));
            assert_eq!(game.phase(), Phase::Passing);
            let before: Vec<CardSet> = Seat::all(4).map(|s| game.hand(s)).collect();
            finish_passes(&mut game);
            for from in 0..4usize {
                let to = (from + 1) % 4;
                let given: CardSet = before[from].iter().take(3).collect();
                assert_eq!(game.received_by(Seat(to as u8)), given);
            }
            finish_hand(&mut game);
        }
    }

    fn finish_passes(game: &mut Game) {
        while game.phase() == Phase::Passing {
            let (seat, action) = lowest_action(game).unwrap();
            game.apply(seat, &action).unwrap();
        }
    }

    #[test]
    fn the_seat_left_of_the_dealer_leads_any_card() {
        let mut game = Game::new(Variant::Filippa, &target(100_000), 9).unwrap();
        for h in 0..3u8 {
            finish_passes(&mut game);
            let leader = Seat(h % 4);
            assert_eq!(game.dealer(), Seat((h + 3) % 4));
            assert_eq!(game.next_to_play(), leader);
            assert_eq!(game.legal_plays(leader), game.hand(leader));
            let lead = game
                .hand(leader)
                .of_suit(Suit::Hearts)
                .highest()
                .unwrap_or_else(|| game.hand(leader).highest().unwrap());
            game.apply(leader, &Action::Play { card: lead }).unwrap();
            finish_hand(&mut game);
        }
    }

    #[test]
    fn the_penalty_table() {
        let expect = [
            ("QS", -13),
            ("AH", -5),
            ("KH", -4),
            ("QH", -3),
            ("JH", -2),
            ("TH", -1),
            ("2H", -1),
            ("KS", 0),
            ("AC", 0),
            ("QD", 0),
        ];
        for (c, p) in expect {
            assert_eq!(penalty(card(c)), p, "{c}");
        }
        let total: i32 = CardSet::FULL.iter().map(penalty).sum();
        assert_eq!(total, -36);
        let penalised = CardSet::FULL.iter().filter(|c| penalty(*c) != 0).count();
        assert_eq!(penalised, 14);
    }

    #[test]
    fn clean_players_share_the_pool_of_36() {
        let mut game =
            Game::with_deck(Variant::Filippa, &target(100), 1, takes_all_deck(3)).unwrap();
        assert_eq!(game.pool(), 36);
        takes_all(&mut game, 0);
        let events = finish_hand(&mut game);
        assert_eq!(taken_from(&events, 4)[0], CardSet::FULL);
        let result = &scored(&events)[0];
        assert_eq!(result.penalties.as_slice(), &[-36, 0, 0, 0]);
        assert_eq!(result.points.as_slice(), &[0, 12, 12, 12]);
        assert_eq!(result.pool_carried, 0);
        assert_eq!(game.totals().as_slice(), &[0, 12, 12, 12]);
        assert_eq!(game.negatives().as_slice(), &[-36, 0, 0, 0]);
        assert_eq!(game.pool(), 36);
        assert!(!game.is_over());
    }

    #[test]
    fn the_pool_carries_over_when_everyone_took_a_penalty() {
        let deck = deck_of(
            3,
            &[
                "23456789TJQKAc",
                "23456789TJQKAd",
                "23456789TJQKAs",
                "23456789TJQKAh",
            ],
            "",
        );
        let mut game = Game::with_deck(Variant::Filippa, &target(100), 1, deck).unwrap();
        // Hand 1 is dealt by seat 0: seat 1 will take every trick.
        game.stack_deck(takes_all_deck(0));
        pass(&mut game, 0, "2C 3C 4C");
        pass(&mut game, 1, "2D 3D 4D");
        pass(&mut game, 2, "2S 3S 4S");
        pass(&mut game, 3, "2H 3H 4H");
        // Every seat takes a heart in the first four tricks.
        trick(&mut game, 0, "2H 5D 5S 5H");
        trick(&mut game, 3, "2S 3H 6D 6S");
        trick(&mut game, 2, "2D 6H 4H 7D");
        trick(&mut game, 1, "2C 3D 7H 5C");
        let events = finish_hand(&mut game);
        let result = &game.history()[0].clone();
        assert!(result.penalties.as_slice().iter().all(|p| *p < 0));
        assert_eq!(result.penalties.as_slice().iter().sum::<i32>(), -36);
        assert_eq!(result.points.as_slice(), &[0, 0, 0, 0]);
        assert_eq!(result.pool_carried, 36);
        assert!(scored(&events).contains(result));
        assert_eq!(game.totals().as_slice(), &[0, 0, 0, 0]);
        assert_eq!(game.negatives(), result.penalties);

        // The next hand's pool is 72, shared by the three clean players.
        assert_eq!(game.hand_number(), 1);
        assert_eq!(game.pool(), 72);
        assert_eq!(game.view(None).pool, 72);
        takes_all(&mut game, 1);
        finish_hand(&mut game);
        let second = &game.history()[1];
        assert_eq!(second.penalties.as_slice(), &[0, -36, 0, 0]);
        assert_eq!(second.points.as_slice(), &[24, 0, 24, 24]);
        assert_eq!(second.pool_carried, 0);
        assert_eq!(game.totals().as_slice(), &[24, 0, 24, 24]);
        let mut negatives = result.penalties;
        negatives[Seat(1)] -= 36;
        assert_eq!(game.negatives(), negatives);
        assert_eq!(game.pool(), 36);
    }

    #[test]
    fn the_match_ends_when_a_positive_total_reaches_the_target() {
        let mut game =
            Game::with_deck(Variant::Filippa, &target(13), 1, takes_all_deck(3)).unwrap();
        takes_all(&mut game, 0);
        finish_hand(&mut game);
        assert!(!game.is_over(), "12 is below 13");

        let mut game =
            Game::with_deck(Variant::Filippa, &target(12), 1, takes_all_deck(3)).unwrap();
        takes_all(&mut game, 0);
        let events = finish_hand(&mut game);
        assert!(game.is_over());
        // The highest positive total wins; equal highest share.
        assert_eq!(game.winners(), &seats(&[1, 2, 3]));
        assert!(events.iter().any(|e| matches!(e, Event::MatchOver { .. })));
    }
}

mod hearts5 {
    use super::*;
    use parlor_shared::bots::{Strategy, Uva181Bot};
    use parlor_shared::{Card, uva181};

    fn sample() -> [Card; 52] {
        uva181::parse_decks(include_str!("data/uva181_sample.txt")).unwrap()[0]
    }

    /// The ordered deck with `a` and `b` moved to the end, left over.
    fn with_leftover(a: &str, b: &str) -> [Card; 52] {
        let (a, b) = (card(a), card(b));
        let mut deck: Vec<Card> = CardSet::FULL
            .iter()
            .filter(|c| *c != a && *c != b)
            .collect();
        deck.push(a);
        deck.push(b);
        deck.try_into().unwrap()
    }

    #[test]
    fn deals_one_card_at_a_time_from_the_dealers_left_and_leaves_two() {
        let deck = sample();
        let game = Game::with_deck(Variant::Hearts5, &Options::default(), 0, deck).unwrap();
        assert_eq!(game.players(), 5);
        assert_eq!(game.dealer(), Seat(4));
        for s in 0..5usize {
            let expected: CardSet = (0..10).map(|k| deck[s + 5 * k]).collect();
            assert_eq!(game.hand(Seat(s as u8)), expected, "seat {s}");
        }
        assert_eq!(game.face_up(), [deck[50], deck[51]].into_iter().collect());
        // 6C and 3C are left: the six is higher, clubs are trump.
        assert_eq!(game.trump(), Some(Suit::Clubs));
        assert_eq!(game.next_to_play(), Seat(0));
        assert_eq!(game.legal_plays(Seat(0)), game.hand(Seat(0)));
        for viewer in [Some(Seat(2)), None] {
            let view = game.view(viewer);
            assert_eq!(view.face_up, game.face_up());
            assert_eq!(view.trump, Some(Suit::Clubs));
        }
    }

    #[test]
    fn trump_is_the_suit_of_the_higher_leftover_card_and_the_higher_suit_on_a_tie() {
        let cases = [
            ("KD", "3S", Suit::Diamonds),
            ("3S", "KD", Suit::Diamonds),
            ("7H", "7S", Suit::Spades),
            ("7S", "7H", Suit::Spades),
            ("7C", "7D", Suit::Diamonds),
            ("2H", "2C", Suit::Hearts),
            ("AC", "KS", Suit::Clubs),
        ];
        for (a, b, trump) in cases {
            let game = Game::with_deck(
                Variant::Hearts5,
                &Options::default(),
                0,
                with_leftover(a, b),
            )
            .unwrap();
            assert_eq!(game.trump(), Some(trump), "{a} {b}");
            assert_eq!(game.face_up(), set(&format!("{a} {b}").to_lowercase()));
        }
    }

    #[test]
    fn a_player_who_cannot_follow_must_trump() {
        let deck = deck_of(
            4,
            &[
                "3456789TJQc",
                "23456s 23456d",
                "789TJQKAd 23h",
                "456789TJQKh",
                "KAc Ah 789TJQKs",
            ],
            "AS 2C",
        );
        let mut game = Game::with_deck(Variant::Hearts5, &Options::default(), 0, deck).unwrap();
        assert_eq!(game.trump(), Some(Suit::Spades));
        play(&mut game, 0, "3C");
        assert_eq!(game.legal_plays(Seat(1)), set("23456s"));
        refused(
            &mut game,
            1,
            play_action("2D"),
            RuleError::MustTrump(Suit::Spades),
            "you cannot follow suit, so you must trump: you hold a spade",
        );
        play(&mut game, 1, "2S");
        // No club and no trump: any card.
        assert_eq!(game.legal_plays(Seat(2)), game.hand(Seat(2)));
        play(&mut game, 2, "2H");
        play(&mut game, 3, "4H");
        refused(
            &mut game,
            4,
            play_action("7S"),
            RuleError::MustFollowSuit(Suit::Clubs),
            "you must follow suit: you hold a club",
        );
        let events = play(&mut game, 4, "AC");
        // The two of trumps beats the ace of the led suit.
        assert!(events.contains(&Event::TrickWon {
            winner: Seat(1),
            cards: set("3A c 2s 24h")
        }));
        assert_eq!(game.next_to_play(), Seat(1));
        let events = finish_hand(&mut game);
        let points = scored(&events)[0].points;
        assert_eq!(points.as_slice().iter().sum::<i32>(), 104);
        assert_eq!(
            points[Seat(1)],
            2 + 4 + heart_values(taken_from(&events, 5)[1])
        );
    }

    fn heart_values(cards: CardSet) -> i32 {
        cards
            .of_suit(Suit::Hearts)
            .iter()
            .map(|c| i32::from(c.rank().value()))
            .sum()
    }

    #[test]
    fn hearts_score_their_face_value_and_left_over_hearts_score_nothing() {
        let mut game = Game::with_deck(
            Variant::Hearts5,
            &Options::default(),
            0,
            with_leftover("AH", "2C"),
        )
        .unwrap();
        assert_eq!(game.trump(), Some(Suit::Hearts));
        let events = finish_hand(&mut game);
        let result = &scored(&events)[0];
        let taken = taken_from(&events, 5);
        for s in Seat::all(5) {
            assert_eq!(result.points[s], heart_values(taken[s.index()]));
        }
        assert_eq!(result.points.as_slice().iter().sum::<i32>(), 104 - 14);
    }

    #[test]
    fn a_match_is_five_hands_each_player_dealing_once() {
        let mut game = Game::new(Variant::Hearts5, &Options::default(), 3).unwrap();
        let mut dealers = Vec::new();
        while !game.is_over() {
            dealers.push(game.dealer().0);
            finish_hand(&mut game);
        }
        assert_eq!(dealers, vec![4, 0, 1, 2, 3]);
        assert_eq!(game.history().len(), 5);
        let totals = game.totals();
        let min = *totals.as_slice().iter().min().unwrap();
        let lowest: Vec<Seat> = Seat::all(5).filter(|s| totals[*s] == min).collect();
        assert_eq!(game.winners(), lowest.as_slice());

        let two = Options {
            hands: Some(2),
            ..Options::default()
        };
        let mut game = Game::new(Variant::Hearts5, &two, 3).unwrap();
        finish_hand(&mut game);
        assert!(!game.is_over());
        finish_hand(&mut game);
        assert!(game.is_over());
    }

    #[test]
    fn the_uva_sample_through_the_engine_and_the_fixed_strategy_bot() {
        let one = Options {
            hands: Some(1),
            ..Options::default()
        };
        let mut game = Game::with_deck(Variant::Hearts5, &one, 0, sample()).unwrap();
        let mut bot = Uva181Bot;
        while !game.is_over() {
            let seat = game.next_to_play();
            let action = bot.choose(&game.view(Some(seat)));
            game.apply(seat, &action).unwrap();
        }
        // Dealer (seat 4) first, then clockwise.
        let t = game.totals();
        let dealer_first: Vec<i32> = [4, 0, 1, 2, 3].iter().map(|&s| t[Seat(s)]).collect();
        assert_eq!(dealer_first, vec![22, 0, 68, 0, 14]);
        assert_eq!(
            uva181::solve(include_str!("data/uva181_sample.txt")).unwrap(),
            " 22  0 68  0 14\n"
        );
    }
}

mod tricks {
    use super::*;
    use parlor_shared::rules::BadCard;

    fn opts(target: i32, bad_card: BadCard) -> Options {
        Options {
            target: Some(target),
            bad_card: Some(bad_card),
            ..Options::default()
        }
    }

    fn suits_deal() -> [parlor_shared::Card; 52] {
        deck_of(
            3,
            &[
                "23456789TJQKAc",
                "23456789TJQKAd",
                "23456789TJQKAh",
                "23456789TJQKAs",
            ],
            "",
        )
    }

    #[test]
    fn a_point_per_trick_and_the_first_player_moves_each_hand() {
        let mut game = Game::new(Variant::Tricks, &Options::default(), 21).unwrap();
        assert_eq!(game.pass_direction(), None);
        let mut totals = [0i32; 4];
        for h in 0..5u8 {
            assert_eq!(game.phase(), Phase::Playing);
            // The first player of hand h is seat h: after each hand the first becomes last.
            assert_eq!(game.next_to_play(), Seat(h % 4));
            assert_eq!(game.legal_plays(Seat(h % 4)), game.hand(Seat(h % 4)));
            let events = finish_hand(&mut game);
            let result = &scored(&events)[0];
            let tricks: Vec<i32> = result
                .tricks
                .as_slice()
                .iter()
                .map(|&t| i32::from(t))
                .collect();
            assert_eq!(result.points.as_slice(), tricks.as_slice());
            assert_eq!(tricks.iter().sum::<i32>(), 13);
            for s in 0..4 {
                totals[s] += tricks[s];
            }
            assert_eq!(game.totals().as_slice(), &totals);
        }
    }

    #[test]
    fn reaching_the_target_ends_the_match_at_once_mid_hand() {
        let mut game =
            Game::with_deck(Variant::Tricks, &opts(3, BadCard::Penalty), 1, suits_deal()).unwrap();
        trick(&mut game, 0, "2C 2D 2H 2S");
        trick(&mut game, 0, "3C 3D 3H 3S");
        assert!(!game.is_over());
        let events = trick(&mut game, 0, "4C 4D 4H 4S");
        assert!(game.is_over());
        assert_eq!(game.totals().as_slice(), &[3, 0, 0, 0]);
        assert_eq!(game.winners(), &seats(&[0]));
        assert_eq!(game.hand(Seat(0)).len(), 10, "the hand was not finished");
        let result = &scored(&events)[0];
        assert_eq!(result.points.as_slice(), &[3, 0, 0, 0]);
        refused(
            &mut game,
            0,
            play_action("5C"),
            RuleError::MatchOver,
            "the match is over",
        );
    }

    #[test]
    fn a_bad_card_costs_100_abandons_the_hand_keeps_its_points_and_deals_the_next() {
        let mut game =
            Game::with_deck(Variant::Tricks, &Options::default(), 1, suits_deal()).unwrap();
        trick(&mut game, 0, "2C 2D 2H 2S");
        play(&mut game, 0, "3C");
        // Seat 1 plays a card it does not hold.
        let events = game.apply(Seat(1), &play_action("AS")).unwrap();
        assert_eq!(
            events[0],
            Event::BadCard {
                seat: Seat(1),
                card: card("AS"),
                penalty: -100
            }
        );
        let result = &scored(&events)[0];
        assert_eq!(result.points.as_slice(), &[1, -100, 0, 0]);
        assert_eq!(game.totals().as_slice(), &[1, -100, 0, 0]);
        // The next hand is dealt and counts: seat 0 dealt it, seat 1 plays first.
        assert_eq!(game.hand_number(), 1);
        assert_eq!(game.dealer(), Seat(0));
        assert_eq!(game.next_to_play(), Seat(1));
        assert!(Seat::all(4).all(|s| game.hand(s).len() == 13));
        assert!(events.contains(&Event::HandStarted {
            hand: 1,
            dealer: Seat(0),
            pass: None,
            commitment: None,
            hand_size: None,
        }));

        // A held card that breaks the follow-suit rule is a bad card too.
        let leader = Seat(1);
        let next = Seat(2);
        let (lead, wrong) = game
            .hand(leader)
            .iter()
            .find_map(|lead| {
                let hand = game.hand(next);
                let other = hand - CardSet::suit(lead.suit());
                (hand.has_suit(lead.suit()) && !other.is_empty())
                    .then(|| (lead, other.lowest().unwrap()))
            })
            .expect("some lead the next seat can follow but need not");
        game.apply(leader, &Action::Play { card: lead }).unwrap();
        let events = game.apply(next, &Action::Play { card: wrong }).unwrap();
        assert!(matches!(
            events[0],
            Event::BadCard {
                seat: Seat(2),
                penalty: -100,
                ..
            }
        ));
        assert_eq!(game.totals().as_slice(), &[1, -100, -100, 0]);
        assert_eq!(game.hand_number(), 2);
        assert_eq!(game.next_to_play(), Seat(2));
        assert_eq!(game.history().len(), 2);
    }

    #[test]
    fn bad_card_reject_refuses_and_asks_again() {
        let mut game = Game::with_deck(
            Variant::Tricks,
            &opts(1000, BadCard::Reject),
            1,
            suits_deal(),
        )
        .unwrap();
        play(&mut game, 0, "2C");
        refused(
            &mut game,
            1,
            play_action("AS"),
            RuleError::CardNotHeld(card("AS")),
            "you do not hold the ace of spades",
        );
        assert_eq!(game.next_to_play(), Seat(1));
        play(&mut game, 1, "2D");
    }

    #[test]
    fn bad_card_reject_refuses_a_card_that_does_not_follow_suit() {
        let mut game = Game::new(Variant::Tricks, &opts(1000, BadCard::Reject), 5).unwrap();
        let (lead, wrong, suit) = game
            .hand(Seat(0))
            .iter()
            .find_map(|lead| {
                let hand = game.hand(Seat(1));
                let other = hand - CardSet::suit(lead.suit());
                (hand.has_suit(lead.suit()) && !other.is_empty())
                    .then(|| (lead, other.lowest().unwrap(), lead.suit()))
            })
            .unwrap();
        game.apply(Seat(0), &Action::Play { card: lead }).unwrap();
        let message = format!("you must follow suit: you hold {}", suit.a_card_of());
        refused(
            &mut game,
            1,
            Action::Play { card: wrong },
            RuleError::MustFollowSuit(suit),
            &message,
        );
    }
}

mod whist {
    use super::*;
    use parlor_shared::Card;

    /// Seat 0 clubs, 1 diamonds, 2 hearts, 3 (the dealer) spades with 7♠ dealt last.
    fn deal() -> [Card; 52] {
        let mut spades = cards("2S 3S 4S 5S 6S 8S 9S TS JS QS KS AS");
        spades.push(card("7S"));
        let hands = vec![
            set("23456789TJQKAc").to_vec(),
            set("23456789TJQKAd").to_vec(),
            set("23456789TJQKAh").to_vec(),
            spades,
        ];
        deck_for(3, &hands, &[])
    }

    #[test]
    fn trump_is_the_dealers_last_card_shown_to_all_until_it_is_played() {
        let deck = deal();
        assert_eq!(deck[51], card("7S"));
        let mut game = Game::with_deck(Variant::Whist, &Options::default(), 1, deck).unwrap();
        assert_eq!(game.trump(), Some(Suit::Spades));
        assert_eq!(game.face_up(), set("7s"));
        assert!(
            game.hand(Seat(3)).contains(card("7S")),
            "it stays in the dealer's hand"
        );
        assert!(game.opening_events().contains(&Event::TrumpShown {
            trump: Suit::Spades,
            cards: set("7s")
        }));
        let visible_to_all = |game: &Game, face_up: CardSet| {
            for viewer in [
                Some(Seat(0)),
                Some(Seat(1)),
                Some(Seat(2)),
                Some(Seat(3)),
                None,
            ] {
                let view = game.view(viewer);
                assert_eq!(view.face_up, face_up, "{viewer:?}");
                assert_eq!(view.trump, Some(Suit::Spades));
            }
            assert_eq!(game.view(None).hand, CardSet::EMPTY);
        };
        visible_to_all(&game, set("7s"));
        // The seat left of the dealer leads; seat 3 trumps the club with the two.
        assert_eq!(game.next_to_play(), Seat(0));
        let events = trick(&mut game, 0, "2C 2D 2H 2S");
        assert!(events.contains(&Event::TrickWon {
            winner: Seat(3),
            cards: set("2c 2d 2h 2s")
        }));
        visible_to_all(&game, set("7s"));
        play(&mut game, 3, "7S");
        visible_to_all(&game, CardSet::EMPTY);
    }

    #[test]
    fn partnerships_score_the_tricks_over_six_and_win_at_five() {
        let mut game = Game::with_deck(Variant::Whist, &Options::default(), 1, deal()).unwrap();
        let events = finish_hand(&mut game);
        let result = &scored(&events)[0];
        assert_eq!(result.tricks.as_slice(), &[0, 0, 0, 13]);
        // East-West took 13 tricks: 7 points each for seats 1 and 3.
        assert_eq!(result.points.as_slice(), &[0, 7, 0, 7]);
        assert!(game.is_over());
        assert_eq!(game.winners(), &seats(&[1, 3]));
    }

    #[test]
    fn scores_accumulate_below_the_target() {
        let options = Options {
            target: Some(14),
            ..Options::default()
        };
        let mut game = Game::with_deck(Variant::Whist, &options, 1, deal()).unwrap();
        // Hand 1 (dealt by seat 0, who holds the spades): North-South take everything.
        let mut spades = cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS");
        spades.push(card("AS"));
        game.stack_deck(deck_for(
            0,
            &[
                spades,
                set("23456789TJQKAc").to_vec(),
                set("23456789TJQKAd").to_vec(),
                set("23456789TJQKAh").to_vec(),
            ],
            &[],
        ));
        finish_hand(&mut game);
        assert_eq!(game.totals().as_slice(), &[0, 7, 0, 7]);
        assert_eq!(game.dealer(), Seat(0));
        assert_eq!(game.face_up(), set("As"));
        assert_eq!(game.next_to_play(), Seat(1));
        let events = finish_hand(&mut game);
        assert_eq!(scored(&events)[0].points.as_slice(), &[7, 0, 7, 0]);
        assert_eq!(game.totals().as_slice(), &[7, 7, 7, 7]);
        assert!(!game.is_over());
    }
}

/// Every `RuleError` variant, with its exact message, leaves the game unchanged.
mod spades {
    use super::*;
    use parlor_shared::Card;

    /// Seat 0 the spades, seat 1 the clubs, seat 2 the diamonds, seat 3 (the dealer) the hearts.
    fn suits_deal() -> [Card; 52] {
        deck_of(
            3,
            &[
                "23456789TJQKAs",
                "23456789TJQKAc",
                "23456789TJQKAd",
                "23456789TJQKAh",
            ],
            "",
        )
    }

    fn bids(game: &mut Game, first: u8, tricks: [u8; 4]) -> Vec<Event> {
        let mut events = Vec::new();
        for (k, t) in tricks.into_iter().enumerate() {
            events.extend(bid(game, (first + k as u8) % 4, t));
        }
        events
    }

    #[test]
    fn each_seat_bids_from_the_dealers_left_and_the_dealers_left_leads() {
        let mut game =
            Game::with_deck(Variant::Spades, &Options::default(), 1, suits_deal()).unwrap();
        assert_eq!(game.phase(), Phase::Bidding);
        assert!(game.opening_events().contains(&Event::TrumpShown {
            trump: Suit::Spades,
            cards: CardSet::EMPTY
        }));
        assert_eq!(
            game.legal_actions(Seat(0)),
            Legal::Bid {
                min: 0,
                max: 13,
                forbidden: None
            }
        );
        assert_eq!(game.legal_actions(Seat(1)), Legal::Wait);
        refused(
            &mut game,
            1,
            Action::Bid { tricks: 3 },
            RuleError::NotYourTurn,
            "it is not your turn",
        );
        refused(
            &mut game,
            0,
            Action::Bid { tricks: 14 },
            RuleError::BidOutOfRange { min: 0, max: 13 },
            "bid between 0 and 13",
        );
        refused(
            &mut game,
            0,
            play_action("2S"),
            RuleError::BiddingNow,
            "the players are bidding now: make your bid",
        );
        let events = bids(&mut game, 0, [5, 0, 3, 2]);
        assert_eq!(events.len(), 4);
        assert_eq!(
            game.view(None).bids.unwrap().as_slice(),
            &[Some(5), Some(0), Some(3), Some(2)]
        );
        assert_eq!(game.phase(), Phase::Playing);
        assert_eq!(game.next_to_play(), Seat(0));
    }

    #[test]
    fn without_nil_the_lowest_bid_is_one() {
        let options = Options {
            nil: Some(false),
            ..Options::default()
        };
        let mut game = Game::with_deck(Variant::Spades, &options, 1, suits_deal()).unwrap();
        refused(
            &mut game,
            0,
            Action::Bid { tricks: 0 },
            RuleError::BidOutOfRange { min: 1, max: 13 },
            "bid between 1 and 13",
        );
    }

    #[test]
    fn spades_are_not_led_until_broken_unless_the_leader_holds_only_spades() {
        // Seat 0: the two of clubs and twelve spades; seat 1: the other clubs and the ace of
        // spades; seat 2 the diamonds, seat 3 the hearts.
        let deck = deck_of(
            3,
            &[
                "2c 23456789TJQKs",
                "3456789TJQKAc As",
                "23456789TJQKAd",
                "23456789TJQKAh",
            ],
            "",
        );
        let mut game = Game::with_deck(Variant::Spades, &Options::default(), 1, deck).unwrap();
        bids(&mut game, 0, [6, 2, 1, 1]);
        assert_eq!(game.legal_plays(Seat(0)), set("2c"));
        refused(
            &mut game,
            0,
            play_action("5S"),
            RuleError::SpadesNotBroken,
            "spades are not broken yet: lead another suit",
        );
        trick(&mut game, 0, "2C 3C 2D 2H");
        // Seat 1 won; the ace of spades may not lead yet.
        refused(
            &mut game,
            1,
            play_action("AS"),
            RuleError::SpadesNotBroken,
            "spades are not broken yet: lead another suit",
        );
        // Seat 0, out of clubs, trumps: spades are broken.
        let events = trick(&mut game, 1, "4C 3D 3H 2S");
        assert!(events.contains(&Event::TrickWon {
            winner: Seat(0),
            cards: set("4c 3d 3h 2s")
        }));
        // Seat 0 leads a spade; seat 1 must follow with its ace.
        let events = trick(&mut game, 0, "3S AS 4D 4H");
        assert!(events.contains(&Event::TrickWon {
            winner: Seat(1),
            cards: set("3s as 4d 4h")
        }));

        // A leader who holds only spades may lead one before they are broken.
        let mut game =
            Game::with_deck(Variant::Spades, &Options::default(), 1, suits_deal()).unwrap();
        bids(&mut game, 0, [13, 0, 0, 0]);
        assert_eq!(game.legal_plays(Seat(0)), set("23456789TJQKAs"));
        // With `spades_broken` off, spades lead at once.
        let options = Options {
            spades_broken: Some(false),
            ..Options::default()
        };
        let deck = deck_of(
            3,
            &[
                "2c 23456789TJQKs",
                "3456789TJQKAc As",
                "23456789TJQKAd",
                "23456789TJQKAh",
            ],
            "",
        );
        let mut game = Game::with_deck(Variant::Spades, &options, 1, deck).unwrap();
        bids(&mut game, 0, [6, 2, 1, 1]);
        assert_eq!(game.legal_plays(Seat(0)), game.hand(Seat(0)));
    }

    #[test]
    fn a_hand_scores_contracts_bags_and_nil_for_both_partners() {
        let mut game =
            Game::with_deck(Variant::Spades, &Options::default(), 1, suits_deal()).unwrap();
        bids(&mut game, 0, [5, 0, 3, 2]);
        let events = finish_hand(&mut game);
        let line = &scored(&events)[0];
        // Seat 0 takes every trick with its spades: North/South bid 8 and make 13 (80 and 5
        // bags); East's nil is made (100), West is set (−20).
        assert_eq!(line.tricks.as_slice(), &[13, 0, 0, 0]);
        assert_eq!(line.points.as_slice(), &[85, 80, 85, 80]);
        assert_eq!(line.bids.unwrap().as_slice(), &[5, 0, 3, 2]);
        assert_eq!(line.bags.unwrap().as_slice(), &[5, 0, 5, 0]);
        assert_eq!(
            line.nil.unwrap().as_slice(),
            &[None, Some(true), None, None]
        );
        assert_eq!(line.bag_penalty, None);
        assert_eq!(game.totals().as_slice(), &[85, 80, 85, 80]);
        // The next hand: seat 0 deals, seat 1 bids first.
        assert_eq!(game.dealer(), Seat(0));
        assert_eq!(game.to_act().first(), Some(Seat(1)));
        assert_eq!(
            game.view(Some(Seat(2))).bids.unwrap().as_slice(),
            &[None; 4]
        );
    }

    #[test]
    fn the_side_that_reaches_the_target_wins_both_partners() {
        let options = Options {
            target: Some(80),
            ..Options::default()
        };
        let mut game = Game::with_deck(Variant::Spades, &options, 1, suits_deal()).unwrap();
        bids(&mut game, 0, [5, 0, 3, 2]);
        finish_hand(&mut game);
        assert!(game.is_over());
        assert_eq!(game.winners(), &seats(&[0, 2]));
        // A side at the mercy line loses: East and West both bid 13, and are set (−260);
        // North/South make 2 with 11 bags, which cost 100 (−69).
        let options = Options {
            mercy: Some(250),
            ..Options::default()
        };
        let mut game = Game::with_deck(Variant::Spades, &options, 1, suits_deal()).unwrap();
        bids(&mut game, 0, [1, 13, 1, 13]);
        finish_hand(&mut game);
        assert_eq!(game.totals().as_slice(), &[-69, -260, -69, -260]);
        assert!(game.is_over());
        assert_eq!(game.winners(), &seats(&[0, 2]));
    }
}

mod ohhell {
    use super::*;
    use parlor_shared::Card;
    use parlor_shared::rules::{OhHellScoring, Schedule};

    /// A deck that deals `hands` (one card each, the dealer last) and turns `turned` up.
    fn one_card_deck(hands: &[&str], turned: &str) -> [Card; 52] {
        let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
        let dealt: CardSet = hands
            .iter()
            .flatten()
            .copied()
            .chain([card(turned)])
            .collect();
        let mut leftover = vec![card(turned)];
        leftover.extend((CardSet::FULL - dealt).iter());
        deck_for(hands.len() as u8 - 1, &hands, &leftover)
    }

    fn up(players: u8, scoring: OhHellScoring) -> Options {
        Options {
            players: Some(players),
            schedule: Some(Schedule::Up),
            scoring: Some(scoring),
            ..Options::default()
        }
    }

    #[test]
    fn the_card_after_the_deal_sets_trump_and_the_hook_forbids_the_dealer_one_bid() {
        let deck = one_card_deck(&["AS", "KS", "2H"], "3H");
        let mut game =
            Game::with_deck(Variant::OhHell, &up(3, OhHellScoring::Standard), 1, deck).unwrap();
        assert_eq!(game.trump(), Some(Suit::Hearts));
        assert_eq!(game.face_up(), set("3h"));
        assert!(game.opening_events().contains(&Event::TrumpShown {
            trump: Suit::Hearts,
            cards: set("3h")
        }));
        assert!(game.opening_events().contains(&Event::HandStarted {
            hand: 0,
            dealer: Seat(2),
            pass: None,
            commitment: None,
            hand_size: Some(1),
        }));
        bid(&mut game, 0, 1);
        assert_eq!(
            game.legal_actions(Seat(1)),
            Legal::Bid {
                min: 0,
                max: 1,
                forbidden: None
            }
        );
        bid(&mut game, 1, 0);
        assert_eq!(
            game.legal_actions(Seat(2)),
            Legal::Bid {
                min: 0,
                max: 1,
                forbidden: Some(0)
            }
        );
        refused(
            &mut game,
            2,
            Action::Bid { tricks: 0 },
            RuleError::BidsWouldAddUp { bid: 0, tricks: 1 },
            "the dealer may not bid 0: the bids would add up to the tricks (1)",
        );
        bid(&mut game, 2, 1);
        // The dealer's two of hearts trumps the spades.
        let events = trick(&mut game, 0, "AS KS 2H");
        let line = &scored(&events)[0];
        assert_eq!(line.tricks.as_slice(), &[0, 0, 1]);
        assert_eq!(line.bids.unwrap().as_slice(), &[1, 0, 1]);
        assert_eq!(line.points.as_slice(), &[0, 10, 11]);
        assert_eq!((line.bags, line.nil), (None, None));
    }

    #[test]
    fn without_the_hook_the_bids_may_add_up() {
        let deck = one_card_deck(&["AS", "KS", "2H"], "3H");
        let options = Options {
            hook: Some(false),
            ..up(3, OhHellScoring::Standard)
        };
        let mut game = Game::with_deck(Variant::OhHell, &options, 1, deck).unwrap();
        bid(&mut game, 0, 1);
        bid(&mut game, 1, 0);
        assert_eq!(
            game.legal_actions(Seat(2)),
            Legal::Bid {
                min: 0,
                max: 1,
                forbidden: None
            }
        );
        bid(&mut game, 2, 0);
    }

    #[test]
    fn each_scoring_scores_the_same_hand_its_way() {
        for (scoring, expected) in [
            (OhHellScoring::Standard, [0, 10, 11]),
            (OhHellScoring::MinusDifference, [-1, 10, 11]),
            (OhHellScoring::TricksPlusTen, [0, 10, 11]),
        ] {
            let deck = one_card_deck(&["AS", "KS", "2H"], "3H");
            let mut game = Game::with_deck(Variant::OhHell, &up(3, scoring), 1, deck).unwrap();
            bid(&mut game, 0, 1);
            bid(&mut game, 1, 0);
            bid(&mut game, 2, 1);
            let events = trick(&mut game, 0, "AS KS 2H");
            assert_eq!(
                scored(&events)[0].points.as_slice(),
                &expected,
                "{scoring:?}"
            );
        }
        // Tricks plus ten counts every trick: seat 2 bids 0 and takes one.
        let deck = one_card_deck(&["AS", "KS", "2H"], "3H");
        let mut game = Game::with_deck(
            Variant::OhHell,
            &up(3, OhHellScoring::TricksPlusTen),
            1,
            deck,
        )
        .unwrap();
        bid(&mut game, 0, 0);
        bid(&mut game, 1, 0);
        bid(&mut game, 2, 0);
        let events = trick(&mut game, 0, "AS KS 2H");
        assert_eq!(scored(&events)[0].points.as_slice(), &[10, 10, 1]);
    }

    /// The hand sizes a whole match deals, from the `hand_started` and `dealt` events.
    fn sizes_dealt(players: u8, schedule: Schedule) -> Vec<u32> {
        let options = Options {
            players: Some(players),
            schedule: Some(schedule),
            ..Options::default()
        };
        let mut game = Game::new(Variant::OhHell, &options, u64::from(players)).unwrap();
        let mut events = game.opening_events();
        while let Some((seat, action)) = lowest_action(&game) {
            events.extend(game.apply(seat, &action).unwrap());
        }
        let mut sizes = Vec::new();
        for event in &events {
            match event {
                Event::HandStarted { hand_size, .. } => sizes.push(hand_size.expect("announced")),
                Event::Dealt { cards, .. } => assert_eq!(Some(&cards.len()), sizes.last()),
                Event::TrumpShown { cards, .. } => assert_eq!(cards.len(), 1),
                _ => {}
            }
        }
        sizes
    }

    #[test]
    fn hand_sizes_go_down_from_the_largest_and_back_up_for_three_to_seven_players() {
        let down_up: Vec<u32> = (1..=12).rev().chain(2..=12).collect();
        assert_eq!(sizes_dealt(4, Schedule::DownUp), down_up);
        for (players, largest) in [(3, 17), (4, 12), (5, 10), (6, 8), (7, 7)] {
            let down: Vec<u32> = (1..=largest).rev().collect();
            let up: Vec<u32> = (1..=largest).collect();
            assert_eq!(
                sizes_dealt(players, Schedule::Down),
                down,
                "{players} seats"
            );
            assert_eq!(sizes_dealt(players, Schedule::Up), up, "{players} seats");
            let up_down: Vec<u32> = (1..=largest).chain((1..largest).rev()).collect();
            assert_eq!(
                sizes_dealt(players, Schedule::UpDown),
                up_down,
                "{players} seats"
            );
        }
    }

    #[test]
    fn the_highest_total_after_the_last_hand_wins() {
        let options = Options {
            players: Some(7),
            schedule: Some(Schedule::Up),
            ..Options::default()
        };
        let mut game = Game::new(Variant::OhHell, &options, 3).unwrap();
        assert_eq!(game.players(), 7);
        while let Some((seat, action)) = lowest_action(&game) {
            game.apply(seat, &action).unwrap();
        }
        assert_eq!(game.history().len(), 7);
        let best = *game.totals().as_slice().iter().max().unwrap();
        let expected: Vec<Seat> = Seat::all(7).filter(|s| game.totals()[*s] == best).collect();
        assert_eq!(game.winners(), expected.as_slice());
    }
}

mod errors {
    use super::*;

    fn hearts(passing: bool) -> Game {
        let options = Options {
            passing: Some(passing),
            ..Options::default()
        };
        let deck = deck_of(
            3,
            &[
                "23456789TJQKAc",
                "23456789TJQKAd",
                "23456789TJQKAh",
                "23456789TJQKAs",
            ],
            "",
        );
        Game::with_deck(Variant::Hearts, &options, 1, deck).unwrap()
    }

    #[test]
    fn turn_seat_and_phase_errors() {
        let mut game = hearts(false);
        refused(
            &mut game,
            1,
            play_action("2D"),
            RuleError::NotYourTurn,
            "it is not your turn",
        );
        refused(
            &mut game,
            7,
            play_action("2D"),
            RuleError::NoSuchSeat(Seat(7)),
            "there is no seat 7 at this table",
        );
        refused(
            &mut game,
            0,
            pass_action("2C 3C 4C"),
            RuleError::NotPassingNow,
            "there is no passing now: play a card",
        );
        refused(
            &mut game,
            0,
            play_action("QS"),
            RuleError::CardNotHeld(card("QS")),
            "you do not hold the queen of spades",
        );

        let mut game = hearts(true);
        refused(
            &mut game,
            0,
            play_action("2C"),
            RuleError::PassingNow,
            "cards are being passed now: choose the cards to pass",
        );
    }

    #[test]
    fn pass_errors() {
        let mut game = hearts(true);
        refused(
            &mut game,
            0,
            pass_action("2C 3C"),
            RuleError::WrongPassCount {
                expected: 3,
                got: 2,
            },
            "pass exactly 3 cards, not 2",
        );
        refused(
            &mut game,
            0,
            pass_action("2C 3C 4C 5C"),
            RuleError::WrongPassCount {
                expected: 3,
                got: 4,
            },
            "pass exactly 3 cards, not 4",
        );
        refused(
            &mut game,
            0,
            pass_action("2C 2C 4C"),
            RuleError::DuplicateInPass(card("2C")),
            "the two of clubs is in your pass twice",
        );
        refused(
            &mut game,
            0,
            pass_action("2C 3C AS"),
            RuleError::CardNotHeld(card("AS")),
            "you do not hold the ace of spades",
        );
        pass(&mut game, 0, "2C 3C 4C");
        refused(
            &mut game,
            0,
            pass_action("5C 6C 7C"),
            RuleError::AlreadyPassed,
            "you have already passed this hand",
        );
        refused(
            &mut game,
            9,
            pass_action("5C 6C 7C"),
            RuleError::NoSuchSeat(Seat(9)),
            "there is no seat 9 at this table",
        );
    }

    #[test]
    fn following_suit_is_required() {
        let deck = deck_of(
            3,
            &[
                "2QKAc 23456789Th",
                "3456789TJc 2345d",
                "6789TJQKAd 2345s",
                "6789TJQKAs JQKAh",
            ],
            "",
        );
        let options = Options {
            passing: Some(false),
            ..Options::default()
        };
        let mut game = Game::with_deck(Variant::Hearts, &options, 1, deck).unwrap();
        play(&mut game, 0, "2C");
        refused(
            &mut game,
            1,
            play_action("2D"),
            RuleError::MustFollowSuit(Suit::Clubs),
            "you must follow suit: you hold a club",
        );
    }

    #[test]
    fn after_the_match_nothing_is_allowed() {
        let options = Options {
            passing: Some(false),
            target: Some(1),
            ..Options::default()
        };
        let deck = deck_of(
            3,
            &[
                "23456789TJQKAc",
                "23456789TJQKAd",
                "23456789TJQKAh",
                "23456789TJQKAs",
            ],
            "",
        );
        let mut game = Game::with_deck(Variant::Hearts, &options, 1, deck).unwrap();
        finish_hand(&mut game);
        assert!(game.is_over());
        for seat in 0..4 {
            assert_eq!(game.legal_actions(Seat(seat)), Legal::Wait);
        }
        refused(
            &mut game,
            0,
            play_action("2C"),
            RuleError::MatchOver,
            "the match is over",
        );
        refused(
            &mut game,
            0,
            pass_action("2C 3C 4C"),
            RuleError::MatchOver,
            "the match is over",
        );
    }

    #[test]
    fn error_codes_are_distinct() {
        let errors = [
            RuleError::NotYourTurn,
            RuleError::NoSuchSeat(Seat(5)),
            RuleError::PassingNow,
            RuleError::NotPassingNow,
            RuleError::MatchOver,
            RuleError::CardNotHeld(card("2C")),
            RuleError::MustFollowSuit(Suit::Clubs),
            RuleError::MustLeadTwoOfClubs,
            RuleError::HeartsNotBroken,
            RuleError::NoPointsOnFirstTrick,
            RuleError::MustTrump(Suit::Spades),
            RuleError::WrongPassCount {
                expected: 3,
                got: 1,
            },
            RuleError::DuplicateInPass(card("2C")),
            RuleError::AlreadyPassed,
            RuleError::BiddingNow,
            RuleError::NotBiddingNow,
            RuleError::BidOutOfRange { min: 0, max: 13 },
            RuleError::BidsWouldAddUp { bid: 3, tricks: 5 },
            RuleError::SpadesNotBroken,
        ];
        let codes: std::collections::BTreeSet<_> = errors.iter().map(RuleError::code).collect();
        assert_eq!(codes.len(), errors.len());
    }
}

/// Private events reach only the seats allowed to see them.
mod visibility {
    use super::*;

    #[test]
    fn dealt_hands_and_passes_are_private() {
        let mut game = Game::new(Variant::Hearts, &Options::default(), 2).unwrap();
        for e in game.opening_events() {
            if let Event::Dealt { seat, .. } = e {
                for v in 0..4 {
                    assert_eq!(e.visible_to(Some(Seat(v))), Seat(v) == seat);
                }
                assert!(!e.visible_to(None));
            } else {
                assert!(e.visible_to(None));
            }
        }
        let mut events = Vec::new();
        for s in 0..4 {
            let (seat, action) = lowest_action(&game).unwrap();
            assert_eq!(seat, Seat(s));
            events.extend(game.apply(seat, &action).unwrap());
        }
        let mut passes = 0;
        for e in &events {
            match e {
                Event::CardsPassed { from, to, .. } => {
                    passes += 1;
                    assert_eq!(*to, from.next(4));
                    for v in Seat::all(4) {
                        assert_eq!(e.visible_to(Some(v)), v == *from || v == *to);
                    }
                    assert!(!e.visible_to(None));
                }
                Event::PassChosen { .. } => assert!(e.visible_to(None)),
                other => panic!("unexpected {other:?}"),
            }
        }
        assert_eq!(passes, 4);
        let (seat, action) = lowest_action(&game).unwrap();
        for e in game.apply(seat, &action).unwrap() {
            assert!(e.visible_to(None), "plays are public: {e:?}");
        }
    }
}
