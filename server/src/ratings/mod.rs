//! Ratings: every finished match in which a built-in strategy or a registered bot took part moves
//! their per-variant rating ([`model`]). Results are stored with the match (in the same step as
//! the final move) and the board is rebuilt from them on start, so ratings survive restarts and
//! never count a match twice. In a cluster every node writes to the one database, so a node's
//! board also takes in the others' results ([`Ratings::catch_up`]), each match once per node,
//! keyed by (table, match). [`Ratings`] is the shared handle: tables report results, the HTTP
//! layer reads standings. It sits below the tables and imports the store's rows only.

pub mod model;

use std::collections::HashSet;
use std::sync::{Arc, RwLock};

use crate::store::{ResultRow, SharedStore, StoreError};
pub use model::{Board, Entrant, EntrantKind, Entry, MatchResult, Place, places_of};

/// The ratings board shared by the tables and the HTTP handlers.
#[derive(Debug, Clone, Default)]
pub struct Ratings {
    board: Arc<RwLock<Applied>>,
    /// Serialises catching up, so two readers do not read the same rows at once.
    catching_up: Arc<tokio::sync::Mutex<()>>,
}

/// The board with what it has taken in.
#[derive(Debug, Default)]
struct Applied {
    board: Board,
    /// Every (table, match) applied, so a result read back from the store after this node
    /// applied it directly is not counted twice.
    seen: HashSet<(String, u32)>,
    /// The store's number of the last result read back.
    cursor: i64,
}

impl Ratings {
    /// The board rebuilt from every result `store` holds, in order. A row that does not parse
    /// is skipped with a warning (it cannot have moved anyone when it was written either).
    pub async fn load(store: &SharedStore) -> Result<Ratings, StoreError> {
        // A store shared with other servers numbers its results: the board then starts
        // catching up after the last one read here.
        let numbered = store.results_after(0).await?;
        let cursor = numbered.last().map_or(0, |(n, _)| *n);
        let rows = if numbered.is_empty() {
            store.results().await?
        } else {
            numbered.into_iter().map(|(_, row)| row).collect()
        };
        let ratings = Ratings::default();
        ratings
            .board
            .write()
            .expect("the ratings lock is never poisoned")
            .cursor = cursor;
        for row in &rows {
            match result_of(row) {
                Ok(result) => {
                    ratings.apply(&result);
                }
                Err(err) => tracing::warn!(
                    table = %crate::store::log_tag(&row.table),
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

    /// Applies a finished match, unless it was already; returns whether anyone's rating moved.
    pub fn apply(&self, result: &MatchResult) -> bool {
        let mut applied = self
            .board
            .write()
            .expect("the ratings lock is never poisoned");
        if !applied.seen.insert((result.table.clone(), result.match_no)) {
            return false;
        }
        applied.board.apply(result)
    }

    /// Takes in the results other servers stored since the last call (nothing for a
    /// store no other server writes to). Returns how many were new here.
    pub async fn catch_up(&self, store: &SharedStore) -> Result<usize, StoreError> {
        let _one = self.catching_up.lock().await;
        let after = self.cursor();
        let rows = store.results_after(after).await?;
        let mut new = 0;
        for (n, row) in &rows {
            match result_of(row) {
                Ok(result) => {
                    let mut applied = self
                        .board
                        .write()
                        .expect("the ratings lock is never poisoned");
                    if applied.seen.insert((result.table.clone(), result.match_no)) {
                        applied.board.apply(&result);
                        new += 1;
                    }
                }
                Err(err) => tracing::warn!(
                    table = %crate::store::log_tag(&row.table),
                    match_no = row.match_no,
                    %err,
                    "a stored match result is skipped: it does not parse"
                ),
            }
            let mut applied = self
                .board
                .write()
                .expect("the ratings lock is never poisoned");
            applied.cursor = applied.cursor.max(*n);
        }
        if new > 0 {
            tracing::debug!(new, "ratings took in results stored by other servers");
        }
        Ok(new)
    }

    /// The store's number of the last result read back.
    fn cursor(&self) -> i64 {
        self.board
            .read()
            .expect("the ratings lock is never poisoned")
            .cursor
    }

    /// Reads the board.
    pub fn read<T>(&self, f: impl FnOnce(&Board) -> T) -> T {
        f(&self
            .board
            .read()
            .expect("the ratings lock is never poisoned")
            .board)
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
        listed: result.listed,
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
        listed: row.listed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(match_no: u32) -> MatchResult {
        let entrants = ["random", "strong", "heuristic", "random2"]
            .iter()
            .map(|n| Some(Entrant::builtin(n)))
            .collect();
        MatchResult {
            variant: "hearts".into(),
            table: "t".into(),
            match_no,
            at: 5,
            places: places_of(&[40, 101, 12, 40], &[2], false, true, entrants),
            listed: false,
        }
    }

    #[test]
    fn a_match_applied_again_counts_once() {
        let ratings = Ratings::default();
        assert!(ratings.apply(&result(1)));
        assert!(!ratings.apply(&result(1)), "the same match read back");
        assert!(ratings.apply(&result(2)));
        let matches = ratings.read(|board| {
            board
                .entry("hearts", &Entrant::builtin("strong"))
                .map(|e| e.matches)
        });
        assert_eq!(matches, Some(2));
    }
}
