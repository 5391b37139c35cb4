//! A board of Bridge through the engine: the auction from the dealer, the contract and its
//! declarer, the opening lead from declarer's left, dummy's hand shown to everyone only after
//! it, declarer playing dummy's cards (dummy playing none), claims accepted and rejected, and
//! the duplicate score of the board.

use parlor_shared::bridge::score::north_south_score;
use parlor_shared::bridge::{Bid, Strain, Vulnerability};
use parlor_shared::rules::{Call, Legal, Phase, RuleError};
use parlor_shared::{Action, Event, Game, Options, PlayerView, Seat, Variant};

const N: Seat = Seat(0);
const E: Seat = Seat(1);
const S: Seat = Seat(2);
const W: Seat = Seat(3);

fn bid(level: u8, strain: Strain) -> Action {
    Action::Call(Call::Bid(Bid::new(level, strain).unwrap()))
}

fn pass() -> Action {
    Action::Call(Call::Pass)
}

/// Board 1, bid 1NT (N) pass 3NT (S) pass pass pass: 3NT by North, East to lead.
fn three_no_trump(seed: u64) -> (Game, Vec<Event>) {
    let mut game = Game::new(Variant::Bridge, &Options::default(), seed).unwrap();
    assert_eq!(game.dealer(), N, "North deals board 1");
    assert_eq!(game.board(), Some((1, Vulnerability::None)));
    let mut events = Vec::new();
    for (seat, call) in [
        (N, bid(1, Strain::NoTrump)),
        (E, pass()),
        (S, bid(3, Strain::NoTrump)),
        (W, pass()),
        (N, pass()),
        (E, pass()),
    ] {
        assert_eq!(
            game.to_act().first(),
            Some(seat),
            "calls go round from the dealer"
        );
        events.extend(game.apply(seat, &call).unwrap());
    }
    (game, events)
}

/// The lowest legal card of whoever acts.
fn lowest(game: &Game) -> (Seat, Action) {
    let seat = game.to_act().first().unwrap();
    let Legal::Play { cards } = game.legal_actions(seat) else {
        panic!("a card is asked for");
    };
    let card = cards.lowest().unwrap();
    (seat, Action::Play { card })
}

#[test]
fn the_auction_names_declarer_and_east_leads_before_dummy_is_shown() {
    let (mut game, events) = three_no_trump(3);
    let contract = events
        .iter()
        .find_map(|e| match e {
            Event::Contract { contract } => Some(*contract),
            _ => None,
        })
        .expect("a contract");
    assert_eq!(contract.declarer, N, "North named no trump first");
    assert_eq!(contract.bid, Bid::new(3, Strain::NoTrump).unwrap());
    assert_eq!(game.phase(), Phase::Playing);
    assert_eq!(game.trump(), None);
    assert_eq!(game.to_act().first(), Some(E), "declarer's left leads");
    // Nobody but South sees South's cards before the opening lead.
    for viewer in [Some(N), Some(E), Some(W), None] {
        let view = PlayerView::of(&game, viewer);
        let bridge = view.bridge.as_ref().unwrap();
        assert_eq!(bridge.dummy, None, "{viewer:?}");
        assert!((view.hand & game.hand(S)).is_empty(), "{viewer:?}");
        let json = serde_json::to_string(&view).unwrap();
        for card in game.hand(S) {
            assert!(
                !json.contains(&format!("\"{card}\"")) || view.hand.contains(card),
                "{viewer:?} sees {card}"
            );
        }
    }
    let (seat, lead) = lowest(&game);
    let events = game.apply(seat, &lead).unwrap();
    let shown = events
        .iter()
        .find_map(|e| match e {
            Event::DummyShown { seat, cards } => Some((*seat, *cards)),
            _ => None,
        })
        .expect("dummy goes face up after the opening lead");
    assert_eq!(shown, (S, game.hand(S)));
    for viewer in [Some(N), Some(E), Some(W), None] {
        let view = PlayerView::of(&game, viewer);
        let dummy = view.bridge.unwrap().dummy.expect("dummy is shown");
        assert_eq!((dummy.seat, dummy.cards), (S, game.hand(S)));
    }
}

#[test]
fn declarer_plays_dummys_cards_and_dummy_plays_none() {
    let (mut game, _) = three_no_trump(5);
    let (seat, lead) = lowest(&game);
    game.apply(seat, &lead).unwrap();
    assert_eq!(game.next_to_play(), S, "dummy's card is next");
    assert_eq!(game.to_act().first(), Some(N), "declarer plays it");
    let Legal::Play { cards } = game.legal_actions(N) else {
        panic!("declarer is asked for dummy's card");
    };
    assert!((cards - game.hand(S)).is_empty());
    assert_eq!(game.legal_actions(S), Legal::Wait);
    let card = cards.lowest().unwrap();
    let before = game.clone();
    assert_eq!(
        game.apply(S, &Action::Play { card }),
        Err(RuleError::DummyDoesNotPlay)
    );
    assert_eq!(game, before, "a refusal changes nothing");
    let events = game.apply(N, &Action::Play { card }).unwrap();
    assert!(events.contains(&Event::Played { seat: S, card }));
    assert!(!game.hand(S).contains(card));
}

#[test]
fn a_rejected_claim_plays_on_and_an_accepted_one_ends_the_board() {
    let (mut game, _) = three_no_trump(7);
    // Two tricks first, lowest cards.
    while game.completed_tricks().count() < 2 {
        let (seat, action) = lowest(&game);
        game.apply(seat, &action).unwrap();
    }
    // Declarer waits for a defender's card now and then; play until it is North's or South's.
    while !matches!(game.next_to_play(), N | S) {
        let (seat, action) = lowest(&game);
        game.apply(seat, &action).unwrap();
    }
    assert_eq!(
        game.apply(E, &Action::Claim { tricks: 1 }),
        Err(RuleError::NotDeclarersClaim)
    );
    assert_eq!(
        game.apply(N, &Action::Claim { tricks: 12 }),
        Err(RuleError::ClaimTooLarge { remaining: 11 })
    );
    let events = game.apply(N, &Action::Claim { tricks: 11 }).unwrap();
    assert!(events.contains(&Event::Claimed {
        seat: N,
        tricks: 11,
        cards: game.hand(N),
    }));
    let mut defenders: Vec<Seat> = game.to_act().iter().collect();
    defenders.sort();
    assert_eq!(defenders, [E, W]);
    assert_eq!(game.legal_actions(E), Legal::AnswerClaim { tricks: 11 });
    let (seat, card) = (
        game.to_act().first().unwrap(),
        game.hand(N).lowest().unwrap(),
    );
    assert_eq!(
        game.apply(seat, &Action::Play { card }),
        Err(RuleError::ClaimPending)
    );
    // Everyone sees declarer's hand with the claim.
    let view = PlayerView::of(&game, Some(W));
    assert_eq!(view.bridge.unwrap().claim.unwrap().cards, game.hand(N));
    game.apply(E, &Action::AnswerClaim { accept: true })
        .unwrap();
    game.apply(W, &Action::AnswerClaim { accept: false })
        .unwrap();
    assert_eq!(game.pending_claim(), None, "one rejection withdraws it");
    assert!(matches!(game.to_act().first(), Some(N)));
    // Claim again, for less: both accept, and the board is scored.
    let taken = game.tricks_won();
    let declarers = taken[N] + taken[S];
    game.apply(N, &Action::Claim { tricks: 9 }).unwrap();
    game.apply(W, &Action::AnswerClaim { accept: true })
        .unwrap();
    let events = game
        .apply(E, &Action::AnswerClaim { accept: true })
        .unwrap();
    let line = events
        .iter()
        .find_map(|e| match e {
            Event::HandScored(line) => Some(line.clone()),
            _ => None,
        })
        .expect("the board is scored");
    let board = line.board.expect("the board's result");
    assert_eq!(board.declarer_tricks, declarers + 9);
    let tricks: u32 = line.tricks.as_slice().iter().map(|t| u32::from(*t)).sum();
    assert_eq!(tricks, 13, "the conceded tricks go to the defenders");
    let expected = north_south_score(board.contract, Vulnerability::None, declarers + 9);
    assert_eq!(board.score, expected);
    assert_eq!(
        line.points.as_slice(),
        [expected, -expected, expected, -expected]
    );
    assert_eq!(game.hand_number(), 1, "the next board is dealt");
    assert_eq!(game.dealer(), E, "East deals board 2");
    assert_eq!(game.board(), Some((2, Vulnerability::NorthSouth)));
}

#[test]
fn four_passes_pass_the_board_out_and_bad_calls_are_refused() {
    let mut game = Game::new(Variant::Bridge, &Options::default(), 1).unwrap();
    game.apply(N, &bid(2, Strain::Hearts)).unwrap();
    assert_eq!(
        game.apply(E, &bid(2, Strain::Diamonds)),
        Err(RuleError::BidTooLow(Bid::new(2, Strain::Spades).unwrap()))
    );
    assert_eq!(
        game.apply(E, &Action::Call(Call::Redouble)),
        Err(RuleError::CannotRedouble)
    );
    assert_eq!(
        game.apply(E, &Action::Call(Call::OrderUp { alone: false })),
        Err(RuleError::NotThisGamesCall)
    );
    assert_eq!(game.apply(S, &pass()), Err(RuleError::NotYourTurn));
    game.apply(E, &Action::Call(Call::Double)).unwrap();
    assert_eq!(
        game.apply(S, &Action::Call(Call::Double)),
        Err(RuleError::CannotDouble)
    );

    let mut out = Game::new(Variant::Bridge, &Options::default(), 2).unwrap();
    let mut events = Vec::new();
    for seat in [N, E, S, W] {
        events.extend(out.apply(seat, &pass()).unwrap());
    }
    assert!(events.contains(&Event::ThrownIn), "passed out");
    let line = out.history()[0].clone();
    assert_eq!(line.points.as_slice(), [0, 0, 0, 0]);
    assert_eq!(line.board.unwrap().contract, None);
    assert!(out.completed_tricks().next().is_none());
    assert_eq!(out.hand(N).len(), 13, "the next board is dealt");
}
