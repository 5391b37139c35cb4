//! The action log in two tiers: an accepted action is first appended to a ring of log rows
//! (`action_batches`, each a batch of consecutive appends whatever their tables), then folded
//! into `action_runs`, where a table's consecutive actions of one match are one JSON row.
//! Why: appended in arrival order, a commit's moves share a page or two, where a table of its
//! own dirtied a page per move; a fold is one seek and one row per table, not one per action.
//!
//! The actions not folded yet are also held in memory ([`Folder`]), changed inside the
//! writer's transaction and rebuilt from the log when it rolls back. A log row is overwritten
//! only after its actions were folded, so the file alone holds every committed action; opening
//! and closing fold the whole log ([`fold_all`]). Runs of a table never overlap.

use std::collections::{BTreeMap, HashMap, VecDeque};

use foldhash::fast::RandomState;
use std::sync::LazyLock;

use rusqlite::{Connection, OptionalExtension, params};

use crate::store::StoreError;
use crate::store::records::ActionRow;

/// How many appends old a table's oldest unfolded action may grow before the table's actions
/// are folded. At 250 busy tables a table has about sixteen moves by then; at most this many
/// actions (a few hundred KB) wait in memory.
pub const KEEP: i64 = 4096;

/// The rows of the log's ring. Under load a batch holds a dozen actions or more, so in the
/// usual course its actions were folded (at [`KEEP`] appends old) long before the ring comes
/// round to it again; at a trickle of single actions tables are folded sooner, as it comes.
pub const RING: i64 = 1024;

/// The most bytes of a batch's JSON (but for a single action larger than that): a row stays
/// inside one of the store's pages, with no overflow pages to free and take again.
pub const BATCH_BYTES: usize = 900;

/// The logs of a row per action of earlier versions (emptied on opening, and by every cut and
/// deletion the same way).
const OLD_LOGS: [&str; 2] = ["action_log", "action_log_b"];

/// The runs one multi-row `INSERT` writes, largest first: a queue of `n` runs is written
/// with as many of the largest as fit, then the next, down to single rows. Few sizes, so
/// that every statement stays prepared in the connection's cache.
pub const CHUNKS: [usize; 4] = [64, 16, 4, 1];

/// A batch of the ring not written yet: appends written as JSON as they come, so nothing of
/// them is kept but their text.
#[derive(Debug)]
struct Batch {
    /// `[entry,entry,...` (the closing bracket is added when it is written).
    json: String,
    /// The newest append number in it.
    newest: i64,
}

/// A table's actions queued to be folded into runs.
#[derive(Debug)]
struct Fold {
    /// The table.
    table: String,
    /// Its actions, in order.
    rows: Vec<ActionRow>,
}

/// One table's actions not folded yet.
#[derive(Debug)]
struct Pending {
    /// The append number of the oldest of them.
    first: i64,
    /// The actions, in order.
    rows: Vec<ActionRow>,
}

/// A map keyed by table id, looked up at every append. Hashed with foldhash rather than the
/// standard SipHash: the ids are the server's own, and SipHash was most of the lookups' cost.
type ByTable<V> = HashMap<String, V, RandomState>;

/// The writer's memory of the log: which actions are not folded yet, and each table's last
/// action (an action that does not come after it is refused, as a table of actions keyed by
/// (table, match, index) refused a repeated one).
#[derive(Debug, Default)]
pub struct Folder {
    /// Each table's actions not folded yet.
    pending: ByTable<Pending>,
    /// The tables with actions not folded, by the append number of their oldest.
    by_age: BTreeMap<i64, String>,
    /// Each table's last stored (match, index), for the open tables that stored one since
    /// start.
    last: ByTable<(u32, u32)>,
    /// How many actions were appended since start (the newest one's number).
    newest: i64,
    /// True when a transaction was rolled back: the memory may not match the file.
    stale: bool,
    /// Batches of appends not written yet, in order, the last one still filling (see
    /// [`Folder::flush`]).
    due: Vec<Batch>,
    /// Room to write one append's entry before it joins a batch.
    entry: String,
    /// How many batches were written since start (the next one's number).
    batches: i64,
    /// The newest append number in each of the last [`RING`] batches written, oldest first:
    /// the actions a batch's row holds until the ring comes round to it.
    batch_ends: VecDeque<i64>,
    /// Folds not written yet (see [`Folder::flush`]).
    folds: Vec<Fold>,
}

impl Folder {
    /// Called at the start of each write transaction: after a rollback, folds the whole log
    /// and starts the memory over.
    pub fn begin(&mut self, tx: &Connection) -> Result<(), StoreError> {
        if self.stale {
            fold_log(tx)?;
            *self = Folder::default();
        }
        Ok(())
    }

    /// Marks the memory as no longer matching the file (the transaction was rolled back).
    pub fn rolled_back(&mut self) {
        self.stale = true;
    }

    /// Appends an accepted action to the log. An action that is not after the table's last
    /// stored one is refused with a constraint error, as a repeated key always was.
    pub fn append(
        &mut self,
        tx: &Connection,
        table: &str,
        row: &ActionRow,
    ) -> Result<(), StoreError> {
        let key = (row.match_no, row.idx);
        // One look-up of the table's last action, kept to be updated.
        let last_known = self.last.get_mut(table);
        let known = last_known.as_deref().copied().or_else(|| {
            let pending = self.pending.get(table)?;
            pending.rows.last().map(|row| (row.match_no, row.idx))
        });
        let last = match known {
            Some(last) => Some(last),
            None => stored_last(tx, table)?,
        };
        if last.is_some_and(|last| key <= last) {
            return Err(StoreError::Sqlite(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY),
                Some(format!(
                    "action {} of match {} of table {table} is not after the last one stored",
                    row.idx, row.match_no
                )),
            )));
        }
        match last_known {
            Some(last) => *last = key,
            None => {
                self.last.insert(table.to_string(), key);
            }
        }
        self.newest += 1;
        let n = self.newest;
        self.queue_entry(n, table, row);
        match self.pending.get_mut(table) {
            Some(pending) => pending.rows.push(row.clone()),
            None => {
                self.pending.insert(
                    table.to_string(),
                    Pending {
                        first: n,
                        rows: vec![row.clone()],
                    },
                );
                self.by_age.insert(n, table.to_string());
            }
        }
        Ok(())
    }

    /// Called before each commit: folds the tables whose oldest pending action is [`KEEP`]
    /// appends old, and writes everything queued.
    pub fn settle(&mut self, tx: &Connection) -> rusqlite::Result<()> {
        self.fold_before(self.newest - KEEP + 1);
        self.flush(tx)
    }

    /// Folds every table whose oldest pending action's number is below `before` (queued for
    /// [`Folder::flush`]).
    fn fold_before(&mut self, before: i64) {
        while let Some((&first, _)) = self.by_age.first_key_value() {
            if first >= before {
                break;
            }
            let table = self.by_age.remove(&first).expect("the oldest table");
            if let Some(pending) = self.pending.remove(&table) {
                self.folds.push(Fold {
                    table,
                    rows: pending.rows,
                });
            }
        }
    }

    /// Adds append `n` to the last batch due, or starts a new one where it would not fit in
    /// [`BATCH_BYTES`].
    fn queue_entry(&mut self, n: i64, table: &str, row: &ActionRow) {
        self.entry.clear();
        write_entry(&mut self.entry, table, row);
        match self.due.last_mut() {
            // Its comma, and the closing bracket to come.
            Some(batch) if batch.json.len() + self.entry.len() + 2 <= BATCH_BYTES => {
                batch.json.push(',');
                batch.json.push_str(&self.entry);
                batch.newest = n;
            }
            _ => {
                let mut json = String::with_capacity(BATCH_BYTES.max(self.entry.len() + 2));
                json.push('[');
                json.push_str(&self.entry);
                self.due.push(Batch { json, newest: n });
            }
        }
    }

    /// Writes every queued row: the batches of appends to the ring in order, a row each, then
    /// every table's folded actions as runs in multi-row `INSERT`s (the two touch different
    /// tables, and no fold reads the log). Called before the commit and before any statement
    /// that reads or deletes log rows. A failure leaves the transaction to be rolled back (the
    /// memory is then stale).
    pub fn flush(&mut self, tx: &Connection) -> rusqlite::Result<()> {
        for mut batch in std::mem::take(&mut self.due) {
            batch.json.push(']');
            // The row about to be overwritten held batch `batches - RING`: fold its tables.
            if self.batch_ends.len() as i64 >= RING {
                let end = self.batch_ends.pop_front().expect("a full ring");
                self.fold_before(end + 1);
            }
            tx.prepare_cached(
                "INSERT OR REPLACE INTO action_batches (n, entries) VALUES (?1, ?2)",
            )?
            .execute(params![self.batches % RING, batch.json])?;
            self.batches += 1;
            self.batch_ends.push_back(batch.newest);
        }
        let folds = std::mem::take(&mut self.folds);
        let runs: Vec<Run<'_>> = folds
            .iter()
            .flat_map(|fold| runs(&fold.table, &fold.rows))
            .collect();
        insert_runs(tx, &runs)
    }

    /// The actions of `table` that are not folded yet, in order: they come after everything
    /// its runs hold. Read from the log itself while the memory is stale.
    pub fn pending(&self, conn: &Connection, table: &str) -> rusqlite::Result<Vec<ActionRow>> {
        if self.stale {
            return unfolded(conn, table);
        }
        Ok(self
            .pending
            .get(table)
            .map_or_else(Vec::new, |pending| pending.rows.clone()))
    }

    /// Forgets the last action of a table that closed (its actions not folded yet stay, and
    /// are folded as they age): the memory holds only tables that may still play.
    pub fn forget(&mut self, table: &str) {
        self.last.remove(table);
    }

    /// Deletes the actions of `table` from (`match_no`, `from`) on from both tiers (every
    /// action with `match_no` 0 and `from` 0). Its next action may come after any earlier one.
    pub fn cut(
        &mut self,
        tx: &Connection,
        table: &str,
        match_no: u32,
        from: u32,
    ) -> rusqlite::Result<()> {
        self.flush(tx)?;
        for log in OLD_LOGS {
            tx.prepare_cached(&format!(
                "DELETE FROM {log} WHERE table_id = ?1
                 AND (match_no > ?2 OR (match_no = ?2 AND idx >= ?3))"
            ))?
            .execute(params![table, match_no, from])?;
        }
        remove_from_batches(
            tx,
            "e.value ->> 0 = ?1
             AND (e.value ->> 1 > ?2 OR (e.value ->> 1 = ?2 AND e.value ->> 2 >= ?3))",
            params![table, match_no, from],
        )?;
        tx.prepare_cached(
            "DELETE FROM action_runs WHERE table_id = ?1
             AND (match_no > ?2 OR (match_no = ?2 AND first_idx >= ?3))",
        )?
        .execute(params![table, match_no, from])?;
        // The run the cut falls in (at most one: runs do not overlap) keeps what is before it.
        tx.prepare_cached(
            "UPDATE action_runs SET last_idx = ?3 - 1,
                actions = (SELECT json_group_array(json(value) ORDER BY key)
                           FROM json_each(action_runs.actions)
                           WHERE key < ?3 - action_runs.first_idx)
             WHERE table_id = ?1 AND match_no = ?2 AND first_idx < ?3 AND last_idx >= ?3",
        )?
        .execute(params![table, match_no, from])?;
        self.cut_memory(table, match_no, from);
        Ok(())
    }

    /// Deletes every action of the tables `ids` (whose rows are being deleted in `tx`) from
    /// both tiers, with one pass over the log for them all.
    pub fn delete_tables(&mut self, tx: &Connection, ids: &[String]) -> rusqlite::Result<()> {
        self.flush(tx)?;
        for id in ids {
            tx.prepare_cached("DELETE FROM action_runs WHERE table_id = ?1")?
                .execute([id])?;
            self.cut_memory(id, 0, 0);
        }
        if !ids.is_empty() {
            for log in OLD_LOGS {
                tx.execute(
                    &format!(
                        "DELETE FROM {log}
                         WHERE NOT EXISTS (SELECT 1 FROM tables WHERE id = {log}.table_id)"
                    ),
                    [],
                )?;
            }
            remove_from_batches(
                tx,
                "NOT EXISTS (SELECT 1 FROM tables WHERE id = e.value ->> 0)",
                [],
            )?;
        }
        Ok(())
    }

    /// [`Folder::cut`] in memory.
    fn cut_memory(&mut self, table: &str, match_no: u32, from: u32) {
        // Read again from what remains.
        self.last.remove(table);
        if let Some(pending) = self.pending.get_mut(table) {
            pending
                .rows
                .retain(|row| (row.match_no, row.idx) < (match_no, from));
            if pending.rows.is_empty() {
                let first = pending.first;
                self.pending.remove(table);
                self.by_age.remove(&first);
            }
        }
    }
}

/// The last action stored for `table` in its runs (the log holds none of it unfolded when
/// the memory does not know the table).
fn stored_last(tx: &Connection, table: &str) -> rusqlite::Result<Option<(u32, u32)>> {
    tx.prepare_cached(
        "SELECT match_no, last_idx FROM action_runs WHERE table_id = ?1
         ORDER BY match_no DESC, first_idx DESC LIMIT 1",
    )?
    .query_row([table], |row| Ok((row.get(0)?, row.get(1)?)))
    .optional()
}

/// The log's rows of `table` that no run covers, in order.
fn unfolded(conn: &Connection, table: &str) -> rusqlite::Result<Vec<ActionRow>> {
    conn.prepare_cached(
        "SELECT match_no, idx, seat, action, seq
         FROM action_log_all AS l
         WHERE table_id = ?1
         AND NOT EXISTS (SELECT 1 FROM action_runs AS r WHERE r.table_id = l.table_id
                         AND r.match_no = l.match_no
                         AND r.first_idx <= l.idx AND r.last_idx >= l.idx)
         ORDER BY match_no, idx",
    )?
    .query_map([table], super::load::action_row)?
    .collect()
}

/// One row of `action_runs`: consecutive actions of a table in one match.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Run<'a> {
    /// The table.
    table: &'a str,
    /// The match.
    match_no: u32,
    /// The first action's index.
    first: u32,
    /// The last action's index.
    last: u32,
    /// The actions: `[[seat,action,seq],...]`, each action's JSON text as it is (the server
    /// serialized it, so it is JSON; the runs' JSON is not checked again on this path).
    actions: String,
}

/// The runs of a table's actions (in order): a new run at each new match and wherever the
/// indexes skip.
fn runs<'a>(table: &'a str, rows: &[ActionRow]) -> Vec<Run<'a>> {
    let mut runs: Vec<Run<'a>> = Vec::new();
    for row in rows {
        let run = match runs.last_mut() {
            Some(run)
                if run.match_no == row.match_no && run.last.checked_add(1) == Some(row.idx) =>
            {
                run.last = row.idx;
                run.actions.pop(); // the closing bracket
                run.actions.push(',');
                run
            }
            _ => {
                runs.push(Run {
                    table,
                    match_no: row.match_no,
                    first: row.idx,
                    last: row.idx,
                    actions: String::with_capacity(16 * (row.action.len() + 16)),
                });
                let run = runs.last_mut().expect("just pushed");
                run.actions.push('[');
                run
            }
        };
        // The same form as SQLite's `json_array(seat, json(action), seq)`; seq as stored in
        // the log (a signed 64-bit integer). `itoa` rather than `write!`, as in a batch.
        let mut digits = itoa::Buffer::new();
        run.actions.push('[');
        run.actions.push_str(digits.format(row.seat));
        run.actions.push(',');
        run.actions.push_str(&row.action);
        run.actions.push(',');
        run.actions.push_str(digits.format(row.seq as i64));
        run.actions.push_str("]]");
    }
    runs
}

/// The SQL of every multi-row `INSERT` of runs, built once: `[i]` inserts `CHUNKS[i]` runs
/// of five parameters each.
static INSERTS: LazyLock<[String; CHUNKS.len()]> = LazyLock::new(|| {
    CHUNKS.map(|n| {
        let rows = vec!["(?,?,?,?,?)"; n].join(",");
        format!(
            "INSERT OR FAIL INTO action_runs (table_id, match_no, first_idx, last_idx, actions) \
             VALUES {rows}"
        )
    })
});

/// Writes an append's entry of a batch: `[table_id,match_no,idx,seat,seq,action]`.
fn write_entry(out: &mut String, table: &str, row: &ActionRow) {
    out.push('[');
    push_json_string(out, table);
    // `itoa` rather than `write!`: formatting was a fifth of a batch's cost. seq as the log
    // always held it (a signed 64-bit integer).
    let mut digits = itoa::Buffer::new();
    for number in [
        i64::from(row.match_no),
        i64::from(row.idx),
        i64::from(row.seat),
        row.seq as i64,
    ] {
        out.push(',');
        out.push_str(digits.format(number));
    }
    out.push(',');
    out.push_str(&row.action);
    out.push(']');
}

/// Appends `text` as a JSON string. Table ids are plain (letters, digits, `-`, `_`) and are
/// copied as they are; anything else is escaped by `serde_json`.
fn push_json_string(out: &mut String, text: &str) {
    if text
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        out.push('"');
        out.push_str(text);
        out.push('"');
    } else {
        out.push_str(&serde_json::to_string(text).expect("a string serializes"));
    }
}

/// Removes from every batch of the ring the actions matching `which` (SQL over `e.value`, an
/// action's entry, with `params`), rewriting only the batches that hold any.
fn remove_from_batches(
    tx: &Connection,
    which: &str,
    params: impl rusqlite::Params,
) -> rusqlite::Result<()> {
    tx.prepare_cached(&format!(
        "UPDATE action_batches
         SET entries = (SELECT json_group_array(json(e.value) ORDER BY e.key)
                        FROM json_each(action_batches.entries) AS e WHERE NOT ({which}))
         WHERE json_valid(entries)
         AND EXISTS (SELECT 1 FROM json_each(action_batches.entries) AS e WHERE {which})"
    ))?
    .execute(params)?;
    Ok(())
}

/// Inserts runs into `action_runs`, [`CHUNKS`] at a time.
fn insert_runs(tx: &Connection, runs: &[Run<'_>]) -> rusqlite::Result<()> {
    let mut rest = runs;
    for (i, n) in CHUNKS.into_iter().enumerate() {
        while rest.len() >= n {
            let mut insert = tx.prepare_cached(&INSERTS[i])?;
            for (k, run) in rest[..n].iter().enumerate() {
                let at = 5 * k + 1;
                insert.raw_bind_parameter(at, run.table)?;
                insert.raw_bind_parameter(at + 1, run.match_no)?;
                insert.raw_bind_parameter(at + 2, run.first)?;
                insert.raw_bind_parameter(at + 3, run.last)?;
                insert.raw_bind_parameter(at + 4, &run.actions)?;
            }
            insert.raw_execute()?;
            rest = &rest[n..];
        }
    }
    Ok(())
}

/// Stores a table's actions (in order, after any it has) as runs, straight: copying a table
/// into a fresh file.
pub fn insert_actions(tx: &Connection, table: &str, rows: &[ActionRow]) -> rusqlite::Result<()> {
    insert_runs(tx, &runs(table, rows))
}

/// Folds into runs every row of the log that no run covers (a repeated key counts once) and
/// empties the log, inside `tx`. In SQL: the rows of a table and match whose indexes follow
/// each other (an index less its rank is the same for all of them) make one run. A damaged
/// action that is not JSON is kept as a JSON string: the file still opens, and the table is
/// restored up to the step before it.
fn fold_log(tx: &Connection) -> rusqlite::Result<()> {
    tx.execute_batch(
        "INSERT OR FAIL INTO action_runs (table_id, match_no, first_idx, last_idx, actions)
             SELECT table_id, match_no, min(idx), max(idx),
                    json_group_array(json_array(seat,
                                                iif(json_valid(action), json(action), action),
                                                seq) ORDER BY idx)
             FROM (SELECT *, idx - row_number() OVER (PARTITION BY table_id, match_no
                                                      ORDER BY idx) AS island
                   FROM (SELECT *, row_number() OVER (PARTITION BY table_id, match_no, idx
                                                      ORDER BY n) AS copy
                         FROM action_log_all AS l
                         WHERE NOT EXISTS (SELECT 1 FROM action_runs AS r
                                           WHERE r.table_id = l.table_id
                                           AND r.match_no = l.match_no
                                           AND r.first_idx <= l.idx AND r.last_idx >= l.idx))
                   WHERE copy = 1)
             GROUP BY table_id, match_no, island;
         DELETE FROM action_log;
         DELETE FROM action_log_b;
         DELETE FROM action_batches;",
    )
}

/// Folds every row of the log into runs in a transaction of its own: on opening a file (a
/// process that was killed left some) and on closing it.
pub fn fold_all(conn: &mut Connection) -> Result<(), StoreError> {
    let tx = conn.transaction()?;
    fold_log(&tx)?;
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::sqlite::fold_tests::insert_log_row;

    fn row(match_no: u32, idx: u32, action: &str) -> ActionRow {
        ActionRow {
            match_no,
            idx,
            seat: (idx % 4) as u8,
            action: action.into(),
            seq: u64::from(idx) * 3 + 1,
        }
    }

    #[test]
    fn a_run_breaks_at_a_new_match_and_where_indexes_skip_and_is_what_sqlite_would_write() {
        let odd = r#"{"type":"say","text":"caf\u00e9 \"q\"","n":[1.50e3,{}]}"#;
        let rows = [
            row(1, 0, r#"{"type":"play","card":"2C"}"#),
            row(1, 1, odd),
            row(1, 3, r#"{"type":"pass"}"#),
            row(2, 4, r#"{"type":"bid","tricks":7}"#),
            row(2, 5, r#"{"type":"play","card":"QS"}"#),
        ];
        let made = runs("t", &rows);
        let keys: Vec<_> = made
            .iter()
            .map(|r| (r.table, r.match_no, r.first, r.last))
            .collect();
        assert_eq!(keys, vec![("t", 1, 0, 1), ("t", 1, 3, 3), ("t", 2, 4, 5)]);
        // The same text as SQLite's own `json_array`, run by run.
        let conn = Connection::open_in_memory().unwrap();
        let groups: [&[ActionRow]; 3] = [&rows[..2], &rows[2..3], &rows[3..]];
        for (run, group) in made.iter().zip(groups) {
            let mut sqlite = String::from("[]");
            for row in group {
                sqlite = conn
                    .query_row(
                        "SELECT json_insert(?1, '$[#]', json_array(?2, json(?3), ?4))",
                        params![sqlite, row.seat, row.action, row.seq as i64],
                        |r| r.get(0),
                    )
                    .unwrap();
            }
            assert_eq!(run.actions, sqlite);
        }
        assert!(made[0].actions.contains(odd), "the action's text as it is");
    }

    /// A file of the newest schema, in memory.
    fn database() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        for sql in super::super::schema::MIGRATIONS {
            conn.execute_batch(sql).unwrap();
        }
        conn
    }

    #[test]
    fn what_the_log_holds_beyond_the_runs_is_read_and_folded_once() {
        let conn = database();
        let play = |match_no, idx| row(match_no, idx, r#"{"type":"play","card":"2C"}"#);
        // Runs (1, 0..=3) and (2, 0..=1).
        let folded: Vec<ActionRow> = (0..4)
            .map(|i| play(1, i))
            .chain([play(2, 0), play(2, 1)])
            .collect();
        insert_actions(&conn, "t", &folded).unwrap();
        // The log: actions already folded (still in the ring), then newer ones, one of them in
        // both halves of the log.
        let newer = [play(2, 2), play(2, 3), play(2, 4)];
        for (n, row) in [play(1, 2), play(1, 3), play(2, 1)]
            .iter()
            .chain(&newer)
            .enumerate()
        {
            insert_log_row(&conn, "action_log", n as i64, "t", row);
        }
        let mut again = newer[1].clone();
        again.action = r#"{"type":"play","card":"9H"}"#.into();
        insert_log_row(&conn, "action_log_b", 100, "t", &again);
        assert_eq!(
            unfolded(&conn, "t").unwrap().len(),
            4,
            "the repeat counts in the log"
        );

        fold_log(&conn).unwrap();
        let runs: Vec<(u32, u32, u32)> = conn
            .prepare("SELECT match_no, first_idx, last_idx FROM action_runs ORDER BY 1, 2")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(runs, vec![(1, 0, 3), (2, 0, 1), (2, 2, 4)]);
        let logged: i64 = conn
            .query_row(
                "SELECT (SELECT count(*) FROM action_log) + (SELECT count(*) FROM action_log_b)",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(logged, 0);
        assert!(unfolded(&conn, "t").unwrap().is_empty());
        // Read back: the folded runs, then the log's rows once each (the ring's, appended
        // first, kept of a repeat).
        let read: Vec<ActionRow> = conn
            .prepare(
                "SELECT r.match_no, r.first_idx + a.key, a.value ->> 0, a.value -> 1,
                        a.value ->> 2
                 FROM action_runs AS r, json_each(r.actions) AS a
                 ORDER BY r.match_no, r.first_idx, a.key",
            )
            .unwrap()
            .query_map([], super::super::load::action_row)
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let expected: Vec<ActionRow> = folded.into_iter().chain(newer).collect();
        assert_eq!(read, expected);
        assert_eq!(stored_last(&conn, "t").unwrap(), Some((2, 4)));
    }

    /// Appends of two tables, one whose id needs escaping, come back through the log's view
    /// exactly as appended, from batches that each fit in a page.
    #[test]
    fn batches_hold_the_appends_as_sent_each_within_a_page() {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::schema::migrate(&mut conn).unwrap();
        let tx = conn.transaction().unwrap();
        let mut folder = Folder::default();
        let tables = ["plain-1_a", "odd \"id\" caf\u{e9}"];
        let odd = r#"{"type":"say","text":"caf\u00e9 \"q\"","n":[1.50e3,{}]}"#;
        let mut appended: [Vec<ActionRow>; 2] = Default::default();
        for i in 0..200u32 {
            let t = (i % 2) as usize;
            let text = if i % 7 == 0 {
                odd
            } else {
                r#"{"type":"play","card":"2C"}"#
            };
            let row = row(1, i / 2, text);
            folder.append(&tx, tables[t], &row).unwrap();
            appended[t].push(row);
        }
        folder.flush(&tx).unwrap();
        let (batches, longest): (i64, i64) = tx
            .query_row(
                "SELECT count(*), max(length(entries)) FROM action_batches",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert!(batches > 1, "{batches} batches");
        assert!(
            longest as usize <= BATCH_BYTES,
            "a batch of {longest} bytes"
        );
        for (table, rows) in tables.iter().zip(&appended) {
            assert_eq!(&unfolded(&tx, table).unwrap(), rows, "{table}");
        }
    }
}
