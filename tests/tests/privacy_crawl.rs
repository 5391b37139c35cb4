//! Private means private. After matches at private tables with computer players in their seats
//! (rated, so they reach the leaderboard), a crawler of everything open to anyone — every route
//! of the server, read from its source, and every link and id it finds in the answers — finds
//! none of their ids, in answers, headers or the server's log. A listed table is the control:
//! the crawler must find that one.
//!
//! The routes are read from `server/src/http/mod.rs`, and a route this test does not know
//! fails it: a new endpoint is looked at (and crawled) before it can name a table.

mod support;

use std::collections::{BTreeSet, VecDeque};
use std::net::SocketAddr;

use parlor_shared::Seat;
use parlor_shared::protocol::{ClientMsg, Occupant, ServerMsg};
use parlor_tests::{WsClient, http, http_raw};
use serde_json::{Value, json};
use support::{ServerProcess, TempDir};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The server's routing, where every route it answers is named.
const ROUTES: &str = include_str!("../../server/src/http/mod.rs");

/// How each route is reached: by anyone (crawled), with the admin key or with the cluster's
/// secret (both asked without them here, and must refuse).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    /// Open to anyone: crawled with every id and name found.
    Open,
    /// Needs the admin key.
    Admin,
    /// Needs the cluster's secret.
    Cluster,
}

/// Every route of the server and who may use it. A new route is added here on purpose.
const KNOWN: &[(&str, Access)] = &[
    ("/healthz", Access::Open),
    ("/readyz", Access::Open),
    ("/livez", Access::Open),
    ("/metrics", Access::Open),
    ("/api/stats", Access::Open),
    ("/api/variants", Access::Open),
    ("/api/leaderboard", Access::Open),
    ("/api/leaderboard/{kind}/{name}", Access::Open),
    ("/api/tables", Access::Open),
    ("/api/bots", Access::Open),
    ("/api/tables/{id}", Access::Open),
    ("/api/tables/{id}/hands", Access::Open),
    ("/api/tables/{id}/hands/{n}", Access::Open),
    ("/api/tables/{id}/hands/{n}/pbn", Access::Open),
    ("/api/tables/{id}/pbn", Access::Open),
    ("/", Access::Open),
    ("/t/{id}", Access::Open),
    ("/leaderboard", Access::Open),
    ("/ws", Access::Open),
    ("/api/admin/tables", Access::Admin),
    ("/api/admin/tables/{id}/close", Access::Admin),
    ("/api/admin/tables/{id}/seats/{seat}/kick", Access::Admin),
    ("/api/admin/bots", Access::Admin),
    ("/api/admin/bots/{name}", Access::Admin),
    ("INVITATIONS_PATH", Access::Cluster),
    ("STATUS_PATH", Access::Cluster),
    ("REVOKE_PATH", Access::Cluster),
];

/// The first argument of every `.route(` in the routing source: a path, or the name of the
/// constant that holds one.
fn routes_in_source() -> Vec<String> {
    let mut routes = Vec::new();
    let mut rest = ROUTES;
    while let Some(at) = rest.find(".route(") {
        rest = &rest[at + ".route(".len()..];
        let arg = rest.trim_start();
        let end = arg.find(',').expect("a route has a handler");
        let first = arg[..end].trim();
        let route = match first.strip_prefix('"') {
            Some(quoted) => quoted.trim_end_matches('"').to_string(),
            None => first.rsplit("::").next().unwrap_or(first).to_string(),
        };
        routes.push(route);
    }
    routes
}

#[test]
fn every_route_of_the_server_is_known_to_the_crawler() {
    let routes = routes_in_source();
    assert!(routes.len() >= 20, "the routes were read: {routes:?}");
    for route in &routes {
        assert!(
            KNOWN.iter().any(|(known, _)| known == route),
            "a new route `{route}`: add it to KNOWN in this test (and to the crawl, if anyone \
             may ask it) after making sure it names no private table"
        );
    }
}

/// A person and three built-in strategies play one short `tricks` match at a new table.
async fn play_a_match(addr: SocketAddr, seed: u64, listed: bool) -> String {
    let body = json!({
        "variant": "tricks",
        "options": {"target": 2},
        "seed": seed,
        "table_options": {"listed": listed},
    });
    parlor_tests::play_with_computers(addr, &body, seed).await
}

/// What the crawler has found and asked.
#[derive(Default)]
struct Crawl {
    /// Paths to ask, in order.
    queue: VecDeque<String>,
    /// Paths asked or queued.
    seen: BTreeSet<String>,
    /// Table ids found.
    ids: BTreeSet<String>,
    /// Leaderboard entrants found, as `kind/name`.
    entrants: BTreeSet<String>,
    /// Variant names found.
    variants: BTreeSet<String>,
}

impl Crawl {
    fn push(&mut self, path: String) {
        if self.seen.len() < 3000 && self.seen.insert(path.clone()) {
            self.queue.push_back(path);
        }
    }

    /// Queues a link found in an answer, if it stays on this server.
    fn link(&mut self, link: &str) {
        let link = link.trim();
        if link.is_empty()
            || link.starts_with('#')
            || link.contains("://")
            || link.starts_with("data:")
            || link.starts_with("mailto:")
            || link.contains("${")
        {
            return;
        }
        let path = link.trim_start_matches("./").trim_start_matches('/');
        self.push(format!("/{path}"));
    }

    /// Everything a table id found opens to whoever has it.
    fn table(&mut self, id: &str) {
        if self.ids.insert(id.to_string()) {
            for path in [
                format!("/t/{id}"),
                format!("/api/tables/{id}"),
                format!("/api/tables/{id}/hands"),
                format!("/api/tables/{id}/hands/0"),
                format!("/api/tables/{id}/hands/1"),
                format!("/api/tables/{id}/hands/0/pbn"),
                format!("/api/tables/{id}/pbn"),
            ] {
                self.push(path);
            }
        }
    }

    fn variant(&mut self, name: &str) {
        if self.variants.insert(name.to_string()) {
            self.push(format!("/api/leaderboard?variant={name}"));
            self.push(format!("/leaderboard?variant={name}"));
            for entrant in self.entrants.clone() {
                self.push(format!("/api/leaderboard/{entrant}?variant={name}"));
            }
        }
    }

    fn entrant(&mut self, kind: &str, name: &str) {
        let entrant = format!("{kind}/{name}");
        if self.entrants.insert(entrant.clone()) {
            for variant in self.variants.clone() {
                self.push(format!("/api/leaderboard/{entrant}?variant={variant}"));
            }
        }
    }

    /// Takes in what a JSON answer names: ids, entrants, variants and links.
    fn json(&mut self, value: &Value) {
        match value {
            Value::Object(map) => {
                if let (Some(kind), Some(name)) = (
                    map.get("kind").and_then(Value::as_str),
                    map.get("name").and_then(Value::as_str),
                ) && (kind == "builtin" || kind == "bot")
                {
                    self.entrant(kind, name);
                }
                for (key, item) in map {
                    if let Some(text) = item.as_str() {
                        self.string(key, text);
                    }
                    self.json(item);
                }
            }
            Value::Array(items) => {
                for item in items {
                    if let Some(text) = item.as_str() {
                        self.string("", text);
                    }
                    self.json(item);
                }
            }
            _ => {}
        }
    }

    fn string(&mut self, key: &str, text: &str) {
        // An id may be all letters: where a field says it is one, it is asked as one.
        if looks_like_table_id(text) || ((key == "id" || key == "table") && text.len() == 10) {
            self.table(text);
        }
        if key == "name"
            && text
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        {
            // A variant's name (or a strategy's): asked as a variant, harmless when it is not.
            self.variant(text);
        }
        if text.starts_with("api/") || text.starts_with("/api/") || text.starts_with("t/") {
            self.link(text);
        }
    }

    /// Takes in what a page or script names: links, imports and anything shaped like an id.
    fn text(&mut self, body: &str) {
        for marker in [
            "href=\"", "src=\"", "from '", "from \"", "import('", "fetch('",
        ] {
            let mut rest = body;
            while let Some(at) = rest.find(marker) {
                rest = &rest[at + marker.len()..];
                let quote = marker.chars().last().expect("a quote");
                let end = rest.find(quote).unwrap_or(rest.len());
                self.link(&rest[..end]);
            }
        }
        for word in body.split(|c: char| !c.is_ascii_alphanumeric()) {
            if looks_like_table_id(word) {
                self.table(word);
            }
        }
    }
}

/// A table id's shape: ten lowercase letters and digits, with at least one digit (so that
/// ordinary ten-letter words are not asked as tables).
fn looks_like_table_id(text: &str) -> bool {
    text.len() == 10
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && text.chars().any(|c| c.is_ascii_digit())
}

/// Asks every path the crawl finds, at most a few thousand; returns everything answered, as
/// one text per answer (path, status, headers and body).
async fn crawl(addr: SocketAddr, start_with: &[&str]) -> (Crawl, Vec<String>) {
    let mut crawl = Crawl::default();
    for path in start_with {
        crawl.push((*path).to_string());
    }
    let mut answers = Vec::new();
    while let Some(path) = crawl.queue.pop_front() {
        let (status, head, body) = get(addr, &path).await;
        if let Ok(value) = serde_json::from_str::<Value>(&body) {
            crawl.json(&value);
        } else {
            crawl.text(&body);
        }
        answers.push(format!("GET {path} -> {status}\n{head}\n{body}"));
    }
    (crawl, answers)
}

#[tokio::test]
async fn a_crawler_of_everything_open_to_anyone_finds_no_private_table() {
    let dir = TempDir::new("privacy-crawl");
    let server = ServerProcess::start(dir.path());
    let addr = server.addr;

    let listed = play_a_match(addr, 1, true).await;
    let private = [
        play_a_match(addr, 2, false).await,
        play_a_match(addr, 3, false).await,
    ];
    // The family comes back through the link: the page and the table's own answers.
    for id in &private {
        let (status, _, _) = http_raw(addr, "GET", &format!("/t/{id}"), None).await;
        assert_eq!(status, 200);
        let (status, _) = http(addr, "GET", &format!("/api/tables/{id}/hands"), None).await;
        assert_eq!(status, 200);
    }
    // A private table still waiting for its match, with a computer sitting.
    let (status, reply) = http(
        addr,
        "POST",
        "/api/tables",
        Some(&json!({"variant": "hearts"})),
    )
    .await;
    assert_eq!(status, 201);
    let waiting = reply["id"].as_str().expect("an id").to_string();
    let mut host = WsClient::connect(addr).await;
    assert!(host.join(&waiting, "Grandpa").await);
    host.send(&ClientMsg::AddBot {
        seat: Seat(1),
        strategy: "strong".into(),
    })
    .await;
    host.recv_until(
        |m| matches!(m, ServerMsg::Table { table, .. } if table.seats[1].occupant == Occupant::Bot),
    )
    .await;

    let mut start: Vec<&str> = KNOWN
        .iter()
        .filter(|(route, access)| *access == Access::Open && !route.contains('{'))
        .map(|(route, _)| *route)
        .collect();
    start.push("/api/leaderboard/builtin/strong?variant=tricks");
    let (found, answers) = crawl(addr, &start).await;
    assert!(
        found.ids.contains(&listed),
        "the crawler finds the listed table (it reaches what is public): {:?}",
        found.ids
    );
    assert!(
        found.entrants.contains("builtin/strong"),
        "the crawler read the leaderboard: {:?}",
        found.entrants
    );

    // Those that need a key or the cluster's secret refuse without them, naming nothing.
    let mut refused = Vec::new();
    for (route, access) in KNOWN {
        let path = match (*access, *route) {
            (Access::Open, _) => continue,
            (Access::Cluster, name) => cluster_path(name),
            (Access::Admin, route) => route
                .replace("{id}", "abcde23456")
                .replace("{seat}", "0")
                .replace("{name}", "x"),
        };
        for method in ["GET", "POST"] {
            let (status, head, body) = http_raw(addr, method, &path, Some("{}".into())).await;
            assert!(
                [401, 403, 404, 405].contains(&status),
                "{method} {path} without a key: {status} {body}"
            );
            refused.push(format!("{status}\n{head}\n{body}"));
        }
    }

    // A spectator of the listed table hears nothing of the others.
    let mut watcher = WsClient::connect(addr).await;
    watcher
        .send(&ClientMsg::Watch {
            table: listed.clone(),
        })
        .await;
    watcher
        .recv_until(|m| matches!(m, ServerMsg::State { .. }))
        .await;

    let log = server.log();
    for id in private.iter().chain([&waiting]) {
        assert!(
            !found.ids.contains(id),
            "the crawler found private table {id}"
        );
        for answer in answers.iter().chain(&refused).chain(&watcher.frames) {
            assert!(
                !answer.contains(id.as_str()),
                "private table {id} named in:\n{answer}"
            );
        }
        assert!(
            !log.contains(id.as_str()),
            "private table {id} named in the server's log:\n{log}"
        );
    }
    assert!(
        answers.len() > 30,
        "the crawl asked {} paths",
        answers.len()
    );
    host.close().await;
    server.stop();
}

/// One GET, its answer read as text whatever it holds (an icon, say): status, head, body.
async fn get(addr: SocketAddr, path: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.expect("read");
    let response = String::from_utf8_lossy(&response);
    let (head, body) = response.split_once("\r\n\r\n").expect("a response head");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    (status, head.to_string(), body.to_string())
}

/// Where the cluster's internal route named `name` lives.
fn cluster_path(name: &str) -> String {
    let path = match name {
        "INVITATIONS_PATH" => parlor_server::cluster::bots::INVITATIONS_PATH,
        "STATUS_PATH" => parlor_server::cluster::bots::STATUS_PATH,
        "REVOKE_PATH" => parlor_server::cluster::bots::REVOKE_PATH,
        other => panic!("an unknown cluster route {other}"),
    };
    path.to_string()
}
