//! The live WebSocket sessions, for the admin API: when each opened and which table it is at.
//!
//! It records and lists; it sends nothing and closes nothing.

use std::sync::Arc;
use std::time::{Duration, Instant};

use dashmap::DashMap;

use crate::conn::ConnId;

/// One live session.
#[derive(Debug, Clone)]
struct Entry {
    /// When it opened.
    opened: Instant,
    /// The table it joined or watches, once it has.
    table: Option<String>,
}

/// A session as the admin API shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// The connection's id.
    pub conn: u64,
    /// How long it has been open.
    pub age: Duration,
    /// The table it is at, if any.
    pub table: Option<String>,
}

/// Every live session; cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Sessions(Arc<DashMap<u64, Entry>>);

impl Sessions {
    /// A session opened.
    pub fn opened(&self, conn: ConnId) {
        self.0.insert(
            conn.0,
            Entry {
                opened: Instant::now(),
                table: None,
            },
        );
    }

    /// A session joined or watches `table`.
    pub fn at_table(&self, conn: ConnId, table: &str) {
        if let Some(mut entry) = self.0.get_mut(&conn.0) {
            entry.table = Some(table.to_string());
        }
    }

    /// A session ended.
    pub fn closed(&self, conn: ConnId) {
        self.0.remove(&conn.0);
    }

    /// Every live session, oldest first.
    #[must_use]
    pub fn list(&self) -> Vec<Session> {
        let mut sessions: Vec<Session> = self
            .0
            .iter()
            .map(|e| Session {
                conn: *e.key(),
                age: e.opened.elapsed(),
                table: e.table.clone(),
            })
            .collect();
        sessions.sort_by_key(|s| std::cmp::Reverse(s.age));
        sessions
    }
}
