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

/// How many of `count` rows (at least one) the next statement takes: the largest prepared
/// size that fits.
fn next_chunk(count: usize) -> usize {
    1 << count.min(MOST_ROWS).ilog2()
}

/// The table and row of an action write, `None` for any other write.
pub fn action_of(write: &Write) -> Option<(&Arc<str>, &ActionRow)> {
    match write {
        Write::Action { table, row } => Some((table, row)),
        _ => None,
    }
}

/// Writes the action writes at the head of `writes` (up to its first other write),
/// [`MOST_ROWS`] to a statement, pushing each one's outcome in order, and returns how many
/// they were. Fails, with nothing answered, on an error that is not a row's own (the
/// transaction is then rolled back).
pub fn write_leading(
    tx: &Connection,
    numbers: &mut TableNumbers,
    writes: &[&Write],
    outcomes: &mut Vec<Result<(), StoreError>>,
) -> Result<usize, StoreError> {
    let mut count = 0;
    let mut group = Vec::with_capacity(MOST_ROWS);
    for &write in writes {
        let Some((table, row)) = action_of(write) else {
            break;
        };
        group.push((write, numbers.of(tx, table)?, row));
        count += 1;
        if group.len() == MOST_ROWS {
            write_group(tx, &group, outcomes)?;
            group.clear();
        }
    }
    let mut rest = group.as_slice();
    while !rest.is_empty() {
        let (chunk, after) = rest.split_at(next_chunk(rest.len()));
        write_group(tx, chunk, outcomes)?;
        rest = after;
    }
    Ok(count)
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
    debug_assert_eq!(
        count,
        next_chunk(count),
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
    let mut rest = rows;
    while !rest.is_empty() {
        let (chunk, after) = rest.split_at(next_chunk(rest.len()));
        insert(tx, chunk.iter().map(|row| (no, row)), chunk.len())?;
        rest = after;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every run of rows is cut into prepared sizes only, largest first, none left over.
    #[test]
    fn a_run_of_rows_is_cut_into_prepared_sizes() {
        for count in 1..=3 * MOST_ROWS {
            let mut rest = count;
            let mut chunks = Vec::new();
            while rest > 0 {
                let chunk = next_chunk(rest);
                assert!(chunk.is_power_of_two() && chunk <= MOST_ROWS && chunk <= rest);
                chunks.push(chunk);
                rest -= chunk;
            }
            assert!(chunks.is_sorted_by(|a, b| a >= b), "{count}: {chunks:?}");
            assert!(
                chunks.len() <= count / MOST_ROWS + STATEMENTS,
                "{count}: {chunks:?}"
            );
        }
        assert_eq!(
            INSERTS[STATEMENTS - 1].matches('?').count(),
            MOST_ROWS * COLUMNS
        );
    }
}
