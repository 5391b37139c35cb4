//! The clients of a cluster behind one load balancer that knows nothing about tables: three
//! `parlor serve` nodes on one real, private Postgres, and Debian's nginx in front of them,
//! round-robin over the three, passing the WebSocket upgrade on. Every connection and every
//! HTTP request goes to the balancer's single address, so the players of one table land on
//! different nodes and are relayed to the table's owner.
//!
//! A whole match is played there by two test clients (whose every frame is kept and scanned
//! for cards they may not see), a `parlor bot` process and the Python SDK bot (`python3 -m
//! parlor_bot play`; another `parlor bot` when the SDK is not importable, saying so).
//!
//! nginx runs unprivileged, in the foreground, from a temporary directory and a config
//! written here, on a free port of 127.0.0.1. Without `/usr/sbin/nginx` (or `NGINX_BIN`)
//! the test says so and passes without running (CI installs nginx). Every wait is bounded.

mod support;

use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use parlor_shared::Event;
use parlor_shared::protocol::{ClientMsg, Occupant, ServerMsg};
use parlor_tests::{WsClient, http};
use serde_json::json;
use support::{Backend, ServerProcess, Storage, TempDir, parlor_bin, play_moves};

/// The nginx binary: `NGINX_BIN`, else Debian's.
fn nginx_bin() -> PathBuf {
    std::env::var_os("NGINX_BIN").map_or_else(|| PathBuf::from("/usr/sbin/nginx"), PathBuf::from)
}

/// An nginx process balancing round-robin over some upstream nodes; stopped when dropped.
struct Balancer {
    child: Child,
    /// The single public address.
    addr: SocketAddr,
    /// Its directory (config, pid, logs, temp files).
    dir: TempDir,
}

impl Balancer {
    /// Writes a config for `nodes` and starts nginx in the foreground, without a master
    /// process, all its files in a temporary directory (so it needs no privilege); waits
    /// (at most 10 s) until it answers `/healthz` through a node.
    async fn start(nodes: &[SocketAddr]) -> Balancer {
        let dir = TempDir::new("nginx");
        let d = dir.path().display().to_string();
        std::fs::create_dir_all(dir.path().join("tmp")).expect("creating nginx's temp dir");
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let upstream: String = nodes.iter().map(|a| format!("    server {a};\n")).collect();
        let conf = format!(
            r"worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 256; }}
http {{
  access_log off;
  client_body_temp_path {d}/tmp/body;
  proxy_temp_path {d}/tmp/proxy;
  fastcgi_temp_path {d}/tmp/fastcgi;
  uwsgi_temp_path {d}/tmp/uwsgi;
  scgi_temp_path {d}/tmp/scgi;
  map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
  upstream parlor {{
{upstream}  }}
  server {{
    listen 127.0.0.1:{port};
    location / {{
      proxy_pass http://parlor;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_read_timeout 1h;
    }}
  }}
}}
"
        );
        let path = dir.path().join("nginx.conf");
        std::fs::write(&path, conf).expect("writing nginx.conf");
        let child = Command::new(nginx_bin())
            .arg("-p")
            .arg(dir.path())
            .arg("-e")
            .arg(dir.path().join("error.log"))
            .arg("-c")
            .arg(&path)
            .args(["-g", "daemon off; master_process off;"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting nginx");
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().expect("an address");
        let mut balancer = Balancer { child, addr, dir };
        for _ in 0..200 {
            if let Ok(Some(status)) = balancer.child.try_wait() {
                panic!("nginx exited ({status}): {}", balancer.errors());
            }
            if std::net::TcpStream::connect(addr).is_ok() {
                let (status, _) = http(addr, "GET", "/healthz", None).await;
                if status == 200 {
                    return balancer;
                }
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("nginx did not come up: {}", balancer.errors());
    }

    /// nginx's error log.
    fn errors(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("error.log")).unwrap_or_default()
    }
}

impl Drop for Balancer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A command that runs the Python SDK bot (`python3 -m parlor_bot`), if the SDK and its
/// WebSocket package import: from `PATH` (the test script's venv), else from the source
/// tree.
fn python_bot() -> Option<Command> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sdk/python/src");
    for with_src in [false, true] {
        let mut probe = Command::new("python3");
        probe.args(["-c", "import parlor_bot, websockets"]);
        if with_src {
            probe.env("PYTHONPATH", &src);
        }
        if probe
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
        {
            let mut cmd = Command::new("python3");
            if with_src {
                cmd.env("PYTHONPATH", &src);
            }
            return Some(cmd);
        }
    }
    None
}

/// Starts a bot process for `seat` of table `id`, through the balancer at `addr`.
fn bot_process(addr: SocketAddr, id: &str, seat: u8, python: bool) -> Child {
    let mut cmd = if python {
        let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sdk/python/examples");
        let mut cmd = python_bot().expect("the Python SDK");
        cmd.args(["-m", "parlor_bot", "play"])
            .arg(examples.join("lowest_bot.py"))
            .args(["--url", &format!("http://{addr}"), "--table", id])
            .args(["--seat", &seat.to_string(), "--matches", "1", "-q"]);
        cmd
    } else {
        let mut cmd = Command::new(parlor_bin());
        cmd.args(["bot", "--url", &format!("ws://{addr}"), "--table", id])
            .args([
                "--seat",
                &seat.to_string(),
                "--name",
                &format!("bot {seat}"),
            ]);
        cmd
    };
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting a bot process")
}

/// Waits (at most 60 s) for a bot process to exit; returns its status and output.
fn wait_bot(mut child: Child) -> (bool, String) {
    for _ in 0..600 {
        if let Ok(Some(_)) = child.try_wait() {
            let out = child.wait_with_output().expect("the bot's output");
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            return (out.status.success(), text);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    let out = child.wait_with_output().expect("the bot's output");
    (
        false,
        format!("did not exit: {}", String::from_utf8_lossy(&out.stderr)),
    )
}

/// Whether a message announces the end of the match.
fn match_over(msg: &ServerMsg) -> bool {
    matches!(
        msg,
        ServerMsg::Event {
            event: Event::MatchOver { .. },
            ..
        }
    )
}

/// A whole match through one round-robin balancer over three nodes: two test clients and
/// two bot processes, every connection to the same address. The match ends, every player
/// sees it end, the bots exit cleanly, every node lists the table, and no frame either
/// test client got shows a card it may not see.
#[tokio::test]
async fn a_match_plays_through_one_balancer_over_three_nodes() {
    if !nginx_bin().exists() {
        eprintln!(
            "SKIPPED: {} is missing (apt-get install nginx); this test needs a real load balancer",
            nginx_bin().display()
        );
        return;
    }
    let storage = Storage::new(Backend::Postgres, "cluster_clients").await;
    let cluster_args = ["--lease-ms", "2000", "--cluster-secret", "test-secret"];
    let nodes: Vec<ServerProcess> = ["a", "b", "c"]
        .iter()
        .map(|name| {
            let mut args = vec!["--node-id", name];
            args.extend(cluster_args);
            storage.start_with(&args)
        })
        .collect();
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    let lb = Balancer::start(&addrs).await;

    let body = json!({
        "variant": "hearts",
        "options": {"target": 30},
        "seed": 17,
        "table_options": {"grace_ms": 600_000, "listed": true},
    });
    let (status, reply) = http(lb.addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 201, "{reply}");
    let id = reply["id"].as_str().expect("an id").to_string();

    let mut clients = Vec::new();
    for i in 0..2 {
        let mut client = WsClient::connect(lb.addr).await;
        let host = client.join(&id, &format!("p{i}")).await;
        assert_eq!(host, i == 0, "the first to join hosts");
        clients.push(client);
    }
    let python = python_bot().is_some();
    if !python {
        eprintln!(
            "NOTE: the Python SDK (parlor_bot with websockets) does not import: \
             seat 3 is played by `parlor bot` instead"
        );
    }
    let bots = vec![
        bot_process(lb.addr, &id, 2, false),
        bot_process(lb.addr, &id, 3, python),
    ];
    tokio::time::timeout(
        Duration::from_secs(30),
        clients[0].recv_until(|m| {
            matches!(m, ServerMsg::Table { table, .. }
                if table.seats.iter().all(|s| s.occupant != Occupant::Empty))
        }),
    )
    .await
    .expect("the bots took their seats within 30 s");
    clients[0].send(&ClientMsg::Start {}).await;

    tokio::time::timeout(
        Duration::from_secs(240),
        play_moves(&mut clients, usize::MAX, |i, m| i == 0 && match_over(m)),
    )
    .await
    .expect("the match ended within 4 minutes");
    if !clients[1].frames.iter().any(|f| f.contains("match_over")) {
        tokio::time::timeout(Duration::from_secs(20), clients[1].recv_until(match_over))
            .await
            .expect("client 1 saw the match end");
    }
    for (seat, bot) in bots.into_iter().enumerate() {
        let (ok, output) = wait_bot(bot);
        assert!(ok, "the bot at seat {} ended cleanly: {output}", seat + 2);
    }
    for (i, client) in clients.iter().enumerate() {
        let seat = client.seat.expect("seated");
        let leaks = parlor_tests::secrecy::violations(&client.frames, Some(seat));
        assert!(leaks.is_empty(), "client {i} (seat {seat}) saw: {leaks:?}");
    }

    // One node owns the table; the others serve it all the same, by relaying; every node's
    // lobby lists it.
    let mut owners = 0;
    for node in &nodes {
        let (status, stats) = parlor_tests::http_with(
            node.addr,
            "GET",
            "/api/stats",
            &[("x-parlor-cluster-secret", "test-secret")],
            None,
        )
        .await;
        assert_eq!(status, 200);
        owners += usize::from(
            stats["cluster"]["owned"]
                .as_array()
                .is_some_and(|t| t.iter().any(|t| t == id.as_str())),
        );
        let (status, list) = http(node.addr, "GET", "/api/tables", None).await;
        assert_eq!(status, 200);
        assert!(
            list.as_array()
                .is_some_and(|t| t.iter().any(|t| t["id"] == id.as_str())),
            "every node lists the table: {list}"
        );
    }
    assert_eq!(owners, 1, "exactly one node owns the table");
    let (status, hands) = http(lb.addr, "GET", &format!("/api/tables/{id}/hands"), None).await;
    assert_eq!(status, 200, "{hands}");
    assert!(
        hands.as_array().is_some_and(|h| h.len() >= 2),
        "the finished hands are served through the balancer: {hands}"
    );
    drop(lb);
    for node in nodes {
        node.stop();
    }
}

/// Registers a bot in the cluster's database with `parlor bots add --store URL`; its token.
fn register_bot(storage: &Storage, name: &str) -> String {
    let (_, url) = storage.postgres.as_ref().expect("a Postgres store");
    let out = Command::new(parlor_bin())
        .args(["bots", "add", name, "--owner", "ann", "--store", url])
        .env_remove("PARLOR_STORE")
        .output()
        .expect("running parlor bots add");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text.lines()
        .find_map(|l| l.strip_prefix("token: "))
        .expect("the token is printed")
        .to_string()
}

/// A registered bot in available mode through `addr`: the Python SDK's `Bot.serve` (one
/// table, then it returns) when it imports, else `parlor bot --token` (which serves until
/// killed).
fn serving_bot(addr: SocketAddr, token: &str) -> (Child, bool) {
    let python = python_bot();
    let is_python = python.is_some();
    let mut cmd = match python {
        Some(mut cmd) => {
            let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sdk/python/examples");
            let script = format!(
                "import sys\nsys.path.insert(0, {examples:?})\nfrom lowest_bot import LowestBot\n\
                 LowestBot().serve({url:?}, {token:?}, variants=['hearts'], max_tables=1, tables=1)\n",
                examples = examples.display().to_string(),
                url = format!("http://{addr}"),
            );
            cmd.args(["-c", &script]);
            cmd
        }
        None => {
            let mut cmd = Command::new(parlor_bin());
            cmd.args(["bot", "--url", &format!("ws://{addr}"), "--token", token])
                .args(["--variants", "hearts", "--max-tables", "1"]);
            cmd
        }
    };
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting the registered bot");
    (child, is_python)
}

/// A registered bot in available mode behind the balancer (its `available` connection on
/// whichever node the balancer chose, its `accept` on whichever it chooses next): every
/// request of the host goes through the balancer too; the bot is listed, invited, seated as
/// its account and plays the match to its end.
#[tokio::test]
async fn a_registered_bot_serves_through_one_balancer_over_three_nodes() {
    if !nginx_bin().exists() {
        eprintln!(
            "SKIPPED: {} is missing (apt-get install nginx); this test needs a real load balancer",
            nginx_bin().display()
        );
        return;
    }
    let storage = Storage::new(Backend::Postgres, "cluster_clients_bot").await;
    let nodes: Vec<ServerProcess> = ["a", "b", "c"]
        .iter()
        .map(|name| {
            storage.start_with(&[
                "--node-id",
                name,
                "--lease-ms",
                "2000",
                "--cluster-secret",
                "test-secret",
            ])
        })
        .collect();
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    let lb = Balancer::start(&addrs).await;
    let token = register_bot(&storage, "Lowest");
    let (bot, python) = serving_bot(lb.addr, &token);
    if !python {
        eprintln!(
            "NOTE: the Python SDK (parlor_bot with websockets) does not import: \
             the registered bot is `parlor bot --token` instead"
        );
    }
    // Listed through the balancer, whichever node answers.
    let mut listed = false;
    for _ in 0..100 {
        let (status, bots) = http(lb.addr, "GET", "/api/bots?variant=hearts", None).await;
        assert_eq!(status, 200, "{bots}");
        if bots
            .as_array()
            .is_some_and(|b| b.len() == 1 && b[0]["name"] == "Lowest")
        {
            listed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(listed, "the bot went online and is listed");

    let body = json!({"variant": "hearts", "options": {"target": 30}, "seed": 23});
    let (status, reply) = http(lb.addr, "POST", "/api/tables", Some(&body)).await;
    assert_eq!(status, 201, "{reply}");
    let id = reply["id"].as_str().expect("an id").to_string();
    let mut host = WsClient::connect(lb.addr).await;
    assert!(host.join(&id, "p0").await);
    for seat in [1, 2] {
        host.send(&ClientMsg::AddBot {
            seat: parlor_shared::Seat(seat),
            strategy: "random".into(),
        })
        .await;
    }
    host.send(&ClientMsg::InviteBot {
        seat: parlor_shared::Seat(3),
        bot: "Lowest".into(),
    })
    .await;
    let mut states = Vec::new();
    while states.last() != Some(&parlor_shared::protocol::InviteState::Accepted) {
        let next = host
            .recv_until(|m| matches!(m, ServerMsg::InviteStatus { .. } | ServerMsg::Error { .. }));
        match tokio::time::timeout(Duration::from_secs(30), next).await {
            Ok(ServerMsg::InviteStatus { status, .. }) => states.push(status),
            other => panic!("expected the invitation's states, got {other:?} after {states:?}"),
        }
    }
    use parlor_shared::protocol::InviteState::{Accepted, Sent};
    assert_eq!(states, vec![Sent, Accepted]);
    let (status, info) = http(lb.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(status, 200, "{info}");
    assert_eq!(info["seats"][3]["account"], "Lowest", "{info}");
    host.send(&ClientMsg::Start {}).await;
    let mut players = vec![host];
    tokio::time::timeout(
        Duration::from_secs(240),
        play_moves(&mut players, usize::MAX, |_, m| match_over(m)),
    )
    .await
    .expect("the match ended within 4 minutes");
    if python {
        let (ok, output) = wait_bot(bot);
        assert!(
            ok,
            "the SDK's bot served its table and ended cleanly: {output}"
        );
    } else {
        let mut bot = bot;
        let _ = bot.kill();
        let _ = bot.wait();
    }
    drop(lb);
    for node in nodes {
        node.stop();
    }
}
