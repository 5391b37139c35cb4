//! Ratings: every finished match in which a built-in strategy or a registered bot took part
//! moves their per-variant rating ([`model`]). The results are stored with the match (a table
//! appends its result in the same step as the final move) and the board is rebuilt from them on
//! start, so ratings survive restarts and never count a match twice.
//!
//! [`Ratings`] is the shared handle: tables report results, the HTTP layer reads standings. It
//! sits beside the store, below the tables: it imports the store's rows only.

pub mod model;

use std::sync::{Arc, RwLock};

use crate::store::{ResultRow, SharedStore, StoreError};
pub use model::{Board, Entrant, EntrantKind, Entry, MatchResult, Place, places_of};

/// The ratings board shared by the tables and the HTTP handlers.
#[derive(Debug, Clone, Default)]
pub struct Ratings {
    board: Arc<RwLock<Board>>,
}

impl Ratings {
    /// The board rebuilt from every result `store` holds, in order. A row that does not parse
    /// is skipped with a warning (it cannot have moved anyone when it was written either).
    pub async fn load(store: &SharedStore) -> Result<Ratings, StoreError> {
        let rows = store.results().await?;
        let ratings = Ratings::default();
        for row in &rows {
            match result_of(row) {
                Ok(result) => {
                    ratings.apply(&result);
                }
                Err(err) => tracing::warn!(
                    table = %row.table,
                    match_no = row.match_no,
                    %err,
                    "a stored match result is skipped: it does not parse"
                ),
            }
        }
        tracing::info!(
            results = rows.len(),
            "ratings rebuilt from the stored results"
        );
        Ok(ratings)
    }

    /// Applies a finished match; returns whether anyone's rating moved.
    pub fn apply(&self, result: &MatchResult) -> bool {
        self.board
            .write()
            .expect("the ratings lock is never poisoned")
            .apply(result)
    }

    /// Reads the board.
    pub fn read<T>(&self, f: impl FnOnce(&Board) -> T) -> T {
        f(&self
            .board
            .read()
            .expect("the ratings lock is never poisoned"))
    }
}

/// A result as stored.
#[must_use]
pub fn row_of(result: &MatchResult) -> ResultRow {
    ResultRow {
        table: result.table.clone(),
        match_no: result.match_no,
        variant: result.variant.clone(),
        at: result.at,
        places: serde_json::to_string(&result.places).expect("places serialize"),
    }
}

/// A stored result.
pub fn result_of(row: &ResultRow) -> Result<MatchResult, serde_json::Error> {
    Ok(MatchResult {
        variant: row.variant.clone(),
        table: row.table.clone(),
        match_no: row.match_no,
        at: row.at,
        places: serde_json::from_str(&row.places)?,
    })
}
