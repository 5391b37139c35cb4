//! Tests of the strategies: legality everywhere, strength on small fixed samples, and the
//! sampler/rebuilder agreeing with the view.

use super::BotRng;
use super::sample::Constraints;
use super::sim::Position;
use super::{HeuristicBot, RandomBot, Rollout, Strategy, StrongBot, strategy, strategy_names};
use crate::arena::{Seated, fixture, play_match, summarize};
use crate::card::{CardSet, Suit};
use crate::rules::{Game, Legal, Options, Variant};
use crate::seat::Seat;
use crate::view::PlayerView;

/// Plays whole matches with `make(seat)` in every seat, asserting every move is legal. Bridge
/// plays one board: its strong player solves every card double-dummy, slow in a debug build.
fn play_legally(variant: Variant, seed: u64, make: &dyn Fn(Seat) -> Box<dyn Strategy>) {
    let options = match variant {
        Variant::Bridge => serde_json::from_value(serde_json::json!({"hands": 1})).unwrap(),
        _ => Options::default(),
    };
    let mut game = Game::new(variant, &options, seed).unwrap();
    let mut bots: Vec<Box<dyn Strategy>> = Seat::all(game.players()).map(make).collect();
    let mut moves = 0;
    while !game.is_over() && moves < 2000 {
        let seat = game.to_act().iter().next().unwrap();
        let view = PlayerView::of(&game, Some(seat));
        let action = bots[seat.index()].choose(&view);
        assert!(
            game.allows(seat, &action),
            "{variant} seed {seed}: {} chose {action:?}, legal {:?}",
            bots[seat.index()].name(),
            view.legal
        );
        game.apply(seat, &action).unwrap();
        moves += 1;
    }
}

#[test]
fn every_strategy_is_offered_and_built() {
    for variant in Variant::ALL {
        for name in strategy_names(variant) {
            assert!(strategy(name, variant, 1).is_some(), "{name} for {variant}");
        }
        assert!(strategy("strong:50", variant, 1).is_some());
        assert!(strategy("strong:x", variant, 1).is_none());
        assert!(strategy("nonsense", variant, 1).is_none());
    }
}

#[test]
fn the_heuristic_always_plays_legally() {
    for variant in Variant::ALL {
        for seed in 0..4 {
            play_legally(variant, seed, &|_| Box::new(HeuristicBot));
        }
    }
}

#[test]
fn the_heuristic_is_legal_in_random_positions() {
    // Random play to a random point, then the heuristic must find a legal move for the seat
    // to act, whatever position random play produced.
    let mut rng = BotRng::new(99);
    for variant in Variant::ALL {
        for seed in 0..40 {
            let mut game = Game::new(variant, &Options::default(), seed).unwrap();
            let mut random = RandomBot::new(seed);
            let steps = rng.below(60);
            for _ in 0..steps {
                let seat = game.to_act().iter().next().unwrap();
                let a = random.choose_legal(&game.legal_actions(seat)).unwrap();
                game.apply(seat, &a).unwrap();
            }
            if game.is_over() {
                continue;
            }
            let seat = game.to_act().iter().next().unwrap();
            let view = PlayerView::of(&game, Some(seat));
            assert!(view.legal.allows(&HeuristicBot.choose(&view)));
        }
    }
}

#[test]
fn strong_plays_legally_and_replays_from_its_seed() {
    for variant in Variant::ALL {
        play_legally(variant, 3, &|s| {
            Box::new(StrongBot::new(u64::from(s.0), 8, Rollout::Heuristic))
        });
    }
    play_legally(Variant::Hearts, 4, &|s| {
        Box::new(StrongBot::new(u64::from(s.0), 8, Rollout::Random))
    });
    let game = Game::new(Variant::Whist, &Options::default(), 8).unwrap();
    let seat = game.to_act().iter().next().unwrap();
    let view = PlayerView::of(&game, Some(seat));
    let a = StrongBot::new(5, 40, Rollout::Heuristic).choose(&view);
    let b = StrongBot::new(5, 40, Rollout::Heuristic).choose(&view);
    assert_eq!(a, b);
}

/// Mean points per hand of bot 0 and bot 1 over a few duplicated deals.
fn duel(variant: Variant, bots: &[&str], deals: u64) -> (f64, f64) {
    let names: Vec<String> = bots.iter().map(|s| s.to_string()).collect();
    let n = names.len();
    let games: Vec<_> = (0..deals * n as u64)
        .map(|i| {
            let f = fixture(7, i, n);
            let mut seats: Vec<Seated> = f
                .seating
                .iter()
                .enumerate()
                .map(|(s, &b)| Seated::builtin(&names[b], variant, i * 10 + s as u64).unwrap())
                .collect();
            let r = play_match(variant, &Options::default(), f.seed, &mut seats).unwrap();
            (f, r)
        })
        .collect();
    let report = summarize(&names, &games);
    if std::env::var("DUEL_VERBOSE").is_ok() {
        eprintln!("{report:?}");
    }
    (
        report[0].points_per_hand.mean,
        report[1].points_per_hand.mean,
    )
}

#[test]
fn the_heuristic_beats_random_in_every_variant() {
    for variant in Variant::ALL {
        let bots: &[&str] = if variant == Variant::Hearts5 {
            &["heuristic", "random", "random", "random", "random"]
        } else {
            &["heuristic", "random", "heuristic", "random"]
        };
        let (h, r) = duel(variant, bots, 2);
        if variant.low_score_wins() {
            assert!(h < r, "{variant}: heuristic {h} vs random {r}");
        } else {
            assert!(h > r, "{variant}: heuristic {h} vs random {r}");
        }
    }
}

#[test]
fn strong_beats_the_heuristic_at_hearts_on_a_fixed_sample() {
    let (s, h) = duel(
        Variant::Hearts,
        &["strong:40", "heuristic", "heuristic", "heuristic"],
        3,
    );
    assert!(s < h, "strong {s} vs heuristic {h}");
}

/// Mean points per hand of bot 0 and bot 1 over `deals` duplicated deals played to `target`
/// (`None`: the variant's own end).
fn duel_to(variant: Variant, target: Option<i32>, bots: &[&str], deals: u64) -> (f64, f64) {
    let names: Vec<String> = bots.iter().map(|s| s.to_string()).collect();
    let n = names.len();
    let options = Options {
        target,
        ..Options::default()
    };
    let games: Vec<_> = (0..deals * n as u64)
        .map(|i| {
            let f = fixture(3, i, n);
            let mut seats: Vec<Seated> = f
                .seating
                .iter()
                .enumerate()
                .map(|(s, &b)| Seated::builtin(&names[b], variant, i * 10 + s as u64).unwrap())
                .collect();
            (
                f.clone(),
                play_match(variant, &options, f.seed, &mut seats).unwrap(),
            )
        })
        .collect();
    let report = summarize(&names, &games);
    if std::env::var("DUEL_VERBOSE").is_ok() {
        eprintln!("{report:?}");
    }
    (
        report[0].points_per_hand.mean,
        report[1].points_per_hand.mean,
    )
}

/// Partnership against partnership in Spades (to 200), and two of each at an Oh Hell table
/// (a whole match): strong ahead of the heuristic, the heuristic well ahead of random.
#[test]
fn strong_beats_the_heuristic_and_the_heuristic_random_in_the_games_that_bid() {
    let (s, h) = duel_to(
        Variant::Spades,
        Some(200),
        &["strong:40", "heuristic", "strong:40", "heuristic"],
        3,
    );
    assert!(s > h, "spades: strong {s} vs heuristic {h}");
    let (h, r) = duel_to(
        Variant::Spades,
        Some(200),
        &["heuristic", "random", "heuristic", "random"],
        6,
    );
    assert!(h > r + 50.0, "spades: heuristic {h} vs random {r}");
    let (s, h) = duel_to(
        Variant::OhHell,
        None,
        &["strong:40", "heuristic", "strong:40", "heuristic"],
        1,
    );
    assert!(s > h, "ohhell: strong {s} vs heuristic {h}");
    let (h, r) = duel_to(
        Variant::OhHell,
        None,
        &["heuristic", "random", "heuristic", "random"],
        6,
    );
    assert!(h > 2.0 * r, "ohhell: heuristic {h} vs random {r}");
}

/// Partnership against partnership in Euchre (to 10): strong ahead of the heuristic, the
/// heuristic ahead of random.
#[test]
fn euchre_strong_beats_the_heuristic_and_the_heuristic_random() {
    let (s, h) = duel_to(
        Variant::Euchre,
        Some(10),
        &["strong:200", "heuristic", "strong:200", "heuristic"],
        16,
    );
    assert!(s > h, "euchre: strong {s} vs heuristic {h}");
    let (h, r) = duel_to(
        Variant::Euchre,
        Some(10),
        &["heuristic", "random", "heuristic", "random"],
        4,
    );
    assert!(h > r + 0.5, "euchre: heuristic {h} vs random {r}");
}

#[test]
fn sampled_deals_agree_with_the_view_and_rebuild_the_position() {
    let mut rng = BotRng::new(5);
    let (mut built, mut tried) = (0, 0);
    // Euchre's and Bridge's strong bots deal their own samples (tested there).
    for variant in Variant::ALL
        .into_iter()
        .filter(|v| !matches!(v, Variant::Euchre | Variant::Bridge))
    {
        for seed in 0..12 {
            let mut game = Game::new(variant, &Options::default(), seed).unwrap();
            let mut random = RandomBot::new(seed);
            let steps = 4 + rng.below(40);
            for _ in 0..steps {
                let seat = game.to_act().iter().next().unwrap();
                let a = random.choose_legal(&game.legal_actions(seat)).unwrap();
                game.apply(seat, &a).unwrap();
            }
            let seat = game.to_act().iter().next().unwrap();
            let view = PlayerView::of(&game, Some(seat));
            if !matches!(view.legal, Legal::Play { .. }) {
                continue;
            }
            let c = Constraints::of(&view).unwrap();
            for _ in 0..5 {
                let hands = c.sample(&mut rng);
                let mut all = CardSet::EMPTY;
                for s in Seat::all(view.players) {
                    assert_eq!(hands[s].len() as u8, view.hand_sizes[s]);
                    assert!((all & hands[s]).is_empty());
                    all |= hands[s];
                    for suit in Suit::ALL {
                        if c.voids[s] & (1 << suit as u8) != 0 {
                            assert!(!hands[s].has_suit(suit));
                        }
                    }
                    assert_eq!(hands[s] & c.known[s], c.known[s] & c.pool);
                }
                assert_eq!(hands[seat], view.hand);
                tried += 1;
                let Ok(pos) = Position::build(&view, &hands, &mut rng) else {
                    continue;
                };
                built += 1;
                let sim = PlayerView::of(&pos.game, Some(pos.sim_seat(seat)));
                assert_eq!(sim.hand, view.hand);
                assert_eq!(sim.legal, view.legal);
                assert_eq!(sim.played_cards(), view.played_cards());
                assert_eq!(sim.trump, view.trump);
                for s in Seat::all(view.players) {
                    assert_eq!(pos.game.hand(pos.sim_seat(s)), hands[s]);
                    assert_eq!(pos.real_seat(pos.sim_seat(s)), s);
                }
            }
        }
    }
    assert!(built * 10 >= tried * 9, "rebuilt {built} of {tried}");
}

#[test]
fn the_real_deal_is_always_consistent_with_the_constraints() {
    // The true hands must satisfy every inferred void and known card.
    let mut rng = BotRng::new(11);
    // Euchre's and Bridge's strong bots deal their own samples (tested there).
    for variant in Variant::ALL
        .into_iter()
        .filter(|v| !matches!(v, Variant::Euchre | Variant::Bridge))
    {
        for seed in 0..30 {
            let mut game = Game::new(variant, &Options::default(), seed).unwrap();
            let mut random = RandomBot::new(seed);
            for _ in 0..rng.below(45) {
                let seat = game.to_act().iter().next().unwrap();
                let a = random.choose_legal(&game.legal_actions(seat)).unwrap();
                game.apply(seat, &a).unwrap();
            }
            let seat = game.to_act().iter().next().unwrap();
            let view = PlayerView::of(&game, Some(seat));
            let c = Constraints::of(&view).unwrap();
            for s in Seat::all(view.players) {
                if s == seat {
                    continue;
                }
                let hand = game.hand(s);
                assert_eq!(hand & c.known[s], c.known[s], "{variant} seed {seed}");
                for suit in Suit::ALL {
                    if c.voids[s] & (1 << suit as u8) != 0 {
                        assert!(!hand.has_suit(suit), "{variant} seed {seed} {s} {suit}");
                    }
                }
            }
            let mut rest = CardSet::EMPTY;
            for s in Seat::all(view.players) {
                if s != seat {
                    rest |= game.hand(s);
                }
            }
            // The pool is the others' cards and those nobody was dealt (Oh Hell).
            assert_eq!(rest - c.pool, CardSet::EMPTY, "{variant} seed {seed}");
            assert_eq!(
                rest.len() + c.undealt,
                c.pool.len(),
                "{variant} seed {seed}"
            );
            if variant != Variant::OhHell {
                assert_eq!(c.undealt, 0, "{variant} seed {seed}");
            }
        }
    }
}

/// The one fallback for a player that failed to move is legal wherever a seat has something
/// to do, and nothing where it must wait.
#[test]
fn the_fallback_is_legal_and_only_when_a_move_is_due() {
    for variant in Variant::ALL {
        let mut game = Game::new(variant, &Options::default(), 3).unwrap();
        let mut random = RandomBot::new(3);
        for _ in 0..30 {
            let seat = game.to_act().iter().next().unwrap();
            for other in Seat::all(game.players()) {
                let view = PlayerView::of(&game, Some(other));
                match HeuristicBot::fallback(&view) {
                    Some(action) => assert!(game.allows(other, &action), "{variant}"),
                    None => assert_eq!(view.legal, Legal::Wait, "{variant}"),
                }
            }
            let action = random.choose_legal(&game.legal_actions(seat)).unwrap();
            game.apply(seat, &action).unwrap();
        }
    }
}

/// Plays whole matches with strong bots whose `stop` has already fired in every seat: each
/// move is still legal (the heuristic's, as no deal was played out).
#[test]
fn strong_told_to_stop_at_once_still_plays_legally_in_every_variant() {
    for variant in Variant::ALL {
        for seed in 0..3 {
            let mut game = Game::new(variant, &Options::default(), seed).unwrap();
            let mut bots: Vec<StrongBot> = Seat::all(game.players())
                .map(|s| {
                    StrongBot::new(
                        u64::from(s.0),
                        StrongBot::DEFAULT_BUDGET,
                        Rollout::Heuristic,
                    )
                })
                .collect();
            while !game.is_over() {
                let seat = game.to_act().iter().next().unwrap();
                let view = PlayerView::of(&game, Some(seat));
                let action = bots[seat.index()].choose_until(&view, &|| true);
                assert!(
                    game.allows(seat, &action),
                    "{variant} seed {seed}: {action:?}"
                );
                assert_eq!(
                    action,
                    HeuristicBot.choose(&view),
                    "nothing searched: the heuristic"
                );
                game.apply(seat, &action).unwrap();
            }
        }
    }
}

/// A stop that fires part-way: strong asks it before each deal, stops asking once it fired,
/// and decides from the deals it played out; with a stop that never fires it plays exactly
/// what `choose` plays (the arena's determinism).
#[test]
fn strong_stops_searching_when_told_and_is_unchanged_when_not() {
    let mut rng = BotRng::new(7);
    for variant in Variant::ALL {
        for seed in 0..6 {
            let mut game = Game::new(variant, &Options::default(), seed).unwrap();
            let mut random = RandomBot::new(seed);
            // Into the play phase, with a choice to make.
            let steps = 8 + rng.below(20);
            for _ in 0..steps {
                let seat = game.to_act().iter().next().unwrap();
                let a = random.choose_legal(&game.legal_actions(seat)).unwrap();
                game.apply(seat, &a).unwrap();
            }
            let seat = game.to_act().iter().next().unwrap();
            let view = PlayerView::of(&game, Some(seat));
            let Legal::Play { cards } = view.legal else {
                continue;
            };
            if cards.len() < 2 {
                continue;
            }
            // Cards all alike (next in rank, nothing between them out) leave nothing to search.
            let mut searching = StrongBot::new(seed, 40, Rollout::Heuristic);
            searching.choose(&view);
            if searching.last_worlds() == 0 {
                continue;
            }
            let asked = std::cell::Cell::new(0u32);
            let stop = || {
                asked.set(asked.get() + 1);
                asked.get() >= 3
            };
            let mut bot = StrongBot::new(seed, StrongBot::DEFAULT_BUDGET, Rollout::Heuristic);
            let action = bot.choose_until(&view, &stop);
            assert!(game.allows(seat, &action), "{variant}: {action:?}");
            assert_eq!(
                asked.get(),
                3,
                "{variant}: no deal is started once stop fired"
            );

            let a = StrongBot::new(seed, 40, Rollout::Heuristic).choose(&view);
            let b = StrongBot::new(seed, 40, Rollout::Heuristic).choose_until(&view, &|| false);
            assert_eq!(a, b, "{variant}");
        }
    }
}

/// The Euchre figures of docs/BOTS.md: `cargo test --release -p parlor-shared --lib
/// euchre_arena_figures -- --ignored --nocapture`.
#[test]
#[ignore = "prints figures: run on purpose"]
fn euchre_arena_figures() {
    for bots in [
        ["strong", "heuristic", "strong", "heuristic"],
        ["heuristic", "random", "heuristic", "random"],
    ] {
        let names: Vec<String> = bots.iter().map(|s| s.to_string()).collect();
        let options = Options::default();
        let games: Vec<_> = (0..200u64 * 4)
            .map(|i| {
                let f = fixture(7, i, 4);
                let mut seats: Vec<Seated> = f
                    .seating
                    .iter()
                    .enumerate()
                    .map(|(s, &b)| Seated::builtin(&names[b], Variant::Euchre, i * 10 + s as u64))
                    .collect::<Option<_>>()
                    .unwrap();
                let games = play_match(Variant::Euchre, &options, f.seed, &mut seats).unwrap();
                (f, games)
            })
            .collect();
        for report in summarize(&names, &games) {
            let p = report.points_per_hand;
            eprintln!(
                "{}: {:.3} [{:.3}, {:.3}] points a hand, wins {} of {} ({} hands)",
                report.bot, p.mean, p.low, p.high, report.wins, report.seat_matches, report.hands
            );
        }
    }
}
