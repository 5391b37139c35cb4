//! Postgres over TLS: a Postgres started here with a certificate made here (signed by a
//! certificate authority also made here). With `sslmode=require` and the authority as
//! `sslrootcert`, every connection of the server is encrypted (Postgres's own `pg_stat_ssl`
//! says so) and play goes on as usual; without the authority the certificate is refused and
//! the server does not start.

mod support;

use std::process::{Command, Stdio};

use parlor_tests::postgres::Postgres;
use parlor_tests::{WsClient, http};
use rcgen::{BasicConstraints, CertificateParams, IsCa, KeyPair};
use serde_json::json;
use support::{ServerProcess, TempDir, parlor_bin};

/// A certificate authority and a server certificate for 127.0.0.1 it signed: (CA in PEM,
/// server certificate in PEM, server key in PEM).
fn certificates() -> (String, String, String) {
    let ca_key = KeyPair::generate().expect("a CA key");
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).expect("CA params");
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca = ca_params.self_signed(&ca_key).expect("the CA certificate");
    let server_key = KeyPair::generate().expect("a server key");
    let server_params =
        CertificateParams::new(vec!["127.0.0.1".to_string(), "localhost".to_string()])
            .expect("server params");
    let server = server_params
        .signed_by(&server_key, &ca, &ca_key)
        .expect("the server certificate");
    (ca.pem(), server.pem(), server_key.serialize_pem())
}

#[tokio::test]
async fn the_store_talks_to_postgres_over_verified_tls() {
    let postgres = Postgres::start();
    if !postgres.is_private() {
        eprintln!("PARLOR_TEST_POSTGRES names the server: its TLS is not this test's to set");
        return;
    }
    let (ca, cert, key) = certificates();
    postgres.serve_tls(&cert, &key);
    let dir = TempDir::new("postgres-tls");
    let ca_file = dir.path().join("ca.pem");
    std::fs::write(&ca_file, &ca).expect("writing the CA");
    let url = postgres.database("tls").await;

    let store = format!("{url}?sslmode=require&sslrootcert={}", ca_file.display());
    let server = ServerProcess::start_with(&dir.path().join("data"), &["--store", &store]);
    let (status, created) = http(
        server.addr,
        "POST",
        "/api/tables",
        Some(&json!({"variant": "hearts"})),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("an id");
    let mut ann = WsClient::connect(server.addr).await;
    assert!(ann.join(id, "Ann").await, "{}", server.log());

    let db = url.rsplit('/').next().expect("a database name");
    let admin = postgres.connect(db).await;
    let rows = admin
        .query(
            "SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid)
             WHERE a.application_name = 'parlor'",
            &[],
        )
        .await
        .expect("reading pg_stat_ssl");
    assert!(!rows.is_empty(), "the server is connected");
    assert!(
        rows.iter().all(|row| row.get::<_, bool>(0)),
        "every connection of the server is encrypted"
    );
    ann.close().await;
    server.stop();

    // Without the authority the certificate does not verify: refused, and the server says so.
    let refused = Command::new(parlor_bin())
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(dir.path().join("data2"))
        .args(["--store", &format!("{url}?sslmode=require")])
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .output()
        .expect("running parlor serve");
    let said = String::from_utf8_lossy(&refused.stderr).to_string()
        + &String::from_utf8_lossy(&refused.stdout);
    assert!(!refused.status.success(), "it must not start: {said}");
    assert!(
        said.contains("TLS") || said.contains("certificate"),
        "{said}"
    );
}
