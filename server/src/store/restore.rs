//! Turning a stored table back into a live one: parse every row, then replay the current
//! match's actions through the engine. A table whose setup or seats do not parse (a variant,
//! option or strategy this version does not know) is an error naming the table, and the
//! table is skipped. A log that stops replaying part way (a gap, an action that does not
//! parse or that the rules refuse) is kept up to its last good step and cut there ([`Cut`]):
//! the table comes back as it was at that step.
//!
//! Pure: it reads rows and the engine; opening the rebuilt table is the lobby's job.

use parlor_shared::bots::strategy;
use parlor_shared::protocol::{Occupant, TableOptions, TableStatus};
use parlor_shared::rules::{OptionsError, Rules, first_dealer};
use parlor_shared::{Action, Game, Options, RuleError, Seat, Variant};
use thiserror::Error;

use super::records::{ActionRow, ChatRow, MatchRow, TableLog};

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
    /// The digest of the seat token that gives it back.
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
    /// The host's seat (seat 255: the host key's holder, without a seat).
    pub host: Option<Seat>,
    /// The SHA-256 (hex) of the table's host key, if it has one.
    pub host_key: Option<String>,
    /// Every seat, by number.
    pub seats: Vec<RestoredSeat>,
    /// The table talk kept, oldest first.
    pub chat: Vec<ChatRow>,
    /// Where the log stopped replaying, when it did: everything after was left out.
    pub cut: Option<Cut>,
}

/// Where a stored log was cut: it replays up to here, and what follows is to be deleted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cut {
    /// The last match kept (0: none).
    pub match_no: u32,
    /// The first action of that match left out; every later match is left out too.
    pub from: u32,
    /// How many stored rows (matches and actions) were left out.
    pub dropped: usize,
    /// Why the log stopped replaying there.
    pub why: String,
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

/// A stored match's game at its start: dealt from its master secret, or (matches stored
/// before fair deals) from its seed.
#[must_use]
pub fn match_game(rules: Rules, row: &MatchRow) -> Game {
    let dealer = first_dealer(rules.players(), row.match_no);
    match row.secret {
        Some(master) => Game::with_master_dealt_by(rules, master, dealer),
        None => Game::with_first_dealer(rules, row.seed, None, dealer),
    }
}

/// Replays one match's actions from its start. `on_events` sees the opening events and then
/// each action's events, in order.
pub fn replay_match(
    rules: Rules,
    row: &MatchRow,
    actions: &[ActionRow],
    mut on_events: impl FnMut(&[parlor_shared::Event]),
) -> Result<(Game, Vec<(Seat, Action)>), RestoreError> {
    let match_no = row.match_no;
    let mut game = match_game(rules, row);
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
    let players = rules.players();
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
        Some(h) if h >= players && h != u8::MAX => {
            return Err(RestoreError::BadSeat {
                seat: h,
                why: "the host sits outside the table".into(),
            });
        }
        h => h.map(Seat),
    };
    // Matches numbered 1, 2, ... up to the first gap.
    let kept = log
        .matches
        .iter()
        .enumerate()
        .take_while(|(i, m)| m.match_no as usize == i + 1)
        .count();
    let mut cut = (kept < log.matches.len()).then(|| {
        let found = log.matches[kept].match_no;
        RestoreError::Gap(format!("expected match {}, found match {found}", kept + 1)).to_string()
    });
    let matches = &log.matches[..kept];
    let match_no = kept as u32;
    let (game, actions, seq) = match matches.last() {
        None => {
            if cut.is_none()
                && let Some(row) = log.actions.first()
            {
                cut = Some(
                    RestoreError::Gap(format!("an action of match {} but no match", row.match_no))
                        .to_string(),
                );
            }
            (None, Vec::new(), 0)
        }
        Some(current) => {
            let first = log
                .actions
                .partition_point(|a| a.match_no < current.match_no);
            let rows = &log.actions[first..];
            let end = rows.partition_point(|a| a.match_no <= current.match_no);
            let (game, actions, bad) = replay_prefix(rules, current, &rows[..end]);
            if cut.is_none() {
                cut = bad.map(|err| err.to_string());
            }
            let seq = actions
                .len()
                .checked_sub(1)
                .map_or(current.seq, |last| rows[last].seq);
            (Some(game), actions, seq)
        }
    };
    let cut = cut.map(|why| {
        let later_actions = log
            .actions
            .iter()
            .filter(|a| {
                a.match_no > match_no || (a.match_no == match_no && a.idx as usize >= actions.len())
            })
            .count();
        Cut {
            match_no,
            from: actions.len() as u32,
            dropped: later_actions + (log.matches.len() - kept),
            why,
        }
    });
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
        host_key: log.table.host_key.clone(),
        seats,
        chat: log.chat.clone(),
        cut,
    })
}

/// Replays the match `current` as far as its actions go: the game, the actions that
/// replayed and, when one did not, why. A refused action leaves the game as it was, so the
/// game is the one after the last good action.
fn replay_prefix(
    rules: Rules,
    current: &super::MatchRow,
    rows: &[ActionRow],
) -> (Game, Vec<(Seat, Action)>, Option<RestoreError>) {
    let match_no = current.match_no;
    let mut game = match_game(rules, current);
    let mut log = Vec::with_capacity(rows.len());
    let mut events = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        if row.match_no != match_no || row.idx as usize != i {
            let gap = RestoreError::Gap(format!(
                "expected action {i} of match {match_no}, found action {} of match {}",
                row.idx, row.match_no
            ));
            return (game, log, Some(gap));
        }
        let (seat, action) = match action_of(row) {
            Ok(parsed) => parsed,
            Err(err) => return (game, log, Some(err)),
        };
        events.clear();
        if let Err(err) = game.apply_into(seat, &action, &mut events) {
            let err = RestoreError::IllegalAction {
                match_no,
                idx: row.idx,
                action: row.action.clone(),
                err,
            };
            return (game, log, Some(err));
        }
        log.push((seat, action));
    }
    (game, log, None)
}
