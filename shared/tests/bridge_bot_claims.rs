//! The built-in bots claim as declarer only when the claim cannot fail (every card declarer's
//! side holds is a winner, declarer's side on lead, no trump left against it), the defending
//! bots accept such a claim, and after a rejection the board is played out.

use parlor_shared::bots::bridge::{heuristic, strong, sure_claim};
use parlor_shared::bridge::{Bid, Strain};
use parlor_shared::rules::{Call, Legal, Phase};
use parlor_shared::{Action, Event, Game, Options, PlayerView, Seat, Variant};

const N: Seat = Seat(0);
const E: Seat = Seat(1);
const S: Seat = Seat(2);
const W: Seat = Seat(3);

/// North and South hold the top cards of every suit: South's lowest beats the defenders'
/// highest in each.
const DEAL: &str = "N:AKQJ.AKQ.AKQ.AKQ 765.765.876.8765 T98.JT98.JT9.JT9 432.432.5432.432";

/// Board 1 with the deal above, North (dealer) opening `strain` at the one level and everyone
/// passing: North declares, East leads.
fn one_level(strain: Strain) -> Game {
    let options: Options =
        serde_json::from_value(serde_json::json!({ "deal": DEAL, "board": 1, "hands": 1 }))
            .unwrap();
    let mut game = Game::new(Variant::Bridge, &options, 0).unwrap();
    let open = Action::Call(Call::Bid(Bid::new(1, strain).unwrap()));
    game.apply(N, &open).unwrap();
    for seat in [E, S, W] {
        game.apply(seat, &Action::Call(Call::Pass)).unwrap();
    }
    assert_eq!(game.phase(), Phase::Playing);
    game
}

fn view(game: &Game, seat: Seat) -> PlayerView {
    PlayerView::of(game, Some(seat))
}

/// Plays the lowest legal card of whoever acts, until the trick in progress is done.
fn finish_trick(game: &mut Game) {
    loop {
        let seat = game.to_act().first().unwrap();
        let Legal::Play { cards } = game.legal_actions(seat) else {
            panic!("a card is asked for");
        };
        let events = game
            .apply(
                seat,
                &Action::Play {
                    card: cards.lowest().unwrap(),
                },
            )
            .unwrap();
        if events.iter().any(|e| matches!(e, Event::TrickWon { .. })) {
            return;
        }
    }
}

#[test]
fn declarer_claims_every_trick_once_on_lead_with_only_winners() {
    let mut game = one_level(Strain::NoTrump);
    // East leads; South (dummy) plays next: declarer is asked for dummy's card mid-trick.
    let lead = Action::Play {
        card: game.hand(E).lowest().unwrap(),
    };
    game.apply(E, &lead).unwrap();
    assert_eq!(
        game.to_act().first(),
        Some(N),
        "declarer plays dummy's card"
    );
    assert_eq!(
        sure_claim(&view(&game, N)),
        None,
        "never in the middle of a trick"
    );
    finish_trick(&mut game);
    // Declarer's side won it and leads to an empty trick, every card a winner.
    let on_lead = view(&game, N);
    assert!(on_lead.trick.plays.is_empty());
    let claim = Action::Claim { tricks: 12 };
    assert_eq!(sure_claim(&on_lead), Some(claim.clone()));
    assert_eq!(heuristic(&on_lead), Some(claim.clone()));
    assert_eq!(strong(&on_lead, 1, &|| false), Some(claim.clone()));
    assert_eq!(sure_claim(&view(&game, E)), None, "a defender never claims");
    assert!(
        game.allows(N, &claim),
        "declarer asked for a card may claim instead"
    );
    assert!(!game.allows(E, &Action::Claim { tricks: 1 }));
    assert!(
        !game.allows(N, &Action::Claim { tricks: 13 }),
        "only the tricks left"
    );
    // The defending bots accept it and the board ends with declarer's side taking all 13.
    game.apply(N, &claim).unwrap();
    let mut scored = None;
    while let Some(seat) = game.to_act().first() {
        let answer = heuristic(&view(&game, seat)).expect("a defender answers");
        assert_eq!(answer, Action::AnswerClaim { accept: true });
        for event in game.apply(seat, &answer).unwrap() {
            if let Event::HandScored(line) = event {
                scored = line.board;
            }
        }
    }
    assert_eq!(scored.expect("the board is scored").declarer_tricks, 13);
}

#[test]
fn no_claim_while_the_defenders_hold_a_trump() {
    let mut game = one_level(Strain::Spades);
    finish_trick(&mut game);
    let seat = game.to_act().first().unwrap();
    assert!(
        seat == N || seat == S,
        "declarer's side won the first trick"
    );
    let on_lead = view(&game, N);
    assert_eq!(
        sure_claim(&on_lead),
        None,
        "a low spade could ruff a winner"
    );
    assert!(matches!(heuristic(&on_lead), Some(Action::Play { .. })));
}

#[test]
fn after_a_rejected_claim_the_board_is_played_out() {
    let mut game = one_level(Strain::NoTrump);
    finish_trick(&mut game);
    game.apply(N, &Action::Claim { tricks: 12 }).unwrap();
    game.apply(E, &Action::AnswerClaim { accept: false })
        .unwrap();
    assert_eq!(game.claims_rejected(), 1);
    let after = view(&game, N);
    assert_eq!(after.bridge.as_ref().unwrap().claims_rejected, 1);
    assert_eq!(sure_claim(&after), None);
    assert!(matches!(heuristic(&after), Some(Action::Play { .. })));
    // The next trick does not bring the claim back: the count lasts the board.
    finish_trick(&mut game);
    assert_eq!(sure_claim(&view(&game, N)), None);
}
