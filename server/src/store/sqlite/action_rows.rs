//! Writing a commit's action rows: the consecutive ones in a few multi-row INSERTs instead of
//! a statement each (each statement's run, binding and reset cost about as much as a row).
//! Statements are kept prepared for 1, 2, 4 … [`MOST_ROWS`] rows only (a prepared statement
//! holds a slot for each of its values), and a run of rows takes the largest that fits, then
//! the next.
//!
//! A statement refused for what one of its rows is (a repeated key, a row too big) stores
//! none of them: its rows are then written one at a time, so each still gets its own outcome.
//! It owns the writing of `actions` rows; the writer hands it its writes from each action on.

use std::sync::{Arc, LazyLock};

use rusqlite::Connection;

use super::table_numbers::TableNumbers;
use super::writer::refused_for_itself;
use crate::store::StoreError;
use crate::store::records::{ActionRow, Write};

/// The most rows one INSERT holds (a power of two).
const MOST_ROWS: usize = 1 << (STATEMENTS - 1);

/// The INSERTs kept prepared: one for each power of two up to [`MOST_ROWS`].
pub const STATEMENTS: usize = 6;

/// The columns each row binds.
const COLUMNS: usize = 6;

/// `INSERTS[k]` inserts `2^k` rows.
static INSERTS: LazyLock<[String; STATEMENTS]> = LazyLock::new(|| {
    std::array::from_fn(|k| {
        let row = "(?, ?, ?, ?, ?, ?)";
        let rows = vec![row; 1 << k].join(", ");
        format!("INSERT INTO actions (table_no, match_no, idx, seat, action, seq) VALUES {rows}")
    })
});

/// `rows` cut into runs of prepared sizes, each the largest that fits in what is left.
fn prepared_chunks<T>(mut rows: &[T]) -> impl Iterator<Item = &[T]> {
    std::iter::from_fn(move || {
        let size = 1 << rows.len().checked_ilog2()?.min(STATEMENTS as u32 - 1);
        let (chunk, rest) = rows.split_at(size);
        rows = rest;
        Some(chunk)
    })
}

/// The table and row of an action write, `None` for any other write.
pub fn action_of(write: &Write) -> Option<(&Arc<str>, &ActionRow)> {
    match write {
        Write::Action { table, row } => Some((table, row)),
        _ => None,
    }
}

/// Writes the action writes at the head of `writes` (up to its first other write), in
/// statements of prepared sizes, pushing each one's outcome in order, and returns how many
/// they were. Fails, with nothing answered, on an error that is not a row's own (the
/// transaction is then rolled back).
pub fn write_leading(
    tx: &Connection,
    numbers: &mut TableNumbers,
    writes: &[&Write],
    outcomes: &mut Vec<Result<(), StoreError>>,
) -> Result<usize, StoreError> {
    let mut group = Vec::new();
    for &write in writes {
        let Some((table, row)) = action_of(write) else {
            break;
        };
        group.push((write, numbers.of(tx, table)?, row));
    }
    for chunk in prepared_chunks(&group) {
        write_group(tx, chunk, outcomes)?;
    }
    Ok(group.len())
}

/// Writes a prepared size of actions (the write, its table's number, its row) with one
/// statement, or one a row when that statement is refused.
fn write_group(
    tx: &Connection,
    group: &[(&Write, i64, &ActionRow)],
    outcomes: &mut Vec<Result<(), StoreError>>,
) -> Result<(), StoreError> {
    let rows = group.iter().map(|&(_, no, row)| (no, row));
    match insert(tx, rows, group.len()).map_err(StoreError::from) {
        Ok(()) => {
            outcomes.extend(group.iter().map(|_| Ok(())));
            return Ok(());
        }
        Err(err) if !refused_for_itself(&err) => return Err(err),
        // Nothing of the statement is stored.
        Err(_) => {}
    }
    for &(write, no, row) in group {
        match insert(tx, std::iter::once((no, row)), 1).map_err(StoreError::from) {
            Err(err) if !refused_for_itself(&err) => return Err(err),
            Err(err) => {
                tracing::error!(%err, change = write.what(), "could not store a change");
                outcomes.push(Err(err));
            }
            Ok(()) => outcomes.push(Ok(())),
        }
    }
    Ok(())
}

/// Inserts `rows` (table number, row), `count` of them, a prepared size, with one statement.
fn insert<'a>(
    tx: &Connection,
    rows: impl Iterator<Item = (i64, &'a ActionRow)>,
    count: usize,
) -> rusqlite::Result<()> {
    if count == 0 {
        return Ok(());
    }
    debug_assert!(
        count.is_power_of_two() && count <= MOST_ROWS,
        "no statement is prepared for {count} rows"
    );
    let mut insert = tx.prepare_cached(&INSERTS[count.ilog2() as usize])?;
    for (i, (no, row)) in rows.take(count).enumerate() {
        let at = i * COLUMNS;
        insert.raw_bind_parameter(at + 1, no)?;
        insert.raw_bind_parameter(at + 2, row.match_no)?;
        insert.raw_bind_parameter(at + 3, row.idx)?;
        insert.raw_bind_parameter(at + 4, row.seat)?;
        insert.raw_bind_parameter(at + 5, row.action.as_str())?;
        insert.raw_bind_parameter(at + 6, row.seq as i64)?;
    }
    insert.raw_execute()?;
    Ok(())
}

/// Inserts every row of one table (its number `no`), as many to a statement as fit.
pub fn insert_all(tx: &Connection, no: i64, rows: &[ActionRow]) -> rusqlite::Result<()> {
    for chunk in prepared_chunks(rows) {
        insert(tx, chunk.iter().map(|row| (no, row)), chunk.len())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every run of rows is cut into prepared sizes only, largest first, all of it in order.
    #[test]
    fn a_run_of_rows_is_cut_into_prepared_sizes() {
        for count in 0..=3 * MOST_ROWS {
            let rows: Vec<usize> = (0..count).collect();
            let chunks: Vec<&[usize]> = prepared_chunks(&rows).collect();
            let sizes: Vec<usize> = chunks.iter().map(|chunk| chunk.len()).collect();
            assert!(
                sizes.iter().all(|&n| n.is_power_of_two() && n <= MOST_ROWS),
                "{count}: {sizes:?}"
            );
            assert!(sizes.is_sorted_by(|a, b| a >= b), "{count}: {sizes:?}");
            assert!(
                sizes.len() <= count / MOST_ROWS + STATEMENTS,
                "{count}: {sizes:?}"
            );
            assert_eq!(chunks.concat(), rows);
        }
        assert_eq!(
            INSERTS[STATEMENTS - 1].matches('?').count(),
            MOST_ROWS * COLUMNS
        );
    }
}
