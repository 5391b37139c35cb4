//! The rows of the database as plain values: what the writer stores and what loading returns.
//!
//! JSON columns stay strings here; turning them into engine types (and refusing what does not
//! parse or replay) is [`super::restore`]'s job, so a bad row is reported with its table.
//!
//! Plain data: no I/O, and nothing of the server above the store.

use std::sync::Arc;

use parlor_shared::Seat;
use parlor_shared::fair::Hash32;
use parlor_shared::protocol::Occupant;

/// One table's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRow {
    /// The table's id.
    pub id: String,
    /// The variant's name.
    pub variant: String,
    /// Rule options as JSON.
    pub options: String,
    /// Table options as JSON.
    pub table_options: String,
    /// The seed the table was created with, if any (later matches count up from it).
    pub seed: Option<u64>,
    /// When it was created, Unix milliseconds.
    pub created: i64,
    /// `waiting`, `playing`, `finished` or [`CLOSED`].
    pub status: String,
    /// The host's seat (255: the host key's holder, without a seat).
    pub host: Option<u8>,
    /// The SHA-256 (hex) of the table's host key, if it has one.
    pub host_key: Option<String>,
}

/// The status of a table that has closed for good: it is not brought back on start.
pub const CLOSED: &str = "closed";

/// One match played (or being played) at a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchRow {
    /// The match's number at its table, from 1.
    pub match_no: u32,
    /// Its seed (matches stored before fair deals: they shuffle from it; 0 otherwise).
    pub seed: u64,
    /// Its master secret: every hand is dealt from it by the fair recipe
    /// (`parlor_shared::fair`). `None` for matches stored before fair deals.
    pub secret: Option<Hash32>,
    /// The table's event counter after the match's opening deal was sent.
    pub seq: u64,
}

/// One seat of a table, as last saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRow {
    /// Which seat.
    pub seat: u8,
    /// Who holds it.
    pub occupant: Occupant,
    /// The name shown.
    pub name: Option<String>,
    /// The SHA-256 digest (hex) of the seat token ([`crate::store::secret`]); the token itself
    /// is never stored.
    pub token: Option<String>,
    /// A built-in bot's strategy name, as `add_bot` gave it.
    pub strategy: Option<String>,
    /// True while the server plays for the seat (an absent player's stand-in).
    pub bot_playing: bool,
    /// The registered bot account playing the seat, if one took it by invitation.
    pub account: Option<String>,
}

impl SeatRow {
    /// The seat as an engine value.
    #[must_use]
    pub fn seat(&self) -> Seat {
        Seat(self.seat)
    }
}

/// One accepted action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionRow {
    /// The match it belongs to, from 1.
    pub match_no: u32,
    /// Its place in the match, from 0.
    pub idx: u32,
    /// Who acted.
    pub seat: u8,
    /// The action as JSON.
    pub action: String,
    /// The table's event counter after this action's events.
    pub seq: u64,
}

/// One line of table talk, as kept for those who join later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatRow {
    /// Its number at the table, from 1, counting every line ever said there.
    pub n: u64,
    /// The seat that said it; `None` for a spectator.
    pub seat: Option<u8>,
    /// The name shown with it.
    pub name: String,
    /// What was said.
    pub text: String,
    /// When, Unix milliseconds.
    pub at: i64,
}

/// A finished match's result, as the ratings read it back (in the order stored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultRow {
    /// The table.
    pub table: String,
    /// The match's number at the table.
    pub match_no: u32,
    /// The variant's name.
    pub variant: String,
    /// When the match ended, Unix milliseconds.
    pub at: i64,
    /// Every seat's entrant, team and place, as JSON (the ratings' own format).
    pub places: String,
    /// The table was listed in the lobby: only then may the public leaderboard name it.
    pub listed: bool,
}

/// Everything stored about one table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableLog {
    /// The table row.
    pub table: TableRow,
    /// Its matches, by number.
    pub matches: Vec<MatchRow>,
    /// Its seats, by number.
    pub seats: Vec<SeatRow>,
    /// Every action of every match, in order.
    pub actions: Vec<ActionRow>,
    /// The table talk kept, oldest first.
    pub chat: Vec<ChatRow>,
}

/// The occupant's name in the database.
#[must_use]
pub fn occupant_name(occupant: Occupant) -> &'static str {
    match occupant {
        Occupant::Empty => "empty",
        Occupant::Human => "human",
        Occupant::Bot => "bot",
        Occupant::RemoteBot => "remote_bot",
    }
}

/// The occupant with this database name.
#[must_use]
pub fn occupant_from(name: &str) -> Option<Occupant> {
    Some(match name {
        "empty" => Occupant::Empty,
        "human" => Occupant::Human,
        "bot" => Occupant::Bot,
        "remote_bot" => Occupant::RemoteBot,
        _ => return None,
    })
}

/// One change to a table's log: what a table appends to the store.
#[derive(Debug)]
pub enum Write {
    /// A new table.
    Table(TableRow),
    /// A match started.
    Match {
        /// The table.
        table: String,
        /// The match.
        row: MatchRow,
    },
    /// The table's seats, host and status as they are now.
    State {
        /// The table.
        table: String,
        /// `waiting`, `playing` or `finished`.
        status: &'static str,
        /// The host's seat.
        host: Option<u8>,
        /// Every seat.
        seats: Vec<SeatRow>,
    },
    /// An accepted action.
    Action {
        /// The table: shared with the table's actor, so a move's write allocates no copy of
        /// its id (freed on the writer's thread, every copy was an allocation crossing
        /// threads).
        table: Arc<str>,
        /// The action.
        row: ActionRow,
    },
    /// A line of table talk; only the last `keep` lines of the table stay stored.
    Chat {
        /// The table.
        table: String,
        /// The line.
        row: ChatRow,
        /// How many of the table's latest lines to keep.
        keep: u64,
    },
    /// A finished match's result, for the ratings.
    Result(ResultRow),
    /// The table closed for good.
    Closed {
        /// The table.
        table: String,
    },
    /// A log cut on restore: every action of match `match_no` from `from` on, and every
    /// later match, are deleted (they did not replay).
    Cut {
        /// The table.
        table: String,
        /// The last match kept.
        match_no: u32,
        /// Its first action deleted.
        from: u32,
    },
    /// The table is forgotten: every row of it deleted (a table nobody ever sat at, which
    /// has nothing worth keeping).
    Deleted {
        /// The table.
        table: String,
    },
}

impl Write {
    /// The table this change belongs to: every change names one, so a backend can check per
    /// table that it still may write (a cluster's fencing).
    #[must_use]
    pub fn table(&self) -> &str {
        match self {
            Write::Table(row) => &row.id,
            Write::Result(row) => &row.table,
            Write::Action { table, .. } => table,
            Write::Match { table, .. }
            | Write::State { table, .. }
            | Write::Chat { table, .. }
            | Write::Closed { table }
            | Write::Cut { table, .. }
            | Write::Deleted { table } => table,
        }
    }

    /// A short description for the log (never the seat tokens).
    #[must_use]
    pub fn what(&self) -> String {
        match self {
            Write::Table(row) => format!("table {} created", row.id),
            Write::Match { table, row } => format!("match {} of table {table}", row.match_no),
            Write::State { table, .. } => format!("seats of table {table}"),
            Write::Action { table, row } => {
                format!(
                    "action {} of match {} of table {table}",
                    row.idx, row.match_no
                )
            }
            Write::Chat { table, row, .. } => format!("chat line {} of table {table}", row.n),
            Write::Result(row) => {
                format!("result of match {} of table {}", row.match_no, row.table)
            }
            Write::Closed { table } => format!("table {table} closed"),
            Write::Cut {
                table,
                match_no,
                from,
            } => format!("table {table} cut after action {from} of match {match_no}"),
            Write::Deleted { table } => format!("table {table} deleted"),
        }
    }
}
