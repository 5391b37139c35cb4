//! The ladder with registered bots, all real processes: `parlor serve --ladder` and three
//! `parlor bot --token` processes that go online and play the built-in strategies `random`,
//! `heuristic` and a low-budget `strong` behind the remote protocol. The ladder invites them
//! into duplicate Hearts matches (a built-in fills the fourth seat), rates them by account,
//! and within a bounded number of matches their ratings come out in the order of their true
//! strengths: random below heuristic below strong.
//!
//! The server's `--ws-join-secs 1` also shows a bot's `available` connection may wait at no
//! table for as long as it likes: the bots stay online for the whole run.
//!
//! A bot that declines the ladder's invitations, or lets them lapse, is replaced at those
//! tables by a built-in, and the matches are played and rated for the others.

mod support;

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use parlor_shared::Variant;
use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_tests::{WsClient, http};
use serde_json::Value;
use support::{ServerProcess, TempDir, parlor_bin};

/// The bots: account name and the built-in strategy its process plays.
const BOTS: [(&str, &str); 3] = [
    ("Rando", "random"),
    ("Hugo", "heuristic"),
    // Enough simulations to beat `heuristic` clearly, few enough for a debug build.
    ("Stella", "strong:150"),
];

/// Matches every bot must have played before the order is checked, and the most the test
/// waits for (each duplicate round is four matches).
const MIN_MATCHES: u64 = 24;
const MAX_MATCHES: u64 = 120;
/// Matches over which the order must keep holding once reached.
const STEADY: u64 = 8;

/// Registers `name` with `parlor bots add` and returns its token.
fn register(data: &Path, name: &str) -> String {
    let out = Command::new(parlor_bin())
        .args(["bots", "add", name, "--owner", "tests", "--data"])
        .arg(data)
        .output()
        .expect("running parlor bots add");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}");
    text.lines()
        .find_map(|line| line.strip_prefix("token: "))
        .expect("a token line")
        .trim()
        .to_string()
}

/// A `parlor bot --token` process, stopped when dropped.
struct BotProcess(Child);

impl BotProcess {
    fn start(addr: SocketAddr, token: &str, strategy: &str) -> BotProcess {
        let child = Command::new(parlor_bin())
            .args([
                "bot",
                "--url",
                &format!("ws://{addr}"),
                "--strategy",
                strategy,
            ])
            .args(["--variants", "hearts", "--max-tables", "4"])
            .env("PARLOR_BOT_TOKEN", token)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting parlor bot");
        BotProcess(child)
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One leaderboard entry: name, rating, uncertainty, matches.
#[derive(Debug, Clone)]
struct Entry {
    name: String,
    kind: String,
    rating: f64,
    sd: f64,
    matches: u64,
}

async fn hearts_board(addr: SocketAddr) -> Vec<Entry> {
    let (status, board) = http(addr, "GET", "/api/leaderboard?variant=hearts", None).await;
    assert_eq!(status, 200, "{board}");
    board["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e: &Value| Entry {
            name: e["name"].as_str().unwrap_or_default().to_string(),
            kind: e["kind"].as_str().unwrap_or_default().to_string(),
            rating: e["rating"].as_f64().unwrap_or_default(),
            sd: e["uncertainty"].as_f64().unwrap_or_default(),
            matches: e["matches"].as_u64().unwrap_or_default(),
        })
        .collect()
}

fn find<'a>(board: &'a [Entry], name: &str) -> Option<&'a Entry> {
    board.iter().find(|e| e.name == name)
}

/// Random's whole 95% interval below heuristic's mean, and heuristic's mean below strong's.
fn ordered(board: &[Entry]) -> bool {
    let (Some(r), Some(h), Some(s)) = (
        find(board, "Rando"),
        find(board, "Hugo"),
        find(board, "Stella"),
    ) else {
        return false;
    };
    r.rating + 1.96 * r.sd < h.rating && h.rating < s.rating
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ladder_invites_online_bots_and_rates_them_in_order_of_strength() {
    let dir = TempDir::new("ladder-bots");
    let tokens: Vec<String> = BOTS
        .iter()
        .map(|(name, _)| register(dir.path(), name))
        .collect();
    let server = ServerProcess::start_with(
        dir.path(),
        &[
            "--ladder",
            "--ladder-variants",
            "hearts",
            "--ladder-strategies",
            "heuristic",
            "--ladder-target",
            "50",
            "--ladder-pause-ms",
            "0",
            "--ws-join-secs",
            "1",
        ],
    );
    let _bots: Vec<BotProcess> = BOTS
        .iter()
        .zip(&tokens)
        .map(|((_, strategy), token)| BotProcess::start(server.addr, token, strategy))
        .collect();

    // Bounded: at most MAX_MATCHES each, however long this machine takes for them. The
    // clock here only paces the polling.
    // The order must hold from one check to another at least a round of matches later, not
    // only for a moment.
    let mut board = Vec::new();
    let mut ordered_since: Option<u64> = None;
    for _ in 0..7_200 {
        board = hearts_board(server.addr).await;
        let least = BOTS
            .iter()
            .map(|(name, _)| find(&board, name).map_or(0, |e| e.matches))
            .min()
            .unwrap_or(0);
        ordered_since = match (least >= MIN_MATCHES && ordered(&board), ordered_since) {
            (true, None) => Some(least),
            (true, since) => since,
            (false, _) => None,
        };
        if ordered_since.is_some_and(|since| least >= since + STEADY) || least >= MAX_MATCHES {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    eprintln!("the ladder's hearts board: {board:#?}");

    // Each bot is rated by its account, with the matches the ladder seated it in.
    for (name, _) in BOTS {
        let entry = find(&board, name).unwrap_or_else(|| panic!("{name} is rated: {board:?}"));
        assert_eq!(entry.kind, "bot", "{entry:?}");
        assert!(entry.matches >= MIN_MATCHES, "{entry:?}");
    }
    // The bots stayed online the whole time (their connections are at no table).
    let (status, online) = http(server.addr, "GET", "/api/bots?variant=hearts", None).await;
    assert_eq!(status, 200);
    assert_eq!(online.as_array().map(Vec::len), Some(3), "{online}");
    // The fourth seat was a built-in, rated too.
    assert!(find(&board, "heuristic").is_some(), "{board:?}");
    assert!(
        ordered(&board),
        "random < heuristic < strong within {MAX_MATCHES} matches: {board:#?}"
    );
    assert!(
        server.log().contains("ladder duplicate played"),
        "the ladder logs its rounds"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_turns_the_ladder_down_is_replaced_by_a_built_in() {
    let dir = TempDir::new("ladder-declines");
    let token = register(dir.path(), "Nope");
    // The ladder's own seats are `random`; a seat the bot does not take gets `heuristic`.
    let server = ServerProcess::start_with(
        dir.path(),
        &[
            "--ladder",
            "--ladder-variants",
            "hearts",
            "--ladder-strategies",
            "random",
            "--ladder-target",
            "20",
            "--ladder-pause-ms",
            "0",
            "--invite-timeout-ms",
            "300",
        ],
    );
    let mut bot = WsClient::connect(server.addr).await;
    bot.send(&ClientMsg::Available {
        token,
        variants: vec![Variant::Hearts],
        max_tables: 4,
    })
    .await;
    let wait = Duration::from_secs(120);
    let answer = tokio::time::timeout(wait, bot.recv())
        .await
        .expect("an answer");
    assert!(matches!(answer, ServerMsg::Available { .. }), "{answer:?}");
    // Every other invitation is declined, the rest left to lapse.
    for i in 0..8 {
        let invitation = tokio::time::timeout(
            wait,
            bot.recv_until(|m| matches!(m, ServerMsg::Invitation { .. })),
        )
        .await
        .expect("the ladder keeps inviting the bot");
        let ServerMsg::Invitation { invitation, .. } = invitation else {
            unreachable!()
        };
        if i % 2 == 0 {
            bot.send(&ClientMsg::Decline { invitation }).await;
        }
    }
    // Bounded: the substitutes' matches reach the board.
    let mut board = Vec::new();
    for _ in 0..600 {
        board = hearts_board(server.addr).await;
        if find(&board, "heuristic").is_some_and(|e| e.matches >= 8) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let substitute = find(&board, "heuristic").expect("the substitute is rated");
    assert!(substitute.matches >= 8, "{board:?}");
    assert!(find(&board, "random").is_some(), "{board:?}");
    assert!(
        find(&board, "Nope").is_none(),
        "it played nothing: {board:?}"
    );
    let log = server.log();
    assert!(
        log.contains("a ladder invitation was not taken up"),
        "{log}"
    );
    assert!(log.contains("invitation declined") && log.contains("invitation lapsed"));
    // The operator sees the same in the server's figures.
    let (status, stats) = http(server.addr, "GET", "/api/stats", None).await;
    assert_eq!(status, 200, "{stats}");
    let ladder = &stats["ladder"];
    assert!(ladder["substituted"].as_u64().unwrap_or(0) >= 8, "{stats}");
    assert_eq!(ladder["invited"].as_u64(), Some(0), "{stats}");
}
