//! Which SQLite files are Parlor's, and the data directory's lock.
//!
//! A Parlor database carries [`APPLICATION_ID`] in its header (`PRAGMA application_id`). A
//! file with another id, or with none but tables Parlor did not make, belongs to another
//! program and is refused untouched (not migrated, not switched to WAL). A file with no id and
//! exactly Parlor's tables was written by an older Parlor: it is adopted and stamped.
//!
//! The lock is an exclusive `flock` on `parlor.lock` in the data directory, held by the
//! writer thread until it stops, so a second server on the same directory is refused. The
//! kernel drops it when the process dies, even after `kill -9`.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::Path;

use rusqlite::Connection;

use crate::store::StoreError;

/// Parlor's `application_id`: the bytes `PRLR`.
pub const APPLICATION_ID: i32 = 0x5052_4C52;

/// The lock file's name inside the data directory.
pub const LOCK_FILE: &str = "parlor.lock";

/// Every table Parlor's schema makes.
const PARLOR_TABLES: [&str; 12] = [
    "action_batches",
    "action_log",
    "action_log_b",
    "action_runs",
    "actions",
    "bot_accounts",
    "chat",
    "matches",
    "results",
    "seats",
    "table_numbers",
    "tables",
];

/// What an opened file turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Identity {
    /// Stamped as Parlor's.
    Parlor,
    /// Parlor's, but not stamped yet (new and empty, or written by an older Parlor).
    Unstamped,
}

/// Checks that `conn` (the file `file`) is Parlor's or empty; refuses anything else.
pub fn check(conn: &Connection, file: &Path) -> Result<Identity, StoreError> {
    let id: i32 = conn.query_row("PRAGMA application_id", [], |row| row.get(0))?;
    if id == APPLICATION_ID {
        return Ok(Identity::Parlor);
    }
    if id != 0 {
        return Err(StoreError::Foreign {
            file: file.to_path_buf(),
            why: format!("its application_id is {id:#010x}, not Parlor's {APPLICATION_ID:#010x}"),
        });
    }
    let mut tables: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )?
        .query_map([], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    tables.sort();
    // Any Parlor version's tables (an older one has fewer of them).
    if tables.iter().all(|t| PARLOR_TABLES.contains(&t.as_str())) {
        return Ok(Identity::Unstamped);
    }
    Err(StoreError::Foreign {
        file: file.to_path_buf(),
        why: format!(
            "it has no application_id and holds tables Parlor did not make: {}",
            tables.join(", ")
        ),
    })
}

/// Marks the file as Parlor's.
pub fn stamp(conn: &Connection) -> Result<(), StoreError> {
    conn.pragma_update(None, "application_id", APPLICATION_ID)?;
    Ok(())
}

/// Takes the data directory's exclusive lock, or says who holds it.
pub fn lock(dir: &Path) -> Result<File, StoreError> {
    let path = dir.join(LOCK_FILE);
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .or_else(|err| {
            // A read-only directory may still hold the lock file of an earlier run.
            File::open(&path).map_err(|_| err)
        })
        .map_err(|err| StoreError::Io {
            what: format!(
                "creating the lock file {} (the data directory must be writable)",
                path.display()
            ),
            err,
        })?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => Err(StoreError::Locked {
            dir: dir.to_path_buf(),
            lock: path,
        }),
        Err(TryLockError::Error(err)) => Err(StoreError::Io {
            what: format!("locking {}", path.display()),
            err,
        }),
    }
}
