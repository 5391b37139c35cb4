//! The hand-written JSON of `your_turn`, `state` and `event` (`parlor_shared::view::json`) is
//! byte for byte what `serde_json` writes from the derives: on every view (each seat and a
//! spectator) and every event of random matches of every variant, at every step, dealt by a
//! seed or by the fair recipe (commitments and secrets); and on views whose numbers, options
//! and optional fields are set to arbitrary values no short match reaches.

mod common;

use common::table::Table;
use parlor_shared::deck::DeckRng;
use parlor_shared::fair::Hash32;
use parlor_shared::protocol::ServerMsg;
use parlor_shared::rules::{
    BadCard, CompletedTrick, Event, FixedDeal, HandResult, Legal, Moon, OhHellScoring,
    PassDirection, Rules, Schedule,
};
use parlor_shared::view::BlindView;
use parlor_shared::view::json::{
    ViewCache, write_event, write_message, write_message_with, write_view,
};
use parlor_shared::{Game, Options, PerSeat, PlayerView, Seat, Suit, Variant};
use proptest::prelude::*;

/// Options that keep a match to a few hands, varied by `knob`.
fn short(variant: Variant, knob: u8) -> Options {
    let mut options = Options::default();
    match variant {
        Variant::Hearts => {
            options.target = Some(30 + i32::from(knob % 3) * 10);
            if knob & 4 != 0 {
                options.moon = Some(if knob & 8 == 0 {
                    Moon::Add
                } else {
                    Moon::Subtract
                });
            }
            if knob & 16 != 0 {
                options.passing = Some(knob & 32 == 0);
            }
        }
        Variant::Filippa => options.target = Some(30 + i32::from(knob % 4) * 10),
        Variant::Hearts5 => options.hands = Some(1 + u32::from(knob % 2)),
        Variant::Tricks => {
            options.target = Some(8 + i32::from(knob % 20));
            if knob & 4 != 0 {
                options.bad_card = Some(if knob & 8 == 0 {
                    BadCard::Penalty
                } else {
                    BadCard::Reject
                });
            }
        }
        Variant::Whist => options.target = Some(1 + i32::from(knob % 2)),
        Variant::Spades => {
            options.target = Some(100 + i32::from(knob % 3) * 50);
            if knob & 4 != 0 {
                options.nil = Some(knob & 8 == 0);
                options.spades_broken = Some(knob & 16 == 0);
                options.bag_limit = Some(i32::from(knob % 4));
                // Never 0: random bidders sink, and the mercy line ends their match.
                options.mercy = Some(50 + i32::from(knob % 4) * 50);
                options.jokers = Some(knob & 32 != 0);
            }
            if knob & 32 != 0 {
                options.blind_nil = Some(true);
                options.blind_nil_behind = Some(i32::from(knob % 3) * 50);
            }
        }
        Variant::OhHell => {
            options.players = Some(3 + knob % 5);
            // Up or down only: a match of every hand size once.
            options.schedule = Some(if knob & 8 == 0 {
                Schedule::Up
            } else {
                Schedule::Down
            });
            if knob & 16 != 0 {
                options.hook = Some(knob & 32 == 0);
                options.scoring = Some(scoring(knob >> 6));
            }
        }
        Variant::Bridge => {
            options.hands = Some(2 + u32::from(knob % 2));
            options.rubber = Some(knob & 4 != 0);
            if knob & 8 != 0 {
                options.deal = Some(practice_deal());
                options.board = Some(1 + u32::from(knob >> 4));
            }
        }
        Variant::Euchre => {
            // A hand is only five tricks: a match to 3 could end in two hands.
            options.target = Some(5 + i32::from(knob % 3));
            if knob & 4 != 0 {
                options.stick_the_dealer = Some(knob & 8 == 0);
                options.alone = Some(knob & 16 == 0);
                options.defend_alone = Some(knob & 32 != 0);
            }
        }
    }
    options
}

/// One of Oh Hell's scorings.
fn scoring(pick: u8) -> OhHellScoring {
    [
        OhHellScoring::Standard,
        OhHellScoring::MinusDifference,
        OhHellScoring::TricksPlusTen,
    ][usize::from(pick % 3)]
}

/// Options of every kind, each set or not as `bits` says (whatever the variant).
fn any_options(bits: u64, ints: &[i32]) -> Options {
    let on = |bit: u32| bits & (1 << bit) != 0;
    Options {
        target: on(0).then_some(ints[0]),
        passing: on(1).then_some(on(2)),
        moon: on(3).then_some(if on(4) { Moon::Add } else { Moon::Subtract }),
        hands: on(5).then_some(ints[1] as u32),
        bad_card: on(6).then_some(if on(7) {
            BadCard::Penalty
        } else {
            BadCard::Reject
        }),
        players: on(8).then_some((bits >> 40) as u8),
        mercy: on(9).then_some(ints[2]),
        nil: on(10).then_some(on(11)),
        bag_limit: on(12).then_some(ints[3]),
        bag_penalty: on(13).then_some(ints[4]),
        spades_broken: on(14).then_some(on(15)),
        jokers: on(30).then_some(on(31)),
        schedule: on(16).then_some(
            [
                Schedule::DownUp,
                Schedule::Down,
                Schedule::Up,
                Schedule::UpDown,
            ][(bits >> 17) as usize % 4],
        ),
        hook: on(19).then_some(on(20)),
        scoring: on(21).then_some(scoring((bits >> 22) as u8)),
        blind_nil: on(24).then_some(on(25)),
        blind_nil_behind: on(26).then_some(ints[5 % ints.len()]),
        stick_the_dealer: on(27).then_some(on(28)),
        alone: on(32).then_some(on(33)),
        defend_alone: on(34).then_some(on(35)),
        rubber: on(36).then_some(on(37)),
        deal: on(38).then(practice_deal),
        board: on(39).then_some(ints[0] as u32),
    }
}

/// A fixed deal, as a practice table is set up with.
fn practice_deal() -> FixedDeal {
    "N:AKJ9742.A2.73.K6 3.T763.T652.A972 86.K854.AQ9.T843 QT5.QJ9.KJ84.QJ5"
        .parse()
        .unwrap()
}

/// `msg` written by hand, after asserting it is one of the messages written by hand.
fn by_hand(msg: &ServerMsg) -> String {
    let mut out = String::new();
    assert!(write_message(&mut out, msg), "{msg:?} is written by hand");
    out
}

/// Checks a view alone and inside both messages that carry one, written afresh and with
/// `cache`, what views repeat as last written (of this match or any other).
fn check_view(view: &PlayerView, seq: u64, timeout_ms: Option<u64>, cache: &mut ViewCache) {
    let mut out = String::new();
    write_view(&mut out, view);
    assert_eq!(out, serde_json::to_string(view).unwrap());
    let legal = view.legal;
    let messages = [
        ServerMsg::YourTurn {
            seq,
            legal,
            view: Box::new(view.clone()),
            timeout_ms,
        },
        ServerMsg::State {
            seq,
            view: Box::new(view.clone()),
        },
    ];
    for msg in &messages {
        let expected = serde_json::to_string(msg).unwrap();
        assert_eq!(by_hand(msg), expected);
        let mut out = String::new();
        assert!(write_message_with(&mut out, msg, Some(cache)));
        assert_eq!(out, expected, "with what views repeat kept written");
    }
}

fn check_event(event: &Event, seq: u64, prev: u64) {
    let mut out = String::new();
    write_event(&mut out, event);
    assert_eq!(out, serde_json::to_string(event).unwrap());
    let msg = ServerMsg::Event {
        seq,
        prev,
        event: event.clone(),
    };
    assert_eq!(by_hand(&msg), serde_json::to_string(&msg).unwrap());
}

/// Plays a whole random match, checking every view and every event on the way, with `cache`
/// kept across them. Returns the views checked.
fn check_match(variant: Variant, knob: u8, seed: u64, fair: bool, cache: &mut ViewCache) -> usize {
    let options = short(variant, knob);
    let game = if fair {
        let mut master = [0u8; 32];
        master[..8].copy_from_slice(&seed.to_le_bytes());
        Game::with_master(Rules::new(variant, &options).unwrap(), Hash32(master))
    } else {
        Game::new(variant, &options, seed).unwrap()
    };
    let viewers: Vec<Option<Seat>> = Seat::all(game.players()).map(Some).chain([None]).collect();
    for (i, event) in game.opening_events().iter().enumerate() {
        check_event(event, i as u64 + 1, i as u64);
    }
    let mut table = Table::new(game, seed);
    let mut rng = DeckRng::new(seed);
    let mut seq = 0u64;
    let mut checked = 0;
    let mut moves = 0;
    loop {
        for viewer in &viewers {
            let timeout = (!seq.is_multiple_of(3)).then_some(seq * 997);
            check_view(&table.game.view(*viewer), seq, timeout, cache);
            checked += 1;
        }
        let bad = rng.below(80) == 0;
        let Some((seat, action)) = table.next_move(bad) else {
            break;
        };
        moves += 1;
        assert!(
            moves < 20_000,
            "{variant} knob {knob} seed {seed}: no end in sight"
        );
        for event in table.apply(seat, &action) {
            seq += 1;
            check_event(&event, seq, seq.saturating_sub(2));
        }
    }
    assert!(table.game.is_over());
    checked
}

fn per_seat<T: Copy + Default>(values: &[T], n: usize) -> PerSeat<T> {
    PerSeat::from_slice(&values[..n])
}

/// `count` finished tricks of `n` cards each, their cards and seats drawn from `bits`.
fn tricks(bits: u64, count: usize, n: usize) -> Vec<CompletedTrick> {
    (0..count)
        .map(|i| {
            let word = bits.rotate_left(7 * i as u32);
            let seat = |shift: u32| Seat(((word >> shift) % n as u64) as u8);
            CompletedTrick {
                leader: seat(0),
                cards: (0..n)
                    .map(|k| parlor_shared::Card::from_index(((word >> (6 * k)) % 52) as u8))
                    .collect(),
                winner: seat(3),
            }
        })
        .collect()
}

proptest! {
    // Each case is a whole match with every view at every step.
    #![proptest_config(ProptestConfig {
        cases: 8,
        max_shrink_iters: 16,
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_view_and_event_of_random_matches_is_written_as_serde_writes_it(
        knob in any::<u8>(),
        seed in any::<u64>(),
        fair in any::<bool>(),
    ) {
        // One cache for every match: each next match starts a different score sheet, each
        // hand (dealt fairly) another commitment.
        let mut cache = ViewCache::default();
        for variant in Variant::ALL {
            let checked = check_match(variant, knob, seed, fair, &mut cache);
            // A short match: even Bridge's boards all passed out make dozens of views.
            prop_assert!(checked > 40, "{variant}: only {checked} views");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        ..ProptestConfig::default()
    })]

    #[test]
    fn views_with_arbitrary_numbers_and_options_are_written_as_serde_writes_them(
        variant_index in 0..Variant::ALL.len(),
        seed in any::<u64>(),
        viewer in proptest::option::of(0u8..5),
        ints in proptest::collection::vec(any::<i32>(), 7),
        small in proptest::collection::vec(any::<u8>(), 7),
        hand_number in any::<u32>(),
        seq in any::<u64>(),
        timeout_ms in proptest::option::of(any::<u64>()),
        target in proptest::option::of(any::<i32>()),
        passing in proptest::option::of(any::<bool>()),
        moon in proptest::option::of(any::<bool>()),
        hands in proptest::option::of(any::<u32>()),
        bad_card in proptest::option::of(any::<bool>()),
        trump in proptest::option::of(0usize..4),
        commitment in proptest::option::of(any::<[u8; 32]>()),
        secret in proptest::option::of(any::<[u8; 32]>()),
        moon_seat in proptest::option::of(0u8..5),
        direction in 0usize..3,
        count in any::<u32>(),
        bits in any::<u64>(),
        flag in any::<bool>(),
        extra in any::<u64>(),
    ) {
        let variant = Variant::ALL[variant_index];
        let game = Game::new(variant, &Options::default(), seed).unwrap();
        let n = usize::from(game.players());
        let viewer = viewer.map(|s| Seat(s % game.players()));
        let mut view = game.view(viewer);
        view.options = Options {
            target,
            passing,
            moon: moon.map(|m| if m { Moon::Add } else { Moon::Subtract }),
            hands,
            bad_card: bad_card.map(|b| if b { BadCard::Penalty } else { BadCard::Reject }),
            ..any_options(extra, &ints)
        };
        let bid = |k: usize| (extra >> (8 * k) & 1 != 0).then_some(small[k % 5]);
        view.bids = (extra & (1 << 30) != 0)
            .then(|| per_seat(&(0..n).map(bid).collect::<Vec<_>>(), n));
        view.hand_number = hand_number;
        view.totals = per_seat(&ints, n);
        view.negatives = per_seat(&ints.iter().map(|i| i.wrapping_neg()).collect::<Vec<_>>(), n);
        view.pool = ints[0];
        view.tricks_won = per_seat(&small, n);
        view.hand_sizes = per_seat(&small, n);
        view.trump = trump.map(Suit::from_index);
        view.face_up = parlor_shared::CardSet::from_bits(bits);
        view.hearts_broken = flag;
        view.deal_commitment = commitment.map(Hash32);
        let direction = [PassDirection::Left, PassDirection::Right, PassDirection::Across][direction];
        view.legal = if extra % 5 == 0 {
            Legal::Bid { min: small[0], max: small[1], forbidden: flag.then_some(small[2]) }
        } else if extra % 7 == 1 {
            Legal::Blind
        } else if extra % 7 == 2 {
            Legal::Exchange { count, to: Seat(small[3] % 7), from: parlor_shared::CardSet::from_bits(bits) }
        } else if flag {
            Legal::Pass { count, direction, from: parlor_shared::CardSet::from_bits(!bits) }
        } else {
            Legal::Play { cards: parlor_shared::CardSet::from_bits(bits) }
        };
        let on = |bit: u32| extra & (1 << (bit + 32)) != 0;
        view.blind = on(29).then(|| BlindView {
            face_down: Seat::all(n as u8).filter(|s| on(22 + u32::from(s.0))).collect(),
            bid: Seat::all(n as u8).filter(|s| !on(22 + u32::from(s.0))).collect(),
            given: parlor_shared::CardSet::from_bits(bits >> 3),
            received: parlor_shared::CardSet::from_bits(!bits >> 5),
        });
        let line = HandResult {
            hand: hand_number,
            points: per_seat(&ints, n),
            penalties: per_seat(&ints.iter().rev().copied().collect::<Vec<_>>(), n),
            tricks: per_seat(&small, n),
            totals: per_seat(&ints, n),
            pool_carried: ints[1],
            moon: moon_seat.map(Seat),
            bids: on(0).then(|| per_seat(&small, n)),
            bags: on(1).then(|| per_seat(&ints, n)),
            bag_penalty: on(2).then(|| per_seat(&ints.iter().rev().copied().collect::<Vec<_>>(), n)),
            nil: on(3).then(|| per_seat(&(0..n).map(|k| on(4 + k as u32).then_some(on(12 + k as u32))).collect::<Vec<_>>(), n)),
            blind_nil: on(21).then(|| {
                let mut set = parlor_shared::SeatSet::EMPTY;
                for s in Seat::all(n as u8).filter(|s| on(22 + u32::from(s.0))) {
                    set.insert(s);
                }
                set
            }),
            trump_made: on(30).then(|| parlor_shared::rules::TrumpMade {
                trump: Suit::ALL[usize::from(small[2] % 4)],
                maker: Seat(small[3] % n as u8),
                alone: on(31),
                defender_alone: on(20).then_some(Seat(small[4] % n as u8)),
            }),
            board: on(29).then(|| parlor_shared::rules::BoardResult {
                board: u32::from(small[1] % 16) + 1,
                vulnerability: parlor_shared::bridge::Vulnerability::Both,
                contract: on(28).then(|| parlor_shared::bridge::Contract {
                    bid: parlor_shared::bridge::Bid::new(
                        small[2] % 7 + 1,
                        parlor_shared::bridge::Strain::NoTrump,
                    )
                    .unwrap(),
                    doubled: parlor_shared::bridge::Doubling::Doubled,
                    declarer: Seat(small[3] % n as u8),
                }),
                declarer_tricks: small[4] % 14,
                score: ints[0],
            }),
            secret: secret.map(Hash32),
        };
        view.history = vec![line.clone(); usize::from(small[0] % 4)].into();
        // Room for one more: a hand has at most 17 tricks.
        view.tricks = tricks(bits, usize::from(small[1] % 17), n).into_iter().collect();
        // A fresh cache, then the same cache for score sheets, tricks and commitments that
        // differ from the last ones written: a number changed in the first line and a card in
        // the first trick (as long), a line and a trick more (longer, the same up to it), then
        // two fewer (shorter), another commitment, and other totals.
        let mut cache = ViewCache::default();
        check_view(&view, seq, timeout_ms, &mut cache);
        // Changed as the game changes its lines: a copy while the cache shares them.
        if let Some(first) = std::sync::Arc::make_mut(&mut view.history).first_mut() {
            first.pool_carried = first.pool_carried.wrapping_add(1);
        }
        if let Some(first) = view.tricks.first_mut() {
            first.cards = first.cards.iter().map(|c| parlor_shared::Card::from_index((c.index() + 1) % 52)).collect();
        }
        check_view(&view, seq, timeout_ms, &mut cache);
        std::sync::Arc::make_mut(&mut view.history).push(line.clone());
        view.tricks.extend(tricks(!bits, 1, n));
        check_view(&view, seq, timeout_ms, &mut cache);
        let fewer = view.history.len().saturating_sub(2);
        std::sync::Arc::make_mut(&mut view.history).truncate(fewer);
        view.tricks.truncate(view.tricks.len().saturating_sub(2));
        check_view(&view, seq, timeout_ms, &mut cache);
        view.deal_commitment = view.deal_commitment.map(|Hash32(mut c)| { c[31] ^= 1; Hash32(c) });
        check_view(&view, seq, timeout_ms, &mut cache);
        view.negatives[Seat(0)] = view.negatives[Seat(0)].wrapping_add(1);
        check_view(&view, seq, timeout_ms, &mut cache);
        view.totals[Seat(n as u8 - 1)] = view.totals[Seat(n as u8 - 1)].wrapping_sub(1);
        check_view(&view, seq, timeout_ms, &mut cache);
        check_event(&Event::HandScored(line), seq, seq / 2);
        check_event(
            &Event::BadCard { seat: Seat(0), card: parlor_shared::Card::from_index(small[1] % 52), penalty: ints[2] },
            seq,
            0,
        );
        check_event(
            &Event::HandStarted {
                hand: hand_number,
                dealer: Seat(small[2] % 5),
                pass: flag.then_some(direction),
                commitment: commitment.map(Hash32),
                hand_size: on(20).then_some(count),
            },
            seq,
            seq,
        );
        check_event(&Event::Bid { seat: Seat(small[3] % 7), tricks: small[4] }, seq, seq);
        let seat = Seat(small[0] % 7);
        let face_down: Vec<Seat> = view.blind.as_ref().map_or_else(Vec::new, |b| b.face_down.to_vec());
        check_event(&Event::DealtFaceDown { seats: face_down.into() }, seq, seq);
        check_event(&Event::CardsSeen { seat }, seq, seq);
        check_event(&Event::BlindNil { seat }, seq, seq);
        check_event(&Event::Exchanged { from: seat, to: Seat(small[1] % 7), count }, seq, seq);
    }
}

/// A match of tricks whose random players paid for bad card after bad card never reached its
/// target; the random players now play one at most.
#[test]
fn a_match_with_a_bad_card_still_ends() {
    let mut cache = ViewCache::default();
    let seed = 2_841_015_795_467_942_675;
    assert!(check_match(Variant::Tricks, 152, seed, false, &mut cache) > 100);
}
