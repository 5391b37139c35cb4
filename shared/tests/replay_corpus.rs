//! The replay corpus: matches of every variant recorded from the engine as it was before its
//! rewrite into a "variant kit", kept in `shared/tests/data/replay_corpus/`, one file a record.
//! The contract they hold the engine to: a game is `(variant, options, deal, action log)`, and
//! every stored game replays to the same events, views and totals, byte for byte.
//!
//! [`every_record_replays_byte_for_byte`] replays each record from its inputs alone and
//! renders the whole file again from what the engine says now; the text must equal the file.
//! [`the_corpus_covers_what_it_should`] checks, from the files alone, that the corpus still
//! holds what makes it worth keeping (every variant, each non-default option, finished and
//! unfinished matches, a pass half done, moons, bad cards, refused moves, both kinds of deal).
//!
//! Regenerate (only on purpose: the files are the engine of the day they were recorded; a
//! rewritten engine must replay them, not rewrite them):
//! run with `cargo test -p parlor-shared --test replay_corpus -- --ignored record`.
//!
//! # A record's file
//!
//! JSON lines, `NAME.jsonl`:
//!
//! 1. the header, the inputs: `{"corpus":1,"name":…,"variant":"hearts","options":{…},
//!    "deal":{…},"played_by":…}`. `options` are written as the server stores them (every
//!    option spelled out). `deal` is a match row as the server stores it: `{"match_no":M,
//!    "secret":"64 hex"}` (the server's fair deals: hand `h` is dealt from the master secret
//!    by `parlor_shared::fair`, the first dealer is `first_dealer(players, M)`), or
//!    `{"match_no":M,"seed":N}` (matches stored before fair deals, and `Game::new`: the
//!    seeded shuffle). `played_by` says how the moves were chosen (for people; not read).
//! 2. `{"opening":[events]}`: the events of the first deal (`Game::opening_events`).
//! 3. one line per action, in order: `{"seat":S,"action":A,…}` where `S` and `A` are the log
//!    (the action as the server stores it, `{"type":"play","card":"QS"}`), followed by the
//!    outcome: `"events":[…]` when the engine accepted it, or `"error":{"code":…,"message":…}`
//!    when it refused it (the log of a server holds accepted actions only; the refused ones
//!    here check that a refusal stays a refusal and changes nothing). Each line ends with
//!    `"views"`: the first 16 hex digits of the SHA-256 of every seat's view and the
//!    spectator's after the action (their JSON, seat 0 first, each followed by a newline), so
//!    every view at every step is held to its bytes too.
//! 4. `{"end":{"phase":…,"hand":…,"to_act":[…],"totals":[…],"winners":[…]}}`.
//! 5. one line per viewer, seat 0 first and the spectator last: `{"viewer":S,"view":{…}}`.
//!
//! Events, views and errors are the engine's serde JSON (what the protocol sends; the
//! server's hand-written writers in `view::json` are checked to write the same bytes). The
//! test takes from each file only line 1 and the seat and action of each line of part 3.
//!
//! Everything that names the engine's API is in [`engine`], at the top: a rewrite adapts it
//! there and nowhere else. The generator drives the engine only through it, and chooses its
//! moves from the views' JSON.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The one place that names the engine: building a game from a record's inputs, applying an
/// action, and the JSON of its events, views and errors.
mod engine {
    use parlor_shared::bots::strategy;
    use parlor_shared::fair::Hash32;
    use parlor_shared::rules::{Rules, first_dealer};
    use parlor_shared::view::json;
    use parlor_shared::{Action, Event, Game, Options, PlayerView, Seat, Variant};

    /// A match being replayed.
    pub struct Engine {
        game: Game,
    }

    /// How a record's match is dealt (its `deal`): the server's match row.
    pub enum Deal<'a> {
        /// Every hand from a master secret (64 hex digits), by the fair recipe.
        Secret { match_no: u32, secret: &'a str },
        /// The seeded shuffle.
        Seed { match_no: u32, seed: u64 },
    }

    /// Where a match stands, in plain values.
    pub struct Summary {
        pub phase: String,
        pub hand: u32,
        pub to_act: Vec<u8>,
        pub totals: Vec<i32>,
        pub winners: Vec<u8>,
    }

    fn rules(variant: &str, options: &str) -> Rules {
        let variant: Variant = variant.parse().expect("a known variant");
        let options: Options = serde_json::from_str(options).expect("options parse");
        Rules::new(variant, &options).expect("options are valid")
    }

    /// The options as the server stores them: every one spelled out (recording only).
    pub fn stored_options(variant: &str, options: &str) -> String {
        serde_json::to_string(&rules(variant, options).options()).expect("options serialize")
    }

    impl Engine {
        /// The match of `variant` with these options (JSON), dealt as `deal` says.
        pub fn start(variant: &str, options: &str, deal: &Deal) -> Engine {
            let rules = rules(variant, options);
            let players = rules.variant.players();
            let game = match *deal {
                Deal::Secret { match_no, secret } => Game::with_master_dealt_by(
                    rules,
                    Hash32::from_hex(secret).expect("a secret of 64 hex digits"),
                    first_dealer(players, match_no),
                ),
                Deal::Seed { match_no, seed } => {
                    Game::with_first_dealer(rules, seed, None, first_dealer(players, match_no))
                }
            };
            Engine { game }
        }

        /// Seats at the table.
        pub fn players(&self) -> u8 {
            self.game.players()
        }

        /// The first deal's events, as a JSON array.
        pub fn opening(&self) -> String {
            events_json(&self.game.opening_events())
        }

        /// Applies `seat`'s action (its stored JSON): the events as a JSON array, or the
        /// refusal's code and message.
        pub fn apply(&mut self, seat: u8, action: &str) -> Result<String, (String, String)> {
            let action: Action = serde_json::from_str(action).expect("a stored action parses");
            match self.game.apply(Seat(seat), &action) {
                Ok(events) => Ok(events_json(&events)),
                Err(err) => Err((err.code().to_string(), err.to_string())),
            }
        }

        /// The view of `viewer` (`None`: a spectator) as JSON.
        pub fn view(&self, viewer: Option<u8>) -> String {
            let view = PlayerView::of(&self.game, viewer.map(Seat));
            let text = serde_json::to_string(&view).expect("a view serializes");
            let mut written = String::new();
            json::write_view(&mut written, &view);
            assert_eq!(written, text, "the server's view writer and serde differ");
            text
        }

        /// Phase, hand, who acts, totals and winners.
        pub fn summary(&self) -> Summary {
            let phase = serde_json::to_value(self.game.phase()).expect("a phase serializes");
            Summary {
                phase: phase.as_str().expect("a phase is a word").to_string(),
                hand: self.game.hand_number(),
                to_act: self.game.to_act().iter().map(|s| s.0).collect(),
                totals: self.game.totals().as_slice().to_vec(),
                winners: self.game.winners().iter().map(|s| s.0).collect(),
            }
        }

        /// A built-in bot's move for `seat` from its view, as stored JSON (recording only).
        pub fn bot_move(&self, seat: u8, name: &str, seed: u64) -> String {
            let mut bot = strategy(name, self.game.variant(), seed).expect("a known strategy");
            let action = bot.choose(&PlayerView::of(&self.game, Some(Seat(seat))));
            action_json(&action)
        }

        /// An action as the server stores it, checked to read back (recording only).
        pub fn stored_action(text: &str) -> String {
            let action: Action = serde_json::from_str(text).expect("an action parses");
            action_json(&action)
        }
    }

    fn action_json(action: &Action) -> String {
        let mut stored = String::new();
        json::write_action(&mut stored, action);
        let text = serde_json::to_string(action).expect("an action serializes");
        assert_eq!(stored, text, "the server's action writer and serde differ");
        text
    }

    fn events_json(events: &[Event]) -> String {
        let mut out = String::from("[");
        for (i, event) in events.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let text = serde_json::to_string(event).expect("an event serializes");
            let mut written = String::new();
            json::write_event(&mut written, event);
            assert_eq!(written, text, "the server's event writer and serde differ");
            out.push_str(&text);
        }
        out.push(']');
        out
    }
}

use engine::{Deal, Engine};

/// Where the records live.
fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/replay_corpus")
}

/// The corpus is kept small: every record together under this many bytes.
const MAX_CORPUS_BYTES: u64 = 3_000_000;

/// A match written out line by line as the engine plays it: the file of a record.
struct Recorder {
    engine: Engine,
    /// The file so far.
    out: String,
    /// Every seat's view and the spectator's (last), as JSON, now.
    views: Vec<String>,
}

impl Recorder {
    /// Starts from a record's header line (written as given).
    fn start(header: &str) -> Recorder {
        let head: Value = serde_json::from_str(header).expect("the header is JSON");
        let variant = head["variant"].as_str().expect("a variant");
        let options = head["options"].to_string();
        let deal = &head["deal"];
        let match_no = deal["match_no"].as_u64().expect("a match number") as u32;
        let deal = match deal["secret"].as_str() {
            Some(secret) => Deal::Secret { match_no, secret },
            None => Deal::Seed {
                match_no,
                seed: deal["seed"].as_u64().expect("a seed or a secret"),
            },
        };
        let engine = Engine::start(variant, &options, &deal);
        let mut out = format!("{header}\n");
        writeln!(out, r#"{{"opening":{}}}"#, engine.opening()).unwrap();
        let mut recorder = Recorder {
            engine,
            out,
            views: Vec::new(),
        };
        recorder.refresh_views();
        recorder
    }

    fn refresh_views(&mut self) {
        let n = self.engine.players();
        let mut viewers: Vec<Option<u8>> = (0..n).map(Some).collect();
        viewers.push(None);
        self.views = viewers.into_iter().map(|v| self.engine.view(v)).collect();
    }

    /// The digest of every view now.
    fn views_digest(&self) -> String {
        let mut hash = Sha256::new();
        for view in &self.views {
            hash.update(view.as_bytes());
            hash.update(b"\n");
        }
        hex::encode(&hash.finalize()[..8])
    }

    /// Applies one action of the log and writes its line; true when it was accepted.
    fn step(&mut self, seat: u8, action: &str) -> bool {
        let outcome = self.engine.apply(seat, action);
        self.refresh_views();
        let digest = self.views_digest();
        let accepted = outcome.is_ok();
        let outcome = match outcome {
            Ok(events) => format!(r#""events":{events}"#),
            Err((code, message)) => {
                let message = serde_json::to_string(&message).unwrap();
                format!(r#""error":{{"code":"{code}","message":{message}}}"#)
            }
        };
        writeln!(
            self.out,
            r#"{{"seat":{seat},"action":{action},{outcome},"views":"{digest}"}}"#
        )
        .unwrap();
        accepted
    }

    /// Writes the summary and the final views; returns the whole file.
    fn finish(mut self) -> String {
        let s = self.engine.summary();
        let list = |v: &[u8]| serde_json::to_string(v).unwrap();
        writeln!(
            self.out,
            r#"{{"end":{{"phase":"{}","hand":{},"to_act":{},"totals":{},"winners":{}}}}}"#,
            s.phase,
            s.hand,
            list(&s.to_act),
            serde_json::to_string(&s.totals).unwrap(),
            list(&s.winners),
        )
        .unwrap();
        let n = self.views.len() - 1;
        for (i, view) in self.views.iter().enumerate() {
            let viewer = if i < n { i.to_string() } else { "null".into() };
            writeln!(self.out, r#"{{"viewer":{viewer},"view":{view}}}"#).unwrap();
        }
        self.out
    }
}

/// The seat and the action (its text as stored) of a log line `{"seat":S,"action":{…},…}`.
fn log_entry(line: &str) -> Option<(u8, &str)> {
    let rest = line.strip_prefix(r#"{"seat":"#)?;
    let (seat, rest) = rest.split_once(r#","action":"#)?;
    let seat = seat.parse().ok()?;
    // The action object ends at its matching brace: no string in an action holds a brace.
    let mut depth = 0u32;
    for (i, b) in rest.bytes().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some((seat, &rest[..=i]));
                }
            }
            _ => {}
        }
    }
    None
}

/// Every record file, by name.
fn record_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("the corpus directory")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    files
}

/// Replays a record from its inputs and renders its file again.
fn replay(stored: &str) -> String {
    let mut lines = stored.lines();
    let header = lines.next().expect("a header line");
    let mut recorder = Recorder::start(header);
    for line in lines {
        if line.starts_with(r#"{"seat":"#) {
            let (seat, action) = log_entry(line).unwrap_or_else(|| panic!("a log line: {line}"));
            recorder.step(seat, action);
        }
    }
    recorder.finish()
}

/// Where two texts first differ, line by line, for the failure message.
fn first_difference(expected: &str, got: &str) -> String {
    let cut = |s: &str| -> String { s.chars().take(400).collect() };
    let mut exp = expected.lines();
    let mut now = got.lines();
    for n in 1.. {
        match (exp.next(), now.next()) {
            (None, None) => break,
            (a, b) if a == b => {}
            (a, b) => {
                return format!(
                    "line {n} differs:\n recorded: {}\n replayed: {}",
                    cut(a.unwrap_or("(none)")),
                    cut(b.unwrap_or("(none)"))
                );
            }
        }
    }
    "the texts differ only in their line ends".into()
}

#[test]
fn every_record_replays_byte_for_byte() {
    let files = record_files();
    assert!(files.len() >= 15, "the corpus is missing: {}", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let stored = std::fs::read_to_string(path).expect("a record");
        let replayed = replay(&stored);
        if replayed != stored {
            let name = path.file_name().unwrap().to_string_lossy();
            failures.push(format!("{name}: {}", first_difference(&stored, &replayed)));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} records no longer replay as recorded:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// The facts a record shows, read from its file alone.
#[derive(Default, Debug)]
struct Shows {
    variant: String,
    options: Value,
    secret_deal: bool,
    match_no: u64,
    finished: bool,
    mid_pass: bool,
    mid_trick: bool,
    refused: Vec<String>,
    event_kinds: Vec<String>,
    moons: usize,
    pool_carried: bool,
    hands: u64,
}

fn shows(text: &str) -> Shows {
    let mut shows = Shows::default();
    for (i, line) in text.lines().enumerate() {
        let value: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        if i == 0 {
            shows.variant = value["variant"].as_str().unwrap().to_string();
            shows.options = value["options"].clone();
            shows.secret_deal = value["deal"]["secret"].is_string();
            shows.match_no = value["deal"]["match_no"].as_u64().unwrap();
            continue;
        }
        let events = value
            .get("events")
            .or_else(|| value.get("opening"))
            .and_then(Value::as_array);
        for event in events.into_iter().flatten() {
            let kind = event["kind"].as_str().unwrap().to_string();
            if kind == "hand_scored" {
                shows.moons += usize::from(!event["moon"].is_null());
                shows.pool_carried |= event["pool_carried"].as_i64().unwrap_or(0) > 0;
                shows.hands += 1;
            }
            if !shows.event_kinds.contains(&kind) {
                shows.event_kinds.push(kind);
            }
        }
        if let Some(error) = value.get("error") {
            shows
                .refused
                .push(error["code"].as_str().unwrap().to_string());
        }
        if let Some(end) = value.get("end") {
            shows.finished = end["phase"] == "match_over";
        }
        if value["viewer"].is_null() && value.get("view").is_some() {
            let view = &value["view"];
            shows.mid_pass = view["phase"] == "passing"
                && view["pass"]["waiting"].as_array().unwrap().len() < 4
                && !view["pass"]["waiting"].as_array().unwrap().is_empty();
            shows.mid_trick = view["phase"] == "playing"
                && !view["trick"]["plays"].as_array().unwrap().is_empty();
        }
    }
    shows
}

#[test]
fn the_corpus_covers_what_it_should() {
    let files = record_files();
    let mut size = 0;
    let mut all = Vec::new();
    for path in &files {
        size += std::fs::metadata(path).unwrap().len();
        all.push(shows(&std::fs::read_to_string(path).unwrap()));
    }
    assert!(
        size < MAX_CORPUS_BYTES,
        "the corpus has grown to {size} bytes"
    );
    let any = |f: &dyn Fn(&Shows) -> bool| all.iter().any(f);
    for variant in ["hearts", "filippa", "hearts5", "tricks", "whist"] {
        let of = |f: &dyn Fn(&Shows) -> bool| any(&|s| s.variant == variant && f(s));
        assert!(of(&|s| s.finished), "{variant}: a finished match");
        assert!(of(&|s| !s.finished && s.mid_trick), "{variant}: mid-hand");
        assert!(of(&|s| s.secret_deal), "{variant}: a fair deal");
        assert!(of(&|s| !s.secret_deal), "{variant}: a seeded deal");
        assert!(of(&|s| s.match_no > 1), "{variant}: a later match");
        assert!(of(&|s| s.hands >= 2), "{variant}: several hands");
        assert!(of(&|s| !s.refused.is_empty()), "{variant}: refused moves");
    }
    let option = |variant: &str, name: &str, value: Value| {
        any(&|s| s.variant == variant && s.options[name] == value)
    };
    assert!(option("hearts", "passing", false.into()));
    assert!(option("hearts", "moon", "subtract".into()));
    assert!(option("hearts", "moon", "add".into()));
    assert!(any(&|s| s.variant == "hearts" && s.options["target"] != 100));
    assert!(any(
        &|s| s.variant == "filippa" && s.options["target"] != 100
    ));
    assert!(any(&|s| s.variant == "hearts5" && s.options["hands"] != 5));
    assert!(any(&|s| s.variant == "whist" && s.options["target"] != 5));
    assert!(any(
        &|s| s.variant == "tricks" && s.options["target"] != 1000
    ));
    for moon in ["add", "subtract"] {
        assert!(
            any(&|s| s.options["moon"] == moon && s.moons > 0),
            "a moon shot with moon: {moon}"
        );
    }
    assert!(any(&|s| s.variant == "hearts" && s.mid_pass), "mid-pass");
    assert!(
        any(&|s| s.options["bad_card"] == "penalty" && s.event_kinds.contains(&"bad_card".into())),
        "a bad card paid for"
    );
    assert!(
        any(&|s| s.options["bad_card"] == "reject"
            && s.refused.contains(&"must_follow_suit".into())),
        "a bad card refused"
    );
    assert!(
        any(&|s| s.variant == "filippa" && s.pool_carried),
        "a pool carried"
    );
    for code in [
        "must_lead_two_of_clubs",
        "hearts_not_broken",
        "no_points_on_first_trick",
        "must_trump",
        "not_your_turn",
        "passing_now",
        "not_passing_now",
        "match_over",
        "card_not_held",
        "must_follow_suit",
        "wrong_pass_count",
        "duplicate_in_pass",
        "already_passed",
    ] {
        assert!(
            any(&|s| s.refused.iter().any(|c| c == code)),
            "a move refused with {code}"
        );
    }
    for kind in [
        "hand_started",
        "dealt",
        "trump_shown",
        "pass_chosen",
        "cards_passed",
        "played",
        "trick_won",
        "bad_card",
        "hand_scored",
        "match_over",
    ] {
        assert!(
            any(&|s| s.event_kinds.iter().any(|k| k == kind)),
            "an event {kind}"
        );
    }
}

// ---- The generator --------------------------------------------------------------------------

/// How the moves of a record are chosen.
#[derive(Clone, Copy)]
enum Style {
    /// Uniformly among the legal moves.
    Random,
    /// Seat 0 plays its highest legal card and passes its lowest; the others play their lowest
    /// and pass their highest: seat 0 takes many tricks (moon shots).
    Shooter,
    /// A built-in strategy for every seat.
    Bot(&'static str),
}

/// Where a record stops.
#[derive(Clone, Copy)]
enum Stop {
    /// When the match is over (after one more move, which is refused).
    End,
    /// In hand `hand` (of the match, from 0), once `tricks` tricks are done and `plays` cards
    /// of the next are down.
    Mid {
        hand: u64,
        tricks: usize,
        plays: usize,
    },
    /// In hand `hand`'s passing, once only `waiting` seats are left to choose.
    MidPass { hand: u64, waiting: usize },
    /// After this many steps (a long match's first hands).
    Steps(usize),
}

/// How a record is dealt.
#[derive(Clone, Copy)]
enum DealPlan {
    /// The seeded shuffle from this seed (plus the attempt number).
    Seed { match_no: u32, seed: u64 },
    /// A master secret made from the record's name (and the attempt number).
    Secret { match_no: u32 },
}

/// One record to make.
struct Plan {
    name: &'static str,
    variant: &'static str,
    options: &'static str,
    deal: DealPlan,
    style: Style,
    stop: Stop,
    /// Moves tried that the rules refuse (at most this many).
    refused: u32,
    /// `tricks` with a penalty: bad cards played and paid for (at most this many).
    bad_cards: u32,
    /// Try deals (and moves) until the record shows what this says.
    want: Option<fn(&str) -> bool>,
}

/// The records, each on one line: name, variant, options, deal, moves, stop.
#[rustfmt::skip]
fn plans() -> Vec<Plan> {
    use DealPlan::{Secret, Seed};
    use Stop::{End, Mid, MidPass, Steps};
    use Style::{Bot, Random, Shooter};
    let plan = |name, variant, options, deal, style, stop| Plan {
        name, variant, options, deal, style, stop, refused: 12, bad_cards: 0, want: None,
    };
    let secret = |match_no| Secret { match_no };
    let seed = |match_no, seed| Seed { match_no, seed };
    let mid = |hand, tricks, plays| Mid { hand, tricks, plays };
    vec![
        plan("hearts-default-heuristic", "hearts", "{}", secret(1), Bot("heuristic"), End),
        Plan {
            want: Some(|text| text.contains("no_points_on_first_trick")),
            ..plan("hearts-default-random", "hearts", "{}", seed(1, 11), Random, End)
        },
        plan("hearts-no-passing", "hearts", r#"{"passing":false,"target":40}"#, seed(2, 12), Random, End),
        Plan {
            want: Some(has_moon),
            ..plan("hearts-moon-add", "hearts", r#"{"target":50}"#, seed(1, 100), Shooter, End)
        },
        Plan {
            want: Some(has_moon),
            ..plan("hearts-moon-subtract", "hearts", r#"{"moon":"subtract","target":60}"#, secret(3), Shooter, End)
        },
        Plan {
            want: Some(|text| {
                ["wrong_pass_count", "duplicate_in_pass", "already_passed", "passing_now"]
                    .iter()
                    .all(|code| text.contains(&format!(r#""code":"{code}""#)))
            }),
            ..plan("hearts-mid-pass", "hearts", "{}", secret(2), Random, MidPass { hand: 1, waiting: 2 })
        },
        plan("hearts-mid-hand", "hearts", r#"{"target":60}"#, seed(4, 13), Random, mid(2, 6, 2)),
        plan("filippa-default", "filippa", "{}", secret(1), Random, End),
        plan("filippa-target-20", "filippa", r#"{"target":20}"#, seed(1, 21), Bot("heuristic"), End),
        plan("filippa-mid-hand", "filippa", r#"{"target":40}"#, secret(3), Random, mid(1, 4, 3)),
        Plan {
            want: Some(|text| text.contains("must_trump")),
            ..plan("hearts5-default", "hearts5", "{}", secret(1), Random, End)
        },
        plan("hearts5-hands-2", "hearts5", r#"{"hands":2}"#, seed(2, 31), Bot("uva181"), End),
        plan("hearts5-hands-7-mid-hand", "hearts5", r#"{"hands":7}"#, secret(5), Random, mid(5, 3, 4)),
        Plan {
            bad_cards: 2,
            ..plan("tricks-default", "tricks", "{}", secret(1), Random, Steps(200))
        },
        Plan {
            bad_cards: 2,
            ..plan("tricks-penalty-target-12", "tricks", r#"{"target":12}"#, seed(1, 41), Random, End)
        },
        plan("tricks-reject-target-10", "tricks", r#"{"bad_card":"reject","target":10}"#, secret(2), Random, End),
        plan("tricks-reject-mid-hand", "tricks", r#"{"bad_card":"reject","target":30}"#, seed(3, 42), Random, mid(1, 7, 1)),
        plan("whist-default", "whist", "{}", secret(1), Bot("heuristic"), End),
        plan("whist-target-1", "whist", r#"{"target":1}"#, seed(1, 51), Random, End),
        plan("whist-target-3-mid-hand", "whist", r#"{"target":3}"#, secret(2), Random, mid(1, 9, 3)),
    ]
}

/// splitmix64: the generator's own random source, so a recording does not depend on the
/// bots' generators.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &'a [String]) -> &'a str {
        &items[self.below(items.len())]
    }
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|v| v.as_str().expect("a card").to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn seats(value: &Value) -> Vec<u8> {
    value
        .as_array()
        .expect("a list of seats")
        .iter()
        .map(|v| v.as_u64().expect("a seat") as u8)
        .collect()
}

/// A card's rank for ordering: 2 is lowest, the ace highest, suits breaking ties.
fn strength(card: &str) -> (usize, usize) {
    let mut chars = card.chars();
    let rank = chars.next().unwrap();
    let suit = chars.next().unwrap();
    (
        "23456789TJQKA".find(rank).expect("a rank"),
        "CDHS".find(suit).expect("a suit"),
    )
}

fn play(card: &str) -> String {
    format!(r#"{{"type":"play","card":"{card}"}}"#)
}

fn pass(cards: &[&str]) -> String {
    let cards: Vec<String> = cards.iter().map(|c| format!("\"{c}\"")).collect();
    format!(r#"{{"type":"pass","cards":[{}]}}"#, cards.join(","))
}

/// The legal move `style` makes for `seat`.
fn choose(style: Style, recorder: &Recorder, seat: u8, view: &Value, rng: &mut Rng) -> String {
    let legal = &view["legal"];
    let passing = legal["type"] == "pass";
    match style {
        Style::Bot(name) => recorder.engine.bot_move(seat, name, rng.next()),
        Style::Random if passing => {
            let mut from = strings(&legal["from"]);
            let mut chosen = Vec::new();
            for _ in 0..legal["count"].as_u64().unwrap() {
                chosen.push(from.remove(rng.below(from.len())));
            }
            pass(&chosen.iter().map(String::as_str).collect::<Vec<_>>())
        }
        Style::Random => play(rng.pick(&strings(&legal["cards"]))),
        Style::Shooter => {
            let high_first = (seat == 0) != passing;
            let mut cards = strings(if passing {
                &legal["from"]
            } else {
                &legal["cards"]
            });
            cards.sort_by_key(|c| strength(c));
            if high_first {
                cards.reverse();
            }
            if passing {
                let n = legal["count"].as_u64().unwrap() as usize;
                pass(&cards[..n].iter().map(String::as_str).collect::<Vec<_>>())
            } else {
                play(&cards[0])
            }
        }
    }
}

/// A move of `kind` (0 to 3) the rules refuse (or, in `tricks` with a penalty, a bad card:
/// only when `bad_card_allowed`), when one of that kind can be made now.
fn refused_move(
    recorder: &Recorder,
    to_act: &[u8],
    seat: u8,
    rng: &mut Rng,
    kind: usize,
    bad_card_allowed: bool,
) -> Option<(u8, String)> {
    let view: Value = serde_json::from_str(&recorder.views[seat as usize]).unwrap();
    let hand = strings(&view["hand"]);
    let passing = view["phase"] == "passing";
    let players = recorder.engine.players();
    let others: Vec<u8> = (0..players).filter(|s| !to_act.contains(s)).collect();
    let not_held = |rng: &mut Rng| -> String {
        let all: Vec<String> = ["C", "D", "H", "S"]
            .iter()
            .flat_map(|s| "23456789TJQKA".chars().map(move |r| format!("{r}{s}")))
            .filter(|c| !hand.contains(c))
            .collect();
        rng.pick(&all).to_string()
    };
    match kind {
        // Someone whose turn it is not.
        0 if !others.is_empty() => {
            let other = others[rng.below(others.len())];
            let view: Value = serde_json::from_str(&recorder.views[other as usize]).unwrap();
            let held = strings(&view["hand"]);
            if passing {
                // Seats that have passed already pass again.
                (held.len() >= 3).then(|| (other, pass(&[&held[0], &held[1], &held[2]])))
            } else {
                (!held.is_empty()).then(|| (other, play(rng.pick(&held))))
            }
        }
        // A card not held.
        1 if !passing && bad_card_allowed => Some((seat, play(&not_held(rng)))),
        1 if passing => Some((seat, pass(&[&hand[0], &hand[1], &not_held(rng)]))),
        // The wrong kind of move.
        2 if passing => Some((seat, play(rng.pick(&hand)))),
        2 => Some((seat, pass(&[&hand[0]]))),
        // A held card the rules do not allow; a malformed pass.
        3 if passing && rng.below(2) == 0 => Some((seat, pass(&[&hand[0], &hand[1]]))),
        3 if passing => Some((seat, pass(&[&hand[0], &hand[1], &hand[0]]))),
        3 if bad_card_allowed => {
            let legal = strings(&view["legal"]["cards"]);
            let bad: Vec<String> = hand.into_iter().filter(|c| !legal.contains(c)).collect();
            (!bad.is_empty()).then(|| (seat, play(rng.pick(&bad))))
        }
        _ => None,
    }
}

/// Plays one attempt at a plan; the file, or `None` when it does not show what the plan wants.
fn record_attempt(plan: &Plan, attempt: u64) -> Option<String> {
    let deal = match plan.deal {
        DealPlan::Seed { match_no, seed } => {
            format!(r#"{{"match_no":{match_no},"seed":{}}}"#, seed + attempt)
        }
        DealPlan::Secret { match_no } => {
            let secret = Sha256::digest(format!("parlor replay corpus {} {attempt}", plan.name));
            format!(
                r#"{{"match_no":{match_no},"secret":"{}"}}"#,
                hex::encode(secret)
            )
        }
    };
    let played_by = match plan.style {
        Style::Random => "random legal moves".to_string(),
        Style::Shooter => "seat 0 its highest card, the others their lowest".to_string(),
        Style::Bot(name) => format!("the built-in `{name}` bot"),
    };
    let header = format!(
        r#"{{"corpus":1,"name":"{}","variant":"{}","options":{},"deal":{deal},"played_by":"{played_by}"}}"#,
        plan.name,
        plan.variant,
        engine::stored_options(plan.variant, plan.options),
    );
    let mut recorder = Recorder::start(&header);
    let name_hash = Sha256::digest(plan.name);
    let mut rng = Rng(u64::from_le_bytes(name_hash[..8].try_into().unwrap()) ^ attempt);
    let mut refused_left = plan.refused;
    let mut bad_left = plan.bad_cards;
    let penalty = plan.variant == "tricks" && !plan.options.contains("reject");
    for steps in 0.. {
        assert!(steps < 20_000, "{}: the match does not end", plan.name);
        let spectator: Value = serde_json::from_str(recorder.views.last().unwrap()).unwrap();
        let hand = spectator["hand_number"].as_u64().unwrap();
        let tricks = spectator["tricks"].as_array().unwrap().len();
        let plays = spectator["trick"]["plays"].as_array().unwrap().len();
        let phase = spectator["phase"].as_str().unwrap();
        let reached = match plan.stop {
            Stop::End => false,
            Stop::Steps(n) => steps == n,
            Stop::Mid {
                hand: h,
                tricks: t,
                plays: p,
            } => phase == "playing" && hand == h && tricks == t && plays == p,
            Stop::MidPass { hand: h, waiting } => {
                phase == "passing"
                    && hand == h
                    && spectator["pass"]["waiting"].as_array().unwrap().len() == waiting
            }
        };
        if reached {
            break;
        }
        let to_act = seats(&spectator["to_act"]);
        if to_act.is_empty() {
            assert!(
                matches!(plan.stop, Stop::End),
                "{}: the match ended before the record's stop",
                plan.name
            );
            // One more card, refused: the match is over.
            let view: Value = serde_json::from_str(&recorder.views[0]).unwrap();
            let card = strings(&view["hand"])
                .first()
                .cloned()
                .unwrap_or("2C".into());
            assert!(!recorder.step(0, &play(&card)));
            break;
        }
        let seat = to_act[rng.below(to_act.len())];
        let view: Value = serde_json::from_str(&recorder.views[seat as usize]).unwrap();
        // Refusals are tried now and then, and most often while passing, at a lead, in a
        // hand's first trick or by a seat that cannot follow suit: where the variants' own
        // rules refuse cards.
        let led = spectator["trick"]["plays"][0]["card"].as_str().map(suit);
        let void = led.is_some_and(|led| {
            strings(&view["legal"]["cards"])
                .iter()
                .all(|c| suit(c) != led)
        });
        let playing = phase == "playing";
        let moment = phase == "passing" || (playing && (tricks == 0 || plays == 0 || void));
        if refused_left > 0 && rng.below(if moment { 4 } else { 12 }) == 0 {
            let kind = if moment && playing && rng.below(2) == 0 {
                3
            } else {
                rng.below(4)
            };
            let bad_card_allowed = !penalty || bad_left > 0;
            if let Some((who, action)) =
                refused_move(&recorder, &to_act, seat, &mut rng, kind, bad_card_allowed)
            {
                let action = Engine::stored_action(&action);
                let accepted = recorder.step(who, &action);
                if accepted {
                    assert!(penalty, "{}: {action} was accepted", plan.name);
                    bad_left = bad_left.saturating_sub(1);
                } else {
                    refused_left -= 1;
                }
                continue;
            }
        }
        let action = Engine::stored_action(&choose(plan.style, &recorder, seat, &view, &mut rng));
        assert!(
            recorder.step(seat, &action),
            "{}: {action} refused",
            plan.name
        );
    }
    let text = recorder.finish();
    plan.want.is_none_or(|want| want(&text)).then_some(text)
}

/// True when a record shows a moon shot.
fn has_moon(text: &str) -> bool {
    text.lines().any(|line| {
        line.contains(r#""kind":"hand_scored""#)
            && !line.contains(r#""moon":null"#)
            && line.contains(r#""moon":"#)
    })
}

/// A card's suit letter.
fn suit(card: &str) -> char {
    card.chars().nth(1).expect("a suit")
}

/// Writes every record of [`plans`] (see the module's documentation).
#[test]
#[ignore = "writes the corpus: run on purpose only"]
fn record() {
    let dir = corpus_dir();
    std::fs::create_dir_all(&dir).unwrap();
    for old in record_files() {
        std::fs::remove_file(old).unwrap();
    }
    for plan in plans() {
        let text = (0..500)
            .find_map(|attempt| record_attempt(&plan, attempt))
            .unwrap_or_else(|| panic!("{}: no deal of 500 showed what it wants", plan.name));
        assert_eq!(replay(&text), text, "{} does not replay", plan.name);
        std::fs::write(dir.join(format!("{}.jsonl", plan.name)), text).unwrap();
    }
}
