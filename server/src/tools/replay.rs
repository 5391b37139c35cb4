//! `parlor replay FILE_OR_URL`: prints a finished hand (the JSON of
//! `GET /api/tables/{id}/hands/{n}`, from a file, `-` for standard input, or an `http://` URL)
//! in the compact card notation.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Args;

use crate::store::hands::HandReplay;

/// Options of `parlor replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A replay file, `-` for standard input, or the hand's URL
    /// (`http://HOST:PORT/api/tables/ID/hands/N`).
    pub source: String,
}

/// Reads the hand and prints it.
pub fn run(args: &ReplayArgs) -> anyhow::Result<()> {
    let text = if args.source.starts_with("http://") {
        fetch(&args.source)?
    } else if args.source.starts_with("https://") {
        bail!("https is not supported here: download the hand (e.g. with curl) and pass the file")
    } else if args.source == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading standard input")?;
        text
    } else {
        std::fs::read_to_string(&args.source).with_context(|| format!("reading {}", args.source))?
    };
    let hand: HandReplay = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a Parlor hand replay", args.source))?;
    print!("{}", hand.to_text());
    Ok(())
}

/// A plain HTTP/1.1 GET; returns the body of a 200 answer, or an error with the server's
/// message.
fn fetch(url: &str) -> anyhow::Result<String> {
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (host, path) = rest
        .split_once('/')
        .map_or((rest, "/".to_string()), |(h, p)| (h, format!("/{p}")));
    let addr = if host.contains(':') {
        host.to_string()
    } else {
        format!("{host}:80")
    };
    let mut stream = TcpStream::connect(&addr).with_context(|| format!("connecting to {addr}"))?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: application/json\r\nConnection: close\r\n\r\n"
    )?;
    let mut response = Vec::new();
    stream
        .read_to_end(&mut response)
        .with_context(|| format!("reading the answer from {addr}"))?;
    let response = String::from_utf8(response).context("the answer is not UTF-8")?;
    let (head, body) = response
        .split_once("\r\n\r\n")
        .context("the answer is not HTTP")?;
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .context("the answer has no status")?;
    let chunked = head
        .lines()
        .any(|l| l.to_ascii_lowercase().replace(' ', "") == "transfer-encoding:chunked");
    let body = if chunked {
        dechunk(body)?
    } else {
        body.to_string()
    };
    if status != 200 {
        let message = serde_json::from_str::<serde_json::Value>(&body)
            .ok()
            .and_then(|v| v["message"].as_str().map(str::to_string))
            .unwrap_or(body);
        bail!("{url}: HTTP {status}: {message}");
    }
    Ok(body)
}

/// Joins the chunks of a chunked body.
fn dechunk(mut body: &str) -> anyhow::Result<String> {
    let mut out = String::new();
    loop {
        let (size, rest) = body.split_once("\r\n").context("a bad chunk")?;
        let size = usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16)
            .context("a bad chunk size")?;
        if size == 0 {
            return Ok(out);
        }
        out.push_str(rest.get(..size).context("a short chunk")?);
        body = rest.get(size + 2..).context("a short chunk")?;
    }
}
