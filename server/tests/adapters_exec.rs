//! The line-protocol adapter (`exec:CMD`) against a small Python contest client: the message
//! sequence it sees, and the table policy when it answers illegally, with garbage, too late
//! or not at all.

use std::path::PathBuf;
use std::time::Duration;

use parlor_server::tools::adapters;
use parlor_server::tools::adapters::exec::ExecBot;
use parlor_shared::arena::{MatchRecord, Player, Seated, play_match};
use parlor_shared::rules::BadCard;
use parlor_shared::{Card, Event, Game, Options, PlayerView, Seat, Variant};

fn client() -> String {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/bots/line_client.py");
    path.to_string_lossy().into_owned()
}

/// A log file in a directory of its own, removed with the returned guard.
fn log_path(test: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix("parlor-adapters-")
        .tempdir()
        .unwrap();
    let path = dir.path().join(format!("{test}.log"));
    (dir, path)
}

/// Plays one match with the Python client (in `mode`) in seat 0 and heuristics elsewhere;
/// returns what the client received and seat 0's total.
fn play(variant: Variant, options: &Options, mode: &str, budget_ms: u64) -> (Vec<String>, i32) {
    let (lines, record) = play_record(variant, options, mode, budget_ms);
    (lines, record.points.iter().map(|p| p[Seat(0)]).sum())
}

/// [`play`], returning the match's record.
fn play_record(
    variant: Variant,
    options: &Options,
    mode: &str,
    budget_ms: u64,
) -> (Vec<String>, MatchRecord) {
    let (_dir, log) = log_path(&format!("{variant}-{}", mode.replace(' ', "")));
    let spec = format!(
        "exec:python3 {} --mode {mode} --log {}",
        client(),
        log.display()
    );
    let mut seats: Vec<Seated> = (0..variant.players())
        .map(|s| {
            if s == 0 {
                adapters::seated(&spec, variant, Seat(0), 1, budget_ms).unwrap()
            } else {
                Seated::builtin("heuristic", variant, u64::from(s)).unwrap()
            }
        })
        .collect();
    let record = play_match(variant, options, 3, &mut seats).unwrap();
    drop(seats);
    let lines = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    (lines, record)
}

fn tricks_to(target: i32) -> Options {
    Options {
        target: Some(target),
        ..Options::default()
    }
}

#[test]
fn a_good_client_sees_the_whole_match_in_protocol_order() {
    let (lines, _) = play(Variant::Tricks, &tricks_to(15), "good", 5000);
    assert_eq!(lines[0], "|INFO|start game|seat0|seat1|seat2|seat3|END|");
    assert_eq!(lines[1], "|INFO|start hand|0|END|");
    assert!(lines[2].starts_with("|INFO|cards|"), "{}", lines[2]);
    let hand: Vec<&str> = lines[2].split('|').nth(3).unwrap().split(' ').collect();
    assert_eq!(hand.len(), 13);
    // Hand 0: the dealer is seat 3, so seat 0 leads trick 0.
    assert_eq!(lines[3], "|INFO|start trick|0|seat0|seat1|seat2|seat3|END|");
    assert_eq!(lines[4], "|QUERY|card|END|");
    assert!(lines[5].starts_with("|INFO|played|seat0|"));
    assert!(lines.iter().any(|l| l.starts_with("|INFO|end trick|0|")));
    assert!(lines.iter().any(|l| l == "|INFO|end hand|0|END|"));
    assert!(lines.last().unwrap().starts_with("|INFO|end game|seat0 "));
    assert!(
        !lines.iter().any(|l| l.contains("bad card")),
        "a legal client is never fined"
    );
    // Every query is answered by a card of its own.
    let queries = lines.iter().filter(|l| l.starts_with("|QUERY|")).count();
    let own = lines
        .iter()
        .filter(|l| l.starts_with("|INFO|played|seat0|"))
        .count();
    assert_eq!(queries, own);
}

#[test]
fn an_illegal_card_in_tricks_costs_the_penalty_and_a_new_deal() {
    let (lines, total) = play(Variant::Tricks, &tricks_to(15), "illegal --bad 3", 5000);
    assert!(lines.iter().any(|l| l.starts_with("|INFO|bad card|seat0|")));
    assert!(total < 0, "fined 100 a time: {total}");
    // The next hand is dealt and sent right after.
    let bad = lines
        .iter()
        .position(|l| l.starts_with("|INFO|bad card|seat0|"))
        .unwrap();
    assert!(
        lines[bad + 1..]
            .iter()
            .any(|l| l.starts_with("|INFO|cards|"))
    );
}

#[test]
fn garbage_elsewhere_gets_a_built_in_move_and_the_true_hand_again() {
    let (lines, _) = play(Variant::Hearts, &Options::default(), "garbage", 5000);
    assert!(lines.last().unwrap().starts_with("|INFO|end game|"));
    let query = lines.iter().position(|l| l == "|QUERY|card|END|").unwrap();
    let played = query
        + lines[query..]
            .iter()
            .position(|l| l.starts_with("|INFO|played|seat0|"))
            .unwrap();
    assert!(
        lines[played + 1].starts_with("|INFO|cards|"),
        "the hand is resent after the built-in move: {:?}",
        &lines[query..played + 2]
    );
    // Hearts passes were made for the program: the first hand's cards come after passing.
    assert_eq!(lines[1], "|INFO|start hand|0|END|");
    assert!(lines[2].starts_with("|INFO|cards|"));
}

#[test]
fn a_slow_or_crashing_program_is_replaced_and_the_match_finishes() {
    let options = Options {
        target: Some(10),
        bad_card: Some(BadCard::Reject),
        ..Options::default()
    };
    // The budget leaves room for Python to start on a busy machine.
    let (lines, _) = play(Variant::Tricks, &options, "slow", 1500);
    let starts = lines
        .iter()
        .filter(|l| l.starts_with("|INFO|start game|"))
        .count();
    assert!(starts >= 2, "the program was replaced ({starts} starts)");
    let (lines, _) = play(Variant::Tricks, &options, "crash", 5000);
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("|INFO|start game|"))
            .count()
            >= 2
    );
}

/// The fields of a protocol line (`|INFO|bid|seat0|3|END|` gives `INFO`, `bid`, `seat0`, `3`).
fn fields(line: &str) -> Vec<&str> {
    let inner = line.trim_start_matches('|').trim_end_matches("|END|");
    inner.split('|').collect()
}

/// Checks every bid the client was asked for: the query's range, and the bid then shown for
/// it, which is the client's own (its aces and kings, within the range and off the forbidden
/// one). Returns how many it was asked.
fn check_bids(lines: &[String], players: usize) -> usize {
    let mut hand_cards = 0;
    let mut asked = 0;
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("|INFO|cards|") {
            hand_cards = fields(line)[2]
                .split(' ')
                .filter(|c| c.starts_with('A') || c.starts_with('K'))
                .count();
        }
        if !line.starts_with("|QUERY|bid|") {
            continue;
        }
        asked += 1;
        let f = fields(line);
        let (min, max): (usize, usize) = (f[2].parse().unwrap(), f[3].parse().unwrap());
        let forbidden: Option<usize> = (f[4] != "-").then(|| f[4].parse().unwrap());
        let mut want = hand_cards.clamp(min, max);
        if Some(want) == forbidden {
            want = if want < max { want + 1 } else { want - 1 };
        }
        assert_eq!(
            lines[i + 1],
            format!("|INFO|bid|seat0|{want}|END|"),
            "the client's own bid, right after its query"
        );
    }
    // Every seat's bid is shown, each hand.
    let shown = lines.iter().filter(|l| l.starts_with("|INFO|bid|")).count();
    assert_eq!(shown, asked * players);
    asked
}

#[test]
fn a_program_bids_in_spades_and_sees_every_bid() {
    let options = Options {
        target: Some(150),
        ..Options::default()
    };
    let (lines, record) = play_record(Variant::Spades, &options, "good", 5000);
    let hands = record.points.len();
    assert_eq!(check_bids(&lines, 4), hands, "asked once a hand");
    assert!(lines.iter().any(|l| l == "|QUERY|bid|0|13|-|END|"));
    // The bids come before the first card of the hand.
    let first_bid = lines
        .iter()
        .position(|l| l.starts_with("|INFO|bid|"))
        .unwrap();
    let first_trick = lines
        .iter()
        .position(|l| l.starts_with("|INFO|start trick|"))
        .unwrap();
    assert!(first_bid < first_trick);
    assert_eq!(record.bids.len(), hands);
}

#[test]
fn a_program_bids_in_oh_hell_off_the_dealers_forbidden_number() {
    let (lines, record) = play_record(Variant::OhHell, &Options::default(), "good", 5000);
    assert_eq!(check_bids(&lines, 4), record.points.len());
    // Seat 0 deals every fourth hand; under the hook the dealer is told what it may not bid.
    let hooked = lines
        .iter()
        .filter(|l| l.starts_with("|QUERY|bid|") && !l.ends_with("|-|END|"))
        .count();
    assert!(hooked > 0, "the dealer's forbidden bid is in its query");
    assert_eq!(record.fallbacks[Seat(0)], 0);
}

#[test]
fn a_bid_that_is_not_a_number_gets_a_built_in_bid() {
    let options = Options {
        target: Some(100),
        ..Options::default()
    };
    let (lines, record) = play_record(Variant::Spades, &options, "garbage --bad 1", 5000);
    let query = lines
        .iter()
        .position(|l| l.starts_with("|QUERY|bid|"))
        .unwrap();
    assert!(
        lines[query + 1].starts_with("|INFO|bid|seat0|"),
        "a bid was made for it"
    );
    assert!(record.fallbacks[Seat(0)] >= 1);
    assert!(lines.last().unwrap().starts_with("|INFO|end game|"));
}

#[test]
fn a_missing_program_is_an_error_not_a_crash() {
    let err = adapters::seated(
        "exec:/nonexistent/parlor-test-bot",
        Variant::Tricks,
        Seat(0),
        1,
        100,
    );
    assert!(err.is_err());
}

/// The deck the reference transcripts were written for: card `(i * step + offset) % 52` at
/// position `i` (see tests/fixtures/references/tricks_server_model.py).
fn stacked(step: usize, offset: usize) -> [Card; 52] {
    std::array::from_fn(|i| Card::from_index(((i * step + offset) % 52) as u8))
}

/// Plays two stacked hands of `tricks` with four copies of the line client (seat 0 in `mode`)
/// and returns what seat 0 received up to the end of the second hand.
fn two_stacked_hands(mode: &str, test: &str) -> Vec<String> {
    let variant = Variant::Tricks;
    let mut game = Game::with_deck(variant, &Options::default(), 1, stacked(7, 3)).unwrap();
    game.stack_deck(stacked(11, 5));
    let (_dir, log) = log_path(test);
    let mut bots: Vec<Box<dyn Player>> = (0..4u8)
        .map(|s| {
            let mode = if s == 0 { mode } else { "good" };
            let argv = vec![
                "python3".to_string(),
                client(),
                "--mode".into(),
                mode.into(),
                "--log".into(),
                if s == 0 {
                    log.display().to_string()
                } else {
                    "/dev/null".into()
                },
            ];
            let argv: Vec<String> = argv
                .into_iter()
                .flat_map(|a| a.split(' ').map(str::to_string).collect::<Vec<_>>())
                .collect();
            let bot = ExecBot::new(argv, variant, 4, Seat(s), Duration::from_secs(20)).unwrap();
            Box::new(bot) as Box<dyn Player>
        })
        .collect();
    let tell = |bots: &mut Vec<Box<dyn Player>>, events: &[Event]| {
        for (s, bot) in bots.iter_mut().enumerate() {
            let mine: Vec<Event> = events
                .iter()
                .filter(|e| e.visible_to(Some(Seat(s as u8))))
                .cloned()
                .collect();
            bot.observe(&mine);
        }
    };
    tell(&mut bots, &game.opening_events());
    // Bounded: two hands are at most 2 * 52 moves.
    for _ in 0..2 * 52 {
        let seat = game.to_act().iter().next().unwrap();
        let action = bots[seat.index()].act(&PlayerView::of(&game, Some(seat)));
        let events = game.apply(seat, &action).unwrap();
        tell(&mut bots, &events);
        let second_over = events
            .iter()
            .any(|e| matches!(e, Event::HandScored(r) if r.hand == 1));
        if second_over {
            break;
        }
    }
    drop(bots);
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let end = lines
        .iter()
        .position(|l| l == "|INFO|end hand|1|END|")
        .expect("the second hand ended");
    lines.truncate(end + 1);
    lines
}

fn reference(name: &str) -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/references")
        .join(name);
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Line by line, the messages the contest's reference server sends a client over two hands:
/// every `end trick` carries the winner's game score, which runs on across hands.
#[test]
fn two_hands_are_sent_exactly_as_the_reference_server_sends_them() {
    let got = two_stacked_hands("good", "reference-two-hands");
    let want = reference("tricks_two_hands.txt");
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "line {}", i + 1);
    }
    assert_eq!(got.len(), want.len());
}

/// A bad card: the reference repeats the text the client sent, takes 100 off its score (seen
/// in the next `end trick` it wins), ends the hand and deals the next.
#[test]
fn a_bad_card_is_sent_exactly_as_the_reference_server_sends_it() {
    let got = two_stacked_hands("garbage --bad 1", "reference-bad-card");
    let want = reference("tricks_bad_card.txt");
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "line {}", i + 1);
    }
    assert_eq!(got.len(), want.len());
}

/// A command is split like a shell splits it, so a path with spaces works when quoted.
#[test]
fn a_quoted_command_with_spaces_starts() {
    let dir = tempfile::Builder::new()
        .prefix("parlor adapters ")
        .tempdir()
        .unwrap();
    let copy = dir.path().join("line client.py");
    std::fs::copy(client(), &copy).unwrap();
    let spec = format!("exec:python3 '{}' --mode good", copy.display());
    adapters::check_spec(&spec, Variant::Tricks).unwrap();
    let mut seats: Vec<Seated> = (0..4u8)
        .map(|s| {
            if s == 0 {
                adapters::seated(&spec, Variant::Tricks, Seat(0), 1, 20_000).unwrap()
            } else {
                Seated::builtin("heuristic", Variant::Tricks, u64::from(s)).unwrap()
            }
        })
        .collect();
    let record = play_match(Variant::Tricks, &tricks_to(5), 3, &mut seats).unwrap();
    assert_eq!(
        record.fallbacks[Seat(0)],
        0,
        "the quoted program answered itself"
    );
    assert!(adapters::check_spec("exec:python3 'unbalanced", Variant::Tricks).is_err());
    assert!(adapters::check_spec("exec:", Variant::Tricks).is_err());
}
