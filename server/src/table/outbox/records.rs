//! The records a table appends to the store: the rows for a new table, a match, an accepted
//! action, the seats and the table's closing. Each write's acknowledgement gates the current
//! step's output (see the parent module).
//!
//! It builds rows only; it sends nothing and holds nothing.

use std::sync::Arc;

use parlor_shared::fair::Hash32;
use parlor_shared::protocol::{TableOptions, TableStatus};
use parlor_shared::view::json;
use parlor_shared::{Action, Options, Seat, Variant};

use super::Outbox;
use crate::store::{
    Ack, ActionRow, ChatRow, MatchRow, ResultRow, SeatRow, TableRow, Write, now_millis, status_name,
};

/// Room for an action's JSON: a pass of three cards is 40 bytes.
const ACTION_ROOM: usize = 48;

impl Outbox {
    /// Queues a write; its acknowledgement, addressed to the table's [`super::Delivery`],
    /// gates this step's output.
    fn write(&mut self, write: Write) {
        if self.store.is_none() {
            return;
        }
        let (number, delivery) = self.next_write();
        if let Some(store) = &self.store {
            store.append_then(write, Ack::numbered(delivery, number));
        }
    }

    /// A new table.
    pub fn record_table_created(
        &mut self,
        variant: Variant,
        options: &Options,
        table_options: &TableOptions,
        seed: Option<u64>,
        host_key: Option<String>,
    ) {
        if self.store.is_none() {
            return;
        }
        let row = TableRow {
            id: self.table().to_string(),
            variant: variant.to_string(),
            options: serde_json::to_string(options).expect("options serialize"),
            table_options: serde_json::to_string(table_options).expect("table options serialize"),
            seed,
            created: now_millis(),
            status: status_name(TableStatus::Waiting).to_string(),
            host: None,
            host_key,
        };
        self.write(Write::Table(row));
    }

    /// A match started, dealing from `master` (`seed`: a practice table's seed, else 0);
    /// `seq` is the event counter after its opening deal.
    pub fn record_match_started(&mut self, seed: u64, master: Hash32, seq: u64) {
        self.match_no += 1;
        let row = MatchRow {
            match_no: self.match_no,
            seed,
            seq,
            secret: Some(master),
        };
        let table = self.table().to_string();
        self.write(Write::Match { table, row });
    }

    /// The `index`-th action of the current match was accepted; `seq` is the event counter
    /// after its events.
    pub fn record_action(&mut self, index: usize, seat: Seat, action: &Action, seq: u64) {
        if self.store.is_none() {
            return;
        }
        let row = ActionRow {
            match_no: self.match_no,
            idx: index as u32,
            seat: seat.0,
            action: {
                let mut text = String::with_capacity(ACTION_ROOM);
                json::write_action(&mut text, action);
                text
            },
            seq,
        };
        let table = Arc::clone(self.delivery.table());
        self.write(Write::Action { table, row });
    }

    /// The seats, host and status now; written only when they changed.
    pub fn record_state(&mut self, status: TableStatus, host: Option<Seat>, seats: Vec<SeatRow>) {
        if self.store.is_none() {
            return;
        }
        let changed = self
            .last_state
            .as_ref()
            .is_none_or(|(s, h, rows)| *s != status || *h != host || *rows != seats);
        if !changed {
            return;
        }
        self.last_state = Some((status, host, seats.clone()));
        let table = self.table().to_string();
        self.write(Write::State {
            table,
            status: status_name(status),
            host: host.map(|h| h.0),
            seats,
        });
    }

    /// A line of table talk; the store keeps the table's last `keep` lines.
    pub fn record_chat(&mut self, row: ChatRow, keep: usize) {
        if self.store.is_none() {
            return;
        }
        let table = self.table().to_string();
        self.write(Write::Chat {
            table,
            row,
            keep: keep as u64,
        });
    }

    /// A finished match's result, stored in the same step as its final move.
    pub fn record_result(&mut self, row: ResultRow) {
        if self.store.is_none() {
            return;
        }
        self.write(Write::Result(row));
    }

    /// The table closed for good (nobody came back): it is not brought back on start.
    pub fn record_closed(&mut self) {
        let table = self.table().to_string();
        self.write(Write::Closed { table });
    }

    /// The table is forgotten: nobody ever sat at it, so nothing of it is kept.
    pub fn record_deleted(&mut self) {
        let table = self.table().to_string();
        self.write(Write::Deleted { table });
    }

    /// Marks the last written state as already stored (a table just rebuilt from it).
    pub fn assume_recorded_state(
        &mut self,
        status: TableStatus,
        host: Option<Seat>,
        seats: Vec<SeatRow>,
    ) {
        self.last_state = Some((status, host, seats));
    }
}
