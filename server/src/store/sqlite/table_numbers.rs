//! Each table's number: `actions` is keyed by a small integer for the table rather than its
//! text id (shorter keys, integer compares), given by `table_numbers`.
//!
//! A number is given to a table when its first action is written, and goes with its last
//! row when the table is deleted. `table_numbers.no` is an `INTEGER PRIMARY KEY`, so a table
//! keeps its number through `VACUUM`. It owns that mapping; readers look numbers up in SQL.

use std::sync::Arc;

use rusqlite::{Connection, OptionalExtension, params};

/// The numbers the writer has looked up or given, kept in memory: the writer is the only
/// one that writes `table_numbers`, so what it saw committed stays true until it changes it.
///
/// Only committed numbers may stay: after a transaction is rolled back, [`TableNumbers::clear`]
/// (a number given inside it is gone again).
#[derive(Debug, Default)]
pub struct TableNumbers {
    known: foldhash::HashMap<Arc<str>, i64>,
}

impl TableNumbers {
    /// Table `id`'s number, given now (the next free one) when it has none.
    pub fn of(&mut self, tx: &Connection, id: &Arc<str>) -> rusqlite::Result<i64> {
        if let Some(&no) = self.known.get(&**id) {
            return Ok(no);
        }
        let no = number_of(tx, id)?;
        self.known.insert(Arc::clone(id), no);
        Ok(no)
    }

    /// Forgets table `id` (its number is being deleted).
    pub fn forget(&mut self, id: &str) {
        self.known.remove(id);
    }

    /// Forgets every number (after a rollback).
    pub fn clear(&mut self) {
        self.known.clear();
    }
}

/// Table `id`'s number, read or given, without the writer's memory (copying a table into a
/// fresh file).
pub fn number_of(tx: &Connection, id: &str) -> rusqlite::Result<i64> {
    let found: Option<i64> = tx
        .prepare_cached("SELECT no FROM table_numbers WHERE id = ?1")?
        .query_row(params![id], |row| row.get(0))
        .optional()?;
    if let Some(no) = found {
        return Ok(no);
    }
    tx.prepare_cached("INSERT INTO table_numbers (id) VALUES (?1)")?
        .execute(params![id])?;
    Ok(tx.last_insert_rowid())
}
