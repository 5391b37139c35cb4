//! The view fixtures `tests/fixtures/views/<variant>.json`: recorded here from the engine and
//! `PlayerView::apply`, replayed by the web client's and the Python SDK's tests so that their
//! view logic cannot drift from Rust's.
//!
//! Each file holds one seeded match of short options (Oh Hell, whose matches cannot be short,
//! its first two hands; `spades_blind`, Spades with blind nil, Euchre and Bridge their first
//! two, Bridge's with scripted claims): the variant's `/api/variants` entry, and streams of
//! the messages one viewer receives (events and `your_turn` prompts) with the view after
//! each. This test fails when a committed file is stale; run
//! `UPDATE_FIXTURES=1 cargo test -p parlor-shared --test view_fixtures` to rewrite them.

mod common;

use std::fmt::Write as _;
use std::path::PathBuf;

use common::table::{Message, Table};
use parlor_shared::bots::bridge;
use parlor_shared::protocol::VariantInfo;
use parlor_shared::rules::{BadCard, Legal, Phase};
use parlor_shared::{Action, Card, Event, Game, Options, PlayerView, Seat, Variant};
use serde_json::Value;

/// The match a fixture records.
struct Plan {
    /// The file's name, without `.json`: the variant's, or a variant's with house rules.
    file: &'static str,
    variant: Variant,
    options: Options,
    seed: u64,
    /// Tricks with a penalty: the first seat able to, after this many moves, plays a bad card.
    bad_card_after: Option<usize>,
    /// Stop recording once this many hands are scored (the next hand dealt), before the end
    /// of a match that lasts longer.
    hands: Option<usize>,
    /// Moves chosen here rather than by the random player (given the claims made so far).
    script: Option<Script>,
}

/// A plan's own choice of move, if it has one for this position.
type Script = fn(&Game, &mut Claims) -> Option<(Seat, Action)>;

fn plans() -> Vec<Plan> {
    let plan = |variant: Variant, options, seed| Plan {
        file: variant.name(),
        variant,
        options,
        seed,
        bad_card_after: None,
        hands: None,
        script: None,
    };
    let target = |target| Options {
        target: Some(target),
        ..Options::default()
    };
    vec![
        plan(Variant::Hearts, target(HEARTS_TARGET), HEARTS_SEED),
        plan(Variant::Filippa, target(FILIPPA_TARGET), FILIPPA_SEED),
        plan(
            Variant::Hearts5,
            Options {
                hands: Some(2),
                ..Options::default()
            },
            HEARTS5_SEED,
        ),
        Plan {
            bad_card_after: Some(14),
            ..plan(
                Variant::Tricks,
                Options {
                    target: Some(TRICKS_TARGET),
                    bad_card: Some(BadCard::Penalty),
                    ..Options::default()
                },
                TRICKS_SEED,
            )
        },
        plan(Variant::Whist, target(WHIST_TARGET), WHIST_SEED),
        plan(Variant::Spades, target(SPADES_TARGET), SPADES_SEED),
        // Blind nil: the second hand deals seat 0's side face down, seat 0 bids blind nil and
        // gives two cards back to seat 2, who gave first.
        Plan {
            file: "spades_blind",
            hands: Some(2),
            ..plan(
                Variant::Spades,
                Options {
                    blind_nil: Some(true),
                    blind_nil_behind: Some(10),
                    ..target(SPADES_TARGET)
                },
                SPADES_BLIND_SEED,
            )
        },
        // Euchre with defending alone: its first two hands.
        Plan {
            hands: Some(2),
            ..plan(
                Variant::Euchre,
                Options {
                    defend_alone: Some(true),
                    ..Options::default()
                },
                EUCHRE_SEED,
            )
        },
        // Bridge: two boards bid and played by the heuristic player, with declarer claiming in
        // the first (rejected, then accepted later).
        Plan {
            hands: Some(2),
            script: Some(bridge_moves),
            ..plan(Variant::Bridge, Options::default(), BRIDGE_SEED)
        },
        Plan {
            hands: Some(2),
            ..plan(
                Variant::OhHell,
                Options {
                    players: Some(OHHELL_PLAYERS),
                    ..Options::default()
                },
                OHHELL_SEED,
            )
        },
    ]
}

// Seeds and targets chosen so that each match lasts two hands (Oh Hell's recording stops after
// two), filippa's first hand carries its pool, in hearts seat 0 passes the two of clubs (so it
// knows who leads without holding it), in spades someone bids nil and bags cost a penalty, and
// with blind nil seat 0 bids it in the second hand, in euchre the dealer picks up and a seat
// sits out;
// `the_recorded_matches_show_what_they_should` checks it.
const HEARTS_SEED: u64 = 3;
const HEARTS_TARGET: i32 = 20;
const FILIPPA_SEED: u64 = 2;
const FILIPPA_TARGET: i32 = 18;
const HEARTS5_SEED: u64 = 0;
const TRICKS_SEED: u64 = 0;
const TRICKS_TARGET: i32 = 6;
const WHIST_SEED: u64 = 1;
const WHIST_TARGET: i32 = 2;
const SPADES_SEED: u64 = 39;
const SPADES_TARGET: i32 = 100;
const SPADES_BLIND_SEED: u64 = 3;
const OHHELL_SEED: u64 = 0;
const EUCHRE_SEED: u64 = 0;
const OHHELL_PLAYERS: u8 = 5;
const BRIDGE_SEED: u64 = 1;

/// Bridge's claims made so far in a recorded match.
#[derive(Default)]
struct Claims(u8);

/// Bridge, as a table of heuristic players would bid and play it, with claims: on the first
/// board, with ten tricks to play declarer claims them all and the first defender rejects it,
/// with three to play declarer claims them again and both defenders accept; on the second,
/// a claim of the last six that both accept (which keeps the file short).
fn bridge_moves(game: &Game, claims: &mut Claims) -> Option<(Seat, Action)> {
    let seat = game.to_act().first()?;
    if let Some(claim) = game.pending_claim() {
        return Some((
            seat,
            Action::AnswerClaim {
                accept: claim.tricks <= 6,
            },
        ));
    }
    let contract = game.calling().and_then(|calling| calling.contract);
    let done = game.completed_count();
    let claim_now = match (claims.0, game.hand_number()) {
        (0, 0) => done == 3,
        (1, 0) => done == 10,
        (2, 1) => done == 7,
        _ => false,
    };
    if game.phase() == Phase::Playing && contract.is_some_and(|c| c.declarer == seat) && claim_now {
        claims.0 += 1;
        let tricks = u8::try_from(13 - done).unwrap();
        return Some((seat, Action::Claim { tricks }));
    }
    bridge::heuristic(&PlayerView::of(game, Some(seat))).map(|action| (seat, action))
}

/// One viewer's recording.
struct Stream {
    viewer: Option<Seat>,
    /// Set once the stream has started: the view it follows and the JSON lines written so far.
    view: Option<PlayerView>,
    start: String,
    steps: Vec<String>,
}

impl Stream {
    fn new(viewer: Option<Seat>) -> Stream {
        Stream {
            viewer,
            view: None,
            start: String::new(),
            steps: Vec::new(),
        }
    }

    /// Starts from the snapshot a (re)connecting viewer gets, and its prompt if it has to act.
    fn start(&mut self, table: &Table) {
        let view = table.game.view(self.viewer);
        self.start = json(&view);
        self.view = Some(view);
        if let Some(legal) = table.prompt_on_sync(self.viewer) {
            self.take(Message::Prompt(legal));
        }
    }

    fn take(&mut self, message: Message) {
        let Some(view) = &mut self.view else { return };
        let step = match message {
            Message::Event(event) => {
                view.apply(&event);
                format!(r#"{{"event":{},"view":{}}}"#, json(&event), json(view))
            }
            Message::Prompt(legal) => {
                view.apply_legal(legal);
                format!(r#"{{"legal":{},"view":{}}}"#, json(&legal), json(view))
            }
        };
        self.steps.push(step);
    }
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap()
}

/// When a stream's viewer joins the table.
#[derive(Clone, Copy)]
enum Join {
    /// With the first snapshot of the match.
    Start,
    /// As the second hand is dealt.
    SecondHand,
    /// In the middle of the second hand: five tricks done and a card down.
    MidHand,
}

impl Join {
    fn now(self, game: &Game) -> bool {
        match self {
            Join::Start => true,
            Join::SecondHand => game.hand_number() == 1,
            Join::MidHand => {
                // Euchre's hands have five tricks: two done there.
                let done = if game.variant() == Variant::Euchre {
                    2
                } else {
                    5
                };
                game.hand_number() == 1 && game.completed_count() == done && game.trick().len() == 1
            }
        }
    }
}

/// Plays the planned match; returns the fixture's text and every event of the match.
fn record(plan: &Plan) -> (String, Vec<Event>) {
    let game = Game::new(plan.variant, &plan.options, plan.seed).unwrap();
    let mut table = Table::new(game, plan.seed);
    // A seat for the whole match, a spectator from the second hand, another seat mid-hand.
    let mut streams = [
        (Join::Start, Stream::new(Some(Seat(0)))),
        (Join::SecondHand, Stream::new(None)),
        (Join::MidHand, Stream::new(Some(Seat(1)))),
    ];
    let mut all_events = table.game.opening_events();
    let mut prompts = table.prompts();
    let mut moves = 0;
    let mut claims = Claims::default();
    loop {
        for (join, stream) in &mut streams {
            if stream.view.is_none() && join.now(&table.game) {
                stream.start(&table);
            } else {
                for message in Table::messages_for(stream.viewer, &[], &prompts) {
                    stream.take(message);
                }
            }
        }
        let bad = plan.bad_card_after.is_some_and(|after| moves >= after)
            && !all_events
                .iter()
                .any(|e| matches!(e, Event::BadCard { .. }));
        let scripted = plan
            .script
            .and_then(|script| script(&table.game, &mut claims));
        let Some((seat, action)) = scripted.or_else(|| table.next_move(bad)) else {
            break;
        };
        let events = table.apply(seat, &action);
        moves += 1;
        prompts = table.prompts();
        for (_, stream) in &mut streams {
            for message in Table::messages_for(stream.viewer, &events, &[]) {
                stream.take(message);
            }
        }
        all_events.extend(events);
        if plan.hands.is_some_and(|hands| scored(&all_events) >= hands) {
            break;
        }
    }
    let info = serde_json::to_string(&VariantInfo::of(plan.variant)).unwrap();
    let mut out = String::new();
    write!(
        out,
        "{{\n  \"variant\": \"{}\",\n  \"info\": {info},\n  \"streams\": [",
        plan.variant
    )
    .unwrap();
    for (i, (_, stream)) in streams.iter().enumerate() {
        let seat = stream
            .viewer
            .map_or("null".to_string(), |s| s.0.to_string());
        let comma = if i + 1 < streams.len() { "," } else { "" };
        write!(
            out,
            "\n    {{\n      \"seat\": {seat},\n      \"start\": {},\n      \"steps\": [\n        {}\n      ]\n    }}{comma}",
            stream.start,
            stream.steps.join(",\n        ")
        )
        .unwrap();
    }
    out.push_str("\n  ]\n}\n");
    (out, all_events)
}

/// How many hands `events` score.
fn scored(events: &[Event]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, Event::HandScored(_)))
        .count()
}

fn path_of(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/views")
        .join(format!("{file}.json"))
}

#[test]
fn the_committed_fixtures_are_current() {
    let update = std::env::var("UPDATE_FIXTURES").is_ok_and(|v| v == "1");
    let mut stale = Vec::new();
    for plan in plans() {
        let (fresh, _) = record(&plan);
        let path = path_of(plan.file);
        if update {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &fresh).unwrap();
        }
        let stored = std::fs::read_to_string(&path).unwrap_or_default();
        if stored != fresh {
            stale.push(plan.file);
        }
    }
    assert!(
        stale.is_empty(),
        "tests/fixtures/views/ is stale for {stale:?}: run \
         `UPDATE_FIXTURES=1 cargo test -p parlor-shared --test view_fixtures`"
    );
}

#[test]
fn replaying_each_fixture_gives_each_recorded_view() {
    for plan in plans() {
        let variant = plan.variant;
        let text = std::fs::read_to_string(path_of(plan.file)).unwrap();
        let fixture: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(fixture["variant"], variant.name());
        let info = serde_json::to_value(VariantInfo::of(variant)).unwrap();
        assert_eq!(fixture["info"], info, "{variant}: info");
        for stream in fixture["streams"].as_array().unwrap() {
            let mut view: PlayerView = serde_json::from_value(stream["start"].clone()).unwrap();
            assert_eq!(serde_json::to_value(view.seat).unwrap(), stream["seat"]);
            for (i, step) in stream["steps"].as_array().unwrap().iter().enumerate() {
                match (step.get("event"), step.get("legal")) {
                    (Some(event), None) => {
                        view.apply(&serde_json::from_value(event.clone()).unwrap());
                    }
                    (None, Some(legal)) => {
                        let legal: Legal = serde_json::from_value(legal.clone()).unwrap();
                        view.apply_legal(legal);
                    }
                    _ => panic!("{variant} step {i}: exactly one of event and legal"),
                }
                let got = serde_json::to_value(&view).unwrap();
                assert_eq!(
                    got, step["view"],
                    "{variant} seat {} step {i}",
                    stream["seat"]
                );
            }
        }
    }
}

#[test]
fn the_recorded_matches_show_what_they_should() {
    for plan in plans() {
        let (text, events) = record(&plan);
        let variant = plan.variant;
        assert_eq!(
            scored(&events),
            2,
            "{variant}: pick a seed whose match lasts two hands"
        );
        if plan.hands.is_none() {
            assert!(matches!(events.last(), Some(Event::MatchOver { .. })));
        }
        assert!(
            text.len() < 400_000,
            "{variant}: the fixture has grown to {} bytes",
            text.len()
        );
        let fixture: Value = serde_json::from_str(&text).unwrap();
        let streams = fixture["streams"].as_array().unwrap();
        assert!(
            streams
                .iter()
                .all(|s| !s["steps"].as_array().unwrap().is_empty())
        );
        match variant {
            Variant::Filippa => assert!(
                events
                    .iter()
                    .any(|e| matches!(e, Event::HandScored(r) if r.pool_carried > 0)),
                "filippa: pick a seed where a hand carries its pool"
            ),
            Variant::Hearts => assert!(
                events.iter().any(|e| matches!(
                    e,
                    Event::CardsPassed { from: Seat(0), cards, .. } if cards.contains(Card::TWO_OF_CLUBS)
                )),
                "hearts: pick a seed where seat 0 passes the two of clubs"
            ),
            Variant::Tricks => assert!(
                events.iter().any(|e| matches!(e, Event::BadCard { .. })),
                "tricks: the match should show a bad card"
            ),
            Variant::Euchre => assert!(
                events.iter().any(|e| matches!(e, Event::PickedUp { .. }))
                    && events.iter().any(|e| matches!(e, Event::SitsOut { .. })),
                "euchre: pick a seed where the dealer picks up and a seat sits out"
            ),
            Variant::Bridge => {
                let answers = || {
                    events.iter().filter_map(|e| match e {
                        Event::ClaimAnswered { accept, .. } => Some(*accept),
                        _ => None,
                    })
                };
                assert!(
                    events.iter().any(|e| matches!(e, Event::Contract { .. }))
                        && events.iter().any(|e| matches!(e, Event::DummyShown { .. })),
                    "bridge: the boards should reach a contract and show dummy"
                );
                assert_eq!(
                    answers().collect::<Vec<_>>(),
                    [false, true, true, true, true],
                    "bridge: one claim rejected, then two accepted by both defenders"
                );
            }
            Variant::Spades if plan.file == "spades_blind" => assert!(
                events.iter().any(|e| matches!(e, Event::BlindNil { seat } if seat.0 % 2 == 0))
                    && events.iter().any(|e| matches!(e, Event::Exchanged { .. })),
                "spades_blind: pick a seed where seat 0's side bids blind nil and exchanges"
            ),
            Variant::Spades => {
                let lines = || {
                    events.iter().filter_map(|e| match e {
                        Event::HandScored(line) => Some(line),
                        _ => None,
                    })
                };
                assert!(
                    lines().any(|l| l.nil.is_some()),
                    "spades: pick a seed where someone bids nil"
                );
                assert!(
                    lines().any(|l| l.bag_penalty.is_some()),
                    "spades: pick a seed where bags cost a penalty"
                );
            }
            _ => {}
        }
    }
}
