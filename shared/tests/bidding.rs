//! Many random legal matches of the games that bid (spades, ohhell) over several option presets:
//! more than 20,000 hands in all, with the checks that matter for bidding at every hand and
//! fewer checks a step than `properties.rs` makes.
//!
//! Every hand: each seat is dealt the hand's size (Oh Hell's schedule) and the tricks add up to
//! it; every seat bids once, in turn from the dealer's left, within the bids offered (and the
//! dealer's hooked bid is refused); the score line carries those bids and the score worked out
//! again from them (`common::bids`); the totals are the sum of the lines; and at a random moment
//! of the hand no view, of any seat or the spectator, shows a card its viewer may not see.

mod common;

use common::bids::{ohhell_points, spades_line};
use parlor_shared::deck::DeckRng;
use parlor_shared::rules::{HandResult, Legal, OhHellScoring, Schedule};
use parlor_shared::{
    Action, Card, CardSet, Event, Game, Options, Phase, PlayerView, Seat, Variant,
};

/// How the random players bid.
#[derive(Clone, Copy, Debug)]
enum Bidding {
    /// Uniformly among the bids allowed half the time, else one of the three lowest.
    Mixed,
    /// One of the three lowest allowed: contracts random players can make.
    Low,
}

/// One preset: a variant, its options and how the random players bid.
struct Preset {
    variant: Variant,
    options: Options,
    bidding: Bidding,
}

fn presets() -> Vec<Preset> {
    let spades = |options: Options, bidding| Preset {
        variant: Variant::Spades,
        options,
        bidding,
    };
    let mut presets = vec![
        spades(Options::default(), Bidding::Mixed),
        // No nil, no bags, no mercy: low contracts climb to the target.
        spades(
            Options {
                target: Some(300),
                nil: Some(false),
                bag_limit: Some(0),
                mercy: Some(0),
                ..Options::default()
            },
            Bidding::Low,
        ),
        spades(
            Options {
                target: Some(250),
                bag_limit: Some(3),
                bag_penalty: Some(50),
                spades_broken: Some(false),
                mercy: Some(100),
                ..Options::default()
            },
            Bidding::Low,
        ),
        spades(
            Options {
                target: Some(1000),
                mercy: Some(500),
                ..Options::default()
            },
            Bidding::Mixed,
        ),
    ];
    let schedules = [
        Schedule::DownUp,
        Schedule::Down,
        Schedule::Up,
        Schedule::UpDown,
    ];
    let scorings = [
        OhHellScoring::Standard,
        OhHellScoring::MinusDifference,
        OhHellScoring::TricksPlusTen,
    ];
    for players in 3..=7u8 {
        for (i, schedule) in schedules.into_iter().enumerate() {
            presets.push(Preset {
                variant: Variant::OhHell,
                options: Options {
                    players: Some(players),
                    schedule: Some(schedule),
                    hook: Some((usize::from(players) + i) % 3 != 0),
                    scoring: Some(scorings[(usize::from(players) + i) % 3]),
                    ..Options::default()
                },
                bidding: Bidding::Mixed,
            });
        }
    }
    presets
}

/// What the checks of one hand keep while it is played.
struct Hand {
    size: u32,
    dealer: Seat,
    bids: Vec<Option<u8>>,
    tricks: u32,
    /// The step of the hand at which every view is checked.
    look_at: u32,
    steps: u32,
}

impl Hand {
    fn new(game: &Game, rng: &mut DeckRng) -> Hand {
        let size = game.rules().hand_size(game.hand_number());
        let plays = u32::from(game.players()) * (size + 1);
        Hand {
            size,
            dealer: game.dealer(),
            bids: vec![None; usize::from(game.players())],
            tricks: 0,
            look_at: rng.below(plays),
            steps: 0,
        }
    }
}

/// No view holds a card its viewer may not see: its own hand, the cards played this hand and
/// the cards face up.
fn check_views(game: &Game) {
    let mut played: CardSet = game.trick().cards().iter().copied().collect();
    for t in game.completed_tricks() {
        played |= t.cards.iter().copied().collect::<CardSet>();
    }
    let public = played | game.face_up();
    for viewer in Seat::all(game.players()).map(Some).chain([None]) {
        let view = PlayerView::of(game, viewer);
        let json = serde_json::to_value(&view).unwrap();
        let mut seen = CardSet::EMPTY;
        cards_in(&json, &mut seen);
        let may = public | viewer.map_or(CardSet::EMPTY, |s| game.hand(s));
        assert!((seen - may).is_empty(), "{viewer:?} sees {:?}", seen - may);
        assert_eq!(view.bids, game.bids());
    }
}

fn cards_in(value: &serde_json::Value, out: &mut CardSet) {
    match value {
        serde_json::Value::String(s) if s.len() == 2 => {
            if let Ok(card) = s.parse::<Card>() {
                out.insert(card);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| cards_in(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| cards_in(v, out)),
        _ => {}
    }
}

/// The bid a random player makes from `legal`, the bids allowed.
fn choose_bid(legal: Legal, bidding: Bidding, rng: &mut DeckRng) -> u8 {
    let Legal::Bid {
        min,
        max,
        forbidden,
    } = legal
    else {
        panic!("no bid to make: {legal:?}");
    };
    let allowed: Vec<u8> = (min..=max).filter(|b| Some(*b) != forbidden).collect();
    let low = allowed.len().min(3) as u32;
    let pick = match bidding {
        Bidding::Mixed if rng.below(2) == 0 => rng.below(allowed.len() as u32),
        _ => rng.below(low),
    };
    allowed[pick as usize]
}

/// The hand's score line agrees with its bids and tricks.
fn check_line(game: &Game, hand: &Hand, line: &HandResult, bags: &mut [i32; 2]) {
    let took = line.tricks.as_slice();
    assert_eq!(took.iter().map(|t| u32::from(*t)).sum::<u32>(), hand.size);
    assert_eq!(hand.tricks, hand.size);
    let bids: Vec<u8> = hand
        .bids
        .iter()
        .map(|b| b.expect("every seat bid"))
        .collect();
    assert_eq!(line.bids.expect("the bids").as_slice(), bids.as_slice());
    let rules = game.rules();
    match game.variant() {
        Variant::Spades => {
            let (points, after, penalties, nil) = spades_line(rules, &bids, took, *bags);
            assert_eq!(line.points.as_slice(), points.as_slice());
            let per_side = |v: [i32; 2]| vec![v[0], v[1], v[0], v[1]];
            assert_eq!(line.bags.unwrap().as_slice(), per_side(after));
            let penalised = penalties != [0, 0];
            let penalty = line.bag_penalty.map(|p| p.as_slice().to_vec());
            assert_eq!(penalty, penalised.then(|| per_side(penalties)));
            let nil_bid = nil.iter().any(Option::is_some);
            assert_eq!(
                line.nil.map(|n| n.as_slice().to_vec()),
                nil_bid.then_some(nil)
            );
            *bags = after;
        }
        _ => {
            assert_eq!(
                line.points.as_slice(),
                ohhell_points(rules, &bids, took).as_slice()
            );
            if rules.hook {
                let sum: u32 = bids.iter().map(|b| u32::from(*b)).sum();
                assert_ne!(sum, hand.size, "the hook let the bids add up");
            }
        }
    }
    for seat in Seat::all(game.players()) {
        let sum: i32 = game.history().iter().map(|l| l.points[seat]).sum();
        assert_eq!(game.totals()[seat], sum);
    }
}

/// Plays one match; returns the hands it lasted.
fn play_match(preset: &Preset, seed: u64) -> usize {
    let mut game = Game::new(preset.variant, &preset.options, seed).unwrap();
    let mut rng = DeckRng::new(seed ^ 0xB1D5);
    let n = game.players();
    let mut hand = Hand::new(&game, &mut rng);
    let mut bags = [0, 0];
    let mut events = game.opening_events();
    for event in &events {
        if let Event::Dealt { cards, .. } = event {
            assert_eq!(cards.len(), hand.size);
        }
    }
    let mut steps = 0;
    while let Some(seat) = game.to_act().first() {
        steps += 1;
        assert!(steps < 50_000, "{:?} seed {seed}: no end", preset.variant);
        if hand.steps == hand.look_at {
            check_views(&game);
        }
        hand.steps += 1;
        let legal = game.legal_actions(seat);
        let action = match legal {
            Legal::Bid { forbidden, .. } => {
                let bid_so_far = hand.bids.iter().flatten().count() as u8;
                assert_eq!(seat, hand.dealer.left(1 + bid_so_far, n));
                if let Some(hooked) = forbidden {
                    assert_eq!(seat, hand.dealer);
                    let mut copy = game.clone();
                    assert!(copy.apply(seat, &Action::Bid { tricks: hooked }).is_err());
                }
                Action::Bid {
                    tricks: choose_bid(legal, preset.bidding, &mut rng),
                }
            }
            Legal::Play { cards } => {
                assert_eq!(game.phase(), Phase::Playing);
                Action::Play {
                    card: cards.nth(rng.below(cards.len())).unwrap(),
                }
            }
            other => panic!("{other:?} in a game that bids"),
        };
        events.clear();
        game.apply_into(seat, &action, &mut events).unwrap();
        for event in &events {
            match event {
                Event::Bid { seat, tricks } => {
                    assert_eq!(hand.bids[seat.index()], None, "one bid a hand");
                    hand.bids[seat.index()] = Some(*tricks);
                }
                Event::TrickWon { cards, .. } => {
                    assert_eq!(cards.len(), u32::from(n));
                    hand.tricks += 1;
                }
                Event::HandScored(line) => check_line(&game, &hand, line, &mut bags),
                Event::HandStarted { .. } => hand = Hand::new(&game, &mut rng),
                Event::Dealt { cards, .. } => assert_eq!(cards.len(), hand.size),
                _ => {}
            }
        }
    }
    assert!(game.is_over());
    game.history().len()
}

#[test]
fn random_matches_of_the_games_that_bid_keep_their_rules() {
    let presets = presets();
    let mut hands = [0usize; 2];
    let mut seed = 0;
    while hands.iter().any(|h| *h < 10_500) {
        for preset in &presets {
            let side = usize::from(preset.variant == Variant::OhHell);
            if hands[side] < 10_500 {
                hands[side] += play_match(preset, seed);
            }
        }
        seed += 1;
    }
    assert!(hands.iter().sum::<usize>() >= 20_000, "{hands:?}");
}
