//! `strong` seated in heartless's own game. heartless's 24 script arguments carry the
//! discarded cards, each player's points and the suits each has failed to follow, but not the
//! order of the tricks; `parlor heartless-move` rebuilds the view with stand-in tricks.
//! `strong` once read those as real play: it inferred voids nobody had shown (in most
//! positions after the fourth trick) and could not replay them on the engine, so from the
//! third trick on it only ever played the heuristic's move. These positions were captured
//! from a real heartless game (tests/fixtures/references/heartless_script_args.txt).

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

use parlor_server::tools::adapters::heartless;
use parlor_shared::bots::{BotRng, Strategy, StrongBot, strong_hearts};
use parlor_shared::{Action, CardSet, Legal, Seat, Suit, Variant};

fn positions() -> Vec<(Vec<String>, HashMap<String, String>)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/references/heartless_script_args.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let list: Vec<_> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let args: Vec<String> = l.split(' ').map(str::to_string).collect();
            let map = heartless::parse_arguments(&args);
            (args, map)
        })
        .collect();
    assert!(list.len() >= 25);
    list
}

fn round(map: &HashMap<String, String>) -> u32 {
    map["round"].parse().unwrap()
}

/// The voids the search deals around are exactly the ones heartless reports, and every
/// sampled deal keeps to them.
#[test]
fn strong_takes_voids_from_the_arguments_not_from_stand_in_tricks() {
    let mut voids_seen = 0;
    for (_, map) in positions().iter().filter(|(_, m)| round(m) >= 1) {
        let view = heartless::view_from_arguments(map).unwrap();
        let me = view.seat.unwrap();
        let known = heartless::known_voids(map);
        let bot = StrongBot::named("strong", Variant::Hearts, 1)
            .unwrap()
            .with_known_voids(known);
        let constraints = bot.constraints(&view).unwrap();
        let mut rng = BotRng::new(round(map).into());
        for seat in Seat::all(4).filter(|s| *s != me) {
            for suit in Suit::ALL {
                let searched = constraints.voids[seat] & (1 << suit as u8) != 0;
                assert_eq!(
                    searched,
                    known[seat].has_suit(suit),
                    "seat {seat:?} {suit:?} in {map:?}"
                );
                voids_seen += usize::from(searched);
            }
        }
        for _ in 0..20 {
            let hands = constraints.sample(&mut rng);
            for seat in Seat::all(4).filter(|s| *s != me) {
                assert!((hands[seat] & known[seat]).is_empty(), "{map:?}");
                assert_eq!(hands[seat].len() as u8, view.hand_sizes[seat]);
            }
        }
    }
    assert!(voids_seen > 10, "the fixture shows voids");
}

/// Every position with a real choice is searched (no fall back to the heuristic's move), late
/// tricks included, and the card is legal.
#[test]
fn strong_searches_every_heartless_position() {
    let mut late = 0;
    for (_, map) in positions() {
        let view = heartless::view_from_arguments(&map).unwrap();
        let Legal::Play { cards } = view.legal else {
            continue;
        };
        let on_table: CardSet = view.trick.plays.iter().map(|p| p.card).collect();
        let gone = view.played_cards() - on_table;
        if strong_hearts::distinct_cards(cards, view.hand, gone).len() < 2 {
            continue;
        }
        let mut bot = StrongBot::named("strong:40", Variant::Hearts, 3)
            .unwrap()
            .with_known_voids(heartless::known_voids(&map));
        let Action::Play { card } = bot.choose(&view) else {
            panic!("a pass while playing");
        };
        assert!(cards.contains(card), "{card} is not legal in {map:?}");
        assert!(bot.last_worlds() > 0, "no deal searched in {map:?}");
        late += usize::from(round(&map) >= 3);
    }
    assert!(late >= 10, "the fixture reaches late tricks");
}

/// `parlor heartless-move --strategy strong` answers every position with cards heartless
/// accepts: a legal card, or three cards of the hand while passing.
#[test]
fn heartless_move_strong_answers_every_position() {
    for (args, map) in positions() {
        let view = heartless::view_from_arguments(&map).unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_parlor"))
            .args(["heartless-move", "--strategy", "strong:20"])
            .args(&args)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        let text = String::from_utf8_lossy(&output.stdout);
        let printed = heartless::parse_cards(text.trim(), Some(view.hand), None).unwrap();
        match view.legal {
            Legal::Play { cards } => {
                assert_eq!(printed.len(), 1, "{text}");
                assert!(
                    cards.contains(printed.lowest().unwrap()),
                    "{text} in {map:?}"
                );
            }
            Legal::Pass { from, .. } => {
                assert_eq!(printed.len(), 3, "{text}");
                assert_eq!(printed & from, printed);
            }
            Legal::Bid { .. }
            | Legal::Blind
            | Legal::Exchange { .. }
            | Legal::Call { .. }
            | Legal::Discard { .. }
            | Legal::AnswerClaim { .. }
            | Legal::Wait => {
                panic!("nothing to do in {map:?}")
            }
        }
    }
}

/// `*_suit_chars` lists the suits a player may still hold; the rest are voids.
#[test]
fn known_voids_read_the_suit_chars() {
    let args: Vec<String> = [
        "--who=1",
        "--my_suit_chars=hsdc",
        "--left_suit_chars=hsd",
        "--opposite_suit_chars=",
        "--right_suit_chars=sc",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let voids = heartless::known_voids(&heartless::parse_arguments(&args));
    assert_eq!(voids[Seat(0)], CardSet::EMPTY);
    assert_eq!(voids[Seat(1)], CardSet::suit(Suit::Clubs));
    let every_suit = Suit::ALL
        .iter()
        .fold(CardSet::EMPTY, |all, suit| all | CardSet::suit(*suit));
    assert_eq!(voids[Seat(2)], every_suit);
    assert_eq!(
        voids[Seat(3)],
        CardSet::suit(Suit::Hearts) | CardSet::suit(Suit::Diamonds)
    );
}
