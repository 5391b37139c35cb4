//! `parlor replay FILE_OR_URL`: prints a finished hand (the JSON of
//! `GET /api/tables/{id}/hands/{n}`, from a file, `-` for standard input, or an `http://` or
//! `https://` URL) in the compact card notation, or with `--pbn` a Bridge board as PBN.

use std::io::Read;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Args;

use crate::store::hands::HandReplay;

/// Options of `parlor replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A replay file, `-` for standard input, or the hand's URL
    /// (`https://HOST/api/tables/ID/hands/N`, or `http://`).
    pub source: String,
    /// Print a Bridge board in Portable Bridge Notation instead.
    #[arg(long)]
    pub pbn: bool,
}

/// Reads the hand and prints it.
pub fn run(args: &ReplayArgs) -> anyhow::Result<()> {
    let hand = read_hand(&args.source)?;
    if args.pbn {
        let Some(text) = hand.to_pbn() else {
            bail!(
                "hand {} is a {} hand: PBN is for Bridge boards only",
                hand.number,
                hand.variant
            );
        };
        print!("{text}");
    } else {
        print!("{}", hand.to_text());
    }
    Ok(())
}

/// A finished hand from a file, `-` (standard input) or an `http(s)://` URL.
pub fn read_hand(source: &str) -> anyhow::Result<HandReplay> {
    let text = if source.starts_with("http://") || source.starts_with("https://") {
        fetch(source)?
    } else if source == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading standard input")?;
        text
    } else {
        std::fs::read_to_string(source).with_context(|| format!("reading {source}"))?
    };
    serde_json::from_str(&text).with_context(|| format!("{source} is not a Parlor hand replay"))
}

/// A GET over HTTP or HTTPS (`ureq`, with rustls and the Mozilla roots); returns the body of
/// a 200 answer, or an error with the server's message.
fn fetch(url: &str) -> anyhow::Result<String> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(30)))
        .http_status_as_error(false)
        .build()
        .into();
    let mut response = agent
        .get(url)
        .header("Accept", "application/json")
        .call()
        .with_context(|| format!("fetching {url}"))?;
    let status = response.status().as_u16();
    let body = response
        .body_mut()
        .read_to_string()
        .with_context(|| format!("reading the answer from {url}"))?;
    if status != 200 {
        let message = serde_json::from_str::<serde_json::Value>(&body)
            .ok()
            .and_then(|v| v["message"].as_str().map(str::to_string))
            .unwrap_or(body);
        bail!("{url}: HTTP {status}: {message}");
    }
    Ok(body)
}
