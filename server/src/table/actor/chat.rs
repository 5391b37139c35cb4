//! Table talk: chat lines and quick reactions, checked, rate-limited (per seat, and per address
//! for spectators, so reconnecting buys no more lines), sent to everyone at the table and kept
//! (the last [`KEPT`] lines, in the table's log too, so they outlast a restart) for those who
//! join later.
//!
//! An `impl TableActor` block plus the small [`ChatLog`] it keeps. It never touches the game
//! or the seats: chat is not part of the match and bots never see it.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use parlor_shared::Seat;
use parlor_shared::protocol::{MAX_CHAT_CHARS, ServerMsg};
use tokio::time::Instant;

use crate::conn::{Conn, ConnId, Frame, frame};
use crate::store::ChatRow;
use crate::table::TableError;
use crate::table::names::hidden;

use super::{Changes, Role, TableActor};

/// How many recent lines a table keeps for newcomers.
pub(super) const KEPT: usize = 50;
/// How many lines one [`Speaker`] may send per [`WINDOW`].
pub(super) const BURST: usize = 5;
/// The rate limit's window.
pub(super) const WINDOW: Duration = Duration::from_secs(10);

/// Whose lines share one rate limit. Not the connection: a new one is a reconnect away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Speaker {
    /// Whoever holds the seat, on any connection.
    Seat(Seat),
    /// Every spectator watching from this address.
    Address(IpAddr),
    /// A spectator whose address is unknown (a connection served without one, as in tests).
    Conn(ConnId),
}

/// The table's recent lines and when each speaker last spoke.
#[derive(Debug, Default)]
pub(super) struct ChatLog {
    /// The last lines said, oldest first.
    recent: VecDeque<ServerMsg>,
    /// How many lines were ever said at the table (the number of the last one).
    said_ever: u64,
    /// For each speaker, when it sent its lines within the window.
    said: HashMap<Speaker, VecDeque<Instant>>,
}

impl ChatLog {
    /// Counts a line from `speaker` at `now`, or refuses it when it spoke too often.
    fn admit(&mut self, speaker: Speaker, now: Instant) -> Result<(), TableError> {
        self.said.retain(|_, times| {
            times.retain(|at| now.duration_since(*at) < WINDOW);
            !times.is_empty()
        });
        let times = self.said.entry(speaker).or_default();
        if times.len() >= BURST {
            return Err(TableError::ChatTooFast);
        }
        times.push_back(now);
        Ok(())
    }

    /// A line `text` from `speaker` (at `seat`, or a spectator) under `name`, checked, counted
    /// and kept: the row the table's log stores and the frame everyone is sent.
    fn say(
        &mut self,
        speaker: Speaker,
        seat: Option<Seat>,
        name: String,
        text: &str,
        now: Instant,
    ) -> Result<(ChatRow, Frame), TableError> {
        let text = clean(text)?;
        self.admit(speaker, now)?;
        let at = now_ms();
        self.said_ever += 1;
        let row = ChatRow {
            n: self.said_ever,
            seat: seat.map(|s| s.0),
            name: name.clone(),
            text: text.clone(),
            at: i64::try_from(at).unwrap_or(i64::MAX),
        };
        let msg = ServerMsg::Chat {
            seat,
            name,
            text,
            at,
        };
        let line = frame(&msg);
        self.keep(msg);
        Ok((row, line))
    }

    /// The lines kept in the table's log, as a restarted table finds them.
    pub(super) fn restore(&mut self, rows: Vec<ChatRow>) {
        self.said_ever = rows.last().map_or(0, |row| row.n);
        for row in rows {
            self.keep(ServerMsg::Chat {
                seat: row.seat.map(Seat),
                name: row.name,
                text: row.text,
                at: u64::try_from(row.at).unwrap_or(0),
            });
        }
    }

    /// Keeps a line, forgetting the oldest beyond [`KEPT`].
    fn keep(&mut self, msg: ServerMsg) {
        if self.recent.len() == KEPT {
            self.recent.pop_front();
        }
        self.recent.push_back(msg);
    }
}

/// A line as said: control characters (newlines too) and the other [`hidden`] ones removed,
/// trimmed.
/// A line with nothing else is refused as empty.
fn clean(text: &str) -> Result<String, TableError> {
    let text: String = text.chars().filter(|&c| !hidden(c)).collect();
    let text = text.trim();
    let chars = text.chars().count();
    if chars == 0 || chars > MAX_CHAT_CHARS {
        return Err(TableError::ChatTooLong(MAX_CHAT_CHARS));
    }
    Ok(text.to_string())
}

/// Milliseconds since the Unix epoch.
fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

impl TableActor {
    /// `chat`: checks the line and its sender, then sends it to everyone at the table.
    pub(super) fn handle_chat(
        &mut self,
        conn: ConnId,
        role: Role,
        text: &str,
    ) -> Result<Changes, TableError> {
        let (seat, speaker) = match role {
            Role::Seat(seat) => (Some(seat), Speaker::Seat(seat)),
            Role::Spectator if self.spec.table_options.spectator_chat => {
                let address = self.seating.conn_of(conn).and_then(Conn::client);
                (None, address.map_or(Speaker::Conn(conn), Speaker::Address))
            }
            Role::Spectator => return Err(TableError::SpectatorChat),
        };
        let name = match seat {
            Some(seat) => self
                .seating
                .name(seat)
                .map_or_else(|| format!("Seat {}", seat.index() + 1), str::to_string),
            None => "Spectator".to_string(),
        };
        let (row, line) = self.chat.say(speaker, seat, name, text, Instant::now())?;
        self.outbox.record_chat(row, KEPT);
        let mut changes = Changes::default();
        for conn in self.seating.connected() {
            if !self.outbox.queue(conn, line.clone()) {
                changes.dropped.push(conn.id);
            }
        }
        Ok(changes)
    }

    /// The recent lines, for a connection that just joined or came back.
    pub(super) fn send_recent_chat(&mut self, conn: &Conn) -> Changes {
        for msg in &self.chat.recent {
            if !self.outbox.queue_msg(conn, msg) {
                return Changes::dropping(vec![conn.id]);
            }
        }
        Changes::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_trimmed_and_limited() {
        assert_eq!(clean("  hi\u{7}  ").unwrap(), "hi");
        assert_eq!(clean("<b>x</b>").unwrap(), "<b>x</b>");
        assert!(clean("   ").is_err());
        assert!(clean(&"é".repeat(MAX_CHAT_CHARS)).is_ok());
        assert!(clean(&"é".repeat(MAX_CHAT_CHARS + 1)).is_err());
    }

    #[test]
    fn hidden_characters_are_removed_and_a_line_of_only_them_is_empty() {
        let bidi =
            "a\u{202E}b\u{202A}c\u{202B}d\u{202C}e\u{202D}f\u{2066}g\u{2067}h\u{2068}i\u{2069}j";
        assert_eq!(clean(bidi).unwrap(), "abcdefghij");
        assert_eq!(clean("\u{200E}x\u{200F}y\u{061C}").unwrap(), "xy");
        assert_eq!(
            clean("h\u{200B}e\u{200C}l\u{200D}l\u{2060}o\u{FEFF}\u{00AD}").unwrap(),
            "hello"
        );
        assert_eq!(clean("two\nlines\r\u{85}").unwrap(), "twolines");
        assert_eq!(
            clean("\u{202E}\u{200B} \u{FEFF}\u{2066}"),
            Err(TableError::ChatTooLong(MAX_CHAT_CHARS))
        );
        // What people write is kept: accents, scripts, emoji with their presentation.
        assert_eq!(
            clean("café שלום ❤\u{FE0F} 👍🏽").unwrap(),
            "café שלום ❤\u{FE0F} 👍🏽"
        );
        // Hidden characters do not count towards the length.
        let padded = format!("{}\u{200B}", "x".repeat(MAX_CHAT_CHARS));
        assert_eq!(clean(&padded).unwrap().chars().count(), MAX_CHAT_CHARS);
    }

    #[test]
    fn a_burst_is_allowed_then_refused_until_the_window_passes() {
        let mut log = ChatLog::default();
        let start = Instant::now();
        let seat = Speaker::Seat(Seat(1));
        for _ in 0..BURST {
            log.admit(seat, start).unwrap();
        }
        assert_eq!(log.admit(seat, start), Err(TableError::ChatTooFast));
        log.admit(Speaker::Seat(Seat(2)), start).unwrap();
        log.admit(seat, start + WINDOW).unwrap();
    }

    #[test]
    fn spectators_from_one_address_share_a_burst() {
        let mut log = ChatLog::default();
        let start = Instant::now();
        let here = Speaker::Address(IpAddr::from([192, 0, 2, 1]));
        for _ in 0..BURST {
            log.admit(here, start).unwrap();
        }
        assert_eq!(log.admit(here, start), Err(TableError::ChatTooFast));
        log.admit(Speaker::Address(IpAddr::from([192, 0, 2, 2])), start)
            .unwrap();
    }

    #[test]
    fn only_the_last_lines_are_kept() {
        let mut log = ChatLog::default();
        for i in 0..KEPT + 3 {
            log.keep(ServerMsg::Pong {});
            assert_eq!(log.recent.len(), (i + 1).min(KEPT));
        }
    }
}
