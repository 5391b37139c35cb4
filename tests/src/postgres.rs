//! A real, private Postgres for the tests that run against the Postgres store.
//!
//! [`Postgres::start`] finds `initdb` and `pg_ctl` (on `PATH`, else the newest
//! `/usr/lib/postgresql/*/bin`), makes a cluster in a temporary directory and starts it on a
//! free port of 127.0.0.1 with its Unix socket in that directory. Postgres refuses to run as
//! root, so as root the cluster belongs to the `postgres` user (else `nobody`) and its
//! commands run through `runuser`. It is stopped by its process id when dropped, and can be
//! stopped and started again under a running server ([`Postgres::stop`],
//! [`Postgres::restart`]).
//!
//! With `PARLOR_TEST_POSTGRES` set to a URL (a role that may create databases), that server
//! is used instead and nothing is started; it cannot be stopped by a test.
//!
//! Each test takes its own database ([`Postgres::database`]).

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// The role the tests connect as on a private cluster.
const ROLE: &str = "parlor";

/// A Postgres server for tests.
pub struct Postgres {
    /// A private cluster, or `None` when `PARLOR_TEST_POSTGRES` names the server.
    private: Option<Private>,
    /// The URL of the server's `postgres` database (no database name: see [`Self::url`]).
    base: String,
}

/// A cluster this process started.
struct Private {
    /// The temporary directory: `data/`, `socket/`, `log`.
    dir: PathBuf,
    /// Where `pg_ctl` and `postgres` are.
    bin: PathBuf,
    /// The port it listens on.
    port: u16,
    /// The user its commands run as when this process is root.
    user: Option<String>,
}

impl Postgres {
    /// Starts a private Postgres (or takes `PARLOR_TEST_POSTGRES`). Panics with what to
    /// install when there is no Postgres at all.
    pub fn start() -> Postgres {
        if let Some(url) = std::env::var("PARLOR_TEST_POSTGRES")
            .ok()
            .filter(|u| !u.is_empty())
        {
            return Postgres {
                private: None,
                base: url.trim_end_matches('/').to_string(),
            };
        }
        let bin = find_bin().unwrap_or_else(|| {
            panic!(
                "no Postgres found (initdb and pg_ctl on PATH or in /usr/lib/postgresql/*/bin): \
                 install Debian's `postgresql` package, or set PARLOR_TEST_POSTGRES to a URL"
            )
        });
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "parlor-pg-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("socket")).expect("creating the Postgres directory");
        let user = is_root().then(unprivileged_user);
        if let Some(user) = &user {
            chown(&dir, user);
        }
        let mut private = Private {
            dir,
            bin,
            port: free_port(),
            user,
        };
        private.run(
            "initdb",
            &[
                "-D",
                &private.data(),
                "-U",
                ROLE,
                "--auth=trust",
                "--no-sync",
                "-E",
                "UTF8",
                "--locale=C",
            ],
        );
        // The port was free when picked, but another test's connection may take it before
        // the postmaster binds it: a start that fails is tried again on a new port.
        let mut attempt = 1;
        while let Err(why) = private.start() {
            assert!(attempt < 5, "Postgres did not start:\n{why}");
            attempt += 1;
            private.port = free_port();
        }
        Postgres {
            base: format!("postgres://{ROLE}@127.0.0.1:{}", private.port),
            private: Some(private),
        }
    }

    /// True when this process started the server (so it can stop and restart it).
    pub fn is_private(&self) -> bool {
        self.private.is_some()
    }

    /// The URL of database `name` on this server.
    pub fn url(&self, name: &str) -> String {
        match self.base.rsplit_once('/') {
            // `postgres://user@host:port/db`: swap the database.
            Some((head, _)) if head.contains("://") && !head.ends_with('/') => {
                format!("{head}/{name}")
            }
            _ => format!("{}/{name}", self.base),
        }
    }

    /// A fresh, empty database for one test; returns its URL.
    pub async fn database(&self, name: &str) -> String {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let db = format!(
            "parlor_{}_{}_{}",
            name.replace(|c: char| !c.is_ascii_alphanumeric(), "_"),
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let client = self.connect("postgres").await;
        for sql in [
            format!("DROP DATABASE IF EXISTS {db}"),
            format!("CREATE DATABASE {db}"),
        ] {
            client
                .batch_execute(&sql)
                .await
                .expect("creating a test database");
        }
        self.url(&db)
    }

    /// A client on database `name` (its connection driven by a task of this runtime).
    pub async fn connect(&self, name: &str) -> tokio_postgres::Client {
        let url = self.url(name);
        let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
            .await
            .unwrap_or_else(|err| panic!("connecting to {url}: {err}"));
        tokio::spawn(connection);
        client
    }

    /// Stops the private server (fast shutdown: connections are cut) and waits until it
    /// has exited. Panics for a server given by `PARLOR_TEST_POSTGRES`.
    pub fn stop(&self) {
        let private = self.private.as_ref().expect("a private Postgres to stop");
        private.stop();
    }

    /// Starts the private server again on the same port and waits until it takes
    /// connections.
    pub fn restart(&self) {
        let private = self.private.as_ref().expect("a private Postgres to start");
        if let Err(why) = private.start() {
            panic!("Postgres did not start again:\n{why}");
        }
    }

    /// Restarts the private server with TLS on, presenting `cert_pem` (with its `key_pem`).
    pub fn serve_tls(&self, cert_pem: &str, key_pem: &str) {
        let private = self
            .private
            .as_ref()
            .expect("a private Postgres to configure");
        let data = private.dir.join("data");
        std::fs::write(data.join("server.crt"), cert_pem).expect("writing the certificate");
        std::fs::write(data.join("server.key"), key_pem).expect("writing the key");
        let mut conf = std::fs::read_to_string(data.join("postgresql.conf")).expect("the config");
        conf.push_str("\nssl = on\nssl_cert_file = 'server.crt'\nssl_key_file = 'server.key'\n");
        std::fs::write(data.join("postgresql.conf"), conf).expect("writing the config");
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(
                data.join("server.key"),
                std::fs::Permissions::from_mode(0o600),
            )
            .expect("the key's mode");
        }
        if let Some(user) = &private.user {
            chown(&data, user);
        }
        self.stop();
        self.restart();
    }

    /// The server's log so far (empty for a server not started here).
    pub fn log(&self) -> String {
        self.private
            .as_ref()
            .and_then(|p| std::fs::read_to_string(p.dir.join("log")).ok())
            .unwrap_or_default()
    }
}

impl Private {
    /// Starts the postmaster on this port and waits until it takes connections; on failure,
    /// says why with the end of the server's log.
    fn start(&self) -> Result<(), String> {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off \
             -c max_connections=200",
            self.port,
            self.dir.join("socket").display()
        );
        let log = self.dir.join("log");
        self.try_run(
            "pg_ctl",
            &[
                "-D",
                &self.data(),
                "-l",
                &log.display().to_string(),
                "-o",
                &options,
                "-w",
                "-t",
                "60",
                "start",
            ],
        )
        .map_err(|why| {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(20).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            format!("{why}\nthe server's log ends:\n{}", tail.join("\n"))
        })
    }

    /// The data directory.
    fn data(&self) -> String {
        self.dir.join("data").display().to_string()
    }

    /// Runs one of Postgres's programs (as the unprivileged user when root) and checks it
    /// worked.
    fn run(&self, program: &str, args: &[&str]) {
        if let Err(why) = self.try_run(program, args) {
            panic!("{why}");
        }
    }

    /// Runs one of Postgres's programs; says how it failed.
    fn try_run(&self, program: &str, args: &[&str]) -> Result<(), String> {
        let exe = self.bin.join(program);
        let mut command = match &self.user {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--"]).arg(&exe);
                c
            }
            None => Command::new(&exe),
        };
        let output = command
            .args(args)
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|err| panic!("running {}: {err}", exe.display()));
        if output.status.success() {
            return Ok(());
        }
        Err(format!(
            "{program} failed: {}\n{}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }

    /// The postmaster's process id, while it runs.
    fn pid(&self) -> Option<u32> {
        let text = std::fs::read_to_string(self.dir.join("data/postmaster.pid")).ok()?;
        text.lines().next()?.trim().parse().ok()
    }

    /// Fast shutdown by the postmaster's pid (SIGINT), waiting (bounded) for it to go.
    fn stop(&self) {
        let Some(pid) = self.pid() else { return };
        let _ = Command::new("kill")
            .args(["-INT", &pid.to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(30);
        while Path::new(&format!("/proc/{pid}")).exists() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        if Path::new(&format!("/proc/{pid}")).exists() {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
        }
        // A stopped postmaster removes its pid file; one killed leaves it for the next start.
        let _ = std::fs::remove_file(self.dir.join("data/postmaster.pid"));
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        if let Some(private) = &self.private {
            private.stop();
            let _ = std::fs::remove_dir_all(&private.dir);
        }
    }
}

/// `initdb`'s directory: on `PATH`, else the newest `/usr/lib/postgresql/<version>/bin`.
fn find_bin() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .find(|dir| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file())
    });
    if on_path.is_some() {
        return on_path;
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

/// True when running as root.
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// `postgres` when that user exists, else `nobody`.
fn unprivileged_user() -> String {
    let exists = Command::new("id")
        .args(["-u", "postgres"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if exists { "postgres" } else { "nobody" }.to_string()
}

/// Gives `dir` (and what is in it) to `user`.
fn chown(dir: &Path, user: &str) {
    let status = Command::new("chown")
        .args(["-R", user])
        .arg(dir)
        .status()
        .expect("running chown");
    assert!(status.success(), "chown -R {user} {} failed", dir.display());
}

/// A port nothing listens on now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}
