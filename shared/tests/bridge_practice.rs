//! A practice table of Bridge: the `deal` option deals every board the four hands it names,
//! as the board numbered `board` (its dealer and vulnerability), with no commitment since no
//! secret dealt it; bad deals and options in the wrong place are refused with their reasons.

use parlor_shared::bots::RandomBot;
use parlor_shared::bridge::Vulnerability;
use parlor_shared::fair::Hash32;
use parlor_shared::rules::{DealError, FixedDeal, OptionsError};
use parlor_shared::{CardSet, Event, Game, Options, Rules, Seat, Variant};

/// North's, East's, South's and West's hands (from a PBN file's Deal tag).
const DEAL: &str = "N:AKJ9742.A2.73.K6 3.T763.T652.A972 86.K854.AQ9.T843 QT5.QJ9.KJ84.QJ5";

fn practice(board: Option<u32>, hands: u32) -> Rules {
    let options: Options = serde_json::from_value(serde_json::json!({
        "deal": DEAL,
        "board": board,
        "hands": hands,
    }))
    .unwrap();
    Rules::new(Variant::Bridge, &options).unwrap()
}

fn hand(compact: &str) -> CardSet {
    CardSet::parse_compact(compact).unwrap()
}

/// What each `hand_started` of `events` says: the hand, its dealer and commitment.
fn started(events: &[Event]) -> Vec<(u32, Seat, Option<Hash32>)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::HandStarted {
                hand,
                dealer,
                commitment,
                ..
            } => Some((*hand, *dealer, *commitment)),
            _ => None,
        })
        .collect()
}

#[test]
fn every_board_deals_the_fixed_hands_as_the_board_named() {
    // Board 7: South deals, both sides vulnerable. The server's fair dealing (a master
    // secret) does not apply to a fixed deal: no commitment, no secret revealed.
    let mut game = Game::with_master(practice(Some(7), 2), Hash32([3; 32]));
    let expected = [
        hand("AKJ9742s A2h 73d K6c"),
        hand("3s T763h T652d A972c"),
        hand("86s K854h AQ9d T843c"),
        hand("QT5s QJ9h KJ84d QJ5c"),
    ];
    let opening = game.opening_events();
    assert_eq!(started(&opening), [(0, Seat(2), None)]);
    assert!(opening.contains(&Event::Board {
        board: 7,
        vulnerability: Vulnerability::Both,
    }));
    let mut dealt_seen = 0;
    for event in &opening {
        if let Event::Dealt { seat, cards } = event {
            assert_eq!(*cards, expected[seat.index()], "{seat}");
            dealt_seen += 1;
        }
    }
    assert_eq!(dealt_seen, 4);
    assert_eq!(game.deal_commitment(), None);

    let mut bot = RandomBot::new(11);
    let mut events = Vec::new();
    let mut all = Vec::new();
    while !game.is_over() {
        let seat = game.to_act().first().unwrap();
        events.clear();
        bot.act_on(&mut game, seat, &mut events).unwrap();
        if game.hand_number() == 1 && started(&events).len() == 1 {
            // The second board: the same hands, the same dealer and vulnerability.
            for s in 0..4 {
                assert_eq!(game.hand(Seat(s)), expected[usize::from(s)]);
            }
            assert_eq!(game.board(), Some((7, Vulnerability::Both)));
        }
        all.extend(events.iter().cloned());
    }
    assert_eq!(started(&all), [(1, Seat(2), None)]);
    let secrets: Vec<_> = game.history().iter().map(|h| h.secret).collect();
    assert_eq!(secrets, [None, None]);
    assert!(game.history().iter().all(|h| h.board.is_some()));
}

#[test]
fn the_board_defaults_to_one_and_the_options_round_trip() {
    let rules = practice(None, 1);
    let game = Game::with_rules(rules, 1, None);
    assert_eq!(game.dealer(), Seat(0), "board 1: North deals");
    assert_eq!(game.board(), Some((1, Vulnerability::None)));
    let json = serde_json::to_value(rules.options()).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"hands": 1, "rubber": false, "deal": DEAL, "board": 1})
    );
    let back: Options = serde_json::from_value(json).unwrap();
    assert_eq!(Rules::new(Variant::Bridge, &back).unwrap(), rules);
    // A table without a fixed deal spells out its options as before.
    let plain = serde_json::to_value(Rules::standard(Variant::Bridge).options()).unwrap();
    assert_eq!(plain, serde_json::json!({"hands": 4, "rubber": false}));
}

#[test]
fn bad_deals_and_misplaced_options_are_refused() {
    let bad = |deal: &str| {
        serde_json::from_value::<Options>(serde_json::json!({ "deal": deal }))
            .unwrap_err()
            .to_string()
    };
    let twice = bad("N:AKJ9742.A2.73.K6 3.T763.T652.A972 86.K854.AQ9.T843 QT5.QJ9.KJ84.QJ6");
    assert!(twice.contains("appears twice"), "{twice}");
    let short = bad("N:AKJ9742.A2.73.K 3.T763.T652.A972 86.K854.AQ9.T843 QT5.QJ9.KJ84.QJ5");
    assert!(short.contains("thirteen"), "{short}");
    let three = bad("N:AKJ9742.A2.73.K6 3.T763.T652.A972 86.K854.AQ9.T843");
    assert!(three.contains("four hands"), "{three}");

    let deal: FixedDeal = DEAL.parse().unwrap();
    let mut hands = deal.hands();
    let card = hands[Seat(3)].lowest().unwrap();
    hands[Seat(3)].remove(card);
    assert_eq!(
        FixedDeal::new(&hands),
        Err(DealError::NotThirteen { seat: 3, cards: 12 })
    );

    let with_deal = Options {
        deal: Some(deal),
        ..Options::default()
    };
    assert_eq!(
        Rules::new(Variant::Hearts, &with_deal),
        Err(OptionsError::NotForVariant {
            option: "deal",
            variant: Variant::Hearts
        })
    );
    let board_alone = Options {
        board: Some(5),
        ..Options::default()
    };
    assert_eq!(
        Rules::new(Variant::Bridge, &board_alone),
        Err(OptionsError::BoardWithoutDeal)
    );
    let board_zero = Options {
        board: Some(0),
        ..with_deal
    };
    assert!(matches!(
        Rules::new(Variant::Bridge, &board_zero),
        Err(OptionsError::OutOfRange {
            option: "board",
            ..
        })
    ));
}
