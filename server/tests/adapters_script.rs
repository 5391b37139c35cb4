//! heartless-style scripts (`script:PATH`) and `parlor heartless-move`, tested with a small
//! Python script and the real binary.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use parlor_server::tools::adapters::heartless;
use parlor_server::tools::adapters::script::ScriptBot;
use parlor_shared::bots::{HeuristicBot, RandomBot, Strategy};
use parlor_shared::{Action, CardSet, Game, Options, PlayerView, Seat, Variant};

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
        };
        assert_eq!(printed, expected, "seed {seed}");
        checked += 1;
    }
    assert_eq!(checked, 12);
}
