//! The embedded web client over HTTP: compressed when asked, revalidated with an ETag, and
//! every response with the security headers (a strict Content-Security-Policy, `nosniff`).

use std::net::SocketAddr;

use parlor_tests::TestServer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One GET with extra header lines; returns the status, the head and the body.
async fn get(addr: SocketAddr, path: &str, headers: &str) -> (u16, String, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{headers}Connection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.expect("read");
    let split = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a response head");
    let head = String::from_utf8_lossy(&response[..split]).into_owned();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    let mut body = response[split + 4..].to_vec();
    if header(&head, "transfer-encoding") == Some("chunked") {
        body = dechunk(&body);
    }
    (status, head, body)
}

/// The bytes of a chunked body.
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line_end = raw
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("a chunk size");
        let size = usize::from_str_radix(std::str::from_utf8(&raw[..line_end]).unwrap(), 16)
            .expect("a hex chunk size");
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&raw[line_end + 2..line_end + 2 + size]);
        raw = &raw[line_end + 4 + size..];
    }
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|l| {
        let (key, value) = l.split_once(':')?;
        key.eq_ignore_ascii_case(name).then(|| value.trim())
    })
}

#[tokio::test]
async fn files_are_compressed_revalidated_and_carry_security_headers() {
    let server = TestServer::start().await;
    let (status, head, plain) = get(server.addr, "/app.js", "").await;
    assert_eq!(status, 200);
    assert_eq!(
        header(&head, "content-type"),
        Some("text/javascript; charset=utf-8")
    );
    assert_eq!(header(&head, "content-encoding"), None);
    let etag = header(&head, "etag").expect("an etag").to_string();

    let (status, head, gzipped) = get(server.addr, "/app.js", "Accept-Encoding: gzip\r\n").await;
    assert_eq!(status, 200);
    assert_eq!(header(&head, "content-encoding"), Some("gzip"), "{head}");
    assert!(gzipped.len() < plain.len() && gzipped.starts_with(&[0x1f, 0x8b]));
    let (_, head, _) = get(server.addr, "/style.css", "Accept-Encoding: br\r\n").await;
    assert_eq!(header(&head, "content-encoding"), Some("br"), "{head}");

    let (status, _, body) = get(
        server.addr,
        "/app.js",
        &format!("If-None-Match: {etag}\r\n"),
    )
    .await;
    assert_eq!(status, 304);
    assert!(body.is_empty());

    for path in ["/", "/t/abc", "/app.js", "/api/tables", "/nope"] {
        let (_, head, _) = get(server.addr, path, "").await;
        assert_eq!(
            header(&head, "x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        let csp = header(&head, "content-security-policy").expect("a policy");
        assert!(csp.contains("default-src 'self'") && csp.contains("script-src 'self'"));
        assert!(!csp.contains("unsafe"), "{csp}");
    }

    // The page at an invite link resolves its relative paths one level up.
    let (_, _, page) = get(server.addr, "/t/abc", "").await;
    assert!(String::from_utf8_lossy(&page).contains(r#"<base href="../">"#));
    server.stop().await;
}
