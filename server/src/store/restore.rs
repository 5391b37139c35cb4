//! Turning a stored table back into a live one: parse every row, then replay the current
//! match's actions through the engine. Anything that does not parse or replay (a variant,
//! option, strategy or action this version does not know, an action the rules refuse) is an
//! error naming the table, and the table is skipped.
//!
//! Pure: it reads rows and the engine; opening the rebuilt table is the lobby's job.

use parlor_shared::bots::strategy;
use parlor_shared::protocol::{Occupant, TableOptions, TableStatus};
use parlor_shared::rules::{OptionsError, Rules, first_dealer};
use parlor_shared::{Action, Game, Options, RuleError, Seat, Variant};
use thiserror::Error;

use super::records::{ActionRow, ChatRow, TableLog};

/// Why a stored table cannot be brought back.
#[derive(Debug, Error)]
pub enum RestoreError {
    /// The variant is not one this version knows.
    #[error("unknown variant `{0}` (written by a newer Parlor?)")]
    UnknownVariant(String),
    /// A JSON column does not parse.
    #[error("its {what} do not parse ({err}): written by a newer Parlor, or damaged")]
    BadJson {
        /// Which column.
        what: &'static str,
        /// The parse error.
        err: serde_json::Error,
    },
    /// The options are refused by the rules.
    #[error("its options are refused: {0}")]
    BadOptions(#[from] OptionsError),
    /// The table options are out of range.
    #[error("its table options are refused: {0}")]
    BadTableOptions(String),
    /// A seat row does not fit the table.
    #[error("seat {seat} is wrong: {why}")]
    BadSeat {
        /// Which seat.
        seat: u8,
        /// What is wrong.
        why: String,
    },
    /// The matches or actions are not numbered in order.
    #[error("its log has a gap: {0}")]
    Gap(String),
    /// An action does not parse.
    #[error("action {idx} of match {match_no} does not parse ({err}): written by a newer Parlor?")]
    BadAction {
        /// The match.
        match_no: u32,
        /// The action's place.
        idx: u32,
        /// The parse error.
        err: serde_json::Error,
    },
    /// An action is refused by the rules on replay.
    #[error("action {idx} of match {match_no} ({action}) does not replay: {err}")]
    IllegalAction {
        /// The match.
        match_no: u32,
        /// The action's place.
        idx: u32,
        /// The action as stored.
        action: String,
        /// The rule it breaks.
        err: RuleError,
    },
}

/// A seat as it was saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RestoredSeat {
    /// Who held it.
    pub occupant: Occupant,
    /// The name shown.
    pub name: Option<String>,
    /// The seat token that gives it back.
    pub token: Option<String>,
    /// A built-in bot's strategy name (checked to exist).
    pub strategy: Option<String>,
    /// True while the server played for the seat.
    pub bot_playing: bool,
    /// The registered bot account playing the seat, if any.
    pub account: Option<String>,
}

/// A table rebuilt from its log, ready for its actor.
#[derive(Debug, Clone)]
pub struct Restored {
    /// The table's id.
    pub id: String,
    /// The variant.
    pub variant: Variant,
    /// Every rule option.
    pub options: Options,
    /// Timers and pacing.
    pub table_options: TableOptions,
    /// The table's first seed, when it was created with one.
    pub seed: Option<u64>,
    /// The current (or last finished) match, replayed; `None` before the first start.
    pub game: Option<Game>,
    /// The current match's actions.
    pub log: Vec<(Seat, Action)>,
    /// Matches started (the current match's number).
    pub match_no: u32,
    /// Matches finished.
    pub matches_played: u32,
    /// Waiting, playing or finished.
    pub status: TableStatus,
    /// The table's event counter.
    pub seq: u64,
    /// The host's seat.
    pub host: Option<Seat>,
    /// Every seat, by number.
    pub seats: Vec<RestoredSeat>,
    /// The table talk kept, oldest first.
    pub chat: Vec<ChatRow>,
}

/// The variant, resolved options and table options of a stored table.
pub fn setup_of(log: &TableLog) -> Result<(Variant, Rules, TableOptions), RestoreError> {
    let variant: Variant = log
        .table
        .variant
        .parse()
        .map_err(|_| RestoreError::UnknownVariant(log.table.variant.clone()))?;
    let options: Options =
        serde_json::from_str(&log.table.options).map_err(|err| RestoreError::BadJson {
            what: "options",
            err,
        })?;
    let rules = Rules::new(variant, &options)?;
    let table_options: TableOptions =
        serde_json::from_str(&log.table.table_options).map_err(|err| RestoreError::BadJson {
            what: "table options",
            err,
        })?;
    table_options
        .check()
        .map_err(RestoreError::BadTableOptions)?;
    Ok((variant, rules, table_options))
}

/// Parses one stored action.
pub fn action_of(row: &ActionRow) -> Result<(Seat, Action), RestoreError> {
    let action = serde_json::from_str(&row.action).map_err(|err| RestoreError::BadAction {
        match_no: row.match_no,
        idx: row.idx,
        err,
    })?;
    Ok((Seat(row.seat), action))
}

/// Replays one match's actions from its seed. `on_events` sees the opening events and then
/// each action's events, in order.
pub fn replay_match(
    rules: Rules,
    match_no: u32,
    seed: u64,
    actions: &[ActionRow],
    mut on_events: impl FnMut(&[parlor_shared::Event]),
) -> Result<(Game, Vec<(Seat, Action)>), RestoreError> {
    let dealer = first_dealer(rules.variant.players(), match_no);
    let mut game = Game::with_first_dealer(rules, seed, None, dealer);
    on_events(&game.opening_events());
    let mut log = Vec::with_capacity(actions.len());
    let mut events = Vec::new();
    for (i, row) in actions.iter().enumerate() {
        if row.match_no != match_no || row.idx as usize != i {
            return Err(RestoreError::Gap(format!(
                "expected action {i} of match {match_no}, found action {} of match {}",
                row.idx, row.match_no
            )));
        }
        let (seat, action) = action_of(row)?;
        events.clear();
        game.apply_into(seat, &action, &mut events)
            .map_err(|err| RestoreError::IllegalAction {
                match_no,
                idx: row.idx,
                action: row.action.clone(),
                err,
            })?;
        on_events(&events);
        log.push((seat, action));
    }
    Ok((game, log))
}

/// Rebuilds a table from everything stored about it.
pub fn rebuild(log: &TableLog) -> Result<Restored, RestoreError> {
    let (variant, rules, table_options) = setup_of(log)?;
    let players = variant.players();
    let mut seats: Vec<RestoredSeat> = (0..players)
        .map(|_| RestoredSeat {
            occupant: Occupant::Empty,
            name: None,
            token: None,
            strategy: None,
            bot_playing: false,
            account: None,
        })
        .collect();
    for row in &log.seats {
        let bad = |why: &str| RestoreError::BadSeat {
            seat: row.seat,
            why: why.to_string(),
        };
        let seat = seats
            .get_mut(row.seat as usize)
            .ok_or_else(|| bad("the table has fewer seats"))?;
        if row.occupant == Occupant::Bot {
            let name = row
                .strategy
                .as_deref()
                .ok_or_else(|| bad("a bot without a strategy"))?;
            if strategy(name, variant, 0).is_none() {
                return Err(bad(&format!("unknown bot strategy `{name}`")));
            }
        }
        if matches!(row.occupant, Occupant::Human | Occupant::RemoteBot) && row.token.is_none() {
            return Err(bad("a player without a seat token"));
        }
        *seat = RestoredSeat {
            occupant: row.occupant,
            name: row.name.clone(),
            token: row.token.clone(),
            strategy: row.strategy.clone(),
            bot_playing: row.bot_playing,
            account: row.account.clone(),
        };
    }
    let host = match log.table.host {
        Some(h) if h >= players => {
            return Err(RestoreError::BadSeat {
                seat: h,
                why: "the host sits outside the table".into(),
            });
        }
        h => h.map(Seat),
    };
    for (i, m) in log.matches.iter().enumerate() {
        if m.match_no as usize != i + 1 {
            return Err(RestoreError::Gap(format!(
                "expected match {}, found match {}",
                i + 1,
                m.match_no
            )));
        }
    }
    let match_no = log.matches.len() as u32;
    let (game, actions, seq) = match log.matches.last() {
        None => {
            if let Some(row) = log.actions.first() {
                return Err(RestoreError::Gap(format!(
                    "an action of match {} but no match",
                    row.match_no
                )));
            }
            (None, Vec::new(), 0)
        }
        Some(current) => {
            let first = log
                .actions
                .partition_point(|a| a.match_no < current.match_no);
            let rows = &log.actions[first..];
            let seq = rows.last().map_or(current.seq, |a| a.seq);
            let (game, actions) =
                replay_match(rules, current.match_no, current.seed, rows, |_| {})?;
            (Some(game), actions, seq)
        }
    };
    let over = game.as_ref().is_some_and(Game::is_over);
    let status = match &game {
        None => TableStatus::Waiting,
        Some(_) if over => TableStatus::Finished,
        Some(_) => TableStatus::Playing,
    };
    let matches_played = match_no - u32::from(game.is_some() && !over);
    Ok(Restored {
        id: log.table.id.clone(),
        variant,
        options: rules.options(),
        table_options,
        seed: log.table.seed,
        game,
        log: actions,
        match_no,
        matches_played,
        status,
        seq,
        host,
        seats,
        chat: log.chat.clone(),
    })
}
