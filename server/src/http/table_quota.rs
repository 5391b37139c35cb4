//! How many tables one address may create: at most `per_minute` in any minute, and at most
//! `open` of its tables open at once, so one client cannot take every table of the server.
//!
//! It owns the per-address record of recent creations and of the tables still open; the
//! lobby says which tables are open. The check and the record are one step under the
//! address's entry, so two requests at once cannot both slip under a limit.

use std::collections::VecDeque;
use std::net::IpAddr;
use std::time::Duration;

use dashmap::DashMap;
use tokio::time::Instant;

use super::AppError;
use crate::lobby::Lobby;

/// The window of the rate limit.
const WINDOW: Duration = Duration::from_secs(60);

/// Addresses remembered before forgetting those with nothing recent and nothing open.
const TIDY_AT: usize = 10_000;

/// What one address has created.
#[derive(Debug, Default)]
struct Record {
    /// When its tables of the last minute were created, oldest first.
    recent: VecDeque<Instant>,
    /// Its tables that may still be open.
    tables: Vec<String>,
}

/// The limits and every address's record.
#[derive(Debug)]
pub struct TableQuota {
    /// Tables one address may create a minute (0: no limit).
    per_minute: usize,
    /// Tables of one address open at once (0: no limit).
    open: usize,
    /// By address.
    records: DashMap<IpAddr, Record>,
}

impl TableQuota {
    /// No creation recorded yet.
    #[must_use]
    pub fn new(per_minute: usize, open: usize) -> TableQuota {
        TableQuota {
            per_minute,
            open,
            records: DashMap::new(),
        }
    }

    /// Runs `create` for `ip` unless a limit refuses it, and records the table it made.
    pub fn create(
        &self,
        ip: IpAddr,
        lobby: &Lobby,
        create: impl FnOnce() -> Result<String, AppError>,
    ) -> Result<String, AppError> {
        if self.records.len() >= TIDY_AT {
            self.tidy(lobby);
        }
        let now = Instant::now();
        let mut record = self.records.entry(ip).or_default();
        while record.recent.front().is_some_and(|at| now - *at >= WINDOW) {
            record.recent.pop_front();
        }
        if self.per_minute > 0 && record.recent.len() >= self.per_minute {
            let oldest = record.recent.front().copied().unwrap_or(now);
            let wait = WINDOW.saturating_sub(now - oldest);
            return Err(AppError::TooManyRequests {
                message: format!(
                    "this address created {} tables in the last minute, the most it may: try again in {} s",
                    self.per_minute,
                    wait.as_secs().max(1)
                ),
                retry_after_secs: wait.as_secs().max(1),
            });
        }
        record.tables.retain(|id| lobby.get(id).is_some());
        if self.open > 0 && record.tables.len() >= self.open {
            return Err(AppError::TooManyRequests {
                message: format!(
                    "this address already has {} open tables, the most it may: finish or leave one first",
                    self.open
                ),
                retry_after_secs: WINDOW.as_secs(),
            });
        }
        let id = create()?;
        record.recent.push_back(now);
        record.tables.push(id.clone());
        Ok(id)
    }

    /// Forgets addresses with no recent creation and no open table.
    fn tidy(&self, lobby: &Lobby) {
        let now = Instant::now();
        self.records.retain(|_, record| {
            record.recent.retain(|at| now - *at < WINDOW);
            record.tables.retain(|id| lobby.get(id).is_some());
            !record.recent.is_empty() || !record.tables.is_empty()
        });
    }
}
