//! heartless-style scripts (`script:PATH`) and `parlor heartless-move`, tested with a small
//! Python script and the real binary.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use parlor_server::tools::adapters::heartless;
use parlor_server::tools::adapters::script::ScriptBot;
use parlor_shared::bots::{HeuristicBot, RandomBot, Strategy};
use parlor_shared::{Action, Card, CardSet, Game, Legal, Options, PlayerView, Seat, Suit, Variant};

fn script() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/bots/heartless_script.py");
    path.to_string_lossy().into_owned()
}

/// Plays the first hand of a Hearts match with `bot` in seat 0 and heuristics elsewhere,
/// checking every move is legal; returns how many decisions seat 0 made.
fn play_a_hand(bot: &mut ScriptBot) -> u32 {
    let mut game = Game::new(Variant::Hearts, &Options::default(), 21).unwrap();
    let mut decisions = 0;
    while game.hand_number() == 0 {
        let seat = game.to_act().iter().next().unwrap();
        let view = PlayerView::of(&game, Some(seat));
        let action = if seat == Seat(0) {
            decisions += 1;
            bot.choose(&view)
        } else {
            HeuristicBot.choose(&view)
        };
        assert!(view.legal.allows(&action), "{action:?}");
        game.apply(seat, &action).unwrap();
    }
    decisions
}

#[test]
fn a_script_plays_a_whole_hand_with_its_own_moves() {
    let mut bot = ScriptBot::new(&script(), Duration::from_secs(10));
    let decisions = play_a_hand(&mut bot);
    assert_eq!(decisions, 14, "one pass and thirteen cards");
    // The script follows suit with its lowest card, which is always legal except where
    // Hearts' first-trick and broken-hearts rules bite; those fall back.
    assert!(bot.failures <= 2, "{} fallbacks", bot.failures);
}

#[test]
fn bad_output_falls_back_to_the_built_in_bot() {
    // A script that exits with an error is as bad as one printing nonsense.
    let mut bot = ScriptBot::new("/nonexistent/heartless-script", Duration::from_secs(1));
    let decisions = play_a_hand(&mut bot);
    assert_eq!(bot.failures, decisions);
    let mut bot = ScriptBot::new("/bin/false", Duration::from_secs(1));
    let decisions = play_a_hand(&mut bot);
    assert_eq!(bot.failures, decisions);
}

#[test]
fn heartless_move_answers_like_the_strategy_it_wraps() {
    let mut checked = 0;
    for seed in 0..12u64 {
        let mut game = Game::new(Variant::Hearts, &Options::default(), seed).unwrap();
        let mut random = RandomBot::new(seed);
        for _ in 0..(seed * 5 % 40) {
            let seat = game.to_act().iter().next().unwrap();
            let a = random.choose_legal(&game.legal_actions(seat)).unwrap();
            game.apply(seat, &a).unwrap();
        }
        let seat = game.to_act().iter().next().unwrap();
        let view = PlayerView::of(&game, Some(seat));
        let output = Command::new(env!("CARGO_BIN_EXE_parlor"))
            .arg("heartless-move")
            .arg("--strategy")
            .arg("heuristic")
            .args(heartless::arguments(&view))
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        let printed =
            CardSet::parse_compact(String::from_utf8_lossy(&output.stdout).trim()).unwrap();
        let expected: CardSet = match HeuristicBot.choose(&view) {
            Action::Play { card } => CardSet::single(card),
            Action::Pass { cards } => cards.into_iter().collect(),
            Action::Bid { .. }
            | Action::BlindNil
            | Action::SeeCards
            | Action::Exchange { .. }
            | Action::Call(_)
            | Action::Discard { .. }
            | Action::Claim { .. }
            | Action::AnswerClaim { .. } => unreachable!("hearts has no bidding"),
        };
        assert_eq!(printed, expected, "seed {seed}");
        checked += 1;
    }
    assert_eq!(checked, 12);
}

/// One position of tests/fixtures/references/heartless_positions.txt: the game it comes from
/// (replayed in Parlor, every play checked legal) and the arguments heartless gives there.
struct Position {
    game: Game,
    expected: Vec<String>,
}

fn stacked(step: usize, offset: usize) -> [Card; 52] {
    std::array::from_fn(|i| Card::from_index(((i * step + offset) % 52) as u8))
}

fn reference_positions() -> Vec<Position> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/references/heartless_positions.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    lines
        .chunks(2)
        .map(|pair| {
            let head: Vec<&str> = pair[0].split(' ').collect();
            let step: usize = head[1].parse().unwrap();
            let offset: usize = head[2].parse().unwrap();
            let passing = head[0] == "passing";
            let options = Options {
                passing: Some(passing),
                ..Options::default()
            };
            let mut game =
                Game::with_deck(Variant::Hearts, &options, 1, stacked(step, offset)).unwrap();
            if !passing {
                for card in head[4..].iter().filter(|c| !c.is_empty()) {
                    let seat = game.to_act().iter().next().unwrap();
                    let card: Card = card.parse().unwrap();
                    game.apply(seat, &Action::Play { card })
                        .unwrap_or_else(|e| panic!("{card} refused: {e}"));
                }
            }
            let expected = pair[1].split(' ').map(str::to_string).collect();
            Position { game, expected }
        })
        .collect()
}

/// The 24 arguments, argument by argument, as the heartless crate writes them for the same
/// positions (suit names, discards including the round on the table, suits a player may still
/// hold in heartless's order, moon-adjusted hand scores).
#[test]
fn arguments_are_written_exactly_as_heartless_writes_them() {
    let positions = reference_positions();
    assert!(positions.len() >= 8);
    for p in &positions {
        let seat = p.game.to_act().iter().next().unwrap();
        let got = heartless::arguments(&PlayerView::of(&p.game, Some(seat)));
        assert_eq!(got.len(), 24);
        for (g, w) in got.iter().zip(&p.expected) {
            assert_eq!(g, w, "in {:?}", p.expected);
        }
    }
}

/// `parlor heartless-move` reads the same arguments back into the position: the hand, the
/// round on the table and the legal moves.
#[test]
fn heartless_move_reads_heartless_arguments() {
    for p in reference_positions() {
        let seat = p.game.to_act().iter().next().unwrap();
        let real = PlayerView::of(&p.game, Some(seat));
        let map = heartless::parse_arguments(&p.expected);
        let rebuilt = heartless::view_from_arguments(&map).unwrap();
        assert_eq!(rebuilt.hand, real.hand);
        let cards = |v: &PlayerView| v.trick.plays.iter().map(|p| p.card).collect::<Vec<_>>();
        assert_eq!(cards(&rebuilt), cards(&real));
        assert_eq!(rebuilt.played_cards(), real.played_cards());
        match (rebuilt.legal, real.legal) {
            (Legal::Play { cards: a }, Legal::Play { cards: b }) => assert_eq!(a, b),
            (Legal::Pass { from: a, .. }, Legal::Pass { from: b, .. }) => assert_eq!(a, b),
            other => panic!("legal moves differ: {other:?}"),
        }
    }
}

/// A script's answer is read as heartless reads it: either case, spaces, unicode suits, one
/// suit for several ranks, and the suit left out when it is the one to follow.
#[test]
fn script_answers_are_read_as_heartless_reads_them() {
    let hand = CardSet::parse_compact("2C 5C TD QS AH KH").ok();
    let read = |t: &str, follow| heartless::parse_cards(t, hand, follow);
    let set = |t: &str| CardSet::parse_compact(t).ok();
    assert_eq!(read("0d", None), set("TD"));
    assert_eq!(read("qS", None), set("QS"));
    assert_eq!(read("KA h", None), set("KH AH"));
    assert_eq!(read("Q♠", None), set("QS"));
    assert_eq!(read("5", Some(Suit::Clubs)), set("5C"));
    assert_eq!(read("Q", None), set("QS"), "the only queen held");
    assert_eq!(read("TD", None), None, "heartless writes ten as 0");
    assert_eq!(
        read("3c", None),
        None,
        "a card not held is dropped, leaving nothing"
    );
}
