//! Stored games: a SQLite database written by the `parlor` server of the day before the
//! engine's rewrite, kept in `tests/tests/data/stored_games/`, must open in the server built
//! now, and its tables must come back and go on.
//!
//! The database holds a table of every variant: finished matches (people alone, and people
//! with built-in bots), matches stopped in the middle of a hand (one in the middle of hearts'
//! passing, one in a table's second match), table talk, and a table still waiting for
//! players. Next to it:
//!
//! - `manifest.json`: every table's id, what it holds, the parts of `GET /api/tables/{id}` that
//!   must come back (as recorded, fields added since are allowed), each person's seat, name
//!   and seat token, and the seat whose turn it is;
//! - `expected.jsonl`: what the server said, byte for byte, one line each and in order:
//!   `{"get":PATH,"body":…}` for `GET /api/tables/{id}/hands` and every finished hand
//!   `GET /api/tables/{id}/hands/{n}`; `{"table":ID,"seat":S,"view":…}` for the view a person
//!   gets back on rejoining with their token; `{"table":ID,"seat":S,"chat":…}` for each line of
//!   table talk sent to them after it.
//!
//! A second set in `tests/tests/data/stored_games_killed/`, the same tables written by the
//! build of the day before the SQLite action log became one row per action, holds its
//! actions in that build's two log tiers: the first half of the tables in runs (the server was
//! stopped cleanly, then started again), the second half in the ring of batches (it was then
//! killed). [`a_database_of_a_killed_server_opens_and_its_tables_go_on`] checks it the same
//! way: the migration must bring back every action of both.
//!
//! [`a_database_of_today_opens_and_its_tables_go_on`] copies the database into a fresh data
//! directory, starts the server built now on it and checks all of that; then, at every table
//! stopped in the middle of a hand, the person to act plays a legal card (or pass), which must
//! be accepted.
//!
//! Regenerate (only on purpose: the files are what a server of the day wrote, and a later server
//! must read them, not rewrite them), with the server binary of the commit to record from:
//!
//! 1. build it from a clean export of that commit, away from the checkout:
//!    `git archive HEAD | tar -x -C /tmp/parlor-rec && (cd /tmp/parlor-rec && cargo build -p
//!    parlor-server --bin parlor)`;
//! 2. `PARLOR_BIN=/tmp/parlor-rec/target/debug/parlor PARLOR_COMMIT=$(git rev-parse HEAD)
//!    cargo test -p parlor-tests --test stored_games -- --ignored --exact record` (or
//!    `record_killed` for the second set; in the checkout, or
//!    in the export, when the checkout does not build, and then copy its
//!    `tests/tests/data/stored_games/` back: the files are written beside the test that runs).
//!
//! The generator starts that server on an empty data directory, plays the tables, records the
//! replies, stops the server with SIGTERM, writes a compacted copy of its database
//! (`VACUUM INTO`), and finally runs the check above against the files it wrote, on a copy.

mod support;

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use parlor_shared::protocol::{ClientMsg, Occupant, ServerMsg};
use parlor_shared::{Event, Legal, Seat};
use parlor_tests::{WsClient, http, http_raw, next_any};
use serde_json::{Value, json};
use support::{ServerProcess, TempDir, move_for, parlor_bin, play_to_end};

/// Where the stored games of the day before the engine's rewrite live.
fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/stored_games")
}

/// Where the stored games of a server killed in the middle of play live: written by the
/// build of the day before the action log became one row per action, so its tables'
/// actions sit in that build's log tiers (half folded into runs by a clean stop, half still
/// in the ring of batches when it was killed). See [`record_killed`].
fn killed_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/stored_games_killed")
}

/// The database is kept small.
const MAX_DB_BYTES: u64 = 1_000_000;

/// `GET` of `path`: the status and the body as sent.
async fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let (status, _, body) = http_raw(addr, "GET", path, None).await;
    (status, body)
}

/// The value of the part of a frame after `"key":` up to the frame's closing brace: a
/// message's last field as sent (`{"type":"state","seq":N,"view":{…}}`).
fn last_field<'a>(frame: &'a str, key: &str) -> &'a str {
    let start = frame
        .find(&format!(r#","{key}":"#))
        .unwrap_or_else(|| panic!("no {key} in {frame}"));
    frame[start + key.len() + 4..]
        .strip_suffix('}')
        .expect("a message ends with a brace")
}

/// True when `now` holds everything `recorded` does: the same scalars, arrays of the same
/// length, and every key of an object (keys added since are allowed).
fn holds(recorded: &Value, now: &Value) -> bool {
    match (recorded, now) {
        (Value::Object(a), Value::Object(b)) => {
            a.iter().all(|(k, v)| b.get(k).is_some_and(|w| holds(v, w)))
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(v, w)| holds(v, w))
        }
        (a, b) => a == b,
    }
}

/// What of `GET /api/tables/{id}` must come back after a restart: not who is connected or
/// watching now.
fn lasting(info: &Value) -> Value {
    let seats: Vec<Value> = info["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .map(|s| {
            let mut seat = serde_json::Map::new();
            for key in ["seat", "occupant", "name", "strategy"] {
                if let Some(value) = s.get(key) {
                    seat.insert(key.into(), value.clone());
                }
            }
            Value::Object(seat)
        })
        .collect();
    json!({
        "id": info["id"], "variant": info["variant"], "options": info["options"],
        "status": info["status"], "host": info["host"], "matches_played": info["matches_played"],
        "practice": info["practice"], "table_options": info["table_options"], "seats": seats,
    })
}

/// Joins `table` again with a seat token; returns the client, its seat, the view it got (as
/// sent) and the next `chat_lines` chat frames (as sent).
async fn rejoin(
    addr: SocketAddr,
    table: &str,
    token: &str,
    chat_lines: usize,
) -> (WsClient, Option<Seat>, String, Vec<String>) {
    let mut client = WsClient::connect(addr).await;
    client.send_rejoin(table, token).await;
    let seat = match client
        .recv_until(|m| matches!(m, ServerMsg::Welcome { .. } | ServerMsg::Error { .. }))
        .await
    {
        ServerMsg::Welcome { seat, .. } => seat,
        other => panic!("rejoining {table} with a token: {other:?}"),
    };
    client
        .recv_until(|m| matches!(m, ServerMsg::State { .. }))
        .await;
    let view = last_field(client.frames.last().expect("a frame"), "view").to_string();
    let mut chat = Vec::new();
    for _ in 0..chat_lines {
        client
            .recv_until(|m| matches!(m, ServerMsg::Chat { .. }))
            .await;
        chat.push(client.frames.last().expect("a frame").clone());
    }
    (client, seat, view, chat)
}

/// The lines of `expected.jsonl` for one person of a table.
fn person_lines(out: &mut String, table: &str, seat: u8, view: &str, chat: &[String]) {
    writeln!(out, r#"{{"table":"{table}","seat":{seat},"view":{view}}}"#).unwrap();
    for line in chat {
        writeln!(out, r#"{{"table":"{table}","seat":{seat},"chat":{line}}}"#).unwrap();
    }
}

/// The lines of `expected.jsonl` for a table's finished hands, as the server at `addr` says.
async fn hands_lines(out: &mut String, addr: SocketAddr, table: &str) {
    let path = format!("/api/tables/{table}/hands");
    let (status, list) = get(addr, &path).await;
    assert_eq!(status, 200, "{path}: {list}");
    writeln!(out, r#"{{"get":"{path}","body":{list}}}"#).unwrap();
    let list: Value = serde_json::from_str(&list).expect("a list of hands");
    for entry in list.as_array().expect("a list") {
        let path = entry["url"].as_str().expect("a url");
        let (status, hand) = get(addr, path).await;
        assert_eq!(status, 200, "{path}: {hand}");
        writeln!(out, r#"{{"get":"{path}","body":{hand}}}"#).unwrap();
    }
}

/// Where two texts first differ, line by line, from a little before the first byte that
/// differs.
fn first_difference(expected: &str, got: &str) -> String {
    let mut exp = expected.lines();
    let mut now = got.lines();
    for n in 1.. {
        match (exp.next(), now.next()) {
            (None, None) => break,
            (a, b) if a == b => {}
            (a, b) => {
                let (a, b) = (a.unwrap_or("(none)"), b.unwrap_or("(none)"));
                let same = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
                let from = same.saturating_sub(150);
                let cut = |s: &str| -> String { s.chars().skip(from).take(300).collect() };
                return format!(
                    "line {n} differs from its byte {same}:\n recorded: …{}\n now:      …{}",
                    cut(a),
                    cut(b)
                );
            }
        }
    }
    "the texts differ only in their line ends".into()
}

/// A move from a prompt: the lowest legal card, or the first cards of a pass.
fn first_legal(legal: &Legal) -> ClientMsg {
    match legal {
        Legal::Play { cards } => ClientMsg::Play {
            card: cards.lowest().expect("a legal card"),
            seat: None,
            seq: None,
        },
        Legal::Pass { count, from, .. } => ClientMsg::Pass {
            cards: from.iter().take(*count as usize).collect(),
            seat: None,
            seq: None,
        },
        Legal::Bid { .. }
        | Legal::Blind
        | Legal::Exchange { .. }
        | Legal::Call { .. }
        | Legal::Discard { .. }
        | Legal::AnswerClaim { .. }
        | Legal::Wait => panic!("no stored game bids or waits here"),
    }
}

/// Starts the server built now (or `PARLOR_BIN`) on a copy of the stored database in `dir`
/// and checks every table (see the module's documentation).
async fn check(dir: &Path) {
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap())
            .expect("the manifest");
    let expected = std::fs::read_to_string(dir.join("expected.jsonl")).unwrap();
    let data = TempDir::new("stored-games");
    std::fs::copy(dir.join("parlor.db"), data.path().join("parlor.db")).unwrap();
    let server = ServerProcess::start(data.path());
    let addr = server.addr;
    let tables = manifest["tables"].as_array().expect("tables");
    let mut now = String::new();
    let mut to_play = Vec::new();
    for table in tables {
        let id = table["id"].as_str().unwrap();
        let (status, info) = http(addr, "GET", &format!("/api/tables/{id}"), None).await;
        assert_eq!(status, 200, "table {id} is back: {info}\n{}", server.log());
        assert!(
            holds(&table["info"], &info),
            "table {id} came back otherwise:\nrecorded {}\nnow      {info}",
            table["info"]
        );
        hands_lines(&mut now, addr, id).await;
        let chat_lines = table["chat_lines"].as_u64().unwrap() as usize;
        let started = table["info"]["status"] != "waiting";
        for person in table["people"].as_array().unwrap() {
            let seat = person["seat"].as_u64().unwrap() as u8;
            let token = person["token"].as_str().unwrap();
            if !started {
                continue;
            }
            let (client, back, view, chat) = rejoin(addr, id, token, chat_lines).await;
            assert_eq!(back, Some(Seat(seat)), "table {id}: the same seat");
            person_lines(&mut now, id, seat, &view, &chat);
            if table["to_act"] == seat {
                to_play.push((id.to_string(), seat, client));
            }
        }
    }
    assert!(
        now == expected,
        "the stored games no longer come back as recorded: {}",
        first_difference(&expected, &now)
    );
    // Each table stopped in the middle of a hand goes on: the seat to act plays.
    let stopped = tables.iter().filter(|t| !t["to_act"].is_null()).count();
    assert!(
        stopped > 0 && to_play.len() == stopped,
        "tables stopped mid-hand"
    );
    for (id, seat, mut client) in to_play {
        let legal = match client
            .recv_until(|m| matches!(m, ServerMsg::YourTurn { .. }))
            .await
        {
            ServerMsg::YourTurn { legal, .. } => legal,
            _ => unreachable!(),
        };
        client.send(&first_legal(&legal)).await;
        let mine = |event: &Event| match event {
            Event::Played { seat: s, .. } | Event::PassChosen { seat: s } => s.0 == seat,
            _ => false,
        };
        let answer = client
            .recv_until(|m| {
                matches!(m, ServerMsg::Error { .. })
                    || matches!(m, ServerMsg::Event { event, .. } if mine(event))
            })
            .await;
        assert!(
            matches!(answer, ServerMsg::Event { .. }),
            "table {id}: seat {seat}'s move was refused: {answer:?}"
        );
        client.close().await;
    }
    server.stop();
}

#[tokio::test]
async fn a_database_of_today_opens_and_its_tables_go_on() {
    let size = std::fs::metadata(data_dir().join("parlor.db"))
        .unwrap()
        .len();
    assert!(size < MAX_DB_BYTES, "the stored database is {size} bytes");
    check(&data_dir()).await;
}

/// How many actions of the killed server's database sit in each of its log's tiers:
/// `(folded into runs, in the ring of batches)`, read from the fixture itself.
fn killed_tiers() -> (i64, i64) {
    let conn = rusqlite::Connection::open_with_flags(
        killed_dir().join("parlor.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("the stored database");
    let runs: i64 = conn
        .query_row(
            "SELECT coalesce(sum(last_idx - first_idx + 1), 0) FROM action_runs",
            [],
            |row| row.get(0),
        )
        .expect("the runs");
    let batched: i64 = conn
        .query_row(
            "SELECT coalesce(sum(json_array_length(entries)), 0) FROM action_batches",
            [],
            |row| row.get(0),
        )
        .expect("the batches");
    (runs, batched)
}

#[tokio::test]
async fn a_database_of_a_killed_server_opens_and_its_tables_go_on() {
    let size = std::fs::metadata(killed_dir().join("parlor.db"))
        .unwrap()
        .len();
    assert!(size < MAX_DB_BYTES, "the stored database is {size} bytes");
    let (runs, batched) = killed_tiers();
    assert!(
        runs > 0 && batched > 0,
        "the fixture holds actions in both tiers: {runs} in runs, {batched} in batches"
    );
    check(&killed_dir()).await;
}

// ---- The generator --------------------------------------------------------------------------

/// How far a recorded table is played.
#[derive(Clone, Copy)]
enum Run {
    /// Not started.
    Waiting,
    /// To the end of the match.
    ToEnd,
    /// To the end, then the host starts the next match and `moves` moves are made in it.
    ToEndThenMid(usize),
    /// `moves` moves, then on until a person is to play a card.
    Mid(usize),
    /// `moves` moves into the first passing (people alone at the table).
    MidPass(usize),
}

/// One table to record.
struct Spec {
    about: &'static str,
    variant: &'static str,
    options: Value,
    seed: Option<u64>,
    people: usize,
    bots: &'static [(u8, &'static str)],
    chat: &'static [(usize, &'static str)],
    run: Run,
}

fn specs() -> Vec<Spec> {
    let spec = |about, variant, options, seed, people, run| Spec {
        about,
        variant,
        options,
        seed,
        people,
        bots: &[],
        chat: &[],
        run,
    };
    vec![
        Spec {
            chat: &[(1, "good luck"), (3, "you too")],
            ..spec(
                "hearts to 30, four people, a practice seed: match 1 finished, match 2 stopped mid-hand",
                "hearts",
                json!({"target": 30}),
                Some(101),
                4,
                Run::ToEndThenMid(21),
            )
        },
        Spec {
            chat: &[(0, "pass me something nice"), (2, "no")],
            ..spec(
                "hearts, default options, four people: stopped in the first passing, two have passed",
                "hearts",
                json!({}),
                None,
                4,
                Run::MidPass(2),
            )
        },
        Spec {
            bots: &[(3, "heuristic")],
            chat: &[(2, "moon or bust")],
            ..spec(
                "hearts without passing, moon subtracts, to 50: three people and a heuristic bot, mid-hand",
                "hearts",
                json!({"passing": false, "moon": "subtract", "target": 50}),
                Some(202),
                3,
                Run::Mid(31),
            )
        },
        Spec {
            bots: &[(1, "random"), (2, "heuristic")],
            ..spec(
                "filippa to 5: two people and two bots, finished",
                "filippa",
                json!({"target": 5}),
                None,
                2,
                Run::ToEnd,
            )
        },
        Spec {
            chat: &[(0, "hello"), (1, "hi")],
            ..spec(
                "filippa, default options, four people: in the second hand",
                "filippa",
                json!({}),
                None,
                4,
                Run::Mid(70),
            )
        },
        Spec {
            bots: &[(2, "uva181"), (4, "heuristic")],
            ..spec(
                "hearts5 of 2 hands, a practice seed: three people and two bots, finished",
                "hearts5",
                json!({"hands": 2}),
                Some(303),
                3,
                Run::ToEnd,
            )
        },
        Spec {
            bots: &[(1, "random")],
            chat: &[(2, "trumps?")],
            ..spec(
                "hearts5 of 3 hands: four people and a random bot, mid-hand",
                "hearts5",
                json!({"hands": 3}),
                None,
                4,
                Run::Mid(40),
            )
        },
        spec(
            "tricks to 8: four people, finished",
            "tricks",
            json!({"target": 8}),
            None,
            4,
            Run::ToEnd,
        ),
        Spec {
            chat: &[(3, "no bad cards here")],
            ..spec(
                "tricks to 20 refusing bad cards, a practice seed: four people, mid-hand",
                "tricks",
                json!({"bad_card": "reject", "target": 20}),
                Some(404),
                4,
                Run::Mid(35),
            )
        },
        Spec {
            bots: &[(1, "heuristic"), (3, "random")],
            ..spec(
                "whist to 1, a practice seed: two people and two bots, finished",
                "whist",
                json!({"target": 1}),
                Some(505),
                2,
                Run::ToEnd,
            )
        },
        Spec {
            bots: &[(2, "heuristic")],
            chat: &[(0, "partner?")],
            ..spec(
                "whist to 3: three people and a heuristic bot, mid-hand",
                "whist",
                json!({"target": 3}),
                None,
                3,
                Run::Mid(20),
            )
        },
        Spec {
            chat: &[(1, "waiting for two more")],
            ..spec(
                "whist, default options: two people seated, not started",
                "whist",
                json!({}),
                None,
                2,
                Run::Waiting,
            )
        },
    ]
}

/// Answers the people's prompts (with `support::move_for`) until `moves` moves are made, then
/// until a person is prompted to play a card (or, with `passing`, to pass): the table then
/// waits for them. Returns that person's index; `movers` gets the index of everyone who moved.
async fn play_then_wait(
    clients: &mut [WsClient],
    moves: usize,
    passing: bool,
    movers: &mut Vec<usize>,
) -> usize {
    let mut sent = 0;
    let mut answered: Vec<Option<u64>> = vec![None; clients.len()];
    for _ in 0..100_000 {
        let (i, msg) = next_any(clients).await;
        if let ServerMsg::Error { code, message } = &msg {
            panic!("client {i} got an error: {code}: {message}");
        }
        if let ServerMsg::YourTurn { legal, seq, .. } = &msg {
            if answered[i] == Some(*seq) {
                continue;
            }
            if sent >= moves && (passing || matches!(legal, Legal::Play { .. })) {
                return i;
            }
            answered[i] = Some(*seq);
            let seat = clients[i].seat.expect("a seated client");
            let reply = move_for(seat, legal).expect("a move");
            clients[i].send(&reply).await;
            sent += 1;
            if !movers.contains(&i) {
                movers.push(i);
            }
        }
    }
    panic!("no person was prompted to play");
}

/// The view of a fresh snapshot, as sent. A client that stopped reading part way may still
/// have older `state` frames (a match's start) to read: two `sync`s are sent, and the view is
/// taken once two `state` frames in a row are the same (the table waits, so the answers to
/// the two are).
async fn fresh_view(client: &mut WsClient) -> String {
    client.send(&ClientMsg::Sync {}).await;
    client.send(&ClientMsg::Sync {}).await;
    let mut last = String::new();
    for _ in 0..1000 {
        client
            .recv_until_dropping_prompts(|m| matches!(m, ServerMsg::State { .. }))
            .await;
        let frame = client.frames.last().expect("a frame").clone();
        if frame == last {
            return last_field(&frame, "view").to_string();
        }
        last = frame;
    }
    panic!("no two snapshots in a row were the same");
}

/// Sets up, plays and records one table; appends its `expected.jsonl` lines to `out` and
/// returns its manifest entry.
async fn record_table(addr: SocketAddr, spec: &Spec, out: &mut String) -> Value {
    let mut body = json!({
        "variant": spec.variant,
        "options": spec.options,
        // Nobody plays for an absent person: the table waits for them after the restart.
        "table_options": {"grace_ms": 86_400_000, "turn_clock_ms": 0},
    });
    if let Some(seed) = spec.seed {
        body["seed"] = seed.into();
    }
    let (status, reply) = http(addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 201, "{reply}");
    let id = reply["id"].as_str().expect("an id").to_string();
    let mut clients = Vec::new();
    let mut host = WsClient::connect(addr).await;
    assert!(host.join(&id, "p0").await, "the first person is host");
    for &(seat, strategy) in spec.bots {
        host.send(&ClientMsg::AddBot {
            seat: Seat(seat),
            strategy: strategy.into(),
        })
        .await;
        host.recv_until(|m| {
            matches!(m, ServerMsg::Table { table, .. }
                if table.seats[seat as usize].occupant == Occupant::Bot)
        })
        .await;
    }
    clients.push(host);
    for i in 1..spec.people {
        let mut client = WsClient::connect(addr).await;
        client.join(&id, &format!("p{i}")).await;
        clients.push(client);
    }
    for &(who, text) in spec.chat {
        clients[who]
            .send(&ClientMsg::Chat { text: text.into() })
            .await;
        clients[who]
            .recv_until(|m| matches!(m, ServerMsg::Chat { text: t, .. } if t == text))
            .await;
    }
    let mut to_act = None;
    let mut movers = Vec::new();
    match spec.run {
        Run::Waiting => {}
        Run::ToEnd => {
            clients[0].send(&ClientMsg::Start {}).await;
            play_to_end(&mut clients).await;
        }
        Run::ToEndThenMid(moves) => {
            clients[0].send(&ClientMsg::Start {}).await;
            play_to_end(&mut clients).await;
            clients[0].send(&ClientMsg::Start {}).await;
            to_act = Some(play_then_wait(&mut clients, moves, false, &mut movers).await);
        }
        Run::Mid(moves) => {
            clients[0].send(&ClientMsg::Start {}).await;
            to_act = Some(play_then_wait(&mut clients, moves, false, &mut movers).await);
        }
        Run::MidPass(moves) => {
            clients[0].send(&ClientMsg::Start {}).await;
            to_act = Some(play_then_wait(&mut clients, moves, true, &mut movers).await);
        }
    }
    // Snapshots, those who moved first: a move and a `sync` on one connection are taken in
    // order, so every move is in before anyone's snapshot (or any `GET`).
    let mut order = movers.clone();
    order.extend((0..clients.len()).filter(|i| !movers.contains(i)));
    let started = !matches!(spec.run, Run::Waiting);
    let mut views = vec![String::new(); clients.len()];
    for i in order.into_iter().filter(|_| started) {
        views[i] = fresh_view(&mut clients[i]).await;
    }
    hands_lines(out, addr, &id).await;
    let mut people = Vec::new();
    for (i, client) in clients.iter().enumerate() {
        let seat = client.seat.expect("a seat").0;
        if started {
            // The table talk, as each person heard it.
            let chat: Vec<String> = client
                .frames
                .iter()
                .filter(|f| f.starts_with(r#"{"type":"chat""#))
                .cloned()
                .collect();
            assert_eq!(chat.len(), spec.chat.len());
            person_lines(out, &id, seat, &views[i], &chat);
        }
        people.push(json!({"seat": seat, "name": format!("p{i}"),
                           "token": client.token.clone().expect("a token")}));
    }
    let (status, info) = http(addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(status, 200, "{info}");
    json!({
        "id": id,
        "about": spec.about,
        "info": lasting(&info),
        "people": people,
        "to_act": to_act.map(|i| clients[i].seat.expect("a seat").0),
        "chat_lines": spec.chat.len(),
    })
}

/// Writes the stored games (see the module's documentation).
#[tokio::test]
#[ignore = "writes the stored games: run on purpose only, with PARLOR_BIN set"]
async fn record() {
    record_into(&data_dir(), false).await;
}

/// Writes the stored games of a killed server: the first half of the tables is played and
/// the server stopped cleanly, then it is started again on the same directory, the second
/// half is played and it is killed with SIGKILL, so both of the log's places hold actions.
/// Regenerate as [`record`], with `record_killed`.
#[tokio::test]
#[ignore = "writes the stored games: run on purpose only, with PARLOR_BIN set"]
async fn record_killed() {
    record_into(&killed_dir(), true).await;
}

/// Records the tables of [`specs`] into `dir`; `killed`: as [`record_killed`] says.
async fn record_into(dir: &Path, killed: bool) {
    let version = std::process::Command::new(parlor_bin())
        .arg("--version")
        .output()
        .expect("parlor --version");
    let version = String::from_utf8_lossy(&version.stdout).trim().to_string();
    let commit = std::env::var("PARLOR_COMMIT").unwrap_or_else(|_| "unknown".into());
    let live = TempDir::new("stored-games-record");
    let args = ["--tables-per-ip-per-minute", "0"];
    let mut server = ServerProcess::start_with(live.path(), &args);
    let mut expected = String::new();
    let mut tables = Vec::new();
    let specs = specs();
    let half = specs.len() / 2;
    for (i, spec) in specs.iter().enumerate() {
        if killed && i == half {
            server.stop();
            server = ServerProcess::start_with(live.path(), &args);
        }
        tables.push(record_table(server.addr, spec, &mut expected).await);
    }
    if killed {
        server.kill9();
    } else {
        server.stop();
    }

    std::fs::create_dir_all(dir).unwrap();
    let db = dir.join("parlor.db");
    let _ = std::fs::remove_file(&db);
    let conn = rusqlite::Connection::open(live.path().join("parlor.db")).expect("the database");
    conn.execute("VACUUM INTO ?1", [db.to_str().expect("a UTF-8 path")])
        .expect("VACUUM INTO");
    drop(conn);
    let manifest = json!({
        "format": 1,
        "recorded_with": format!("{version}, commit {commit}"),
        "tables": tables,
    });
    std::fs::write(
        dir.join("manifest.json"),
        serde_json::to_string_pretty(&manifest).unwrap() + "\n",
    )
    .unwrap();
    std::fs::write(dir.join("expected.jsonl"), expected).unwrap();
    // What was written must check out with the server that wrote it.
    check(dir).await;
}
