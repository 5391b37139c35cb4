//! `GET /api/leaderboard?variant=V` (every rated entrant of a variant, best first) and
//! `GET /api/leaderboard/{kind}/{name}?variant=V` (one entrant: its rating history and recent
//! matches, with links to their replays).
//!
//! It only reads the ratings board; how ratings move is `ratings::model`'s job.

use std::collections::HashMap;

use axum::Json;
use axum::extract::{Path, Query, State};
use parlor_shared::Variant;
use serde::Serialize;

use super::{AppError, AppState};
use crate::ratings::{Entrant, EntrantKind, Entry};

/// How wide a 95% interval is, in standard deviations.
const Z95: f64 = 1.96;

/// `GET /api/leaderboard`'s answer.
#[derive(Debug, Serialize)]
pub struct Leaderboard {
    /// The variant.
    pub variant: String,
    /// Best first.
    pub entries: Vec<Standing>,
}

/// One entrant on the board.
#[derive(Debug, Serialize)]
pub struct Standing {
    /// Its place on the board, from 1.
    pub rank: usize,
    /// `builtin` (a strategy of the server) or `bot` (a registered program).
    pub kind: EntrantKind,
    /// The strategy's or bot's name.
    pub name: String,
    /// Who runs a registered bot (absent for a built-in strategy).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// The rating's mean (a new entrant starts at 25).
    pub rating: f64,
    /// One standard deviation (a new entrant starts at 8.33).
    pub uncertainty: f64,
    /// The 95% interval, `[low, high]`.
    pub interval: [f64; 2],
    /// Rated matches played.
    pub matches: u32,
    /// The places of its last matches, oldest first.
    pub recent: Vec<RecentMatch>,
    /// The rating after each match, oldest first: `[at, rating, uncertainty]`.
    pub history: Vec<[f64; 3]>,
}

/// A recent match of an entrant. A match at a private table shows no table and no replay
/// link: the id is the table's key.
#[derive(Debug, Serialize)]
pub struct RecentMatch {
    /// The table, when it is listed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    /// The match's number at it.
    pub match_no: u32,
    /// When it ended, Unix milliseconds.
    pub at: i64,
    /// The place taken, from 1.
    pub place: u32,
    /// Out of how many (seats, or partnerships in Whist).
    pub of: u32,
    /// The listed table's finished hands, each replayable (`GET` it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replays: Option<String>,
}

fn standing(rank: usize, entry: &Entry) -> Standing {
    Standing {
        rank,
        kind: entry.entrant.kind,
        name: entry.entrant.name.clone(),
        owner: None,
        rating: entry.rating,
        uncertainty: entry.uncertainty,
        interval: [
            entry.rating - Z95 * entry.uncertainty,
            entry.rating + Z95 * entry.uncertainty,
        ],
        matches: entry.matches,
        recent: entry
            .recent
            .iter()
            .map(|r| RecentMatch {
                table: r.table.clone(),
                match_no: r.match_no,
                at: r.at,
                place: r.place,
                of: r.of,
                replays: r.table.as_ref().map(|t| format!("api/tables/{t}/hands")),
            })
            .collect(),
        history: entry
            .history
            .iter()
            .map(|p| [p.at as f64, p.rating, p.uncertainty])
            .collect(),
    }
}

/// The `variant` query parameter, checked.
fn variant_of(query: &HashMap<String, String>) -> Result<Variant, AppError> {
    let name = query.get("variant").ok_or_else(|| {
        AppError::BadRequest(
            "say which variant's leaderboard: ?variant=hearts (or filippa, hearts5, tricks, whist, spades, ohhell)"
                .into(),
        )
    })?;
    name.parse()
        .map_err(|_| AppError::UnknownVariant(format!("there is no variant `{name}`")))
}

/// `GET /api/leaderboard?variant=V`.
pub async fn board(
    State(state): State<AppState>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<Leaderboard>, AppError> {
    let variant = variant_of(&query)?.to_string();
    catch_up(&state).await;
    let mut entries: Vec<Standing> = state.lobby.ratings().read(|board| {
        board
            .standings(&variant)
            .into_iter()
            .enumerate()
            .map(|(i, entry)| standing(i + 1, entry))
            .collect()
    });
    with_owners(&state, &mut entries).await;
    Ok(Json(Leaderboard { variant, entries }))
}

/// Takes in the matches other servers of a cluster finished since the last look, so every
/// server answers with the same board. A store that cannot be read now leaves the board as
/// it is (it is complete again at the next look).
pub(super) async fn catch_up(state: &AppState) {
    let Some(store) = state.lobby.store() else {
        return;
    };
    if let Err(err) = state.lobby.ratings().catch_up(store).await {
        tracing::warn!(%err, "could not read the results other servers stored");
    }
}

/// Fills in who runs each registered bot, from the store's accounts (when it keeps any).
async fn with_owners(state: &AppState, standings: &mut [Standing]) {
    if standings.iter().all(|s| s.kind != EntrantKind::Bot) {
        return;
    }
    let Some(store) = state.lobby.store() else {
        return;
    };
    let Ok(accounts) = store.bot_accounts().await else {
        return;
    };
    for standing in standings.iter_mut().filter(|s| s.kind == EntrantKind::Bot) {
        standing.owner = accounts
            .iter()
            .find(|a| crate::skeleton::same(&a.name, &standing.name))
            .map(|a| a.owner.clone());
    }
}

/// `GET /api/leaderboard/{kind}/{name}?variant=V`.
pub async fn entrant(
    State(state): State<AppState>,
    Path((kind, name)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<Standing>, AppError> {
    let variant = variant_of(&query)?.to_string();
    catch_up(&state).await;
    let entrant = match kind.as_str() {
        "builtin" => Entrant::builtin(&name),
        "bot" => Entrant::bot(&name),
        _ => {
            return Err(AppError::NotFound(format!(
                "/api/leaderboard/{kind}/{name} (kinds are `builtin` and `bot`)"
            )));
        }
    };
    let found = state.lobby.ratings().read(|board| {
        let standings = board.standings(&variant);
        let rank = standings.iter().position(|e| e.entrant == entrant)?;
        Some(standing(rank + 1, standings[rank]))
    });
    let mut one = [found.ok_or_else(|| {
        AppError::NotFound(format!("a {variant} rating for {kind} `{name}` (none yet)"))
    })?];
    with_owners(&state, &mut one).await;
    let [one] = one;
    Ok(Json(one))
}
