//! Property tests: random legal playouts of whole matches of every variant.
//!
//! Each step checks that the cards are all accounted for (the 52, or in Oh Hell those dealt and
//! turned up), that every legal move (card, pass or bid) is accepted and every other refused
//! with the game unchanged, that no view (any seat, the spectator) and no event a viewer
//! receives holds a card the viewer may not see; each hand checks the variant's score
//! invariant (in the games that bid, a score worked out again from the bids and tricks); each
//! match is replayed to check determinism. `bidding.rs` plays many more hands of the games
//! that bid, with fewer checks a step.

#![allow(clippy::needless_range_loop)] // Seat-indexed loops read like the rules.

mod common;

use common::bids::{ohhell_points, spades_line_blind};
use parlor_shared::deck::DeckRng;
use parlor_shared::rules::filippa::penalty;
use parlor_shared::rules::{BadCard, Call, HandResult, Legal, Moon, OhHellScoring, Schedule};
use parlor_shared::{
    Action, Card, CardSet, Event, Game, Options, Phase, PlayerView, RuleError, Seat, Suit, Variant,
};
use proptest::prelude::*;

/// Small match lengths so a whole match is a few hands.
fn options(variant: Variant, knob: u8) -> Options {
    let mut o = Options::default();
    match variant {
        Variant::Hearts => {
            o.target = Some(30 + i32::from(knob % 3) * 10);
            o.moon = Some(if knob & 4 == 0 {
                Moon::Add
            } else {
                Moon::Subtract
            });
            o.passing = Some(knob & 8 == 0 || knob & 16 == 0);
        }
        Variant::Filippa => o.target = Some(30 + i32::from(knob % 4) * 10),
        Variant::Hearts5 => o.hands = Some(1 + u32::from(knob % 2)),
        Variant::Tricks => {
            o.target = Some(8 + i32::from(knob % 20));
            o.bad_card = Some(if knob & 32 == 0 {
                BadCard::Penalty
            } else {
                BadCard::Reject
            });
        }
        Variant::Whist => o.target = Some(1 + i32::from(knob % 2)),
        Variant::Spades => {
            o.target = Some(100 + i32::from(knob % 3) * 100);
            o.nil = Some(knob & 4 == 0);
            o.spades_broken = Some(knob & 8 == 0);
            o.bag_limit = Some([10, 0, 3, 5][usize::from(knob >> 4) % 4]);
            o.bag_penalty = Some(if knob & 64 == 0 { 100 } else { 50 });
            // Random bidders sink more than they climb: the mercy line ends their matches.
            o.mercy = Some(if knob & 128 == 0 { 200 } else { 100 });
            // Both on together too: the jokers deck under blind bids and exchanges.
            o.jokers = Some(knob & 1 == 1);
            if knob & 2 == 2 {
                o.blind_nil = Some(true);
                o.blind_nil_behind = Some(if knob & 1 == 0 { 100 } else { 0 });
            }
        }
        Variant::Bridge => {
            o.hands = Some(1 + u32::from(knob % 3));
            o.rubber = Some(knob & 8 == 0);
        }
        Variant::Euchre => {
            o.target = Some(3 + i32::from(knob % 4));
            o.stick_the_dealer = Some(knob & 8 == 0);
            o.alone = Some(knob & 16 == 0);
            o.defend_alone = Some(knob & 32 == 0);
        }
        Variant::OhHell => {
            o.players = Some(3 + knob % 5);
            o.schedule = Some(
                [
                    Schedule::Down,
                    Schedule::Up,
                    Schedule::DownUp,
                    Schedule::UpDown,
                ][usize::from(knob >> 3) % 4],
            );
            o.hook = Some(knob & 32 == 0);
            o.scoring = Some(
                [
                    OhHellScoring::Standard,
                    OhHellScoring::MinusDifference,
                    OhHellScoring::TricksPlusTen,
                ][usize::from(knob >> 6) % 3],
            );
        }
    }
    o
}

/// Every card named anywhere in a JSON document.
fn cards_in_json(value: &serde_json::Value, out: &mut CardSet) {
    match value {
        serde_json::Value::String(s) if s.len() == 2 => {
            if let Ok(card) = s.parse::<Card>() {
                out.insert(card);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| cards_in_json(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| cards_in_json(v, out)),
        _ => {}
    }
}

fn json_cards<T: serde::Serialize>(thing: &T) -> CardSet {
    let mut out = CardSet::EMPTY;
    cards_in_json(&serde_json::to_value(thing).unwrap(), &mut out);
    out
}

/// Cards played this hand: finished tricks and the trick on the table.
fn played(game: &Game) -> CardSet {
    let mut set: CardSet = game.trick().cards().iter().copied().collect();
    for t in game.completed_tricks() {
        set |= t.cards.iter().copied().collect::<CardSet>();
    }
    set
}

/// What `viewer` may know about cards: own hand and passes, played cards, face-up cards.
fn allowed(game: &Game, viewer: Option<Seat>) -> CardSet {
    let public = played(game) | game.face_up();
    match viewer {
        Some(s) => public | own_hand(game, s) | game.passed_by(s) | game.received_by(s),
        None => public,
    }
}

/// The cards `seat` holds as it sees them: none while they are face down (blind nil).
fn own_hand(game: &Game, seat: Seat) -> CardSet {
    if game.face_down().contains(seat) {
        CardSet::EMPTY
    } else {
        game.hand(seat)
    }
}

fn viewers(n: u8) -> Vec<Option<Seat>> {
    Seat::all(n).map(Some).chain([None]).collect()
}

/// The deck's 52 cards (with jokers, no two of clubs or diamonds) are in exactly one place: a
/// hand, a trick of this hand, or left over (in Oh Hell, where part of the deck is not dealt,
/// the cards dealt and the one turned up are).
fn check_cards_accounted(game: &Game) {
    let mut places: Vec<CardSet> = Seat::all(game.players()).map(|s| game.hand(s)).collect();
    places.extend(
        game.completed_tricks()
            .map(|t| t.cards.iter().copied().collect::<CardSet>()),
    );
    places.push(game.trick().cards().iter().copied().collect());
    match game.variant() {
        // The two undealt cards, face up.
        Variant::Hearts5 => {
            assert_eq!(game.face_up().len(), 2);
            places.push(game.face_up());
        }
        // The trump card is still in the dealer's hand until played.
        Variant::Whist => {
            assert!(game.face_up().len() <= 1);
            assert!((game.face_up() - game.hand(game.dealer())).is_empty());
        }
        // The card turned up for trump, in nobody's hand.
        Variant::OhHell => {
            assert_eq!(game.face_up().len(), 1);
            places.push(game.face_up());
        }
        _ => assert!(game.face_up().is_empty()),
    }
    let total: u32 = places.iter().map(|p| p.len()).sum();
    let union = places.iter().fold(CardSet::EMPTY, |a, b| a | *b);
    if game.variant() == Variant::OhHell {
        let dealt = u32::from(game.players()) * game.rules().hand_size(game.hand_number());
        assert_eq!(total, dealt + 1, "a card is missing");
        assert_eq!(union.len(), total, "a card is in two places");
    } else {
        assert_eq!(total, 52, "a card is in two places or missing");
        assert_eq!(union, game.rules().deck().cards());
    }
    // Passed cards stay in the giver's hand until every pass has been chosen.
    if game.phase() == Phase::Passing {
        for s in Seat::all(game.players()) {
            assert!((game.passed_by(s) - game.hand(s)).is_empty());
            assert!(game.received_by(s).is_empty());
        }
    }
}

/// No view holds a card its viewer may not see.
fn check_views(game: &Game) {
    for viewer in viewers(game.players()) {
        let view = PlayerView::of(game, viewer);
        let seen = json_cards(&view);
        let may = allowed(game, viewer);
        assert!(
            (seen - may).is_empty(),
            "{viewer:?} sees {:?} it may not",
            seen - may
        );
        match viewer {
            Some(s) => {
                assert_eq!(view.hand, own_hand(game, s));
                assert_eq!(view.legal, game.legal_actions(s));
            }
            None => {
                assert_eq!(view.hand, CardSet::EMPTY);
                assert_eq!(view.legal, Legal::Wait);
                if let Some(pass) = &view.pass {
                    assert!(pass.given.is_empty() && pass.received.is_empty());
                }
            }
        }
        assert_eq!(view.face_up, game.face_up());
        assert_eq!(view.played_cards(), played(game));
    }
}

/// Events go only where they may: private deals and passes to their seats, and no event a
/// viewer receives names a card the viewer could not know before or after it.
fn check_events(before: &Game, after: &Game, action: &Action, events: &[Event]) {
    let n = after.players();
    for event in events {
        match event {
            Event::Dealt { seat, .. } => {
                for v in viewers(n) {
                    assert_eq!(event.visible_to(v), v == Some(*seat));
                }
            }
            Event::CardsPassed { from, to, .. } => {
                for v in viewers(n) {
                    assert_eq!(event.visible_to(v), v == Some(*from) || v == Some(*to));
                }
            }
            // The seed announces a bad card to everyone; the hand is abandoned with it.
            Event::BadCard { .. } => continue,
            _ => assert!(viewers(n).into_iter().all(|v| event.visible_to(v))),
        }
        for v in viewers(n) {
            if !event.visible_to(v) {
                continue;
            }
            let mut may = allowed(before, v) | allowed(after, v);
            if let Action::Play { card } = action {
                may.insert(*card);
            }
            let seen = json_cards(event);
            assert!((seen - may).is_empty(), "{v:?} learns {:?}", seen - may);
        }
    }
}

/// What a hand's scoring depends on, noted when it starts and as it is played.
#[derive(Clone, Debug)]
struct HandStart {
    pool: i32,
    leftover_hearts: i32,
    taken: Vec<CardSet>,
    bad_card: Option<Seat>,
    tricks: u32,
    /// The cards each seat is dealt.
    hand_size: u32,
    /// The bids made, as the events told them.
    bids: Vec<Option<u8>>,
    /// Spades: each side's bags before the hand.
    bags: [i32; 2],
    /// Spades: the seats that bid blind nil, as the events told them.
    blind: Vec<usize>,
}

impl HandStart {
    fn of(game: &Game, bags: [i32; 2]) -> HandStart {
        HandStart {
            pool: game.pool(),
            leftover_hearts: hearts_value(game.face_up()),
            taken: vec![CardSet::EMPTY; game.players() as usize],
            bad_card: None,
            tricks: 0,
            hand_size: game.rules().hand_size(game.hand_number()),
            bids: vec![None; game.players() as usize],
            bags,
            blind: Vec::new(),
        }
    }
}

fn hearts_value(cards: CardSet) -> i32 {
    cards
        .of_suit(Suit::Hearts)
        .iter()
        .map(|c| i32::from(c.rank().value()))
        .sum()
}

/// Every call outside the legal ones is refused with a reason and changes nothing, and so is a
/// call from any other seat.
fn check_refused_calls(game: &mut Game, seat: Seat, legal: &Legal) {
    let before = game.clone();
    let mut every = vec![Call::Pass, Call::DefendAlone];
    for alone in [false, true] {
        every.push(Call::OrderUp { alone });
        for suit in Suit::ALL {
            every.push(Call::Trump { suit, alone });
        }
    }
    for call in every {
        if legal.allows(&Action::Call(call)) {
            continue;
        }
        let err = game.apply(seat, &Action::Call(call)).unwrap_err();
        assert!(!err.to_string().is_empty());
        assert!(*game == before, "a refused {call:?} changes nothing");
    }
    let other = seat.next(game.players());
    assert_eq!(
        game.apply(other, &Action::Call(Call::Pass)),
        Err(RuleError::NotYourTurn)
    );
    assert!(*game == before);
}

/// Euchre's score, worked out again from the rules: a thrown-in hand scores nothing; makers
/// with 3 or 4 tricks score 1, with all 5 score 2 (4 alone); makers under 3 are euchred and
/// the defenders score 2 (4 for a lone defender). Partners score alike, and nobody who sat
/// out took a trick.
fn check_euchre_hand(game: &Game, result: &HandResult) {
    let tricks = result.tricks.as_slice();
    let Some(made) = result.trump_made else {
        assert_eq!(
            tricks.iter().sum::<u8>(),
            0,
            "a thrown-in hand has no tricks"
        );
        assert_eq!(result.points.as_slice(), &[0, 0, 0, 0]);
        return;
    };
    assert_eq!(tricks.iter().map(|t| u32::from(*t)).sum::<u32>(), 5);
    if made.alone {
        assert_eq!(
            tricks[made.maker.partner().index()],
            0,
            "the lone maker's partner"
        );
    }
    if let Some(defender) = made.defender_alone {
        assert!(game.rules().defend_alone);
        assert_eq!(
            tricks[defender.partner().index()],
            0,
            "the lone defender's partner"
        );
    }
    let side = made.maker.index() % 2;
    let makers = tricks[side] + tricks[side + 2];
    let (winners, points) = match makers {
        5 if made.alone => (side, 4),
        5 => (side, 2),
        3 | 4 => (side, 1),
        _ if made.defender_alone.is_some() => (1 - side, 4),
        _ => (1 - side, 2),
    };
    for (s, p) in result.points.as_slice().iter().enumerate() {
        assert_eq!(*p, if s % 2 == winners { points } else { 0 });
    }
}

/// The variant's score invariant for one hand.
fn check_hand(game: &Game, start: &HandStart, result: &HandResult) {
    let n = game.players() as usize;
    let points = result.points.as_slice();
    let sum: i32 = points.iter().sum();
    let tricks: u32 = result.tricks.as_slice().iter().map(|&t| u32::from(t)).sum();
    assert_eq!(tricks, start.tricks);
    match game.variant() {
        Variant::Hearts => {
            assert_eq!(tricks, 13);
            let raw: Vec<i32> = start
                .taken
                .iter()
                .map(|t| {
                    t.of_suit(Suit::Hearts).len() as i32
                        + 13 * i32::from(t.contains(Card::QUEEN_OF_SPADES))
                })
                .collect();
            assert_eq!(raw.iter().sum::<i32>(), 26);
            match result.moon {
                None => {
                    assert_eq!(points, raw.as_slice());
                    assert_eq!(sum, 26);
                }
                Some(shooter) => {
                    assert_eq!(raw[shooter.index()], 26);
                    for (s, p) in points.iter().enumerate() {
                        let expected = match (game.rules().moon, s == shooter.index()) {
                            (Moon::Add, true) | (Moon::Subtract, false) => 0,
                            (Moon::Add, false) => 26,
                            (Moon::Subtract, true) => -26,
                        };
                        assert_eq!(*p, expected);
                    }
                }
            }
        }
        Variant::Filippa => {
            assert_eq!(tricks, 13);
            let minus = result.penalties.as_slice();
            assert_eq!(minus.iter().sum::<i32>(), -36);
            for s in 0..n {
                assert_eq!(minus[s], start.taken[s].iter().map(penalty).sum::<i32>());
            }
            let clean = minus.iter().filter(|p| **p == 0).count() as i32;
            assert!(clean <= 3);
            assert_eq!(start.pool % 36, 0);
            if clean == 0 {
                assert_eq!(sum, 0);
                assert_eq!(result.pool_carried, start.pool);
            } else {
                assert_eq!(sum, start.pool, "the pool is shared exactly");
                assert_eq!(result.pool_carried, 0);
                for s in 0..n {
                    let share = if minus[s] == 0 { start.pool / clean } else { 0 };
                    assert_eq!(points[s], share);
                }
            }
        }
        Variant::Hearts5 => {
            assert_eq!(tricks, 10);
            assert_eq!(sum, 104 - start.leftover_hearts);
            for s in 0..n {
                assert_eq!(points[s], hearts_value(start.taken[s]));
            }
        }
        Variant::Tricks => {
            for s in 0..n {
                let fine = if start.bad_card == Some(Seat(s as u8)) {
                    -100
                } else {
                    0
                };
                assert_eq!(points[s], i32::from(result.tricks.as_slice()[s]) + fine);
            }
            if start.bad_card.is_none() && !game.is_over() {
                assert_eq!(sum, 13, "a clean hand gives 13 points");
            }
        }
        Variant::Whist => {
            assert_eq!(tricks, 13);
            let t = result.tricks.as_slice();
            let (ns, ew) = (i32::from(t[0] + t[2]), i32::from(t[1] + t[3]));
            let (ns_points, ew_points) = if ns > ew { (ns - 6, 0) } else { (0, ew - 6) };
            assert_eq!(points, &[ns_points, ew_points, ns_points, ew_points]);
        }
        Variant::Spades => {
            assert_eq!(tricks, 13);
            let bids: Vec<u8> = start
                .bids
                .iter()
                .map(|b| b.expect("every seat bid"))
                .collect();
            assert_eq!(
                result.bids.expect("bids on the line").as_slice(),
                bids.as_slice()
            );
            let (expected, bags, penalties, nil) = spades_line_blind(
                game.rules(),
                &bids,
                result.tricks.as_slice(),
                start.bags,
                &start.blind,
            );
            let blind: Vec<Seat> = start.blind.iter().map(|s| Seat(*s as u8)).collect();
            assert_eq!(
                result.blind_nil.map(|b| b.iter().collect::<Vec<_>>()),
                (!blind.is_empty()).then_some(blind)
            );
            assert_eq!(points, expected.as_slice());
            let per_side = |v: [i32; 2]| [v[0], v[1], v[0], v[1]];
            assert_eq!(
                result.bags.expect("bags on the line").as_slice(),
                per_side(bags)
            );
            let penalised = penalties != [0, 0];
            assert_eq!(
                result.bag_penalty.map(|p| p.as_slice().to_vec()),
                penalised.then(|| per_side(penalties).to_vec())
            );
            let someone_nil = nil.iter().any(Option::is_some);
            assert_eq!(
                result.nil.map(|n| n.as_slice().to_vec()),
                someone_nil.then_some(nil)
            );
        }
        Variant::OhHell => {
            assert_eq!(tricks, start.hand_size);
            let bids: Vec<u8> = start
                .bids
                .iter()
                .map(|b| b.expect("every seat bid"))
                .collect();
            assert_eq!(
                result.bids.expect("bids on the line").as_slice(),
                bids.as_slice()
            );
            if game.rules().hook {
                let sum: u32 = bids.iter().map(|b| u32::from(*b)).sum();
                assert_ne!(sum, start.hand_size, "the hook lets the bids add up");
            }
            let expected = ohhell_points(game.rules(), &bids, result.tricks.as_slice());
            assert_eq!(points, expected.as_slice());
        }
        Variant::Euchre => check_euchre_hand(game, result),
        Variant::Bridge => {
            let board = result.board.as_ref().expect("a board's result");
            if board.contract.is_some() {
                assert_eq!(tricks, 13);
            } else {
                assert_eq!(board.score, 0, "a board passed out scores nothing");
            }
            if game.rules().rubber {
                assert!(points.iter().all(|p| *p >= 0));
            } else {
                let s = board.score;
                assert_eq!(points, [s, -s, s, -s].as_slice());
            }
        }
    }
    if !matches!(game.variant(), Variant::Spades | Variant::OhHell) {
        assert_eq!(result.bids, None);
        assert_eq!(
            (result.bags, result.bag_penalty, &result.nil),
            (None, None, &None)
        );
    }
    // Totals are the sum of the score sheet.
    for s in 0..n {
        let seat = Seat(s as u8);
        let total: i32 = game.history().iter().map(|h| h.points[seat]).sum();
        assert_eq!(game.totals()[seat], total);
        let negative: i32 = game.history().iter().map(|h| h.penalties[seat]).sum();
        assert_eq!(game.negatives()[seat], negative);
    }
}

/// The match ended by the variant's rule, with the right winners.
fn check_match_end(game: &Game) {
    let totals = game.totals();
    let t = totals.as_slice();
    let (min, max) = (*t.iter().min().unwrap(), *t.iter().max().unwrap());
    let with = |v: i32| -> Vec<Seat> {
        Seat::all(game.players())
            .filter(|s| totals[*s] == v)
            .collect()
    };
    let rules = game.rules();
    match game.variant() {
        Variant::Hearts => {
            assert!(max >= rules.target);
            assert_eq!(game.winners(), with(min).as_slice());
        }
        Variant::Hearts5 => {
            assert_eq!(game.history().len() as u32, rules.hands);
            assert_eq!(game.winners(), with(min).as_slice());
        }
        Variant::OhHell => {
            let largest = 51 / u32::from(game.players());
            let hands = match rules.schedule {
                Schedule::Down | Schedule::Up => largest,
                Schedule::DownUp | Schedule::UpDown => 2 * largest - 1,
            };
            assert_eq!(game.history().len() as u32, hands);
            assert_eq!(game.winners(), with(max).as_slice());
        }
        Variant::Spades => {
            assert!(max >= rules.target || (rules.mercy > 0 && min <= -rules.mercy));
            assert_ne!(min, max, "equal sides play on");
            assert_eq!(game.winners(), with(max).as_slice());
        }
        _ => {
            assert!(max >= rules.target);
            assert_eq!(game.winners(), with(max).as_slice());
        }
    }
    if matches!(game.variant(), Variant::Whist | Variant::Spades) {
        let w = game.winners();
        assert!(w == [Seat(0), Seat(2)] || w == [Seat(1), Seat(3)], "{w:?}");
    }
    for s in Seat::all(game.players()) {
        assert_eq!(game.legal_actions(s), Legal::Wait);
    }
}

/// Plays `seat`'s every card that is not legal and checks each is refused, game unchanged.
fn check_refusals(game: &mut Game, seat: Seat, legal: CardSet, penalty_mode: bool) {
    let before = game.clone();
    for card in CardSet::EVERY - legal {
        if penalty_mode {
            break;
        }
        let err = game.apply(seat, &Action::Play { card }).unwrap_err();
        if !game.hand(seat).contains(card) {
            assert_eq!(err, RuleError::CardNotHeld(card));
        } else {
            assert!(
                matches!(
                    err,
                    RuleError::MustFollowSuit(_)
                        | RuleError::MustTrump(_)
                        | RuleError::HeartsNotBroken
                        | RuleError::MustLeadTwoOfClubs
                        | RuleError::NoPointsOnFirstTrick
                        | RuleError::SpadesNotBroken
                ),
                "{err:?}"
            );
        }
        assert!(*game == before, "refusing {card} changed the game");
    }
    // Seats that are not to play are refused too.
    for other in Seat::all(game.players()).filter(|s| *s != seat) {
        let card = game.hand(other).lowest().unwrap_or(Card::TWO_OF_CLUBS);
        assert_eq!(
            game.apply(other, &Action::Play { card }),
            Err(RuleError::NotYourTurn)
        );
        assert_eq!(
            game.apply(other, &Action::Pass { cards: vec![card] }),
            Err(RuleError::NotPassingNow)
        );
        assert_eq!(
            game.apply(other, &Action::Bid { tricks: 1 }),
            Err(RuleError::NotBiddingNow)
        );
    }
    assert!(*game == before);
}

/// Tries every bid from 0 past the hand's size for the seat to bid (each allowed one accepted
/// on a copy, every other refused naming its rule), the other seats' bids, a card and a pass;
/// nothing refused changes the game. Returns the allowed bids.
fn check_bids(game: &mut Game, seat: Seat, legal: Legal, hand_size: u32) -> Vec<u8> {
    let Legal::Bid {
        min,
        max,
        forbidden,
    } = legal
    else {
        unreachable!()
    };
    assert_eq!(u32::from(max), hand_size);
    assert!(min <= max);
    let before = game.clone();
    let mut allowed = Vec::new();
    for tricks in 0..=max.saturating_add(2) {
        let action = Action::Bid { tricks };
        if legal.allows(&action) {
            allowed.push(tricks);
            let mut copy = game.clone();
            copy.apply(seat, &action).unwrap();
            continue;
        }
        let err = game.apply(seat, &action).unwrap_err();
        if forbidden == Some(tricks) {
            assert_eq!(
                err,
                RuleError::BidsWouldAddUp {
                    bid: tricks,
                    tricks: max
                }
            );
            assert_eq!(seat, game.dealer(), "only the dealer is hooked");
        } else {
            assert_eq!(err, RuleError::BidOutOfRange { min, max });
        }
    }
    assert!(!allowed.is_empty());
    assert!(
        allowed.len() + 1 >= usize::from(max - min + 1),
        "one bid forbidden at most"
    );
    for other in Seat::all(game.players()).filter(|s| *s != seat) {
        assert_eq!(
            game.apply(other, &Action::Bid { tricks: min }),
            Err(RuleError::NotYourTurn)
        );
    }
    let card = game.hand(seat).lowest().unwrap();
    assert_eq!(
        game.apply(seat, &Action::Play { card }),
        Err(RuleError::BiddingNow)
    );
    assert_eq!(
        game.apply(seat, &Action::Pass { cards: vec![card] }),
        Err(RuleError::NotPassingNow)
    );
    assert!(*game == before);
    allowed
}

/// A random pass that is not legal (wrong size, duplicates, cards not held), refused.
fn check_bad_pass(game: &mut Game, seat: Seat, rng: &mut DeckRng) {
    let before = game.clone();
    let hand = game.hand(seat);
    let size = rng.below(6) as usize;
    let mut cards: Vec<Card> = (0..size)
        .map(|_| Card::from_index(rng.below(52) as u8))
        .collect();
    if size == 3 && rng.below(2) == 0 {
        cards[2] = cards[0];
    }
    let action = Action::Pass {
        cards: cards.clone(),
    };
    if game.legal_actions(seat).allows(&action) {
        return;
    }
    let err = game.apply(seat, &action).unwrap_err();
    let expected_kind = if size != 3 {
        matches!(err, RuleError::WrongPassCount { .. })
    } else {
        matches!(err, RuleError::CardNotHeld(c) if !hand.contains(c))
            || matches!(err, RuleError::DuplicateInPass(_))
    };
    assert!(expected_kind, "{cards:?}: {err:?}");
    // A card played while passing is refused as well.
    assert_eq!(
        game.apply(
            seat,
            &Action::Play {
                card: hand.lowest().unwrap()
            }
        ),
        Err(RuleError::PassingNow)
    );
    assert!(*game == before);
}

/// Plays a whole match with random legal moves, checking everything; returns the action log
/// and the events it produced.
fn playout(
    variant: Variant,
    knob: u8,
    seed: u64,
    moves: u64,
) -> (Game, Vec<(Seat, Action)>, Vec<Event>) {
    let opts = options(variant, knob);
    let mut game = Game::new(variant, &opts, seed).unwrap();
    let penalty_mode =
        game.rules().variant == Variant::Tricks && game.rules().bad_card == BadCard::Penalty;
    let mut rng = DeckRng::new(moves);
    let mut log = Vec::new();
    let mut all_events = game.opening_events();
    let mut start = HandStart::of(&game, [0, 0]);
    let mut steps = 0;
    // One bad card at most: at 100 points each, more would sink every total below zero and the
    // match would never reach its target.
    let mut bad_cards_left = 1;
    while !game.is_over() {
        steps += 1;
        assert!(steps < 20_000, "the match does not end");
        check_cards_accounted(&game);
        check_views(&game);
        let to_act: Vec<Seat> = game.to_act().iter().collect();
        assert!(!to_act.is_empty());
        let seat = to_act[rng.below(to_act.len() as u32) as usize];
        let action = match game.legal_actions(seat) {
            Legal::Play { cards } => {
                assert!(!cards.is_empty());
                // Declarer plays dummy's cards on dummy's turn.
                assert!((cards - game.hand(game.next_to_play())).is_empty());
                assert_eq!(to_act, vec![seat]);
                // Every legal card is accepted.
                for card in cards {
                    let mut copy = game.clone();
                    copy.apply(seat, &Action::Play { card }).unwrap();
                }
                check_refusals(&mut game, seat, cards, penalty_mode);
                if penalty_mode && bad_cards_left > 0 && rng.below(40) == 0 {
                    bad_cards_left -= 1;
                    // A bad card: any card not allowed now.
                    let bad = (CardSet::FULL - cards)
                        .nth(rng.below(52 - cards.len()))
                        .unwrap();
                    Action::Play { card: bad }
                } else {
                    Action::Play {
                        card: cards.nth(rng.below(cards.len())).unwrap(),
                    }
                }
            }
            Legal::Pass { count, from, .. } => {
                assert_eq!(count, 3);
                assert_eq!(from, game.hand(seat));
                check_bad_pass(&mut game, seat, &mut rng);
                let mut left = from;
                let cards: Vec<Card> = (0..count)
                    .map(|_| {
                        let c = left.nth(rng.below(left.len())).unwrap();
                        left.remove(c);
                        c
                    })
                    .collect();
                Action::Pass { cards }
            }
            Legal::Bid { .. } => {
                assert_eq!(to_act, vec![seat]);
                let bid_so_far = start.bids.iter().filter(|b| b.is_some()).count() as u8;
                assert_eq!(seat, game.dealer().left(1 + bid_so_far, game.players()));
                let legal = game.legal_actions(seat);
                let allowed = check_bids(&mut game, seat, legal, start.hand_size);
                // Mostly low bids, which random players can make, so that matches end.
                let low = allowed.len().min(3) as u32;
                let pick = if rng.below(4) == 0 {
                    rng.below(allowed.len() as u32)
                } else {
                    rng.below(low)
                };
                Action::Bid {
                    tricks: allowed[pick as usize],
                }
            }
            Legal::Blind => {
                assert_eq!(to_act, vec![seat]);
                assert!(game.face_down().contains(seat));
                assert_eq!(PlayerView::of(&game, Some(seat)).hand, CardSet::EMPTY);
                let copy = game.clone();
                let err = game.apply(seat, &Action::Bid { tricks: 1 }).unwrap_err();
                assert_eq!(err, RuleError::CardsFaceDown);
                assert!(game == copy, "a refusal changes nothing");
                if rng.below(2) == 0 {
                    Action::BlindNil
                } else {
                    Action::SeeCards
                }
            }
            Legal::Exchange { count, to, from } => {
                assert_eq!(to_act, vec![seat]);
                assert_eq!((count, to), (2, seat.partner()));
                assert_eq!(from, game.hand(seat));
                assert!(game.blind_bids().contains(seat) || game.blind_bids().contains(to));
                let mut left = from;
                let cards: Vec<Card> = (0..count)
                    .map(|_| {
                        let c = left.nth(rng.below(left.len())).unwrap();
                        left.remove(c);
                        c
                    })
                    .collect();
                Action::Exchange { cards }
            }
            Legal::Call { .. } => {
                assert_eq!(to_act, vec![seat]);
                let legal = game.legal_actions(seat);
                let calls = legal.calls();
                assert!(!calls.is_empty());
                check_refused_calls(&mut game, seat, &legal);
                // Mostly passes, so that both rounds and thrown-in hands are played too.
                let call = if rng.below(3) > 0 && calls.contains(&Call::Pass) {
                    Call::Pass
                } else {
                    calls[rng.below(calls.len() as u32) as usize]
                };
                Action::Call(call)
            }
            Legal::Discard { from } => {
                assert_eq!(to_act, vec![game.dealer()]);
                assert_eq!(from, game.hand(seat));
                assert_eq!(from.len(), 6, "the dealer holds six after picking up");
                Action::Discard {
                    card: from.nth(rng.below(from.len())).unwrap(),
                }
            }
            Legal::AnswerClaim { .. } => panic!("nobody claims in these matches"),
            Legal::Wait => panic!("{seat} is to act but may not"),
        };
        let before = game.clone();
        let events = game.apply(seat, &action).unwrap();
        check_events(&before, &game, &action, &events);
        for event in &events {
            match event {
                Event::TrickWon { winner, cards } => {
                    start.taken[winner.index()] |= *cards;
                    start.tricks += 1;
                    let out = before.sitting_out();
                    assert_eq!(
                        cards.len() as usize,
                        usize::from(game.players()) - out.len()
                    );
                    assert!(!out.contains(*winner), "a seat sitting out takes no trick");
                }
                Event::Played { seat, .. } => {
                    assert!(!before.sitting_out().contains(*seat), "{seat} sits out");
                }
                Event::BadCard { seat, penalty, .. } => {
                    assert_eq!(*penalty, -100);
                    start.bad_card = Some(*seat);
                }
                Event::Bid { seat, tricks } => {
                    assert_eq!(start.bids[seat.index()], None, "one bid a hand");
                    start.bids[seat.index()] = Some(*tricks);
                }
                Event::BlindNil { seat } => start.blind.push(seat.index()),
                Event::CardsPassed { from, to, cards } if before.phase() == Phase::Exchanging => {
                    // Exactly the cards chosen move, from the giver to the partner.
                    assert_eq!(cards.len(), 2);
                    assert_eq!(game.hand(*from), before.hand(*from) - *cards);
                    assert_eq!(game.hand(*to), before.hand(*to) | *cards);
                }
                Event::Dealt { cards, .. } => assert_eq!(cards.len(), start.hand_size),
                Event::HandScored(result) => {
                    check_hand(&game, &start, result);
                    let bags = result.bags.map_or([0, 0], |b| [b[Seat(0)], b[Seat(1)]]);
                    start = HandStart::of(&game, bags);
                }
                _ => {}
            }
        }
        log.push((seat, action));
        all_events.extend(events);
    }
    check_cards_accounted(&game);
    check_views(&game);
    check_match_end(&game);
    (game, log, all_events)
}

/// The same seed and actions give the same events, the same game and the same views.
fn check_replay(
    variant: Variant,
    knob: u8,
    seed: u64,
    end: &Game,
    log: &[(Seat, Action)],
    events: &[Event],
) {
    let mut game = Game::new(variant, &options(variant, knob), seed).unwrap();
    let mut replayed = game.opening_events();
    for (seat, action) in log {
        replayed.extend(game.apply(*seat, action).unwrap());
    }
    assert_eq!(replayed, events);
    assert!(game == *end);
    for v in viewers(game.players()) {
        assert_eq!(PlayerView::of(&game, v), PlayerView::of(end, v));
    }
}

fn run(variant: Variant, knob: u8, seed: u64, moves: u64) {
    let (game, log, events) = playout(variant, knob, seed, moves);
    check_replay(variant, knob, seed, &game, &log, &events);
}

proptest! {
    // Each case is a whole match: a few shrink steps find a smaller seed without re-playing
    // hundreds of matches.
    #![proptest_config(ProptestConfig {
        cases: 12,
        max_shrink_iters: 16,
        ..ProptestConfig::default()
    })]

    #[test]
    fn hearts_matches(knob in any::<u8>(), seed in any::<u64>(), moves in any::<u64>()) {
        run(Variant::Hearts, knob, seed, moves);
    }

    #[test]
    fn filippa_matches(knob in any::<u8>(), seed in any::<u64>(), moves in any::<u64>()) {
        run(Variant::Filippa, knob, seed, moves);
    }

    #[test]
    fn hearts5_matches(knob in any::<u8>(), seed in any::<u64>(), moves in any::<u64>()) {
        run(Variant::Hearts5, knob, seed, moves);
    }

    #[test]
    fn tricks_matches(knob in any::<u8>(), seed in any::<u64>(), moves in any::<u64>()) {
        run(Variant::Tricks, knob, seed, moves);
    }

    #[test]
    fn whist_matches(knob in any::<u8>(), seed in any::<u64>(), moves in any::<u64>()) {
        run(Variant::Whist, knob, seed, moves);
    }

    #[test]
    fn spades_matches(knob in any::<u8>(), seed in any::<u64>(), moves in any::<u64>()) {
        run(Variant::Spades, knob, seed, moves);
    }

    /// With jokers (an odd knob): each deal is the jokers' 52 cards, each in one place.
    #[test]
    fn spades_matches_with_jokers(knob in any::<u8>(), seed in any::<u64>(), moves in any::<u64>()) {
        run(Variant::Spades, knob | 1, seed, moves);
    }

    #[test]
    fn ohhell_matches(knob in any::<u8>(), seed in any::<u64>(), moves in any::<u64>()) {
        run(Variant::OhHell, knob, seed, moves);
    }

    #[test]
    fn different_seeds_deal_differently(seed in any::<u64>()) {
        for variant in Variant::ALL {
            let a = Game::new(variant, &Options::default(), seed).unwrap();
            let b = Game::new(variant, &Options::default(), seed.wrapping_add(1)).unwrap();
            let same = Game::new(variant, &Options::default(), seed).unwrap();
            prop_assert!(a == same);
            prop_assert_eq!(a.opening_events(), same.opening_events());
            prop_assert!(Seat::all(a.players()).any(|s| a.hand(s) != b.hand(s)));
        }
    }
}
