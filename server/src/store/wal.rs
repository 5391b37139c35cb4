//! The table actor's side of the store: it records what the table does and holds back what
//! the table sends until those records are committed.
//!
//! While a store is attached, every frame (and join reply) a table produces during one step
//! waits in [`WriteAhead`]; at the end of the step the actor calls [`WriteAhead::commit`],
//! which waits for the step's writes to be acknowledged and then delivers everything in
//! order. Steps that wrote nothing deliver at once. Without a store frames go straight out.

use parlor_shared::protocol::{ServerMsg, TableOptions, TableStatus};
use parlor_shared::{Action, Options, Seat, Variant};
use tokio::sync::oneshot;

use super::records::{ActionRow, MatchRow, SeatRow, TableRow};
use super::writer::Write;
use super::{Store, now_millis};
use crate::table::{Client, ConnId, Frame, frame};

/// Something the table produced that waits for the step's writes.
enum Held {
    /// A frame for one connection.
    Frame(Client, Frame),
    /// The answer to a join request.
    Reply(oneshot::Sender<bool>, bool),
}

/// Records a table's changes and holds its output until they are durable.
pub struct WriteAhead {
    /// The store, if the server keeps one.
    store: Option<Store>,
    /// The table's id.
    table: String,
    /// Output waiting for the step's writes.
    held: Vec<Held>,
    /// The acknowledgement of the step's last write (the writer acknowledges in order).
    pending: Option<oneshot::Receiver<Result<(), String>>>,
    /// The current match's number (0 before the first).
    match_no: u32,
    /// The seats, host and status last written, so unchanged ones are not written again.
    last_state: Option<(TableStatus, Option<Seat>, Vec<SeatRow>)>,
}

impl WriteAhead {
    /// A table that keeps nothing: frames go straight out.
    #[must_use]
    pub fn disabled(table: &str) -> WriteAhead {
        WriteAhead {
            store: None,
            table: table.to_string(),
            held: Vec::new(),
            pending: None,
            match_no: 0,
            last_state: None,
        }
    }

    /// A table that records into `store` (`None`: keeps nothing), `match_no` matches in.
    #[must_use]
    pub fn new(store: Option<Store>, table: &str, match_no: u32) -> WriteAhead {
        WriteAhead {
            store,
            match_no,
            ..WriteAhead::disabled(table)
        }
    }

    /// The store, if one is attached.
    #[must_use]
    pub fn store(&self) -> Option<Store> {
        self.store.clone()
    }

    /// True when a store is attached.
    #[must_use]
    pub fn is_enabled(&self) -> bool {
        self.store.is_some()
    }

    // ---- output -------------------------------------------------------------------------

    /// Queues a frame for `client`. Returns `false` when it is known at once that the
    /// connection is gone or too slow (only without a store; with one, [`Self::commit`]
    /// reports those connections).
    pub fn send(&mut self, client: &Client, frame: Frame) -> bool {
        if self.store.is_some() {
            self.held.push(Held::Frame(client.clone(), frame));
            true
        } else {
            client.send(frame)
        }
    }

    /// Serializes and queues one message (see [`Self::send`]).
    pub fn send_msg(&mut self, client: &Client, msg: &ServerMsg) -> bool {
        self.send(client, frame(msg))
    }

    /// Answers a join request, after the step's writes.
    pub fn reply(&mut self, reply: oneshot::Sender<bool>, joined: bool) {
        if self.store.is_some() {
            self.held.push(Held::Reply(reply, joined));
        } else {
            let _ = reply.send(joined);
        }
    }

    /// Waits for the step's writes, then delivers what was held, in order. Returns the
    /// connections found gone or too slow while delivering. A write the database refused is
    /// logged and the output still goes out (the game in memory has moved on); when the writer
    /// has stopped (the server is stopping) the output is dropped.
    pub async fn commit(&mut self) -> Vec<ConnId> {
        if let Some(pending) = self.pending.take() {
            match pending.await {
                Ok(Ok(())) => {}
                Ok(Err(err)) => {
                    tracing::error!(table = %self.table, %err, "a change was not stored; play goes on");
                }
                Err(_) => {
                    // Only when the server is stopping: what was not stored is not sent.
                    tracing::warn!(table = %self.table, "the database writer has stopped");
                    self.held.clear();
                    return Vec::new();
                }
            }
        }
        let mut dropped = Vec::new();
        for held in self.held.drain(..) {
            match held {
                Held::Frame(client, frame) => {
                    if !client.send(frame) {
                        dropped.push(client.id);
                    }
                }
                Held::Reply(reply, joined) => {
                    let _ = reply.send(joined);
                }
            }
        }
        dropped
    }

    // ---- records ------------------------------------------------------------------------

    /// Queues a write; its acknowledgement gates this step's output.
    fn write(&mut self, write: Write) {
        if let Some(store) = &self.store {
            self.pending = Some(store.write(write));
        }
    }

    /// A new table.
    pub fn table_created(
        &mut self,
        variant: Variant,
        options: &Options,
        table_options: &TableOptions,
        seed: Option<u64>,
    ) {
        if self.store.is_none() {
            return;
        }
        let row = TableRow {
            id: self.table.clone(),
            variant: variant.to_string(),
            options: serde_json::to_string(options).expect("options serialize"),
            table_options: serde_json::to_string(table_options).expect("table options serialize"),
            seed,
            created: now_millis(),
            status: status_name(TableStatus::Waiting).to_string(),
            host: None,
        };
        self.write(Write::Table(row));
    }

    /// A match started with `seed`; `seq` is the event counter after its opening deal.
    pub fn match_started(&mut self, seed: u64, seq: u64) {
        self.match_no += 1;
        let row = MatchRow {
            match_no: self.match_no,
            seed,
            seq,
        };
        let table = self.table.clone();
        self.write(Write::Match { table, row });
    }

    /// The `index`-th action of the current match was accepted; `seq` is the event counter
    /// after its events.
    pub fn action(&mut self, index: usize, seat: Seat, action: &Action, seq: u64) {
        if self.store.is_none() {
            return;
        }
        let row = ActionRow {
            match_no: self.match_no,
            idx: index as u32,
            seat: seat.0,
            action: serde_json::to_string(action).expect("actions serialize"),
            seq,
        };
        let table = self.table.clone();
        self.write(Write::Action { table, row });
    }

    /// The seats, host and status now; written only when they changed.
    pub fn state(&mut self, status: TableStatus, host: Option<Seat>, seats: Vec<SeatRow>) {
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
        let table = self.table.clone();
        self.write(Write::State {
            table,
            status: status_name(status),
            host: host.map(|h| h.0),
            seats,
        });
    }

    /// The table closed for good (nobody came back): it is not brought back on start.
    pub fn closed(&mut self) {
        let table = self.table.clone();
        self.write(Write::Closed { table });
    }

    /// Marks the last written state as already stored (a table just rebuilt from it).
    pub fn assume_state(&mut self, status: TableStatus, host: Option<Seat>, seats: Vec<SeatRow>) {
        self.last_state = Some((status, host, seats));
    }
}

/// The status's name in the database.
fn status_name(status: TableStatus) -> &'static str {
    match status {
        TableStatus::Waiting => "waiting",
        TableStatus::Playing => "playing",
        TableStatus::Finished => "finished",
    }
}
