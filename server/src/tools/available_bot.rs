//! A registered bot in "available" mode: it announces itself with its token, then takes up
//! every invitation (from a host or the ladder) it has room for, playing each table on a
//! connection of its own, concurrently, with a built-in strategy or a line-protocol program.
//!
//! It is what a bot author leaves running overnight on the ladder. The `available`
//! connection is re-established after a drop (backing off); a refused token ends it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use anyhow::{Context, bail};
use futures_util::{SinkExt, StreamExt};
use parlor_shared::Variant;
use parlor_shared::protocol::{ClientMsg, ServerMsg, codes};
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

use crate::tools::remote_bot::{self, Invited, MoveSource, Target, ws_url};

/// How a registered bot offers itself.
#[derive(Clone, Debug)]
pub struct Availability {
    /// The server, `ws://host:port`.
    pub url: String,
    /// The bot's token.
    pub token: String,
    /// The variants it plays (none: all).
    pub variants: Vec<Variant>,
    /// Tables at once.
    pub max_tables: u32,
    /// How many times in a row the `available` connection may fail before giving up.
    pub max_reconnects: u32,
}

/// What the bot has done, for its log line.
#[derive(Debug, Default)]
struct Tally {
    /// Tables being played now.
    playing: AtomicU32,
    /// Matches played to the end.
    finished: AtomicU64,
    /// Matches won.
    won: AtomicU64,
}

/// Serves invitations until the server refuses the token, or the connection cannot be made
/// again `max_reconnects` times in a row.
pub async fn serve(offer: &Availability, spec: MoveSource) -> anyhow::Result<()> {
    let tally = Arc::new(Tally::default());
    let mut failures = 0;
    loop {
        match connection(offer, &spec, &tally).await {
            Ok(()) => failures = 0,
            Err(err) if err.downcast_ref::<Refused>().is_some() => return Err(err),
            Err(err) => {
                failures += 1;
                if failures > offer.max_reconnects {
                    return Err(err.context("the server stayed out of reach"));
                }
                tracing::warn!(%err, failures, "the available connection failed; retrying");
            }
        }
        tokio::time::sleep(Duration::from_millis(
            500 * u64::from(failures.clamp(1, 20)),
        ))
        .await;
    }
}

/// The server refused the bot (bad or revoked token, bad availability): no point retrying.
#[derive(Debug, thiserror::Error)]
#[error("the server refused the bot: {0}")]
struct Refused(String);

/// One `available` connection, until it drops (`Ok`) or is refused.
async fn connection(
    offer: &Availability,
    spec: &MoveSource,
    tally: &Arc<Tally>,
) -> anyhow::Result<()> {
    let url = ws_url(&offer.url);
    let (ws, _) = connect_async(&url)
        .await
        .with_context(|| format!("connecting to {url}"))?;
    let (mut sink, mut stream) = ws.split();
    let hello = ClientMsg::Available {
        token: offer.token.clone(),
        variants: offer.variants.clone(),
        max_tables: offer.max_tables,
    };
    sink.send(Message::text(serde_json::to_string(&hello)?))
        .await?;
    // Each table's seed differs, so a randomised strategy does not repeat itself.
    let mut tables: u64 = 0;
    // The bot's registered name, as the server gives it (shown at its tables).
    let mut me = String::from("bot");
    while let Some(frame) = stream.next().await {
        let text = match frame? {
            Message::Text(t) => t,
            Message::Close(_) => return Ok(()),
            _ => continue,
        };
        let Ok(msg) = serde_json::from_str::<ServerMsg>(&text) else {
            continue;
        };
        match msg {
            ServerMsg::Available {
                name, max_tables, ..
            } => {
                tracing::info!(%name, max_tables, "online: waiting for invitations");
                me = name;
            }
            ServerMsg::Error { code, message } => {
                if [
                    codes::BAD_BOT_TOKEN,
                    codes::BAD_AVAILABILITY,
                    codes::NO_STORE,
                ]
                .contains(&code.as_str())
                {
                    bail!(Refused(format!("{code}: {message}")));
                }
                tracing::warn!(%code, %message, "the server said no");
            }
            ServerMsg::Invitation {
                invitation,
                table,
                seat,
                variant,
                ..
            } => {
                if tally.playing.load(Ordering::Relaxed) >= offer.max_tables {
                    let no = ClientMsg::Decline { invitation };
                    sink.send(Message::text(serde_json::to_string(&no)?))
                        .await?;
                    continue;
                }
                tables += 1;
                let spec = match spec {
                    MoveSource::Strategy(name, seed) => {
                        MoveSource::Strategy(name.clone(), seed.wrapping_add(tables))
                    }
                    exec @ MoveSource::Exec(..) => exec.clone(),
                };
                let target = Target {
                    url: offer.url.clone(),
                    table,
                    seat: Some(seat),
                    name: me.clone(),
                    invitation: Some(Invited {
                        id: invitation,
                        token: offer.token.clone(),
                    }),
                };
                tracing::info!(table = %target.table, %seat, %variant, "invited: taking the seat");
                tally.playing.fetch_add(1, Ordering::Relaxed);
                let tally = Arc::clone(tally);
                tokio::spawn(async move {
                    match remote_bot::play(&target, spec, 20).await {
                        Ok(outcome) => {
                            let won = outcome.winners.contains(&outcome.seat);
                            let finished = tally.finished.fetch_add(1, Ordering::Relaxed) + 1;
                            let wins = tally.won.fetch_add(u64::from(won), Ordering::Relaxed)
                                + u64::from(won);
                            tracing::info!(table = %target.table, won, finished, wins, "match over");
                        }
                        Err(err) => {
                            tracing::warn!(table = %target.table, %err, "a table ended early");
                        }
                    }
                    tally.playing.fetch_sub(1, Ordering::Relaxed);
                });
            }
            ServerMsg::Goodbye { reason } => {
                tracing::warn!(%reason, "the server said goodbye");
                return Ok(());
            }
            _ => {}
        }
    }
    Ok(())
}
