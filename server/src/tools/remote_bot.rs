//! A remote bot: joins a table over the WebSocket protocol exactly as any outside program
//! would, plays a built-in strategy (or a line-protocol program through the `exec` adapter)
//! until the match ends, and reconnects with its seat token when the connection drops.
//!
//! It keeps no game state of its own: each `your_turn` carries the seat's view, and it
//! decides from that, answering each prompt once (by its `seq`): one round trip per move.

use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use parlor_shared::arena::Player;
use parlor_shared::bots::{Strategy, strategy};
use parlor_shared::protocol::{ClientMsg, ServerMsg, codes};
use parlor_shared::{Action, Event, Legal, PlayerView, Seat, Variant};

use crate::tools::adapters::exec::ExecBot;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

/// Where the moves come from, given before the seat and the variant are known.
#[derive(Clone, Debug)]
pub enum MoveSource {
    /// A built-in strategy by name, with its seed.
    Strategy(String, u64),
    /// A line-protocol program (`CMD` split on whitespace) with a per-move budget.
    Exec(Vec<String>, Duration),
}

impl MoveSource {
    /// What makes the moves for `seat` at a table of `variant` with `players` seats.
    pub fn build(&self, variant: Variant, players: u8, seat: Seat) -> anyhow::Result<Mover> {
        Ok(match self {
            MoveSource::Strategy(name, seed) => Mover::Strategy(
                strategy(name, variant, *seed)
                    .with_context(|| format!("no strategy {name:?} for {variant}"))?,
            ),
            MoveSource::Exec(argv, budget) => Mover::Program(Box::new(
                ExecBot::new(argv.clone(), variant, players, seat, *budget)
                    .with_context(|| format!("starting {:?}", argv.join(" ")))?,
            )),
        })
    }
}

/// What makes the moves once seated: a built-in strategy or an outside program.
pub enum Mover {
    /// A built-in strategy.
    Strategy(Box<dyn Strategy>),
    /// An outside player (it also hears every event of its seat).
    Program(Box<dyn Player>),
}

impl Mover {
    fn act(&mut self, view: &PlayerView) -> Action {
        match self {
            Mover::Strategy(s) => s.choose(view),
            Mover::Program(p) => p.act(view),
        }
    }

    fn observe(&mut self, event: &Event) {
        if let Mover::Program(p) = self {
            p.observe(std::slice::from_ref(event));
        }
    }
}

/// Where to play.
#[derive(Clone, Debug)]
pub struct Target {
    /// The server, `ws://host:port` (the `/ws` path is added when missing).
    pub url: String,
    /// The table's id.
    pub table: String,
    /// The seat wanted (`None`: the first free one).
    pub seat: Option<Seat>,
    /// The name shown at the table.
    pub name: String,
    /// The invitation this registered bot took up: the first connection `accept`s it
    /// instead of joining (and later ones rejoin with the seat token, as usual).
    pub invitation: Option<Invited>,
}

/// An invitation a registered bot takes up.
#[derive(Clone, Debug)]
pub struct Invited {
    /// The invitation's id, from `invitation`.
    pub id: String,
    /// The bot's token: only the bot invited may accept.
    pub token: String,
}

/// How a session ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The seat played.
    pub seat: Seat,
    /// The match's winners.
    pub winners: Vec<Seat>,
    /// Moves sent.
    pub moves: u64,
    /// Times the connection was re-established with the token.
    pub reconnects: u32,
}

/// Why one connection ended.
enum Ended {
    /// The match is over.
    MatchOver(Vec<Seat>),
    /// The connection was lost (or the server said goodbye): reconnect.
    Lost(anyhow::Error),
}

/// Session state that survives reconnections.
struct Session {
    token: Option<String>,
    seat: Option<Seat>,
    moves: u64,
    spec: MoveSource,
    mover: Option<Mover>,
}

impl Session {
    /// The mover, built on first use (the seat and variant are known by then).
    fn mover(&mut self, variant: Variant, players: u8) -> anyhow::Result<&mut Mover> {
        if self.mover.is_none() {
            let seat = self.seat.context("a move asked before a seat was given")?;
            self.mover = Some(self.spec.build(variant, players, seat)?);
        }
        Ok(self.mover.as_mut().expect("just built"))
    }
}

/// The WebSocket URL for `url`, with `/ws` added when it has no path.
#[must_use]
pub fn ws_url(url: &str) -> String {
    let rest = url
        .split_once("://")
        .map_or(url, |(_, rest)| rest)
        .to_string();
    if rest.contains('/') && !rest.ends_with('/') {
        url.to_string()
    } else {
        format!("{}/ws", url.trim_end_matches('/'))
    }
}

/// Plays at `target` until the match ends; retries a lost connection with the seat token
/// (up to `max_reconnects` times, backing off).
pub async fn play(
    target: &Target,
    spec: MoveSource,
    max_reconnects: u32,
) -> anyhow::Result<Outcome> {
    let url = ws_url(&target.url);
    let mut session = Session {
        token: None,
        seat: target.seat,
        moves: 0,
        spec,
        mover: None,
    };
    let mut reconnects = 0;
    loop {
        match connection(&url, target, &mut session).await {
            Ok(Ended::MatchOver(winners)) => {
                return Ok(Outcome {
                    seat: session.seat.context("never seated")?,
                    winners,
                    moves: session.moves,
                    reconnects,
                });
            }
            Ok(Ended::Lost(err)) | Err(err) => {
                if session.token.is_none() || reconnects >= max_reconnects {
                    return Err(err.context("connection lost"));
                }
                reconnects += 1;
                tracing::warn!(%err, reconnects, "connection lost; reconnecting with the seat token");
                tokio::time::sleep(Duration::from_millis(200 * u64::from(reconnects.min(10))))
                    .await;
            }
        }
    }
}

/// One connection: join (or rejoin with the token), then answer turns until the match ends.
async fn connection(url: &str, target: &Target, session: &mut Session) -> anyhow::Result<Ended> {
    let (ws, _) = connect_async(url)
        .await
        .with_context(|| format!("connecting to {url}"))?;
    let (mut sink, mut stream) = ws.split();
    let join = match (&target.invitation, &session.token) {
        (Some(invited), None) => ClientMsg::Accept {
            invitation: invited.id.clone(),
            token: invited.token.clone(),
        },
        _ => ClientMsg::Join {
            table: target.table.clone(),
            seat: session.seat,
            name: Some(target.name.clone()),
            token: session.token.clone(),
            bot: true,
        },
    };
    sink.send(Message::text(serde_json::to_string(&join)?))
        .await?;
    // The seq of the last prompt answered: each prompt is answered once.
    let mut answered: Option<u64> = None;
    while let Some(frame) = stream.next().await {
        let text = match frame {
            Ok(Message::Text(t)) => t,
            Ok(Message::Close(_)) => return Ok(Ended::Lost(anyhow!("closed by the server"))),
            Ok(_) => continue,
            Err(e) => return Ok(Ended::Lost(e.into())),
        };
        let msg: ServerMsg = match serde_json::from_str(&text) {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!(%e, "unreadable server message");
                continue;
            }
        };
        let mut reply: Option<ClientMsg> = None;
        match msg {
            ServerMsg::Welcome { seat, token, .. } => {
                if seat.is_none() {
                    bail!("the server seated us as a spectator");
                }
                session.seat = seat;
                if token.is_some() {
                    session.token = token;
                }
            }
            // A snapshot: the prompt that follows it carries its own view.
            ServerMsg::State { .. } => {}
            // The prompt carries the view to decide from: one round trip per move.
            ServerMsg::YourTurn { seq, view, .. } => {
                if answered != Some(seq) && !matches!(view.legal, Legal::Wait) {
                    reply = Some(move_message(
                        session.mover(view.variant, view.players)?.act(&view),
                        Some(seq),
                    ));
                    answered = Some(seq);
                }
            }
            ServerMsg::Event { event, .. } => {
                if let Some(mover) = &mut session.mover {
                    mover.observe(&event);
                }
                if let Event::MatchOver { winners, .. } = event {
                    let _ = sink.send(Message::Close(None)).await;
                    return Ok(Ended::MatchOver(winners.to_vec()));
                }
            }
            ServerMsg::Error { code, message } => {
                tracing::warn!(%code, %message, "refused");
                let fatal = [
                    codes::NO_SUCH_TABLE,
                    codes::SEAT_TAKEN,
                    codes::TABLE_FULL,
                    codes::NO_SUCH_SEAT,
                    codes::BAD_TOKEN,
                    // The seat is played elsewhere now, or was emptied: coming back would
                    // fight over it.
                    codes::REPLACED,
                    codes::KICKED,
                    codes::SEAT_CLOSED,
                    codes::BAD_NAME,
                    // The invitation lapsed or was cancelled before it was taken up.
                    codes::NO_SUCH_INVITATION,
                ];
                if fatal.contains(&code.as_str()) {
                    bail!("{code}: {message}");
                }
                // A refused move is prompted again (the same seq, answered afresh); an
                // answer to no current prompt is not, and the current prompt comes or came
                // with its own seq.
                answered = None;
            }
            ServerMsg::Goodbye { reason } => {
                return Ok(Ended::Lost(anyhow!("server said goodbye: {reason}")));
            }
            ServerMsg::Table { table, .. } => {
                if session.mover.is_none() && session.seat.is_some() {
                    // Built early so an outside program hears the whole match.
                    session.mover(table.variant, table.seats.len() as u8)?;
                }
            }
            // Table talk is for people, and a bot never asks for hints; invitations go to
            // bots that announced themselves `available`, which this one does not.
            ServerMsg::Pong {}
            | ServerMsg::Chat { .. }
            | ServerMsg::Hint { .. }
            | ServerMsg::Storage { .. }
            | ServerMsg::Hosting {}
            | ServerMsg::Available { .. }
            | ServerMsg::Invitation { .. }
            | ServerMsg::InviteStatus { .. } => {}
        }
        if let Some(msg) = reply {
            if matches!(msg, ClientMsg::Play { .. } | ClientMsg::Pass { .. }) {
                session.moves += 1;
            }
            if let Err(e) = sink.send(Message::text(serde_json::to_string(&msg)?)).await {
                return Ok(Ended::Lost(e.into()));
            }
        }
    }
    Ok(Ended::Lost(anyhow!("the connection ended")))
}

/// The protocol message for an action, answering the prompt of `seq` when given (so a late
/// answer is refused rather than taken for the next turn).
#[must_use]
pub fn move_message(action: Action, seq: Option<u64>) -> ClientMsg {
    ClientMsg::for_action(action, seq)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ws_path_is_added_only_when_missing() {
        assert_eq!(ws_url("ws://127.0.0.1:8080"), "ws://127.0.0.1:8080/ws");
        assert_eq!(ws_url("ws://127.0.0.1:8080/"), "ws://127.0.0.1:8080/ws");
        assert_eq!(ws_url("ws://h:1/ws"), "ws://h:1/ws");
        assert_eq!(ws_url("wss://h/custom/ws"), "wss://h/custom/ws");
    }
}
